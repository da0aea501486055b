package autoscale

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// Candidate is one offer Search may choose: a named batching model with its
// price, or (Model nil) the spec's distribution service at PricePerHourUSD.
type Candidate struct {
	Name            string      // offer id, e.g. aws/g6.xlarge
	Region          string      // the offer's region, when Name is an offer
	Model           *BatchModel // nil: the spec's service distribution
	PricePerHourUSD float64     // USD per replica-hour; used when Model is nil or has no price
}

// SearchEntry is one evaluated (candidate, policy) pair.
type SearchEntry struct {
	Candidate            string  `json:"candidate"`
	Region               string  `json:"region,omitempty"`
	Policy               Policy  `json:"policy"`
	Summary              string  `json:"summary"` // the policy in a few words
	MeetsSLO             bool    `json:"meets_slo"`
	CostUSD              float64 `json:"cost_usd"`
	SLOViolationFraction float64 `json:"slo_violation_fraction"`
	P95LatencyS          float64 `json:"p95_latency_s"`
	ReplicaHours         float64 `json:"replica_hours"`
	Utilization          float64 `json:"utilization"`
}

// SearchResult is the cheapest entry that meets the SLO (nil when none
// does), the next cheapest ones that meet it (and, when fewer than five
// meet it, the closest misses), and how many runs the search made.
type SearchResult struct {
	Best      *SearchEntry  `json:"best"`
	RunnersUp []SearchEntry `json:"runners_up"`
	Evaluated int           `json:"evaluated"`
}

// Search looks, for each candidate, for the cheapest policy that meets the
// spec's SLO over the requests trace returns (a fresh Source per call, the
// same requests each time): the smallest fixed fleet (doubling, then
// bisection), a grid of target-tracking policies (target, minimum 0 or 1,
// scale-down window) and of serverless ones (idle timeout), sized from that
// fleet, then local refinement around the best policies found. The spec's
// own policy is evaluated too. trace nil: the spec's synthetic traffic.
// opts.Progress, when set, is called with the candidates searched so far
// and their number.
func Search(spec *Spec, candidates []Candidate, trace func() Source, opts Options) (*SearchResult, error) {
	if len(candidates) == 0 {
		return nil, invalidf("candidates", "none to search")
	}
	if trace == nil {
		trace = func() Source { return nil }
	}
	// Progress counts candidates searched, and within one the share of
	// its runs done (SearchCandidate); each simulation's own calls report
	// where the search stands, so a caller can stop it there.
	progress := opts.Progress
	var all []SearchEntry
	for i, c := range candidates {
		opts.Progress = nil
		if progress != nil {
			progress(float64(i), float64(len(candidates)))
			opts.Progress = func(f, _ float64) { progress(float64(i)+f, float64(len(candidates))) }
		}
		entries, err := SearchCandidate(spec, c, trace, opts)
		if err != nil {
			return nil, err
		}
		all = append(all, entries...)
	}
	return RankSearch(all), nil
}

// SearchCandidate is Search's work on one candidate: every (policy,
// parameters) pair it evaluates for c, in the order it evaluates them. The
// policy search of a candidate is adaptive (the grid is sized from the
// smallest fixed fleet, refinement steps around the best found), so a
// candidate is the unit a sharded search splits on: each candidate's
// entries depend on that candidate alone, and RankSearch over the
// candidates' entries concatenated in candidate order is Search's result.
func SearchCandidate(spec *Spec, c Candidate, trace func() Source, opts Options) ([]SearchEntry, error) {
	if trace == nil {
		trace = func() Source { return nil }
	}
	base := *spec
	base.Defaults = nil
	// A search ranks what each policy is billed; the file offer's
	// commitments do not price another offer's replicas.
	base.Pricing.Commitments = nil
	if c.Model != nil {
		base.Service.Kind = ServiceModel
	} else if spec.Service.Kind == ServiceModel {
		return nil, invalidf("candidates", "candidate %s has no model, and the service kind is model", c.Name)
	}
	if c.Model == nil || c.Model.PricePerHourUSD == 0 {
		base.Pricing.PerHourUSD = c.PricePerHourUSD
	}
	cs := &candSearch{base: base, cand: c, trace: trace, opts: opts, seen: map[string]bool{}}
	if outer := opts.Progress; outer != nil {
		// opts.Progress hears the share of the candidate's search done, 0
		// to 1: the runs finished and the current one's progress, over the
		// runs the estimate expects (the search is adaptive: it may run
		// more, so the share stops short of 1 until the end).
		runs := 1
		if base.Traffic.Kind != TrafficTrace {
			est := newRunEstimate(&base, nil, c.Model)
			runs, _ = est.search()
		}
		last := 0.0 // a run that adds no entry must not take it back
		cs.opts.Progress = func(done, total float64) {
			f := float64(len(cs.entries))
			if total > 0 {
				f += math.Min(1, done/total)
			}
			last = math.Max(last, math.Min(0.95, f/float64(max(runs, 1))))
			outer(last, 1)
		}
	}
	if err := cs.run(); err != nil {
		return nil, err
	}
	return cs.entries, nil
}

// RankSearch turns the entries of a search, concatenated in candidate
// order, into its result: those meeting the SLO first, cheapest first, then
// the closest misses; entries of one candidate with the same outcome kept
// once; the first meeting the SLO is Best. Ties keep the entries' order (a
// stable sort), so the same entries in the same order always give the same
// result.
func RankSearch(entries []SearchEntry) *SearchResult {
	// The order: meeting the SLO first, by cost, then by violations; the
	// position breaks ties, so the order is total and any sort gives the
	// stable one. cmp.Compare puts a NaN before every number, where <
	// left the order undefined.
	less := func(i, j int32) int {
		a, b := &entries[i], &entries[j]
		if a.MeetsSLO != b.MeetsSLO {
			if a.MeetsSLO {
				return -1
			}
			return 1
		}
		var c int
		if a.MeetsSLO {
			c = cmp.Compare(a.CostUSD, b.CostUSD)
		} else {
			c = cmp.Compare(a.SLOViolationFraction, b.SLOViolationFraction)
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	}
	out := &SearchResult{Evaluated: len(entries)}
	// The result holds the best and five runners-up, duplicates dropped:
	// the first few entries in that order suffice, unless duplicates are
	// many. A merge of 10,000 candidates ranks hundreds of thousands of
	// entries, so select the first k (a heap), not sort them all, and
	// take more only when k gave too few.
	const keep = 6
	for k := 64; ; k *= 4 {
		first := smallest(len(entries), k, less)
		kept := dedupe(entries, first, keep)
		if len(kept) == keep || len(first) == len(entries) {
			if len(kept) > 0 && kept[0].MeetsSLO {
				b := kept[0]
				out.Best = &b
				kept = kept[1:]
			}
			out.RunnersUp = kept[:min(5, len(kept))]
			return out
		}
	}
}

// smallest returns the k positions of 0..n-1 that come first in the total
// order cmp, in that order.
func smallest(n, k int, cmp func(i, j int32) int) []int32 {
	if k >= n {
		all := make([]int32, n)
		for i := range all {
			all[i] = int32(i)
		}
		slices.SortFunc(all, cmp)
		return all
	}
	// A max-heap of the k first seen so far: its root is the last of them.
	h := make([]int32, 0, k)
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && cmp(h[c+1], h[c]) > 0 {
				c++
			}
			if cmp(h[c], h[i]) <= 0 {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for i := range n {
		x := int32(i)
		switch {
		case len(h) < k:
			h = append(h, x)
			for j := len(h) - 1; j > 0; {
				p := (j - 1) / 2
				if cmp(h[j], h[p]) <= 0 {
					break
				}
				h[j], h[p] = h[p], h[j]
				j = p
			}
		case cmp(x, h[0]) < 0:
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

// dedupe walks entries in order and keeps up to keep of them, dropping an
// entry whose outcome an earlier one of the same candidate had: policies
// that differ only in a knob that changed nothing (a minimum of 0 or 1 the
// traffic never reaches) run the same, one row each. Never nil, so that
// runners_up is [] in JSON.
func dedupe(entries []SearchEntry, order []int32, keep int) []SearchEntry {
	type outcome struct {
		cand, region        string
		cost, viol, p95, hr float64
	}
	seen := map[outcome]bool{}
	kept := make([]SearchEntry, 0, keep)
	for _, k := range order {
		e := &entries[k]
		o := outcome{e.Candidate, e.Region, e.CostUSD, e.SLOViolationFraction, e.P95LatencyS, e.ReplicaHours}
		if !seen[o] {
			seen[o] = true
			kept = append(kept, *e)
			if len(kept) == keep {
				break
			}
		}
	}
	return kept
}

type candSearch struct {
	base    Spec
	cand    Candidate
	trace   func() Source
	opts    Options
	seen    map[string]bool
	entries []SearchEntry
}

// deployable rounds a policy's knobs to what an autoscaler takes: a
// whole number of requests per replica (in_flight and queue count
// requests), whole seconds for windows, cooldowns and timeouts.
func deployable(p Policy) Policy {
	if p.Kind == PolicyTarget {
		p.Target = math.Max(1, math.Round(p.Target))
	}
	p.ScaleDownStabilizationS = math.Round(p.ScaleDownStabilizationS)
	p.CooldownS = math.Round(p.CooldownS)
	p.IdleTimeoutS = math.Round(p.IdleTimeoutS)
	return p
}

func (cs *candSearch) eval(p Policy, summary string) (*SearchEntry, error) {
	if p != cs.base.Policy {
		p = deployable(p) // the user's own policy is compared as given
		summary = summarize(p)
	}
	key := fmt.Sprintf("%+v|%+v|%+v|%+v", p, p.OnDemand, p.Spot, p.Fallback)
	if cs.seen[key] {
		return nil, nil
	}
	cs.seen[key] = true
	s := cs.base
	s.Policy = p
	res, err := Simulate(&s, cs.trace(), cs.cand.Model, cs.opts)
	if err != nil {
		return nil, err
	}
	e := SearchEntry{Candidate: cs.cand.Name, Region: cs.cand.Region, Policy: p, Summary: summary, MeetsSLO: res.SLOMet, CostUSD: res.CostUSD,
		SLOViolationFraction: res.SLOViolationFraction, P95LatencyS: res.Latency.P95S, ReplicaHours: res.ReplicaHours,
		Utilization: res.Utilization}
	cs.entries = append(cs.entries, e)
	return &e, nil
}

// defaults returns a policy of kind with every default ParseSpec would fill.
func (cs *candSearch) defaults(kind string) Policy {
	s := cs.base
	s.Policy = Policy{Kind: kind}
	c := &checker{s: &s, lines: strictyaml.Lines{"policy.kind": 1}}
	c.policy()
	return s.Policy
}

func (cs *candSearch) fixed(n int) (bool, error) {
	e, err := cs.eval(Policy{Kind: PolicyFixed, Replicas: n}, summarize(Policy{Kind: PolicyFixed, Replicas: n}))
	if err != nil || e == nil {
		return false, err
	}
	return e.MeetsSLO, nil
}

func (cs *candSearch) run() error {
	// Own policy first, so the user's choice is always compared.
	if _, err := cs.eval(cs.base.Policy, asGiven(cs.base.Policy).String()); err != nil {
		return err
	}
	// Smallest fixed fleet that meets the SLO.
	const limit = 1024
	hi := 1
	for ; hi <= limit; hi *= 2 {
		ok, err := cs.fixed(hi)
		if err != nil {
			return err
		}
		if ok {
			break
		}
	}
	nFixed := hi
	if hi > limit {
		nFixed = limit
	} else {
		lo := hi / 2 // fails (or 0)
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			ok, err := cs.fixed(mid)
			if err != nil {
				return err
			}
			if ok {
				hi = mid
			} else {
				lo = mid
			}
		}
		nFixed = hi
	}
	perReplica := 1
	if cs.cand.Model != nil {
		perReplica = cs.cand.Model.MaxBatch
	} else {
		perReplica = cs.base.Service.Concurrency
	}
	var grid []Policy
	targets := uniq([]float64{1, 2, 4, math.Max(1, math.Round(0.5*float64(perReplica))), math.Max(1, math.Round(0.8*float64(perReplica)))})
	for _, tgt := range targets {
		for _, mn := range []int{0, 1} {
			for _, win := range []float64{60, 300} {
				p := cs.defaults(PolicyTarget)
				p.Target, p.MinReplicas, p.InitialReplicas = tgt, mn, max(mn, 1)
				p.MaxReplicas = max(2*nFixed, 2)
				p.ScaleDownStabilizationS = win
				p.CooldownS = win
				grid = append(grid, p)
			}
		}
	}
	for _, idle := range []float64{5, 60, 300} {
		p := cs.defaults(PolicyServerless)
		p.IdleTimeoutS = idle
		p.MaxWorkers = max(2*nFixed, 2)
		grid = append(grid, p)
	}
	for _, p := range grid {
		if _, err := cs.eval(p, summarize(p)); err != nil {
			return err
		}
	}
	// Local refinement: step each knob of the best few meeting the SLO.
	for round := 0; round < 3; round++ {
		best := cs.bestMeeting(3)
		improved := false
		for _, b := range best {
			for _, n := range neighbours(b.Policy) {
				e, err := cs.eval(n, summarize(n))
				if err != nil {
					return err
				}
				if e != nil && e.MeetsSLO && e.CostUSD < b.CostUSD {
					improved = true
				}
			}
		}
		if !improved {
			break
		}
	}
	return nil
}

func (cs *candSearch) bestMeeting(k int) []SearchEntry {
	var ok []SearchEntry
	for _, e := range cs.entries {
		if e.MeetsSLO && e.Policy.Kind != PolicyFixed {
			ok = append(ok, e)
		}
	}
	sort.SliceStable(ok, func(i, j int) bool { return ok[i].CostUSD < ok[j].CostUSD })
	return ok[:min(k, len(ok))]
}

func neighbours(p Policy) []Policy {
	var out []Policy
	add := func(f func(*Policy)) {
		q := p
		f(&q)
		out = append(out, q)
	}
	switch p.Kind {
	case PolicyTarget:
		// Steps of at least one request: targets are whole numbers.
		add(func(q *Policy) { q.Target = math.Max(p.Target+1, p.Target*1.25) })
		add(func(q *Policy) { q.Target = math.Max(1, math.Min(p.Target-1, p.Target*0.8)) })
		add(func(q *Policy) { q.ScaleDownStabilizationS = math.Max(0, p.ScaleDownStabilizationS/2) })
		add(func(q *Policy) { q.ScaleDownStabilizationS = math.Min(3600, p.ScaleDownStabilizationS*2) })
		add(func(q *Policy) { q.CooldownS = p.CooldownS / 2 })
		add(func(q *Policy) { q.CooldownS = p.CooldownS * 2 })
		if p.MinReplicas > 0 {
			add(func(q *Policy) { q.MinReplicas = p.MinReplicas - 1; q.InitialReplicas = max(q.MinReplicas, 1) })
		}
		if p.MinReplicas < p.MaxReplicas {
			add(func(q *Policy) { q.MinReplicas = p.MinReplicas + 1; q.InitialReplicas = q.MinReplicas })
		}
	case PolicyServerless:
		add(func(q *Policy) { q.IdleTimeoutS = p.IdleTimeoutS / 2 })
		add(func(q *Policy) { q.IdleTimeoutS = p.IdleTimeoutS * 2 })
		add(func(q *Policy) { q.MaxWorkers = max(1, p.MaxWorkers*3/4) })
		add(func(q *Policy) { q.MinWorkers = min(p.MinWorkers+1, p.MaxWorkers) })
	}
	return out
}

func summarize(p Policy) string { return summaryOf(p).String() }

// summaryOf is a policy in a few words.
func summaryOf(p Policy) msg.Msg {
	switch p.Kind {
	case PolicyFixed:
		return msg.New("fixed %d", p.Replicas)
	case PolicyTarget:
		return msg.New("target %s=%g, %d-%d replicas, scale-down window %gs, cooldown %gs", p.Metric, p.Target, p.MinReplicas, p.MaxReplicas, p.ScaleDownStabilizationS, p.CooldownS)
	case PolicyServerless:
		return msg.New("serverless %d-%d workers, idle timeout %gs", p.MinWorkers, p.MaxWorkers, p.IdleTimeoutS)
	}
	return msg.Text(p.Kind)
}

// asGiven is the summary of the user's own policy, compared as given.
func asGiven(p Policy) msg.Msg { return msg.New("%s (as given)", p.Kind) }

// SummaryMsg is the entry's summary as a message, made again from its
// policy (the stored entry keeps the English text): the user's policy
// as given, or the policy in a few words.
func (e *SearchEntry) SummaryMsg() msg.Msg {
	for _, m := range [...]msg.Msg{summaryOf(e.Policy), asGiven(e.Policy)} {
		if m.String() == e.Summary {
			return m
		}
	}
	return msg.Text(e.Summary)
}

func uniq(v []float64) []float64 {
	sort.Float64s(v)
	out := v[:0]
	for i, x := range v {
		if i == 0 || x != v[i-1] {
			out = append(out, x)
		}
	}
	return out
}
