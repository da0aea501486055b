// Package export writes the documents that run a recommendation: a
// Kubernetes Deployment (a Job for training) that requests the accelerators,
// a KEDA ScaledObject carrying the autoscaling policy, a Karpenter NodePool
// pinned to the chosen instance types and capacity types, and a SkyPilot task
// whose resources.ordered list is the ranked offers, best first. Every list
// of candidates holds one software family (Family): an image runs on one.
// The candidates of the other families (Input.Others) get SkyPilot tasks of
// their own (Files), and the documents say where each family went.
//
// Every document is written from small structs of this package (importing
// the projects' Go types costs tens of megabytes), is golden-tested, and the
// ScaledObject and NodePool are validated in tests against the CRD schemas
// KEDA and Karpenter publish. The package does no I/O: each exporter takes an
// Input and returns the bytes of one YAML file. Outputs carry no timestamps,
// so the same input always gives the same bytes.
package export

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// Input is what every exporter needs; the CLI fills it from the workload,
// the recommendation and an optional policy. Zero fields take the defaults
// documented on each; exporters never modify Input.
type Input struct {
	// Name is the DNS-1123 label used for every object; empty derives it from
	// Spec.Name. It is always passed through Name, so any text is accepted.
	Name string
	// Spec is the validated workload (required).
	Spec *workload.Spec
	// Offers are the ranked candidates, best first (at least one).
	// Offers[0] is the chosen one.
	Offers []*catalog.Offer
	// GPU is the accelerator of Offers[0] (required; its ID must match
	// Offers[0].GPU).
	GPU *catalog.Accelerator
	// GPUsPerReplica is the accelerators each pod (each SkyPilot cluster)
	// uses, e.g. the tensor-parallel degree; 0 means all of Offers[0].
	GPUsPerReplica int
	// Capacity lists the capacity types to allow, in order of preference:
	// catalog.OnDemand and/or catalog.Spot. Monthly and reserved terms are
	// billing arrangements on on-demand capacity and count as on-demand.
	// Empty means on-demand.
	Capacity []catalog.Mode
	// Image is the container image; empty picks a default per framework and
	// vendor (see DefaultImage), which the documents state.
	Image string
	// Policy is the autoscaling policy for services; the zero value is a
	// fixed fleet of one replica.
	Policy Policy
	// Plan is the fleet the recommendation priced, in one sentence; the
	// documents state it so that what is deployed can be checked against
	// what was priced.
	Plan string
	// MIGProfile, when set (e.g. "1g.10gb"), puts each replica on one MIG
	// instance of that profile: the pod requests nvidia.com/mig-<profile>
	// (the device plugin's mixed strategy) instead of whole GPUs, and
	// MIGPerGPU of them share one GPU's part of the node's CPU and memory.
	MIGProfile string
	MIGPerGPU  int
	// TimeSliced, when 2 or more, puts each replica on one of that many
	// time-sliced shares of a GPU (the NVIDIA device plugin's
	// sharing.timeSlicing with replicas: TimeSliced): the pod requests
	// nvidia.com/gpu: 1, which the plugin so configured hands out
	// TimeSliced times per GPU (TimeSlicingConfig writes its ConfigMap),
	// and that many pods share one GPU's part of the node's CPU and memory.
	TimeSliced int
	// Shards, for an offline image-generation job, is the pods its images
	// are split over (an Indexed Job of Shards completions, each pod on
	// GPUsPerReplica accelerators rendering its share); 0 is one pod.
	Shards int
	// Others are the ranked candidates of the other software families
	// (see Family), one Input per family in the rank order of each
	// family's best offer. Offers holds one family only: an image runs on
	// one. Each Other is complete (its own GPU, plan, policy and, when
	// Image is empty, its family's default image) and has no Others of
	// its own. SkyPilot writes each one's task to a file of its own
	// (SkyPilotFile); the Kubernetes objects and the NodePool name them as
	// left out.
	Others []Input
}

// Policy is an autoscaling policy as the simulator describes it.
// Times are in seconds because that is the unit every target format uses.
type Policy struct {
	// Kind is fixed, target, knative, serverless or mixed. Empty is fixed
	// when MaxReplicas is 0 or equals MinReplicas or Target is 0, else
	// target. A fixed fleet runs MaxReplicas replicas.
	Kind string
	// MinReplicas and MaxReplicas bound the replica count; 0 ≤ Min ≤ Max.
	// A zero Max means Min (at least 1).
	MinReplicas, MaxReplicas int
	// Metric is queue_length (requests waiting) or in_flight (requests
	// being served); empty is queue_length.
	Metric string
	// Target is the metric value per replica the autoscaler aims at (> 0
	// for every kind but fixed).
	Target float64
	// PollingIntervalS is how often KEDA reads the metric; 0 is KEDA's 30.
	PollingIntervalS int
	// CooldownS is the wait after the last activity before scaling 1 → 0;
	// 0 is KEDA's 300.
	CooldownS int
	// StabilizationUpS and StabilizationDownS are the HPA stabilisation
	// windows (0–3600). Zero up is the HPA default (0); zero down is the HPA
	// default (300).
	StabilizationUpS, StabilizationDownS int
	// PrometheusAddress is the Prometheus base URL KEDA queries; empty is
	// DefaultPrometheus.
	PrometheusAddress string
	// Query is the PromQL query for Metric, summed over the service's pods;
	// empty derives it from the framework's published metric names.
	Query string
}

// Policy kinds.
const (
	PolicyFixed      = "fixed"
	PolicyTarget     = "target"
	PolicyKnative    = "knative"
	PolicyServerless = "serverless"
	PolicyMixed      = "mixed"
)

// Metric names.
const (
	MetricQueueLength = "queue_length"
	MetricInFlight    = "in_flight"
)

// Defaults taken from the KEDA ScaledObject reference and the Kubernetes HPA
// behaviour defaults (../shared/reference/autoscale-compliance.md §1.1).
const (
	kedaPollingIntervalS  = 30
	kedaCooldownS         = 300
	hpaStabilizationDownS = 300
	hpaMaxStabilizationS  = 3600
	// DefaultPrometheus is the in-cluster address of a Prometheus installed
	// by the Prometheus Operator (kube-prometheus) in namespace monitoring.
	DefaultPrometheus = "http://prometheus-operated.monitoring.svc:9090"
)

// servingPort is the port every serving container listens on.
const servingPort = 8000

// maxLabel is the longest DNS-1123 label.
const maxLabel = 63

// Name turns any text into a DNS-1123 label that is also a valid
// DNS-1035 label (Service names must start with a letter): lower case,
// letters, digits and '-', starting with a letter, ending with a letter or
// digit, at most 63 characters. Runs of other characters become one '-'.
// Empty or symbol-only text gives "workload". Name is idempotent.
func Name(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	out := b.String()
	if out == "" {
		return "workload"
	}
	if out[0] >= '0' && out[0] <= '9' {
		out = "w-" + out
	}
	if len(out) > maxLabel {
		out = strings.TrimRight(out[:maxLabel], "-")
	}
	return out
}

// resolved is Input checked and with its defaults filled.
type resolved struct {
	Input
	chosen   *catalog.Offer
	vendor   string
	resource string // Kubernetes extended resource name of the accelerator
	modes    []string
	policy   Policy
	service  bool // a long-running server (Deployment + Service), not a job
	// imageDefaulted is true when Image was empty and DefaultImage chose it.
	imageDefaulted bool
	// imageRequired is true when Image was empty and gpupick ships no
	// server for the framework: Image is ImageRequired, for the user to set.
	imageRequired bool
}

// resolve checks in and fills its defaults. Errors are apperr.Invalid and
// name the Input field.
func resolve(in Input) (*resolved, error) {
	if in.Spec == nil {
		return nil, apperr.Invalidf("spec", "no workload")
	}
	if len(in.Offers) == 0 || in.Offers[0] == nil {
		return nil, apperr.Invalidf("offers", "no offer to export")
	}
	for i, o := range in.Offers {
		if o == nil {
			return nil, apperr.Invalidf(fmt.Sprintf("offers[%d]", i), "nil offer")
		}
	}
	r := &resolved{Input: in, chosen: in.Offers[0]}
	if in.GPU == nil {
		return nil, apperr.Invalidf("gpu", "no accelerator for offer %s", r.chosen.ID())
	}
	if in.GPU.ID != r.chosen.GPU {
		return nil, apperr.Invalidf("gpu", "accelerator %s is not the %s of offer %s", in.GPU.ID, r.chosen.GPU, r.chosen.ID())
	}
	if r.chosen.GPUCount < 1 {
		return nil, apperr.Invalidf("offers[0].gpu_count", "offer %s has no accelerators", r.chosen.ID())
	}
	r.Name = Name(in.Name)
	if in.Name == "" {
		r.Name = Name(in.Spec.Name)
	}
	switch {
	case in.GPUsPerReplica < 0:
		return nil, apperr.Invalidf("gpus_per_replica", "must not be negative, got %d", in.GPUsPerReplica)
	case in.GPUsPerReplica == 0:
		r.GPUsPerReplica = r.chosen.GPUCount
	}
	r.vendor = strings.ToLower(in.GPU.Vendor)
	res, ok := resourceNames[r.vendor]
	if !ok {
		return nil, apperr.Invalidf("gpu.vendor", "no Kubernetes device-plugin resource known for vendor %q of %s", in.GPU.Vendor, in.GPU.ID)
	}
	r.resource = res
	for _, m := range in.Capacity {
		name := "on-demand"
		if m == catalog.Spot {
			name = "spot"
		} else if m < 0 || m >= catalog.NumModes {
			return nil, apperr.Invalidf("capacity", "unknown pricing mode %d", m)
		}
		if !slices.Contains(r.modes, name) {
			r.modes = append(r.modes, name)
		}
	}
	if len(r.modes) == 0 {
		r.modes = []string{"on-demand"}
	}
	r.service = IsService(in.Spec)
	if in.Shards < 0 {
		return nil, apperr.Invalidf("shards", "must not be negative, got %d", in.Shards)
	}
	p, err := resolvePolicy(in.Policy)
	if err != nil {
		return nil, err
	}
	r.policy = p
	if r.Image == "" && in.Spec.Kind == workload.KindImageGeneration {
		r.Image, r.imageDefaulted = imageGenImage(in.Spec, r.vendor, r.service)
		r.imageRequired = !r.imageDefaulted
	}
	if r.Image == "" {
		img, ok := DefaultImage(in.Spec.Stack.Framework, r.vendor)
		if !ok {
			fam, f := r.family(), frameworkOf(in.Spec)
			return nil, apperr.Invalidf("image", "no default image for %s on the %s family; give one: %s", f, fam.Label(), imageHint(f, fam))
		}
		r.Image = img
		r.imageDefaulted = true
	}
	return r, nil
}

func resolvePolicy(p Policy) (Policy, error) {
	if p.MinReplicas < 0 || p.MaxReplicas < 0 {
		return p, apperr.Invalidf("policy.min_replicas", "replica counts must not be negative (min %d, max %d)", p.MinReplicas, p.MaxReplicas)
	}
	if p.MaxReplicas == 0 {
		p.MaxReplicas = max(p.MinReplicas, 1)
	}
	if p.MinReplicas > p.MaxReplicas {
		return p, apperr.Invalidf("policy.min_replicas", "min %d exceeds max %d", p.MinReplicas, p.MaxReplicas)
	}
	if p.Kind == "" {
		p.Kind = PolicyTarget
		if p.MinReplicas == p.MaxReplicas || p.Target == 0 {
			p.Kind = PolicyFixed
		}
	}
	switch p.Kind {
	case PolicyFixed:
		// A fixed fleet runs MaxReplicas (which defaults to MinReplicas).
		p.MinReplicas = p.MaxReplicas
	case PolicyTarget, PolicyKnative, PolicyServerless, PolicyMixed:
		if !(p.Target > 0) {
			return p, apperr.Invalidf("policy.target", "a %s policy needs a target above 0, got %g", p.Kind, p.Target)
		}
	default:
		return p, apperr.Invalidf("policy.kind", "unknown policy kind %q (want fixed, target, knative, serverless or mixed)", p.Kind)
	}
	if p.Metric == "" {
		p.Metric = MetricQueueLength
	}
	if p.Metric != MetricQueueLength && p.Metric != MetricInFlight {
		return p, apperr.Invalidf("policy.metric", "unknown metric %q (want queue_length or in_flight)", p.Metric)
	}
	if p.PollingIntervalS < 0 || p.CooldownS < 0 {
		return p, apperr.Invalidf("policy.polling_interval_s", "times must not be negative")
	}
	if p.PollingIntervalS == 0 {
		p.PollingIntervalS = kedaPollingIntervalS
	}
	if p.CooldownS == 0 {
		p.CooldownS = kedaCooldownS
	}
	if p.StabilizationDownS == 0 {
		p.StabilizationDownS = hpaStabilizationDownS
	}
	for _, w := range []int{p.StabilizationUpS, p.StabilizationDownS} {
		if w < 0 || w > hpaMaxStabilizationS {
			return p, apperr.Invalidf("policy.stabilization_s", "HPA stabilisation windows are 0–%d s, got %d", hpaMaxStabilizationS, w)
		}
	}
	if p.PrometheusAddress == "" {
		p.PrometheusAddress = DefaultPrometheus
	}
	return p, nil
}

// resourceNames maps accelerator vendors to the extended resource their
// Kubernetes device plugin advertises. Sources (documentation of each plugin):
//   - nvidia.com/gpu: kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus
//     (NVIDIA/k8s-device-plugin).
//   - amd.com/gpu: instinct.docs.amd.com/projects/k8s-device-plugin ("Exposes
//     AMD GPUs as amd.com/gpu resources"), ROCm/k8s-device-plugin.
//   - habana.ai/gaudi: docs.habana.ai, Intel Gaudi Base Operator DaemonSets
//     ("exposes them to kubelet as a resource ... as habana.ai/gaudi").
//   - google.com/tpu: cloud.google.com/kubernetes-engine/docs/how-to/tpus
//     (GKE also needs nodeSelectors for the TPU version and topology).
//   - aws.amazon.com/neuron: awsdocs-neuron.readthedocs-hosted.com,
//     k8s-neuron-device-plugin (whole Neuron devices; neuroncore for cores).
//   - huawei.com/Ascend910: hiascend.com MindCluster Ascend Device Plugin
//     (910 and 910B chips are requested as huawei.com/Ascend910).
var resourceNames = map[string]string{
	"nvidia": "nvidia.com/gpu",
	"amd":    "amd.com/gpu",
	"intel":  "habana.ai/gaudi",
	"google": "google.com/tpu",
	"aws":    "aws.amazon.com/neuron",
	"huawei": "huawei.com/Ascend910",
}

// ResourceName returns the Kubernetes extended resource that the device
// plugin of vendor (nvidia, amd, intel, google, aws, huawei) advertises.
func ResourceName(vendor string) (string, bool) {
	r, ok := resourceNames[strings.ToLower(vendor)]
	return r, ok
}

// images are the default container images, by framework and vendor (one
// vendor is one software family, see Family). Tags that move (latest) are
// marked in the documents as ones to pin. Where a family has no row, the
// refusal says what to give (imageHint).
//
// vllm/vllm-tpu is vLLM's release image for Cloud TPUs (vLLM with the
// tpu-inference plugin): "Run with Docker", docs.vllm.ai/projects/tpu
// getting_started/installation, github.com/vllm-project/tpu-inference@b8692ff
// docs/mkdocs/javascripts/interactive.js, 2026-08-22 (also in
// docs/getting_started/installation.md since @0a376ae, 2025-10-28). GKE
// pods run it; SkyPilot runs no container on a TPU VM and installs the
// same release with pip install vllm-tpu (the page's "Install using pip").
var images = map[workload.Framework]map[string]string{
	workload.FrameworkVLLM: {
		"nvidia": "vllm/vllm-openai:latest",
		"amd":    "rocm/vllm:latest",
		"google": "vllm/vllm-tpu:latest",
	},
	workload.FrameworkTGI: {
		"nvidia": "ghcr.io/huggingface/text-generation-inference:latest",
		"amd":    "ghcr.io/huggingface/text-generation-inference:latest-rocm",
		"intel":  "ghcr.io/huggingface/tgi-gaudi:latest",
	},
	workload.FrameworkSGLang: {
		"nvidia": "lmsysorg/sglang:latest",
	},
	workload.FrameworkTensorRTLLM: {
		"nvidia": "nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3",
	},
	workload.FrameworkPyTorch: {
		"nvidia": "nvcr.io/nvidia/pytorch:25.01-py3",
		"amd":    "rocm/pytorch:latest",
	},
}

// torchStacks run on the PyTorch image.
var torchStacks = []workload.Framework{workload.FrameworkPyTorch, workload.FrameworkTorchTitan,
	workload.FrameworkDeepSpeed, workload.FrameworkMegatron, workload.FrameworkLLMFoundry}

// DefaultImage returns the image gpupick uses for framework on vendor's
// accelerators when none is given: vLLM, TGI, SGLang, TensorRT-LLM (Triton)
// and PyTorch (also for TorchTitan, DeepSpeed, Megatron and LLM Foundry).
// ok is false where gpupick knows no image (JAX, TensorFlow, other, and
// vendors without a published image for the framework); the caller must then
// give one.
func DefaultImage(f workload.Framework, vendor string) (string, bool) {
	if slices.Contains(torchStacks, f) {
		f = workload.FrameworkPyTorch
	}
	img, ok := images[f][strings.ToLower(vendor)]
	return img, ok
}

func frameworkOf(s *workload.Spec) workload.Framework {
	if s.Stack.Framework == "" {
		return workload.FrameworkOther
	}
	return s.Stack.Framework
}

// labelValue matches a valid Kubernetes label value (at most 63 characters,
// checked apart). Instance types that are not valid label values, such as
// names with spaces, cannot appear in node selectors.
var labelValue = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)

func isLabelValue(s string) bool { return len(s) <= maxLabel && labelValue.MatchString(s) }

var hfRepo = regexp.MustCompile(`huggingface\.co/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)`)

// model returns the checkpoint to serve or train and whether gpupick derived
// it (from the preset's cited Hugging Face repository) rather than guessed.
func model(s *workload.Spec) (string, bool) {
	if s.Model == nil || s.Model.Preset == "" {
		return "your-org/your-model", false
	}
	if p, ok := workload.LookupPreset(s.Model.Preset); ok {
		if m := hfRepo.FindStringSubmatch(p.Source); m != nil {
			return strings.TrimSuffix(m[1], "."), true
		}
	}
	return s.Model.Preset, false
}

// header is the first comment of every document: what wrote it and from what.
func (r *resolved) header(what string) []string {
	o := r.chosen
	perNode := strconv.Itoa(o.GPUCount)
	if o.GPUFraction > 0 { // a slice of one GPU: "1/2 x a10g per node", not "1 x"
		perNode = catalog.FractionString(o.GPUFraction)
	}
	lines := []string{
		fmt.Sprintf("%s generated by gpupick (github.com/gpupick/gpupick) from workload %q (%s, %s)", what, r.Spec.Name, r.Spec.Kind, frameworkOf(r.Spec)),
		fmt.Sprintf("and offer %s in %s: %s x %s per node, %d per replica.", o.ID(), o.Region, perNode, r.GPU.ID, r.GPUsPerReplica),
		"Re-run `gpupick export` rather than editing by hand.",
	}
	if r.Plan != "" {
		lines = append(lines, "Priced plan: "+r.Plan+".")
	}
	if l, ok := r.serveLine("MODEL", r.GPUsPerReplica); ok && r.service && l.Note != "" {
		lines = append(lines, l.Note+".")
	}
	return lines
}

// pinned says whether the image tag is fixed (not latest).
func pinned(image string) bool {
	i := strings.LastIndex(image, ":")
	return i > strings.LastIndex(image, "/") && !strings.HasPrefix(image[i+1:], "latest")
}

func (r *resolved) imageNote() string {
	if r.imageRequired {
		return fmt.Sprintf("Image %s is a required value, not an image: gpupick ships no %s for %s; set image: (and command: unless its entrypoint %s), or pass --image.",
			r.Image, map[bool]string{true: "image-generation server", false: "image renderer"}[r.service], frameworkOf(r.Spec),
			map[bool]string{true: fmt.Sprintf("serves HTTP on port %d", servingPort), false: "renders this pod's share of the images"}[r.service])
	}
	src := "given"
	if r.imageDefaulted {
		src = fmt.Sprintf("gpupick's default for %s on %s", frameworkOf(r.Spec), r.vendor)
	}
	note := fmt.Sprintf("Image %s (%s)", r.Image, src)
	if !pinned(r.Image) {
		note += "; pin a tag you have tested"
	}
	return note + "."
}

// modelNote says where MODEL comes from.
func (r *resolved) modelNote() string {
	m, derived := model(r.Spec)
	if derived {
		return fmt.Sprintf("MODEL is the checkpoint preset %s cites (%s); set the one you run (an instruct variant, a fine-tune).", r.Spec.Model.Preset, m)
	}
	return fmt.Sprintf("MODEL (%s) is a placeholder: set the checkpoint you run.", m)
}

// ceilDiv returns ⌈a/b⌉ for positive b.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
