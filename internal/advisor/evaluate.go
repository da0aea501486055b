package advisor

import (
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// The evaluation is where a recommendation spends its time: thousands of
// offers, a few sizes each, a few pricing modes each. An instance type
// offered in many regions predicts the same everywhere and mostly prices
// and fails the same way, so the tasks of one instance type go to one
// worker, which predicts once per size, formats a repeated reason or
// warning once and hands out candidates and exclusions from chunks rather
// than one allocation each. Results are written per task, in task order:
// what Recommend returns does not depend on the grouping.

type taskResult struct {
	candidates []*Candidate
	excluded   []Excluded
}

// predictKey identifies hardware that predicts the same: one instance type
// in any region with the same specs, at one size. A marketplace may list
// one instance name with other hosts in other regions: their specs differ,
// and so do their keys.
type predictKey struct {
	provider, instance string
	instances          int
	hw                 hardware
}

// hardware is what of an offer the performance model reads besides its
// accelerator.
type hardware struct {
	vcpus                                   int
	ram, nvme, nvmeRead, block, net, icGBps float64
	fabricGbps, fraction                    float64
	ic, fabric                              string
	slice                                   sliceOn
}

func hardwareOf(o *catalog.Offer) hardware {
	return hardware{o.VCPUs, o.RAMGiB, o.NVMeTB, o.NVMeReadGBps, o.BlockGBps, o.NetworkGbps, o.InterconnectGBps,
		o.FabricGbps, o.GPUFraction, o.InterconnectKind, o.FabricKind, sliceOn{}}
}

// groupKey is one instance type of one provider: the tasks one worker
// evaluates together.
type groupKey struct{ provider, instance string }

type predicted struct {
	once sync.Once
	p    perf.Prediction
	err  error
}

func evaluate(req Request, tasks []task, modes []catalog.Mode) []taskResult {
	workers := req.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]taskResult, len(tasks))
	var shared *predTable // predictKey -> *predicted, across requests
	if req.Predictions != nil && req.Tune == nil {
		shared = req.Predictions.table(req.Spec)
	}
	// Group the tasks by instance type, each group in task order: a
	// counting sort of the task indices by group.
	gid := make([]int32, len(tasks))
	ids := make(map[groupKey]int32, len(tasks)/4+1)
	var size []int32
	for i := range tasks {
		o := tasks[i].offer
		k := groupKey{o.Provider, o.InstanceType}
		g, ok := ids[k]
		if !ok {
			g = int32(len(size))
			ids[k] = g
			size = append(size, 0)
		}
		gid[i] = g
		size[g]++
	}
	start := make([]int32, len(size)+1)
	for g, n := range size {
		start[g+1] = start[g] + n
	}
	fill := make([]int32, len(size))
	copy(fill, start)
	order := make([]int32, len(tasks))
	for i, g := range gid {
		order[fill[g]] = int32(i)
		fill[g]++
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(size)) {
		wg.Go(func() {
			ev := newEvaluator(&req, modes, shared)
			for {
				g := int(next.Add(1) - 1)
				if g >= len(size) {
					return
				}
				ev.group(tasks, order[start[g]:start[g+1]], out)
			}
		})
	}
	wg.Wait()
	return out
}

// candSlot holds a candidate with its spot and reserved figures: one
// allocation (a share of a chunk) instead of three.
type candSlot struct {
	c    Candidate
	spot cost.Spot
	rsv  cost.Reserved
}

// chunk sizes of the evaluator's storage.
const (
	slotChunk  = 64
	sliceChunk = 256
)

// reasonMemo is a formatted sentence and what it was formatted from.
type reasonMemo struct {
	code string
	a, b uint64 // float64 bits
	s    string
	text msg.Msg
}

// groupPred is a prediction of the current group at one size.
type groupPred struct {
	instances int
	hw        hardware
	pr        *predicted
}

// evaluator is one worker's state for one request. Everything it memoizes
// is a pure function of the memo's key and the request.
type evaluator struct {
	req  *Request
	spec *workload.Spec
	// sized is spec at the rate a service's fleet is sized for: its
	// peak (spec itself for a job or a constant day).
	sized   *workload.Spec
	day     workload.Day
	modes   []catalog.Mode
	shared  *predTable
	service bool
	image   bool // an image-generation service (sizeImageFleet)
	maxGPUs int
	ckptGB  float64
	// where the dataset lives, when it names a provider
	locOnPrem bool
	locSrc    *catalog.Provider // another provider's (or a stand-in)

	// the current group
	id       string            // provider/instance-type
	provider *catalog.Provider // nil when unknown
	preds    []groupPred

	// storage handed out in chunks; slot is the current chunk's free slot
	slots    []candSlot
	cands    []*Candidate
	excl     []Excluded
	warnings []Warning

	reasons    [16]reasonMemo
	nextReason int
	noPrice    [catalog.NumModes]struct {
		o *catalog.Offer
		s msg.Msg
	}
	asOf         time.Time
	asOfArgs     []any
	lowUtilP     *perf.Prediction
	lowUtilArgs  []any
	spotRiskKey  uint64
	spotRiskArgs []any
	spotKey      [2]uint64
	spotArgs     []any
	// fleetNeed is the instances the model first estimated for the last
	// fleet sizeFleet could not fit within max_gpus (0: within it).
	fleetNeed int
}

func newEvaluator(req *Request, modes []catalog.Mode, shared *predTable) *evaluator {
	spec := req.Spec
	ev := &evaluator{req: req, spec: spec, sized: spec, modes: modes, shared: shared}
	ev.service = IsService(spec)
	if d, ok := workload.DayOf(spec); ok {
		ev.day = d
		ev.sized = atRate(spec, d.PeakRPS)
	}
	ev.image = ev.service && spec.Kind == workload.KindImageGeneration
	ev.maxGPUs = spec.Constraints.MaxGPUs
	if ev.maxGPUs == 0 {
		ev.maxGPUs = DefaultMaxGPUs
	}
	ev.ckptGB = checkpointGB(spec)
	if loc := spec.Data.Location; loc.Provider != "" {
		if strings.EqualFold(loc.Provider, "onprem") {
			ev.locOnPrem = true
		} else {
			src, ok := req.Catalog.Provider(loc.Provider)
			if !ok {
				src = &catalog.Provider{ID: loc.Provider}
			}
			ev.locSrc = src
		}
	}
	return ev
}

// group evaluates the tasks idx of one instance type into out.
func (ev *evaluator) group(tasks []task, idx []int32, out []taskResult) {
	ev.startGroup(tasks[idx[0]].offer)
	for _, i := range idx {
		out[i] = ev.task(&tasks[i])
	}
}

func (ev *evaluator) startGroup(o *catalog.Offer) {
	ev.id = o.ID()
	ev.provider, _ = ev.req.Catalog.Provider(o.Provider)
	ev.preds = ev.preds[:0]
}

// predicted is the prediction of t's instance type at t's size: computed
// once per group, or once across requests with a shared cache.
func (ev *evaluator) predicted(t *task) *predicted {
	hw := hardwareOf(t.offer)
	hw.slice = t.slice
	for _, g := range ev.preds {
		if g.instances == t.shape.instances && g.hw == hw {
			return g.pr
		}
	}
	var pr *predicted
	if ev.shared != nil {
		key := predictKey{t.offer.Provider, t.offer.InstanceType, t.shape.instances, hw}
		v, ok := ev.shared.m.Load(key)
		if !ok {
			v, _ = ev.shared.m.LoadOrStore(key, &predicted{})
		}
		pr = v.(*predicted)
	} else {
		pr = &predicted{}
	}
	pr.once.Do(func() {
		o, req := t.offer, ev.req
		a, _ := req.Catalog.OfferAccelerator(o)
		gpus := t.shape.gpus
		if t.slice.on() { // one replica on one slice: the fleet is sized after
			a, gpus = t.slice.accelerator(a), 1
		}
		cl, err := perf.NewCluster(a, gpus, t.shape.instances, o)
		if err != nil {
			pr.err = err
			return
		}
		cl.Lookup = func(id string) *catalog.Accelerator { x, _ := req.Catalog.Accelerator(id); return x }
		cl.Brief = true                       // exclusions say why an offer does not fit, not what would
		if req.Tune != nil && !t.slice.on() { // a probe measures whole GPUs
			req.Tune(o, &cl)
		}
		pr.p, pr.err = perf.Predict(ev.sized, cl)
		if ev.shared != nil {
			ev.req.Predictions.added(ev.shared, predictionBytes(&pr.p))
		}
	})
	ev.preds = append(ev.preds, groupPred{t.shape.instances, hw, pr})
	return pr
}

// reserve makes room for one task's exclusions and candidates in the
// current chunks, so that appending never moves what was handed out.
func (ev *evaluator) reserve() {
	n := len(ev.modes) + 1
	if cap(ev.excl)-len(ev.excl) < n {
		ev.excl = make([]Excluded, 0, max(sliceChunk, n))
	}
	if cap(ev.cands)-len(ev.cands) < n {
		ev.cands = make([]*Candidate, 0, max(sliceChunk, n))
	}
}

// slot is a cleared slot for the next candidate; it is kept only when
// commit is called.
func (ev *evaluator) slot() *candSlot {
	if len(ev.slots) == cap(ev.slots) {
		ev.slots = make([]candSlot, 0, slotChunk)
	}
	s := &ev.slots[:len(ev.slots)+1][len(ev.slots)]
	*s = candSlot{}
	return s
}

func (ev *evaluator) commit() { ev.slots = ev.slots[:len(ev.slots)+1] }

// memo returns the sentence for code and its arguments, formatting it only
// the first time it is seen.
func (ev *evaluator) memo(code string, a, b float64, s string, format func() msg.Msg) msg.Msg {
	ka, kb := math.Float64bits(a), math.Float64bits(b)
	for i := range ev.reasons {
		m := &ev.reasons[i]
		if m.code == code && m.a == ka && m.b == kb && m.s == s && !m.text.IsZero() {
			return m.text
		}
	}
	text := format()
	ev.reasons[ev.nextReason] = reasonMemo{code, ka, kb, s, text}
	ev.nextReason = (ev.nextReason + 1) % len(ev.reasons)
	return text
}

func (ev *evaluator) task(t *task) (r taskResult) {
	o, spec := t.offer, ev.spec
	pr := ev.predicted(t)
	ev.reserve()
	e0, c0 := len(ev.excl), len(ev.cands)
	excl := func(mode, code string, reason msg.Msg) {
		ev.excl = append(ev.excl, Excluded{Offer: ev.id, Region: o.Region, GPUs: t.shape.gpus, Pricing: mode, ReasonCode: code, Reason: reason})
	}
	defer func() {
		if n := len(ev.excl); n > e0 {
			r.excluded = ev.excl[e0:n:n]
		}
		if n := len(ev.cands); n > c0 {
			r.candidates = ev.cands[c0:n:n]
		}
	}()
	if pr.err != nil {
		excl("", ReasonNoFabric, msg.Text(pr.err.Error()))
		return r
	}
	p := &pr.p // shared, read-only: a service's fleet gets its own below
	if span := t.shape.instances; span > 1 && spec.Kind == workload.KindLLMInference && p.Parallelism.PrefillGPUs == 0 && p.Parallelism.NodesPerReplica != span {
		// A shape for a replica over span instances that the model does
		// not take: one instance serves it, or another span does.
		return r
	}
	if !p.Fits {
		excl("", ReasonNoFit, p.Reason)
		return r
	}
	if d := p.DurationHours; d != nil && (math.IsInf(*d, 0) || math.IsNaN(*d)) || p.Throughput.Value <= 0 {
		excl("", ReasonNoFit, msg.New("no usable prediction for %s (throughput %g %s)", o.GPU, p.Throughput.Value, p.Throughput.Unit))
		return r
	}
	instances := t.shape.instances
	replicas := 0
	service := ev.service
	if t.slice.on() && (!service || p.Serving == nil) {
		return r
	}
	if service && p.Serving != nil && ev.image {
		fleet, why := ev.sizeImageFleet(o, t.slice)
		if !why.IsZero() {
			excl("", ReasonUnsustained, why)
			if ev.fleetNeed > 0 {
				x := &ev.excl[len(ev.excl)-1]
				x.Relax, x.Needed = RelaxMaxGPUs, float32(ev.peakFleet(o, ev.fleetNeed)*o.GPUCount)
			}
			return r
		}
		p, instances, replicas = fleet.p, fleet.instances, fleet.replicas
	} else if service && p.Serving != nil {
		if p.Serving.MaxBatchSLO == 0 && (spec.Inference.SLO.TTFTMs > 0 || spec.Inference.SLO.TPOTMs > 0) {
			excl("", ReasonUnsustained, msg.New("no batch size meets the SLO on this GPU: %s", p.Verdict))
			return r
		}
		var fleet fleet
		var why msg.Msg
		if t.slice.on() {
			fleet, why = ev.sizeSliceFleet(t.offer, t.slice, p)
		} else {
			fleet, why = ev.sizeFleet(t.offer, p, t.shape.instances)
		}
		if !why.IsZero() {
			excl("", ReasonUnsustained, why)
			if ev.fleetNeed > 0 { // a near-miss on max_gpus, by the model's first estimate
				x := &ev.excl[len(ev.excl)-1]
				x.Relax, x.Needed = RelaxMaxGPUs, float32(ev.peakFleet(o, ev.fleetNeed)*o.GPUCount)
			}
			return r
		}
		p, instances, replicas = fleet.p, fleet.instances, fleet.replicas
	}
	pp := p // shared by the candidates of every pricing mode
	// A service's day: the fleet sized for the peak becomes a base and a
	// burst, priced per mode.
	var day *Scaling
	if service && replicas > 0 {
		per := ceilDiv(replicas, max(1, instances))
		weights := ev.ckptGB
		if pp.Memory.WeightsGB > 0 {
			weights = pp.Memory.WeightsGB
		}
		span := max(1, pp.Parallelism.NodesPerReplica)
		if span > 1 {
			per = 1
		}
		day = ev.scalingSpan(o, instances, per, span, weights, defaultHeadroom)
		if day.Max*o.GPUCount > ev.maxGPUs {
			// The plan's headroom and spare (of whole replicas, which may
			// span instances) must stay within max_gpus too.
			excl("", ReasonUnsustained, msg.New("the plan runs %d instances at its peak (%d GPUs: replicas of %d instance(s) each, with headroom and a spare), more than constraints.max_gpus %d",
				day.Max, day.Max*o.GPUCount, span, ev.maxGPUs))
			x := &ev.excl[len(ev.excl)-1]
			x.Relax, x.Needed = RelaxMaxGPUs, float32(day.Max*o.GPUCount)
			return r
		}
	}
	serverlessOnly := o.YourPrices[catalog.Serverless] > 0 && o.YourPrices == catalog.Prices{catalog.Serverless: o.YourPrices[catalog.Serverless]}
	for _, m := range ev.modes {
		unknown := false
		if _, ok := o.YourPrices.Get(m); !ok {
			if (m == catalog.Serverless) != serverlessOnly && o.YourPrices != (catalog.Prices{}) {
				// A serverless platform is not sold by the hour, nor an
				// instance by the worker-second: not an exclusion to list.
				continue
			}
			if o.YourPrices != (catalog.Prices{}) || m != ev.modes[0] {
				excl(m.String(), ReasonNoPrice, ev.noPriceReason(o, m))
				continue
			}
			// No price at all: keep it visible, unranked by cost.
			unknown = true
		}
		s := ev.slot()
		c := &s.c
		var sc *Scaling
		if day != nil && !unknown && ev.scaled(t, m) {
			x := *day
			sc = &x
		}
		if why := ev.price(s, t, instances, replicas, pp, m, service, sc); !why.IsZero() {
			excl(m.String(), ReasonUnsustained, why)
			continue
		}
		if code, why := ev.violates(c); code != "" {
			excl(m.String(), code, why)
			ev.keepNumbers(&ev.excl[len(ev.excl)-1], c, code)
			continue
		}
		ev.finish(c, t, pp, m, service, unknown)
		ev.commit()
		ev.cands = append(ev.cands, c)
	}
	return r
}

// fleet is a service's sizing: instances of the offer, each holding the
// same replicas (model copies) of the same layout, and the prediction of
// one instance at its share of the load, scaled to the fleet.
type fleet struct {
	p                   *perf.Prediction
	instances, replicas int
}

// sizeFleet finds the fewest instances of o that serve the load within
// the SLO: each instance is predicted at its share of the load on the same
// cluster recommend predicts (calibrated when a probe applies), with the
// layout the model chooses for that share, and keeps up when its load is
// sustainable, its replicas cover what the SLO needs and its batch is one
// the SLO allows. p, one instance at the whole load, gives a first guess;
// the search then narrows between a count that fails and one that keeps
// up. why says why no fleet within constraints.max_gpus does.
//
// span is the instances one replica spans (1: replicas fit one instance):
// the fleet is then counted in groups of span instances, each predicted
// as one cluster.
func (ev *evaluator) sizeFleet(o *catalog.Offer, p *perf.Prediction, span int) (fleet, msg.Msg) {
	spec := ev.sized
	rps := *spec.Inference.RequestsPerSecond
	span = max(1, span)
	maxInst := max(1, ev.maxGPUs/max(1, o.GPUCount))
	noFleet := msg.New("%.4g requests/s within the SLO need more than %d instances (%d GPUs, constraints.max_gpus %d)",
		rps, maxInst, maxInst*o.GPUCount, ev.maxGPUs)
	maxInst = max(1, maxInst/span) // groups of span instances
	a, _ := ev.req.Catalog.OfferAccelerator(o)
	cl, err := perf.NewCluster(a, span*o.GPUCount, span, o)
	if err != nil {
		return fleet{}, msg.Text(err.Error())
	}
	cl.Lookup = func(id string) *catalog.Accelerator { x, _ := ev.req.Catalog.Accelerator(id); return x }
	if ev.req.Tune != nil {
		ev.req.Tune(o, &cl)
	}
	slo := spec.Inference.SLO.TTFTMs > 0 || spec.Inference.SLO.TPOTMs > 0
	at := func(n int) (*perf.Prediction, bool) {
		q, err := predictShare(spec, rps/float64(n), cl)
		if err != nil || !q.Fits || q.Serving == nil {
			return nil, false
		}
		return &q, keepsUp(q.Serving, max(1, q.Parallelism.Replicas), slo)
	}
	perInstance := max(1, p.Parallelism.Replicas)
	need := max(1, (max(1, p.Serving.ReplicasNeeded)+perInstance-1)/perInstance)
	guess := min(maxInst, need)
	// When no fleet within the limit keeps up, the first estimate past it
	// is what the answer offers as the max_gpus that might.
	ev.fleetNeed = 0
	if need > maxInst {
		ev.fleetNeed = need
	}
	hi, best, ok := fewestThatKeepUp(guess, maxInst, at)
	if !ok {
		return fleet{}, noFleet
	}
	perInstance = max(1, best.Parallelism.Replicas)
	replicas := hi * perInstance
	best.Serving.ReplicasNeeded = replicas
	scaleQuantity(&best.Throughput, float64(hi))
	if span > 1 {
		if hi > 1 {
			best.Assumptions = append(best.Assumptions, msg.New("fleet of %d replicas, each over %d instances, serving %.3g requests/s each", hi, span, rps/float64(hi)))
		}
		return fleet{best, hi * span, replicas}, msg.Msg{}
	}
	if hi > 1 {
		best.Assumptions = append(best.Assumptions, msg.New("fleet of %d instances, each with %d replica(s) of tensor parallelism %d, serving %.3g requests/s",
			hi, perInstance, max(1, best.Parallelism.Tensor), rps/float64(hi)))
	}
	return fleet{best, hi, replicas}, msg.Msg{}
}

// predictShare predicts spec on cl at rps requests/s, one instance's share
// of the load.
func predictShare(spec *workload.Spec, rps float64, cl perf.Cluster) (perf.Prediction, error) {
	scaled := *spec
	inf := *spec.Inference
	inf.RequestsPerSecond = &rps
	scaled.Inference = &inf
	return perf.Predict(&scaled, cl)
}

// keepsUp reports whether s is sustainable with at most maxReplicas
// replicas and, when the spec has a latency SLO, a batch the SLO allows.
func keepsUp(s *perf.Serving, maxReplicas int, slo bool) bool {
	return (s.Sustainable == nil || *s.Sustainable) && s.ReplicasNeeded <= maxReplicas &&
		(!slo || s.MaxBatchSLO > 0 && s.Batch <= s.MaxBatchSLO)
}

// fewestThatKeepUp finds the smallest n in [1, limit] for which at keeps up,
// assuming that once a count keeps up every larger one does: from guess it
// doubles until at keeps up (false when limit does not), then bisects
// between a count that fails (or 0) and one that keeps up. best is at(n).
func fewestThatKeepUp(guess, limit int, at func(n int) (*perf.Prediction, bool)) (n int, best *perf.Prediction, ok bool) {
	lo, hi := 0, guess
	best, ok = at(hi)
	for !ok {
		if hi >= limit {
			return 0, nil, false
		}
		lo, hi = hi, min(limit, hi*2)
		best, ok = at(hi)
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if q, ok := at(mid); ok {
			hi, best = mid, q
		} else {
			lo = mid
		}
	}
	return hi, best, true
}

// scaleQuantity multiplies a quantity and its interval.
func scaleQuantity(q *perf.Quantity, f float64) {
	q.Value *= f
	if q.P10 != nil {
		v := *q.P10 * f
		q.P10 = &v
	}
	if q.P90 != nil {
		v := *q.P90 * f
		q.P90 = &v
	}
}

// noPriceReason says that o has no price in m; the sentence is shared by
// the sizes of one offer.
func (ev *evaluator) noPriceReason(o *catalog.Offer, m catalog.Mode) msg.Msg {
	if n := &ev.noPrice[m]; n.o == o {
		return n.s
	}
	s := msg.New("%s publishes no %s price for %s in %s", o.Provider, m.String(), o.InstanceType, o.Region)
	ev.noPrice[m].o, ev.noPrice[m].s = o, s
	return s
}

// costJob is what the cost model prices for instances of o in mode m,
// running p: the job's data, checkpoints and constraints from the spec.
func (ev *evaluator) costJob(o *catalog.Offer, instances int, p *perf.Prediction, m catalog.Mode, service bool, share float64) cost.Job {
	spec := ev.spec
	prov := ev.provider // the current group's
	if prov == nil || prov.ID != o.Provider {
		prov, _ = ev.req.Catalog.Provider(o.Provider)
	}
	job := cost.Job{Offer: o, Provider: prov, Instances: instances, Mode: m, Service: service,
		DeadlineHours: spec.Constraints.DeadlineHours, Share: share, ReservedUtilization: spec.Constraints.ReservedUtilization,
		OutputsGB: spec.Data.OutputsGB, Detail: ev.req.Detail}
	if p.DurationHours != nil {
		job.ProductiveHours = *p.DurationHours
	}
	job.DatasetGB = spec.Data.DatasetGB
	job.CheckpointGB = ev.ckptGB
	switch m {
	case catalog.Spot:
		job.SpotRisk = ev.req.Catalog.SpotRiskOf(o)
		if service {
			job.WeightsGB = ev.ckptGB
		}
	case catalog.Serverless:
		job.WeightsGB = ev.ckptGB
		if service {
			job.RequestsPerSecond, _ = serviceRate(spec)
			job.RequestSeconds = requestSeconds(spec, p)
		}
	}
	if spec.Data.Storage == workload.StorageLocalNVMe || (spec.Data.Storage == workload.StorageAuto && o.NVMeTB*1000*0.9 >= spec.Data.DatasetGB && spec.Data.DatasetGB > 0) {
		job.StagingGBps = math.Min(o.NetworkGbps/8*0.6, 2)
		if job.StagingGBps <= 0 {
			job.StagingGBps = 1
		}
	}
	if loc := spec.Data.Location; loc.Provider != "" {
		switch {
		case ev.locOnPrem:
			job.DataOnPrem = true
		case strings.EqualFold(loc.Provider, o.Provider):
			if loc.Region != "" && loc.Region != o.Region {
				job.DataFrom, job.DataFromSame = prov, true
			}
		default:
			job.DataFrom = ev.locSrc
		}
	}
	return job
}

// requestSeconds is how long one request keeps a replica busy: its first
// token and every output token after it, or an image pipeline's call.
func requestSeconds(spec *workload.Spec, p *perf.Prediction) float64 {
	if p.LatencyS != nil {
		return *p.LatencyS
	}
	s := 0.0
	if p.TTFTMs != nil {
		s += *p.TTFTMs / 1000
	}
	if p.TPOTMs != nil && spec.Inference != nil {
		s += *p.TPOTMs / 1000 * float64(spec.Inference.OutputTokens)
	}
	return s
}

// price fills the slot's candidate with its cost and the figures the
// constraints judge: what is kept of a candidate that is dropped. A
// service planned over its day (sc) runs its base at all times and its
// burst for the busy hours; why says why it cannot be priced in m.
func (ev *evaluator) price(s *candSlot, t *task, instances, replicas int, p *perf.Prediction, m catalog.Mode, service bool, sc *Scaling) msg.Msg {
	spec, o := ev.sized, t.offer
	c := &s.c
	share := 0.0
	if sc != nil {
		e, why := ev.priceScaled(o, sc, p, m)
		if !why.IsZero() {
			return why
		}
		c.Cost = e
		replicas = sc.ReplicasOn(sc.Max)
		instances = sc.Max
	} else {
		share = ev.share(t, instances, replicas)
		job := ev.costJob(o, instances, p, m, service, share)
		cost.PriceTo(&c.Cost, &job, &s.spot, &s.rsv)
	}
	cost.AddPorting(&c.Cost, t.porting, service)
	e := &c.Cost
	c.Offer, c.Instances, c.GPUs, c.Pred = o, instances, instances*o.GPUCount, p
	if service {
		c.PerHourUSD = e.PerHourUSD
		c.PerMonthUSD = e.Cost.Total
	} else {
		c.DurationHours = e.WallHours
	}
	c.Plan = planOf(spec, o, instances, replicas, p, m, e.PerHourUSD)
	c.Plan.Slice = sliceOf(o, t.slice, m)
	if c.Plan.Slice != nil && share > 0 {
		c.Plan.Slice.Shared = true
	}
	c.Plan.Scaling = sc
	c.PriceLow, c.PriceHigh, c.PriceSpread = cost.PriceSpread(o, m, ev.req.Now)
	setIntervals(c, service)
	c.PMissDeadline = 0
	if !service {
		c.PMissDeadline = missDeadline(c, ev.spec.Constraints.DeadlineHours)
	}
	return msg.Msg{}
}

// violates checks deadline and budget.
func (ev *evaluator) violates(c *Candidate) (string, msg.Msg) {
	k := &ev.spec.Constraints
	if k.DeadlineHours > 0 && c.DurationHours > k.DeadlineHours {
		return ReasonDeadline, ev.memo(ReasonDeadline, c.DurationHours, 0, c.Pred.Bottleneck, func() msg.Msg {
			return msg.New("takes %.1f h (%s), the deadline is %.0f h", c.DurationHours, c.Pred.Bottleneck, k.DeadlineHours)
		})
	}
	if s := c.Cost.Spot; s != nil && k.DeadlineHours > 0 && s.ProbMissingDeadline > 0.10 {
		return ReasonSpotRisk, ev.memo(ReasonSpotRisk, s.ProbMissingDeadline, s.ExpectedInterrupts, "", func() msg.Msg {
			return msg.New("on spot, %.0f%% chance of missing the %.0f h deadline (%.1f interruptions expected)", s.ProbMissingDeadline*100, k.DeadlineHours, s.ExpectedInterrupts)
		})
	}
	if k.BudgetUSD > 0 && c.Cost.PriceKnown && c.Cost.Cost.Total > k.BudgetUSD {
		return ReasonBudget, ev.memo(ReasonBudget, c.Cost.Cost.Total, 0, "", func() msg.Msg {
			return msg.New("costs $%.0f, the budget is $%.0f", c.Cost.Cost.Total, k.BudgetUSD)
		})
	}
	return "", msg.Msg{}
}

// keepNumbers keeps an excluded candidate's time and cost and, when it
// breaks one constraint only, the value of that constraint that would
// admit it (a near-miss). A spot candidate past the deadline is no
// near-miss: at a deadline equal to its expected time it would miss it
// about half the time.
func (ev *evaluator) keepNumbers(x *Excluded, c *Candidate, code string) {
	k := &ev.spec.Constraints
	x.DurationHours = float32(c.DurationHours)
	if c.Cost.PriceKnown {
		x.TotalUSD = float32(c.Cost.Cost.Total)
	}
	switch code {
	case ReasonDeadline:
		overBudget := k.BudgetUSD > 0 && c.Cost.PriceKnown && c.Cost.Cost.Total > k.BudgetUSD
		if c.Cost.Spot == nil && !overBudget {
			x.Relax, x.Needed = RelaxDeadline, float32(c.DurationHours)
		}
	case ReasonBudget:
		x.Relax, x.Needed = RelaxBudget, float32(c.Cost.Cost.Total)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finish gives a kept candidate its unit cost and warnings. Warnings share
// their arguments (read-only) with the candidates that have the same.
func (ev *evaluator) finish(c *Candidate, t *task, p *perf.Prediction, m catalog.Mode, service, unknown bool) {
	spec, o, e := ev.spec, t.offer, &c.Cost
	// Unit cost and tokens per dollar.
	work, unit, scale := workDone(spec, p, service)
	if e.PriceKnown && work > 0 && e.Cost.Total > 0 {
		c.UnitCost = e.Cost.Total / work * scale
		c.UnitCostUnit = unit
		if strings.Contains(unit, "tokens") {
			c.TokensPerUSD = work / e.Cost.Total
		}
	}
	// Warnings, in this order.
	// A price the catalog does not have cannot be stale: its date is the row's.
	stale := !unknown && o.PriceFact(m).Stale(ev.req.Now)
	// An image service's replicas are kept below full load on purpose: the
	// headroom is what the latency SLO costs, not waste to warn about.
	lowUtil := p.Utilization < LowUtilization && !ev.image
	sp := e.Spot
	spotRisk := sp != nil && sp.ProbMissingDeadline > 0.01
	spotUnheld := sp != nil && !service && sp.HoldProbability < 0.5
	spotInt := sp != nil && !service && !spotUnheld && sp.ExpectedInterrupts >= 0.1
	spotSvc := sp != nil && service
	spotPoint := m == catalog.Spot && (o.SpotBasis == catalog.SpotPoint || o.SpotBasis == catalog.SpotBasisUnstated)
	egressUnknown := e.PriceKnown && e.EgressAssumedGB > 0
	oldPrice := !unknown && o.PriceFact(m).AsOf.Before(ev.req.Now.AddDate(-1, 0, 0)) && !ev.req.Now.IsZero()
	rsv := e.Reserved != nil && !e.Reserved.CheaperThanOnDemandAt && e.Reserved.BreakEvenUtilization > 0
	lowConf := p.Confidence == "low"
	// A fleet priced per slice on a shared pool pays for the slices it
	// holds; the slices it leaves idle are paid by whoever else uses them.
	var sharedArgs []any
	if sl := c.Plan.Slice; sl != nil && sl.Shared && e.PriceKnown && e.Cost.Compute > 0 {
		slots := c.Plan.Instances * o.GPUCount * max(1, sl.PerGPU)
		if idle := slots - c.Plan.Replicas; idle > 0 && c.Plan.Replicas > 0 {
			whole := e.Cost.Total + e.Cost.Compute*(float64(slots)/float64(c.Plan.Replicas)-1)
			sharedArgs = []any{idle, slots, c.Plan.Instances, math.Round(e.Cost.Total), math.Round(whole)}
		}
	}
	n := b2i(stale) + b2i(sharedArgs != nil) + b2i(lowUtil) + b2i(spotRisk) + b2i(spotInt) + b2i(rsv) + b2i(lowConf) + b2i(o.RegionInferred) + len(t.warnings) + b2i(unknown) +
		b2i(spotUnheld) + b2i(spotSvc) + b2i(spotPoint) + b2i(egressUnknown) + b2i(oldPrice)
	if n == 0 {
		return
	}
	if cap(ev.warnings)-len(ev.warnings) < n {
		ev.warnings = make([]Warning, 0, max(sliceChunk, n))
	}
	w0 := len(ev.warnings)
	if oldPrice {
		f := o.PriceFact(m)
		ev.warnings = append(ev.warnings, Warning{WarnOldPrice, []any{f.AsOf.Format("2006-01-02"), round1(ev.req.Now.Sub(f.AsOf).Hours() / cost.HoursPerYear)}})
	} else if stale {
		if at := o.PriceFact(m).AsOf; ev.asOfArgs == nil || at != ev.asOf {
			ev.asOf, ev.asOfArgs = at, []any{at.Format("2006-01-02")}
		}
		ev.warnings = append(ev.warnings, Warning{WarnStale, ev.asOfArgs})
	}
	if lowUtil {
		if ev.lowUtilP != p {
			ev.lowUtilP, ev.lowUtilArgs = p, []any{math.Round(p.Utilization * 100), p.Bottleneck}
		}
		ev.warnings = append(ev.warnings, Warning{WarnLowUtil, ev.lowUtilArgs})
	}
	if spotRisk {
		v := math.Round(sp.ProbMissingDeadline * 100)
		if k := math.Float64bits(v); ev.spotRiskArgs == nil || k != ev.spotRiskKey {
			ev.spotRiskKey, ev.spotRiskArgs = k, []any{v}
		}
		ev.warnings = append(ev.warnings, Warning{WarnSpotRisk, ev.spotRiskArgs})
	}
	if spotInt {
		a, b := round1(sp.ExpectedInterrupts), round1(sp.CheckpointInterval)
		if k := [2]uint64{math.Float64bits(a), math.Float64bits(b)}; ev.spotArgs == nil || k != ev.spotKey {
			ev.spotKey, ev.spotArgs = k, []any{a, b}
		}
		ev.warnings = append(ev.warnings, Warning{WarnSpot, ev.spotArgs})
	}
	if spotUnheld {
		ev.warnings = append(ev.warnings, Warning{WarnSpotUnheld, []any{c.Instances, math.Round(100 * sp.HoldProbability), round1(sp.ExpectedInterrupts), round1(sp.WaitedHours)}})
	}
	if spotSvc {
		ev.warnings = append(ev.warnings, Warning{WarnSpotService, []any{round1(sp.ExpectedInterrupts), round1(100 * sp.DowntimeFraction), round1(sp.WaitHours)}})
	}
	if spotPoint {
		ev.warnings = append(ev.warnings, Warning{WarnSpotPoint, []any{math.Round(c.PriceLow*100) / 100, math.Round(c.PriceHigh*100) / 100}})
	}
	if sharedArgs != nil {
		ev.warnings = append(ev.warnings, Warning{WarnSharedPool, sharedArgs})
	}
	if egressUnknown {
		ev.warnings = append(ev.warnings, Warning{WarnEgressUnknown, []any{e.EgressAssumedProvider, math.Round(e.EgressAssumedGB), cost.DefaultEgressUSDPerGB}})
	}
	if rsv {
		ev.warnings = append(ev.warnings, Warning{WarnReserved, []any{m.String(), math.Round(e.Reserved.BreakEvenUtilization * 100), math.Round(e.Reserved.Utilization * 100)}})
	}
	if lowConf {
		ev.warnings = append(ev.warnings, Warning{Code: WarnLowConfidence})
	}
	if c.Offer.RegionInferred {
		ev.warnings = append(ev.warnings, Warning{WarnRegionInferred, []any{c.Offer.Region}})
	}
	ev.warnings = append(ev.warnings, t.warnings...)
	if unknown {
		ev.warnings = append(ev.warnings, Warning{Code: WarnPriceUnknown})
	}
	end := len(ev.warnings)
	c.Warnings = ev.warnings[w0:end:end]
}

// checkWarnings turns the warnings of the request's checks on one offer
// into the candidates' warnings, made once per offer.
func checkWarnings(ws []CheckWarning) []Warning {
	if len(ws) == 0 {
		return nil
	}
	out := make([]Warning, len(ws))
	for i, w := range ws {
		code := w.Code
		if code == "" {
			code = WarnNote
		}
		out[i] = Warning{code, []any{w.Text}}
	}
	return out
}
