package autoscale

import (
	"flag"
	"runtime"
	"testing"
	"time"
)

var weekRun = flag.Bool("week", false, "run the week at 200 requests/s (about 120 million requests)")

func benchSpec(b testing.TB, policy string) *Spec {
	return mustSpec(b, `
traffic: {kind: poisson, rate_per_s: 200, duration_s: 1000000, seed: 1}
service: {kind: distribution, distribution: exponential, mean_s: 0.05, cold_start_s: 60}
pricing: {per_hour_usd: 2}
policy: `+policy)
}

// limited cuts a source after n requests.
type limited struct {
	src Source
	n   int
}

func (l *limited) Next() (Request, bool) {
	if l.n <= 0 {
		return Request{}, false
	}
	l.n--
	return l.src.Next()
}

func benchPolicy(b *testing.B, policy string) {
	spec := benchSpec(b, policy)
	const n = 1_000_000
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		src, _ := NewSource(&spec.Traffic, 1)
		if _, err := Simulate(spec, &limited{src, n}, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}

// BenchmarkFixed: 12 replicas at 83% load, Poisson arrivals, exponential service.
func BenchmarkFixed(b *testing.B) { benchPolicy(b, "{kind: fixed, replicas: 12}") }

// BenchmarkTarget: HPA target tracking on requests in flight, 15 s polling.
func BenchmarkTarget(b *testing.B) {
	benchPolicy(b, "{kind: target, target: 1, min_replicas: 1, max_replicas: 50}")
}

// BenchmarkBatch: continuous batching, 4 replicas of up to 32 sequences.
func BenchmarkBatch(b *testing.B) {
	spec := mustSpec(b, `
traffic: {kind: poisson, rate_per_s: 20, duration_s: 1000000, seed: 1, prompt_tokens: 512, output_tokens: 128, token_dist: exponential}
service: {kind: model, workload: w.yaml, offer: aws/x}
policy: {kind: fixed, replicas: 4}
`)
	m := &BatchModel{MaxBatch: 32, PrefillSPerToken: 0.0001, StepBaseS: 0.02, StepPerSeqS: 0.0005, PricePerHourUSD: 4}
	const n = 200_000
	b.ReportAllocs()
	for range b.N {
		src, _ := NewSource(&spec.Traffic, 1)
		if _, err := Simulate(spec, &limited{src, n}, m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}

func BenchmarkSketchAdd(b *testing.B) {
	s := NewSketch()
	v := 0.001
	for range b.N {
		s.Add(v)
		v *= 1.0001
		if v > 100 {
			v = 0.001
		}
	}
}

// TestWeek runs a week of Poisson traffic at 200 requests/s (about 121
// million requests) through a target-tracking fleet; run it with -week.
func TestWeek(t *testing.T) {
	if !*weekRun {
		t.Skip("run with -week")
	}
	spec := mustSpec(t, `
traffic: {kind: diurnal, rate_per_s: 200, amplitude: 0.5, duration_s: 604800, seed: 1}
service: {kind: distribution, distribution: exponential, mean_s: 0.05, cold_start_s: 60}
pricing: {per_hour_usd: 2}
policy: {kind: target, target: 1, min_replicas: 1, max_replicas: 100}
`)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	res, err := Simulate(spec, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("week: %d requests in %v (%.2fM requests/s), allocated %.1f MB in %d allocations, heap in use %.1f MB; p95 %.3fs, %.0f replica-h, %d scale events",
		res.Requests, el.Round(time.Millisecond), float64(res.Requests)/el.Seconds()/1e6,
		float64(after.TotalAlloc-before.TotalAlloc)/1e6, after.Mallocs-before.Mallocs, float64(after.HeapInuse)/1e6,
		res.Latency.P95S, res.ReplicaHours, res.ScaleEvents)
}

// benchImage: an image service (one image per request, StepsPerRequest 1,
// batches of up to 1) at 83% load over 12 replicas: the model path of the
// simulator with the free-list of one-at-a-time replicas.
func benchImage(b *testing.B, policy string) {
	spec := mustSpec(b, `
traffic: {kind: poisson, rate_per_s: 200, duration_s: 1000000, seed: 1}
service: {kind: model, workload: w.yaml, offer: aws/x, cold_start_s: 60}
policy: `+policy)
	m := &BatchModel{MaxBatch: 1, StepBaseS: 0.05, StepsPerRequest: 1, PricePerHourUSD: 2}
	const n = 1_000_000
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		src, _ := NewSource(&spec.Traffic, 1)
		if _, err := Simulate(spec, &limited{src, n}, m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}

// BenchmarkImageFixed: an image model service on 12 fixed replicas.
func BenchmarkImageFixed(b *testing.B) { benchImage(b, "{kind: fixed, replicas: 12}") }

// BenchmarkImageTarget: the same with target tracking.
func BenchmarkImageTarget(b *testing.B) {
	benchImage(b, "{kind: target, target: 1, min_replicas: 1, max_replicas: 50}")
}
