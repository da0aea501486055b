package export_test

import (
	"fmt"
	"sort"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/workload"
)

func ExampleName() {
	fmt.Println(export.Name("Llama 3.1 70B chat"))
	fmt.Println(export.Name("70b_service"))
	// Output:
	// llama-3-1-70b-chat
	// w-70b-service
}

func ExampleAll() {
	o := &catalog.Offer{Provider: "aws", InstanceType: "p5.48xlarge", Region: "us-east-1", GPU: "h100-sxm", GPUCount: 8, VCPUs: 192, RAMGiB: 2048}
	files, err := export.All(export.Input{
		Spec: &workload.Spec{Name: "chat", Kind: workload.KindLLMInference,
			Model: &workload.Model{Preset: "llama-3.1-70b"}, Stack: workload.Stack{Framework: workload.FrameworkVLLM}},
		Offers: []*catalog.Offer{o},
		GPU:    &catalog.Accelerator{ID: "h100-sxm", Vendor: "nvidia"},
		Policy: export.Policy{MinReplicas: 1, MaxReplicas: 4, Target: 8},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var names []string
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	fmt.Println(names)
	// Output:
	// [README.md deployment.yaml nodepool.yaml scaledobject.yaml skypilot.yaml]
}

// ExampleFiles: a TPU first and an H100 after it are two software
// families, so two SkyPilot tasks, and a note that says where the H100
// went.
func ExampleFiles() {
	chat := &workload.Spec{Name: "chat", Kind: workload.KindLLMInference,
		Model: &workload.Model{Preset: "llama-3-8b"}, Stack: workload.Stack{Framework: workload.FrameworkVLLM}}
	tpu := &catalog.Offer{Provider: "gcp", InstanceType: "tpu-v6e-1", Region: "europe-west4", GPU: "tpu-v6e", GPUCount: 1}
	h100 := &catalog.Offer{Provider: "gcp", InstanceType: "a3-highgpu-1g", Region: "europe-west4", GPU: "h100-sxm", GPUCount: 1}
	in := export.Input{Spec: chat, Offers: []*catalog.Offer{tpu}, GPU: &catalog.Accelerator{ID: "tpu-v6e", Vendor: "google"},
		Others: []export.Input{{Spec: chat, Offers: []*catalog.Offer{h100}, GPU: &catalog.Accelerator{ID: "h100-sxm", Vendor: "nvidia"}}}}
	files, err := export.Files("skypilot", in)
	if err != nil {
		fmt.Println(err)
		return
	}
	var names []string
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	fmt.Println(names)
	fmt.Println(export.Notes("skypilot", in)[0])
	// Output:
	// [skypilot-cuda.yaml skypilot.yaml]
	// The CUDA (NVIDIA) candidates (gcp/a3-highgpu-1g@europe-west4) need another image: their failover list is a SkyPilot task of its own, skypilot-cuda.yaml.
}
