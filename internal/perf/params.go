package perf

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Params are the model's calibrated factors: each a physical quantity (how
// close real kernels get to a datasheet figure, how many bytes a class of
// kernels moves), never a per-benchmark correction. Their priors come from
// kernel benchmarks and vendor figures (Why, in Factors); the fitted values
// come from `go run ./cmd/perffit`, which fits them on the published
// measurements in internal/perf/fit/testdata and writes model.json.
type Params struct {
	arch map[string]archFactors
	// intervals are the prediction intervals by regime (model.json); nil
	// for parameters being fitted.
	intervals map[string][2]float64

	// FP8Ratio is the share of the FP8 peak that large FP8 GEMMs reach,
	// relative to the BF16 share (scaling, casts and less mature kernels).
	FP8Ratio float64
	// FP4Ratio is the same for NVFP4/MXFP4 GEMMs against the FP4 peak.
	FP4Ratio float64
	// GemmHalfM is the GEMM row count (tokens) at which a GEMM reaches half
	// its large-size efficiency; GemmHalfN the same for its width.
	GemmHalfM, GemmHalfN float64
	// EWTrain is the device-memory traffic of a training step's non-GEMM
	// kernels (norms, activations, residuals, rotary, casts) in bytes per
	// token, per layer and per unit of hidden width, forward and backward,
	// in an eager framework.
	EWTrain float64
	// EWFFN is the same per unit of the MLP inner width a token passes
	// through (the gated activation and its gradient).
	EWFFN float64
	// EWFused is the share of eager elementwise traffic that a fused step
	// (Transformer Engine fusions, torch.compile, XLA) still moves.
	EWFused float64
	// EWPrefill is the forward-only traffic, bytes per token, layer and
	// unit of hidden width, of a serving engine's fused prefill.
	EWPrefill float64
	// LossBytes is the traffic of the output softmax and cross-entropy, in
	// bytes per token and per vocabulary entry (fp32 logits written, read
	// and their gradient written).
	LossBytes float64
	// MoEGrouped is the efficiency of grouped expert GEMMs relative to one
	// dense GEMM of the same total size (ragged tiles, per-expert launch).
	MoEGrouped float64
	// MoEPermute is the traffic of token permutation and unpermutation,
	// bytes per routed token copy and per unit of hidden width, forward and
	// backward.
	MoEPermute float64
	// A2AEff is the share of a link's collective bandwidth that an
	// all-to-all reaches (many small messages, uneven destinations).
	A2AEff float64
	// OverlapEP, OverlapTP and OverlapDP are the shares of expert-,
	// tensor- and data-parallel communication that computation hides.
	OverlapEP, OverlapTP, OverlapDP float64
	// DecodeOverlap is the share of the shorter of a decode step's memory
	// and compute time that does not overlap with the longer.
	DecodeOverlap float64
	// MoEDecodeBW is the share of the streaming bandwidth that grouped
	// expert kernels reach when a decode step reads expert weights.
	MoEDecodeBW float64
	// KVDecodeBW is the share of the weights' streaming bandwidth that
	// decode attention kernels read the KV cache at.
	KVDecodeBW float64
	// CNNBytesPerAct is a CNN training step's device-memory traffic per
	// forward activation element (conv outputs written and read by batch
	// norm, activation and their gradients), in an eager framework.
	CNNBytesPerAct float64
	// CNNConv is the efficiency of convolutions relative to large GEMMs
	// (small channel counts, 1x1 and strided convolutions, im2col).
	CNNConv float64
	// CNNFused is the share of eager CNN traffic that a fused framework
	// (XLA, NVIDIA's MXNet with fused batch norm and ReLU) still moves.
	CNNFused float64
	// MoELayerS is the host-visible cost of one MoE layer in a decode step
	// beyond its expert GEMMs: router GEMM, top-k, permutation and
	// unpermutation kernels, s.
	MoELayerS float64
	// DecodeLayerS is the GPU time a decode step loses per layer to the
	// gaps between its kernels and their ramps, even replayed from a graph.
	DecodeLayerS float64
	// DiffGEMM is the share of the architecture's matmul efficiency that a
	// diffusion denoiser's GEMMs and convolutions reach, whatever the
	// engine: eager PyTorch calls the same cuBLAS/cuDNN kernels a compiled
	// engine does; what differs between engines is modelled apart (the
	// elementwise traffic they leave unfused, DiffEWPasses, and the host's
	// launches, DiffLaunchS).
	DiffGEMM float64
	// DiffAttn multiplies the architecture's attention factor (fitted on
	// training, forward and backward) for a diffusion model's forward-only
	// attention over thousands of tokens.
	DiffAttn float64
	// UNetConv is the efficiency of a UNet's convolutions and projections
	// relative to large GEMMs (3×3 convolutions with 320-1280 channels,
	// group norms between them).
	UNetConv float64
	// DiffEWPasses is the device-memory traffic of an eager denoiser's
	// elementwise kernels (group and layer norms, SiLU/GELU, GEGLU's
	// split and product, residual adds, layout copies around attention),
	// in 16-bit accesses per element that the GEMMs and convolutions
	// output. A compiled engine keeps the share ew.fused of it.
	DiffEWPasses float64
	// DiffLaunchS is the host time an eager framework spends per
	// denoiser block and pass (some 20-40 operator dispatches and kernel
	// launches), s. The host runs ahead of the GPU, so a step costs the
	// longer of the two; a compiled engine replays graphs and keeps the
	// share compiledHostShare of it.
	DiffLaunchS float64
	// DiffGapShare is the share of DiffLaunchS that the GPU itself spends
	// per block between and inside its small kernels (launch latency,
	// wave tails of short kernels) whatever the engine: it is serial
	// with the arithmetic and graph replay does not remove it.
	DiffGapShare float64
	// DiffEWFused is the share of the eager elementwise traffic that a
	// compiled engine (TensorRT, torch.compile, XLA, HPU graphs) still
	// moves after fusing norms and activations into its GEMMs and
	// convolutions.
	DiffEWFused float64
	// DiffL2Share is the share of the GPU's last-level cache (L2, Infinity
	// Cache) that keeps the activation tensor one denoiser kernel writes
	// for the next kernel to read.
	DiffL2Share float64
	// VAEEff is the share of the matmul rate the VAE decoder's
	// full-resolution convolutions (128-512 channels) reach.
	VAEEff float64
}

// archFactors says how close well-tuned kernels come to one
// architecture's datasheet peaks.
type archFactors struct {
	// Matmul is the share of dense BF16/FP16 peak that large matrix
	// multiplications sustain (clocks under power limits, tile quantisation).
	Matmul float64
	// BW is the share of peak memory bandwidth that streaming kernels reach.
	BW float64
	// Attn is the share of dense peak that the architecture's best fused
	// attention kernels reach over a training step (forward and backward):
	// FlashAttention-2 on Ampere, FlashAttention-3 / cuDNN on Hopper,
	// cuDNN / FlashAttention-4 on Blackwell.
	Attn float64
	// DecodeMatmul is the share of Matmul's rate that a decode step's
	// dense GEMMs of two to a few hundred rows reach in the stack's GEMM
	// library: 1 where decode kernels are tuned for them (cuBLAS,
	// TensorRT-LLM), less where they run the library's general kernels.
	DecodeMatmul float64
	// Confidence is how well published results pin the factors down.
	Confidence string
}

// Factor describes one parameter: its name in model.json, its prior (the
// physical estimate before fitting), the bounds a fit may move it in,
// whether the fit program fits it, and why the prior is what it is.
type Factor struct {
	Name  string
	Prior float64
	// Spread is how uncertain the prior is, in ln units: a fit pays as
	// much for moving the factor by Spread as for one row off by the
	// fit's robust scale.
	Spread float64
	Lo, Hi float64
	Fit    bool
	Why    string
	// Image marks a factor of the image-generation model only: the fit
	// moves it on the image-generation rows alone, and moves every other
	// factor on the other rows alone (see fit.Fit).
	Image bool
	get   func(*Params) float64
	set   func(*Params, float64)
}

// Get reads the factor's value in p.
func (f Factor) Get(p *Params) float64 { return f.get(p) }

// Set writes v into p.
func (f Factor) Set(p *Params, v float64) { f.set(p, v) }

type archPrior struct {
	name            string
	matmul, bw, att float64
	decode          float64 // DecodeMatmul
	confidence      string
	fit             bool // published measurements exist to fit it on
	why             string
}

// archPriors are the architecture factors before fitting, from vendor GEMM
// and attention kernel benchmarks. The NVIDIA architectures with published
// end-to-end results are fitted; the others keep their priors and a lower
// stated confidence.
var archPriors = []archPrior{
	{"volta", 0.80, 0.80, 0.55, 1, "medium", true, "cuBLAS HGEMM on V100 reaches ~100 of 125 TFLOPS"},
	{"turing", 0.70, 0.75, 0.50, 1, "low", false, "T4 is power-limited at 70 W: tensor clocks drop under load"},
	{"ampere", 0.85, 0.85, 0.60, 1, "high", true, "cuBLAS on A100 reaches 270-290 of 312 TFLOPS; FlashAttention-2 reaches ~70% forward, ~50% backward"},
	{"ada", 0.70, 0.80, 0.50, 1, "medium", true, "power-limited PCIe cards (L40S 350 W) rarely hold boost clocks under dense GEMM"},
	{"hopper", 0.78, 0.85, 0.50, 1, "high", true, "cuBLAS BF16 on H100 SXM at 700 W sustains ~750-800 of 989 TFLOPS; FlashAttention-3 ~600 forward, ~450 backward"},
	{"blackwell", 0.75, 0.85, 0.50, 1, "medium", true, "B200/GB200 BF16 GEMMs sustain ~1.6-1.8 of 2.25-2.5 PFLOPS; cuDNN attention ~1.5 PFLOPS forward"},
	{"cdna2", 0.50, 0.70, 0.35, 0.5, "low", false, "rocBLAS on MI250X reaches about half of the datasheet peak"},
	{"cdna3", 0.55, 0.70, 0.35, 0.5, "medium", true, "hipBLASLt BF16 GEMMs reach about half of MI300X's dense peak"},
	{"cdna4", 0.55, 0.70, 0.35, 1, "low", false, "as CDNA3 until published MI355X kernels say otherwise"},
	{"gaudi2", 0.70, 0.75, 0.50, 1, "low", true, "Intel's published Gaudi 2 MME utilisation"},
	{"gaudi3", 0.55, 0.75, 0.45, 1, "low", true, "Intel's published Gaudi 3 MME utilisation; the peak is Intel's 1,835 TFLOPS at the nominal clock, and shipping parts run the MME at 1,600 MHz (about 1,677), so about 0.6 of the shipping peak is 0.55 of the nominal one"},
	{"tpu-v4", 0.80, 0.80, 0.60, 1, "medium", false, "PaLM 540B trained at 46% MFU end to end on TPU v4 (Chowdhery et al. 2022), so its XLA GEMMs sustain ~80% of the 275 TFLOPS peak"},
	{"tpu-v5e", 0.80, 0.80, 0.60, 1, "medium", false, "MaxText reports 55-70% MFU on TPU v5e/v5p"},
	{"tpu-v5p", 0.80, 0.80, 0.60, 1, "medium", false, "MaxText reports 55-70% MFU on TPU v5e/v5p"},
	{"tpu-v6e", 0.75, 0.80, 0.55, 1, "medium", false, "as v5p, with a younger compiler"},
	{"neuron-v2", 0.55, 0.70, 0.40, 1, "low", false, "Neuron SDK published utilisation"},
	{"neuron-v3", 0.55, 0.70, 0.40, 1, "low", false, "Neuron SDK published utilisation"},
	{"davinci", 0.50, 0.65, 0.35, 1, "low", false, "third-party Ascend 910B MFU reports"},
}

// fallbackArch is used for an architecture the model has no factors for.
var fallbackArch = archFactors{0.55, 0.70, 0.35, 1, "low"}

func scalar(name string, prior, spread, lo, hi float64, fit bool, why string, field func(*Params) *float64) Factor {
	return Factor{Name: name, Prior: prior, Spread: spread, Lo: lo, Hi: hi, Fit: fit, Why: why,
		get: func(p *Params) float64 { return *field(p) }, set: func(p *Params, v float64) { *field(p) = v }}
}

func archFactor(a archPrior, what string, prior, spread, lo, hi float64, fit bool) Factor {
	name := a.name + "." + what
	return Factor{Name: name, Prior: prior, Spread: spread, Lo: lo, Hi: hi, Fit: fit && a.fit, Why: a.why,
		get: func(p *Params) float64 {
			f := p.arch[a.name]
			switch what {
			case "matmul":
				return f.Matmul
			case "bandwidth":
				return f.BW
			case "decode_matmul":
				return f.DecodeMatmul
			}
			return f.Attn
		},
		set: func(p *Params, v float64) {
			f := p.arch[a.name]
			switch what {
			case "matmul":
				f.Matmul = v
			case "bandwidth":
				f.BW = v
			case "decode_matmul":
				f.DecodeMatmul = v
			default:
				f.Attn = v
			}
			p.arch[a.name] = f
		}}
}

// imageFactor marks f as a factor of the image-generation model.
func imageFactor(f Factor) Factor {
	f.Image = true
	return f
}

// spreadOf is how uncertain an architecture's priors are: vendor kernel
// benchmarks pin NVIDIA's well-studied parts to about 10%, younger stacks
// much less.
func spreadOf(a archPrior) float64 {
	switch a.confidence {
	case "high":
		return 0.1
	case "medium":
		return 0.2
	}
	return 0.3
}

// factors is the registry of every parameter, in a stable order.
var factors = func() []Factor {
	var fs []Factor
	for _, a := range archPriors {
		fs = append(fs,
			archFactor(a, "matmul", a.matmul, spreadOf(a), 0.35, 0.95, true),
			archFactor(a, "bandwidth", a.bw, spreadOf(a), 0.5, 0.95, true),
			archFactor(a, "attention", a.att, 0.2, 0.2, 0.8, a.name == "hopper" || a.name == "ampere" || a.name == "blackwell"))
		if a.decode != 1 {
			// Where the decode GEMMs run a general library (hipBLASLt
			// from two rows on, in vLLM's ROCm build), published decode
			// batch sweeps measure their share.
			f := archFactor(a, "decode_matmul", a.decode, 0.5, 0.1, 1.0, true)
			f.Why = "vLLM's ROCm build runs one-row FP8 GEMMs in its skinny kernel (wvSplitKQ) and every larger one in hipBLASLt through torch._scaled_mm; " +
				"for the 128-row QKV GEMM of Llama 3 70B over 8 MI300X, AMD measured 33 TFLOPS with the default kernel against 219 tuned (ROCm/aiter PR 1092), " +
				"and ROCm/MAD runs Llama in float16 on gfx942 'for better GEMM perf': about half the large-GEMM rate"
			fs = append(fs, f)
		}
	}
	fs = append(fs,
		scalar("fp8.ratio", 0.85, 0.15, 0.6, 1.0, true, "cuBLAS FP8 on H100 sustains ~1300 of 1979 TFLOPS (0.66) against ~0.78 for BF16", func(p *Params) *float64 { return &p.FP8Ratio }),
		scalar("fp4.ratio", 0.75, 0.2, 0.45, 1.0, true, "NVFP4 GEMMs pay for block scales and quantisation; Blackwell FP4 kernels are young", func(p *Params) *float64 { return &p.FP4Ratio }),
		scalar("gemm.half_m", 256, 0.5, 64, 1024, false, "Calculon's A100 efficiency curves: GEMMs of a few hundred rows run at about half the efficiency of large ones", func(p *Params) *float64 { return &p.GemmHalfM }),
		scalar("gemm.half_n", 128, 0.5, 32, 512, false, "narrow GEMMs (small tensor-parallel shards, small experts) quantise poorly onto 128-wide tiles", func(p *Params) *float64 { return &p.GemmHalfN }),
		scalar("ew.train", 400, 0.3, 150, 900, true, "norms, residuals, rotary and casts read and write the hidden state ~10 times forward and ~20 times backward in bf16; eager frameworks add copies", func(p *Params) *float64 { return &p.EWTrain }),
		scalar("ew.ffn", 12, 0.3, 6, 24, false, "a gated activation reads two inner-width tensors and writes one forward (6 bytes), twice that backward", func(p *Params) *float64 { return &p.EWFFN }),
		scalar("ew.fused", 0.5, 0.3, 0.2, 1.0, true, "Transformer Engine and torch.compile fuse norms, activations and casts into neighbouring kernels", func(p *Params) *float64 { return &p.EWFused }),
		scalar("ew.prefill", 100, 0.5, 30, 400, true, "a serving engine's fused forward pass reads and writes the hidden state a few times per layer", func(p *Params) *float64 { return &p.EWPrefill }),
		scalar("loss.bytes", 12, 0.3, 6, 24, false, "fp32 logits written and read by the softmax, and their gradient written", func(p *Params) *float64 { return &p.LossBytes }),
		scalar("moe.grouped", 0.8, 0.3, 0.4, 1.0, true, "grouped GEMMs over ragged expert batches lose tiles at each expert's edge", func(p *Params) *float64 { return &p.MoEGrouped }),
		scalar("moe.permute", 16, 0.5, 8, 48, false, "permutation and unpermutation read and write each routed token copy, forward and backward", func(p *Params) *float64 { return &p.MoEPermute }),
		scalar("comm.a2a", 0.7, 0.4, 0.3, 0.95, true, "NCCL and DeepEP all-to-all reach ~60-80% of the bus bandwidth an all-reduce reaches", func(p *Params) *float64 { return &p.A2AEff }),
		scalar("overlap.ep", 0.5, 0.7, 0.0, 0.9, true, "Megatron overlaps the expert all-to-all of one micro-batch with another's compute (1F1B all-to-all overlap) and dispatches fp8 tokens under fp8 training", func(p *Params) *float64 { return &p.OverlapEP }),
		scalar("overlap.tp", 0.3, 0.5, 0.0, 0.9, false, "tensor-parallel collectives sit on the critical path; sequence-parallel overlap hides some", func(p *Params) *float64 { return &p.OverlapTP }),
		scalar("overlap.dp", 0.85, 0.2, 0.5, 1.0, false, "gradient reduce-scatter and parameter all-gather are bucketed and overlapped with the backward and forward passes", func(p *Params) *float64 { return &p.OverlapDP }),
		scalar("decode.overlap", 0.25, 0.6, 0.0, 1.0, true, "in a decode step, weight streaming and GEMMs overlap only partly", func(p *Params) *float64 { return &p.DecodeOverlap }),
		scalar("kv.decode_bw", 0.93, 0.3, 0.4, 1.0, true, "paged decode attention reads the KV cache at 0.83-0.88 of H100's peak bandwidth when a call reads 0.5-1 GiB (FlashInfer; vLLM's PagedAttention v2 85% at batch 64 and 1k tokens), against about 0.9 for a weights stream, and far less on smaller reads or with GQA in older kernels (28% for PagedAttention v2 at 8k tokens): FlashInfer blog 2024-02-02, flashinfer-ai/flashinfer-ai.github.io@13d192bd", func(p *Params) *float64 { return &p.KVDecodeBW }),
		scalar("moe.decode_bw", 0.7, 0.4, 0.3, 1.0, true, "fused-MoE kernels stream expert weights below the bandwidth of dense GEMMs", func(p *Params) *float64 { return &p.MoEDecodeBW }),
		scalar("cnn.bytes_per_act", 40, 0.3, 10, 120, true, "a conv output is written, read and written by batch norm and ReLU forward (10 bytes in fp16), about twice that backward, plus the next layer's reads", func(p *Params) *float64 { return &p.CNNBytesPerAct }),
		scalar("cnn.conv", 0.6, 0.3, 0.3, 1.0, true, "cuDNN convolutions with few channels (64-256) or 1x1 kernels reach about half to two thirds of GEMM efficiency", func(p *Params) *float64 { return &p.CNNConv }),
		scalar("cnn.fused", 0.8, 0.2, 0.4, 1.0, true, "XLA and fused batch-norm/ReLU kernels remove some, not most, of a CNN's passes (the convolutions still write and read every activation)", func(p *Params) *float64 { return &p.CNNFused }),
		imageFactor(scalar("diffusion.gemm", 0.8, 0.3, 0.4, 1.0, true, "cuBLAS/cuDNN GEMMs and convolutions of a denoiser at batch 1-16 run narrower and shorter than an LLM's large GEMMs", func(p *Params) *float64 { return &p.DiffGEMM })),
		imageFactor(scalar("diffusion.attention", 1.2, 0.3, 0.5, 1.8, true, "forward-only FlashAttention/SDPA over thousands of tokens runs faster than the training-step average of the architecture's attention factor", func(p *Params) *float64 { return &p.DiffAttn })),
		imageFactor(scalar("unet.conv", 0.7, 0.3, 0.3, 1.0, true, "cuDNN 3x3 convolutions with 320-1280 channels reach most, not all, of GEMM efficiency; half a UNet's work is convolution", func(p *Params) *float64 { return &p.UNetConv })),
		imageFactor(scalar("diffusion.ew_passes", 12, 0.5, 3, 40, true, "per GEMM/conv output element an eager UNet or DiT block reads and writes it in a norm, an activation, a residual add and layout copies: about 6 reads and writes of 16 bits, twice that with GEGLU's 8x-wide intermediate and fp32 group-norm statistics", func(p *Params) *float64 { return &p.DiffEWPasses })),
		imageFactor(scalar("diffusion.launch_s", 0.8e-3, 0.7, 0.1e-3, 4e-3, true, "an eager transformer or ResNet block dispatches some 20-40 PyTorch operators at 20-40 us of Python and launch each", func(p *Params) *float64 { return &p.DiffLaunchS })),
		imageFactor(scalar("diffusion.gap_share", 0.25, 0.7, 0.02, 1.0, true, "a block's 20-40 kernels each pay ~3-5 us of launch latency and wave tail on the GPU even from a CUDA graph, against ~20-40 us of eager dispatch on the host", func(p *Params) *float64 { return &p.DiffGapShare })),
		imageFactor(scalar("diffusion.ew_fused", 0.4, 0.5, 0.1, 1.0, true, "TensorRT and inductor fuse group norm, SiLU/GELU and residual adds into conv and GEMM epilogues; layout copies and norms' statistics remain", func(p *Params) *float64 { return &p.DiffEWFused })),
		imageFactor(scalar("diffusion.l2_share", 0.5, 0.5, 0.1, 1.0, true, "an elementwise kernel reading the tensor its producer just wrote hits in L2 while the tensor fits; weight tiles, the other operand and imperfect replacement leave about half the cache to it", func(p *Params) *float64 { return &p.DiffL2Share })),
		imageFactor(scalar("vae.eff", 0.5, 0.4, 0.15, 1.0, true, "the VAE decoder's convolutions at full resolution have 128-512 channels and large activations", func(p *Params) *float64 { return &p.VAEEff })),
		scalar("decode.layer_s", 5e-6, 1.0, 0.5e-6, 50e-6, true, "a decode layer runs some ten kernels (norms, QKV, rotary and cache write, attention, output projection, all-reduce, MLP); each loses about half a microsecond to the gap before it and its ramp, even replayed from a graph (a graph replays at about 0.6 us per node: ahrefs/ocannl issue 488, RTX 5070 Ti)", func(p *Params) *float64 { return &p.DecodeLayerS }),
		scalar("moe.layer_s", 30e-6, 1.0, 5e-6, 200e-6, true, "router GEMM, top-k, permutation and unpermutation: five to eight small kernels per MoE layer and decode step", func(p *Params) *float64 { return &p.MoELayerS }),
	)
	return fs
}()

// Factors lists every parameter of the model with its prior, bounds and
// whether it is fitted.
func Factors() []Factor { return slices.Clone(factors) }

// PriorParams are the parameters before any fitting.
func PriorParams() *Params {
	p := &Params{arch: map[string]archFactors{}}
	for _, a := range archPriors {
		p.arch[a.name] = archFactors{a.matmul, a.bw, a.att, a.decode, a.confidence}
	}
	for _, f := range factors {
		f.set(p, f.Prior)
	}
	return p
}

// Clone returns an independent copy of p.
func (p *Params) Clone() *Params {
	c := *p
	c.arch = maps.Clone(p.arch)
	c.intervals = maps.Clone(p.intervals)
	return &c
}

// Values returns the parameters by name, for model.json.
func (p *Params) Values() map[string]float64 {
	out := make(map[string]float64, len(factors))
	for _, f := range factors {
		out[f.Name] = f.get(p)
	}
	return out
}

// arch returns the factors of a's architecture.
func (p *Params) archFor(architecture string) archFactors {
	if f, ok := p.arch[architecture]; ok {
		return f
	}
	return fallbackArch
}

// Model is the content of model.json: the fitted parameters and the
// prediction intervals taken from held-out residuals.
type Model struct {
	// Fitted says how the parameters were obtained (command and data).
	Fitted string `json:"fitted"`
	// Params holds every parameter by name.
	Params map[string]float64 `json:"params"`
	// Intervals maps a regime ("train-dense", "infer-offline", ...) to the
	// 10th and 90th percentiles of ln(measured / predicted) on held-out
	// rows; a prediction's 80% interval is its value times their exponents,
	// widened for lower confidence.
	Intervals map[string][2]float64 `json:"intervals"`
}

//go:embed model.json
var modelJSON []byte

// defaultParams is the embedded, fitted model; its parse is checked by tests.
var defaultParams = func() *Params {
	p, err := LoadModel(modelJSON)
	if err != nil {
		panic(fmt.Sprintf("perf: embedded model.json: %v", err))
	}
	return p
}()

// LoadModel reads a model.json: parameters it names override the priors,
// and its intervals become the parameters' intervals; an unknown name or a
// value outside its bounds is an error.
func LoadModel(data []byte) (*Params, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	p := PriorParams()
	byName := map[string]Factor{}
	for _, f := range factors {
		byName[f.Name] = f
	}
	for _, n := range slices.Sorted(maps.Keys(m.Params)) {
		f, ok := byName[n]
		v := m.Params[n]
		if !ok {
			return nil, fmt.Errorf("params.%s: unknown parameter", n)
		}
		if !(v >= f.Lo && v <= f.Hi) {
			return nil, fmt.Errorf("params.%s: %g is outside [%g, %g]", n, v, f.Lo, f.Hi)
		}
		f.set(p, v)
	}
	for r, q := range m.Intervals {
		if !(q[0] <= 0 && q[1] >= 0 && q[0] > -3 && q[1] < 3) {
			return nil, fmt.Errorf("intervals.%s: [%g, %g] must bracket 0 within ±3", r, q[0], q[1])
		}
	}
	if m.Intervals == nil {
		m.Intervals = map[string][2]float64{}
	}
	p.intervals = m.Intervals
	return p, nil
}

// DefaultParams returns a copy of the embedded, fitted parameters.
func DefaultParams() *Params { return defaultParams.Clone() }

// Intervals returns a copy of the prediction intervals by regime: the 10th
// and 90th percentiles of ln(measured / predicted speed) on held-out rows.
func (p *Params) Intervals() map[string][2]float64 { return maps.Clone(p.intervals) }
