package autoscale

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func addFiles(f *testing.F, glob ...string) {
	for _, g := range glob {
		for _, name := range must(filepath.Glob(g)) {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func FuzzParseSpec(f *testing.F) {
	addFiles(f, "../../examples/service-*.yaml")
	f.Add([]byte(`{traffic: {kind: spikes, rate_per_s: 0, spike_rate_per_s: 5}, service: {kind: distribution, mean_s: 1}, policy: {kind: knative}, pricing: {per_hour_usd: 1}}`))
	f.Add([]byte("traffic: &a {kind: poisson}\nservice: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpec(data)
		if err != nil {
			if s != nil {
				t.Fatal("a spec and an error")
			}
			return
		}
		// Its estimate is a number: the ranges keep the arithmetic finite.
		if e := EstimateSearch(s, nil, []Candidate{{Name: "x"}}); math.IsNaN(e.Cost) || math.IsInf(e.Cost, 0) || e.Cost < 0 {
			t.Fatalf("estimate %+v", e)
		}
		// A spec that parses must run (briefly) without panicking.
		if s.Service.Kind == ServiceDistribution && s.Traffic.Kind != TrafficTrace {
			s.Traffic.DurationS = min(s.Traffic.DurationS, 600)
			src, err := NewSource(&s.Traffic, 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Simulate(s, &limited{src, 200}, nil, Options{}); err != nil {
				t.Fatalf("valid spec does not run: %v", err)
			}
		}
	})
}

func fuzzTrace(f *testing.F, format string, seeds ...string) {
	addFiles(f, seeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := ReadTrace(format, bytes.NewReader(data), TraceOptions{TimeScale: 1.5})
		if err != nil {
			t.Fatal(err)
		}
		last := 0.0
		for n := 0; ; n++ {
			r, ok := src.Next()
			if !ok {
				break
			}
			if r.ArrivalS < last || r.PromptTokens < 0 || r.OutputTokens < 0 {
				t.Fatalf("bad request %+v after %v", r, last)
			}
			last = r.ArrivalS
		}
		if err := src.Err(); err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}

func FuzzAzureTrace(f *testing.F) {
	fuzzTrace(f, FormatAzure, "testdata/azure*.csv")
}

func FuzzBurstGPT(f *testing.F) {
	fuzzTrace(f, FormatBurstGPT, "testdata/burstgpt*.csv")
}

func FuzzPlainTrace(f *testing.F) {
	fuzzTrace(f, FormatPlain, "testdata/plain*.csv")
}
