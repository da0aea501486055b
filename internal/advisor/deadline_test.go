package advisor

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// loraSpec is a LoRA fine-tune, on demand and on spot, with a deadline of
// deadline hours (none when 0).
func loraSpec(t *testing.T, deadline float64) *workload.Spec {
	y := "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 5e8, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 8, pricing: [on-demand, spot]}\n"
	if deadline > 0 {
		y = fmt.Sprintf("kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 5e8, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 8, pricing: [on-demand, spot], deadline_hours: %g}\n", deadline)
	}
	return spec(t, y)
}

// medianHours is the median of c's time under missDeadline's model.
func medianHours(c *Candidate) float64 {
	iv := c.Pred.Interval
	mu, _ := logNormal80(iv.SpeedP10, iv.SpeedP90)
	return c.Cost.WallHours - c.Cost.ProductiveHours + c.Cost.ProductiveHours/math.Exp(mu)
}

// TestMissDeadlineProperties: over every candidate of a plan, the chance
// of missing a deadline is a probability, never rises as the deadline
// moves out, is at most 10% (plus spot's own chance) once the p90 time
// meets the deadline, exactly 10% at the p90 time off spot, and above
// one half when the median time is past the deadline.
func TestMissDeadlineProperties(t *testing.T) {
	r, err := Recommend(Request{Spec: loraSpec(t, 30), Catalog: embedded(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range r.Candidates {
		if c.Pred.Interval == nil || c.DurationHoursP90 <= c.DurationHoursP10 {
			continue
		}
		checked++
		spot := 0.0
		if c.Cost.Spot != nil {
			spot = c.Cost.Spot.ProbMissingDeadline
		}
		lo, hi := c.DurationHoursP10, c.DurationHoursP90
		prev := 2.0
		for d := lo * 0.5; d <= hi*1.5; d += (hi - lo) / 20 {
			p := missDeadline(c, d)
			if p < 0 || p > 1 || math.IsNaN(p) {
				t.Fatalf("%s at %.2f h: p = %v, not a probability", c.Offer.Key(), d, p)
			}
			if p > prev+1e-12 {
				t.Errorf("%s: the chance rises from %.4f to %.4f as the deadline moves out to %.2f h", c.Offer.Key(), prev, p, d)
			}
			prev = p
			if d >= hi && p > 1-(1-OnTimeAt)*(1-spot)+1e-9 {
				t.Errorf("%s: p90 %.2f h meets %.2f h, yet p = %.3f (spot alone %.3f)", c.Offer.Key(), hi, d, p, spot)
			}
			if d < medianHours(c) && p <= 0.5 {
				t.Errorf("%s: median %.2f h is past %.2f h, yet p = %.3f", c.Offer.Key(), medianHours(c), d, p)
			}
		}
		if c.Cost.Spot == nil {
			if p := missDeadline(c, hi); math.Abs(p-OnTimeAt) > 1e-6 {
				t.Errorf("%s: at its p90 time the chance is %.6f, want %.2f", c.Offer.Key(), p, OnTimeAt)
			}
		}
		if p := missDeadline(c, 0); p != 0 {
			t.Errorf("%s: no deadline, yet p = %v", c.Offer.Key(), p)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d candidates with a range", checked)
	}
}

// TestDeadlineRiskNamesSafeCandidate: with deadlines that cross #1's
// range and one that does not, the result's deadline risk is set exactly
// when #1 does not meet the deadline at p90; its chance is #1's; the
// candidate it names meets the deadline at p90 and no cheaper candidate
// does; and when it names none, none does.
func TestDeadlineRiskNamesSafeCandidate(t *testing.T) {
	cat := embedded(t)
	// On demand: a spot candidate whose range crosses the deadline is under
	// 90% on time, and excluded, so a cheap spot pick never crosses it.
	onDemand := []catalog.Mode{catalog.OnDemand}
	free, err := Recommend(Request{Spec: loraSpec(t, 0), Catalog: cat, Now: now, Modes: onDemand})
	if err != nil {
		t.Fatal(err)
	}
	if free.DeadlineRisk != nil {
		t.Fatalf("no deadline, yet a deadline risk: %+v", free.DeadlineRisk)
	}
	p0 := free.Candidates[0]
	crossed := 0
	for _, d := range []float64{p0.DurationHours * 1.02, (p0.DurationHours + p0.DurationHoursP90) / 2, p0.DurationHoursP90 * 1.01, p0.DurationHoursP90 * 3} {
		r, err := Recommend(Request{Spec: loraSpec(t, d), Catalog: cat, Now: now, Modes: onDemand})
		if err != nil {
			t.Fatal(err)
		}
		pick, dr := r.Candidates[0], r.DeadlineRisk
		if (dr == nil) != MeetsDeadlineAtP90(pick, d) {
			t.Fatalf("deadline %.2f h: risk %+v, #1 p90 %.2f h, p %.3f", d, dr, pick.DurationHoursP90, pick.PMissDeadline)
		}
		if dr == nil {
			continue
		}
		crossed++
		if dr.Miss != pick.PMissDeadline || dr.Miss <= 0 || dr.Miss > 1 {
			t.Errorf("deadline %.2f h: miss %.3f, #1's %.3f", d, dr.Miss, pick.PMissDeadline)
		}
		var cheapest *Candidate
		for _, c := range r.Candidates {
			if c.Cost.PriceKnown && MeetsDeadlineAtP90(c, d) && (cheapest == nil || costOf(c) < costOf(cheapest)) {
				cheapest = c
			}
		}
		if dr.Safe != cheapest {
			t.Errorf("deadline %.2f h: safe %v, cheapest meeting it at p90 %v", d, dr.Safe, cheapest)
		}
		if s := dr.Safe; s != nil && (s.DurationHoursP90 > d || s.PMissDeadline > OnTimeAt) {
			t.Errorf("deadline %.2f h: safe %s has p90 %.2f h, p %.3f", d, s.Offer.Key(), s.DurationHoursP90, s.PMissDeadline)
		}
	}
	if crossed == 0 {
		t.Error("no deadline crossed #1's range")
	}
}
