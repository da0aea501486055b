package perf

import (
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// The calibrated factors of the model. Each is a physical quantity, not a
// per-benchmark correction: how close real kernels get to the datasheet.
// docs/accuracy.md shows how they score against published measurements.

// archFactors says how close well-tuned kernels come to an architecture's
// datasheet peaks.
type archFactors struct {
	// MatmulEff is the share of dense peak FLOPS that large matrix
	// multiplications sustain (clocks under power limits, tile quantisation).
	MatmulEff float64
	// BWEff is the share of peak memory bandwidth that streaming kernels reach.
	BWEff float64
	// AttnEff is the share of dense peak that fused attention kernels
	// (FlashAttention-2 class) reach: lower than plain GEMMs, and much lower
	// on Hopper until FlashAttention-3 kernels are used.
	AttnEff float64
	// Confidence is how well published results pin the factors down.
	Confidence string
}

// arch holds the factors per architecture (accelerators.csv names). NVIDIA
// Ampere and Hopper are calibrated on published MFU and latency figures;
// the others carry vendor GEMM benchmarks and a lower stated confidence.
var arch = map[string]archFactors{
	"volta":     {0.80, 0.80, 0.55, "medium"},
	"turing":    {0.70, 0.75, 0.50, "low"},
	"ampere":    {0.85, 0.80, 0.70, "high"},
	"ada":       {0.70, 0.80, 0.55, "medium"}, // power-limited PCIe cards rarely hold boost clocks
	"hopper":    {0.75, 0.80, 0.40, "high"},   // 700 W parts throttle under dense GEMM; FA2 reaches ~35-40% of peak
	"blackwell": {0.70, 0.80, 0.45, "medium"},
	"cdna2":     {0.50, 0.70, 0.35, "low"},
	"cdna3":     {0.55, 0.70, 0.35, "medium"}, // hipBLASLt bf16 GEMMs reach about half of MI300X's dense peak
	"cdna4":     {0.55, 0.70, 0.35, "low"},
	"gaudi2":    {0.70, 0.75, 0.50, "low"},
	"gaudi3":    {0.60, 0.75, 0.45, "low"},
	"tpu-v5e":   {0.80, 0.80, 0.60, "medium"},
	"tpu-v5p":   {0.80, 0.80, 0.60, "medium"},
	"tpu-v6e":   {0.75, 0.80, 0.55, "medium"},
	"neuron-v2": {0.55, 0.70, 0.40, "low"},
	"neuron-v3": {0.55, 0.70, 0.40, "low"},
	"davinci":   {0.50, 0.65, 0.35, "low"},
}

// MatmulShare is the share of a's dense datasheet peak that the model
// expects large matrix multiplies to reach (its MatmulEff factor): a
// measured matmul at this share leaves predictions unchanged.
func MatmulShare(a *catalog.Accelerator) float64 { return factorsFor(a).MatmulEff }

func factorsFor(a *catalog.Accelerator) archFactors {
	if f, ok := arch[a.Architecture]; ok {
		return f
	}
	return archFactors{0.55, 0.70, 0.35, "low"}
}

// Memory-bound work of a transformer layer that is not a matrix multiply
// (norms, activations, rotary, residuals, softmax, optimizer-free parts of
// the backward pass), in bytes of device-memory traffic per token, per layer
// and per unit of hidden width. It is why a small model or a GPU with a high
// FLOPS-to-bandwidth ratio runs at a lower MFU. Calibrated once on the
// published MFU of 7B and 70B models on A100 and H100.
const (
	ewBytesTrain   = 600.0 // forward + backward
	ewBytesForward = 200.0 // forward only (prefill)
)

// cnnBytesPerGMAC is the device-memory traffic of a convolutional network's
// training step (forward + backward) per forward GMAC, in bytes (110 MB):
// batch norm, activations and residual adds dominate on tensor-core GPUs.
// Calibrated on ResNet-50 training on V100 and A100.
const cnnBytesPerGMAC = 110e6

// Lower-precision maths reaches a smaller share of its (higher) peak:
// scaling, casts and less mature kernels.
var precisionEff = map[catalog.DataType]float64{
	catalog.FP8:  0.80,
	catalog.FP4:  0.70,
	catalog.INT8: 0.80,
}

// trainStack is the speed of a training framework relative to a tuned
// Megatron-Core on the same parallel layout: the sum of kernel fusion,
// overlap and scheduling quality.
var trainStack = map[workload.Framework]float64{
	workload.FrameworkMegatron:   1.00,
	workload.FrameworkLLMFoundry: 1.00,
	workload.FrameworkTorchTitan: 0.92,
	workload.FrameworkJAX:        1.00,
	workload.FrameworkPyTorch:    0.85, // FSDP from a generic training loop (Hugging Face Trainer and the like)
	workload.FrameworkDeepSpeed:  0.85,
	workload.FrameworkTensorFlow: 0.80,
	workload.FrameworkOther:      0.80,
}

// serveStack is the speed of a serving engine relative to TensorRT-LLM.
var serveStack = map[workload.Framework]float64{
	workload.FrameworkTensorRTLLM: 1.00,
	workload.FrameworkSGLang:      0.92,
	workload.FrameworkVLLM:        0.85,
	workload.FrameworkTGI:         0.75,
	workload.FrameworkPyTorch:     0.40, // generate() without continuous batching
	workload.FrameworkOther:       0.70,
}

func stackFactor(f workload.Framework, training bool) float64 {
	table := serveStack
	if training {
		table = trainStack
	}
	if v, ok := table[f]; ok {
		return v
	}
	return 0.8
}

// dataTypeFor maps a workload precision to the hardware path that runs it,
// falling back to a wider type the hardware has; the bool says whether it
// fell back.
func dataTypeFor(a *catalog.Accelerator, p workload.Precision) (catalog.DataType, bool) {
	want := map[workload.Precision]catalog.DataType{
		workload.FP32: catalog.FP32, workload.TF32: catalog.TF32, workload.BF16: catalog.BF16,
		workload.FP16: catalog.FP16, workload.FP8: catalog.FP8, workload.FP4: catalog.FP4, workload.INT8: catalog.INT8,
		workload.INT4: catalog.BF16, // weight-only int4: maths in 16-bit
	}[p]
	if _, ok := a.TFLOPS(want); ok {
		return want, false
	}
	for _, d := range []catalog.DataType{catalog.BF16, catalog.FP16, catalog.TF32, catalog.FP32} {
		if _, ok := a.TFLOPS(d); ok {
			return d, true
		}
	}
	return catalog.FP32, true
}

// peakFLOPS is the dense peak of d in FLOP/s, times the precision's
// efficiency share.
func peakFLOPS(a *catalog.Accelerator, d catalog.DataType) float64 {
	v, _ := a.TFLOPS(d)
	e := 1.0
	if pe, ok := precisionEff[d]; ok {
		e = pe
	}
	return v * 1e12 * e
}
