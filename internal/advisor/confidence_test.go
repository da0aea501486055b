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
	if s := c.Sentence(); !strings.Contains(s, "cannot be told apart") || !strings.Contains(s, "probe") || !strings.Contains(s, "mi300x") {
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
