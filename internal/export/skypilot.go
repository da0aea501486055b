package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// SkyPilot task fields, as in the SkyPilot YAML reference
// (docs.skypilot.co/en/latest/reference/yaml-spec.html).

type skyTask struct {
	Name      string            `yaml:"name"`
	Workdir   string            `yaml:"workdir,omitempty"`
	NumNodes  int               `yaml:"num_nodes,omitempty"`
	Resources skyResources      `yaml:"resources"`
	Envs      map[string]string `yaml:"envs"`
	Setup     string            `yaml:"setup,omitempty"`
	Run       string            `yaml:"run"`
}

type skyResources struct {
	ImageID string        `yaml:"image_id,omitempty"`
	Ports   int           `yaml:"ports,omitempty"`
	Ordered []skyResource `yaml:"ordered"`
}

type skyResource struct {
	Cloud string `yaml:"cloud"`
	// InstanceType is empty for a TPU VM: SkyPilot names the TPU slice in
	// Accelerators (tpu-v6e-8) and picks its host itself.
	InstanceType string `yaml:"instance_type,omitempty"`
	Region       string `yaml:"region,omitempty"`
	Accelerators string `yaml:"accelerators"`
	UseSpot      bool   `yaml:"use_spot"`
}

// skyClouds maps gpupick provider ids to SkyPilot cloud names. Providers not
// here have no SkyPilot cloud (CoreWeave is reached through Kubernetes).
var skyClouds = map[string]string{
	"aws": "aws", "gcp": "gcp", "azure": "azure", "oci": "oci", "lambda": "lambda",
	"runpod": "runpod", "vastai": "vast", "nebius": "nebius", "fluidstack": "fluidstack",
	"digitalocean": "do", // Paperspace machine types go to "paperspace", see skyCloud
}

// skyGPUs maps accelerator ids to the names `sky show-gpus` lists, where
// they differ from the upper-cased id.
var skyGPUs = map[string]string{
	"h100-sxm": "H100", "h100-pcie": "H100", "h100-nvl": "H100-NVL",
	"a100-80gb": "A100-80GB", "a100-80gb-pcie": "A100-80GB", "a100-40gb": "A100", "a100-40gb-pcie": "A100",
	"v100": "V100-32GB", "v100-16gb": "V100", "v100-pcie": "V100-32GB",
	"rtx-a6000": "A6000", "rtx-6000-ada": "RTX6000-Ada", "rtx-4090": "RTX4090",
	"trainium1": "Trainium", "trainium2": "Trainium2", "inferentia2": "Inferentia2",
}

// skyGPU returns the SkyPilot accelerator name of an accelerator id.
func skyGPU(id string) string {
	if n, ok := skyGPUs[id]; ok {
		return n
	}
	return strings.ToUpper(id)
}

// skyCloud returns the SkyPilot cloud of an offer and whether the region
// name is SkyPilot's too. DigitalOcean's catalog rows include Paperspace
// machine types (names without the "gpu-" prefix), which SkyPilot serves as
// the paperspace cloud with region names of its own.
func skyCloud(o *catalog.Offer) (cloud string, region bool, ok bool) {
	c, ok := skyClouds[o.Provider]
	if !ok {
		return "", false, false
	}
	if o.Provider == "digitalocean" && !strings.HasPrefix(o.InstanceType, "gpu-") {
		return "paperspace", false, true
	}
	return c, true, true
}

// SkyPilot returns a SkyPilot task whose resources.ordered lists the ranked
// offers as failover candidates, best first, one entry per allowed capacity
// type (in Input.Capacity's order; spot only where the offer has a spot
// price). The offers are of one software family; the task names where the
// other families' candidates (Input.Others) went: their own tasks, which
// Files writes, or none and why. Offers on providers SkyPilot does not
// support, or whose nodes cannot hold a replica on num_nodes nodes, are
// left out and named in a comment. setup and run start the framework's
// server on port 8000, or the training entry point with torchrun across the
// nodes. A TPU slice is named by its accelerator (tpu-v6e-8) with no
// instance type, as SkyPilot's TPU VMs take it.
func SkyPilot(in Input) ([]byte, error) {
	tasks, err := skyPilotTasks(in)
	if err != nil {
		return nil, err
	}
	return tasks[0].body, tasks[0].err
}

// skyPilotTask renders the task of one family (in.Others is not read),
// with notes, the sentences on the other families' tasks, in its header.
func skyPilotTask(in Input, notes []string) ([]byte, error) {
	r, err := resolve(in)
	if err != nil {
		return nil, err
	}
	// An offline image job runs its shards on as many nodes as they fill.
	need := r.GPUsPerReplica * r.shards()
	nodes := ceilDiv(need, r.chosen.GPUCount)
	var ordered []skyResource
	var unsupported, small []string
	tpu := r.family() == FamilyTPU
	for _, o := range r.Offers {
		cloud, withRegion, ok := skyCloud(o)
		if !ok {
			if !slices.Contains(unsupported, o.Provider) {
				unsupported = append(unsupported, o.Provider)
			}
			continue
		}
		if o.GPUCount*nodes < need {
			small = append(small, o.Key())
			continue
		}
		for _, m := range r.modes {
			spot := m == "spot"
			if spot && !hasSpot(o) {
				continue
			}
			e := skyResource{Cloud: cloud, InstanceType: o.InstanceType, Accelerators: fmt.Sprintf("%s:%d", skyGPU(o.GPU), o.GPUCount), UseSpot: spot}
			if tpu {
				e.InstanceType, e.Accelerators = "", o.InstanceType
			}
			if withRegion {
				e.Region = o.Region
			}
			if !slices.Contains(ordered, e) {
				ordered = append(ordered, e)
			}
		}
	}
	if len(ordered) == 0 {
		var why []msg.Msg
		if len(unsupported) > 0 {
			why = append(why, msg.New("no SkyPilot cloud for %s", strings.Join(unsupported, ", ")))
		}
		if len(small) > 0 {
			why = append(why, msg.New("fewer than %d accelerators on %d node(s): %s", need, nodes, strings.Join(small, ", ")))
		}
		return nil, apperr.Invalidf("offers", "no offer SkyPilot can launch: %s", msg.Join(msg.Clauses, why))
	}
	m, _ := model(r.Spec)
	task := skyTask{Name: r.Name, Envs: map[string]string{"MODEL": m}, Resources: skyResources{Ordered: ordered}}
	if nodes > 1 {
		task.NumNodes = nodes
	}
	if r.imageGen() {
		r.skyImageCommands(&task)
	} else {
		r.skyCommands(&task)
	}
	if tpu && task.Resources.ImageID != "" {
		return nil, apperr.Invalidf("image", "SkyPilot runs no container image on a TPU VM, and %s on TPUs needs one: deploy it on GKE with the Kubernetes objects, or serve with vllm", frameworkOf(r.Spec))
	}

	header := append(r.header("SkyPilot task"),
		"Launch with `sky launch` (a job) or `sky jobs launch` (recovers from spot preemption); pass secrets with --env HF_TOKEN.",
		r.modelNote())
	switch {
	case r.imageGen() && r.service:
		header = append(header, fmt.Sprintf("One cluster is one replica on %d of the node's %d GPUs; the priced plan may run more to a node (start one server per GPU,", r.GPUsPerReplica, r.chosen.GPUCount),
			"each with its own CUDA_VISIBLE_DEVICES and port); run more clusters with SkyServe (`sky serve up` with a service section).")
	case r.imageGen():
		header = append(header, fmt.Sprintf("The %d image shard(s) of %d GPU(s) each run on %d node(s): shard = SKYPILOT_NODE_RANK x (GPUs per node / %d) + the GPU group on the node.", r.shards(), r.GPUsPerReplica, nodes, r.GPUsPerReplica))
	case r.service:
		copies := "one replica"
		l, ok := r.serveLine("$MODEL", r.GPUsPerReplica)
		switch {
		case ok && l.DPFlag != "" && !tpu:
			copies = fmt.Sprintf("one server running a copy per %d GPUs of the node (%s)", r.GPUsPerReplica, l.DPFlag)
		case tpu && r.chosen.GPUCount > r.GPUsPerReplica:
			header = append(header, fmt.Sprintf("This task runs one copy on %d of the slice's %d TPU chips, while the priced plan runs %d copies per slice; start one server per copy, each on its own chips and port.",
				r.GPUsPerReplica, r.chosen.GPUCount, r.chosen.GPUCount/r.GPUsPerReplica))
		case r.chosen.GPUCount > r.GPUsPerReplica:
			header = append(header, fmt.Sprintf("%s runs one copy per server: this task uses %d of the node's %d GPUs, while the priced plan runs %d copies per instance; start one server per copy (its own CUDA_VISIBLE_DEVICES and --port), or serve with vLLM or SGLang.",
				frameworkOf(r.Spec), r.GPUsPerReplica, r.chosen.GPUCount, r.chosen.GPUCount/r.GPUsPerReplica))
		}
		header = append(header, "One cluster is "+copies+"; run more with SkyServe (`sky serve up` with a service section),",
			"which needs every entry below to be spot or every entry on-demand.")
	}
	if len(unsupported) > 0 {
		header = append(header, "Left out, no SkyPilot cloud: "+strings.Join(unsupported, ", ")+".")
	}
	if len(small) > 0 {
		header = append(header, fmt.Sprintf("Left out, fewer than %d accelerators on %d node(s): %s.", need, nodes, strings.Join(small, ", ")))
	}
	header = append(header, notes...)
	comments := map[string]string{
		"resources.ordered": "Ranked offers, best first: SkyPilot tries each in turn until one launches.",
	}
	if task.Resources.ImageID != "" {
		comments["resources.image_id"] = r.imageNote()
	}
	if r.imageGen() {
		comments["run"] = r.skyImageComment()
	}
	return render(doc{header: header, value: task, comments: comments})
}

func hasSpot(o *catalog.Offer) bool {
	_, a := o.ListPrices.Get(catalog.Spot)
	_, b := o.YourPrices.Get(catalog.Spot)
	return a || b
}

// skyCommands fills setup and run for the framework. Servers that ship as
// containers (TGI, TensorRT-LLM) run inside the image through image_id;
// vLLM and SGLang install with pip.
func (r *resolved) skyCommands(t *skyTask) {
	gpus := r.GPUsPerReplica
	if r.service {
		t.Resources.Ports = servingPort
		l, ok := r.serveLine("$MODEL", gpus)
		if !ok {
			t.Workdir = "."
			t.Setup = "pip install -r requirements.txt\n"
			t.Run = fmt.Sprintf("python3 serve.py --port %d  # your server's entry point\n", servingPort)
			return
		}
		// vLLM and SGLang install with pip on CUDA, vLLM on TPU VMs as
		// vllm-tpu (SkyPilot runs no container there); every other family
		// runs in its image.
		fam := r.family()
		switch {
		case r.Spec.Stack.Framework == workload.FrameworkVLLM && fam == FamilyCUDA:
			t.Setup = "pip install vllm\n"
		case r.Spec.Stack.Framework == workload.FrameworkVLLM && fam == FamilyTPU:
			t.Setup = "pip install vllm-tpu\n"
		case r.Spec.Stack.Framework == workload.FrameworkSGLang && fam == FamilyCUDA:
			t.Setup = "pip install \"sglang[all]\"\n"
		default:
			t.Resources.ImageID = "docker:" + r.Image
		}
		cmd := append(l.Command, l.Args...)
		if len(l.Command) == 0 {
			cmd = append([]string{"text-generation-launcher"}, l.Args...)
		}
		// SKYPILOT_NUM_GPUS_PER_NODE counts a TPU slice as one accelerator,
		// not its chips: on TPUs one server runs one copy.
		if l.DPFlag != "" && fam != FamilyTPU {
			// A node with more GPUs than a copy needs (a larger fallback
			// type) runs as many copies as it holds.
			cmd = append(cmd, l.DPFlag, fmt.Sprintf("$((SKYPILOT_NUM_GPUS_PER_NODE / %d))", gpus))
		}
		t.Run = strings.Join(cmd, " ") + "\n"
		return
	}
	t.Workdir = "."
	t.Setup = "pip install -r requirements.txt\n"
	perNode := min(gpus, r.chosen.GPUCount)
	if slices.Contains(torchStacks, r.Spec.Stack.Framework) {
		t.Run = fmt.Sprintf(`# train.py is your entry point; SkyPilot sets the SKYPILOT_* variables.
MASTER_ADDR=$(echo "$SKYPILOT_NODE_IPS" | head -n1)
torchrun \
  --nnodes=$SKYPILOT_NUM_NODES \
  --nproc-per-node=%d \
  --node-rank=$SKYPILOT_NODE_RANK \
  --master-addr=$MASTER_ADDR \
  --master-port=29500 \
  train.py
`, perNode)
		return
	}
	t.Run = "python3 train.py  # your entry point; SkyPilot sets SKYPILOT_NODE_RANK and SKYPILOT_NODE_IPS\n"
}

// skyImageCommands fills resources and run for image generation: Triton in
// its container for a TensorRT service, else a run that stops with what to
// set (gpupick ships no server or renderer for the stack).
func (r *resolved) skyImageCommands(t *skyTask) {
	if im := r.Spec.Image; im != nil {
		for _, v := range r.imageEnv() {
			t.Envs[v.Name] = v.Value
		}
	}
	if r.service {
		t.Resources.Ports = servingPort
	} else {
		for _, v := range r.shardEnv() {
			t.Envs[v.Name] = v.Value
		}
	}
	if !r.imageRequired {
		t.Resources.ImageID = "docker:" + r.Image
	}
	if r.triton() {
		t.Envs["MODEL_REPOSITORY"] = modelRepositoryRequired
		t.Run = fmt.Sprintf("tritonserver --model-repository=\"$MODEL_REPOSITORY\" --http-port=%d --metrics-port=8002\n", servingPort)
		return
	}
	what := "server (serving HTTP on port " + strconv.Itoa(servingPort) + ")"
	if !r.service {
		what = "renderer (the shards on this node)"
	}
	t.Run = fmt.Sprintf("echo 'gpupick ships no image-generation %s for %s: set run: to start yours' >&2\nexit 1\n", what, frameworkOf(r.Spec))
}

// skyImageComment says what run does for an image-generation task.
func (r *resolved) skyImageComment() string {
	switch {
	case r.triton():
		return "Triton Inference Server in its container (image_id) serves the TensorRT pipeline from MODEL_REPOSITORY, a model repository you build and set."
	case r.service:
		return "REQUIRED: gpupick ships no server for " + string(frameworkOf(r.Spec)) + ": replace run: (and set image_id: or a setup:) with your server on port " + strconv.Itoa(servingPort) + ", reading MODEL."
	}
	return "REQUIRED: gpupick ships no renderer for " + string(frameworkOf(r.Spec)) + ": replace run: with one that renders MODEL's images IMAGES_PER_SHARD per shard,\nthe shards of this node counted from SKYPILOT_NODE_RANK."
}
