package importer

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpupick/gpupick/internal/apperr"
)

// parseFile parses a saved file; skypilot and gpuhunt files, which carry
// no date, are dated fixedAsOf.
func parseFile(t *testing.T, format, name string) *Result {
	t.Helper()
	opt := testOptions(t)
	if format == "skypilot" || format == "gpuhunt" {
		opt = fileOptions(t)
	}
	res, err := Parse(format, bytes.NewReader(readFile(t, name)), name, opt)
	if err != nil {
		t.Fatalf("Parse(%s, %s): %v", format, name, err)
	}
	return res
}

func TestParseAzurePages(t *testing.T) {
	// Two saved pages, one after the other (JSON lines of pages).
	data := append(readFile(t, "testdata/azure-page1.json"), readFile(t, "testdata/azure-page2.json")...)
	res, err := Parse("azure", bytes.NewReader(data), "azure.json", testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []offerSum{
		{"azure/Standard_NC24ads_A100_v4@eastus", "a100-80gb-pcie", 1, 3.673, 0.4444, 0, 0},
		{"azure/Standard_NC40ads_H100_v5@westeurope", "h100-nvl", 1, 6.98, 0, 0, 0},
		{"azure/Standard_NC4as_T4_v3@eastus", "t4", 1, 0.526, 0, 0, 0},
		{"azure/Standard_ND96isr_H100_v5@eastus", "h100-sxm", 8, 98.32, 39.33, 57.0776, 41.8569},
		// a region the catalog does not know: accepted, country unknown
		{"azure/Standard_ND96isr_MI300X_v5@mooncentral", "mi300x", 8, 48, 0, 0, 0},
		// 1/6 of an A10: one GPU, sliced
		{"azure/Standard_NV6ads_A10_v5@eastus", "a10", 1, 0.454, 0, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	for _, c := range []struct{ field, text string }{
		{"price", "must be > 0"},
		{"armSkuName", `unmapped GPU "Standard_NG32ads_V620_v1"`},
	} {
		if !hasReject(res, c.field, c.text) {
			t.Errorf("no reject %s %q in:%s", c.field, c.text, rejectList(res))
		}
	}
	if len(res.Rejected) != 2 {
		t.Errorf("%d rejects, want 2 (zero price, unmapped series):%s", len(res.Rejected), rejectList(res))
	}
	for _, c := range []struct{ field, text string }{
		{"region", `Standard_ND96isr_MI300X_v5@mooncentral (ND96isr MI300X v5): region: region "mooncentral" of azure is not in the catalog's regions.csv: accepted with its country unknown`},
		{"spot", "Standard_NC4as_T4_v3@eastus: spot: spot 0.6 is not below on-demand 0.526: spot price dropped"},
		{"as-of", "no --as-of given"},
	} {
		if !hasWarning(res, c.field, c.text) {
			t.Errorf("no warning %s %q in:%s", c.field, c.text, warningList(res))
		}
	}
	if len(res.Warnings) != 3 {
		t.Errorf("%d warnings, want 3:%s", len(res.Warnings), warningList(res))
	}
	if o := offerByKey(res, "azure/Standard_NV6ads_A10_v5@eastus"); o == nil || o.GPUFraction != 1.0/6 || o.GPUCount != 1 || !o.Sliced() || o.Country != "US" {
		t.Errorf("NV6ads A10 v5 = %+v, want 1 GPU of fraction 1/6 in US", o)
	}
	if o := offerByKey(res, "azure/Standard_ND96isr_MI300X_v5@mooncentral"); o == nil || o.Country != "" || o.GPUFraction != 0 {
		t.Errorf("MI300X in an unknown region = %+v, want country \"\" and whole GPUs", o)
	}
	if res.Unmapped["Standard_NG32ads_V620_v1"] != 1 {
		t.Errorf("unmapped = %v", res.Unmapped)
	}
	if res.Skipped != 3 { // Windows, D4s_v5, Low Priority
		t.Errorf("skipped = %d, want 3", res.Skipped)
	}
	o := res.Offers[0]
	if o.Source != "azure.json" || !o.AsOf.Equal(fixedNow) || o.Country != "US" || o.Currency != "USD" {
		t.Errorf("fact/country = %+v %s %s", o.Fact, o.Country, o.Currency)
	}
	if res.Source != "azure" || res.Provider != "azure" || !res.FetchedAt.Equal(fixedNow) {
		t.Errorf("result header = %s %s %v", res.Source, res.Provider, res.FetchedAt)
	}
}

func TestParseAWS(t *testing.T) {
	res := parseFile(t, "aws", "testdata/aws-offer.json")
	want := []offerSum{
		{"aws/g5.xlarge@us-east-1", "a10g", 1, 1.006, 0, 0, 0},
		{"aws/p4d.24xlarge@us-west-2", "a100-40gb", 8, 32.7726, 0, 0, 0},
		{"aws/p5.48xlarge@mo-moon-1", "h100-sxm", 8, 150, 0, 0, 0}, // unknown region: accepted
		{"aws/p5.48xlarge@us-east-1", "h100-sxm", 8, 98.32, 0, 62.15, 43.16},
		{"aws/trn1.32xlarge@us-east-1", "trainium1", 16, 21.5, 0, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if len(res.Unmapped) != 1 || res.Unmapped["family x9imaginary (1 GPUs)"] != 1 {
		t.Errorf("unmapped = %v", res.Unmapped)
	}
	if !hasReject(res, "price", "must be > 0") || hasReject(res, "region", "") {
		t.Errorf("rejects:%s", rejectList(res))
	}
	if !hasWarning(res, "region", `region "mo-moon-1" of aws is not in the catalog's regions.csv`) || warnings(res, "region") != 1 {
		t.Errorf("warnings:%s", warningList(res))
	}
	if o := offerByKey(res, "aws/p5.48xlarge@mo-moon-1"); o == nil || o.Country != "" {
		t.Errorf("p5 in an unknown region = %+v, want country \"\"", o)
	}
	if o := offerByKey(res, "aws/g5.xlarge@us-east-1"); o == nil || o.Country != "US" {
		t.Errorf("g5 = %+v, want country US", o)
	}
	p5 := offerByKey(res, "aws/p5.48xlarge@us-east-1")
	if p5 == nil || p5.VCPUs != 192 || p5.RAMGiB != 2048 {
		t.Errorf("p5 shape = %+v", p5)
	}
}

func TestParseGCP(t *testing.T) {
	data := append(readFile(t, "testdata/gcp-skus-page1.json"), readFile(t, "testdata/gcp-skus-page2.json")...)
	opt := testOptions(t)
	res, err := Parse("gcp", bytes.NewReader(data), "skus.json", opt)
	if err != nil {
		t.Fatal(err)
	}
	// a2-highgpu-1g = 12 x 0.031611 + 85 x 0.004237 + 2.933908 = 3.67339,
	// the catalog's us-central1 price.
	got := map[string]offerSum{}
	for _, s := range summarize(res.Offers) {
		got[s.Key] = s
	}
	for _, w := range []offerSum{
		{"gcp/a2-highgpu-1g@us-central1", "a100-40gb", 1, 3.6734, 1.443, 0, 0},
		{"gcp/a2-highgpu-8g@us-central1", "a100-40gb", 8, 29.3871, 11.544, 0, 0},
		{"gcp/a3-highgpu-8g@us-east4", "h100-sxm", 8, 87.1236, 0, 0, 0}, // 208 x 0.023983 + 1872 x 0.00201 + 8 x 9.79655
	} {
		if d := cmp.Diff(w, got[w.Key]); d != "" {
			t.Errorf("%s (-want +got):\n%s", w.Key, d)
		}
	}
	if res.Unmapped["nvidia imaginary x1"] != 1 {
		t.Errorf("unmapped = %v", res.Unmapped)
	}
	// us-moon1 is not in the catalog: its machines are accepted with the
	// country unknown, and the region is warned about once.
	if o := offerByKey(res, "gcp/a2-highgpu-1g@us-moon1"); o == nil || o.Country != "" {
		t.Errorf("a2-highgpu-1g in an unknown region = %+v, want country \"\"", o)
	}
	if hasReject(res, "region", "") || warnings(res, "region") != 1 || !hasWarning(res, "region", `region "us-moon1" of gcp is not in the catalog's regions.csv`) {
		t.Errorf("rejects:%s\nwarnings:%s", rejectList(res), warningList(res))
	}
	for _, o := range res.Offers {
		if strings.Contains(o.Region, "europe") {
			t.Errorf("europe-west1 has no A2 host SKU, yet %s was priced", o.Key())
		}
	}
	if !hasReject(res, "description", "no A2 core or RAM SKU for on-demand in europe-west1") {
		t.Errorf("rejects:%s", rejectList(res))
	}
	// Regions limit the import.
	opt.Regions = []string{"us-east4"}
	res, err = Parse("gcp", bytes.NewReader(data), "skus.json", opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Offers {
		if o.Region != "us-east4" {
			t.Errorf("offer %s outside the regions asked for", o.Key())
		}
	}
}

func TestParseSkyPilot(t *testing.T) {
	for _, c := range []struct {
		file     string
		want     []offerSum
		rejects  []string // field: text, all of them
		warnings []string // field: text, all of them
	}{
		{"testdata/skypilot/aws/vms.csv", []offerSum{
			{"aws/g5.xlarge@us-east-1", "a10g", 1, 1.006, 0, 0, 0},
			{"aws/g6.xlarge@us-east-1", "l4", 1, 0.8048, 0, 0, 0},
			{"aws/p3.2xlarge@us-east-1", "v100-16gb", 1, 3.06, 0.9, 0, 0},
			{"aws/p4d.24xlarge@us-east-1", "a100-40gb", 8, 0, 5.09, 0, 0},
			{"aws/p5.48xlarge@mo-moon-1", "h100-sxm", 8, 98.32, 20.99, 0, 0},
			// two zones, 20.9934 and 19.5: their mean, not the cheaper
			{"aws/p5.48xlarge@us-east-1", "h100-sxm", 8, 98.32, 20.2467, 0, 0},
		}, []string{`AcceleratorName: unmapped GPU "Imaginary X1"`, "price: on-demand price must be > 0"},
			[]string{`region: region "mo-moon-1" of aws is not in the catalog's regions.csv`, "spot: spot 0.9 is not below on-demand 0.8048"}},
		{"testdata/skypilot/gcp/vms.csv", []offerSum{
			{"gcp/a2-highgpu-1g@us-central1", "a100-40gb", 1, 3.6734, 1.443, 0, 0},
			{"gcp/a2-highgpu-8g@us-central1", "a100-40gb", 8, 29.3871, 11.5437, 0, 0},
			{"gcp/a3-highgpu-8g@us-east4", "h100-sxm", 8, 88.25, 0, 0, 0},
			// T4 on N1: 0.35 + n1-standard-8 (8 x 0.031611 + 30 x 0.004237);
			// spot 0.14 + the host at the GPU's spot ratio 0.14/0.35
			{"gcp/n1-standard-8+nvidia-tesla-t4x1@us-central1", "t4", 1, 0.73, 0.292, 0, 0},
			// a v6e slice of 8 chips; its spot 700 is not below 21.6
			{"gcp/tpu-v6e-8@us-central1", "tpu-v6e", 8, 21.6, 0, 0, 0},
		}, nil, []string{"spot: gcp/tpu-v6e-8@us-central1: spot: spot 700 is not below on-demand 21.6"}},
		{"testdata/skypilot/lambda/vms.csv", []offerSum{
			{"lambda/gpu_1x_a100_sxm4@us-east-1", "a100-40gb", 1, 1.29, 0, 0, 0},
			{"lambda/gpu_1x_a10@mars-1", "a10", 1, 0.75, 0, 0, 0}, // unknown region: accepted
			{"lambda/gpu_1x_gh200@us-east-1", "gh200", 1, 1.49, 0, 0, 0},
			{"lambda/gpu_1x_h100_pcie@us-east-1", "h100-pcie", 1, 2.49, 0, 0, 0},
			{"lambda/gpu_8x_h100_sxm5@us-east-1", "h100-sxm", 8, 23.92, 0, 0, 0},
		}, nil, []string{`region: line 6: lambda/gpu_1x_a10@mars-1: region: region "mars-1" of lambda is not in the catalog's regions.csv`}},
	} {
		t.Run(c.file, func(t *testing.T) {
			res := parseFile(t, "skypilot", c.file)
			if d := cmp.Diff(c.want, summarize(res.Offers)); d != "" {
				t.Errorf("offers (-want +got):\n%s", d)
			}
			for _, r := range c.rejects {
				field, text, _ := strings.Cut(r, ": ")
				if !hasReject(res, field, text) {
					t.Errorf("no reject %q in:%s", r, rejectList(res))
				}
			}
			if len(res.Rejected) != len(c.rejects) {
				t.Errorf("%d rejects, want %d:%s", len(res.Rejected), len(c.rejects), rejectList(res))
			}
			for _, w := range c.warnings {
				field, text, _ := strings.Cut(w, ": ")
				if !hasWarning(res, field, text) {
					t.Errorf("no warning %q in:%s", w, warningList(res))
				}
			}
			if len(res.Warnings) != len(c.warnings) {
				t.Errorf("%d warnings, want %d:%s", len(res.Warnings), len(c.warnings), warningList(res))
			}
			for _, r := range res.Rejected {
				if r.Line == 0 {
					t.Errorf("CSV reject without a line: %s", r)
				}
			}
			for _, w := range res.Warnings {
				if w.Field == "region" && w.Line == 0 {
					t.Errorf("CSV region warning without a line: %s", w)
				}
			}
			for _, o := range res.Offers {
				if !o.AsOf.Equal(fixedAsOf) || o.Source != c.file {
					t.Errorf("%s: fact %+v, want %s as of %v", o.Key(), o.Fact, c.file, fixedAsOf)
				}
				_, known := testOptions(t).Catalog.Region(o.Provider, o.Region)
				if known == (o.Country == "") {
					t.Errorf("%s: country %q, region known %v", o.Key(), o.Country, known)
				}
			}
			if !res.FetchedAt.Equal(fixedAsOf) {
				t.Errorf("FetchedAt = %v, want the file's date %v", res.FetchedAt, fixedAsOf)
			}
		})
	}
}

func TestParseGpuhunt(t *testing.T) {
	res := parseFile(t, "gpuhunt", "testdata/gpuhunt/lambdalabs.csv")
	want := []offerSum{
		{"lambda/gpu_1x_a100_sxm4@us-east-1", "a100-40gb", 1, 1.29, 0, 0, 0},
		{"lambda/gpu_1x_a10@us-east-1", "a10", 1, 0, 0.3, 0, 0},
		{"lambda/gpu_1x_gh200@us-east-1", "gh200", 1, 1.49, 0, 0, 0},
		{"lambda/gpu_1x_h100_pcie@us-east-1", "h100-pcie", 1, 2.49, 0, 0, 0},
		{"lambda/gpu_8x_a100_80gb_sxm4@us-east-1", "a100-80gb", 8, 14.32, 0, 0, 0},
		{"lambda/gpu_8x_h100_sxm5@us-east-1", "h100-sxm", 8, 23.92, 0, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if res.Provider != "lambda" || len(res.Unmapped) != 1 || res.Unmapped["Imaginary X1"] != 1 || res.Skipped != 1 {
		t.Errorf("provider %q unmapped %v skipped %d", res.Provider, res.Unmapped, res.Skipped)
	}
	if !hasReject(res, "gpu_name", `line 7: lambda/gpu_1x_imaginary@us-east-1: gpu_name: unmapped GPU "Imaginary X1"`) ||
		!hasReject(res, "price", "line 9:") {
		t.Errorf("rejects:%s", rejectList(res))
	}
	if ram := res.Offers[2].RAMGiB; ram < 431.9 || ram > 432.2 {
		t.Errorf("GH200 RAM = %g GiB, want 432 (463.968 GB)", ram)
	}
	if !res.FetchedAt.Equal(fixedAsOf) || !res.Offers[0].AsOf.Equal(fixedAsOf) {
		t.Errorf("dated %v / %v, want the file's date %v", res.FetchedAt, res.Offers[0].AsOf, fixedAsOf)
	}
}

// TestParseAsOf: skypilot and gpuhunt files carry no date, so Parse
// refuses them without Options.AsOf, naming the field "as-of"; with it,
// every row and the result carry that date. The cloud formats take AsOf
// when given and otherwise date the rows now, with a warning.
func TestParseAsOf(t *testing.T) {
	sky := "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_a10,A10,1,0.75,us-east-1\n"
	hunt := "instance_name,location,price,gpu_count,gpu_name,spot\ngpu_1x_a10,us-east-1,0.75,1,A10,False\n"
	for _, c := range []struct{ format, name, data string }{
		{"skypilot", "lambda/vms.csv", sky},
		{"gpuhunt", "lambdalabs.csv", hunt},
	} {
		_, err := Parse(c.format, strings.NewReader(c.data), c.name, testOptions(t))
		var e *apperr.Error
		if !errors.As(err, &e) || e.Field != "as-of" || e.File != c.name || apperr.CodeOf(err) != apperr.Invalid ||
			!strings.Contains(err.Error(), "as-of") || !strings.Contains(err.Error(), "--as-of YYYY-MM-DD") {
			t.Errorf("%s without AsOf: err = %v, want an invalid error on field as-of naming %s", c.format, err, c.name)
		}
		opt := testOptions(t)
		opt.AsOf = time.Date(2025, 5, 20, 9, 30, 0, 0, time.FixedZone("CEST", 2*3600))
		res, err := Parse(c.format, strings.NewReader(c.data), c.name, opt)
		if err != nil {
			t.Fatalf("%s with AsOf: %v", c.format, err)
		}
		want := time.Date(2025, 5, 20, 7, 30, 0, 0, time.UTC)
		if len(res.Offers) != 1 || res.Offers[0].AsOf != want || res.FetchedAt != want || len(res.Warnings) != 0 {
			t.Errorf("%s with AsOf: offers %d, as of %v, fetched %v, warnings%s; want one row as of %v (UTC)",
				c.format, len(res.Offers), res.Offers[0].AsOf, res.FetchedAt, warningList(res), want)
		}
	}
	// The cloud formats: AsOf optional.
	res := parseFile(t, "aws", "testdata/aws-offer.json")
	if !res.FetchedAt.Equal(fixedNow) || !res.Offers[0].AsOf.Equal(fixedNow) || warnings(res, "as-of") != 1 {
		t.Errorf("aws without AsOf: fetched %v, as of %v, warnings:%s", res.FetchedAt, res.Offers[0].AsOf, warningList(res))
	}
	res, err := Parse("aws", bytes.NewReader(readFile(t, "testdata/aws-offer.json")), "index.json", fileOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if !res.FetchedAt.Equal(fixedAsOf) || warnings(res, "as-of") != 0 {
		t.Errorf("aws with AsOf: fetched %v, warnings:%s", res.FetchedAt, warningList(res))
	}
	for _, o := range res.Offers {
		if !o.AsOf.Equal(fixedAsOf) {
			t.Errorf("%s: as of %v, want %v", o.Key(), o.AsOf, fixedAsOf)
		}
	}
}

// TestParseErrors: a file that is not its format at all fails the import,
// naming the file and what is wrong.
func TestParseErrors(t *testing.T) {
	page1 := string(readFile(t, "testdata/azure-page1.json"))
	for _, c := range []struct {
		name, format, data, want string
	}{
		{"azure truncated", "azure", page1[:len(page1)/2], "truncated JSON"},
		{"azure changed field", "azure", string(readFile(t, "testdata/azure-changed-field.json")), "retailPrice: missing from all 4 GPU rows"},
		{"azure no Items", "azure", `{"BillingCurrency":"USD","items2":[]}`, "Items: missing"},
		{"azure empty", "azure", ``, "empty file"},
		{"azure wrong type", "azure", `{"Items":[{"retailPrice":"3.6"}]}`, "Items.retailPrice: want float64"},
		{"aws truncated", "aws", string(readFile(t, "testdata/aws-offer.json"))[:5000], "truncated JSON"},
		{"aws changed field", "aws", string(readFile(t, "testdata/aws-changed-field.json")), "products: missing"},
		{"aws not an object", "aws", `[1,2]`, "want \"{\""},
		{"gcp truncated", "gcp", string(readFile(t, "testdata/gcp-skus-page1.json"))[:3000], "truncated JSON"},
		{"gcp no skus", "gcp", `{"services":[]}`, "skus: missing"},
		{"skypilot missing column", "skypilot", "InstanceType,AcceleratorName,AcceleratorCount,Cost,Region\n", "Price: required column is missing"},
		{"skypilot bad quote", "skypilot", "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np5.48xlarge,H100,8,\"98,us-east-1\n", "malformed CSV"},
		{"gpuhunt missing column", "gpuhunt", "instance_name,location,price,gpu_count,gpu_name\n", "spot: required column is missing"},
		{"unknown format", "oracle", "", "unknown price-list format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := "aws/vms.csv"
			if c.format == "gpuhunt" {
				name = "lambdalabs.csv"
			}
			_, err := Parse(c.format, strings.NewReader(c.data), name, fileOptions(t))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("code = %s, want invalid", apperr.CodeOf(err))
			}
			var e *apperr.Error
			if c.format != "oracle" && (!errors.As(err, &e) || e.File != name) {
				t.Errorf("error does not name the file: %v", err)
			}
		})
	}
}

func TestParseProviderFromName(t *testing.T) {
	csv := "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_a10,A10,1,0.75,us-east-1\n"
	if _, err := Parse("skypilot", strings.NewReader(csv), "vms.csv", fileOptions(t)); err == nil || !strings.Contains(err.Error(), "cannot tell the provider") {
		t.Errorf("err = %v", err)
	}
	opt := fileOptions(t)
	opt.Provider = "lambda"
	res, err := Parse("skypilot", strings.NewReader(csv), "vms.csv", opt)
	if err != nil || len(res.Offers) != 1 || res.Offers[0].Provider != "lambda" {
		t.Fatalf("res %+v err %v", res, err)
	}
}
