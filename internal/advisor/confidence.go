package advisor

import (
	"math"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
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
	// Distinguishable is true when Probability is at least 80%
	// (DistinguishableAt).
	Distinguishable bool `json:"distinguishable"`
	// SameAccelerator is true when both run on the same accelerator, so
	// their prediction errors are largely shared.
	SameAccelerator bool `json:"same_accelerator"`
	// GPU names the accelerators a probe would have to measure.
	GPU, NextGPU string `json:"-"`
	// Alternatives compare #1 with real alternatives rather than with #2,
	// which is often #1's own instance type in another region: the best
	// candidate of another instance type and, when that one shares #1's
	// accelerator, the best on another accelerator within 20% of #1.
	// Empty when every candidate is #1's instance type.
	Alternatives []Alternative `json:"alternatives"`
	// Extrapolated names #1 and #2 when no published measurement is near
	// its job (perf.EvidenceNear): its range was widened by
	// EvidenceFarWiden before comparing, which lowers the probability.
	Extrapolated []string `json:"extrapolated,omitempty"`
}

// EvidenceFarWiden widens the 80% range (in log space) of a candidate
// whose job has no published measurement near it. The model's error on
// sources it was never fitted to is about 1.6 times its error on the
// validation rows (p90 |ln(pred/measured)| 0.70 against 0.42, issue 26),
// and a job far from every published result is such a case.
const EvidenceFarWiden = 1.6

// extrapolated reports whether c's job has no published measurement near.
func extrapolated(c *Candidate) bool { return c.EvidenceDistance > perf.EvidenceNear }

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

// confidenceVsNext compares the first candidate with the second and with
// real alternatives (see Alternatives). Their errors are correlated: the
// same accelerator shares the model's error almost wholly, the same
// architecture largely, others a little (the model's structure is common
// to all).
func confidenceVsNext(r *Result, archOf func(gpu string) string) *Confidence {
	if len(r.Candidates) < 2 {
		return nil
	}
	a, b := r.Candidates[0], r.Candidates[1]
	k := comparerOf(r, archOf)
	p, ok := k.beats(a, b)
	if !ok {
		return nil
	}
	c := &Confidence{Probability: math.Round(p*1000) / 1000, Basis: k.basis, Next: b.Offer.ID(),
		Distinguishable: p >= DistinguishableAt, SameAccelerator: a.Offer.GPU == b.Offer.GPU, GPU: a.Offer.GPU, NextGPU: b.Offer.GPU,
		Alternatives: alternatives(r, k)}
	for _, x := range []*Candidate{a, b} {
		if extrapolated(x) && !slices.Contains(c.Extrapolated, x.Offer.ID()) {
			c.Extrapolated = append(c.Extrapolated, x.Offer.ID())
		}
	}
	return c
}

// DistinguishableAt is the probability from which #1 is said to beat another
// candidate, not merely to lead it within the model's error.
const DistinguishableAt = 0.8

// AcceleratorWithin is how far behind #1, by the objective, the best
// candidate on another accelerator may be and still be compared with it:
// 1.2 = 20% dearer (or slower).
const AcceleratorWithin = 1.2

// Kinds of Alternative.
const (
	AltInstanceType = "instance_type"
	AltAccelerator  = "accelerator"
)

// Alternative is #1 compared with a real alternative: not its own instance
// type in another region or pricing mode (a tie on the same hardware, which
// the price decides), but the best candidate of another instance type, or
// of another accelerator.
type Alternative struct {
	// Kind is AltInstanceType (the best candidate of another instance
	// type, whatever its accelerator) or AltAccelerator (the best on
	// another accelerator than #1's, listed when the first is on #1's).
	Kind    string `json:"kind"`
	Rank    int    `json:"rank"`
	Offer   string `json:"offer"`
	Region  string `json:"region"`
	GPU     string `json:"gpu"`
	GPUs    int    `json:"gpus"`
	Pricing string `json:"pricing"`
	// Probability is the chance that #1 really beats it by the basis of
	// the Confidence; Distinguishable is Probability >= 0.8.
	Probability     float64 `json:"probability"`
	Distinguishable bool    `json:"distinguishable"`
	// Behind is its objective value over #1's, from the point estimates,
	// minus one: 0.12 = 12% dearer (or slower); never above 0.2 for
	// AltAccelerator.
	Behind float64 `json:"behind"`
}

// alternatives are #1 against the best candidate of another instance type
// and, when that one is on #1's accelerator, against the best on another
// accelerator if it is within AcceleratorWithin of #1 by the objective.
// Candidates the basis cannot compare (no interval, no price) are passed
// over. Never nil.
func alternatives(r *Result, k comparer) []Alternative {
	out := []Alternative{}
	a := r.Candidates[0]
	if !k.comparable(a) {
		return out
	}
	alt := func(kind string, c *Candidate) Alternative {
		p, _ := k.beats(a, c)
		behind := 0.0
		if va := objectiveValue(r.Objective, a); va > 0 && !math.IsInf(va, 0) {
			behind = math.Round((objectiveValue(r.Objective, c)/va-1)*1000) / 1000
		}
		return Alternative{Kind: kind, Rank: c.Rank, Offer: c.Offer.ID(), Region: c.Offer.Region, GPU: c.Offer.GPU, GPUs: c.GPUs,
			Pricing: c.Cost.Mode.String(), Probability: math.Round(p*1000) / 1000, Distinguishable: p >= DistinguishableAt, Behind: behind}
	}
	first := func(ok func(c *Candidate) bool) *Candidate {
		for _, c := range r.Candidates[1:] {
			if ok(c) && k.comparable(c) {
				return c
			}
		}
		return nil
	}
	typ := first(func(c *Candidate) bool {
		return c.Offer.Provider != a.Offer.Provider || c.Offer.InstanceType != a.Offer.InstanceType
	})
	if typ == nil {
		return out // another accelerator is another instance type
	}
	out = append(out, alt(AltInstanceType, typ))
	if typ.Offer.GPU != a.Offer.GPU {
		return out
	}
	if acc := first(func(c *Candidate) bool { return c.Offer.GPU != a.Offer.GPU }); acc != nil {
		if x := alt(AltAccelerator, acc); x.Behind <= AcceleratorWithin-1 {
			out = append(out, x)
		}
	}
	return out
}

// objectiveValue is what the objective minimises for one candidate, in a
// unit whose ratio between candidates means "n% behind": total cost, time,
// unit cost, or cost times time (balanced ranks by the sum of their logs).
func objectiveValue(o workload.Objective, c *Candidate) float64 {
	switch o {
	case workload.ObjectiveTime:
		return timeOf(c)
	case workload.ObjectiveTokensPerDollar:
		if c.UnitCost > 0 {
			return c.UnitCost
		}
	case workload.ObjectiveBalanced:
		return costOf(c) * timeOf(c)
	}
	return costOf(c)
}

// comparer compares two candidates by the objective's basis (cost, or time
// for the time objective) from their 80% ranges.
type comparer struct {
	basis  string
	lo, hi func(c *Candidate) float64
	archOf func(gpu string) string
}

func comparerOf(r *Result, archOf func(gpu string) string) comparer {
	k := comparer{basis: "cost", archOf: archOf,
		lo: func(c *Candidate) float64 { return c.CostP10 },
		hi: func(c *Candidate) float64 { return c.CostP90 }}
	if r.Objective == workload.ObjectiveTime {
		k.basis = "time"
		k.lo = func(c *Candidate) float64 { return c.DurationHoursP10 }
		k.hi = func(c *Candidate) float64 { return c.DurationHoursP90 }
		if r.Candidates[0].DurationHours == 0 { // a service: latency scales with 1/speed
			k.lo = func(c *Candidate) float64 { return timeOf(c) / c.Pred.Interval.SpeedP90 }
			k.hi = func(c *Candidate) float64 { return timeOf(c) / c.Pred.Interval.SpeedP10 }
		}
	}
	return k
}

// comparable is true when c has a range on the basis.
func (k comparer) comparable(c *Candidate) bool {
	return c.Pred != nil && c.Pred.Interval != nil && k.lo(c) > 0 && k.hi(c) > 0
}

// beats is the probability that a is really better than b (lower on the
// basis), each range read as the 80% range of a log-normal; ok is false
// when either has no range.
func (k comparer) beats(a, b *Candidate) (p float64, ok bool) {
	if !k.comparable(a) || !k.comparable(b) {
		return 0, false
	}
	rho := 0.2
	switch {
	case a.Offer.GPU == b.Offer.GPU && a.GPUs == b.GPUs:
		rho = 0.95
	case a.Offer.GPU == b.Offer.GPU:
		rho = 0.8
	case k.archOf(a.Offer.GPU) == k.archOf(b.Offer.GPU):
		rho = 0.5
	}
	mua, s1 := logNormal80(k.lo(a), k.hi(a))
	mub, s2 := logNormal80(k.lo(b), k.hi(b))
	if extrapolated(a) {
		s1 *= EvidenceFarWiden
	}
	if extrapolated(b) {
		s2 *= EvidenceFarWiden
	}
	v := s1*s1 + s2*s2 - 2*rho*s1*s2
	d := mub - mua
	p = 0.5
	switch {
	case v > 1e-12:
		p = 0.5 * math.Erfc(-d/math.Sqrt(2*v))
	case d > 0:
		p = 1
	}
	return p, true
}

// z80 is the 90th percentile of a standard normal: an 80% range spans
// 2 x z80 standard deviations.
const z80 = 1.2815515655446004

// logNormal80 reads lo-hi (both > 0) as the 80% range of a log-normal: the
// mean and standard deviation of its logarithm.
func logNormal80(lo, hi float64) (mu, sigma float64) {
	return (math.Log(lo) + math.Log(hi)) / 2, (math.Log(hi) - math.Log(lo)) / (2 * z80)
}

// Sentence says, in English, whether #1 and #2 can be told apart and what
// would settle it.
func (c *Confidence) Sentence() msg.Msg {
	s := c.sentence()
	if len(c.Extrapolated) > 0 {
		s = s.Then(msg.New("No published measurement is near the job on %s, so its range was widened %.1fx before comparing.", strings.Join(c.Extrapolated, ", "), EvidenceFarWiden))
	}
	return s
}

func (c *Confidence) sentence() msg.Msg {
	better := "cheaper"
	if c.Basis == "time" {
		better = "faster"
	}
	if c.Distinguishable {
		return msg.New("#1 is %s than #2 (%s) with probability %.0f%% given both predictions' 80%% intervals.", better, c.Next, 100*c.Probability)
	}
	probe := msg.New("a trial server of %s", c.GPU)
	if c.NextGPU != c.GPU {
		probe = msg.New("trial servers of %s and %s", c.GPU, c.NextGPU)
	}
	return msg.New("#1 and #2 (%s) cannot be told apart: #1 is %s with probability %.0f%% within the model's uncertainty. Running gpupick probe --gpu-bench on %s, then recommend --calibrate REPORT, measures the speed the ranking rests on and settles it.",
		c.Next, better, 100*c.Probability, probe)
}
