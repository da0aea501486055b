package autoscale

import (
	"fmt"
	"testing"
)

// Each advice is checked by doing what it says and simulating again: the
// change it asks for must fix what it names (or, for faster_replica, the
// change it rules out must not).
func TestAdviceHoldsWhenFollowed(t *testing.T) {
	spec := func(policy string, meanS, latencyS float64) *Spec {
		return mustSpec(t, fmt.Sprintf(`
traffic: {kind: poisson, rate_per_s: 40, duration_s: 1800, seed: 3}
service: {kind: distribution, distribution: lognormal, mean_s: %g, cv: 0.5}
policy: %s
slo: {latency_s: %g, target: 0.99}
pricing: {per_hour_usd: 2}
`, meanS, policy, latencyS))
	}
	advice := func(r *Result) string {
		if r.Advice == nil {
			return "<none>"
		}
		return r.Advice.Code
	}

	// A cap of 3 replicas for a load that keeps 4 busy: raise the maximum.
	capped := mustRun(t, spec("{kind: target, target: 1, min_replicas: 3, max_replicas: 3}", 0.1, 0.5), Options{})
	if advice(capped) != AdviceRaiseMax || capped.SLOMet {
		t.Fatalf("capped fleet: SLO met %v, advice %s %v, want raise_max", capped.SLOMet, advice(capped), capped.Advice)
	}
	if m := capped.Advice.Args[0]; m != 3 {
		t.Errorf("raise_max names a maximum of %v, want 3", m)
	}
	raised := mustRun(t, spec("{kind: target, target: 1, min_replicas: 3, max_replicas: 12}", 0.1, 0.5), Options{})
	// The rest is the start: the floor of 3 is below the load, and the
	// replicas added take a cold start each (the next advice says so).
	if raised.SLOViolationFraction > capped.SLOViolationFraction/5 {
		t.Errorf("with the maximum raised: %.2f%% over the SLO (was %.2f%%), want a fifth or less", 100*raised.SLOViolationFraction, 100*capped.SLOViolationFraction)
	}
	if advice(raised) != AdviceScaleSooner {
		t.Errorf("12 replicas for a load that keeps 4 busy, behind from the start: advice %v, want scale_sooner", raised.Advice)
	}

	// A request takes 0.8 s on its own against a 0.5 s bound: more replicas
	// cannot help.
	slow := mustRun(t, spec("{kind: fixed, replicas: 60}", 0.8, 0.5), Options{})
	if advice(slow) != AdviceFasterReplica {
		t.Fatalf("slow replicas: advice %s %v, want faster_replica", advice(slow), slow.Advice)
	}
	doubled := mustRun(t, spec("{kind: fixed, replicas: 120}", 0.8, 0.5), Options{})
	if doubled.SLOMet || doubled.SLOViolationFraction < 0.9*slow.SLOViolationFraction {
		t.Errorf("twice the replicas changed the violations from %.2f%% to %.2f%%: the advice said they would not help", 100*slow.SLOViolationFraction, 100*doubled.SLOViolationFraction)
	}

	// Forty replicas for a load that keeps four busy: spend less.
	idle := mustRun(t, spec("{kind: fixed, replicas: 40}", 0.1, 0.5), Options{})
	if advice(idle) != AdviceScaleDown {
		t.Fatalf("idle fleet: advice %s %v, want scale_down", advice(idle), idle.Advice)
	}
	fewer := mustRun(t, spec("{kind: fixed, replicas: 10}", 0.1, 0.5), Options{})
	if !fewer.SLOMet || fewer.CostUSD >= idle.CostUSD {
		t.Errorf("a quarter of the replicas: SLO met %v, $%.2f against $%.2f: the advice to spend less does not hold", fewer.SLOMet, fewer.CostUSD, idle.CostUSD)
	}
	if advice(fewer) == AdviceRaiseMax || advice(fewer) == AdviceScaleSooner {
		t.Errorf("the smaller fleet is told %s", advice(fewer))
	}
}

// The decision table on results whose figures are set by hand: the cases
// a short simulation does not reach reliably.
func TestAdviceDecisions(t *testing.T) {
	slo := SLO{TTFTS: 1, Target: 0.99}
	target := Policy{Kind: PolicyTarget, MinReplicas: 1, MaxReplicas: 10}
	mixed := Policy{Kind: PolicyMixed, OnDemand: &OnDemandTier{Replicas: 2}, Spot: &SpotTier{MaxReplicas: 6}}
	// at is k buckets with n replicas up and 8 arrivals a second: with a
	// second in service (lat below), the busiest bucket needs 8 replicas.
	at := func(n float64, k int) []SeriesPoint {
		s := make([]SeriesPoint, k)
		for i := range s {
			s[i].Replicas, s[i].ArrivalsPerS = n, 8
		}
		return s
	}
	lat := Percentiles{MeanS: 2.2, P95S: 3}
	wait := Percentiles{MeanS: 1.2, P95S: 2}
	for _, tc := range []struct {
		name   string
		policy Policy
		r      Result
		want   string
	}{
		{"spot reclaims", mixed, Result{SLOViolationFraction: 0.03, PeakReplicas: 5, Interruptions: 9, Requeued: 40, Wait: Percentiles{P95S: 2}, TTFT: Percentiles{P95S: 3}, Series: at(5, 10)}, AdviceSpotBase},
		{"late scale-up", target, Result{SLOViolationFraction: 0.03, PeakReplicas: 7, ColdStarts: 12, Wait: Percentiles{P95S: 2}, TTFT: Percentiles{P95S: 3}, Series: at(6, 10)}, AdviceScaleSooner},
		{"at the maximum", target, Result{SLOViolationFraction: 0.03, PeakReplicas: 10, Wait: wait, TTFT: lat, Latency: lat, Series: append(at(10, 3), at(5, 7)...)}, AdviceRaiseMax},
		{"a moment at the maximum", target, Result{SLOViolationFraction: 0.03, PeakReplicas: 10, Wait: wait, TTFT: lat, Latency: lat, Series: append(at(10, 1), at(5, 99)...)}, AdviceScaleSooner},
		{"at the maximum catching up", target, Result{SLOViolationFraction: 0.03, PeakReplicas: 10, Wait: Percentiles{MeanS: 1.7, P95S: 2}, TTFT: lat, Latency: lat, Series: append(at(10, 3), at(5, 7)...)}, AdviceScaleSooner},
		{"slow first token", target, Result{SLOViolationFraction: 0.2, PeakReplicas: 4, Wait: Percentiles{P95S: 0.02, P99S: 0.05}, TTFT: Percentiles{P95S: 1.6, P99S: 1.9}, Series: at(4, 10)}, AdviceFasterReplica},
		{"tight", target, Result{SLOMet: true, SLOViolationFraction: 0.008, Utilization: 0.3, MeanReplicas: 4}, AdviceTight},
		{"idle with margin", target, Result{SLOMet: true, SLOViolationFraction: 0.001, Utilization: 0.3, MeanReplicas: 4}, AdviceScaleDown},
		{"idle, one replica", target, Result{SLOMet: true, SLOViolationFraction: 0.001, Utilization: 0.3, MeanReplicas: 1}, AdviceKeep},
		{"busy", target, Result{SLOMet: true, SLOViolationFraction: 0.001, Utilization: 0.8, MeanReplicas: 4}, AdviceKeep},
	} {
		s := &Spec{Policy: tc.policy, SLO: slo}
		if got := advise(s, &tc.r, 1); got == nil || got.Code != tc.want {
			t.Errorf("%s: advice %+v, want %s", tc.name, got, tc.want)
		}
	}
}
