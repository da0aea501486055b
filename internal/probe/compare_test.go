package probe

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/probe -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update if intended)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// h100Report is a probe of an 8 x H100 server with slow disks and a
// throttled, partly MIG-enabled GPU.
func h100Report() *Report {
	g := GPU{Name: "NVIDIA H100 80GB HBM3", CatalogID: "h100-sxm", Vendor: "nvidia", MemoryMiB: 81559, Driver: "535.104.05", CUDADriver: "12.2",
		ClockSMMHz: 1980, ClockMemMHz: 2619, PowerLimitW: 700, ECC: "enabled", MIG: "disabled"}
	r := &Report{Version: Version, Time: fixedTime, Host: Host{Hostname: "node-1", OS: "Ubuntu 22.04.4 LTS", Kernel: "5.15.0-105-generic", Product: "p5.48xlarge"},
		CPU: CPU{Model: "AMD EPYC 7R13 Processor", Cores: 96, Threads: 192, NUMANodes: 2}, MemoryGiB: 1999.6,
		Topology: &Topology{NVLink: true, Summary: "all 8 GPUs linked by NV18"},
		Stack:    &Stack{Python: "3.10.12", Torch: "2.3.1+cu121", TorchCUDA: "12.1", ArchList: []string{"sm_80", "sm_86", "sm_90"}, CUDAAvailable: true, DeviceCount: 8},
		Bench:    &Bench{Device: "NVIDIA H100 80GB HBM3", TFLOPS: map[string]float64{"bf16": 610, "fp8": 1200}, CopyGBps: 2800},
		Storage:  &Storage{Path: "/data", FileBytes: 2 << 30, SeqReadGBps: 0.4, SeqWriteGBps: 0.3, RandReadIOPS: 12000, RandReadGBps: 0.049, Threads: 16, FreeGB: 3500, Direct: true},
		Network:  &Network{Peer: "10.0.0.2:7070", Streams: 4, Seconds: 10, ThroughputGbps: 40, RTTP50Ms: 0.05, RTTP99Ms: 0.2, Pings: 1000},
		Skipped:  []Skip{}}
	for i := range 8 {
		g.Index = i
		if i == 7 {
			g.MIG, g.PowerLimitW = "enabled", 500
		}
		r.GPUs = append(r.GPUs, g)
	}
	return r
}

func h100Offer(t *testing.T) (*catalog.Offer, *catalog.Accelerator) {
	t.Helper()
	a, ok := catalogtest.Embedded(t).Accelerator("h100-sxm")
	if !ok {
		t.Fatal("no h100-sxm in the catalog")
	}
	o := &catalog.Offer{Provider: "aws", InstanceType: "p5.48xlarge", GPU: "h100-sxm", GPUCount: 8, GPUMemGiB: 80, VCPUs: 192, RAMGiB: 2048,
		NVMeTB: 30.4, NVMeReadGBps: 3.2, NetworkGbps: 100, InterconnectKind: "nvswitch", InterconnectGBps: 900, FabricKind: "efa", FabricGbps: 3200}
	return o, a
}

func matrix(t *testing.T) *compat.Matrix {
	t.Helper()
	b, err := os.ReadFile("../../data/compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func spec(t *testing.T, file string) *workload.Spec {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../examples", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := workload.Parse(b, file)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCompareAgainstOffer(t *testing.T) {
	o, a := h100Offer(t)
	fs := Compare(h100Report(), o, a, nil, nil)
	want := map[string]string{
		"gpu":     "8 × h100-sxm as claimed",
		"mig":     "MIG is enabled on GPU 7",
		"power":   "GPU 7 (500 W)",
		"compute": fmt.Sprintf("bf16 matmul reaches 610 TFLOPS, 62%% of the 989 peak: expect the model's efficiency to be %.2fx", 610/989.4/perf.MatmulShare(a, catalog.BF16)),
		"storage": "disk reads 0.4 GB/s on /data against 3.2 claimed for local NVMe",
		"network": "the 3200 Gbit/s efa fabric uses RDMA",
	}
	for part, sentence := range want {
		if !hasFinding(fs, part, sentence) {
			t.Errorf("no %s finding with %q", part, sentence)
		}
	}
	if Worst(fs) != Warning {
		t.Errorf("worst = %s, want warning", Worst(fs))
	}
}

func hasFinding(fs []Finding, part, sentence string) bool {
	for _, f := range fs {
		if f.Part == part && strings.Contains(f.Sentence, sentence) {
			return true
		}
	}
	return false
}

func TestCompareWithWorkload(t *testing.T) {
	o, a := h100Offer(t)
	m := matrix(t)
	r := h100Report()
	r.Storage.SeqReadGBps = 0.05
	fs := Compare(r, o, a, spec(t, "resnet50-imagenet.yaml"), m)
	if !hasFinding(fs, "storage", "the data stage will starve the GPUs for this workload") || Worst(fs) != Critical {
		t.Errorf("no starvation finding:\n%s", dumpFindings(fs))
	}

	// A stack that needs a newer driver and framework than the image has.
	s := spec(t, "llama3-8b-lora.yaml")
	s.Stack = workload.Stack{Framework: workload.FrameworkPyTorch, Version: ">=2.4"}
	fs = Compare(h100Report(), o, a, s, m)
	if !hasFinding(fs, "stack", "torch 2.3.1+cu121 is installed, but the workload asks for >=2.4") {
		t.Errorf("no framework finding:\n%s", dumpFindings(fs))
	}
	if !hasFinding(fs, "driver", "driver 535.104.05") {
		t.Errorf("no driver finding:\n%s", dumpFindings(fs))
	}

	// CPU-only torch on a GPU server, and the wrong GPU.
	r = h100Report()
	r.Stack.CUDAAvailable, r.Stack.TorchCUDA = false, ""
	for i := range r.GPUs {
		r.GPUs[i].Name, r.GPUs[i].CatalogID = "NVIDIA A100-SXM4-80GB", "a100-80gb"
	}
	fs = Compare(r, o, a, s, m)
	for part, sentence := range map[string]string{
		"gpu":   "the server has NVIDIA A100-SXM4-80GB (a100-80gb), not h100-sxm as claimed",
		"stack": "torch.cuda.is_available() is False: PyTorch cannot use the GPUs (the wheel is CPU-only)",
	} {
		if !hasFinding(fs, part, sentence) {
			t.Errorf("no %s finding %q:\n%s", part, sentence, dumpFindings(fs))
		}
	}
	if hasFinding(fs, "compute", "") {
		t.Error("compute compared against another accelerator's peak")
	}
}

func TestCompareNoGPU(t *testing.T) {
	o, a := h100Offer(t)
	r := &Report{Version: Version, Skipped: []Skip{{Part: "gpu", Reason: "no accelerator found (nvidia-smi: no devices were found)"}}}
	fs := Compare(r, o, a, nil, nil)
	if !hasFinding(fs, "gpu", "the probe found no accelerator (no accelerator found (nvidia-smi: no devices were found)), against 8 × h100-sxm claimed") || Worst(fs) != Critical {
		t.Errorf("findings:\n%s", dumpFindings(fs))
	}
}

func dumpFindings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s: %s\n", f.Severity, f.Part, f.Sentence)
	}
	return b.String()
}

func TestCalibration(t *testing.T) {
	o, a := h100Offer(t)
	c := h100Report().Calibration(a, o)
	if c.GPU != "h100-sxm" || c.DataType != "bf16" || c.StorageGBps != 0.4 || c.NetworkGbps != 40 || len(c.Notes) != 3 {
		t.Errorf("calibration = %+v", c)
	}
	if want := 610 / a.PeakTFLOPS[catalog.BF16] / perf.MatmulShare(a, catalog.BF16); math.Abs(c.MatmulEffScale-want) > 1e-9 {
		t.Errorf("MatmulEffScale = %v, want %v", c.MatmulEffScale, want)
	}
	if !strings.Contains(c.Notes[1].String(), "(catalog: 3.2 for local NVMe)") {
		t.Errorf("storage note = %q", c.Notes[1])
	}

	a100, _ := catalogtest.Embedded(t).Accelerator("a100-80gb")
	c = h100Report().Calibration(a100, nil)
	if c.MatmulEffScale != 1 || !strings.Contains(c.Notes[0].String(), "measured h100-sxm, not a100-80gb") {
		t.Errorf("other accelerator: %+v", c)
	}
	c = (&Report{}).Calibration(a, o)
	if c.MatmulEffScale != 1 || c.StorageGBps != 0 || len(c.Notes) != 0 {
		t.Errorf("empty report: %+v", c)
	}
}

func TestReadReport(t *testing.T) {
	var buf bytes.Buffer
	r := h100Report()
	if err := writeJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "report-h100.json", buf.String())
	got, err := ReadReport(buf.Bytes())
	if err != nil || got.GPUs[7].MIG != "enabled" || got.Storage.SeqReadGBps != 0.4 {
		t.Fatalf("ReadReport = %+v, %v", got, err)
	}
	for in, want := range map[string]string{`{}`: "no \"version\"", `{"version": 2}`: "newer", `[`: "not a probe report"} {
		if _, err := ReadReport([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadReport(%s) = %v, want %q", in, err, want)
		}
	}
}

func writeJSON(w *bytes.Buffer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
