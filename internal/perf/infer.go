package perf

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// Serving constants. Each is a property of today's engines, stated in the
// assumptions of every inference prediction.
const (
	engineMemShare = 0.90   // share of GPU memory an engine takes (vLLM gpu_memory_utilization)
	engineMaxBatch = 1024   // sequences in flight per replica when memory and max_batch allow more
	allReduceLatS  = 8e-6   // latency of one small all-reduce on NVLink
	layerOverheadS = 2.5e-5 // per layer and decode step: kernel launches, sampling, scheduling
	decodeOverlap  = 0.25   // share of the shorter of compute and memory time that does not overlap
	workspaceGB    = 1.0    // activations of a prefill chunk and the sampler
)

type inferJob struct {
	n, nAct               float64
	layers, hidden, heads int
	kvHeads, headDim      int
	kvPerTokenBytes       float64 // all layers, before tensor-parallel splitting
	mla                   bool
	experts, active       int
	expertShare           float64 // share of parameters in routed experts
	prompt, output        float64
	wBytes                float64
	dt                    catalog.DataType
	stack                 float64
	maxBatch              int
	rps                   *float64
	requests              float64
	slo                   workload.SLO
}

type inferEval struct {
	tp, replicas       int
	fits               bool
	weightsGB, capGB   float64
	kvGBPerSeq         float64
	bMem, bMax         int
	bOp, bSLO          int
	tStep, tMem, tComp float64
	tTP, tPrefill      float64
	perReplicaTokS     float64 // at bOp
	maxTokS            float64 // per replica at bMax
	load               float64
	sustainable        bool
	ttft, tpot         float64
	matmulEff          float64
	step1, stepMax     float64 // decode step at batch 1 and at bMax
	prefillPerToken    float64 // batched prefill work per prompt token
}

func newInferJob(spec *workload.Spec, a *catalog.Accelerator, notes *[]string) (inferJob, error) {
	m, inf := spec.Model, spec.Inference
	if m == nil || inf == nil || m.Layers == 0 {
		return inferJob{}, fmt.Errorf("perf: llm-inference needs a transformer model and an inference block")
	}
	j := inferJob{
		n: m.ParamsB * 1e9, nAct: m.ActiveParamsB() * 1e9, layers: m.Layers, hidden: m.Hidden, heads: m.Heads,
		kvHeads: m.KVHeads, headDim: m.EffectiveHeadDim(), mla: m.KVLoRARank > 0, experts: m.Experts, active: m.ActiveExperts,
		prompt: float64(inf.PromptTokens), output: float64(inf.OutputTokens), wBytes: inf.WeightPrecision.Bytes(),
		maxBatch: inf.MaxBatch, rps: inf.RequestsPerSecond, requests: inf.Requests, slo: inf.SLO,
		stack: stackFactor(spec.Stack.Framework, false),
	}
	if j.kvHeads == 0 {
		j.kvHeads = j.heads
	}
	j.kvPerTokenBytes = float64(m.KVElemsPerToken()) * inf.KVPrecision.Bytes()
	if m.IsMoE() {
		j.expertShare = (j.n - j.nAct) / j.n * float64(m.Experts) / float64(max(1, m.Experts-m.ActiveExperts))
	}
	var fell bool
	j.dt, fell = dataTypeFor(a, inf.WeightPrecision)
	if fell && inf.WeightPrecision != workload.INT4 {
		*notes = append(*notes, fmt.Sprintf("%s has no %s maths: weights are dequantised and multiplied in %s", a.ID, inf.WeightPrecision, j.dt))
	}
	*notes = append(*notes,
		fmt.Sprintf("serving engine %s: %.2fx the speed of TensorRT-LLM on the same GPUs", spec.Stack.Framework, j.stack),
		fmt.Sprintf("continuous batching: the engine takes %.0f%% of GPU memory, holds at most %d sequences per replica, and keeps each sequence's KV cache at its mean length (prompt + half the output)", engineMemShare*100, engineMaxBatch))
	return j, nil
}

func evalInference(j inferJob, c Cluster, f archFactors, tp int) inferEval {
	e := inferEval{tp: tp, replicas: c.GPUs / tp}
	a := c.GPU
	bw := a.MemBandwidthGBps * 1e9 * f.BWEff * j.stack
	e.capGB = a.MemGiB * 1.073741824
	e.weightsGB = j.n * j.wBytes / float64(tp) / 1e9
	usable := e.capGB*engineMemShare - e.weightsGB - runtimeGB - workspaceGB
	kvSplit := float64(min(tp, j.kvHeads))
	if j.mla {
		kvSplit = 1 // the latent is shared by all heads
	}
	kvPerTok := j.kvPerTokenBytes / kvSplit
	ctx := j.prompt + j.output/2
	e.kvGBPerSeq = kvPerTok * ctx / 1e9
	if usable <= 0 || e.kvGBPerSeq <= 0 {
		return e
	}
	e.bMem = int(usable / e.kvGBPerSeq)
	if e.bMem < 1 {
		return e
	}
	e.fits = true
	e.bMax = min(e.bMem, engineMaxBatch)
	if j.maxBatch > 0 {
		e.bMax = min(e.bMax, j.maxBatch)
	}
	e.matmulEff = f.MatmulEff
	peak := peakFLOPS(a, j.dt) * f.MatmulEff * j.stack
	intra := c.intraGBps() * 1e9
	L, h := float64(j.layers), float64(j.hidden)
	qWidth := float64(j.heads * j.headDim)
	tpF := float64(tp)

	step := func(b int) (tStep, tMem, tComp, tTP float64) {
		B := float64(b)
		weights := j.n * j.wBytes / tpF
		if j.experts > 0 {
			touched := 1 - math.Pow(1-float64(j.active)/float64(j.experts), B)
			weights *= 1 - j.expertShare + j.expertShare*touched
		}
		tMem = (weights + B*ctx*kvPerTok) / bw
		tComp = (2*j.nAct*B + 4*L*qWidth*ctx*B) / tpF / peak
		if tp > 1 {
			tTP = 2 * L * (allReduceLatS + 2*(tpF-1)/tpF*B*h*2/intra)
		}
		tStep = math.Max(tMem, tComp) + decodeOverlap*math.Min(tMem, tComp) + tTP + L*layerOverheadS
		return
	}
	// prefillWork is the time of one prompt's prefill when many are batched
	// (weights are read once for the whole batch); prefill adds the weight
	// read and launch overheads of a prompt on its own, for its latency.
	prefillWork := func(tokens float64) float64 {
		flops := 2*j.nAct*tokens + 2*L*qWidth*tokens*tokens
		t := flops/tpF/peak + ewBytesForward*L*h*tokens/tpF/bw
		if tp > 1 {
			t += 2 * L * 2 * (tpF - 1) / tpF * tokens * h * 2 / intra
		}
		return t
	}
	prefill := func(tokens float64) float64 {
		t := prefillWork(tokens)
		if tp > 1 {
			t += 2 * L * allReduceLatS
		}
		return math.Max(t, j.n*j.wBytes/tpF/bw) + L*layerOverheadS
	}
	e.tPrefill = prefill(j.prompt)
	work := prefillWork(j.prompt)
	// Output tokens per second of one replica holding b sequences: each
	// sequence costs its prefill once and then one decode step per token.
	tokS := func(b int) float64 {
		ts, _, _, _ := step(b)
		if j.output == 0 {
			return j.prompt / work // prompt tokens per second, prefills batched
		}
		return float64(b) * j.output / (j.output*ts + float64(b)*work)
	}
	latency := func(b int) (ttft, tpot float64) {
		ts, _, _, _ := step(b)
		ttft = e.tPrefill
		tpot = ts
		if b > 1 && j.output > 0 {
			ttft += ts                                   // a new request waits for the step in flight
			tpot += float64(b-1) * e.tPrefill / j.output // prefills of other sequences interleave
		}
		return
	}
	meets := func(b int) bool {
		ttft, tpot := latency(b)
		return (j.slo.TTFTMs == 0 || ttft*1000 <= j.slo.TTFTMs) && (j.slo.TPOTMs == 0 || tpot*1000 <= j.slo.TPOTMs)
	}
	for b := e.bMax; b >= 1; b = b * 7 / 8 {
		if meets(b) {
			e.bSLO = b
			break
		}
		if b == 1 {
			break
		}
	}
	e.maxTokS = tokS(e.bMax)
	e.bOp = e.bMax
	e.sustainable = true
	if j.rps != nil {
		need := *j.rps / float64(e.replicas) * math.Max(j.output, 1)
		if j.output == 0 {
			need = *j.rps / float64(e.replicas) * j.prompt
		}
		e.load = need / e.maxTokS
		e.sustainable = e.load <= 1
		// The smallest batch that keeps up with the load (Little's law).
		e.bOp = e.bMax
		for b := 1; b <= e.bMax; b = max(b+1, b*9/8) {
			if tokS(b) >= need {
				e.bOp = b
				break
			}
		}
	}
	e.step1, _, _, _ = step(1)
	e.stepMax, _, _, _ = step(e.bMax)
	if j.prompt > 0 {
		e.prefillPerToken = work / j.prompt
	}
	e.tStep, e.tMem, e.tComp, e.tTP = step(e.bOp)
	e.perReplicaTokS = tokS(e.bOp)
	if j.rps != nil && e.sustainable {
		e.perReplicaTokS = *j.rps / float64(e.replicas) * math.Max(j.output, 1)
	}
	e.ttft, e.tpot = latency(e.bOp)
	return e
}

func predictInference(spec *workload.Spec, c Cluster, p *Prediction) error {
	j, err := newInferJob(spec, c.GPU, &p.Assumptions)
	if err != nil {
		return err
	}
	f := c.factors()
	var best inferEval
	found := false
	var leanest inferEval
	tps := []int{}
	for tp := 1; tp <= min(c.GPUs, max(c.GPUsPerNode, 1)); tp *= 2 {
		if c.GPUs%tp == 0 && (j.heads == 0 || j.heads%tp == 0) {
			tps = append(tps, tp)
		}
	}
	if spec.Parallelism.Tensor > 0 {
		tps = []int{spec.Parallelism.Tensor}
	}
	better := func(a, b inferEval) bool { // is a better than b?
		aOK, bOK := a.sustainable && (a.bSLO > 0 || noSLO(j.slo)), b.sustainable && (b.bSLO > 0 || noSLO(j.slo))
		if aOK != bOK {
			return aOK
		}
		if j.rps != nil && aOK {
			return a.ttft+a.tpot*j.output < b.ttft+b.tpot*j.output // both keep up: the faster answer wins
		}
		return a.maxTokS*float64(a.replicas) > b.maxTokS*float64(b.replicas)
	}
	for _, tp := range tps {
		e := evalInference(j, c, f, tp)
		if !e.fits {
			if leanest.tp == 0 || e.weightsGB < leanest.weightsGB {
				leanest = e
			}
			continue
		}
		if !found || better(e, best) {
			best, found = e, true
		}
	}
	if !found {
		if leanest.tp == 0 {
			leanest = evalInference(j, c, f, 1)
		}
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		need := leanest.weightsGB + runtimeGB + workspaceGB + leanest.kvGBPerSeq
		p.MemoryPerGPUGB = round(need, 1)
		p.Reason = fmt.Sprintf("the weights alone take %.0f GB per GPU at tensor parallelism %d, with room for no sequence in %.0f GB (%.0f%% usable)",
			leanest.weightsGB, leanest.tp, leanest.capGB, engineMemShare*100)
		p.Verdict = p.Reason + "."
		hints := []string{}
		if need2 := j.n * j.wBytes / 1e9 / (leanest.capGB * 0.7); need2 > float64(c.GPUs) {
			hints = append(hints, fmt.Sprintf("about %d GPUs of this kind would hold it", int(math.Ceil(need2))))
		}
		if j.wBytes > 1 {
			hints = append(hints, "fp8 or int4 weights halve or quarter the weight memory")
		}
		hints = append(hints, "a GPU with more memory")
		p.Fix = joinHints(hints)
		p.TTFTMs, p.TPOTMs = nil, nil
		return nil
	}
	e := best
	p.Fits = true
	p.Parallelism = Parallelism{Data: e.replicas, Tensor: e.tp, Pipeline: 1, Replicas: e.replicas}
	unit := "tokens/s"
	if j.output == 0 {
		unit = "prompt tokens/s"
	}
	total := e.perReplicaTokS * float64(e.replicas)
	p.Throughput = Quantity{Value: round(total, 1), Unit: unit}
	p.StepTimeS = round(e.tStep, 5)
	p.TTFTMs = ptr(round(e.ttft*1000, 1))
	p.TPOTMs = ptr(round(e.tpot*1000, 2))
	kvGB := e.kvGBPerSeq * float64(e.bOp)
	p.Memory = roundMemory(Memory{WeightsGB: e.weightsGB, KVCacheGB: kvGB, OverheadGB: runtimeGB + workspaceGB,
		TotalGB: e.weightsGB + kvGB + runtimeGB + workspaceGB, CapacityGB: e.capGB})
	p.MemoryPerGPUGB = p.Memory.TotalGB
	p.Efficiency = round(e.matmulEff*j.stack, 3)
	flopsPerTok := 2 * j.nAct
	p.MFU = round(flopsPerTok*(j.prompt+j.output)/math.Max(j.output, 1)*total/(float64(c.GPUs)*peakNominal(c.GPU, j.dt)), 3)
	p.Breakdown = Breakdown{ComputeS: round(e.tComp, 5), MemoryS: round(e.tMem, 5), CommExposedS: round(e.tTP, 5),
		CommTotalS: round(e.tTP, 5), OverheadS: round(float64(j.layers)*layerOverheadS, 5)}
	if e.tp > 1 {
		p.Breakdown.CommLink = "intra-node " + c.LinkKind
	}
	s := &Serving{Batch: e.bOp, MaxBatchMemory: e.bMem, MaxBatchSLO: e.bSLO, PrefillMs: round(e.tPrefill*1000, 1),
		OfflineTokensS: round(e.maxTokS*float64(e.replicas), 1)}
	if j.output > 0 {
		s.RequestsPerS = round(e.maxTokS*float64(e.replicas)/j.output, 2)
	}
	p.Utilization = 1
	if j.rps != nil {
		s.Load = round(e.load, 3)
		s.Sustainable = &e.sustainable
		p.Utilization = round(math.Min(1, e.load), 3)
		perReplica := e.maxTokS
		if e.bSLO > 0 {
			perReplica = evalAtBatch(j, c, f, e.tp, e.bSLO)
		}
		if perReplica > 0 {
			s.ReplicasNeeded = int(math.Ceil(*j.rps * math.Max(j.output, 1) / perReplica))
		}
	} else if j.requests > 0 {
		p.DurationHours = ptr(round(j.requests*math.Max(j.output, 1)/total/3600, 3))
	}
	p.Serving = s
	p.Assumptions = append(p.Assumptions, fmt.Sprintf("layout: %d replica(s) of tensor parallelism %d; operating batch %d sequences per replica (memory holds %d)", e.replicas, e.tp, e.bOp, e.bMem))
	p.Bottleneck, p.Verdict, p.Fix = inferVerdict(j, e, c)
	return nil
}

func noSLO(s workload.SLO) bool { return s.TTFTMs == 0 && s.TPOTMs == 0 }

// evalAtBatch is one replica's output tokens per second capped at batch b.
func evalAtBatch(j inferJob, c Cluster, f archFactors, tp, b int) float64 {
	j2 := j
	j2.maxBatch = b
	j2.rps = nil
	return evalInference(j2, c, f, tp).maxTokS
}

func inferVerdict(j inferJob, e inferEval, c Cluster) (string, string, string) {
	if j.rps != nil && !e.sustainable {
		need := int(math.Ceil(e.load * float64(e.replicas)))
		return Compute, fmt.Sprintf("%.0f requests/s need %.0f%% of what this cluster can serve: queues grow without bound.", *j.rps, e.load*100),
			fmt.Sprintf("about %d replicas of tensor parallelism %d (%d GPUs) would keep up", need, e.tp, need*e.tp)
	}
	if j.output == 0 {
		return Compute, fmt.Sprintf("prefill only (embedding or scoring): %.1f ms of batched compute per %.0f-token prompt.", e.tPrefill*1000, j.prompt),
			"more FLOPS (or fp8 maths) would raise throughput; memory bandwidth matters little here"
	}
	if !noSLO(j.slo) && e.bSLO == 0 {
		return Compute, fmt.Sprintf("no batch size meets the SLO: a single request already takes %.0f ms to its first token and %.1f ms per token.", e.ttft*1000, e.tpot*1000),
			"more tensor parallelism, faster GPUs, or lower-precision weights would shorten each step"
	}
	if e.tTP > 0.3*e.tStep {
		return Interconnect, fmt.Sprintf("tensor-parallel all-reduces take %.0f%% of each decode step.", 100*e.tTP/e.tStep),
			"fewer GPUs per replica (more replicas) or a faster GPU link would help"
	}
	if e.bOp == e.bMem && e.bMem < engineMaxBatch && (j.maxBatch == 0 || e.bMem < j.maxBatch) && e.tMem > e.tComp {
		return MemoryCapacity, fmt.Sprintf("the KV cache limits the batch to %d sequences, so decode stays bound by memory bandwidth.", e.bMem),
			"more GPU memory per replica, an fp8 KV cache, or quantised weights would allow larger batches and more throughput"
	}
	if e.tMem > e.tComp {
		return MemoryBandwidth, fmt.Sprintf("decode reads weights and KV cache at each step: %.1f ms of memory traffic against %.1f ms of maths.", e.tMem*1000, e.tComp*1000),
			"larger batches (when the SLO allows), quantised weights or a GPU with more memory bandwidth would raise throughput"
	}
	return Compute, fmt.Sprintf("compute-bound at batch %d: %.1f ms of maths per step against %.1f ms of memory traffic.", e.bOp, e.tComp*1000, e.tMem*1000), ""
}

// ServingCurve is one replica's continuous-batching behaviour, for the
// autoscaling simulator: a decode step takes about StepBaseS +
// StepPerSeqS·batch seconds (fitted between batch 1 and MaxBatch), and
// prefill costs PrefillSPerToken seconds per prompt token.
type ServingCurve struct {
	TensorParallel   int     // GPUs per replica
	ReplicasPerNode  int     // replicas one instance holds
	MaxBatch         int     // sequences in flight per replica
	StepBaseS        float64 // decode step at batch 0, s
	StepPerSeqS      float64 // extra decode time per sequence in flight, s
	PrefillSPerToken float64 // prefill work per prompt token, s
}

// Curve predicts spec on c (one instance) and returns its serving curve.
func Curve(spec *workload.Spec, c Cluster) (ServingCurve, Prediction, error) {
	p, err := Predict(spec, c)
	if err != nil {
		return ServingCurve{}, p, err
	}
	if !p.Fits || spec.Kind != workload.KindLLMInference {
		return ServingCurve{}, p, fmt.Errorf("perf: no serving curve: %s", p.Reason)
	}
	var notes []string
	j, err := newInferJob(spec, c.GPU, &notes)
	if err != nil {
		return ServingCurve{}, p, err
	}
	j.rps = nil
	e := evalInference(j, c, c.factors(), p.Parallelism.Tensor)
	sc := ServingCurve{TensorParallel: e.tp, ReplicasPerNode: e.replicas, MaxBatch: e.bMax, PrefillSPerToken: e.prefillPerToken}
	if e.bMax > 1 {
		sc.StepPerSeqS = (e.stepMax - e.step1) / float64(e.bMax-1)
	}
	sc.StepBaseS = e.step1 - sc.StepPerSeqS
	return sc, p, nil
}
