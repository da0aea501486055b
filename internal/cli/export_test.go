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
