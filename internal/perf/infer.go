package perf

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// workspaceGB is the activation memory of a prefill chunk and the sampler.
const workspaceGB = 1.0

// inferJob is an inference workload reduced to the numbers the model needs.
// Parameter counts cover all layers.
type inferJob struct {
	n            float64 // every parameter (memory)
	denseParams  float64 // attention, dense MLPs, shared experts, routers
	expertParams float64 // every routed expert
	activeExpert float64 // routed expert parameters one token passes through
	head         float64 // the output projection, V×h
	emb          float64 // the input embedding and the output projection (one matrix when tied)
	// denseBytes is the bytes of one read of the dense weights and the
	// head; headBytes and headDT are the head's (and embedding's) stored
	// width and maths: a quantised checkpoint keeps them in 16 bits.
	denseBytes, headBytes float64
	ckptBytes             float64 // every weight as stored (workload.Model.CheckpointBytes)
	headDT                catalog.DataType
	// latent is the MLA query and latent key/value projection weights an
	// FP4 checkpoint keeps in FP8 (latentDT), part of denseParams.
	latent         float64
	latentDT       catalog.DataType
	layers, hidden int
	heads, kvHeads int
	qWidth         float64
	// decAttn is a decode step's attention FLOPs per token, layer and
	// position of context: QK and PV over every head (4 x heads x
	// head_dim), or for MLA in its absorbed decode form over the latent
	// (2 x heads x (kv_lora_rank + rope) + 2 x heads x kv_lora_rank),
	// about three times a 192-wide head's.
	decAttn         float64
	kvPerTokenBytes float64 // all layers, before tensor-parallel splitting
	mla             bool
	experts, active int
	moeLayers       float64
	expertFFN       float64
	prompt, output  float64
	outputCV        float64
	wBytes          float64
	dt              catalog.DataType
	eng             servingEngine
	maxBatch        int
	batching        workload.Batching
	rps             *float64
	requests        float64
	slo             workload.SLO
	attnDP          bool // experts split over the replica's GPUs, attention replicated per GPU
	ctxLimit        float64
	// decodeOnly is a disaggregated decode pool: its replicas never
	// prefill; prompts arrive as KV caches from the prefill pool.
	decodeOnly bool
	// draft is the draft tokens a decode step proposes per sequence and
	// yield the tokens a step produces per sequence on average: the
	// verified one plus each accepted draft, 1 + a + a² + … + a^draft.
	draft int
	yield float64
	// offloadGB is the weights each GPU keeps in host memory (GB).
	offloadGB float64
	// waitSteps is the decode steps a new request waits before its
	// prefill is scheduled (inference.admission_wait_steps).
	waitSteps int
	// balanced: the engine rebalances the experts over the GPUs
	// (parallelism.expert_balancing).
	balanced bool
	// overlap is how a decode step's expert all-to-all hides under its
	// compute (parallelism.expert_overlap, else the engine release's
	// recipe). A single-batch overlap runs the dispatch's receive under
	// the shared experts and the combine's send under the routed experts'
	// down projection: downShare and sharedShare are those parts of the
	// routed experts' GEMM time (the down projection one of a gated MLP's
	// three matrices, a shared expert as wide as a routed one).
	overlap                workload.ExpertOverlap
	downShare, sharedShare float64
	// attnFP8: decode attention runs its maths in fp8 over an fp8 cache
	// (inference.attention_precision) on an accelerator with fp8 maths.
	attnFP8 bool
}

func newInferJob(spec *workload.Spec, a *catalog.Accelerator, notes *[]msg.Msg) (inferJob, error) {
	m, inf := spec.Model, spec.Inference
	if m == nil || inf == nil || m.Layers == 0 {
		return inferJob{}, fmt.Errorf("perf: llm-inference needs a transformer model and an inference block")
	}
	j := inferJob{
		n: m.ParamsB * 1e9, layers: m.Layers, hidden: m.Hidden, heads: m.Heads,
		kvHeads: m.KVHeads, mla: m.KVLoRARank > 0, experts: m.Experts, active: m.ActiveExperts,
		prompt: float64(inf.PromptTokens), output: float64(inf.OutputTokens), outputCV: inf.OutputTokensCV,
		wBytes: inf.WeightPrecision.StoredBytes(), maxBatch: inf.MaxBatch, rps: inf.RequestsPerSecond, requests: inf.Requests,
		slo: inf.SLO, batching: inf.Batching, ctxLimit: float64(m.ContextLen),
		balanced: spec.Parallelism.ExpertBalancing,
	}
	if j.batching == "" {
		j.batching = workload.BatchingContinuous
	}
	j.yield = 1
	j.offloadGB = inf.OffloadGB
	j.waitSteps = inf.AdmissionWaitSteps
	if k := inf.SpeculativeTokens; k > 0 {
		a := inf.SpeculativeAcceptance
		j.draft = k
		j.yield = (1 - math.Pow(a, float64(k+1))) / (1 - a)
		*notes = append(*notes, msg.New("speculative decoding: %d draft token(s) per step accepted with chance %.2f each, %.2f tokens per sequence and step; a step verifies %d tokens per sequence and drafts with one extra layer per token", k, a, j.yield, k+1))
	}
	if j.kvHeads == 0 {
		j.kvHeads = j.heads
	}
	hd := float64(m.EffectiveHeadDim())
	j.qWidth = float64(j.heads) * hd
	j.decAttn = 4 * j.qWidth
	if m.KVLoRARank > 0 {
		j.decAttn = 2*float64(j.heads)*float64(m.KVLoRARank+m.RopeHeadDim) + 2*float64(j.heads)*float64(m.KVLoRARank)
	}
	h := float64(m.Hidden)
	j.head = float64(m.Vocab) * h
	emb := j.head
	if m.TiedEmbeddings == nil || !*m.TiedEmbeddings {
		emb *= 2
	}
	j.kvPerTokenBytes = float64(m.KVElemsPerToken()) * inf.KVPrecision.Bytes()
	if m.IsMoE() {
		active := m.ActiveParamsB() * 1e9
		j.expertParams = (j.n - active) * float64(m.Experts) / float64(max(1, m.Experts-m.ActiveExperts))
		j.activeExpert = j.expertParams * float64(m.ActiveExperts) / float64(m.Experts)
		j.attnDP = spec.Parallelism.Expert > 1
		j.moeLayers = float64(m.Layers - min(m.DenseLayers, m.Layers))
		j.expertFFN = float64(m.FFNHidden)
	}
	j.denseParams = math.Max(0, j.n-emb-j.expertParams)
	j.emb = emb
	var fell bool
	j.dt, fell = dataTypeFor(a, inf.WeightPrecision)
	// A quantised checkpoint keeps the embedding and the output head in 16
	// bits, and an FP4 one of an MLA model its latent projections in FP8
	// (workload.Precision.HeadPrecision, workload.Model.FP8LatentParams):
	// their GEMMs run at those rates.
	hp := inf.WeightPrecision.HeadPrecision()
	j.headBytes = hp.Bytes()
	j.headDT, _ = dataTypeFor(a, hp)
	j.latent, j.latentDT = m.FP8LatentParams(inf.WeightPrecision), j.dt
	if j.latent > 0 {
		j.latentDT, _ = dataTypeFor(a, workload.FP8)
	}
	j.denseBytes = (j.denseParams-j.latent)*j.wBytes + j.latent*workload.FP8.Bytes() + j.head*j.headBytes
	j.ckptBytes = m.CheckpointBytes(inf.WeightPrecision)
	if j.headBytes > j.wBytes {
		*notes = append(*notes, msg.New("%s weights: the embedding and the output head stay in 16 bits, as quantisation tools leave them (%.1f GB of the weights)", inf.WeightPrecision, j.emb*j.headBytes/1e9))
	}
	if j.latent > 0 {
		*notes = append(*notes, msg.New("fp4 weights: MLA's query and latent key/value projections stay in fp8, as NVIDIA's FP4 checkpoints of DeepSeek-class models keep them (%.1f GB)", j.latent/1e9))
	}
	if fell && inf.WeightPrecision != workload.INT4 {
		*notes = append(*notes, msg.New("%s has no %s maths: weights are dequantised and multiplied in %s (inference.weight_precision)", a.ID, inf.WeightPrecision, j.dt))
	}
	if inf.AttentionPrecision == workload.FP8 {
		if _, fell := dataTypeFor(a, workload.FP8); fell {
			*notes = append(*notes, msg.New("%s has no fp8 maths: decode attention runs in 16 bits over the fp8 cache (inference.attention_precision)", a.ID))
		} else {
			j.attnFP8 = true
		}
	}
	j.eng = resolveEngine(spec.Stack, a)
	j.overlap = j.eng.EPOverlap
	if o := spec.Parallelism.ExpertOverlap; o != "" {
		j.overlap = o
	}
	if m.IsMoE() {
		j.downShare = 1.0 / 2
		if m.GatedMLP == nil || *m.GatedMLP {
			j.downShare = 1.0 / 3
		}
		j.sharedShare = float64(m.SharedExperts) / float64(max(1, m.ActiveExperts))
	}
	if j.eng.Static && j.rps == nil && !specGave(spec, "batching") {
		j.batching = workload.BatchingStatic
	}
	kv := "its mean length (prompt + half the output, paged)"
	if j.eng.ReserveFull || j.batching == workload.BatchingStatic {
		kv = "prompt + output, reserved at admission"
	}
	*notes = append(*notes, msg.New("serving engine %s", j.eng.Note),
		msg.New("%s batching: the engine takes %.0f%% of GPU memory, holds at most %d sequences per replica, and sizes each sequence's KV cache at %s",
			j.batching, j.eng.MemShare*100, j.eng.MaxBatch, kv))
	if !j.eng.Outside.IsZero() {
		*notes = append(*notes, j.eng.Outside)
	}
	return j, nil
}

// specGave reports whether the workload file set inference.batching (Parse
// records a default otherwise).
func specGave(spec *workload.Spec, field string) bool {
	for _, d := range spec.Defaults {
		if d.Field == "inference."+field {
			return false
		}
	}
	return true
}

// combineBytes is the bytes per hidden value that the combine of one
// routed token copy returns: the experts' 16-bit outputs.
const combineBytes = 2

// dispatchBytes is the bytes per hidden value that the dispatch of one
// routed token copy sends: 8-bit activations when the expert GEMMs read
// them in fp8 or narrower (DeepEP's low-latency dispatch in fp8 with
// per-128 scales, DeepSeek-V3 report section 3.3: activations are
// quantised before the dispatch), else 16-bit ones.
func (j *inferJob) dispatchBytes() float64 {
	switch j.dt {
	case catalog.FP8, catalog.FP4, catalog.INT8:
		return 1
	}
	return 2
}

// layout is how one serving replica is laid over GPUs: a group of tp GPUs
// in tensor parallel (with ep, experts split over them and attention data
// parallel), repeated over pp pipeline stages. A group larger than a node
// is one NVLink domain (GB200 NVL72) or, with ep, an expert-parallel group
// over the fabric; pipeline stages of more than one node talk over the
// fabric.
type layout struct {
	tp, pp int
	ep     bool
}

// gpus is the GPUs one replica of the layout takes.
func (l layout) gpus() int { return l.tp * max(1, l.pp) }

// replica is one model copy on its layout's GPUs and what a step on it
// costs.
type replica struct {
	j                *inferJob
	m                *Params
	c                Cluster
	tp, pp           int
	attnDP           bool    // experts split over the tp GPUs, attention replicated per GPU
	frac             float64 // the largest pipeline stage's share of the layers (1: no pipeline)
	rate, bw         float64 // sustained GEMM FLOP/s and streaming bytes/s of one GPU
	denseRate        float64 // sustained FLOP/s of the dense weights and the head together (the head in 16 bits)
	offGB, hostBW    float64 // weights kept in host memory per GPU (GB) and the host link's bytes/s
	attnRate         float64
	decAttnRate      float64 // decode attention over the KV cache: attnRate, or its fp8 rate
	decodeShare      float64 // share of denseRate the decode GEMMs of two rows or more reach (archFactors.DecodeMatmul)
	intra            float64
	a2a              float64 // bytes/s of one GPU's expert all-to-all (its NVLink, or the fabric for peers beyond it)
	arLat            float64 // latency of one small all-reduce on the replica's link
	hopLat, hopBW    float64 // a pipeline hop between nodes: latency (s) and bytes/s per GPU
	weightsGB, capGB float64
	kvPerTok         float64 // KV bytes per token on one GPU
	kvGBPerSeq       float64 // what admission reserves per sequence
	pfAlone, pfWork  float64 // one prompt's prefill on its own, and its share of a batched prefill (s)
	pfLocal          float64 // attention data parallel out of step: the part of a prompt's prefill its own rank does (joinWork)
	bMem, bMax       int
	fits             bool
	usableGB         float64
	reserveCtx, ctx  float64
}

func newReplica(m *Params, j *inferJob, c Cluster, f archFactors, lay layout) replica {
	tp := lay.tp
	r := replica{j: j, m: m, c: c, tp: tp, pp: max(1, lay.pp), attnDP: j.attnDP || lay.ep, frac: 1}
	if r.pp > 1 {
		r.frac = math.Ceil(float64(j.layers)/float64(r.pp)) / float64(j.layers)
	}
	a := c.GPU
	k := j.eng.Kernel
	r.rate = m.matmulFLOPS(a, f, j.dt) * k
	r.denseRate = r.rate
	if dh := j.denseParams + j.head; dh > 0 && (j.headDT != j.dt || j.latentDT != j.dt) {
		r.denseRate = dh / ((j.denseParams-j.latent)/r.rate + j.latent/(m.matmulFLOPS(a, f, j.latentDT)*k) +
			j.head/(m.matmulFLOPS(a, f, j.headDT)*k))
	}
	r.bw = a.MemBandwidthGBps * 1e9 * f.BW * k
	r.attnRate = peakNominal(a, mustDT(a)) * f.Attn * powerDerate(a) * k
	r.decAttnRate = r.attnRate
	if j.attnFP8 {
		r.decAttnRate = peakNominal(a, catalog.FP8) * f.Attn * m.FP8Ratio * powerDerate(a) * k
	}
	r.decodeShare = f.DecodeMatmul
	r.intra = c.intraGBps() * 1e9
	r.a2a = r.intra
	if dom := c.fastDomain(); tp > dom {
		// A GPU sends to each peer alike: the share beyond its NVLink
		// domain crosses the fabric while the rest stays on NVLink.
		out := float64(tp-dom) / float64(tp)
		r.a2a = 1 / math.Max(out/(c.interGBps()*1e9), (1-out)/r.intra)
	}
	r.arLat = allReduceLatency(c, tp)
	if r.pp > 1 {
		r.hopLat, r.hopBW = pipelineHop(c)
	}
	r.capGB = a.MemGiB * 1.073741824
	tpF := float64(tp)
	if r.attnDP {
		r.weightsGB = (j.ckptBytes + j.expertParams*j.wBytes*(r.expertSlots()-1)) / 1e9
	} else {
		r.weightsGB = j.ckptBytes / tpF / 1e9
	}
	r.weightsGB *= r.frac // a stage holds its layers only
	if j.offloadGB > 0 {
		r.offGB = math.Min(j.offloadGB, r.weightsGB)
		r.weightsGB -= r.offGB
		r.hostBW, _ = hostLink(a)
	}
	r.usableGB = r.capGB*j.eng.MemShare - r.weightsGB - runtimeGB - workspaceGB
	kvSplit := float64(min(tp, j.kvHeads))
	if j.mla || r.attnDP {
		kvSplit = 1 // the MLA latent is shared by all heads; attention-DP keeps whole sequences per GPU
	}
	r.kvPerTok = j.kvPerTokenBytes / kvSplit * r.frac
	// The mean context of the sequences in flight: a sequence stays for
	// its output's length, so long answers are over-represented in the
	// batch (E[L²]/2E[L] = mean/2 · (1 + CV²) tokens past the prompt).
	r.ctx = j.prompt + j.output/2*(1+j.outputCV*j.outputCV)
	if j.ctxLimit > 0 {
		r.ctx = math.Min(r.ctx, j.ctxLimit)
	}
	r.reserveCtx = r.ctx
	if j.eng.ReserveFull || j.batching == workload.BatchingStatic {
		r.reserveCtx = j.prompt + j.output
	}
	r.kvGBPerSeq = r.kvPerTok * r.reserveCtx / 1e9
	r.pfAlone = r.prefillAlone(j.prompt)
	var local float64
	r.pfWork, local = r.prefillBatched(j.prompt)
	if r.attnDP && r.tp > 1 && !j.decodeOnly && j.waitSteps == 0 {
		r.pfLocal = local // the ranks prefill out of step (joinWork)
	}
	if r.usableGB <= 0 || r.kvGBPerSeq <= 0 {
		return r
	}
	per := r.usableGB / r.kvGBPerSeq
	if r.attnDP {
		per *= tpF // each GPU holds its own sequences
	}
	r.bMem = int(math.Min(per, 1e7))
	if r.bMem < 1 {
		return r
	}
	r.fits = true
	engineCap := j.eng.MaxBatch
	if r.attnDP {
		engineCap *= tp // attention data-parallel ranks each schedule their own batch
	}
	r.bMax = min(r.bMem, engineCap)
	if j.maxBatch > 0 {
		r.bMax = min(r.bMem, j.maxBatch)
	}
	return r
}

// offloadS is the time to stream a GPU's offloaded weights in once.
func (r replica) offloadS() float64 {
	if r.offGB <= 0 {
		return 0
	}
	return r.offGB * 1e9 / r.hostBW
}

// kvReads is how many times a decode step reads each KV head's cache: once,
// or once per query head of its group when the engine's attention kernel
// has no grouped-query path.
func (r replica) kvReads() float64 {
	j := r.j
	if !j.eng.PerHeadKV || j.mla || j.kvHeads <= 0 || j.heads <= j.kvHeads {
		return 1
	}
	return float64(j.heads) / float64(j.kvHeads)
}

// hostLink is the bytes/s one GPU reads host memory at, one direction, and
// the link's name: NVLink-C2C on Grace superchips (900 GB/s both
// directions, NVIDIA GH200/GB200 datasheets), else a PCIe x16 link of the
// catalog's generation (Gen4 when unknown), at 80% of its raw rate.
func hostLink(a *catalog.Accelerator) (float64, string) {
	if a.PCIeGen == 0 && (strings.Contains(a.Name, "Grace") || strings.HasPrefix(a.ID, "gb") || strings.HasPrefix(a.ID, "gh")) {
		return 450e9, "NVLink-C2C"
	}
	gen := a.PCIeGen
	if gen == 0 {
		gen = 4
	}
	gen = min(gen, 6)
	return 0.8 * 4e9 * math.Pow(2, float64(gen-1)), fmt.Sprintf("PCIe Gen%d x16", gen)
}

// expertSlots is the share of the routed experts one GPU of an
// expert-parallel replica holds: ceil(experts / GPUs) of them, so when the
// GPUs do not divide the experts the engine fills the spare slots with
// copies of the busiest experts (EPLB's redundant experts).
func (r replica) expertSlots() float64 {
	e := float64(max(1, r.j.experts))
	return math.Ceil(e/float64(r.tp)) / e
}

// gemmWidth is the width of a GPU's dense GEMMs: the hidden size split by
// tensor parallelism, or whole when attention is data-parallel.
func (r replica) gemmWidth() float64 {
	if r.attnDP {
		return float64(r.j.hidden)
	}
	return float64(r.j.hidden) / float64(r.tp)
}

// epImbalance is how much more routed work the busiest GPU of an
// expert-parallel group of g GPUs gets than the mean, when each GPU
// receives mean expert-token pairs: the largest of g near-normal loads
// lies about sqrt(2 ln g) standard deviations above the mean, and a step
// waits for its busiest GPU. Routed at random, a GPU's load varies by
// 1/sqrt(mean); with the experts placed statically it also carries the
// popularity of its experts/g experts, whose loads spread by expertLoadCV
// (a relative variance of expertLoadCV² · g / experts). Rebalancing (EPLB)
// brings the load back to the random floor.
func epImbalance(mean float64, g, experts int, balanced bool) float64 {
	if g <= 1 || mean <= 0 {
		return 1
	}
	skew := 0.0
	if staticExperts(g, experts, balanced) {
		skew = expertLoadCV * expertLoadCV * float64(g) / float64(experts)
	}
	return 1 + math.Sqrt(2*math.Log(float64(g))*(skew+1/math.Max(mean, 1)))
}

// staticExperts reports whether g expert-parallel GPUs hold fixed shares
// of the experts: not rebalanced (parallelism.expert_balancing), and no
// redundant copies (which the engine places when g does not divide them).
func staticExperts(g, experts int, balanced bool) bool {
	return !balanced && g > 1 && experts >= g && experts%g == 0
}

// expertLoadCV is the spread of the tokens routed to each expert of a
// layer (standard deviation over mean): 164.1 over 128 for DeepSeek-R1 on
// 32 GB200 without load balancing (TensorRT-LLM tech blog 4, Table 1),
// where a rank of 8 experts then got 1.56 times more than the mean.
const expertLoadCV = 1.28

// pipelineHop is the latency (s) and per-GPU bandwidth (bytes/s) of
// sending activations from one pipeline stage to the next node: the
// fabric's, or without one the front-end network's, shared by the node's
// GPUs (each tensor-parallel rank sends its slice).
func pipelineHop(c Cluster) (lat, bw float64) {
	if c.FabricGbps <= 0 {
		net := c.NetworkGbps
		if net <= 0 {
			net = defaultEthernetGbps
		}
		return 100e-6, net / 8 * 0.5 * 1e9 / float64(max(1, c.GPUsPerNode))
	}
	lat = 15e-6 // an RDMA send through NCCL
	switch c.FabricKind {
	case "ethernet", "gpudirect-tcpx":
		lat = 40e-6
	}
	return lat, c.interGBps() * 1e9
}

// hop is the time to pass tokens' activations to the next stage.
func (r replica) hop(tokens float64) float64 {
	return r.hopLat + tokens*float64(r.j.hidden)*2/float64(r.tp)/r.hopBW
}

func mustDT(a *catalog.Accelerator) catalog.DataType {
	d, _ := dataTypeFor(a, workload.BF16)
	return d
}

// allReduceLatency is the time of one small all-reduce over n GPUs on the
// cluster's GPU link: a fixed launch and synchronisation cost plus a hop
// per extra GPU (one-shot kernels on NVSwitch, rings on PCIe).
func allReduceLatency(c Cluster, n int) float64 {
	if n <= 1 {
		return 0
	}
	base, hop := 5e-6, 0.5e-6
	switch c.LinkKind {
	case "nvlink":
		base, hop = 6e-6, 1e-6
	case "pcie", "":
		base, hop = 15e-6, 4e-6
	case "infinity-fabric", "hccs", "roce":
		base, hop = 10e-6, 2e-6
	}
	if n > c.fastDomain() {
		base, hop = 25e-6, 5e-6
	}
	return base + hop*float64(n-1)
}

// step is one decode step of batch b at mean context ctx: every sequence
// gains a token. Without a pipeline it is one pass (stage); with pp
// stages the batch runs as pp micro-batches, each through every stage and
// its hop to the next node, so a token's step is pp stage passes and hops
// (the stages work on other micro-batches meanwhile).
func (r replica) step(b int, ctx float64) (tStep, tMem, tComp, tComm, tHost float64) {
	if r.pp <= 1 {
		return r.stage(float64(b), ctx, 1)
	}
	pp := float64(r.pp)
	mb := math.Ceil(float64(b) / pp)
	sStep, sMem, sComp, sComm, sHost := r.stage(mb, ctx, r.frac)
	hop := r.hop(mb)
	tMem, tComp, tComm, tHost = pp*sMem, pp*sComp, pp*(sComm+hop), pp*sHost
	tStep = pp * (sStep + hop)
	return
}

// stage is one decode pass of B sequences at mean context ctx through
// frac of the layers: memory traffic (weights, the experts the tokens
// touch, the KV cache), GEMM work, the tensor-parallel all-reduces or
// expert all-to-all, and the engine's host overhead.
func (r replica) stage(B, ctx, frac float64) (tStep, tMem, tComp, tComm, tHost float64) {
	j, m := r.j, r.m
	tpF := float64(r.tp)
	L := float64(j.layers) * frac
	h := float64(j.hidden)
	seqs := B
	B *= float64(1 + j.draft) // every sequence verifies its drafts in the same pass
	touched := 0.0
	if j.experts > 0 {
		tokens := B
		touched = 1 - math.Pow(1-float64(j.active)/float64(j.experts), tokens)
	}
	var dense, experts, kv, flops, attn, combine, tExperts float64
	imb := 1.0
	if r.attnDP {
		bg := math.Ceil(B / tpF)
		imb = epImbalance(B*float64(j.active)/tpF, r.tp, j.experts, j.balanced)
		dense = j.denseBytes * frac
		experts = j.expertParams * touched * j.wBytes * r.expertSlots() * frac
		kv = math.Ceil(seqs/tpF) * ctx * r.kvPerTok * r.kvReads() // drafts share their sequence's read
		flops = 2 * (j.denseParams + j.head) * bg * frac
		attn = j.decAttn * L * ctx * bg
		// Dispatch and combine all-to-all per MoE layer, each a latency
		// and its bytes; the busiest GPU receives imb times the mean.
		perByte := j.moeLayers * frac * bg * float64(j.active) * h * imb / r.a2a
		combine = j.moeLayers*frac*r.arLat + combineBytes*perByte
		tComm = combine + j.moeLayers*frac*r.arLat + j.dispatchBytes()*perByte
	} else {
		dense = j.denseBytes / tpF * frac
		experts = j.expertParams * touched * j.wBytes / tpF * frac
		kv = seqs * ctx * r.kvPerTok * r.kvReads() // drafts share their sequence's read
		flops = 2 * (j.denseParams + j.head) * B / tpF * frac
		attn = j.decAttn * L * ctx * B / tpF
		if r.tp > 1 {
			tComm = 2 * L * (r.arLat + 2*(tpF-1)/tpF*B*h*2/r.intra)
		}
	}
	tMem = dense/r.bw + kv/(r.bw*m.KVDecodeBW) + experts/(r.bw*m.MoEDecodeBW)
	if r.offGB > 0 {
		// The offloaded weights stream in over the host link while the
		// rest streams from HBM: the slower stream sets the pace.
		tMem = math.Max(tMem, r.offloadS())
	}
	rows := B
	if r.attnDP {
		rows = math.Ceil(B / tpF) // each rank multiplies its own sequences
	}
	// Attention runs in the fused attention kernels at their own rate
	// (16-bit maths), not at the weights' GEMM rate. One-row GEMMs run
	// skinny (GEMV-like) kernels; from two rows on, the dense GEMMs run
	// at the architecture's decode share of the GEMM rate.
	share := 1.0
	if rows >= 2 {
		share = r.decodeShare
	}
	tComp = flops/(r.denseRate*tileEff(rows, r.gemmWidth())*share) + attn/r.decAttnRate
	if j.experts > 0 {
		// Grouped expert GEMMs see only the tokens routed to each expert.
		perExpert := math.Max(1, B*float64(j.active)/float64(j.experts))
		width := j.expertFFN
		if !r.attnDP {
			width /= tpF
		}
		tExperts = 2 * j.activeExpert * B / tpF * imb * frac / (r.rate * tileEff(perExpert, width) * m.MoEGrouped)
		tComp += tExperts
	}
	// Each attention data-parallel rank schedules and samples its own
	// sequences: the host work per step is one rank's share.
	perSeq := j.eng.PerSeqS * rows / float64(1+j.draft)
	tHost = j.eng.StepS + j.eng.LaunchPerLayerS*L
	// Every layer also leaves the GPU idle in the gaps and ramps of its
	// small kernels, which a graph replay shortens but does not remove:
	// GPU time, reported with the step's overhead.
	gaps := m.DecodeLayerS * L
	if j.experts > 0 {
		tHost += m.MoELayerS * j.moeLayers * frac
	}
	if j.draft > 0 {
		// The draft head is one more layer, run once per draft token.
		d := float64(j.draft) / math.Max(L, 1)
		tMem, tComp, tExperts = tMem*(1+d), tComp*(1+d), tExperts*(1+d)
	}
	core := math.Max(tMem, tComp) + m.DecodeOverlap*math.Min(tMem, tComp) + gaps
	if r.attnDP {
		switch j.overlap {
		case workload.OverlapTwoBatch:
			// Two micro-batches take turns: one's all-to-all runs under
			// the other's GEMMs, and only what the compute cannot cover
			// shows.
			tComm = math.Max(0, tComm-core)
		case workload.OverlapSingleBatch:
			// The same batch's shared experts run while the dispatch
			// arrives, and its down projection while the combine leaves
			// (DeepGEMM and DeepEP's single-batch overlap): each hides
			// only as much as that compute lasts.
			dispatch := tComm - combine
			tComm -= math.Min(dispatch, j.sharedShare*tExperts) + math.Min(combine, j.downShare*tExperts)
		}
	}
	switch gpu := core + tComm; {
	case !j.eng.OverlapHost:
		tHost += perSeq
	case perSeq > gpu:
		// The host prepares the next step while the GPU runs this one:
		// a step takes the longer of the two, here the host's.
		tHost += perSeq
		return tHost, tMem, tComp, tComm, tHost
	}
	tStep = core + tComm + tHost
	tHost += gaps
	return
}

// prefillCompute is the GPU time of prefilling one prompt of tokens: its
// GEMMs (at the efficiency of rows-row tiles), causal attention, the
// elementwise traffic overlapped with them, and the tensor-parallel
// all-reduces, each with latency arLat. With attention data parallel
// there is no all-reduce: each rank prefills its own prompts and sends
// their tokens to the experts and back (dispatch and combine per MoE
// layer); when alone, one rank prefills this prompt by itself (its
// attention and dense layers unshared), else the ranks prefill different
// prompts side by side and the time is the replica's share. local is the
// part that stays on the rank holding the prompt (attention data parallel
// only): its dense layers, attention and elementwise work, and sending its
// tokens to the experts and back; the experts' GEMMs spread over every
// rank.
func (r replica) prefillCompute(tokens, rows, arLat float64, alone bool) (t, local float64) {
	j, m := r.j, r.m
	tpF := float64(r.tp)
	L := float64(j.layers)
	h := float64(j.hidden)
	denseSplit := tpF // GPUs sharing the dense and attention work of one prompt
	if r.attnDP && alone {
		denseSplit = 1
	}
	dense := 2 * (j.denseParams + j.head) * tokens / (r.denseRate * m.sizeEff(rows, r.gemmWidth()))
	var experts float64
	if j.experts > 0 {
		// Grouped expert GEMMs see only the rows routed to each expert, as
		// in a decode step and in training; with experts split over the
		// GPUs the busiest one sets the pace.
		routed := rows * float64(j.active) // expert-token pairs of one chunk of rows
		width, imb := j.expertFFN, 1.0
		if r.attnDP {
			if !alone {
				routed *= tpF // every rank sends its own chunk
			}
			imb = epImbalance(routed/tpF, r.tp, j.experts, j.balanced)
		} else {
			width /= tpF
		}
		perExpert := math.Max(1, routed/float64(j.experts))
		experts = 2 * j.activeExpert * tokens / tpF * imb / (r.rate * m.sizeEff(perExpert, width) * m.MoEGrouped)
	}
	attn := 2 * L * j.qWidth * tokens * tokens / (r.attnRate * tokens / (tokens + 512))
	ew := m.EWPrefill * L * h * tokens / r.bw
	t = math.Max((dense+attn)/denseSplit+experts, ew/denseSplit)
	switch {
	case r.attnDP && r.tp > 1:
		a2a := j.moeLayers * (2*arLat + tokens*float64(j.active)*h*(j.dispatchBytes()+combineBytes)/r.a2a)
		local = math.Max(dense+attn, ew) + a2a
		if !alone {
			a2a /= tpF
		}
		t += a2a
	case r.tp > 1:
		t += 2 * L * (arLat + 2*(tpF-1)/tpF*tokens*h*2/r.intra)
	}
	return t, local
}

// prefillBatched is the time of one prompt's prefill when many are batched:
// engines gather prefill tokens into large chunks, weights are read once
// for the whole batch and the all-reduces are large enough to hide their
// latency.
func (r replica) prefillBatched(tokens float64) (t, local float64) {
	t, local = r.prefillCompute(tokens, math.Max(tokens, 2048), 0, false)
	if r.pp > 1 {
		// The stages prefill different prompts at once: the largest
		// stage, or its hop to the next node, sets the pace.
		t = math.Max(t*r.frac, tokens*float64(r.j.hidden)*2/float64(r.tp)/r.hopBW)
		local *= r.frac
	}
	return t, local
}

// joinWork is the time n prompts joining one step add to it. Prefilled
// side by side on a replica's GPUs, each costs its share of a batched
// prefill (pfWork). Attention data-parallel ranks run in lockstep, though:
// every MoE layer waits for the slowest rank, so a step lasts as long as
// the rank with the most prompts takes to prefill them, while the others
// idle (TensorRT-LLM tech blog 10: on 8 GB200 a rank prefilling while the
// others decode left the ranks' tokens at 54% of balance on average, and
// holding new requests until every rank had one gave 1.33 times the
// throughput). Prompts that join as a group (answers all as long) are
// dealt evenly, ceil(n/g) to the busiest rank; prompts that join at random
// land on ranks at random, and the busiest holds the largest of g Poisson
// counts. Engines that hold new requests until every rank has one
// (inference.admission_wait_steps) keep the ranks even: pfLocal is zero.
func (r replica) joinWork(n float64, random bool) float64 {
	w := n * r.pfWork
	if r.pfLocal <= 0 || n <= 0 {
		return w
	}
	g := float64(r.tp)
	most := math.Ceil(n/g - 1e-9)
	if random {
		most = maxPoisson(n/g, r.tp)
	}
	return w + math.Max(0, most-n/g)*r.pfLocal
}

// stepJoinWork is the prefill work a decode step of batch b carries in
// steady state: b·yield/output sequences finish each step and as many
// prompts join. They join at random when requests arrive at random or
// answers differ in length; when every answer is as long, a whole wave
// finishes and joins at once, dealt evenly over the ranks.
func (r replica) stepJoinWork(b float64) float64 {
	j := r.j
	n := b * j.yield / j.output
	if j.rps == nil && j.outputCV <= 0 {
		return n * r.pfWork
	}
	return r.joinWork(n, true)
}

// maxPoisson is the expected largest of g independent Poisson counts of
// mean mu: the sum over k >= 1 of P(max >= k) = 1 - F(k-1)^g. Past a mean
// of 200 the counts are near-normal, and the largest lies about
// sqrt(2 ln g) standard deviations above the mean (as epImbalance takes).
func maxPoisson(mu float64, g int) float64 {
	if mu <= 0 {
		return 0
	}
	if mu > 200 {
		return mu + math.Sqrt(2*math.Log(float64(g))*mu)
	}
	pk := math.Exp(-mu) // P(N = k), from k = 0
	cdf, sum := 0.0, 0.0
	for k := 1; ; k++ {
		cdf += pk
		tail := 1 - math.Pow(cdf, float64(g))
		sum += tail
		if tail < 1e-6 || k > 1000 {
			return sum
		}
		pk *= mu / float64(k)
	}
}

// prefillAlone is the latency of one prompt on its own: its work, at least one
// read of the weights, the all-reduce latencies and the engine's step.
func (r replica) prefillAlone(tokens float64) float64 {
	weights := math.Max(r.weightsGB*1e9/r.bw, r.offloadS())
	t, _ := r.prefillCompute(tokens, tokens, r.arLat, true)
	if r.pp > 1 {
		// One prompt passes the stages one after another, with a hop
		// between each.
		pp := float64(r.pp)
		t = t*r.frac*pp + (pp-1)*r.hop(tokens)
		weights *= pp
	}
	return math.Max(t, weights) + r.j.eng.StepS + r.j.eng.LaunchPerLayerS*float64(r.j.layers)
}

// steadyTokS is a replica's output tokens per second holding b sequences
// in continuous batching: each sequence costs its prefill once and then
// one decode step per token.
func (r replica) steadyTokS(b int) float64 {
	j := r.j
	if j.output == 0 {
		return j.prompt / r.pfWork // prompt tokens per second, prefills batched
	}
	ts, _, _, _, _ := r.step(b, r.ctx)
	ts /= j.yield // per token
	if j.decodeOnly {
		return float64(b) / ts // prompts arrive prefilled
	}
	return float64(b) / (ts + r.stepJoinWork(float64(b))/j.yield)
}

// latency is the time to first token and per output token at batch b.
func (r replica) latency(b int) (ttft, tpot float64) {
	j := r.j
	ts, _, _, _, _ := r.step(b, r.ctx)
	tpot = ts / j.yield
	if j.batching == workload.BatchingStatic {
		// A static batch prefills its prompts together and then decodes
		// with no prompt joining: the first token waits for the whole
		// batch's prefill, and no prefill interleaves with the steps.
		return r.prefillWave(float64(b)), tpot
	}
	ttft = r.pfAlone + float64(j.waitSteps)*ts // held back that many steps before its prefill
	if b > 1 && j.output > 0 && !j.decodeOnly {
		ttft += ts                                   // a new request waits for the step in flight
		tpot += r.stepJoinWork(float64(b)) / j.yield // other sequences' prefills interleave
	}
	return
}

// prefillWave is the time n prompts take prefilled together: their work,
// or one read of the weights when that is longer, and one engine step.
func (r replica) prefillWave(n float64) float64 {
	return math.Max(n*r.pfWork, r.weightsGB*1e9/r.bw) + r.j.eng.StepS
}

// staticTokS is the throughput of static batches of b requests: one
// batched prefill, then output decode steps with the context growing.
func (r replica) staticTokS(b int) (tokS, batchS float64) {
	j := r.j
	B := float64(b)
	prefill := r.prefillWave(B)
	// Decode time is linear in the context: the mean step is the step at the mean context.
	ts, _, _, _, _ := r.step(b, j.prompt+j.output/2)
	batchS = prefill + j.output/j.yield*ts
	if j.output == 0 {
		return B * j.prompt / prefill, prefill
	}
	return B * j.output / batchS, batchS
}

// inferEval is the outcome for one layout.
type inferEval struct {
	r                  replica
	lay                layout
	tp, replicas       int
	fits               bool
	bOp, bSLO          int
	tStep, tMem, tComp float64
	tComm, tHost       float64
	tPrefill           float64
	perReplicaTokS     float64 // at the operating point
	maxTokS            float64 // per replica, as fast as it goes
	load               float64
	sustainable        bool
	ttft, tpot         float64
	step1, stepMax     float64 // decode time per output token at batch 1 and at the largest batch
	prefillPerToken    float64
	makespanS          float64 // a burst's or static batch's wall time
}

func evalInference(m *Params, j *inferJob, c Cluster, f archFactors, lay layout) inferEval {
	lay.pp = max(1, lay.pp)
	r := newReplica(m, j, c, f, lay)
	e := inferEval{r: r, lay: lay, tp: lay.tp, replicas: c.GPUs / lay.gpus()}
	if !r.fits {
		return e
	}
	e.fits = true
	meets := func(b int) bool {
		ttft, tpot := r.latency(b)
		return (j.slo.TTFTMs == 0 || ttft*1000 <= j.slo.TTFTMs) && (j.slo.TPOTMs == 0 || tpot*1000 <= j.slo.TPOTMs)
	}
	for b := r.bMax; b >= 1; b = b * 7 / 8 {
		if meets(b) {
			e.bSLO = b
			break
		}
		if b == 1 {
			break
		}
	}
	e.bOp = r.bMax
	e.sustainable = true
	switch {
	case j.rps != nil:
		e.maxTokS = r.steadyTokS(r.bMax)
		lambda := *j.rps / float64(e.replicas)
		out := j.output
		need := lambda * j.tokensPerRequest()
		e.load = need / e.maxTokS
		e.sustainable = e.load <= 1
		// Little's law: the batch in flight is the arrival rate times the
		// time a request spends in the engine, which grows with the batch.
		inflight := func(b int) float64 {
			ttft, tpot := r.latency(b)
			return lambda * (ttft + out*tpot)
		}
		if e.sustainable {
			lo, hi := 1, r.bMax
			if inflight(lo) <= float64(lo) {
				hi = lo
			}
			for lo < hi {
				mid := (lo + hi) / 2
				if inflight(mid) <= float64(mid) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			e.bOp = hi
		}
		e.perReplicaTokS = math.Min(need, e.maxTokS)
	case j.batching == workload.BatchingStatic:
		e.maxTokS, e.makespanS = r.staticTokS(r.bMax)
		e.perReplicaTokS = e.maxTokS
	case j.batching == workload.BatchingBurst:
		n := int(math.Ceil(j.requests / float64(e.replicas)))
		e.makespanS, e.maxTokS = r.burst(n)
		e.perReplicaTokS = e.maxTokS
	case !noSLO(j.slo) && e.bSLO > 0:
		// A throughput job with a latency bound runs at the largest batch
		// that keeps it: the per-user speed caps the batch.
		e.bOp = e.bSLO
		e.maxTokS = r.steadyTokS(e.bSLO)
		e.perReplicaTokS = e.maxTokS
	default:
		e.maxTokS = r.steadyTokS(r.bMax)
		e.perReplicaTokS = e.maxTokS
	}
	e.step1, _, _, _, _ = r.step(1, r.ctx)
	e.stepMax, _, _, _, _ = r.step(r.bMax, r.ctx)
	e.step1, e.stepMax = e.step1/j.yield, e.stepMax/j.yield // per output token
	if j.prompt > 0 {
		e.prefillPerToken = r.pfWork / j.prompt
	}
	e.tStep, e.tMem, e.tComp, e.tComm, e.tHost = r.step(e.bOp, r.ctx)
	e.tPrefill = r.pfAlone
	e.ttft, e.tpot = r.latency(e.bOp)
	if j.maxBatch == 1 {
		e.ttft, e.tpot = e.tPrefill, e.step1
	}
	return e
}

func predictInference(m *Params, spec *workload.Spec, c Cluster, p *Prediction) error {
	j, err := newInferJob(spec, c.GPU, &p.Assumptions)
	if err != nil {
		return err
	}
	f := c.factors(m)
	if f.DecodeMatmul < 1 {
		p.Assumptions = append(p.Assumptions, msg.New("%s: decode GEMMs of two or more rows run the GEMM library's general kernels at %.2f of the large-GEMM rate (one row runs a skinny kernel at the full rate)", c.GPU.Architecture, f.DecodeMatmul))
	}
	if spec.Parallelism.PrefillGPUs > 0 {
		return predictDisaggregated(m, spec.Parallelism, &j, c, f, p)
	}
	best, found := searchServing(m, &j, c, f, spec.Parallelism, p)
	if !found {
		return nil
	}
	fillInference(&j, best, c, p)
	return nil
}

// searchServing finds the best layout of j's replicas on c within what par
// states. When nothing fits it fills p with the reason (notFitting) and
// reports false. It lowers p's confidence where the layout rests on terms
// no measurement calibrates.
func searchServing(m *Params, j *inferJob, c Cluster, f archFactors, par workload.Parallelism, p *Prediction) (inferEval, bool) {
	var best, leanest inferEval
	found := false
	var tps []int
	for tp := 1; tp <= min(c.GPUs, max(c.GPUsPerNode, 1)); tp *= 2 {
		if c.GPUs%tp == 0 && (j.heads == 0 || j.heads%tp == 0) {
			tps = append(tps, tp)
		}
	}
	switch {
	case par.Tensor > 0:
		tps = []int{par.Tensor}
	case par.Expert > 0:
		tps = []int{par.Expert}
	case par.Data > 0 && c.GPUs%par.Data == 0:
		tps = []int{c.GPUs / par.Data} // data = replicas: the rest of the GPUs go to each replica
	}
	if par.Data > 0 && len(tps) == 1 && par.Data*tps[0] != c.GPUs {
		p.Assumptions = append(p.Assumptions, msg.New("parallelism.data %d x %d GPUs per replica is not the cluster's %d GPUs: the cluster holds %d replicas", par.Data, tps[0], c.GPUs, c.GPUs/max(1, tps[0])))
	}
	lays := make([]layout, 0, len(tps))
	for _, tp := range tps {
		lays = append(lays, layout{tp: tp, pp: 1})
	}
	if par.Pipeline > 1 {
		tp := par.Tensor
		if tp == 0 {
			tp = max(1, min(c.GPUsPerNode, c.GPUs/par.Pipeline))
		}
		lays = []layout{{tp: tp, pp: par.Pipeline}}
	}
	if par.Context > 1 {
		p.Assumptions = append(p.Assumptions, msg.New("parallelism.context is not modelled for serving: each replica is predicted with tensor, pipeline and expert parallelism only"))
		p.Confidence = lowerConfidence(p.Confidence)
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
	try := func(lays []layout) {
		for _, lay := range lays {
			if c.GPUs%lay.gpus() != 0 {
				continue
			}
			e := evalInference(m, j, c, f, lay)
			if !e.fits {
				if leanest.tp == 0 || e.r.weightsGB < leanest.r.weightsGB {
					leanest = e
				}
				continue
			}
			if !found || better(e, best) {
				best, found = e, true
			}
		}
	}
	try(lays)
	given := par.Tensor > 0 || par.Expert > 0 || par.Pipeline > 1 || par.Data > 0
	if found && !given && j.experts > 0 && c.GPUs > c.GPUsPerNode {
		// An MoE model on several nodes: experts split over them (wide
		// expert parallel) compete with the replicas that fit a node.
		var wide []layout
		for _, l := range spanLayouts(j, c) {
			if l.ep {
				wide = append(wide, l)
			}
		}
		try(wide)
	}
	if !found && !given && c.GPUs > c.GPUsPerNode {
		// The model does not fit one node: a replica spans several. The
		// reason it does not fit at all stays the one node's.
		inNode := leanest
		try(spanLayouts(j, c))
		leanest = inNode
	}
	if !found {
		if leanest.tp == 0 {
			leanest = evalInference(m, j, c, f, lays[0])
		}
		notFitting(j, leanest, c, p)
		return best, false
	}
	if best.r.nodes() > 1 {
		p.Confidence = lowerConfidence(p.Confidence) // the fabric's terms are not calibrated against measurements
	}
	if !j.eng.Outside.IsZero() {
		p.Confidence = lowerConfidence(p.Confidence)
	}
	return best, true
}

// spanLayouts are the layouts of a replica over more than one node of c:
// one tensor-parallel group over a whole NVLink domain that spans nodes
// (GB200 NVL72); pipeline stages over nodes with tensor parallel inside
// each; and for an MoE, experts split over the GPUs of several nodes
// (attention data parallel) with their all-to-all over the fabric.
func spanLayouts(j *inferJob, c Cluster) []layout {
	var out []layout
	per := max(1, c.GPUsPerNode)
	dom := c.fastDomain()
	headsDivide := func(tp int) bool { return j.heads == 0 || j.heads%tp == 0 }
	for tp := 2 * per; tp <= dom; tp *= 2 {
		if headsDivide(tp) {
			out = append(out, layout{tp: tp, pp: 1})
		}
	}
	tp := 1
	for tp*2 <= per && headsDivide(tp*2) {
		tp *= 2
	}
	for pp := 2; tp*pp <= c.GPUs && pp <= j.layers; pp *= 2 {
		out = append(out, layout{tp: tp, pp: pp})
	}
	if j.experts > 0 {
		whole := false
		for ep := 2 * per; ep <= c.GPUs && ep <= j.experts; ep *= 2 {
			out = append(out, layout{tp: ep, pp: 1, ep: true})
			whole = whole || ep == c.GPUs
		}
		if !whole && c.GPUs > per && c.GPUs <= j.experts {
			// Experts over every GPU of the cluster, however many: the
			// spare expert slots hold redundant copies (EPLB).
			out = append(out, layout{tp: c.GPUs, pp: 1, ep: true})
		}
	}
	return out
}

// nodes is how many nodes one replica spans.
func (r replica) nodes() int {
	return (r.tp*r.pp + max(1, r.c.GPUsPerNode) - 1) / max(1, r.c.GPUsPerNode)
}

func notFitting(j *inferJob, e inferEval, c Cluster, p *Prediction) {
	r := e.r
	p.Fits = false
	p.Bottleneck = MemoryCapacity
	need := r.weightsGB + runtimeGB + workspaceGB + r.kvGBPerSeq
	p.MemoryPerGPUGB = round(need, 1)
	if g := e.lay.gpus(); g > c.GPUs || c.GPUs%max(1, g) != 0 {
		p.Reason = msg.New("the parallelism block asks for %d GPUs per replica, but the cluster has %d", g, c.GPUs)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("use a multiple of that many GPUs, or change parallelism.tensor")
		p.TTFTMs, p.TPOTMs = nil, nil
		return
	}
	p.Reason = msg.New("the weights alone take %.0f GB per GPU at tensor parallelism %d, with room for no sequence in %.0f GB (%.0f%% usable)",
		r.weightsGB, e.tp, r.capGB, j.eng.MemShare*100)
	p.Verdict = p.Reason.Stop()
	var hints []msg.Msg
	if need2 := j.ckptBytes / 1e9 / (r.capGB * 0.7); need2 > float64(c.GPUs) {
		hints = append(hints, msg.New("about %d GPUs of this kind would hold it", int(math.Ceil(need2))))
	}
	if j.wBytes > 1 {
		hints = append(hints, msg.New("fp8 or int4 weights halve or quarter the weight memory"))
	}
	hints = append(hints, msg.New("a GPU with more memory"))
	p.Fix = joinHints(hints)
	p.TTFTMs, p.TPOTMs = nil, nil
}

func fillInference(j *inferJob, e inferEval, c Cluster, p *Prediction) {
	r := e.r
	p.Fits = true
	p.Parallelism = Parallelism{Data: e.replicas, Tensor: e.tp, Pipeline: r.pp, Replicas: e.replicas}
	if n := r.nodes(); n > 1 {
		p.Parallelism.NodesPerReplica = n
	}
	if r.attnDP {
		p.Parallelism.Expert = e.tp
	}
	unit := "tokens/s"
	if j.output == 0 {
		unit = "prompt tokens/s"
	}
	total := e.perReplicaTokS * float64(e.replicas)
	p.Throughput = Quantity{Value: total, Unit: unit}
	p.StepTimeS = round(e.tStep, 5)
	p.TTFTMs = ptr(round(e.ttft*1000, 1))
	p.TPOTMs = ptr(round(e.tpot*1000, 2))
	kvGB := r.kvGBPerSeq * float64(e.bOp)
	if r.attnDP {
		kvGB /= float64(e.tp)
	}
	p.Memory = roundMemory(Memory{WeightsGB: r.weightsGB, KVCacheGB: kvGB, OverheadGB: runtimeGB + workspaceGB,
		TotalGB: r.weightsGB + kvGB + runtimeGB + workspaceGB, CapacityGB: r.capGB})
	p.MemoryPerGPUGB = p.Memory.TotalGB
	p.Efficiency = round(c.factors(r.m).Matmul*j.eng.Kernel, 3)
	flopsPerTok := 2 * (j.denseParams + j.head + j.activeExpert)
	// Tokens through the model per second: every prompt and output token
	// of the requests served. total counts output tokens, or prompt tokens
	// when nothing is generated.
	tokensPerS := total
	if j.output > 0 {
		tokensPerS = total * (j.prompt + j.output) / j.output
	}
	p.MFU = round(math.Min(1, flopsPerTok*tokensPerS/(float64(c.GPUs)*peakNominal(c.GPU, j.dt))), 3)
	p.Breakdown = Breakdown{ComputeS: round(e.tComp, 5), MemoryS: round(e.tMem, 5), CommExposedS: round(e.tComm, 5),
		CommTotalS: round(e.tComm, 5), OverheadS: round(e.tHost, 5)}
	if j.output == 0 {
		// Nothing is decoded: the step is one prompt's share of a batched
		// prefill, and the weights are read once per batch.
		work := r.pfWork
		p.TPOTMs = nil
		if j.rps == nil {
			p.TTFTMs = nil // an offline batch: no one waits for a first token
		}
		p.StepTimeS = round(work, 6)
		p.Breakdown = Breakdown{ComputeS: round(work, 6), MemoryS: round(r.weightsGB*1e9/r.bw/float64(max(e.bOp, 1)), 6)}
	}
	if e.tp > 1 {
		p.Breakdown.CommLink = "intra-node " + c.LinkKind
	}
	if r.nodes() > 1 && (r.pp > 1 || e.tp > c.fastDomain()) {
		p.Breakdown.CommLink = "inter-node " + c.FabricKind
		if c.FabricGbps <= 0 {
			p.Breakdown.CommLink = "inter-node ethernet"
		}
	}
	s := &Serving{Batch: e.bOp, MaxBatchMemory: r.bMem, MaxBatchSLO: e.bSLO, PrefillMs: round(e.tPrefill*1000, 1),
		OfflineTokensS: round(e.maxTokS*float64(e.replicas), 1), Batching: string(j.batching), Engine: string(j.eng.Framework) + " " + j.eng.Version}
	s.RequestsPerS = round(e.maxTokS*float64(e.replicas)/j.tokensPerRequest(), 2)
	p.Utilization = 1
	switch {
	case j.rps != nil:
		s.Load = round(e.load, 3)
		s.Sustainable = &e.sustainable
		p.Utilization = round(math.Min(1, e.load), 3)
		perReplica := e.maxTokS
		if e.bSLO > 0 {
			perReplica = r.steadyTokS(e.bSLO)
		}
		if perReplica > 0 {
			s.ReplicasNeeded = int(math.Ceil(*j.rps * j.tokensPerRequest() / perReplica))
		}
	case j.batching == workload.BatchingBurst:
		p.DurationHours = ptr(e.makespanS / 3600)
		s.MakespanS = round(e.makespanS, 2)
	case j.requests > 0:
		p.DurationHours = ptr(j.requests * j.tokensPerRequest() / total / 3600)
	}
	p.Serving = s
	p.Assumptions = append(p.Assumptions, msg.New("layout: %d replica(s) of tensor parallelism %d; operating batch %d sequences per replica (memory holds %d)", e.replicas, e.tp, e.bOp, r.bMem))
	if j.attnDP {
		p.Assumptions = append(p.Assumptions, msg.New("attention data-parallel with experts split over %d GPUs (parallelism.expert): each GPU keeps whole sequences and all attention weights", e.tp))
	}
	if r.attnDP {
		switch j.overlap {
		case workload.OverlapTwoBatch:
			p.Assumptions = append(p.Assumptions, msg.New("a decode step runs as micro-batches whose expert all-to-all overlaps another's compute (parallelism.expert_overlap): only what the compute cannot cover shows"))
		case workload.OverlapSingleBatch:
			p.Assumptions = append(p.Assumptions, msg.New("single-batch overlap (parallelism.expert_overlap): the expert dispatch arrives under the shared experts and the combine leaves under the experts' down projection; what they cannot cover shows"))
		default:
			p.Assumptions = append(p.Assumptions, msg.New("a decode step waits for its expert all-to-all: no micro-batch overlap (parallelism.expert_overlap)"))
		}
	}
	if j.attnFP8 {
		p.Assumptions = append(p.Assumptions, msg.New("decode attention runs its maths in fp8 over the fp8 KV cache (inference.attention_precision): %.0f TFLOPS per GPU instead of %.0f in 16 bits", r.decAttnRate/1e12, r.attnRate/1e12))
	}
	if r.pfLocal > 0 && j.output > 0 {
		n := float64(e.bOp) * j.yield / j.output
		if stall := r.stepJoinWork(float64(e.bOp)) - n*r.pfWork; stall > 0 {
			p.Assumptions = append(p.Assumptions, msg.New("attention data-parallel ranks prefill out of step: of the %.2f prompts joining a step, the busiest of %d ranks takes %.2f on average (%.2f if dealt evenly) and every rank waits for it, %.1f ms more a step; holding new requests until every rank has one (inference.admission_wait_steps) keeps them in step", n, e.tp, maxPoisson(n/float64(e.tp), e.tp), n/float64(e.tp), stall*1000))
		}
	}
	if r.attnDP && staticExperts(e.tp, j.experts, j.balanced) {
		p.Assumptions = append(p.Assumptions, msg.New("experts placed statically (parallelism.expert_balancing not set): each layer's busiest GPU gets %.2f times the mean routed tokens at a routing skew of %.2f (DeepSeek-R1's without load balancing, TensorRT-LLM tech blog 4)", epImbalance(float64(e.bOp*j.active)/float64(e.tp), e.tp, j.experts, false), expertLoadCV))
	}
	if n := r.nodes(); n > 1 {
		p.Assumptions = append(p.Assumptions, spanNote(r, c))
	}
	if r.offGB > 0 {
		_, link := hostLink(c.GPU)
		p.Assumptions = append(p.Assumptions, msg.New("%.1f GB of weights per GPU live in host memory (inference.offload_gb) and stream in over %s at %.0f GB/s: %.1f ms per decode step, beside the weights read from GPU memory", r.offGB, link, r.hostBW/1e9, r.offloadS()*1000))
	}
	if j.rps != nil {
		p.Assumptions = append(p.Assumptions, msg.New("under load the batch in flight is the arrival rate times each request's time in the engine (Little's law)"))
	}
	if j.waitSteps > 0 {
		p.Assumptions = append(p.Assumptions, msg.New("a new request waits %d decode steps before its prefill is scheduled (inference.admission_wait_steps): %.0f ms of its time to first token", j.waitSteps, float64(j.waitSteps)*e.tStep*1000))
	}
	if j.batching == workload.BatchingBurst {
		p.Assumptions = append(p.Assumptions, msg.New("burst of %.0f requests at once: the makespan of a prefill wave, full-batch decode and the tail of the longest answers (output length CV %.2g)", j.requests, j.outputCV))
	}
	p.Bottleneck, p.Verdict, p.Fix = inferVerdict(j, e, s.ReplicasNeeded)
	if j.rps != nil && !e.sustainable && c.Offer != "" && c.GPUsPerNode > 0 {
		// On an offer, GPUs come in whole instances: say the fleet that
		// recommend and cost would price.
		need := max(s.ReplicasNeeded, int(math.Ceil(e.load*float64(e.replicas))))
		if n := r.nodes(); n > 1 {
			p.Fix = msg.New("%s; on whole instances of %s: %d instance(s), %d GPUs, %d replicas", p.Fix, c.Offer, need*n, need*n*c.GPUsPerNode, need)
		} else {
			perInstance := max(1, c.GPUsPerNode/e.tp)
			inst := (need + perInstance - 1) / perInstance
			p.Fix = msg.New("%s; on whole instances of %s: %d instance(s), %d GPUs, %d replicas", p.Fix, c.Offer, inst, inst*c.GPUsPerNode, inst*perInstance)
		}
	}
}

// fabricName names the link between c's nodes: its fabric, or the
// front-end network when it has none.
func fabricName(c Cluster) string {
	if c.FabricGbps <= 0 || c.FabricKind == "" {
		return "Ethernet"
	}
	return FabricName(c.FabricKind)
}

// FabricName is how a catalog's fabric kind is written in a sentence.
func FabricName(kind string) string {
	switch kind {
	case "infiniband":
		return "InfiniBand"
	case "roce":
		return "RoCE"
	case "efa":
		return "EFA"
	case "gpudirect-tcpx":
		return "GPUDirect-TCPX"
	case "ethernet", "":
		return "Ethernet"
	}
	return kind
}

// spanNote says how a replica that spans nodes is laid out and what its
// step pays for the links between them.
func spanNote(r replica, c Cluster) msg.Msg {
	n := r.nodes()
	switch {
	case r.pp > 1:
		return msg.New("a replica spans %d nodes: tensor parallelism %d inside each node and %d pipeline stages of at most %d of the %d layers; each decode step runs %d micro-batches through every stage, with a hop of %.0f µs plus the activations at %.1f GB/s per GPU over %s between stages",
			n, r.tp, r.pp, int(math.Round(r.frac*float64(r.j.layers))), r.j.layers, r.pp, r.hopLat*1e6, r.hopBW/1e9, fabricName(c))
	case r.tp > c.fastDomain():
		return msg.New("a replica spans %d nodes: experts split over %d GPUs with attention data-parallel; the experts' all-to-all runs at %.1f GB/s per GPU, part over %s", n, r.tp, r.a2a/1e9, fabricName(c))
	}
	return msg.New("a replica spans %d nodes of one NVLink domain of %d GPUs: tensor parallelism %d over NVLink, no fabric in the step", n, c.GPU.NVLinkDomain, r.tp)
}

// tokensPerRequest is what one request adds to the throughput's count:
// its output tokens, or its prompt tokens when nothing is generated
// (embedding, scoring).
func (j *inferJob) tokensPerRequest() float64 {
	if j.output == 0 {
		return j.prompt
	}
	return j.output
}

func noSLO(s workload.SLO) bool { return s.TTFTMs == 0 && s.TPOTMs == 0 }

// inferVerdict names the largest term of the operating point's decode step.
func inferVerdict(j *inferJob, e inferEval, replicasNeeded int) (string, msg.Msg, msg.Msg) {
	if j.rps != nil && !e.sustainable {
		// The same count the serving figures give (within the SLO where
		// there is one), not a second estimate from the load alone.
		need := max(replicasNeeded, int(math.Ceil(e.load*float64(e.replicas))))
		return Compute, msg.New("%.0f requests/s need %.0f%% of what this cluster can serve: queues grow without bound.", *j.rps, e.load*100),
			msg.New("about %d replicas of tensor parallelism %d (%d GPUs) would keep up", need, e.tp, need*e.tp)
	}
	if j.output == 0 {
		return Compute, msg.New("prefill only (embedding or scoring): %.2f ms of batched compute per %.0f-token prompt (%.1f ms for one prompt alone).", e.r.pfWork*1000, j.prompt, e.tPrefill*1000),
			msg.New("more FLOPS (or fp8 maths) would raise throughput; memory bandwidth matters little here")
	}
	if !noSLO(j.slo) && e.bSLO == 0 {
		return Compute, msg.New("no batch size meets the SLO: a single request already takes %.0f ms to its first token and %.1f ms per token.", e.ttft*1000, e.tpot*1000),
			msg.New("more tensor parallelism, faster GPUs, or lower-precision weights would shorten each step")
	}
	r := e.r
	terms := map[string]float64{MemoryBandwidth: e.tMem, Compute: e.tComp, Interconnect: e.tComm, CPU: e.tHost}
	top := Compute
	for _, k := range []string{MemoryBandwidth, Interconnect, CPU} {
		if terms[k] > terms[top] {
			top = k
		}
	}
	switch top {
	case Interconnect:
		return Interconnect, msg.New("GPU-to-GPU collectives take %.0f%% of each decode step.", 100*e.tComm/e.tStep),
			msg.New("fewer GPUs per replica (more replicas) or a faster GPU link would help")
	case CPU:
		what := msg.New("the engine's per-step overhead (scheduling, sampling, kernel launch gaps) takes %.1f ms of each %.1f ms decode step.", e.tHost*1000, e.tStep*1000)
		if e.tHost >= e.tStep*0.999 {
			what = msg.New("the engine's host work (scheduling, sampling) takes %.1f ms of each %.1f ms decode step.", e.tHost*1000, e.tStep*1000)
		}
		return CPU, what,
			msg.New("an engine with a lighter scheduler (CUDA graphs, asynchronous scheduling) or larger batches would amortise it")
	case MemoryBandwidth:
		if r.offGB > 0 && r.offloadS() >= e.tMem*0.999 {
			_, link := hostLink(r.c.GPU)
			return Interconnect, msg.New("weights offloaded to host memory stream in over %s at every step: %.1f ms of each %.1f ms decode step.", link, r.offloadS()*1000, e.tStep*1000),
				msg.New("a GPU with more memory, more GPUs per replica, or quantised weights would keep the weights in GPU memory")
		}
		if e.bOp == r.bMem && r.bMem < j.eng.MaxBatch && (j.maxBatch == 0 || r.bMem < j.maxBatch) {
			return MemoryCapacity, msg.New("the KV cache limits the batch to %d sequences, so decode stays bound by memory bandwidth.", r.bMem),
				msg.New("more GPU memory per replica, an fp8 KV cache, or quantised weights would allow larger batches and more throughput")
		}
		return MemoryBandwidth, msg.New("decode reads weights and KV cache at each step: %.1f ms of memory traffic against %.1f ms of maths.", e.tMem*1000, e.tComp*1000),
			msg.New("larger batches (when the SLO allows), quantised weights or a GPU with more memory bandwidth would raise throughput")
	}
	return Compute, msg.New("compute-bound at batch %d: %.1f ms of maths per step against %.1f ms of memory traffic.", e.bOp, e.tComp*1000, e.tMem*1000), msg.Msg{}
}

// ServingCurve is one replica's continuous-batching behaviour, for the
// autoscaling simulator: a decode step takes about StepBaseS +
// StepPerSeqS·batch seconds (fitted between batch 1 and MaxBatch), and
// prefill costs PrefillSPerToken seconds per prompt token.
type ServingCurve struct {
	TensorParallel   int     // GPUs per replica
	ReplicasPerNode  int     // replicas the cluster holds (one instance, unless a replica spans several)
	NodesPerReplica  int     // instances one replica spans (1: it fits one)
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
	var notes []msg.Msg
	m := defaultParams
	j, err := newInferJob(spec, c.GPU, &notes)
	if err != nil {
		return ServingCurve{}, p, err
	}
	j.rps = nil
	j.batching = workload.BatchingContinuous
	pl := p.Parallelism
	lay := layout{tp: pl.Tensor, pp: max(1, pl.Pipeline), ep: pl.Expert > 1}
	e := evalInference(m, &j, c, c.factors(m), lay)
	sc := ServingCurve{TensorParallel: lay.gpus(), ReplicasPerNode: e.replicas, NodesPerReplica: max(1, pl.NodesPerReplica), MaxBatch: e.r.bMax, PrefillSPerToken: e.prefillPerToken}
	if e.r.bMax > 1 {
		sc.StepPerSeqS = (e.stepMax - e.step1) / float64(e.r.bMax-1)
	}
	sc.StepBaseS = e.step1 - sc.StepPerSeqS
	return sc, p, nil
}
