package catalog

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpupick/gpupick/internal/apperr"
)

func mini(t *testing.T) *Catalog {
	t.Helper()
	f, err := Parse(os.DirFS("testdata/mini"), true)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	c, err := Build(f)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return c
}

func TestBuildResolves(t *testing.T) {
	c := mini(t)
	if len(c.Offers) != 4 {
		t.Fatalf("offers = %d, want 4", len(c.Offers))
	}
	for _, o := range c.Offers {
		if _, ok := c.Accelerator(o.GPU); !ok || strings.ToLower(o.GPU) != o.GPU {
			t.Errorf("%s: gpu %q not resolved to an id", o.Key(), o.GPU)
		}
		if o.Country == "" {
			t.Errorf("%s: no country", o.Key())
		}
	}
	for _, name := range []string{"H100", "h100-sxm5-80gb", " H100-SXM ", "a10g"} {
		if _, ok := c.Accelerator(name); !ok {
			t.Errorf("Accelerator(%q) not found", name)
		}
	}
}

func TestCurrencyConversion(t *testing.T) {
	c := mini(t)
	var tc *Offer
	for _, o := range c.Offers {
		if o.Provider == "tencent" {
			tc = o
		}
	}
	if got, want := tc.ListPrices[OnDemand], 50*0.14; !near(got, want) {
		t.Errorf("on-demand USD = %g, want %g", got, want)
	}
	if got, want := tc.ListPrices[Monthly], 7300.0/730*0.14; !near(got, want) {
		t.Errorf("monthly hourly USD = %g, want %g", got, want)
	}
	if _, ok := tc.ListPrices.Get(Spot); ok {
		t.Error("an absent spot price must stay unknown")
	}
	p, _ := c.Provider("tencent")
	if got := p.EgressTiers[0].USDPerGB; !near(got, 0.8*0.14) {
		t.Errorf("CNY egress converted = %g, want %g", got, 0.8*0.14)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// brokenCatalog returns the mini catalog with one file replaced.
func brokenCatalog(t *testing.T, name, content string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, n := range []string{"accelerators.csv", "providers.yaml", "regions.csv", "fx.csv", "offers/aws.csv", "offers/tencent.csv"} {
		b, err := os.ReadFile("testdata/mini/" + n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	m[name] = &fstest.MapFile{Data: []byte(content)}
	return m
}

const offerHeader = "provider,instance_type,region,gpu,gpu_count,gpu_memory_gib,vcpus,ram_gib,nvme_tb,nvme_read_gb_s,block_gb_s,network_gbps,interconnect_kind,interconnect_gb_s,fabric_kind,fabric_gbps,price_on_demand,price_spot,price_reserved_1y,price_reserved_3y,price_monthly,currency,egress_usd_per_gb,block_usd_per_gb_month,confidential_computing,driver,source,as_of,notes\n"

func TestValidationNamesFileLineColumn(t *testing.T) {
	row := func(cells string) string { return offerHeader + cells + "\n" }
	tests := []struct {
		name, file, content string
		want                string
	}{
		{"zero price", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,0,,,,,USD,,,,,src,2025-01-01,"),
			"offers/aws.csv:2: price_on_demand: must be > 0; leave the cell empty"},
		{"spot above on-demand", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,2,,,,USD,,,,,src,2025-01-01,"),
			"offers/aws.csv:2: price_spot: 2 is not below on-demand 1"},
		{"unknown gpu", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,b999,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,"),
			`gpu: aws/g5.xlarge@us-east-1: unknown accelerator "b999"`},
		{"unknown region", "offers/aws.csv", row("aws,g5.xlarge,mars-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,"),
			`region: aws/g5.xlarge@mars-1: unknown region "mars-1"`},
		{"memory mismatch", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,80,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,"),
			"gpu_memory_gib: aws/g5.xlarge@us-east-1: 80 GiB per GPU, but a10g has 24 GiB"},
		{"missing source", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,,2025-01-01,"),
			"offers/aws.csv:2: source: required"},
		{"bad date", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,yesterday,"),
			`offers/aws.csv:2: as_of: want a date YYYY-MM-DD, got "yesterday"`},
		{"unknown column", "regions.csv", "provider,region,contry\n", "regions.csv:1: contry: unknown column"},
		{"wrong provider in file", "offers/aws.csv", row("tencent,x,ap-guangzhou,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,"),
			`offers/aws.csv:2: provider: "tencent" in the file of provider "aws"`},
		{"unknown currency", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,XYZ,,,,,src,2025-01-01,"),
			`currency: aws/g5.xlarge@us-east-1: no exchange rate for "XYZ"`},
		{"sparsity as dense", "accelerators.csv", strings.SplitAfter(mustRead(t, "testdata/mini/accelerators.csv"), "\n")[0] +
			"x1,,X,nvidia,hopper,9.0,,80,HBM3,3350,,,494.7,1979,1979,1978.9,,,nvswitch,900,8,8,5,700,no,,2022,src,2023-01-01,\n",
			"accelerators.csv:2: fp8_tflops: 1978.9 is below bf16_tflops 1979"},
		{"alias collision", "accelerators.csv", mustRead(t, "testdata/mini/accelerators.csv") +
			"a10,H100,NVIDIA A10,nvidia,ampere,8.6,,24,GDDR6,600,,,,,,,,,pcie,64,8,1,4,150,no,no,2021,src,2024-01-01,\n",
			`aliases: "H100" names both`},
		{"provider yaml unknown key", "providers.yaml", "- id: aws\n  nmae: x\n", "providers.yaml:2: [0].nmae: unknown key"},
		{"unknown operator kind", "providers.yaml", providerRow + "  operator: {kind: reseller, source: s, as_of: 2025-01-01}\n",
			`providers.yaml:6: [0].operator.kind: want one of provider, partner, marketplace, community, got "reseller"`}, // the line is found after a clean decode
		{"operator without source", "providers.yaml", providerRow + "  operator: {kind: marketplace, as_of: 2025-01-01}\n",
			"[0].operator.source: required"},
		{"bad operator pattern", "providers.yaml", providerRow + "  operator_rules:\n    - {instance_types: \"[x\", kind: community, source: s, as_of: 2025-01-01}\n",
			`[0].operator_rules[0].instance_types: want a pattern`},
		{"mlps level out of range", "providers.yaml", providerRow + "  mlps:\n    - {level: 6, covers: platform, scope: x, source: s, as_of: 2025-01-01}\n",
			"[0].mlps[0].level: want an MLPS level from 1 to 5, got 6"},
		{"mlps coverage", "providers.yaml", providerRow + "  mlps:\n    - {level: 3, covers: cloud, scope: x, source: s, as_of: 2025-01-01}\n",
			`[0].mlps[0].covers: want platform or product, got "cloud"`},
		{"mlps as a certification", "providers.yaml", providerRow + "  certifications:\n    - {name: MLPS-L3, scope: x, source: s, as_of: 2025-01-01}\n",
			"[0].certifications[0].name: MLPS-L3: write an MLPS filing under mlps"},
		{"ragged row", "offers/aws.csv", offerHeader + "aws,g5.xlarge\n", "offers/aws.csv:2: has 2 fields, the header has 29"},
		{"absurd price", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1.7e308,,,,,USD,,,,,src,2025-01-01,"),
			"offers/aws.csv:2: price_on_demand: 1.7e+308 per instance-hour is beyond any real instance"},
		// Found by the fuzz targets: an unterminated quote used to panic.
		{"unterminated quote", "offers/aws.csv", offerHeader + "\"unterminated\n", "offers/aws.csv:2: malformed CSV"},
		{"duplicate row", "offers/aws.csv", row("aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,") +
			"aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,2,,,,,USD,,,,,src,2025-01-01,\n",
			"offers/aws.csv:3: instance_type: aws/g5.xlarge@us-east-1 is listed twice (first at offers/aws.csv:2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(brokenCatalog(t, tt.file, tt.content), true)
			if err == nil {
				_, err = Build(f)
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("code %s, want invalid", apperr.CodeOf(err))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to contain:\n%s", err, tt.want)
			}
		})
	}
}

// TestParseReportsInFileOrder: the files are parsed in parallel, yet the
// problems of several files come back in the files' order (the fixed files
// first, then the offer files by name, a duplicate where its second row
// is), the same on every run.
func TestParseReportsInFileOrder(t *testing.T) {
	m := brokenCatalog(t, "regions.csv", "provider,region,contry\n")
	m["fx.csv"] = &fstest.MapFile{Data: []byte("currency,usd_per_unit,source,as_of\nUSD,x,s,2025-01-01\n")}
	bad := "aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,yesterday,\n"
	m["offers/aws.csv"] = &fstest.MapFile{Data: []byte(offerHeader + bad)}
	m["offers/tencent.csv"] = &fstest.MapFile{Data: []byte(offerHeader + "tencent,x,ap-guangzhou,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,,2025-01-01,\n")}
	m["offers/zeta.csv"] = &fstest.MapFile{Data: []byte(strings.Replace(offerHeader+bad, "yesterday", "2025-01-01", 1))}
	want := []string{"regions.csv:1:", "fx.csv:2:", "offers/aws.csv:2: as_of", "offers/tencent.csv:2: source", "offers/zeta.csv:2: provider",
		"offers/zeta.csv:2: instance_type: aws/g5.xlarge@us-east-1 is listed twice (first at offers/aws.csv:2)"}
	var first string
	for run := range 20 {
		_, err := Parse(m, true)
		if err == nil {
			t.Fatal("no error")
		}
		got := err.Error()
		if run == 0 {
			first = got
			at := -1
			for _, w := range want {
				i := strings.Index(got, w)
				if i < 0 {
					t.Fatalf("error:\n%s\nwant it to contain %q", got, w)
				}
				if i < at {
					t.Errorf("%q comes before the problem listed ahead of it:\n%s", w, got)
				}
				at = i
			}
		} else if got != first {
			t.Fatalf("run %d reported:\n%s\nrun 0:\n%s", run, got, first)
		}
	}
}

// providerRow is a valid provider without the facts a test adds.
const providerRow = "- id: aws\n  name: A\n  hq_country: US\n  source: s\n  as_of: 2025-01-01\n"

// TestOperatorOfOffers: each offer carries who runs its machines, from the
// provider's classification or the first rule matching its instance type;
// an MLPS filing is listed among the certifications by its level.
func TestOperatorOfOffers(t *testing.T) {
	yaml := providerRow + `  operator: {kind: partner, source: "https://a.example/terms", as_of: 2025-02-01}
  operator_rules:
    - {instance_types: "*_COMMUNITY", kind: community, source: "https://a.example/faq", as_of: 2025-03-01}
  mlps:
    - {level: 3, covers: platform, regions: [cn-north-1], scope: China regions, source: "https://a.example/mlps", as_of: 2025-04-01}
`
	f, err := Parse(fstest.MapFS{"providers.yaml": {Data: []byte(yaml)}}, false)
	if err != nil {
		t.Fatal(err)
	}
	p := f.Providers[0]
	for _, tc := range []struct {
		instance string
		want     OperatorKind
		source   string
	}{
		{"1x_H100_SECURE", OperatorPartner, "https://a.example/terms"},
		{"1x_H100_COMMUNITY", OperatorCommunity, "https://a.example/faq"},
	} {
		got := p.OperatorOf(tc.instance)
		if got.Kind != tc.want || got.Source != tc.source {
			t.Errorf("%s: operator %s (%s), want %s (%s)", tc.instance, got.Kind, got.Source, tc.want, tc.source)
		}
	}
	if len(p.Certifications) != 1 || p.Certifications[0].Name != "MLPS-L3" || p.Certifications[0].Source != "https://a.example/mlps" {
		t.Errorf("certifications %+v, want the MLPS filing as MLPS-L3 with its source", p.Certifications)
	}
	m := p.MLPS[0]
	if !m.CoversRegion("cn-north-1") || m.CoversRegion("cn-hangzhou") {
		t.Errorf("filing limited to cn-north-1 covers cn-north-1 %v, cn-hangzhou %v", m.CoversRegion("cn-north-1"), m.CoversRegion("cn-hangzhou"))
	}
	c := mini(t)
	for _, o := range c.Offers {
		if o.Operator.Kind != OperatorProvider || o.Operator.Source == "" {
			t.Errorf("%s: operator %+v, want provider with its source", o.Key(), o.Operator)
		}
		op := c.OfferOperator(o)
		if op.ProviderName == "" || op.HQCountry == "" {
			t.Errorf("%s: OfferOperator %+v lacks the provider's name or headquarters", o.Key(), op)
		}
	}
}

func mustRead(t *testing.T, name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBuildAgain: Build resolves the offers it is given in place, so a
// Files built a second time (a rebuild layers new rows over the same base)
// must give what a fresh parse gives: resolving an alias, a currency and
// a country is idempotent.
func TestBuildAgain(t *testing.T) {
	parse := func() *Files {
		f, err := Parse(os.DirFS("testdata/mini"), true)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	reused, fresh := parse(), parse()
	aliased, foreign := 0, 0
	for _, o := range reused.Offers {
		if o.GPU != strings.ToLower(o.GPU) {
			aliased++
		}
		if o.Currency != "USD" {
			foreign++
		}
	}
	if aliased == 0 || foreign == 0 {
		t.Fatalf("the mini catalog needs an offer naming its GPU by alias (%d) and one priced in another currency (%d)", aliased, foreign)
	}
	first, err := Build(reused)
	if err != nil {
		t.Fatal(err)
	}
	parsed := map[*Offer]bool{}
	for _, o := range reused.Offers {
		parsed[o] = true
	}
	for _, o := range first.Offers {
		if !parsed[o] {
			t.Fatalf("%s: Build copied the offer instead of adopting it", o.Key())
		}
	}
	again, err := Build(reused)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Build(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Offers) != len(want.Offers) {
		t.Fatalf("offers: %d built again, %d fresh", len(again.Offers), len(want.Offers))
	}
	for i := range want.Offers {
		if d := cmp.Diff(*want.Offers[i], *again.Offers[i], cmp.AllowUnexported(Offer{})); d != "" {
			t.Errorf("%s built again differs from a fresh build (-fresh +again):\n%s", want.Offers[i].Key(), d)
		}
	}
}

func TestLayering(t *testing.T) {
	base, err := Parse(os.DirFS("testdata/mini"), true)
	if err != nil {
		t.Fatal(err)
	}
	user, err := Parse(fstest.MapFS{
		"offers/aws.csv": {Data: []byte(offerHeader +
			"aws,p5.48xlarge,us-east-1,h100-sxm,8,80,192,2048,,,,,,,efa,3200,90,,,,,USD,,,,,my contract,2026-11-20,\n" +
			"aws,g5.2xlarge,us-east-1,a10g,1,24,8,32,,,,,,,,,1.2,,,,,USD,,,,,my contract,2026-11-20,\n")},
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Build(base, user)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Offers) != 5 {
		t.Errorf("offers = %d, want 5 (4 embedded, 1 replaced, 1 new)", len(c.Offers))
	}
	for _, o := range c.Offers {
		if o.Key() == "aws/p5.48xlarge@us-east-1" && o.ListPrices[OnDemand] != 90 {
			t.Errorf("user row did not replace the embedded one: %g", o.ListPrices[OnDemand])
		}
	}
}

func TestParseGPURequest(t *testing.T) {
	tests := []struct {
		in      string
		want    GPURequest
		wantErr bool
	}{
		{"h100-sxm", GPURequest{Name: "h100-sxm"}, false},
		{"H100:8", GPURequest{Name: "H100", Count: 8}, false},
		{" a10g : 4 ", GPURequest{Name: "a10g", Count: 4}, false},
		{"h100:0", GPURequest{}, true},
		{"h100:x", GPURequest{}, true},
		{":8", GPURequest{}, true},
		{"", GPURequest{}, true},
	}
	for _, tt := range tests {
		got, err := ParseGPURequest(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseGPURequest(%q) err = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseGPURequest(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSelectExplains(t *testing.T) {
	c := mini(t)
	sel := c.Select(Filter{GPU: "h100-sxm", Country: "US", MaxPrice: 50, Mode: OnDemand})
	if len(sel.Offers) != 0 {
		t.Fatalf("got %d offers, want none", len(sel.Offers))
	}
	want := "of 4 offers, --gpu h100-sxm removed 2, --country US removed 1, --max-price 50 removed 1"
	if got := sel.Explain(); got != want {
		t.Errorf("Explain() = %q, want %q", got, want)
	}
	sel = c.Select(Filter{MinGPUs: 4})
	if len(sel.Offers) != 3 {
		t.Errorf("MinGPUs 4: %d offers, want 3", len(sel.Offers))
	}
}

func TestSortUnknownLast(t *testing.T) {
	c := mini(t)
	offers := append([]*Offer(nil), c.Offers...)
	Sort(offers, ByPricePerGPU, Spot)
	var got []string
	for _, o := range offers {
		got = append(got, o.Key())
	}
	want := []string{"aws/g5.xlarge@us-east-1", "aws/p5.48xlarge@us-east-1", "aws/p5.48xlarge@eu-central-1", "tencent/GN7.20XLARGE320@ap-guangzhou"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestOverlay(t *testing.T) {
	c := mini(t)
	ov, err := ParseOverlay([]byte(`rules:
  - {name: edp, provider: aws, instance: "p5.*", region: "us-*", discount_percent: 25}
  - {name: fixed, provider: aws, instance: "p5.*", mode: spot, price_per_hour: 30}
  - {name: cny, provider: tencent, mode: on-demand, price_per_hour: 40, currency: CNY}
`))
	if err != nil {
		t.Fatal(err)
	}
	c2, err := c.WithPrices(ov)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]float64{}
	for _, o := range c2.Offers {
		got[o.Key()] = [2]float64{o.YourPrices[OnDemand], o.YourPrices[Spot]}
	}
	want := map[string][2]float64{
		"aws/p5.48xlarge@us-east-1":            {98.32 * 0.75, 40 * 0.75}, // first rule wins for spot too
		"aws/p5.48xlarge@eu-central-1":         {110, 30},
		"aws/g5.xlarge@us-east-1":              {1.006, 0.35},
		"tencent/GN7.20XLARGE320@ap-guangzhou": {40 * 0.14, 0},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return near(a, b) })); diff != "" {
		t.Errorf("your prices (-want +got):\n%s", diff)
	}
	if c.Offers[0].HasOwnPrices() {
		t.Error("WithPrices changed the original catalog")
	}
}

func TestOverlayErrors(t *testing.T) {
	tests := map[string]string{
		"rules:\n  - {provider: aws, discount_percent: 120}\n":             "rules[0].discount_percent",
		"rules:\n  - {provider: aws, mode: weekly, discount_percent: 1}\n": "rules[0].mode",
		"rules:\n  - {provider: aws}\n":                                    "rules[0].price_per_hour: set price_per_hour or discount_percent",
		"rules:\n  - {provider: aws, price: 3}\n":                          "line 2: rules[0].price: unknown key",
		"rules:\n  - {instance: \"[\", price_per_hour: 3}\n":               "rules[0].instance: bad glob",
		"rules: []\n": "rules: no rules",
		"rules:\n  - {provider: aws, price_per_hour: .nan}\n":    "line 2: rules[0].price_per_hour: must be a number",
		"rules:\n  - {provider: aws, price_per_hour: .inf}\n":    "rules[0].price_per_hour: must be a number",
		"rules:\n  - {provider: aws, price_per_hour: 1e308}\n":   "rules[0].price_per_hour: must be a number from 0 to 100000",
		"rules:\n  - {provider: aws, discount_percent: -.inf}\n": "rules[0].discount_percent",
	}
	for in, want := range tests {
		_, err := ParseOverlay([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseOverlay(%q) = %v, want error containing %q", in, err, want)
		}
	}
}

func TestStale(t *testing.T) {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	if (Fact{AsOf: now.AddDate(0, 0, -89)}).Stale(now) {
		t.Error("89 days is not stale")
	}
	if !(Fact{AsOf: now.AddDate(0, 0, -91)}).Stale(now) {
		t.Error("91 days is stale")
	}
}
