package advisor

import (
	"math"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// TestIntervalsCarryIntoCost: every candidate's duration and cost lie in
// their own 80% interval, for jobs and services.
func TestIntervalsCarryIntoCost(t *testing.T) {
	cat := embedded(t)
	for _, y := range []string{
		"kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 2e9, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 16, pricing: [on-demand, spot]}\n",
		"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 256, requests_per_second: 20, weight_precision: fp8}\nconstraints: {max_gpus: 16}\n",
	} {
		r, err := Recommend(Request{Spec: spec(t, y), Catalog: cat, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Candidates) < 2 {
			t.Fatalf("too few candidates for %s", y)
		}
		for _, c := range r.Candidates {
			if !c.Cost.PriceKnown {
				continue
			}
			total := c.Cost.Cost.Total
			if !(c.CostP10 > 0 && c.CostP10 <= total+1e-9 && total <= c.CostP90+1e-9) {
				t.Errorf("%s: cost %.2f outside its interval %.2f-%.2f", c.Offer.Key(), total, c.CostP10, c.CostP90)
			}
			if c.DurationHours > 0 && !(c.DurationHoursP10 <= c.DurationHours && c.DurationHours <= c.DurationHoursP90) {
				t.Errorf("%s: %.2f h outside %.2f-%.2f", c.Offer.Key(), c.DurationHours, c.DurationHoursP10, c.DurationHoursP90)
			}
		}
		cv := r.ConfidenceVsNext
		if cv == nil || cv.Probability < 0 || cv.Probability > 1 || cv.Next != r.Candidates[1].Offer.ID() {
			t.Errorf("confidence vs next = %+v", cv)
		}
	}
}

func candidate(gpu string, gpus int, costUSD, lo, hi float64) *Candidate {
	c := &Candidate{Offer: &catalog.Offer{Provider: "p", InstanceType: gpu + "-box", GPU: gpu}, GPUs: gpus,
		Pred: &perf.Prediction{Interval: &perf.Interval{Regime: "train-dense", SpeedP10: 1 / hi, SpeedP90: 1 / lo}}}
	c.Cost = cost.Estimate{PriceKnown: true}
	c.Cost.Cost.Total = costUSD
	c.CostP10, c.CostP90 = costUSD*lo, costUSD*hi
	return c
}

// TestConfidenceVsNext: the same accelerator at a clearly lower price is
// clearly cheaper; different accelerators a few percent apart, with wide
// intervals, cannot be told apart, and the sentence says what would settle it.
func TestConfidenceVsNext(t *testing.T) {
	arch := func(gpu string) string {
		return map[string]string{"h100-sxm": "hopper", "h200": "hopper", "mi300x": "cdna3"}[gpu]
	}
	same := &Result{Objective: workload.ObjectiveCost, Candidates: []*Candidate{
		candidate("h100-sxm", 8, 100, 0.8, 1.3), candidate("h100-sxm", 8, 130, 0.8, 1.3)}}
	c := confidenceVsNext(same, arch)
	if c == nil || !c.Distinguishable || c.Probability < 0.95 || !c.SameAccelerator {
		t.Errorf("same GPU, 30%% cheaper: %+v", c)
	}
	close := &Result{Objective: workload.ObjectiveCost, Candidates: []*Candidate{
		candidate("h100-sxm", 8, 100, 0.8, 1.3), candidate("mi300x", 8, 105, 0.6, 1.6)}}
	c = confidenceVsNext(close, arch)
	if c == nil || c.Distinguishable || c.Probability < 0.5 || c.Probability > 0.75 {
		t.Errorf("different GPUs 5%% apart: %+v", c)
	}
	if s := c.Sentence(); !strings.Contains(s.String(), "cannot be told apart") || !strings.Contains(s.String(), "probe") || !strings.Contains(s.String(), "mi300x") {
		t.Errorf("sentence %q must say they cannot be told apart and what a probe would settle", s)
	}
	// Symmetry: swapping the two gives the complement.
	swapped := &Result{Objective: workload.ObjectiveCost, Candidates: []*Candidate{close.Candidates[1], close.Candidates[0]}}
	if c2 := confidenceVsNext(swapped, arch); math.Abs(c2.Probability+c.Probability-1) > 0.002 {
		t.Errorf("P(a<b) + P(b<a) = %.3f, want 1", c2.Probability+c.Probability)
	}
	if confidenceVsNext(&Result{Candidates: same.Candidates[:1]}, arch) != nil {
		t.Error("one candidate has nothing to be compared with")
	}
}

// TestAlternativesOverPlans: over plans of a job and a service, by cost
// and by time, the alternatives are probabilities; the first is the best
// comparable candidate of another instance type than #1's (never #1's type
// in another region); the second, listed only when the first shares #1's
// accelerator, is the best on another accelerator and within 20% of #1.
func TestAlternativesOverPlans(t *testing.T) {
	cat := embedded(t)
	for _, y := range []string{
		"kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 5e8, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 8, pricing: [on-demand, spot]}\n",
		"kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 5e8, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 8}\nobjective: time\n",
		"kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 5e8, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 8, providers: [aws, gcp]}\n",
		"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 256, requests_per_second: 20, weight_precision: fp8}\nconstraints: {max_gpus: 16}\n",
	} {
		r, err := Recommend(Request{Spec: spec(t, y), Catalog: cat, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		cv := r.ConfidenceVsNext
		if cv == nil {
			t.Fatalf("no confidence for %s", y)
		}
		if len(cv.Alternatives) == 0 || len(cv.Alternatives) > 2 {
			t.Fatalf("%d alternatives for %s", len(cv.Alternatives), y)
		}
		pick := r.Candidates[0]
		k := comparerOf(r, func(g string) string { return g })
		sameType := func(c *Candidate) bool {
			return c.Offer.Provider == pick.Offer.Provider && c.Offer.InstanceType == pick.Offer.InstanceType
		}
		at := func(a Alternative) *Candidate { return r.Candidates[a.Rank-1] }
		for _, a := range cv.Alternatives {
			if a.Probability < 0 || a.Probability > 1 || a.Distinguishable != (a.Probability >= DistinguishableAt) {
				t.Errorf("%s: %+v", y, a)
			}
			if c := at(a); c.Offer.ID() != a.Offer || c.Offer.Region != a.Region || sameType(c) {
				t.Errorf("%s: alternative %+v is #1's own instance type, or not the candidate ranked %d", y, a, a.Rank)
			}
		}
		typ := cv.Alternatives[0]
		if typ.Kind != AltInstanceType {
			t.Errorf("first alternative is %q", typ.Kind)
		}
		for _, c := range r.Candidates[1 : typ.Rank-1] {
			if !sameType(c) && k.comparable(c) {
				t.Errorf("%s: %s (#%d) is a better other instance type than %s (#%d)", y, c.Offer.ID(), c.Rank, typ.Offer, typ.Rank)
			}
		}
		if len(cv.Alternatives) == 2 {
			acc := cv.Alternatives[1]
			if acc.Kind != AltAccelerator || typ.GPU != pick.Offer.GPU || acc.GPU == pick.Offer.GPU || acc.Behind > AcceleratorWithin-1 {
				t.Errorf("%s: accelerator alternative %+v after %+v (#1 on %s)", y, acc, typ, pick.Offer.GPU)
			}
			for _, c := range r.Candidates[1 : acc.Rank-1] {
				if c.Offer.GPU != pick.Offer.GPU && k.comparable(c) {
					t.Errorf("%s: %s (#%d) on %s comes before %s", y, c.Offer.ID(), c.Rank, c.Offer.GPU, acc.Offer)
				}
			}
		}
		// Another accelerator within 20% is never left out.
		if typ.GPU == pick.Offer.GPU && len(cv.Alternatives) == 1 {
			for _, c := range r.Candidates[1:] {
				if c.Offer.GPU != pick.Offer.GPU && k.comparable(c) {
					if v := objectiveValue(r.Objective, c) / objectiveValue(r.Objective, pick); v <= AcceleratorWithin {
						t.Errorf("%s: %s on %s is %.2f times #1 and not compared", y, c.Offer.ID(), c.Offer.GPU, v)
					}
					break
				}
			}
		}
	}
}

// TestAlternativesSkipOwnType: #2 is #1's type in another region; the
// alternatives pass over it to the other type on the same accelerator,
// then to another accelerator when it is within 20% of #1, and not when it
// is 30% behind.
func TestAlternativesSkipOwnType(t *testing.T) {
	arch := func(gpu string) string { return gpu }
	mk := func(behind float64) *Result {
		own := candidate("h100-sxm", 8, 101, 0.8, 1.3)
		own.Offer.Region = "elsewhere"
		other := candidate("h100-sxm", 8, 104, 0.8, 1.3)
		other.Offer.InstanceType = "other-box"
		r := &Result{Objective: workload.ObjectiveCost, Candidates: []*Candidate{
			candidate("h100-sxm", 8, 100, 0.8, 1.3), own, other, candidate("mi300x", 8, 100*(1+behind), 0.6, 1.6)}}
		for i, c := range r.Candidates {
			c.Rank = i + 1
		}
		return r
	}
	c := confidenceVsNext(mk(0.15), arch)
	if c == nil || c.Next != "p/h100-sxm-box" || len(c.Alternatives) != 2 {
		t.Fatalf("confidence %+v", c)
	}
	if a := c.Alternatives[0]; a.Kind != AltInstanceType || a.Offer != "p/other-box" || a.Rank != 3 {
		t.Errorf("instance type alternative %+v", a)
	}
	if a := c.Alternatives[1]; a.Kind != AltAccelerator || a.GPU != "mi300x" || math.Abs(a.Behind-0.15) > 1e-9 {
		t.Errorf("accelerator alternative %+v", a)
	}
	if c := confidenceVsNext(mk(0.3), arch); len(c.Alternatives) != 1 {
		t.Errorf("an accelerator 30%% behind is compared: %+v", c.Alternatives)
	}
}

// TestFarEvidenceLowersConfidence: when no published measurement is near
// #1's job, its range is widened and the chance that it really beats #2
// drops toward a coin toss; the sentence says why.
func TestFarEvidenceLowersConfidence(t *testing.T) {
	arch := func(gpu string) string { return map[string]string{"h100-sxm": "hopper", "mi300x": "cdna3"}[gpu] }
	mk := func(far bool) *Result {
		a, b := candidate("h100-sxm", 8, 100, 0.85, 1.2), candidate("mi300x", 8, 125, 0.85, 1.2)
		a.EvidenceDistance, b.EvidenceDistance = 0.5, 0.5
		if far {
			a.EvidenceDistance = perf.EvidenceNear + 1
		}
		return &Result{Objective: workload.ObjectiveCost, Candidates: []*Candidate{a, b}}
	}
	near, far := confidenceVsNext(mk(false), arch), confidenceVsNext(mk(true), arch)
	if !(far.Probability < near.Probability) || far.Probability <= 0.5 {
		t.Errorf("far from evidence: %.3f, near: %.3f; want lower but still above 0.5", far.Probability, near.Probability)
	}
	if len(near.Extrapolated) != 0 || len(far.Extrapolated) != 1 || far.Extrapolated[0] != "p/h100-sxm-box" {
		t.Errorf("extrapolated: near %v, far %v", near.Extrapolated, far.Extrapolated)
	}
	if !strings.Contains(far.Sentence().String(), "No published measurement is near") || strings.Contains(near.Sentence().String(), "No published") {
		t.Errorf("sentences: far %q, near %q", far.Sentence(), near.Sentence())
	}
}
