package export

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// The Kubernetes objects below carry only the fields gpupick writes, named
// and nested as in the apps/v1, batch/v1 and core/v1 API references.

type object struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       any        `yaml:"spec"`
}

type objectMeta struct {
	Name        string            `yaml:"name,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

type deploymentSpec struct {
	Replicas int           `yaml:"replicas"`
	Selector labelSelector `yaml:"selector"`
	Template podTemplate   `yaml:"template"`
}

type jobSpec struct {
	// CompletionMode Indexed, with Completions and Parallelism, splits an
	// offline image job over pods that each get JOB_COMPLETION_INDEX.
	CompletionMode string      `yaml:"completionMode,omitempty"`
	Completions    int         `yaml:"completions,omitempty"`
	Parallelism    int         `yaml:"parallelism,omitempty"`
	BackoffLimit   int         `yaml:"backoffLimit"`
	Template       podTemplate `yaml:"template"`
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type podTemplate struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     podSpec    `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy string       `yaml:"restartPolicy,omitempty"`
	Affinity      *affinity    `yaml:"affinity,omitempty"`
	Tolerations   []toleration `yaml:"tolerations,omitempty"`
	Containers    []container  `yaml:"containers"`
	Volumes       []volume     `yaml:"volumes,omitempty"`
}

type affinity struct {
	NodeAffinity nodeAffinity `yaml:"nodeAffinity"`
}

type nodeAffinity struct {
	Preferred []preferredTerm `yaml:"preferredDuringSchedulingIgnoredDuringExecution"`
}

type preferredTerm struct {
	Weight     int          `yaml:"weight"`
	Preference selectorTerm `yaml:"preference"`
}

type selectorTerm struct {
	MatchExpressions []requirement `yaml:"matchExpressions"`
}

// requirement is a node selector requirement; Karpenter's NodePool uses the
// same shape with an optional minValues (not written).
type requirement struct {
	Key      string   `yaml:"key"`
	Operator string   `yaml:"operator"`
	Values   []string `yaml:"values,omitempty"`
}

type toleration struct {
	Key      string `yaml:"key"`
	Operator string `yaml:"operator"`
	Effect   string `yaml:"effect"`
}

type container struct {
	Name           string          `yaml:"name"`
	Image          string          `yaml:"image"`
	Command        []string        `yaml:"command,omitempty"`
	Args           []string        `yaml:"args,omitempty"`
	WorkingDir     string          `yaml:"workingDir,omitempty"`
	Env            []envVar        `yaml:"env,omitempty"`
	Ports          []containerPort `yaml:"ports,omitempty"`
	Resources      resources       `yaml:"resources"`
	VolumeMounts   []volumeMount   `yaml:"volumeMounts,omitempty"`
	StartupProbe   *probe          `yaml:"startupProbe,omitempty"`
	ReadinessProbe *probe          `yaml:"readinessProbe,omitempty"`
	// SecurityContext is set by the search Job (non-root, read-only root).
	SecurityContext *securityContext `yaml:"securityContext,omitempty"`
}

type securityContext struct {
	AllowPrivilegeEscalation *bool        `yaml:"allowPrivilegeEscalation"`
	ReadOnlyRootFilesystem   *bool        `yaml:"readOnlyRootFilesystem"`
	Capabilities             capabilities `yaml:"capabilities"`
}

type capabilities struct {
	Drop []string `yaml:"drop"`
}

type envVar struct {
	Name      string        `yaml:"name"`
	Value     string        `yaml:"value,omitempty"`
	ValueFrom *envVarSource `yaml:"valueFrom,omitempty"`
}

type envVarSource struct {
	SecretKeyRef secretKeySelector `yaml:"secretKeyRef"`
}

type secretKeySelector struct {
	Name     string `yaml:"name"`
	Key      string `yaml:"key"`
	Optional bool   `yaml:"optional"`
}

type containerPort struct {
	Name          string `yaml:"name"`
	ContainerPort int    `yaml:"containerPort"`
}

// resources holds quantities as strings ("8", "170Gi"), as kubectl prints them.
type resources struct {
	Requests map[string]string `yaml:"requests,omitempty"`
	Limits   map[string]string `yaml:"limits,omitempty"`
}

type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly,omitempty"`
}

type volume struct {
	Name     string   `yaml:"name"`
	EmptyDir emptyDir `yaml:"emptyDir"`
}

type emptyDir struct {
	Medium string `yaml:"medium,omitempty"`
}

type probe struct {
	HTTPGet          httpGet `yaml:"httpGet"`
	PeriodSeconds    int     `yaml:"periodSeconds"`
	FailureThreshold int     `yaml:"failureThreshold"`
}

type httpGet struct {
	Path string `yaml:"path"`
	Port string `yaml:"port"`
}

type serviceSpec struct {
	Selector map[string]string `yaml:"selector"`
	Ports    []servicePort     `yaml:"ports"`
}

type servicePort struct {
	Name       string `yaml:"name"`
	Port       int    `yaml:"port"`
	TargetPort string `yaml:"targetPort"`
}

// nodeShare is the part of a node's CPU and memory a pod requests: its share
// by accelerators, less 15% for the kubelet, system daemons and eviction
// threshold, so that the pod fits the node's allocatable resources.
const nodeShare = 0.85

// startupBudget is how long a server may take to load its weights before
// Kubernetes restarts it: FailureThreshold × PeriodSeconds = 30 min.
var startupBudget = probe{PeriodSeconds: 10, FailureThreshold: 180}

// Kubernetes returns the workload as Kubernetes objects: for a service
// (llm-inference, image-generation at a request rate) a Deployment and a
// ClusterIP Service on port 80; for training and other batch kinds a Job
// (a Deployment would restart a finished run forever), Indexed over
// Input.Shards pods for an offline image job.
// Each pod requests GPUsPerReplica accelerators under the vendor's device
// plugin resource, tolerates the matching taint, prefers the ranked instance
// types in rank order, and requests its share of the node's CPU and memory.
// A replica larger than one node is rejected: it needs LeaderWorkerSet or a
// Ray cluster, which gpupick does not write (the SkyPilot task handles it).
func Kubernetes(in Input) ([]byte, error) {
	r, err := resolve(in)
	if err != nil {
		return nil, err
	}
	if r.GPUsPerReplica > r.chosen.GPUCount {
		return nil, apperr.Invalidf("gpus_per_replica", "%d accelerators per replica exceed the %d of one %s node: a multi-node replica needs LeaderWorkerSet or a Ray cluster, which gpupick does not export; use the SkyPilot task", r.GPUsPerReplica, r.chosen.GPUCount, r.chosen.InstanceType)
	}
	labels := map[string]string{"app.kubernetes.io/name": r.Name, "app.kubernetes.io/managed-by": "gpupick"}
	selector := map[string]string{"app.kubernetes.io/name": r.Name}
	pod := podTemplate{
		Metadata: objectMeta{Labels: labels},
		Spec: podSpec{
			Affinity:    r.affinity(),
			Tolerations: []toleration{{Key: r.resource, Operator: "Exists", Effect: "NoSchedule"}},
			Containers:  []container{r.container()},
			// Collective libraries (NCCL, RCCL) and tensor-parallel servers
			// need more shared memory than the container runtime's 64 MiB.
			Volumes: []volume{{Name: "dshm", EmptyDir: emptyDir{Medium: "Memory"}}},
		},
	}
	header := append(r.header("Kubernetes objects"), r.imageNote(), r.modelNote())
	header = append(header, msg.Strings(leftOutNotes(r.Others))...)
	comments := map[string]string{
		"spec.template.spec.affinity": "Prefers the ranked instance types, best first; the Karpenter NodePool restricts them.",
	}
	if r.timeSliced() {
		pod.Metadata.Annotations = map[string]string{timeSlicingAnnotation: r.timeSlicingNote()}
		header = append(header, r.timeSlicingNote()+".")
		comments["spec.template.spec.containers"] = fmt.Sprintf("nvidia.com/gpu: 1 is one of %d time-sliced shares of a GPU (sharing.timeSlicing.resources[].replicas: %d in the device plugin's ConfigMap %s): no memory or fault isolation between the pods on one GPU.",
			r.TimeSliced, r.TimeSliced, timeSlicingConfigName)
	}
	if r.imageGen() {
		r.imageComments(comments)
	}
	if r.service {
		replicas := r.policy.MinReplicas
		if r.policy.Kind != PolicyFixed {
			replicas = max(replicas, 1)
			comments["spec.replicas"] = fmt.Sprintf("The KEDA ScaledObject %s scales this between %d and %d.", r.Name, r.policy.MinReplicas, r.policy.MaxReplicas)
		}
		dep := object{
			APIVersion: "apps/v1", Kind: "Deployment",
			Metadata: objectMeta{Name: r.Name, Labels: labels},
			Spec:     deploymentSpec{Replicas: replicas, Selector: labelSelector{MatchLabels: selector}, Template: pod},
		}
		svc := object{
			APIVersion: "v1", Kind: "Service",
			Metadata: objectMeta{Name: r.Name, Labels: labels},
			Spec:     serviceSpec{Selector: selector, Ports: []servicePort{{Name: "http", Port: 80, TargetPort: "http"}}},
		}
		return render(doc{header: header, value: dep, comments: comments}, doc{value: svc})
	}
	pod.Spec.RestartPolicy = "OnFailure"
	job := object{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: objectMeta{Name: r.Name, Labels: labels},
		// Retries cover spot interruptions and node failures; the job must
		// resume from its last checkpoint.
		Spec: jobSpec{BackoffLimit: 6, Template: pod},
	}
	if r.imageGen() {
		n := r.shards()
		job.Spec = jobSpec{CompletionMode: "Indexed", Completions: n, Parallelism: n, BackoffLimit: 6 * n, Template: pod}
		comments["spec.completionMode"] = fmt.Sprintf("The images are split over %d pods of %d accelerator(s) each, as the plan runs them; Kubernetes sets JOB_COMPLETION_INDEX (0 to %d).", n, r.GPUsPerReplica, n-1)
		header = append(header, fmt.Sprintf("An Indexed Job, not a Deployment: %s (%s) is a run that ends; each pod renders its share of the images, and a retried pod skips those already written.", r.Spec.Name, r.Spec.Kind))
		return render(doc{header: header, value: job, comments: comments})
	}
	header = append(header, fmt.Sprintf("A Job, not a Deployment: %s (%s) is a run that ends; resume from checkpoints on retry.", r.Spec.Name, r.Spec.Kind))
	return render(doc{header: header, value: job, comments: comments})
}

// affinity prefers the distinct instance types of the chosen offer's
// provider (a cluster runs on one cloud), weighted by rank: 100 for the
// best, 10 less for each next one, at least 1.
func (r *resolved) affinity() *affinity {
	var terms []preferredTerm
	var seen []string
	for _, o := range r.Offers {
		if o.Provider != r.chosen.Provider || slices.Contains(seen, o.InstanceType) || !isLabelValue(o.InstanceType) {
			continue
		}
		seen = append(seen, o.InstanceType)
		terms = append(terms, preferredTerm{
			Weight:     max(100-10*(len(seen)-1), 1),
			Preference: selectorTerm{MatchExpressions: []requirement{{Key: "node.kubernetes.io/instance-type", Operator: "In", Values: []string{o.InstanceType}}}},
		})
	}
	return &affinity{NodeAffinity: nodeAffinity{Preferred: terms}}
}

func (r *resolved) container() container {
	m, _ := model(r.Spec)
	gpus := strconv.Itoa(r.GPUsPerReplica)
	c := container{
		Name:  r.Name,
		Image: r.Image,
		Env: []envVar{
			{Name: "MODEL", Value: m},
			{Name: "HF_TOKEN", ValueFrom: &envVarSource{SecretKeyRef: secretKeySelector{Name: "hf-token", Key: "token", Optional: true}}},
		},
		Resources:    r.podResources(),
		VolumeMounts: []volumeMount{{Name: "dshm", MountPath: "/dev/shm"}},
	}
	if r.imageGen() {
		r.imageContainer(&c)
		return c
	}
	if !r.service {
		c.Command = trainCommand(r.Spec.Stack.Framework, "--nproc-per-node="+gpus)
		return c
	}
	c.Ports = []containerPort{{Name: "http", ContainerPort: servingPort}}
	port := strconv.Itoa(servingPort)
	health := true
	if l, ok := r.serveLine("$(MODEL)", r.GPUsPerReplica); ok {
		c.Command, c.Args = l.Command, l.Args
	} else {
		// gpupick does not know this server's command line or health path.
		c.Command = []string{"python3", "serve.py", "--port", port}
		health = false
	}
	if health {
		sp, rp := startupBudget, probe{PeriodSeconds: 10, FailureThreshold: 3}
		sp.HTTPGet = httpGet{Path: "/health", Port: "http"}
		rp.HTTPGet = sp.HTTPGet
		c.StartupProbe, c.ReadinessProbe = &sp, &rp
	}
	return c
}

// trainCommand is the launcher of a training run on one node; launcherArgs
// are added to torchrun for the PyTorch stacks.
func trainCommand(f workload.Framework, launcherArgs ...string) []string {
	if slices.Contains(torchStacks, f) {
		return append(append([]string{"torchrun"}, launcherArgs...), "train.py")
	}
	return []string{"python3", "train.py"}
}

// podResources requests the accelerators (limits and requests must be equal
// for extended resources) and the pod's share of the node's CPU and memory.
func (r *resolved) podResources() resources {
	gpus := strconv.Itoa(r.GPUsPerReplica)
	resource := r.resource
	share := float64(r.GPUsPerReplica) / float64(r.chosen.GPUCount)
	switch {
	case r.MIGProfile != "" && r.GPU.Vendor == "nvidia":
		resource, gpus = "nvidia.com/mig-"+strings.TrimPrefix(strings.ToLower(r.MIGProfile), "mig-"), "1"
		share = 1 / float64(r.chosen.GPUCount*max(1, r.MIGPerGPU))
	case r.timeSliced():
		gpus = "1"
		share = 1 / float64(r.chosen.GPUCount*r.TimeSliced)
	}
	req := map[string]string{resource: gpus}
	if r.chosen.VCPUs > 0 {
		req["cpu"] = strconv.Itoa(max(int(math.Floor(nodeShare*share*float64(r.chosen.VCPUs))), 1))
	}
	if r.chosen.RAMGiB > 0 {
		req["memory"] = strconv.Itoa(max(int(math.Floor(nodeShare*share*r.chosen.RAMGiB)), 1)) + "Gi"
	}
	return resources{Requests: req, Limits: map[string]string{resource: gpus}}
}
