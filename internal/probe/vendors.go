package probe

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ParseRocmSMI reads the JSON of
//
//	rocm-smi --showproductname --showmeminfo vram --showdriverversion --json
//
// an object with one "cardN" member per GPU (keys such as "Card Series",
// "GFX Version", "VRAM Total Memory (B)", whose case varies between ROCm
// releases) and a "system" member with the driver version.
func ParseRocmSMI(out []byte) ([]GPU, error) {
	var doc map[string]map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, fmt.Errorf("rocm-smi JSON: %w", err)
	}
	driver := field(doc["system"], "Driver version")
	var gpus []GPU
	for k, card := range doc {
		if !strings.HasPrefix(k, "card") {
			continue
		}
		idx, err := strconv.Atoi(strings.TrimPrefix(k, "card"))
		if err != nil {
			continue
		}
		name := field(card, "Card Series")
		for _, alt := range []string{"Market Name", "Card Model", "Card SKU"} {
			if name != "" && !strings.HasPrefix(name, "0x") {
				break
			}
			name = field(card, alt)
		}
		g := GPU{Index: idx, Name: name, Vendor: "amd", Driver: driver, GFXTarget: field(card, "GFX Version")}
		if b, err := strconv.ParseFloat(field(card, "VRAM Total Memory (B)"), 64); err == nil {
			g.MemoryMiB = int(b / (1 << 20))
		}
		gpus = append(gpus, g)
	}
	if len(gpus) == 0 {
		return nil, ErrNoDevices
	}
	sort.Slice(gpus, func(i, j int) bool { return gpus[i].Index < gpus[j].Index })
	return gpus, nil
}

// field looks a key up case-insensitively and returns its value as text;
// unknown markers read as empty.
func field(m map[string]any, key string) string {
	for k, v := range m {
		if strings.EqualFold(k, key) {
			switch v := v.(type) {
			case string:
				return known(v)
			case float64:
				return strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
	}
	return ""
}

// ParseAMDSMI reads the JSON of `amd-smi static --json`: a list of GPUs
// (or {"gpu_data": [...]} in later releases), each with asic.market_name,
// asic.target_graphics_version, vram.size ({"value": 196592, "unit": "MB"}
// or "196592 MB") and driver.version.
func ParseAMDSMI(out []byte) ([]GPU, error) {
	var list []map[string]any
	if err := json.Unmarshal(out, &list); err != nil {
		var wrapped struct {
			GPUData []map[string]any `json:"gpu_data"`
		}
		if err2 := json.Unmarshal(out, &wrapped); err2 != nil {
			return nil, fmt.Errorf("amd-smi JSON: %w", err)
		}
		list = wrapped.GPUData
	}
	var gpus []GPU
	for i, d := range list {
		asic, _ := d["asic"].(map[string]any)
		vram, _ := d["vram"].(map[string]any)
		drv, _ := d["driver"].(map[string]any)
		g := GPU{Index: i, Vendor: "amd", Name: field(asic, "market_name"), GFXTarget: field(asic, "target_graphics_version"), Driver: field(drv, "version")}
		if n, ok := d["gpu"].(float64); ok {
			g.Index = int(n)
		}
		g.MemoryMiB = amdSize(vram["size"])
		gpus = append(gpus, g)
	}
	if len(gpus) == 0 {
		return nil, ErrNoDevices
	}
	return gpus, nil
}

// amdSize reads amd-smi's vram.size in MiB (amd-smi's "MB" are MiB).
func amdSize(v any) int {
	var value float64
	unit := "MB"
	switch v := v.(type) {
	case map[string]any:
		value, _ = v["value"].(float64)
		if u, ok := v["unit"].(string); ok {
			unit = u
		}
	case string:
		f := strings.Fields(v)
		if len(f) == 0 {
			return 0
		}
		value, _ = strconv.ParseFloat(f[0], 64)
		if len(f) > 1 {
			unit = f[1]
		}
	}
	if strings.EqualFold(unit, "GB") {
		value *= 1024
	}
	return int(value)
}

// HLQuery is the --query-aip field list ParseHLSMI reads, in order.
const HLQuery = "index,name,memory.total,driver_version"

// ParseHLSMI reads the output of Intel Gaudi's
//
//	hl-smi --query-aip=<HLQuery> --format=csv,noheader,nounits
func ParseHLSMI(out []byte) ([]GPU, error) {
	var gpus []GPU
	for i, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := splitCSV(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("hl-smi line %d: want 4 fields (%s), got %d: %q", i+1, HLQuery, len(f), firstLine(line))
		}
		idx, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("hl-smi line %d: index %q is not a number", i+1, f[0])
		}
		gpus = append(gpus, GPU{Index: idx, Name: known(f[1]), Vendor: "intel", MemoryMiB: atoi(f[2]), Driver: known(f[3])})
	}
	if len(gpus) == 0 {
		return nil, ErrNoDevices
	}
	return gpus, nil
}

// ParseNeuronLS reads `neuron-ls --json-output`: a list of Neuron devices
// with neuron_device (index) and memory_size (bytes). The devices do not
// name their generation; Run takes it from the instance type.
func ParseNeuronLS(out []byte) ([]GPU, error) {
	var list []struct {
		Device     *int    `json:"neuron_device"`
		MemorySize float64 `json:"memory_size"`
		NCCount    int     `json:"nc_count"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, fmt.Errorf("neuron-ls JSON: %w", err)
	}
	var gpus []GPU
	for i, d := range list {
		g := GPU{Index: i, Name: "AWS Neuron device", Vendor: "aws", MemoryMiB: int(d.MemorySize / (1 << 20))}
		if d.Device != nil {
			g.Index = *d.Device
		}
		if d.NCCount > 0 {
			g.Name = fmt.Sprintf("AWS Neuron device (%d NeuronCores)", d.NCCount)
		}
		gpus = append(gpus, g)
	}
	if len(gpus) == 0 {
		return nil, ErrNoDevices
	}
	return gpus, nil
}

// neuronByInstance maps EC2 instance families to catalog accelerators.
var neuronByInstance = map[string]string{"trn1": "trainium1", "trn1n": "trainium1", "trn2": "trainium2", "inf2": "inferentia2"}

// Resolver returns a function that maps a tool's device name to a catalog
// accelerator id, trying the name as given and then without vendor
// prefixes and form-factor suffixes ("NVIDIA ", "AMD ", " OAM"). lookup is
// the catalog's case-insensitive lookup of ids and aliases.
func Resolver(lookup func(name string) (id string, ok bool)) func(name string) string {
	return func(name string) string {
		for _, n := range nameVariants(name) {
			if id, ok := lookup(n); ok {
				return id
			}
		}
		return ""
	}
}

func nameVariants(name string) []string {
	name = strings.TrimSpace(name)
	out := []string{name}
	bare := name
	for _, p := range []string{"NVIDIA ", "AMD ", "Intel ", "Tesla ", "Instinct ", "Habana "} {
		if len(bare) > len(p) && strings.EqualFold(bare[:len(p)], p) {
			bare = bare[len(p):]
			out = append(out, bare)
		}
	}
	for _, s := range []string{" OAM", " HBM3"} {
		if strings.HasSuffix(strings.ToLower(bare), strings.ToLower(s)) {
			out = append(out, bare[:len(bare)-len(s)])
		}
	}
	// Gaudi cards report their board names.
	switch u := strings.ToUpper(bare); {
	case strings.HasPrefix(u, "HL-225") || strings.HasPrefix(u, "HL-205"):
		out = append(out, "gaudi2")
	case strings.HasPrefix(u, "HL-325") || strings.HasPrefix(u, "HL-328") || strings.HasPrefix(u, "HL-338"):
		out = append(out, "gaudi3")
	}
	return out
}
