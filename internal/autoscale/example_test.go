package autoscale_test

import (
	"fmt"
	"strings"

	"github.com/gpupick/gpupick/internal/autoscale"
)

func ExampleSimulate() {
	spec, err := autoscale.ParseSpec([]byte(`
traffic: {kind: poisson, rate_per_s: 3, duration_s: 3600, seed: 1}
service: {kind: distribution, distribution: exponential, mean_s: 1, cold_start_s: 0}
policy: {kind: fixed, replicas: 4}
slo: {latency_s: 8}
pricing: {per_hour_usd: 2.5}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := autoscale.Simulate(spec, nil, nil, autoscale.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d requests, utilization %.2f, cost $%.2f, SLO met %v\n", res.Requests, res.Utilization, res.CostUSD, res.SLOMet)
	// Output: 10672 requests, utilization 0.74, cost $10.00, SLO met true
}

func ExampleReadTrace() {
	trace := "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,396,109\n"
	src, _ := autoscale.ReadTrace(autoscale.FormatAzure, strings.NewReader(trace), autoscale.TraceOptions{})
	for {
		r, ok := src.Next()
		if !ok {
			break
		}
		fmt.Printf("%.3f s: %d prompt, %d output tokens\n", r.ArrivalS, r.PromptTokens, r.OutputTokens)
	}
	fmt.Println(src.Err())
	// Output:
	// 0.000 s: 374 prompt, 44 output tokens
	// 4.315 s: 396 prompt, 109 output tokens
	// <nil>
}

func ExampleEstimateRun() {
	spec, err := autoscale.ParseSpec([]byte(`
traffic: {kind: poisson, rate_per_s: 50000, duration_s: 86400}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: target, target: 4, max_replicas: 10000}
pricing: {per_hour_usd: 1}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	est := autoscale.EstimateRun(spec, nil, nil)
	fmt.Printf("%.2g events\n", est.Cost)
	fmt.Println(est.Check(autoscale.DefaultLimits))
	// Output:
	// 8.6e+09 events
	// <nil>
}

func ExampleEstimateSearch() {
	spec, _ := autoscale.ParseSpec([]byte(`
traffic: {kind: poisson, rate_per_s: 50000, duration_s: 86400}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: target, target: 4, max_replicas: 10000}
pricing: {per_hour_usd: 1}
`))
	est := autoscale.EstimateSearch(spec, nil, []autoscale.Candidate{{Name: "a", PricePerHourUSD: 1}})
	fmt.Println(est.Check(autoscale.DefaultLimits))
	// Output:
	// this search would take about 7.3e+11 events (85 runs over 1 candidate, 8.6e+09 events each: 4.3e+09 requests over 24 h, 5770 policy ticks, 577 cold starts), over the limit of 1e+10 events: shorten traffic.duration_s or the trace, or lower the rate
}
