package advisor

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/workload"
)

// Confidence is how sure a recommendation is that its first candidate
// beats the second by the objective, given both predictions' intervals.
type Confidence struct {
	// Probability is the chance that #1 is really cheaper (or faster, by
	// the objective) than #2.
	Probability float64 `json:"probability"`
	// Basis is what is compared: "cost" or "time".
	Basis string `json:"basis"`
	// Next is the second candidate's offer.
	Next string `json:"next"`
	// Distinguishable is true when Probability is at least 80%.
	Distinguishable bool `json:"distinguishable"`
	// SameAccelerator is true when both run on the same accelerator, so
	// their prediction errors are largely shared.
	SameAccelerator bool `json:"same_accelerator"`
	// GPU names the accelerators a probe would have to measure.
	GPU, NextGPU string `json:"-"`
}

// setIntervals carries a prediction's speed interval into the candidate's
// duration and cost: the productive hours (and the compute and spot lines
// priced from them) scale with 1/speed; a service's fleet, sized from the
// predicted throughput, does too. Storage, egress and set-up do not.
func setIntervals(c *Candidate, service bool) {
	iv := c.Pred.Interval
	sp10, sp90 := 1.0, 1.0
	if iv != nil && iv.SpeedP10 > 0 && iv.SpeedP90 > 0 {
		sp10, sp90 = iv.SpeedP10, iv.SpeedP90
	} else if c.PriceLow == 0 {
		return
	}
	e := c.Cost
	if !service && iv != nil {
		fixed := e.WallHours - e.ProductiveHours
		c.DurationHoursP10 = fixed + e.ProductiveHours/sp90
		c.DurationHoursP90 = fixed + e.ProductiveHours/sp10
	}
	if e.PriceKnown {
		// Compute scales with the speed and with how far the price may be
		// from what is really paid (a spot range, a point price, an old
		// price); setup with the price alone; storage and egress not.
		lo, hi := c.PriceLow, c.PriceHigh
		if lo == 0 || hi == 0 {
			lo, hi = 1, 1
		}
		variable := e.Cost.Compute + e.Cost.SpotOverhead
		fixed := e.Cost.Total - variable - e.Cost.Setup
		c.CostP10 = fixed + e.Cost.Setup*lo + variable*lo/sp90
		c.CostP90 = fixed + e.Cost.Setup*hi + variable*hi/sp10
	}
}

// confidenceVsNext compares the first two ranked candidates. Their errors
// are correlated: the same accelerator shares the model's error almost
// wholly, the same architecture largely, others a little (the model's
// structure is common to all).
func confidenceVsNext(r *Result, archOf func(gpu string) string) *Confidence {
	if len(r.Candidates) < 2 {
		return nil
	}
	a, b := r.Candidates[0], r.Candidates[1]
	basis := "cost"
	lo := func(c *Candidate) float64 { return c.CostP10 }
	hi := func(c *Candidate) float64 { return c.CostP90 }
	if r.Objective == workload.ObjectiveTime {
		basis = "time"
		lo = func(c *Candidate) float64 { return c.DurationHoursP10 }
		hi = func(c *Candidate) float64 { return c.DurationHoursP90 }
		if a.DurationHours == 0 { // a service: latency scales with 1/speed
			lo = func(c *Candidate) float64 { return timeOf(c) / c.Pred.Interval.SpeedP90 }
			hi = func(c *Candidate) float64 { return timeOf(c) / c.Pred.Interval.SpeedP10 }
		}
	}
	if a.Pred.Interval == nil || b.Pred.Interval == nil || !(lo(a) > 0 && lo(b) > 0) {
		return nil
	}
	const z80 = 1.2815515655446004 // the 90th percentile of a standard normal
	mu := func(c *Candidate) float64 { return (math.Log(lo(c)) + math.Log(hi(c))) / 2 }
	sd := func(c *Candidate) float64 { return (math.Log(hi(c)) - math.Log(lo(c))) / (2 * z80) }
	rho := 0.2
	switch {
	case a.Offer.GPU == b.Offer.GPU && a.GPUs == b.GPUs:
		rho = 0.95
	case a.Offer.GPU == b.Offer.GPU:
		rho = 0.8
	case archOf(a.Offer.GPU) == archOf(b.Offer.GPU):
		rho = 0.5
	}
	s1, s2 := sd(a), sd(b)
	v := s1*s1 + s2*s2 - 2*rho*s1*s2
	d := mu(b) - mu(a)
	p := 0.5
	switch {
	case v > 1e-12:
		p = 0.5 * math.Erfc(-d/math.Sqrt(2*v))
	case d > 0:
		p = 1
	}
	return &Confidence{Probability: math.Round(p*1000) / 1000, Basis: basis, Next: b.Offer.ID(),
		Distinguishable: p >= 0.8, SameAccelerator: a.Offer.GPU == b.Offer.GPU, GPU: a.Offer.GPU, NextGPU: b.Offer.GPU}
}

// Sentence says, in English, whether #1 and #2 can be told apart and what
// would settle it.
func (c *Confidence) Sentence() string {
	better := "cheaper"
	if c.Basis == "time" {
		better = "faster"
	}
	if c.Distinguishable {
		return fmt.Sprintf("#1 is %s than #2 (%s) with probability %.0f%% given both predictions' 80%% intervals.", better, c.Next, 100*c.Probability)
	}
	probe := fmt.Sprintf("a trial server of %s", c.GPU)
	if c.NextGPU != c.GPU {
		probe = fmt.Sprintf("trial servers of %s and %s", c.GPU, c.NextGPU)
	}
	return fmt.Sprintf("#1 and #2 (%s) cannot be told apart: #1 is %s with probability %.0f%% within the model's uncertainty. Running gpupick probe --gpu-bench on %s, then recommend --calibrate REPORT, measures the speed the ranking rests on and settles it.",
		c.Next, better, 100*c.Probability, probe)
}
