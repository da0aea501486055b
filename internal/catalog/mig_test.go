package catalog

import (
	"strings"
	"testing"
)

const migHeader = "gpu,profile,compute_slices,memory_slices,memory_gb,max_instances,source,as_of,notes\n"

func TestMIGProfileValidation(t *testing.T) {
	tests := []struct{ name, rows, want string }{
		{"too many instances", "h100-sxm,1g.10gb,1,1,10,8,src,2026-01-01,\n", "mig-profiles.csv:2: max_instances: 8 instances of 1 compute and 1 memory slices do not fit"},
		{"memory slices", "h100-sxm,3g.40gb,3,4,40,3,src,2026-01-01,\n", "max_instances: 3 instances of 3 compute and 4 memory slices"},
		{"unknown gpu", "x999,1g.10gb,1,1,10,7,src,2026-01-01,\n", `mig-profiles.csv: gpu: x999 1g.10gb: unknown accelerator "x999"`},
		{"no mig", "a10g,1g.10gb,1,1,10,7,src,2026-01-01,\n", "gpu: a10g 1g.10gb: a10g has no MIG"},
		{"too much memory", "h100-sxm,1g.90gb,1,1,90,1,src,2026-01-01,\n", "memory_gb: h100-sxm 1g.90gb: 90 GB is more than h100-sxm's 80 GiB"},
		{"compute slices", "h100-sxm,8g.80gb,8,8,80,1,src,2026-01-01,\n", "compute_slices: must be 1 to 7, got 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := brokenCatalog(t, MIGProfilesFile, migHeader+tt.rows)
			f, err := Parse(m, true)
			if err == nil {
				_, err = Build(f)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestMIGAccelerator(t *testing.T) {
	m := brokenCatalog(t, MIGProfilesFile, migHeader+"h100-sxm,1g.10gb,1,1,10,7,src,2026-01-01,\nH100,3g.40gb,3,4,40,2,src,2026-01-01,\n")
	f, err := Parse(m, true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Build(f)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Accelerator("h100-sxm")
	ps := c.MIGProfilesOf("h100")
	if len(ps) != 2 || ps[0].Profile != "1g.10gb" || ps[1].GPU != "h100-sxm" {
		t.Fatalf("profiles = %+v, want 1g.10gb then 3g.40gb of h100-sxm (alias resolved)", ps)
	}
	p, ok := c.MIGProfileOf("h100-sxm", "3G.40GB")
	if !ok {
		t.Fatal("3g.40gb not found")
	}
	s := MIGAccelerator(a, p)
	if s.MemGiB != 40 || !near(s.MemBandwidthGBps, a.MemBandwidthGBps/2) || !near(s.PeakTFLOPS[BF16], a.PeakTFLOPS[BF16]*3/7) || s.MIG || s.LinkGBps != 0 {
		t.Errorf("3g.40gb slice = %+v", s)
	}
}
