package autoscale

import "math"

// Advice is what to change after a run, decided from its numbers: a code
// and its figures. The report package writes it as a sentence in the
// reader's language (Sentence, filled by the renderer of a JSON answer).
type Advice struct {
	Code string `json:"code"`
	// Args are the code's figures, in the order its constant lists them.
	Args     []float64 `json:"args"`
	Sentence string    `json:"sentence,omitempty"`
}

// Advice codes (stable: part of `simulate -o json`).
const (
	// AdviceRaiseMax: the SLO was missed with the fleet at its maximum.
	// Args: the maximum (replicas or workers), percent of the run spent
	// at it, percent of requests over the SLO.
	AdviceRaiseMax = "raise_max"
	// AdviceFasterReplica: requests barely queued, yet one replica's own
	// service time breaks the bound. Args: the bounded time (end to end or
	// first token, whichever bound binds most) at the percentile, s; the
	// bound, s; the wait at the percentile, s; the percentile (95, or 99
	// for an SLO target above 95%).
	AdviceFasterReplica = "faster_replica"
	// AdviceSpotBase: spot reclaims re-queued work and the SLO was missed.
	// Args: interruptions, requests re-queued, percent over the SLO.
	AdviceSpotBase = "spot_base"
	// AdviceScaleSooner: requests queued while the fleet was below its
	// maximum, or caught up at it with a backlog: it grew too late. Args:
	// the wait at the percentile, s; cold starts; percent over the SLO;
	// the percentile.
	AdviceScaleSooner = "scale_sooner"
	// AdviceScaleDown: the SLO holds with margin and replicas mostly
	// idle. Args: percent of replica time busy, mean replicas, percent
	// over the SLO, percent allowed.
	AdviceScaleDown = "scale_down"
	// AdviceTight: the SLO holds with little margin. Args: percent over
	// the SLO, percent allowed.
	AdviceTight = "tight"
	// AdviceKeep: the SLO holds with margin and the replicas are busy.
	// Args: percent over the SLO, percent allowed, percent busy.
	AdviceKeep = "keep"
)

// Thresholds of the advice.
const (
	// adviceIdle: below this share of replica time busy, a fleet that
	// meets its SLO is oversized.
	adviceIdle = 0.5
	// adviceAtMax: a fleet at its maximum for this share of the run was
	// held back by it.
	adviceAtMax = 0.02
	// adviceTight: a violation rate above this share of the allowance
	// leaves little margin.
	adviceTight = 0.7
	// adviceSlack: a fleet is only called oversized while its violation
	// rate is below this share of the allowance: fewer replicas queue more.
	adviceSlack = 0.5
	// adviceNoQueue: a p95 wait below this share of the bound means
	// requests hardly queued.
	adviceNoQueue = 0.1
	// adviceNeedAtMax: the cap holds a fleet back when the busiest
	// bucket needs at least this share of it.
	adviceNeedAtMax = 0.8
)

// policyMax is the most replicas (or workers) the policy may run; 0 when
// it sets no bound it can be asked to raise.
func policyMax(p *Policy) int {
	switch p.Kind {
	case PolicyFixed:
		return p.Replicas
	case PolicyTarget, PolicyKnative:
		return p.MaxReplicas
	case PolicyServerless:
		return p.MaxWorkers
	case PolicyMixed:
		if p.OnDemand != nil && p.Spot != nil {
			return p.OnDemand.Replicas + p.Spot.MaxReplicas
		}
	}
	return 0
}

// advise decides the advice of a finished run of spec, whose replicas
// each serve perReplica requests at once.
func advise(spec *Spec, r *Result, perReplica int) *Advice {
	pct := func(f float64) float64 { return math.Round(f*10000) / 100 }
	over, allowed := pct(r.SLOViolationFraction), pct(1-spec.SLO.Target)
	busy := math.Round(r.Utilization * 100)
	if r.SLOMet {
		switch {
		case allowed > 0 && over > adviceTight*allowed:
			return &Advice{Code: AdviceTight, Args: []float64{over, allowed}}
		case r.Utilization < adviceIdle && r.MeanReplicas > 1 && over <= adviceSlack*allowed:
			return &Advice{Code: AdviceScaleDown, Args: []float64{busy, math.Round(r.MeanReplicas*10) / 10, over, allowed}}
		}
		return &Advice{Code: AdviceKeep, Args: []float64{over, allowed, busy}}
	}
	// The percentile the SLO's target looks at, and the bound that binds
	// most there (end to end or first token).
	pctl, at := 95.0, func(p Percentiles) float64 { return p.P95S }
	if spec.SLO.Target > 0.95 {
		pctl, at = 99, func(p Percentiles) float64 { return p.P99S }
	}
	bound, t := spec.SLO.LatencyS, at(r.Latency)
	if b := spec.SLO.TTFTS; b > 0 && (bound <= 0 || at(r.TTFT)/b > t/bound) {
		bound, t = b, at(r.TTFT)
	}
	wait := at(r.Wait)
	// Requests that hardly queued point at the replica, not the fleet.
	if bound > 0 && t > bound && wait < adviceNoQueue*bound {
		return &Advice{Code: AdviceFasterReplica, Args: []float64{round3(t), bound, round3(wait), pctl}}
	}
	if m := policyMax(&spec.Policy); m > 0 && r.PeakReplicas >= m && peakNeed(r, perReplica) >= adviceNeedAtMax*float64(m) {
		// At the cap while the busiest minutes need about as many: the cap
		// holds the fleet back. A fleet at its cap only while it catches
		// up with a backlog needs to grow sooner, not larger (below).
		if at := timeAtMax(r, m); at >= adviceAtMax {
			return &Advice{Code: AdviceRaiseMax, Args: []float64{float64(m), pct(at), over}}
		}
	}
	if r.Interruptions > 0 && r.Requeued > 0 {
		return &Advice{Code: AdviceSpotBase, Args: []float64{float64(r.Interruptions), float64(r.Requeued), over}}
	}
	return &Advice{Code: AdviceScaleSooner, Args: []float64{round3(wait), float64(r.ColdStarts), over, pctl}}
}

// peakNeed is the replicas the busiest bucket of the run keeps busy by
// Little's law: its arrival rate times a request's mean time in service,
// over the requests one replica serves at once.
func peakNeed(r *Result, perReplica int) float64 {
	service := r.Latency.MeanS - r.Wait.MeanS
	peak := 0.0
	for _, p := range r.Series {
		peak = math.Max(peak, p.ArrivalsPerS)
	}
	return peak * math.Max(service, 0) / float64(max(perReplica, 1))
}

// timeAtMax is the share of the run the fleet spent at m replicas or more,
// from the series (each point a bucket's time-weighted mean).
func timeAtMax(r *Result, m int) float64 {
	if len(r.Series) == 0 {
		return 0
	}
	n := 0
	for _, p := range r.Series {
		if p.Replicas >= float64(m)-0.5 {
			n++
		}
	}
	return float64(n) / float64(len(r.Series))
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
