package perf

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Diffusion inference (kind image-generation). One pipeline call makes
// image.batch images (or clips) on one GPU, or on one group of
// parallelism.context GPUs that split each image's tokens (patch or
// sequence parallel: DistriFusion, xDiT's Ulysses): the text encoders run
// once, the denoiser image.steps times on batch × (2 with classifier-free
// guidance) latents, then the VAE decodes each image. Every GPU (group)
// serves its own calls, so the cluster's throughput is the number of groups
// times one group's.
//
// A denoiser pass costs its linear work (convolutions and projections:
// parameters × tokens, from the model's GMAC figure at its reference
// tokens, scaled linearly) on the matmul engines, and its attention (tokens²
// × width, scaled quadratically) on the architecture's fused attention
// kernels, plus a fixed host cost per call (kernel launches of an eager
// framework; compiled engines replay graphs). The VAE decoder is a
// convolution network at full resolution, in its own precision.

// imageCall is the time of one pipeline call on one group, split by stage.
type imageCall struct {
	textS, stepS, vaeS, hostS float64 // text encoders, one denoiser step, VAE decode, host cost of the call
	linS, attnS, memS, commS  float64 // parts of one denoiser step (memS: weights and elementwise traffic)
	gapS                      float64 // kernel launch gaps and tails on the GPU, one step
	hostExposedS              float64 // host time not hidden behind the GPU's
	latencyS                  float64
	flops                     float64 // model FLOPs of the call (all images)
}

// diffusionEngine is how an engine runs a diffusion pipeline.
type diffusionEngine struct {
	compiled bool
	note     string
	// sdpa: attention runs in PyTorch's scaled_dot_product_attention,
	// whose fastest CUDA backend is FlashAttention-2 (PyTorch 2.0-2.5).
	sdpa bool
}

var diffusionEngines = map[workload.Framework]diffusionEngine{
	workload.FrameworkDiffusers:        {false, "eager PyTorch with SDPA attention", true},
	workload.FrameworkDiffusersCompile: {true, "torch.compile (inductor) with CUDA graphs", true},
	workload.FrameworkTensorRT:         {true, "TensorRT engines with fused kernels and CUDA graphs", false},
	workload.FrameworkONNXRuntime:      {true, "ONNX Runtime graph optimisations and fused attention", false},
	workload.FrameworkOpenVINO:         {true, "OpenVINO compiled graphs", false},
	workload.FrameworkIREE:             {true, "IREE compiled dispatches", false},
	workload.FrameworkMIGraphX:         {true, "MIGraphX compiled graphs", false},
	workload.FrameworkOptimumHabana:    {true, "HPU graphs (Optimum Habana)", false},
	workload.FrameworkJAX:              {true, "XLA-compiled JAX pipeline", false},
}

// patchGatherShare is the share of a denoiser pass's GEMM and convolution
// outputs that patch parallelism (DistriFusion) gathers from the other
// GPUs each step: every block's input (one width-sized tensor of a
// block's ~15 width-sized GEMM outputs: q, k, v, out, cross-attention,
// GEGLU's 8, the down projection), for the self-attention keys and values
// and for the convolutions' halos and group-norm statistics.
const patchGatherShare = 1.0 / 15

// collectiveLatencyS is the fixed cost of one synchronous collective
// between the GPUs of a node (NCCL's launch and handshake on NVLink or
// PCIe), s.
const collectiveLatencyS = 20e-6

// defaultBlocks is the denoiser's block count for a custom model that
// gives no model.layers: SDXL's (87).
const defaultBlocks = 87

// imageJob is a parsed image-generation workload on one accelerator.
type imageJob struct {
	md          *workload.Model
	im          *workload.Image
	fw          workload.Framework
	eng         diffusionEngine
	dt, vaeDT   catalog.DataType
	attnDT      catalog.DataType
	guide       float64 // 2 with classifier-free guidance
	tokens      float64 // denoiser tokens per image
	linGMAC     float64 // linear work of one pass for one image, GMAC
	attnGMAC    float64 // attention work of one pass for one image, GMAC
	vaeGMAC     float64 // VAE decode of one image (all frames), GMAC
	textGMAC    float64 // text encoders for one prompt, GMAC
	cp          int     // GPUs per image group
	videoFrames int
}

func newImageJob(spec *workload.Spec, a *catalog.Accelerator, notes *[]msg.Msg) (imageJob, error) {
	md, im := spec.Model, spec.Image
	if md == nil || im == nil || md.ReferenceTokens <= 0 || md.ForwardGMACsPerSample <= 0 {
		return imageJob{}, fmt.Errorf("perf: image-generation needs a diffusion model with forward_gmacs_per_sample and reference_tokens (a preset such as sdxl)")
	}
	j := imageJob{md: md, im: im, fw: spec.Stack.Framework, guide: 1, cp: max(spec.Parallelism.Context, 1), videoFrames: im.Frames}
	eng, ok := diffusionEngines[j.fw]
	if !ok {
		eng = diffusionEngines[workload.FrameworkDiffusers]
	}
	j.eng = eng
	var fell bool
	j.dt, fell = dataTypeFor(a, im.Precision)
	if fell {
		*notes = append(*notes, msg.New("%s has no %s path: the denoiser is predicted in %s (image.precision)", a.ID, im.Precision, j.dt))
	}
	j.attnDT, _ = dataTypeFor(a, workload.FP16)
	if j.dt == catalog.FP32 || j.dt == catalog.TF32 {
		j.attnDT = j.dt
	}
	// An fp32 VAE's convolutions run in TF32 where the GPU has it (cuDNN's
	// default in PyTorch, and TensorRT's).
	switch md.VAEPrecision {
	case workload.FP32, workload.TF32:
		j.vaeDT, _ = dataTypeFor(a, workload.TF32)
	default:
		j.vaeDT, _ = dataTypeFor(a, workload.FP16)
	}
	if im.Guidance != nil && *im.Guidance {
		j.guide = 2
	}
	j.tokens = md.DenoiserTokens(im.Width, im.Height, im.Frames)
	r := j.tokens / float64(md.ReferenceTokens)
	j.linGMAC = (md.ForwardGMACsPerSample - md.AttentionGMACsPerSample) * r
	j.attnGMAC = md.AttentionGMACsPerSample * r * r
	j.vaeGMAC = md.VAEDecoderGMACsPerMpx * float64(im.Width) * float64(im.Height) / 1e6 * float64(max(im.Frames, 1))
	j.textGMAC = md.TextEncoderParamsB * float64(md.TextTokens)
	return j, nil
}

// width is the denoiser's widest matrix dimension, for GEMM size
// efficiency and activation memory.
func (j imageJob) width() float64 {
	if j.md.Hidden > 0 {
		return float64(j.md.Hidden)
	}
	return 1280 // the widest UNet level of SD 1/2/XL
}

// dramShare is the share of a pass's elementwise traffic (bytes, all
// GEMM and convolution outputs of the pass on this GPU) that reaches
// device memory. A kernel that reads the tensor the previous kernel just
// wrote finds it in the GPU's last-level cache when it fits: the cache's
// share diffusion.l2_share (the rest holds weight tiles and the other
// operand) against the size of one tensor, a pass's traffic spread over
// its blocks' ~15 width-sized outputs each. Small batches of small
// latents stay on chip; a batch whose tensors are many times the cache
// streams nearly all of it. A GPU whose catalog row gives no cache size
// streams all of it.
func (j imageJob) dramShare(m *Params, a *catalog.Accelerator, passBytes float64) float64 {
	if a.L2MiB <= 0 || passBytes <= 0 {
		return 1
	}
	tensor := passBytes / (j.blocks() * tensorsPerBlock)
	cache := a.L2MiB * (1 << 20) * m.DiffL2Share
	return tensor / (tensor + cache)
}

// unetLevelTokens is how many times fewer positions the UNet level that
// carries most of the linear work has than the latent (two 2x
// downsamplings).
const unetLevelTokens = 16

// tensorsPerBlock is the number of width-sized GEMM and convolution outputs
// of one denoiser block (q, k, v, out, cross-attention, GEGLU's 8, the down
// projection), as patchGatherShare counts them.
const tensorsPerBlock = 15

// headPad is the share of a fused attention kernel's arithmetic that does
// useful work: FlashAttention (and TensorRT's and cuDNN's fused kernels)
// are compiled for head widths in steps of 32 (32, 64, 96, 128, ... 256)
// and pad a head to the next one, so SD 1.5's 40-wide heads run as 64
// (0.625) and PixArt's 72 as 96 (0.75). A model without a head width is
// taken as unpadded.
func (j imageJob) headPad() float64 {
	d := j.md.EffectiveHeadDim()
	if d <= 0 {
		return 1
	}
	padded := (d + 31) / 32 * 32
	return float64(d) / float64(padded)
}

// blocks is the denoiser's number of blocks (transformer and ResNet
// blocks of a UNet, layers of a DiT): what an eager framework's host cost
// scales with.
func (j imageJob) blocks() float64 {
	if j.md.Layers > 0 {
		return float64(j.md.Layers)
	}
	return defaultBlocks
}

// call is one pipeline call of batch images on one group.
//
// A denoiser step costs, on the GPU, its GEMMs and convolutions, its
// attention, and the elementwise kernels between them, which read and
// write every GEMM output several times at the memory bandwidth (the
// eager count, or the share a compiled engine leaves unfused), or the
// weight stream if longer; then the communication of a context-parallel
// group. The host launches the step's kernels asynchronously: a step
// takes the longer of the GPU's time and the host's (per block and pass
// in an eager framework, a graph replay in a compiled one).
func (j imageJob) call(m *Params, c Cluster, f archFactors, batch int) imageCall {
	a := c.GPU
	B := float64(batch)
	cp := float64(j.cp)
	// The host dispatches an eager pass block by block; a compiled engine
	// replays the pass as one graph (its host cost is then hidden).
	hostBlock := m.DiffLaunchS
	ewShare := 1.0
	if j.eng.compiled {
		hostBlock = 0
		ewShare = m.DiffEWFused
	}
	rows := B * j.guide * j.tokens / cp
	// A UNet's GEMMs and convolutions run at the resolution of their
	// level: SDXL does 78% of its linear work at 32² (1,024 positions of
	// its 16,384-token latent), SD 1.x spreads it evenly over 64² to 16²;
	// both centre two 2x downsamplings below the latent, a sixteenth of
	// its tokens. A DiT runs every block at the full token count.
	gemmRows := rows
	if j.md.Arch == workload.ArchUNet {
		gemmRows = rows / unetLevelTokens
	}
	size := m.sizeEff(gemmRows, j.width())
	conv := 1.0
	if j.md.Arch == workload.ArchUNet {
		conv = m.UNetConv
	}
	eff := m.DiffGEMM
	var out imageCall
	out.linS = 2e9 * j.linGMAC * B * j.guide / cp / (m.matmulFLOPS(a, f, j.dt) * eff * size * conv)
	attnPeak := peakNominal(a, j.attnDT) * f.Attn * m.DiffAttn * powerDerate(a)
	if j.eng.sdpa && a.Architecture == "hopper" {
		attnPeak *= fa2OnHopper
	}
	out.attnS = 2e9 * j.attnGMAC * B * j.guide / cp / (attnPeak * j.headPad())
	bw := a.MemBandwidthGBps * 1e9 * f.BW
	// Elementwise traffic: a GEMM or convolution of fan-in K writes one
	// output per K multiply-accumulates; the denoiser's fan-in is about
	// its width. Activations are 16-bit (fp32 pipelines: 32).
	actBytes := vaeBytes(j.attnDT)
	outputs := j.linGMAC * 1e9 / j.width() * B * j.guide / cp
	ewS := outputs * actBytes * m.DiffEWPasses * ewShare / bw * j.dramShare(m, a, outputs*actBytes)
	// Each pass streams the weights once; at small batches on big models
	// that can outlast the arithmetic.
	weightS := j.md.ParamsB * 1e9 * dtBytes(j.dt) / bw
	out.memS = math.Max(0, weightS-out.linS-out.attnS) + ewS
	if j.cp > 1 {
		if j.md.Arch == workload.ArchDiT && j.md.Layers > 0 {
			// Ulysses sequence parallelism: four all-to-alls of the local
			// activations per block (q, k, v in; attention output back).
			vol := 4 * rows * j.width() * actBytes * (cp - 1) / cp
			out.commS = float64(j.md.Layers) * (vol/(c.intraGBps()*1e9*m.A2AEff) + 4*collectiveLatencyS)
		} else {
			// Patch parallelism (DistriFusion): every block gathers its
			// input from the other patches, synchronously.
			vol := patchGatherShare * j.linGMAC * 1e9 / j.width() * B * j.guide * actBytes * (cp - 1) / cp
			out.commS = vol/(c.intraGBps()*1e9) + j.blocks()*collectiveLatencyS
		}
	}
	// The weight stream overlaps the arithmetic; the kernels' launch gaps
	// on the GPU do not.
	out.gapS = j.blocks() * m.DiffLaunchS * m.DiffGapShare
	gpu := out.linS + out.attnS + out.gapS + out.memS
	host := j.blocks() * hostBlock
	out.stepS = math.Max(gpu, host) + out.commS
	textFLOPS := m.matmulFLOPS(a, f, j.attnDT) * eff
	out.textS = 2e9*j.textGMAC*B*j.guide/textFLOPS + host
	out.vaeS = 2e9*j.vaeGMAC*B/cp/(m.matmulFLOPS(a, f, j.vaeDT)*m.VAEEff) + host
	out.hostS = host * (float64(j.im.Steps) + 2)
	out.hostExposedS = math.Max(0, host-gpu)*float64(j.im.Steps) + 2*host
	out.latencyS = out.textS + float64(j.im.Steps)*out.stepS + out.vaeS
	out.flops = 2e9 * B * (j.guide*(j.textGMAC+float64(j.im.Steps)*(j.linGMAC+j.attnGMAC)) + j.vaeGMAC)
	return out
}

// memoryGB is one GPU's memory for a call of batch images.
func (j imageJob) memoryGB(batch int, capacity float64) Memory {
	md := j.md
	weights := md.ParamsB*dtBytes(j.dt) + md.TextEncoderParamsB*2 + md.VAEParamsB*vaeBytes(j.vaeDT)
	B := float64(batch)
	// Denoiser activations: the widest layer's intermediates (about 12
	// values per token and unit of width, 16-bit) for every latent of the
	// batch on this GPU.
	act := B * j.guide * j.tokens / float64(j.cp) * j.width() * 24 / 1e9
	// VAE decode at full resolution: ~3 live tensors of 128 channels per
	// pixel; a video VAE decodes tile by tile (one latent frame at a time).
	frames := 1.0
	if md.TemporalFactor <= 1 {
		frames = float64(max(j.im.Frames, 1))
	} else {
		frames = float64(md.TemporalFactor)
	}
	vae := B * float64(j.im.Width) * float64(j.im.Height) * frames * 128 * 3 * vaeBytes(j.vaeDT) / 1e9
	if j.md.TemporalFactor > 1 {
		vae /= B // tiles are decoded one clip at a time
	}
	act = math.Max(act, vae)
	total := weights + act + runtimeGB
	return roundMemory(Memory{WeightsGB: weights, ActivationsGB: act, OverheadGB: runtimeGB, TotalGB: total, CapacityGB: capacity})
}

// dtBytes is the stored size of one weight run in d (scales included for fp4).
func dtBytes(d catalog.DataType) float64 {
	switch d {
	case catalog.FP32, catalog.TF32:
		return 4
	case catalog.FP8, catalog.INT8:
		return 1
	case catalog.FP4:
		return workload.FP4.StoredBytes()
	}
	return 2
}

func vaeBytes(d catalog.DataType) float64 {
	if d == catalog.FP32 || d == catalog.TF32 {
		return 4
	}
	return 2
}

// imageUnit is the throughput unit of an image-generation prediction.
func imageUnit(md *workload.Model, im *workload.Image) string {
	if md != nil && md.TemporalFactor > 1 && im != nil && im.Frames > 1 {
		return "videos/s"
	}
	return "images/s"
}

// serviceHeadroom is the busiest a replica is run at under a latency
// target: bursts above the mean rate queue behind the call in progress.
const serviceHeadroom = 0.7

func predictImage(m *Params, spec *workload.Spec, c Cluster, p *Prediction) error {
	a := c.GPU
	f := c.factors(m)
	var notes []msg.Msg
	j, err := newImageJob(spec, a, &notes)
	if err != nil {
		return err
	}
	im := j.im
	p.Assumptions = append(p.Assumptions, notes...)
	if j.cp > c.GPUs || c.GPUs%j.cp != 0 {
		p.Fits = false
		p.Bottleneck = Interconnect
		p.Reason = msg.New("parallelism.context %d does not divide the %d GPUs", j.cp, c.GPUs)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("use a GPU count that is a multiple of parallelism.context")
		return nil
	}
	groups := c.GPUs / j.cp
	capGB := a.MemGiB * 1.073741824
	mem := j.memoryGB(im.Batch, capGB)
	p.Memory = mem
	p.MemoryPerGPUGB = mem.TotalGB
	p.Parallelism = Parallelism{Data: groups, Tensor: 1, Pipeline: 1, Context: j.cp, Replicas: groups, MicroBatch: im.Batch}
	if j.cp <= 1 {
		p.Parallelism.Context = 0
	}
	if mem.TotalGB > capGB {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = msg.New("%s with its text encoders needs %.0f GB per GPU at batch %d, more than %.0f GB", j.md.Preset, mem.TotalGB, im.Batch, capGB)
		if j.md.Preset == "" {
			p.Reason = msg.New("the model with its text encoders needs %.0f GB per GPU at batch %d, more than %.0f GB", mem.TotalGB, im.Batch, capGB)
		}
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("a smaller image.batch, fp8 or int8 weights, offloading the text encoders (they run once per request), or a GPU with more memory would fit")
		return nil
	}
	p.Fits = true
	call := j.call(m, c, f, im.Batch)
	perGroup := float64(im.Batch) / call.latencyS
	unit := imageUnit(j.md, im)
	thr := perGroup * float64(groups)
	p.Throughput = Quantity{Value: thr, Unit: unit}
	p.LatencyS = ptr(round(call.latencyS, 3))
	p.StepTimeS = round(call.stepS, 4)
	p.SecondsPerImage = ptr(round(1/thr, 4))
	p.MFU = round(math.Min(1, call.flops/call.latencyS/(float64(j.cp)*peakNominal(a, j.dt))), 3)
	p.Efficiency = round(call.flops/call.latencyS/(float64(j.cp)*peakNominal(a, j.dt)), 3)
	p.Utilization = 1
	steps := float64(im.Steps)
	p.Breakdown = Breakdown{ComputeS: round(call.textS+steps*(call.linS+call.attnS+call.gapS)+call.vaeS-call.hostS/(steps+2)*2, 4),
		MemoryS: round(steps*call.memS, 4), CommTotalS: round(steps*call.commS, 4), CommExposedS: round(steps*call.commS, 4),
		OverheadS: round(call.hostExposedS, 4)}
	if c.GPUs > 1 && j.cp > 1 {
		p.Breakdown.CommLink = "intra-node " + c.LinkKind
	}
	if im.Images > 0 {
		p.DurationHours = ptr(im.Images / thr / 3600)
	}
	if rps := im.RequestsPerSecond; rps != nil {
		p.Serving = imageService(j, call, groups, *rps, p)
	}
	p.Assumptions = append(p.Assumptions,
		msg.New("%.0f latent tokens per image; one denoiser pass %.0f GMAC per image (%.0f linear, %.0f attention)%s; VAE decode %.0f GMAC; text encoders %.0f GMAC per prompt",
			j.tokens, j.linGMAC+j.attnGMAC, j.linGMAC, j.attnGMAC, guidanceNote(j.guide), j.vaeGMAC, j.textGMAC),
		msg.New("%s: %s; denoiser in %s, VAE in %s", j.fw, j.eng.note, j.dt, j.vaeDT),
		msg.New("each of %d GPU groups of %d runs its own pipeline calls of %d images: %.2f s per call (%.3f s text encoding, %d steps of %.3f s, %.3f s VAE decode)",
			groups, j.cp, im.Batch, call.latencyS, call.textS, im.Steps, call.stepS, call.vaeS))
	imageVerdict(j, call, p)
	return nil
}

func guidanceNote(g float64) string {
	if g > 1 {
		return ", run twice per step for classifier-free guidance"
	}
	return ""
}

// imageService sizes a service: replicas (GPU groups) to carry the request
// rate at the headroom the latency target leaves.
func imageService(j imageJob, call imageCall, groups int, rps float64, p *Prediction) *Serving {
	cap1 := float64(j.im.Batch) / call.latencyS // requests/s of one group
	headroom := serviceHeadroom
	slo := j.im.SLO.LatencyS
	meets := true
	if slo > 0 {
		// A request waits for the call in progress, then runs in its own
		// (p99 ≈ two calls); a target between one and two calls leaves
		// less room for queueing.
		switch {
		case slo >= 2*call.latencyS:
		case slo >= call.latencyS:
			headroom *= (slo - call.latencyS) / call.latencyS
		default:
			meets = false
		}
	}
	s := &Serving{Batch: j.im.Batch, RequestsPerS: round(cap1*float64(groups), 3), Batching: string(workload.BatchingStatic),
		Engine: string(j.fw), Load: round(rps/(cap1*float64(groups)), 3)}
	if meets && headroom > 0.01 {
		s.ReplicasNeeded = int(math.Ceil(rps / (cap1 * headroom)))
		s.MaxBatchSLO = j.im.Batch
		ok := groups >= s.ReplicasNeeded
		s.Sustainable = &ok
	} else {
		no := false
		s.Sustainable = &no
	}
	p.Throughput.Value = math.Min(p.Throughput.Value, rps)
	return s
}

func imageVerdict(j imageJob, call imageCall, p *Prediction) {
	steps := float64(j.im.Steps)
	terms := []struct {
		name string
		s    float64
		what string
	}{
		{Compute, steps*(call.linS+call.attnS+call.gapS) + call.textS + call.vaeS - call.hostS*2/(steps+2), "denoiser, text encoder and VAE arithmetic"},
		{MemoryBandwidth, steps * call.memS, "elementwise kernels and weight reads at the memory bandwidth"},
		{Interconnect, steps * call.commS, "all-to-alls of the sequence-parallel group"},
		{CPU, call.hostExposedS, "host-side kernel launches and scheduling not hidden behind the GPU"},
	}
	best := 0
	for i, t := range terms {
		if t.s > terms[best].s {
			best = i
		}
	}
	t := terms[best]
	p.Bottleneck = t.name
	p.Verdict = msg.New("%s take %.0f%% of each %.2f s pipeline call.", t.what, 100*t.s/call.latencyS, call.latencyS)
	switch t.name {
	case Compute:
		if call.attnS > call.linS {
			p.Fix = msg.New("attention dominates at this resolution: fewer tokens (lower resolution or frames) or an engine with faster attention would help")
		} else if j.dt != catalog.FP8 && j.dt != catalog.INT8 && j.dt != catalog.FP4 {
			p.Fix = msg.New("fp8 or int8 denoiser weights (TensorRT ModelOpt) or fewer steps would cut it")
		} else {
			p.Fix = msg.New("fewer steps (a distilled sampler) or a faster GPU would cut it")
		}
	case MemoryBandwidth:
		if j.eng.compiled {
			p.Fix = msg.New("a larger image.batch would reuse each weight read for more images")
		} else {
			p.Fix = msg.New("a compiled engine (tensorrt, diffusers-compile) fuses the elementwise kernels into the GEMMs")
		}
	case Interconnect:
		p.Fix = msg.New("fewer GPUs per image (parallelism.context) trades latency for throughput")
	case CPU:
		p.Fix = msg.New("a compiled engine (tensorrt, diffusers-compile) or a larger batch would hide the launches")
	}
}
