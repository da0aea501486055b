package perf

import (
	"fmt"
	"math"
	"slices"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// Training state sizes, bytes per parameter, for mixed-precision Adam:
// 16-bit weights and gradients, fp32 master weights and two fp32 moments
// (Rajbhandari et al. 2020, ZeRO). Pure fp32 training keeps no extra master
// copy: 4 + 4 + 8.
const (
	bytesWeight16   = 2.0
	bytesGrad16     = 2.0
	bytesOptimMixed = 12.0
	bytesQLoRA      = 0.5625 // 4-bit NF4 weights plus one fp32 scale per 64 (with double quantisation)
	runtimeGB       = 1.5    // CUDA context, NCCL buffers, allocator slack
	fragmentation   = 0.05   // share of the rest lost to fragmentation
	overlapDP       = 0.85   // share of compute that can hide data-parallel traffic
	overlapTP       = 0.2    // tensor-parallel collectives sit on the critical path
	microBatchHalf  = 256.0  // tokens per micro-batch at which GEMMs reach half their efficiency
	widthHalf       = 128.0  // GEMM width at which GEMMs reach half their efficiency
)

// Recompute is the activation checkpointing policy.
type Recompute string

// Policies: keep everything, keep matmul outputs and recompute the rest
// (selective, as torchtitan and Megatron do), or keep only layer inputs.
const (
	RecomputeNone      Recompute = "none"
	RecomputeSelective Recompute = "selective"
	RecomputeFull      Recompute = "full"
)

// Sharding of training state over data-parallel ranks.
const (
	shardNone  = "none"
	shardZero1 = "zero1" // optimizer states (Megatron's distributed optimizer, ZeRO-1)
	shardFSDP  = "fsdp"  // everything (FSDP FULL_SHARD, ZeRO-3)
)

// trainJob is the workload reduced to the numbers the model needs.
type trainJob struct {
	method                 workload.Method
	n, nAct, nExpert       float64 // parameters: total, active per token, in routed experts
	layers, hidden, heads  int
	kvHeads, ffn, vocab    int
	seq, globalBatch       int
	gated                  bool
	activeExperts, experts int
	loraParams             float64
	fp32                   bool
	dt, attnDT             catalog.DataType
	stack                  float64
	framework              workload.Framework
	flash                  bool
	tokens                 float64
	fixed                  workload.Parallelism
	recompute              *bool
}

// trainConfig is one parallel layout the search evaluates.
type trainConfig struct {
	tp, pp, dp, cp, ep, micro, accum int
	shard                            string
	rc                               Recompute
}

type trainEval struct {
	cfg                    trainConfig
	mem                    Memory
	fits                   bool
	stepS                  float64
	computeS, commExposedS float64
	commTotalS, bubbleS    float64
	link                   string
	modelFLOPsPerToken     float64
	hwFLOPsPerToken        float64
	matmulEff              float64
}

func newTrainJob(spec *workload.Spec, a *catalog.Accelerator, notes *[]string) (trainJob, error) {
	m, tr := spec.Model, spec.Training
	if m == nil || tr == nil || m.Layers == 0 || m.Hidden == 0 {
		return trainJob{}, fmt.Errorf("perf: %s needs a transformer model with layers and hidden", spec.Kind)
	}
	j := trainJob{
		method: tr.Method, n: m.ParamsB * 1e9, nAct: m.ActiveParamsB() * 1e9,
		layers: m.Layers, hidden: m.Hidden, heads: m.Heads, kvHeads: m.KVHeads, ffn: m.FFNHidden, vocab: m.Vocab,
		seq: tr.SeqLen, globalBatch: tr.GlobalBatch, gated: m.GatedMLP == nil || *m.GatedMLP,
		experts: m.Experts, activeExperts: m.ActiveExperts, framework: spec.Stack.Framework,
		tokens: tr.Tokens, fixed: spec.Parallelism, recompute: tr.ActivationCheckpointing, flash: true,
	}
	if j.kvHeads == 0 {
		j.kvHeads = j.heads
	}
	if j.ffn == 0 {
		j.ffn = 4 * j.hidden
	}
	if m.IsMoE() {
		// Idle experts are total minus active; scale to all routed experts.
		perExpert := (j.n - j.nAct) / float64(max(1, m.Experts-m.ActiveExperts))
		j.nExpert = perExpert * float64(m.Experts)
	}
	if tr.Method != workload.MethodFull {
		r := tr.LoRARank
		if r == 0 {
			r = 16
		}
		hd := m.EffectiveHeadDim()
		// Adapters on every linear layer: rank·(in+out) each.
		perLayer := float64(r) * (2*float64(m.Hidden+m.Heads*hd) + 2*float64(m.Hidden+j.kvHeads*hd) +
			3*float64(m.Hidden+j.ffn))
		j.loraParams = perLayer * float64(m.Layers)
	}
	j.fp32 = tr.Precision == workload.FP32 || tr.Precision == workload.TF32
	var fell bool
	j.dt, fell = dataTypeFor(a, tr.Precision)
	if fell {
		*notes = append(*notes, fmt.Sprintf("%s has no %s path: predicted in %s", a.ID, tr.Precision, j.dt))
	}
	j.attnDT = j.dt
	if j.dt == catalog.FP8 || j.dt == catalog.FP4 {
		// Float8 training casts the linear layers; attention stays in bf16.
		j.attnDT, _ = dataTypeFor(a, workload.BF16)
	}
	j.stack = stackFactor(j.framework, true)
	*notes = append(*notes, fmt.Sprintf("software stack %s: %.2fx the speed of tuned Megatron-Core on the same layout", j.framework, j.stack))
	*notes = append(*notes, "attention uses fused (flash) kernels: no sequence-squared activations are stored")
	return j, nil
}

// flops per token: model FLOPs (6N + 12·L·h·s for full training, 4N for
// frozen weights) and what the hardware executes with recomputation.
func (j trainJob) flopsPerToken(rc Recompute) (model, linear, attn float64) {
	attnF := 12 * float64(j.layers) * float64(j.hidden) * float64(j.seq)
	lin := 6 * j.nAct
	if j.method != workload.MethodFull {
		lin = 4 * j.nAct // no weight gradients for frozen weights
		lin += 6 * j.loraParams
	}
	model = lin + attnF
	switch rc {
	case RecomputeFull:
		lin += 2 * j.nAct
		attnF += attnF / 3
	case RecomputeSelective:
		attnF += attnF / 6
	}
	return model, lin, attnF
}

// activationBytes per layer per token (one micro-batch), before splitting
// over tensor and context parallelism (Korthikanti et al. 2022, with fused
// attention and no dropout).
func (j trainJob) activationBytes(rc Recompute, flash bool) float64 {
	h := float64(j.hidden)
	kv := float64(j.kvHeads) / float64(j.heads)
	fh := float64(j.ffn) / h
	k := 1.0
	if j.experts > 0 {
		k = float64(max(1, j.activeExperts))
	}
	var mlp, mlpKeep float64
	if j.gated {
		mlp, mlpKeep = 2+6*fh, 4*fh+2
	} else {
		mlp, mlpKeep = 2+4*fh, 2*fh+2
	}
	attn := 6 + 4*kv
	if !flash {
		attn += 5 * float64(j.heads) * float64(j.seq) / h
	}
	switch rc {
	case RecomputeFull:
		return 2 * h
	case RecomputeSelective:
		return h * (8 + 4*kv + k*mlpKeep)
	}
	return h * (4 + attn + k*mlp)
}

func evalTraining(j trainJob, c Cluster, f archFactors, cfg trainConfig) trainEval {
	e := trainEval{cfg: cfg}
	tp, pp, dp, cp, ep := float64(cfg.tp), float64(cfg.pp), float64(cfg.dp), float64(cfg.cp), float64(cfg.ep)
	b := float64(cfg.micro)
	s := float64(j.seq)
	L := float64(j.layers)
	h := float64(j.hidden)
	capGB := c.GPU.MemGiB * 1.073741824

	// Memory per GPU.
	nShard := (j.n-j.nExpert)/(tp*pp) + j.nExpert/(tp*pp*ep)
	var w, g, o float64
	if j.method == workload.MethodFull {
		if j.fp32 {
			w, g, o = 4*nShard, 4*nShard, 8*nShard
		} else {
			w, g, o = bytesWeight16*nShard, bytesGrad16*nShard, bytesOptimMixed*nShard
		}
	} else {
		frozen := bytesWeight16
		if j.method == workload.MethodQLoRA {
			frozen = bytesQLoRA
		}
		ad := j.loraParams / (tp * pp)
		w, g, o = frozen*nShard+2*ad, 2*ad, 12*ad
	}
	switch cfg.shard {
	case shardZero1:
		o /= dp
	case shardFSDP:
		w, g, o = w/dp, g/dp, o/dp
		w += 2 * bytesWeight16 * nShard * pp / L // two unsharded layers in flight
	}
	act := L / pp * math.Min(pp, float64(cfg.accum)) * b * s / (tp * cp) * j.activationBytes(cfg.rc, j.flash)
	if cfg.rc == RecomputeFull {
		act += b * s / (tp * cp) * j.activationBytes(RecomputeNone, j.flash) // the layer being recomputed
	}
	act += b * s / (tp * cp) * float64(j.vocab) * 6 // logits in bf16 and their fp32 softmax
	rest := w + g + o + act
	e.mem = Memory{WeightsGB: w / 1e9, GradientsGB: g / 1e9, OptimizerGB: o / 1e9, ActivationsGB: act / 1e9,
		OverheadGB: runtimeGB + fragmentation*rest/1e9, CapacityGB: capGB}
	e.mem.TotalGB = rest/1e9 + e.mem.OverheadGB
	e.fits = e.mem.TotalGB <= capGB

	// Compute per micro-batch on one GPU.
	model, lin, attn := j.flopsPerToken(cfg.rc)
	e.modelFLOPsPerToken = model
	e.hwFLOPsPerToken = lin + attn
	tokMB := b * s / cp
	sizeEff := tokMB / (tokMB + microBatchHalf) * (h / tp) / (h/tp + widthHalf)
	e.matmulEff = f.MatmulEff * sizeEff
	split := tp * cp * pp
	tLin := tokMB * cp * lin / split / (peakFLOPS(c.GPU, j.dt) * e.matmulEff)
	tAttn := tokMB * cp * attn / split / (peakFLOPS(c.GPU, j.attnDT) * f.AttnEff * sizeEff)
	ew := ewBytesTrain
	switch cfg.rc {
	case RecomputeFull:
		ew *= 4.0 / 3
	case RecomputeSelective:
		ew *= 1.1
	}
	tEW := tokMB * cp * L * h * ew / split / (c.GPU.MemBandwidthGBps * 1e9 * f.BWEff)
	tMB := (tLin + tAttn + tEW) / j.stack

	// Communication.
	intra, inter := c.intraGBps()*1e9, c.interGBps()*1e9
	bw := func(span float64) (float64, string) {
		if span > float64(c.fastDomain()) {
			return inter, "inter-node " + c.FabricKind
		}
		return intra, "intra-node " + c.LinkKind
	}
	var exposed, total float64
	link := ""
	// Tensor parallelism: 4 collectives per layer per micro-batch (6 with
	// full recompute), each moving the layer's activations.
	if cfg.tp > 1 {
		n := 4.0
		if cfg.rc == RecomputeFull {
			n = 6
		}
		B, l := bw(tp)
		t := n * (L / pp) * 2 * (tp - 1) / tp * tokMB * h * 2 / B
		total += t * float64(cfg.accum)
		exposed += (1 - overlapTP) * t * float64(cfg.accum)
		link = l
	}
	// Context parallelism: ring exchange of K and V, mostly hidden behind attention.
	if cfg.cp > 1 {
		B, l := bw(tp * cp)
		kvBytes := tokMB * 2 * float64(j.kvHeads) * h / float64(j.heads) * 2
		t := 3 * (L / pp) * (cp - 1) * kvBytes / B
		total += t * float64(cfg.accum)
		exposed += math.Max(0, t-0.7*tAttn) * float64(cfg.accum)
		link = l
	}
	// Expert parallelism: dispatch and combine all-to-all, forward and backward.
	if cfg.ep > 1 {
		B, l := bw(tp * cp * ep)
		t := 4 * (L / pp) * tokMB * h * 2 * float64(max(1, j.activeExperts)) * (ep - 1) / ep / B
		total += t * float64(cfg.accum)
		exposed += 0.5 * t * float64(cfg.accum)
		link = l
	}
	// Data parallelism.
	if cfg.dp > 1 {
		B, l := bw(tp * cp * dp)
		gradBytes := 2 * nShard
		if j.method != workload.MethodFull {
			gradBytes = 2 * j.loraParams / (tp * pp)
		}
		if j.fp32 {
			gradBytes *= 2
		}
		switch cfg.shard {
		case shardFSDP:
			paramBytes := bytesWeight16 * nShard
			if j.method == workload.MethodQLoRA {
				paramBytes = bytesQLoRA * nShard
			}
			perMB := (2*paramBytes + gradBytes) * (dp - 1) / dp / B
			total += perMB * float64(cfg.accum)
			exposed += math.Max(0, perMB-overlapDP*tMB) * float64(cfg.accum)
		default:
			t := 2 * (dp - 1) / dp * gradBytes / B
			total += t
			exposed += math.Max(0, t-overlapDP*tMB*2/3)
		}
		if link == "" || B == inter {
			link = l
		}
	}
	// Pipeline: bubbles and point-to-point activations.
	if cfg.pp > 1 {
		B, l := bw(float64(c.GPUsPerNode + 1))
		if c.Nodes == 1 {
			B, l = intra, "intra-node "+c.LinkKind
		}
		v := 1.0
		if j.framework == workload.FrameworkMegatron || j.framework == workload.FrameworkTorchTitan {
			v = 2 // interleaved schedules
		}
		e.bubbleS = (pp - 1) / v * tMB
		p2p := 2 * tokMB * h * 2 / tp / B * float64(cfg.accum)
		total += p2p
		exposed += 0.5 * p2p
		if link == "" {
			link = l
		}
	}
	e.computeS = tMB * float64(cfg.accum)
	e.commExposedS = exposed
	e.commTotalS = total
	e.link = link
	e.stepS = e.computeS + e.bubbleS + exposed
	return e
}

// trainSearch enumerates layouts and returns the fastest that fits, or the
// one needing the least memory when none fits.
func trainSearch(j trainJob, c Cluster, f archFactors) (best trainEval, found bool, tried int) {
	G := c.GPUs
	tps := []int{1}
	pps := []int{1}
	cps := []int{1}
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
	rcs := []Recompute{RecomputeNone, RecomputeSelective, RecomputeFull}
	if j.recompute != nil {
		if *j.recompute {
			rcs = []Recompute{RecomputeFull}
		} else {
			rcs = []Recompute{RecomputeNone}
		}
	}
	var closest trainEval
	closestGB := math.Inf(1)
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
				ep := 1
				if j.experts > 0 {
					ep = j.fixed.Expert
					if ep == 0 {
						ep = largestDivisor(j.experts, dp)
					}
				}
				shards := []string{shardNone}
				if dp > 1 {
					shards = []string{shardNone, shardZero1, shardFSDP}
				}
				for _, micro := range []int{1, 2, 4, 8, 16, 32} {
					if micro*dp > j.globalBatch {
						break
					}
					accum := (j.globalBatch + micro*dp - 1) / (micro * dp)
					for _, sh := range shards {
						for _, rc := range rcs {
							cfg := trainConfig{tp: tp, pp: pp, dp: dp, cp: cp, ep: ep, micro: micro, accum: accum, shard: sh, rc: rc}
							e := evalTraining(j, c, f, cfg)
							tried++
							if e.fits && (!found || e.stepS < best.stepS || e.stepS == best.stepS && e.mem.TotalGB < best.mem.TotalGB) {
								best, found = e, true
							}
							if e.mem.TotalGB < closestGB {
								closest, closestGB = e, e.mem.TotalGB
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

func largestDivisor(n, limit int) int {
	for d := min(n, limit); d > 1; d-- {
		if n%d == 0 && limit%d == 0 {
			return d
		}
	}
	return 1
}

func predictTraining(spec *workload.Spec, c Cluster, p *Prediction) error {
	j, err := newTrainJob(spec, c.GPU, &p.Assumptions)
	if err != nil {
		return err
	}
	f := c.factors()
	best, ok, tried := trainSearch(j, c, f)
	if tried == 0 {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = fmt.Sprintf("no parallel layout exists for %d GPUs with a global batch of %d sequences (each data-parallel replica needs at least one)", c.GPUs, j.globalBatch)
		p.Verdict = p.Reason
		p.Fix = "raise training.global_batch or use fewer GPUs"
		return nil
	}
	p.Parallelism = Parallelism{Data: best.cfg.dp, Tensor: best.cfg.tp, Pipeline: best.cfg.pp, Context: best.cfg.cp,
		Expert: best.cfg.ep, ShardedOptimizer: best.cfg.shard != shardNone, Sharding: best.cfg.shard,
		MicroBatch: best.cfg.micro, GradAccumulation: best.cfg.accum, Recompute: string(best.cfg.rc)}
	p.Memory = roundMemory(best.mem)
	p.MemoryPerGPUGB = round(best.mem.TotalGB, 1)
	if !ok {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = fmt.Sprintf("needs %.0f GB per GPU even with the leanest layout (%s) but %s has %.0f GB",
			best.mem.TotalGB, describeLayout(best.cfg), c.GPU.ID, best.mem.CapacityGB)
		p.Verdict = p.Reason + "."
		p.Fix = fitHint(j, c, f)
		return nil
	}
	p.Fits = true
	tokensPerStep := float64(j.globalBatch * j.seq)
	tokS := tokensPerStep / best.stepS
	p.StepTimeS = round(best.stepS, 3)
	p.Efficiency = round(best.matmulEff*j.stack, 3)
	p.MFU = round(best.modelFLOPsPerToken*tokS/(float64(c.GPUs)*peakNominal(c.GPU, j.dt)), 3)
	p.Breakdown = Breakdown{ComputeS: round(best.computeS, 4), CommExposedS: round(best.commExposedS, 4),
		CommTotalS: round(best.commTotalS, 4), BubbleS: round(best.bubbleS, 4), CommLink: best.link}
	p.Assumptions = append(p.Assumptions, fmt.Sprintf("parallel layout chosen from %d evaluated: %s", tried, describeLayout(best.cfg)))
	if j.experts > 0 {
		p.Assumptions = append(p.Assumptions, fmt.Sprintf("mixture of experts: %.1fB of %.1fB parameters active per token", j.nAct/1e9, j.n/1e9))
	}
	// The data pipeline can only slow the GPUs down.
	bytesPerToken := 4.0
	if spec.Data.BytesPerSample > 0 && j.seq > 0 {
		bytesPerToken = spec.Data.BytesPerSample / float64(j.seq)
	}
	samplesS := tokS / float64(j.seq)
	pipe := balance(spec, c, samplesS, samplesS*bytesPerToken*float64(j.seq))
	tokS *= pipe.utilization
	p.Throughput = Quantity{Value: round(tokS, 1), Unit: "tokens/s"}
	p.Utilization = round(pipe.utilization, 3)
	p.Breakdown.DataStallS = round(best.stepS*(1/pipe.utilization-1), 4)
	if j.tokens > 0 {
		p.DurationHours = ptr(round(j.tokens/tokS/3600, 2))
	}
	p.Bottleneck, p.Verdict, p.Fix = trainVerdict(best, pipe, c)
	return nil
}

// peakNominal is the datasheet dense peak, for MFU.
func peakNominal(a *catalog.Accelerator, d catalog.DataType) float64 {
	v, _ := a.TFLOPS(d)
	return v * 1e12
}

func describeLayout(cfg trainConfig) string {
	s := fmt.Sprintf("data %d x tensor %d x pipeline %d", cfg.dp, cfg.tp, cfg.pp)
	if cfg.cp > 1 {
		s += fmt.Sprintf(" x context %d", cfg.cp)
	}
	if cfg.ep > 1 {
		s += fmt.Sprintf(", expert %d", cfg.ep)
	}
	return s + fmt.Sprintf(", micro-batch %d x %d accumulation steps, sharding %s, activation checkpointing %s",
		cfg.micro, cfg.accum, cfg.shard, cfg.rc)
}

// fitHint finds what would make a training job fit: more GPUs of the same
// kind, or a lighter method.
func fitHint(j trainJob, c Cluster, f archFactors) string {
	var hints []string
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
		if _, ok, _ := trainSearch(j, c2, f); ok {
			hints = append(hints, fmt.Sprintf("%d GPUs of this kind fit it", g))
			break
		}
	}
	if j.method == workload.MethodFull {
		hints = append(hints, "LoRA or QLoRA fine-tuning keeps the frozen weights without optimizer state (2 or 0.56 bytes per parameter instead of 16)")
	} else if j.method == workload.MethodLoRA {
		hints = append(hints, "QLoRA stores the frozen weights in 4 bits")
	}
	if j.recompute != nil && !*j.recompute {
		hints = append(hints, "activation checkpointing cuts activation memory to the layer inputs")
	}
	hints = append(hints, "a GPU with more memory")
	return joinHints(hints)
}

func joinHints(h []string) string {
	h = slices.Compact(h)
	switch len(h) {
	case 0:
		return ""
	case 1:
		return h[0] + "."
	}
	out := ""
	for i, s := range h {
		switch {
		case i == 0:
			out = s
		case i == len(h)-1:
			out += "; or " + s
		default:
			out += "; " + s
		}
	}
	return out + "."
}

func trainVerdict(e trainEval, pipe pipeline, c Cluster) (bottleneck, verdict, fix string) {
	if pipe.utilization < 0.97 {
		return pipe.stage, pipe.verdict, pipe.fix
	}
	commShare := (e.commExposedS + e.bubbleS) / e.stepS
	if commShare > 0.25 {
		b := Interconnect
		if c.Nodes > 1 && len(e.link) > 10 && e.link[:10] == "inter-node" {
			b = Network
		}
		return b, fmt.Sprintf("%.0f%% of each step waits for communication over the %s link or pipeline bubbles.", commShare*100, e.link),
			"a faster inter-node fabric, fewer nodes with more GPUs each, or a larger global batch (more compute per exchange) would lift it"
	}
	return Compute, fmt.Sprintf("compute-bound: the GPUs spend %.0f%% of each step computing; communication is mostly hidden.", 100*e.computeS/e.stepS), ""
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
