package importer

import (
	"testing"

	"github.com/gpupick/gpupick/internal/catalogtest"
)

// TestMappingIDsExist: every id a mapping table names is an accelerator id
// of the embedded catalog (not an alias, not a typo).
func TestMappingIDsExist(t *testing.T) {
	cat := catalogtest.Embedded(t)
	check := func(table, key, id string) {
		t.Helper()
		if id == "" {
			return
		}
		if a, ok := cat.Accelerator(id); !ok || a.ID != id {
			t.Errorf("%s[%q] = %q: not an accelerator id of the catalog", table, key, id)
		}
	}
	for k, s := range azureSKUs {
		check("azureSKUs", k, s.GPU)
		if s.Count < 1 {
			t.Errorf("azureSKUs[%q]: count %d", k, s.Count)
		}
	}
	for k, s := range azureFractional {
		check("azureFractional", k, s.GPU)
		if s.Fraction <= 0 || s.Fraction >= 1 {
			t.Errorf("azureFractional[%q]: fraction %g", k, s.Fraction)
		}
		if _, ok := azureSKUs[k]; ok {
			t.Errorf("azureFractional[%q] is also in azureSKUs", k)
		}
	}
	for k, id := range awsFamilies {
		check("awsFamilies", k, id)
	}
	for k, id := range gcpGPUs {
		check("gcpGPUs", k, id)
	}
	for k, m := range gcpMachines {
		check("gcpMachines", k, m.GPU)
		for _, model := range m.Models {
			if gcpGPUs[model] != m.GPU {
				t.Errorf("gcpMachines[%q]: model %q maps to %q, not %q", k, model, gcpGPUs[model], m.GPU)
			}
		}
		if id, ok := resolveName(cat, skyNames, m.Sky, 0, ""); !ok || id != m.GPU {
			t.Errorf("gcpMachines[%q]: SkyPilot name %q resolves to %q", k, m.Sky, id)
		}
	}
	for _, table := range []map[string]nameRule{skyNames, gpuhuntNames} {
		for k, r := range table {
			check("names", k, r.ID)
			for _, id := range r.ByMem {
				check("names", k, id)
			}
		}
	}
	for k, id := range pcieVariant {
		check("pcieVariant", k, id)
		check("pcieVariant", k, k)
	}
}

func TestAzureGPU(t *testing.T) {
	for _, c := range []struct {
		sku  string
		want gpuSpec
		kind skuKind
		frac float64
	}{
		{"Standard_ND96isr_H100_v5", gpuSpec{"h100-sxm", 8}, mappedGPU, 0},
		{"standard_nc24ads_a100_v4", gpuSpec{"a100-80gb-pcie", 1}, mappedGPU, 0},
		{"Standard_ND96asr_v4", gpuSpec{"a100-40gb", 8}, mappedGPU, 0},
		{"Standard_NC80adis_H100_v5", gpuSpec{"h100-nvl", 2}, mappedGPU, 0},
		{"Standard_ND96isr_MI300X_v5", gpuSpec{"mi300x", 8}, mappedGPU, 0},
		{"Standard_NV6ads_A10_v5", gpuSpec{"a10", 1}, fractionalGPU, 1.0 / 6},
		{"Standard_NV12ads_A10_v5", gpuSpec{"a10", 1}, fractionalGPU, 1.0 / 3},
		{"Standard_NV18ads_A10_v5", gpuSpec{"a10", 1}, fractionalGPU, 0.5},
		{"Standard_NV4as_v4", gpuSpec{"mi25", 1}, fractionalGPU, 0.125},
		{"Standard_NV36ads_A10_v5", gpuSpec{"a10", 1}, mappedGPU, 0}, // the whole-GPU size
		{"Standard_NC6", gpuSpec{}, unmappedGPU, 0},                  // K80, not in the catalog
		{"Standard_NV12s_v3", gpuSpec{"m60", 1}, mappedGPU, 0},
		{"NC24ads A100 v4", gpuSpec{"a100-80gb-pcie", 1}, mappedGPU, 0}, // a meter's display name
		{"ND96isr H200 v5", gpuSpec{"h200", 8}, mappedGPU, 0},
		{"NV6adsA10v5", gpuSpec{"a10", 1}, fractionalGPU, 1.0 / 6},
		{"Standard_NG8ads_V620_v1", gpuSpec{}, unmappedGPU, 0}, // Radeon V620, not in the catalog
		{"Standard_D4s_v5", gpuSpec{}, notGPU, 0},
		{"Standard_NP10s", gpuSpec{}, notGPU, 0}, // FPGA
		{"", gpuSpec{}, notGPU, 0},
	} {
		got, kind, slice := azureGPU(c.sku)
		if got != c.want || kind != c.kind || slice.Fraction != c.frac || (c.frac > 0 && slice.GPU != c.want.GPU) {
			t.Errorf("azureGPU(%q) = %v %d %v, want %v %d fraction %g", c.sku, got, kind, slice, c.want, c.kind, c.frac)
		}
	}
}

func TestAWSGPU(t *testing.T) {
	for _, c := range []struct {
		it, gpu string
		want    gpuSpec
		kind    skuKind
	}{
		{"p5.48xlarge", "8", gpuSpec{"h100-sxm", 8}, mappedGPU},
		{"p5en.48xlarge", "8", gpuSpec{"h200", 8}, mappedGPU},
		{"p4de.24xlarge", "8", gpuSpec{"a100-80gb", 8}, mappedGPU},
		{"p3dn.24xlarge", "8", gpuSpec{"v100", 8}, mappedGPU},
		{"p3.8xlarge", "4", gpuSpec{"v100-16gb", 4}, mappedGPU},
		{"p6-b200.48xlarge", "8", gpuSpec{"b200", 8}, mappedGPU},
		{"g6e.xlarge", "1", gpuSpec{"l40s", 1}, mappedGPU},
		{"inf2.48xlarge", "", gpuSpec{"inferentia2", 12}, mappedGPU},
		{"trn2.48xlarge", "", gpuSpec{"trainium2", 16}, mappedGPU},
		{"g4ad.xlarge", "1", gpuSpec{"radeon-pro-v520", 1}, mappedGPU},
		{"g5g.xlarge", "1", gpuSpec{"t4", 1}, mappedGPU}, // T4G
		{"p6-b300.48xlarge", "8", gpuSpec{"b300", 8}, mappedGPU},
		{"g7e.2xlarge", "1", gpuSpec{"rtx-pro-6000", 1}, mappedGPU},
		{"dl1.24xlarge", "8", gpuSpec{"gaudi1", 8}, mappedGPU},
		{"inf1.xlarge", "1", gpuSpec{"inferentia1", 1}, mappedGPU},
		{"x9imaginary.xlarge", "1", gpuSpec{}, unmappedGPU},
		{"m7i.large", "", gpuSpec{}, notGPU},
	} {
		got, kind := awsGPU(c.it, c.gpu)
		if got != c.want || kind != c.kind {
			t.Errorf("awsGPU(%q, %q) = %v %d, want %v %d", c.it, c.gpu, got, kind, c.want, c.kind)
		}
	}
}

func TestGCPDescriptions(t *testing.T) {
	for in, want := range map[string]string{
		"Nvidia Tesla A100 GPU running in Americas":                        "nvidia tesla a100",
		"Spot Preemptible Nvidia H100 80GB GPU running in Americas":        "nvidia h100 80gb",
		"Commitment v1: Nvidia Tesla A100 80GB GPU in Americas for 1 Year": "nvidia tesla a100 80gb",
		"Nvidia L4 GPU running in Belgium":                                 "nvidia l4",
		"Nvidia Tesla T4 GPU attached to Virtual Workstation":              "",
		"Licensing Fee": "",
	} {
		got, ok := gcpGPUModel(in)
		if got != want || ok != (want != "") {
			t.Errorf("gcpGPUModel(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	for in, want := range map[string][2]string{
		"A2 Instance Core running in Americas":              {"a2", "core"},
		"Spot Preemptible A3 Instance Ram running in Tokyo": {"a3", "ram"},
		"Commitment v1: G2 Cpu in Americas for 1 Year":      {"g2", "core"},
		"N1 Predefined Instance Core running in Americas":   {"", ""},
		"E2 Instance Core running in Americas":              {"", ""},
	} {
		f, p, ok := gcpHostPart(in)
		if f != want[0] || p != want[1] || ok != (want[0] != "") {
			t.Errorf("gcpHostPart(%q) = %q %q %v, want %v", in, f, p, ok, want)
		}
	}
}

func TestResolveName(t *testing.T) {
	cat := catalogtest.Embedded(t)
	for _, c := range []struct {
		table    string
		name     string
		mem      float64
		instance string
		want     string
	}{
		{"sky", "A100", 0, "a2-highgpu-1g", "a100-40gb"}, // SkyPilot's A100 is 40 GB, unlike the catalog alias
		{"sky", "A100-80GB", 0, "", "a100-80gb"},
		{"sky", "H100", 0, "gpu_1x_h100_pcie", "h100-pcie"},
		{"sky", "H100", 0, "gpu_8x_h100_sxm5", "h100-sxm"},
		{"sky", "V100-32GB", 0, "", "v100"},
		{"sky", "L40S", 0, "", "l40s"},
		{"sky", "RTX6000-Ada", 0, "", "rtx-6000-ada"},
		{"sky", "MI300X", 0, "", "mi300x"},
		{"sky", "Gaudi2", 0, "", "gaudi2"}, // through the catalog's aliases
		{"sky", "Radeon Pro V520", 0, "", "radeon-pro-v520"},
		{"sky", "RTX5090", 0, "", "rtx-5090"},
		{"sky", "Gaudi HL-205", 0, "", "gaudi1"},
		{"sky", "Inferentia", 0, "", "inferentia1"},
		{"sky", "T4g", 0, "", "t4"},
		{"sky", "RTXPRO6000", 0, "", "rtx-pro-6000"},
		{"sky", "RTX PRO 6000 96GB", 0, "", "rtx-pro-6000"},
		{"sky", "H100-NVLINK", 0, "", "h100-sxm"},
		{"sky", "A100-80G-PCIE", 0, "", "a100-80gb-pcie"},
		{"sky", "RTX6000", 0, "", "quadro-rtx-6000"}, // Lambda's Turing card, not the Ada one
		{"sky", "Imaginary X1", 0, "", ""},
		{"hunt", "RTX5090", 32, "", "rtx-5090"}, // through the catalog's aliases
		{"sky", "K80", 0, "", ""},
		{"hunt", "A100", 40, "", "a100-40gb"},
		{"hunt", "A100", 80, "", "a100-80gb"},
		{"hunt", "A100", 80, "gpu_1x_a100_pcie", "a100-80gb-pcie"},
		{"hunt", "V100", 16, "", "v100-16gb"},
		{"hunt", "H100", 94, "", "h100-nvl"},
		{"hunt", "H100NVL", 94, "", "h100-nvl"},
		{"hunt", "RTX4090", 24, "", "rtx-4090"},
		{"hunt", "RTX6000", 24, "", "quadro-rtx-6000"}, // the Turing Quadro RTX 6000 (Lambda), by its 24 GB
		{"hunt", "v5litepod", 16, "", "tpu-v5e"},
		{"hunt", "", 0, "", ""},
	} {
		table := skyNames
		if c.table == "hunt" {
			table = gpuhuntNames
		}
		got, ok := resolveName(cat, table, c.name, c.mem, c.instance)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s %q %g %q = %q %v, want %q", c.table, c.name, c.mem, c.instance, got, ok, c.want)
		}
	}
}

// Azure sizes come out in Azure's casing from any spelling, so that two
// sources of one size make one offer.
func TestAzureInstanceCasing(t *testing.T) {
	for in, want := range map[string]string{
		"standard_nd96isr_mi300x_v5": "Standard_ND96isr_MI300X_v5",
		"Standard_ND96isr_MI300X_v5": "Standard_ND96isr_MI300X_v5",
		"nc16as_t4_v3":               "Standard_NC16as_T4_v3",
		"Standard_nc12s_v3":          "Standard_NC12s_v3",
		"ncc40ads_h100_v5":           "Standard_NCC40ads_H100_v5",
		"nd96amsr_a100_v4":           "Standard_ND96amsr_A100_v4",
		"ND128isr_NDR_GB200_v6":      "Standard_ND128isr_NDR_GB200_v6",
		"nd96asr_v4":                 "Standard_ND96asr_v4",
		"NV36ads_A10_v5":             "Standard_NV36ads_A10_v5",
		"NC6":                        "Standard_NC6",
	} {
		if got := azureInstance(in); got != want {
			t.Errorf("azureInstance(%q) = %q, want %q", in, got, want)
		}
	}
}
