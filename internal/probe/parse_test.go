package probe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tools", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseNvidiaSMI(t *testing.T) {
	h100 := GPU{Name: "NVIDIA H100 80GB HBM3", Vendor: "nvidia", MemoryMiB: 81559, Driver: "550.54.15",
		ClockSMMHz: 1980, ClockMemMHz: 2619, PowerLimitW: 700, ECC: "enabled", MIG: "disabled"}
	h100b := h100
	h100b.Index = 1
	tests := []struct {
		file    string
		want    []GPU
		wantErr string
	}{
		{"nvidia-smi-h100x2.csv", []GPU{h100, h100b}, ""},
		{"nvidia-smi-mig.csv", []GPU{
			{Index: 0, Name: "NVIDIA A100-SXM4-80GB", Vendor: "nvidia", MemoryMiB: 81920, Driver: "535.104.05", ClockSMMHz: 1410, ClockMemMHz: 1593, PowerLimitW: 400, ECC: "enabled", MIG: "enabled"},
			{Index: 1, Name: "NVIDIA A100-SXM4-80GB", Vendor: "nvidia", MemoryMiB: 81920, Driver: "535.104.05", ClockSMMHz: 1410, ClockMemMHz: 1593, PowerLimitW: 300, ECC: "disabled"},
		}, ""},
		{"nvidia-smi-nodevices.txt", nil, "no devices were found"},
		{"nvidia-smi-drivererror.txt", nil, "couldn't communicate with the NVIDIA driver"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseNvidiaSMI(fixture(t, tt.file))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Error(d)
			}
		})
	}
	if _, err := ParseNvidiaSMI([]byte("0, H100, 80\n")); err == nil || !strings.Contains(err.Error(), "want 9 fields") {
		t.Errorf("short line: err = %v", err)
	}
	if _, err := ParseNvidiaSMI(nil); !errors.Is(err, ErrNoDevices) {
		t.Errorf("empty output: err = %v", err)
	}
}

func TestParseCUDAVersion(t *testing.T) {
	for in, want := range map[string]string{
		string(fixture(t, "nvidia-smi-banner.txt")):                                                      "12.4",
		"NVIDIA-SMI version  : 560.35.03\nDRIVER version      : 560.35.03\nCUDA Version        : 12.6\n": "12.6",
		"nothing": "",
	} {
		if got := ParseCUDAVersion([]byte(in)); got != want {
			t.Errorf("ParseCUDAVersion(%.30q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseTopo(t *testing.T) {
	tests := []struct {
		file    string
		nvlink  bool
		summary string
		row0    []string
	}{
		{"topo-nv18.txt", true, "all 4 GPUs linked by NV18", []string{"X", "NV18", "NV18", "NV18"}},
		{"topo-pcie.txt", false, "4 GPUs, mixed links (PIX: 2 pairs, SYS: 4 pairs)", []string{"X", "PIX", "SYS", "SYS"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseTopo(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got.NVLink != tt.nvlink || got.Summary != tt.summary || len(got.Matrix) != 4 {
				t.Errorf("got %+v", got)
			}
			if d := cmp.Diff(tt.row0, got.Matrix[0]); d != "" {
				t.Error(d)
			}
		})
	}
	if _, err := ParseTopo([]byte("garbage\n")); err == nil {
		t.Error("garbage: no error")
	}
}

func TestParseOtherVendors(t *testing.T) {
	tests := []struct {
		name  string
		parse func([]byte) ([]GPU, error)
		file  string
		want  []GPU
	}{
		{"rocm-smi", ParseRocmSMI, "rocm-smi-mi300x.json", []GPU{
			{Index: 0, Name: "AMD Instinct MI300X OAM", Vendor: "amd", MemoryMiB: 196592, Driver: "6.7.0", GFXTarget: "gfx942"},
			{Index: 1, Name: "AMD Instinct MI300X OAM", Vendor: "amd", MemoryMiB: 196592, Driver: "6.7.0", GFXTarget: "gfx942"},
		}},
		{"amd-smi", ParseAMDSMI, "amd-smi-static.json", []GPU{
			{Index: 0, Name: "AMD Instinct MI250X", Vendor: "amd", MemoryMiB: 65536, Driver: "6.3.6", GFXTarget: "gfx90a"},
		}},
		{"hl-smi", ParseHLSMI, "hl-smi.csv", []GPU{
			{Index: 0, Name: "HL-225", Vendor: "intel", MemoryMiB: 98304, Driver: "1.17.0-fw-51.3.0"},
			{Index: 1, Name: "HL-225", Vendor: "intel", MemoryMiB: 98304, Driver: "1.17.0-fw-51.3.0"},
		}},
		{"neuron-ls", ParseNeuronLS, "neuron-ls.json", []GPU{
			{Index: 0, Name: "AWS Neuron device (2 NeuronCores)", Vendor: "aws", MemoryMiB: 32768},
			{Index: 1, Name: "AWS Neuron device (2 NeuronCores)", Vendor: "aws", MemoryMiB: 32768},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.parse(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Error(d)
			}
			if _, err := tt.parse([]byte("[]")); err == nil {
				t.Error("empty list: no error")
			}
		})
	}
}

func TestParsePython(t *testing.T) {
	got, err := ParsePython(fixture(t, "python-torch.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Stack{Python: "3.10.12", Torch: "2.5.1+cu124", TorchCUDA: "12.4",
		ArchList: []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"}, CUDAAvailable: true, DeviceCount: 2,
		VLLM: "0.6.3.post1", Packages: map[string]string{"transformers": "4.46.0", "flash-attn": "2.6.3", "triton": "3.1.0"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
	if _, err := ParsePython([]byte("Traceback (most recent call last):\n")); err == nil {
		t.Error("no JSON: no error")
	}
}

func TestParseBench(t *testing.T) {
	got, err := ParseBench(fixture(t, "bench-h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got.TFLOPS["bf16"] != 612.4 || got.CopyGBps != 2870.5 || got.Errors != nil {
		t.Errorf("got %+v", got)
	}
	if _, err := ParseBench(fixture(t, "bench-nogpu.txt")); err == nil || !strings.Contains(err.Error(), "is_available") {
		t.Errorf("no GPU: err = %v", err)
	}
}

func TestParseSystemFiles(t *testing.T) {
	cpuinfo := "processor\t: 0\nmodel name\t: AMD EPYC 9454 48-Core Processor\nphysical id\t: 0\ncore id\t\t: 0\n\n" +
		"processor\t: 1\nmodel name\t: AMD EPYC 9454 48-Core Processor\nphysical id\t: 0\ncore id\t\t: 0\n\n" +
		"processor\t: 2\nmodel name\t: AMD EPYC 9454 48-Core Processor\nphysical id\t: 1\ncore id\t\t: 0\n"
	if got, want := ParseCPUInfo([]byte(cpuinfo)), (CPU{Model: "AMD EPYC 9454 48-Core Processor", Cores: 2, Threads: 3}); got != want {
		t.Errorf("ParseCPUInfo = %+v, want %+v", got, want)
	}
	if got := ParseCPUInfo([]byte("processor : 0\nprocessor : 1\n")); got.Cores != 2 || got.Threads != 2 {
		t.Errorf("no core ids: %+v", got)
	}
	if got := ParseMemInfo([]byte("MemTotal:       2113389568 kB\nMemFree: 1 kB\n")); got < 2015 || got > 2016 {
		t.Errorf("ParseMemInfo = %v", got)
	}
	if got := ParseOSRelease([]byte("NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n")); got != "Ubuntu 22.04.4 LTS" {
		t.Errorf("ParseOSRelease = %q", got)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "2GiB": 2 << 30, "512M": 512 << 20, "1.5g": 3 << 29, "64KiB": 64 << 10, "8TB": 8 << 40} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "big", "0"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q): no error", bad)
		}
	}
}

func TestResolver(t *testing.T) {
	ids := map[string]string{"nvidia h100 80gb hbm3": "h100-sxm", "mi300x": "mi300x", "amd instinct mi250x": "mi250x", "gaudi2": "gaudi2"}
	resolve := Resolver(func(n string) (string, bool) { id, ok := ids[strings.ToLower(n)]; return id, ok })
	for in, want := range map[string]string{
		"NVIDIA H100 80GB HBM3": "h100-sxm", "AMD Instinct MI300X OAM": "mi300x", "AMD Instinct MI250X": "mi250x", "HL-225": "gaudi2", "Mystery GPU": "",
	} {
		if got := resolve(in); got != want {
			t.Errorf("resolve(%q) = %q, want %q", in, got, want)
		}
	}
}
