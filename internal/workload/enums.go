package workload

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
)

// Kind is the kind of job a workload file describes; it decides which blocks
// the file needs and which performance model applies.
type Kind string

// The workload kinds.
const (
	KindLLMTrain     Kind = "llm-train"     // pre-training a language model from scratch
	KindLLMFinetune  Kind = "llm-finetune"  // fine-tuning a pre-trained language model (full, LoRA, QLoRA)
	KindLLMInference Kind = "llm-inference" // serving or batch inference of a language model
	KindCNNTrain     Kind = "cnn-train"     // training an image model (CNN or ViT) on images
	KindGeneric      Kind = "generic"       // any other GPU job, described by FLOP and bytes per item
	// KindImageGeneration is diffusion inference: text-to-image or
	// text-to-video with a UNet or DiT denoiser (Stable Diffusion, FLUX,
	// video DiTs), as an offline job or a service.
	KindImageGeneration Kind = "image-generation"
)

// Kinds lists every Kind in the order the documentation gives them.
func Kinds() []Kind {
	return []Kind{KindLLMTrain, KindLLMFinetune, KindLLMInference, KindCNNTrain, KindGeneric, KindImageGeneration}
}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return contains(Kinds(), k) }

// IsLLM reports whether k is a language-model kind (train, finetune, inference).
func (k Kind) IsLLM() bool {
	return k == KindLLMTrain || k == KindLLMFinetune || k == KindLLMInference
}

// IsTraining reports whether k trains a model and so needs a training block.
func (k Kind) IsTraining() bool {
	return k == KindLLMTrain || k == KindLLMFinetune || k == KindCNNTrain
}

// ParseKind returns the Kind named s (case-insensitive), or an error that
// lists the known kinds.
func ParseKind(s string) (Kind, error) { return parseEnum("kind", s, Kinds(), nil) }

// Method is how a training job updates the model's weights.
type Method string

// The training methods.
const (
	MethodFull  Method = "full"  // every weight is trained; optimizer state for all parameters
	MethodLoRA  Method = "lora"  // frozen base weights in the training precision plus low-rank adapters
	MethodQLoRA Method = "qlora" // frozen base weights quantised to 4 bits plus low-rank adapters
)

// NeedBitsandbytes is the stack need of the bitsandbytes library, which a
// QLoRA fine-tune always has (its 4-bit NF4 weights).
const NeedBitsandbytes = "bitsandbytes"

// Methods lists every Method.
func Methods() []Method { return []Method{MethodFull, MethodLoRA, MethodQLoRA} }

// Valid reports whether m is one of Methods.
func (m Method) Valid() bool { return contains(Methods(), m) }

// ParseMethod returns the Method named s (case-insensitive).
func ParseMethod(s string) (Method, error) { return parseEnum("method", s, Methods(), nil) }

// Precision is a number format for weights, activations or the KV cache.
type Precision string

// The number formats. Bytes gives the storage size of each.
const (
	FP32 Precision = "fp32"
	TF32 Precision = "tf32" // fp32 storage, tensor-core maths with a 10-bit mantissa; a compute mode, not a storage format
	BF16 Precision = "bf16"
	FP16 Precision = "fp16"
	FP8  Precision = "fp8"
	FP4  Precision = "fp4" // NVFP4 / MXFP4 microscaled formats
	INT8 Precision = "int8"
	INT4 Precision = "int4"
	// PrecisionAuto is accepted only for inference.kv_precision, and Parse
	// replaces it with the precision it resolves to.
	PrecisionAuto Precision = "auto"
)

// Precisions lists every concrete Precision (not PrecisionAuto).
func Precisions() []Precision { return []Precision{FP32, TF32, BF16, FP16, FP8, FP4, INT8, INT4} }

// TrainingPrecisions lists the precisions a training job may compute in.
// FP4 (NVFP4/MXFP4 linear layers) needs hardware with an FP4 path; on other
// accelerators the prediction falls back to the nearest wider type and says so.
func TrainingPrecisions() []Precision { return []Precision{FP32, TF32, BF16, FP16, FP8, FP4} }

// WeightPrecisions lists the precisions inference weights may be stored in.
func WeightPrecisions() []Precision { return []Precision{FP32, BF16, FP16, FP8, FP4, INT8, INT4} }

// Valid reports whether p is one of Precisions.
func (p Precision) Valid() bool { return contains(Precisions(), p) }

// Bytes is the storage size of one value in p, in bytes (0.5 for 4-bit
// formats, before the small overhead of their scale factors); 0 for an
// unknown precision or PrecisionAuto.
func (p Precision) Bytes() float64 {
	switch p {
	case FP32, TF32:
		return 4
	case BF16, FP16:
		return 2
	case FP8, INT8:
		return 1
	case FP4, INT4:
		return 0.5
	}
	return 0
}

// StoredBytes is the stored size of one weight in p, scale factors
// included: NVFP4 keeps an 8-bit scale per 16 values, int4 schemes a 16-bit
// scale per group of 128.
func (p Precision) StoredBytes() float64 {
	switch p {
	case FP4:
		return 0.5 + 1.0/16
	case INT4:
		return 0.5 + 2.0/128
	}
	return p.Bytes()
}

// HeadPrecision is the precision a checkpoint quantised to p keeps its
// embedding and output head in: 16 bits below that, as quantisation tools
// leave them (NVIDIA's Model Optimizer disables *lm_head* in every
// quantisation config; GPTQ, AWQ and vLLM's fp8 quantise the transformer
// blocks' linear layers only); p itself otherwise.
func (p Precision) HeadPrecision() Precision {
	if p.StoredBytes() < 2 {
		return BF16
	}
	return p
}

var precisionAliases = map[string]Precision{
	"float32": FP32, "float": FP32, "bfloat16": BF16, "float16": FP16, "half": FP16,
	"float8": FP8, "fp8-e4m3": FP8, "e4m3": FP8, "nvfp4": FP4, "mxfp4": FP4,
	"w8": INT8, "w4": INT4, "awq": INT4, "gptq": INT4,
}

// ParsePrecision returns the Precision named s (case-insensitive; aliases
// such as bfloat16, float16, nvfp4 and awq are accepted).
func ParsePrecision(s string) (Precision, error) {
	return parseEnum("precision", s, Precisions(), precisionAliases)
}

// Checkpointing is how a training job trades compute for activation memory.
type Checkpointing string

// The activation checkpointing policies. In a file, true means full and
// false means none.
const (
	CheckpointNone      Checkpointing = "none"      // keep every activation for the backward pass
	CheckpointSelective Checkpointing = "selective" // keep matmul outputs, recompute the cheap parts (Megatron, torchtitan)
	CheckpointFull      Checkpointing = "full"      // keep only each layer's input and recompute the layer
)

// Checkpointings lists every Checkpointing.
func Checkpointings() []Checkpointing {
	return []Checkpointing{CheckpointNone, CheckpointSelective, CheckpointFull}
}

// ParseCheckpointing returns the Checkpointing named s (case-insensitive;
// true, yes and on mean full; false, no and off mean none).
func ParseCheckpointing(s string) (Checkpointing, error) {
	return parseEnum("activation checkpointing", s, Checkpointings(), map[string]Checkpointing{
		"true": CheckpointFull, "yes": CheckpointFull, "on": CheckpointFull,
		"false": CheckpointNone, "no": CheckpointNone, "off": CheckpointNone,
	})
}

// UnmarshalYAML accepts a boolean (the older form of the field) as well as
// a policy name; Parse validates the name.
func (c *Checkpointing) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("want true, false, none, selective or full")
	}
	*c = Checkpointing(strings.ToLower(strings.TrimSpace(n.Value)))
	return nil
}

// Sharding is how training state is split over data-parallel ranks.
type Sharding string

// The shardings.
const (
	// ShardingNone keeps a whole copy of weights, gradients and optimizer
	// states on every data-parallel rank (plain DDP).
	ShardingNone Sharding = "none"
	// ShardingZero1 shards the optimizer states (ZeRO-1, Megatron's
	// distributed optimizer).
	ShardingZero1 Sharding = "zero1"
	// ShardingZero2 shards the optimizer states and the gradients (ZeRO-2).
	ShardingZero2 Sharding = "zero2"
	// ShardingFSDP shards the weights as well, gathering each layer's for
	// its forward and backward (ZeRO-3, PyTorch FSDP FULL_SHARD).
	ShardingFSDP Sharding = "fsdp"
	// ShardingHSDP is FSDP within a node, replicated across nodes (PyTorch
	// HYBRID_SHARD): the gathers stay on the node's links, the gradient
	// all-reduce of each shard crosses the fabric.
	ShardingHSDP Sharding = "hsdp"
)

// Shardings lists every Sharding.
func Shardings() []Sharding {
	return []Sharding{ShardingNone, ShardingZero1, ShardingZero2, ShardingFSDP, ShardingHSDP}
}

// ParseSharding returns the Sharding named s (case-insensitive).
func ParseSharding(s string) (Sharding, error) {
	return parseEnum("sharding", s, Shardings(), map[string]Sharding{
		"ddp": ShardingNone, "zero3": ShardingFSDP, "zero-3": ShardingFSDP, "full-shard": ShardingFSDP,
		"zero-1": ShardingZero1, "zero-2": ShardingZero2, "distributed-optimizer": ShardingZero1,
		"hybrid-shard": ShardingHSDP,
	})
}

// Batching is how a serving engine groups requests.
type Batching string

// The batching policies.
const (
	// BatchingContinuous admits and retires requests at every decode step
	// (in-flight batching: vLLM, SGLang, TensorRT-LLM's executor); offline
	// jobs are measured in steady state.
	BatchingContinuous Batching = "continuous"
	// BatchingStatic runs max_batch requests of equal length from the first
	// prefill to the last token together, as older benchmark harnesses and
	// static-shape engines (HPU graphs, Neuron) do.
	BatchingStatic Batching = "static"
	// BatchingBurst submits inference.requests requests at once and measures
	// the makespan: a prefill wave, the decode of a full batch, then a tail
	// while the longest answers finish (benchmark_throughput style).
	BatchingBurst Batching = "burst"
)

// Batchings lists every Batching.
func Batchings() []Batching { return []Batching{BatchingContinuous, BatchingStatic, BatchingBurst} }

// ParseBatching returns the Batching named s (case-insensitive).
func ParseBatching(s string) (Batching, error) {
	return parseEnum("batching", s, Batchings(), map[string]Batching{
		"inflight": BatchingContinuous, "in-flight": BatchingContinuous, "dynamic": BatchingContinuous, "makespan": BatchingBurst,
	})
}

// Build says whose build of a framework runs the job.
type Build string

// The builds.
const (
	BuildUpstream Build = "upstream" // the project's own release (pip wheel, official image)
	BuildVendor   Build = "vendor"   // the accelerator vendor's tuned build: NVIDIA NIM, AMD's ROCm images, Intel's Gaudi fork, Huawei's Ascend builds
)

// Builds lists every Build.
func Builds() []Build { return []Build{BuildUpstream, BuildVendor} }

// ParseBuild returns the Build named s (case-insensitive).
func ParseBuild(s string) (Build, error) {
	return parseEnum("build", s, Builds(), map[string]Build{"stock": BuildUpstream, "official": BuildUpstream, "tuned": BuildVendor, "nim": BuildVendor})
}

// Storage is where a training job reads its dataset from during the run.
type Storage string

// The storage kinds.
const (
	StorageLocalNVMe Storage = "local-nvme" // the instance's own NVMe drives (data copied there first)
	StorageBlock     Storage = "block"      // network block volumes (EBS, Persistent Disk, ...)
	StorageObject    Storage = "object"     // object storage streamed during the run (S3, GCS, OSS, ...)
	StorageAuto      Storage = "auto"       // the model picks the cheapest that keeps the GPUs fed
)

// Storages lists every Storage.
func Storages() []Storage {
	return []Storage{StorageLocalNVMe, StorageBlock, StorageObject, StorageAuto}
}

// Valid reports whether s is one of Storages.
func (s Storage) Valid() bool { return contains(Storages(), s) }

// ParseStorage returns the Storage named s (case-insensitive).
func ParseStorage(s string) (Storage, error) {
	return parseEnum("storage", s, Storages(), map[string]Storage{"nvme": StorageLocalNVMe, "local": StorageLocalNVMe, "s3": StorageObject})
}

// Objective is what the advisor ranks candidates by.
type Objective string

// The objectives.
const (
	ObjectiveCost            Objective = "cost"              // lowest total cost in USD that meets the constraints
	ObjectiveTime            Objective = "time"              // shortest duration (or lowest latency) within the budget
	ObjectiveTokensPerDollar Objective = "tokens-per-dollar" // most tokens (images, items) per USD
	ObjectiveBalanced        Objective = "balanced"          // a knee of the cost × time Pareto front
)

// Objectives lists every Objective.
func Objectives() []Objective {
	return []Objective{ObjectiveCost, ObjectiveTime, ObjectiveTokensPerDollar, ObjectiveBalanced}
}

// Valid reports whether o is one of Objectives.
func (o Objective) Valid() bool { return contains(Objectives(), o) }

// ParseObjective returns the Objective named s (case-insensitive).
func ParseObjective(s string) (Objective, error) {
	return parseEnum("objective", s, Objectives(), nil)
}

// PricingMode is a way of paying for a server; catalog offers carry a price
// per hour for each mode the provider publishes.
type PricingMode string

// The pricing modes.
const (
	PricingOnDemand   PricingMode = "on-demand"   // pay per hour, no commitment
	PricingSpot       PricingMode = "spot"        // preemptible capacity at a discount
	PricingMonthly    PricingMode = "monthly"     // monthly subscription, as Chinese clouds sell it
	PricingReserved1y PricingMode = "reserved-1y" // one-year commitment
	PricingReserved3y PricingMode = "reserved-3y" // three-year commitment
	PricingServerless PricingMode = "serverless"  // per-second workers that scale to zero
)

// PricingModes lists every PricingMode.
func PricingModes() []PricingMode {
	return []PricingMode{PricingOnDemand, PricingSpot, PricingMonthly, PricingReserved1y, PricingReserved3y, PricingServerless}
}

// Valid reports whether m is one of PricingModes.
func (m PricingMode) Valid() bool { return contains(PricingModes(), m) }

// ParsePricingMode returns the PricingMode named s (case-insensitive).
func ParsePricingMode(s string) (PricingMode, error) {
	return parseEnum("pricing", s, PricingModes(), map[string]PricingMode{
		"ondemand": PricingOnDemand, "preemptible": PricingSpot, "subscription": PricingMonthly,
		"reserved": PricingReserved1y, "1y": PricingReserved1y, "3y": PricingReserved3y,
	})
}

// Requirement is how strongly a compliance feature is wanted.
type Requirement string

// The requirement levels.
const (
	Required  Requirement = "required"  // offers without it are excluded
	Preferred Requirement = "preferred" // offers with it rank higher; none are excluded
	NotNeeded Requirement = "no"        // not considered
)

// Requirements lists every Requirement.
func Requirements() []Requirement { return []Requirement{Required, Preferred, NotNeeded} }

// Valid reports whether r is one of Requirements.
func (r Requirement) Valid() bool { return contains(Requirements(), r) }

// ParseRequirement returns the Requirement named s (case-insensitive; yes,
// true and must mean required; false and none mean no).
func ParseRequirement(s string) (Requirement, error) {
	return parseEnum("requirement", s, Requirements(), map[string]Requirement{
		"yes": Required, "true": Required, "must": Required, "false": NotNeeded, "none": NotNeeded, "optional": Preferred,
	})
}

// Operator is who runs a machine, as compliance.operators names it (the
// catalog's operator kinds).
type Operator string

// The operators, from the most to the least accountable to the buyer.
const (
	OperatorProvider    Operator = "provider"    // the provider itself
	OperatorPartner     Operator = "partner"     // data centres or clouds the provider contracts, under its terms
	OperatorMarketplace Operator = "marketplace" // independent hosts of the provider's marketplace, not known to the buyer
	OperatorCommunity   Operator = "community"   // individual hosts of the provider's community cloud
)

// Operators lists every Operator.
func Operators() []Operator {
	return []Operator{OperatorProvider, OperatorPartner, OperatorMarketplace, OperatorCommunity}
}

// AccountableOperators are the operators a workload with compliance
// requirements, or a production service, accepts unless it says otherwise:
// the company the buyer contracts answers for the machine.
func AccountableOperators() []Operator { return []Operator{OperatorProvider, OperatorPartner} }

// ParseOperator returns the Operator named s (case-insensitive).
func ParseOperator(s string) (Operator, error) {
	return parseEnum("operator", s, Operators(), nil)
}

// Framework is the software that runs the job; it changes the speed (see
// DESIGN "The software stack changes the speed") and the compatibility verdicts.
type Framework string

// The frameworks.
const (
	FrameworkPyTorch     Framework = "pytorch"      // PyTorch with FSDP (or plain DDP); also Hugging Face Trainer/PEFT
	FrameworkTorchTitan  Framework = "torchtitan"   // PyTorch's native large-scale training stack
	FrameworkMegatron    Framework = "megatron"     // Megatron-LM / Megatron-Core / NeMo
	FrameworkDeepSpeed   Framework = "deepspeed"    // DeepSpeed ZeRO
	FrameworkLLMFoundry  Framework = "llm-foundry"  // MosaicML LLM Foundry (Composer)
	FrameworkJAX         Framework = "jax"          // JAX, including MaxText
	FrameworkTensorFlow  Framework = "tensorflow"   // TensorFlow / Keras
	FrameworkVLLM        Framework = "vllm"         // vLLM server
	FrameworkTensorRTLLM Framework = "tensorrt-llm" // NVIDIA TensorRT-LLM (and Triton / NIM on top of it)
	FrameworkSGLang      Framework = "sglang"       // SGLang server
	FrameworkTGI         Framework = "tgi"          // Hugging Face Text Generation Inference
	FrameworkLMDeploy    Framework = "lmdeploy"     // InternLM LMDeploy (TurboMind and its PyTorch engine)
	FrameworkMindIE      Framework = "mindie"       // Huawei MindIE-LLM serving on Ascend
	// FrameworkOptimumHabana is Hugging Face Optimum Habana text generation
	// on Intel Gaudi (static batches replayed as HPU graphs).
	FrameworkOptimumHabana Framework = "optimum-habana"
	FrameworkOther         Framework = "other" // anything else: custom CUDA/ROCm code, renderers; compat cannot judge it

	// The diffusion engines (kind image-generation); jax and
	// optimum-habana above also run diffusion pipelines.
	FrameworkDiffusers        Framework = "diffusers"         // Hugging Face diffusers on eager PyTorch (SDPA attention)
	FrameworkDiffusersCompile Framework = "diffusers-compile" // diffusers with torch.compile (inductor, CUDA graphs)
	FrameworkTensorRT         Framework = "tensorrt"          // NVIDIA TensorRT engines (TensorRT demo/diffusion, TensorRT-LLM's DiT path, Triton)
	FrameworkONNXRuntime      Framework = "onnxruntime"       // ONNX Runtime (CUDA, ROCm or CPU execution providers)
	FrameworkOpenVINO         Framework = "openvino"          // Intel OpenVINO (x86 CPUs and Intel GPUs)
	FrameworkIREE             Framework = "iree"              // IREE / SHARK compiled pipelines
	FrameworkMIGraphX         Framework = "migraphx"          // AMD MIGraphX on ROCm
)

// Frameworks lists every Framework.
func Frameworks() []Framework {
	return []Framework{FrameworkPyTorch, FrameworkTorchTitan, FrameworkMegatron, FrameworkDeepSpeed,
		FrameworkLLMFoundry, FrameworkJAX, FrameworkTensorFlow, FrameworkVLLM, FrameworkTensorRTLLM,
		FrameworkSGLang, FrameworkTGI, FrameworkLMDeploy, FrameworkMindIE, FrameworkOptimumHabana, FrameworkOther,
		FrameworkDiffusers, FrameworkDiffusersCompile, FrameworkTensorRT, FrameworkONNXRuntime, FrameworkOpenVINO,
		FrameworkIREE, FrameworkMIGraphX}
}

// DiffusionEngines lists the frameworks kind image-generation accepts.
func DiffusionEngines() []Framework {
	return []Framework{FrameworkDiffusers, FrameworkDiffusersCompile, FrameworkTensorRT, FrameworkONNXRuntime,
		FrameworkOpenVINO, FrameworkIREE, FrameworkMIGraphX, FrameworkOptimumHabana, FrameworkJAX}
}

// DiffusionOnly reports whether f runs diffusion pipelines and nothing else
// gpupick models.
func (f Framework) DiffusionOnly() bool {
	switch f {
	case FrameworkDiffusers, FrameworkDiffusersCompile, FrameworkTensorRT, FrameworkONNXRuntime, FrameworkOpenVINO,
		FrameworkIREE, FrameworkMIGraphX:
		return true
	}
	return false
}

// DiffusionPrecisions lists the denoiser precisions engine f can run
// (image.precision); fp4 also needs a GPU with FP4 tensor cores (Blackwell),
// which the prediction checks.
func (f Framework) DiffusionPrecisions() []Precision {
	switch f {
	case FrameworkTensorRT:
		return []Precision{FP32, BF16, FP16, FP8, INT8, FP4} // ModelOpt PTQ: INT8, FP8, NVFP4
	case FrameworkDiffusers, FrameworkDiffusersCompile:
		return []Precision{FP32, BF16, FP16, FP8, INT8} // torchao float8 and int8 quantisation
	case FrameworkOptimumHabana:
		return []Precision{FP32, BF16, FP8} // Intel Neural Compressor FP8 on Gaudi 2/3
	case FrameworkONNXRuntime, FrameworkOpenVINO, FrameworkMIGraphX:
		return []Precision{FP32, BF16, FP16, INT8} // INT8 via QDQ / NNCF / MIGraphX quantisation; no FP8 path
	case FrameworkIREE:
		// AMD's MLPerf SDXL submissions on MI300X/MI325X run a UNet
		// quantised with Brevitas and compiled by IREE (ROCm blog "MI325X
		// GPUs produce strong performance in MLPerf Inference v5.0",
		// 2025-04-02); IREE's ROCm backend has FP8 MFMA intrinsics (IREE PR
		// #19020, "Add VMFMA for FP8"). Elsewhere the model falls back to
		// the nearest type the accelerator has and says so.
		return []Precision{FP32, BF16, FP16, FP8, INT8}
	}
	return []Precision{FP32, BF16, FP16} // jax
}

// Valid reports whether f is one of Frameworks.
func (f Framework) Valid() bool { return contains(Frameworks(), f) }

// ServingOnly reports whether f can serve models but not train them.
func (f Framework) ServingOnly() bool {
	switch f {
	case FrameworkVLLM, FrameworkTensorRTLLM, FrameworkSGLang, FrameworkTGI, FrameworkLMDeploy, FrameworkMindIE, FrameworkOptimumHabana:
		return true
	}
	return false
}

// TrainingOnly reports whether f trains models but is not a serving engine.
func (f Framework) TrainingOnly() bool {
	return f == FrameworkTorchTitan || f == FrameworkMegatron || f == FrameworkLLMFoundry
}

var frameworkAliases = map[string]Framework{
	"torch": FrameworkPyTorch, "fsdp": FrameworkPyTorch, "pytorch-fsdp": FrameworkPyTorch, "huggingface": FrameworkPyTorch,
	"transformers": FrameworkPyTorch, "megatron-lm": FrameworkMegatron, "megatron-core": FrameworkMegatron,
	"nemo": FrameworkMegatron, "composer": FrameworkLLMFoundry, "maxtext": FrameworkJAX, "jax/maxtext": FrameworkJAX,
	"keras": FrameworkTensorFlow, "trt-llm": FrameworkTensorRTLLM, "trtllm": FrameworkTensorRTLLM,
	"nim": FrameworkTensorRTLLM, "text-generation-inference": FrameworkTGI, "custom": FrameworkOther,
	"cuda": FrameworkOther, "turbomind": FrameworkLMDeploy, "mindie-llm": FrameworkMindIE, "mindie-service": FrameworkMindIE,
	"habana": FrameworkOptimumHabana, "optimum-habana-tgi": FrameworkOptimumHabana, "tgi-gaudi": FrameworkOptimumHabana,
	"vllm-gaudi": FrameworkVLLM, "vllm-ascend": FrameworkVLLM, "vllm-rocm": FrameworkVLLM, "fastertransformer": FrameworkTensorRTLLM,
	"torch-compile": FrameworkDiffusersCompile, "diffusers-compiled": FrameworkDiffusersCompile, "trt": FrameworkTensorRT,
	"ort": FrameworkONNXRuntime, "onnx": FrameworkONNXRuntime, "shark": FrameworkIREE,
}

// ParseFramework returns the Framework named s (case-insensitive; aliases
// such as fsdp, nemo, megatron-core, maxtext and trt-llm are accepted).
func ParseFramework(s string) (Framework, error) {
	return parseEnum("framework", s, Frameworks(), frameworkAliases)
}

// Vendor is an accelerator maker a team may accept.
type Vendor string

// The accelerator vendors.
const (
	VendorNVIDIA Vendor = "nvidia"
	VendorAMD    Vendor = "amd"
	VendorIntel  Vendor = "intel"  // Gaudi
	VendorGoogle Vendor = "google" // TPU
	VendorAWS    Vendor = "aws"    // Trainium, Inferentia
	VendorHuawei Vendor = "huawei" // Ascend
)

// Vendors lists every Vendor.
func Vendors() []Vendor {
	return []Vendor{VendorNVIDIA, VendorAMD, VendorIntel, VendorGoogle, VendorAWS, VendorHuawei}
}

// Valid reports whether v is one of Vendors.
func (v Vendor) Valid() bool { return contains(Vendors(), v) }

// ParseVendor returns the Vendor named s (case-insensitive).
func ParseVendor(s string) (Vendor, error) {
	return parseEnum("vendor", s, Vendors(), map[string]Vendor{
		"habana": VendorIntel, "gaudi": VendorIntel, "tpu": VendorGoogle, "ascend": VendorHuawei,
		"trainium": VendorAWS, "inferentia": VendorAWS,
	})
}

// Arch is the broad architecture of a model; it decides which FLOP and
// memory formulas apply.
type Arch string

// The architectures.
const (
	ArchDecoder Arch = "decoder" // decoder-only transformer (GPT, Llama, Mixtral, DeepSeek)
	ArchEncoder Arch = "encoder" // encoder-only transformer (BERT); no generation
	ArchCNN     Arch = "cnn"     // convolutional image model (ResNet, EfficientNet)
	ArchViT     Arch = "vit"     // vision transformer over image patches
	ArchUNet    Arch = "unet"    // diffusion denoiser: a convolutional UNet with attention blocks (Stable Diffusion 1/2/XL)
	ArchDiT     Arch = "dit"     // diffusion denoiser: a transformer over latent patches (SD3, FLUX, PixArt, video DiTs)
)

// Archs lists every Arch.
func Archs() []Arch { return []Arch{ArchDecoder, ArchEncoder, ArchCNN, ArchViT, ArchUNet, ArchDiT} }

// Valid reports whether a is one of Archs.
func (a Arch) Valid() bool { return contains(Archs(), a) }

// IsVision reports whether a takes images (cnn or vit).
func (a Arch) IsVision() bool { return a == ArchCNN || a == ArchViT }

// IsDiffusion reports whether a is a diffusion denoiser (unet or dit).
func (a Arch) IsDiffusion() bool { return a == ArchUNet || a == ArchDiT }

// ParseArch returns the Arch named s (case-insensitive).
func ParseArch(s string) (Arch, error) {
	return parseEnum("arch", s, Archs(), map[string]Arch{"decoder-only": ArchDecoder, "encoder-only": ArchEncoder, "transformer": ArchDecoder})
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// parseEnum matches s case-insensitively against known and aliases. The
// error text names what was wanted; callers add the field path.
func parseEnum[T ~string](what, s string, known []T, aliases map[string]T) (T, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.ReplaceAll(k, "_", "-")
	for _, v := range known {
		if string(v) == k {
			return v, nil
		}
	}
	if v, ok := aliases[k]; ok {
		return v, nil
	}
	names := make([]string, len(known))
	for i, v := range known {
		names[i] = string(v)
	}
	return "", apperr.Newf(apperr.Invalid, "", "unknown %s %q (want one of %s)", what, s, strings.Join(names, ", "))
}

// Schedule is the order in which pipeline stages run their micro-batches.
type Schedule string

// The pipeline schedules.
const (
	// Schedule1F1B runs one forward and one backward in turn on each stage
	// (Megatron's default), interleaved over parallelism.virtual_pipeline
	// chunks when that is more than 1.
	Schedule1F1B Schedule = "1f1b"
	// ScheduleDualPipe is DeepSeek-V3's bidirectional schedule: each stage
	// holds two chunks, micro-batches enter from both ends, and a forward
	// chunk runs beside a backward chunk so that the expert all-to-all and
	// the pipeline sends of one hide under the other's compute.
	ScheduleDualPipe Schedule = "dualpipe"
)

// Schedules lists every Schedule.
func Schedules() []Schedule {
	return []Schedule{Schedule1F1B, ScheduleDualPipe}
}

// ParseSchedule returns the Schedule named s (case-insensitive).
func ParseSchedule(s string) (Schedule, error) {
	return parseEnum("schedule", s, Schedules(), map[string]Schedule{
		"interleaved": Schedule1F1B, "interleaved-1f1b": Schedule1F1B, "dual-pipe": ScheduleDualPipe,
	})
}

// ExpertOverlap is how a serving engine overlaps a decode step's expert
// all-to-all with its compute.
type ExpertOverlap string

// The expert all-to-all overlaps.
const (
	// OverlapNone: every decode step waits for its dispatch and combine.
	OverlapNone ExpertOverlap = "none"
	// OverlapSingleBatch: within one batch, the dispatch arrives under the
	// shared experts and the combine leaves under the experts' down GEMM
	// (SGLang's --enable-single-batch-overlap, DeepGEMM and DeepEP's SBO).
	OverlapSingleBatch ExpertOverlap = "single_batch"
	// OverlapTwoBatch: the step runs as two micro-batches, one's dispatch
	// and combine under the other's compute (SGLang's
	// --enable-two-batch-overlap, vLLM's --enable-dbo).
	OverlapTwoBatch ExpertOverlap = "two_batch"
)

// ExpertOverlaps lists every ExpertOverlap.
func ExpertOverlaps() []ExpertOverlap {
	return []ExpertOverlap{OverlapNone, OverlapSingleBatch, OverlapTwoBatch}
}

// ParseExpertOverlap returns the ExpertOverlap named s (case-insensitive).
func ParseExpertOverlap(s string) (ExpertOverlap, error) {
	return parseEnum("expert overlap", s, ExpertOverlaps(), map[string]ExpertOverlap{
		"off": OverlapNone, "false": OverlapNone, "sbo": OverlapSingleBatch, "single-batch": OverlapSingleBatch,
		"tbo": OverlapTwoBatch, "dbo": OverlapTwoBatch, "two-batch": OverlapTwoBatch, "dual-batch": OverlapTwoBatch,
	})
}

// Availability is how much of a service's loss it must survive.
type Availability string

// The availability levels.
const (
	// AvailabilityProduction survives the loss of one instance at every
	// hour (a spare), spreads over the zones of its region, and never
	// rests entirely on capacity the provider can reclaim (spot); a zone
	// lost at the peak leaves it short until replacements start in the
	// other zones.
	AvailabilityProduction Availability = "production"
	// AvailabilityZoneRedundant is production that also keeps serving
	// every hour's load after losing any one zone, where the catalog
	// knows the instance type is sold in several zones (static
	// stability): it pays for a zone's worth of spare instances.
	AvailabilityZoneRedundant Availability = "zone-redundant"
	// AvailabilityBestEffort is sized for the load alone: development,
	// demos, internal tools.
	AvailabilityBestEffort Availability = "best-effort"
)

// Availabilities lists every Availability.
func Availabilities() []Availability {
	return []Availability{AvailabilityProduction, AvailabilityZoneRedundant, AvailabilityBestEffort}
}

// ParseAvailability returns the Availability named s (case-insensitive).
func ParseAvailability(s string) (Availability, error) {
	return parseEnum("availability", s, Availabilities(), map[string]Availability{
		"prod": AvailabilityProduction, "ha": AvailabilityProduction, "besteffort": AvailabilityBestEffort,
		"zone_redundant": AvailabilityZoneRedundant, "multi-zone": AvailabilityZoneRedundant, "multi-az": AvailabilityZoneRedundant,
		"best_effort": AvailabilityBestEffort, "dev": AvailabilityBestEffort, "development": AvailabilityBestEffort,
	})
}

// Traffic is the shape of a service's load over the day.
type Traffic string

// The traffic shapes.
const (
	// TrafficConstant is the same rate all day (Poisson arrivals).
	TrafficConstant Traffic = "constant"
	// TrafficDiurnal follows the day: a cosine from the trough to the peak
	// at service.peak_hour, whose mean is the workload's
	// requests_per_second.
	TrafficDiurnal Traffic = "diurnal"
)

// Traffics lists every Traffic.
func Traffics() []Traffic { return []Traffic{TrafficConstant, TrafficDiurnal} }

// ParseTraffic returns the Traffic named s (case-insensitive).
func ParseTraffic(s string) (Traffic, error) {
	return parseEnum("traffic", s, Traffics(), map[string]Traffic{"flat": TrafficConstant, "poisson": TrafficConstant, "daily": TrafficDiurnal})
}
