package rebuild

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// base is a data directory with the real accelerators, providers, regions
// and rates, and the given sources.
func base(t *testing.T, files map[string]string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, f := range []string{"accelerators.csv", "providers.yaml", "regions.csv", "fx.csv"} {
		b, err := os.ReadFile("../../../data/" + f)
		if err != nil {
			t.Fatal(err)
		}
		fsys[f] = &fstest.MapFile{Data: b}
	}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

const testManifest = `sources:
  - file: skypilot/aws.csv
    provider: aws
    format: skypilot
    repository: example.com/catalog
    path: aws/vms.csv
    commit: 0123456789abcdef
    as_of: 2026-06-03
    as_of_basis: a test
`

const header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\n"

func TestBuild(t *testing.T) {
	res, err := Build(base(t, map[string]string{
		ManifestFile: testManifest,
		"sources/skypilot/aws.csv": header +
			"p5.48xlarge,H100,8,192,2048,55.04,20,us-east-1\n" +
			"p5.48xlarge,H100,8,192,2048,55.04,,us-west-2\n" +
			"p5.48xlarge,H100,8,192,2048,5504,,eu-west-1\n" + // a placeholder 100x the others
			"p5.48xlarge,H100,8,192,2048,,5000,ap-south-1\n" + // a spot-only placeholder
			"g6f.large,L4,0.125,2,8,0.2,,us-east-1\n" +
			"f1.2xlarge,Virtex UltraScale (VU9P),1,8,122,1.65,,us-east-1\n",
		"sources/manual/lambda.csv": "provider,instance_type,region,gpu,gpu_count,price_on_demand,currency,source,as_of\n" +
			"lambda,gpu_8x_h100,us-east-1,h100-sxm,8,23.92,USD,https://example.com/lambda,2025-01-01\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	aws := string(res.Files["offers/aws.csv"])
	for _, want := range []string{"p5.48xlarge,us-east-1,h100-sxm,8,", "g6f.large,us-east-1,l4,1,0.125,", "example.com/catalog@0123456789abcdef aws/vms.csv", "2026-06-03"} {
		if !strings.Contains(aws, want) {
			t.Errorf("offers/aws.csv lacks %q:\n%s", want, aws)
		}
	}
	if strings.Contains(aws, "eu-west-1") || strings.Contains(aws, "ap-south-1") {
		t.Error("a placeholder price (5504 USD/h on-demand, 5000 USD/h spot only) was kept")
	}
	if !strings.Contains(string(res.Files["offers/lambda.csv"]), "gpu_8x_h100") {
		t.Error("the hand-kept lambda row is missing")
	}
	doc := string(res.Files[SourcesDoc])
	for _, want := range []string{"| aws | `skypilot/aws.csv`", "out of scope", "FPGA", "beyond 3x", "| lambda | 1 | 1 | 2025-01-01 | 2025-01-01 | 1 |"} {
		if !strings.Contains(doc, want) {
			t.Errorf("SOURCES.md lacks %q:\n%s", want, doc)
		}
	}
	f := res.Reports[0]
	if f.Rows != 6 || f.OutOfScope != 1 || f.Accepted != 5 || len(f.Outliers) != 2 {
		t.Errorf("rows %d, out of scope %d, accepted %d, outliers %d; want 6, 1, 5, 2", f.Rows, f.OutOfScope, f.Accepted, len(f.Outliers))
	}
}

func TestBuildFailsLoudly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"reject rate", map[string]string{ManifestFile: testManifest, "sources/skypilot/aws.csv": header +
			"p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n" +
			"x1.big,Imaginary X1,8,192,2048,5,,us-east-1\n"}, "50.0% of its 2 GPU rows refused"},
		{"unknown region", map[string]string{ManifestFile: testManifest, "sources/skypilot/aws.csv": header +
			"p5.48xlarge,H100,8,192,2048,55.04,,mars-north-1\n"}, "region not in regions.csv"},
		{"hand-kept outlier", map[string]string{ManifestFile: testManifest,
			"sources/skypilot/aws.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n",
			"sources/manual/lambda.csv": "provider,instance_type,region,gpu,gpu_count,price_on_demand,currency,source,as_of\n" +
				"lambda,gpu_8x_h100,us-east-1,h100-sxm,8,2392,USD,https://example.com/lambda,2025-01-01\n",
			"sources/manual/crusoe.csv": "provider,instance_type,region,gpu,gpu_count,price_on_demand,currency,source,as_of\n" +
				"crusoe,h100-80gb.8x,us-east1,h100-sxm,8,24,USD,https://example.com/crusoe,2025-01-01\n"}, "[price outlier:"},
		{"bad date", map[string]string{ManifestFile: strings.Replace(testManifest, "2026-06-03", "June", 1)}, "as_of"},
		{"no sources", map[string]string{ManifestFile: "sources: []\n"}, "no source files"},
		{"one file twice", map[string]string{ManifestFile: testManifest + strings.TrimPrefix(testManifest, "sources:\n"),
			"sources/skypilot/aws.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n"}, "listed twice"},
		{"bad spot basis", map[string]string{ManifestFile: testManifest + "    spot_basis: cheapest\n",
			"sources/skypilot/aws.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n"}, "want point or regional"},
		{"raised limit without a reason", map[string]string{ManifestFile: testManifest + "    max_refused: 0.5\n",
			"sources/skypilot/aws.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n"}, "needs refused_why"},
		{"hand-kept row the catalog cannot load", map[string]string{ManifestFile: testManifest,
			"sources/skypilot/aws.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n",
			"sources/manual/crusoe.csv": "provider,instance_type,region,gpu,gpu_count,price_on_demand,currency,source,as_of\n" +
				"crusoe,weird,us-east1,nosuchgpu,1,2,USD,https://example.com/crusoe,2025-01-01\n"}, `unknown accelerator "nosuchgpu"`},
		{"hand-kept row of another provider", map[string]string{ManifestFile: testManifest,
			"sources/skypilot/aws.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n",
			"sources/manual/crusoe.csv": "provider,instance_type,region,gpu,gpu_count,price_on_demand,currency,source,as_of\n" +
				"lambda,gpu_8x_h100,us-east-1,h100-sxm,8,23.92,USD,https://example.com/lambda,2025-01-01\n"}, "one provider per file"},
		{"no testManifest", map[string]string{}, ManifestFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(base(t, tc.files))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}

func FuzzReadSpecs(f *testing.F) {
	f.Add("provider,instance_type,nvme_tb,nvme_read_gb_s,block_gb_s,network_gbps,interconnect_kind,interconnect_gb_s,fabric_kind,fabric_gbps,confidential_computing,driver,source,as_of,notes\naws,p5.48xlarge,30.4,,10,3200,,,efa,3200,no,,x,2024-01-01,\n")
	f.Add("provider\n\"unterminated")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = readSpecs(fstest.MapFS{SpecsFile: &fstest.MapFile{Data: []byte(s)}})
	})
}

// TestSpecsUnterminatedQuote: a row that opens a quote and never closes it
// is a malformed-CSV error with its line (found by FuzzReadSpecs: it used
// to panic in csv.Reader.FieldPos).
func TestSpecsUnterminatedQuote(t *testing.T) {
	src := strings.Join(specColumns, ",") + "\n\"000000000000000000"
	_, err := readSpecs(fstest.MapFS{SpecsFile: &fstest.MapFile{Data: []byte(src)}})
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Line != 2 || !strings.Contains(err.Error(), "malformed CSV") {
		t.Fatalf("got %v, want a malformed-CSV error on line 2", err)
	}
}

// TestLayeredSources: an offer priced by several files of its provider
// takes each mode's price from the newest file that gives it, and says
// which file that was; a modes-only file adds no offer of its own.
func TestLayeredSources(t *testing.T) {
	manifest := testManifest + `  - file: vantage/aws.csv
    provider: aws
    format: vantage-csv
    repository: example.com/older
    path: instances.json
    commit: fedcba9876543210
    as_of: 2025-11-30
    as_of_basis: a test
    modes_only: true
`
	vantage := "instance_type,region,accelerator_count,vcpu,memory_gib,linux_ondemand_usd_per_hour,linux_spot_avg_usd_per_hour,linux_spot_min_usd_per_hour,linux_spot_max_usd_per_hour," +
		"ri_yrTerm1Standard_noUpfront_effective_usd_per_hour,ri_yrTerm1Standard_allUpfront_effective_usd_per_hour,ri_yrTerm3Standard_noUpfront_effective_usd_per_hour,ri_yrTerm3Standard_allUpfront_effective_usd_per_hour\n" +
		"p5.48xlarge,us-east-1,8,192,2048,60.00,25,20,31,40.1,38.5,28.2,25.9\n" + // older on-demand and spot: the 2026 file's stay
		"p5.48xlarge,us-west-2,8,192,2048,55.04,21,18,30,39,37,27,25\n" // a region the 2026 file does not list
	res, err := Build(base(t, map[string]string{ManifestFile: manifest,
		"sources/skypilot/aws.csv": "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n" +
			"p5.48xlarge,H100,8,192,2048,55.04,20,us-east-1,use1-az1\n" +
			"p5.48xlarge,H100,8,192,2048,55.04,30,us-east-1,use1-az2\n",
		"sources/vantage/aws.csv": vantage}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 {
		t.Fatalf("%d offers, want 1 (us-west-2 is only in the modes-only file)", len(res.Offers))
	}
	o := res.Offers[0]
	type got struct {
		OD, Spot, SpotMin, SpotMax, R1, R3, All1, All3 float64
		Basis                                          catalog.SpotBasis
		Source, R1Source                               string
		R1Date                                         string
	}
	want := got{55.04, 25, 20, 30, 40.1, 28.2, 38.5, 25.9, catalog.SpotZonesMean,
		"example.com/catalog@0123456789abcdef aws/vms.csv", "example.com/older@fedcba9876543210 instances.json", "2025-11-30"}
	g := got{o.LocalPrices[catalog.OnDemand], o.LocalPrices[catalog.Spot], o.SpotMin, o.SpotMax,
		o.LocalPrices[catalog.Reserved1y], o.LocalPrices[catalog.Reserved3y], o.AllUpfront1y, o.AllUpfront3y, o.SpotBasis,
		o.Source, o.PriceFact(catalog.Reserved1y).Source, o.PriceFact(catalog.Reserved1y).AsOf.Format("2006-01-02")}
	if d := cmp.Diff(want, g); d != "" {
		t.Errorf("layered offer (-want +got):\n%s", d)
	}
	if f := o.PriceFact(catalog.Spot); f != o.Fact {
		t.Errorf("spot fact %v, want the 2026 file's %v: the older average does not replace a newer zones mean", f, o.Fact)
	}
	// What is written reads back the same.
	files, err := catalog.Parse(fstestFS(res.Files), false)
	if err != nil {
		t.Fatal(err)
	}
	var back *catalog.Offer
	for _, x := range files.Offers {
		back = x
	}
	if back == nil || back.PriceFacts != o.PriceFacts || back.SpotMin != o.SpotMin || back.AllUpfront3y != o.AllUpfront3y || back.SpotBasis != o.SpotBasis {
		t.Errorf("written and read back: %+v, want %+v", back, o)
	}
}

func fstestFS(files map[string][]byte) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: v}
	}
	return fsys
}

// TestPointSpotAveraged: a newer file's spot price of one zone at one
// moment is averaged with an older file's within a year, with the range of
// both: AWS p6-b300.48xlarge us-west-2 was 15.98 in one zone in June 2026
// and 103.74 on average in November 2025.
func TestPointSpotAveraged(t *testing.T) {
	manifest := testManifest + `  - file: vantage/aws.csv
    provider: aws
    format: vantage-csv
    repository: example.com/older
    path: instances.json
    commit: fedcba9876543210
    as_of: 2025-11-30
    as_of_basis: a test
    modes_only: true
`
	res, err := Build(base(t, map[string]string{ManifestFile: manifest,
		"sources/skypilot/aws.csv": "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n" +
			"p6-b300.48xlarge,B300,8,192,4096,142.416,15.9815,us-west-2,usw2-az2\n",
		"sources/vantage/aws.csv": "instance_type,region,accelerator_count,vcpu,memory_gib,linux_ondemand_usd_per_hour,linux_spot_avg_usd_per_hour,linux_spot_min_usd_per_hour,linux_spot_max_usd_per_hour\n" +
			"p6-b300.48xlarge,us-west-2,8,192,4096,142.416,103.7412,103.7412,103.7412\n"}))
	if err != nil {
		t.Fatal(err)
	}
	o := res.Offers[0]
	if got, want := o.LocalPrices[catalog.Spot], (15.9815+103.7412)/2; math.Abs(got-want) > 1e-9 {
		t.Errorf("spot %g, want the mean %g", got, want)
	}
	if o.SpotBasis != catalog.SpotAverage || o.SpotMin != 15.9815 || o.SpotMax != 103.7412 {
		t.Errorf("basis %v range %g-%g, want average 15.9815-103.7412", o.SpotBasis, o.SpotMin, o.SpotMax)
	}
	if !strings.Contains(o.Notes, "the mean of a point price") {
		t.Errorf("notes do not say how the price was made: %q", o.Notes)
	}
}

func FuzzReadGPUHour(f *testing.F) {
	f.Add("provider,gpu,gpu_count,instance_match,mode,usd_per_gpu_hour,source,as_of,notes\nlambda,h100-sxm,8,,on-demand,3.99,page,2026-09-20,\n")
	f.Add("provider,gpu,mode,usd_per_gpu_hour,source,as_of\nnope,x,spot,-1,,2026-13-01\nlambda,h100,on-demand,1e999,s,2026-01-01\n\"unterminated")
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, s string) {
		var errs apperr.List
		for _, r := range readGPUHour(fstest.MapFS{GPUHourFile: &fstest.MapFile{Data: []byte(s)}}, cat, &errs) {
			if !(r.usdPerGPUHour > 0 && r.usdPerGPUHour < 1000) || r.asOf.IsZero() || r.source == "" {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}

// testCatalog is the real accelerators, providers, regions and rates.
func testCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	fsys := fstest.MapFS{}
	for _, name := range []string{"accelerators.csv", "providers.yaml", "regions.csv", "fx.csv"} {
		b, err := os.ReadFile("../../../data/" + name)
		if err != nil {
			tb.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: b}
	}
	files, err := catalog.Parse(fsys, false)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := catalog.Build(files)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
