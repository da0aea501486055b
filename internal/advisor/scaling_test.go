package advisor

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// serviceSpecs are the service examples and generated services: day
// shapes (constant, half again at the peak, twice the mean), both
// availability levels, and the pricing modes that split a plan.
func serviceSpecs(t *testing.T) map[string]*workload.Spec {
	t.Helper()
	out := map[string]*workload.Spec{}
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := workload.Parse(b, f); err == nil && s.IsService() {
			out[filepath.Base(f)] = s
		}
	}
	for _, rate := range []float64{0.5, 40} {
		for _, peak := range []float64{1, 1.6} {
			for _, avail := range []string{"production", "zone-redundant", "best-effort"} {
				y := fmt.Sprintf("kind: llm-inference\nmodel: {preset: llama-3-8b}\n"+
					"inference: {prompt_tokens: 700, output_tokens: 200, requests_per_second: %g, slo: {ttft_ms: 800, tpot_ms: 60}}\n"+
					"service: {availability: %s, peak_requests_per_second: %g}\n"+
					"constraints: {pricing: [on-demand, spot, reserved-1y], providers: [aws, lambda]}\n", rate, avail, rate*peak)
				out[fmt.Sprintf("chat-%g-x%g-%s", rate, peak, avail)] = spec(t, y)
			}
		}
	}
	return out
}

// Every service plan keeps the rules of its day, for every candidate of
// every service: it is sized for the peak with its spare, a production
// plan never rests on spot alone and keeps a zone's loss off its quiet
// hours where it knows the zones, the burst is within the fleet, the
// parts of its cost add up to it, and the fleet it prices is the fleet
// its plan gives.
func TestServicePlansKeepTheirDay(t *testing.T) {
	cat := embedded(t)
	checked := 0
	for name, s := range serviceSpecs(t) {
		res, err := Recommend(Request{Spec: s, Catalog: cat, Now: now})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d, _ := workload.DayOf(s)
		for _, c := range res.Candidates {
			sc := c.Plan.Scaling
			if sc == nil {
				if c.Cost.Mode != catalog.Serverless && c.Cost.PriceKnown && !(s.Constraints.SharedGPUs && c.Plan.Slice != nil) {
					t.Errorf("%s %s %s: a priced service candidate without a plan for its day", name, c.Offer.Key(), c.Cost.Mode)
				}
				continue
			}
			checked++
			where := fmt.Sprintf("%s %s %s", name, c.Offer.Key(), c.Cost.Mode)
			floor := max(1, sc.TroughNeed)
			k := max(1, sc.InstancesPerReplica) // a spare is one replica's instances
			switch {
			case sc.PeakNeed < 1 || sc.TroughNeed > sc.PeakNeed || sc.Base > sc.Max || sc.Max < sc.PeakNeed+sc.Spare:
				t.Errorf("%s: trough %d, peak %d, spare %d, base %d, max %d", where, sc.TroughNeed, sc.PeakNeed, sc.Spare, sc.Base, sc.Max)
			case sc.PeakRPS != d.PeakRPS || sc.TroughRPS != d.TroughRPS:
				t.Errorf("%s: day %g-%g requests/s, the file's %g-%g", where, sc.TroughRPS, sc.PeakRPS, d.TroughRPS, d.PeakRPS)
			}
			if s.Production() {
				if (sc.ZoneSafe && sc.Spare < k || !sc.ZoneSafe && sc.Spare != k) || sc.Base < floor+k || sc.Held < 1 {
					t.Errorf("%s: production with spare %d, base %d, held %d (quiet hours need %d)", where, sc.Spare, sc.Base, sc.Held, floor)
				}
				if c.Cost.Mode == catalog.Spot && (sc.BaseMode != catalog.OnDemand || sc.Held < floor) {
					t.Errorf("%s: a production spot plan holds %d on %s, its quiet hours need %d held", where, sc.Held, sc.BaseMode, floor)
				}
				redundant := s.Service.Availability == workload.AvailabilityZoneRedundant && sc.Zones >= 2
				if redundant != sc.ZoneSafe {
					t.Errorf("%s: zone-safe %v with %s over %d zones", where, sc.ZoneSafe, s.Service.Availability, sc.Zones)
				}
				if redundant && (sc.Base-ceilDiv(sc.Base, sc.Zones) < floor || sc.Max-ceilDiv(sc.Max, sc.Zones) < sc.PeakNeed) {
					t.Errorf("%s: losing one of %d zones leaves %d of the base and %d of the peak, which need %d and %d", where, sc.Zones,
						sc.Base-ceilDiv(sc.Base, sc.Zones), sc.Max-ceilDiv(sc.Max, sc.Zones), floor, sc.PeakNeed)
				}
			} else if sc.Spare != 0 {
				t.Errorf("%s: best-effort with a spare", where)
			}
			if c.Cost.Mode != catalog.Spot && sc.Held != sc.Base {
				t.Errorf("%s: %d of a base of %d held in a mode that holds it all", where, sc.Held, sc.Base)
			}
			if sc.BurstInstances < 0 || sc.BurstInstances > float64(sc.Max-sc.Base)+1e-9 || d.PeakRPS == d.TroughRPS && sc.BurstInstances != 0 {
				t.Errorf("%s: a mean burst of %g instances above a base of %d up to %d", where, sc.BurstInstances, sc.Base, sc.Max)
			}
			if total := sc.BaseUSD + sc.BurstUSD; math.Abs(total-c.Cost.Cost.Total) > 1e-6*c.Cost.Cost.Total || c.PerMonthUSD != c.Cost.Cost.Total {
				t.Errorf("%s: base $%.2f + burst $%.2f, but the month costs $%.2f ($%.2f)", where, sc.BaseUSD, sc.BurstUSD, c.Cost.Cost.Total, c.PerMonthUSD)
			}
			if c.Plan.Instances != sc.Max || c.Instances != sc.Max || c.Plan.Replicas != sc.ReplicasOn(sc.Max) {
				t.Errorf("%s: plan %d instances, %d replicas; the day's peak is %d instances of %d", where, c.Plan.Instances, c.Plan.Replicas, sc.Max, sc.ReplicasPerInstance)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d plans checked", checked)
	}
}

// A busier peak never makes a smaller peak fleet on the same offer in the
// same mode (its trough, at the same mean, is quieter: the month may cost
// less); a busier day at the same shape never makes a smaller fleet nor a
// cheaper month.
func TestPeakGrowsTheFleet(t *testing.T) {
	cat := onlyOffers(t, func(o *catalog.Offer) bool { return o.Provider == "aws" && strings.HasPrefix(o.InstanceType, "g6e.") })
	day := func(mean, peak float64) map[string][2]float64 {
		y := fmt.Sprintf("kind: llm-inference\nmodel: {preset: llama-3-8b}\n"+
			"inference: {prompt_tokens: 700, output_tokens: 200, requests_per_second: %g, slo: {ttft_ms: 800, tpot_ms: 60}}\n"+
			"service: {peak_requests_per_second: %g}\n", mean, peak)
		res, err := Recommend(Request{Spec: spec(t, y), Catalog: cat, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][2]float64{}
		for _, c := range res.Candidates {
			out[c.Offer.Key()+" "+c.Cost.Mode.String()] = [2]float64{float64(c.Plan.Scaling.Max), c.Cost.Cost.Total}
		}
		if len(out) == 0 {
			t.Fatal("no g6e candidates")
		}
		return out
	}
	compare := func(what string, lo, hi map[string][2]float64, money bool) {
		for k, a := range lo {
			b, ok := hi[k]
			if ok && (b[0] < a[0] || money && b[1] < a[1]*(1-1e-9)) {
				t.Errorf("%s: %s gives %v instances and dollars, less than %v", k, what, b, a)
			}
		}
	}
	p20, p30, p40 := day(20, 20), day(20, 30), day(20, 40)
	compare("a peak of 30", p20, p30, false)
	compare("a peak of 40", p30, p40, false)
	compare("twice the load", day(10, 15), p30, true)
}

// The pick of a service is sized by the simulator and its day replayed:
// the check meets the SLO, and the service file of the plan replays the
// same day with the same figures (one plan for recommend and simulate).
func TestPickIsReplayed(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a simulated day")
	}
	s := spec(t, "kind: llm-inference\nmodel: {preset: llama-3-8b}\n"+
		"inference: {prompt_tokens: 700, output_tokens: 200, requests_per_second: 4, slo: {ttft_ms: 800, tpot_ms: 60}}\n"+
		"service: {peak_requests_per_second: 7}\nconstraints: {providers: [aws]}\n")
	req := Request{Spec: s, Catalog: embedded(t), Now: now, CheckPlans: true}
	res, err := Recommend(req)
	if err != nil || len(res.Candidates) == 0 {
		t.Fatalf("no candidates: %v", err)
	}
	pick := res.Candidates[0]
	sc := pick.Plan.Scaling
	if sc == nil || sc.Check == nil || !sc.Check.Met || !sc.Sized {
		t.Fatalf("the pick %s is not sized and replayed: %+v", pick.Offer.Key(), sc)
	}
	ch := sc.Check
	if ch.SLOAttainment < ch.SLOTarget || ch.Requests < 4*86400*0.95 || ch.ReplicasMax > sc.Max*sc.ReplicasPerInstance || ch.ReplicasMin < sc.Base*sc.ReplicasPerInstance-1 {
		t.Errorf("check %+v against the plan %+v", ch, sc)
	}
	if math.Abs(ch.PerMonthUSD-pick.Cost.Cost.Total) > 0.35*pick.Cost.Cost.Total {
		t.Errorf("the simulated month $%.0f is far from the plan's $%.0f", ch.PerMonthUSD, pick.Cost.Cost.Total)
	}
	b, err := PlanSpec(PlanInput{Spec: s, Catalog: req.Catalog}, pick, ch.TargetInFlight, "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	as, err := autoscale.ParseSpec(b)
	if err != nil {
		t.Fatalf("the plan's service file does not parse: %v\n%s", err, b)
	}
	if as.Policy.MinReplicas != sc.Base*sc.ReplicasPerInstance || as.Policy.MaxReplicas != sc.ceiling()*sc.ReplicasPerInstance {
		t.Errorf("the service file runs %d-%d replicas, the plan %d-%d", as.Policy.MinReplicas, as.Policy.MaxReplicas, sc.Base, sc.ceiling())
	}
	r, err := ReplayPlan(context.Background(), PlanInput{Spec: s, Catalog: req.Catalog}, pick, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := 1 - r.SLOViolationFraction; got != ch.SLOAttainment || r.Requests != ch.Requests {
		t.Errorf("replaying the plan's file: %.5f of %d requests, the check %.5f of %d", got, r.Requests, ch.SLOAttainment, ch.Requests)
	}
}

// TestEstimatesScaledOnlyByTheirReplicaSize: over the service examples, a
// type whose estimate was scaled by replays of others has the replica size
// of a type that was replayed, and was scaled by no more than the smallest
// ratio a replay of that size found (a type must not look dearer than it
// may be, or it is never replayed).
func TestEstimatesScaledOnlyByTheirReplicaSize(t *testing.T) {
	if testing.Short() {
		t.Skip("replays simulated days")
	}
	s := serviceSpecs(t)["llama3-70b-chat.yaml"]
	if s == nil {
		t.Fatal("no llama3-70b-chat example")
	}
	res, err := Recommend(Request{Spec: s, Catalog: embedded(t), Now: now, CheckPlans: true})
	if err != nil || len(res.Candidates) == 0 {
		t.Fatalf("no candidates: %v", err)
	}
	replayed := map[int]bool{}
	for _, c := range res.Candidates {
		if sc := c.Plan.Scaling; sc != nil && sc.Sized && sc.ReplayedIn == "" {
			replayed[c.Plan.GPUsPerReplica] = true
		}
	}
	scaled := 0
	for _, c := range res.Candidates {
		if sc := c.Plan.Scaling; sc != nil && sc.EstimateScaledBy > 0 {
			scaled++
			if !replayed[c.Plan.GPUsPerReplica] {
				t.Errorf("%s (%d GPUs a replica) scaled by %.3g, but no type of that replica size was replayed (%v)", c.Offer.Key(), c.Plan.GPUsPerReplica, sc.EstimateScaledBy, replayed)
			}
		}
	}
	t.Logf("%d candidates scaled; replayed replica sizes %v; pick %s", scaled, replayed, res.Candidates[0].Offer.Key())
}
