package export

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
)

// doc is one YAML document: a value to encode, the comment lines above it,
// and comments to place above given keys. Keys are dotted paths of mapping
// keys from the document root ("spec.template.spec.nodeClassRef"); a path
// that does not exist is a bug, reported as an internal error.
type doc struct {
	header   []string
	value    any
	comments map[string]string
}

// render encodes documents, separated by "---", with two-space indentation.
func render(docs ...doc) ([]byte, error) {
	var out bytes.Buffer
	for i, d := range docs {
		if i > 0 {
			out.WriteString("---\n")
		}
		var n yaml.Node
		if err := n.Encode(d.value); err != nil {
			return nil, err
		}
		for path, c := range d.comments {
			k := find(&n, strings.Split(path, "."))
			if k == nil {
				return nil, &apperr.Error{Code: apperr.Internal, Msg: "no key " + path + " to comment on"}
			}
			k.HeadComment = c
		}
		for _, h := range d.header {
			out.WriteString(strings.TrimRight("# "+h, " ") + "\n")
		}
		enc := yaml.NewEncoder(&out)
		enc.SetIndent(2)
		if err := enc.Encode(&n); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// find returns the key node at path below n, or nil.
func find(n *yaml.Node, path []string) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != path[0] {
			continue
		}
		if len(path) == 1 {
			return n.Content[i]
		}
		return find(n.Content[i+1], path[1:])
	}
	return nil
}
