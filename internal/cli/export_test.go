package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExport(t *testing.T) {
	out, errOut, code := run(t, "export", "skypilot", "-f", "testdata/chat-8b.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "export-skypilot.yaml", out)
	out, errOut, code = run(t, "export", "k8s", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "export-k8s.yaml", out)
	out, errOut, code = run(t, "export", "keda", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge", "--policy", "../../examples/service-target.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "maxReplicaCount: 20") || !strings.Contains(out, "minReplicaCount: 0") {
		t.Errorf("the policy file's min 0 / max 20 did not reach the ScaledObject:\n%s", out)
	}
	golden(t, "export-keda-policy.yaml", out)

	dir := filepath.Join(t.TempDir(), "deploy")
	out, errOut, code = run(t, "export", "all", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("a temporary file was left behind: %s", e.Name())
		}
	}
	for _, want := range []string{"deployment.yaml", "scaledobject.yaml", "nodepool.yaml", "skypilot.yaml", "README.md"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("export all wrote %v, missing %s", names, want)
		}
	}
	if !strings.Contains(out, "chosen offer aws/p5.48xlarge") {
		t.Errorf("output %q", out)
	}
	// Exporting again into the same directory leaves exactly that export's
	// files: the previous export's others are removed, other files kept.
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("not gpupick's"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("my own notes now"), 0o644) // changed since export: kept
	if _, errOut, code := run(t, "export", "skypilot", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge", "-o", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	entries, _ = os.ReadDir(dir)
	names = names[:0]
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "README.md gpupick-export.txt mine.txt skypilot.yaml" {
		t.Errorf("after a second export the directory holds %s", got)
	}

	for _, tt := range []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"export", "helm", "-f", "testdata/chat-8b.yaml"}, 2, `kind: want k8s, keda, karpenter, skypilot or all, got "helm"`},
		{[]string{"export", "all", "-f", "testdata/chat-8b.yaml"}, 2, "-o: export all writes several files"},
		{[]string{"export", "k8s", "-f", "testdata/impossible.yaml"}, 1, "nothing qualifies"},
		{[]string{"export", "karpenter", "-f", "testdata/chat-8b.yaml", "--offer", "tencent/GN7.20XLARGE320"}, 2, "Karpenter"},
	} {
		_, errOut, code := run(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.contains) {
			t.Errorf("%v: exit %d (want %d), stderr %q, want %q", tt.args, code, tt.code, errOut, tt.contains)
		}
	}
}

// TestExportTPUFirst: a vLLM service whose best offer is a TPU exports
// without --image, its failover list holds the TPUs only, and the H100s
// ranked after them get a SkyPilot task of their own, which the TPU task
// and stderr (in English or Chinese) name.
func TestExportTPUFirst(t *testing.T) {
	args := []string{"--catalog", "testdata/families-catalog", "export", "skypilot", "-f", "testdata/tpu-chat.yaml"}
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "export-skypilot-tpu.yaml", out)
	golden(t, "export-skypilot-tpu.stderr", errOut)
	if strings.Contains(out, "H100") {
		t.Errorf("the TPU task lists H100s:\n%s", out)
	}

	dir := filepath.Join(t.TempDir(), "sky")
	if _, errOut, code := run(t, append(args, "-o", dir)...); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, errOut)
	}
	cuda, err := os.ReadFile(filepath.Join(dir, "skypilot-cuda.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export-skypilot-tpu-cuda.yaml", string(cuda))
	if strings.Contains(string(cuda), "accelerators: tpu-") || !strings.Contains(string(cuda), "# The TPU (Google) candidates") {
		t.Errorf("the CUDA task lists TPUs, or does not say where they went:\n%s", cuda)
	}

	_, errOut, code = run(t, append(args, "--lang", "zh")...)
	if code != 0 || !hasHan(errOut) || !strings.Contains(errOut, "skypilot-cuda.yaml") {
		t.Errorf("--lang zh: exit %d, stderr not Chinese or without the file:\n%s", code, errOut)
	}

	out, errOut, code = run(t, "--catalog", "testdata/families-catalog", "export", "k8s", "-f", "testdata/tpu-chat.yaml")
	if code != 0 {
		t.Fatalf("k8s: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"image: vllm/vllm-tpu:latest", `google.com/tpu: "1"`} {
		if !strings.Contains(out, want) {
			t.Errorf("k8s lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "these manifests leave them out; choose offer gcp/a3-highgpu-1g to export them") {
		t.Errorf("k8s stderr does not name the CUDA candidates it leaves out: %q", errOut)
	}

	// Bad input is still exit 2 with the field named.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "skypilot", "-f", "testdata/bad-workload.yaml"}, "bad-workload.yaml:"},
		{append(args, "--lang", "fr"), "--lang: want en or zh"},
		{[]string{"export", "skypilot", "-f", "testdata/chat-8b.yaml", "--policy", "testdata/bad-service.yaml"}, "bad-service.yaml:"},
	} {
		if _, errOut, code := run(t, tt.args...); code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
