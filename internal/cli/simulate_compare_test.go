package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runOnEmbedded executes gpupick on the embedded catalog: the image API's
// offers (aws/g6.xlarge, an A100-80GB of RunPod) are not in the fixture.
func runOnEmbedded(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := NewEnv(&out, &errb)
	e.Now = func() time.Time { return fixedNow }
	e.Getenv = noStore(t)
	code = Execute(e, args)
	return out.String(), errb.String(), code
}

// TestSimulateCompare pins the comparison of the image API's fleets (text,
// English and Chinese), checks that its JSON keeps its keys and that the
// chart is an SVG with its title, units and SLO line.
func TestSimulateCompare(t *testing.T) {
	run := runOnEmbedded
	for _, name := range []string{"simulate-compare.txt", "simulate-compare-zh.txt"} {
		args := []string{"simulate", "-f", "../../examples/service-image-api.yaml", "--compare"}
		if strings.HasSuffix(name, "-zh.txt") {
			args = append(args, "--lang", "zh")
		}
		out, errOut, code := run(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		golden(t, name, out)
	}
	svg := filepath.Join(t.TempDir(), "cmp.svg")
	out, errOut, code := run(t, "simulate", "-f", "../../examples/service-image-api.yaml", "--compare", "-o", "json", "--chart", svg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 6 {
		t.Fatalf("%d rows, want the file's 6 variants", len(m.Rows))
	}
	for _, k := range []string{"name", "policy", "cost_usd", "cost_per_1k_requests_usd", "p95_latency_s", "p99_latency_s", "slo_violation_fraction", "slo_met", "cheapest_meeting_slo"} {
		if _, ok := m.Rows[0][k]; !ok {
			t.Errorf("a row lacks %q", k)
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "sdxl-image-api: 6 fleets over 24.0 h", "USD", "SLO 60 s", "p99 end-to-end latency"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
	// A file without a compare block, and a bad variant, are located errors.
	if _, errOut, code := run(t, "simulate", "-f", "../../examples/service-fixed.yaml", "--compare"); code != 2 || !strings.Contains(errOut, "compare") {
		t.Errorf("no compare block: exit %d, %s", code, errOut)
	}
}
