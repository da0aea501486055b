package advisor

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// MaxNearMisses bounds the near-misses kept per relaxable constraint.
const MaxNearMisses = 3

// nearMissTries bounds the exclusions tried per constraint: each is
// evaluated again with its constraint relaxed, and one that still does
// not qualify is no near-miss.
const nearMissTries = 2*MaxNearMisses + 2

// Relaxes lists the constraints a near-miss can relax, in the order the
// answer gives them.
func Relaxes() []Relax { return []Relax{RelaxDeadline, RelaxBudget, RelaxMaxGPUs} }

// nearer orders the exclusions of one constraint: the smallest relaxation
// first; a candidate the model evaluated before an instance too big to be
// evaluated; then the cheaper, then by name (a stable order).
func nearer(a, b *Excluded) int {
	if ua, ub := a.ReasonCode == ReasonMaxGPUs, b.ReasonCode == ReasonMaxGPUs; ua != ub {
		if ub {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(a.Needed, b.Needed), cmp.Compare(a.TotalUSD, b.TotalUSD),
		cmp.Compare(a.Offer, b.Offer), cmp.Compare(a.Region, b.Region), cmp.Compare(a.Pricing, b.Pricing))
}

// nearest keeps, per relaxable constraint, the n exclusions that need it
// relaxed least, one per instance type, nearest first. One pass: a result
// holds thousands of exclusions. Instances too big to be evaluated are
// left to tooBig: with no time or cost of their own, the nearest by name
// would be an arbitrary few.
func nearest(excluded []Excluded, n int) [][]Excluded {
	best := make([][]Excluded, RelaxMaxGPUs+1)
	for i := range excluded {
		x := &excluded[i]
		if x.Relax == RelaxNone || int(x.Relax) >= len(best) || x.Needed <= 0 || unevaluated(x) {
			continue
		}
		list := best[x.Relax]
		if len(list) == n && nearer(x, &list[n-1]) >= 0 {
			continue // the common case: not among the nearest
		}
		if j := slices.IndexFunc(list, func(y Excluded) bool { return y.Offer == x.Offer }); j >= 0 {
			if nearer(x, &list[j]) >= 0 {
				continue
			}
			list = slices.Delete(list, j, j+1)
		}
		at, _ := slices.BinarySearchFunc(list, x, func(a Excluded, b *Excluded) int { return nearer(&a, b) })
		list = slices.Insert(list, at, *x)
		if len(list) > n {
			list = list[:n]
		}
		best[x.Relax] = list
	}
	return best
}

// nearMisses names, per relaxable constraint, the nearest exclusions that
// hold: each was evaluated again as the file would be with the one
// constraint set to the value it names (offer, region and size alone,
// its service plan replayed when req.CheckPlans), and qualifies. Needed
// is that value as the answer shows it (hours to a tenth, dollars whole,
// GPUs); when the first guess does not hold (the model's estimate of a
// service's fleet, a budget that the replayed plan exceeds) the value the
// candidate does qualify at is found and checked in its place.
//
// When something qualifies, a near-miss is named only if it would beat
// the pick by the objective (cheaper, or faster when time is the
// objective): relaxing a constraint for a worse offer helps no one. A
// service's exclusion without a price is then not evaluated again (its
// plan would have to be replayed to be priced).
func nearMisses(req Request, res *Result, modes []catalog.Mode) []Excluded {
	var pick *Candidate
	if len(res.Candidates) > 0 {
		pick = res.Candidates[0]
	}
	beats := func(dur, total float64) bool {
		if pick == nil {
			return true
		}
		if res.Objective == workload.ObjectiveTime {
			return dur > 0 && dur < pick.DurationHours
		}
		return total > 0 && pick.Cost.PriceKnown && total < pick.Cost.Cost.Total
	}
	service := IsService(req.Spec)
	lists := nearest(res.Excluded, nearMissTries)
	if k := int(RelaxMaxGPUs); len(lists[k]) < nearMissTries {
		lists[k] = append(lists[k], tooBig(req.Catalog, res.Excluded, res.Objective, modes, nearMissTries-len(lists[k]))...)
	}
	out := make([][]Excluded, len(lists))
	var wg sync.WaitGroup
	for k, list := range lists {
		if len(list) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, x := range list {
				if len(out[k]) == MaxNearMisses || req.Context != nil && req.Context.Err() != nil {
					break
				}
				known := x.TotalUSD > 0 || x.DurationHours > 0
				if pick != nil && (known && !beats(float64(x.DurationHours), float64(x.TotalUSD)) || !known && service) {
					continue
				}
				if v, ok := holds(req, modes, x); ok && beats(float64(v.DurationHours), float64(v.TotalUSD)) {
					out[k] = append(out[k], v)
				}
			}
			slices.SortStableFunc(out[k], func(a, b Excluded) int { return nearer(&a, &b) })
		}()
	}
	wg.Wait()
	return slices.Concat(out...)
}

// unevaluated reports an exclusion of an instance with more GPUs than
// constraints.max_gpus: it was dropped before the model saw it.
func unevaluated(x *Excluded) bool {
	return x.ReasonCode == ReasonMaxGPUs && x.TotalUSD == 0 && x.DurationHours == 0
}

// tooBig picks the n instances too big to be evaluated most likely to
// beat the pick, one per instance type: the fewest GPUs first, then, for
// the time objective, the most dense compute per instance; otherwise the
// lowest list price per unit of dense compute (the cheapest for the work).
// Each is evaluated again before it is named: this only orders the tries.
func tooBig(c *catalog.Catalog, excluded []Excluded, objective workload.Objective, modes []catalog.Mode, n int) []Excluded {
	type try struct {
		x   Excluded
		key float64
	}
	// The offers of the exclusions (a few hundred of thousands), found in
	// one pass over the catalog.
	type where struct{ provider, typ, region string }
	at := func(x *Excluded) where {
		p, t, _ := strings.Cut(x.Offer, "/")
		return where{p, t, x.Region}
	}
	offers := map[where]*catalog.Offer{}
	for i := range excluded {
		if x := &excluded[i]; unevaluated(x) && x.Relax == RelaxMaxGPUs {
			offers[at(x)] = nil
		}
	}
	if len(offers) == 0 {
		return nil
	}
	for _, o := range c.Offers {
		k := where{o.Provider, o.InstanceType, o.Region}
		if _, want := offers[k]; want && o.GPUCount > 0 {
			offers[k] = o
		}
	}
	var tries []try
	byType := map[string]int{} // instance type → its try
	for i := range excluded {
		x := &excluded[i]
		if !unevaluated(x) || x.Relax != RelaxMaxGPUs {
			continue
		}
		o := offers[at(x)]
		if o == nil {
			continue
		}
		a, ok := c.OfferAccelerator(o)
		if !ok {
			continue
		}
		peak := float64(o.GPUCount) * max(a.PeakTFLOPS[catalog.BF16], a.PeakTFLOPS[catalog.FP16], a.PeakTFLOPS[catalog.FP32])
		if peak <= 0 {
			continue
		}
		key := -peak
		if objective != workload.ObjectiveTime {
			price := math.Inf(1)
			for _, m := range modes {
				if p, ok := o.YourPrices.Get(m); ok {
					price = min(price, p)
				}
			}
			key = price / peak
		}
		if j, ok := byType[x.Offer]; ok {
			if key < tries[j].key { // one try per instance type: its better region
				tries[j] = try{*x, key}
			}
			continue
		}
		byType[x.Offer] = len(tries)
		tries = append(tries, try{*x, key})
	}
	slices.SortFunc(tries, func(a, b try) int {
		return cmp.Or(cmp.Compare(a.x.Needed, b.x.Needed), cmp.Compare(a.key, b.key), cmp.Compare(a.x.Offer, b.x.Offer))
	})
	out := make([]Excluded, 0, n)
	for _, t := range tries[:min(n, len(tries))] {
		out = append(out, t.x)
	}
	return out
}

// shown is a relaxation's value as the answer writes it, rounded so that
// the value written still admits the candidate.
func shown(r Relax, v float64) float64 {
	switch r {
	case RelaxDeadline:
		return math.Ceil(v*10-1e-9) / 10
	case RelaxBudget:
		return math.Ceil(v - 1e-9)
	}
	return math.Ceil(v - 1e-9)
}

// holds evaluates x's offer again with x's constraint relaxed to what it
// names, and returns x with the value that admits it.
func holds(req Request, modes []catalog.Mode, x Excluded) (Excluded, bool) {
	o := findOffer(req.Catalog, x.Offer, x.Region)
	if o == nil {
		return x, false
	}
	// The shape it was excluded at: a batch job's cluster, or the
	// instances one replica of a service spans (its fleet is sized by the
	// evaluation); one instance when it was too big to be evaluated.
	instances := max(1, x.GPUs/max(1, o.GPUCount))
	if x.ReasonCode == ReasonMaxGPUs {
		instances = 1
	}
	need := shown(x.Relax, float64(x.Needed))
	if x.Relax == RelaxMaxGPUs && x.ReasonCode == ReasonMaxGPUs {
		need = float64(o.GPUCount)
	}
	v, c, ok := qualifiesAt(req, modes, o, instances, x, need)
	if !ok {
		// The first value was an estimate: find what the candidate needs
		// with the constraint lifted, then check that value.
		lifted := 0.0
		if x.Relax == RelaxMaxGPUs {
			lifted = max(4*need, float64(DefaultMaxGPUs))
		}
		v, _, ok = qualifiesAt(req, modes, o, instances, x, lifted)
		if !ok || v <= need {
			return x, false
		}
		need = v
		if _, c, ok = qualifiesAt(req, modes, o, instances, x, need); !ok {
			return x, false
		}
	}
	x.Needed = float32(need)
	x.DurationHours, x.TotalUSD = float32(c.DurationHours), 0
	if c.Cost.PriceKnown {
		x.TotalUSD = float32(c.Cost.Cost.Total)
	}
	if x.Pricing == "" {
		x.Pricing = c.Cost.Mode.String()
	}
	return x, true
}

// qualifiesAt evaluates o with x's constraint set to limit (0: lifted)
// and reports, for the cheapest candidate that qualifies in x's pricing
// mode (any when x names none), the value of the constraint it needs.
func qualifiesAt(req Request, modes []catalog.Mode, o *catalog.Offer, instances int, x Excluded, limit float64) (float64, *Candidate, bool) {
	spec := *req.Spec
	k := &spec.Constraints
	switch x.Relax {
	case RelaxDeadline:
		k.DeadlineHours = limit
	case RelaxBudget:
		k.BudgetUSD = limit
	case RelaxMaxGPUs:
		k.MaxGPUs = int(limit)
	}
	if x.Pricing != "" {
		m, ok := catalog.ParseMode(x.Pricing)
		if !ok {
			return 0, nil, false
		}
		modes = []catalog.Mode{m}
	}
	r := req
	r.Spec = &spec
	r.Detail = false
	cands, _ := EvaluateOffer(r, o, instances, modes)
	var best *Candidate
	for _, c := range cands {
		if !c.Cost.PriceKnown && x.Relax == RelaxBudget {
			continue
		}
		if req.CheckPlans && c.Plan.Scaling != nil {
			ctx := req.Context
			if ctx == nil {
				ctx = context.Background()
			}
			if err := CheckCandidate(ctx, r, c); err != nil {
				continue
			}
			if ch := c.Plan.Scaling.Check; ch != nil && !ch.Met {
				continue
			}
		}
		if k.BudgetUSD > 0 && c.Cost.Cost.Total > k.BudgetUSD || k.DeadlineHours > 0 && c.DurationHours > k.DeadlineHours ||
			c.GPUs > maxGPUs(&spec) {
			continue
		}
		if best == nil || c.Cost.Cost.Total < best.Cost.Cost.Total {
			best = c
		}
	}
	if best == nil {
		return 0, nil, false
	}
	switch x.Relax {
	case RelaxDeadline:
		return shown(RelaxDeadline, best.DurationHours), best, true
	case RelaxBudget:
		return shown(RelaxBudget, best.Cost.Cost.Total), best, true
	}
	return float64(best.GPUs), best, true
}

// findOffer is the catalog's offer id ("provider/instance-type") in region.
func findOffer(c *catalog.Catalog, id, region string) *catalog.Offer {
	provider, typ, ok := strings.Cut(id, "/")
	if !ok {
		return nil
	}
	for _, o := range c.Offers {
		if o.Region == region && o.Provider == provider && o.InstanceType == typ {
			return o
		}
	}
	return nil
}
