package compat

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

const minimal = `cuda:
  - {version: "12.8", min_driver_linux: "570.26", min_cc: "5.0", max_cc: "12.0", source: s, as_of: "2026-01-01"}
rocm_targets: []
vendors: {}
frameworks: {}
features: {}
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		field string
		line  int
	}{
		{"unknown key", minimal + "colour: red\n", "colour", 7},
		{"missing source", strings.Replace(minimal, "source: s", `source: ""`, 1), "cuda[0].source", 2},
		{"bad date", strings.Replace(minimal, `"2026-01-01"`, `"Jan 2026"`, 1), "cuda[0].as_of", 2},
		{"bad version", strings.Replace(minimal, `min_cc: "5.0"`, `min_cc: "five"`, 1), "cuda[0].min_cc", 2},
		{"wrong type", strings.Replace(minimal, "vendors: {}", "vendors: [1]", 1), "", 4},
		{"bad verdict", strings.Replace(minimal, "features: {}", `features:
  x:
    name: X
    rules: []
    otherwise: {verdict: maybe, text: t, fix: f, source: s, as_of: "2026-01-01"}`, 1), "features.x.otherwise.verdict", 10},
		{"bad backend", strings.Replace(minimal, "vendors: {}", `vendors:
  nvidia: {backend: opencl, lock_in: l, tool_check: t, device_check: d, collective_check: c, source: s, as_of: "2026-01-01"}`, 1), "vendors.nvidia.backend", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml))
			if err == nil {
				t.Fatal("accepted")
			}
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("code %s, want invalid: %v", apperr.CodeOf(err), err)
			}
			var l apperr.List
			if !errors.As(err, &l) {
				t.Fatalf("not a List: %v", err)
			}
			found := false
			for _, e := range l {
				if (tt.field == "" || e.Field == tt.field) && (tt.line == 0 || e.Line == tt.line) {
					found = true
				}
			}
			if !found {
				t.Errorf("no error on field %q line %d:\n%v", tt.field, tt.line, err)
			}
		})
	}
}

// The embedded matrix parses, and every entry carries a source and a date
// (Parse enforces it; this test counts what it covers).
func TestDataMatrix(t *testing.T) {
	b, err := os.ReadFile("../../data/compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(b)
	if err != nil {
		t.Fatal(apperr.InFile(err, "data/compat.yaml"))
	}
	var facts []Fact
	for _, t := range m.CUDA {
		facts = append(facts, t.Fact)
	}
	for _, t := range m.ROCmTargets {
		facts = append(facts, t.Fact)
	}
	for _, v := range m.Vendors {
		facts = append(facts, v.Fact)
	}
	for _, f := range m.Frameworks {
		for _, p := range f.Platforms {
			facts = append(facts, p.Fact)
		}
		for _, r := range f.Releases {
			facts = append(facts, r.Fact)
		}
	}
	for _, f := range m.Features {
		for _, r := range f.Rules {
			facts = append(facts, r.Fact)
		}
		facts = append(facts, f.Otherwise.Fact)
	}
	if len(facts) < 100 {
		t.Errorf("only %d facts", len(facts))
	}
	for i, f := range facts {
		if f.Source == "" || len(f.AsOf) != len("2006-01-02") {
			t.Errorf("fact %d lacks source or as_of: %+v", i, f)
		}
	}
	for _, id := range []string{"flash-attention-2", "flash-attention-3", "fp8", "fp4", "triton", "bitsandbytes", "mig", "nccl"} {
		if m.Features[id] == nil {
			t.Errorf("feature %s missing", id)
		}
	}
	for _, v := range []string{"11.8", "12.1", "12.4", "12.6", "12.8", "12.9", "13.0"} {
		if m.toolkit(v) == nil {
			t.Errorf("CUDA %s missing", v)
		}
	}
}
