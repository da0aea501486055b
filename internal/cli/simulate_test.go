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
		{"simulate-fixed-zh.txt", "../../examples/service-fixed.yaml"},
		{"simulate-mixed-zh.txt", "../../examples/service-mixed.yaml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"simulate", "-f", tt.file}
			if strings.HasSuffix(tt.name, "-zh.txt") {
				args = append(args, "--lang", "zh")
			}
			out, errOut, code := run(t, args...)
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
		_, errOut, code := run(t, "simulate", "-f", "../../examples/service-target.yaml", "--chart", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		// The command says which file it wrote, on stderr.
		if want := "gpupick: wrote the chart to " + path; !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
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

// TestSimulateLimits: work beyond the limits is refused before it starts,
// with the estimate and the limit (exit 2), unless --force; values no real
// service has are input errors naming their field and line.
func TestSimulateLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	service := func(traffic, service, policy string) string {
		return "name: attack\ntraffic: " + traffic + "\nservice: " + service + "\npolicy: " + policy + "\npricing: {per_hour_usd: 1}\n"
	}
	write("99-years.csv", "timestamp_s\n0\n3122064000\n")
	write("header-only.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n")
	write("empty.csv", "")
	dist, fixed := "{kind: distribution, mean_s: 1}", "{kind: fixed, replicas: 2}"
	rate := write("rate.yaml", service("{kind: poisson, rate_per_s: 1e9}", dist, fixed))
	prov := write("prov.yaml", service("{kind: poisson, rate_per_s: 1}", "{kind: distribution, mean_s: 1, provisioning_s: 1e15}", "{kind: target}"))
	model := write("model.yaml", service("{kind: poisson, rate_per_s: 1}", "{kind: distribution, mean_s: 1, model_gb: 1e300}", "{kind: target}"))
	long := write("long.yaml", service("{kind: poisson, rate_per_s: 1, duration_s: 3122064000}", dist, fixed))
	day := write("day.yaml", service("{kind: poisson, rate_per_s: 1e6, duration_s: 86400}", dist, fixed))
	hour := write("hour.yaml", service("{kind: poisson, rate_per_s: 1e5, duration_s: 3600}", dist, "{kind: fixed, replicas: 10000}"))
	trace := write("trace.yaml", service("{kind: trace, format: plain, file: 99-years.csv}", dist, "{kind: fixed, replicas: 1}"))
	azure := write("azure.yaml", service("{kind: trace, format: azure, file: header-only.csv}", dist, fixed))
	for _, tt := range []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"rate_per_s 1e9", []string{"-f", rate}, 2, []string{rate + ":2: traffic.rate_per_s: must be > 0 and at most 1e+06 requests/s, got 1e+09"}},
		{"provisioning_s 1e15", []string{"-f", prov}, 2, []string{prov + ":3: service.provisioning_s: must be >= 0 and at most 86400 s (a day), got 1e+15"}},
		{"model_gb 1e300", []string{"-f", model}, 2, []string{model + ":3: service.model_gb: must be >= 0 and at most 100000 GB, got 1e+300"}},
		{"99-year duration", []string{"-f", long}, 2, []string{long + ":2: traffic.duration_s: must be > 0 and at most 3.16224e+07 s (a year), got 3.122064e+09"}},
		{"a million requests a second for a day", []string{"-f", day}, 2, []string{
			day + ": this simulation would take about 1.7e+11 events (8.6e+10 requests over 24 h), over the limit of 1e+10 events",
			"give --force to run it anyway"}},
		{"a search of an hour at 10,000 requests a second", []string{"-f", hour, "--search"}, 2, []string{
			hour + ": this search would take about", "runs over 1 candidate, 7.2e+08 events each: 3.6e+08 requests over 60 min), over the limit of 1e+10 events"}},
		{"99-year trace", []string{"-f", trace}, 2, []string{trace + ": this simulation would replay 98.9 years of traffic, over the limit of 366 days", "--force"}},
		{"99-year trace, forced", []string{"-f", trace, "--force", "-o", "json"}, 0, []string{`"requests": 2,`}},
		{"header-only trace", []string{"-f", azure}, 2, []string{"header-only.csv: the trace holds no requests"}},
		{"empty trace", []string{"-f", azure, "--trace", filepath.Join(dir, "empty.csv")}, 2, []string{"empty.csv: the trace holds no requests"}},
		{"header-only trace, search", []string{"-f", azure, "--search"}, 2, []string{"header-only.csv: the trace holds no requests"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"simulate"}, tt.args...)...)
			got := errOut
			if tt.code == 0 {
				got = out
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, errOut)
			}
			for _, w := range tt.contains {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestSimulateExamples: every example service runs within the limits (the
// model service's offer is not in the test catalog: the server's tests run
// it, and its search).
func TestSimulateExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/service-*.yaml")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			if strings.HasSuffix(f, "service-model.yaml") {
				t.Skip("needs the embedded catalog")
			}
			run := run
			if strings.HasSuffix(f, "service-image-api.yaml") {
				run = runOnEmbedded // its offers are not in the fixture
			}
			if _, errOut, code := run(t, "simulate", "-f", f, "-o", "json"); code != 0 {
				t.Errorf("exit %d: %s", code, errOut)
			}
		})
	}
}

// TestSimulateSearchGolden pins the search table in both languages.
func TestSimulateSearchGolden(t *testing.T) {
	for _, tt := range []struct{ name, lang string }{{"simulate-search.txt", "en"}, {"simulate-search-zh.txt", "zh"}} {
		out, errOut, code := run(t, "simulate", "-f", "testdata/service-trace.yaml", "--search", "--lang", tt.lang)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		golden(t, tt.name, out)
	}
}
