// Package app composes the domain packages into the operations that both
// the command line and the HTTP service offer: judging offers (stack and
// compliance), resolving offers and clusters, choosing what to export, and
// building the simulator's replica model. It does no I/O; error messages
// name the caller's fields (flags or JSON keys) through Fields.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

// Fields names the inputs in error messages: command-line flags or JSON keys.
type Fields struct {
	GPU, GPUs, Nodes, Offer, Region string
}

// Flags and JSON are the two namings gpupick uses.
var (
	Flags = Fields{GPU: "--gpu", GPUs: "--gpus", Nodes: "--nodes", Offer: "--offer", Region: "--region"}
	JSON  = Fields{GPU: "gpu", GPUs: "gpus", Nodes: "nodes", Offer: "offer", Region: "region"}
)

// Checker judges offers for a workload's stack and compliance block, the
// checks recommend, cost and export apply. Stack verdicts depend only on the
// stack, the accelerator and the driver, and judging them dominates the cost
// of a recommendation, so a Checker remembers them; it is safe for
// concurrent use and lives as long as its catalog and matrix.
type Checker struct {
	matrix *compat.Matrix
	cat    *catalog.Catalog
	mu     sync.Mutex
	cache  map[stackKey]compat.Result
}

type stackKey struct{ stack, gpu, driver string }

// maxStackCache bounds the verdict cache; it is emptied when full.
const maxStackCache = 20000

// NewChecker returns a Checker over a matrix and catalog.
func NewChecker(m *compat.Matrix, c *catalog.Catalog) *Checker {
	return &Checker{matrix: m, cat: c, cache: map[stackKey]compat.Result{}}
}

// Stack is the compatibility verdict of spec's stack on offer o.
func (k *Checker) Stack(spec *workload.Spec, o *catalog.Offer) compat.Result {
	fp, err := json.Marshal(spec.Stack)
	if err != nil {
		a, _ := k.cat.OfferAccelerator(o)
		return k.matrix.Check(spec.Stack, a, o.Driver)
	}
	return k.stack(string(fp), spec, o)
}

// stack is Stack with the stack's fingerprint already computed.
func (k *Checker) stack(fp string, spec *workload.Spec, o *catalog.Offer) compat.Result {
	key := stackKey{fp, o.GPU, o.Driver}
	k.mu.Lock()
	r, ok := k.cache[key]
	k.mu.Unlock()
	if ok {
		return r
	}
	a, _ := k.cat.OfferAccelerator(o)
	r = k.matrix.Check(spec.Stack, a, o.Driver)
	k.mu.Lock()
	if len(k.cache) >= maxStackCache {
		k.cache = map[stackKey]compat.Result{}
	}
	k.cache[key] = r
	k.mu.Unlock()
	return r
}

// Checks are the stack and compliance judgements recommend applies to every
// offer: incompatible or non-compliant offers are excluded with the reason;
// needs-work and preferred-but-unmet requirements become warnings. The
// checks of one call are safe for concurrent use: Recommend's filtering
// loop calls them offer after offer, its near-misses from one goroutine
// per constraint.
func (k *Checker) Checks() []advisor.Check {
	var mu sync.Mutex // guards the memos below
	// A recommendation asks about one workload, offer after offer: its
	// stack's fingerprint is computed once.
	// Its verdicts, and the sentences made of them, are kept per
	// accelerator and driver for the call (callers only read them).
	type verdict struct {
		code     string
		why      msg.Msg
		warnings []advisor.CheckWarning
	}
	type gpuDriver struct{ gpu, driver string }
	var lastSpec *workload.Spec
	var lastFP string
	var verdicts map[gpuDriver]verdict
	stack := func(spec *workload.Spec, o *catalog.Offer) (string, msg.Msg, []advisor.CheckWarning) {
		mu.Lock()
		defer mu.Unlock()
		if spec != lastSpec {
			fp, err := json.Marshal(spec.Stack)
			if err != nil {
				fp = []byte(fmt.Sprintf("%#v", spec.Stack))
			}
			lastSpec, lastFP = spec, string(fp)
			verdicts = map[gpuDriver]verdict{}
		}
		vk := gpuDriver{o.GPU, o.Driver}
		if v, ok := verdicts[vk]; ok {
			return v.code, v.why, v.warnings
		}
		r := k.stack(lastFP, spec, o)
		v := verdict{}
		for _, reason := range r.Reasons {
			switch reason.Verdict {
			case compat.Incompatible:
				v = verdict{code: advisor.ReasonIncompatible, why: withFix(reason.Text, reason.Fix)}
			case compat.NeedsWork:
				w := advisor.CheckWarning{Code: advisor.WarnNeedsWork, Text: withFix(reason.Text, reason.Fix)}
				if p := reason.Porting; p != nil {
					w.Work, w.EngineerDays, w.DelayDays = p.Kind, p.EngineerDays, p.DelayDays
				}
				v.warnings = append(v.warnings, w)
			}
			if v.code != "" {
				break
			}
		}
		verdicts[vk] = v
		return v.code, v.why, v.warnings
	}
	// A workload without compliance requirements passes every offer the
	// same way: judged once, without gathering each offer's facts.
	var noRulesSpec *workload.Spec
	var noRules compliance.Result
	rules := func(spec *workload.Spec, o *catalog.Offer) (string, msg.Msg, []advisor.CheckWarning) {
		var r compliance.Result
		mu.Lock()
		switch {
		case spec == noRulesSpec:
			r = noRules
		case !compliance.Requires(spec.Compliance):
			noRulesSpec, noRules = spec, compliance.Check(spec.Compliance, compliance.Facts{})
			r = noRules
		default:
			r = compliance.Check(spec.Compliance, compliance.FactsFor(k.cat, o, 0))
		}
		mu.Unlock()
		if r.Verdict != compliance.Pass {
			code := advisor.ReasonNonCompliant
			var why []msg.Msg
			for _, q := range r.Failed() {
				if q.Name == compliance.Operator {
					// Who runs the machine decides first: the other
					// verdicts speak for a machine the workload refuses.
					code = advisor.ReasonOperator
				}
				why = append(why, msg.New("%s %s: %s", compliance.NameMsg(q.Name), q.Verdict, q.Reason))
			}
			return code, msg.Join(msg.Sentences, why), nil
		}
		var ws []advisor.CheckWarning
		for _, w := range r.Warnings() {
			ws = append(ws, advisor.CheckWarning{Code: advisor.WarnPreferred, Text: w})
		}
		return "", msg.Msg{}, ws
	}
	return []advisor.Check{stack, rules}
}

// withFix is a finding and what to do about it, as one sentence.
func withFix(text, fix msg.Msg) msg.Msg {
	if fix.IsZero() {
		return text
	}
	if fix.Format() == msg.Stop {
		fix = fix.Args()[0].(msg.Msg) // the sentence ends once
	} else if s := fix.String(); strings.HasSuffix(s, ".") {
		fix = msg.Text(strings.TrimSuffix(s, "."))
	}
	return msg.New("%s. Fix: %s.", text, fix)
}

// Demote turns a check's exclusion into a warning: for an offer the user
// named, which is priced whatever its verdict.
func Demote(chk advisor.Check) advisor.Check {
	return func(spec *workload.Spec, o *catalog.Offer) (string, msg.Msg, []advisor.CheckWarning) {
		code, why, ws := chk(spec, o)
		if code != "" {
			ws = append([]advisor.CheckWarning{{Code: code, Text: msg.New("%s: %s", advisor.ReasonText(code), why)}}, ws...)
		}
		return "", msg.Msg{}, ws
	}
}

// Cluster resolves an accelerator and/or an offer and a size to a
// cluster; errors name the fields as f names them.
func Cluster(c *catalog.Catalog, f Fields, gpu, offer string, gpus, nodes int) (perf.Cluster, error) {
	var o *catalog.Offer
	if offer != "" {
		var err error
		if o, err = FindOffer(c, f, offer); err != nil {
			return perf.Cluster{}, err
		}
	}
	var a *catalog.Accelerator
	switch {
	case gpu != "":
		var ok bool
		if a, ok = c.Accelerator(gpu); !ok {
			return perf.Cluster{}, apperr.NotFoundf(f.GPU, "unknown accelerator %q (known: %s)", gpu, strings.Join(c.AcceleratorNames(), ", "))
		}
		if o != nil && o.GPU != a.ID {
			return perf.Cluster{}, apperr.Invalidf(f.GPU, "%s has %s, not %s", o.ID(), o.GPU, a.ID)
		}
	case o != nil:
		a, _ = c.OfferAccelerator(o)
	default:
		return perf.Cluster{}, apperr.Invalidf(f.GPU, "give --gpu ID or --offer PROVIDER/INSTANCE")
	}
	if gpus < 0 || nodes < 0 {
		return perf.Cluster{}, apperr.Invalidf(f.GPUs, "must be >= 1")
	}
	if gpus == 0 {
		gpus = a.GPUsPerServer
		if o != nil {
			gpus = o.GPUCount
		}
		if nodes > 0 {
			gpus *= nodes
		}
	}
	cl, err := perf.NewCluster(a, gpus, nodes, o)
	if err != nil {
		return perf.Cluster{}, err
	}
	cl.Lookup = func(id string) *catalog.Accelerator {
		x, _ := c.Accelerator(id)
		return x
	}
	return cl, nil
}

// FindOffer resolves provider/instance-type (any region: the hardware is
// the same).
func FindOffer(c *catalog.Catalog, f Fields, id string) (*catalog.Offer, error) {
	var near []string
	for _, o := range c.Offers {
		if strings.EqualFold(o.ID(), id) {
			return o, nil
		}
		if strings.HasPrefix(strings.ToLower(o.ID()), strings.ToLower(strings.SplitN(id, "/", 2)[0])+"/") && len(near) < 8 {
			near = append(near, o.ID())
		}
	}
	hint := ""
	if len(near) > 0 {
		hint = " (that provider has e.g. " + strings.Join(near, ", ") + ")"
	}
	return nil, apperr.NotFoundf(f.Offer, "no offer %q in the catalog%s; see the offers listing", id, hint)
}

// PickRegion returns the row of offer o in region, or, without one, the
// cheapest row in mode m that passes the compliance block; ok says whether
// the row returned passes it (false: none does, and the cheapest row is
// returned for a caller that reports why). cost, simulate, check and the
// API pick regions with it, so that they agree.
func PickRegion(c *catalog.Catalog, f Fields, o *catalog.Offer, region string, req workload.Compliance, m catalog.Mode) (*catalog.Offer, bool, error) {
	var rows []*catalog.Offer
	for _, x := range c.Offers {
		if x.ID() == o.ID() {
			rows = append(rows, x)
		}
	}
	if region != "" {
		for _, x := range rows {
			if strings.EqualFold(x.Region, region) {
				return x, compliance.Check(req, compliance.FactsFor(c, x, 0)).Verdict == compliance.Pass, nil
			}
		}
		return nil, false, apperr.NotFoundf(f.Region, "%s is not offered in %q in the catalog", o.ID(), region)
	}
	// Cheapest first (in the mode; unpriced rows last, then by region),
	// so that every command picks the same row.
	sort.SliceStable(rows, func(i, j int) bool {
		pi, oki := rows[i].YourPrices.Get(m)
		pj, okj := rows[j].YourPrices.Get(m)
		if oki != okj {
			return oki
		}
		if pi != pj {
			return pi < pj
		}
		return rows[i].Region < rows[j].Region
	})
	for _, x := range rows {
		if compliance.Check(req, compliance.FactsFor(c, x, 0)).Verdict == compliance.Pass {
			return x, true, nil
		}
	}
	return rows[0], false, nil
}

// ExportPolicy maps a SERVICE.yaml policy onto what KEDA can carry.
func ExportPolicy(p autoscale.Policy) export.Policy {
	metric := export.MetricInFlight
	if p.Metric == "queue" {
		metric = export.MetricQueueLength
	}
	out := export.Policy{Kind: p.Kind, MinReplicas: p.MinReplicas, MaxReplicas: p.MaxReplicas, Metric: metric, Target: p.Target,
		PollingIntervalS: int(p.PollingIntervalS), CooldownS: int(p.CooldownS),
		StabilizationUpS: int(p.ScaleUpStabilizationS), StabilizationDownS: int(p.ScaleDownStabilizationS)}
	switch p.Kind {
	case autoscale.PolicyFixed:
		out.MinReplicas, out.MaxReplicas = p.Replicas, p.Replicas
	case autoscale.PolicyKnative:
		out.Target = p.TargetConcurrency * p.TargetUtilization
		out.Metric = export.MetricInFlight
	case autoscale.PolicyServerless:
		out.MinReplicas, out.MaxReplicas, out.Target = p.MinWorkers, p.MaxWorkers, float64(max(1, p.RequestsPerWorker))
		out.Metric = export.MetricInFlight
		out.CooldownS = int(p.IdleTimeoutS)
	case autoscale.PolicyMixed:
		if p.OnDemand != nil {
			out.MinReplicas = p.OnDemand.Replicas
			out.MaxReplicas = p.OnDemand.Replicas
		}
		if p.Spot != nil {
			out.MaxReplicas += p.Spot.MaxReplicas
		}
	}
	return out
}

// exportCandidates is how many ranked offers an export carries as
// failover candidates: the chosen one and the next best distinct offers.
const exportCandidates = 8

// ExportInput ranks the offers for the workload and picks the chosen one:
// the named offer, or the top candidate. The failover candidates (the
// chosen offer and the next best distinct ones, exportCandidates in all)
// are split by software family (export.Family): the Input holds the chosen
// offer's family, and Input.Others one Input per other family, each built
// from that family's best candidate (its plan, accelerator and replica
// layout) and holding that family's candidates only. Every candidate is in
// exactly one of them.
func ExportInput(spec *workload.Spec, c *catalog.Catalog, k *Checker, now time.Time, f Fields, offer string) (export.Input, error) {
	res, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: c, Now: now, Checks: k.Checks(), CheckPlans: true})
	if err != nil {
		return export.Input{}, err
	}
	var chosen *advisor.Candidate
	if offer != "" {
		if _, err := FindOffer(c, f, offer); err != nil {
			return export.Input{}, err
		}
		for _, cand := range res.Candidates {
			if strings.EqualFold(cand.Offer.ID(), offer) {
				chosen = cand
				break
			}
		}
		if chosen == nil {
			return export.Input{}, apperr.Emptyf("%s is not a candidate for this workload (its exclusion explains why)", offer)
		}
	} else {
		if len(res.Candidates) == 0 {
			return export.Input{}, apperr.Emptyf("nothing qualifies: %s", res.Summary())
		}
		chosen = res.Candidates[0]
	}
	cands := []*advisor.Candidate{chosen}
	seen := map[string]bool{chosen.Offer.Key(): true}
	for _, cand := range res.Candidates {
		if !seen[cand.Offer.Key()] && len(cands) < exportCandidates {
			seen[cand.Offer.Key()] = true
			cands = append(cands, cand)
		}
	}
	groups := byFamily(c, cands)
	in := familyInput(spec, c, groups[0])
	for _, g := range groups[1:] {
		in.Others = append(in.Others, familyInput(spec, c, g))
	}
	return in, nil
}

// byFamily splits ranked candidates by the software family of their
// accelerator, keeping the rank order within each family and ordering the
// families by their best candidate: the first group holds cands[0].
func byFamily(c *catalog.Catalog, cands []*advisor.Candidate) [][]*advisor.Candidate {
	var groups [][]*advisor.Candidate
	index := map[export.Family]int{}
	for _, cand := range cands {
		a, _ := c.OfferAccelerator(cand.Offer)
		fam := export.AcceleratorFamily(a)
		i, ok := index[fam]
		if !ok {
			i = len(groups)
			index[fam] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], cand)
	}
	return groups
}

// familyInput is the export input of one family's candidates, ranked, the
// first of them chosen: its plan sizes the replicas, its accelerator names
// the device resource and the image.
func familyInput(spec *workload.Spec, c *catalog.Catalog, cands []*advisor.Candidate) export.Input {
	chosen := cands[0]
	offers := make([]*catalog.Offer, len(cands))
	for i, cand := range cands {
		offers[i] = cand.Offer
	}
	a, _ := c.OfferAccelerator(chosen.Offer)
	in := export.Input{Spec: spec, Offers: offers, GPU: a, Plan: report.PlanSentence(chosen.Plan, report.English)}
	switch chosen.Cost.Mode {
	case catalog.Spot:
		in.Capacity = []catalog.Mode{catalog.Spot, catalog.OnDemand}
	default:
		in.Capacity = []catalog.Mode{catalog.OnDemand}
	}
	p := chosen.Pred
	if spec.Kind == workload.KindLLMInference {
		in.GPUsPerReplica = chosen.Plan.GPUsPerReplica
		// A service scales between one replica and half again the planned
		// fleet, tracking requests in flight per replica.
		need := max(1, chosen.Plan.Replicas)
		target := 8.0
		if p.Serving != nil && p.Serving.MaxBatchSLO > 0 {
			target = math.Max(1, math.Floor(float64(p.Serving.MaxBatchSLO)*0.8))
		}
		in.Policy = export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: int(math.Ceil(float64(need) * 1.5)),
			Metric: export.MetricInFlight, Target: target}
	} else if spec.Kind == workload.KindImageGeneration && advisor.IsService(spec) {
		// An image service scales between one replica and half again the
		// planned fleet on requests waiting for a pipeline call: the plan
		// sized each replica so that a request waits for about the call
		// ahead of it (one call's images per replica) within the SLO.
		in.GPUsPerReplica = max(1, chosen.Plan.GPUsPerReplica)
		need := max(1, chosen.Plan.Replicas)
		in.Policy = export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: int(math.Ceil(float64(need) * 1.5)),
			Metric: export.MetricQueueLength, Target: float64(max(1, chosen.Plan.Batch))}
	} else if spec.Kind == workload.KindImageGeneration {
		// An offline image job splits its images over the plan's
		// data-parallel copies: one pod each.
		in.Shards = max(1, chosen.Plan.Data)
		in.GPUsPerReplica = max(1, chosen.GPUs/in.Shards)
	} else {
		in.GPUsPerReplica = chosen.GPUs
	}
	// A service's replicas on slices request one slice each: a MIG
	// instance, or a time-sliced share of a GPU.
	if sl := chosen.Plan.Slice; sl != nil && advisor.IsService(spec) {
		switch sl.Kind {
		case advisor.SliceMIG:
			in.MIGProfile, in.MIGPerGPU, in.GPUsPerReplica = sl.Profile, sl.PerGPU, 1
		case advisor.SliceTimeSliced:
			in.TimeSliced, in.GPUsPerReplica = sl.PerGPU, 1
		}
	}
	return in
}

// Cost prices a workload on one named offer: in region (or, without one,
// the cheapest region with a price in mode), on gpus accelerators (0 = one
// instance). The offer is priced whatever its stack and compliance verdicts,
// which become warnings. Errors name the caller's fields.
func Cost(spec *workload.Spec, c *catalog.Catalog, k *Checker, now time.Time, f Fields, offer, region string, gpus int, mode catalog.Mode) (*advisor.Candidate, error) {
	if offer == "" {
		return nil, apperr.Invalidf(f.Offer, "required: provider/instance-type")
	}
	o, err := FindOffer(c, f, offer)
	if err != nil {
		return nil, err
	}
	pick, ok, err := PickRegion(c, f, o, region, spec.Compliance, mode)
	if err != nil {
		return nil, err
	}
	if !ok && region == "" {
		return nil, apperr.Emptyf("no region of %s meets the workload's compliance block (the cheapest, %s, does not): name one with --region to price it anyway", o.ID(), pick.Region)
	}
	o = pick
	instances := 1
	if gpus < 0 {
		return nil, apperr.Invalidf(f.GPUs, "must be >= 0")
	}
	service := spec.IsService()
	if gpus > 0 && !service {
		if gpus%o.GPUCount != 0 {
			return nil, apperr.Invalidf(f.GPUs, "%s has %d GPUs per instance: the count must be a multiple of it", o.ID(), o.GPUCount)
		}
		instances = gpus / o.GPUCount
	}
	req := advisor.Request{Spec: spec, Catalog: c, Now: now, Detail: true}
	for _, chk := range k.Checks() {
		req.Checks = append(req.Checks, Demote(chk))
	}
	cands, excl := advisor.EvaluateOffer(req, o, instances, []catalog.Mode{mode})
	if len(cands) == 0 {
		reason := msg.New("no candidate")
		if len(excl) > 0 {
			reason = excl[0].Reason
		}
		return nil, apperr.Emptyf("%s cannot run this workload as asked: %s", o.ID(), reason)
	}
	// A service's fleet is sized by its load, as recommend sizes it (by
	// the simulator): a count of GPUs given is checked against that plan,
	// not imposed.
	if err := advisor.CheckCandidate(context.Background(), req, cands[0]); err != nil && !errors.Is(err, advisor.ErrUnservable) {
		return nil, err
	}
	if pl := cands[0].Plan; service && gpus > 0 && gpus != pl.GPUs {
		return nil, apperr.Invalidf(f.GPUs, "a service's fleet is sized by its load: %s serves it on %d GPUs (%d instances), not %d; leave the count out",
			o.ID(), pl.GPUs, pl.Instances, gpus)
	}
	return cands[0], nil
}

// ReadTrace returns a streaming Source over a trace's text in the format
// the service's traffic.format names (azure when empty), with its time
// scale and default token counts. name is what errors call the trace (a
// file path, or a JSON key).
func ReadTrace(spec *autoscale.Spec, r io.Reader, name string) (autoscale.Source, error) {
	format := spec.Traffic.Format
	if format == "" {
		format = "azure"
	}
	src, err := autoscale.ReadTrace(format, r, autoscale.TraceOptions{
		TimeScale: spec.Traffic.TimeScale, PromptTokens: spec.Traffic.PromptTokens, OutputTokens: spec.Traffic.OutputTokens})
	if err != nil {
		return nil, apperr.InFile(err, name)
	}
	return &traceSource{src, name}, nil
}

// traceSource names the trace in the errors found while streaming it.
type traceSource struct {
	autoscale.ErrSource
	name string
}

func (t *traceSource) Err() error { return apperr.InFile(t.ErrSource.Err(), t.name) }

// SearchCandidates are what a policy search tries for a model service: the
// chosen offer (in the region its compliance allows), then up to n more
// offers the advisor ranks for the workload with the same checks recommend
// applies (compliance, stack, vendors, pricing), each named with its region.
func SearchCandidates(spec *autoscale.Spec, ws *workload.Spec, c *catalog.Catalog, checks []advisor.Check, chosen *catalog.Offer, model *autoscale.BatchModel, n int, now time.Time) []autoscale.Candidate {
	out := []autoscale.Candidate{{Name: chosen.ID(), Region: chosen.Region, Model: model}}
	if n <= 0 {
		return out
	}
	res, err := advisor.Recommend(advisor.Request{Spec: ws, Catalog: c, Now: now, Checks: checks})
	if err != nil {
		return out
	}
	seen := map[string]bool{chosen.ID(): true}
	for _, cand := range res.Candidates {
		if len(out) > n {
			break
		}
		if !cand.Cost.PriceKnown || seen[cand.Offer.ID()] {
			continue
		}
		seen[cand.Offer.ID()] = true
		if m, err := advisor.ServiceModel(spec, ws, c, cand.Offer); err == nil {
			out = append(out, autoscale.Candidate{Name: cand.Offer.ID(), Region: cand.Offer.Region, Model: m})
		}
	}
	return out
}
