package advisor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// A service plan is the advisor's estimate until the simulator has
// replayed its day: the autoscaler on the plan's floor and ceiling, the
// requests of the day at the workload's lengths, each replica as the
// performance model serves them. CheckPlans does that for the pick; a
// plan that misses its SLO is grown (the autoscaler's target lowered, so
// that it keeps more replicas) and replayed until it meets it.
// PlanSpec is the same replay as a service file: `gpupick simulate -f
// WORKLOAD.yaml` runs it (PlanFile), so the fleet recommend quotes is the
// fleet simulate replays.

// Plan check settings.
const (
	// checkSeed fixes the replayed day's requests: the check and simulate
	// on the same file see the same day.
	checkSeed = 1
	// constantHorizonS is how much of a constant day is replayed: its
	// hours are alike, and two of them hold enough requests to measure a
	// p99.
	constantHorizonS = 7200
	// peakReplayS is how long the peak is replayed to size the fleet: a
	// steady load, long enough for a p99 and for the trend that shows a
	// fleet that cannot keep up (steady).
	peakReplayS = 900
	// spotNoticeS is the warning before a spot replica is reclaimed (the
	// two minutes AWS gives; GCP and Azure give 30 s, which the spot
	// tier's cold start dominates anyway).
	spotNoticeS = 120
)

// PlanInput is what a plan's replay needs beyond the candidate: the
// workload and the catalog (prices, spot risk).
type PlanInput struct {
	Spec    *workload.Spec
	Catalog *catalog.Catalog
}

// PlanSpec writes c's plan as a service file for the simulator: its day
// of traffic, its offer (and slice), the autoscaler that runs between the
// plan's base and its peak (a mixed on-demand and spot fleet for a spot
// plan), the workload's SLO and the plan's commitment. target is the
// sequences (or images) in flight per replica the autoscaler scales on; 0
// takes the plan's own. The workload file is named name (the service file
// refers to it by path).
func PlanSpec(in PlanInput, c *Candidate, target float64, name string) ([]byte, error) {
	return planDoc(in, c, target, name, 0)
}

// PlanFile is the service file of c's plan as CheckPlan replayed it last
// (the autoscaler's target of its headroom): `gpupick simulate -f
// WORKLOAD.yaml` replays it, so the fleet recommend quotes is the fleet
// simulate replays. name is how the service file refers to the workload.
func PlanFile(in PlanInput, c *Candidate, name string) ([]byte, error) {
	return PlanSpec(in, c, planTarget(in.Spec, c), name)
}

// planDoc is PlanSpec, or with peakInstances > 0 the replay of the peak
// alone: peakReplayS of the peak's rate on that many instances, all up
// (the fleet's capacity, without its spare).
func planDoc(in PlanInput, c *Candidate, target float64, name string, peakInstances int) ([]byte, error) {
	sc := c.Plan.Scaling
	if sc == nil || c.Pred == nil {
		return nil, fmt.Errorf("%s has no service plan to replay", c.Offer.ID())
	}
	spec := in.Spec
	d, _ := workload.DayOf(spec)
	if target <= 0 {
		target = planTarget(spec, c)
	}
	traffic := map[string]any{"rate_per_s": d.MeanRPS, "seed": checkSeed}
	switch {
	case peakInstances > 0:
		traffic["kind"] = autoscale.TrafficPoisson
		traffic["rate_per_s"] = d.PeakRPS
		traffic["duration_s"] = peakReplayS
	case d.Amplitude() > 0:
		traffic["kind"] = autoscale.TrafficDiurnal
		traffic["amplitude"] = round3(d.Amplitude())
		traffic["peak_hour"] = d.PeakHour
		traffic["duration_s"] = 86400
	default:
		traffic["kind"] = autoscale.TrafficPoisson
		traffic["duration_s"] = constantHorizonS
	}
	if spec.Kind == workload.KindLLMInference {
		traffic["prompt_tokens"] = spec.Inference.PromptTokens
		traffic["output_tokens"] = spec.Inference.OutputTokens
		if cv := spec.Inference.OutputTokensCV; cv > 0 {
			traffic["token_dist"], traffic["token_cv"] = "lognormal", cv
		}
	}
	service := map[string]any{"kind": autoscale.ServiceModel, "workload": name, "offer": c.Offer.ID(), "region": c.Offer.Region}
	// The layout the plan was priced with (ServiceLayout reads it back).
	if c.Plan.Tensor > 1 {
		service["tensor_parallel"] = c.Plan.Tensor
	}
	if c.Plan.Pipeline > 1 {
		service["pipeline_parallel"] = c.Plan.Pipeline
	}
	if c.Plan.Expert > 1 && c.Plan.InstancesPerReplica > 1 {
		service["expert_parallel"] = c.Plan.Expert // experts over several instances
	}
	if s := c.Plan.Slice; s != nil && s.Kind == SliceMIG {
		service["slice"] = s.Profile
	}
	policy := map[string]any{"metric": "in_flight", "target": round3(target), "polling_interval_s": 15, "scale_down_stabilization_s": 300}
	if peakInstances > 0 {
		policy = map[string]any{"kind": autoscale.PolicyFixed, "replicas": sc.ReplicasOn(peakInstances)}
	} else if c.Cost.Mode == catalog.Spot {
		risk := in.Catalog.SpotRiskOf(c.Offer)
		hazard, _ := cost.SpotHazard(risk)
		policy["kind"] = autoscale.PolicyMixed
		policy["on_demand"] = map[string]any{"replicas": sc.ReplicasOn(sc.Held)}
		spot := map[string]any{"max_replicas": sc.ReplicasOn(sc.ceiling() - sc.Held), "interruptions_per_hour": hazard, "notice_s": spotNoticeS}
		if n := sc.ReplicasOn(sc.Base - sc.Held); n > 0 {
			spot["min_replicas"] = n
		}
		policy["spot"] = spot
	} else {
		policy["kind"] = autoscale.PolicyTarget
		policy["min_replicas"] = sc.ReplicasOn(sc.Base)
		policy["max_replicas"] = sc.ReplicasOn(sc.ceiling())
		policy["initial_replicas"] = sc.ReplicasOn(sc.Base)
	}
	slo := map[string]any{"target": sloTarget(spec)}
	switch spec.Kind {
	case workload.KindLLMInference:
		s := spec.Inference.SLO
		if s.TTFTMs > 0 {
			slo["ttft_s"] = s.TTFTMs / 1000
		}
		if s.TPOTMs > 0 {
			// A request meets the per-token bound when it ends within its
			// first token's bound and that many output tokens.
			slo["latency_s"] = (max(s.TTFTMs, 0) + s.TPOTMs*float64(spec.Inference.OutputTokens)) / 1000
		}
	case workload.KindImageGeneration:
		if s := spec.Image.SLO; s.LatencyS > 0 {
			slo["latency_s"] = s.LatencyS
		}
	}
	pricing := map[string]any{"per_hour_usd": 0}
	doc := map[string]any{"name": spec.Name, "traffic": traffic, "service": service, "policy": policy, "slo": slo, "pricing": pricing}
	b, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("# The day of %s's plan on %s in %s (%s): what gpupick recommend checked.\n", spec.Name, c.Offer.ID(), c.Offer.Region, c.Cost.Mode)
	return append([]byte(head), b...), nil
}

// sloTarget is the share of requests the workload's SLO asks to meet.
func sloTarget(spec *workload.Spec) float64 {
	p := 0.0
	switch spec.Kind {
	case workload.KindLLMInference:
		p = spec.Inference.SLO.Percentile
	case workload.KindImageGeneration:
		p = spec.Image.SLO.Percentile
	}
	if p <= 0 {
		p = 99
	}
	return p / 100
}

// planTarget is the autoscaler's target of c's plan.
func planTarget(spec *workload.Spec, c *Candidate) float64 {
	return targetInFlight(spec, c.Plan.Scaling, c.Pred)
}

// SizePlan sizes c's plan by the simulator: the fewest instances whose
// replicas, all up, meet the SLO at the peak's rate (a steady replay of
// peakReplayS), from the plan's own estimate up or down; c then carries
// the plan resized and priced (regrow). It reports whether the plan
// changed.
func SizePlan(ctx context.Context, req Request, c *Candidate) (bool, error) {
	sc := c.Plan.Scaling
	if sc == nil {
		return false, fmt.Errorf("%s has no service plan to replay", c.Offer.ID())
	}
	in := PlanInput{Spec: req.Spec, Catalog: req.Catalog}
	limit := max(1, maxGPUs(req.Spec)/max(1, c.Offer.GPUCount)-sc.Spare)
	meets := func(n int) (bool, error) {
		b, err := planDoc(in, c, 0, in.Spec.Name+".yaml", n)
		if err != nil {
			return false, err
		}
		r, err := ReplayPlan(ctx, in, c, b)
		if err != nil {
			return false, err
		}
		return r.SLOMet && steady(r), nil
	}
	// Exponential search from the estimate, then bisection between a
	// count that misses and one that meets.
	lo, hi := 0, min(sc.PeakNeed, limit)
	ok, err := meets(hi)
	if err != nil {
		return false, err
	}
	for !ok {
		if hi >= limit {
			return false, ErrUnservable
		}
		lo, hi = hi, min(limit, hi+max(1, hi/4))
		if ok, err = meets(hi); err != nil {
			return false, err
		}
	}
	if lo == 0 && hi > 1 {
		// The estimate met it: fewer may too.
		lo = 0
		for step := max(1, hi/4); hi-step >= 1; step = max(1, (hi-lo)/2) {
			ok, err := meets(hi - step)
			if err != nil {
				return false, err
			}
			if !ok {
				lo = hi - step
				break
			}
			hi -= step
		}
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		ok, err := meets(mid)
		if err != nil {
			return false, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	if hi == sc.PeakNeed {
		return false, nil
	}
	return regrow(req, c, hi), nil
}

// steady reports whether a replay's requests in flight stopped growing:
// the last quarter holds no more than a quarter more than the second. A
// fleet just short of its load meets the SLO for a while, as its queue
// builds; the trend shows it.
func steady(r *autoscale.Result) bool {
	n := len(r.Series)
	if n < 8 {
		return true
	}
	mean := func(ps []autoscale.SeriesPoint) float64 {
		var s float64
		for _, p := range ps {
			s += p.InFlight
		}
		return s / float64(len(ps))
	}
	return mean(r.Series[3*n/4:]) <= 1.25*mean(r.Series[n/4:n/2])+1
}

// ErrUnservable says no plan within constraints.max_gpus meets the SLO
// in the simulator.
var ErrUnservable = errors.New("no fleet within constraints.max_gpus meets the SLO in the simulator")

// CheckPlan replays c's day as its plan runs it (PlanSpec: the autoscaler
// between its base and its peak, scaling at the plan's headroom) and,
// while the day misses the SLO (the load grows faster than new replicas
// start), lowers the headroom a step (headrooms) and replays it again.
// c then carries the plan at the last headroom, priced, and the check of
// its replay, which it returns; when no headroom within the constraints
// meets the SLO, the last check says so (Met false). ctx stops it.
func CheckPlan(ctx context.Context, req Request, c *Candidate) (*PlanCheck, error) {
	if c.Plan.Scaling == nil {
		return nil, fmt.Errorf("%s has no service plan to replay", c.Offer.ID())
	}
	in := PlanInput{Spec: req.Spec, Catalog: req.Catalog}
	var check *PlanCheck
	// The plan's own headroom first, then the lower ones (a constant day
	// does not scale: one replay).
	hs := []float64{c.Plan.Scaling.Headroom}
	for _, h := range headrooms {
		if h < hs[0]-1e-9 && hs[0] < 1 {
			hs = append(hs, h)
		}
	}
	for i, h := range hs {
		sc := c.Plan.Scaling
		if i > 0 && !replan(req, c, sc.PeakNeed, h) {
			break // the constraints allow no more headroom
		}
		target := planTarget(in.Spec, c)
		b, err := PlanFile(in, c, in.Spec.Name+".yaml")
		if err != nil {
			return nil, err
		}
		r, err := ReplayPlan(ctx, in, c, b)
		if err != nil {
			return nil, err
		}
		check = checkOf(in.Spec, c, r, target)
		check.Resized = i
		if check.Met {
			fitToReplay(req, c, r)
			check.PerMonthUSD = checkOf(in.Spec, c, r, target).PerMonthUSD
		}
		c.Plan.Scaling.Check = check
		if check.Met || c.Plan.Scaling.Headroom >= 1 {
			break
		}
	}
	return check, nil
}

// fitToReplay gives c's plan the fleet its replay ran: the most
// instances at once and the mean above the base, priced again. The
// autoscaler's ceiling stays what the replay allowed it (Ceiling), so that
// the plan's service file replays the same day.
func fitToReplay(req Request, c *Candidate, r *autoscale.Result) {
	sc := c.Plan.Scaling
	ceiling := sc.Max
	if sc.Ceiling > 0 {
		ceiling = sc.Ceiling
	}
	x := *sc
	x.Ceiling = ceiling
	x.Max = min(ceiling, max(sc.Base, sc.instancesFor(r.PeakReplicas)))
	x.BurstInstances = math.Min(float64(x.Max-x.Base), math.Max(0, sc.instancesForMean(r.MeanReplicas)-float64(sc.Base)))
	reprice(req, c, &x)
}

// headrooms are the shares of their capacity an autoscaled fleet's
// replicas are tried at, the default first.
var headrooms = []float64{defaultHeadroom, 0.75, 0.65, 0.55}

// maxGPUs is the workload's constraints.max_gpus, or the default bound.
func maxGPUs(spec *workload.Spec) int {
	if n := spec.Constraints.MaxGPUs; n > 0 {
		return n
	}
	return DefaultMaxGPUs
}

// ReplayPlan runs the service file b of c's plan (PlanSpec) through the
// simulator, with the replica model of c's offer.
func ReplayPlan(ctx context.Context, in PlanInput, c *Candidate, b []byte) (*autoscale.Result, error) {
	as, err := autoscale.ParseSpec(b)
	if err != nil {
		return nil, err
	}
	m, err := ServiceModel(as, ServiceLayout(as, in.Spec), in.Catalog, c.Offer)
	if err != nil {
		return nil, err
	}
	if c.Plan.Slice != nil && c.Plan.Scaling != nil {
		// The plan puts its own count of slices on each instance it rents.
		per := max(1, c.Plan.Scaling.ReplicasPerInstance)
		if price, ok := c.Offer.YourPrices.Get(catalog.OnDemand); ok {
			m.ReplicasPerInstance, m.PricePerHourUSD = per, price/float64(per)
		}
	}
	ApplyPrices(as, c.Offer, m)
	// The plan's own mode pays for its base: only its commitment, if any.
	keep := c.Cost.Mode.String()
	as.Pricing.Commitments = slices.DeleteFunc(as.Pricing.Commitments, func(x autoscale.Commitment) bool { return x.Term != keep })
	return autoscale.Simulate(as, nil, m, autoscale.Options{Context: ctx})
}

// checkOf reads a replay: its SLO attainment, its replicas and its cost
// as a month (the base's commitment where the plan has one, and the
// plan's storage and egress, which the replay does not see).
func checkOf(spec *workload.Spec, c *Candidate, r *autoscale.Result, target float64) *PlanCheck {
	ch := &PlanCheck{SLOAttainment: 1 - r.SLOViolationFraction, SLOTarget: sloTarget(spec), Met: r.SLOMet,
		TargetInFlight: round3(target), Requests: r.Requests, Interruptions: r.Interruptions, ReplicasMax: r.PeakReplicas}
	ch.ReplicasMin = r.PeakReplicas
	for _, p := range r.Series {
		if n := int(math.Round(p.Replicas)); n < ch.ReplicasMin {
			ch.ReplicasMin = n
		}
	}
	usd := r.CostUSD
	for _, x := range r.Commitments {
		if x.Term == c.Cost.Mode.String() {
			usd = x.FleetCostUSD
		}
	}
	if r.DurationS > 0 {
		usd *= catalog.HoursPerMonth * 3600 / r.DurationS
	}
	ch.PerMonthUSD = usd + c.Cost.Cost.Storage + c.Cost.Cost.Egress
	return ch
}

// maxSized bounds the instance types a recommendation sizes by replay;
// maxDays the days it replays.
const (
	maxSized = 8
	maxDays  = 2
)

// checkPlans sizes the service plans by the simulator, best first: the
// first candidate of an instance type (and mode) not yet sized is sized
// by replaying its peak (SizePlan), and every candidate of the same type
// and mode (other regions) takes the same size; the candidates are ranked
// again, until the first is sized (at most maxSized types). The pick's
// whole day is then replayed as its autoscaler runs it (CheckPlan); if
// that grows it out of first place, the new pick's day is replayed too
// (at most maxDays).
func checkPlans(req Request, res *Result) error {
	ctx := req.Context
	if ctx == nil {
		ctx = context.Background()
	}
	key := func(c *Candidate) string { return c.Offer.ID() + "|" + c.Cost.Mode.String() }
	sized := map[string]bool{}
	// first is the first planned candidate, nil when the pick is none.
	first := func() *Candidate {
		for _, c := range res.Candidates {
			if c.Plan.Scaling != nil && c.Cost.PriceKnown {
				return c
			}
			if c == res.Candidates[0] {
				return nil
			}
		}
		return nil
	}
	// Every candidate of top's type and mode takes its size.
	spread := func(top *Candidate, replayed bool) {
		need := top.Plan.Scaling.PeakNeed
		for _, c := range res.Candidates {
			if c != top && key(c) == key(top) && c.Plan.Scaling != nil && c.Plan.Scaling.PeakNeed != need {
				if regrow(req, c, need) && replayed {
					c.Plan.Scaling.ReplayedIn = top.Offer.Region
				}
			}
		}
		rank(res)
	}
	// drop excludes every candidate of c's type and mode: the simulator
	// says none can serve the load.
	drop := func(c *Candidate, why msg.Msg) {
		k := key(c)
		res.Candidates = slices.DeleteFunc(res.Candidates, func(x *Candidate) bool {
			if key(x) != k {
				return false
			}
			res.Excluded = append(res.Excluded, Excluded{Offer: x.Offer.ID(), Region: x.Offer.Region, GPUs: x.GPUs,
				Pricing: x.Cost.Mode.String(), ReasonCode: ReasonUnsustained, Reason: why})
			return true
		})
		rank(res)
	}
	// overBudget excludes the candidates whose plan, sized by the
	// simulator, the replays have put over constraints.budget_usd: the
	// budget judged the model's estimate, the buyer pays the plan. An
	// estimate (corrected or not) is judged when it is sized.
	budget := req.Spec.Constraints.BudgetUSD
	overBudget := func() bool {
		if budget <= 0 {
			return false
		}
		n := len(res.Candidates)
		res.Candidates = slices.DeleteFunc(res.Candidates, func(x *Candidate) bool {
			if x.Plan.Scaling == nil || !sized[key(x)] || !x.Cost.PriceKnown || x.Cost.Cost.Total <= budget {
				return false
			}
			res.Excluded = append(res.Excluded, Excluded{Offer: x.Offer.ID(), Region: x.Offer.Region, GPUs: x.GPUs,
				Pricing: x.Cost.Mode.String(), ReasonCode: ReasonBudget,
				Reason: msg.New("its plan, sized by the simulator, costs $%.0f, the budget is $%.0f", x.Cost.Cost.Total, budget),
				Relax:  RelaxBudget, Needed: float32(x.Cost.Cost.Total), TotalUSD: float32(x.Cost.Cost.Total)})
			return true
		})
		if len(res.Candidates) == n {
			return false
		}
		rank(res)
		return true
	}
	// The performance model's first estimates, per type and mode: what the
	// replays are compared with.
	estimate := map[string]int{}
	for _, c := range res.Candidates {
		if sc := c.Plan.Scaling; sc != nil {
			if _, ok := estimate[key(c)]; !ok {
				estimate[key(c)] = sc.PeakNeed
			}
		}
	}
	// ratios are what the replays found over the estimates, per replica
	// size (GPUs per replica): the model leaves out the queueing a p99
	// sees, and how much it leaves out depends on how fast one replica
	// prefills (a one-GPU replica of a 70B model queues its prompts behind
	// each other far more than a four-GPU one).
	ratios := map[int][]float64{}
	// correct scales the estimates of the types not yet replayed by the
	// smallest ratio the replays of their replica size found, so that the
	// ranking stays comparable and the types replayed next are those
	// likely to win; a type of a replica size not yet replayed keeps its
	// estimate. Never dearer than it may be: a type made to look dearer
	// than it is would never be replayed, though it might win.
	correct := func() {
		for _, c := range res.Candidates {
			sc := c.Plan.Scaling
			rs := ratios[c.Plan.GPUsPerReplica]
			if sc == nil || sized[key(c)] || len(rs) == 0 {
				continue
			}
			r := slices.Min(rs)
			need := max(1, int(math.Ceil(float64(estimate[key(c)])*r-1e-9)))
			if need != sc.PeakNeed && regrow(req, c, need) {
				c.Plan.Scaling.EstimateScaledBy = round3(r)
			}
		}
		rank(res)
	}
	days := map[string]bool{}
	changed := false
	for range maxSized + maxDays {
		top := first()
		if top == nil {
			break
		}
		k := key(top)
		switch {
		case !sized[k] && len(sized) < maxSized:
			sized[k] = true
			grew, err := SizePlan(ctx, req, top)
			switch {
			case errors.Is(err, ErrUnservable):
				drop(top, msg.New("in the simulator, %.4g requests/s at the peak within the SLO need more than %d GPUs (constraints.max_gpus)",
					top.Plan.Scaling.PeakRPS, maxGPUs(req.Spec)))
				changed = true
				continue
			case err != nil:
				if ctx.Err() != nil {
					return ctx.Err()
				}
				continue // the simulator cannot replay this plan: it stays an estimate
			}
			changed = changed || grew
			if e := estimate[k]; e > 0 {
				g := top.Plan.GPUsPerReplica
				ratios[g] = append(ratios[g], float64(top.Plan.Scaling.PeakNeed)/float64(e))
			}
			spread(top, true)
			correct()
			changed = overBudget() || changed
			continue
		case !days[k] && len(days) < maxDays:
			days[k] = true
			ch, err := CheckPlan(ctx, req, top)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				continue
			}
			if !ch.Met {
				drop(top, msg.New("in the simulated day, %.1f%% of requests meet the SLO (%.0f%% asked) with the most instances constraints.max_gpus allows",
					100*ch.SLOAttainment, 100*ch.SLOTarget))
			}
			changed = true
		default:
			top = nil
		}
		if top == nil {
			break
		}
		spread(top, true)
		changed = overBudget() || changed
	}
	for _, c := range res.Candidates {
		if sc := c.Plan.Scaling; sc != nil {
			sc.Sized = sized[key(c)]
		}
	}
	if changed {
		markPareto(res.Candidates)
	}
	return nil
}

// ServiceLayout is ws with the replica layout a service file fixes
// (service.tensor_parallel and the others) in its parallelism block: the
// layout a recommended plan was priced with (PlanFile writes it). ws
// itself when the file fixes none.
func ServiceLayout(as *autoscale.Spec, ws *workload.Spec) *workload.Spec {
	sv := as.Service
	if sv.TensorParallel == 0 && sv.PipelineParallel == 0 && sv.ExpertParallel == 0 {
		return ws
	}
	s := *ws
	if sv.TensorParallel > 0 {
		s.Parallelism.Tensor = sv.TensorParallel
	}
	if sv.PipelineParallel > 0 {
		s.Parallelism.Pipeline = sv.PipelineParallel
	}
	if sv.ExpertParallel > 0 {
		s.Parallelism.Expert = sv.ExpertParallel
	}
	return &s
}

// CheckCandidate sizes c's service plan by the simulator and replays its
// day, as a recommendation does for its pick (SizePlan, then CheckPlan):
// a command that prices one named offer plans it the same way. It does
// nothing for a candidate without a plan (a job, a serverless platform).
// A plan the simulator cannot serve within the constraints keeps its
// estimate and says so (ErrUnservable, or a check that is not met).
func CheckCandidate(ctx context.Context, req Request, c *Candidate) error {
	if c.Plan.Scaling == nil || !c.Cost.PriceKnown {
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if _, err := SizePlan(ctx, req, c); err != nil {
		return err
	}
	c.Plan.Scaling.Sized = true
	_, err := CheckPlan(ctx, req, c)
	if err == nil {
		c.Plan.Scaling.Sized = true
	}
	return err
}
