package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestCheckGPUOnly: without an offer, compliance is not judged, and the
// output says what was checked instead of "no row for region this region"
// (issue 16); the exit status follows the stack verdict alone.
func TestCheckGPUOnly(t *testing.T) {
	for _, tt := range []struct{ name, lang string }{{"check-gpu-only.txt", "en"}, {"check-gpu-only-zh.txt", "zh"}} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "check", "-f", "testdata/eu-chat.yaml", "--gpu", "h100-sxm", "--lang", tt.lang)
			if code != 0 {
				t.Errorf("a compatible stack with compliance not checked: exit %d (%s)", code, errOut)
			}
			for _, bad := range []string{"this region", "this offer", "no row for"} {
				if strings.Contains(out, bad) {
					t.Errorf("output speaks of %q without an offer:\n%s", bad, out)
				}
			}
			golden(t, tt.name, out)
		})
	}
	out, _, _ := run(t, "check", "-f", "testdata/eu-chat.yaml", "--gpu", "h100-sxm", "-o", "json")
	var doc struct {
		Checked    *bool `json:"compliance_checked"`
		Compliance struct {
			Verdict      string `json:"verdict"`
			Requirements []struct {
				Name, Verdict, Reason, Source string
			} `json:"requirements"`
		} `json:"compliance"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Checked == nil || *doc.Checked || doc.Compliance.Verdict != "unknown" || len(doc.Compliance.Requirements) != 3 { // residency, operator (the default with a compliance block), keys
		t.Fatalf("check --gpu -o json: %s", out)
	}
	for _, q := range doc.Compliance.Requirements {
		if q.Verdict != "unknown" || !strings.HasPrefix(q.Reason, "Not checked: no offer was given") || q.Source != "" {
			t.Errorf("requirement %s: %+v", q.Name, q)
		}
	}
	out, _, _ = run(t, "check", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "-o", "json")
	if !strings.Contains(out, `"compliance_checked": true`) {
		t.Errorf("with an offer, compliance_checked must be true:\n%s", out)
	}
}

// TestCheckSourcesShortened: a source of hundreds of characters (PyTorch on
// ROCm in the embedded matrix) is cut in the text, and whole in -o json.
func TestCheckSourcesShortened(t *testing.T) {
	runEmbedded := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		e := NewEnv(&out, &errb)
		e.Now = func() time.Time { return fixedNow }
		e.Getenv = noStore(t)
		code := Execute(e, args)
		return out.String(), errb.String(), code
	}
	out, errOut, code := runEmbedded("check", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "mi300x")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "…") || !strings.Contains(out, "-o json has them whole") {
		t.Errorf("the long source is not cut, or the cut is not said:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "source: ") && len([]rune(strings.TrimSpace(line))) > len("source: ")+sourceWidthForTest {
			t.Errorf("source line not shortened: %q", line)
		}
	}
	js, _, _ := runEmbedded("check", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "mi300x", "-o", "json")
	if strings.Contains(js, "…") || !strings.Contains(js, "torch_npu") {
		t.Error("-o json must carry the whole source")
	}
}

const sourceWidthForTest = 100
