package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbeCommand runs the probe for real on this machine (no GPU tools on
// PATH, storage in a temporary directory), compares its report with an
// offer, and checks the bad-input exit codes.
func TestProbeCommand(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no nvidia-smi, rocm-smi or python3: those parts skip with a reason
	dir := t.TempDir()
	out, errOut, code := run(t, "probe", "--path", dir, "--size", "2MiB", "-o", "json")
	if code != 0 || !strings.Contains(out, `"version": 1`) || !strings.Contains(out, `"seq_read_gb_s"`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the probe left files behind: %v", entries)
	}
	report := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = run(t, "probe", "compare", report, "--offer", "aws/p5.48xlarge")
	if code != 1 || !strings.Contains(out, "the probe found no accelerator") {
		t.Errorf("compare against an 8-GPU offer on a GPU-less machine: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, "probe", "compare", report, "--offer", "aws/p5.48xlarge", "-o", "json")
	if !strings.Contains(out, `"calibration"`) {
		t.Errorf("compare -o json lacks the calibration: %s", out)
	}
	for _, args := range [][]string{{"probe", "net"}, {"probe", "--size", "huge"}, {"probe", "compare", report}} {
		if _, errOut, code := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
}

// TestCalibrate feeds predict a probe report that measured half the
// expected matrix-multiply speed and slow storage: the prediction slows
// down and says why.
func TestCalibrate(t *testing.T) {
	base := []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--offer", "aws/p5.48xlarge", "-o", "json"}
	out, errOut, code := run(t, base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var plain, cal struct {
		Throughput  struct{ Value float64 }
		Assumptions []string
	}
	if err := json.Unmarshal([]byte(out), &plain); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run(t, append(base, "--calibrate", "testdata/probe-h100-slow.json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &cal); err != nil {
		t.Fatal(err)
	}
	if !(cal.Throughput.Value < 0.8*plain.Throughput.Value) {
		t.Errorf("a probe measuring half the matmul speed should slow the prediction: %.0f vs %.0f tokens/s", cal.Throughput.Value, plain.Throughput.Value)
	}
	if !strings.Contains(strings.Join(cal.Assumptions, "\n"), "compute efficiency x") {
		t.Errorf("the assumptions do not say the probe was used:\n%s", strings.Join(cal.Assumptions, "\n"))
	}
	if _, errOut, code := run(t, append(base, "--calibrate", "testdata/nope.json")...); code != 2 || !strings.Contains(errOut, "testdata/nope.json") {
		t.Errorf("a missing report: exit %d, %s", code, errOut)
	}
}

// TestCalibrationIsSaidOrRefused: recommend says when a probe calibrates
// it, in every format; a report that measured no GPU is refused rather
// than applied to nothing silently.
func TestCalibrationIsSaidOrRefused(t *testing.T) {
	base := []string{"recommend", "-f", "../../examples/llama3-8b-lora.yaml"}
	for _, format := range []string{"table", "json", "markdown", "html"} {
		out, errOut, code := run(t, append(base, "-o", format, "--calibrate", "testdata/probe-h100-slow.json")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(out, "calibrated with the probe of") {
			t.Errorf("-o %s does not say the probe calibrated the prediction:\n%s", format, out)
		}
	}
	for _, cmd := range [][]string{base, {"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--offer", "aws/p5.48xlarge"}} {
		_, errOut, code := run(t, append(cmd, "--calibrate", "testdata/probe-no-gpu.json")...)
		if code != 2 || !strings.Contains(errOut, "--calibrate") || !strings.Contains(errOut, "measured no GPU") {
			t.Errorf("%s with a probe of a machine without a GPU: exit %d, %s", cmd[0], code, errOut)
		}
	}
}
