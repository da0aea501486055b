package compat

import (
	"os"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile("../../data/compat.yaml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(minimal))
	f.Add([]byte("cuda: [{version: x}]\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte(""))
	a := &catalog.Accelerator{ID: "x", Vendor: "nvidia", ComputeCapability: "9.0"}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			return
		}
		r := m.Check(workload.Stack{Version: ">=2.4", Needs: []string{"fp8"}}, a, "535.104.05")
		if r.Verdict == "" {
			t.Error("empty verdict")
		}
	})
}

func FuzzVersionConstraint(f *testing.F) {
	for _, s := range []string{">=2.4", "<2.7", "2.6", "==2.6+cu124", ">=0.6, <0.8", "~=2.4.1", "^0.6", "2.*", "!=2.5.*", "v2", "+", ",", ">=9999999999"} {
		f.Add(s, "2.6")
	}
	f.Fuzz(func(t *testing.T, c, series string) {
		con, err := ParseConstraint(c)
		if err != nil {
			return
		}
		v, err := ParseVersion(series)
		if err != nil {
			return
		}
		_ = con.AllowsSeries(v)
		_, _, _ = pin(con.Local)
		if con.Any() && !con.AllowsSeries(v) {
			t.Errorf("%q allows everything but not %s", c, series)
		}
	})
}
