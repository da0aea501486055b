package data_test

import (
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/rebuild"
)

// The data is code: the committed offers and SOURCES.md are exactly what
// `gpupick catalog build` makes from data/sources, and every source file
// keeps at least 90% of its GPU rows.
func TestBuildIsCurrent(t *testing.T) {
	res, err := rebuild.Build(os.DirFS("."))
	if err != nil {
		t.Fatalf("catalog build fails: %v", err)
	}
	for name, want := range res.Files {
		got, err := os.ReadFile(name)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is not what data/sources gives: run `go generate ./data` (or gpupick catalog build) and commit the result", name)
		}
	}
	committed, _ := data.FS.ReadDir(catalog.OffersDir)
	for _, e := range committed {
		if _, ok := res.Files[catalog.OffersDir+"/"+e.Name()]; !ok {
			t.Errorf("%s/%s is no longer built from the sources: remove it", catalog.OffersDir, e.Name())
		}
	}
	for _, f := range res.Reports {
		limit := 0.10
		if f.MaxRefused > 0 {
			limit = f.MaxRefused // a file refused in part on purpose, with its reason in sources.yaml
		}
		if rate := f.RejectRate(); rate > limit {
			t.Errorf("%s: %.1f%% of its GPU rows refused, want at most %.0f%%", f.File, 100*rate, 100*limit)
		}
	}
}

// Targets of the catalog: broad, fresh and from many providers.
func TestCatalogBreadthAndFreshness(t *testing.T) {
	c := load(t)
	priced := 0
	providers := map[string]bool{}
	fresh := map[string]bool{"aws": true, "gcp": true, "azure": true, "oci": true, "lambda": true, "nebius": true}
	since := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, o := range c.Offers {
		if o.ListPrices == (catalog.Prices{}) {
			continue
		}
		priced++
		providers[o.Provider] = true
		if fresh[o.Provider] && o.AsOf.Before(since) {
			t.Errorf("%s: price as of %s; every %s price comes from a 2026 source", o.Key(), o.AsOf.Format(time.DateOnly), o.Provider)
		}
	}
	if priced < 4000 {
		t.Errorf("%d priced offers, want at least 4,000", priced)
	}
	if len(providers) < 20 {
		t.Errorf("%d providers with prices, want at least 20", len(providers))
	}
}

// Integrity rules in the spirit of the public catalog projects' build
// checks: one row per key, prices that make sense, families that agree.
func TestOfferIntegrity(t *testing.T) {
	files, err := catalog.Parse(data.FS, true)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range files.Offers {
		if seen[o.Key()] {
			t.Errorf("%s: listed twice", o.Key())
		}
		seen[o.Key()] = true
	}
	c := load(t)
	now := time.Now()
	type shape struct {
		gpu      string
		count    int
		fraction float64
		mem      float64
	}
	shapes := map[string]shape{}
	family := map[string]string{} // aws family -> accelerator
	perProvider := map[string]map[string][]float64{}
	for _, o := range c.Offers {
		if o.AsOf.After(now) {
			t.Errorf("%s: as_of %s is in the future", o.Key(), o.AsOf.Format(time.DateOnly))
		}
		if _, ok := c.Accelerator(o.GPU); !ok {
			t.Errorf("%s: unknown accelerator %s", o.Key(), o.GPU)
		}
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			if o.LocalPrices[m] != 0 && !(o.LocalPrices[m] > 0) {
				t.Errorf("%s: %s price %g", o.Key(), m, o.LocalPrices[m])
			}
		}
		s := shape{o.GPU, o.GPUCount, o.GPUFraction, o.GPUMemGiB}
		if prev, ok := shapes[o.ID()]; ok && prev != s {
			t.Errorf("%s: %+v, but the same instance type elsewhere is %+v", o.Key(), s, prev)
		}
		shapes[o.ID()] = s
		if o.Provider == "aws" {
			f, _, _ := strings.Cut(o.InstanceType, ".")
			if prev, ok := family[f]; ok && prev != o.GPU {
				t.Errorf("%s: family %s has %s and %s", o.Key(), f, prev, o.GPU)
			}
			family[f] = o.GPU
		}
		if v, ok := perGPUHour(o); ok {
			if perProvider[o.GPU] == nil {
				perProvider[o.GPU] = map[string][]float64{}
			}
			perProvider[o.GPU][o.Provider] = append(perProvider[o.GPU][o.Provider], v)
		}
	}
	// Price per GPU-hour against the accelerator's market median (the
	// median over providers of each one's median): beyond 3x either way
	// only with a note that says why.
	market := map[string]float64{}
	for gpu, byP := range perProvider {
		var meds []float64
		for _, v := range byP {
			meds = append(meds, median(v))
		}
		market[gpu] = median(meds)
	}
	outliers := 0
	for _, o := range c.Offers {
		v, ok := perGPUHour(o)
		m := market[o.GPU]
		if m == 0 {
			continue // no list price anywhere to compare with
		}
		if !ok {
			// Sold on spot only: a spot price can be far below the market,
			// never far above it.
			if v, ok = o.ListPrices.Get(catalog.Spot); !ok || v/o.GPUs() <= 3*m {
				continue
			}
			v /= o.GPUs()
		} else if v <= 3*m && v >= m/3 {
			continue
		}
		outliers++
		if !strings.Contains(o.Notes, "[price outlier:") {
			t.Errorf("%s: %.2f USD per GPU-hour against a market median of %.2f for %s, and no [price outlier: ...] note", o.Key(), v, m, o.GPU)
		}
	}
	if outliers > len(c.Offers)/10 {
		t.Errorf("%d of %d offers are price outliers: the band or the data is wrong", outliers, len(c.Offers))
	}
}

// Every region has its country, or says why it cannot.
func TestRegionsHaveCountries(t *testing.T) {
	c := load(t)
	for _, r := range c.Regions {
		if r.Country == "" && !strings.Contains(r.Source, "country is not known") {
			t.Errorf("%s/%s: no country", r.Provider, r.ID)
		}
	}
}

// A sliced offer gives its share of the GPU, never more.
func TestSlicedOffers(t *testing.T) {
	c := load(t)
	n := 0
	for _, o := range c.Offers {
		if !o.Sliced() {
			continue
		}
		n++
		whole, _ := c.Accelerator(o.GPU)
		part, _ := c.OfferAccelerator(o)
		if o.GPUCount != 1 || part.MemGiB >= whole.MemGiB || part.PeakTFLOPS != scaled(whole.PeakTFLOPS, o.GPUFraction) {
			t.Errorf("%s: slice %g of %s gives %g GiB, peaks %v", o.Key(), o.GPUFraction, o.GPU, part.MemGiB, part.PeakTFLOPS)
		}
		if o.FabricKind != "" {
			t.Errorf("%s: a slice of one GPU cannot be clustered", o.Key())
		}
	}
	if n == 0 {
		t.Error("no sliced offers (Azure NVads A10 v5, AWS g6f) in the catalog")
	}
}

func scaled(p [catalog.NumDataTypes]float64, f float64) [catalog.NumDataTypes]float64 {
	for i := range p {
		p[i] *= f
	}
	return p
}

func perGPUHour(o *catalog.Offer) (float64, bool) {
	p, ok := o.ListPrices.Get(catalog.OnDemand)
	if !ok {
		if p, ok = o.ListPrices.Get(catalog.Monthly); !ok {
			return 0, false
		}
	}
	return p / o.GPUs(), true
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return (v[(len(v)-1)/2] + v[len(v)/2]) / 2
}
