package perf

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Training state sizes, bytes per parameter: the trained weights'
// (workload.Training.StateBytes) and the frozen 16-bit or 4-bit weights
// of adapter fine-tuning.
const (
	bytesWeight16 = 2.0
	bytesQLoRA    = 0.5625 // 4-bit NF4 weights plus one fp32 scale per 64 (with double quantisation)
	runtimeGB     = 1.5    // CUDA context, NCCL buffers, allocator slack
	fragmentation = 0.05   // share of the rest lost to fragmentation
	// castBytesFP8 is the traffic of quantising one linear-layer input or
	// output gradient to fp8 (read 2 bytes, write 1, amax), forward and
	// backward; castBytesFP4 adds NVFP4's block scales.
	castBytesFP8 = 6.0
	castBytesFP4 = 8.0
	// flashBwdPasses is FlashAttention's backward work in forward passes
	// (five matmuls against two, with the scores recomputed).
	flashBwdPasses = 2.5
	// flashBwdEff is the backward kernels' FLOP rate relative to the
	// forward's: on H100 at head width 128 and 16k tokens FlashAttention-2,
	// cuDNN and FlashAttention-3 run their backward at 322, 516 and 561
	// TFLOP/s against 370, 595 and 648 forward, 0.87 each (Shah et al.
	// 2024, arXiv:2407.08608, figures 5 and 6).
	flashBwdEff = 0.87
	// dualPipeCommSMs is the share of a GPU's streaming multiprocessors
	// that DualPipe's communication kernels keep while they run beside
	// the compute: 20 of an H800's 132 (DeepSeek-V3 report, section 3.2.2).
	dualPipeCommSMs = 20.0 / 132
)

// Sharding of training state over data-parallel ranks.
const (
	shardNone  = "none"
	shardZero1 = "zero1" // optimizer states (Megatron's distributed optimizer, ZeRO-1)
	shardZero2 = "zero2" // optimizer states and gradients (ZeRO-2)
	shardFSDP  = "fsdp"  // everything (FSDP FULL_SHARD, ZeRO-3)
	shardHSDP  = "hsdp"  // everything within a node, replicated across nodes (HYBRID_SHARD)
)

// hsdpGroup is the data-parallel ranks an HSDP shard group spans: those of
// one node (at least one, at most dp).
func hsdpGroup(c Cluster, cfg trainConfig) float64 {
	per := max(1, c.GPUsPerNode/max(1, cfg.tp*cfg.cp*cfg.pp))
	if c.Nodes <= 1 {
		per = cfg.dp
	}
	return float64(max(1, min(cfg.dp, per)))
}

// trainJob is the workload reduced to the numbers the model needs.
// Parameter counts are per token over all layers unless named otherwise.
type trainJob struct {
	method         workload.Method
	n              float64 // total parameters
	denseParams    float64 // attention, dense MLPs, shared experts and routers, all layers
	expertParams   float64 // every routed expert of every layer
	activeExpert   float64 // routed expert parameters one token passes through
	embedParams    float64 // one V×h matrix
	tied           bool
	layers, hidden int
	heads, kvHeads int
	qWidth, kvW    float64
	vocab          int
	ffnTouched     float64 // MLP inner width a token passes through, averaged over layers
	gated          bool
	expertFFN      float64
	experts        int
	active         int
	groups, routed int // group-limited routing: a token's experts from at most routed of groups groups
	moeLayers      float64
	seq            int
	globalBatch    int
	loraParams     float64
	// stateW, stateG and stateO are the bytes per trained parameter of
	// the weights, gradients and optimizer state (Training.StateBytes).
	stateW, stateG, stateO float64
	dt, attnDT             catalog.DataType
	stack                  trainStack
	fused                  bool
	framework              workload.Framework
	tokens                 float64
	fixed                  workload.Parallelism
	recompute              workload.Checkpointing
}

// trainConfig is one parallel layout the search evaluates.
type trainConfig struct {
	tp, pp, vp, dp, cp, ep, micro, accum int
	shard                                string
	rc                                   workload.Checkpointing
	dualPipe                             bool // DeepSeek-V3's DualPipe schedule (parallelism.schedule)
}

type trainEval struct {
	cfg                    trainConfig
	mem                    Memory
	fits                   bool
	stepS                  float64
	computeS, commExposedS float64
	commTotalS, bubbleS    float64
	imbalanceS             float64
	link                   string
	modelFLOPsPerToken     float64
	matmulEff              float64
	// copies and perExpert are the copies of a token that cross the
	// fabric in one dispatch under DualPipe's node-deduplicating kernels,
	// and what an all-to-all of one copy per expert would send (0: none).
	copies, perExpert float64
}

func newTrainJob(spec *workload.Spec, a *catalog.Accelerator, notes *[]msg.Msg) (trainJob, error) {
	m, tr := spec.Model, spec.Training
	if m == nil || tr == nil || m.Layers == 0 || m.Hidden == 0 {
		return trainJob{}, fmt.Errorf("perf: %s needs a transformer model with layers and hidden", spec.Kind)
	}
	j := trainJob{
		method: tr.Method, n: m.ParamsB * 1e9, layers: m.Layers, hidden: m.Hidden, heads: m.Heads, kvHeads: m.KVHeads,
		vocab: m.Vocab, seq: tr.SeqLen, globalBatch: tr.GlobalBatch, experts: m.Experts, active: m.ActiveExperts,
		groups: m.ExpertGroups, routed: m.RoutedGroups,
		framework: spec.Stack.Framework, tokens: tr.Tokens, fixed: spec.Parallelism, recompute: tr.ActivationCheckpointing,
		tied: m.TiedEmbeddings != nil && *m.TiedEmbeddings, gated: m.GatedMLP == nil || *m.GatedMLP,
	}
	if j.kvHeads == 0 {
		j.kvHeads = j.heads
	}
	hd := float64(m.EffectiveHeadDim())
	j.qWidth = float64(j.heads) * hd
	j.kvW = float64(j.kvHeads) * hd
	h := float64(m.Hidden)
	j.embedParams = float64(m.Vocab) * h
	emb := j.embedParams
	if !j.tied {
		emb *= 2
	}
	ffn := float64(m.FFNHidden)
	if ffn == 0 {
		ffn = 4 * h
	}
	j.ffnTouched = ffn
	if m.IsMoE() {
		active := m.ActiveParamsB() * 1e9
		j.expertParams = (j.n - active) * float64(m.Experts) / float64(max(1, m.Experts-m.ActiveExperts))
		j.activeExpert = j.expertParams * float64(m.ActiveExperts) / float64(m.Experts)
		j.expertFFN = ffn
		dense := float64(max(0, min(m.DenseLayers, m.Layers)))
		j.moeLayers = float64(m.Layers) - dense
		dffn := float64(m.DenseFFNHidden)
		if dffn == 0 {
			dffn = ffn
		}
		j.ffnTouched = (j.moeLayers*float64(m.ActiveExperts+m.SharedExperts)*ffn + dense*dffn) / float64(m.Layers)
	}
	j.denseParams = math.Max(0, j.n-emb-j.expertParams)
	if tr.Method != workload.MethodFull {
		r := tr.LoRARank
		if r == 0 {
			r = 16
		}
		// Adapters on every linear layer: rank·(in+out) each.
		perLayer := float64(r) * (2*(h+j.qWidth) + 2*(h+j.kvW) + 3*(h+j.ffnTouched))
		j.loraParams = perLayer * float64(m.Layers)
	}
	j.stateW, j.stateG, j.stateO = tr.StateBytes()
	var fell bool
	j.dt, fell = dataTypeFor(a, tr.Precision)
	if fell {
		*notes = append(*notes, msg.New("%s has no %s path: predicted in %s (training.precision)", a.ID, tr.Precision, j.dt))
	}
	j.attnDT = j.dt
	if j.dt == catalog.FP8 || j.dt == catalog.FP4 {
		// Low-precision training casts the blocks' linear layers;
		// attention and the output head stay in bf16 (Megatron's output
		// layer is not a Transformer Engine module; torchtitan's float8
		// conversion skips "output").
		j.attnDT, _ = dataTypeFor(a, workload.BF16)
	}
	j.stack, j.fused = trainStackFor(spec.Stack)
	attn := "FlashAttention-2-class attention"
	if j.stack.NativeAttn {
		attn = "the architecture's best fused attention (cuDNN / FlashAttention-3 class)"
	}
	fusion := "eager elementwise kernels"
	if j.fused {
		fusion = "fused elementwise kernels"
	}
	*notes = append(*notes, msg.New("software stack %s: %s, %s, %.2fx the scheduling speed of tuned Megatron-Core (%s)",
		j.framework, attn, fusion, j.stack.Speed, j.stack.Note))
	return j, nil
}

// linearMult is the number of forward-pass equivalents a linear layer
// costs per step: 3 when its weights train, 2 when they are frozen
// (activation gradients only), plus one forward when recomputed.
func (j *trainJob) linearMult(rc workload.Checkpointing) float64 {
	mult := 3.0
	if j.method != workload.MethodFull {
		mult = 2
	}
	if rc == workload.CheckpointFull {
		mult++
	}
	return mult
}

// modelFLOPsPerToken is the conventional model FLOP count per token (as
// MFU is published): 6 FLOP per parameter a token passes through (4 for
// frozen weights, plus 6 per adapter parameter), the output head, and
// 12·layers·seq·query width for attention (no causal discount).
func (j *trainJob) modelFLOPsPerToken() float64 {
	p := j.denseParams + j.activeExpert + j.embedParams // the input embedding is a lookup; the head a matmul
	lin := 6 * p
	if j.method != workload.MethodFull {
		lin = 4*p + 6*j.loraParams
	}
	return lin + 12*float64(j.layers)*float64(j.seq)*j.qWidth
}

// activationBytes per layer per token (one micro-batch), before splitting
// over tensor and context parallelism (Korthikanti et al. 2022, with fused
// attention and no dropout; the MLP at the width a token passes through).
func (j *trainJob) activationBytes(rc workload.Checkpointing) float64 {
	h := j.hidden
	hf := float64(h)
	kv := j.kvW / hf
	q := j.qWidth / hf
	fh := j.ffnTouched / hf
	mlp, mlpKeep := 2+4*fh, 2*fh+2
	if j.gated {
		mlp, mlpKeep = 2+6*fh, 4*fh+2 // gate, up and their product
	}
	attn := 2 + 4*q + 4*kv // norm out, Q, K, V and the attention output
	switch rc {
	case workload.CheckpointFull:
		return 2 * hf
	case workload.CheckpointSelective:
		return hf * (4 + 2*q + 4*kv + mlpKeep)
	}
	return hf * (4 + attn + mlp)
}

// layerSplit returns the most work one pipeline device does per
// micro-batch when L layers of tLayer seconds are split in whole layers
// over pp devices, the first also running the embedding (tFirst) and the
// last the output head and loss (tLast): the split published recipes use
// (uneven first and last stages) to balance them.
func layerSplit(L, pp int, tLayer, tFirst, tLast float64) float64 {
	if pp <= 1 {
		return float64(L)*tLayer + tFirst + tLast
	}
	if tLayer <= 0 {
		return math.Max(tFirst, tLast)
	}
	// layers(limit) is how many whole layers fit under limit on every
	// device; the answer is the smallest limit that holds all L. Start at
	// the even share and step to the next limit at which some device
	// takes one more layer.
	fit := func(limit, extra float64) float64 { return math.Floor((limit - extra) / tLayer * (1 + 1e-12)) }
	layers := func(limit float64) float64 {
		if limit < tFirst || limit < tLast {
			return -1
		}
		return fit(limit, tFirst) + fit(limit, tLast) + float64(pp-2)*fit(limit, 0)
	}
	limit := math.Max(math.Max(tFirst, tLast), (float64(L)*tLayer+tFirst+tLast)/float64(pp))
	for range L + pp + 2 {
		if layers(limit) >= float64(L) {
			return limit
		}
		next := math.Inf(1)
		for _, e := range [3]float64{tFirst, tLast, 0} {
			if limit >= e {
				next = math.Min(next, (fit(limit, e)+1)*tLayer+e)
			} else {
				next = math.Min(next, e)
			}
		}
		limit = next
	}
	return limit
}

// linkNames are the names of a cluster's two links, built once per search.
type linkNames struct{ intra, inter string }

func namesOf(c Cluster) linkNames {
	return linkNames{"intra-node " + c.LinkKind, "inter-node " + c.FabricKind}
}

func (j *trainJob) evaluate(m *Params, c Cluster, f archFactors, cfg trainConfig, names linkNames) trainEval {
	e := trainEval{cfg: cfg}
	tp, pp, dp, cp, ep := float64(cfg.tp), float64(cfg.pp), float64(cfg.dp), float64(cfg.cp), float64(cfg.ep)
	vp := float64(max(1, cfg.vp))
	b := float64(cfg.micro)
	s := float64(j.seq)
	L := float64(j.layers)
	h := float64(j.hidden)
	a := c.GPU
	capGB := a.MemGiB * 1.073741824

	// Memory per GPU: the device holding the most (a pipeline end holds
	// the embedding or the head as well as its layers).
	ends := j.embedParams
	dense := j.denseParams/(tp*pp) + ends/tp
	expert := j.expertParams / (tp * pp * ep)
	shard := dense + expert
	var w, g, o float64
	if j.method == workload.MethodFull {
		w, g, o = j.stateW*shard, j.stateG*shard, j.stateO*shard
	} else {
		frozen := bytesWeight16
		if j.method == workload.MethodQLoRA {
			frozen = bytesQLoRA
		}
		ad := j.loraParams / (tp * pp)
		w, g, o = frozen*shard+j.stateW*ad, j.stateG*ad, j.stateO*ad
	}
	if cfg.dualPipe {
		// Each stage holds its chunk and the mirror chunk of the other
		// direction: two copies of its weights and their gradients.
		w, g = 2*w, 2*g
	}
	edp := math.Max(1, dp/ep) // data-parallel ranks holding the same experts
	switch cfg.shard {
	case shardZero1, shardZero2:
		if j.method == workload.MethodFull {
			o = o*dense/shard/dp + o*expert/shard/edp
			if cfg.shard == shardZero2 {
				g = g*dense/shard/dp + g*expert/shard/edp
			}
		} else {
			o /= dp
			if cfg.shard == shardZero2 {
				g /= dp
			}
		}
	case shardFSDP, shardHSDP:
		n := dp
		if cfg.shard == shardHSDP {
			n = hsdpGroup(c, cfg)
		}
		w, g, o = w/n, g/n, o/n
		if n > 1 {
			w += 2 * bytesWeight16 * shard * pp / L // two gathered layers in flight
		}
	}
	inFlight := math.Min(pp, float64(cfg.accum))
	if cfg.dualPipe {
		inFlight = math.Min(pp+1, float64(cfg.accum)) // DeepSeek-V3 report, table 2
	}
	if vp > 1 {
		inFlight *= 1 + (pp-1)/(pp*vp)
	}
	act := L / pp * inFlight * b * s / (tp * cp) * j.activationBytes(cfg.rc)
	if cfg.rc == workload.CheckpointFull {
		act += b * s / (tp * cp) * j.activationBytes(workload.CheckpointNone) // the layer being recomputed
	}
	act += b * s / (tp * cp) * float64(j.vocab) * 6 // logits in bf16 and their fp32 softmax
	rest := w + g + o + act
	e.mem = Memory{WeightsGB: w / 1e9, GradientsGB: g / 1e9, OptimizerGB: o / 1e9, ActivationsGB: act / 1e9,
		OverheadGB: runtimeGB + fragmentation*rest/1e9, CapacityGB: capGB}
	e.mem.TotalGB = rest/1e9 + e.mem.OverheadGB
	e.fits = e.mem.TotalGB <= capGB
	if !e.fits {
		return e // the search keeps only the memory of a layout that does not fit
	}

	// Compute per micro-batch on one GPU, per layer and at the pipeline ends.
	tok := b * s / cp // tokens of one micro-batch on one GPU's sequence shard
	rate := m.matmulFLOPS(a, f, j.dt)
	eff := m.sizeEff(tok, h/tp)
	e.matmulEff = f.Matmul * powerDerate(a) * eff
	mult := j.linearMult(cfg.rc)
	tDense := mult * 2 * j.denseParams / L * tok / tp / (rate * eff)
	var tExpert float64
	if j.experts > 0 {
		perExpert := tok * float64(j.active) * ep / float64(j.experts)
		xe := m.sizeEff(perExpert, j.expertFFN/tp) * m.MoEGrouped // experts split over tensor ranks too
		tExpert = mult * 2 * j.activeExpert / L * tok / tp / (rate * xe)
	}
	tLoRA := 6 * j.loraParams / L * tok / tp / (rate * m.sizeEff(tok, 16))
	attnRate := peakNominal(a, j.attnDT) * f.Attn * powerDerate(a) * s / (s + 512)
	if !j.stack.NativeAttn && (a.Architecture == "hopper" || a.Architecture == "blackwell") {
		attnRate *= fa2OnHopper
	}
	passes := 1 + flashBwdPasses/flashBwdEff
	switch cfg.rc {
	case workload.CheckpointFull, workload.CheckpointSelective:
		passes++
	}
	tAttn := passes * 2 * j.qWidth * s * tok / tp / attnRate
	fuse := 1.0
	if j.fused {
		fuse = m.EWFused
	}
	ew := m.EWTrain*h + m.EWFFN*j.ffnTouched
	switch cfg.rc {
	case workload.CheckpointFull:
		ew *= 4.0 / 3
	case workload.CheckpointSelective:
		ew *= 1.1
	}
	switch j.dt {
	case catalog.FP8:
		ew += castBytesFP8 * (2*h + j.qWidth + j.ffnTouched)
	case catalog.FP4:
		ew += castBytesFP4 * (2*h + j.qWidth + j.ffnTouched)
	}
	if j.experts > 0 {
		ew += m.MoEPermute * float64(j.active) * h * j.moeLayers / L
	}
	bw := a.MemBandwidthGBps * 1e9 * f.BW
	tEW := tok / tp * ew * fuse / bw
	tLayer := (tDense + tExpert + tLoRA + tAttn + tEW) / j.stack.Speed
	headMult := 3.0
	if j.method != workload.MethodFull {
		headMult = 2
	}
	V := float64(j.vocab)
	headRate := m.matmulFLOPS(a, f, j.attnDT)
	tHead := (headMult*2*V*h*tok/tp/(headRate*m.sizeEff(tok, V/tp)) + tok/tp*V*m.LossBytes/bw) / j.stack.Speed
	tEmbed := tok * h * 8 / bw
	if cfg.dualPipe {
		// The all-to-all and pipeline kernels that run beside the compute
		// keep some of the GPU's streaming multiprocessors.
		tLayer /= 1 - dualPipeCommSMs
		tHead /= 1 - dualPipeCommSMs
	}

	// Communication.
	intra, inter := c.intraGBps()*1e9, c.interGBps()*1e9
	// span is the bandwidth per GPU of a ring collective (all-reduce,
	// all-gather, reduce-scatter) over ranks GPUs. Beyond one fast domain
	// it is hierarchical, as NCCL runs it on rail-optimised fabrics: every
	// GPU of a domain moves its data over the domain's links, and only the
	// domain's share of what crosses to other domains goes out, split over
	// the g GPUs' own network links (one rail each) — so each GPU's data
	// pays the fast link and a g-th of the fabric, not the fabric whole.
	span := func(ranks float64) (float64, string) {
		dom := float64(c.fastDomain())
		if ranks <= dom {
			return intra, names.intra
		}
		g := math.Max(1, math.Min(dom, ranks/math.Ceil(ranks/dom)))
		return 1 / (1/intra + 1/(g*inter)), names.inter
	}
	var exposedLayer, totalLayer float64 // per layer per micro-batch
	link := ""
	slowest := 0.0
	note := func(B float64, l string) {
		if link == "" || B < slowest {
			link, slowest = l, B
		}
	}
	if cfg.tp > 1 {
		n := 8.0 // sequence-parallel all-gather and reduce-scatter around attention and MLP, forward and backward
		if cfg.rc == workload.CheckpointFull {
			n = 12
		}
		B, l := span(tp)
		t := n * (tp - 1) / tp * tok * h * 2 / B
		totalLayer += t
		exposedLayer += (1 - m.OverlapTP) * t
		note(B, l)
	}
	if cfg.cp > 1 {
		B, l := span(tp * cp)
		t := 3 * (cp - 1) * tok * 2 * j.kvW * 2 / tp / B
		totalLayer += t
		exposedLayer += math.Max(0, t-0.7*tAttn)
		note(B, l)
	}
	if cfg.ep > 1 && j.experts > 0 {
		n := 4.0 // dispatch and combine, forward and backward
		if cfg.rc == workload.CheckpointFull {
			n = 6
		}
		bytes := n * tok * float64(j.active) * h * 2 / tp * j.moeLayers / L
		local := math.Min(ep, math.Max(1, float64(c.fastDomain())/tp))
		t := bytes * ((local-1)/ep/(intra*m.A2AEff) + (ep-local)/ep/(inter*m.A2AEff))
		if cfg.dualPipe && local < ep {
			// DeepSeek's all-to-all kernels send a token over the fabric
			// once to each node that holds one of its experts and forward
			// it to their GPUs over NVLink, the two links working at once.
			copies := fabricCopies(j.active, j.groups, j.routed, int(math.Round(ep/local)))
			t = math.Max(bytes/float64(j.active)*copies/(inter*m.A2AEff), bytes*(local-1)/local/(intra*m.A2AEff))
			e.copies, e.perExpert = copies, float64(j.active)*(ep-local)/ep
		}
		totalLayer += t
		switch {
		case cfg.dualPipe:
			// A forward chunk runs beside a backward chunk: each one's
			// all-to-all hides under the other's compute, as far as
			// that compute lasts.
			exposedLayer += math.Max(0, t-tLayer)
		case cfg.pp > 1 && vp <= 1:
			// Two micro-batches overlap their all-to-all only where the
			// schedule keeps two in flight on a GPU: consecutive ones
			// without a pipeline, or another virtual stage's with one
			// (Megatron's overlap_moe_expert_parallel_comm needs
			// virtual_pipeline when pipeline > 1). A plain 1F1B stage
			// runs one at a time and waits for its all-to-all.
			exposedLayer += t
		default:
			exposedLayer += (1 - m.OverlapEP) * t
		}
		if local < ep {
			note(inter, names.inter)
		} else {
			note(intra, names.intra)
		}
	}
	// One device's work per micro-batch, whole layers split over the
	// pipeline with the embedding on the first stage and the head on the last.
	wMax := layerSplit(j.layers, cfg.pp, tLayer+exposedLayer, tEmbed, tHead)
	mbs := float64(cfg.accum)
	work := mbs * wMax
	e.computeS = mbs * (L/pp*tLayer + (tHead+tEmbed)/pp)
	e.imbalanceS = math.Max(0, work-mbs*(L/pp*(tLayer+exposedLayer)+(tHead+tEmbed)/pp))
	var exposed, total float64
	exposed += mbs * L / pp * exposedLayer
	total += mbs * L / pp * totalLayer
	if cfg.pp > 1 {
		e.bubbleS = (pp - 1) / vp * wMax
		if cfg.dualPipe {
			// (PP/2 - 1)(F&B + B - 3W) against 1F1B's (PP - 1)(F + B)
			// (DeepSeek-V3 report, table 2): with a forward F a third of a
			// micro-batch's work, the full backward B two thirds, its
			// weight-gradient part W a third, and F&B (a forward beside a
			// backward) the whole, each half of the pipe idles two thirds
			// of a micro-batch per stage.
			e.bubbleS = (pp/2 - 1) * 2 / 3 * wMax
		}
		B, l := inter, names.inter
		if c.Nodes == 1 || float64(c.fastDomain()) >= tp*pp {
			B, l = intra, names.intra
		}
		p2p := 2 * vp * tok * h * 2 / tp / B * mbs
		total += p2p
		if !cfg.dualPipe { // DualPipe sends under the other direction's compute
			exposed += 0.3 * p2p
		}
		note(B, l)
	}
	if cfg.dp > 1 {
		B, l := span(tp * cp * dp)
		gradBytes := j.stateG * shard
		if j.method != workload.MethodFull {
			gradBytes = j.stateG * j.loraParams / (tp * pp)
		}
		backward := wMax * 2 / 3 // the last micro-batch's backward hides the gradient traffic
		switch cfg.shard {
		case shardFSDP, shardHSDP:
			paramBytes := bytesWeight16 * shard
			if j.method == workload.MethodQLoRA {
				paramBytes = bytesQLoRA * shard
			}
			// Each micro-batch gathers the weights (forward and backward)
			// and reduce-scatters the gradients over the shard group.
			n, Bg := dp, B
			if cfg.shard == shardHSDP {
				n = hsdpGroup(c, cfg)
				Bg, _ = span(tp * cp * n)
			}
			perMB := (2*paramBytes + gradBytes) * (n - 1) / n / Bg
			total += perMB * mbs
			// Prefetching hides the gathers behind the layers' compute,
			// but not the first layer's gather and the last layer's
			// reduce-scatter of a step: nothing runs beside them.
			exposed += math.Max(0, perMB-m.OverlapDP*wMax)*mbs + perMB/L
			if r := dp / n; r > 1 {
				// HSDP: each shard's gradients all-reduced across the
				// replicas, once a step: each GPU with the GPUs of the
				// same shard on the other nodes, over its own rail.
				t := 2 * (r - 1) / r * gradBytes / n / inter
				total += t
				exposed += math.Max(t/L, t-m.OverlapDP*backward)
			}
		default:
			// The backward hides the all-reduce of each layer's gradients
			// behind the layers after it, but not the last layer's (the
			// first layer's gradients, reduced once the backward is done).
			t := 2 * (dp - 1) / dp * gradBytes / B
			total += t
			exposed += math.Max(t/L, t-m.OverlapDP*backward)
		}
		note(B, l)
	}
	e.modelFLOPsPerToken = j.modelFLOPsPerToken()
	e.commExposedS = exposed
	e.commTotalS = total
	e.link = link
	e.stepS = work + e.bubbleS + math.Max(0, exposed-mbs*L/pp*exposedLayer)
	return e
}

// fabricCopies is how many copies of a token cross the fabric to the
// other nodes of an expert-parallel group of nodes nodes, when a kernel
// sends it once to each node that holds one of its k experts (DeepEP's
// internode kernels and DeepSeek-V3's own) rather than once per expert.
// With group-limited routing over groups groups, one group or more per
// node, a token's experts lie on at most routed groups' nodes
// (DeepSeek-V3: 4 of 8); its k experts fall on about D = M(1 - (1-1/M)^k)
// of those M nodes, and its own node is one of them a 1/nodes of the time.
func fabricCopies(k, groups, routed, nodes int) float64 {
	if nodes <= 1 || k <= 0 {
		return 0
	}
	n := float64(nodes)
	reach := n
	if groups > 0 && routed > 0 && routed < groups {
		if nodes >= groups {
			reach = float64(routed) * n / float64(groups)
		} else {
			reach = math.Min(n, float64(routed))
		}
	}
	d := reach * (1 - math.Pow(1-1/reach, float64(k)))
	return d * (n - 1) / n
}

// fa2OnHopper is the speed of FlashAttention-2-class kernels on Hopper and
// Blackwell relative to the architecture's native ones (FlashAttention-3
// paper: FA2 reaches ~35% of H100's peak, FA3 ~60-75% forward).
const fa2OnHopper = 0.6

// trainSearch enumerates layouts and returns the fastest that fits, or the
// one needing the least memory when none fits. Fields of the workload's
// parallelism block are followed exactly.
func (j *trainJob) search(m *Params, c Cluster, f archFactors) (best trainEval, found bool, tried int) {
	G := c.GPUs
	tps, pps, cps, vps := []int{1}, []int{1}, []int{1}, []int{1}
	switch j.framework {
	case workload.FrameworkMegatron, workload.FrameworkTorchTitan, workload.FrameworkJAX, workload.FrameworkOther:
		maxTP := min(max(c.GPUsPerNode, c.GPU.NVLinkDomain), G)
		for t := 2; t <= maxTP && t <= 64; t *= 2 {
			if j.heads%t == 0 {
				tps = append(tps, t)
			}
		}
		for p := 2; p <= min(G, j.layers, 64); p *= 2 {
			pps = append(pps, p)
		}
		if j.seq >= 16384 {
			for x := 2; x <= 16; x *= 2 {
				cps = append(cps, x)
			}
		}
		vps = []int{1, 2, 4, 8}
	}
	if j.fixed.Tensor > 0 {
		tps = []int{j.fixed.Tensor}
	}
	if j.fixed.Pipeline > 0 {
		pps = []int{j.fixed.Pipeline}
	}
	if j.fixed.Context > 0 {
		cps = []int{j.fixed.Context}
	}
	if j.fixed.VirtualPipeline > 0 {
		vps = []int{j.fixed.VirtualPipeline}
	}
	dual := j.fixed.Schedule == workload.ScheduleDualPipe
	if dual {
		vps = []int{1} // two chunks per stage of its own
	}
	rcs := []workload.Checkpointing{workload.CheckpointNone, workload.CheckpointSelective, workload.CheckpointFull}
	if j.recompute != "" {
		rcs = []workload.Checkpointing{j.recompute}
	}
	micros := []int{1, 2, 4, 8, 16, 32}
	if j.fixed.MicroBatch > 0 {
		micros = []int{j.fixed.MicroBatch}
	}
	var closest trainEval
	closestGB := math.Inf(1)
	names := namesOf(c)
	for _, tp := range tps {
		for _, cp := range cps {
			for _, pp := range pps {
				if G%(tp*cp*pp) != 0 || pp > j.layers {
					continue
				}
				dp := G / (tp * cp * pp)
				if j.fixed.Data > 0 && dp != j.fixed.Data {
					continue
				}
				if dp > j.globalBatch {
					continue
				}
				eps := []int{1}
				if j.experts > 0 {
					if j.fixed.Expert > 0 {
						eps = []int{j.fixed.Expert}
					} else {
						for x := 2; x <= min(j.experts, dp*cp); x *= 2 {
							if j.experts%x == 0 && (dp*cp)%x == 0 {
								eps = append(eps, x)
							}
						}
					}
				}
				shards := []string{shardNone}
				switch {
				case j.fixed.Sharding != "":
					shards = []string{string(j.fixed.Sharding)} // as the file says, whatever fits
				case dp > 1:
					shards = []string{shardNone, shardZero1, shardFSDP}
					if j.experts > 0 || pp > 1 {
						shards = []string{shardZero1} // Megatron-style: the distributed optimizer
					}
				}
				for _, vp := range vps {
					if pp == 1 && vp > 1 || pp > 1 && vp > 1 && j.layers+2 < pp*vp {
						continue
					}
					for _, ep := range eps {
						for _, micro := range micros {
							if micro*dp > j.globalBatch && j.fixed.MicroBatch == 0 {
								break
							}
							accum := max(1, (j.globalBatch+micro*dp-1)/(micro*dp))
							anyFits := false
							for _, sh := range shards {
								for _, rc := range rcs {
									cfg := trainConfig{tp: tp, pp: pp, vp: vp, dp: dp, cp: cp, ep: ep, micro: micro, accum: accum, shard: sh, rc: rc, dualPipe: dual && pp > 1}
									e := j.evaluate(m, c, f, cfg, names)
									tried++
									if e.mem.TotalGB < closestGB {
										closest, closestGB = e, e.mem.TotalGB
									}
									if !e.fits {
										continue
									}
									anyFits = true
									// Time per sequence: a data-parallel degree that does
									// not divide the global batch runs more sequences a step.
									if !found || perSeq(e) < perSeq(best) || perSeq(e) == perSeq(best) && e.mem.TotalGB < best.mem.TotalGB {
										best, found = e, true
									}
									break // more recomputation only costs time
								}
							}
							if !anyFits {
								break // a larger micro-batch needs more memory still
							}
						}
					}
				}
			}
		}
	}
	if !found {
		return closest, false, tried
	}
	return best, true, tried
}

// perSeq is a layout's step time per sequence it runs.
func perSeq(e trainEval) float64 {
	return e.stepS / float64(max(1, e.cfg.micro*e.cfg.dp*e.cfg.accum))
}

func predictTraining(m *Params, spec *workload.Spec, c Cluster, p *Prediction) error {
	j, err := newTrainJob(spec, c.GPU, &p.Assumptions)
	if err != nil {
		return err
	}
	f := c.factors(m)
	best, ok, tried := j.search(m, c, f)
	if tried == 0 {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = msg.New("no parallel layout exists for %d GPUs with a global batch of %d sequences (each data-parallel replica needs at least one)", c.GPUs, j.globalBatch)
		if fixedLayout(j.fixed) {
			p.Reason = msg.New("the parallelism block (%s) does not fit %d GPUs with a global batch of %d sequences", describeFixed(j.fixed), c.GPUs, j.globalBatch)
		}
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("raise training.global_batch, use fewer GPUs, or change the parallelism block")
		return nil
	}
	p.Parallelism = Parallelism{Data: best.cfg.dp, Tensor: best.cfg.tp, Pipeline: best.cfg.pp, Context: best.cfg.cp,
		Expert: best.cfg.ep, ShardedOptimizer: best.cfg.shard != shardNone, Sharding: best.cfg.shard,
		MicroBatch: best.cfg.micro, GradAccumulation: best.cfg.accum, Recompute: string(best.cfg.rc)}
	if best.cfg.vp > 1 {
		p.Parallelism.VirtualPipeline = best.cfg.vp
	}
	if best.cfg.dualPipe {
		p.Parallelism.Schedule = string(workload.ScheduleDualPipe)
	}
	p.Memory = roundMemory(best.mem)
	p.MemoryPerGPUGB = round(best.mem.TotalGB, 1)
	if !ok {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		what := "even with the leanest layout"
		if fixedLayout(j.fixed) {
			what = "with the given parallelism"
		}
		p.Reason = msg.New("needs %.0f GB per GPU %s (%s) but %s has %.0f GB",
			best.mem.TotalGB, what, describeLayout(best.cfg), c.GPU.ID, best.mem.CapacityGB)
		p.Verdict = p.Reason.Stop()
		p.Fix = fitHint(m, j, c, f)
		return nil
	}
	p.Fits = true
	// The step runs micro-batch x data x accumulation sequences: the
	// global batch when it divides, else the next multiple, which is said.
	ran := best.cfg.micro * best.cfg.dp * best.cfg.accum
	if ran != j.globalBatch {
		p.Assumptions = append(p.Assumptions, msg.New("training.global_batch %d is not a multiple of data parallel %d x micro-batch %d: each step runs %d sequences (%d x %d x %d accumulation steps); keep %d with a GPU count that divides it, or set global_batch to %d",
			j.globalBatch, best.cfg.dp, best.cfg.micro, ran, best.cfg.dp, best.cfg.micro, best.cfg.accum, j.globalBatch, ran))
		p.Parallelism.GlobalBatch = ran
	}
	tokensPerStep := float64(ran * j.seq)
	tokS := tokensPerStep / best.stepS
	p.StepTimeS = round(best.stepS, 3)
	p.Efficiency = round(best.matmulEff*j.stack.Speed, 3)
	p.MFU = round(best.modelFLOPsPerToken*tokS/(float64(c.GPUs)*peakNominal(c.GPU, j.dt)), 3)
	p.Breakdown = Breakdown{ComputeS: round(best.computeS, 4), CommExposedS: round(best.commExposedS, 4),
		CommTotalS: round(best.commTotalS, 4), BubbleS: round(best.bubbleS+best.imbalanceS, 4), CommLink: best.link}
	how := msg.New("parallel layout chosen from %d evaluated", tried)
	if fixedLayout(j.fixed) {
		how = msg.New("parallel layout as the parallelism block gives it")
	}
	p.Assumptions = append(p.Assumptions, msg.New("%s: %s", how, describeLayout(best.cfg)))
	if best.cfg.pp > 1 {
		p.Assumptions = append(p.Assumptions, msg.New("pipeline: whole layers per stage, the embedding on the first and the output head and loss on the last; stage imbalance %.2f s and bubbles %.2f s of each %.2f s step",
			best.imbalanceS, best.bubbleS, best.stepS))
	}
	switch {
	case best.cfg.dualPipe:
		p.Assumptions = append(p.Assumptions, msg.New("pipeline schedule DualPipe (DeepSeek-V3): each stage holds two chunks, twice their weights and gradients; a forward chunk runs beside a backward chunk, hiding the expert all-to-all and the pipeline sends under its compute while their kernels keep 20 of 132 SMs (the compute runs %.0f%% longer)",
			100*(1/(1-dualPipeCommSMs)-1)))
		if best.copies > 0 {
			p.Assumptions = append(p.Assumptions, msg.New("DualPipe's all-to-all sends a token over the fabric once to each node holding one of its experts and on over NVLink: %.1f copies per token instead of %.1f",
				best.copies, best.perExpert))
		}
	case j.experts > 0 && best.cfg.ep > 1 && best.cfg.pp > 1 && best.cfg.vp <= 1:
		p.Assumptions = append(p.Assumptions, msg.New("expert all-to-all not overlapped: a plain 1F1B pipeline runs one micro-batch at a time on a stage (Megatron's overlap_moe_expert_parallel_comm needs virtual_pipeline > 1), so each stage waits for its dispatch and combine"))
	}
	if j.experts > 0 {
		p.Assumptions = append(p.Assumptions, msg.New("mixture of experts: %.1fB of %.1fB parameters active per token; %d experts per GPU, %.0f tokens per expert per micro-batch in grouped GEMMs",
			(j.denseParams+j.activeExpert+j.embedParams)/1e9, j.n/1e9, j.experts/max(1, best.cfg.ep),
			float64(best.cfg.micro*j.seq)/float64(best.cfg.cp)*float64(j.active*best.cfg.ep)/float64(j.experts)))
	}
	if c.GPU.PowerCapWatts > 0 {
		p.Assumptions = append(p.Assumptions, msg.New("%s is capped at %.0f W of its %.0f W: tensor clocks at %.0f%% of full power",
			c.GPU.ID, c.GPU.PowerCapWatts, c.GPU.TDPWatts, 100*powerDerate(c.GPU)))
	}
	// The data pipeline can only slow the GPUs down.
	bytesPerToken := 4.0
	if spec.Data.BytesPerSample > 0 && j.seq > 0 {
		bytesPerToken = spec.Data.BytesPerSample / float64(j.seq)
	}
	samplesS := tokS / float64(j.seq)
	pipe := balance(spec, c, samplesS, samplesS*bytesPerToken*float64(j.seq))
	tokS *= pipe.utilization
	p.Throughput = Quantity{Value: tokS, Unit: "tokens/s"}
	p.Utilization = round(pipe.utilization, 3)
	p.Breakdown.DataStallS = round(best.stepS*(1/pipe.utilization-1), 4)
	if j.tokens > 0 {
		p.DurationHours = ptr(j.tokens / tokS / 3600)
	}
	p.Bottleneck, p.Verdict, p.Fix = trainVerdict(best, pipe, c)
	return nil
}

func fixedLayout(f workload.Parallelism) bool {
	return f.Data > 0 || f.Tensor > 0 || f.Pipeline > 0 || f.Expert > 0 || f.Context > 0 || f.MicroBatch > 0 || f.VirtualPipeline > 0
}

func describeFixed(f workload.Parallelism) string {
	var parts []string
	for _, x := range []struct {
		n string
		v int
	}{{"data", f.Data}, {"tensor", f.Tensor}, {"pipeline", f.Pipeline}, {"virtual_pipeline", f.VirtualPipeline},
		{"context", f.Context}, {"expert", f.Expert}, {"micro_batch", f.MicroBatch}} {
		if x.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.n, x.v))
		}
	}
	return strings.Join(parts, ", ")
}

// describeLayout is a training layout in words: each optional part holds
// the rest of the description as its last argument.
func describeLayout(cfg trainConfig) msg.Msg {
	s := msg.New(", micro-batch %d x %d accumulation steps, sharding %s, activation checkpointing %s",
		cfg.micro, cfg.accum, cfg.shard, cfg.rc)
	if cfg.ep > 1 {
		s = msg.New(", expert %d%s", cfg.ep, s)
	}
	if cfg.cp > 1 {
		s = msg.New(" x context %d%s", cfg.cp, s)
	}
	if cfg.vp > 1 {
		s = msg.New(" (%d chunks per stage, interleaved)%s", cfg.vp, s)
	}
	if cfg.dualPipe {
		s = msg.New(" (DualPipe: two chunks per stage, fed from both ends)%s", s)
	}
	return msg.New("data %d x tensor %d x pipeline %d%s", cfg.dp, cfg.tp, cfg.pp, s)
}

// fitHint finds what would make a training job fit: more GPUs of the same
// kind, or a lighter method.
func fitHint(m *Params, j trainJob, c Cluster, f archFactors) msg.Msg {
	var hints []msg.Msg
	if !fixedLayout(j.fixed) && !c.Brief {
		for _, mult := range []int{2, 4, 8, 16, 32, 64} {
			g := c.GPUs * mult
			nodes := (g + c.GPUsPerNode - 1) / c.GPUsPerNode
			per := g / nodes
			if per < 1 {
				continue
			}
			c2 := c
			c2.GPUs, c2.Nodes = g, nodes
			if c2.FabricGbps == 0 {
				c2.FabricGbps, c2.FabricKind = fabricGuess(c.GPU, c.GPUsPerNode)
			}
			if _, ok, _ := j.search(m, c2, f); ok {
				hints = append(hints, msg.New("%d GPUs of this kind fit it", g))
				break
			}
		}
	} else {
		hints = append(hints, msg.New("a parallelism block with more tensor or pipeline parallelism (or none, to let gpupick choose)"))
	}
	if j.method == workload.MethodFull {
		hints = append(hints, msg.New("LoRA or QLoRA fine-tuning keeps the frozen weights without optimizer state (2 or 0.56 bytes per parameter instead of 16)"))
	} else if j.method == workload.MethodLoRA {
		hints = append(hints, msg.New("QLoRA stores the frozen weights in 4 bits"))
	}
	if j.recompute == workload.CheckpointNone || j.recompute == workload.CheckpointSelective {
		hints = append(hints, msg.New("full activation checkpointing cuts activation memory to the layer inputs"))
	}
	hints = append(hints, msg.New("a GPU with more memory"))
	return joinHints(hints)
}

// joinHints is the hints as one sentence: "a; b; or c."
func joinHints(h []msg.Msg) msg.Msg {
	h = slices.CompactFunc(h, func(a, b msg.Msg) bool { return a.String() == b.String() })
	var out msg.Msg
	for i, s := range h {
		switch {
		case i == 0:
			out = s
		case i == len(h)-1:
			out = msg.New("%s; or %s", out, s)
		default:
			out = out.Also(s)
		}
	}
	if out.IsZero() {
		return out
	}
	return out.Stop()
}

// trainVerdict names the largest of the step's terms: the data pipeline
// when it starves the GPUs, else compute, or communication and pipeline
// waits when together they take more of the step than compute does.
func trainVerdict(e trainEval, pipe pipeline, c Cluster) (bottleneck string, verdict, fix msg.Msg) {
	if pipe.utilization < 0.97 {
		return pipe.stage, pipe.verdict, pipe.fix
	}
	waits := e.stepS - e.computeS
	if waits > e.computeS {
		b := Interconnect
		if c.Nodes > 1 && strings.HasPrefix(e.link, "inter-node") {
			b = Network
		}
		return b, msg.New("%.0f%% of each step waits for communication over the %s link, pipeline bubbles or stage imbalance.", 100*waits/e.stepS, e.link),
			msg.New("a faster inter-node fabric, fewer nodes with more GPUs each, or a larger global batch (more compute per exchange) would lift it")
	}
	share := 100 * e.computeS / e.stepS
	if waits > 0.25*e.stepS {
		return Compute, msg.New("compute is the largest part (%.0f%% of each step), but %.0f%% waits for communication over the %s link or pipeline bubbles.", share, 100*waits/e.stepS, e.link),
			msg.New("a larger global batch or fewer pipeline stages would hide more of the waiting")
	}
	return Compute, msg.New("compute-bound: the GPUs spend %.0f%% of each step computing; communication is mostly hidden.", share), msg.Msg{}
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

func roundMemory(m Memory) Memory {
	return Memory{WeightsGB: round(m.WeightsGB, 2), GradientsGB: round(m.GradientsGB, 2), OptimizerGB: round(m.OptimizerGB, 2),
		ActivationsGB: round(m.ActivationsGB, 2), KVCacheGB: round(m.KVCacheGB, 2), OverheadGB: round(m.OverheadGB, 2),
		TotalGB: round(m.TotalGB, 2), CapacityGB: round(m.CapacityGB, 2)}
}
