package export_test

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/workload"
)

// TestFamilyOfMatchesCompatMatrix: a family is the software backend the
// compatibility matrix gives the vendor, for every vendor of the embedded
// catalog, so the two never disagree on what runs where.
func TestFamilyOfMatchesCompatMatrix(t *testing.T) {
	b, err := fs.ReadFile(data.FS, "compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, vendor := range slices.Sorted(maps.Keys(m.Vendors)) {
		f, ok := export.FamilyOf(vendor)
		if !ok || string(f) != m.Vendors[vendor].Backend {
			t.Errorf("vendor %s: family %q (known %v), compat backend %q", vendor, f, ok, m.Vendors[vendor].Backend)
		}
		if f.Label() == string(f) {
			t.Errorf("family %s has no label for people", f)
		}
		if _, ok := export.ResourceName(vendor); !ok {
			t.Errorf("vendor %s has a family but no device-plugin resource", vendor)
		}
	}
	if f, ok := export.FamilyOf("acme"); ok || f != "acme" {
		t.Errorf("an unknown vendor is a family of its own: got %q, %v", f, ok)
	}
}

// TestTPUExportsWithoutAnImage: vLLM on a TPU takes vLLM's TPU image on
// Kubernetes and installs vllm-tpu on a SkyPilot TPU VM (which runs no
// container); no image is asked for.
func TestTPUExportsWithoutAnImage(t *testing.T) {
	if img, ok := export.DefaultImage(workload.FrameworkVLLM, "google"); !ok || img != "vllm/vllm-tpu:latest" {
		t.Fatalf("DefaultImage(vllm, google) = %q, %v", img, ok)
	}
	in := cases()["tpu-with-other-families"]
	in.Image = ""
	sky, err := export.SkyPilot(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"accelerators: tpu-v6e-1\n", "pip install vllm-tpu\n"} {
		if !strings.Contains(string(sky), want) {
			t.Errorf("SkyPilot task lacks %q:\n%s", want, sky)
		}
	}
	for _, bad := range []string{"instance_type: tpu-", "image_id:", "--data-parallel-size"} {
		if strings.Contains(string(sky), bad) {
			t.Errorf("SkyPilot task on TPUs has %q:\n%s", bad, sky)
		}
	}
	k8s, err := export.Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(k8s), "image: vllm/vllm-tpu:latest") || !strings.Contains(string(k8s), "google.com/tpu: \"1\"") {
		t.Errorf("Kubernetes objects on TPUs:\n%s", k8s)
	}
	// A server that needs a container cannot run on a SkyPilot TPU VM.
	tgi := in
	spec := *in.Spec
	spec.Stack.Framework = workload.FrameworkTGI
	tgi.Spec, tgi.Image = &spec, "ghcr.io/example/tgi-tpu:1"
	if _, err := export.SkyPilot(tgi); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "TPU VM") {
		t.Errorf("TGI on a TPU VM with an image: got %v, want an invalid error about TPU VMs", err)
	}
}

// TestNoImageNamesTheFamily: where gpupick knows no image, the refusal is
// an invalid error on "image" that names the family and what to give.
func TestNoImageNamesTheFamily(t *testing.T) {
	for _, tt := range []struct {
		fw     workload.Framework
		gpu    *catalog.Accelerator
		family string
		give   string
	}{
		{workload.FrameworkVLLM, inf2, "Neuron (AWS Trainium/Inferentia)", "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx"},
		{workload.FrameworkVLLM, &catalog.Accelerator{ID: "gaudi3", Vendor: "intel"}, "Gaudi (Intel)", "vllm-gaudi"},
		{workload.FrameworkVLLM, &catalog.Accelerator{ID: "ascend-910b", Vendor: "huawei"}, "CANN (Huawei Ascend)", "quay.io/ascend/vllm-ascend"},
		{workload.FrameworkPyTorch, v6e, "TPU (Google)", "tpu-pytorch-releases/docker/xla"},
		{workload.FrameworkSGLang, v6e, "TPU (Google)", "serve with vllm"},
		{workload.FrameworkJAX, h100, "CUDA (NVIDIA)", "an image with jax built for CUDA (NVIDIA)"},
	} {
		kind := workload.KindLLMInference
		if tt.fw == workload.FrameworkPyTorch || tt.fw == workload.FrameworkJAX {
			kind = workload.KindLLMTrain
		}
		in := export.Input{Spec: &workload.Spec{Name: "x", Kind: kind, Stack: workload.Stack{Framework: tt.fw}},
			Offers: []*catalog.Offer{offer("aws", "some.type", "us-east-1", tt.gpu.ID, 8, 96, 512, 10, 0)}, GPU: tt.gpu}
		_, err := export.Kubernetes(in)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Code != apperr.Invalid || ae.Field != "image" {
			t.Errorf("%s on %s: got %v, want an invalid error on image", tt.fw, tt.gpu.ID, err)
			continue
		}
		if !strings.Contains(ae.Text(), "the "+tt.family+" family") || !strings.Contains(ae.Text(), tt.give) {
			t.Errorf("%s on %s: %q does not name the family %q and %q", tt.fw, tt.gpu.ID, ae.Text(), tt.family, tt.give)
		}
	}
}

// TestSkyPilotWithoutTheChosenFamily: when SkyPilot can launch none of
// the chosen family's offers (a provider without a SkyPilot cloud), the
// other families' tasks are still written, and every one of them, and the
// notes, say the chosen family has none and why.
func TestSkyPilotWithoutTheChosenFamily(t *testing.T) {
	in := cases()["tpu-with-other-families"]
	in.Offers = []*catalog.Offer{offer("crusoe", "tpu-like.1x", "us-east1", "tpu-v6e", 1, 0, 0, 1, 0)}
	if _, err := export.SkyPilot(in); apperr.CodeOf(err) != apperr.Invalid {
		t.Fatalf("the chosen family's own task: got %v, want invalid", err)
	}
	files, err := export.Files("skypilot", in)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(files)); !slices.Equal(got, []string{"skypilot-cuda.yaml"}) {
		t.Fatalf("files %v, want the CUDA task only", got)
	}
	if p := export.PrimaryFile("skypilot", in, files); p != "skypilot-cuda.yaml" {
		t.Errorf("primary file %q", p)
	}
	say := "The TPU (Google) candidates (crusoe/tpu-like.1x@us-east1) have no SkyPilot task: no offer SkyPilot can launch: no SkyPilot cloud for crusoe."
	if !strings.Contains(string(files["skypilot-cuda.yaml"]), "# "+say) {
		t.Errorf("the CUDA task does not say %q:\n%s", say, files["skypilot-cuda.yaml"])
	}
	notes := export.Notes("skypilot", in)
	if len(notes) != 3 || notes[0].String() != say {
		t.Errorf("notes %q: want the chosen family's, then one per other family", notes)
	}
	// Nothing to launch anywhere: the chosen family's reason is the error.
	alone := in
	alone.Others = nil
	if _, err := export.Files("skypilot", alone); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "crusoe") {
		t.Errorf("no task at all: got %v", err)
	}
	if _, err := export.Files("helm", in); apperr.CodeOf(err) != apperr.Invalid {
		t.Errorf("an unknown kind: got %v", err)
	}
}
