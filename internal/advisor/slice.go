package advisor

import (
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// GPU slicing: a service's replica may be smaller than a GPU. A fractional
// offer (a provider renting 1/6 of an A10) is an offer like any other; a
// MIG profile turns an offer of whole MIG-capable GPUs into a second way of
// serving the same load: replicas packed on hardware partitions of its
// GPUs, each with its profile's share of compute, bandwidth and memory.
// Whole instances are still rented, so a MIG fleet is kept only when it
// needs fewer instances than whole-GPU replicas do (it is then cheaper);
// its price per replica is the instance's price over the replicas one
// instance holds.

// Slice kinds (stable: part of `-o json`).
const (
	SliceMIG        = "mig"
	SliceFraction   = "fraction"
	SliceTimeSliced = "time-sliced"
)

// A shared GPU pool (constraints.shared_gpus): the instances belong to a
// team's cluster and a service pays for the slices its replicas hold, the
// rest of each GPU serving other workloads. A sliced plan is then priced
// at its share of the instances (Slice.ReplicaPerHourUSD x replicas), and
// GPUs without MIG are tried time-sliced too: k replicas on one GPU (the
// NVIDIA device plugin's sharing.timeSlicing, replicas: k) that take turns
// on all of it. Without the pool neither applies: a fleet that rents whole
// instances pays for every slice, used or not, and a time-sliced replica
// on a rented GPU can only be slower than the whole GPU.

// TimeSliceWays are the replicas per GPU tried for time-slicing.
var TimeSliceWays = []int{2, 4}

// TimeSlicePenalty is the share of a time-sliced GPU's throughput lost to
// context switching between its replicas: an assumption, not a
// measurement. NVIDIA's GPU Operator documentation (Time-Slicing GPUs in
// Kubernetes) says the replicas interleave in time with no memory or fault
// isolation and publishes no overhead figure; 10% is a conservative guess.
const TimeSlicePenalty = 0.10

// TimeSliceSource is where time-slicing's behaviour is documented.
const TimeSliceSource = "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-sharing.html"

// TimeSliceShare is one of k time-sliced replicas' share of the GPU's
// throughput: (1 - TimeSlicePenalty) / k.
func TimeSliceShare(k int) float64 { return (1 - TimeSlicePenalty) / float64(k) }

// sliceOn is how a task's replicas share a GPU: a MIG profile, k-way
// time-slicing, or neither (the zero value: whole GPUs). Comparable: it
// is part of the prediction cache's key.
type sliceOn struct {
	mig *catalog.MIGProfile
	k   int // time-sliced replicas per GPU; 0 unless time-sliced
}

func (s sliceOn) on() bool { return s.mig != nil || s.k > 0 }

// perGPU is the replicas one GPU holds.
func (s sliceOn) perGPU() int {
	if s.mig != nil {
		return s.mig.MaxInstances
	}
	return max(1, s.k)
}

// accelerator is one replica's part of a, as an accelerator.
func (s sliceOn) accelerator(a *catalog.Accelerator) *catalog.Accelerator {
	if s.mig != nil {
		return catalog.MIGAccelerator(a, s.mig)
	}
	return catalog.TimeSlicedAccelerator(a, s.k, TimeSliceShare(s.k))
}

// assumption says the fleet of n replicas on inst instances of o.
func (s sliceOn) assumption(o *catalog.Offer, a *catalog.Accelerator, n, inst int, rps float64) msg.Msg {
	perInst := o.GPUCount * s.perGPU()
	if s.mig != nil {
		mp := s.mig
		return msg.New("MIG %s replicas of %s: %d, each on %d/7 of the GPU's compute, %d/8 of its memory bandwidth and %g GB, %d to a GPU, %d to an instance (%d instances), serving %.3g requests/s each",
			mp.Profile, o.GPU, n, mp.ComputeSlices, mp.MemorySlices, mp.MemGB, mp.MaxInstances, perInst, inst, rps/float64(n))
	}
	return msg.New("time-sliced replicas of %s: %d, %d to a GPU taking turns on all of it, each with %.0f%% of its throughput (a %d-way share less %.0f%% assumed lost to context switching; NVIDIA publishes no figure, %s) and %.3g GiB of its memory (no isolation: the replicas must fit side by side), %d to an instance (%d instances), serving %.3g requests/s each",
		o.GPU, n, s.k, 100*TimeSliceShare(s.k), s.k, 100*TimeSlicePenalty, TimeSliceSource, a.MemGiB/float64(s.k), perInst, inst, rps/float64(n))
}

// timeSliceWays are the time-slicing shares tried on o: on a shared pool,
// an offer of whole NVIDIA GPUs without MIG profiles.
func timeSliceWays(cat *catalog.Catalog, o *catalog.Offer) []int {
	if o.Sliced() || len(cat.MIGProfilesOf(o.GPU)) > 0 {
		return nil
	}
	if a, ok := cat.Accelerator(o.GPU); !ok || a.Vendor != "nvidia" {
		return nil
	}
	return TimeSliceWays
}

// Slice says that a plan's replicas run on part of a GPU.
type Slice struct {
	// Kind is SliceMIG (a hardware partition) or SliceFraction (an offer
	// that rents part of one GPU).
	Kind string `json:"kind"`
	// GPU is the accelerator the slice is part of (the offer's GPU id).
	GPU string `json:"gpu"`
	// Profile names the slice: a MIG profile ("1g.10gb") or the fraction
	// ("1/6").
	Profile string `json:"profile"`
	// PerGPU is how many such slices one GPU holds.
	PerGPU int `json:"per_gpu"`
	// ComputeShare and MemoryShare are one slice's shares of the GPU's
	// peak compute and memory bandwidth (0-1].
	ComputeShare float64 `json:"compute_share"`
	MemoryShare  float64 `json:"memory_share"`
	// MemGB is one slice's memory, GB.
	MemGB float64 `json:"memory_gb"`
	// ReplicaPerHourUSD is the instance's price per hour divided by the
	// replicas one instance holds (GPUs x PerGPU): what a replica costs
	// when every slice of the instance is used; 0 when the price is
	// unknown. The fleet still pays for whole instances.
	ReplicaPerHourUSD float64 `json:"replica_per_hour_usd,omitempty"`
	// Shared says the plan is priced per slice on a shared pool
	// (constraints.shared_gpus): the fleet pays ReplicaPerHourUSD x its
	// replicas, not its whole instances.
	Shared bool `json:"shared,omitempty"`
}

// MIGReplica is one replica on a MIG instance: the accelerator it sees and
// how it relates to the whole GPU and the offer. The simulator and other
// consumers use it to give a packed replica its speed and price.
type MIGReplica struct {
	Profile *catalog.MIGProfile
	// GPU is the slice as an accelerator (catalog.MIGAccelerator).
	GPU *catalog.Accelerator
	// PerInstance is the replicas one instance of the offer holds:
	// its GPUs x the profile's instances per GPU.
	PerInstance int
	// PerHourUSD is the offer's price in mode m divided by PerInstance;
	// ok is false when the offer has no price in that mode.
	PerHourUSD float64
	PriceKnown bool
}

// MIGReplicaOf describes a replica on profile p of offer o's GPUs, priced
// in mode m. ok is false when o's accelerator lacks the profile or o is
// itself a fraction of a GPU.
func MIGReplicaOf(cat *catalog.Catalog, o *catalog.Offer, profile string, m catalog.Mode) (MIGReplica, bool) {
	a, ok := cat.Accelerator(o.GPU)
	if !ok || o.Sliced() {
		return MIGReplica{}, false
	}
	p, ok := cat.MIGProfileOf(a.ID, profile)
	if !ok {
		return MIGReplica{}, false
	}
	r := MIGReplica{Profile: p, GPU: catalog.MIGAccelerator(a, p), PerInstance: o.GPUCount * p.MaxInstances}
	if price, ok := o.YourPrices.Get(m); ok {
		r.PerHourUSD, r.PriceKnown = price/float64(r.PerInstance), true
	}
	return r, true
}

// RelativeSpeed is the replica's predicted throughput for spec against one
// replica on a whole GPU of the same offer, both at the same request rate
// per replica (a service) or offline: about ComputeShare for
// compute-bound work, MemoryShare for bandwidth-bound decoding. ok is false
// when either does not fit or cannot be predicted.
func (r MIGReplica) RelativeSpeed(spec *workload.Spec, cat *catalog.Catalog, o *catalog.Offer) (float64, bool) {
	whole, ok := cat.Accelerator(o.GPU)
	if !ok {
		return 0, false
	}
	speed := func(a *catalog.Accelerator) (float64, bool) {
		cl, err := perf.NewCluster(a, 1, 1, o)
		if err != nil {
			return 0, false
		}
		cl.Lookup = func(id string) *catalog.Accelerator { x, _ := cat.Accelerator(id); return x }
		p, err := perf.Predict(spec, cl)
		if err != nil || !p.Fits || p.Throughput.Value <= 0 {
			return 0, false
		}
		return p.Throughput.Value, true
	}
	s, ok1 := speed(r.GPU)
	w, ok2 := speed(whole)
	if !ok1 || !ok2 {
		return 0, false
	}
	return s / w, true
}

// sliceService reports whether the advisor tries MIG replicas for spec:
// a service at a request rate, LLM or image generation (whose replicas are
// independent).
func sliceService(spec *workload.Spec) bool {
	return IsService(spec)
}

// migProfiles are the profiles worth trying on o: those of which one GPU
// holds at least two (a profile with one per GPU is a smaller whole GPU).
func migProfiles(cat *catalog.Catalog, o *catalog.Offer) []*catalog.MIGProfile {
	if o.Sliced() {
		return nil
	}
	var out []*catalog.MIGProfile
	for _, p := range cat.MIGProfilesOf(o.GPU) {
		if p.MaxInstances >= 2 {
			out = append(out, p)
		}
	}
	return out
}

// sizeSliceFleet finds the fewest replicas on slices sl of o's GPUs (MIG
// or time-sliced) that serve the load within the SLO, each predicted on
// its slice at its share of the load, and the whole instances that hold
// them. p is one slice at the whole load (the first guess).
func (ev *evaluator) sizeSliceFleet(o *catalog.Offer, sl sliceOn, p *perf.Prediction) (fleet, msg.Msg) {
	spec := ev.sized
	rps := *spec.Inference.RequestsPerSecond
	perInst := o.GPUCount * sl.perGPU()
	maxInst := max(1, ev.maxGPUs/max(1, o.GPUCount))
	maxRep := maxInst * perInst
	var noFleet msg.Msg
	if sl.mig != nil {
		noFleet = msg.New("%.4g requests/s within the SLO need more than %d MIG %s replicas (%d instances)", rps, maxRep, sl.mig.Profile, maxInst)
	} else {
		noFleet = msg.New("%.4g requests/s within the SLO need more than %d time-sliced replicas, %d to a GPU (%d instances)", rps, maxRep, sl.k, maxInst)
	}
	a, _ := ev.req.Catalog.Accelerator(o.GPU)
	cl, err := perf.NewCluster(sl.accelerator(a), 1, 1, o)
	if err != nil {
		return fleet{}, msg.Text(err.Error())
	}
	cl.Lookup = func(id string) *catalog.Accelerator { x, _ := ev.req.Catalog.Accelerator(id); return x }
	slo := spec.Inference.SLO.TTFTMs > 0 || spec.Inference.SLO.TPOTMs > 0
	at := func(n int) (*perf.Prediction, bool) {
		q, err := predictShare(spec, rps/float64(n), cl)
		if err != nil || !q.Fits || q.Serving == nil || q.Parallelism.Tensor > 1 {
			return nil, false
		}
		return &q, keepsUp(q.Serving, 1, slo)
	}
	hi, best, ok := fewestThatKeepUp(min(maxRep, max(1, p.Serving.ReplicasNeeded)), maxRep, at)
	if !ok {
		return fleet{}, noFleet
	}
	instances := (hi + perInst - 1) / perInst
	best.Serving.ReplicasNeeded = hi
	best.Parallelism.Replicas = hi
	scaleQuantity(&best.Throughput, float64(hi))
	best.Assumptions = append(best.Assumptions, sl.assumption(o, a, hi, instances, rps))
	if spec.Constraints.SharedGPUs {
		best.Assumptions = append(best.Assumptions, sharedAssumption(o, sl, hi, instances))
	}
	return fleet{best, instances, hi}, msg.Msg{}
}

// sliceOf is the slice of a plan paid in mode m: a MIG profile, a
// time-sliced share, or the fraction a sliced offer rents; nil for whole
// GPUs.
func sliceOf(o *catalog.Offer, sl sliceOn, m catalog.Mode) *Slice {
	perHourUSD, _ := o.YourPrices.Get(m)
	mp := sl.mig
	switch {
	case sl.k > 0:
		s := &Slice{Kind: SliceTimeSliced, GPU: o.GPU, Profile: catalog.FractionString(1 / float64(sl.k)), PerGPU: sl.k,
			ComputeShare: TimeSliceShare(sl.k), MemoryShare: TimeSliceShare(sl.k), MemGB: o.GPUMemGiB * 1.073741824 / float64(sl.k)}
		if perHourUSD > 0 {
			s.ReplicaPerHourUSD = perHourUSD / float64(o.GPUCount*sl.k)
		}
		return s
	case mp != nil:
		s := &Slice{Kind: SliceMIG, GPU: o.GPU, Profile: mp.Profile, PerGPU: mp.MaxInstances, ComputeShare: mp.ComputeShare(),
			MemoryShare: mp.MemoryShare(), MemGB: mp.MemGB}
		if perHourUSD > 0 {
			s.ReplicaPerHourUSD = perHourUSD / float64(o.GPUCount*mp.MaxInstances)
		}
		return s
	case o.Sliced():
		return &Slice{Kind: SliceFraction, GPU: o.GPU, Profile: catalog.FractionString(o.GPUFraction), PerGPU: int(math.Round(1 / o.GPUFraction)),
			ComputeShare: o.GPUFraction, MemoryShare: o.GPUFraction, MemGB: o.GPUMemGiB * 1.073741824, ReplicaPerHourUSD: perHourUSD}
	}
	return nil
}

// keepSlices adds to whole the MIG candidates that beat whole GPUs: per
// offer and pricing mode, the cheapest MIG fleet when it costs less than
// the offer's whole-GPU fleet (or when there is none). A tie keeps whole
// GPUs: the same bill with faster replicas.
func keepSlices(whole, mig []*Candidate) []*Candidate {
	if len(mig) == 0 {
		return whole
	}
	type key struct {
		o *catalog.Offer
		m catalog.Mode
	}
	best := map[key]*Candidate{}
	for _, c := range mig {
		k := key{c.Offer, c.Cost.Mode}
		if b, ok := best[k]; !ok || costOf(c) < costOf(b) || costOf(c) == costOf(b) && timeOf(c) < timeOf(b) {
			best[k] = c
		}
	}
	wholeCost := make(map[key]float64, len(best))
	for _, c := range whole {
		k := key{c.Offer, c.Cost.Mode}
		if _, ok := best[k]; !ok {
			continue
		}
		if w, ok := wholeCost[k]; !ok || costOf(c) < w {
			wholeCost[k] = costOf(c)
		}
	}
	for _, c := range mig {
		k := key{c.Offer, c.Cost.Mode}
		if best[k] != c {
			continue
		}
		if w, ok := wholeCost[k]; ok && !(costOf(c) < w) {
			continue
		}
		whole = append(whole, c)
	}
	return whole
}

// EvaluateOfferMIG prices a service on offer o with every replica on MIG
// profile (e.g. "1g.10gb") of its GPUs, in the request's pricing modes:
// the candidates (Plan.Slice set) and why it was excluded, if it was.
// ok is false when o's GPUs lack the profile or the workload is not an
// inference service at a request rate.
func EvaluateOfferMIG(req Request, o *catalog.Offer, profile string, modes []catalog.Mode) (cs []*Candidate, xs []Excluded, ok bool) {
	mp, found := req.Catalog.MIGProfileOf(o.GPU, profile)
	if !found || o.Sliced() || !sliceService(req.Spec) {
		return nil, nil, false
	}
	t := task{offer: o, shape: shape{1, o.GPUCount}, slice: sliceOn{mig: mp}}
	var warnings []CheckWarning
	for _, chk := range req.Checks {
		code, why, ws := chk(req.Spec, o)
		if code != "" {
			return nil, []Excluded{{Offer: o.ID(), Region: o.Region, GPUs: o.GPUCount, ReasonCode: code, Reason: why}}, true
		}
		warnings = append(warnings, ws...)
	}
	t.warnings, t.porting = checkWarnings(warnings), portingOf(req.Spec, warnings)
	ev := newEvaluator(&req, modes, nil)
	ev.startGroup(o)
	r := ev.task(&t)
	return r.candidates, r.excluded, true
}

// share is the part of its instances' price a fleet pays (cost.Job.Share):
// on a shared pool (constraints.shared_gpus) a sliced fleet pays for the
// slices its replicas hold; else 0, the whole instances.
func (ev *evaluator) share(t *task, instances, replicas int) float64 {
	if !ev.spec.Constraints.SharedGPUs || !t.slice.on() || replicas <= 0 || instances <= 0 {
		return 0
	}
	return float64(replicas) / float64(instances*t.offer.GPUCount*t.slice.perGPU())
}

// sharedAssumption is what a sliced fleet's prediction says of its price
// on a shared pool.
func sharedAssumption(o *catalog.Offer, sl sliceOn, replicas, instances int) msg.Msg {
	return msg.New("priced per slice on a shared pool (constraints.shared_gpus): %d replica(s) pay for %d of the %d slices of %d instance(s), the rest of the GPUs serve other workloads",
		replicas, replicas, instances*o.GPUCount*sl.perGPU(), instances)
}
