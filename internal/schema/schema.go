// Package schema writes JSON Schema (draft 2020-12) for the files gpupick
// reads, from the Go types they decode into: the properties and their
// types come from the structs and their yaml tags, the descriptions from
// the fields' doc comments (extracted by package godoc into a generated
// file, as a binary holds no comments), and the package that owns a file
// adds what the types cannot say: enumerations, ranges, required keys.
// The schemas are generated, never written by hand, so they cannot drift
// from the parser.
package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Node is one schema object, keyed as JSON Schema is.
type Node = map[string]any

// Draft is the JSON Schema dialect of every document written here.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Hint adds to the schema n of the field at path (dotted yaml keys, "[]"
// for the items of a list) what its Go type cannot say.
type Hint func(path string, n Node)

// Builder describes Go structs as the YAML files that decode into them.
type Builder struct {
	// Docs are doc comments by "Type" and "Type.Field" (Go names).
	Docs map[string]string
	// Hint, when set, is called for every field, items and nested blocks
	// included, after its type and description are set.
	Hint Hint
}

// Object describes struct type t: one property per yaml key, no other
// keys allowed (the files' parsers refuse unknown keys).
func (b *Builder) Object(t reflect.Type, path string) Node {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	props := Node{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		p := join(path, name)
		n := b.value(f.Type, p)
		if d := b.fieldDoc(t, f, name); d != "" {
			n["description"] = d
		}
		if b.Hint != nil {
			b.Hint(p, n)
		}
		props[name] = n
	}
	n := Node{"type": "object", "properties": props, "additionalProperties": false}
	if d := b.Docs[t.Name()]; d != "" {
		n["description"] = d
	}
	return n
}

// value describes a field's type; nested blocks may be written empty
// (null), which the parsers read as a block of defaults.
func (b *Builder) value(t reflect.Type, path string) Node {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return Node{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Node{"type": "integer"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Node{"type": "integer", "minimum": 0}
	case reflect.Float32, reflect.Float64:
		return Node{"type": "number"}
	case reflect.String:
		return Node{"type": "string"}
	case reflect.Slice, reflect.Array:
		items := b.value(t.Elem(), path+"[]")
		if b.Hint != nil {
			b.Hint(path+"[]", items)
		}
		return Node{"type": "array", "items": items}
	case reflect.Map:
		return Node{"type": "object", "additionalProperties": b.value(t.Elem(), path+".*")}
	case reflect.Struct:
		n := b.Object(t, path)
		n["type"] = []string{"object", "null"}
		return n
	}
	return Node{}
}

// fieldDoc is the field's doc comment with its Go name replaced by the
// key a file uses ("Name labels the job" becomes "name labels the job").
func (b *Builder) fieldDoc(t reflect.Type, f reflect.StructField, key string) string {
	d := b.Docs[t.Name()+"."+f.Name]
	if rest, ok := strings.CutPrefix(d, f.Name+" "); ok {
		d = key + " " + rest
	}
	return d
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Document makes root a schema document: the dialect, its id and title.
func Document(id, title string, root Node) Node {
	root["$schema"] = Draft
	root["$id"] = id
	root["title"] = title
	return root
}

// Marshal writes n as indented JSON with a final newline; keys are
// sorted, so the same schema is the same bytes.
func Marshal(n Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Enum sets n's allowed values: a string field (or list items) takes one
// of them.
func Enum[T ~string](n Node, values ...T) {
	out := make([]string, 0, len(values))
	seen := map[string]bool{}
	for _, v := range values {
		if s := string(v); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	n["enum"] = out
}

// Range sets n's bounds: minimum (exclusive when open), and maximum when
// max > 0.
func Range(n Node, min float64, open bool, max float64) {
	if open {
		n["exclusiveMinimum"] = min
		delete(n, "minimum")
	} else {
		n["minimum"] = min
	}
	if max > 0 {
		n["maximum"] = max
	}
}

// Walk calls f for every property schema below n, by dotted path ("a.b";
// an array's item schema as "a[]"), parents before children.
func Walk(n Node, f func(path string, n Node)) { walk(n, "", f) }

func walk(n Node, path string, f func(path string, n Node)) {
	if props, ok := n["properties"].(Node); ok {
		for k, v := range props {
			p := join(path, k)
			f(p, v.(Node))
			walk(v.(Node), p, f)
		}
	}
	if items, ok := n["items"].(Node); ok {
		f(path+"[]", items)
		walk(items, path+"[]", f)
	}
}
