package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSimulate(t *testing.T) {
	for _, tt := range []struct{ name, file string }{
		{"simulate-fixed.txt", "../../examples/service-fixed.yaml"},
		{"simulate-serverless.txt", "../../examples/service-serverless.yaml"},
		{"simulate-trace.txt", "testdata/service-trace.yaml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "simulate", "-f", tt.file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
	out, errOut, code := run(t, "simulate", "-f", "../../examples/service-target.yaml", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"requests", "completed", "dropped", "wait_s", "latency_s", "slo_violation_fraction", "replica_hours", "cost_usd", "utilization"} {
		if _, ok := m[k]; !ok {
			t.Errorf("simulate -o json lacks %q", k)
		}
	}
	for _, k := range []string{"mean", "p50", "p95", "p99"} {
		if _, ok := m["latency_s"].(map[string]any)[k]; !ok {
			t.Errorf("latency_s lacks %q", k)
		}
	}
}

func TestSimulateChart(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"day.svg", "day.png"} {
		path := filepath.Join(dir, name)
		if _, errOut, code := run(t, "simulate", "-f", "../../examples/service-target.yaml", "--chart", path); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 1000 {
			t.Fatalf("%s: %v, %d bytes", name, err, len(b))
		}
		if strings.HasSuffix(name, ".svg") && !strings.Contains(string(b[:200]), "<svg") {
			t.Errorf("%s is not an SVG", name)
		}
		if strings.HasSuffix(name, ".png") && string(b[1:4]) != "PNG" {
			t.Errorf("%s is not a PNG", name)
		}
	}
}

func TestSimulateErrors(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"simulate", "-f", "testdata/bad-service.yaml"}, 2, "testdata/bad-service.yaml:5: traffic.duraton_s: unknown key"},
		{[]string{"simulate", "-f", "../../examples/service-fixed.yaml", "--chart", "out.gif"}, 2, "--chart: want a file ending in .svg or .png"},
		{[]string{"simulate", "-f", "testdata/service-trace.yaml", "--trace", "testdata/nope.csv"}, 2, "--trace: cannot read"},
		{[]string{"simulate", "-f", "testdata/service-trace.yaml", "--trace", "testdata/bad-trace.csv"}, 2, "testdata/bad-trace.csv:3"},
		{[]string{"simulate"}, 2, "-f: a service file is required"},
	} {
		out, errOut, code := run(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.contains) {
			t.Errorf("%v: exit %d (want %d), stderr %q, want %q", tt.args, code, tt.code, errOut, tt.contains)
		}
		if out != "" {
			t.Errorf("%v: stdout must stay empty on error: %q", tt.args, out)
		}
	}
}
