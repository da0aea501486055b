package workload

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// setPath sets a dotted field path in a decoded YAML document, creating the
// maps on the way.
func setPath(doc map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	m := doc
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = v
}

// rangeErrors parses every example with path set to v and returns, per
// example, whether the parse reported path as out of range.
func rangeErrors(t *testing.T, examples map[string][]byte, path string, v any) (hit int, checked int) {
	t.Helper()
	for name, src := range examples {
		var doc map[string]any
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		setPath(doc, path, v)
		out, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Parse(out, name)
		checked++
		if err != nil && strings.Contains(err.Error(), path+": must be at most") {
			hit++
		}
	}
	return hit, checked
}

// TestFieldRanges sets every bounded field just above its bound in each
// example workload and checks that at least one example reports the field by
// name, and that no example reports it at the bound itself.
func TestFieldRanges(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v", err)
	}
	examples := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(b, f); err != nil {
			continue // service files for the simulator are not workloads
		}
		examples[filepath.Base(f)] = b
	}
	examples["generic-measured.yaml"] = []byte("kind: generic\ngeneric:\n  items: 1e6\n  measured: {gpu: a100-80gb, items_per_s: 10}\n")
	for field, r := range FieldRanges {
		t.Run(field, func(t *testing.T) {
			above := any(r.Max * 10)
			at := any(r.Max)
			if r.Max < 1e15 && r.Max == float64(int64(r.Max)) {
				above, at = int64(r.Max)+1, int64(r.Max)
			}
			if hit, _ := rangeErrors(t, examples, field, above); hit == 0 {
				t.Errorf("%s = %v: no example reports it as out of range", field, above)
			}
			if hit, _ := rangeErrors(t, examples, field, at); hit != 0 {
				t.Errorf("%s = %v, the bound itself, is reported as out of range", field, at)
			}
		})
	}
}

// TestFieldRangesDocumented keeps docs/workload.md's table equal to
// FieldRanges.
func TestFieldRangesDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/workload.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for field, r := range FieldRanges {
		row := "| `" + field + "` | " + strconv.FormatFloat(r.Max, 'g', -1, 64) + " | " + r.Why + " |"
		if !strings.Contains(doc, row) {
			t.Errorf("docs/workload.md lacks the row %s", row)
		}
	}
	if got, want := strings.Count(doc, "\n| `"), len(FieldRanges); got != want {
		t.Errorf("docs/workload.md has %d field rows, FieldRanges %d", got, want)
	}
}
