package advisor

import (
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// A service runs all day. Its fleet is sized for the busiest hour (the
// peak of service.peak_requests_per_second, or the constant rate), and
// follows the load down to the quiet hours; what it keeps running at all
// times (the base) is held capacity, on demand or committed, and for a
// production service it survives the loss of an instance and, where the
// offer is sold in several zones of its region, of a zone at the quiet
// hours. What the busy hours add above the base (the burst) starts for
// them and stops after: on demand, or on spot for a spot plan. A
// production service never rests on spot alone: a spot plan holds the
// quiet hours' need on demand and puts the spare and the burst on spot.
//
// The plan is the advisor's first estimate, from the performance model
// at the peak and the day's shape; Recommend then replays the day of the
// pick through the simulator (CheckPlans) and resizes it until it meets
// the SLO: the fleet, its cost and its SLO attainment that the answer
// gives are the simulated ones.

// Scaling is a service's fleet over the day and what it survives.
// Counts are instances of the offer; rates requests per second; money USD
// per month.
type Scaling struct {
	Traffic      workload.Traffic      `json:"traffic"`
	Availability workload.Availability `json:"availability"`
	MeanRPS      float64               `json:"mean_rps"`
	PeakRPS      float64               `json:"peak_rps"`
	TroughRPS    float64               `json:"trough_rps"`
	PeakHour     int                   `json:"peak_hour"`
	// TroughNeed and PeakNeed are the instances that keep up with the
	// quietest and the busiest hour within the SLO, without a spare.
	TroughNeed int `json:"trough_need"`
	PeakNeed   int `json:"peak_need"`
	// Spare is the instances the base keeps above the quiet hours' need:
	// one for a lost instance (production), a zone's worth for a lost zone
	// (zone-redundant), none for a best-effort service.
	Spare int `json:"spare"`
	// Base is the instances that run at all times; Held of them are on
	// capacity the provider cannot reclaim (BaseMode), the rest on spot.
	// Max is the most that run, at the peak.
	Base int `json:"base"`
	Held int `json:"held"`
	Max  int `json:"max"`
	// Ceiling is the most instances the autoscaler may run (its
	// max_replicas over the replicas an instance holds): the plan's Max
	// until a replay of the day shows the fleet it really runs (0: Max).
	Ceiling int `json:"ceiling,omitempty"`
	// ReplicasPerInstance is the model copies one instance holds.
	ReplicasPerInstance int `json:"replicas_per_instance"`
	// InstancesPerReplica is the instances one model copy spans when it
	// does not fit one (0 or 1: it fits). Every count is then a multiple
	// of it: a lost instance takes its whole replica down, and the spare
	// is a replica's worth.
	InstancesPerReplica int `json:"instances_per_replica,omitempty"`
	// BurstInstances is the mean number of instances above the base over
	// the day.
	BurstInstances float64 `json:"burst_instances"`
	// Zones is how many zones of the region sell the instance type (0:
	// unknown). ZoneSafe says every hour's fleet keeps that hour's need
	// after its largest zone is lost (zone-redundant); ZoneLossAtPeak is
	// the share of the peak's need left when a zone is lost at the peak,
	// until replacements start (0 when Zones < 2).
	Zones          int     `json:"zones"`
	ZoneSafe       bool    `json:"zone_safe"`
	ZoneLossAtPeak float64 `json:"zone_loss_at_peak,omitempty"`
	// ReplaceMinutes is how long a new instance takes to serve:
	// provisioning, image pull and the weights read at the instance's
	// network or disk speed.
	ReplaceMinutes float64 `json:"replace_minutes"`
	// Headroom is the share of what its replicas can serve at which the
	// autoscaler runs them (1 for a constant day, which does not scale);
	// TargetInFlight the requests in flight per replica it scales on.
	Headroom float64 `json:"headroom"`
	// HeadroomExtra is the instances the base runs above the quiet hours'
	// need for that headroom.
	HeadroomExtra  int     `json:"headroom_extra,omitempty"`
	TargetInFlight float64 `json:"target_in_flight"`
	// WeightsGB are what a new replica reads before it serves.
	WeightsGB float64 `json:"weights_gb"`
	// BaseMode pays for the held base; BurstMode for the burst and, on a
	// spot plan, the spare.
	BaseMode  catalog.Mode `json:"base_pricing"`
	BurstMode catalog.Mode `json:"burst_pricing"`
	// BaseUSD and BurstUSD split the month's cost: what runs at all times,
	// and what the busy hours add.
	BaseUSD  float64 `json:"base_usd_per_month"`
	BurstUSD float64 `json:"burst_usd_per_month"`
	// Check is the simulated day of the plan (nil until checked).
	Check *PlanCheck `json:"check,omitempty"`
	// Sized says the peak's need was found by replaying the peak through
	// the simulator (SizePlan), not only estimated.
	Sized bool `json:"sized_by_replay,omitempty"`
	// EstimateScaledBy, on a plan not replayed, is the factor its
	// estimated peak need was scaled by: the median of what the replays of
	// other instance types found over their estimates (0: not scaled).
	EstimateScaledBy float64 `json:"estimate_scaled_by,omitempty"`
	// ReplayedIn names the region whose replay of the same instance type
	// (in the same mode) sized this plan, when it was not replayed itself.
	ReplayedIn string `json:"replayed_in,omitempty"`
}

// PlanCheck is a plan's day replayed through the simulator.
type PlanCheck struct {
	// SLOAttainment is the share of requests that met the SLO; SLOTarget
	// the share the SLO asks for (its percentile).
	SLOAttainment float64 `json:"slo_attainment"`
	SLOTarget     float64 `json:"slo_target"`
	Met           bool    `json:"met"`
	// PerMonthUSD is the simulated day's cost, times the days of a month.
	PerMonthUSD float64 `json:"usd_per_month"`
	// ReplicasMin and ReplicasMax are the fewest and most replicas the
	// autoscaler ran; TargetInFlight the sequences (or images) in flight
	// per replica it scales on.
	ReplicasMin    int     `json:"replicas_min"`
	ReplicasMax    int     `json:"replicas_max"`
	TargetInFlight float64 `json:"target_in_flight"`
	Requests       int64   `json:"requests"`
	Interruptions  int64   `json:"interruptions,omitempty"`
	// Resized counts the times the plan was grown to meet the SLO.
	Resized int `json:"resized,omitempty"`
}

// dayQuarters is the resolution of the day a plan's burst is priced on.
const dayQuarters = 96

// burstStartsPerMonth is how often a burst instance starts: once a day.
const burstStartsPerMonth = catalog.HoursPerMonth / 24

// atRate is spec with its request rate set to rps (spec itself when it is
// already).
func atRate(spec *workload.Spec, rps float64) *workload.Spec {
	if mean, ok := spec.MeanRequestsPerSecond(); !ok || mean == rps {
		return spec
	}
	s := *spec
	switch s.Kind {
	case workload.KindLLMInference:
		in := *s.Inference
		in.RequestsPerSecond = &rps
		s.Inference = &in
	case workload.KindImageGeneration:
		im := *s.Image
		im.RequestsPerSecond = &rps
		s.Image = &im
	}
	return &s
}

// scaling is the day of a service whose peak needs peakNeed instances of
// o, each holding perInstance replicas: the need at each hour, the base
// and the spare, before it is priced in a mode.
func (ev *evaluator) scaling(o *catalog.Offer, peakNeed, perInstance int, weightsGB, headroom float64) *Scaling {
	return ev.scalingSpan(o, peakNeed, perInstance, 1, weightsGB, headroom)
}

// scalingSpan is scaling for replicas that each span span instances: the
// day is planned in replicas (a multi-node replica sits in one zone and
// is lost whole), then counted in instances.
func (ev *evaluator) scalingSpan(o *catalog.Offer, peakNeed, perInstance, span int, weightsGB, headroom float64) *Scaling {
	if span <= 1 {
		return ev.scalingOf(o, peakNeed, perInstance, weightsGB, headroom)
	}
	sc := ev.scalingOf(o, ceilDiv(max(1, peakNeed), span), 1, weightsGB, headroom)
	sc.InstancesPerReplica = span
	for _, n := range []*int{&sc.TroughNeed, &sc.PeakNeed, &sc.Spare, &sc.Base, &sc.Held, &sc.Max, &sc.HeadroomExtra} {
		*n *= span
	}
	sc.BurstInstances *= float64(span)
	return sc
}

// ReplicasOn is the model copies instances of the plan's offer hold.
func (sc *Scaling) ReplicasOn(instances int) int {
	if k := sc.InstancesPerReplica; k > 1 {
		return ceilDiv(instances, k)
	}
	return instances * max(1, sc.ReplicasPerInstance)
}

// instancesFor is the instances replicas take.
func (sc *Scaling) instancesFor(replicas int) int {
	if k := sc.InstancesPerReplica; k > 1 {
		return replicas * k
	}
	return ceilDiv(replicas, max(1, sc.ReplicasPerInstance))
}

// instancesForMean is instancesFor for a mean number of replicas.
func (sc *Scaling) instancesForMean(replicas float64) float64 {
	if k := sc.InstancesPerReplica; k > 1 {
		return replicas * float64(k)
	}
	return replicas / float64(max(1, sc.ReplicasPerInstance))
}

func (ev *evaluator) scalingOf(o *catalog.Offer, peakNeed, perInstance int, weightsGB, headroom float64) *Scaling {
	d := ev.day
	sv := ev.spec.Service
	sc := &Scaling{MeanRPS: d.MeanRPS, PeakRPS: d.PeakRPS, TroughRPS: d.TroughRPS, PeakHour: d.PeakHour,
		PeakNeed: max(1, peakNeed), ReplicasPerInstance: max(1, perInstance), Zones: o.SpotZones, WeightsGB: weightsGB}
	if sv != nil {
		sc.Traffic, sc.Availability = sv.Traffic, sv.Availability
	}
	sc.Headroom = 1
	if d.PeakRPS > d.TroughRPS {
		sc.Headroom = headroom
	}
	sc.TroughNeed = sc.needAt(d.TroughRPS)
	zones := ev.cover(sc.Zones)
	// An autoscaled fleet runs its replicas at Headroom of what they can
	// serve: the rest absorbs the load that grows while new ones start.
	cover := func(need int) int { return zones(int(math.Ceil(float64(need)/sc.Headroom - 1e-9))) }
	sc.Base, sc.Max = cover(sc.TroughNeed), cover(sc.PeakNeed)
	sc.Held = sc.Base
	hneed := max(1, int(math.Ceil(float64(sc.TroughNeed)/sc.Headroom-1e-9)))
	sc.HeadroomExtra = hneed - max(1, sc.TroughNeed)
	sc.Spare = sc.Base - hneed
	sc.ZoneSafe = ev.spec.Service != nil && ev.spec.Service.Availability == workload.AvailabilityZoneRedundant && sc.Zones >= 2
	var sum float64
	for i := range dayQuarters {
		h := (float64(i) + 0.5) * 24 / dayQuarters
		sum += float64(max(sc.Base, cover(sc.needAt(d.RateAt(h)))) - sc.Base)
	}
	sc.BurstInstances = sum / dayQuarters
	if sc.Zones >= 2 {
		left := sc.Max - ceilDiv(sc.Max, sc.Zones)
		sc.ZoneLossAtPeak = math.Min(1, float64(left)/float64(sc.PeakNeed))
	}
	sc.ReplaceMinutes = 60*(cost.ProvisionHours+cost.ImagePullHours) + weightsGB/cost.WeightsLoadGBps(o)/60
	return sc
}

// peakFleet is the instances of o a service's plan runs at its peak when
// need keep up with it, at the default headroom: what a near-miss on
// max_gpus must admit.
func (ev *evaluator) peakFleet(o *catalog.Offer, need int) int {
	h := 1.0
	if ev.day.PeakRPS > ev.day.TroughRPS {
		h = defaultHeadroom
	}
	return ev.cover(o.SpotZones)(int(math.Ceil(float64(need)/h - 1e-9)))
}

// defaultHeadroom is the share of what its replicas can serve that an
// autoscaled fleet runs them at before it adds one, until a replay of the
// day says how much the load's ramp needs (CheckPlan).
const defaultHeadroom = 0.85

// cover is how many instances run when need keep up with the load: need
// alone for a best-effort service (one at least); one more for a
// production one, which survives a lost instance; and for a zone-redundant
// one with zones known, enough that losing the largest zone (the fleet
// spread evenly over zones) leaves need.
func (ev *evaluator) cover(zones int) func(need int) int {
	sv := ev.spec.Service
	production := ev.spec.Production()
	redundant := sv != nil && sv.Availability == workload.AvailabilityZoneRedundant && zones >= 2
	return func(need int) int {
		need = max(1, need)
		if !production {
			return need
		}
		n := need + 1
		for redundant && n-ceilDiv(n, zones) < need {
			n++
		}
		return n
	}
}

// needAt is the instances that keep up with rps: the peak's need scaled
// down in proportion (what one instance serves at the peak is what it
// can serve at any hour, or less: an estimate that errs on the side of
// more instances).
func (sc *Scaling) needAt(rps float64) int {
	if sc.PeakRPS <= 0 || rps <= 0 {
		return 0
	}
	n := int(math.Ceil(rps/sc.PeakRPS*float64(sc.PeakNeed) - 1e-9))
	return min(max(n, 0), sc.PeakNeed)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// scaled reports whether a service's fleet is planned over its day: a
// service on instances it rents for itself (whole GPUs or its own MIG
// slices), paid by the hour. A serverless platform scales itself, and a
// shared pool's slices are the pool's to scale.
func (ev *evaluator) scaled(t *task, m catalog.Mode) bool {
	return ev.service && m != catalog.Serverless && !(ev.spec.Constraints.SharedGPUs && t.slice.on())
}

// priceScaled prices sc in mode m: the held base in m (on demand for a
// spot plan of a production service), the spare and burst of a spot plan
// on spot, the burst of any other plan on demand. It fills sc's modes
// and split, and returns the month's estimate; why says why the plan
// cannot be priced in m (a production spot plan with no on-demand price
// for its base).
func (ev *evaluator) priceScaled(o *catalog.Offer, sc *Scaling, p *perf.Prediction, m catalog.Mode) (cost.Estimate, msg.Msg) {
	production := ev.spec.Production()
	sc.BaseMode, sc.BurstMode = m, catalog.OnDemand
	sc.Held = sc.Base
	if m == catalog.Spot {
		sc.BurstMode = catalog.Spot
		sc.BaseMode = catalog.OnDemand
		sc.Held = 0
		if production {
			sc.Held = max(max(1, sc.InstancesPerReplica), sc.TroughNeed)
			if _, ok := o.YourPrices.Get(catalog.OnDemand); !ok {
				return cost.Estimate{}, msg.New("a production service holds its quiet hours' need on capacity spot cannot reclaim, and %s has no on-demand price in %s", o.ID(), o.Region)
			}
		}
	}
	var parts []cost.Estimate
	add := func(instances int, mode catalog.Mode, up float64, first bool) *cost.Estimate {
		if instances <= 0 {
			return nil
		}
		j := ev.costJob(o, instances, p, mode, true, 0)
		if !first {
			// The base keeps the weights and moves the data; the others
			// only run.
			j.CheckpointGB, j.DatasetGB, j.OutputsGB, j.DataFrom, j.DataOnPrem = 0, 0, 0, nil, false
		}
		if up < 1 {
			j.UpFraction, j.StartsPerMonth = up, burstStartsPerMonth
		}
		parts = append(parts, cost.Price(j))
		return &parts[len(parts)-1]
	}
	held := add(sc.Held, sc.BaseMode, 1, true)
	spotBase := add(sc.Base-sc.Held, catalog.Spot, 1, held == nil)
	var burst *cost.Estimate
	if n := sc.Max - sc.Base; n > 0 && sc.BurstInstances > 0 {
		burst = add(n, sc.BurstMode, sc.BurstInstances/float64(n), held == nil && spotBase == nil)
	}
	e := combine(parts, m, sc.Max)
	sc.TargetInFlight = targetInFlight(ev.spec, sc, p)
	sc.BaseUSD, sc.BurstUSD = 0, 0
	for _, x := range []*cost.Estimate{held, spotBase} {
		if x != nil {
			sc.BaseUSD += x.Cost.Total
		}
	}
	if burst != nil {
		sc.BurstUSD = burst.Cost.Total
	}
	return e, msg.Msg{}
}

// combine adds the estimates of a plan's parts into the month's estimate
// in mode m of a fleet of at most instances: money and hours add up, the
// hourly rate is the month's compute over its hours, the spot figures are
// the spot parts' (their interruptions added) and the commitment the
// base's.
func combine(parts []cost.Estimate, m catalog.Mode, instances int) cost.Estimate {
	e := cost.Estimate{Mode: m, Instances: instances, PriceKnown: true}
	var spot *cost.Spot
	for i := range parts {
		x := &parts[i]
		if x.Mode == m && e.PricePerHourUSD == 0 {
			e.PricePerHourUSD, e.ListPerHourUSD, e.PriceRule = x.PricePerHourUSD, x.ListPerHourUSD, x.PriceRule
		}
		e.SetupHours += x.SetupHours
		e.TransferHours = math.Max(e.TransferHours, x.TransferHours)
		e.BilledHours += x.BilledHours * float64(max(1, x.Instances))
		e.Cost.Compute += x.Cost.Compute
		e.Cost.Storage += x.Cost.Storage
		e.Cost.Egress += x.Cost.Egress
		e.Cost.Setup += x.Cost.Setup
		e.Cost.SpotOverhead += x.Cost.SpotOverhead
		e.Cost.Total += x.Cost.Total
		e.EgressAssumedGB += x.EgressAssumedGB
		if x.EgressAssumedProvider != "" {
			e.EgressAssumedProvider = x.EgressAssumedProvider
		}
		if x.Reserved != nil && e.Reserved == nil {
			e.Reserved = x.Reserved
		}
		if x.Spot != nil {
			if spot == nil {
				s := *x.Spot
				spot = &s
			} else {
				spot.ExpectedInterrupts += x.Spot.ExpectedInterrupts
			}
		}
		e.Notes = append(e.Notes, x.Notes...)
	}
	e.Spot = spot
	e.WallHours = catalog.HoursPerMonth
	e.PerHourUSD = (e.Cost.Compute + e.Cost.Setup + e.Cost.SpotOverhead) / catalog.HoursPerMonth
	return e
}

// regrow resizes c's service plan for a peak of peakNeed instances and
// prices it again in its mode: the fleet, its cost and its unit cost. It
// reports false when the plan cannot grow (constraints.max_gpus, or no
// price for its base).
func regrow(req Request, c *Candidate, peakNeed int) bool {
	return replan(req, c, peakNeed, c.Plan.Scaling.Headroom)
}

// ceiling is the most instances the plan's autoscaler may run.
func (sc *Scaling) ceiling() int {
	if sc.Ceiling > 0 {
		return sc.Ceiling
	}
	return sc.Max
}

// reprice prices c again with the day sc (its fleet set) in its mode:
// its cost, fleet and unit cost.
func reprice(req Request, c *Candidate, sc *Scaling) bool {
	m := c.Cost.Mode
	ev := newEvaluator(&req, []catalog.Mode{m}, nil)
	ev.startGroup(c.Offer)
	e, why := ev.priceScaled(c.Offer, sc, c.Pred, m)
	if !why.IsZero() {
		return false
	}
	ev.setPlan(c, sc, e)
	return true
}

// setPlan gives c the day sc priced as e: its cost, fleet, intervals and
// unit cost.
func (ev *evaluator) setPlan(c *Candidate, sc *Scaling, e cost.Estimate) {
	o, m := c.Offer, c.Cost.Mode
	slice := c.Plan.Slice
	port := c.Cost.Porting
	c.Cost = e
	cost.AddPorting(&c.Cost, port, true)
	e = c.Cost
	c.Instances, c.GPUs = sc.Max, sc.Max*o.GPUCount
	c.PerHourUSD, c.PerMonthUSD = e.PerHourUSD, e.Cost.Total
	c.Plan = planOf(ev.sized, o, sc.Max, sc.ReplicasOn(sc.Max), c.Pred, m, e.PerHourUSD)
	c.Plan.Slice, c.Plan.Scaling = slice, sc
	setIntervals(c, true)
	if work, unit, scale := workDone(ev.spec, c.Pred, true); work > 0 && e.Cost.Total > 0 {
		c.UnitCost, c.UnitCostUnit = e.Cost.Total/work*scale, unit
		if c.TokensPerUSD > 0 {
			c.TokensPerUSD = work / e.Cost.Total
		}
	}
}

// replan is regrow at a headroom.
func replan(req Request, c *Candidate, peakNeed int, headroom float64) bool {
	old := c.Plan.Scaling
	m := c.Cost.Mode
	ev := newEvaluator(&req, []catalog.Mode{m}, nil)
	ev.startGroup(c.Offer)
	o := c.Offer
	span := max(1, old.InstancesPerReplica)
	if ev.cover(o.SpotZones)(int(math.Ceil(float64(ceilDiv(peakNeed, span))/headroom-1e-9)))*span*o.GPUCount > ev.maxGPUs {
		return false
	}
	weights := ev.ckptGB
	if c.Pred.Memory.WeightsGB > 0 {
		weights = c.Pred.Memory.WeightsGB
	}
	sc := ev.scalingSpan(o, peakNeed, old.ReplicasPerInstance, span, weights, headroom)
	e, why := ev.priceScaled(o, sc, c.Pred, m)
	if !why.IsZero() {
		return false
	}
	ev.setPlan(c, sc, e)
	return true
}

// targetInFlight is the autoscaler's target the plan implies: the
// requests in flight per replica at its headroom of what a replica serves
// at the peak (Little's law: each replica's rate times a request's time in
// service).
func targetInFlight(spec *workload.Spec, sc *Scaling, p *perf.Prediction) float64 {
	replicas := float64(max(1, sc.ReplicasOn(sc.PeakNeed)))
	return round3(math.Max(1, sc.Headroom*sc.PeakRPS/replicas*requestSeconds(spec, p)))
}
