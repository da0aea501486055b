package rebuild

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gpupick/gpupick/internal/apperr"
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
		{"one provider twice", map[string]string{ManifestFile: testManifest + strings.Replace(strings.TrimPrefix(testManifest, "sources:\n"), "aws.csv", "aws2.csv", 1),
			"sources/skypilot/aws.csv":  header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n",
			"sources/skypilot/aws2.csv": header + "p5.48xlarge,H100,8,192,2048,55.04,,us-east-1\n"}, "one public catalog per provider"},
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
