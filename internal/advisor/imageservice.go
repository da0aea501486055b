package advisor

import (
	"github.com/gpupick/gpupick/internal/msg"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
)

// An image-generation service (image.requests_per_second with a latency
// SLO) is sized like an LLM service, with one difference that makes it
// simpler: its replicas (a GPU, a group of parallelism.context GPUs, or a
// MIG slice) share nothing, so one instance's prediction at the whole rate
// already says how many replicas the rate needs. perf sizes them at the
// utilisation the SLO leaves for queueing (a request waits for the call in
// progress, then runs in its own: a p99 of about two calls), and says when
// no utilisation does (one call takes longer than the SLO).
//
// The batch (images per pipeline call) trades latency for throughput:
// image.batch is the most a call takes, and smaller batches (halving down
// to one) are tried too, since a batch whose call outlasts half the SLO
// leaves no room to queue. The fleet with the fewest instances wins; a tie
// goes to the smaller batch, whose requests finish sooner.

// imageBatches are the batches tried for a service: image.batch, then
// halves down to 1.
func imageBatches(n int) []int {
	var out []int
	for b := max(1, n); ; b /= 2 {
		out = append(out, b)
		if b <= 1 {
			return out
		}
	}
}

// sizeImageFleet finds the fewest instances of o whose replicas serve the
// image service's rate within its latency SLO, on whole GPUs or (sl set)
// on slices: MIG instances or time-sliced shares. why says why no fleet within
// constraints.max_gpus does, or that no batch meets the SLO on this GPU.
func (ev *evaluator) sizeImageFleet(o *catalog.Offer, sl sliceOn) (fleet, msg.Msg) {
	spec := ev.sized
	rps, _ := serviceRate(spec)
	maxInst := max(1, ev.maxGPUs/max(1, o.GPUCount))
	a, _ := ev.req.Catalog.OfferAccelerator(o)
	gpus := o.GPUCount
	whole, _ := ev.req.Catalog.Accelerator(o.GPU)
	if sl.on() {
		a, gpus = sl.accelerator(whole), 1
	}
	cl, err := perf.NewCluster(a, gpus, 1, o)
	if err != nil {
		return fleet{}, msg.Text(err.Error())
	}
	cl.Lookup = func(id string) *catalog.Accelerator { x, _ := ev.req.Catalog.Accelerator(id); return x }
	if ev.req.Tune != nil && !sl.on() { // a probe measures whole GPUs
		ev.req.Tune(o, &cl)
	}
	ev.fleetNeed = 0
	var best *perf.Prediction
	bestInst, bestReplicas, perInst := 0, 0, 0
	var fastest float64 // the shortest call of any batch that fits, s
	needMin := 0        // the fewest instances any batch needs past the limit
	for _, b := range imageBatches(spec.Image.Batch) {
		scaled := *spec
		im := *spec.Image
		im.Batch = b
		scaled.Image = &im
		q, err := perf.Predict(&scaled, cl)
		if err != nil || !q.Fits || q.Serving == nil || q.LatencyS == nil {
			continue
		}
		if fastest == 0 || *q.LatencyS < fastest {
			fastest = *q.LatencyS
		}
		s := q.Serving
		if s.MaxBatchSLO == 0 || s.ReplicasNeeded <= 0 {
			continue // one call at this batch takes longer than the SLO allows
		}
		// Replicas one instance holds: its GPU groups, or its slices.
		per := max(1, q.Parallelism.Replicas)
		if sl.on() {
			per = o.GPUCount * sl.perGPU()
		}
		inst := (s.ReplicasNeeded + per - 1) / per
		if inst > maxInst {
			if needMin == 0 || inst < needMin {
				needMin = inst
			}
			continue
		}
		if best == nil || inst < bestInst {
			best, bestInst, bestReplicas, perInst = &q, inst, s.ReplicasNeeded, per
		}
	}
	if best == nil {
		slo := spec.Image.SLO
		switch {
		case fastest == 0:
			return fleet{}, msg.New("no batch from %d down to 1 fits on %s", max(1, spec.Image.Batch), a.ID)
		case needMin > 0:
			ev.fleetNeed = needMin
			return fleet{}, msg.New("%.4g requests/s within the SLO need more than %d instances (%d GPUs, constraints.max_gpus %d)",
				rps, maxInst, maxInst*o.GPUCount, ev.maxGPUs)
		default:
			return fleet{}, msg.New("no batch meets the latency SLO on %s: one pipeline call at batch 1 takes %.3g s, and %.3g s at p%g leaves no room for a request to wait for the call ahead of it",
				a.ID, fastest, slo.LatencyS, slo.Percentile)
		}
	}
	// Replicas are kept, not the whole instances' worth: a request rate
	// spreads over the replicas that run.
	if !sl.on() {
		bestReplicas = bestInst * perInst // every GPU group of a rented instance serves
	}
	s := best.Serving
	capacity := s.RequestsPerS / float64(max(1, best.Parallelism.Replicas)) * float64(bestReplicas)
	s.ReplicasNeeded = bestReplicas
	s.Load = round3(rps / capacity)
	ok := true
	s.Sustainable = &ok
	best.Utilization = round3(rps / capacity)
	best.Throughput.Value = rps
	best.Throughput.P10, best.Throughput.P90 = nil, nil // the offered load is served, not predicted
	if sl.on() {
		best.Parallelism.Replicas = bestReplicas
		best.Assumptions = append(best.Assumptions, sl.assumption(o, whole, bestReplicas, bestInst, rps))
		if spec.Constraints.SharedGPUs {
			best.Assumptions = append(best.Assumptions, sharedAssumption(o, sl, bestReplicas, bestInst))
		}
	}
	best.Assumptions = append(best.Assumptions, msg.New("image service: %d replica(s) on %d instance(s), pipeline calls of %d image(s) taking %.3g s, %.3g requests/s each (%.0f%% busy, the rest is the headroom the %.3g s p%g latency SLO leaves for queueing)",
		bestReplicas, bestInst, s.Batch, *best.LatencyS, rps/float64(bestReplicas), 100*best.Utilization, spec.Image.SLO.LatencyS, spec.Image.SLO.Percentile))
	return fleet{best, bestInst, bestReplicas}, msg.Msg{}
}

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }
