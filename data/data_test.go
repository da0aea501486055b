package data_test

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
)

func load(t *testing.T) *catalog.Catalog { return catalogtest.Embedded(t) }

// The identifiers other tools rely on (DESIGN.md, "Identifiers").
var requiredIDs = strings.Fields(`v100 t4 a10 a10g l4 l40s a100-40gb a100-80gb a100-80gb-pcie h100-sxm h100-pcie h100-nvl
	h200 h20 b200 gb200 rtx-4090 rtx-6000-ada mi250x mi300x mi325x gaudi2 gaudi3 tpu-v5e tpu-v5p tpu-v6e trainium1
	trainium2 inferentia2 ascend-910b a800 h800 l20`)

func TestRequiredAcceleratorIDs(t *testing.T) {
	c := load(t)
	for _, id := range requiredIDs {
		a, ok := c.Accelerator(id)
		if !ok || a.ID != id {
			t.Errorf("accelerator %q missing (it must be an id, not an alias)", id)
		}
	}
	// Documented aliases (README, "Identifiers").
	for alias, want := range map[string]string{
		"H100": "h100-sxm", "H100-SXM5-80GB": "h100-sxm", "A100": "a100-80gb", "h200": "h200", "MI300X": "mi300x",
		"A100-40GB": "a100-40gb", "Tesla T4": "t4",
	} {
		if a, ok := c.Accelerator(alias); !ok || a.ID != want {
			t.Errorf("alias %q resolves to %v, want %s", alias, a, want)
		}
	}
}

func TestAcceleratorFacts(t *testing.T) {
	c := load(t)
	for _, a := range c.Accelerators {
		if a.Source == "" || a.AsOf.IsZero() {
			t.Errorf("%s: missing source or as_of", a.ID)
		}
		if a.MemBandwidthGBps <= 0 || a.MemGiB <= 0 {
			t.Errorf("%s: memory or bandwidth missing", a.ID)
		}
		// Narrower types are never slower on the same chip: a larger
		// number for a wider type is a sparsity figure or a typo.
		p := a.PeakTFLOPS
		if p[catalog.FP8] > 0 && p[catalog.BF16] > 0 && p[catalog.FP8] < p[catalog.BF16] {
			t.Errorf("%s: fp8 %g < bf16 %g", a.ID, p[catalog.FP8], p[catalog.BF16])
		}
		if p[catalog.BF16] > 0 && p[catalog.TF32] > 0 && p[catalog.BF16] < p[catalog.TF32] {
			t.Errorf("%s: bf16 %g < tf32 %g", a.ID, p[catalog.BF16], p[catalog.TF32])
		}
		if a.Vendor == "nvidia" && a.ComputeCapability == "" {
			t.Errorf("%s: NVIDIA part without compute capability", a.ID)
		}
		// A power cap is a limit below the part's design power.
		if a.PowerCapWatts > 0 && (a.TDPWatts <= 0 || a.PowerCapWatts >= a.TDPWatts) {
			t.Errorf("%s: power_cap_w %g must be below tdp_w %g", a.ID, a.PowerCapWatts, a.TDPWatts)
		}
	}
	// Spot checks against datasheets (dense figures).
	h100, _ := c.Accelerator("h100-sxm")
	if got := h100.PeakTFLOPS[catalog.BF16]; got < 985 || got > 995 {
		t.Errorf("h100-sxm bf16 = %g TFLOPS, want the dense 989.4 (1979 is with sparsity)", got)
	}
	if _, ok := h100.TFLOPS(catalog.FP4); ok {
		t.Error("h100-sxm has no fp4 path")
	}
	v100, _ := c.Accelerator("v100")
	if _, ok := v100.TFLOPS(catalog.BF16); ok {
		t.Error("v100 has no bf16 path")
	}
}

func TestOfferBreadth(t *testing.T) {
	c := load(t)
	if len(c.Offers) < 300 {
		t.Errorf("%d offers, want at least 300", len(c.Offers))
	}
	providers := map[string]int{}
	regions := map[string]map[string]bool{}
	for _, o := range c.Offers {
		providers[o.Provider]++
		if regions[o.Provider] == nil {
			regions[o.Provider] = map[string]bool{}
		}
		regions[o.Provider][o.Region] = true
	}
	if len(providers) < 16 {
		t.Errorf("%d providers with offers, want at least 16", len(providers))
	}
	for _, p := range strings.Fields("aws gcp azure oci coreweave lambda runpod vastai crusoe nebius alibaba tencent huawei volcengine baidu") {
		if providers[p] == 0 {
			t.Errorf("no offers from %s", p)
		}
	}
	for _, p := range []string{"aws", "lambda", "tencent"} {
		if len(regions[p]) < 3 {
			t.Errorf("%s offers in %d regions, want several", p, len(regions[p]))
		}
	}
}

func TestOfferFacts(t *testing.T) {
	c := load(t)
	cny := 0
	for _, o := range c.Offers {
		if o.Source == "" || o.AsOf.IsZero() {
			t.Errorf("%s: missing source or as_of", o.Key())
		}
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			if o.LocalPrices[m] < 0 {
				t.Errorf("%s: negative %s price", o.Key(), m)
			}
		}
		if sp, ok := o.ListPrices.Get(catalog.Spot); ok {
			if od, ok := o.ListPrices.Get(catalog.OnDemand); ok && sp >= od {
				t.Errorf("%s: spot %g >= on-demand %g", o.Key(), sp, od)
			}
		}
		a, _ := c.OfferAccelerator(o) // a slice's share for a sliced offer
		if d := o.GPUMemGiB - a.MemGiB; d > 0.1*a.MemGiB || d < -0.1*a.MemGiB {
			t.Errorf("%s: %g GiB per GPU, %s has %g", o.Key(), o.GPUMemGiB, a.ID, a.MemGiB)
		}
		if o.Currency == "CNY" {
			cny++
		}
		if r, _ := c.Region(o.Provider, o.Region); o.Country == "" && !strings.Contains(r.Source, "country is not known") {
			t.Errorf("%s: no country, and its region's row does not say why", o.Key())
		}
	}
	if cny == 0 {
		t.Error("no offer is priced in CNY, yet Chinese clouds publish in CNY")
	}
	if _, ok := c.Rate("CNY"); !ok {
		t.Error("fx.csv has no CNY rate")
	}
	p5 := 0
	for _, o := range c.Offers {
		if o.ID() == "aws/p5.48xlarge" {
			p5++
			if o.GPU != "h100-sxm" || o.GPUCount != 8 {
				t.Errorf("%s: %d x %s, want 8 x h100-sxm", o.Key(), o.GPUCount, o.GPU)
			}
		}
	}
	if p5 == 0 {
		t.Error("aws/p5.48xlarge missing")
	}
}

func TestProvidersAndRegions(t *testing.T) {
	c := load(t)
	for _, p := range c.Providers {
		if p.Source == "" || p.AsOf.IsZero() || len(p.HQCountry) != 2 {
			t.Errorf("%s: missing source, as_of or headquarters", p.ID)
		}
		if p.HQCountry == "US" && !p.CloudAct {
			t.Errorf("%s: US-headquartered but cloud_act false", p.ID)
		}
	}
	for _, r := range c.Regions {
		if r.MainlandChina && r.Country != "CN" {
			t.Errorf("%s/%s: mainland China but country %s", r.Provider, r.ID, r.Country)
		}
		if r.EUEEA && r.Country == "US" {
			t.Errorf("%s/%s: EU/EEA in the US", r.Provider, r.ID)
		}
	}
}
