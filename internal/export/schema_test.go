package export_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/workload"
)

// toJSON turns decoded YAML into the JSON values the validator expects.
func toJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// crdSchema compiles spec.versions[name=version].schema.openAPIV3Schema of
// a CRD under testdata/schemas. OpenAPI v3 schemas are read as JSON Schema;
// the x-kubernetes-* extensions (CEL rules among them) are ignored.
func crdSchema(t *testing.T, file, version string) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "schemas", file))
	if err != nil {
		t.Fatal(err)
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Name   string `yaml:"name"`
				Schema struct {
					OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
				} `yaml:"schema"`
			} `yaml:"versions"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		t.Fatal(err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != version {
			continue
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft4) // OpenAPI 3.0 schemas are close to draft 4
		url := "file:///" + file
		if err := c.AddResource(url, toJSON(t, v.Schema.OpenAPIV3Schema)); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Fatalf("%s has no version %s", file, version)
	return nil
}

// decode reads one YAML document into JSON values.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return toJSON(t, v).(map[string]any)
}

func TestScaledObjectsMatchKEDASchema(t *testing.T) {
	schema := crdSchema(t, "keda.sh_scaledobjects.yaml", "v1alpha1")
	n := 0
	for name, in := range cases() {
		b, err := export.KEDA(in)
		if err != nil {
			continue
		}
		n++
		so := decode(t, b)
		if err := schema.Validate(so); err != nil {
			t.Errorf("%s: ScaledObject rejected by KEDA's schema:\n%v", name, err)
		}
		if so["apiVersion"] != "keda.sh/v1alpha1" || so["kind"] != "ScaledObject" {
			t.Errorf("%s: apiVersion/kind = %v/%v", name, so["apiVersion"], so["kind"])
		}
		// The CRD's CEL rule, which the validator does not run.
		spec := so["spec"].(map[string]any)
		if toFloat(spec["minReplicaCount"]) > toFloat(spec["maxReplicaCount"]) {
			t.Errorf("%s: minReplicaCount above maxReplicaCount", name)
		}
	}
	if n < 2 {
		t.Fatalf("only %d ScaledObjects validated", n)
	}
}

func TestNodePoolsMatchKarpenterSchema(t *testing.T) {
	schema := crdSchema(t, "karpenter.sh_nodepools.yaml", "v1")
	n := 0
	for name, in := range cases() {
		b, err := export.Karpenter(in)
		if err != nil {
			continue
		}
		n++
		np := decode(t, b)
		if err := schema.Validate(np); err != nil {
			t.Errorf("%s: NodePool rejected by Karpenter's schema:\n%v", name, err)
		}
		// CEL rule: an In requirement has values.
		reqs := np["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["requirements"].([]any)
		for _, r := range reqs {
			r := r.(map[string]any)
			if r["operator"] == "In" && len(r["values"].([]any)) == 0 {
				t.Errorf("%s: requirement %v has no values", name, r["key"])
			}
		}
	}
	if n < 3 {
		t.Fatalf("only %d NodePools validated", n)
	}
}

// TestSchemasRejectInvalid proves the validation can fail: each edit breaks
// a generated document in a way a cluster would refuse.
func TestSchemasRejectInvalid(t *testing.T) {
	in := cases()["nvidia-inference-aws"]
	keda := crdSchema(t, "keda.sh_scaledobjects.yaml", "v1alpha1")
	karp := crdSchema(t, "karpenter.sh_nodepools.yaml", "v1")
	so, err := export.KEDA(in)
	if err != nil {
		t.Fatal(err)
	}
	np, err := export.Karpenter(in)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		doc    []byte
		schema *jsonschema.Schema
		edit   func(spec map[string]any)
	}{
		{"min replicas as text", so, keda, func(s map[string]any) { s["minReplicaCount"] = "one" }},
		{"no triggers", so, keda, func(s map[string]any) { delete(s, "triggers") }},
		{"trigger threshold as number", so, keda, func(s map[string]any) {
			s["triggers"].([]any)[0].(map[string]any)["metadata"].(map[string]any)["threshold"] = 8
		}},
		{"unknown operator", np, karp, func(s map[string]any) {
			reqs := s["template"].(map[string]any)["spec"].(map[string]any)["requirements"].([]any)
			reqs[0].(map[string]any)["operator"] = "Maybe"
		}},
		{"no nodeClassRef", np, karp, func(s map[string]any) {
			delete(s["template"].(map[string]any)["spec"].(map[string]any), "nodeClassRef")
		}},
		{"bad consolidateAfter", np, karp, func(s map[string]any) {
			s["disruption"].(map[string]any)["consolidateAfter"] = "five minutes"
		}},
		{"bad taint effect", np, karp, func(s map[string]any) {
			taints := s["template"].(map[string]any)["spec"].(map[string]any)["taints"].([]any)
			taints[0].(map[string]any)["effect"] = "Sometimes"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decode(t, tt.doc)
			tt.edit(d["spec"].(map[string]any))
			err := tt.schema.Validate(d)
			var ve *jsonschema.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %v, want a validation error", err)
			}
		})
	}
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case json.Number:
		f, _ := n.Float64()
		return f
	case float64:
		return n
	}
	return -1
}

// The Kubernetes types below are written from the API reference
// (kubernetes.io/docs/reference/kubernetes-api: Deployment, Job, Service,
// PodSpec, Container), independently of the exporter's structs. Decoding with
// KnownFields rejects any field the API does not document at that place.

type kObject struct {
	APIVersion string    `yaml:"apiVersion"`
	Kind       string    `yaml:"kind"`
	Metadata   kMeta     `yaml:"metadata"`
	Spec       yaml.Node `yaml:"spec"`
}

type kMeta struct {
	Name        string            `yaml:"name"`
	Namespace   string            `yaml:"namespace"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type kDeploymentSpec struct {
	Replicas *int32 `yaml:"replicas"`
	Selector struct {
		MatchLabels map[string]string `yaml:"matchLabels"`
	} `yaml:"selector"`
	Template kPodTemplate `yaml:"template"`
	Strategy any          `yaml:"strategy"`
}

type kJobSpec struct {
	CompletionMode *string      `yaml:"completionMode"`
	BackoffLimit   *int32       `yaml:"backoffLimit"`
	Parallelism    *int32       `yaml:"parallelism"`
	Completions    *int32       `yaml:"completions"`
	Template       kPodTemplate `yaml:"template"`
}

type kPodTemplate struct {
	Metadata kMeta `yaml:"metadata"`
	Spec     struct {
		RestartPolicy string `yaml:"restartPolicy"`
		NodeSelector  map[string]string
		Affinity      struct {
			NodeAffinity struct {
				Preferred []struct {
					Weight     int32 `yaml:"weight"`
					Preference struct {
						MatchExpressions []kRequirement `yaml:"matchExpressions"`
					} `yaml:"preference"`
				} `yaml:"preferredDuringSchedulingIgnoredDuringExecution"`
			} `yaml:"nodeAffinity"`
		} `yaml:"affinity"`
		Tolerations []struct {
			Key      string `yaml:"key"`
			Operator string `yaml:"operator"`
			Value    string `yaml:"value"`
			Effect   string `yaml:"effect"`
		} `yaml:"tolerations"`
		Containers []kContainer `yaml:"containers"`
		Volumes    []struct {
			Name     string `yaml:"name"`
			EmptyDir *struct {
				Medium    string `yaml:"medium"`
				SizeLimit string `yaml:"sizeLimit"`
			} `yaml:"emptyDir"`
		} `yaml:"volumes"`
	} `yaml:"spec"`
}

type kRequirement struct {
	Key      string   `yaml:"key"`
	Operator string   `yaml:"operator"`
	Values   []string `yaml:"values"`
}

type kContainer struct {
	Name    string   `yaml:"name"`
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef struct {
				Name     string `yaml:"name"`
				Key      string `yaml:"key"`
				Optional bool   `yaml:"optional"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int32  `yaml:"containerPort"`
		Protocol      string `yaml:"protocol"`
	} `yaml:"ports"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
	StartupProbe   *kProbe `yaml:"startupProbe"`
	ReadinessProbe *kProbe `yaml:"readinessProbe"`
}

type kProbe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
	PeriodSeconds    int32 `yaml:"periodSeconds"`
	FailureThreshold int32 `yaml:"failureThreshold"`
}

type kServiceSpec struct {
	Type     string            `yaml:"type"`
	Selector map[string]string `yaml:"selector"`
	Ports    []struct {
		Name       string `yaml:"name"`
		Port       int32  `yaml:"port"`
		TargetPort string `yaml:"targetPort"`
	} `yaml:"ports"`
}

var (
	quantity  = regexp.MustCompile(`^[0-9]+(Gi|Mi|m)?$`)
	portName  = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$`) // IANA_SVC_NAME
	dns1123   = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	labelText = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)
)

func strict(t *testing.T, n *yaml.Node, v any) {
	t.Helper()
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("field not in the API reference: %v", err)
	}
}

// TestKubernetesObjectsUseDocumentedFields decodes every generated object
// into the API reference's shapes and checks the rules the API server
// enforces on what gpupick writes.
func TestKubernetesObjectsUseDocumentedFields(t *testing.T) {
	for name, in := range cases() {
		b, err := export.Kubernetes(in)
		if err != nil {
			continue
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		var kinds []string
		var podLabels map[string]string
		for {
			var o kObject
			if err := dec.Decode(&o); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			kinds = append(kinds, o.Kind)
			if !dns1123.MatchString(o.Metadata.Name) || len(o.Metadata.Name) > 63 {
				t.Errorf("%s: %s name %q is not a DNS-1123 label", name, o.Kind, o.Metadata.Name)
			}
			switch o.Kind {
			case "Deployment":
				if o.APIVersion != "apps/v1" {
					t.Errorf("%s: Deployment apiVersion %s", name, o.APIVersion)
				}
				var s kDeploymentSpec
				strict(t, &o.Spec, &s)
				for k, v := range s.Selector.MatchLabels {
					if s.Template.Metadata.Labels[k] != v {
						t.Errorf("%s: selector %s=%s does not match the pod labels", name, k, v)
					}
				}
				podLabels = s.Template.Metadata.Labels
				checkPod(t, name, in, s.Template, true)
			case "Job":
				if o.APIVersion != "batch/v1" {
					t.Errorf("%s: Job apiVersion %s", name, o.APIVersion)
				}
				var s kJobSpec
				strict(t, &o.Spec, &s)
				if p := s.Template.Spec.RestartPolicy; p != "OnFailure" && p != "Never" {
					t.Errorf("%s: a Job's restartPolicy must be OnFailure or Never, got %q", name, p)
				}
				checkPod(t, name, in, s.Template, false)
			case "Service":
				var s kServiceSpec
				strict(t, &o.Spec, &s)
				for k, v := range s.Selector {
					if podLabels[k] != v {
						t.Errorf("%s: Service selects %s=%s, which no pod carries", name, k, v)
					}
				}
				for _, p := range s.Ports {
					if p.Port < 1 || p.Port > 65535 || !portName.MatchString(p.TargetPort) {
						t.Errorf("%s: bad service port %+v", name, p)
					}
				}
			default:
				t.Errorf("%s: unexpected kind %s", name, o.Kind)
			}
		}
		want := []string{"Job"}
		if export.IsService(in.Spec) {
			want = []string{"Deployment", "Service"}
		}
		if diff := cmpStrings(want, kinds); diff != "" {
			t.Errorf("%s: kinds %v, want %v", name, kinds, want)
		}
	}
}

func cmpStrings(a, b []string) string {
	if len(a) != len(b) {
		return "length"
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i]
		}
	}
	return ""
}

func checkPod(t *testing.T, name string, in export.Input, p kPodTemplate, service bool) {
	t.Helper()
	if len(p.Spec.Containers) != 1 {
		t.Fatalf("%s: %d containers", name, len(p.Spec.Containers))
	}
	res, _ := export.ResourceName(in.GPU.Vendor)
	c := p.Spec.Containers[0]
	gpus := c.Resources.Limits[res]
	if gpus == "" || gpus != c.Resources.Requests[res] {
		t.Errorf("%s: %s limit %q and request %q must be set and equal", name, res, gpus, c.Resources.Requests[res])
	}
	for k, q := range c.Resources.Requests {
		if !quantity.MatchString(q) {
			t.Errorf("%s: request %s=%q is not a quantity", name, k, q)
		}
	}
	if c.Image == "" {
		t.Errorf("%s: no image", name)
	}
	tolerated := false
	for _, tol := range p.Spec.Tolerations {
		tolerated = tolerated || tol.Key == res && tol.Operator == "Exists"
	}
	if !tolerated {
		t.Errorf("%s: pods do not tolerate the %s taint", name, res)
	}
	for _, term := range p.Spec.Affinity.NodeAffinity.Preferred {
		if term.Weight < 1 || term.Weight > 100 {
			t.Errorf("%s: affinity weight %d outside 1-100", name, term.Weight)
		}
		for _, e := range term.Preference.MatchExpressions {
			for _, v := range e.Values {
				if len(v) > 63 || !labelText.MatchString(v) {
					t.Errorf("%s: %q is not a label value", name, v)
				}
			}
		}
	}
	for _, port := range c.Ports {
		if !portName.MatchString(port.Name) {
			t.Errorf("%s: port name %q", name, port.Name)
		}
	}
	if service && c.ReadinessProbe == nil && in.Spec.Stack.Framework == workload.FrameworkVLLM {
		t.Errorf("%s: a vLLM server needs a readiness probe", name)
	}
}

// skyKeys are the top-level and resource keys of the SkyPilot YAML
// reference that gpupick may write.
var (
	skyTop       = map[string]bool{"name": true, "workdir": true, "num_nodes": true, "resources": true, "envs": true, "setup": true, "run": true}
	skyResources = map[string]bool{"image_id": true, "ports": true, "ordered": true}
	skyEntry     = map[string]bool{"cloud": true, "instance_type": true, "region": true, "accelerators": true, "use_spot": true}
	skyClouds    = map[string]bool{"aws": true, "gcp": true, "azure": true, "oci": true, "lambda": true, "runpod": true,
		"vast": true, "nebius": true, "fluidstack": true, "cudo": true, "paperspace": true, "do": true, "kubernetes": true}
	skyAccel = regexp.MustCompile(`^[A-Za-z0-9-]+:[1-9][0-9]*$`)
	// skyTPU is a TPU slice as SkyPilot names it (sky show-gpus, GOOGLE_TPU),
	// written without an instance type.
	skyTPU = regexp.MustCompile(`^tpu-v[0-9a-z]+-[1-9][0-9]*$`)
)

// skyEntryOffer is the offer an ordered entry stands for: its instance
// type, or the TPU slice of an entry without one.
func skyEntryOffer(e map[string]any) string {
	if it, ok := e["instance_type"].(string); ok {
		return it
	}
	a, _ := e["accelerators"].(string)
	return a
}

// TestSkyPilotOrderedFollowsRank parses each task, the chosen family's and
// every other family's that has one, and checks that resources.ordered
// lists the supported offers in rank order.
func TestSkyPilotOrderedFollowsRank(t *testing.T) {
	for name, in := range cases() {
		for i, x := range append([]export.Input{in}, in.Others...) {
			b, err := export.SkyPilot(x)
			if err != nil && i > 0 {
				continue // another family without a task: TestGolden pins why
			}
			skyPilotOrderedFollowsRank(t, fmt.Sprintf("%s/%d", name, i), x, b, err)
		}
	}
}

func skyPilotOrderedFollowsRank(t *testing.T, name string, in export.Input, b []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var task map[string]any
	if err := yaml.Unmarshal(b, &task); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for k := range task {
		if !skyTop[k] {
			t.Errorf("%s: unknown top-level key %q", name, k)
		}
	}
	res := task["resources"].(map[string]any)
	for k := range res {
		if !skyResources[k] {
			t.Errorf("%s: unknown resources key %q", name, k)
		}
	}
	// Rank of each instance type among the offers.
	rank := map[string]int{}
	for i, o := range in.Offers {
		if _, ok := rank[o.InstanceType]; !ok {
			rank[o.InstanceType] = i
		}
	}
	last := -1
	ordered := res["ordered"].([]any)
	if len(ordered) == 0 {
		t.Fatalf("%s: empty ordered list", name)
	}
	first := ordered[0].(map[string]any)
	if skyEntryOffer(first) != in.Offers[0].InstanceType {
		t.Errorf("%s: first choice %v, want the chosen offer %s", name, skyEntryOffer(first), in.Offers[0].InstanceType)
	}
	for _, e := range ordered {
		e := e.(map[string]any)
		for k := range e {
			if !skyEntry[k] {
				t.Errorf("%s: unknown key %q in ordered", name, k)
			}
		}
		if !skyClouds[e["cloud"].(string)] {
			t.Errorf("%s: %v is not a SkyPilot cloud", name, e["cloud"])
		}
		_, typed := e["instance_type"]
		if typed && !skyAccel.MatchString(e["accelerators"].(string)) || !typed && !skyTPU.MatchString(e["accelerators"].(string)) {
			t.Errorf("%s: accelerators %q not NAME:COUNT (or a TPU slice without instance_type)", name, e["accelerators"])
		}
		r := rank[skyEntryOffer(e)]
		if r < last {
			t.Errorf("%s: %v comes after a lower-ranked offer", name, skyEntryOffer(e))
		}
		last = r
	}
}

func TestSkyPilotSkipsUnsupportedProviders(t *testing.T) {
	in := cases()["nvidia-inference-aws"]
	b, err := export.SkyPilot(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("# Left out, no SkyPilot cloud: coreweave.")) {
		t.Errorf("the comment listing coreweave is missing:\n%s", b)
	}
	only := in
	only.Offers = []*catalog.Offer{offer("coreweave", "gd-8xh100ib-i128", "us-east-04", "h100-sxm", 8, 128, 2048, 49.24, 0)}
	if _, err := export.SkyPilot(only); err == nil {
		t.Error("an export with no supported offer must fail")
	}
}
