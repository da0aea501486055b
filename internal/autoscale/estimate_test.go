package autoscale

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
)

// within reports whether got is within frac of want.
func within(got, want, frac float64) bool {
	return math.Abs(got-want) <= frac*math.Max(want, 1)
}

// The estimate of one run is close to the events the simulator counts, on
// small runs of every policy and traffic kind, a model service and a trace.
func TestEstimateRun(t *testing.T) {
	model := &BatchModel{MaxBatch: 16, PrefillSPerToken: 0.0001, StepBaseS: 0.02, StepPerSeqS: 0.001, ColdStartS: 60, PricePerHourUSD: 4}
	trace := make([]Request, 3000)
	for i := range trace {
		trace[i] = Request{ArrivalS: float64(i) * 0.7, PromptTokens: 100, OutputTokens: 20}
	}
	for _, tc := range []struct {
		name, yaml string
		model      *BatchModel
		trace      []Request
	}{
		{"fixed poisson", `
traffic: {kind: poisson, rate_per_s: 20, duration_s: 1800}
service: {kind: distribution, mean_s: 0.2}
policy: {kind: fixed, replicas: 6}
pricing: {per_hour_usd: 1}`, nil, nil},
		{"target diurnal", `
traffic: {kind: diurnal, rate_per_s: 5, duration_s: 86400}
service: {kind: distribution, mean_s: 1, cold_start_s: 60}
policy: {kind: target, target: 1, max_replicas: 40}
pricing: {per_hour_usd: 1}`, nil, nil},
		{"knative constant", `
traffic: {kind: constant, rate_per_s: 2, duration_s: 7200}
service: {kind: distribution, mean_s: 3, concurrency: 4, cold_start_s: 10}
policy: {kind: knative, target_concurrency: 2}
pricing: {per_hour_usd: 1}`, nil, nil},
		{"serverless bursty", `
traffic: {kind: bursty, rate_per_s: 0.5, burst_multiplier: 8, duration_s: 21600}
service: {kind: distribution, mean_s: 2, provisioning_s: 5}
policy: {kind: serverless, max_workers: 20, idle_timeout_s: 30}
pricing: {per_hour_usd: 1}`, nil, nil},
		{"mixed spikes", `
traffic: {kind: spikes, rate_per_s: 3, spike_rate_per_s: 30, spike_every_s: 1800, spike_duration_s: 120, duration_s: 14400}
service: {kind: distribution, mean_s: 1, cold_start_s: 30}
policy: {kind: mixed, target: 1, on_demand: {replicas: 2}, spot: {max_replicas: 30}}
pricing: {per_hour_usd: 2}`, nil, nil},
		{"model target", `
traffic: {kind: poisson, rate_per_s: 10, duration_s: 7200, prompt_tokens: 500, output_tokens: 100, token_dist: exponential}
service: {kind: model, workload: w.yaml, offer: aws/x}
policy: {kind: target, target: 12, min_replicas: 1, max_replicas: 30}
pricing: {per_hour_usd: 0}`, model, nil},
		{"trace", `
traffic: {kind: trace, format: plain}
service: {kind: distribution, mean_s: 1}
policy: {kind: target, target: 2, min_replicas: 1}
pricing: {per_hour_usd: 1}`, nil, trace},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := mustSpec(t, tc.yaml)
			var src Source
			var stats *TraceStats
			if tc.trace != nil {
				st, err := ScanTrace(&SliceSource{Requests: tc.trace}, spec.Traffic.DurationS)
				if err != nil {
					t.Fatal(err)
				}
				stats, src = &st, &SliceSource{Requests: tc.trace}
			}
			res, err := Simulate(spec, src, tc.model, Options{})
			if err != nil {
				t.Fatal(err)
			}
			e := EstimateRun(spec, stats, tc.model)
			t.Logf("estimate %s (%.0f events); measured %d requests, %d events, %d cold starts", e, e.EventsPerRun, res.Requests, res.events, res.ColdStarts)
			if !within(e.Requests, float64(res.Requests), 0.1) {
				t.Errorf("requests: estimated %.0f, measured %d", e.Requests, res.Requests)
			}
			if !within(e.EventsPerRun, float64(res.events), 0.15) {
				t.Errorf("events: estimated %.0f, measured %d", e.EventsPerRun, res.events)
			}
			if e.Runs != 1 || e.Cost < e.EventsPerRun {
				t.Errorf("a run's runs and cost: %d, %.0f", e.Runs, e.Cost)
			}
		})
	}
}

// A search's estimated runs are within a small factor of those it makes:
// the refinement that may follow the grid is counted as two rounds, which
// a search whose policies rarely meet the SLO does not make.
func TestEstimateSearch(t *testing.T) {
	for _, y := range []string{`
traffic: {kind: poisson, rate_per_s: 4, duration_s: 1800}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: fixed, replicas: 4}
slo: {latency_s: 3}
pricing: {per_hour_usd: 1}`, `
traffic: {kind: diurnal, rate_per_s: 1, duration_s: 21600}
service: {kind: distribution, mean_s: 2, concurrency: 2, cold_start_s: 60}
policy: {kind: target}
slo: {latency_s: 20, target: 0.95}
pricing: {per_hour_usd: 1}`} {
		spec := mustSpec(t, y)
		cands := []Candidate{{Name: "a", PricePerHourUSD: 1}, {Name: "b", PricePerHourUSD: 2}}
		res, err := Search(spec, cands, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := EstimateSearch(spec, nil, cands)
		t.Logf("estimate %s, cost %.3g; measured %d runs", e, e.Cost, res.Evaluated)
		if e.Candidates != 2 || float64(e.Runs) < 0.5*float64(res.Evaluated) || float64(e.Runs) > 3.5*float64(res.Evaluated) {
			t.Errorf("runs: estimated %d over %d candidates, measured %d", e.Runs, e.Candidates, res.Evaluated)
		}
		if one := EstimateRun(spec, nil, nil); e.Cost < float64(res.Evaluated)/2*one.EventsPerRun {
			t.Errorf("cost %.3g below half the runs' events (%d × %.0f)", e.Cost, res.Evaluated, one.EventsPerRun)
		}
	}
}

// The default limits let every example through, and refuse work beyond
// them with the estimate and the limit.
func TestEstimateLimits(t *testing.T) {
	files, _ := filepath.Glob("../../examples/service-*.yaml")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := ParseSpec(data)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Service.Kind == ServiceModel {
			continue // its search is checked over the API (internal/server)
		}
		e := EstimateSearch(spec, nil, []Candidate{{Name: spec.Name, PricePerHourUSD: spec.Pricing.PerHourUSD}})
		if err := e.Check(DefaultLimits); err != nil {
			t.Errorf("%s: its search is refused: %v", f, err)
		}
	}
	year := &TraceStats{Requests: 2, SpanS: 99 * 365.25 * 86400}
	for _, tc := range []struct {
		name, yaml string
		trace      *TraceStats
		want       []string
	}{
		{"a million requests a second for a day", `
traffic: {kind: poisson, rate_per_s: 1e6, duration_s: 86400}
service: {kind: distribution, mean_s: 1}
policy: {kind: fixed, replicas: 100}
pricing: {per_hour_usd: 1}`, nil, []string{"this simulation would take about 1.7e+11 events (8.6e+10 requests over 24 h)", "over the limit of 1e+10 events"}},
		{"a 99-year trace", `
traffic: {kind: trace, format: plain}
service: {kind: distribution, mean_s: 1}
policy: {kind: fixed, replicas: 1}
pricing: {per_hour_usd: 1}`, year, []string{"would replay 99 years of traffic, over the limit of 366 days"}},
		{"a 99-year trace, ticking", `
traffic: {kind: trace, format: plain}
service: {kind: distribution, mean_s: 1}
policy: {kind: knative, tick_s: 0.1}
pricing: {per_hour_usd: 1}`, year, []string{"99 years of traffic", "events (2 requests over 99 years, 3.1e+10 policy ticks"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := EstimateRun(mustSpec(t, tc.yaml), tc.trace, nil).Check(DefaultLimits)
			var e *apperr.Error
			if !errors.As(err, &e) || e.Code != apperr.Invalid {
				t.Fatalf("err = %v, want an Invalid error", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nlacks %q", err, w)
				}
			}
		})
	}
}

// An empty or header-only trace is an error, whichever way it is read.
func TestEmptyTrace(t *testing.T) {
	for _, tc := range []struct{ format, data string }{
		{FormatAzure, ""},
		{FormatAzure, "TIMESTAMP,ContextTokens,GeneratedTokens\n"},
		{FormatBurstGPT, "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n\n"},
		{FormatPlain, "timestamp_s,prompt_tokens\n# nothing yet\n"},
	} {
		t.Run(fmt.Sprintf("%s %q", tc.format, tc.data), func(t *testing.T) {
			src, err := ReadTrace(tc.format, strings.NewReader(tc.data), TraceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ScanTrace(src, 0); err == nil || !strings.Contains(err.Error(), "the trace holds no requests") {
				t.Errorf("scan: %v", err)
			}
			src, _ = ReadTrace(tc.format, strings.NewReader(tc.data), TraceOptions{})
			spec := mustSpec(t, "traffic: {kind: trace, format: plain}\nservice: {kind: distribution, mean_s: 1}\npolicy: {kind: fixed, replicas: 1}\npricing: {per_hour_usd: 1}\n")
			if res, err := Simulate(spec, src, nil, Options{}); err == nil || !strings.Contains(err.Error(), "the trace holds no requests") {
				t.Errorf("simulate: %v, %+v", err, res)
			}
		})
	}
	if _, err := ScanTrace(&SliceSource{Requests: []Request{{ArrivalS: 0}, {ArrivalS: 50}}}, 0); err != nil {
		t.Errorf("a trace of two requests: %v", err)
	}
}

// A run and a search stop soon after their context is done, with its
// error and no result.
func TestContextStops(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: poisson, rate_per_s: 500, duration_s: 2592000}
service: {kind: distribution, mean_s: 0.1}
policy: {kind: target, target: 1, max_replicas: 200}
pricing: {per_hour_usd: 1}`)
	for _, search := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		var err error
		if search {
			var res *SearchResult
			res, err = Search(spec, []Candidate{{Name: "a", PricePerHourUSD: 1}}, nil, Options{Context: ctx})
			if res != nil {
				t.Error("a stopped search has a result")
			}
		} else {
			var res *Result
			res, err = Simulate(spec, nil, nil, Options{Context: ctx})
			if res != nil {
				t.Error("a stopped run has a result")
			}
		}
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || took > time.Second {
			t.Errorf("search %v: %v after %v, want the deadline's error soon after 50ms", search, err, took)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Simulate(spec, nil, nil, Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before it starts: %v", err)
	}
}

// A backlog that would take years to serve ends a day after the traffic:
// what is left counts as timed out, and the run takes no longer than its
// estimate says.
func TestDrainBounded(t *testing.T) {
	spec := mustSpec(t, `
traffic: {kind: constant, rate_per_s: 10, duration_s: 600}
service: {kind: distribution, distribution: deterministic, mean_s: 86400, cold_start_s: 0}
policy: {kind: knative, tick_s: 0.1, max_replicas: 1, target_concurrency: 1}
pricing: {per_hour_usd: 1}`)
	res, err := Simulate(spec, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.DurationS > 600+MaxDrainS+1 || res.Completed != 1 || res.TimedOut+res.Dropped != res.Requests-1 {
		t.Errorf("ran %v s: %d completed, %d timed out, %d dropped of %d", res.DurationS, res.Completed, res.TimedOut, res.Dropped, res.Requests)
	}
	if e := EstimateRun(spec, nil, nil); !within(e.EventsPerRun, float64(res.events), 0.2) {
		t.Errorf("events: estimated %.0f, measured %d", e.EventsPerRun, res.events)
	}
}
