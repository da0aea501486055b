package compat

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

var (
	loadOnce sync.Once
	matrix   *Matrix
	loadErr  error
)

func load(t testing.TB) (*Matrix, *catalog.Catalog) {
	t.Helper()
	loadOnce.Do(func() {
		b, err := os.ReadFile("../../data/compat.yaml")
		if err != nil {
			loadErr = err
			return
		}
		if matrix, loadErr = Parse(b); loadErr != nil {
			return
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return matrix, catalogtest.Embedded(t)
}

func acc(t testing.TB, id string) *catalog.Accelerator {
	t.Helper()
	_, c := load(t)
	a, ok := c.Accelerator(id)
	if !ok {
		t.Fatalf("accelerator %s not in the catalog", id)
	}
	return a
}

func TestCheckFacts(t *testing.T) {
	m, _ := load(t)
	tests := []struct {
		name    string
		gpu     string
		stack   workload.Stack
		driver  string
		want    Verdict
		min     map[string]string // subset of MinVersions that must match
		mention string            // a word some reason must contain
	}{
		{name: "A100 + FlashAttention 3 needs work (use FA2)", gpu: "a100-80gb", stack: st("pytorch", "", "flash-attention-3"), want: NeedsWork, mention: "FlashAttention 2"},
		{name: "H100 + FlashAttention 3", gpu: "h100-sxm", stack: st("pytorch", "", "flash-attention-3"), want: Compatible},
		{name: "V100 + a CUDA 13 build", gpu: "v100", stack: st("pytorch", ">=2.9+cu130"), want: Incompatible, mention: "CUDA 13.0 cannot target"},
		{name: "V100 + PyTorch >=2.4 (CUDA 12 wheels keep sm_70)", gpu: "v100", stack: st("pytorch", ">=2.4"), want: Compatible, min: map[string]string{"pytorch": "2.4", "cuda": "11.8"}},
		{name: "B200 + PyTorch 2.6 cu124", gpu: "b200", stack: st("pytorch", "==2.6+cu124"), want: Incompatible, min: map[string]string{"pytorch": "2.7", "cuda": "12.8", "driver": "570.26"}, mention: "sm_100"},
		{name: "B200 + PyTorch 2.6", gpu: "b200", stack: st("pytorch", "2.6"), want: Incompatible, min: map[string]string{"pytorch": "2.7", "cuda": "12.8"}, mention: "B200 needs PyTorch >= 2.7 with CUDA 12.8"},
		{name: "B200 + PyTorch >=2.7", gpu: "b200", stack: st("pytorch", ">=2.7"), want: Compatible, min: map[string]string{"pytorch": "2.7", "cuda": "12.8", "driver": "570.26"}},
		{name: "B200 + empty framework is PyTorch", gpu: "b200", stack: st("", ">=2.4"), want: Compatible, min: map[string]string{"pytorch": "2.7"}},
		{name: "MI300X + vLLM on ROCm", gpu: "mi300x", stack: st("vllm", ""), want: Compatible, min: map[string]string{"rocm": "6.2"}},
		{name: "MI325X + vLLM", gpu: "mi325x", stack: st("vllm", ">=0.9"), want: Compatible},
		{name: "MI250X + vLLM", gpu: "mi250x", stack: st("vllm", ""), want: Compatible},
		{name: "MI300X + TensorRT-LLM", gpu: "mi300x", stack: st("tensorrt-llm", ""), want: Incompatible, mention: "NVIDIA-only"},
		{name: "MI300X + a CUDA build", gpu: "mi300x", stack: st("pytorch", "2.6+cu124"), want: Incompatible},
		{name: "MI300X + PyTorch 2.1 (ROCm 5.6 predates gfx942)", gpu: "mi300x", stack: st("pytorch", "2.1"), want: Incompatible, min: map[string]string{"pytorch": "2.3", "rocm": "6.0"}},
		{name: "MI355X needs ROCm 7", gpu: "mi355x", stack: st("pytorch", "<2.10"), want: Incompatible, min: map[string]string{"pytorch": "2.10", "rocm": "7.1"}},
		{name: "TPU + PyTorch via torch_xla", gpu: "tpu-v5e", stack: st("pytorch", ""), want: NeedsWork, mention: "torch_xla"},
		{name: "TPU + JAX", gpu: "tpu-v6e", stack: st("jax", ""), want: Compatible},
		{name: "Ascend 910B + PyTorch via torch_npu", gpu: "ascend-910b", stack: st("pytorch", ">=2.4"), want: NeedsWork, min: map[string]string{"pytorch": "2.4", "cann": "8.0.RC3"}, mention: "torch_npu"},
		{name: "Trainium2 + PyTorch via Neuron", gpu: "trainium2", stack: st("pytorch", ""), want: NeedsWork, mention: "Neuron"},
		{name: "Gaudi3 + PyTorch via the Gaudi bridge", gpu: "gaudi3", stack: st("pytorch", "2.5"), want: NeedsWork, min: map[string]string{"gaudi": "1.19"}, mention: "Gaudi"},
		{name: "Gaudi2 + vLLM plugin", gpu: "gaudi2", stack: st("vllm", ""), want: NeedsWork, mention: "vllm-gaudi"},
		{name: "Ascend + vLLM plugin", gpu: "ascend-910b", stack: st("vllm", ""), want: NeedsWork, mention: "vllm-ascend"},
		{name: "TPU + vLLM plugin", gpu: "tpu-v6e", stack: st("vllm", ""), want: NeedsWork, mention: "tpu-inference"},
		{name: "Gaudi + TensorFlow", gpu: "gaudi2", stack: st("tensorflow", ""), want: Incompatible},
		{name: "DeepSpeed on B200 takes PyTorch builds", gpu: "b200", stack: st("deepspeed", ">=0.14"), want: Compatible, min: map[string]string{"pytorch": "2.7", "cuda": "12.8"}},
		{name: "DeepSpeed on Gaudi2 via Intel's fork", gpu: "gaudi2", stack: st("deepspeed", ""), want: NeedsWork},
		{name: "TensorRT-LLM on H100", gpu: "h100-sxm", stack: st("tensorrt-llm", ""), want: Compatible},
		{name: "TensorRT-LLM on V100 (community only)", gpu: "v100", stack: st("tensorrt-llm", ""), want: Incompatible},
		{name: "vLLM >=0.21 dropped V100", gpu: "v100", stack: st("vllm", ">=0.21"), want: Incompatible, min: map[string]string{"vllm": "0.6"}},
		{name: "vLLM 0.8 lacks Blackwell", gpu: "b200", stack: st("vllm", "<0.9"), want: Incompatible, min: map[string]string{"vllm": "0.9", "cuda": "12.8"}},
		{name: "L4 + fp8 (Ada sm89)", gpu: "l4", stack: st("pytorch", "", "fp8"), want: Compatible},
		{name: "A100 + fp8 runs bf16", gpu: "a100-80gb", stack: st("pytorch", "", "fp8"), want: NeedsWork, mention: "half the matmul throughput"},
		{name: "B200 + fp4", gpu: "b200", stack: st("vllm", "", "fp4"), want: Compatible},
		{name: "H100 + fp4 falls back to fp8", gpu: "h100-sxm", stack: st("vllm", "", "fp4"), want: NeedsWork},
		{name: "MI300X + fp8", gpu: "mi300x", stack: st("vllm", "", "fp8"), want: Compatible},
		{name: "RTX 4090 + MIG", gpu: "rtx-4090", stack: st("vllm", "", "mig"), want: Incompatible},
		{name: "H100 + MIG", gpu: "h100-sxm", stack: st("vllm", "", "mig"), want: Compatible},
		{name: "T4 + FlashAttention 2", gpu: "t4", stack: st("pytorch", "", "flash-attention-2"), want: NeedsWork},
		{name: "MI300X + FlashAttention 2 (CK)", gpu: "mi300x", stack: st("pytorch", "", "flash-attention-2"), want: Compatible},
		{name: "TPU + bitsandbytes", gpu: "tpu-v5p", stack: st("jax", "", "bitsandbytes"), want: Incompatible, mention: "no backend"},
		{name: "Inferentia + bitsandbytes", gpu: "inferentia2", stack: st("pytorch", "", "bitsandbytes"), want: Incompatible, mention: "no backend"},
		{name: "Trainium + bitsandbytes", gpu: "trainium2", stack: st("pytorch", "", "bitsandbytes"), want: Incompatible, mention: "no backend"},
		{name: "MI300X + bitsandbytes", gpu: "mi300x", stack: st("pytorch", "", "bitsandbytes"), want: Compatible},
		{name: "Gaudi + bitsandbytes needs the bridge only", gpu: "gaudi3", stack: st("pytorch", "", "bitsandbytes"), want: NeedsWork, mention: "bitsandbytes supports Intel Gaudi"},
		{name: "Ascend + bitsandbytes through the beta branch", gpu: "ascend-910b", stack: st("pytorch", "", "bitsandbytes"), want: NeedsWork, mention: "bitsandbytes-npu-beta"},
		{name: "unknown need cannot be judged", gpu: "h100-sxm", stack: st("pytorch", "", "quantum-tunnelling"), want: NeedsWork, mention: "does not know"},
		{name: "framework other is not judged", gpu: "h100-sxm", stack: st("other", ""), want: Compatible, mention: "not judged"},
		{name: "old driver on an offer", gpu: "h100-sxm", stack: st("pytorch", ">=2.9"), driver: "535.104.05", want: NeedsWork, mention: "older than 560.28.03"},
		{name: "new enough driver", gpu: "h100-sxm", stack: st("pytorch", ">=2.9"), driver: "570.124.06", want: Compatible},
		{name: "selectable driver", gpu: "a10", stack: st("pytorch", ">=2.5"), driver: "Tesla 470/CUDA 11.4 default; 535/CUDA 12.2 and 550/CUDA 12.4 selectable (ECI doc)", want: Compatible, mention: "selectable"},
		{name: "B200 on a 550 driver", gpu: "b200", stack: st("pytorch", ""), driver: "550.54.15", want: NeedsWork, mention: "570.26"},
		{name: "unknown version", gpu: "h100-sxm", stack: st("pytorch", ">=9.0"), want: NeedsWork},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Check(tt.stack, acc(t, tt.gpu), tt.driver)
			if r.Verdict != tt.want {
				t.Errorf("verdict %s, want %s; reasons:\n%s", r.Verdict, tt.want, dump(r))
			}
			for k, v := range tt.min {
				if r.MinVersions[k] != v {
					t.Errorf("min_versions[%s] = %q, want %q (all: %v)", k, r.MinVersions[k], v, r.MinVersions)
				}
			}
			if tt.mention != "" && !strings.Contains(dump(r), tt.mention) {
				t.Errorf("no reason mentions %q:\n%s", tt.mention, dump(r))
			}
			checkInvariants(t, r)
		})
	}
}

func st(fw, version string, needs ...string) workload.Stack {
	return workload.Stack{Framework: workload.Framework(fw), Version: version, Needs: needs}
}

func dump(r Result) string {
	var b strings.Builder
	for _, x := range r.Reasons {
		b.WriteString(string(x.Verdict) + ": " + x.Text.String() + " | fix: " + x.Fix.String() + " | " + x.Source + "\n")
	}
	return b.String()
}

func checkInvariants(t *testing.T, r Result) {
	t.Helper()
	worst := Compatible
	for _, x := range r.Reasons {
		if strings.TrimSpace(x.Text.String()) == "" || strings.TrimSpace(x.Source) == "" {
			t.Errorf("reason without text or source: %+v", x)
		}
		if x.Verdict != Compatible && x.Fix.String() == "" {
			t.Errorf("%s reason without a fix: %+v", x.Verdict, x)
		}
		if !x.Verdict.valid() {
			t.Errorf("bad verdict %q", x.Verdict)
		}
		worst = worst.Worse(x.Verdict)
	}
	if worst != r.Verdict {
		t.Errorf("verdict %s is not the worst of the reasons (%s)", r.Verdict, worst)
	}
	if n := len(msg.Strings(r.Checklist)); n < 4 || n > 7 {
		t.Errorf("checklist has %d steps, want 4-7: %q", n, msg.Strings(r.Checklist))
	}
	if r.LockIn.String() == "" {
		t.Error("no lock-in note")
	}
	if r.MinVersions == nil {
		t.Error("nil min_versions")
	}
}

// Every accelerator of the catalog, every framework, and a few needs: every
// reason has text and source, and every vendor gets a checklist.
func TestCheckEveryAccelerator(t *testing.T) {
	m, c := load(t)
	vendors := map[string]bool{}
	for _, a := range c.Accelerators {
		for _, fw := range workload.Frameworks() {
			for _, v := range []string{"", ">=2.4", "<0.8", "2.6+cu124"} {
				r := m.Check(st(string(fw), v, "flash-attention-2", "flash-attention-3", "fp8", "fp4", "triton", "bitsandbytes", "mig", "nccl", "cuda", "transformer-engine", "bf16", "flash-attention-4", "made-up"), a, "Tesla 450+ (460.32.03 recommended)")
				checkInvariants(t, r)
				vendors[a.Vendor] = true
			}
		}
	}
	for _, v := range workload.Vendors() {
		if !vendors[string(v)] {
			t.Errorf("no accelerator of vendor %s was checked", v)
		}
	}
}

func TestChecklistPerVendor(t *testing.T) {
	m, _ := load(t)
	for gpu, want := range map[string]string{
		"h100-sxm": "nvidia-smi", "mi300x": "rocm-smi", "gaudi2": "hl-smi", "tpu-v5e": "libtpu",
		"trainium2": "neuron-ls", "ascend-910b": "npu-smi",
	} {
		t.Run(gpu, func(t *testing.T) {
			r := m.Check(st("pytorch", "", "flash-attention-2"), acc(t, gpu), "")
			all := strings.Join(msg.Strings(r.Checklist), "\n")
			if !strings.Contains(all, want) || !strings.Contains(all, "gpupick predict") {
				t.Errorf("checklist lacks %q or the throughput run:\n%s", want, all)
			}
		})
	}
	r := m.Check(st("pytorch", ">=2.7", "flash-attention-3"), acc(t, "h100-sxm"), "")
	all := strings.Join(msg.Strings(r.Checklist), "\n")
	for _, want := range []string{"torch.cuda.get_arch_list()", "sm_90", "flash_attn_interface", "all_reduce_perf"} {
		if !strings.Contains(all, want) {
			t.Errorf("H100 checklist lacks %q:\n%s", want, all)
		}
	}
	if r := m.Check(st("pytorch", ""), acc(t, "ascend-910b"), ""); !strings.Contains(strings.Join(msg.Strings(r.Checklist), "\n"), "torch_npu") {
		t.Errorf("Ascend checklist lacks torch_npu: %q", msg.Strings(r.Checklist))
	}
}

func TestCheckNilAccelerator(t *testing.T) {
	m, _ := load(t)
	r := m.Check(st("pytorch", ""), nil, "")
	if r.Verdict != NeedsWork || len(r.Reasons) != 1 || r.Reasons[0].Source == "" {
		t.Errorf("nil accelerator: %+v", r)
	}
}

func TestParseDriver(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		open bool
	}{
		{"535.104.05", []string{"535.104.05"}, false},
		{"Tesla 470/CUDA 11.4 default; 535/CUDA 12.2 and 550/CUDA 12.4 selectable (ECI doc)", []string{"470", "535", "550"}, false},
		{"Tesla 450+ (460.32.03 recommended)", []string{"450", "460.32.03"}, true},
		{"CUDA 12.4", nil, false},
		{"", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			vs, open := parseDriver(tt.in)
			var got []string
			for _, v := range vs {
				got = append(got, v.raw)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || open != tt.open {
				t.Errorf("parseDriver(%q) = %v open=%v (-want +got):\n%s", tt.in, got, open, diff)
			}
		})
	}
}

// Every needs-work reason carries the work it asks for, with engineer-days
// and a delay, except those that ask to verify what gpupick cannot judge;
// no other verdict does. Checked over every accelerator of the
// catalog, every framework and every need of the matrix, and on the
// matrix's own entries.
func TestNeedsWorkCarriesPorting(t *testing.T) {
	m, c := load(t)
	for id, f := range m.Frameworks {
		for b, pl := range f.Platforms {
			if pl.Support == Port && (pl.Work == nil || m.WorkKinds[pl.Work.Kind] == nil) {
				t.Errorf("frameworks.%s.platforms.%s: a port without a kind of work", id, b)
			}
		}
	}
	for id, f := range m.Features {
		for i, r := range append(append([]Rule(nil), f.Rules...), Rule{Outcome: f.Otherwise}) {
			if r.Verdict == NeedsWork && (r.Work == nil || m.WorkKinds[r.Work.Kind] == nil) {
				t.Errorf("features.%s (rule %d): needs-work without a kind of work", id, i)
			}
		}
	}
	var needs []string
	for id := range m.Features {
		needs = append(needs, id)
	}
	seen := 0
	for _, a := range c.Accelerators {
		for fw := range m.Frameworks {
			r := m.Check(workload.Stack{Framework: workload.Framework(fw), Needs: needs}, a, "")
			for _, x := range r.Reasons {
				switch {
				case x.Verdict == NeedsWork && x.Porting == nil && !strings.Contains(x.Fix.String(), "verify"):
					t.Errorf("%s on %s: needs-work reason without work: %+v", fw, a.ID, x)
				case x.Porting != nil && (x.Porting.Kind == "" || x.Porting.EngineerDays <= 0 || x.Porting.DelayDays <= 0 || x.Porting.Source == ""):
					t.Errorf("%s on %s: incomplete work: %+v", fw, a.ID, x.Porting)
				case x.Verdict != NeedsWork && x.Porting != nil:
					t.Errorf("%s on %s: %s reason with work: %+v", fw, a.ID, x.Verdict, x)
				case x.Verdict == NeedsWork:
					seen++
				}
			}
			days, delay, kinds := r.Porting()
			if days > 0 && r.Verdict == Compatible || days > 0 && (delay <= 0 || len(kinds) == 0) {
				t.Errorf("%s on %s: verdict %s with %g engineer-days, %g days' delay, kinds %v", fw, a.ID, r.Verdict, days, delay, kinds)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no needs-work reason met")
	}
}

// A QLoRA fine-tune's bitsandbytes never runs where the library has no
// backend: every TPU and AWS Neuron part is incompatible, whatever the
// framework.
func TestBitsandbytesWithoutCUDA(t *testing.T) {
	m, c := load(t)
	for _, a := range c.Accelerators {
		if a.Vendor != "google" && a.Vendor != "aws" {
			continue
		}
		for fw := range m.Frameworks {
			if r := m.Check(workload.Stack{Framework: workload.Framework(fw), Needs: []string{"bitsandbytes"}}, a, ""); r.Verdict != Incompatible {
				t.Errorf("%s with bitsandbytes on %s: %s, want incompatible", fw, a.ID, r.Verdict)
			}
		}
	}
}
