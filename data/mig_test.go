package data_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// The MIG profiles fit the GPU they partition, name accelerators the
// catalog has, and cover the MIG-capable parts the advisor packs replicas
// on (NVIDIA MIG User Guide, Supported MIG Profiles).
func TestMIGProfiles(t *testing.T) {
	c := load(t)
	for _, id := range []string{"a100-40gb", "a100-80gb", "h100-sxm", "h100-pcie", "h100-nvl", "h200", "b200"} {
		if len(c.MIGProfilesOf(id)) == 0 {
			t.Errorf("%s: no MIG profiles", id)
		}
	}
	for _, p := range c.MIGProfiles {
		a, ok := c.Accelerator(p.GPU)
		if !ok || a.ID != p.GPU {
			t.Errorf("%s %s: accelerator is not a catalog id", p.GPU, p.Profile)
			continue
		}
		if !a.MIG {
			t.Errorf("%s %s: the accelerator has no MIG", p.GPU, p.Profile)
		}
		if n := p.MaxInstances * p.ComputeSlices; n > catalog.MIGComputeSlices {
			t.Errorf("%s %s: %d instances x %d compute slices > 7", p.GPU, p.Profile, p.MaxInstances, p.ComputeSlices)
		}
		if n := p.MaxInstances * p.MemorySlices; n > catalog.MIGMemorySlices {
			t.Errorf("%s %s: %d instances x %d memory slices > 8", p.GPU, p.Profile, p.MaxInstances, p.MemorySlices)
		}
		if p.MemGB > a.MemGiB*1.075 || float64(p.MaxInstances)*p.MemGB > a.MemGiB*1.075 {
			t.Errorf("%s %s: %d x %g GB do not fit in %g GiB", p.GPU, p.Profile, p.MaxInstances, p.MemGB, a.MemGiB)
		}
		// The name says the slices and memory: 1g.10gb is one compute
		// slice and 10 GB.
		var g int
		var gb float64
		if _, err := fmtSscanf(p.Profile, &g, &gb); err != nil || g != p.ComputeSlices || gb != p.MemGB {
			t.Errorf("%s %s: name disagrees with %d compute slices, %g GB", p.GPU, p.Profile, p.ComputeSlices, p.MemGB)
		}
		if p.Source == "" || p.AsOf.IsZero() {
			t.Errorf("%s %s: missing source or as_of", p.GPU, p.Profile)
		}
		// A 1g slice of the GPU is about a seventh of its compute.
		s := catalog.MIGAccelerator(a, p)
		if got, want := s.PeakTFLOPS[catalog.BF16], a.PeakTFLOPS[catalog.BF16]*float64(p.ComputeSlices)/7; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s %s: bf16 %g, want %g", p.GPU, p.Profile, got, want)
		}
	}
	if p, ok := c.MIGProfileOf("H100", "mig-1g.10gb"); !ok || p.MaxInstances != 7 || p.ResourceName() != "nvidia.com/mig-1g.10gb" {
		t.Errorf("H100 1g.10gb = %+v, %v; want 7 per GPU, nvidia.com/mig-1g.10gb", p, ok)
	}
	if _, ok := c.MIGProfileOf("l4", "1g.10gb"); ok {
		t.Error("l4 has no MIG")
	}
}

func fmtSscanf(profile string, g *int, gb *float64) (int, error) {
	return fmt.Sscanf(profile, "%dg.%fgb", g, gb)
}
