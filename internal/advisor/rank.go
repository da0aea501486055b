package advisor

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
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
	if c.Pred != nil && c.Pred.LatencyS != nil && c.Pred.Serving != nil {
		return *c.Pred.LatencyS / 3600 // an image service: one pipeline call
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
	// Sort keys are computed once per candidate: comparisons are many. The
	// keys hold no pointers (moving them needs no write barriers); the
	// offers' keys (provider/instance@region) are compared only on ties,
	// without building them.
	type keyed struct {
		score, cost, time float64
		i                 int32
		priced            bool
	}
	ks := make([]keyed, len(cs))
	for i, c := range cs {
		ks[i] = keyed{score(c), costOf(c), timeOf(c), int32(i), c.Cost.PriceKnown}
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
		ca, cb := cs[a.i], cs[b.i]
		// On a tie, an offer the source lists in its region comes before
		// one whose region is inferred.
		if ca.Offer.RegionInferred != cb.Offer.RegionInferred {
			if cb.Offer.RegionInferred {
				return -1
			}
			return 1
		}
		if c := compareKeys(ca.Offer, cb.Offer); c != 0 {
			return c
		}
		if c := cmp.Compare(ca.GPUs, cb.GPUs); c != 0 {
			return c
		}
		return cmp.Compare(ca.Cost.Mode, cb.Cost.Mode)
	})
	sorted := make([]*Candidate, len(cs))
	for i := range ks {
		sorted[i] = cs[ks[i].i]
	}
	copy(cs, sorted)
	for i, c := range cs {
		c.Rank = i + 1
	}
}

// compareKeys compares a.Key() and b.Key() as strings, without building
// them.
func compareKeys(a, b *catalog.Offer) int {
	if a == b {
		return 0
	}
	if a.Provider == b.Provider && a.InstanceType == b.InstanceType {
		return strings.Compare(a.Region, b.Region)
	}
	pa := [...]string{a.Provider, "/", a.InstanceType, "@", a.Region}
	pb := [...]string{b.Provider, "/", b.InstanceType, "@", b.Region}
	i, j := 0, 0
	x, y := pa[0], pb[0]
	for {
		for x == "" && i < len(pa)-1 {
			i++
			x = pa[i]
		}
		for y == "" && j < len(pb)-1 {
			j++
			y = pb[j]
		}
		switch {
		case x == "" && y == "":
			return 0
		case x == "":
			return -1
		case y == "":
			return 1
		}
		n := min(len(x), len(y))
		if c := strings.Compare(x[:n], y[:n]); c != 0 {
			return c
		}
		x, y = x[n:], y[n:]
	}
}

// markPareto flags the candidates no other candidate beats on both total
// cost and time (ties on both keep both).
func markPareto(cs []*Candidate) {
	type keyed struct{ cost, time float64 }
	priced := make([]keyed, 0, len(cs))
	idx := make([]int32, 0, len(cs))
	for i, c := range cs {
		c.Pareto = false
		if c.Cost.PriceKnown {
			priced = append(priced, keyed{costOf(c), timeOf(c)})
			idx = append(idx, int32(i))
		}
	}
	// Sort the priced candidates by cost, then time (an index sort: the
	// keys move, the candidates do not).
	order := make([]int32, len(priced))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(priced[a].cost, priced[b].cost), cmp.Compare(priced[a].time, priced[b].time))
	})
	best := math.Inf(1)
	for i := 0; i < len(order); {
		// Candidates of equal cost: the fastest of them may be on the front.
		j := i + 1
		first := priced[order[i]]
		groupBest := first.time
		for j < len(order) && priced[order[j]].cost == first.cost {
			groupBest = math.Min(groupBest, priced[order[j]].time)
			j++
		}
		if groupBest < best {
			for k := i; k < j; k++ {
				if priced[order[k]].time == groupBest {
					cs[idx[order[k]]].Pareto = true
				}
			}
			best = groupBest
		}
		i = j
	}
}
