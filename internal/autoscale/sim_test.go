package autoscale

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"
)

// Memory stays bounded: ten times the requests allocate about as much, the
// series is capped and the sketches keep their size.
func TestMemoryBounded(t *testing.T) {
	run := func(n int) (*Result, float64) {
		spec := mustSpec(t, fmt.Sprintf(`
traffic: {kind: poisson, rate_per_s: 50, duration_s: %d, seed: 1}
service: {kind: distribution, mean_s: 0.1}
policy: {kind: target, target: 1, min_replicas: 1, max_replicas: 50}
pricing: {per_hour_usd: 1}
`, n/50))
		var res *Result
		allocs := testing.AllocsPerRun(1, func() {
			var err error
			if res, err = Simulate(spec, nil, nil, Options{MaxSeriesPoints: 20}); err != nil {
				t.Fatal(err)
			}
		})
		return res, allocs
	}
	small, a1 := run(100_000)
	big, a10 := run(1_000_000)
	js, _ := json.Marshal(small)
	jb, _ := json.Marshal(big)
	t.Logf("100k requests: %.0f allocations, %d series points, %d JSON bytes; 1M: %.0f allocations, %d points, %d bytes",
		a1, len(small.Series), len(js), a10, len(big.Series), len(jb))
	if a10 > 2*a1+100 {
		t.Errorf("allocations grow with the requests: %.0f for 100k, %.0f for 1M", a1, a10)
	}
	if len(big.Series) > 20 || len(small.Series) > 20 || float64(len(jb)) > 1.5*float64(len(js)) {
		t.Errorf("series not bounded: %d and %d points, %d and %d bytes", len(small.Series), len(big.Series), len(js), len(jb))
	}
	if big.SeriesStepS <= small.SeriesStepS {
		t.Errorf("the longer run should have coarser buckets: %v vs %v", big.SeriesStepS, small.SeriesStepS)
	}
	if NewSketch().SizeBytes() != 8*sketchBuckets+40 {
		t.Error("sketch size changed")
	}
}

func TestSketch(t *testing.T) {
	s := NewSketch()
	for i := 1; i <= 100000; i++ {
		s.Add(float64(i) / 1000) // 0.001 .. 100 s
	}
	for _, q := range []float64{0.01, 0.5, 0.95, 0.99} {
		want := q * 100
		if got := s.Quantile(q); math.Abs(got-want)/want > 0.005 {
			t.Errorf("q%v = %v, want %v within 0.5%%", q, got, want)
		}
	}
	if math.Abs(s.Mean()-50.0005) > 1e-9 {
		t.Errorf("mean %v", s.Mean())
	}
	o := NewSketch()
	o.Add(0)
	o.Add(1e9)
	s.Merge(o)
	if s.Count() != 100002 || s.Max() != 1e9 || s.Quantile(0) != 0 {
		t.Errorf("merge: count %d max %v q0 %v", s.Count(), s.Max(), s.Quantile(0))
	}
	s.Reset()
	if s.Count() != 0 || s.Quantile(0.5) != 0 {
		t.Error("reset")
	}
}

// Continuous batching: one request alone takes its prefill then a decode
// step per further token; a full batch steps slower.
func TestBatchModel(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: trace, format: plain}
service: {kind: model, workload: w.yaml, offer: aws/g6.xlarge}
policy: {kind: fixed, replicas: 1}
slo: {ttft_s: 0.5}
`)
	m := &BatchModel{MaxBatch: 4, PrefillSPerToken: 0.001, StepBaseS: 0.02, StepPerSeqS: 0.01, PricePerHourUSD: 3.6}
	one, err := Simulate(spec, &SliceSource{Requests: []Request{{0, 100, 11}}}, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// prefill 0.1 s, then 10 steps of 0.03 s
	if math.Abs(one.Latency.MaxS-0.4) > 1e-9 || math.Abs(one.TTFT.MaxS-0.1) > 1e-9 {
		t.Errorf("single request: latency %v, ttft %v; want 0.4, 0.1", one.Latency.MaxS, one.TTFT.MaxS)
	}
	if math.Abs(one.CostUSD-0.4*3.6/3600-0.6*3.6/3600) > 1e-9 { // billed 1 s
		t.Errorf("cost %v", one.CostUSD)
	}
	// Four at once: prefills run back to back (0.1 s each), then steps of 0.06 s.
	reqs := []Request{{0, 100, 11}, {0, 100, 11}, {0, 100, 11}, {0, 100, 11}, {0, 100, 11}}
	four, err := Simulate(spec, &SliceSource{Requests: reqs}, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if four.Completed != 5 || four.TTFT.MaxS < 0.4-1e-9 || four.Wait.MaxS <= 0 {
		t.Errorf("batch: %+v", four)
	}
	if four.SLOViolationFraction < 0.2 {
		t.Errorf("the 4th and 5th requests miss the 0.5 s TTFT: violations %v", four.SLOViolationFraction)
	}
	if _, err := Simulate(spec, &SliceSource{}, nil, Options{}); err == nil {
		t.Error("a model service without a BatchModel ran")
	}
	if _, err := Simulate(spec, &SliceSource{}, &BatchModel{}, Options{}); err == nil {
		t.Error("an empty BatchModel ran")
	}
}

// Spot interruptions re-queue work and the fleet recovers; requests are
// all accounted for.
func TestSpotInterruptions(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: poisson, rate_per_s: 5, duration_s: 36000, seed: 2}
service: {kind: distribution, mean_s: 1, cold_start_s: 60}
policy: {kind: mixed, target: 1, on_demand: {replicas: 2}, spot: {max_replicas: 20, interruptions_per_hour: 2, notice_s: 0.5}}
pricing: {per_hour_usd: 2, spot_per_hour_usd: 0.8}
`)
	res := mustRun(t, spec, Options{})
	t.Logf("interruptions %d, requeued %d, cold starts %d, p95 %.2fs, $%.2f", res.Interruptions, res.Requeued, res.ColdStarts, res.Latency.P95S, res.CostUSD)
	if res.Interruptions < 50 || res.Requeued == 0 {
		t.Errorf("interruptions %d, requeued %d", res.Interruptions, res.Requeued)
	}
	if res.Completed+res.Dropped+res.TimedOut != res.Requests {
		t.Errorf("requests %d != %d + %d + %d", res.Requests, res.Completed, res.Dropped, res.TimedOut)
	}
	if res.Tiers[1].ReplicaHours <= 0 || res.Tiers[1].CostUSD >= res.Tiers[1].ReplicaHours*2 {
		t.Errorf("spot tier: %+v", res.Tiers[1])
	}
}

// The fallback tier serves at night and the floor by day.
func TestFallbackTier(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: diurnal, rate_per_s: 2, amplitude: 1, duration_s: 86400, seed: 2}
service: {kind: distribution, mean_s: 0.5, cold_start_s: 60}
policy: {kind: mixed, target: 1, on_demand: {replicas: 1}, spot: {max_replicas: 10}, fallback: {speed: 0.5, below_rps: 0.2, window_s: 300}}
pricing: {per_hour_usd: 2, fallback_per_hour_usd: 0.3}
`)
	res := mustRun(t, spec, Options{})
	fb, od := res.Tiers[2], res.Tiers[0]
	t.Logf("on-demand %.1f h, spot %.1f h, fallback %.1f h; $%.2f", od.ReplicaHours, res.Tiers[1].ReplicaHours, fb.ReplicaHours, res.CostUSD)
	if fb.ReplicaHours < 2 || od.ReplicaHours > 22 {
		t.Errorf("fallback %.1f h, on-demand %.1f h: want the fallback to take the night", fb.ReplicaHours, od.ReplicaHours)
	}
}

func TestKnativePanics(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: spikes, rate_per_s: 1, spike_rate_per_s: 30, spike_every_s: 1200, spike_duration_s: 120, duration_s: 7200, seed: 2}
service: {kind: distribution, mean_s: 1, cold_start_s: 10}
policy: {kind: knative, target_concurrency: 2, min_replicas: 1}
pricing: {per_hour_usd: 2}
`)
	res := mustRun(t, spec, Options{})
	t.Logf("peak %d replicas, %d scale events, p95 %.2fs", res.PeakReplicas, res.ScaleEvents, res.Latency.P95S)
	// Panic mode sizes for the spike plus the queue built during the cold
	// start, and never scales down while the spike lasts; afterwards the
	// fleet shrinks back.
	if res.PeakReplicas < 22 || res.MeanReplicas > float64(res.PeakReplicas)/3 {
		t.Errorf("peak %d replicas, mean %.1f: want a spike of at least 30/(2×0.7) and a return", res.PeakReplicas, res.MeanReplicas)
	}
}

func TestSearch(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: diurnal, rate_per_s: 0.5, amplitude: 1, duration_s: 43200, seed: 3}
service: {kind: distribution, mean_s: 2, cold_start_s: 30}
policy: {kind: fixed, replicas: 4}
slo: {latency_s: 60, target: 0.95}
pricing: {per_hour_usd: 2}
`)
	cands := []Candidate{{Name: "big", PricePerHourUSD: 4}, {Name: "small", PricePerHourUSD: 1.5}}
	res, err := Search(spec, cands, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best == nil {
		t.Fatal("nothing meets a lax SLO")
	}
	t.Logf("best %s %s: $%.2f (violations %.3f) after %d runs; runner-up %s %s $%.2f",
		res.Best.Candidate, res.Best.Summary, res.Best.CostUSD, res.Best.SLOViolationFraction, res.Evaluated,
		res.RunnersUp[0].Candidate, res.RunnersUp[0].Summary, res.RunnersUp[0].CostUSD)
	if res.Best.Candidate != "small" || res.Best.Policy.Kind == PolicyFixed {
		t.Errorf("want an autoscaled small fleet, got %s %s", res.Best.Candidate, res.Best.Summary)
	}
	if len(res.RunnersUp) != 5 || res.RunnersUp[0].CostUSD < res.Best.CostUSD {
		t.Errorf("runners-up: %+v", res.RunnersUp)
	}
	// What is shown can be deployed as shown, once: whole requests per
	// replica and whole seconds, and no two rows with the same outcome.
	rows := append([]SearchEntry{*res.Best}, res.RunnersUp...)
	outcomes := map[string]bool{}
	for _, e := range rows {
		p := e.Policy
		if p.Target != math.Round(p.Target) || p.ScaleDownStabilizationS != math.Round(p.ScaleDownStabilizationS) ||
			p.CooldownS != math.Round(p.CooldownS) || p.IdleTimeoutS != math.Round(p.IdleTimeoutS) {
			t.Errorf("%s: %s is not deployable as written", e.Candidate, e.Summary)
		}
		k := fmt.Sprintf("%s %.6f %.6f %.6f", e.Candidate, e.CostUSD, e.SLOViolationFraction, e.P95LatencyS)
		if outcomes[k] {
			t.Errorf("%s: %s repeats another row's outcome", e.Candidate, e.Summary)
		}
		outcomes[k] = true
	}
	if _, err := Search(spec, nil, nil, Options{}); err == nil {
		t.Error("no candidates accepted")
	}

	// Progress counts candidates and moves within each (a search of one
	// candidate can take minutes), never goes back, and is called inside
	// each simulation, so a caller can stop a search early.
	var seen []float64
	calls := 0
	again, err := Search(spec, cands, nil, Options{Progress: func(done, total float64) {
		calls++
		if total != 2 || (len(seen) > 0 && done < seen[len(seen)-1]) {
			t.Fatalf("progress %v of %v after %v", done, total, seen)
		}
		if len(seen) == 0 || seen[len(seen)-1] != done {
			seen = append(seen, done)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	within := 0 // distinct values strictly inside the first candidate
	for _, v := range seen {
		if v > 0 && v < 1 {
			within++
		}
	}
	if seen[0] != 0 || !slices.Contains(seen, 1) || within < 10 || calls <= res.Evaluated {
		t.Errorf("progress went through %d values (%d inside the first candidate) in %d calls over %d simulations", len(seen), within, calls, res.Evaluated)
	}
	if again.Evaluated != res.Evaluated || again.Best.CostUSD != res.Best.CostUSD {
		t.Errorf("progress changed the search: %d runs $%.2f, was %d runs $%.2f", again.Evaluated, again.Best.CostUSD, res.Evaluated, res.Best.CostUSD)
	}
}

func TestProgress(t *testing.T) {
	spec := mustSpec(t, `{traffic: {kind: poisson, rate_per_s: 10, duration_s: 7200}, service: {kind: distribution, mean_s: 0.1}, policy: {kind: fixed, replicas: 2}, pricing: {per_hour_usd: 1}}`)
	var calls int
	last := -1.0
	mustRun(t, spec, Options{Progress: func(done, total float64) {
		calls++
		if done < last || total != 7200 {
			t.Errorf("progress %v/%v after %v", done, total, last)
		}
		last = done
	}})
	if calls < 100 || last != 7200 {
		t.Errorf("%d progress calls, last %v", calls, last)
	}

	// A dense run also reports every 65,536 events, beyond its marks (one
	// per 60 s series step here, so 4): 400,000 requests make some 800,000
	// events, a dozen more calls.
	dense := mustSpec(t, `{traffic: {kind: poisson, rate_per_s: 2000, duration_s: 200}, service: {kind: distribution, mean_s: 0.01}, policy: {kind: fixed, replicas: 40}, pricing: {per_hour_usd: 1}}`)
	calls, last = 0, -1
	mustRun(t, dense, Options{Progress: func(done, total float64) {
		calls++
		if done < last || total != 200 {
			t.Errorf("progress %v/%v after %v", done, total, last)
		}
		last = done
	}})
	if calls < 4+10 {
		t.Errorf("%d progress calls on a dense run: the event count does not report", calls)
	}
}

// Replicas that share an instance are billed as whole instances: five
// replicas four to an instance pay for two instances, not five quarters.
func TestWholeInstancesBilled(t *testing.T) {
	for _, tc := range []struct{ replicas, perInstance, instances int }{{5, 4, 2}, {4, 4, 1}, {3, 1, 3}, {8, 4, 2}} {
		spec := mustSpec(t, fmt.Sprintf(`
traffic: {kind: trace, format: plain}
service: {kind: model, workload: w.yaml, offer: x/y}
policy: {kind: fixed, replicas: %d}
slo: {ttft_s: 5}
`, tc.replicas))
		m := &BatchModel{MaxBatch: 4, PrefillSPerToken: 0.001, StepBaseS: 0.02, StepPerSeqS: 0.01, PricePerHourUSD: 1, ReplicasPerInstance: tc.perInstance}
		r, err := Simulate(spec, &SliceSource{Requests: []Request{{0, 100, 11}, {3600, 100, 11}}}, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		hours := r.DurationS / 3600
		want := float64(tc.instances*max(tc.perInstance, 1)) * hours // instance price = perInstance replica prices
		if math.Abs(r.CostUSD-want) > 0.01*want {
			t.Errorf("%d replicas, %d per instance: cost %.3f for %.3f h, want %.3f (%d instances)", tc.replicas, tc.perInstance, r.CostUSD, hours, want, tc.instances)
		}
		if tc.perInstance > 1 && math.Abs(r.InstanceHours-float64(tc.instances)*hours) > 0.01 {
			t.Errorf("%d replicas, %d per instance: %.3f instance-hours, want %.3f", tc.replicas, tc.perInstance, r.InstanceHours, float64(tc.instances)*hours)
		}
	}
}

// Serverless workers are billed per worker, whatever the offer's packing.
func TestServerlessNotPacked(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: trace, format: plain}
service: {kind: model, workload: w.yaml, offer: x/y}
policy: {kind: serverless, max_workers: 3, idle_timeout_s: 60}
slo: {ttft_s: 5}
`)
	m := &BatchModel{MaxBatch: 4, PrefillSPerToken: 0.001, StepBaseS: 0.02, StepPerSeqS: 0.01, PricePerHourUSD: 1, ReplicasPerInstance: 4}
	r, err := Simulate(spec, &SliceSource{Requests: []Request{{0, 100, 11}, {1, 100, 11}}}, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.InstanceHours != 0 {
		t.Errorf("serverless workers billed as %.3f instance-hours", r.InstanceHours)
	}
}
