package export

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/apperr"
)

// Time-slicing: the NVIDIA device plugin, configured with
// sharing.timeSlicing.resources[].replicas: k, advertises each GPU k times
// as nvidia.com/gpu; pods that land on one GPU take turns on all of it,
// with no memory or fault isolation (NVIDIA GPU Operator, "Time-Slicing
// GPUs in Kubernetes").

// timeSlicingConfigName is the ConfigMap TimeSlicingConfig writes and the
// GPU Operator's ClusterPolicy names; timeSlicingNamespace is the GPU
// Operator's namespace.
const (
	timeSlicingConfigName = "time-slicing-config"
	timeSlicingNamespace  = "gpu-operator"
	timeSlicingAnnotation = "gpupick.dev/gpu-sharing"
	// FileTimeSlicing is the ConfigMap of a time-sliced plan, in All.
	FileTimeSlicing = "time-slicing-config.yaml"
)

// timeSliced says whether the plan's replicas are time-sliced shares of
// an NVIDIA GPU.
func (r *resolved) timeSliced() bool {
	return r.TimeSliced >= 2 && r.MIGProfile == "" && r.GPU.Vendor == "nvidia"
}

// timeSlicingNote says the sharing in one line: the pod annotation and a
// header line.
func (r *resolved) timeSlicingNote() string {
	return fmt.Sprintf("time-sliced: %d replicas to a GPU, nvidia.com/gpu shared through the device plugin ConfigMap %s/%s (sharing.timeSlicing.resources[].replicas: %d)",
		r.TimeSliced, timeSlicingNamespace, timeSlicingConfigName, r.TimeSliced)
}

// TimeSlicingConfig returns the NVIDIA device plugin's ConfigMap for a
// time-sliced plan (Input.TimeSliced >= 2 on an NVIDIA GPU): every GPU of
// the nodes it is applied to is advertised TimeSliced times. An input
// that is not time-sliced is apperr.Invalid.
func TimeSlicingConfig(in Input) ([]byte, error) {
	r, err := resolve(in)
	if err != nil {
		return nil, err
	}
	if !r.timeSliced() {
		return nil, apperr.Invalidf("time_sliced", "the plan does not time-slice an NVIDIA GPU: no device plugin ConfigMap is needed")
	}
	config := fmt.Sprintf("version: v1\nflags:\n  migStrategy: none\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: %d\n", r.TimeSliced)
	cm := configMap{
		APIVersion: "v1", Kind: "ConfigMap",
		Metadata: configMapMeta{Name: timeSlicingConfigName, Namespace: timeSlicingNamespace,
			Labels: map[string]string{"app.kubernetes.io/managed-by": "gpupick"}},
		Data: map[string]string{"any": config},
	}
	header := append(r.header("NVIDIA device plugin time-slicing ConfigMap"),
		fmt.Sprintf("Each GPU is advertised %d times as nvidia.com/gpu; the pods on one GPU take turns on it, with no memory or fault isolation.", r.TimeSliced),
		fmt.Sprintf("Apply: kubectl create -n %s -f %s", timeSlicingNamespace, FileTimeSlicing),
		fmt.Sprintf(`then: kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{"spec": {"devicePlugin": {"config": {"name": "%s", "default": "any"}}}}'`, timeSlicingConfigName),
		"Source: https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-sharing.html")
	return render(doc{header: header, value: cm})
}

// configMap is a core/v1 ConfigMap: metadata and data, no spec.
type configMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   configMapMeta     `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

type configMapMeta struct {
	Name      string            `yaml:"name"`
	Namespace string            `yaml:"namespace"`
	Labels    map[string]string `yaml:"labels,omitempty"`
}
