package autoscale

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteCommit prices every base from 0 to the peak and keeps the cheapest.
func bruteCommit(unitS []float64, od, committed float64) (int, float64) {
	var runS float64
	for _, t := range unitS {
		runS += t
	}
	best, base := math.Inf(1), 0
	for b := 0; b < len(unitS); b++ {
		cost := float64(b) * committed * runS / 3600
		for u, t := range unitS {
			if u > b {
				cost += float64(u-b) * t / 3600 * od
			}
		}
		if cost < best-1e-9 {
			best, base = cost, b
		}
	}
	return base, best
}

// The base PriceCommitment picks is the cheapest of all bases, and it is
// the newsvendor quantile: its last unit is held at least the break-even
// share of the run and one more would not be.
func TestPriceCommitmentIsCheapestBase(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		unitS := make([]float64, 1+rng.IntN(12))
		for u := range unitS {
			if rng.IntN(4) > 0 {
				unitS[u] = rng.Float64() * 7200
			}
		}
		od := 0.5 + rng.Float64()*10
		committed := od * (0.2 + rng.Float64()*1.0) // some above on-demand
		c := PriceCommitment(unitS, od, committed)
		base, cost := bruteCommit(unitS, od, committed)
		if c.Base != base || math.Abs(c.CostUSD-cost) > 1e-6*(1+cost) {
			t.Fatalf("trial %d %v od %.3f committed %.3f: base %d cost %.4f, brute force base %d cost %.4f", trial, unitS, od, committed, c.Base, c.CostUSD, base, cost)
		}
		if c.CostUSD > c.OnDemandCostUSD+1e-9 {
			t.Fatalf("trial %d: committing costs %.4f, more than all on demand %.4f", trial, c.CostUSD, c.OnDemandCostUSD)
		}
		if math.Abs(c.BaseCostUSD+c.BurstCostUSD-c.CostUSD) > 1e-9*(1+c.CostUSD) {
			t.Fatalf("trial %d: base %.4f + burst %.4f != %.4f", trial, c.BaseCostUSD, c.BurstCostUSD, c.CostUSD)
		}
		var runS, atBase, above float64
		for u, s := range unitS {
			runS += s
			if u >= c.Base {
				atBase += s
			}
			if u >= c.Base+1 {
				above += s
			}
		}
		if runS == 0 {
			continue
		}
		if c.Base > 0 && atBase/runS < c.BreakEven-1e-9 {
			t.Fatalf("trial %d: base %d held %.3f of the run, under the break-even %.3f", trial, c.Base, atBase/runS, c.BreakEven)
		}
		if c.Base+1 < len(unitS) && above/runS > c.BreakEven+1e-9 {
			t.Fatalf("trial %d: a base of %d units would be held %.3f of the run, over the break-even %.3f, yet base is %d", trial, c.Base+1, above/runS, c.BreakEven, c.Base)
		}
	}
}

func TestPriceCommitmentEdges(t *testing.T) {
	// A flat fleet of 3 commits all 3.
	c := PriceCommitment([]float64{0, 0, 0, 3600}, 2, 1.2)
	if c.Base != 3 || math.Abs(c.CostUSD-3.6) > 1e-9 || math.Abs(c.OnDemandCostUSD-6) > 1e-9 || c.BaseHeldFraction != 1 {
		t.Errorf("flat fleet: %+v, want base 3, $3.60 against $6.00, held 100%%", c)
	}
	// A commitment dearer than on-demand commits nothing.
	if c := PriceCommitment([]float64{0, 3600}, 1, 1.5); c.Base != 0 || c.CostUSD != c.OnDemandCostUSD {
		t.Errorf("dearer commitment: %+v, want base 0", c)
	}
	// Nothing held, nothing run.
	if c := PriceCommitment([]float64{0}, 1, 0.5); c.Base != 0 || c.CostUSD != 0 {
		t.Errorf("empty fleet: %+v", c)
	}
	if c := PriceCommitment(nil, 1, 0.5); c.Base != 0 || c.CostUSD != 0 {
		t.Errorf("no run: %+v", c)
	}
}

// A simulation prices its on-demand replicas as a committed base: a
// fixed fleet commits all of it; a fleet that follows the day commits its
// floor and what it keeps most of the day, and replicas sharing instances
// commit whole instances.
func TestSimulationCommitments(t *testing.T) {
	for _, tc := range []struct {
		replicas, perInstance, base int
		unit                        string
	}{{3, 1, 3, "replica"}, {5, 4, 2, "instance"}} {
		spec := mustSpec(t, fmt.Sprintf(`
traffic: {kind: trace, format: plain}
service: {kind: model, workload: w.yaml, offer: x/y}
policy: {kind: fixed, replicas: %d}
slo: {ttft_s: 5}
pricing: {reserved_per_hour_usd: 0.6}
`, tc.replicas))
		m := &BatchModel{MaxBatch: 4, PrefillSPerToken: 0.001, StepBaseS: 0.02, StepPerSeqS: 0.01, PricePerHourUSD: 1, ReplicasPerInstance: tc.perInstance}
		r, err := Simulate(spec, &SliceSource{Requests: []Request{{0, 100, 11}, {3600, 100, 11}}}, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Commitments) != 1 {
			t.Fatalf("%d replicas: %d commitments, want 1", tc.replicas, len(r.Commitments))
		}
		c := r.Commitments[0]
		hours := r.DurationS / 3600
		per := float64(max(tc.perInstance, 1))
		if c.Term != "reserved" || c.Unit != tc.unit || c.Base != tc.base || math.Abs(c.PerHourUSD-0.6*per) > 1e-9 {
			t.Errorf("%d replicas %d an instance: %+v, want %d %s(s) at %.2f", tc.replicas, tc.perInstance, c, tc.base, tc.unit, 0.6*per)
		}
		want := float64(tc.base) * 0.6 * per * hours
		if math.Abs(c.CostUSD-want) > 0.01*want || math.Abs(c.FleetCostUSD-want) > 0.01*want || math.Abs(c.OnDemandCostUSD-r.CostUSD) > 0.01*r.CostUSD {
			t.Errorf("%d replicas: cost %.3f (fleet %.3f), want %.3f; all on demand %.3f against the run's %.3f", tc.replicas, c.CostUSD, c.FleetCostUSD, want, c.OnDemandCostUSD, r.CostUSD)
		}
	}

	// A day of diurnal traffic: the base is under the peak, above the
	// floor, and saves money.
	spec := mustSpec(t, `
traffic: {kind: diurnal, rate_per_s: 2, amplitude: 0.9, peak_hour: 14, duration_s: 86400, seed: 1}
service: {kind: distribution, distribution: exponential, mean_s: 1.5, cold_start_s: 120}
policy: {kind: target, metric: in_flight, target: 1, min_replicas: 1, max_replicas: 20, polling_interval_s: 15, scale_down_stabilization_s: 300}
slo: {latency_s: 10, target: 0.95}
pricing: {per_hour_usd: 2.49, reserved_per_hour_usd: 1.62}
`)
	r := mustRun(t, spec, Options{})
	c := r.Commitments[0]
	if !(c.Base > 1 && c.Base < r.PeakReplicas) || !(c.CostUSD < 0.95*c.OnDemandCostUSD) || c.BaseHeldFraction < c.BreakEven {
		t.Errorf("diurnal day: base %d (peak %d), $%.2f against $%.2f on demand, held %.2f against break-even %.2f", c.Base, r.PeakReplicas, c.CostUSD, c.OnDemandCostUSD, c.BaseHeldFraction, c.BreakEven)
	}
	if math.Abs(c.OnDemandCostUSD-r.CostUSD) > 0.01*r.CostUSD {
		t.Errorf("the held time priced on demand, $%.2f, is not the run's cost $%.2f", c.OnDemandCostUSD, r.CostUSD)
	}
}

func TestReservedPriceChecked(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"policy: {kind: serverless, max_workers: 2}\npricing: {per_hour_usd: 1, reserved_per_hour_usd: 0.5}", "pricing.reserved_per_hour_usd"},
		{"policy: {kind: fixed, replicas: 1}\npricing: {per_hour_usd: 1, reserved_per_hour_usd: -1}", "pricing.reserved_per_hour_usd"},
		{"policy: {kind: fixed, replicas: 1}\npricing: {per_hour_usd: 1, reserved_per_hour_usd: 0}", "pricing.reserved_per_hour_usd"},
	} {
		_, err := ParseSpec([]byte("traffic: {kind: constant, rate_per_s: 1, duration_s: 60}\nservice: {kind: distribution, mean_s: 1}\n" + tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.yaml, err, tc.want)
		}
	}
}
