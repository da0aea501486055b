// Package workload is gpupick's description of one job: the types of the
// workload file (DESIGN.md, "Workload file"), its strict decoding from YAML or
// JSON, the model presets, the defaults it fills and the validation that
// names the field and the line of every problem.
//
// The package does no I/O: Parse takes the bytes of a file. Every number in
// a Spec carries its unit in its name or its documentation; after Parse a
// Spec is complete (defaults filled, preset applied) and every default that
// was filled is listed in Spec.Defaults so reports can show their
// assumptions.
package workload

import (
	"math"
	"strings"
)

// Spec is one validated workload: what to run, on what data, under which
// constraints. Blocks that do not apply to Kind are nil.
type Spec struct {
	// Name labels the job in reports and exports; defaults to the file name
	// without its extension.
	Name string `yaml:"name" json:"name"`
	// Kind decides which blocks are required and which model applies.
	Kind Kind `yaml:"kind" json:"kind"`
	// Model is the network: required for the llm kinds and cnn-train, unused
	// by generic.
	Model *Model `yaml:"model,omitempty" json:"model,omitempty"`
	// Training is required for llm-train, llm-finetune and cnn-train.
	Training *Training `yaml:"training,omitempty" json:"training,omitempty"`
	// Inference is required for llm-inference.
	Inference *Inference `yaml:"inference,omitempty" json:"inference,omitempty"`
	// Generic is required for the generic kind.
	Generic *Generic `yaml:"generic,omitempty" json:"generic,omitempty"`
	// Image is required for image-generation: what each request makes and
	// how many.
	Image *Image `yaml:"image,omitempty" json:"image,omitempty"`
	// Service is how a service (a workload with a request rate) runs over
	// the day: its traffic and the losses it must survive. Filled with
	// defaults for every service; an error on a job.
	Service *Service `yaml:"service,omitempty" json:"service,omitempty"`
	// Parallelism fixes parallel degrees; zero fields are chosen by the model.
	Parallelism Parallelism `yaml:"parallelism,omitempty" json:"parallelism"`
	// Data is where the input lives and what the outputs weigh.
	Data Data `yaml:"data,omitempty" json:"data"`
	// Stack is the software the job runs on.
	Stack Stack `yaml:"stack,omitempty" json:"stack"`
	// Constraints bound time, money, cluster size and pricing modes.
	Constraints Constraints `yaml:"constraints,omitempty" json:"constraints"`
	// Compliance states where the data may go and what the provider must offer.
	Compliance Compliance `yaml:"compliance,omitempty" json:"compliance"`
	// Objective is what candidates are ranked by; defaults to cost.
	Objective Objective `yaml:"objective" json:"objective"`

	// Defaults lists every value Parse filled in because the file did not
	// give it, with the reason; it is output only (a file cannot set it).
	Defaults []Default `yaml:"-" json:"defaults"`
}

// Default records one value that Parse filled in: Field is the dotted path
// (e.g. "training.precision"), Value the value as text, Why a sentence for
// the report's assumptions.
type Default struct {
	Field string `json:"field"`
	Value string `json:"value"`
	Why   string `json:"why"`
}

// Model describes the network. A preset fills every field the file leaves
// zero; explicit fields override it. Transformer fields are counts
// (parameters in billions, dimensions in elements); image-model fields are
// per image at ImagePx.
type Model struct {
	// Preset names a published architecture (see Presets); case-insensitive,
	// aliases accepted. Parse stores the canonical name.
	Preset string `yaml:"preset,omitempty" json:"preset,omitempty"`
	// Arch is the architecture family; taken from the preset, else decoder
	// for the llm kinds and cnn for cnn-train.
	Arch Arch `yaml:"arch,omitempty" json:"arch,omitempty"`
	// ParamsB is the total parameter count in billions (all experts of an
	// MoE, embeddings included). Derived from the architecture when absent.
	ParamsB float64 `yaml:"params_b,omitempty" json:"params_b,omitempty"`

	// Layers is the number of transformer blocks.
	Layers int `yaml:"layers,omitempty" json:"layers,omitempty"`
	// Hidden is the model (residual stream) width d_model.
	Hidden int `yaml:"hidden,omitempty" json:"hidden,omitempty"`
	// Heads is the number of query attention heads.
	Heads int `yaml:"heads,omitempty" json:"heads,omitempty"`
	// KVHeads is the number of key/value heads: Heads for multi-head
	// attention, fewer for grouped-query attention; must divide Heads.
	KVHeads int `yaml:"kv_heads,omitempty" json:"kv_heads,omitempty"`
	// HeadDim is the width of one attention head; defaults to Hidden/Heads.
	HeadDim int `yaml:"head_dim,omitempty" json:"head_dim,omitempty"`
	// FFNHidden is the inner width of one MLP (of one expert in an MoE).
	FFNHidden int `yaml:"ffn_hidden,omitempty" json:"ffn_hidden,omitempty"`
	// GatedMLP is true for SwiGLU/GeGLU MLPs (three matrices), false for a
	// plain GELU MLP (two). Defaults to true for decoders without a preset.
	GatedMLP *bool `yaml:"gated_mlp,omitempty" json:"gated_mlp,omitempty"`
	// TiedEmbeddings is true when the output projection shares the input
	// embedding matrix. Defaults to false.
	TiedEmbeddings *bool `yaml:"tied_embeddings,omitempty" json:"tied_embeddings,omitempty"`
	// Vocab is the vocabulary size in tokens.
	Vocab int `yaml:"vocab,omitempty" json:"vocab,omitempty"`
	// ContextLen is the longest sequence the model was trained for, in tokens.
	ContextLen int `yaml:"context_len,omitempty" json:"context_len,omitempty"`

	// Experts is the number of routed experts per MoE layer; 0 for a dense model.
	Experts int `yaml:"experts,omitempty" json:"experts,omitempty"`
	// ActiveExperts is the number of routed experts each token uses (top-k).
	ActiveExperts int `yaml:"active_experts,omitempty" json:"active_experts,omitempty"`
	// SharedExperts is the number of always-active experts per MoE layer
	// (DeepSeek style), each FFNHidden wide.
	SharedExperts int `yaml:"shared_experts,omitempty" json:"shared_experts,omitempty"`
	// ExpertGroups splits the routed experts into this many equal groups
	// for group-limited routing (DeepSeek-V3's n_group, 8); 0: none.
	ExpertGroups int `yaml:"expert_groups,omitempty" json:"expert_groups,omitempty"`
	// RoutedGroups is how many of those groups a token's experts may come
	// from (DeepSeek-V3's topk_group, 4): with one group per node of an
	// expert-parallel group, a token reaches at most that many nodes.
	RoutedGroups int `yaml:"routed_groups,omitempty" json:"routed_groups,omitempty"`
	// DenseLayers is the number of leading layers of an MoE model that use a
	// dense MLP of DenseFFNHidden instead of experts.
	DenseLayers int `yaml:"dense_layers,omitempty" json:"dense_layers,omitempty"`
	// DenseFFNHidden is the MLP inner width of those dense layers.
	DenseFFNHidden int `yaml:"dense_ffn_hidden,omitempty" json:"dense_ffn_hidden,omitempty"`

	// KVLoRARank is the width of the compressed key/value latent of
	// multi-head latent attention (MLA, DeepSeek-V2/V3); 0 for ordinary
	// attention. With MLA the KV cache holds KVLoRARank+RopeHeadDim values
	// per token and layer instead of 2·KVHeads·HeadDim.
	KVLoRARank int `yaml:"kv_lora_rank,omitempty" json:"kv_lora_rank,omitempty"`
	// QLoRARank is the width of MLA's compressed query latent (0 = none).
	QLoRARank int `yaml:"q_lora_rank,omitempty" json:"q_lora_rank,omitempty"`
	// RopeHeadDim is the per-head width of MLA's decoupled rotary key.
	RopeHeadDim int `yaml:"rope_head_dim,omitempty" json:"rope_head_dim,omitempty"`

	// ForwardGMACsPerSample is the forward pass of one image at ImagePx, in
	// billions of multiply-accumulates (GMAC). This is the figure papers and
	// torchvision quote as "GFLOPs" (ResNet-50: 4.1); one MAC is 2 FLOP, and
	// a training step costs 3 forward passes (ForwardFLOPsPerSample,
	// TrainFLOPsPerSample).
	ForwardGMACsPerSample float64 `yaml:"forward_gmacs_per_sample,omitempty" json:"forward_gmacs_per_sample,omitempty"`
	// ForwardActivationsM is the number of values, in millions, that one
	// image's forward pass writes as layer outputs (every convolution or
	// linear layer; batch norm and activations act on them) at ImagePx. A
	// CNN's memory traffic scales with it, not with its FLOPs: depthwise
	// and squeeze-excitation networks move much more per FLOP.
	ForwardActivationsM float64 `yaml:"forward_activations_m,omitempty" json:"forward_activations_m,omitempty"`
	// ImagePx is the side of the square input image in pixels.
	ImagePx int `yaml:"image_px,omitempty" json:"image_px,omitempty"`

	// The fields below describe a diffusion model (arch unet or dit, kind
	// image-generation). ParamsB is then the denoiser's parameters, and
	// ForwardGMACsPerSample one denoiser forward pass for one image (or
	// clip) at ReferenceTokens latent tokens, without guidance.

	// LatentChannels is the number of channels of the VAE latent (4 for
	// SD 1/2/XL, 16 for SD3, FLUX and the video VAEs).
	LatentChannels int `yaml:"latent_channels,omitempty" json:"latent_channels,omitempty"`
	// LatentFactor is the VAE's spatial downsampling: one latent pixel per
	// LatentFactor × LatentFactor image pixels (8 for every published
	// Stable Diffusion, FLUX and video VAE).
	LatentFactor int `yaml:"latent_factor,omitempty" json:"latent_factor,omitempty"`
	// TemporalFactor is a video VAE's compression of time: frames 1+k·T
	// become 1+k latent frames; 0 for an image-only model.
	TemporalFactor int `yaml:"temporal_factor,omitempty" json:"temporal_factor,omitempty"`
	// PatchSize is the side of the latent patch a DiT turns into one token
	// (2 for SD3, FLUX, PixArt and the video DiTs); 1 for a UNet.
	PatchSize int `yaml:"patch_size,omitempty" json:"patch_size,omitempty"`
	// ReferenceTokens is the denoiser token count (latent pixels after
	// patching, times latent frames) that ForwardGMACsPerSample and
	// AttentionGMACsPerSample are given for; derived from ImagePx when 0.
	ReferenceTokens int `yaml:"reference_tokens,omitempty" json:"reference_tokens,omitempty"`
	// AttentionGMACsPerSample is the part of ForwardGMACsPerSample that
	// grows with the square of the token count (attention scores and their
	// product with the values), in GMAC at ReferenceTokens. Derived for a
	// DiT as 2·layers·tokens²·hidden when 0.
	AttentionGMACsPerSample float64 `yaml:"attention_gmacs_per_sample,omitempty" json:"attention_gmacs_per_sample,omitempty"`
	// TextEncoderParamsB is the parameters of all text encoders together,
	// in billions (CLIP-L 0.123, OpenCLIP-bigG 0.694, T5-XXL encoder 4.76).
	TextEncoderParamsB float64 `yaml:"text_encoder_params_b,omitempty" json:"text_encoder_params_b,omitempty"`
	// TextTokens is the prompt length the text encoders run at, tokens
	// (77 for CLIP, 256 or 512 for T5).
	TextTokens int `yaml:"text_tokens,omitempty" json:"text_tokens,omitempty"`
	// VAEParamsB is the VAE's parameters in billions (decoder and encoder).
	VAEParamsB float64 `yaml:"vae_params_b,omitempty" json:"vae_params_b,omitempty"`
	// VAEDecoderGMACsPerMpx is the VAE decoder's work per output megapixel
	// (per frame of a video), GMAC.
	VAEDecoderGMACsPerMpx float64 `yaml:"vae_decoder_gmacs_per_mpx,omitempty" json:"vae_decoder_gmacs_per_mpx,omitempty"`
	// VAEPrecision is the precision the VAE decodes in: fp32 for the SDXL
	// VAE, which overflows in fp16 (diffusers' force_upcast); else fp16.
	VAEPrecision Precision `yaml:"vae_precision,omitempty" json:"vae_precision,omitempty"`
}

// Training describes a training or fine-tuning run.
type Training struct {
	// Method is full, lora or qlora; defaults to full (lora for llm-finetune).
	Method Method `yaml:"method,omitempty" json:"method"`
	// Tokens is the number of tokens to process in total (llm kinds), all
	// epochs included.
	Tokens float64 `yaml:"tokens,omitempty" json:"tokens,omitempty"`
	// Samples is the number of items (images) to process in total
	// (cnn-train), all epochs included.
	Samples float64 `yaml:"samples,omitempty" json:"samples,omitempty"`
	// Epochs is how many passes over the dataset Tokens or Samples make;
	// optional, used to size reads from storage (0 = unknown).
	Epochs float64 `yaml:"epochs,omitempty" json:"epochs,omitempty"`
	// SeqLen is the training sequence length in tokens (llm kinds).
	SeqLen int `yaml:"seq_len,omitempty" json:"seq_len,omitempty"`
	// GlobalBatch is the number of sequences (llm) or images (cnn) per
	// optimizer step, over the whole cluster.
	GlobalBatch int `yaml:"global_batch,omitempty" json:"global_batch"`
	// Precision is the compute precision of matrix maths (fp32, tf32, bf16,
	// fp16, fp8); mixed precision keeps fp32 master weights.
	Precision Precision `yaml:"precision,omitempty" json:"precision"`
	// ActivationCheckpointing recomputes activations in the backward pass:
	// none, selective or full (true and false are read as full and none);
	// empty lets the model decide (it turns it on only when memory needs it).
	ActivationCheckpointing Checkpointing `yaml:"activation_checkpointing,omitempty" json:"activation_checkpointing,omitempty"`
	// OptimizerPrecision is how the trained weights' optimizer state is
	// kept: fp32 (the default: fp32 master weights and two fp32 Adam
	// moments beside the 16-bit weights, as mixed precision keeps them) or
	// bf16 (no master copy: the 16-bit weights are updated in place and
	// the moments kept in bf16, as PyTorch's AdamW does for a model loaded
	// in bf16). bf16 needs 16-bit or fp8 training.
	OptimizerPrecision Precision `yaml:"optimizer_precision,omitempty" json:"optimizer_precision,omitempty"`
	// LoRARank is the adapter rank for lora and qlora; defaults to 16.
	LoRARank int `yaml:"lora_rank,omitempty" json:"lora_rank,omitempty"`
}

// StateBytes is what training keeps per trained parameter, in bytes: the
// weights, their gradients and the optimizer state. Mixed precision keeps
// 16-bit weights and gradients, fp32 master weights and two fp32 Adam
// moments, 2 + 2 + 12 (Rajbhandari et al. 2020, ZeRO); fp32 or tf32
// training keeps no extra master copy, 4 + 4 + 8; a bf16 optimizer state
// keeps no master copy and bf16 moments, 2 + 2 + 4.
func (t *Training) StateBytes() (weights, grads, optimizer float64) {
	switch {
	case t.Precision == FP32 || t.Precision == TF32:
		return 4, 4, 8
	case t.OptimizerPrecision == BF16:
		return 2, 2, 4
	}
	return 2, 2, 12
}

// Inference describes serving or batch inference of a language model.
type Inference struct {
	// PromptTokens is the mean input length per request, in tokens.
	PromptTokens int `yaml:"prompt_tokens,omitempty" json:"prompt_tokens"`
	// OutputTokens is the mean generated length per request, in tokens; 0
	// means prefill only (embedding, classification, scoring).
	OutputTokens int `yaml:"output_tokens,omitempty" json:"output_tokens"`
	// RequestsPerSecond is the mean offered load; nil means offline: as
	// fast as the cluster can go.
	RequestsPerSecond *float64 `yaml:"requests_per_second,omitempty" json:"requests_per_second,omitempty"`
	// Requests is the number of requests in an offline batch (0 = unknown;
	// the report then gives throughput, not a total duration).
	Requests float64 `yaml:"requests,omitempty" json:"requests,omitempty"`
	// MaxBatch caps the sequences in flight per replica: 0 = as many as
	// memory allows, 1 = single-stream latency.
	MaxBatch int `yaml:"max_batch,omitempty" json:"max_batch"`
	// WeightPrecision is how the weights are stored; defaults to bf16.
	WeightPrecision Precision `yaml:"weight_precision,omitempty" json:"weight_precision"`
	// KVPrecision is how the KV cache is stored. The file may say auto (the
	// default); Parse resolves it to what the serving engine stores when it
	// is not told: the model's 16-bit dtype on vLLM, SGLang, TGI and
	// LMDeploy whatever the weights; elsewhere it follows the weights (fp8
	// under fp4, fp16 under int8/int4).
	KVPrecision Precision `yaml:"kv_precision,omitempty" json:"kv_precision"`
	// AttentionPrecision is the precision of decode attention's maths over
	// the KV cache: fp8 runs the query-key and score-value products in fp8
	// over an fp8 cache (FlashMLA-FP8, FP8 MLA or FlashAttention-3 FP8
	// decode kernels), at the accelerator's fp8 rate. Unset or auto: 16-bit
	// maths, the cache widened as it is read.
	AttentionPrecision Precision `yaml:"attention_precision,omitempty" json:"attention_precision,omitempty"`
	// SLO is the latency target; zero fields mean no target.
	SLO SLO `yaml:"slo,omitempty" json:"slo"`
	// Batching is how requests are grouped: continuous (the default),
	// static (max_batch requests start and end together) or burst (Requests
	// requests arrive at once; the job's time is their makespan).
	Batching Batching `yaml:"batching,omitempty" json:"batching"`
	// OutputTokensCV is the coefficient of variation of the generated length
	// (standard deviation over mean): 0 when every request generates
	// OutputTokens (synthetic benchmarks), about 1 for chat traces such as
	// ShareGPT. It matters for bursts, whose makespan waits for the longest
	// answers, and for steady serving, whose batch holds the long answers
	// longest (mean context in flight: prompt + output/2 · (1 + CV²)).
	OutputTokensCV float64 `yaml:"output_tokens_cv,omitempty" json:"output_tokens_cv,omitempty"`
	// OffloadGB is how many GB of weights each GPU keeps in host memory
	// instead of its own (vLLM's cpu_offload_gb, SGLang's
	// cpu_offload_gb): the room goes to the KV cache, and every step
	// streams those weights back over the host link (PCIe, or NVLink-C2C
	// on Grace superchips). 0: every weight stays on the GPU.
	OffloadGB float64 `yaml:"offload_gb,omitempty" json:"offload_gb,omitempty"`
	// SpeculativeTokens is how many draft tokens each decode step proposes
	// per sequence (multi-token prediction heads such as DeepSeek's MTP, or a
	// draft model); 0 = plain decoding. The step verifies them all at once.
	SpeculativeTokens int `yaml:"speculative_tokens,omitempty" json:"speculative_tokens,omitempty"`
	// SpeculativeAcceptance is the chance that a draft token is accepted,
	// given the ones before it were; defaults to 0.8 with speculative_tokens.
	SpeculativeAcceptance float64 `yaml:"speculative_acceptance,omitempty" json:"speculative_acceptance,omitempty"`
	// AdmissionWaitSteps is how many decode steps a new request waits
	// before its prefill is scheduled: with attention data parallel,
	// TensorRT-LLM's balancing holds new requests until every rank has one
	// or a timeout passes (adp_balancing_timeout_iters), so the ranks
	// prefill in step. 0: a request joins the next step, and attention
	// data-parallel ranks prefill out of step: each step waits for the
	// rank with the most new prompts.
	AdmissionWaitSteps int `yaml:"admission_wait_steps,omitempty" json:"admission_wait_steps,omitempty"`
}

// SLO is a latency target for inference, met at Percentile.
type SLO struct {
	// TTFTMs is the time to first token in milliseconds.
	TTFTMs float64 `yaml:"ttft_ms,omitempty" json:"ttft_ms,omitempty"`
	// TPOTMs is the time per output token after the first, in milliseconds.
	TPOTMs float64 `yaml:"tpot_ms,omitempty" json:"tpot_ms,omitempty"`
	// Percentile is the share of requests that must meet the targets, in
	// percent (0 < p < 100 or exactly 100); defaults to 99 when a target is set.
	Percentile float64 `yaml:"percentile,omitempty" json:"percentile,omitempty"`
}

// Image describes diffusion inference (kind image-generation): the size of
// each image or clip, the sampler's steps, the batch one pipeline call
// makes, and either the number of images of an offline job or the request
// rate and latency target of a service.
type Image struct {
	// Width is the output width in pixels, a multiple of
	// model.latent_factor × model.patch_size; default: the model's native
	// resolution.
	Width int `yaml:"width,omitempty" json:"width"`
	// Height is the output height in pixels, with the same rule as Width.
	Height int `yaml:"height,omitempty" json:"height"`
	// Frames is the frames per clip of a video model (1 for images).
	Frames int `yaml:"frames,omitempty" json:"frames"`
	// Steps is the denoising steps per image; default: the model's
	// recommended count.
	Steps int `yaml:"steps,omitempty" json:"steps"`
	// Guidance is classifier-free guidance: the denoiser runs on a
	// conditional and an unconditional input every step, doubling its
	// batch. Default: the model's (false for guidance-distilled models such
	// as FLUX.1 dev/schnell and HunyuanVideo).
	Guidance *bool `yaml:"guidance,omitempty" json:"guidance"`
	// Batch is the images (or clips) one pipeline call makes on one GPU, or
	// on one group of GPUs when parallelism.context splits an image.
	Batch int `yaml:"batch,omitempty" json:"batch"`
	// Precision is the denoiser's precision (fp32, bf16, fp16, fp8, int8,
	// fp4); text encoders run in 16 bits, the VAE in model.vae_precision.
	Precision Precision `yaml:"precision,omitempty" json:"precision"`
	// Images is the number of images (or clips) of an offline job.
	Images float64 `yaml:"images,omitempty" json:"images,omitempty"`
	// RequestsPerSecond is the mean offered load of a service, requests
	// per second, one image (or clip) each. Give Images or this, not both.
	RequestsPerSecond *float64 `yaml:"requests_per_second,omitempty" json:"requests_per_second,omitempty"`
	// SLO is the service's latency target per request.
	SLO ImageSLO `yaml:"slo,omitempty" json:"slo"`
}

// Service describes a service's day: how its load varies and how much of
// a loss it must survive. The load's mean is the workload's
// requests_per_second (inference or image).
type Service struct {
	// Availability is production (the default): a spare instance at every
	// hour, the fleet spread over the region's zones and never entirely on
	// spot; zone-redundant: production that also serves every hour's load
	// after losing a zone (a zone's worth of spares); or best-effort
	// (development): sized for the load alone.
	Availability Availability `yaml:"availability,omitempty" json:"availability"`
	// Traffic is constant (the default: the same rate all day) or diurnal
	// (the rate follows the day from a trough to PeakRequestsPerSecond at
	// PeakHour; requests_per_second is the day's mean).
	Traffic Traffic `yaml:"traffic,omitempty" json:"traffic"`
	// PeakRequestsPerSecond is the busiest hour's rate, requests per
	// second: at least the mean and at most twice it (a diurnal day).
	// Setting it makes the traffic diurnal.
	PeakRequestsPerSecond float64 `yaml:"peak_requests_per_second,omitempty" json:"peak_requests_per_second,omitempty"`
	// PeakHour is the hour of the day (0-23) when the load peaks; default
	// 14. It places the peak on the chart and in the simulated day.
	PeakHour *int `yaml:"peak_hour,omitempty" json:"peak_hour,omitempty"`
}

// MeanRequestsPerSecond is the service's mean load over the day (the
// workload's requests_per_second), and whether spec is a service.
func (s *Spec) MeanRequestsPerSecond() (float64, bool) {
	if s == nil {
		return 0, false
	}
	switch {
	case s.Kind == KindLLMInference && s.Inference != nil && s.Inference.RequestsPerSecond != nil:
		return *s.Inference.RequestsPerSecond, true
	case s.Kind == KindImageGeneration && s.Image != nil && s.Image.RequestsPerSecond != nil:
		return *s.Image.RequestsPerSecond, true
	}
	return 0, false
}

// IsService reports whether spec is a service sized to a request rate: an
// llm-inference workload with inference.requests_per_second, or an
// image-generation workload with image.requests_per_second.
func (s *Spec) IsService() bool {
	_, ok := s.MeanRequestsPerSecond()
	return ok
}

// Day is a service's load over a day: its mean, its peak and trough and
// the hour of the peak. A constant day has all three equal.
type Day struct {
	// MeanRPS is the day's mean rate, requests per second.
	MeanRPS float64
	// PeakRPS is the busiest hour's rate, requests per second.
	PeakRPS float64
	// TroughRPS is the quietest hour's rate, requests per second.
	TroughRPS float64
	// PeakHour is the hour of the day (0-23) of the peak.
	PeakHour int
}

// DayOf is spec's day (ok false for a job). The diurnal day is a cosine:
// rate(t) = mean × (1 + A cos(2π (t − peak hour) / 24 h)) with A =
// peak/mean − 1, so the trough is mean × (1 − A).
func DayOf(spec *Spec) (Day, bool) {
	mean, ok := spec.MeanRequestsPerSecond()
	if !ok {
		return Day{}, false
	}
	d := Day{MeanRPS: mean, PeakRPS: mean, TroughRPS: mean, PeakHour: DefaultPeakHour}
	if sv := spec.Service; sv != nil {
		if sv.PeakHour != nil {
			d.PeakHour = *sv.PeakHour
		}
		if sv.Traffic == TrafficDiurnal && sv.PeakRequestsPerSecond > mean {
			d.PeakRPS = sv.PeakRequestsPerSecond
			d.TroughRPS = max(0, 2*mean-d.PeakRPS)
		}
	}
	return d, true
}

// Amplitude is the day's swing around its mean, in (0, 1]: 0 for a
// constant day.
func (d Day) Amplitude() float64 {
	if d.MeanRPS <= 0 {
		return 0
	}
	return d.PeakRPS/d.MeanRPS - 1
}

// RateAt is the day's rate at hour h (0-24).
func (d Day) RateAt(h float64) float64 {
	return d.MeanRPS * (1 + d.Amplitude()*math.Cos(2*math.Pi*(h-float64(d.PeakHour))/24))
}

// DefaultPeakHour is the hour of a diurnal peak when the file gives none:
// early afternoon, as in the published traces of chat and image services.
const DefaultPeakHour = 14

// Production reports whether spec is a service that must survive a loss
// (availability production, the default for a service).
func (s *Spec) Production() bool {
	return s.IsService() && (s.Service == nil || s.Service.Availability != AvailabilityBestEffort)
}

// ImageSLO is a latency target for an image-generation service.
type ImageSLO struct {
	// LatencyS is the most one request may take, seconds, from arrival to
	// the decoded image.
	LatencyS float64 `yaml:"latency_s,omitempty" json:"latency_s,omitempty"`
	// Percentile is the share of requests that must meet it, percent;
	// defaults to 99 when LatencyS is set.
	Percentile float64 `yaml:"percentile,omitempty" json:"percentile,omitempty"`
}

// Generic describes a job by its cost per item, for anything that is not a
// language or image model (rendering, simulation, custom kernels).
type Generic struct {
	// Items is the number of items (frames, samples, tiles) to process.
	Items float64 `yaml:"items" json:"items"`
	// FLOPsPerItem is the arithmetic work per item, in FLOP (not GFLOP).
	FLOPsPerItem float64 `yaml:"flops_per_item,omitempty" json:"flops_per_item,omitempty"`
	// BytesPerItem is the device-memory traffic per item, in bytes read and
	// written in GPU memory (not the input size).
	BytesPerItem float64 `yaml:"bytes_per_item,omitempty" json:"bytes_per_item,omitempty"`
	// MemoryGB is the device memory one GPU needs to hold the job's working
	// set, in GB (1e9 bytes); 0 = small enough for any GPU.
	MemoryGB float64 `yaml:"memory_gb,omitempty" json:"memory_gb,omitempty"`
	// Precision is the number format the arithmetic runs in; defaults to fp32.
	Precision Precision `yaml:"precision,omitempty" json:"precision"`
	// Measured is a throughput measured on a reference accelerator; when set
	// it anchors the prediction and FLOPsPerItem/BytesPerItem only scale it.
	Measured *Measured `yaml:"measured,omitempty" json:"measured,omitempty"`
}

// Measured is an observed throughput on one accelerator.
type Measured struct {
	// GPU is the accelerator id it was measured on (e.g. "a100-80gb").
	GPU string `yaml:"gpu" json:"gpu"`
	// ItemsPerS is the throughput of one such accelerator, in items per second.
	ItemsPerS float64 `yaml:"items_per_s" json:"items_per_s"`
}

// Parallelism fixes parallel degrees. 0 (or absent) means auto: the model
// chooses what is best for the objective and reports it. A fixed degree is
// honoured or the prediction says why it cannot be.
type Parallelism struct {
	// Data is the data-parallel degree (replicas).
	Data int `yaml:"data,omitempty" json:"data,omitempty"`
	// Tensor is the tensor-parallel degree; must divide model.heads.
	Tensor int `yaml:"tensor,omitempty" json:"tensor,omitempty"`
	// Pipeline is the pipeline-parallel degree (stages); at most model.layers.
	Pipeline int `yaml:"pipeline,omitempty" json:"pipeline,omitempty"`
	// Expert is the expert-parallel degree, at most model.experts. When it
	// does not divide them (48 GPUs for 256 experts), the engine places
	// redundant copies of the busiest experts (EPLB) so that every GPU
	// holds the same number of expert slots, ceil(experts / expert).
	Expert int `yaml:"expert,omitempty" json:"expert,omitempty"`
	// ExpertBalancing says the serving engine rebalances the experts over
	// the expert-parallel GPUs from routing statistics (EPLB: redundant
	// copies of the busiest experts, placed online or offline), so a
	// layer's busiest GPU gets only the random excess of routed tokens.
	// Without it the placement is static and a layer's hottest experts
	// load their GPU (DeepSeek-R1 on 32 GPUs: the busiest got 2.56 times
	// the mean). Implied when parallelism.expert does not divide the
	// experts. For llm-inference.
	ExpertBalancing bool `yaml:"expert_balancing,omitempty" json:"expert_balancing,omitempty"`
	// ExpertOverlap is how the serving engine hides a decode step's expert
	// all-to-all under its compute: none (every step waits for it),
	// single_batch (within one batch, the dispatch under the shared experts
	// and the combine under the experts' down GEMM: SGLang's
	// --enable-single-batch-overlap) or two_batch (two micro-batches, one's
	// dispatch and combine under the other's compute: SGLang's
	// --enable-two-batch-overlap, vLLM's --enable-dbo). Unset: the engine
	// release's wide-EP recipe (SGLang 0.5: two_batch; the others: none).
	// For llm-inference; it applies where the layout runs attention data
	// parallel with the experts split (parallelism.expert, or the layout
	// the search picks).
	ExpertOverlap ExpertOverlap `yaml:"expert_overlap,omitempty" json:"expert_overlap,omitempty"`
	// PrefillGPUs disaggregates serving: that many of the cluster's GPUs
	// only prefill prompts and the rest only decode, each pool with its own
	// layout, and every request's KV cache crosses the fabric from one to
	// the other (SGLang and Dynamo PD disaggregation). 0: every replica
	// prefills and decodes. For llm-inference.
	PrefillGPUs int `yaml:"prefill_gpus,omitempty" json:"prefill_gpus,omitempty"`
	// Context is the context (sequence) parallel degree for long sequences.
	Context int `yaml:"context,omitempty" json:"context,omitempty"`
	// MicroBatch is the number of sequences (images) per micro-batch on one
	// data-parallel rank; the rest of the global batch is gradient
	// accumulation (or pipeline micro-batches).
	MicroBatch int `yaml:"micro_batch,omitempty" json:"micro_batch,omitempty"`
	// VirtualPipeline is the number of model chunks per pipeline stage
	// (interleaved 1F1B); 1 is the plain schedule. Needs Pipeline > 1.
	VirtualPipeline int `yaml:"virtual_pipeline,omitempty" json:"virtual_pipeline,omitempty"`
	// Sharding is how training state is split over the data-parallel
	// ranks, followed exactly when given (the layout search tries none,
	// zero1 and fsdp otherwise): none, zero1 (optimizer states: Megatron's
	// distributed optimizer), zero2 (and gradients), zero3 or fsdp (and
	// the weights, gathered a layer at a time), hsdp (fsdp within a node,
	// replicated across nodes). For training and fine-tuning.
	Sharding Sharding `yaml:"sharding,omitempty" json:"sharding,omitempty"`
	// Schedule is the pipeline schedule: 1f1b (the default; interleaved
	// when virtual_pipeline is more than 1) or dualpipe (DeepSeek-V3's:
	// two chunks per stage fed from both ends, each forward chunk beside a
	// backward chunk so that the expert all-to-all and the pipeline sends
	// hide under compute; needs an even parallelism.pipeline). For
	// training and fine-tuning.
	Schedule Schedule `yaml:"schedule,omitempty" json:"schedule,omitempty"`
}

// Data describes the dataset, where it lives, and what leaves the provider.
// Sizes are in GB (1e9 bytes).
type Data struct {
	// DatasetGB is the dataset size in GB as stored.
	DatasetGB float64 `yaml:"dataset_gb,omitempty" json:"dataset_gb,omitempty"`
	// Location is where the data lives today; empty = already with the
	// chosen provider (no transfer cost).
	Location Location `yaml:"location,omitempty" json:"location"`
	// Storage is where the job reads from during the run; defaults to auto.
	Storage Storage `yaml:"storage,omitempty" json:"storage"`
	// StorageGBps is a measured read throughput of that storage in GB/s per
	// node; 0 = use the catalog's figure.
	StorageGBps float64 `yaml:"storage_gb_s,omitempty" json:"storage_gb_s,omitempty"`
	// BytesPerSample is the stored size of one sample in bytes; Parse
	// derives it when 0 (4 bytes per token for LLMs, the dataset size over
	// the samples per epoch for images, else 110 kB, an ImageNet JPEG).
	BytesPerSample float64 `yaml:"bytes_per_sample,omitempty" json:"bytes_per_sample,omitempty"`
	// CPUMsPerSample is the preprocessing cost of one sample on one vCPU, in
	// milliseconds (decode and augment for images); 0 = negligible.
	CPUMsPerSample float64 `yaml:"cpu_ms_per_sample,omitempty" json:"cpu_ms_per_sample,omitempty"`
	// OutputsGB is the size in GB of checkpoints and results that leave the
	// provider (egress).
	OutputsGB float64 `yaml:"outputs_gb,omitempty" json:"outputs_gb,omitempty"`
}

// Location is a provider and region, named as the provider names them
// (e.g. aws us-east-1, alibaba cn-hangzhou).
type Location struct {
	// Provider is the provider id (lowercase, e.g. "gcp"); "onprem" for the
	// team's own storage.
	Provider string `yaml:"provider,omitempty" json:"provider,omitempty"`
	// Region is the provider's region name.
	Region string `yaml:"region,omitempty" json:"region,omitempty"`
}

// Stack is the software the job runs on.
type Stack struct {
	// Framework defaults to pytorch for training kinds and vllm for
	// llm-inference; generic jobs default to other.
	Framework Framework `yaml:"framework,omitempty" json:"framework"`
	// Version is a version constraint on the framework, e.g. ">=2.4" or
	// ">=0.6, <0.8"; empty = any.
	Version string `yaml:"version,omitempty" json:"version,omitempty"`
	// Needs lists features or kernels the code relies on (lowercase ids such
	// as flash-attention-3, fp8, nccl).
	Needs []string `yaml:"needs,omitempty" json:"needs,omitempty"`
	// Vendors lists the accelerator vendors the team accepts; empty = all.
	Vendors []Vendor `yaml:"vendors,omitempty" json:"vendors,omitempty"`
	// Compile says whether the step is compiled (torch.compile, XLA, CUDA
	// graphs with fused kernels): fused elementwise kernels move less memory.
	// nil takes the framework's usual setting (fused for megatron, jax and
	// the serving engines; eager for plain pytorch and deepspeed).
	Compile *bool `yaml:"compile,omitempty" json:"compile,omitempty"`
	// Build is upstream (the default) or vendor: the accelerator vendor's
	// tuned build of the framework, which can be much faster on new hardware.
	Build Build `yaml:"build,omitempty" json:"build,omitempty"`
}

// Constraints bound the candidates. Zero numbers mean no bound.
type Constraints struct {
	// DeadlineHours is the longest acceptable wall-clock duration in hours.
	DeadlineHours float64 `yaml:"deadline_hours,omitempty" json:"deadline_hours,omitempty"`
	// BudgetUSD is the most the whole job may cost, in US dollars.
	BudgetUSD float64 `yaml:"budget_usd,omitempty" json:"budget_usd,omitempty"`
	// MaxGPUs is the most accelerators the job may use at once.
	MaxGPUs int `yaml:"max_gpus,omitempty" json:"max_gpus,omitempty"`
	// Pricing lists the pricing modes to consider; defaults to on-demand.
	Pricing []PricingMode `yaml:"pricing,omitempty" json:"pricing"`
	// Providers lists provider ids to consider; empty = all.
	Providers []string `yaml:"providers,omitempty" json:"providers,omitempty"`
	// ReservedUtilization is the share (0-1] of a reserved or committed term
	// that the team expects to keep the capacity busy, with this job and
	// others. 0 = unset: a service counts as fully busy, a one-off job pays
	// for the whole term.
	ReservedUtilization float64 `yaml:"reserved_utilization,omitempty" json:"reserved_utilization,omitempty"`
	// SharedGPUs says the instances are a shared pool, such as a team's
	// Kubernetes GPU cluster: a service's replica pays for the slice it
	// holds (a MIG instance, or a time-sliced share of a GPU) and the rest
	// of the GPU serves other workloads. The advisor then also tries
	// time-sliced replicas and ranks sliced plans by their share of the
	// instances' price. Services only (not training); defaults to false:
	// the service rents whole instances for itself.
	SharedGPUs bool `yaml:"shared_gpus,omitempty" json:"shared_gpus,omitempty"`
	// EngineerDayUSD is what one engineer-day costs, in US dollars: the
	// price of the porting a needs-work stack asks for (engineer-days of
	// each kind of work in data/compat.yaml), added to a candidate's
	// total. Defaults to DefaultEngineerDayUSD; 0 leaves porting unpriced
	// (its delay still counts).
	EngineerDayUSD *float64 `yaml:"engineer_day_usd,omitempty" json:"engineer_day_usd,omitempty"`
}

// DefaultEngineerDayUSD is a loaded engineer-day in US dollars: the mean
// wage of US software developers (BLS OEWS May 2024, SOC 15-1252,
// $144,570 a year, $69.50 an hour) over the share wages are of an
// employer's cost in private industry (BLS ECEC December 2024, 70.5%),
// for 8 hours: $789, rounded to $800.
const DefaultEngineerDayUSD = 800.0

// EngineerDayWhy is the source of DefaultEngineerDayUSD, as the parser
// reports the default.
const EngineerDayWhy = "not set; a loaded US software engineer's day: BLS OEWS May 2024 mean wage of software developers $69.50/h, over wages' 70.5% share of employer cost (BLS ECEC Dec 2024), x 8 h = $789, rounded"

// Compliance states where the data may be processed and what the provider
// must offer. Empty lists mean no requirement.
type Compliance struct {
	// Countries lists ISO 3166-1 alpha-2 codes (upper case) where the data
	// may be processed; "EU" stands for the EU member states. CN means
	// mainland China (Hong Kong is HK), which is how a PIPL localisation
	// requirement is written.
	Countries []string `yaml:"countries,omitempty" json:"countries,omitempty"`
	// ExcludeJurisdictions lists ISO alpha-2 codes of provider home
	// jurisdictions that are not accepted (e.g. US for CLOUD Act exposure).
	ExcludeJurisdictions []string `yaml:"exclude_jurisdictions,omitempty" json:"exclude_jurisdictions,omitempty"`
	// Certifications lists certifications the provider must hold, by
	// canonical name (see Certifications).
	Certifications []string `yaml:"certifications,omitempty" json:"certifications,omitempty"`
	// ConfidentialComputing asks for GPU confidential computing (TEE); defaults to no.
	ConfidentialComputing Requirement `yaml:"confidential_computing,omitempty" json:"confidential_computing"`
	// CustomerManagedKeys asks for disk encryption with the customer's keys; defaults to no.
	CustomerManagedKeys Requirement `yaml:"customer_managed_keys,omitempty" json:"customer_managed_keys"`
	// SecureBoot asks for secure boot / vTPM on the instance; defaults to no.
	SecureBoot Requirement `yaml:"secure_boot,omitempty" json:"secure_boot"`
	// Operators lists who may run the machines: provider (the provider
	// itself), partner (data centres or other clouds it contracts),
	// marketplace (independent hosts listing their own machines on its
	// marketplace, not known to you) and community (individual hosts of its
	// community cloud). Empty = any, except that a workload with any other
	// compliance requirement, or a production service, defaults to
	// provider and partner.
	Operators []Operator `yaml:"operators,omitempty" json:"operators,omitempty"`
	// MLPSLevel is the level (1-5) of China's Multi-Level Protection Scheme
	// 2.0 (等保 2.0) that the provider's platform must be filed at, in a
	// mainland-China region, for the system you build on it to reach that
	// level; 0 = not asked. The provider's filing covers its platform only:
	// your own system still needs its assessment.
	MLPSLevel int `yaml:"mlps_level,omitempty" json:"mlps_level,omitempty"`
	// AcceleratorOrigins lists ISO 3166-1 alpha-2 codes of the countries
	// whose accelerator designers are accepted, judged on the vendor's
	// headquarters (NVIDIA and AMD are US, Huawei Ascend is CN): a
	// domestic-hardware rule is [CN]; empty = any.
	AcceleratorOrigins []string `yaml:"accelerator_origins,omitempty" json:"accelerator_origins,omitempty"`
}

// Asks reports whether c asks anything of an offer: a country, an
// excluded jurisdiction, a certification, a required or preferred
// feature, an operator restriction, an MLPS level or an accelerator origin.
func (c Compliance) Asks() bool {
	if len(c.Countries) > 0 || len(c.ExcludeJurisdictions) > 0 || len(c.AcceleratorOrigins) > 0 || c.MLPSLevel > 0 || c.RestrictsOperators() {
		return true
	}
	for _, name := range c.Certifications {
		if strings.TrimSpace(name) != "" {
			return true
		}
	}
	for _, r := range []Requirement{c.ConfidentialComputing, c.CustomerManagedKeys, c.SecureBoot} {
		if r, err := ParseRequirement(string(r)); err == nil && r != NotNeeded {
			return true
		}
	}
	return false
}

// RestrictsOperators reports whether c.Operators leaves some operator out.
func (c Compliance) RestrictsOperators() bool {
	if len(c.Operators) == 0 {
		return false
	}
	for _, o := range Operators() {
		if !c.AllowsOperator(o) {
			return true
		}
	}
	return false
}

// AllowsOperator reports whether c accepts machines run by o (any operator
// when c.Operators is empty).
func (c Compliance) AllowsOperator(o Operator) bool {
	if len(c.Operators) == 0 {
		return true
	}
	for _, x := range c.Operators {
		if p, err := ParseOperator(string(x)); err == nil && p == o {
			return true
		}
	}
	return false
}
