package export_test

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/kubeschema"
)

// An image service on a forced MIG plan (as TestKubernetesMIG forces one)
// or a time-sliced one is a Deployment whose pod requests its slice, and
// its objects match the strict Kubernetes v1.30 schemas.
func TestImageServiceSlices(t *testing.T) {
	v, err := kubeschema.Load(filepath.Join("..", "..", "deploy", "testdata", "kubernetes-v1.30-subset.json"))
	if err != nil {
		t.Fatal(err)
	}
	mig := cases()["image-service-diffusers"]
	mig.MIGProfile, mig.MIGPerGPU, mig.GPU = "1g.10gb", 7, a100
	mig.Offers = mig.Offers[:1:1]
	mig.Offers[0] = offer("aws", "p4d.24xlarge", "us-east-1", "a100-40gb", 8, 96, 1152, 32.77, 12.0)
	ts := cases()["image-service-diffusers"]
	ts.TimeSliced = 4
	for name, c := range map[string]struct {
		in            export.Input
		want, notWant string
	}{
		"mig":         {mig, `nvidia.com/mig-1g.10gb: "1"`, "nvidia.com/gpu:"},
		"time-sliced": {ts, `nvidia.com/gpu: "1"`, "nvidia.com/mig-"},
	} {
		b, err := export.Kubernetes(c.in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		y := string(b)
		if strings.Count(y, c.want) != 2 || strings.Contains(y, c.notWant) {
			t.Errorf("%s: want %s in requests and limits, no %s:\n%s", name, c.want, c.notWant, y)
		}
		var kinds []string
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var o map[string]any
			if err := dec.Decode(&o); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			kinds = append(kinds, o["kind"].(string))
			if err := v.Validate(o); err != nil {
				t.Errorf("%s: %s: %v", name, o["kind"], err)
			}
		}
		if strings.Join(kinds, ",") != "Deployment,Service" {
			t.Errorf("%s: kinds %v, want Deployment and Service", name, kinds)
		}
	}
	files, err := export.All(ts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{export.FileDeployment, export.FileScaledObject, export.FileTimeSlicing} {
		if _, ok := files[f]; !ok {
			t.Errorf("time-sliced image service: All wrote no %s: %v", f, keys(files))
		}
	}
}

// The offline image job is an Indexed Job that tells each pod its share,
// and validates against the Kubernetes schema.
func TestImageJobIndexed(t *testing.T) {
	v, err := kubeschema.Load(filepath.Join("..", "..", "deploy", "testdata", "kubernetes-v1.30-subset.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := export.Kubernetes(cases()["image-job"])
	if err != nil {
		t.Fatal(err)
	}
	var o map[string]any
	if err := yaml.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(o); err != nil {
		t.Error(err)
	}
	spec := o["spec"].(map[string]any)
	if o["kind"] != "Job" || spec["completionMode"] != "Indexed" || spec["completions"] != 8 || spec["parallelism"] != 8 {
		t.Errorf("want an Indexed Job of 8: %v", spec)
	}
	for _, want := range []string{"IMAGES_PER_SHARD", `value: "12500"`, "image: " + export.ImageRequired} {
		if !strings.Contains(string(b), want) {
			t.Errorf("job lacks %q:\n%s", want, b)
		}
	}
}
