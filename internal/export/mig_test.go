package export_test

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/export"
)

// A plan on MIG slices requests one MIG instance per pod under the device
// plugin's mixed-strategy resource name, and no whole GPU.
func TestKubernetesMIG(t *testing.T) {
	in := cases()["nvidia-inference-aws"]
	in.MIGProfile, in.MIGPerGPU, in.GPUsPerReplica = "1g.10gb", 7, 1
	b, err := export.Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	y := string(b)
	if strings.Count(y, "nvidia.com/mig-1g.10gb: \"1\"")+strings.Count(y, "nvidia.com/mig-1g.10gb: 1") != 2 {
		t.Errorf("want nvidia.com/mig-1g.10gb: 1 in requests and limits:\n%s", y)
	}
	if strings.Contains(y, "nvidia.com/gpu:") {
		t.Errorf("a MIG pod must not request whole GPUs:\n%s", y)
	}
	// 192 vCPUs over 8 GPUs x 7 slices: a pod's share is a fifty-sixth.
	if !strings.Contains(y, "cpu: \"2\"") && !strings.Contains(y, "cpu: 2") {
		t.Errorf("want the pod's CPU share of one slice (2 of 192 vCPUs):\n%s", y)
	}
}
