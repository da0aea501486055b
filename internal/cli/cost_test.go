package cli

import (
	"strings"
	"testing"
)

// TestCostWording: cost speaks in sentences, each verdict once, Chinese
// labels in zh, and its notes agree with its breakdown (issue 16).
func TestCostWording(t *testing.T) {
	lora := "../../examples/llama3-8b-lora.yaml"
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"cost-noncompliant.txt", []string{"cost", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "--region", "us-east-1"}},
		{"cost-noncompliant-zh.txt", []string{"cost", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "--region", "us-east-1", "--lang", "zh"}},
		{"cost-service.txt", []string{"cost", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if strings.Contains(out, "non_compliant") || strings.Contains(out, "0.00 months") || strings.Contains(out, "costs $0 ") {
				t.Errorf("a bare code or a sentence that disagrees with the numbers:\n%s", out)
			}
			golden(t, tt.name, out)
		})
	}
	out, _, _ := run(t, "cost", "-f", lora, "--offer", "aws/p5.48xlarge", "--lang", "zh")
	for _, en := range []string{"Cost notes", "Prediction assumptions", "Throughput", "Wall-clock", "Price:", "Unit cost"} {
		if strings.Contains(out, en) {
			t.Errorf("cost --lang zh leaves %q in English:\n%s", en, out)
		}
	}
	if n := strings.Count(out, "结论"); n != 1 {
		t.Errorf("the verdict is printed %d times:\n%s", n, out)
	}
	svc, _, _ := run(t, "cost", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge")
	if strings.Contains(svc, "checkpoint") || !strings.Contains(svc, "model weights") {
		t.Errorf("a service stores model weights, not checkpoints:\n%s", svc)
	}
}
