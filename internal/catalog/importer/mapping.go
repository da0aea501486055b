package importer

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
)

// gpuSpec is what an instance type carries: our accelerator id and how many.
type gpuSpec struct {
	GPU   string
	Count int
}

// sliceSpec is an instance type that holds a share of one accelerator.
type sliceSpec struct {
	GPU      string
	Fraction float64
}

// azureSKUs maps Azure armSkuName (lowercase, without "standard_") to the
// accelerators of the VM. The Retail Prices API carries no GPU counts (they
// are in the Resource SKUs API), so this table is the source of them. SKUs
// with a fraction of a GPU are in azureFractional instead.
var azureSKUs = map[string]gpuSpec{
	// NCv3: V100 16 GB PCIe-attached SXM2 boards (the catalog's v100-16gb).
	"nc6s_v3": {"v100-16gb", 1}, "nc12s_v3": {"v100-16gb", 2}, "nc24s_v3": {"v100-16gb", 4}, "nc24rs_v3": {"v100-16gb", 4},
	// NDv2: V100 32 GB NVLink.
	"nd40rs_v2": {"v100", 8},
	// NCasT4_v3.
	"nc4as_t4_v3": {"t4", 1}, "nc8as_t4_v3": {"t4", 1}, "nc16as_t4_v3": {"t4", 1}, "nc64as_t4_v3": {"t4", 4},
	// NC A100 v4: A100 80 GB PCIe.
	"nc24ads_a100_v4": {"a100-80gb-pcie", 1}, "nc48ads_a100_v4": {"a100-80gb-pcie", 2}, "nc96ads_a100_v4": {"a100-80gb-pcie", 4},
	// ND A100 v4 (40 GB) and NDm A100 v4 (80 GB), SXM.
	"nd96asr_v4": {"a100-40gb", 8}, "nd96asr_a100_v4": {"a100-40gb", 8}, "nd96amsr_a100_v4": {"a100-80gb", 8},
	// NC H100 v5 and the confidential NCC H100 v5: H100 NVL.
	"nc40ads_h100_v5": {"h100-nvl", 1}, "nc80adis_h100_v5": {"h100-nvl", 2}, "ncc40ads_h100_v5": {"h100-nvl", 1},
	// ND H100 v5, ND H200 v5, ND MI300X v5, ND GB200 v6.
	"nd96isr_h100_v5": {"h100-sxm", 8}, "nd96is_h100_v5": {"h100-sxm", 8},
	"nd96isr_h200_v5":       {"h200", 8},
	"nd96isr_mi300x_v5":     {"mi300x", 8},
	"nd128isr_ndr_gb200_v6": {"gb200", 4}, "nd128isr_gb200_v6": {"gb200", 4},
	// NV (retired 2023) and NVv3: Tesla M60.
	"nv6": {"m60", 1}, "nv12": {"m60", 2}, "nv24": {"m60", 4},
	"nv12s_v3": {"m60", 1}, "nv24s_v3": {"m60", 2}, "nv48s_v3": {"m60", 4},
	// NVadsA10_v5, whole-GPU sizes.
	"nv36ads_a10_v5": {"a10", 1}, "nv36adms_a10_v5": {"a10", 1}, "nv72ads_a10_v5": {"a10", 2},
}

// azureFractional are Azure GPU VMs that hold a slice of a GPU (a
// partitioned vGPU): imported with their fraction.
var azureFractional = map[string]sliceSpec{
	"nv6ads_a10_v5": {"a10", 1.0 / 6}, "nv12ads_a10_v5": {"a10", 1.0 / 3}, "nv18ads_a10_v5": {"a10", 0.5},
	"nv4as_v4": {"mi25", 1.0 / 8}, "nv8as_v4": {"mi25", 0.25}, "nv16as_v4": {"mi25", 0.5},
}

// azureSquashed maps a size name without underscores or spaces to its
// armSkuName in azureSKUs or azureFractional.
var azureSquashed = func() map[string]string {
	m := map[string]string{}
	for k := range azureSKUs {
		m[squash(k)] = k
	}
	for k := range azureFractional {
		m[squash(k)] = k
	}
	return m
}()

func squash(s string) string { return squasher.Replace(strings.ToLower(s)) }

var squasher = strings.NewReplacer("_", "", " ", "")

// azureKind says what an Azure armSkuName is.
type skuKind int8

const (
	notGPU skuKind = iota
	mappedGPU
	unmappedGPU
	fractionalGPU
)

// azureGPU classifies an armSkuName such as "Standard_ND96isr_H100_v5". The
// GPU series all start with N (NC, ND, NG, NV, NCC); an N-series SKU missing
// from the table is unmapped (reported), anything else is not a GPU VM.
func azureGPU(armSku string) (gpuSpec, skuKind, sliceSpec) {
	k := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(armSku, "Standard_"), "standard_"))
	if s, ok := azureSKUs[k]; ok {
		return s, mappedGPU, sliceSpec{}
	}
	if f, ok := azureFractional[k]; ok {
		return gpuSpec{f.GPU, 1}, fractionalGPU, f
	}
	// Meter names write the size without underscores ("ND96isr H100 v5",
	// "NC24adsA100v4"): the same size, found by its letters.
	if arm, ok := azureSquashed[squash(k)]; ok {
		return azureGPU(arm)
	}
	if len(k) >= 2 && k[0] == 'n' && strings.ContainsAny(k[1:2], "cdgv") {
		return gpuSpec{}, unmappedGPU, sliceSpec{}
	}
	return gpuSpec{}, notGPU, sliceSpec{}
}

// awsFamilies maps an EC2 instance family (the part before the dot) to our
// accelerator id. Counts come from the offer file's "gpu" attribute, or from
// awsCounts for accelerators the file does not count as GPUs.
var awsFamilies = map[string]string{
	"p3": "v100-16gb", "p3dn": "v100",
	"p4d": "a100-40gb", "p4de": "a100-80gb",
	"p5": "h100-sxm", "p5e": "h200", "p5en": "h200",
	"p6-b200": "b200", "p6-b300": "b300",
	"g4dn": "t4", "g5g": "t4", "g4ad": "radeon-pro-v520",
	"g5": "a10g",
	"g6": "l4", "gr6": "l4", "g6f": "l4", "gr6f": "l4",
	"g6e":  "l40s",
	"g7e":  "rtx-pro-6000",
	"dl1":  "gaudi1",
	"trn1": "trainium1", "trn1n": "trainium1",
	"trn2": "trainium2",
	"inf1": "inferentia1", "inf2": "inferentia2",
}

// awsCounts holds accelerator counts the offer file's "gpu" attribute leaves
// out (Trainium and Inferentia are not GPUs to it).
var awsCounts = map[string]int{
	"trn1.2xlarge": 1, "trn1.32xlarge": 16, "trn1n.32xlarge": 16, "trn2.48xlarge": 16,
	"inf2.xlarge": 1, "inf2.8xlarge": 1, "inf2.24xlarge": 6, "inf2.48xlarge": 12,
}

// awsFractions are the EC2 instance types that hold a slice of one GPU (g6f,
// gr6f: fractions of an L4), as SkyPilot's AWS catalog counts them; the
// offer file's "gpu" attribute does not say.
var awsFractions = map[string]float64{
	"g6f.large": 0.125, "g6f.xlarge": 0.125, "g6f.2xlarge": 0.25, "g6f.4xlarge": 0.5, "gr6f.4xlarge": 0.5,
}

// awsFamily returns the family of an instance type: "p5" of "p5.48xlarge".
func awsFamily(instanceType string) string {
	f, _, _ := strings.Cut(instanceType, ".")
	return strings.ToLower(f)
}

// awsGPU classifies an EC2 instance type; gpuAttr is the offer file's "gpu"
// attribute (may be empty).
func awsGPU(instanceType, gpuAttr string) (gpuSpec, skuKind) {
	n, _ := strconv.Atoi(strings.TrimSpace(gpuAttr))
	id, ok := awsFamilies[awsFamily(instanceType)]
	if !ok {
		if n > 0 {
			return gpuSpec{}, unmappedGPU
		}
		return gpuSpec{}, notGPU
	}
	if c, ok := awsCounts[instanceType]; ok {
		n = c
	}
	if _, ok := awsFractions[instanceType]; ok {
		n = 1
	}
	return gpuSpec{id, n}, mappedGPU
}

// gcpMachine is a GCP accelerator-optimised machine type: host shape, the
// accelerator it bundles and how the bill is made of SKUs.
type gcpMachine struct {
	Name   string
	VCPUs  int
	RAMGiB float64
	GPU    string // our id
	Count  int
	// Host is the family word of the core and RAM SKUs ("A2 Instance Core").
	Host string
	// Models are the GPU SKU models (normalised, see gcpGPUModel) the bill
	// uses, most specific first.
	Models []string
	// Sky is the AcceleratorName of SkyPilot's GCP catalog for this machine.
	Sky string
	// Fraction is the share of one GPU a sliced machine holds (Count 1);
	// 0 for whole GPUs.
	Fraction float64
}

// gcpMachines lists the machine types whose price is host + accelerators.
// N1 VMs with attached T4/V100/P100/P4 have no machine type of their own:
// the SkyPilot parser gives them an N1 host (gcpN1Hosts).
var gcpMachines = func() map[string]gcpMachine {
	m := map[string]gcpMachine{}
	add := func(prefix, gpu, host, sky string, models []string, shapes ...[3]float64) {
		for _, s := range shapes {
			n := int(s[2])
			name := prefix + strconv.Itoa(n) + "g"
			if strings.HasPrefix(prefix, "g2-") || strings.HasPrefix(prefix, "g4-") {
				name = prefix + strconv.Itoa(int(s[0]))
			}
			m[name] = gcpMachine{Name: name, VCPUs: int(s[0]), RAMGiB: s[1], GPU: gpu, Count: n, Host: host, Models: models, Sky: sky}
		}
	}
	add("a2-highgpu-", "a100-40gb", "a2", "A100", []string{"nvidia tesla a100"},
		[3]float64{12, 85, 1}, [3]float64{24, 170, 2}, [3]float64{48, 340, 4}, [3]float64{96, 680, 8})
	add("a2-megagpu-", "a100-40gb", "a2", "A100", []string{"nvidia tesla a100"}, [3]float64{96, 1360, 16})
	add("a2-ultragpu-", "a100-80gb", "a2", "A100-80GB", []string{"nvidia tesla a100 80gb", "nvidia a100 80gb"},
		[3]float64{12, 170, 1}, [3]float64{24, 340, 2}, [3]float64{48, 680, 4}, [3]float64{96, 1360, 8})
	add("a3-highgpu-", "h100-sxm", "a3", "H100", []string{"nvidia h100 80gb"},
		[3]float64{26, 234, 1}, [3]float64{52, 468, 2}, [3]float64{104, 936, 4}, [3]float64{208, 1872, 8})
	add("a3-megagpu-", "h100-sxm", "a3", "H100-MEGA", []string{"nvidia h100 80gb mega", "nvidia h100 80gb plus"}, [3]float64{208, 1872, 8})
	add("a3-ultragpu-", "h200", "a3", "H200", []string{"nvidia h200 141gb", "nvidia h200"}, [3]float64{224, 2952, 8})
	add("a4-highgpu-", "b200", "a4", "B200", []string{"nvidia b200 180gb", "nvidia b200"}, [3]float64{224, 3968, 8})
	add("g2-standard-", "l4", "g2", "L4", []string{"nvidia l4"},
		[3]float64{4, 16, 1}, [3]float64{8, 32, 1}, [3]float64{12, 48, 1}, [3]float64{16, 64, 1},
		[3]float64{24, 96, 2}, [3]float64{32, 128, 1}, [3]float64{48, 192, 4}, [3]float64{96, 384, 8})
	add("a3-edgegpu-", "h100-sxm", "a3", "H100", []string{"nvidia h100 80gb"}, [3]float64{208, 1872, 8})
	// G4: RTX PRO 6000 Blackwell, whole GPUs from g4-standard-48 and
	// shares of one below it (1/8, 1/4, 1/2), as the billing catalog
	// counts them (gpu_count 0.125-8 in the machine price list).
	add("g4-standard-", "rtx-pro-6000", "g4", "RTXPRO6000", nil,
		[3]float64{48, 180, 1}, [3]float64{96, 360, 2}, [3]float64{192, 720, 4}, [3]float64{384, 1440, 8})
	for _, s := range []struct {
		vcpus int
		ram   float64
		frac  float64
	}{{6, 22, 0.125}, {12, 45, 0.25}, {24, 90, 0.5}} {
		name := "g4-standard-" + strconv.Itoa(s.vcpus)
		m[name] = gcpMachine{Name: name, VCPUs: s.vcpus, RAMGiB: s.ram, GPU: "rtx-pro-6000", Count: 1, Fraction: s.frac, Host: "g4", Sky: "RTXPRO6000"}
	}
	// Variants without local SSD: the same GPUs and host at a lower price.
	for _, v := range []string{"a3-edgegpu-8g", "a3-ultragpu-8g"} {
		x := m[v]
		x.Name = v + "-nolssd"
		m[x.Name] = x
	}
	return m
}()

// gcpGPUs maps a GCP GPU SKU model (normalised) to our id. Models missing
// here are reported as unmapped.
var gcpGPUs = map[string]string{
	"nvidia tesla a100":      "a100-40gb",
	"nvidia tesla a100 80gb": "a100-80gb", "nvidia a100 80gb": "a100-80gb",
	"nvidia h100 80gb": "h100-sxm", "nvidia h100 80gb mega": "h100-sxm", "nvidia h100 80gb plus": "h100-sxm",
	"nvidia h200 141gb": "h200", "nvidia h200": "h200",
	"nvidia b200 180gb": "b200", "nvidia b200": "b200",
	"nvidia l4":         "l4",
	"nvidia tesla t4":   "t4",
	"nvidia tesla v100": "v100-16gb",
	"nvidia tesla p100": "p100",
	"nvidia tesla p4":   "p4",
}

// gcpGPUModel normalises a GCP GPU SKU description to its model:
// "Spot Preemptible Nvidia Tesla A100 GPU running in Americas" becomes
// "nvidia tesla a100". ok is false for SKUs that are not a GPU-hour
// (virtual-workstation licences).
func gcpGPUModel(desc string) (string, bool) {
	d := strings.ToLower(strings.TrimSpace(desc))
	d = stripGCPPrefix(d)
	if strings.Contains(d, "virtual workstation") {
		return "", false
	}
	i := strings.Index(d, " gpu")
	if i < 0 {
		return "", false
	}
	return strings.Join(strings.Fields(d[:i]), " "), true
}

// stripGCPPrefix removes the usage words GCP puts before the resource name.
func stripGCPPrefix(d string) string {
	for _, p := range []string{"spot preemptible ", "preemptible ", "commitment v1: ", "commitment v2: ", "commitment: "} {
		d = strings.TrimPrefix(d, p)
	}
	return d
}

// gcpHostPart recognises the core and RAM SKUs of a machine family:
// "A2 Instance Core running in Americas" is ("a2", "core");
// "Commitment v1: A3 Ram in Americas for 1 Year" is ("a3", "ram").
func gcpHostPart(desc string) (family, part string, ok bool) {
	d := stripGCPPrefix(strings.ToLower(strings.TrimSpace(desc)))
	f := strings.Fields(d)
	if len(f) < 2 {
		return "", "", false
	}
	family = f[0]
	next := f[1]
	if next == "instance" && len(f) > 2 {
		next = f[2]
	}
	switch next {
	case "core", "cpu":
		part = "core"
	case "ram":
		part = "ram"
	default:
		return "", "", false
	}
	for _, m := range gcpMachines {
		if m.Host == family {
			return family, part, true
		}
	}
	return "", "", false
}

// nameRule maps a provider's GPU name to our id, optionally by the memory
// per GPU in GB when the name alone is ambiguous.
type nameRule struct {
	ID    string
	ByMem map[int]string
}

// skyNames maps SkyPilot AcceleratorName values to our ids where the
// catalog's own aliases would be wrong: SkyPilot's "A100" is the 40 GB part,
// its "V100" the 16 GB one. Names not here fall back to the catalog aliases.
var skyNames = map[string]nameRule{
	"a100": {ID: "a100-40gb", ByMem: map[int]string{40: "a100-40gb", 80: "a100-80gb"}}, "a100-80gb": {ID: "a100-80gb"},
	"h100": {ID: "h100-sxm"}, "h100-mega": {ID: "h100-sxm"}, "h100-sxm": {ID: "h100-sxm"},
	"v100": {ID: "v100-16gb", ByMem: map[int]string{16: "v100-16gb", 32: "v100"}}, "v100-32gb": {ID: "v100"},
	"a10g": {ID: "a10g"}, "a10": {ID: "a10"}, "l4": {ID: "l4"}, "l40s": {ID: "l40s"}, "t4": {ID: "t4"},
	"h200": {ID: "h200"}, "b200": {ID: "b200"}, "gb200": {ID: "gb200"}, "gh200": {ID: "gh200"},
	"a6000": {ID: "rtx-a6000"}, "rtxa6000": {ID: "rtx-a6000"}, "a40": {ID: "a40"},
	"rtx4090": {ID: "rtx-4090"}, "rtx6000-ada": {ID: "rtx-6000-ada"},
	"mi300x": {ID: "mi300x"}, "mi325x": {ID: "mi325x"},
	"trainium": {ID: "trainium1"}, "trainium2": {ID: "trainium2"}, "inferentia2": {ID: "inferentia2"},
	"inferentia": {ID: "inferentia1"}, "gaudi hl-205": {ID: "gaudi1"}, "t4g": {ID: "t4"},
	"h100-nvlink": {ID: "h100-sxm"}, "a100-80g-pcie": {ID: "a100-80gb-pcie"},
	"rtxpro6000": {ID: "rtx-pro-6000"}, "rtxpro6000ws": {ID: "rtx-pro-6000"},
	"rtx pro 6000 96gb": {ID: "rtx-pro-6000"},
	// Lambda's RTX6000 is the Turing Quadro RTX 6000 (24 GB), not the Ada card.
	"rtx6000": {ID: "quadro-rtx-6000"},
}

// nonGPU names accelerators that are not GPUs or AI accelerators: rows
// with them are refused with this reason, not counted as unmapped.
func nonGPU(name string) (string, bool) {
	n := strings.ToLower(name)
	if strings.Contains(n, "virtex") || strings.Contains(n, "fpga") {
		return fmt.Sprintf("%q is an FPGA, not a GPU or AI accelerator: out of scope", name), true
	}
	return "", false
}

// tpuSlice reads a Cloud TPU slice name such as "tpu-v5p-8" or
// "tpu-v5litepod-16": our accelerator id and its chips. The number after a
// v2, v3, v4 or v5p name counts TensorCores (two per chip); after v5e
// (v5litepod) and v6e it counts chips.
func tpuSlice(name string) (id string, chips int, ok bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	rest, found := strings.CutPrefix(n, "tpu-")
	if !found {
		return "", 0, false
	}
	gen, size, found := strings.Cut(rest, "-")
	if !found {
		return "", 0, false
	}
	k, err := strconv.Atoi(size)
	if err != nil || k < 1 {
		return "", 0, false
	}
	switch gen {
	case "v2", "v3", "v4", "v5p":
		if k%2 != 0 {
			return "", 0, false
		}
		return "tpu-" + gen, k / 2, true
	case "v5litepod", "v5e":
		return "tpu-v5e", k, true
	case "v6e":
		return "tpu-v6e", k, true
	}
	return "", 0, false
}

// fraction reads an accelerator count: a whole number ("8", "8.0"), or the
// share of one GPU (0.125, 0.167 for 1/6, 0.333 for 1/3), which is snapped
// to 1/n when it is within rounding of one.
func fraction(s string) (count int, frac float64, ok bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || v <= 0 || v > catalog.MaxOfferGPUs {
		return 0, 0, false
	}
	if v >= 1 {
		if v != math.Trunc(v) {
			return 0, 0, false
		}
		return int(v), 0, true
	}
	if n := math.Round(1 / v); math.Abs(1/n-v) < 0.01*v {
		if n == 1 {
			return 1, 0, true // 0.995 is one whole GPU written short
		}
		return 1, 1 / n, true
	}
	return 1, v, true
}

// gpuhuntNames maps gpuhunt's normalised gpu_name (with gpu_memory in GB
// per GPU where the name is ambiguous) to our ids.
var gpuhuntNames = map[string]nameRule{
	"a100":    {ID: "a100-80gb", ByMem: map[int]string{40: "a100-40gb", 80: "a100-80gb"}},
	"v100":    {ID: "v100", ByMem: map[int]string{16: "v100-16gb", 32: "v100"}},
	"h100":    {ID: "h100-sxm", ByMem: map[int]string{80: "h100-sxm", 94: "h100-nvl", 96: "h100-nvl"}},
	"h100nvl": {ID: "h100-nvl"},
	"h200":    {ID: "h200"}, "b200": {ID: "b200"}, "gb200": {ID: "gb200"}, "gh200": {ID: "gh200"},
	"a10": {ID: "a10"}, "a10g": {ID: "a10g"}, "a40": {ID: "a40"}, "a6000": {ID: "rtx-a6000"}, "rtxa6000": {ID: "rtx-a6000"},
	"l4": {ID: "l4"}, "l40": {ID: "l40"}, "l40s": {ID: "l40s"}, "t4": {ID: "t4"},
	"rtx4090": {ID: "rtx-4090"}, "rtx6000ada": {ID: "rtx-6000-ada"},
	"rtx6000": {ByMem: map[int]string{24: "quadro-rtx-6000", 48: "rtx-6000-ada"}},
	"mi300x":  {ID: "mi300x"}, "mi325x": {ID: "mi325x"}, "mi250x": {ID: "mi250x"},
	"gaudi2": {ID: "gaudi2"}, "gaudi3": {ID: "gaudi3"},
	"v5litepod": {ID: "tpu-v5e"}, "v5e": {ID: "tpu-v5e"}, "v5p": {ID: "tpu-v5p"}, "v6e": {ID: "tpu-v6e"},
}

// pcieVariant gives the PCIe part of an SXM id, for instance names that say
// "pcie" (Lambda's gpu_1x_h100_pcie) while the GPU name does not.
var pcieVariant = map[string]string{
	"h100-sxm": "h100-pcie", "a100-80gb": "a100-80gb-pcie", "a100-40gb": "a100-40gb-pcie", "v100": "v100-pcie",
}

// resolveName maps a provider GPU name to our id: the table first (by
// memory when given), then the catalog's ids and aliases; an instance name
// that says PCIe or NVL selects that variant. ok is false when the name is
// unmapped.
func resolveName(cat *catalog.Catalog, table map[string]nameRule, name string, memGB float64, instance string) (string, bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	if key == "" {
		return "", false
	}
	id := ""
	if r, ok := table[key]; ok {
		id = r.ID
		if v, ok := r.ByMem[int(memGB+0.5)]; ok && memGB > 0 {
			id = v
		}
	}
	if id == "" {
		if a, ok := cat.Accelerator(name); ok {
			id = a.ID
		} else if a, ok := cat.Accelerator(strings.ReplaceAll(key, "-", " ")); ok {
			id = a.ID
		}
	}
	if id == "" {
		return "", false
	}
	in := strings.ToLower(instance)
	switch {
	case id == "h100-sxm" && strings.Contains(in, "nvl") && !strings.Contains(in, "nvlink"):
		id = "h100-nvl" // a PCIe card too, but its own part (94 GB)
	case strings.Contains(in, "pci"):
		if v, ok := pcieVariant[id]; ok {
			id = v
		}
	}
	a, ok := cat.Accelerator(id)
	if !ok {
		return "", false
	}
	return a.ID, true
}

// skyProviders maps SkyPilot catalog directory names and gpuhunt file names
// to our provider ids.
var providerNames = map[string]string{
	"aws": "aws", "gcp": "gcp", "azure": "azure", "oci": "oci", "lambda": "lambda", "lambdalabs": "lambda",
	"runpod": "runpod", "vast": "vastai", "vastai": "vastai", "fluidstack": "fluidstack", "nebius": "nebius",
	"do": "digitalocean", "digitalocean": "digitalocean", "crusoe": "crusoe", "coreweave": "coreweave",
	"vultr": "vultr", "jarvislabs": "jarvislabs", "tensordock": "tensordock", "hyperstack": "hyperstack",
	"together": "together", "cudo": "cudo", "paperspace": "paperspace", "datacrunch": "verda", "verda": "verda",
	"cloudrift": "cloudrift", "hotaisle": "hotaisle", "seeweb": "seeweb",
}
