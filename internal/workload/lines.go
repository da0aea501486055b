package workload

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fieldLines maps the dotted path of every key in a YAML (or JSON) document
// to its 1-based line, so that errors found after decoding can point at the
// line, and so that "given as 0" can be told from "absent". Sequence items
// are path[i]. It never fails: an unparsable document gives an empty map.
type fieldLines map[string]int

func indexLines(data []byte) fieldLines {
	lines := fieldLines{}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return lines
	}
	lines.walk(doc.Content[0], "", 0)
	return lines
}

// maxDepth bounds the walk; a workload file is four levels deep, and aliases
// could otherwise make a document expand without end.
const maxDepth = 16

func (l fieldLines) walk(n *yaml.Node, path string, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
		if n == nil {
			return
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if _, seen := l[p]; !seen {
				l[p] = k.Line
			}
			l.walk(v, p, depth+1)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			if _, seen := l[p]; !seen {
				l[p] = c.Line
			}
			l.walk(c, p, depth+1)
		}
	}
}

// has reports whether the document gave path.
func (l fieldLines) has(path string) bool {
	_, ok := l[path]
	return ok
}

// line is the line of path or, when the document does not have it, of its
// nearest ancestor that it does have (so "training.tokens: required" points
// at the training block); 0 when none is present.
func (l fieldLines) line(path string) int {
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
