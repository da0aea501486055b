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
