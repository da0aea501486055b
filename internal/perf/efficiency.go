package perf

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// MatmulShare is the share of a's dense datasheet peak in data type d that
// the model expects large matrix multiplies to reach (its fitted matmul
// factor, the low-precision ratio for fp8/int8/fp4, less any power cap): a
// measured matmul at this share leaves predictions unchanged.
func MatmulShare(a *catalog.Accelerator, d catalog.DataType) float64 {
	peak, ok := a.TFLOPS(d)
	if !ok || peak == 0 {
		return 0
	}
	return defaultParams.matmulFLOPS(a, defaultParams.archFor(a.Architecture), d) / (peak * 1e12)
}

// powerDerate is the share of its datasheet tensor rate that a power-capped
// variant sustains. Dynamic power grows about as the cube of the clock in
// the voltage-scaling range (P ∝ f·V², V ∝ f), and about 15% of board power
// is static, so the clock scales as the cube root of the dynamic power left.
func powerDerate(a *catalog.Accelerator) float64 {
	if a.PowerCapWatts <= 0 || a.TDPWatts <= 0 || a.PowerCapWatts >= a.TDPWatts {
		return 1
	}
	static := 0.15 * a.TDPWatts
	return math.Cbrt((a.PowerCapWatts - static) / (a.TDPWatts - static))
}

// trainStack is what a training framework does to a step on the same
// parallel layout: the rest of its scheduling quality (Speed, relative to a
// tuned Megatron-Core), whether its elementwise kernels are fused by
// default, and whether it uses the architecture's best attention kernel
// (cuDNN / FlashAttention-3 on Hopper) or a FlashAttention-2-class one.
type trainStack struct {
	Speed      float64
	Fused      bool
	NativeAttn bool
	Note       string
}

var trainStacks = map[workload.Framework]trainStack{
	workload.FrameworkMegatron:   {1.00, true, true, "Transformer Engine fused kernels, cuDNN attention"},
	workload.FrameworkJAX:        {1.00, true, true, "XLA fusion, cuDNN / Pallas attention"},
	workload.FrameworkLLMFoundry: {0.97, false, false, "FlashAttention-2, eager PyTorch around it"},
	workload.FrameworkTorchTitan: {0.97, false, false, "PyTorch SDPA (FlashAttention-2 class); torch.compile when compile is set"},
	workload.FrameworkPyTorch:    {0.90, false, false, "FSDP from a generic training loop (Hugging Face Trainer, torchtune and the like)"},
	workload.FrameworkDeepSpeed:  {0.90, false, false, "ZeRO with eager PyTorch kernels"},
	workload.FrameworkTensorFlow: {0.90, false, false, "eager TensorFlow; XLA when compile is set"},
	workload.FrameworkOther:      {0.90, false, false, "an unlisted framework, assumed eager"},
}

func trainStackFor(s workload.Stack) (trainStack, bool) {
	t, ok := trainStacks[s.Framework]
	if !ok {
		t = trainStacks[workload.FrameworkOther]
	}
	fused := t.Fused
	if s.Compile != nil {
		fused = *s.Compile
	}
	return t, fused
}

// engineRelease is one range of a serving engine's releases and how it
// behaves: its kernels (Kernel, the share of the best engine's GEMM and
// attention efficiency), what each decode step costs beyond the GPU work,
// how it sizes the KV cache and how many sequences it runs at once.
type engineRelease struct {
	From string // first release of the range
	// Kernel multiplies the architecture's matmul and bandwidth shares.
	Kernel float64
	// StepS is the fixed host cost of one scheduler step (scheduling,
	// sampling, detokenising), s; PerSeqS is its cost per sequence, s.
	StepS, PerSeqS float64
	// LaunchPerLayerS is the kernel-launch time per layer of an eager engine
	// (0 when decode steps replay CUDA graphs), s.
	LaunchPerLayerS float64
	// MaxBatch is the default cap on sequences in flight per replica.
	MaxBatch int
	// MemShare is the share of device memory the engine claims for weights
	// and KV cache.
	MemShare float64
	// ReserveFull means the engine reserves prompt + output at admission
	// (no eviction); otherwise the cache holds what sequences have written
	// (paged), about prompt + half the output on average.
	ReserveFull bool
	// Static means the engine batches statically by default.
	Static bool
	// EPOverlap is how the release's wide-EP recipe hides a decode step's
	// expert all-to-all under its compute when parallelism.expert_overlap
	// does not say (SGLang's two-batch overlap with DeepEP); empty: none.
	EPOverlap workload.ExpertOverlap
	// PerHeadKV means the decode attention kernel runs one block per
	// query head, so under grouped-query attention each KV head's cache
	// is read once per query head of its group, not once per group.
	PerHeadKV bool
	// OverlapHost means the scheduler prepares and samples the next step
	// while the GPU runs this one, so the per-sequence host work costs
	// time only when it outlasts the GPU's step (StepS stays exposed).
	OverlapHost bool
	Note        string
}

// engine is a serving engine's release history, newest last, and its speed
// on non-NVIDIA backends (upstream and the vendor's tuned build).
type engine struct {
	Releases []engineRelease
	Latest   string // the newest release the table knows
	// Backend maps a compat backend (rocm, gaudi, cann, tpu, neuron) to the
	// kernel share of the upstream build and of the vendor's build there.
	Backend map[string][2]float64
	Source  string
}

// engines are the serving engines by framework id. The figures are priors
// from the engines' own release notes and published comparisons (Source);
// only TensorRT-LLM is scored by the validation set, so the others carry the
// confidence their sources give.
var engines = map[workload.Framework]engine{
	workload.FrameworkTensorRTLLM: {
		Releases: []engineRelease{
			{From: "0.1", Kernel: 0.92, StepS: 2e-4, PerSeqS: 1e-6, MaxBatch: 256, MemShare: 0.90, ReserveFull: true, PerHeadKV: true, Note: "FasterTransformer and early TensorRT-LLM: fused kernels, static sessions; the masked multi-head attention kernel reads a grouped KV head once per query head"},
			{From: "0.7", Kernel: 0.92, StepS: 2e-4, PerSeqS: 1e-6, MaxBatch: 256, MemShare: 0.90, ReserveFull: true, Note: "masked multi-head attention optimised for MQA and GQA (December 2023), XQA kernels from 0.8: a KV head is read once for its group"},
			{From: "0.9", Kernel: 1.00, StepS: 2e-4, PerSeqS: 1e-6, MaxBatch: 1024, MemShare: 0.92, ReserveFull: true, Note: "C++ executor with in-flight batching, paged KV, FP8 kernels; KV reserved for prompt + output (guaranteed no eviction); benchmarks tune max_batch_size to about 1024 [unverified]"},
			{From: "1.0", Kernel: 1.00, StepS: 5e-4, PerSeqS: 29e-6, MaxBatch: 1024, MemShare: 0.92, ReserveFull: true, OverlapHost: true, Note: "PyTorch backend (trtllm-bench): the same kernels with a Python executor whose overlap scheduler prepares the next step during this one; its host work is about 29 us per sequence and step (45 ms per iteration at 1,536 sequences per rank, PR #10273), so above some 1,000 sequences the host sets the pace; max_batch_size about 1024 [unverified]"},
		},
		Latest:  "1.2",
		Backend: map[string][2]float64{},
		Source:  "github.com/NVIDIA/TensorRT-LLM docs/source/performance (perf-overview.md, performance.md); trtllm-bench defaults; PR #524 (2023-12-01: MMHA optimisation for MQA and GQA) and the XQA kernel blog (0.8); PR #10273 (2025-12: PyExecutor host_step_time 45.11 ms per iteration at max_batch_size 1536 per attention-DP rank) and issue #13957 (about 0.58 ms of host time per iteration left exposed by the overlap scheduler)",
	},
	workload.FrameworkVLLM: {
		Releases: []engineRelease{
			{From: "0.1", Kernel: 0.75, StepS: 3e-3, PerSeqS: 2e-5, MaxBatch: 256, MemShare: 0.90, Note: "scheduler on the critical path between steps (before multi-step scheduling)"},
			{From: "0.6", Kernel: 0.85, StepS: 2e-3, PerSeqS: 1e-5, MaxBatch: 256, MemShare: 0.90, Note: "asynchronous output processing on by default; multi-step scheduling, behind most of the v0.6 release's 2.7x on Llama 3 8B, is opt-in (num_scheduler_steps defaults to 1), so most of the scheduler's per-step GPU bubble (about 4 ms per decode step before it, vLLM RFC #6854) stays"},
			{From: "0.8", Kernel: 0.92, StepS: 5e-4, PerSeqS: 15e-6, MaxBatch: 1024, MemShare: 0.90, Note: "V1 engine: persistent batch, FlashAttention-3 / FlashInfer, CUDA graphs; the scheduler runs between GPU steps, about 15 us per sequence and step (12-13 us hidden by overlapping it at batch 64-256, PR #23914; 17 us at concurrency 800, PR #26866); max_num_seqs 1024 on 70 GB-class GPUs [unverified]"},
			{From: "0.14", Kernel: 0.92, StepS: 5e-4, PerSeqS: 15e-6, MaxBatch: 1024, MemShare: 0.90, OverlapHost: true, Note: "asynchronous scheduling on by default (v0.14.0 release notes, PR #27614): the scheduler prepares the next step during this one; max_num_seqs 1024 on 70 GB-class GPUs [unverified]"},
		},
		Latest:  "0.14", // the release docs.vllm.ai documents as of 2026-08 (data/compat.yaml)
		Backend: map[string][2]float64{"rocm": {0.80, 0.92}, "gaudi": {0.75, 0.85}, "cann": {0.70, 0.80}, "tpu": {0.75, 0.85}, "neuron": {0.70, 0.80}},
		Source:  "vLLM release notes (v0.6.0 performance update, V1 engine blog, v0.14.0: async scheduling by default); PRs #23914 and #26866 (synchronous against asynchronous scheduling: 11-17 us of host work per sequence and step); AMD ROCm vLLM docker notes; vllm-gaudi and vllm-ascend plugin docs",
	},
	workload.FrameworkSGLang: {
		Releases: []engineRelease{
			{From: "0.1", Kernel: 0.88, StepS: 1e-3, PerSeqS: 5e-6, MaxBatch: 1024, MemShare: 0.88, Note: "RadixAttention, FlashInfer kernels"},
			{From: "0.4", Kernel: 0.95, StepS: 4e-4, PerSeqS: 2e-6, MaxBatch: 2048, MemShare: 0.88, OverlapHost: true, Note: "zero-overhead batch scheduler (v0.4 release blog), FA3/FlashInfer"},
			{From: "0.5", Kernel: 0.95, StepS: 4e-4, PerSeqS: 2e-6, MaxBatch: 2048, MemShare: 0.88, EPOverlap: workload.OverlapTwoBatch, OverlapHost: true, Note: "zero-overhead batch scheduler, FA3/FlashInfer; with expert parallelism DeepEP all-to-all and two-batch overlap (large-scale EP blog, May 2025)"},
		},
		Latest:  "0.5",
		Backend: map[string][2]float64{"rocm": {0.85, 0.92}, "gaudi": {0.70, 0.80}, "cann": {0.70, 0.80}, "tpu": {0.70, 0.80}},
		Source:  "SGLang v0.4 release blog (zero-overhead scheduler); lmsys.org/blog/2025-05-05-large-scale-ep (DeepEP, two-batch overlap); mem_fraction_static 0.88 default; AMD's SGLang MI300X guides",
	},
	workload.FrameworkTGI: {
		Releases: []engineRelease{
			{From: "1.0", Kernel: 0.80, StepS: 2e-3, PerSeqS: 1e-5, LaunchPerLayerS: 6e-5, MaxBatch: 128, MemShare: 0.90, Note: "router max_concurrent_requests 128 by default; FlashAttention-2 and paged attention; decode launched eagerly, layer by layer (no CUDA graphs before 2.0)"},
			{From: "2.0", Kernel: 0.80, StepS: 2e-3, PerSeqS: 1e-5, MaxBatch: 128, MemShare: 0.90, Note: "router max_concurrent_requests 128 by default; FlashAttention-2 and paged attention; decode replayed from CUDA graphs by default (PR #1703, April 2024)"},
			{From: "3.0", Kernel: 0.88, StepS: 1e-3, PerSeqS: 5e-6, MaxBatch: 128, MemShare: 0.90, Note: "TGI v3: FlashInfer, prefix caching, chunked prefill"},
		},
		Latest:  "3.3",
		Backend: map[string][2]float64{"rocm": {0.80, 0.85}, "gaudi": {0.80, 0.85}, "tpu": {0.75, 0.80}, "neuron": {0.75, 0.80}},
		Source:  "huggingface/text-generation-inference launcher defaults (max_concurrent_requests 128); PR #1428 (experimental CUDA graphs, January 2024) and PR #1703 (CUDA graphs by default, April 2024); TGI v3 release notes",
	},
	workload.FrameworkLMDeploy: {
		Releases: []engineRelease{
			{From: "0.1", Kernel: 0.95, StepS: 5e-4, PerSeqS: 2e-6, MaxBatch: 256, MemShare: 0.90, Note: "TurboMind C++ engine with persistent batching; cache_max_entry_count 0.8 of free memory"},
		},
		Latest:  "0.10",
		Backend: map[string][2]float64{"cann": {0.75, 0.80}},
		Source:  "InternLM/lmdeploy README (TurboMind, persistent batch) and TurbomindEngineConfig defaults",
	},
	workload.FrameworkMindIE: {
		Releases: []engineRelease{
			{From: "1.0", Kernel: 0.90, StepS: 1e-3, PerSeqS: 5e-6, MaxBatch: 200, MemShare: 0.90, Note: "Huawei's Ascend serving engine with continuous batching and ATB kernels; maxBatchSize 200 by default [unverified]"},
		},
		Latest:  "2.1",
		Backend: map[string][2]float64{"cann": {0.90, 0.90}},
		Source:  "Huawei MindIE-LLM documentation (config.json maxBatchSize, npuMemSize)",
	},
	workload.FrameworkOptimumHabana: {
		Releases: []engineRelease{
			{From: "1.0", Kernel: 0.92, StepS: 1e-3, PerSeqS: 2e-6, MaxBatch: 256, MemShare: 0.90, ReserveFull: true, Static: true, Note: "Hugging Face Optimum Habana text generation: static batches replayed as HPU graphs, KV for prompt + output"},
		},
		Latest:  "1.19",
		Backend: map[string][2]float64{"gaudi": {1.0, 1.0}},
		Source:  "huggingface/optimum-habana examples/text-generation README (static shapes, HPU graphs, bucketing)",
	},
	workload.FrameworkPyTorch: {
		Releases: []engineRelease{
			{From: "1.0", Kernel: 0.65, StepS: 2e-3, PerSeqS: 1e-5, LaunchPerLayerS: 6e-5, MaxBatch: 64, MemShare: 0.90, ReserveFull: true, Static: true, Note: "Hugging Face generate(): eager kernels, static batches padded to the longest request"},
		},
		Latest:  "2.9",
		Backend: map[string][2]float64{"rocm": {0.85, 0.9}, "gaudi": {0.8, 0.9}, "cann": {0.7, 0.8}, "tpu": {0.5, 0.6}, "neuron": {0.5, 0.6}},
		Source:  "transformers generate(); kernel launch latency ~5-10 µs per kernel, 8-10 kernels per layer",
	},
	workload.FrameworkOther: {
		Releases: []engineRelease{
			{From: "0.0", Kernel: 0.80, StepS: 1e-3, PerSeqS: 1e-5, MaxBatch: 256, MemShare: 0.90, Note: "an unlisted engine: assumed continuous batching with mid-range kernels"},
		},
		Latest:  "99",
		Backend: map[string][2]float64{"rocm": {0.85, 0.9}, "gaudi": {0.8, 0.9}, "cann": {0.8, 0.9}, "tpu": {0.8, 0.9}, "neuron": {0.8, 0.9}},
		Source:  "gpupick default for unlisted engines",
	},
}

// servingEngine is the release of an engine a workload runs and what that
// choice rests on.
type servingEngine struct {
	engineRelease
	Framework workload.Framework
	Version   string // the series the prediction assumes
	// Outside is set when stack.version lies outside the table: the
	// nearest known release is used and confidence drops.
	Outside msg.Msg
	Note    msg.Msg
}

// backendOf names the software backend an accelerator's vendor uses.
func backendOf(a *catalog.Accelerator) string {
	switch a.Vendor {
	case "amd":
		return "rocm"
	case "intel":
		return "gaudi"
	case "huawei":
		return "cann"
	case "google":
		return "tpu"
	case "aws":
		return "neuron"
	}
	return "cuda"
}

// resolveEngine picks the release of s.Framework that s.Version allows:
// the newest allowed release the table knows; the nearest one, with a note,
// when the constraint lies outside the table. On a non-NVIDIA accelerator
// the kernel share is the backend's, upstream or vendor build.
func resolveEngine(s workload.Stack, a *catalog.Accelerator) servingEngine {
	key := engineKey{s.Framework, s.Version, s.Build, backendOf(a), s.Compile != nil && *s.Compile}
	if e, ok := engineCache.Load(key); ok {
		return e.(servingEngine)
	}
	e := resolveEngineUncached(s, a)
	if engineCacheSize.Add(1) <= maxEngineCache { // version strings come from users: stay bounded
		engineCache.Store(key, e)
	}
	return e
}

const maxEngineCache = 4096

var engineCacheSize atomic.Int64

// engineCache remembers resolved engines: resolution scans the release
// series a constraint allows, and a recommendation asks thousands of times.
var engineCache sync.Map

type engineKey struct {
	fw       workload.Framework
	version  string
	build    workload.Build
	backend  string
	compiled bool
}

func resolveEngineUncached(s workload.Stack, a *catalog.Accelerator) servingEngine {
	fw := s.Framework
	e, ok := engines[fw]
	if !ok {
		fw = workload.FrameworkOther
		e = engines[fw]
	}
	rel, version, outside := pickRelease(e, s.Version)
	if fw == workload.FrameworkPyTorch && s.Compile != nil && *s.Compile {
		rel = compiledPyTorch(rel)
	}
	out := servingEngine{engineRelease: rel, Framework: fw, Version: version, Outside: outside}
	build := "upstream"
	if s.Build == workload.BuildVendor {
		build = "vendor"
	}
	if b := backendOf(a); b != "cuda" {
		k, ok := e.Backend[b]
		if !ok {
			k = [2]float64{0.6, 0.7}
		}
		share := k[0]
		if s.Build == workload.BuildVendor {
			share = k[1]
		}
		out.Kernel *= share
		out.Note = msg.New("%s %s (%s build) on %s: %.2fx the kernel efficiency of its CUDA release", fw, version, build, b, share)
	} else {
		out.Note = msg.New("%s %s: %s", fw, version, rel.Note)
	}
	return out
}

// compiledPyTorch is PyTorch's generation loop under torch.compile with
// CUDA graphs (mode reduce-overhead, as gpt-fast runs it): the decode step
// replays as one graph, so no kernel is launched from the host per layer,
// the loop around it is lean, and inductor fuses the elementwise kernels
// around cuBLAS GEMMs, as a serving engine of its era does (vLLM 0.6's
// kernel share).
func compiledPyTorch(r engineRelease) engineRelease {
	vllm, _, _ := pickRelease(engines[workload.FrameworkVLLM], "0.6")
	r.Kernel = vllm.Kernel
	r.StepS = 5e-4
	r.LaunchPerLayerS = 0
	r.Note = "torch.compile with CUDA graphs (reduce-overhead, as gpt-fast): the decode step replays as one graph, elementwise kernels fused; static batches padded to the longest request"
	return r
}

// pickRelease returns the release whose range holds the newest version the
// constraint allows, that version, and a note when the constraint allows no
// version the table covers.
func pickRelease(e engine, constraint string) (engineRelease, string, msg.Msg) {
	latest, _ := compat.ParseVersion(e.Latest)
	first, _ := compat.ParseVersion(e.Releases[0].From)
	cons, err := compat.ParseConstraint(constraint)
	if err != nil || cons.Any() {
		return releaseAt(e, latest), e.Latest, msg.Msg{}
	}
	// The newest allowed series the table covers; else whether the
	// constraint allows only newer or only older ones.
	var best, beyond compat.Version
	for major := 0; major <= part(latest, 0)+9; major++ {
		for minor := 0; minor <= 60; minor++ {
			v := compat.Version{major, minor}
			if !cons.AllowsSeries(v) {
				continue
			}
			if v.Compare(latest) <= 0 {
				best = v
			} else if beyond == nil {
				beyond = v
			}
		}
	}
	switch {
	case best == nil && beyond != nil:
		return releaseAt(e, latest), e.Latest, msg.New("stack.version %q is newer than the tables (%s is the latest known); assumed %s", constraint, e.Latest, e.Latest)
	case best == nil:
		return releaseAt(e, latest), e.Latest, msg.New("stack.version %q allows no release the tables know; assumed %s", constraint, e.Latest)
	case best.Compare(first) < 0:
		return e.Releases[0], first.String(), msg.New("stack.version %q is older than the tables (from %s); assumed %s", constraint, e.Releases[0].From, first)
	}
	return releaseAt(e, best), best.String(), msg.Msg{}
}

func part(v compat.Version, i int) int {
	if i < len(v) {
		return v[i]
	}
	return 0
}

func releaseAt(e engine, v compat.Version) engineRelease {
	r := e.Releases[0]
	for _, rel := range e.Releases {
		from, _ := compat.ParseVersion(rel.From)
		if from.Compare(v) <= 0 {
			r = rel
		}
	}
	return r
}

// dataTypeFor maps a workload precision to the hardware path that runs it,
// falling back to the nearest wider type the hardware has; the bool says
// whether it fell back.
func dataTypeFor(a *catalog.Accelerator, p workload.Precision) (catalog.DataType, bool) {
	want := map[workload.Precision]catalog.DataType{
		workload.FP32: catalog.FP32, workload.TF32: catalog.TF32, workload.BF16: catalog.BF16,
		workload.FP16: catalog.FP16, workload.FP8: catalog.FP8, workload.FP4: catalog.FP4, workload.INT8: catalog.INT8,
		workload.INT4: catalog.BF16, // weight-only int4: maths in 16-bit
	}[p]
	if _, ok := a.TFLOPS(want); ok {
		return want, false
	}
	order := []catalog.DataType{catalog.BF16, catalog.FP16, catalog.TF32, catalog.FP32}
	if want == catalog.FP4 {
		order = append([]catalog.DataType{catalog.FP8}, order...)
	}
	for _, d := range order {
		if _, ok := a.TFLOPS(d); ok {
			return d, true
		}
	}
	return catalog.FP32, true
}

// matmulFLOPS is the rate large GEMMs of type d sustain on a, FLOP/s: the
// dense peak times the architecture's matmul share, the low-precision ratio
// and any power cap.
func (m *Params) matmulFLOPS(a *catalog.Accelerator, f archFactors, d catalog.DataType) float64 {
	v, _ := a.TFLOPS(d)
	e := f.Matmul * powerDerate(a)
	switch d {
	case catalog.FP8, catalog.INT8:
		e *= m.FP8Ratio
	case catalog.FP4:
		e *= m.FP4Ratio
	}
	return v * 1e12 * e
}

// sizeEff is the efficiency of a GEMM with rows tokens and width columns
// relative to a large one (Calculon-style size curve).
func (m *Params) sizeEff(rows, width float64) float64 {
	return rows / (rows + m.GemmHalfM) * width / (width + m.GemmHalfN)
}

// decodeTileRows is the row granularity of the matrix units for a GEMM of
// a few tokens: decode kernels put the tokens on the narrow side of the
// multiply (swapped operands, or split-K GEMV-style kernels), where the
// tensor cores of every vendor take 16 rows at a time (mma m16, and
// AMD's and Intel's matrix cores alike), so 32 tokens fill two tiles and
// one token uses a sixteenth of one.
const decodeTileRows = 16

// gemmTileCols is the column granularity of the output tiles: widths that
// are not a multiple of 128 leave part of the last tile idle.
const gemmTileCols = 128

// tileEff is the share of the matrix units' work that is useful for a
// GEMM of rows tokens and width output columns per GPU: the rows rounded
// up to decodeTileRows, the width to gemmTileCols. It is the compute side
// of a small GEMM only: its memory side (the weights it reads) is the
// roofline's other term, counted with the step's memory traffic, so that
// a decode step is never charged twice for reading its weights.
func tileEff(rows, width float64) float64 {
	if rows <= 0 || width <= 0 {
		return 1
	}
	r := rows / (math.Ceil(rows/decodeTileRows) * decodeTileRows)
	w := width / (math.Ceil(width/gemmTileCols) * gemmTileCols)
	return r * w
}

// peakNominal is the datasheet dense peak, for MFU.
func peakNominal(a *catalog.Accelerator, d catalog.DataType) float64 {
	v, _ := a.TFLOPS(d)
	return v * 1e12
}

// PeakTFLOPS is the datasheet dense peak a workload precision runs at on a,
// TFLOPS (after any fallback to a wider type): the basis of MFU.
func PeakTFLOPS(a *catalog.Accelerator, p workload.Precision) float64 {
	d, _ := dataTypeFor(a, p)
	v, _ := a.TFLOPS(d)
	return v
}
