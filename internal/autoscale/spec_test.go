package autoscale

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

func TestParseSpecDefaults(t *testing.T) {
	s := mustSpec(t, `
traffic: {kind: poisson, rate_per_s: 3}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: target}
pricing: {per_hour_usd: 1}
`)
	p := s.Policy
	if p.PollingIntervalS != 15 || p.ScaleDownStabilizationS != 300 || p.CooldownS != 300 || p.Tolerance != 0.1 ||
		p.MaxReplicas != 100 || p.MinReplicas != 0 || p.Target != 2 || p.Metric != "in_flight" {
		t.Errorf("policy defaults: %+v", p)
	}
	if s.Traffic.DurationS != 3600 || s.Traffic.Seed != 1 || s.Service.Distribution != "exponential" || s.Service.ColdStartS != 150 || s.SLO.Target != 0.99 {
		t.Errorf("defaults: %+v %+v %+v", s.Traffic, s.Service, s.SLO)
	}
	joined := strings.Join(s.Defaults, "\n")
	for _, want := range []string{"policy.polling_interval_s = 15 (not set; Kubernetes HPA sync period)", "policy.cooldown_s = 300", "service.provisioning_s = 120"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Defaults lacks %q:\n%s", want, joined)
		}
	}
	k := mustSpec(t, `{traffic: {kind: constant, rate_per_s: 1}, service: {kind: distribution, mean_s: 1}, policy: {kind: knative}, pricing: {per_hour_usd: 1}}`)
	if k.Policy.StableWindowS != 60 || k.Policy.PanicWindowPct != 10 || k.Policy.PanicThresholdPct != 200 || k.Policy.TargetConcurrency != 100 || k.Policy.ScaleToZeroGraceS != 30 {
		t.Errorf("knative defaults: %+v", k.Policy)
	}
	sl := mustSpec(t, `{traffic: {kind: constant, rate_per_s: 1}, service: {kind: distribution, mean_s: 1}, policy: {kind: serverless}, pricing: {per_hour_usd: 1}}`)
	if sl.Policy.IdleTimeoutS != 5 || sl.Policy.MaxWorkers != 3 || sl.Service.ColdStartS != 5 {
		t.Errorf("serverless defaults: %+v, cold start %v", sl.Policy, sl.Service.ColdStartS)
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string // "line:field:text"
	}{
		{"unknown key", "traffic:\n  kind: poisson\n  rate_per_sec: 3\n", []string{"3:traffic.rate_per_sec:did you mean \"rate_per_s\""}},
		{"missing kinds", "traffic: {rate_per_s: 1}\npricing: {per_hour_usd: 1}\n", []string{"1:traffic.kind:required"}},
		{"bad values", `traffic:
  kind: poisson
  rate_per_s: -2
service:
  kind: distribution
  mean_s: 0
policy:
  kind: fixed
  replicas: 0
pricing: {per_hour_usd: 1}
`, []string{"3:traffic.rate_per_s:must be > 0", "6:service.mean_s:must be > 0", "9:policy.replicas:must be between"}},
		{"key of another kind", `traffic: {kind: poisson, rate_per_s: 1}
service: {kind: distribution, mean_s: 1}
policy:
  kind: fixed
  replicas: 2
  idle_timeout_s: 5
pricing: {per_hour_usd: 1}
`, []string{`6:policy.idle_timeout_s:not used by policy "fixed"`}},
		{"model needs offer", `traffic: {kind: poisson, rate_per_s: 1}
service:
  kind: model
  workload: w.yaml
policy: {kind: fixed, replicas: 1}
`, []string{"2:service.offer:required"}},
		{"replica layout", `traffic: {kind: poisson, rate_per_s: 1}
service:
  kind: model
  workload: w.yaml
  offer: aws/p5.48xlarge
  region: us-east-1
  tensor_parallel: 0
  pipeline_parallel: 2000
policy: {kind: fixed, replicas: 1}
`, []string{"7:service.tensor_parallel:must be between 1 and 1024", "8:service.pipeline_parallel:must be between 1 and 1024"}},
		{"layout of a model service only", `traffic: {kind: poisson, rate_per_s: 1}
service: {kind: distribution, mean_s: 1, tensor_parallel: 2}
policy: {kind: fixed, replicas: 1}
pricing: {per_hour_usd: 1}
`, []string{`2:service.tensor_parallel:not used by service "distribution"`}},
		{"no price", `traffic: {kind: poisson, rate_per_s: 1}
service: {kind: distribution, mean_s: 1}
policy: {kind: fixed, replicas: 1}
`, []string{"0:pricing.per_hour_usd:required"}},
		{"fallback without its price", `traffic: {kind: poisson, rate_per_s: 1}
service: {kind: distribution, mean_s: 1}
policy:
  kind: mixed
  fallback:
    speed: 2
pricing: {per_hour_usd: 1}
`, []string{"5:policy.fallback.below_rps:required", "6:policy.fallback.speed:must be in (0, 1]", "7:pricing.fallback_per_hour_usd:required"}},
		{"whole number", "traffic: {kind: poisson, rate_per_s: 1}\nservice: {kind: distribution, mean_s: 1}\npolicy: {kind: fixed, replicas: 2.5}\npricing: {per_hour_usd: 1}\n", []string{"3:policy.replicas:whole number"}},
		{"trace format", "traffic: {kind: trace, format: csv}\nservice: {kind: distribution, mean_s: 1}\npolicy: {kind: fixed, replicas: 1}\npricing: {per_hour_usd: 1}\n", []string{"1:traffic.format:unknown value"}},
		// Documented ranges: what no real service has is an input error,
		// before any estimate of the work.
		{"out of range", `traffic:
  kind: poisson
  rate_per_s: 1e9
  duration_s: 3122064000
  output_tokens: 100000000
service:
  kind: distribution
  mean_s: .inf
  provisioning_s: 1e15
  image_pull_s: -1
  model_gb: 1e300
  timeout_s: .nan
policy: {kind: target, cooldown_s: 1e12}
slo: {latency_s: 1e9}
pricing:
  per_hour_usd: 1e300
  billing_granularity_s: -3
`, []string{
			"3:traffic.rate_per_s:must be > 0 and at most 1e+06 requests/s, got 1e+09",
			"4:traffic.duration_s:must be > 0 and at most 3.16224e+07 s (a year), got 3.122064e+09",
			"5:traffic.output_tokens:must be between 0 and 10000000, got 100000000",
			"8:service.mean_s:must be > 0 and at most 86400 s (a day), got +Inf",
			"9:service.provisioning_s:must be >= 0 and at most 86400 s (a day), got 1e+15",
			"10:service.image_pull_s:must be >= 0 and at most 86400 s (a day), got -1",
			"11:service.model_gb:must be >= 0 and at most 100000 GB, got 1e+300",
			"12:service.timeout_s:must be >= 0 and at most 86400 s (a day), got NaN",
			"13:policy.cooldown_s:at most 86400 s (a day), got 1e+12",
			"14:slo.latency_s:at most 86400 s (a day)",
			"16:pricing.per_hour_usd:must be >= 0 and at most 1e+06 USD, got 1e+300",
			"17:pricing.billing_granularity_s:must be >= 0 and at most 2.6784e+06 s (31 days), got -3",
		}},
		{"cold start of parts over a day", `traffic: {kind: poisson, rate_per_s: 1}
service:
  kind: distribution
  mean_s: 1
  provisioning_s: 600
  model_gb: 90000
policy: {kind: target}
pricing: {per_hour_usd: 1}
`, []string{"6:service.model_gb:the cold start (provisioning_s + image_pull_s + model_gb / storage_gbps) must be at most 86400 s (a day), got 90630 s"}},
		{"trace ranges", "traffic: {kind: trace, format: plain, time_scale: 1e-9, duration_s: 1e12}\nservice: {kind: distribution, mean_s: 1, cold_start_s: 1e6}\npolicy: {kind: mixed, spot: {max_replicas: 2, interruptions_per_hour: 1e9}}\npricing: {per_hour_usd: 1, spot_per_hour_usd: .inf}\n", []string{
			"1:traffic.time_scale:must be between 0.001 and 1e+06, got 1e-09",
			"1:traffic.duration_s:must be >= 0 and at most 3.16224e+07 s (a year), got 1e+12",
			"2:service.cold_start_s:must be >= 0 and at most 86400 s (a day), got 1e+06",
			"3:policy.spot.interruptions_per_hour:must be >= 0 and at most 3600 per replica-hour, got 1e+09",
			"4:pricing.spot_per_hour_usd:must be >= 0 and at most 1e+06 USD, got +Inf",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(tc.yaml))
			var l apperr.List
			if !errors.As(err, &l) {
				t.Fatalf("err = %v, want an apperr.List", err)
			}
			for _, w := range tc.want {
				parts := strings.SplitN(w, ":", 3)
				found := false
				for _, e := range l {
					if e.Code == apperr.Invalid && strings.Contains(e.Text(), parts[2]) && e.Field == parts[1] && itoa(e.Line) == parts[0] {
						found = true
					}
				}
				if !found {
					t.Errorf("want %s in:\n%v", w, err)
				}
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// Every example service file parses and runs.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/service-*.yaml")
	if len(files) < 4 {
		t.Fatalf("found %d example service files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := ParseSpec(data)
			if err != nil {
				t.Fatal(err)
			}
			if spec.Service.Kind == ServiceModel {
				t.Skip("a model service needs the performance model: the CLI's tests simulate it")
			}
			res, err := Simulate(spec, nil, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d requests, p95 %.2fs, violations %.3f, $%.2f, %.1f replica-h, util %.2f, %d scale events",
				spec.Name, res.Requests, res.Latency.P95S, res.SLOViolationFraction, res.CostUSD, res.ReplicaHours, res.Utilization, res.ScaleEvents)
			if res.Requests == 0 || res.CostUSD <= 0 || !res.SLOMet {
				t.Errorf("example result: %d requests, $%.2f, SLO met %v", res.Requests, res.CostUSD, res.SLOMet)
			}
		})
	}
}
