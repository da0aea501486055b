package probe

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Timeouts of the programs Run starts.
const (
	ToolTimeout   = 20 * time.Second // nvidia-smi and the other vendor tools
	PythonTimeout = 60 * time.Second // python3 importing torch on a cold disk
	BenchTimeout  = 5 * time.Minute  // the PyTorch benchmark
)

// Options say what Run measures. The zero value finds the hardware and the
// Python stack only.
type Options struct {
	// Runner runs the vendor tools and python3; nil = Exec.
	Runner Runner
	// Resolve maps a device name to a catalog accelerator id ("" = none);
	// nil leaves CatalogID empty. See Resolver.
	Resolve func(name string) string
	// Now stamps the report; nil = time.Now.
	Now func() time.Time
	// GPUBench runs the PyTorch matrix-multiply and copy benchmark.
	GPUBench bool
	// Storage, when not nil, measures the file system it names.
	Storage *StorageOptions
	// Connect, when not empty, measures the network to a `probe net
	// --listen` peer at this host:port for NetDuration over NetStreams.
	Connect     string
	NetDuration time.Duration
	NetStreams  int
}

// Run measures this server. It does not fail: every part that cannot be
// measured is left out with its reason in Report.Skipped. ctx bounds the
// whole run; cancelling it stops storage and network measurements early
// (and removes the storage test file).
func Run(ctx context.Context, o Options) *Report {
	if o.Runner == nil {
		o.Runner = Exec
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &Report{Version: Version, Time: o.Now().UTC(), GPUs: []GPU{}, Skipped: []Skip{}}
	r.Host = host()
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		r.CPU = ParseCPUInfo(b)
	}
	if r.CPU.Threads == 0 {
		r.CPU.Threads, r.CPU.Cores = runtime.NumCPU(), runtime.NumCPU()
	}
	nodes, _ := filepath.Glob("/sys/devices/system/node/node[0-9]*")
	r.CPU.NUMANodes = max(1, len(nodes))
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		r.MemoryGiB = ParseMemInfo(b)
	}

	r.accelerators(ctx, o)
	if o.Resolve != nil {
		for i := range r.GPUs {
			if r.GPUs[i].CatalogID == "" {
				r.GPUs[i].CatalogID = o.Resolve(r.GPUs[i].Name)
			}
		}
	}
	r.stack(ctx, o)
	if o.GPUBench {
		r.bench(ctx, o)
	}
	if o.Storage != nil {
		so := *o.Storage
		so.MemoryGiB = r.MemoryGiB
		s, err := MeasureStorage(ctx, so)
		if err != nil {
			r.skip("storage", "%v", err)
		} else {
			r.Storage = s
		}
	}
	if o.Connect != "" {
		n, err := MeasureNetwork(ctx, o.Connect, o.NetDuration, o.NetStreams)
		if err != nil {
			r.skip("network", "%v", err)
		} else {
			r.Network = n
		}
	} else {
		r.skip("network", "not measured: run `gpupick probe net --listen :PORT` on a second server and give --connect HOST:PORT")
	}
	return r
}

func host() Host {
	h := Host{OS: runtime.GOOS}
	h.Hostname, _ = os.Hostname()
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		if n := ParseOSRelease(b); n != "" {
			h.OS = n
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		h.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/sys/class/dmi/id/product_name"); err == nil {
		h.Product = strings.TrimSpace(string(b))
	}
	return h
}

// call runs a program with a deadline.
func call(ctx context.Context, o Options, d time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return o.Runner(ctx, name, args...)
}

// accelerators tries each vendor's tool in turn and keeps the first that
// reports devices; when none does, the reasons of all go into one skip.
func (r *Report) accelerators(ctx context.Context, o Options) {
	type tool struct {
		name  string
		args  []string
		parse func([]byte) ([]GPU, error)
	}
	tools := []tool{
		{"nvidia-smi", []string{"--query-gpu=" + NvidiaQuery, "--format=csv,noheader,nounits"}, ParseNvidiaSMI},
		{"rocm-smi", []string{"--showproductname", "--showmeminfo", "vram", "--showdriverversion", "--json"}, ParseRocmSMI},
		{"amd-smi", []string{"static", "--json"}, ParseAMDSMI},
		{"hl-smi", []string{"--query-aip=" + HLQuery, "--format=csv,noheader,nounits"}, ParseHLSMI},
		{"neuron-ls", []string{"--json-output"}, ParseNeuronLS},
	}
	var reasons []string
	for _, t := range tools {
		out, err := call(ctx, o, ToolTimeout, t.name, t.args...)
		if errors.Is(err, ErrMissing) {
			reasons = append(reasons, t.name+" not found")
			continue
		}
		if err != nil && len(bytes.TrimSpace(out)) == 0 {
			reasons = append(reasons, err.Error())
			continue
		}
		// A failing tool often explains itself on stdout ("No devices were
		// found"), so the output is parsed even after an error.
		gpus, perr := t.parse(out)
		switch {
		case errors.Is(perr, ErrNoDevices):
			reasons = append(reasons, t.name+": no devices were found")
			continue
		case err != nil:
			reasons = append(reasons, err.Error())
			continue
		case perr != nil:
			reasons = append(reasons, t.name+": "+perr.Error())
			continue
		}
		r.GPUs = gpus
		switch t.name {
		case "nvidia-smi":
			r.nvidiaExtras(ctx, o)
		case "neuron-ls":
			family, _, _ := strings.Cut(r.Host.Product, ".")
			for i := range r.GPUs {
				r.GPUs[i].CatalogID = neuronByInstance[family]
			}
		}
		return
	}
	r.skip("gpu", "%s", strings.Join(reasons, "; "))
	r.skip("topology", "no accelerator found")
}

// nvidiaExtras adds the CUDA version the driver supports and the topology.
func (r *Report) nvidiaExtras(ctx context.Context, o Options) {
	if out, err := call(ctx, o, ToolTimeout, "nvidia-smi"); err == nil {
		if v := ParseCUDAVersion(out); v != "" {
			for i := range r.GPUs {
				r.GPUs[i].CUDADriver = v
			}
		}
	}
	if len(r.GPUs) < 2 {
		r.skip("topology", "one GPU: no GPU-to-GPU links to measure")
		return
	}
	out, err := call(ctx, o, ToolTimeout, "nvidia-smi", "topo", "-m")
	if err != nil {
		r.skip("topology", "%v", err)
		return
	}
	t, err := ParseTopo(out)
	if err != nil {
		r.skip("topology", "%v", err)
		return
	}
	r.Topology = t
}

func (r *Report) stack(ctx context.Context, o Options) {
	out, err := call(ctx, o, PythonTimeout, "python3", "-c", stackScript)
	if err != nil {
		if errors.Is(err, ErrMissing) {
			r.skip("stack", "python3 not found: no Python frameworks to check")
		} else {
			r.skip("stack", "%v", err)
		}
		return
	}
	s, err := ParsePython(out)
	if err != nil {
		r.skip("stack", "%v", err)
		return
	}
	r.Stack = s
}

func (r *Report) bench(ctx context.Context, o Options) {
	if len(r.GPUs) == 0 {
		r.skip("bench", "no accelerator found")
		return
	}
	out, err := call(ctx, o, BenchTimeout, "python3", "-c", benchScript)
	if err != nil {
		if errors.Is(err, ErrMissing) {
			r.skip("bench", "python3 not found: the benchmark needs PyTorch")
		} else {
			r.skip("bench", "%v", err)
		}
		return
	}
	b, err := ParseBench(out)
	if err != nil {
		r.skip("bench", "%v", err)
		return
	}
	r.Bench = b
}
