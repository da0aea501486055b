package autoscale

import "math"

// fixedCtl keeps n replicas, all warm from the start.
type fixedCtl struct{ n int }

func (c fixedCtl) init(s *sim) {
	for range c.n {
		s.launch(0, true)
	}
}
func (fixedCtl) periodS() float64 { return inf }
func (fixedCtl) tick(*sim)        {}

// targetCtl is HPA target tracking as KEDA drives it: every polling interval
// desired = ceil(metric / target) (no change within the tolerance), clamped
// to [min, max]; the lowest recommendation of the scale-up window and the
// highest of the scale-down window win; scale-up is limited to
// max(+4, +100%) a period; 0 -> 1 happens as soon as a request is seen
// (KEDA activation) and 1 -> 0 only after cooldown_s without requests.
type targetCtl struct {
	p             *Policy
	min, max, ini int
	recs          []rec // recommendations, oldest first
}

type rec struct {
	t float64
	n int
}

func newTargetCtl(p *Policy, lo, hi, initial int) *targetCtl {
	return &targetCtl{p: p, min: lo, max: hi, ini: initial}
}

func (c *targetCtl) init(s *sim) {
	for range c.ini {
		s.launch(0, true)
	}
}

func (c *targetCtl) periodS() float64 { return c.p.PollingIntervalS }

func (c *targetCtl) tick(s *sim) {
	cur := s.tiers[0].active
	if d := c.desired(s, cur); d != cur {
		s.res.ScaleEvents++
		s.scaleTier(0, d)
	}
}

// desired is the replica count the controller wants now, given cur.
func (c *targetCtl) desired(s *sim, cur int) int {
	p := c.p
	metric := float64(s.queue.size + s.inService)
	if p.Metric == "queue" {
		metric = float64(s.queue.size)
	}
	raw := int(math.Ceil(metric/p.Target - 1e-9))
	if cur > 0 && math.Abs(metric/(p.Target*float64(cur))-1) <= p.Tolerance {
		raw = cur
	}
	raw = min(max(raw, c.min), c.max)
	now := s.now
	c.recs = append(c.recs, rec{now, raw})
	keep := max(p.ScaleUpStabilizationS, p.ScaleDownStabilizationS)
	i := 0
	for i < len(c.recs) && c.recs[i].t < now-keep-1e-9 {
		i++
	}
	if i > 0 && i > len(c.recs)/2 {
		c.recs = append(c.recs[:0], c.recs[i:]...)
		i = 0
	}
	up, down := raw, raw
	for _, r := range c.recs[i:] {
		if r.t >= now-p.ScaleUpStabilizationS-1e-9 {
			up = min(up, r.n)
		}
		if r.t >= now-p.ScaleDownStabilizationS-1e-9 {
			down = max(down, r.n)
		}
	}
	d := cur
	switch {
	case up > cur:
		d = min(up, max(cur+4, 2*cur))
	case down < cur:
		d = down
	}
	busy := s.queue.size+s.inService > 0
	if d == 0 && cur > 0 && (busy || now-s.lastActivity < p.CooldownS) {
		d = 1
	}
	if d == 0 && busy && c.max > 0 {
		d = 1 // activation: a waiting request wakes the deployment
	}
	return d
}

// knativeCtl is the Knative pod autoscaler: the average concurrency
// (requests queued or in service) over the stable window, and over the panic
// window, divided by target_concurrency × target_utilization; panic mode
// starts when the panic-window want reaches panic_threshold of the ready
// replicas, never scales down while it lasts and ends after a stable window
// without a reason; scale steps are bounded by max_scale_up_rate and
// max_scale_down_rate; the last replica goes only after a stable window with
// no traffic plus the grace period.
type knativeCtl struct {
	p          *Policy
	areas      []float64 // ∫ concurrency at each tick, newest last (bounded)
	panic      bool
	panicSince float64
	panicMax   int
}

func newKnativeCtl(p *Policy) *knativeCtl { return &knativeCtl{p: p} }

func (c *knativeCtl) init(s *sim) {
	for range c.p.InitialReplicas {
		s.launch(0, true)
	}
}

func (c *knativeCtl) periodS() float64 { return c.p.TickS }

// avg is the mean concurrency over the last w seconds (or since the start).
func (c *knativeCtl) avg(s *sim, w float64) float64 {
	k := int(math.Round(w / c.p.TickS))
	if k >= len(c.areas) {
		k = len(c.areas) - 1
	}
	if k <= 0 {
		return float64(s.queue.size + s.inService)
	}
	return (c.areas[len(c.areas)-1] - c.areas[len(c.areas)-1-k]) / (float64(k) * c.p.TickS)
}

func (c *knativeCtl) tick(s *sim) {
	p := c.p
	if len(c.areas) == 0 {
		c.areas = append(c.areas, 0) // the area at t = 0
	}
	c.areas = append(c.areas, s.ongoingArea)
	if keep := int(p.StableWindowS/p.TickS) + 2; len(c.areas) > 2*keep {
		c.areas = append(c.areas[:0], c.areas[len(c.areas)-keep:]...)
	}
	per := p.TargetConcurrency * p.TargetUtilization
	stable := c.avg(s, p.StableWindowS)
	panicAvg := c.avg(s, p.StableWindowS*p.PanicWindowPct/100)
	wantStable := int(math.Ceil(stable/per - 1e-9))
	wantPanic := int(math.Ceil(panicAvg/per - 1e-9))
	cur := s.tiers[0].active
	readyN := max(1, s.tiers[0].ready)
	now := s.now
	if float64(wantPanic)/float64(readyN) >= p.PanicThresholdPct/100 {
		if !c.panic {
			c.panic, c.panicMax = true, cur
		}
		c.panicSince = now // the reason to stay is renewed
	} else if c.panic && now-c.panicSince >= p.StableWindowS {
		c.panic = false
	}
	d := wantStable
	if c.panic {
		d = max(wantPanic, c.panicMax, cur)
		c.panicMax = d
	}
	d = min(d, int(math.Ceil(float64(readyN)*p.MaxScaleUpRate)))
	d = max(d, int(math.Floor(float64(cur)/p.MaxScaleDownRate)))
	busy := s.queue.size+s.inService > 0
	if d == 0 && (busy || now-s.lastActivity < p.StableWindowS+p.ScaleToZeroGraceS) {
		d = min(cur, 1)
		if busy {
			d = 1
		}
	}
	d = min(max(d, p.MinReplicas), p.MaxReplicas)
	if d != cur {
		s.res.ScaleEvents++
		s.scaleTier(0, d)
	}
}

// serverlessCtl is a serverless platform: a worker starts whenever the
// requests waiting or in service need more than the workers there are (up
// to max_workers), a worker idle for idle_timeout_s stops, and min_workers
// stay on. Billing runs from launch to stop, rounded up per worker.
type serverlessCtl struct {
	p   *Policy
	rpw int
}

func (c *serverlessCtl) init(s *sim) {
	for range c.p.MinWorkers {
		s.launch(0, true)
	}
}

func (c *serverlessCtl) periodS() float64 {
	return min(max(c.p.IdleTimeoutS/4, 0.25), 1)
}

func (c *serverlessCtl) scaleUp(s *sim) {
	need := (s.queue.size + s.inService + c.rpw - 1) / c.rpw
	need = min(need, c.p.MaxWorkers)
	if need > s.tiers[0].active {
		s.res.ScaleEvents++
		for s.tiers[0].active < need {
			s.launch(0, false)
		}
	}
}

func (c *serverlessCtl) tick(s *sim) {
	if s.queue.size > 0 {
		c.scaleUp(s)
	}
	ts := &s.tiers[0]
	for i := 0; i < len(s.fleet) && ts.active > c.p.MinWorkers; i++ {
		r := s.fleet[i]
		if r.state == ready && len(r.seqs) == 0 && s.now-r.idleSinceS >= c.p.IdleTimeoutS {
			ts.active--
			ts.ready--
			s.stop(r, r.idleSinceS+c.p.IdleTimeoutS)
			i--
		}
	}
}

// mixedCtl runs a mixed fleet: an on-demand floor (tier 0), spot replicas
// above it that target tracking adds and removes (tier 1), and, when
// configured, a fallback tier (2) that replaces the floor and the spot
// replicas while the arrival rate over window_s stays below below_rps.
type mixedCtl struct {
	p        *Policy
	target   *targetCtl
	arrivals []rec // cumulative arrivals at each tick (n holds the count)
	low      bool
	// drain mode: when the fallback tier last had work to take
	needS float64
}

func newMixedCtl(p *Policy, s *sim) *mixedCtl {
	floor := p.OnDemand.Replicas
	return &mixedCtl{p: p, target: newTargetCtl(p, floor+p.Spot.MinReplicas, floor+p.Spot.MaxReplicas, floor+p.Spot.MinReplicas)}
}

func (c *mixedCtl) init(s *sim) {
	for range c.p.OnDemand.Replicas {
		s.launch(0, true)
	}
	for range c.p.Spot.MinReplicas {
		s.launch(1, true)
	}
}

func (c *mixedCtl) periodS() float64 { return c.p.PollingIntervalS }

func (c *mixedCtl) tick(s *sim) {
	p := c.p
	floor := p.OnDemand.Replicas
	cur := s.tiers[0].active + s.tiers[1].active
	before := [3]int{s.tiers[0].active, s.tiers[1].active, 0}
	if f := p.Fallback; f != nil && f.Mode == FallbackDrain {
		before[2] = s.tiers[2].active
		d := c.target.desired(s, cur)
		s.scaleTier(0, floor)
		s.scaleTier(1, min(max(d-floor, 0), p.Spot.MaxReplicas))
		// The fallback tier drains the queue while the burst tier has no
		// ready replica (scaled in, or still in its cold start), and
		// stays window_s after the last time it had work to take.
		if s.queue.size > 0 && s.tiers[1].ready == 0 {
			c.needS = s.now
			s.scaleTier(2, f.Replicas)
		} else if s.tiers[2].active > 0 && (s.tiers[1].ready > 0 || s.now-c.needS >= f.WindowS) {
			s.scaleTier(2, 0)
		}
		c.count(s, before)
		return
	}
	if f := p.Fallback; f != nil {
		before[2] = s.tiers[2].active
		c.arrivals = append(c.arrivals, rec{s.now, int(s.res.Requests)})
		i := 0
		for i < len(c.arrivals)-1 && c.arrivals[i].t < s.now-f.WindowS-1e-9 {
			i++
		}
		if i > len(c.arrivals)/2 {
			c.arrivals = append(c.arrivals[:0], c.arrivals[i:]...)
			i = 0
		}
		first := c.arrivals[i]
		span := s.now - first.t
		rate := inf
		if span > 0 {
			rate = float64(int(s.res.Requests)-first.n) / span
		}
		overloaded := float64(s.queue.size+s.inService) > p.Target*float64(max(1, s.tiers[2].ready))
		c.low = span >= f.WindowS-1e-9 && rate < f.BelowRPS && !overloaded
		if c.low {
			s.scaleTier(2, f.Replicas)
			if s.tiers[2].ready >= f.Replicas {
				s.scaleTier(0, 0)
				s.scaleTier(1, 0)
			}
			c.count(s, before)
			return
		}
	}
	d := c.target.desired(s, cur)
	s.scaleTier(0, floor)
	s.scaleTier(1, min(max(d-floor, p.Spot.MinReplicas), p.Spot.MaxReplicas))
	if p.Fallback != nil && s.tiers[0].ready+s.tiers[1].ready >= max(1, floor) {
		s.scaleTier(2, 0)
	}
	c.count(s, before)
}

func (c *mixedCtl) count(s *sim, before [3]int) {
	for i := range s.tiers {
		if s.tiers[i].active != before[i] {
			s.res.ScaleEvents++
			return
		}
	}
}
