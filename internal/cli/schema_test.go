package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/workload"
)

// schemasDir holds the committed copies of the schemas, for editors.
const schemasDir = "../../schemas"

// TestSchemaFiles: schemas/*.schema.json are what gpupick schema prints
// (go test ./internal/cli -run TestSchemaFiles -update rewrites them).
func TestSchemaFiles(t *testing.T) {
	for kind := range Schemas {
		t.Run(kind, func(t *testing.T) {
			out, stderr, code := run(t, "schema", kind)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			path := filepath.Join(schemasDir, kind+".schema.json")
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("%s differs from gpupick schema %s: run go test ./internal/cli -run TestSchemaFiles -update", path, kind)
			}
		})
	}
}

func TestSchemaBadKind(t *testing.T) {
	_, stderr, code := run(t, "schema", "policy")
	if code != 2 || !strings.Contains(stderr, `want workload or service, got "policy"`) {
		t.Errorf("exit %d, %q: want 2 naming the choices", code, stderr)
	}
}

// compileSchemas compiles the committed schemas with a JSON Schema
// validator, by kind.
func compileSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for kind := range Schemas {
		path, _ := filepath.Abs(filepath.Join(schemasDir, kind+".schema.json"))
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(path, doc); err != nil {
			t.Fatal(err)
		}
		if out[kind], err = c.Compile(path); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
	}
	return out
}

// yamlAsJSON decodes a YAML file into the values a JSON validator reads.
func yamlAsJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExamplesMatchSchema: every example names its schema on its first
// line, for editors, and is valid against it.
func TestExamplesMatchSchema(t *testing.T) {
	schemas := compileSchemas(t)
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			kind := "workload"
			if strings.HasPrefix(filepath.Base(f), "service-") {
				kind = "service"
			}
			first, _ := bufio.NewReader(bytes.NewReader(data)).ReadString('\n')
			want := "# yaml-language-server: $schema=../schemas/" + kind + ".schema.json\n"
			if first != want {
				t.Errorf("first line %q, want %q", first, want)
			}
			if err := schemas[kind].Validate(yamlAsJSON(t, data)); err != nil {
				t.Errorf("not valid against the %s schema: %v", kind, err)
			}
		})
	}
}

// TestSchemaRefusesWhatTheParserRefuses: the schema catches the mistakes
// an editor should underline: an unknown key, a value outside its list, a
// number out of range, a missing kind.
func TestSchemaRefusesWhatTheParserRefuses(t *testing.T) {
	schemas := compileSchemas(t)
	for _, tc := range []struct{ kind, name, doc string }{
		{"workload", "unknown key", "kind: generic\ngeneric: {items: 1, flops_per_item: 1, bogus: 2}\n"},
		{"workload", "unknown kind", "kind: llm-vibes\n"},
		{"workload", "no kind", "model: {preset: llama-3-8b}\n"},
		{"workload", "above the range", "kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e300}\n"},
		{"workload", "negative", "kind: generic\ngeneric: {items: -1}\n"},
		{"workload", "unknown pricing", "kind: generic\nconstraints: {pricing: [free]}\n"},
		{"workload", "bad precision", "kind: llm-inference\ninference: {kv_precision: tf32}\n"},
		{"workload", "llm-train without its blocks", "kind: llm-train\n"},
		{"workload", "llm-inference without inference", "kind: llm-inference\nmodel: {preset: llama-3-8b}\n"},
		{"workload", "generic with a model", "kind: generic\ngeneric: {items: 1, flops_per_item: 1}\nmodel: {preset: llama-3-8b}\n"},
		{"workload", "inference with training", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {}\ntraining: {}\n"},
		{"service", "unknown policy", "traffic: {kind: poisson}\nservice: {kind: distribution}\npolicy: {kind: psychic}\n"},
		{"service", "above the range", "traffic: {kind: poisson, rate_per_s: 1e9}\nservice: {kind: distribution}\npolicy: {kind: fixed}\n"},
		{"service", "unknown key", "traffic: {kind: poisson}\nservice: {kind: distribution, speed: 2}\npolicy: {kind: fixed}\n"},
		{"service", "no policy", "traffic: {kind: poisson}\nservice: {kind: distribution}\n"},
	} {
		t.Run(tc.kind+" "+tc.name, func(t *testing.T) {
			if err := schemas[tc.kind].Validate(yamlAsJSON(t, []byte(tc.doc))); err == nil {
				t.Errorf("valid against the %s schema:\n%s", tc.kind, tc.doc)
			}
			parse := map[string]func([]byte) error{
				"workload": func(b []byte) error { _, err := workload.Parse(b, "w.yaml"); return err },
				"service":  func(b []byte) error { _, err := autoscale.ParseSpec(b); return err },
			}[tc.kind]
			if err := parse([]byte(tc.doc)); err == nil {
				t.Errorf("the schema refuses what the parser takes:\n%s", tc.doc)
			}
		})
	}
}
