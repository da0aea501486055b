package export_test

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/export"
)

// A time-sliced plan requests one nvidia.com/gpu per pod, names the
// device plugin's time-slicing config, and All writes that ConfigMap; a
// plan that is not time-sliced gets no ConfigMap.
func TestKubernetesTimeSliced(t *testing.T) {
	in := cases()["nvidia-inference-aws"]
	in.TimeSliced, in.GPUsPerReplica = 4, 1
	b, err := export.Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	y := string(b)
	if strings.Count(y, "nvidia.com/gpu: \"1\"") != 2 {
		t.Errorf("want nvidia.com/gpu: 1 in requests and limits:\n%s", y)
	}
	if strings.Contains(y, "nvidia.com/mig-") {
		t.Errorf("a time-sliced pod requests no MIG resource:\n%s", y)
	}
	if !strings.Contains(y, "gpupick.dev/gpu-sharing") || !strings.Contains(y, "sharing.timeSlicing.resources[].replicas: 4") {
		t.Errorf("want the annotation naming the time-slicing config:\n%s", y)
	}
	files, err := export.All(in)
	if err != nil {
		t.Fatal(err)
	}
	cm, ok := files[export.FileTimeSlicing]
	if !ok {
		t.Fatalf("All wrote no %s: %v", export.FileTimeSlicing, keys(files))
	}
	for _, want := range []string{"kind: ConfigMap", "timeSlicing:", "name: nvidia.com/gpu", "replicas: 4", "namespace: gpu-operator"} {
		if !strings.Contains(string(cm), want) {
			t.Errorf("ConfigMap lacks %q:\n%s", want, cm)
		}
	}
	if !strings.Contains(string(files[export.FileReadme]), export.FileTimeSlicing) {
		t.Errorf("README does not list %s:\n%s", export.FileTimeSlicing, files[export.FileReadme])
	}
	plain := cases()["nvidia-inference-aws"]
	files, err = export.All(plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files[export.FileTimeSlicing]; ok {
		t.Error("a whole-GPU plan got a time-slicing ConfigMap")
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
