package autoscale

import (
	"fmt"
	"math"
	"strings"
)

// Estimate is what a simulation or a policy search is expected to cost,
// known before it runs: Simulate and Search do an amount of work
// proportional to the events they handle, and the events come from the
// traffic (arrivals and completions), the policy (its ticks) and the fleet
// (cold starts, spot interruptions). Times are simulated seconds.
type Estimate struct {
	// Requests is the arrivals of one run: rate × duration for synthetic
	// traffic (the mean rate of a diurnal, bursty or spiky pattern), the
	// rows within the horizon for a trace.
	Requests float64 `json:"requests"`
	// HorizonS is the simulated time of the traffic: duration_s, or the
	// trace's span after its time_scale.
	HorizonS float64 `json:"horizon_s"`
	// Ticks is the policy's evaluations over the horizon and the drain
	// after it (none for a fixed fleet).
	Ticks float64 `json:"ticks"`
	// ColdStarts is the replicas expected to start after t = 0: a tenth
	// of the ticks of a policy that follows the traffic, at most one a
	// request.
	ColdStarts float64 `json:"cold_starts"`
	// EventsPerRun is the simulator's expected events in one run: an
	// arrival and a completion per request, the ticks, the cold starts
	// and spot interruptions.
	EventsPerRun float64 `json:"events_per_run"`
	// Candidates and Runs are, for a search, the offers it tries and the
	// simulations it makes in all; a single simulation has 1 and 1.
	Candidates int `json:"candidates"`
	Runs       int `json:"runs"`
	// Cost is the whole work in events of a distribution service (some
	// 0.1 to 0.2 µs each on a current core): EventsPerRun × Runs, an event
	// of continuous batching counted as ModelEventWeight, and an arrival
	// that looks for the least loaded of n replicas as 1 + n/ScanPerEvent.
	Cost float64 `json:"cost"`
}

// ModelEventWeight is what an event of a model service costs against one
// of a distribution service: each moves a replica's token clock and
// recomputes its next completion from the batch's step time (measured
// 240 ns against 120 ns, BENCHMARKS.md).
const ModelEventWeight = 2

// ScanPerEvent is how many replicas the simulator looks at, in search of
// the least loaded one when a replica serves several requests at once, in
// the time of one event (a bound: a pointer and two comparisons each).
const ScanPerEvent = 32

// Limits bound the work a caller accepts before it starts.
type Limits struct {
	// MaxCost bounds Estimate.Cost: events of a distribution service over
	// all the runs.
	MaxCost float64
	// MaxHorizonS bounds Estimate.HorizonS, the simulated time of the
	// traffic (a trace's span is not bounded by the spec's checks).
	MaxHorizonS float64
}

// DefaultLimits are the command line's: 10^10 events (some 20 minutes on
// one core) and a year of simulated traffic. Every example simulation and
// the policy search of examples/service-model.yaml stay well within them.
var DefaultLimits = Limits{MaxCost: 1e10, MaxHorizonS: MaxHorizonS}

// TraceStats is what an estimate needs of a trace: the requests within the
// horizon and the time they span.
type TraceStats struct {
	Requests int64   // rows replayed: those arriving before duration_s, when it is set
	SpanS    float64 // seconds from the first arrival to the last, after time_scale
}

// ScanTrace reads src to its end, or to cutS when cutS > 0 (as Simulate
// cuts a trace at traffic.duration_s), and returns what Estimate needs. A
// malformed row is src's error; a trace without requests is an Invalid
// error, "the trace holds no requests".
func ScanTrace(src Source, cutS float64) (TraceStats, error) {
	var st TraceStats
	for {
		r, ok := src.Next()
		if !ok || (cutS > 0 && r.ArrivalS >= cutS) {
			break
		}
		st.Requests++
		st.SpanS = max(st.SpanS, r.ArrivalS)
	}
	if es, ok := src.(ErrSource); ok && es.Err() != nil {
		return st, es.Err()
	}
	if st.Requests == 0 && cutS > 0 {
		return st, invalidf("", "the trace holds no requests before traffic.duration_s (%v s)", cutS)
	}
	if st.Requests == 0 {
		return st, invalidf("", "the trace holds no requests")
	}
	return st, nil
}

// EstimateRun is the cost of Simulate(spec, trace, model): trace is nil for
// the spec's synthetic traffic; model is the batching model of a model
// service (nil otherwise, or when it is not known yet: then one request per
// replica is assumed). The spec must have been completed by ParseSpec.
func EstimateRun(spec *Spec, trace *TraceStats, model *BatchModel) Estimate {
	r := newRunEstimate(spec, trace, model)
	e := r.Estimate
	e.Candidates, e.Runs = 1, 1
	e.Cost = r.cost(e.EventsPerRun)
	return e
}

// EstimateSearch is the cost of Search(spec, candidates, trace): for each
// candidate the spec's own policy, the doubling and bisection of the fixed
// fleet, the grid of target-tracking and serverless policies and two
// rounds of refinement around the best three, each a run as long as the
// spec's (measured: 21 to 79 runs a candidate, BENCHMARKS.md).
// Requests, HorizonS, Ticks, ColdStarts and EventsPerRun are those of the
// first candidate's run of the spec's policy; Runs and Cost cover them all.
func EstimateSearch(spec *Spec, trace *TraceStats, candidates []Candidate) Estimate {
	var out Estimate
	for i, c := range candidates {
		r := newRunEstimate(spec, trace, c.Model)
		if i == 0 {
			out = r.Estimate
		}
		runs, cost := r.search()
		out.Runs += runs
		out.Cost += cost
	}
	out.Candidates = len(candidates)
	return out
}

// runEstimate is one run's estimate, with what a search's estimate needs.
type runEstimate struct {
	Estimate
	model     *BatchModel
	perRep    int     // requests one replica serves at once
	capacity  float64 // requests per second one replica serves
	peakRate  float64 // arrivals per second at the busiest (a trace's mean)
	fleet     float64 // replicas expected at the busiest
	serviceS  float64 // seconds one request takes in service
	coldS     float64
	drainS    float64 // simulated after the traffic
	ticksEach float64 // seconds between ticks; 0 = none
}

func newRunEstimate(spec *Spec, trace *TraceStats, model *BatchModel) runEstimate {
	t, sv, p := &spec.Traffic, &spec.Service, &spec.Policy
	r := runEstimate{model: model, coldS: sv.ColdStartS}
	// Arrivals and horizon.
	if trace != nil {
		r.Requests = float64(trace.Requests)
		r.HorizonS = trace.SpanS
		if t.DurationS > 0 {
			r.HorizonS = t.DurationS
		}
		r.peakRate = r.Requests / math.Max(r.HorizonS, 1)
	} else {
		r.HorizonS = t.DurationS
		mean, peak := t.RatePerS, t.RatePerS
		switch t.Kind {
		case TrafficDiurnal:
			peak = t.RatePerS * (1 + t.Amplitude)
			if t.BurstMultiplier > 1 {
				peak *= t.BurstMultiplier
				mean *= (t.CalmMeanS + t.BurstMultiplier*t.BurstMeanS) / (t.CalmMeanS + t.BurstMeanS)
			}
		case TrafficBursty:
			peak = t.RatePerS * t.BurstMultiplier
			mean = (t.RatePerS*t.CalmMeanS + peak*t.BurstMeanS) / (t.CalmMeanS + t.BurstMeanS)
		case TrafficSpikes:
			on := t.SpikeDurationS / t.SpikeEveryS
			peak = math.Max(t.RatePerS, t.SpikeRatePerS)
			mean = t.RatePerS*(1-on) + t.SpikeRatePerS*on
		}
		r.Requests = mean * t.DurationS
		r.peakRate = peak
	}
	// Service: how long a request takes, how many a replica serves.
	r.perRep, r.serviceS = max(1, sv.Concurrency), sv.MeanS
	if model != nil {
		r.perRep = model.MaxBatch
		r.serviceS = float64(t.PromptTokens)*model.PrefillSPerToken + float64(t.OutputTokens)*model.StepS(model.MaxBatch)
		if model.ColdStartS > 0 {
			r.coldS = model.ColdStartS
		}
	}
	r.capacity = float64(r.perRep) / math.Max(r.serviceS, 1e-9)
	need := math.Ceil(r.peakRate / r.capacity)
	// The fleet the policy keeps at the busiest, within its bounds.
	lo, hi := 1.0, float64(maxFleet)
	switch p.Kind {
	case PolicyFixed:
		lo, hi = float64(p.Replicas), float64(p.Replicas)
		r.ticksEach = 0
	case PolicyTarget, PolicyKnative:
		lo, hi = float64(max(p.MinReplicas, 1)), float64(max(policyMax(p), 1))
	case PolicyServerless:
		lo, hi = float64(max(p.MinWorkers, 1)), float64(max(policyMax(p), 1))
	case PolicyMixed:
		if p.OnDemand != nil && p.Spot != nil {
			lo, hi = float64(max(p.OnDemand.Replicas, 1)), float64(max(policyMax(p), 1))
		}
	}
	r.fleet = math.Min(math.Max(need, lo), hi)
	switch p.Kind {
	case PolicyTarget, PolicyMixed:
		r.ticksEach = p.PollingIntervalS
	case PolicyKnative:
		r.ticksEach = p.TickS
	case PolicyServerless:
		r.ticksEach = min(max(p.IdleTimeoutS/4, 0.25), 1)
	}
	// After the traffic, the fleet serves what is left: a cold start and
	// a request's service, at most MaxDrainS.
	r.drainS = math.Min(MaxDrainS, r.coldS+r.serviceS)
	var interruptions float64
	if p.Kind == PolicyMixed && p.Spot != nil {
		interruptions = 2 * p.Spot.InterruptionsPerHour / 3600 * float64(p.Spot.MaxReplicas) * r.HorizonS
	}
	r.Ticks, r.ColdStarts = r.ticks(r.ticksEach)
	r.EventsPerRun = 2*r.Requests + r.Ticks + r.ColdStarts + interruptions
	return r
}

// ticks is the ticks of a policy that ticks every periodS (0: never) over
// the horizon and the drain, and the cold starts expected with them.
func (r *runEstimate) ticks(periodS float64) (ticks, coldStarts float64) {
	if periodS <= 0 {
		return 0, 0
	}
	ticks = math.Floor((r.HorizonS + r.drainS) / periodS)
	// Replicas come and go with the traffic: about one cold start in ten
	// ticks where the fleet follows it, never more than a start a request
	// (serverless starts a worker for a request waiting).
	return ticks, math.Min(ticks/10, r.Requests)
}

// cost is the cost of a run of events in events of a distribution service.
func (r *runEstimate) cost(events float64) float64 {
	c := events
	if r.model != nil {
		c *= ModelEventWeight
	}
	if r.perRep > 1 {
		c += r.Requests * r.fleet / ScanPerEvent
	}
	return c
}

// search is the runs Search makes for one candidate (see candSearch.run)
// and their cost: the spec's policy; the fixed fleet's doubling and
// bisection, without ticks; the grid of target tracking (15 s polling) and
// serverless (1 s ticks) policies; and two rounds of refining the best
// three, counted as serverless, the dearer.
func (r *runEstimate) search() (int, float64) {
	n := math.Min(math.Max(math.Ceil(r.peakRate/r.capacity*1.25), 1), 1024)
	fixed := 2*int(math.Ceil(math.Log2(n))) + 1
	targets := uniq([]float64{1, 2, 4, math.Max(1, math.Round(0.5*float64(r.perRep))), math.Max(1, math.Round(0.8*float64(r.perRep)))})
	grid, serverless, refine := 4*len(targets), 3, 2*3*8
	base := 2 * r.Requests
	t15, c15 := r.ticks(15)
	t1, c1 := r.ticks(1)
	cost := r.cost(r.EventsPerRun) + float64(fixed)*r.cost(base) + float64(grid)*r.cost(base+t15+c15) +
		float64(serverless+refine)*r.cost(base+t1+c1)
	return 1 + fixed + grid + serverless + refine, cost
}

// Check returns nil when e is within l, else an Invalid error that gives
// the estimate, the limit it passes and how to get under it. A zero limit
// is not checked.
func (e Estimate) Check(l Limits) error {
	what := "this simulation"
	if e.Runs > 1 {
		what = "this search"
	}
	var over []string
	if l.MaxHorizonS > 0 && !(e.HorizonS <= l.MaxHorizonS) {
		over = append(over, fmt.Sprintf("%s would replay %s of traffic, over the limit of %s", what, span(e.HorizonS), span(l.MaxHorizonS)))
	}
	if l.MaxCost > 0 && !(e.Cost <= l.MaxCost) {
		over = append(over, fmt.Sprintf("%s would take about %s events (%s), over the limit of %s events", what, count(e.Cost), e, count(l.MaxCost)))
	}
	if len(over) == 0 {
		return nil
	}
	return invalidf("", "%s: shorten traffic.duration_s or the trace, or lower the rate", strings.Join(over, "; "))
}

// String is the estimate in words: "2 runs over 1 candidate, 7.2e+05
// events each: 3.6e+05 requests over 24 h, 240 policy ticks, 24 cold starts".
func (e Estimate) String() string {
	var b strings.Builder
	if e.Runs > 1 {
		cands := "candidates"
		if e.Candidates == 1 {
			cands = "candidate"
		}
		fmt.Fprintf(&b, "%d runs over %d %s, %s events each: ", e.Runs, e.Candidates, cands, count(e.EventsPerRun))
	}
	fmt.Fprintf(&b, "%s requests over %s", count(e.Requests), span(e.HorizonS))
	if e.Ticks > 0 {
		fmt.Fprintf(&b, ", %s policy ticks, %s cold starts", count(e.Ticks), count(e.ColdStarts))
	}
	return b.String()
}

// count writes a count whole below a million, else with two digits.
func count(x float64) string {
	if x < 1e6 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2g", x)
}

// span writes seconds in the largest unit that keeps them readable.
func span(s float64) string {
	const year = 365.25 * 86400
	switch {
	case s >= 2*year:
		return fmt.Sprintf("%.3g years", s/year)
	case s >= 2*86400:
		return fmt.Sprintf("%.3g days", s/86400)
	case s >= 2*3600:
		return fmt.Sprintf("%.3g h", s/3600)
	case s >= 120:
		return fmt.Sprintf("%.3g min", s/60)
	}
	return fmt.Sprintf("%.3g s", s)
}
