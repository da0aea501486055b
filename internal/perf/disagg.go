package perf

import (
	"math"

	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Disaggregated serving: prefill and decode on separate pools of GPUs
// (parallelism.prefill_gpus). The prefill pool runs prompts only, in the
// layout that prefills fastest; the decode pool decodes only, in the layout
// the parallelism block states (or the search picks), and never pauses for
// a prompt. Each request's KV cache crosses from one pool to the other, over
// NVLink when both lie in one NVLink domain (GB200 NVL72) and over the
// fabric otherwise. The service runs at the pace of the slower pool.

// pool is the part of c made of n of its GPUs, on whole nodes as far as n
// allows.
func (c Cluster) pool(n int) Cluster {
	q := c
	q.GPUs = n
	per := max(1, c.GPUsPerNode)
	q.Nodes = (n + per - 1) / per
	if n < per {
		q.GPUsPerNode = n
	}
	if q.Nodes <= 1 && c.GPU.NVLinkDomain <= per {
		q.FabricGbps, q.FabricKind = 0, ""
	}
	return q
}

// kvLink is the bytes/s that gpus GPUs of a prefill replica send one
// request's KV cache to the decode pool with, and the link's name: NVLink
// inside one NVLink domain, else each GPU's share of the node's fabric (or
// front-end network), as a pipeline hop between nodes has.
func kvLink(c Cluster, gpus int) (float64, string) {
	if c.GPUs <= c.fastDomain() {
		return c.intraGBps() * 1e9 * float64(gpus), "NVLink"
	}
	_, bw := pipelineHop(c)
	return bw * float64(gpus), fabricName(c)
}

func predictDisaggregated(m *Params, par workload.Parallelism, j *inferJob, c Cluster, f archFactors, p *Prediction) error {
	np := par.PrefillGPUs
	if np >= c.GPUs {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = msg.New("parallelism.prefill_gpus %d leaves none of the cluster's %d GPUs to decode", np, c.GPUs)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("use a cluster with more GPUs than parallelism.prefill_gpus, or fewer prefill GPUs")
		return nil
	}
	pc, dc := c.pool(np), c.pool(c.GPUs-np)

	// The prefill pool: prompts only, as a batch job, in the fastest layout.
	jp := *j
	jp.output, jp.rps, jp.requests, jp.slo = 0, nil, 0, workload.SLO{}
	jp.batching = workload.BatchingContinuous
	jp.attnDP = false
	var scratch Prediction
	bestP, ok := searchServing(m, &jp, pc, f, workload.Parallelism{}, &scratch)
	if !ok {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.MemoryPerGPUGB = scratch.MemoryPerGPUGB
		p.Reason = msg.New("the prefill pool of %d GPUs cannot hold the model; %s", np, scratch.Reason)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("more prefill GPUs (parallelism.prefill_gpus)")
		p.Fix = p.Fix.Also(scratch.Fix)
		return nil
	}

	// The decode pool: decode only, in the layout the block states. Its
	// sequences arrive as the prefill pool finishes them: it batches
	// continuously, whatever inference.batching says.
	jd := *j
	jd.decodeOnly = true
	if jd.batching != workload.BatchingContinuous {
		jd.batching = workload.BatchingContinuous
		p.Assumptions = append(p.Assumptions, msg.New("with prefill and decode on separate pools the decode pool batches continuously (inference.batching is not applied)"))
	}
	par.PrefillGPUs = 0
	bestD, ok := searchServing(m, &jd, dc, f, par, p)
	if !ok {
		p.Reason = msg.New("the decode pool of %d GPUs cannot run the model; %s", dc.GPUs, p.Reason)
		p.Verdict = p.Reason.Stop()
		return nil
	}

	decodeTokS := bestD.maxTokS * float64(bestD.replicas)  // output tokens/s the decode pool can produce
	prefillTokS := bestP.maxTokS * float64(bestP.replicas) // prompt tokens/s the prefill pool can take
	reqCap := math.Min(decodeTokS/math.Max(j.output, 1), prefillTokS/math.Max(j.prompt, 1))
	if j.output == 0 {
		reqCap = prefillTokS / math.Max(j.prompt, 1)
	}
	senders := bestP.r.tp // each tensor-parallel rank sends its slice of the cache
	if bestP.r.attnDP {
		senders = 1 // attention data-parallel: a sequence's cache lives on one GPU
	}
	linkBps, linkName := kvLink(c, senders)
	kvS := j.kvPerTokenBytes * j.prompt / linkBps

	fillInference(&jd, bestD, dc, p)
	p.Parallelism.PrefillGPUs = np
	p.Parallelism.PrefillReplicaGPUs = bestP.lay.gpus()
	s := p.Serving
	s.DecodeTokensS = round(decodeTokS, 1)
	s.PrefillTokensS = round(prefillTokS, 1)
	s.KVTransferMs = round(kvS*1000, 2)
	s.PrefillMs = round(bestP.tPrefill*1000, 1)
	s.OfflineTokensS = round(reqCap*j.tokensPerRequest(), 1)
	s.RequestsPerS = round(reqCap, 2)
	ttft := bestP.tPrefill + kvS + bestD.tStep
	total := reqCap * j.tokensPerRequest()
	load, served := 0.0, reqCap
	if j.rps != nil {
		load = *j.rps / reqCap
		sustainable := load <= 1
		s.Load, s.Sustainable = round(load, 3), &sustainable
		served = math.Min(*j.rps, reqCap)
		total = served * j.tokensPerRequest()
		s.ReplicasNeeded = 0 // the pools scale together, not by replicas of one
	}
	// Each pool is busy the share of its capacity the served rate takes:
	// the faster pool waits for the slower one.
	busy := float64(np) * served / (prefillTokS / math.Max(j.prompt, 1))
	if j.output > 0 {
		busy += float64(dc.GPUs) * served / (decodeTokS / j.output)
	}
	p.Utilization = round(math.Min(1, busy/float64(c.GPUs)), 3)
	p.Throughput.Value = total
	if j.requests > 0 && j.rps == nil {
		p.DurationHours = ptr(j.requests / reqCap / 3600)
	}
	p.TTFTMs = ptr(round(ttft*1000, 1))
	tokensPerS := total
	if j.output > 0 {
		tokensPerS = total * (j.prompt + j.output) / j.output
	}
	p.MFU = round(math.Min(1, 2*(j.denseParams+j.head+j.activeExpert)*tokensPerS/(float64(c.GPUs)*peakNominal(c.GPU, j.dt))), 3)

	// Which pool sets the pace, and the split that would balance them.
	perD, perP := decodeTokS/j.output/float64(dc.GPUs), prefillTokS/j.prompt/float64(np) // requests/s per GPU
	balanced := float64(c.GPUs) * perD / (perD + perP)                                   // prefill GPUs at which both pools keep pace
	p.Assumptions = append(p.Assumptions,
		msg.New("prefill and decode disaggregated (parallelism.prefill_gpus): %d GPUs prefill, %.0f prompt tokens/s; %d GPUs decode only, %.0f output tokens/s", np, prefillTokS, dc.GPUs, decodeTokS),
		prefillLayoutNote(bestP.r),
		msg.New("each request's KV cache (%.0f MB for a %.0f-token prompt) crosses from the prefill pool to the decode pool over %s in %.2f ms", j.kvPerTokenBytes*j.prompt/1e6, j.prompt, linkName, kvS*1000))
	if j.rps != nil && load > 1 {
		p.Bottleneck = Compute
		p.Verdict = msg.New("%.0f requests/s need %.0f%% of what the two pools can serve: queues grow without bound.", *j.rps, load*100)
		p.Fix = msg.New("more GPUs in both pools, about %d in all at this split", int(math.Ceil(load*float64(c.GPUs))))
		return nil
	}
	if prefillTokS/j.prompt < decodeTokS/j.output {
		p.Bottleneck = Compute
		p.Verdict = msg.New("the prefill pool sets the pace: its %d GPUs prefill %.1f requests/s while the %d decode GPUs could finish %.1f requests/s.", np, prefillTokS/j.prompt, dc.GPUs, decodeTokS/j.output)
		p.Fix = msg.New("about %d of the %d GPUs on prefill would balance the pools", int(math.Round(balanced)), c.GPUs)
		return nil
	}
	if b := int(math.Round(balanced)); b < np && np-b >= max(1, np/5) {
		p.Fix = p.Fix.Also(msg.New("the prefill pool idles part of the time: about %d of the %d GPUs on prefill would balance the pools", b, c.GPUs))
	}
	return nil
}

// prefillLayoutNote says how one prefill replica splits the model.
func prefillLayoutNote(r replica) msg.Msg {
	switch {
	case r.pp > 1:
		return msg.New("a prefill replica takes %d GPUs: tensor parallelism %d in %d pipeline stages", r.tp*r.pp, r.tp, r.pp)
	case r.attnDP:
		return msg.New("a prefill replica takes %d GPUs: experts split over them, attention data-parallel", r.tp)
	}
	return msg.New("a prefill replica takes %d GPUs in tensor parallelism", r.tp)
}
