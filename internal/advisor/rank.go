package advisor

import (
	"cmp"
	"math"
	"slices"

	"github.com/gpupick/gpupick/internal/workload"
)

// timeOf is what "faster" means for a candidate: wall-clock hours for a
// job, the latency of one answer for a service.
func timeOf(c *Candidate) float64 {
	if c.DurationHours > 0 {
		return c.DurationHours
	}
	if c.Pred != nil && c.Pred.TTFTMs != nil && c.Pred.TPOTMs != nil {
		out := 1.0
		if c.Pred.Serving != nil && c.Pred.Throughput.Value > 0 {
			out = math.Max(1, c.Pred.Throughput.Value/math.Max(c.Pred.Serving.RequestsPerS, 1e-9))
		}
		return (*c.Pred.TTFTMs + *c.Pred.TPOTMs*out) / 3.6e6 // hours, comparable in ratio only
	}
	return math.Inf(1)
}

func costOf(c *Candidate) float64 {
	if !c.Cost.PriceKnown {
		return math.Inf(1)
	}
	return c.Cost.Cost.Total
}

// rank orders candidates by the objective; candidates without a price come
// last whatever the objective, since no cost can be compared.
func rank(r *Result) {
	cs := r.Candidates
	minCost, minTime := math.Inf(1), math.Inf(1)
	for _, c := range cs {
		if c.Cost.PriceKnown {
			minCost = math.Min(minCost, costOf(c))
		}
		minTime = math.Min(minTime, timeOf(c))
	}
	score := func(c *Candidate) float64 {
		switch r.Objective {
		case workload.ObjectiveTime:
			return timeOf(c)
		case workload.ObjectiveTokensPerDollar:
			if c.UnitCost > 0 {
				return c.UnitCost
			}
			return costOf(c)
		case workload.ObjectiveBalanced:
			return math.Log(costOf(c)/minCost) + math.Log(timeOf(c)/minTime)
		}
		return costOf(c)
	}
	// Sort keys are computed once per candidate: comparisons are many.
	type keyed struct {
		c                 *Candidate
		priced            bool
		score, cost, time float64
		id                string
	}
	ks := make([]keyed, len(cs))
	for i, c := range cs {
		ks[i] = keyed{c, c.Cost.PriceKnown, score(c), costOf(c), timeOf(c), c.Offer.Key()}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if a.priced != b.priced {
			if a.priced {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.cost, b.cost); c != 0 {
			return c
		}
		if c := cmp.Compare(a.time, b.time); c != 0 {
			return c
		}
		if c := cmp.Compare(a.id, b.id); c != 0 {
			return c
		}
		if c := cmp.Compare(a.c.GPUs, b.c.GPUs); c != 0 {
			return c
		}
		return cmp.Compare(a.c.Cost.Mode, b.c.Cost.Mode)
	})
	for i := range ks {
		cs[i] = ks[i].c
	}
	for i, c := range cs {
		c.Rank = i + 1
	}
}

// markPareto flags the candidates no other candidate beats on both total
// cost and time (ties on both keep both).
func markPareto(cs []*Candidate) {
	priced := make([]*Candidate, 0, len(cs))
	for _, c := range cs {
		c.Pareto = false
		if c.Cost.PriceKnown {
			priced = append(priced, c)
		}
	}
	slices.SortFunc(priced, func(a, b *Candidate) int {
		return cmp.Or(cmp.Compare(costOf(a), costOf(b)), cmp.Compare(timeOf(a), timeOf(b)))
	})
	best := math.Inf(1)
	for i := 0; i < len(priced); {
		// Candidates of equal cost: the fastest of them may be on the front.
		j := i + 1
		groupBest := timeOf(priced[i])
		for j < len(priced) && costOf(priced[j]) == costOf(priced[i]) {
			groupBest = math.Min(groupBest, timeOf(priced[j]))
			j++
		}
		if groupBest < best {
			for k := i; k < j; k++ {
				if timeOf(priced[k]) == groupBest {
					priced[k].Pareto = true
				}
			}
			best = groupBest
		}
		i = j
	}
}
