package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/kubeschema"
)

// decodeAll parses every YAML document of b (the manifests must parse).
func decodeAll(t *testing.T, name string, b []byte) []map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var out []map[string]any
	for {
		var m map[string]any
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s does not parse as YAML: %v", name, err)
		}
		out = append(out, m)
	}
}

// containerOf returns the first container of a Deployment or Job.
func containerOf(t *testing.T, o map[string]any) map[string]any {
	t.Helper()
	spec := o["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	return spec["containers"].([]any)[0].(map[string]any)
}

// TestExportImageExamples exports every image-generation example on the
// embedded catalog with the advisor's own plan: a service is a Deployment
// and Service with a ScaledObject, the offline job an Indexed Job; the
// shared pool's sliced plan requests its slice; the Kubernetes objects
// match the strict v1.30 schemas.
func TestExportImageExamples(t *testing.T) {
	v, err := kubeschema.Load(filepath.Join("..", "..", "deploy", "testdata", "kubernetes-v1.30-subset.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		example string
		service bool
	}{{"flux-image-api", true}, {"sdxl-image-service", true}, {"sdxl-shared-pool", true}, {"sdxl-images", false}} {
		t.Run(c.example, func(t *testing.T) {
			file := filepath.Join("..", "..", "examples", c.example+".yaml")
			dir := t.TempDir()
			if _, errOut, code := runOnEmbedded(t, "export", "all", "-f", file, "-o", dir); code != 0 {
				t.Fatalf("export all: exit %d: %s", code, errOut)
			}
			k8s, wantKinds := "job.yaml", []string{"Job"}
			if c.service {
				k8s, wantKinds = "deployment.yaml", []string{"Deployment", "Service"}
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
			for _, f := range files {
				b, _ := os.ReadFile(f)
				decodeAll(t, filepath.Base(f), b)
			}
			b, err := os.ReadFile(filepath.Join(dir, k8s))
			if err != nil {
				t.Fatalf("export all wrote no %s: %v", k8s, err)
			}
			one, errOut, code := runOnEmbedded(t, "export", "k8s", "-f", file)
			if code != 0 {
				t.Fatalf("export k8s: exit %d: %s", code, errOut)
			}
			if one != string(b) {
				t.Errorf("export k8s differs from all's %s", k8s)
			}
			objs := decodeAll(t, k8s, b)
			var kinds []string
			for _, o := range objs {
				kinds = append(kinds, o["kind"].(string))
				if err := v.Validate(o); err != nil {
					t.Errorf("%s %v is not valid: %v", o["kind"], o["metadata"], err)
				}
			}
			if strings.Join(kinds, ",") != strings.Join(wantKinds, ",") {
				t.Fatalf("kinds %v, want %v", kinds, wantKinds)
			}
			ctr := containerOf(t, objs[0])
			res := ctr["resources"].(map[string]any)["limits"].(map[string]any)
			_, scaled := os.Stat(filepath.Join(dir, "scaledobject.yaml"))
			if c.service != (scaled == nil) {
				t.Errorf("scaledobject.yaml written %v, want %v", scaled == nil, c.service)
			}
			switch c.example {
			case "sdxl-image-service":
				// TensorRT: Triton's image, command and health path.
				if ctr["image"] != "nvcr.io/nvidia/tritonserver:25.01-py3" || !strings.Contains(string(b), "/v2/health/ready") {
					t.Errorf("want Triton Inference Server:\n%s", b)
				}
			case "sdxl-shared-pool":
				y := string(b)
				sliced := strings.Contains(y, "gpupick.dev/gpu-sharing")
				mig := false
				for k := range res {
					mig = mig || strings.HasPrefix(k, "nvidia.com/mig-")
				}
				if !sliced && !mig {
					t.Fatalf("the shared pool's plan is sliced; the pod requests %v:\n%s", res, y)
				}
				if sliced {
					if res["nvidia.com/gpu"] != "1" {
						t.Errorf("a time-sliced replica requests nvidia.com/gpu: 1, got %v", res)
					}
					if _, err := os.Stat(filepath.Join(dir, "time-slicing-config.yaml")); err != nil {
						t.Errorf("no time-slicing ConfigMap: %v", err)
					}
				}
				fallthrough
			case "flux-image-api":
				// No server shipped: the image is a required value.
				if ctr["image"] != "REQUIRED-set-your-image" || ctr["command"] != nil {
					t.Errorf("want the required image and no command, got %v %v", ctr["image"], ctr["command"])
				}
			case "sdxl-images":
				spec := objs[0]["spec"].(map[string]any)
				if spec["completionMode"] != "Indexed" || spec["completions"] == nil {
					t.Errorf("want an Indexed Job: %v", spec)
				}
				if !strings.Contains(string(b), "IMAGES_PER_SHARD") {
					t.Errorf("the pods are not told their share:\n%s", b)
				}
			}
		})
	}
}
