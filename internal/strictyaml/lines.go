package strictyaml

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Lines maps the dotted path of every key and sequence item of a YAML (or
// JSON) document to its 1-based line ("training.seq_len", "rules[2]"), in
// the form Decode names fields. Checks done after decoding use it to point
// at the line, and to tell a value given as 0 from one left out. Aliases are
// not followed, so the work is bounded by the document's size. An
// unparsable document gives an empty map.
type Lines map[string]int

// IndexLines builds the Lines of data.
func IndexLines(data []byte) Lines {
	lines := Lines{}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return lines
	}
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		if depth > 64 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				if _, seen := lines[p]; !seen {
					lines[p] = k.Line
				}
				walk(n.Content[i+1], p, depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := path + "[" + strconv.Itoa(i) + "]"
				if _, seen := lines[p]; !seen {
					lines[p] = c.Line
				}
				walk(c, p, depth+1)
			}
		}
	}
	walk(doc.Content[0], "", 0)
	return lines
}

// LineOf is Lines.Line over data, indexed at its first call: a document
// checked without a problem is parsed once, not twice. It is not safe for
// concurrent use.
func LineOf(data []byte) func(path string) int {
	var lines Lines
	return func(path string) int {
		if lines == nil {
			lines = IndexLines(data)
		}
		return lines.Line(path)
	}
}

// Has reports whether the document gave path.
func (l Lines) Has(path string) bool {
	_, ok := l[path]
	return ok
}

// Line is the line of path or, when the document lacks it, of its nearest
// ancestor that it has (so "training.tokens: required" points at the
// training block); 0 when none is present.
func (l Lines) Line(path string) int {
	for path != "" {
		if n, ok := l[path]; ok {
			return n
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return 0
		}
		path = path[:i]
	}
	return 0
}

// Children lists the keys directly under path, sorted.
func (l Lines) Children(path string) []string {
	var found []string
	for k := range l {
		if rest, ok := strings.CutPrefix(k, path+"."); ok && !strings.ContainsAny(rest, ".[") {
			found = append(found, rest)
		}
	}
	return sortedOrderFree(found)
}

// sortedOrderFree sorts a few distinct strings by counting, for each, the
// others below it: every pair is compared whatever the order the map gave
// them in, so the code paths taken (and the coverage a fuzzer sees) do not
// depend on Go's random map order. A comparison sort's would, and would
// make every input look new to the fuzzer.
func sortedOrderFree(keys []string) []string {
	out := make([]string, len(keys))
	for _, k := range keys {
		below := 0
		for _, o := range keys {
			if o < k {
				below++
			}
		}
		out[below] = k
	}
	return out
}
