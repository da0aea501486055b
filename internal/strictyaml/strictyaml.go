// Package strictyaml decodes YAML (and JSON, which YAML contains) into Go
// structs strictly: a key the struct does not know is an error that names the
// key's path and line, and a value of the wrong type is an error that names
// its path and line too. Users edit these files by hand; an error that points
// at the line is the difference between a fix and a guess.
package strictyaml

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
)

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// Decode parses data into out (a pointer to a struct, slice or map). Every
// problem is returned as an apperr.List of Invalid errors with Line and Field
// set; the file name is left for the caller (apperr.InFile).
func Decode(data []byte, out any) error {
	if err := jsonSyntax(data); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return syntaxError(err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return apperr.List{{Code: apperr.Invalid, Msg: "the document is empty"}}
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil && len(next.Content) > 0 {
		return apperr.List{{Code: apperr.Invalid, Line: max(1, next.Content[0].Line-1),
			Msg: "a second YAML document starts here (after ---): a file holds one document"}}
	} else if err != nil && !errors.Is(err, io.EOF) {
		return syntaxError(err)
	}
	root := doc.Content[0]
	if want := topKind(out); want != 0 && root.Kind != want {
		names := map[yaml.Kind]string{yaml.MappingNode: "a mapping of keys", yaml.SequenceNode: "a list", yaml.ScalarNode: "a single value"}
		return apperr.List{{Code: apperr.Invalid, Line: root.Line,
			Message: msg.New("want %s at the top of the document, got %s", names[want], names[root.Kind])}}
	}
	w := walker{lines: map[int]string{}, kinds: map[int]reflect.Kind{}}
	w.walk(root, reflect.TypeOf(out), "")
	if len(w.errs) > 0 {
		return w.errs
	}
	if err := root.Decode(out); err != nil {
		return w.typeError(err)
	}
	return nil
}

// topKind is the YAML kind out's type decodes from: a mapping for a struct
// or map, a list for a slice; 0 when anything goes.
func topKind(out any) yaml.Kind {
	t := reflect.TypeOf(out)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return 0
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return yaml.MappingNode
	case reflect.Slice, reflect.Array:
		return yaml.SequenceNode
	}
	return 0
}

// jsonSyntax reports a document written as JSON (it opens with { and a
// quoted key, or [) that is not valid JSON, at its line: YAML would
// otherwise read it, a trailing comma and all, and fail later with a
// message about something else.
func jsonSyntax(data []byte) error {
	s := bytes.TrimLeft(data, " \t\r\n\ufeff")
	isJSON := len(s) > 1 && (s[0] == '[' || s[0] == '{' && bytes.HasPrefix(bytes.TrimLeft(s[1:], " \t\r\n"), []byte{'"'}))
	if !isJSON || json.Valid(s) {
		return nil
	}
	var v any
	err := json.Unmarshal(s, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return nil
	}
	off := int(se.Offset) + len(data) - len(s)
	line := 1 + bytes.Count(data[:min(off, len(data))], []byte{'\n'})
	return apperr.List{{Code: apperr.Invalid, Line: line, Msg: "JSON syntax error: " + se.Error()}}
}

type walker struct {
	errs  apperr.List
	lines map[int]string       // line -> deepest field path seen on it
	kinds map[int]reflect.Kind // line -> the Go kind the value there decodes into
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (w *walker) walk(n *yaml.Node, t reflect.Type, path string) {
	if n.Kind == yaml.AliasNode {
		// The anchor was checked where it is defined; following aliases
		// here would let a small document expand exponentially.
		return
	}
	if path != "" {
		w.lines[n.Line] = path
	}
	for t.Kind() == reflect.Pointer {
		if t.Implements(unmarshalerType) {
			return
		}
		t = t.Elem()
	}
	if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	if path != "" {
		w.kinds[n.Line] = t.Kind()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// yaml truncates 2.5 into an int silently: a count must be whole.
		if n.Kind == yaml.ScalarNode && n.Tag == "!!float" {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f != math.Trunc(f) {
				w.errs = append(w.errs, &apperr.Error{Code: apperr.Invalid, Line: n.Line, Field: path,
					Message: msg.New("want a whole number, got %s", n.Value)})
			}
		}
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // node.Decode reports the type mismatch
		}
		fields := structFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				m := suggest(k.Value, fields)
				w.errs = append(w.errs, &apperr.Error{Code: apperr.Invalid, Line: k.Line, Field: join(path, k.Value), Msg: m.String(), Message: m})
				continue
			}
			w.lines[k.Line] = join(path, k.Value)
			w.walk(v, ft, join(path, k.Value))
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, c := range n.Content {
			w.walk(c, t.Elem(), path+"["+strconv.Itoa(i)+"]")
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			w.lines[k.Line] = join(path, k.Value)
			w.walk(v, t.Elem(), join(path, k.Value))
		}
	}
}

// structFields maps the YAML keys of t (following inline fields) to their types.
func structFields(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range structFields(ft) {
					m[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		m[name] = f.Type
	}
	return m
}

// suggest says a key is unknown, naming the closest known key when the
// unknown one looks like a typo, or the known keys when they are few.
func suggest(key string, fields map[string]reflect.Type) msg.Msg {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	// In key order, whatever order the map gives: the same key wins a tie
	// every time (and a fuzzer sees the same paths for the same input).
	keys = sortedOrderFree(keys)
	best, bestD := "", 3
	for _, k := range keys {
		if d := distance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return msg.New("unknown key (did you mean %q?)", best)
	}
	if len(keys) > 12 {
		return msg.New("unknown key")
	}
	return msg.New("unknown key (known keys: %s)", strings.Join(keys, ", "))
}

// distance is the Levenshtein edit distance of two short strings.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var lineRe = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

func (w *walker) typeError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return syntaxError(err)
	}
	var l apperr.List
	for _, s := range te.Errors {
		e := &apperr.Error{Code: apperr.Invalid, Msg: s}
		if m := lineRe.FindStringSubmatch(s); m != nil {
			e.Line, _ = strconv.Atoi(m[1])
			e.Msg = friendly(m[2], w.kinds[e.Line])
			e.Field = w.lines[e.Line]
		}
		l = append(l, e)
	}
	return l
}

var cannotRe = regexp.MustCompile("^cannot unmarshal !!(\\w+) `(.*)` into (.*)$")

var cannotCollectionRe = regexp.MustCompile(`^cannot unmarshal !!(map|seq) into (.*)$`)

// friendly rewrites yaml's Go-flavoured type errors for people.
func friendly(msg string, kind reflect.Kind) string {
	m := cannotRe.FindStringSubmatch(msg)
	if m == nil {
		if c := cannotCollectionRe.FindStringSubmatch(msg); c != nil {
			got := "a mapping (key: value)"
			if c[1] == "seq" {
				got = "a list"
			}
			return fmt.Sprintf("want %s, got %s", wantText(c[2], kind), got)
		}
		return msg
	}
	return fmt.Sprintf("want %s, got %q", wantText(m[3], kind), m[2])
}

// wantText names the Go type a value should decode into, for people.
func wantText(want string, kind reflect.Kind) string {
	switch kind {
	case reflect.Struct, reflect.Map:
		return "a mapping (key: value)"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	}
	switch {
	case strings.Contains(want, "float"):
		want = "a number"
	case strings.Contains(want, "int"):
		want = "a whole number"
	case want == "bool":
		want = "true or false"
	case want == "string":
		want = "a string"
	case strings.HasPrefix(want, "[]"):
		want = "a list"
	case strings.HasPrefix(want, "map"):
		want = "a mapping (key: value)"
	}
	return want
}

func syntaxError(err error) error {
	s := err.Error()
	e := &apperr.Error{Code: apperr.Invalid, Msg: strings.TrimPrefix(s, "yaml: ")}
	if m := lineRe.FindStringSubmatch(s); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
	}
	return apperr.List{e}
}
