package workload

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/schema"
	"github.com/gpupick/gpupick/internal/schema/godoc"
)

var update = flag.Bool("update", false, "rewrite generated files")

// TestSchemaDocs keeps schema_docs.go, the doc comments the schema
// describes fields with, equal to the comments in spec.go (go generate
// rewrites it).
func TestSchemaDocs(t *testing.T) {
	if err := godoc.Sync("workload", "specDocs", "schema_docs.go", *update, "spec.go"); err != nil {
		t.Error(err)
	}
}

// TestSchemaRanges: every numeric field of the schema has the bound the
// parser enforces, and every bound in FieldRanges is on a field of the
// schema.
func TestSchemaRanges(t *testing.T) {
	seen := map[string]bool{}
	schema.Walk(JSONSchema(), func(path string, n schema.Node) {
		if n["type"] != "number" && n["type"] != "integer" {
			return
		}
		seen[path] = true
		r, ok := FieldRanges[path]
		if !ok {
			r, ok = extraRanges[path]
		}
		if !ok {
			t.Errorf("%s: numeric field with no upper bound in FieldRanges", path)
			return
		}
		if n["maximum"] != r.Max {
			t.Errorf("%s: maximum %v, want %v", path, n["maximum"], r.Max)
		}
		if n["description"] == nil {
			t.Errorf("%s: no description", path)
		}
	})
	for path := range FieldRanges {
		if !seen[path] {
			t.Errorf("FieldRanges has %s, which is no numeric field of the schema", path)
		}
	}
}

// TestSchemaEnumsParse: every value a schema enum lists is one the parser
// takes for that field, in a workload of some kind.
func TestSchemaEnumsParse(t *testing.T) {
	bases := []string{
		"kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9}\n",
		"kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9}\nparallelism: {pipeline: 2}\n", // dualpipe needs a pipeline
		"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 100, output_tokens: 100}\n",
		"kind: cnn-train\nmodel: {preset: resnet-50}\ntraining: {samples: 1e6}\n",
		"kind: generic\ngeneric: {items: 1, flops_per_item: 1}\n",
		"kind: image-generation\nmodel: {preset: sdxl}\nimage: {images: 10}\n",
		"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 1}\n", // a service
	}
	schema.Walk(JSONSchema(), func(path string, n schema.Node) {
		vals, ok := n["enum"]
		if !ok {
			return
		}
		field := strings.TrimSuffix(path, "[]")
		for _, v := range toAny(vals) {
			var errs []string
			for _, base := range bases {
				doc := mergeYAML(base, path, v)
				_, err := Parse([]byte(doc), "w.yaml")
				var l apperr.List
				if !errors.As(err, &l) {
					errs = nil
					break
				}
				bad := false
				for _, e := range l {
					if e.Field == field || strings.HasPrefix(e.Field, field+"[") {
						bad = true
						errs = append(errs, e.Error())
					}
				}
				if !bad {
					errs = nil
					break
				}
			}
			if errs != nil {
				t.Errorf("%s = %v is in the schema but every kind refuses it: %v", path, v, errs)
			}
		}
	})
}

// mergeYAML sets path to v in the YAML document base (flow blocks and
// all), through a decode and an encode.
func mergeYAML(base, path string, v any) string {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(base), &doc); err != nil {
		panic(err)
	}
	parts := strings.Split(path, ".")
	m := doc
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	last := parts[len(parts)-1]
	if k, ok := strings.CutSuffix(last, "[]"); ok {
		m[k] = []any{v}
	} else {
		m[last] = v
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func toAny(v any) []any {
	switch v := v.(type) {
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out
	case []any:
		return v
	}
	return nil
}

// TestSchemaDescribesEveryKey: every key of a workload file has a
// description (the doc comment of its field in spec.go).
func TestSchemaDescribesEveryKey(t *testing.T) {
	schema.Walk(JSONSchema(), func(path string, n schema.Node) {
		if strings.HasSuffix(path, "[]") {
			return // a list's items: the list says it
		}
		if d, _ := n["description"].(string); d == "" {
			t.Errorf("%s: no description (comment the field in spec.go and run go generate)", path)
		}
	})
}
