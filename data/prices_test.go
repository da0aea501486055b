package data_test

import (
	"encoding/csv"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// readCSV reads a source file under sources/ by column name.
func readCSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		out = append(out, m)
	}
	return out
}

func num(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// Spot as paid: no spot price of the catalog is the cheapest zone of its
// region. Every AWS offer whose region has several zones in the 2026 file
// carries the mean of its zones (or, where the zones agree, their one
// price), with the cheapest and dearest zone as its range.
func TestSpotIsTheZonesMean(t *testing.T) {
	c := load(t)
	zones := map[string][]float64{}
	for _, r := range readCSV(t, "sources/skypilot/aws.csv") {
		if r["AcceleratorName"] == "" || num(r["SpotPrice"]) <= 0 {
			continue
		}
		k := "aws/" + r["InstanceType"] + "@" + r["Region"]
		zones[k] = append(zones[k], num(r["SpotPrice"]))
	}
	checked := 0
	for _, o := range c.Offers {
		z := zones[o.Key()]
		sp, ok := o.LocalPrices.Get(catalog.Spot)
		if len(z) < 2 || !ok || o.PriceFact(catalog.Spot).AsOf.Year() < 2026 {
			continue
		}
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, v := range z {
			lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
		}
		mean := sum / float64(len(z))
		checked++
		if math.Abs(sp-mean) > 1e-6*mean {
			t.Errorf("%s: spot %g, want the mean %g of its %d zones (%v)", o.Key(), sp, mean, len(z), z)
		}
		if lo < hi && (o.SpotBasis != catalog.SpotZonesMean || o.SpotMin != lo || o.SpotMax != hi || o.SpotZones != len(z)) {
			t.Errorf("%s: basis %v range %g-%g over %d zones, want zones-mean %g-%g over %d", o.Key(), o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones, lo, hi, len(z))
		}
	}
	if checked < 500 {
		t.Errorf("checked %d AWS offers with several zones, want at least 500", checked)
	}
	// The three offers the price review found at their cheapest zone.
	for key, want := range map[string]float64{
		"aws/p6-b200.48xlarge@us-east-2": (28.7577 + 23.956 + 11.3933) / 3,
		"aws/p5en.48xlarge@eu-south-2":   (16.4548 + 8.6583) / 2,
		"aws/g6.xlarge@eu-south-2":       (0.1991 + 0.1581 + 0.2103) / 3,
	} {
		o := offer(t, c, key)
		if got := o.ListPrices[catalog.Spot]; math.Abs(got-want) > 0.002*want {
			t.Errorf("%s: spot %g, want the zones' mean %g", key, got, want)
		}
	}
}

func offer(t *testing.T, c *catalog.Catalog, key string) *catalog.Offer {
	t.Helper()
	for _, o := range c.Offers {
		if o.Key() == key {
			return o
		}
	}
	t.Fatalf("%s: not in the catalog", key)
	return nil
}

// GCP machines are priced whole (vCPUs, memory, GPUs, bundled local SSD):
// every GCP offer of a machine type and region the billing-derived price
// list gives is within 1% of it, on demand and under 1- and 3-year
// commitments; a3-highgpu-8g in us-central1 is the list's 88.49, 61.38 and
// 38.86 USD/h.
func TestGCPWholeMachinePrices(t *testing.T) {
	c := load(t)
	byKey := map[string]*catalog.Offer{}
	for _, o := range c.Offers {
		byKey[o.Key()] = o
	}
	checked := 0
	for _, r := range readCSV(t, "sources/gcp-machines/gcp.csv") {
		o := byKey["gcp/"+r["machine_type"]+"@"+r["region"]]
		if o == nil {
			continue
		}
		for col, m := range map[string]catalog.Mode{"on_demand_usd_per_hour": catalog.OnDemand,
			"cud_1y_usd_per_hour": catalog.Reserved1y, "cud_3y_usd_per_hour": catalog.Reserved3y} {
			want := num(r[col])
			if want == 0 {
				continue
			}
			checked++
			if got := o.ListPrices[m]; math.Abs(got-want) > 0.01*want {
				t.Errorf("%s %s: %g USD/h, the price list says %g", o.Key(), m, got, want)
			}
		}
	}
	if checked < 2000 {
		t.Errorf("checked %d GCP prices, want at least 2,000", checked)
	}
	o := byKey["gcp/a3-highgpu-8g@us-central1"]
	if o == nil {
		t.Fatal("gcp/a3-highgpu-8g@us-central1 missing")
	}
	for m, want := range map[catalog.Mode]float64{catalog.OnDemand: 88.49, catalog.Reserved1y: 61.38, catalog.Reserved3y: 38.86} {
		if got := o.ListPrices[m]; math.Abs(got-want) > 0.03*want {
			t.Errorf("a3-highgpu-8g us-central1 %s: %g, want %g", m, got, want)
		}
	}
}

// Commitments: at least 800 offers carry a reserved or committed price,
// each with the source and date of that price, cheaper than on-demand, and
// the 3-year term no dearer than the 1-year one.
func TestReservedPrices(t *testing.T) {
	c := load(t)
	n := 0
	for _, o := range c.Offers {
		r1, ok1 := o.ListPrices.Get(catalog.Reserved1y)
		r3, ok3 := o.ListPrices.Get(catalog.Reserved3y)
		if !ok1 && !ok3 {
			continue
		}
		n++
		od, okOD := o.ListPrices.Get(catalog.OnDemand)
		for m, v := range map[catalog.Mode]float64{catalog.Reserved1y: r1, catalog.Reserved3y: r3} {
			if v == 0 {
				continue
			}
			if f := o.PriceFact(m); f.Source == "" || f.AsOf.IsZero() {
				t.Errorf("%s %s: no source or date", o.Key(), m)
			}
			if okOD && v >= od {
				t.Errorf("%s %s: %g is not below on-demand %g", o.Key(), m, v, od)
			}
		}
		if ok1 && ok3 && r3 > r1*1.0001 {
			t.Errorf("%s: 3-year %g dearer than 1-year %g", o.Key(), r3, r1)
		}
		if o.AllUpfront1y > 0 && o.AllUpfront1y > o.LocalPrices[catalog.Reserved1y]*1.0001 {
			t.Errorf("%s: all-upfront 1-year %g dearer than no-upfront %g", o.Key(), o.AllUpfront1y, o.LocalPrices[catalog.Reserved1y])
		}
	}
	if n < 800 {
		t.Errorf("%d offers with a reserved or committed price, want at least 800", n)
	}
}

// Every spot price says how it was made, and a range holds its price.
func TestSpotBasisStated(t *testing.T) {
	c := load(t)
	for _, o := range c.Offers {
		sp, ok := o.LocalPrices.Get(catalog.Spot)
		if !ok {
			continue
		}
		if o.SpotMin > 0 && (o.SpotMin > sp*(1+1e-9) || o.SpotMax < sp*(1-1e-9)) {
			t.Errorf("%s: spot %g outside its range %g-%g", o.Key(), sp, o.SpotMin, o.SpotMax)
		}
		// A hand-kept row that does not say is a point price (the
		// rebuild marks it so): none is left unstated.
		if o.SpotBasis == catalog.SpotBasisUnstated {
			t.Errorf("%s: a spot price without a basis", o.Key())
		}
	}
}

// Serverless platforms: at least five, each offer with a per-worker price,
// its source and date, on a whole GPU, and never an hourly price beside it.
func TestServerlessOffers(t *testing.T) {
	c := load(t)
	platforms := map[string]int{}
	for _, o := range c.Offers {
		v, ok := o.ListPrices.Get(catalog.Serverless)
		if !ok {
			continue
		}
		platforms[o.Provider]++
		if v > 20 || o.GPUCount != 1 || o.Source == "" || o.AsOf.IsZero() {
			t.Errorf("%s: serverless %g USD per worker-hour, %d GPUs, source %q", o.Key(), v, o.GPUCount, o.Source)
		}
		if od, ok := o.ListPrices.Get(catalog.OnDemand); ok {
			t.Errorf("%s: a serverless worker with an hourly price %g too", o.Key(), od)
		}
	}
	if len(platforms) < 5 {
		t.Errorf("serverless offers from %d platforms (%v), want at least 5", len(platforms), platforms)
	}
}

// Egress: at least 17 providers have a known internet egress price, each
// with its source and date; an unknown price is no tier at all, never 0.
func TestEgressKnown(t *testing.T) {
	c := load(t)
	known := 0
	for _, p := range c.Providers {
		if len(p.EgressTiers) == 0 {
			continue
		}
		known++
		if p.Egress.Source == "" || p.Egress.AsOf.IsZero() {
			t.Errorf("%s: egress tiers without their own source and date", p.ID)
		}
	}
	if known < 17 {
		t.Errorf("egress known for %d providers, want at least 17", known)
	}
}

// Memory is GiB a program can use: every accelerator AWS sells holds, in
// the catalog, within 3% of the memory per GPU AWS reports for it (the
// 2026 SkyPilot AWS file's GpuInfo, MiB). A datasheet's GB read as GiB
// (B300's 288 GB is 268.6 GiB) fails here.
func TestMemoryIsGiB(t *testing.T) {
	c := load(t)
	gpuOf := map[string]*catalog.Offer{}
	for _, o := range c.Offers {
		if o.Provider == "aws" && !o.Sliced() {
			gpuOf[o.InstanceType] = o
		}
	}
	size := regexp.MustCompile(`'SizeInMiB':\s*([0-9.]+)`)
	checked := map[string]bool{}
	for _, r := range readCSV(t, "sources/skypilot/aws.csv") {
		o := gpuOf[r["InstanceType"]]
		m := size.FindStringSubmatch(r["GpuInfo"])
		if o == nil || m == nil || checked[o.GPU] {
			continue
		}
		a, _ := c.Accelerator(o.GPU)
		if a.Vendor != "nvidia" { // Neuron and AMD parts report per device or per node differently
			continue
		}
		checked[o.GPU] = true
		reported := num(m[1]) / 1024
		if math.Abs(reported-a.MemGiB) > 0.03*a.MemGiB {
			t.Errorf("%s: %.1f GiB in the catalog, AWS reports %.1f GiB per GPU for %s", a.ID, a.MemGiB, reported, o.InstanceType)
		}
	}
	if len(checked) < 8 {
		t.Errorf("checked %d accelerators, want at least 8", len(checked))
	}
}

// One machine is one offer: no two offers of a provider in a region have
// instance types that differ only in case (Azure sizes are
// case-insensitive, and sources spell them differently).
func TestNoCaseDuplicates(t *testing.T) {
	c := load(t)
	seen := map[string]string{}
	for _, o := range c.Offers {
		k := o.Provider + "/" + strings.ToLower(o.InstanceType) + "@" + o.Region
		if prev, ok := seen[k]; ok {
			t.Errorf("%s and %s are one machine listed twice", prev, o.Key())
		}
		seen[k] = o.Key()
	}
}
