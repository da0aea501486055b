package export

import (
	"errors"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// One software family per failover list. A container image is built for
// one accelerator software stack: a CUDA image does not run on a TPU, a
// ROCm image not on Trainium. Every list of candidates an export writes (a
// SkyPilot task's resources.ordered, a NodePool's instance types, a
// Deployment's preferred instance types) therefore holds the offers of one
// family, all run by the same image. The caller that ranks the candidates
// (app.ExportInput) splits them by family once: Input holds the chosen
// offer's family and Input.Others the rest, each family with its own best
// candidate's plan and its own image. Exporters only render that split.

// Family is an accelerator software family: the stack an image is built
// for. The names are the compatibility matrix's backends (data/compat.yaml
// vendors.*.backend; a test keeps them equal), one per accelerator vendor.
type Family string

// Families, one per accelerator vendor the catalog knows.
const (
	FamilyCUDA   Family = "cuda"   // NVIDIA GPUs
	FamilyROCm   Family = "rocm"   // AMD Instinct GPUs
	FamilyTPU    Family = "tpu"    // Google Cloud TPUs (JAX/XLA, PJRT)
	FamilyNeuron Family = "neuron" // AWS Trainium and Inferentia (Neuron SDK)
	FamilyGaudi  Family = "gaudi"  // Intel Gaudi (Intel Gaudi software)
	FamilyCANN   Family = "cann"   // Huawei Ascend (CANN)
)

// vendorFamilies maps catalog vendors (data/accelerators.csv) to families.
var vendorFamilies = map[string]Family{
	"nvidia": FamilyCUDA, "amd": FamilyROCm, "google": FamilyTPU,
	"aws": FamilyNeuron, "intel": FamilyGaudi, "huawei": FamilyCANN,
}

// familyLabels name a family for people: the stack and whose hardware.
var familyLabels = map[Family]string{
	FamilyCUDA: "CUDA (NVIDIA)", FamilyROCm: "ROCm (AMD)", FamilyTPU: "TPU (Google)",
	FamilyNeuron: "Neuron (AWS Trainium/Inferentia)", FamilyGaudi: "Gaudi (Intel)", FamilyCANN: "CANN (Huawei Ascend)",
}

// FamilyOf returns the software family of an accelerator vendor
// (case-insensitive). A vendor gpupick knows no family for is a family of
// its own, named after the vendor, and ok is false.
func FamilyOf(vendor string) (f Family, ok bool) {
	v := strings.ToLower(vendor)
	f, ok = vendorFamilies[v]
	if !ok {
		return Family(v), false
	}
	return f, true
}

// AcceleratorFamily is the family of a; nil has the family "".
func AcceleratorFamily(a *catalog.Accelerator) Family {
	if a == nil {
		return ""
	}
	f, _ := FamilyOf(a.Vendor)
	return f
}

// Label names the family for people, e.g. "TPU (Google)".
func (f Family) Label() string {
	if l, ok := familyLabels[f]; ok {
		return l
	}
	return string(f)
}

// SkyPilotFile is the file the SkyPilot task of another family goes to:
// skypilot-<family>.yaml beside skypilot.yaml, the chosen family's.
func SkyPilotFile(f Family) string {
	return "skypilot-" + Name(string(f)) + ".yaml"
}

// family is the family of the input's offers (of Offers[0]'s accelerator).
func (r *resolved) family() Family { return AcceleratorFamily(r.GPU) }

// imageHint says what image to give for framework f on family fam where
// gpupick has no default: a public image whose tag must match the host's
// driver and SDK (the vendor publishes one per release), or the kind of
// image to build. Sources, as read on the dates given:
//   - Neuron: awsdocs-neuron.readthedocs-hosted.com setup/pytorch/dlc
//     (PyTorch Inference vLLM and PyTorch Training NeuronX DLCs on
//     public.ecr.aws/neuron; the newest vLLM DLC serves Trn2/Trn3 only,
//     Trn1 and Inf2 keep an older one), 2026-10-16.
//   - Gaudi: docs.habana.ai/en/latest/shared/Pull_Prebuilt_Containers
//     (vault.habana.ai/gaudi-docker/VERSION/OS/habanalabs/pytorch-installer-TORCH),
//     2026-11-29.
//   - CANN: docs.vllm.ai/projects/ascend installation (quay.io/ascend/vllm-ascend
//     per release, -a3 tags for Atlas A3; quay.io/ascend/cann for the
//     toolkit), 2026-11-29.
//   - TPU: docs.cloud.google.com/tpu/docs/run-in-container (PyTorch/XLA
//     images at us-central1-docker.pkg.dev/tpu-pytorch-releases/docker/xla),
//     2026-11-29.
func imageHint(f workload.Framework, fam Family) msg.Msg {
	torch := slices.Contains(torchStacks, f)
	switch {
	case fam == FamilyNeuron && f == workload.FrameworkVLLM:
		return msg.New("an AWS Neuron vLLM Deep Learning Container whose tag matches your instances and Neuron SDK (public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:TAG)")
	case fam == FamilyNeuron && torch:
		return msg.New("an AWS Neuron PyTorch training Deep Learning Container whose tag matches your Neuron SDK (public.ecr.aws/neuron/pytorch-training-neuronx:TAG)")
	case fam == FamilyGaudi && f == workload.FrameworkVLLM:
		return msg.New("a vLLM image built on Intel's Gaudi PyTorch container of your Gaudi software release (vault.habana.ai/gaudi-docker/VERSION/ubuntu22.04/habanalabs/pytorch-installer-TORCH) with the vllm-gaudi plugin")
	case fam == FamilyGaudi && torch:
		return msg.New("Intel's Gaudi PyTorch container of your Gaudi software release (vault.habana.ai/gaudi-docker/VERSION/ubuntu22.04/habanalabs/pytorch-installer-TORCH)")
	case fam == FamilyCANN && f == workload.FrameworkVLLM:
		return msg.New("a vllm-ascend image whose tag matches your NPUs and CANN driver (quay.io/ascend/vllm-ascend:TAG)")
	case fam == FamilyCANN && torch:
		return msg.New("an image with torch_npu on the CANN toolkit of your driver (built from quay.io/ascend/cann:TAG)")
	case fam == FamilyTPU && torch:
		return msg.New("a PyTorch/XLA image for TPU VMs (us-central1-docker.pkg.dev/tpu-pytorch-releases/docker/xla:TAG)")
	case fam == FamilyTPU && f != workload.FrameworkJAX && f != workload.FrameworkOther:
		return msg.New("an image with %s built for TPUs, or serve with vllm, whose TPU image gpupick knows", f)
	case f == workload.FrameworkOther:
		return msg.New("your own image, built for %s", fam.Label())
	}
	return msg.New("an image with %s built for %s", f, fam.Label())
}

// offerKeys lists offers as provider/instance-type@region, comma-separated.
func offerKeys(offers []*catalog.Offer) string {
	keys := make([]string, len(offers))
	for i, o := range offers {
		keys[i] = o.Key()
	}
	return strings.Join(keys, ", ")
}

// familyTask is the SkyPilot task of one family, or why it has none.
type familyTask struct {
	in   Input // Others cleared
	file string
	body []byte
	err  error
}

// skyPilotTasks renders the SkyPilot task of every family of in: in's own
// first (FileSkyPilot), then each of in.Others (SkyPilotFile), each task
// naming in its header where the other families' candidates went. An
// invalid in is the error; a family whose task cannot be written (no
// image known for another family, no offer SkyPilot can launch) keeps its
// error instead, for the other tasks and Notes to state.
func skyPilotTasks(in Input) ([]familyTask, error) {
	if _, err := resolve(in); err != nil {
		return nil, err
	}
	tasks := make([]familyTask, 0, 1+len(in.Others))
	main := in
	main.Others = nil
	tasks = append(tasks, familyTask{in: main, file: FileSkyPilot})
	for _, o := range in.Others {
		o.Others = nil
		tasks = append(tasks, familyTask{in: o, file: SkyPilotFile(AcceleratorFamily(o.GPU))})
	}
	// Which families have a task decides what every task says of the
	// others: render once without notes, then with them.
	for i := range tasks {
		_, tasks[i].err = skyPilotTask(tasks[i].in, nil)
	}
	for i := range tasks {
		if tasks[i].err == nil {
			tasks[i].body, tasks[i].err = skyPilotTask(tasks[i].in, msg.Strings(skyPilotNotes(tasks, i)))
		}
	}
	return tasks, nil
}

// Sentences about the other families, for the documents' comments, the
// command line's stderr and the API's notes (their Chinese is in
// report's catalog).
const (
	familyTaskNote   = "The %s candidates (%s) need another image: their failover list is a SkyPilot task of its own, %s."
	familyNoTaskNote = "The %s candidates (%s) have no SkyPilot task: %s."
	// familyNoImageNote: a family without a default image gets a task
	// once its image is given, which only its own export can take.
	familyNoImageNote = "The %s candidates (%s) have no SkyPilot task: %s; to export them, choose offer %s and give its image."
	familyLeftOut     = "The %s candidates (%s) need another image and device plugin: these manifests leave them out; choose offer %s to export them."
)

// skyPilotNotes are the sentences the task of family self carries about
// every other family's task (self -1: all of them, for Notes).
func skyPilotNotes(tasks []familyTask, self int) []msg.Msg {
	var notes []msg.Msg
	for i, t := range tasks {
		if i == self || len(t.in.Offers) == 0 {
			continue
		}
		label := AcceleratorFamily(t.in.GPU).Label()
		if t.err != nil {
			why := msg.Text(t.err.Error())
			ae := (*apperr.Error)(nil)
			if errors.As(t.err, &ae) && ae.Text() != "" {
				// the field is that family's input, not the reader's
				why = ae.Message
				if why.IsZero() {
					why = msg.Text(ae.Msg)
				}
			}
			if ae != nil && ae.Field == "image" && i > 0 {
				notes = append(notes, msg.New(familyNoImageNote, label, offerKeys(t.in.Offers), why, t.in.Offers[0].ID()))
				continue
			}
			notes = append(notes, msg.New(familyNoTaskNote, label, offerKeys(t.in.Offers), why))
			continue
		}
		notes = append(notes, msg.New(familyTaskNote, label, offerKeys(t.in.Offers), t.file))
	}
	return notes
}

// leftOutNotes are the sentences the Kubernetes objects and the NodePool
// carry about the other families, which they leave out.
func leftOutNotes(others []Input) []msg.Msg {
	var notes []msg.Msg
	for _, o := range others {
		if len(o.Offers) == 0 || o.Offers[0] == nil {
			continue
		}
		notes = append(notes, msg.New(familyLeftOut, AcceleratorFamily(o.GPU).Label(), offerKeys(o.Offers), o.Offers[0].ID()))
	}
	return notes
}
