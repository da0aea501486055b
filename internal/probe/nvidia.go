package probe

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// NvidiaQuery is the --query-gpu field list ParseNvidiaSMI reads, in order.
const NvidiaQuery = "index,name,memory.total,driver_version,clocks.max.sm,clocks.max.mem,power.limit,ecc.mode.current,mig.mode.current"

// ErrNoDevices means the vendor tool runs but sees no accelerator.
var ErrNoDevices = errors.New("no devices were found")

// ParseNvidiaSMI reads the output of
//
//	nvidia-smi --query-gpu=<NvidiaQuery> --format=csv,noheader,nounits
//
// one GPU per line. "[N/A]" and "[Not Supported]" read as unknown. The
// tool's own failure messages ("No devices were found", "NVIDIA-SMI has
// failed because it couldn't communicate with the NVIDIA driver") are
// returned as errors: ErrNoDevices for the first.
func ParseNvidiaSMI(out []byte) ([]GPU, error) {
	var gpus []GPU
	for i, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.Contains(line, "No devices were found") {
			return nil, ErrNoDevices
		}
		f := splitCSV(line)
		if len(f) != 9 {
			if strings.Contains(line, "NVIDIA-SMI") || strings.Contains(strings.ToLower(line), "failed") {
				return nil, errors.New(firstLine(line))
			}
			return nil, fmt.Errorf("nvidia-smi line %d: want 9 fields (%s), got %d: %q", i+1, NvidiaQuery, len(f), firstLine(line))
		}
		idx, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("nvidia-smi line %d: index %q is not a number", i+1, f[0])
		}
		gpus = append(gpus, GPU{
			Index: idx, Name: known(f[1]), Vendor: "nvidia",
			MemoryMiB: atoi(f[2]), Driver: known(f[3]),
			ClockSMMHz: atoi(f[4]), ClockMemMHz: atoi(f[5]), PowerLimitW: atof(f[6]),
			ECC: mode(f[7]), MIG: mode(f[8]),
		})
	}
	if len(gpus) == 0 {
		return nil, ErrNoDevices
	}
	return gpus, nil
}

// ansiRE matches the terminal escapes nvidia-smi puts around the topo header.
var ansiRE = regexp.MustCompile(`\x1b\[[0-9;]*m`)

var cudaVersionRE = regexp.MustCompile(`CUDA Version\s*:\s*([0-9]+\.[0-9]+)`)

// ParseCUDAVersion finds the CUDA version the driver supports in the
// output of plain nvidia-smi ("CUDA Version: 12.4" in its banner) or of
// nvidia-smi --version ("CUDA Version : 12.4"); empty when absent.
func ParseCUDAVersion(out []byte) string {
	if m := cudaVersionRE.FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return ""
}

// ParseTopo reads the GPU-to-GPU part of `nvidia-smi topo -m`: a header
// of column names (GPU0 GPU1 ... NIC0 CPU Affinity ...) and one row per
// device. Rows and columns other than GPUs are ignored; the legend is too.
func ParseTopo(out []byte) (*Topology, error) {
	lines := strings.Split(ansiRE.ReplaceAllString(string(out), ""), "\n")
	var cols int
	start := -1
	for i, l := range lines {
		f := strings.Fields(l)
		// The header names GPUs; device rows hold an X on their diagonal.
		if len(f) > 0 && isGPUName(f[0]) && !slices.Contains(f, "X") {
			for _, x := range f {
				if !isGPUName(x) {
					break
				}
				cols++
			}
			start = i + 1
			break
		}
	}
	if start < 0 || cols == 0 {
		return nil, errors.New("nvidia-smi topo -m: no GPU header line")
	}
	t := &Topology{}
	for _, l := range lines[start:] {
		f := strings.Fields(l)
		if len(f) == 0 || !isGPUName(f[0]) {
			if len(t.Matrix) > 0 && (len(f) == 0 || strings.HasPrefix(f[0], "Legend")) {
				break
			}
			continue
		}
		if len(f) < cols+1 {
			return nil, fmt.Errorf("nvidia-smi topo -m: row %s has %d links, want %d", f[0], len(f)-1, cols)
		}
		t.Matrix = append(t.Matrix, f[1:cols+1])
	}
	if len(t.Matrix) != cols {
		return nil, fmt.Errorf("nvidia-smi topo -m: %d GPU rows for %d GPU columns", len(t.Matrix), cols)
	}
	t.NVLink, t.Summary = summarizeTopo(t.Matrix)
	return t, nil
}

func isGPUName(s string) bool {
	if !strings.HasPrefix(s, "GPU") || len(s) == 3 {
		return false
	}
	_, err := strconv.Atoi(s[3:])
	return err == nil
}

// summarizeTopo counts the link kinds between distinct GPU pairs.
func summarizeTopo(m [][]string) (nvlink bool, summary string) {
	n := len(m)
	if n < 2 {
		return false, fmt.Sprintf("%d GPU, no GPU-to-GPU links", n)
	}
	count := map[string]int{}
	var kinds []string
	nvlink = true
	for i := range n {
		for j := i + 1; j < n; j++ {
			k := m[i][j]
			if count[k] == 0 {
				kinds = append(kinds, k)
			}
			count[k]++
			if !strings.HasPrefix(k, "NV") {
				nvlink = false
			}
		}
	}
	if len(kinds) == 1 {
		what := kinds[0]
		if !strings.HasPrefix(what, "NV") {
			what = "PCIe (" + what + ")"
		}
		return nvlink, fmt.Sprintf("all %d GPUs linked by %s", n, what)
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s: %d pairs", k, count[k])
	}
	return nvlink, fmt.Sprintf("%d GPUs, mixed links (%s)", n, strings.Join(parts, ", "))
}

// splitCSV splits a nvidia-smi/hl-smi CSV line; their fields never quote.
func splitCSV(line string) []string {
	f := strings.Split(line, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// known returns s, or "" for the tools' unknown markers.
func known(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "[") || strings.EqualFold(s, "N/A") {
		return ""
	}
	return s
}

func atoi(s string) int {
	v, _ := strconv.Atoi(strings.Fields(known(s) + " 0")[0])
	return v
}

func atof(s string) float64 {
	v, _ := strconv.ParseFloat(strings.Fields(known(s) + " 0")[0], 64)
	return v
}

// mode normalises Enabled/Disabled to lowercase; unknown is empty.
func mode(s string) string {
	return strings.ToLower(known(s))
}
