package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Flags that make no sense are errors that name the flag, and user text is
// not markup in Markdown (issue 15).
func TestFlagsAndTextAreChecked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "h100-sxm", "--gpus", "0"}, "--gpus: must be >= 1"},
		{[]string{"offers", "--country", "XX"}, `--country: no region of the catalog is in "XX"`},
	} {
		if _, errOut, code := run(t, tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
	// A second document, a list at the top, JSON with a trailing comma.
	dir := t.TempDir()
	for name, tc := range map[string]struct{ body, want string }{
		"two.yaml":   {"kind: llm-finetune\nmodel: {preset: llama-3-8b}\n---\nkind: llm-train\n", "a second YAML document"},
		"list.yaml":  {"- kind: llm-finetune\n", "want a mapping of keys at the top"},
		"comma.json": {"{\n  \"kind\": \"llm-finetune\",\n}\n", "comma.json:3: JSON syntax error"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(tc.body), 0o644)
		if _, errOut, code := run(t, "recommend", "-f", p); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", name, code, errOut, tc.want)
		}
	}
	b, _ := os.ReadFile("../../examples/llama3-8b-lora.yaml")
	p := filepath.Join(dir, "named.yaml")
	os.WriteFile(p, []byte(strings.Replace(string(b), "name: llama3-8b-lora", "name: \"<script>alert(1)</script>\"", 1)), 0o644)
	out, errOut, code := run(t, "recommend", "-f", p, "-o", "markdown")
	if code != 0 || strings.Contains(out, "<script>") || !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("markdown: exit %d (%s), the name is not escaped:\n%.300s", code, errOut, out)
	}
}
