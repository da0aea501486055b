package importer

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
)

// parseSky parses an inline SkyPilot vms.csv named name (the directory
// names the provider), dated fixedAsOf.
func parseSky(t *testing.T, name, csv string) *Result {
	t.Helper()
	res, err := Parse("skypilot", strings.NewReader(csv), name, fileOptions(t))
	if err != nil {
		t.Fatalf("Parse(skypilot, %s): %v", name, err)
	}
	return res
}

func TestFraction(t *testing.T) {
	for _, c := range []struct {
		in    string
		count int
		frac  float64
		ok    bool
	}{
		{"1", 1, 0, true},
		{"8", 8, 0, true},
		{"8.0", 8, 0, true},
		{" 2 ", 2, 0, true},
		{"10000", 10000, 0, true}, // catalog.MaxOfferGPUs
		{"0.5", 1, 0.5, true},
		{"0.25", 1, 0.25, true},
		{"0.125", 1, 0.125, true},    // AWS g6f.large: 1/8 L4
		{"0.167", 1, 1.0 / 6, true},  // Azure NV6ads A10 v5, snapped to 1/6
		{"0.333", 1, 1.0 / 3, true},  // Azure NV12ads A10 v5, snapped to 1/3
		{"0.1667", 1, 1.0 / 6, true}, // a closer rounding snaps the same
		{"0.4", 1, 0.4, true},        // not near any 1/n: kept as is
		{"0", 0, 0, false},           // none
		{"0.0", 0, 0, false},         // none
		{"-1", 0, 0, false},          // negative
		{"-0.125", 0, 0, false},      // negative share
		{"NaN", 0, 0, false},         // not a number
		{"Inf", 0, 0, false},         // not finite
		{"1.5", 0, 0, false},         // more than one GPU, but not whole
		{"2.25", 0, 0, false},        // ditto
		{"10001", 0, 0, false},       // above catalog.MaxOfferGPUs
		{"1e300", 0, 0, false},       // absurd
		{"", 0, 0, false},            // empty
		{"eight", 0, 0, false},       // not a number
	} {
		count, frac, ok := fraction(c.in)
		if count != c.count || frac != c.frac || ok != c.ok {
			t.Errorf("fraction(%q) = %d %g %v, want %d %g %v", c.in, count, frac, ok, c.count, c.frac, c.ok)
		}
	}
}

func TestTPUSlice(t *testing.T) {
	cat := testOptions(t).Catalog
	for _, c := range []struct {
		in    string
		id    string
		chips int
	}{
		// v2, v3, v4, v5p: the number counts TensorCores, two per chip.
		{"tpu-v2-8", "tpu-v2", 4},
		{"tpu-v3-32", "tpu-v3", 16},
		{"tpu-v4-8", "tpu-v4", 4},
		{"tpu-v5p-8", "tpu-v5p", 4},
		{"TPU-V5P-16", "tpu-v5p", 8},
		// v5e (v5litepod) and v6e: the number counts chips.
		{"tpu-v5litepod-8", "tpu-v5e", 8},
		{"tpu-v5litepod-1", "tpu-v5e", 1},
		{"tpu-v6e-8", "tpu-v6e", 8},
		{"tpu-v6e-16", "tpu-v6e", 16},
		// refused
		{"tpu-v2-7", "", 0},  // odd core count
		{"tpu-v5p-1", "", 0}, // odd core count
		{"tpu-v4-0", "", 0},
		{"tpu-v5p", "", 0},  // no size
		{"tpu-v5p-", "", 0}, // no size
		{"tpu-v5p-x8", "", 0},
		{"tpu-v6e--8", "", 0}, // negative
		{"tpu-v7-8", "", 0},   // unknown generation
		{"v5p-8", "", 0},      // no tpu- prefix
		{"tpu", "", 0},
		{"A100", "", 0},
		{"", "", 0},
	} {
		id, chips, ok := tpuSlice(c.in)
		if id != c.id || chips != c.chips || ok != (c.id != "") {
			t.Errorf("tpuSlice(%q) = %q %d %v, want %q %d", c.in, id, chips, ok, c.id, c.chips)
		}
		if ok {
			if a, found := cat.Accelerator(id); !found || a.ID != id {
				t.Errorf("tpuSlice(%q) = %q: not an accelerator id of the catalog", c.in, id)
			}
		}
	}
}

func TestSkyRegion(t *testing.T) {
	for in, want := range map[string]string{
		"Denmark, DK, EU":  "DK",
		"Oregon, US, NA":   "US",
		", US, NA":         "US", // no city
		"Sichuan, cn, AS":  "CN",
		"Alberta,CA,NA":    "CA",
		"us-east-1":        "us-east-1",
		"europe-west4":     "europe-west4",
		"Texas, US":        "Texas, US",        // not City, CC, continent
		"City, USA, NA":    "City, USA, NA",    // not a two-letter code
		"A, B, DK, EU":     "A, B, DK, EU",     // too many parts
		"Denmark, DK, EU1": "Denmark, DK, EU1", // continent is letters
		"":                 "",
	} {
		if got := skyRegion(in); got != want {
			t.Errorf("skyRegion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNonGPU(t *testing.T) {
	for in, out := range map[string]bool{
		"Virtex UltraScale (VU9P)": true,
		"Xilinx FPGA":              true,
		"H100":                     false,
		"Radeon Pro V520":          false,
		"Inferentia":               false,
		"":                         false,
	} {
		why, got := nonGPU(in)
		if got != out || (got && !strings.Contains(why, "FPGA")) {
			t.Errorf("nonGPU(%q) = %q %v, want %v", in, why, got, out)
		}
	}
}

// TestSkyPilotGCP: GCP's vms.csv prices machines in parts. A4 hosts are
// priced 0.0 and their B200 row carries the price; A3 hosts are summed
// with their H100 row; T4 rows (no machine of their own) get an N1 host;
// TPU slices are offers of their own, counted in chips.
func TestSkyPilotGCP(t *testing.T) {
	const gpu = `"{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]}"`
	csv := "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n" +
		"a4-highgpu-8g,224.0,3968.0,,,,us-central1,us-central1-b,0.0,0.0\n" + // line 2
		",,,B200,8," + gpu + ",us-central1,us-central1-b,90.216,34.2368\n" + // 3
		"a3-highgpu-8g,208.0,1872.0,,,,us-central1,us-central1-a,9.46006,3.86318\n" + // 4
		",,,H100,8," + gpu + ",us-central1,us-central1-a,33.60609,32.0104\n" + // 5
		",,,T4,1," + gpu + ",us-central1,us-central1-a,0.35,0.1654\n" + // 6
		",,,T4,1," + gpu + ",europe-west4,europe-west4-a,0.3675,0.0\n" + // 7: no spot
		",,,T4,2.0," + gpu + ",europe-west4,europe-west4-a,0.735,0.3464\n" + // 8
		",,,tpu-v5p-8,1,tpu-v5p-8,europe-west4,europe-west4-b,17.01,5.12426\n" // 9
	res := parseSky(t, "catalogs/v7/gcp/vms.csv", csv)
	// N1 host of one GPU: n1-standard-8 = 8 x 0.031611 + 30 x 0.004237 =
	// 0.379998 in us-central1; elsewhere scaled by the GPU's price ratio
	// (europe-west4: 0.3675 / 0.35 = 1.05). Its spot price is the host at
	// the GPU's spot/on-demand ratio.
	want := []offerSum{
		{"gcp/a3-highgpu-8g@us-central1", "h100-sxm", 8, 43.0662, 35.8736, 0, 0}, // 9.46006 + 33.60609, 3.86318 + 32.0104
		{"gcp/a4-highgpu-8g@us-central1", "b200", 8, 90.216, 34.2368, 0, 0},      // the B200 row's prices
		// 0.735 + (16 x 0.031611 + 60 x 0.004237) x 1.05; 0.3464 + host x 0.3464/0.735
		{"gcp/n1-standard-16+nvidia-tesla-t4x2@europe-west4", "t4", 2, 1.533, 0.7225, 0, 0},
		{"gcp/n1-standard-8+nvidia-tesla-t4x1@europe-west4", "t4", 1, 0.7665, 0, 0, 0},  // 0.3675 + 0.379998 x 1.05; no spot
		{"gcp/n1-standard-8+nvidia-tesla-t4x1@us-central1", "t4", 1, 0.73, 0.345, 0, 0}, // 0.35 + 0.379998; 0.1654 + 0.379998 x 0.1654/0.35
		{"gcp/tpu-v5p-8@europe-west4", "tpu-v5p", 4, 17.01, 5.1243, 0, 0},               // 8 TensorCores = 4 chips
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if len(res.Rejected) != 0 || len(res.Warnings) != 0 {
		t.Errorf("rejects:%s\nwarnings:%s", rejectList(res), warningList(res))
	}
	// The GPU rows are the accelerator rows (host rows name none), and
	// every one of them priced an offer.
	if res.Rows != 6 || res.AcceptedRows != 6 || res.OutOfScope != 0 || res.AcceptRate() != 1 {
		t.Errorf("rows %d accepted %d out of scope %d rate %g, want 6 6 0 1", res.Rows, res.AcceptedRows, res.OutOfScope, res.AcceptRate())
	}
	if o := offerByKey(res, "gcp/a4-highgpu-8g@us-central1"); o == nil || o.VCPUs != 224 || o.RAMGiB != 3968 || !strings.Contains(o.Notes, "host row priced 0") {
		t.Errorf("a4-highgpu-8g = %+v", o)
	}
	if o := offerByKey(res, "gcp/a3-highgpu-8g@us-central1"); o == nil || o.Notes != "" {
		t.Errorf("a3-highgpu-8g = %+v, want no notes (prices read as they are)", o)
	}
	for _, k := range []string{"gcp/n1-standard-8+nvidia-tesla-t4x1@us-central1", "gcp/n1-standard-16+nvidia-tesla-t4x2@europe-west4"} {
		o := offerByKey(res, k)
		if o == nil || o.VCPUs != 8*o.GPUCount || o.RAMGiB != 30*float64(o.GPUCount) || !strings.Contains(o.Notes, "[estimated]") || o.Country == "" {
			t.Errorf("%s = %+v, want 8 vCPUs and 30 GiB per GPU, an estimated note and a country", k, o)
		}
	}
	if o := offerByKey(res, "gcp/n1-standard-8+nvidia-tesla-t4x1@europe-west4"); o != nil {
		if _, ok := o.ListPrices.Get(catalog.Spot); ok {
			t.Errorf("%s has a spot price, but its T4 row has none", o.Key())
		}
	}
	if o := offerByKey(res, "gcp/tpu-v5p-8@europe-west4"); o == nil || o.Country != "NL" || !o.AsOf.Equal(fixedAsOf) {
		t.Errorf("tpu-v5p-8 = %+v", o)
	}
}

// TestSkyPilotGCPHostWithoutAccelerator: a host row whose accelerator row
// is missing from its zone prices nothing, and an accelerator row no host
// carries (not an N1 GPU, not a TPU slice) is refused with its line.
func TestSkyPilotGCPHostWithoutAccelerator(t *testing.T) {
	csv := "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n" +
		"a3-highgpu-8g,208.0,1872.0,,,,us-central1,us-central1-a,9.46006,3.86318\n" +
		",,,H100,8,,us-central1,us-central1-b,33.60609,32.0104\n" // another zone
	res := parseSky(t, "gcp/vms.csv", csv)
	if len(res.Offers) != 0 || !hasReject(res, "AcceleratorName", "line 3: gcp/H100x8@us-central1: AcceleratorName: no machine type in us-central1 us-central1-b carries H100 x8") {
		t.Errorf("offers %v rejects:%s", summarize(res.Offers), rejectList(res))
	}
	if res.Rows != 1 || res.AcceptedRows != 0 || res.AcceptRate() != 0 {
		t.Errorf("rows %d accepted %d rate %g", res.Rows, res.AcceptedRows, res.AcceptRate())
	}
}

// TestSkyPilotAWSSliceAndFPGA: an AcceleratorCount below 1 is a slice of
// one GPU; an FPGA row is refused as out of scope, and the accept rate
// leaves it out.
func TestSkyPilotAWSSliceAndFPGA(t *testing.T) {
	const info = `"{'Gpus': [{'Name': 'L4', 'Manufacturer': 'NVIDIA', 'Count': 0, 'LogicalGpuCount': 1, 'GpuPartitionSize': 0.125, 'MemoryInfo': {'SizeInMiB': 2861}}], 'TotalGpuMemoryInMiB': 2861}"`
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch\n" +
		"g6f.large,L4,0.125,2.0,8.0," + info + ",0.29296,0.0733,us-east-1,use1-az1,x86_64\n" + // line 2
		"f1.2xlarge,Virtex UltraScale (VU9P),1.0,8.0,122.0,,1.65,0.3401,us-east-1,use1-az1,x86_64\n" + // 3
		"p5.48xlarge,H100,8.0,192.0,2048.0,,98.32,0.0,us-east-1,use1-az3,x86_64\n" + // 4: spot 0 = none
		"x9imaginary.xlarge,Imaginary X1,1.0,4.0,16.0,,0.379,0.15,us-east-1,use1-az1,x86_64\n" + // 5
		"m5.large,,,2.0,8.0,,0.096,0.04,us-east-1,use1-az1,x86_64\n" // 6: CPU only
	res := parseSky(t, "aws/vms.csv", csv)
	want := []offerSum{
		{"aws/g6f.large@us-east-1", "l4", 1, 0.293, 0.0733, 0, 0},
		{"aws/p5.48xlarge@us-east-1", "h100-sxm", 8, 98.32, 0, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if o := offerByKey(res, "aws/g6f.large@us-east-1"); o == nil || o.GPUFraction != 0.125 || o.GPUCount != 1 || o.GPUs() != 0.125 || o.VCPUs != 2 {
		t.Errorf("g6f.large = %+v, want 1/8 of one L4", o)
	}
	if o := offerByKey(res, "aws/p5.48xlarge@us-east-1"); o == nil || o.GPUFraction != 0 {
		t.Errorf("p5.48xlarge = %+v, want whole GPUs", o)
	}
	if !hasReject(res, "AcceleratorName", `line 3: aws/f1.2xlarge@us-east-1: AcceleratorName: "Virtex UltraScale (VU9P)" is an FPGA, not a GPU or AI accelerator: out of scope`) ||
		!hasReject(res, "AcceleratorName", `line 5: aws/x9imaginary.xlarge@us-east-1: AcceleratorName: unmapped GPU "Imaginary X1"`) || len(res.Rejected) != 2 {
		t.Errorf("rejects:%s", rejectList(res))
	}
	// The FPGA is out of scope, not unmapped.
	if len(res.Unmapped) != 1 || res.Unmapped["Imaginary X1"] != 1 {
		t.Errorf("unmapped = %v", res.Unmapped)
	}
	// GPU rows: g6f, f1, p5, imaginary; the FPGA leaves the rate: 2 of 3.
	if res.Rows != 4 || res.OutOfScope != 1 || res.AcceptedRows != 2 || res.Skipped != 1 {
		t.Errorf("rows %d out of scope %d accepted %d skipped %d, want 4 1 2 1", res.Rows, res.OutOfScope, res.AcceptedRows, res.Skipped)
	}
	if r := res.AcceptRate(); math.Abs(r-2.0/3) > 1e-12 {
		t.Errorf("accept rate = %g, want 2/3", r)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings:%s", warningList(res))
	}
}

// TestSkyPilotAzure: Azure's vms.csv writes its last column (Generation)
// "V1,V2" unquoted, one field more than the header: the row still reads.
// Fractional A10 sizes come with their share.
func TestSkyPilotAzure(t *testing.T) {
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation\n" +
		"Standard_NC4as_T4_v3,T4,1,4,28,T4,0.526,0.0526,eastus,V1,V2\n" +
		"Standard_NV6ads_A10_v5,A10,0.167,6,55,A10,0.454,0.0908,eastus,V1,V2\n" +
		"Standard_NV12ads_A10_v5,A10,0.333,12,110,A10,0.908,0.18,westeurope,V2\n" +
		"Standard_ND96isr_H100_v5,H100,8,96,1900,H100,98.32,39.33,eastus,V2\n"
	res := parseSky(t, "azure/vms.csv", csv)
	want := []offerSum{
		{"azure/Standard_NC4as_T4_v3@eastus", "t4", 1, 0.526, 0.0526, 0, 0},
		{"azure/Standard_ND96isr_H100_v5@eastus", "h100-sxm", 8, 98.32, 39.33, 0, 0},
		{"azure/Standard_NV12ads_A10_v5@westeurope", "a10", 1, 0.908, 0.18, 0, 0},
		{"azure/Standard_NV6ads_A10_v5@eastus", "a10", 1, 0.454, 0.0908, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if len(res.Rejected) != 0 || len(res.Warnings) != 0 || res.Rows != 4 || res.AcceptedRows != 4 {
		t.Errorf("rows %d accepted %d rejects:%s\nwarnings:%s", res.Rows, res.AcceptedRows, rejectList(res), warningList(res))
	}
	for k, frac := range map[string]float64{
		"azure/Standard_NV6ads_A10_v5@eastus":      1.0 / 6,
		"azure/Standard_NV12ads_A10_v5@westeurope": 1.0 / 3,
		"azure/Standard_NC4as_T4_v3@eastus":        0,
	} {
		if o := offerByKey(res, k); o == nil || o.GPUFraction != frac {
			t.Errorf("%s = %+v, want fraction %g", k, o, frac)
		}
	}
}

// TestCSVTableExtraFields: fields past the header's width are folded back
// into the last cell; a short record reads its missing cells as empty.
func TestCSVTableExtraFields(t *testing.T) {
	tb, err := newCSVTable(strings.NewReader("A,B,Last\n1,2,V1,V2\n1,2,V2\n1,2,\"V1,V2\",x\n1\n"), "A", "Last")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		ok, err := tb.next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, tb.str("A")+"|"+tb.str("B")+"|"+tb.str("Last"))
	}
	want := []string{"1|2|V1,V2", "1|2|V2", "1|2|V1,V2,x", "1||"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
}

// TestSkyPilotVast: Vast writes regions "City, CC, continent": the offer's
// region is the country code, and a SpotPrice of 0 means no spot.
func TestSkyPilotVast(t *testing.T) {
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n" +
		"1x-RTX_5090-32-65536,RTX5090,1,32,64.0,,0.44,0.00,\"Denmark, DK, EU\"\n" +
		"2x-H200-32-65536,H200,2,32,64.0,,5.65,0.00,\", US, NA\"\n"
	res := parseSky(t, "catalogs/v7/vast/vms.csv", csv)
	want := []offerSum{
		{"vastai/1x-RTX_5090-32-65536@DK", "rtx-5090", 1, 0.44, 0, 0, 0},
		{"vastai/2x-H200-32-65536@US", "h200", 2, 5.65, 0, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if len(res.Rejected) != 0 || len(res.Warnings) != 0 {
		t.Errorf("rejects:%s\nwarnings:%s", rejectList(res), warningList(res))
	}
	for _, o := range res.Offers {
		if o.Country != o.Region {
			t.Errorf("%s: country %q", o.Key(), o.Country)
		}
		if _, ok := o.ListPrices.Get(catalog.Spot); ok {
			t.Errorf("%s: a spot price from SpotPrice 0", o.Key())
		}
	}
}

// TestSkyPilotRegionsOption: Options.Regions keeps the rows of those
// regions; the others are neither offers nor GPU rows.
func TestSkyPilotRegionsOption(t *testing.T) {
	csv := "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n" +
		"g5.xlarge,A10G,1,1.006,0.4,us-east-1\n" +
		"g5.xlarge,A10G,1,1.2,0.5,eu-west-1\n" +
		"g6f.large,L4,0.125,0.3,0.1,eu-west-1\n"
	opt := fileOptions(t)
	opt.Regions = []string{"us-east-1"}
	res, err := Parse("skypilot", strings.NewReader(csv), "aws/vms.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 || res.Offers[0].Region != "us-east-1" || res.Rows != 1 || res.AcceptedRows != 1 {
		t.Errorf("offers %v rows %d accepted %d", summarize(res.Offers), res.Rows, res.AcceptedRows)
	}
}

// The EC2 slices are slices in the AWS Price List path too, and a small
// share is not snapped to a far 1/n.
func TestAWSFractionsAndSnap(t *testing.T) {
	if s, k := awsGPU("g6f.large", "1"); k != mappedGPU || s.GPU != "l4" || s.Count != 1 || awsFractions["g6f.large"] != 0.125 {
		t.Errorf("g6f.large = %+v %v, fraction %g", s, k, awsFractions["g6f.large"])
	}
	if _, f, ok := fraction("0.06"); !ok || f != 0.06 {
		t.Errorf("fraction(0.06) = %g %v, want 0.06 unsnapped", f, ok)
	}
}

// gpuhunt files count their GPU rows for the accept rate as SkyPilot files do.
func TestGpuhuntAcceptRate(t *testing.T) {
	in := "instance_name,location,price,gpu_count,gpu_name,spot\n" +
		"gpu_1x_a10,us-east-1,0.75,1,A10,False\n" +
		"gpu_1x_x,us-east-1,0.75,1,Imaginary X1,False\n"
	res, err := Parse("gpuhunt", strings.NewReader(in), "lambdalabs.csv", fileOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 2 || res.AcceptedRows != 1 || res.AcceptRate() != 0.5 {
		t.Errorf("rows %d accepted %d rate %g, want 2, 1, 0.5", res.Rows, res.AcceptedRows, res.AcceptRate())
	}
}

// A marketplace's one name for two memory sizes is told apart by the memory
// per GPU, and a card the catalog lacks (a Ti with other memory) is refused;
// "NVLINK" in a name is not the H100 NVL.
func TestSkyPilotMemoryVariants(t *testing.T) {
	in := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n" +
		`2x-A100_SXM4-32-65536,A100,2,32,64.0,"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 163840}}], 'TotalGpuMemoryInMiB': 163840}",1.87,0.00,"Montana, US, NA"` + "\n" +
		`2x-A100_SXM4-32-65536,A100,2,32,64.0,"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}",1.87,0.00,"Germany, DE, EU"` + "\n" +
		`4x-RTX_4060_Ti-32-65536,RTX4060,4,32,64.0,"{'Gpus': [{'Name': 'RTX4060', 'Count': 4, 'MemoryInfo': {'SizeInMiB': 65520}}], 'TotalGpuMemoryInMiB': 65520}",0.29,0.00,", CN, AS"` + "\n"
	res, err := Parse("skypilot", strings.NewReader(in), "vast/vms.csv", fileOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range res.Offers {
		got[o.Key()] = o.GPU
	}
	want := map[string]string{"vastai/2x-A100_SXM4-32-65536-80GB@US": "a100-80gb", "vastai/2x-A100_SXM4-32-65536-40GB@DE": "a100-40gb"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if len(res.Rejected) != 1 || !strings.Contains(res.Rejected[0].Reason, "16 GiB per GPU, but rtx-4060 has 8 GiB") {
		t.Errorf("rejects %v, want the 4060 Ti", res.Rejected)
	}
	if id, _ := resolveName(catalogtest.Embedded(t), skyNames, "H100-NVLINK", 0, "H100_NVLINK_80GB::8"); id != "h100-sxm" {
		t.Errorf("H100-NVLINK = %s, want h100-sxm", id)
	}
}

// A SkyPilot file of a provider the catalog has no facts on (Cudo, rows in
// the format of its public catalog) imports like the others: the provider
// and its regions are accepted with warnings, names resolve by instance and
// memory.
func TestSkyPilotNewProvider(t *testing.T) {
	in := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		`epyc-genoa-h100-nvl-pcie_1x2v4gb,H100,1.0,2,4,2.4994,au-melbourne-1,"{'Gpus': [{'Name': 'H100', 'Count': '1.0', 'MemoryInfo': {'SizeInMiB': 96256}}], 'TotalGpuMemoryInMiB': 96256}",` + "\n" +
		`intel-ice-lake-a100-pci_2x8v16gb,A100,2.0,8,16,2.79,us-carlsbad-1,"{'Gpus': [{'Name': 'A100', 'Count': '2.0', 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 163840}",` + "\n" +
		`sapphire-rapids-h100_1x2v4gb,H100-SXM,1.0,2,4,1.82,no-kristiansand-1,"{'Gpus': [{'Name': 'H100-SXM', 'Count': '1.0', 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}",` + "\n"
	res, err := Parse("skypilot", strings.NewReader(in), "catalogs/v7/cudo/vms.csv", fileOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range res.Offers {
		got[o.Key()] = o.GPU
	}
	want := map[string]string{
		"cudo/epyc-genoa-h100-nvl-pcie_1x2v4gb@au-melbourne-1": "h100-nvl",
		"cudo/intel-ice-lake-a100-pci_2x8v16gb@us-carlsbad-1":  "a100-80gb-pcie",
		"cudo/sapphire-rapids-h100_1x2v4gb@no-kristiansand-1":  "h100-sxm",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if res.AcceptRate() != 1 || len(res.Rejected) != 0 {
		t.Errorf("accept rate %g, rejects %v", res.AcceptRate(), res.Rejected)
	}
	fields := map[string]int{}
	for _, w := range res.Warnings {
		fields[w.Field]++
	}
	if fields["provider"] != 1 || fields["region"] != 3 {
		t.Errorf("warnings by field %v, want provider 1 and region 3", fields)
	}
}

// A price beyond any real instance is refused, not carried into sums that
// overflow to infinity.
func TestAbsurdPriceRefused(t *testing.T) {
	in := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\n" +
		"p5.48xlarge,H100,8,192,2048,1.7e308,,us-east-1\np5.48xlarge,H100,8,192,2048,55.04,,us-west-2\n"
	res, err := Parse("skypilot", strings.NewReader(in), "aws/vms.csv", fileOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 || len(res.Rejected) != 1 || !strings.Contains(res.Rejected[0].Reason, "at most 1e+06") {
		t.Errorf("offers %d, rejects %v", len(res.Offers), res.Rejected)
	}
}

// TestSpotAsPaid: the spot price of a region is what a buyer pays on
// average over its zones, with the cheapest and dearest zone as the range,
// never the cheapest zone alone. The three zones are those of the 2026
// SkyPilot AWS file for p6-b200.48xlarge in us-east-2.
func TestSpotAsPaid(t *testing.T) {
	const head = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
	res := parseSky(t, "catalogs/v9/aws/vms.csv", head+
		"p6-b200.48xlarge,B200,8.0,192.0,2048.0,,113.9328,28.757700,us-east-2,use2-az1\n"+
		"p6-b200.48xlarge,B200,8.0,192.0,2048.0,,113.9328,23.956000,us-east-2,use2-az2\n"+
		"p6-b200.48xlarge,B200,8.0,192.0,2048.0,,113.9328,11.393300,us-east-2,use2-az3\n"+
		"p5.48xlarge,H100,8.0,192.0,2048.0,,55.04,30,us-east-1,use1-az1\n"+ // one zone: a point price
		"g6.xlarge,L4,1.0,4.0,16.0,,0.8048,0.3,us-east-1,use1-az1\n"+ // zones that agree: one regional price
		"g6.xlarge,L4,1.0,4.0,16.0,,0.8048,0.3,us-east-1,use1-az2\n")
	type spot struct {
		Key      string
		Price    float64
		Basis    catalog.SpotBasis
		Lo, Hi   float64
		Zones    int
		RangeLow float64 // as a factor of the price
	}
	var got []spot
	for _, o := range res.Offers {
		lo, _, _ := o.SpotRange()
		r := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
		got = append(got, spot{o.Key(), r(o.ListPrices[catalog.Spot]), o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones, r(lo)})
	}
	want := []spot{
		{"aws/g6.xlarge@us-east-1", 0.3, catalog.SpotRegional, 0, 0, 2, 1},
		{"aws/p5.48xlarge@us-east-1", 30, catalog.SpotPoint, 0, 0, 0, 1},
		{"aws/p6-b200.48xlarge@us-east-2", 21.3690, catalog.SpotZonesMean, 11.3933, 28.7577, 3, 0.5332},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spot prices (-want +got):\n%s", d)
	}
}
