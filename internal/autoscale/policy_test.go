package autoscale

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func mustSpec(t testing.TB, y string) *Spec {
	t.Helper()
	s, err := ParseSpec([]byte(y))
	if err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	return s
}

func mustRun(t testing.TB, s *Spec, opts Options) *Result {
	t.Helper()
	r, err := Simulate(s, nil, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Scale-to-zero saves money at night on a diurnal trace: the same target
// policy with min 0 costs less than with min 1, and sits at zero replicas in
// the small hours.
func TestScaleToZeroSavesAtNight(t *testing.T) {
	base := `
traffic: {kind: diurnal, rate_per_s: 0.01, duration_s: 86400, peak_hour: 14, amplitude: 1, seed: 3}
service: {kind: distribution, distribution: exponential, mean_s: 2, cold_start_s: 30}
slo: {latency_s: 120, target: 0.95}
pricing: {per_hour_usd: 2}
policy: {kind: target, target: 1, max_replicas: 10, cooldown_s: 60, scale_down_stabilization_s: 60, `
	zero := mustRun(t, mustSpec(t, base+"min_replicas: 0, initial_replicas: 0}"), Options{SeriesStepS: 600})
	one := mustRun(t, mustSpec(t, base+"min_replicas: 1}"), Options{SeriesStepS: 600})
	t.Logf("min 0: $%.2f, %.1f replica-h, violations %.3f, cold starts %d; min 1: $%.2f, %.1f replica-h",
		zero.CostUSD, zero.ReplicaHours, zero.SLOViolationFraction, zero.ColdStarts, one.CostUSD, one.ReplicaHours)
	if !(zero.CostUSD < 0.8*one.CostUSD) {
		t.Errorf("scale to zero costs $%.2f, min 1 $%.2f: want at least 20%% less", zero.CostUSD, one.CostUSD)
	}
	night := 0.0 // mean replicas between 01:00 and 03:00
	for _, p := range zero.Series {
		if p.TS >= 3600 && p.TS < 3*3600 {
			night += p.Replicas / float64(2*3600/600)
		}
	}
	if night > 0.3 {
		t.Errorf("mean replicas at night %.2f with scale to zero, want about 0", night)
	}
	if !zero.SLOMet {
		t.Errorf("scale to zero misses a lax SLO: %.3f", zero.SLOViolationFraction)
	}
}

// A cooldown (and scale-down window) that is too short makes the fleet
// oscillate under steady load.
func TestShortCooldownOscillates(t *testing.T) {
	base := `
traffic: {kind: poisson, rate_per_s: 8, duration_s: 7200, seed: 5}
service: {kind: distribution, distribution: exponential, mean_s: 1, cold_start_s: 30}
pricing: {per_hour_usd: 2}
policy: {kind: target, target: 1.5, min_replicas: 1, max_replicas: 40, polling_interval_s: 15, `
	short := mustRun(t, mustSpec(t, base+"cooldown_s: 0, scale_down_stabilization_s: 0}"), Options{})
	long := mustRun(t, mustSpec(t, base+"cooldown_s: 300, scale_down_stabilization_s: 300}"), Options{})
	t.Logf("short: %d scale events, %d cold starts, p95 %.2fs, $%.2f; long: %d scale events, %d cold starts, p95 %.2fs, $%.2f",
		short.ScaleEvents, short.ColdStarts, short.Latency.P95S, short.CostUSD, long.ScaleEvents, long.ColdStarts, long.Latency.P95S, long.CostUSD)
	if short.ScaleEvents < 4*long.ScaleEvents || short.ScaleEvents < 40 {
		t.Errorf("short cooldown: %d scale events, long: %d; want the short one to oscillate (>= 4x and >= 40)", short.ScaleEvents, long.ScaleEvents)
	}
	if short.ColdStarts <= 2*long.ColdStarts {
		t.Errorf("short cooldown: %d cold starts, long: %d; want many more", short.ColdStarts, long.ColdStarts)
	}
}

// A cold start longer than a burst means the new replicas arrive after it:
// the burst is served by the replicas already there, and the SLO suffers.
func TestColdStartLongerThanBurst(t *testing.T) {
	run := func(cold string) *Result {
		return mustRun(t, mustSpec(t, `
traffic: {kind: spikes, rate_per_s: 1, spike_rate_per_s: 8, spike_every_s: 900, spike_duration_s: 60, duration_s: 14400, seed: 9}
service: {kind: distribution, distribution: exponential, mean_s: 1, cold_start_s: `+cold+`}
slo: {latency_s: 5, target: 0.99}
pricing: {per_hour_usd: 2}
policy: {kind: target, target: 1.5, min_replicas: 2, max_replicas: 20, polling_interval_s: 5, scale_down_stabilization_s: 120}
`), Options{})
	}
	fast, slow := run("5"), run("240")
	t.Logf("cold 5s: violations %.4f p99 %.1fs; cold 240s: violations %.4f p99 %.1fs", fast.SLOViolationFraction, fast.Latency.P99S, slow.SLOViolationFraction, slow.Latency.P99S)
	if !(slow.SLOViolationFraction > 3*fast.SLOViolationFraction && slow.SLOViolationFraction > 0.01) {
		t.Errorf("violations with a 240 s cold start %.4f, with 5 s %.4f: want the long one much worse", slow.SLOViolationFraction, fast.SLOViolationFraction)
	}
	if slow.SLOMet {
		t.Errorf("a cold start longer than the burst still meets the SLO")
	}
}

// Serverless (dearer per hour, billed only while a worker lives) beats a
// fixed fleet at low utilisation and loses to it at high utilisation.
func TestServerlessVersusFixed(t *testing.T) {
	run := func(rate, replicas, policy string) *Result {
		y := `
traffic: {kind: poisson, rate_per_s: ` + rate + `, duration_s: 21600, seed: 4}
service: {kind: distribution, distribution: exponential, mean_s: 2, cold_start_s: 10}
slo: {latency_s: 30, target: 0.95}
`
		if policy == "serverless" {
			y += "policy: {kind: serverless, max_workers: 40, idle_timeout_s: 5}\npricing: {per_hour_usd: 3.95}\n"
		} else {
			y += "policy: {kind: fixed, replicas: " + replicas + "}\npricing: {per_hour_usd: 2.5}\n"
		}
		return mustRun(t, mustSpec(t, y), Options{})
	}
	for _, tc := range []struct {
		name, rate, replicas string
		serverlessWins       bool
	}{
		{"low", "0.02", "1", true},
		{"high", "5", "13", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sl, fx := run(tc.rate, "", "serverless"), run(tc.rate, tc.replicas, "fixed")
			t.Logf("serverless $%.2f (util %.2f, p95 %.1fs, %d cold starts), fixed $%.2f (util %.2f, p95 %.1fs)",
				sl.CostUSD, sl.Utilization, sl.Latency.P95S, sl.ColdStarts, fx.CostUSD, fx.Utilization, fx.Latency.P95S)
			if (sl.CostUSD < fx.CostUSD) != tc.serverlessWins {
				t.Errorf("serverless $%.2f, fixed $%.2f: want serverless cheaper = %v", sl.CostUSD, fx.CostUSD, tc.serverlessWins)
			}
			if !sl.SLOMet || !fx.SLOMet {
				t.Errorf("both should meet the lax SLO: serverless %.3f, fixed %.3f", sl.SLOViolationFraction, fx.SLOViolationFraction)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, y := range []string{
		`{traffic: {kind: bursty, rate_per_s: 5, duration_s: 3600, seed: 42}, service: {kind: distribution, distribution: lognormal, mean_s: 0.8, cv: 2}, policy: {kind: target, target: 2, max_replicas: 30}, pricing: {per_hour_usd: 1}}`,
		`{traffic: {kind: diurnal, rate_per_s: 5, duration_s: 86400, seed: 42}, service: {kind: distribution, mean_s: 0.8}, policy: {kind: knative, target_concurrency: 2}, pricing: {per_hour_usd: 1}}`,
		`{traffic: {kind: spikes, rate_per_s: 2, duration_s: 7200, seed: 42}, service: {kind: distribution, mean_s: 0.8}, policy: {kind: mixed, target: 2, spot: {max_replicas: 20, interruptions_per_hour: 0.5, notice_s: 30}, fallback: {speed: 0.5, below_rps: 1}}, pricing: {per_hour_usd: 1, fallback_per_hour_usd: 0.3}}`,
		`{traffic: {kind: poisson, rate_per_s: 3, duration_s: 3600, seed: 42}, service: {kind: distribution, mean_s: 0.8}, policy: {kind: serverless, max_workers: 10}, pricing: {per_hour_usd: 1}}`,
	} {
		s := mustSpec(t, y)
		a, b := mustRun(t, s, Options{}), mustRun(t, s, Options{})
		if !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Errorf("two runs differ:\n%s\n%s", ja, jb)
		}
		c := mustRun(t, s, Options{Seed: 99})
		if reflect.DeepEqual(a.Latency, c.Latency) {
			t.Errorf("another seed gave the same latencies")
		}
		if a.Requests == 0 || a.Completed+a.Dropped+a.TimedOut != a.Requests {
			t.Errorf("requests %d != completed %d + dropped %d + timed out %d", a.Requests, a.Completed, a.Dropped, a.TimedOut)
		}
		if math.IsNaN(a.CostUSD) || a.CostUSD <= 0 {
			t.Errorf("cost %v", a.CostUSD)
		}
	}
}
