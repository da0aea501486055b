package export_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Hand-made catalog values: the tests do not depend on the embedded catalog.
var (
	h100 = &catalog.Accelerator{ID: "h100-sxm", Name: "NVIDIA H100 SXM5 80GB", Vendor: "nvidia", MemGiB: 80}
	mi3x = &catalog.Accelerator{ID: "mi300x", Name: "AMD Instinct MI300X", Vendor: "amd", MemGiB: 192}
	a100 = &catalog.Accelerator{ID: "a100-40gb", Name: "NVIDIA A100 SXM4 40GB", Vendor: "nvidia", MemGiB: 40}
	l40s = &catalog.Accelerator{ID: "l40s", Name: "NVIDIA L40S 48GB", Vendor: "nvidia", MemGiB: 48}
	v6e  = &catalog.Accelerator{ID: "tpu-v6e", Name: "Google Cloud TPU v6e (Trillium)", Vendor: "google", MemGiB: 32}
	inf2 = &catalog.Accelerator{ID: "inferentia2", Name: "AWS Inferentia2 (Inf2)", Vendor: "aws", MemGiB: 32}
)

func offer(provider, instance, region, gpu string, count, vcpus int, ramGiB, onDemand, spot float64) *catalog.Offer {
	o := &catalog.Offer{Provider: provider, InstanceType: instance, Region: region, GPU: gpu, GPUCount: count,
		VCPUs: vcpus, RAMGiB: ramGiB, Currency: "USD"}
	o.ListPrices[catalog.OnDemand] = onDemand
	o.ListPrices[catalog.Spot] = spot
	o.YourPrices = o.ListPrices
	return o
}

// cases are the inputs every exporter is golden-tested on.
func cases() map[string]export.Input {
	chat8b := &workload.Spec{Name: "llama3-8b-chat", Kind: workload.KindLLMInference,
		Model: &workload.Model{Preset: "llama-3-8b"}, Stack: workload.Stack{Framework: workload.FrameworkVLLM}}
	return map[string]export.Input{
		// An NVIDIA inference service on aws/p5.48xlarge with a target policy.
		"nvidia-inference-aws": {
			Spec: &workload.Spec{Name: "Llama 3.1 70B chat", Kind: workload.KindLLMInference,
				Model: &workload.Model{Preset: "llama-3.1-70b"}, Stack: workload.Stack{Framework: workload.FrameworkVLLM}},
			Offers: []*catalog.Offer{
				offer("aws", "p5.48xlarge", "us-east-1", "h100-sxm", 8, 192, 2048, 98.32, 40.1),
				offer("aws", "p4de.24xlarge", "us-east-1", "a100-80gb", 8, 96, 1152, 40.97, 0),
				offer("gcp", "a3-highgpu-8g", "us-central1", "h100-sxm", 8, 208, 1872, 88.25, 30.0),
				offer("coreweave", "gd-8xh100ib-i128", "us-east-04", "h100-sxm", 8, 128, 2048, 49.24, 0),
				offer("lambda", "gpu_8x_h100_sxm5", "us-east-1", "h100-sxm", 8, 208, 1800, 23.92, 0),
			},
			GPU:            h100,
			GPUsPerReplica: 4,
			Capacity:       []catalog.Mode{catalog.Spot, catalog.OnDemand},
			Policy: export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: 6, Metric: export.MetricQueueLength,
				Target: 8, PollingIntervalS: 15, StabilizationUpS: 60, StabilizationDownS: 600},
		},
		// An AMD MI300X service on Azure (Karpenter's AKS provider), scaling to zero.
		"amd-mi300x-azure": {
			Name: "mi300x-chat",
			Spec: &workload.Spec{Name: "qwen-chat", Kind: workload.KindLLMInference,
				Model: &workload.Model{Preset: "qwen2.5-72b"}, Stack: workload.Stack{Framework: workload.FrameworkVLLM}},
			Offers: []*catalog.Offer{
				offer("azure", "Standard_ND96isr_MI300X_v5", "eastus", "mi300x", 8, 96, 1850, 48.0, 0),
				offer("vultr", "AMD MI300X x8", "ewr", "mi300x", 8, 248, 2154, 23.92, 0),
				offer("oci", "BM.GPU.MI300X.8", "us-chicago-1", "mi300x", 8, 112, 2048, 48.0, 0),
			},
			GPU:      mi3x,
			Capacity: []catalog.Mode{catalog.OnDemand},
			Policy: export.Policy{Kind: export.PolicyKnative, MinReplicas: 0, MaxReplicas: 2, Metric: export.MetricInFlight,
				Target: 32, CooldownS: 600},
		},
		// A two-node training job on Lambda with failover to GCP and Azure.
		"training-lambda": {
			Spec: &workload.Spec{Name: "llama3-70b-pretrain", Kind: workload.KindLLMTrain,
				Model: &workload.Model{Preset: "llama-3-70b"}, Stack: workload.Stack{Framework: workload.FrameworkPyTorch}},
			Offers: []*catalog.Offer{
				offer("lambda", "gpu_8x_h100_sxm5", "us-east-1", "h100-sxm", 8, 208, 1800, 23.92, 0),
				offer("gcp", "a3-highgpu-8g", "us-central1", "h100-sxm", 8, 208, 1872, 88.25, 30.0),
				offer("azure", "Standard_ND96isr_H100_v5", "eastus", "h100-sxm", 8, 96, 1900, 98.32, 0),
				offer("lambda", "gpu_1x_h100_sxm5", "us-east-1", "h100-sxm", 1, 26, 225, 3.29, 0),
			},
			GPU:            h100,
			GPUsPerReplica: 16,
			Capacity:       []catalog.Mode{catalog.OnDemand, catalog.Spot},
		},
		// A one-node fine-tune on AWS, spot first: a Job and a training NodePool.
		"finetune-aws-spot": {
			Spec: &workload.Spec{Name: "llama3-8b-lora", Kind: workload.KindLLMFinetune,
				Model: &workload.Model{Preset: "llama-3-8b"}, Stack: workload.Stack{Framework: workload.FrameworkDeepSpeed}},
			Offers: []*catalog.Offer{
				offer("aws", "p4d.24xlarge", "us-west-2", "a100-40gb", 8, 96, 1152, 32.77, 12.0),
				offer("aws", "p5.48xlarge", "us-west-2", "h100-sxm", 8, 192, 2048, 98.32, 40.1),
			},
			GPU:      a100,
			Capacity: []catalog.Mode{catalog.Spot, catalog.OnDemand},
		},
		// An SDXL image service on diffusers (no server shipped: the image
		// is a required value), one L40S per replica.
		"image-service-diffusers": {
			Spec: &workload.Spec{Name: "sdxl-api", Kind: workload.KindImageGeneration,
				Model: &workload.Model{Preset: "sdxl"}, Stack: workload.Stack{Framework: workload.FrameworkDiffusers},
				Image: &workload.Image{Width: 1024, Height: 1024, Steps: 30, Batch: 1, RequestsPerSecond: ptr(0.5)}},
			Offers: []*catalog.Offer{
				offer("aws", "g6e.xlarge", "us-east-1", "l40s", 1, 4, 32, 1.861, 0.9),
				offer("gcp", "g2-standard-8", "us-central1", "l4", 1, 8, 32, 0.85, 0),
			},
			GPU:            l40s,
			GPUsPerReplica: 1,
			Capacity:       []catalog.Mode{catalog.OnDemand},
			Policy:         export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: 5, Metric: export.MetricQueueLength, Target: 1},
		},
		// An SDXL TensorRT service: Triton Inference Server.
		"image-service-triton": {
			Spec: &workload.Spec{Name: "sdxl-trt", Kind: workload.KindImageGeneration,
				Model: &workload.Model{Preset: "sdxl"}, Stack: workload.Stack{Framework: workload.FrameworkTensorRT},
				Image: &workload.Image{Width: 1024, Height: 1024, Steps: 20, Batch: 1, RequestsPerSecond: ptr(0.4)}},
			Offers: []*catalog.Offer{
				offer("aws", "g6e.xlarge", "us-east-1", "l40s", 1, 4, 32, 1.861, 0.9),
			},
			GPU:            l40s,
			GPUsPerReplica: 1,
			Capacity:       []catalog.Mode{catalog.OnDemand},
			Policy:         export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: 3, Metric: export.MetricQueueLength, Target: 1},
		},
		// A vLLM service whose best offer is a TPU, with CUDA and Neuron
		// candidates among the ranked ones: three families, three lists.
		// The TPU task takes vLLM's TPU image; the CUDA one its own; the
		// Neuron one has no default image, so no task, and says why.
		"tpu-with-other-families": {
			Spec: chat8b,
			Offers: []*catalog.Offer{
				offer("gcp", "tpu-v6e-1", "us-east5", "tpu-v6e", 1, 0, 0, 2.7, 1.28),
				offer("gcp", "tpu-v6e-8", "us-east5", "tpu-v6e", 8, 0, 0, 21.6, 10.2),
			},
			GPU:            v6e,
			GPUsPerReplica: 1,
			Capacity:       []catalog.Mode{catalog.OnDemand},
			Plan:           "3 instance(s) of 1 GPU(s) (3 GPUs); 3 replica(s) of tensor parallelism 1, 1 per instance, 6.67 requests/s each; on-demand",
			Policy:         export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: 5, Metric: export.MetricInFlight, Target: 32},
			Others: []export.Input{
				{
					Spec: chat8b,
					Offers: []*catalog.Offer{
						offer("gcp", "a3-highgpu-1g", "us-central1", "h100-sxm", 1, 26, 234, 11.06, 3.7),
						offer("coreweave", "gd-8xh100ib-i128", "us-east-04", "h100-sxm", 8, 128, 2048, 49.24, 0),
					},
					GPU: h100, GPUsPerReplica: 1, Capacity: []catalog.Mode{catalog.OnDemand},
					Plan: "1 instance(s) of 1 GPU(s) (1 GPUs); 1 replica(s) of tensor parallelism 1, 1 per instance, 20 requests/s each; on-demand",
				},
				{
					Spec:   chat8b,
					Offers: []*catalog.Offer{offer("aws", "inf2.xlarge", "us-east-2", "inferentia2", 1, 4, 16, 0.76, 0.3)},
					GPU:    inf2, GPUsPerReplica: 1, Capacity: []catalog.Mode{catalog.OnDemand},
				},
			},
		},
		// An offline SDXL job over 8 GPUs of two nodes: an Indexed Job of 8 pods.
		"image-job": {
			Spec: &workload.Spec{Name: "sdxl-images", Kind: workload.KindImageGeneration,
				Model: &workload.Model{Preset: "sdxl"}, Stack: workload.Stack{Framework: workload.FrameworkTensorRT},
				Image: &workload.Image{Width: 1024, Height: 1024, Steps: 30, Batch: 8, Images: 100000}},
			Offers: []*catalog.Offer{
				offer("aws", "g6e.12xlarge", "us-east-1", "l40s", 4, 48, 384, 10.49, 4.2),
			},
			GPU:            l40s,
			GPUsPerReplica: 1,
			Shards:         8,
			Capacity:       []catalog.Mode{catalog.Spot, catalog.OnDemand},
		},
	}
}

func ptr[T any](v T) *T { return &v }

var exporters = map[string]func(export.Input) ([]byte, error){
	"kubernetes": export.Kubernetes,
	"keda":       export.KEDA,
	"karpenter":  export.Karpenter,
	"skypilot":   export.SkyPilot,
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/export -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", path, diff)
	}
}

// TestGolden pins every exporter's output, or its error, for every case;
// an exporter that does not apply must fail with apperr.Invalid.
func TestGolden(t *testing.T) {
	for name, in := range cases() {
		for ex, fn := range exporters {
			t.Run(name+"/"+ex, func(t *testing.T) {
				b, err := fn(in)
				if err != nil {
					if apperr.CodeOf(err) != apperr.Invalid {
						t.Fatalf("error %v has code %s, want invalid", err, apperr.CodeOf(err))
					}
					golden(t, filepath.Join(name, ex+".err"), []byte(err.Error()+"\n"))
					return
				}
				golden(t, filepath.Join(name, ex+".yaml"), b)
			})
		}
		t.Run(name+"/all", func(t *testing.T) {
			files, err := export.All(in)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join(name, "all", export.FileReadme), files[export.FileReadme])
			var names []string
			for f := range files {
				names = append(names, f)
				if strings.HasPrefix(f, "skypilot-") { // another family's task
					golden(t, filepath.Join(name, "all", f), files[f])
				}
			}
			sort.Strings(names)
			golden(t, filepath.Join(name, "all", "files.txt"), []byte(strings.Join(names, "\n")+"\n"))
		})
	}
}

// TestAllMatchesExporters checks All returns exactly the single exporters'
// bytes, and only for the exporters that succeed.
func TestAllMatchesExporters(t *testing.T) {
	files := map[string]string{
		"keda": export.FileScaledObject, "karpenter": export.FileNodePool, "skypilot": export.FileSkyPilot,
	}
	for name, in := range cases() {
		all, err := export.All(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for ex, fn := range exporters {
			file := files[ex]
			if ex == "kubernetes" {
				file = export.KubernetesFile(in.Spec)
			}
			b, err := fn(in)
			if got, ok := all[file]; (err == nil) != ok || string(got) != string(b) {
				t.Errorf("%s: All()[%s] (present %v) does not match %s (error %v)", name, file, ok, ex, err)
			}
		}
	}
}

// TestReproducible: the same input gives the same bytes (no timestamps, no
// map-order effects).
func TestReproducible(t *testing.T) {
	for name, in := range cases() {
		a, _ := export.All(in)
		for range 5 {
			b, _ := export.All(in)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("%s: second run differs:\n%s", name, diff)
			}
		}
	}
}

func TestHeaderNamesGpupick(t *testing.T) {
	for name, in := range cases() {
		for ex, fn := range exporters {
			b, err := fn(in)
			if err != nil {
				continue
			}
			first, _, _ := strings.Cut(string(b), "\n")
			if !strings.HasPrefix(first, "# ") || !strings.Contains(first, "gpupick") || !strings.Contains(first, in.Spec.Name) {
				t.Errorf("%s/%s: first line %q must be a comment naming gpupick and the workload", name, ex, first)
			}
		}
	}
}

func TestInvalidInputs(t *testing.T) {
	good := cases()["nvidia-inference-aws"]
	tests := []struct {
		name  string
		edit  func(*export.Input)
		field string
	}{
		{"no spec", func(in *export.Input) { in.Spec = nil }, "spec"},
		{"no offers", func(in *export.Input) { in.Offers = nil }, "offers"},
		{"no gpu", func(in *export.Input) { in.GPU = nil }, "gpu"},
		{"wrong gpu", func(in *export.Input) { in.GPU = mi3x }, "gpu"},
		{"unknown vendor", func(in *export.Input) {
			in.GPU = &catalog.Accelerator{ID: "h100-sxm", Vendor: "acme"}
		}, "gpu.vendor"},
		{"negative gpus", func(in *export.Input) { in.GPUsPerReplica = -1 }, "gpus_per_replica"},
		{"min above max", func(in *export.Input) { in.Policy.MinReplicas = 9 }, "policy.min_replicas"},
		{"no target", func(in *export.Input) { in.Policy.Target = 0 }, "policy.target"},
		{"bad kind", func(in *export.Input) { in.Policy.Kind = "magic" }, "policy.kind"},
		{"bad metric", func(in *export.Input) { in.Policy.Metric = "gpu_util" }, "policy.metric"},
		{"window too long", func(in *export.Input) { in.Policy.StabilizationDownS = 7200 }, "policy.stabilization_s"},
		{"no image known", func(in *export.Input) {
			s := *in.Spec
			s.Stack.Framework = workload.FrameworkJAX
			in.Spec = &s
		}, "image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good
			tt.edit(&in)
			for ex, fn := range exporters {
				_, err := fn(in)
				var ae *apperr.Error
				if !errors.As(err, &ae) || ae.Code != apperr.Invalid || ae.Field != tt.field {
					t.Errorf("%s: got %v, want an invalid error on %s", ex, err, tt.field)
				}
			}
		})
	}
}

func TestKarpenterRejectsOtherClouds(t *testing.T) {
	in := cases()["training-lambda"]
	_, err := export.Karpenter(in)
	if apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "lambda") {
		t.Fatalf("got %v, want an invalid error naming lambda", err)
	}
}

func TestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"llama3-70b-chat", "llama3-70b-chat"},
		{"Llama 3.1 70B chat", "llama-3-1-70b-chat"},
		{"  --My_Model!!  ", "my-model"},
		{"70b", "w-70b"},
		{"", "workload"},
		{"日本語", "workload"},
		{"Ünïcode-näme", "n-code-n-me"},
		{strings.Repeat("a", 70), strings.Repeat("a", 63)},
		{strings.Repeat("a", 62) + "-b", strings.Repeat("a", 62)},
	}
	for _, tt := range tests {
		if got := export.Name(tt.in); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

var dns1035 = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

func FuzzName(f *testing.F) {
	for _, s := range []string{"", "a", "Llama 3.1 70B", "9lives", "--x--", strings.Repeat("ab-", 40), "é", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := export.Name(s)
		if len(n) > 63 || !dns1035.MatchString(n) {
			t.Fatalf("Name(%q) = %q: not a DNS-1035 label", s, n)
		}
		if again := export.Name(n); again != n {
			t.Fatalf("Name not idempotent: %q -> %q -> %q", s, n, again)
		}
	})
}

func TestFixedPolicy(t *testing.T) {
	in := cases()["nvidia-inference-aws"]
	in.Policy = export.Policy{MaxReplicas: 3}
	if _, err := export.KEDA(in); apperr.CodeOf(err) != apperr.Invalid {
		t.Errorf("KEDA with a fixed policy: got %v, want an invalid error", err)
	}
	b, err := export.Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\n  replicas: 3\n") {
		t.Errorf("a fixed fleet of 3 must run 3 replicas:\n%s", b)
	}
	files, err := export.All(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files[export.FileScaledObject]; ok {
		t.Error("All wrote a ScaledObject for a fixed policy")
	}
	if !strings.Contains(string(files[export.FileReadme]), "a fixed policy needs no ScaledObject") {
		t.Error("README.md does not say why the ScaledObject was left out")
	}
}

// TestServeFlagsCarryThePlan: the server's command line carries the weight
// and KV formats the plan was priced with, the same on Kubernetes and
// SkyPilot; a format that needs a pre-quantised checkpoint is said.
func TestServeFlagsCarryThePlan(t *testing.T) {
	for _, tc := range []struct {
		fw      workload.Framework
		w, kv   workload.Precision
		want    []string
		warning string
	}{
		{workload.FrameworkVLLM, workload.FP8, workload.FP8, []string{"--quantization fp8", "--kv-cache-dtype fp8", "--tensor-parallel-size 4"}, ""},
		{workload.FrameworkVLLM, workload.BF16, workload.BF16, []string{"--tensor-parallel-size 4"}, ""},
		{workload.FrameworkVLLM, workload.INT4, workload.FP16, []string{"--tensor-parallel-size 4"}, "already quantised"},
		{workload.FrameworkSGLang, workload.FP8, workload.FP8, []string{"--quantization fp8", "--kv-cache-dtype fp8_e5m2", "--tp 4"}, ""},
		{workload.FrameworkTGI, workload.FP8, workload.FP8, []string{"--quantize fp8", "--num-shard 4"}, ""},
	} {
		in := cases()["nvidia-inference-aws"]
		spec := *in.Spec
		spec.Stack.Framework = tc.fw
		spec.Inference = &workload.Inference{WeightPrecision: tc.w, KVPrecision: tc.kv}
		in.Spec = &spec
		k8s, err := export.Kubernetes(in)
		if err != nil {
			t.Fatal(err)
		}
		sky, err := export.SkyPilot(in)
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(string(k8s), "- ", " "), "\"", "")), " ")
		for _, w := range tc.want {
			if !strings.Contains(flat, w) || !strings.Contains(string(sky), w) {
				t.Errorf("%s with %s weights, %s KV: %q missing (k8s has it: %v, skypilot: %v)", tc.fw, tc.w, tc.kv, w, strings.Contains(flat, w), strings.Contains(string(sky), w))
			}
		}
		if tc.warning != "" && (!strings.Contains(string(k8s), tc.warning) || !strings.Contains(string(sky), tc.warning)) {
			t.Errorf("%s with %s weights: no %q note", tc.fw, tc.w, tc.warning)
		}
	}
}
