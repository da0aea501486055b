package compat_test

import (
	"fmt"
	"os"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/workload"
)

func ExampleMatrix_Check() {
	b, err := os.ReadFile("../../data/compat.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := compat.Parse(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	b200 := &catalog.Accelerator{ID: "b200", Aliases: []string{"B200"}, Vendor: "nvidia", ComputeCapability: "10.0"}
	r := m.Check(workload.Stack{Framework: workload.FrameworkPyTorch, Version: "==2.6+cu124"}, b200, "")
	fmt.Println(r.Verdict)
	fmt.Println(r.MinVersions["pytorch"], r.MinVersions["cuda"], r.MinVersions["driver"])
	// Output:
	// incompatible
	// 2.7 12.8 570.26
}
