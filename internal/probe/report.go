// Package probe measures the server it runs on, so that a candidate GPU
// cloud offer can be judged by what it does rather than what the catalog
// claims. It finds the accelerators (nvidia-smi, rocm-smi or amd-smi,
// hl-smi, neuron-ls), their topology and drivers, the Python frameworks
// installed, the CPU and memory, and optionally measures matrix-multiply
// and copy speed (through PyTorch), storage read throughput and IOPS, and
// TCP throughput and latency to a peer running `gpupick probe net --listen`.
//
// Every part skips cleanly, with a reason in Report.Skipped, when its tool
// is absent or fails; the probe needs nothing but its own binary. The
// parsers of tool outputs are pure functions on bytes. Compare judges a
// Report against a catalog offer and a workload, and Report.Calibration
// turns it into the figures the performance model can use instead of the
// catalog's.
//
// This is an edge package: it runs processes, reads /proc and /sys, writes
// files and opens sockets. The domain packages never import it.
package probe

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Version is the schema version of Report's JSON. It grows when a field
// changes meaning or goes away; new fields do not change it.
const Version = 1

// Report is everything one run of the probe found on one server. Absent
// parts are nil or empty, with the reason in Skipped.
type Report struct {
	Version int       `json:"version"`
	Host    Host      `json:"host"`
	Time    time.Time `json:"time"`
	CPU     CPU       `json:"cpu"`
	// MemoryGiB is the RAM the kernel reports (MemTotal), GiB.
	MemoryGiB float64   `json:"memory_gib"`
	GPUs      []GPU     `json:"gpus"`
	Topology  *Topology `json:"topology,omitempty"`
	Stack     *Stack    `json:"stack,omitempty"`
	Bench     *Bench    `json:"bench,omitempty"`
	Storage   *Storage  `json:"storage,omitempty"`
	Network   *Network  `json:"network,omitempty"`
	Skipped   []Skip    `json:"skipped"`
}

// Host names the machine.
type Host struct {
	Hostname string `json:"hostname"`
	OS       string `json:"os"`     // PRETTY_NAME of /etc/os-release, else GOOS
	Kernel   string `json:"kernel"` // kernel release
	// Product is the DMI product name; on clouds it is often the instance
	// type (e.g. "p5.48xlarge", "trn1.32xlarge"). Empty when unreadable.
	Product string `json:"product,omitempty"`
}

// CPU is the host processor. Cores counts physical cores, Threads logical
// CPUs (what clouds sell as vCPUs).
type CPU struct {
	Model     string `json:"model"`
	Cores     int    `json:"cores"`
	Threads   int    `json:"threads"`
	NUMANodes int    `json:"numa_nodes"`
}

// GPU is one accelerator as its vendor tool reports it. Zero numbers and
// empty strings are unknown ("[N/A]", "[Not Supported]").
type GPU struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	// CatalogID is the catalog accelerator the name resolves to; empty when
	// it resolves to none.
	CatalogID string `json:"catalog_id,omitempty"`
	Vendor    string `json:"vendor"` // nvidia, amd, intel, aws
	MemoryMiB int    `json:"memory_mib"`
	Driver    string `json:"driver,omitempty"`
	// CUDADriver is the highest CUDA version the driver supports (NVIDIA).
	CUDADriver  string  `json:"cuda_driver,omitempty"`
	ClockSMMHz  int     `json:"clock_sm_max_mhz,omitempty"`
	ClockMemMHz int     `json:"clock_mem_max_mhz,omitempty"`
	PowerLimitW float64 `json:"power_limit_w,omitempty"`
	ECC         string  `json:"ecc,omitempty"` // enabled, disabled or empty
	MIG         string  `json:"mig,omitempty"` // enabled, disabled or empty
	GFXTarget   string  `json:"gfx_target,omitempty"`
}

// Topology is how the GPUs of one server are linked, from nvidia-smi topo -m.
type Topology struct {
	// Matrix[i][j] is the link between GPU i and j as nvidia-smi names it:
	// X (self), NV# (NVLink with # links), PIX, PXB, PHB, NODE, SYS (PCIe
	// paths of growing length).
	Matrix [][]string `json:"matrix"`
	// NVLink is true when every pair of GPUs is linked by NVLink.
	NVLink bool `json:"nvlink"`
	// Summary is one line for people, e.g. "all 8 GPUs linked by NV18".
	Summary string `json:"summary"`
}

// Stack is the software found by python3.
type Stack struct {
	Python    string `json:"python,omitempty"`
	Torch     string `json:"torch,omitempty"`
	TorchCUDA string `json:"torch_cuda,omitempty"` // CUDA toolkit the wheel was built with
	TorchHIP  string `json:"torch_hip,omitempty"`  // ROCm HIP version of a ROCm wheel
	// ArchList is the compiled GPU architectures of the wheel (sm_90, gfx942).
	ArchList      []string `json:"arch_list,omitempty"`
	CUDAAvailable bool     `json:"cuda_available"`
	DeviceCount   int      `json:"device_count,omitempty"`
	TorchError    string   `json:"torch_error,omitempty"`
	JAX           string   `json:"jax,omitempty"`
	VLLM          string   `json:"vllm,omitempty"`
	// Packages are other installed distributions of interest, name -> version.
	Packages map[string]string `json:"packages,omitempty"`
}

// Bench is the result of the short PyTorch benchmark on GPU 0.
type Bench struct {
	Device string `json:"device,omitempty"`
	// TFLOPS is the achieved dense matrix-multiply rate per data type
	// (bf16, fp16, tf32, fp8), TFLOPS.
	TFLOPS map[string]float64 `json:"tflops"`
	// CopyGBps is device-to-device copy bandwidth, bytes read plus bytes
	// written per second, 10^9 bytes/s (comparable to datasheet bandwidth).
	CopyGBps float64 `json:"copy_gb_s,omitempty"`
	// Errors are the data types that failed, with the reason.
	Errors map[string]string `json:"errors,omitempty"`
}

// Storage is what the probe measured on one file system path. Throughputs
// are 10^9 bytes per second.
type Storage struct {
	Path         string  `json:"path"`
	FileBytes    int64   `json:"file_bytes"`
	SeqWriteGBps float64 `json:"seq_write_gb_s"`
	SeqReadGBps  float64 `json:"seq_read_gb_s"`
	// RandReadIOPS is 4 KiB random reads per second over Threads parallel
	// readers; RandReadGBps is the same as bytes.
	RandReadIOPS float64 `json:"rand_read_iops"`
	RandReadGBps float64 `json:"rand_read_gb_s"`
	Threads      int     `json:"threads"`
	FreeGB       float64 `json:"free_gb"`
	// Direct is true when reads bypassed the page cache (O_DIRECT); when
	// false, Note says why the figures may be inflated.
	Direct bool   `json:"direct_io"`
	Note   string `json:"note,omitempty"`
}

// Network is a TCP measurement between this server and a peer.
type Network struct {
	Peer    string  `json:"peer"`
	Streams int     `json:"streams"`
	Seconds float64 `json:"seconds"`
	// ThroughputGbps is payload bits per second over all streams, 10^9 bit/s.
	ThroughputGbps float64 `json:"throughput_gbps"`
	// RTT percentiles of small ping-pong messages, milliseconds.
	RTTP50Ms float64 `json:"rtt_p50_ms"`
	RTTP99Ms float64 `json:"rtt_p99_ms"`
	Pings    int     `json:"pings"`
}

// Skip is a part that was not measured, and why.
type Skip struct {
	Part   string `json:"part"`
	Reason string `json:"reason"`
}

func (r *Report) skip(part, format string, args ...any) {
	r.Skipped = append(r.Skipped, Skip{Part: part, Reason: fmt.Sprintf(format, args...)})
}

// ReadReport decodes a report written by `gpupick probe -o json`. It
// refuses documents without a version (not a probe report) and versions
// newer than this build understands; unknown fields are ignored, so older
// builds read newer reports of the same version.
func ReadReport(b []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("not a probe report: %w", err)
	}
	switch {
	case r.Version == 0:
		return nil, fmt.Errorf("not a probe report: no \"version\" field (write one with gpupick probe -o json)")
	case r.Version > Version:
		return nil, fmt.Errorf("report version %d is newer than this gpupick reads (%d): upgrade gpupick", r.Version, Version)
	}
	return &r, nil
}

// ParseSize reads a byte count: a plain number, or one with a binary
// suffix K, M, G, T (optionally KiB, MiB, GiB, TiB; case-insensitive).
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			mult = int64(1) << (10 * (i + 1))
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v <= 0 || v*float64(mult) > 1<<50 {
		return 0, fmt.Errorf("%q is not a size (e.g. 2GiB, 512M, 1073741824)", s)
	}
	return int64(v * float64(mult)), nil
}
