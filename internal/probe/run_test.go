package probe

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakePath writes shell scripts named after the tools into a temporary
// directory and makes it the whole PATH, so that Run goes through the real
// exec path. Each script is a shell body; $CAT prints a fixture from $T,
// $SLEEP waits.
func fakePath(t *testing.T, tools map[string]string) {
	t.Helper()
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat on PATH")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep on PATH")
	}
	dir := t.TempDir()
	abs, _ := filepath.Abs(filepath.Join("testdata", "tools"))
	for name, body := range tools {
		script := "#!/bin/sh\nCAT=" + cat + "\nSLEEP=" + sleep + "\nT=" + abs + "\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

var fixedTime = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func resolveTest(name string) string {
	return Resolver(func(n string) (string, bool) {
		id, ok := map[string]string{"nvidia h100 80gb hbm3": "h100-sxm", "nvidia a100-sxm4-80gb": "a100-80gb", "mi300x": "mi300x"}[strings.ToLower(n)]
		return id, ok
	})(name)
}

func runFake(t *testing.T, o Options) *Report {
	t.Helper()
	o.Now = func() time.Time { return fixedTime }
	o.Resolve = resolveTest
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return Run(ctx, o)
}

func skipOf(r *Report, part string) string {
	for _, s := range r.Skipped {
		if s.Part == part {
			return s.Reason
		}
	}
	return ""
}

func TestRunNvidiaWithFakeTools(t *testing.T) {
	fakePath(t, map[string]string{
		"nvidia-smi": `case "$*" in
*--query-gpu*) $CAT $T/nvidia-smi-h100x2.csv ;;
"topo -m") $CAT $T/topo-nv18.txt ;;
"") $CAT $T/nvidia-smi-banner.txt ;;
*) exit 2 ;;
esac`,
		"python3": `case "$*" in
*benchScript*|*matmul*) $CAT $T/bench-h100.txt ;;
*) $CAT $T/python-torch.txt ;;
esac`,
	})
	r := runFake(t, Options{GPUBench: true})
	if r.Version != Version || !r.Time.Equal(fixedTime) {
		t.Errorf("version %d time %v", r.Version, r.Time)
	}
	if len(r.GPUs) != 2 || r.GPUs[0].CatalogID != "h100-sxm" || r.GPUs[1].CUDADriver != "12.4" {
		t.Fatalf("GPUs = %+v", r.GPUs)
	}
	// topo-nv18 has 4 GPUs: the fixture is what the fake prints.
	if r.Topology == nil || !r.Topology.NVLink {
		t.Errorf("topology = %+v (skip %q)", r.Topology, skipOf(r, "topology"))
	}
	if r.Stack == nil || r.Stack.Torch != "2.5.1+cu124" || r.Stack.VLLM != "0.6.3.post1" {
		t.Errorf("stack = %+v (skip %q)", r.Stack, skipOf(r, "stack"))
	}
	if r.Bench == nil || r.Bench.TFLOPS["bf16"] != 612.4 {
		t.Errorf("bench = %+v (skip %q)", r.Bench, skipOf(r, "bench"))
	}
	if r.CPU.Threads == 0 || r.CPU.NUMANodes == 0 {
		t.Errorf("cpu = %+v", r.CPU)
	}
	if skipOf(r, "gpu") != "" || !strings.Contains(skipOf(r, "network"), "--connect") {
		t.Errorf("skipped = %+v", r.Skipped)
	}
}

func TestRunOddCases(t *testing.T) {
	tests := []struct {
		name     string
		tools    map[string]string
		gpuSkip  string // substring of the gpu skip reason; "" = GPUs found
		gpus     int
		mig      string
		stack    string // substring of the stack skip reason; "" = stack found
		nogpuCPU bool
	}{
		{name: "no tools at all", tools: map[string]string{},
			gpuSkip: "nvidia-smi not found; rocm-smi not found; amd-smi not found; hl-smi not found; neuron-ls not found", stack: "python3 not found"},
		{name: "no devices", tools: map[string]string{"nvidia-smi": "$CAT $T/nvidia-smi-nodevices.txt; exit 6"},
			gpuSkip: "nvidia-smi: no devices were found", stack: "python3 not found"},
		{name: "driver error", tools: map[string]string{"nvidia-smi": "$CAT $T/nvidia-smi-drivererror.txt; exit 9"},
			gpuSkip: "nvidia-smi exited with status 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver", stack: "python3 not found"},
		{name: "MIG enabled", tools: map[string]string{"nvidia-smi": `case "$*" in *--query-gpu*) $CAT $T/nvidia-smi-mig.csv ;; *) exit 0 ;; esac`,
			"python3": "$CAT $T/python-cpu.txt"}, gpus: 2, mig: "enabled"},
		{name: "AMD", tools: map[string]string{"rocm-smi": "$CAT $T/rocm-smi-mi300x.json", "python3": "echo 'not json'; exit 1"},
			gpus: 2, stack: "python3 exited with status 1: not json"},
		{name: "tool hangs", tools: map[string]string{"nvidia-smi": "exec $SLEEP 30", "python3": "$CAT $T/python-cpu.txt"},
			gpuSkip: "nvidia-smi did not finish in time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakePath(t, tt.tools)
			o := Options{}
			if tt.name == "tool hangs" {
				o.Runner = func(ctx context.Context, name string, args ...string) ([]byte, error) {
					ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
					defer cancel()
					return Exec(ctx, name, args...)
				}
			}
			r := runFake(t, o)
			if got := skipOf(r, "gpu"); (tt.gpuSkip == "") != (got == "") || !strings.Contains(got, tt.gpuSkip) {
				t.Errorf("gpu skip = %q, want %q", got, tt.gpuSkip)
			}
			if len(r.GPUs) != tt.gpus {
				t.Errorf("%d GPUs, want %d", len(r.GPUs), tt.gpus)
			}
			if tt.mig != "" && r.GPUs[0].MIG != tt.mig {
				t.Errorf("MIG = %q", r.GPUs[0].MIG)
			}
			if got := skipOf(r, "stack"); (tt.stack == "") != (got == "") || !strings.Contains(got, tt.stack) {
				t.Errorf("stack skip = %q, want %q", got, tt.stack)
			}
		})
	}
}

func TestExecRunnerMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Exec(context.Background(), "nvidia-smi"); !errors.Is(err, ErrMissing) {
		t.Errorf("err = %v, want ErrMissing", err)
	}
}
