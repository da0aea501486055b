package autoscale

import (
	"context"
	"math"
	"math/rand/v2"
)

var inf = math.Inf(1)

// Replica states.
const (
	starting int8 = iota // launched, in its cold start; billed, not serving
	ready                // serving
	draining             // finishing its work, taking none; stops when empty (or at a spot reclaim)
)

// seq is one request in service on a replica. key is its finish time
// (distribution service) or the replica's token clock at which it has all
// its tokens (continuous batching).
type seq struct {
	key     float64
	req     Request
	ttftBad bool
}

type replica struct {
	tier   int
	state  int8
	inFree bool
	slow   bool // of a tier slower than the main one: given work only when no main replica has room
	hidx   int  // index in the completion heap, -1 when absent
	cap    int
	startS float64
	readyS float64
	seqs   []seq // min-heap on key
	// continuous batching: v is the token clock (tokens each sequence in
	// flight has received since the batch was last empty), advancing at
	// speed/step(n) per second except while a prefill stalls the batch.
	v, lastS, stallS float64
	nextDone         float64
	busySinceS       float64
	idleSinceS       float64
	noticeS, killS   float64 // spot interruption: notice, then reclaim
}

type tierState struct {
	name    string
	price   float64 // USD per replica-hour
	coldS   float64
	speed   float64 // service speed relative to the main tier
	hazard  float64 // spot interruptions per second per replica
	noticeS float64
	active  int // starting + ready (not draining)
	ready   int // ready (not draining)
	lifeS   float64
	billedS float64
	// live counts the tier's replicas from launch to stop; instanceS is
	// ∫ ceil(live / perInstance) dt, the instance-seconds billed when
	// replicas share instances.
	live      int
	instanceS float64
	// packed: the tier runs on the offer's instances, several replicas to
	// one (on-demand, spot); a fallback tier is another machine.
	packed bool
}

// ring is a FIFO of waiting requests that can also take a request back at
// its head (a request re-queued after a spot reclaim).
type ring struct {
	buf        []Request
	head, size int
}

func (q *ring) push(r Request) {
	if q.size == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.size)&(len(q.buf)-1)] = r
	q.size++
}

func (q *ring) pushFront(r Request) {
	if q.size == len(q.buf) {
		q.grow()
	}
	q.head = (q.head - 1) & (len(q.buf) - 1)
	q.buf[q.head] = r
	q.size++
}

func (q *ring) peek() Request { return q.buf[q.head] }

func (q *ring) pop() Request {
	r := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.size--
	return r
}

func (q *ring) grow() {
	n := max(64, 2*len(q.buf))
	b := make([]Request, n)
	for i := 0; i < q.size; i++ {
		b[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = b, 0
}

// controller is a scaling policy.
type controller interface {
	init(s *sim)      // launch the fleet that is ready at t = 0
	periodS() float64 // seconds between ticks; inf = never
	tick(s *sim)      // decide at s.now
}

type sim struct {
	spec  *Spec
	model *BatchModel
	src   Source
	ctl   controller
	rng   *rand.Rand // service times
	spotR *rand.Rand // interruptions

	// service
	dist     string
	meanS    float64
	lnMu     float64
	lnSigma  float64
	cap      int
	cap1     bool
	maxQueue int
	timeoutS float64
	sloLat   float64
	sloTTFT  float64
	whole    bool // a request's answer comes whole at its end (no tokens): its TTFT is its latency

	ctx       context.Context // nil: never stopped
	now       float64
	horizonS  float64 // traffic duration (0 = until the source ends)
	lastA     float64 // the latest arrival
	queue     ring
	fleet     []*replica
	heap      []*replica // replicas with work, by nextDone
	free      []*replica // cap-1 mode: idle ready replicas (lazily cleaned)
	freeSlow  []*replica // cap-1 mode: idle ready replicas of a slower tier
	tiers     []tierState
	nextTick  float64
	nextFleet float64
	onQueued  func() // serverless reacts to every queued request

	inService    int
	lastActivity float64 // last arrival or completion
	ongoingArea  float64 // ∫ (queued + in service) dt
	fleetArea    float64 // ∫ launched replicas dt
	// perInstance replicas share one billed instance; instanceArea is
	// ∫ ceil(launched replicas / perInstance) dt.
	perInstance int
	busyS       float64
	// unitS[u] is the time the on-demand tier held u billed units
	// (instances when replicas share them, else replicas): kept when the
	// spec has commitments to price (nil otherwise).
	unitS []float64

	res                        Result
	violations                 int64
	wait, ttft, lat, bucketLat *Sketch

	// series and progress marks
	step, bucketStart, bucketEnd     float64
	nextMark, progressStep, nextProg float64
	maxPoints                        int
	bucketArrivals                   int64
	bucketOngoing0, bucketFleet0     float64
}

// Simulate runs spec's policy over the requests of src (nil: the spec's
// synthetic traffic) and reports what it measured. model is required when
// the service kind is model and ignored otherwise. The run is deterministic:
// the same spec, requests, model and Options.Seed give the same Result. Its
// memory does not grow with the number of requests. A source error (a bad
// trace row) is returned as is, and so is opts.Context's error when it
// stops the run.
//
// The run ends when the traffic has ended and the fleet has served what was
// left, or MaxDrainS after the traffic ended, whichever comes first:
// requests still waiting or in service then count as timed out. So a cold
// start or a backlog longer than the horizon costs at most a day of
// simulated time (see Estimate).
func Simulate(spec *Spec, src Source, model *BatchModel, opts Options) (*Result, error) {
	if spec == nil {
		return nil, invalidf("", "no service spec")
	}
	seed := opts.Seed
	if seed == 0 {
		seed = spec.Traffic.Seed
	}
	if src == nil {
		var err error
		if src, err = NewSource(&spec.Traffic, seed); err != nil {
			return nil, err
		}
	}
	s := &sim{spec: spec, src: src, ctx: opts.Context, rng: rand.New(rand.NewPCG(seed, 2)), spotR: rand.New(rand.NewPCG(seed, 3))}
	if s.ctx != nil {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
	}
	sv := &spec.Service
	price := spec.Pricing.PerHourUSD
	coldS := sv.ColdStartS
	gpus := sv.GPUsPerReplica
	switch sv.Kind {
	case ServiceModel:
		if model == nil {
			return nil, invalidf("service", "kind model needs the batching model of %s on %s (built from the performance model)", sv.Workload, sv.Offer)
		}
		if err := model.validate(); err != nil {
			return nil, err
		}
		s.model, s.cap = model, model.MaxBatch
		if model.ColdStartS > 0 {
			coldS = model.ColdStartS
		}
		if model.PricePerHourUSD > 0 {
			price = model.PricePerHourUSD
		}
		if model.GPUs > 0 {
			gpus = model.GPUs
		}
		s.perInstance = model.ReplicasPerInstance
	case ServiceDistribution:
		if !(sv.MeanS > 0) || sv.Concurrency < 1 {
			return nil, invalidf("service", "the spec was not completed by ParseSpec")
		}
		s.dist, s.meanS, s.cap = sv.Distribution, sv.MeanS, sv.Concurrency
		s.perInstance = sv.ReplicasPerInstance
		if s.dist == "lognormal" {
			s.lnSigma = math.Sqrt(math.Log(1 + sv.CV*sv.CV))
			s.lnMu = math.Log(sv.MeanS) - s.lnSigma*s.lnSigma/2
		}
	default:
		return nil, invalidf("service.kind", "unknown %q", sv.Kind)
	}
	s.cap1 = s.cap == 1
	s.whole = s.model == nil || s.model.StepsPerRequest > 0
	s.maxQueue, s.timeoutS = sv.MaxQueue, sv.TimeoutS
	s.sloLat, s.sloTTFT = spec.SLO.LatencyS, spec.SLO.TTFTS
	s.horizonS = spec.Traffic.DurationS

	p := &spec.Policy
	s.tiers = []tierState{{name: "on-demand", price: price, coldS: coldS, speed: 1, packed: true}}
	switch p.Kind {
	case PolicyFixed:
		if p.Replicas < 1 {
			return nil, invalidf("policy.replicas", "must be >= 1, got %d", p.Replicas)
		}
		s.ctl = fixedCtl{n: p.Replicas}
	case PolicyTarget:
		s.ctl = newTargetCtl(p, p.MinReplicas, p.MaxReplicas, p.InitialReplicas)
	case PolicyKnative:
		s.ctl = newKnativeCtl(p)
	case PolicyServerless:
		s.tiers[0].name, s.tiers[0].packed = "serverless", false // billed per worker
		rpw := p.RequestsPerWorker
		if rpw <= 0 {
			rpw = s.cap
		}
		c := &serverlessCtl{p: p, rpw: rpw}
		s.ctl = c
		s.onQueued = func() { c.scaleUp(s) }
	case PolicyMixed:
		if p.OnDemand == nil || p.Spot == nil {
			return nil, invalidf("policy", "the spec was not completed by ParseSpec")
		}
		spotPrice := spec.Pricing.SpotPerHourUSD
		if spotPrice == 0 {
			spotPrice = price / 2
		}
		s.tiers = append(s.tiers, tierState{name: "spot", price: spotPrice, coldS: p.Spot.ColdStartS, speed: 1,
			hazard: p.Spot.InterruptionsPerHour / 3600, noticeS: p.Spot.NoticeS, packed: true})
		if f := p.Fallback; f != nil {
			if !(f.Speed > 0 && f.Speed <= 1) {
				return nil, spec.Errorf("policy.fallback.speed", "must be in (0, 1], got %v (for a model service, derived from policy.fallback.instance or mean_s by app.ApplyFallback)", f.Speed)
			}
			s.tiers = append(s.tiers, tierState{name: "fallback", price: spec.Pricing.FallbackPerHourUSD, coldS: f.ColdStartS, speed: f.Speed})
		}
		s.ctl = newMixedCtl(p, s)
	default:
		return nil, invalidf("policy.kind", "unknown %q", p.Kind)
	}

	if len(spec.Pricing.Commitments) > 0 && s.tiers[0].name == "on-demand" {
		s.unitS = make([]float64, 1, 16)
	}
	s.wait, s.ttft, s.lat, s.bucketLat = NewSketch(), NewSketch(), NewSketch(), NewSketch()
	s.step = opts.SeriesStepS
	if !(s.step > 0) {
		s.step = 60
	}
	s.maxPoints = opts.MaxSeriesPoints
	if s.maxPoints <= 0 {
		s.maxPoints = 2000
	}
	s.maxPoints += s.maxPoints & 1
	s.bucketEnd = s.step
	s.progressStep, s.nextProg = inf, inf
	if opts.Progress != nil {
		s.progressStep = 3600
		if s.horizonS > 0 {
			s.progressStep = max(s.horizonS/200, s.step)
		}
		s.nextProg = s.progressStep
	}
	s.nextMark = min(s.bucketEnd, s.nextProg)
	s.nextFleet = inf

	s.ctl.init(s)
	s.nextTick = s.ctl.periodS()
	if err := s.run(opts.Progress); err != nil {
		return nil, err
	}
	if es, ok := src.(ErrSource); ok && es.Err() != nil {
		return nil, es.Err()
	}
	return s.finish(gpus), nil
}

// MaxDrainS is how long, in simulated seconds, a run goes on after its
// traffic ended to serve what is left: a day.
const MaxDrainS = 86400

func (s *sim) run(progress func(doneS, totalS float64)) error {
	req, more := s.next()
	nextA := inf
	if more {
		nextA = req.ArrivalS
	}
	for {
		// Besides the marks in simulated time, report every 2^16 events
		// (some 15 calls a second): a dense run may take long between
		// marks, and the caller may want to stop it. The context is
		// looked at more often, every 2^10 events.
		if s.res.events++; s.res.events&0x3FF == 0 {
			if s.ctx != nil && s.ctx.Err() != nil {
				return s.ctx.Err()
			}
			if progress != nil && s.res.events&0xFFFF == 0 {
				progress(s.now, s.horizonS)
			}
		}
		tC := inf
		if len(s.heap) > 0 {
			tC = s.heap[0].nextDone
		}
		t := min(tC, s.nextFleet, s.nextTick, nextA)
		if !more && ((s.queue.size+s.inService == 0 && t > s.horizonS) || t > max(s.horizonS, s.lastA)+MaxDrainS) {
			break
		}
		if t == inf {
			break
		}
		if t >= s.nextMark {
			s.marks(t, progress)
		}
		if dt := t - s.now; dt > 0 {
			s.integrate(dt)
			s.now = t
		}
		switch t {
		case tC:
			s.complete(s.heap[0])
		case s.nextFleet:
			s.fleetEvents()
		case nextA:
			s.arrive(req)
			req, more = s.next()
			nextA = inf
			if more {
				nextA = req.ArrivalS
			}
		default:
			s.purgeTimedOut()
			s.ctl.tick(s)
			s.nextTick = s.now + s.ctl.periodS()
		}
	}
	end := max(s.now, s.horizonS)
	if end >= s.nextMark {
		s.marks(end, progress)
	}
	if dt := end - s.now; dt > 0 {
		s.integrate(dt)
		s.now = end
	}
	// Whatever is left waiting never got served.
	s.res.TimedOut += int64(s.queue.size + s.inService)
	s.violations += int64(s.queue.size + s.inService)
	if progress != nil {
		progress(end, s.horizonS)
	}
	return nil
}

// next reads the next request; a trace is cut at the horizon, if any.
func (s *sim) next() (Request, bool) {
	req, ok := s.src.Next()
	if !ok {
		return req, false
	}
	if req.ArrivalS < s.now || math.IsNaN(req.ArrivalS) {
		req.ArrivalS = s.now // a source must not go back in time
	}
	if s.horizonS > 0 && req.ArrivalS >= s.horizonS {
		return Request{}, false
	}
	s.lastA = req.ArrivalS
	return req, true
}

// integrate adds dt at the current state to the time integrals.
func (s *sim) integrate(dt float64) {
	n := len(s.fleet)
	s.ongoingArea += float64(s.queue.size+s.inService) * dt
	s.fleetArea += float64(n) * dt
	if s.unitS != nil {
		s.addUnitTime(s.units(s.tiers[0].live), dt)
	}
	if s.perInstance > 1 {
		for i := range s.tiers {
			if t := &s.tiers[i]; t.packed {
				t.instanceS += float64((t.live+s.perInstance-1)/s.perInstance) * dt
			}
		}
	}
}

// marks handles the series bucket boundaries and progress marks up to t.
func (s *sim) marks(t float64, progress func(doneS, totalS float64)) {
	for t >= s.nextMark {
		m := s.nextMark
		if dt := m - s.now; dt > 0 {
			s.integrate(dt)
			s.now = m
		}
		if m >= s.bucketEnd {
			s.flushBucket()
		}
		if m >= s.nextProg {
			progress(m, s.horizonS)
			s.nextProg += s.progressStep
		}
		s.nextMark = min(s.bucketEnd, s.nextProg)
	}
}

func (s *sim) flushBucket() {
	w := s.bucketEnd - s.bucketStart
	s.res.Series = append(s.res.Series, SeriesPoint{
		TS:           s.bucketStart,
		ArrivalsPerS: float64(s.bucketArrivals) / w,
		Replicas:     (s.fleetArea - s.bucketFleet0) / w,
		InFlight:     (s.ongoingArea - s.bucketOngoing0) / w,
		P95LatencyS:  s.bucketLat.Quantile(0.95),
	})
	s.bucketLat.Reset()
	s.bucketArrivals = 0
	s.bucketFleet0, s.bucketOngoing0 = s.fleetArea, s.ongoingArea
	s.bucketStart = s.bucketEnd
	if len(s.res.Series) >= s.maxPoints {
		pts := s.res.Series
		for i := 0; i+1 < len(pts); i += 2 {
			a, b := pts[i], pts[i+1]
			pts[i/2] = SeriesPoint{TS: a.TS, ArrivalsPerS: (a.ArrivalsPerS + b.ArrivalsPerS) / 2,
				Replicas: (a.Replicas + b.Replicas) / 2, InFlight: (a.InFlight + b.InFlight) / 2,
				P95LatencyS: max(a.P95LatencyS, b.P95LatencyS)}
		}
		s.res.Series = pts[:len(pts)/2]
		s.step *= 2
	}
	s.bucketEnd = s.bucketStart + s.step
}

// arrive handles one arrival at s.now.
func (s *sim) arrive(req Request) {
	s.res.Requests++
	s.bucketArrivals++
	s.lastActivity = s.now
	if s.queue.size == 0 {
		if r := s.pickReplica(); r != nil {
			s.admit(r, req)
			s.afterAdmit(r)
			return
		}
	}
	if s.queue.size >= s.maxQueue {
		s.res.Dropped++
		s.violations++
		return
	}
	s.queue.push(req)
	if s.onQueued != nil {
		s.onQueued()
	}
}

// pickReplica returns a ready replica with room, the least loaded one, or nil.
func (s *sim) pickReplica() *replica {
	if s.cap1 {
		if r := popIdle(&s.free); r != nil {
			return r
		}
		return popIdle(&s.freeSlow)
	}
	var best, slow *replica
	for _, r := range s.fleet {
		if r.state != ready || len(r.seqs) >= r.cap {
			continue
		}
		if r.slow {
			if slow == nil || len(r.seqs) < len(slow.seqs) {
				slow = r
			}
		} else if best == nil || len(r.seqs) < len(best.seqs) {
			best = r
		}
	}
	if best == nil {
		return slow
	}
	return best
}

// popIdle pops replicas off free (cap-1 mode's lazily cleaned stack) until
// one is still idle and ready, and returns it; nil when none is.
func popIdle(free *[]*replica) *replica {
	for len(*free) > 0 {
		r := (*free)[len(*free)-1]
		*free = (*free)[:len(*free)-1]
		r.inFree = false
		if r.state == ready && len(r.seqs) == 0 {
			return r
		}
	}
	return nil
}

// pushFree records r, idle and ready, as free (cap-1 mode).
func (s *sim) pushFree(r *replica) {
	r.inFree = true
	if r.slow {
		s.freeSlow = append(s.freeSlow, r)
	} else {
		s.free = append(s.free, r)
	}
}

// admit starts req on r at s.now. The caller then calls afterAdmit once.
func (s *sim) admit(r *replica, req Request) {
	now := s.now
	s.wait.Add(now - req.ArrivalS)
	if len(r.seqs) == 0 {
		r.busySinceS = now
	}
	s.inService++
	speed := s.tiers[r.tier].speed
	if s.model == nil {
		var d float64
		switch s.dist {
		case "exponential":
			d = s.meanS * s.rng.ExpFloat64()
		case "deterministic":
			d = s.meanS
		default:
			d = math.Exp(s.lnMu + s.lnSigma*s.rng.NormFloat64())
		}
		r.push(seq{key: now + d/speed, req: req})
		return
	}
	m := s.model
	r.advance(now, m, speed)
	if m.StepsPerRequest > 0 {
		// An image: no prefill; the call's steps, whatever the tokens.
		r.push(seq{key: r.v + float64(m.StepsPerRequest), req: req})
		return
	}
	r.stallS = max(now, r.stallS) + float64(req.PromptTokens)*m.PrefillSPerToken/speed
	ttft := r.stallS - req.ArrivalS
	s.ttft.Add(ttft)
	r.push(seq{key: r.v + float64(max(req.OutputTokens-1, 0)), req: req, ttftBad: s.sloTTFT > 0 && ttft > s.sloTTFT})
}

// afterAdmit refreshes r's next completion and its place in the heap.
func (s *sim) afterAdmit(r *replica) {
	if s.model == nil {
		r.nextDone = r.seqs[0].key
	} else {
		r.nextDone = r.doneAt(s.model, s.tiers[r.tier].speed)
	}
	if r.hidx < 0 {
		s.heapPush(r)
	} else {
		s.heapFix(r.hidx)
	}
}

// advance moves r's token clock to t.
func (r *replica) advance(t float64, m *BatchModel, speed float64) {
	if n := len(r.seqs); n > 0 {
		if s0 := max(r.lastS, r.stallS); t > s0 {
			r.v += (t - s0) * speed / m.StepS(n)
		}
	}
	r.lastS = t
}

func (r *replica) doneAt(m *BatchModel, speed float64) float64 {
	if len(r.seqs) == 0 {
		return inf
	}
	return max(r.lastS, r.stallS) + math.Max(r.seqs[0].key-r.v, 0)*m.StepS(len(r.seqs))/speed
}

// complete finishes the next request(s) of r at s.now and refills r.
func (s *sim) complete(r *replica) {
	now := s.now
	s.lastActivity = now
	if s.model != nil {
		r.advance(now, s.model, s.tiers[r.tier].speed)
		k := r.seqs[0].key
		r.v = max(r.v, k)
		s.finishSeq(r.pop())
		for len(r.seqs) > 0 && r.seqs[0].key <= k+1e-9*max(1, k) {
			s.finishSeq(r.pop())
		}
	} else {
		s.finishSeq(r.pop())
	}
	if len(r.seqs) == 0 {
		s.busyS += now - r.busySinceS
		r.idleSinceS = now
		r.v, r.stallS = 0, 0
	}
	if r.state == ready {
		for len(r.seqs) < r.cap && s.queue.size > 0 {
			req := s.queue.pop()
			if s.timeoutS > 0 && now-req.ArrivalS > s.timeoutS {
				s.res.TimedOut++
				s.violations++
				continue
			}
			s.admit(r, req)
		}
	}
	if len(r.seqs) == 0 {
		s.heapRemove(r.hidx)
		if r.state == draining {
			s.stop(r, now)
			return
		}
		if s.cap1 && !r.inFree && r.state == ready {
			s.pushFree(r)
		}
		return
	}
	if s.model == nil {
		r.nextDone = r.seqs[0].key
	} else {
		r.nextDone = r.doneAt(s.model, s.tiers[r.tier].speed)
	}
	s.heapFix(r.hidx)
}

func (s *sim) finishSeq(q seq) {
	s.inService--
	lat := s.now - q.req.ArrivalS
	s.lat.Add(lat)
	s.bucketLat.Add(lat)
	if s.whole {
		s.ttft.Add(lat)
	}
	if q.ttftBad || (s.sloLat > 0 && lat > s.sloLat) || (s.whole && s.sloTTFT > 0 && lat > s.sloTTFT) {
		s.violations++
	}
	s.res.Completed++
}

// purgeTimedOut drops waiting requests that have given up (the oldest wait
// longest, so they are at the head).
func (s *sim) purgeTimedOut() {
	if s.timeoutS <= 0 {
		return
	}
	for s.queue.size > 0 && s.now-s.queue.peek().ArrivalS > s.timeoutS {
		s.queue.pop()
		s.res.TimedOut++
		s.violations++
	}
}

// fill gives queued work to r while it has room.
func (s *sim) fill(r *replica) {
	n := 0
	for r.state == ready && len(r.seqs) < r.cap && s.queue.size > 0 {
		req := s.queue.pop()
		if s.timeoutS > 0 && s.now-req.ArrivalS > s.timeoutS {
			s.res.TimedOut++
			s.violations++
			continue
		}
		s.admit(r, req)
		n++
	}
	if n > 0 {
		s.afterAdmit(r)
	}
	if len(r.seqs) == 0 && s.cap1 && !r.inFree && r.state == ready {
		s.pushFree(r)
	}
}

// --- fleet ---

// launch starts a replica of tier; warm ones are ready at once and are not
// cold starts (the fleet at t = 0).
func (s *sim) launch(tier int, warm bool) {
	ts := &s.tiers[tier]
	r := &replica{tier: tier, state: starting, hidx: -1, cap: s.cap, slow: ts.speed < 1, startS: s.now, readyS: s.now + ts.coldS,
		noticeS: inf, killS: inf, seqs: make([]seq, 0, min(s.cap, 64))}
	if ts.hazard > 0 {
		r.noticeS = s.now + s.spotR.ExpFloat64()/ts.hazard
	}
	ts.active++
	ts.live++
	s.fleet = append(s.fleet, r)
	s.res.PeakReplicas = max(s.res.PeakReplicas, len(s.fleet))
	if warm || ts.coldS == 0 {
		r.readyS = s.now
		s.makeReady(r)
	}
	if !warm {
		s.res.ColdStarts++
	}
	s.refreshFleet()
}

func (s *sim) makeReady(r *replica) {
	r.state = ready
	r.idleSinceS = s.now
	s.tiers[r.tier].ready++
	s.fill(r)
}

// scaleTier brings tier to n active replicas: it launches, or removes
// starting replicas first, then idle ones, then drains busy ones.
func (s *sim) scaleTier(tier, n int) {
	ts := &s.tiers[tier]
	for ts.active < n {
		s.launch(tier, false)
	}
	for pass := 0; pass < 3 && ts.active > n; pass++ {
		for i := len(s.fleet) - 1; i >= 0 && ts.active > n; i-- {
			r := s.fleet[i]
			if r.tier != tier {
				continue
			}
			switch {
			case pass == 0 && r.state == starting:
				ts.active--
				s.stop(r, s.now)
			case pass == 1 && r.state == ready && len(r.seqs) == 0:
				ts.active--
				ts.ready--
				s.stop(r, s.now)
			case pass == 2 && r.state == ready:
				ts.active--
				ts.ready--
				r.state = draining
			}
		}
	}
	s.refreshFleet()
}

// stop ends r's life at t (<= s.now) and bills it.
func (s *sim) stop(r *replica, t float64) {
	ts := &s.tiers[r.tier]
	ts.live--
	if s.unitS != nil && r.tier == 0 && t < s.now {
		// Stopped in the past: the units it kept were not held since.
		s.addUnitTime(s.units(ts.live+1), t-s.now)
		s.addUnitTime(s.units(ts.live), s.now-t)
	}
	if s.perInstance > 1 && ts.packed && t < s.now {
		// Stopped in the past: the instance it kept was not there since.
		ts.instanceS -= float64((ts.live+s.perInstance)/s.perInstance-(ts.live+s.perInstance-1)/s.perInstance) * (s.now - t)
	}
	life := t - r.startS
	ts.lifeS += life
	if g := s.spec.Pricing.BillingGranularityS; g > 0 {
		ts.billedS += math.Ceil(life/g-1e-9) * g
	} else {
		ts.billedS += life
	}
	if len(r.seqs) > 0 {
		s.busyS += t - r.busySinceS
	}
	if t < s.now { // stopped in the past (serverless idle timeout): it was not there since
		s.fleetArea -= s.now - max(t, s.bucketStart)
	}
	if r.hidx >= 0 {
		s.heapRemove(r.hidx)
	}
	for i, x := range s.fleet {
		if x == r {
			last := len(s.fleet) - 1
			s.fleet[i] = s.fleet[last]
			s.fleet[last] = nil
			s.fleet = s.fleet[:last]
			break
		}
	}
	r.state = -1
	s.refreshFleet()
}

func (s *sim) refreshFleet() {
	m := inf
	for _, r := range s.fleet {
		if r.state == starting {
			m = min(m, r.readyS)
		}
		m = min(m, r.noticeS, r.killS)
	}
	s.nextFleet = m
}

// fleetEvents handles cold starts that end and spot notices and reclaims due
// at s.now.
func (s *sim) fleetEvents() {
	now := s.now
	for i := 0; i < len(s.fleet); i++ {
		r := s.fleet[i]
		switch {
		case r.killS <= now:
			s.res.Interruptions++
			if len(r.seqs) > 0 {
				s.busyS += now - r.busySinceS
			}
			for len(r.seqs) > 0 {
				q := r.pop()
				s.inService--
				s.res.Requeued++
				s.queue.pushFront(q.req)
			}
			s.stop(r, now)
			i--
			continue
		case r.noticeS <= now:
			r.noticeS = inf
			ts := &s.tiers[r.tier]
			switch r.state {
			case starting:
				ts.active--
				s.res.Interruptions++
				s.stop(r, now)
				i--
				continue
			case ready:
				ts.active--
				ts.ready--
				fallthrough
			default:
				r.state = draining
				r.killS = now + ts.noticeS
				if len(r.seqs) == 0 {
					s.res.Interruptions++
					s.stop(r, now)
					i--
					continue
				}
			}
		case r.state == starting && r.readyS <= now:
			s.makeReady(r)
		}
	}
	s.refreshFleet()
	// Re-queued work goes to whoever has room.
	if s.queue.size > 0 {
		for _, r := range s.fleet {
			if r.state == ready && len(r.seqs) < r.cap {
				s.fill(r)
			}
		}
		if s.onQueued != nil {
			s.onQueued()
		}
	}
}

func (s *sim) finish(gpus int) *Result {
	for len(s.fleet) > 0 {
		s.stop(s.fleet[len(s.fleet)-1], s.now)
	}
	r := &s.res
	r.Name, r.Policy, r.DurationS = s.spec.Name, s.spec.Policy.Kind, s.now
	r.Wait, r.TTFT, r.Latency = s.wait.Summary(), s.ttft.Summary(), s.lat.Summary()
	if r.Requests > 0 {
		r.SLOViolationFraction = float64(s.violations) / float64(r.Requests)
	}
	r.SLOMet = r.SLOViolationFraction <= 1-s.spec.SLO.Target+1e-12
	var life float64
	for _, t := range s.tiers {
		hours := t.lifeS / 3600
		cost := t.billedS / 3600 * t.price
		if s.perInstance > 1 && t.packed {
			// Replicas share instances, billed whole: the instance price
			// is perInstance replica prices. (Billing granularity applies
			// to replica lifetimes only; an instance's is not tracked.)
			cost = t.instanceS / 3600 * t.price * float64(s.perInstance)
			r.InstanceHours += t.instanceS / 3600
		}
		r.Tiers = append(r.Tiers, TierResult{Name: t.name, PricePerHourUSD: t.price, ReplicaHours: hours, CostUSD: cost})
		r.ReplicaHours += hours
		r.CostUSD += cost
		life += t.lifeS
	}
	r.GPUHours = r.ReplicaHours * float64(gpus)
	if life > 0 {
		r.Utilization = s.busyS / life
	}
	if s.now > 0 {
		r.MeanReplicas = life / s.now
	}
	r.SeriesStepS = s.step
	if s.unitS != nil {
		unit, perUnit := "replica", 1
		if s.perInstance > 1 {
			unit, perUnit = "instance", s.perInstance
		}
		od := s.tiers[0].price * float64(perUnit)
		for _, c := range s.spec.Pricing.Commitments {
			cr := PriceCommitment(s.unitS, od, c.PerHourUSD*float64(perUnit))
			cr.Term, cr.Unit = c.Term, unit
			cr.FleetCostUSD = r.CostUSD - (cr.OnDemandCostUSD - cr.CostUSD)
			r.Commitments = append(r.Commitments, cr)
		}
	}
	r.Advice = advise(s.spec, r, s.cap)
	return r
}

// units is the number of billed units of the on-demand tier holding n
// replicas: instances when replicas share them, else replicas.
func (s *sim) units(n int) int {
	if s.perInstance > 1 {
		return (n + s.perInstance - 1) / s.perInstance
	}
	return n
}

func (s *sim) addUnitTime(u int, dt float64) {
	for len(s.unitS) <= u {
		s.unitS = append(s.unitS, 0)
	}
	s.unitS[u] += dt
}

// --- heaps ---

func (r *replica) push(q seq) {
	r.seqs = append(r.seqs, q)
	h := r.seqs
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].key <= h[i].key {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (r *replica) pop() seq {
	h := r.seqs
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	r.seqs = h[:n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if rr := l + 1; rr < n && h[rr].key < h[l].key {
			l = rr
		}
		if h[i].key <= h[l].key {
			break
		}
		h[i], h[l] = h[l], h[i]
		i = l
	}
	return top
}

func (s *sim) heapPush(r *replica) {
	r.hidx = len(s.heap)
	s.heap = append(s.heap, r)
	s.heapUp(r.hidx)
}

func (s *sim) heapRemove(i int) {
	if i < 0 {
		return
	}
	h := s.heap
	n := len(h) - 1
	h[i].hidx = -1
	if i != n {
		h[i] = h[n]
		h[i].hidx = i
	}
	h[n] = nil
	s.heap = h[:n]
	if i < n {
		s.heapFix(i)
	}
}

func (s *sim) heapFix(i int) {
	if !s.heapDown(i) {
		s.heapUp(i)
	}
}

func (s *sim) heapUp(i int) {
	h := s.heap
	for i > 0 {
		p := (i - 1) / 2
		if h[p].nextDone <= h[i].nextDone {
			break
		}
		h[p], h[i] = h[i], h[p]
		h[p].hidx, h[i].hidx = p, i
		i = p
	}
}

func (s *sim) heapDown(i int) bool {
	h := s.heap
	n := len(h)
	i0 := i
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && h[r].nextDone < h[l].nextDone {
			l = r
		}
		if h[i].nextDone <= h[l].nextDone {
			break
		}
		h[i], h[l] = h[l], h[i]
		h[i].hidx, h[l].hidx = i, l
		i = l
	}
	return i > i0
}
