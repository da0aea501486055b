package export

import (
	"strconv"

	"github.com/gpupick/gpupick/internal/workload"
)

// serveLine is a serving engine's command line for one replica: the same
// flags on every target (a Kubernetes container, a SkyPilot run line).
type serveLine struct {
	// Command is the executable and its subcommand; nil means the image's
	// entrypoint (TGI).
	Command []string
	// Args are the flags: the model, tensor parallelism, the weight and KV
	// cache formats the plan was priced with, host and port.
	Args []string
	// DPFlag is the engine's data-parallel flag, when it can run several
	// copies in one server (the copies a larger node holds); "" when not.
	DPFlag string
	// Note says what the flags cannot: a format that needs a pre-quantised
	// checkpoint, or a quantisation set when an engine is built.
	Note string
}

// serveLine returns the engine's command for a replica of tp GPUs serving
// model (a shell or Kubernetes variable reference) on port, or ok false
// for a framework whose command line gpupick does not know.
func (r *resolved) serveLine(model string, tp int) (serveLine, bool) {
	inf := r.Spec.Inference
	wp, kv := workload.BF16, workload.BF16
	if inf != nil {
		wp, kv = inf.WeightPrecision, inf.KVPrecision
	}
	gpus, port := strconv.Itoa(tp), strconv.Itoa(servingPort)
	var l serveLine
	prequantised := func(engine string) string {
		return "weight_precision " + string(wp) + " needs a checkpoint already quantised to it (AWQ, GPTQ or compressed-tensors): set MODEL to one; " + engine + " reads the format from the checkpoint"
	}
	switch r.Spec.Stack.Framework {
	case workload.FrameworkVLLM:
		l.Command = []string{"vllm", "serve"}
		l.Args = []string{model, "--tensor-parallel-size", gpus}
		switch wp {
		case workload.FP8:
			l.Args = append(l.Args, "--quantization", "fp8") // dynamic FP8 weights from a 16-bit checkpoint
		case workload.INT8, workload.INT4, workload.FP4:
			l.Note = prequantised("vLLM")
		}
		if kv == workload.FP8 {
			l.Args = append(l.Args, "--kv-cache-dtype", "fp8")
		}
		l.Args = append(l.Args, "--host", "0.0.0.0", "--port", port)
		l.DPFlag = "--data-parallel-size"
	case workload.FrameworkSGLang:
		l.Command = []string{"python3", "-m", "sglang.launch_server"}
		l.Args = []string{"--model-path", model, "--tp", gpus}
		switch wp {
		case workload.FP8:
			l.Args = append(l.Args, "--quantization", "fp8")
		case workload.INT8, workload.INT4, workload.FP4:
			l.Note = prequantised("SGLang")
		}
		if kv == workload.FP8 {
			l.Args = append(l.Args, "--kv-cache-dtype", "fp8_e5m2")
		}
		l.Args = append(l.Args, "--host", "0.0.0.0", "--port", port)
		l.DPFlag = "--dp"
	case workload.FrameworkTGI:
		// The image's entrypoint is text-generation-launcher.
		l.Args = []string{"--model-id", model, "--num-shard", gpus}
		switch wp {
		case workload.FP8:
			l.Args = append(l.Args, "--quantize", "fp8")
		case workload.INT8, workload.INT4, workload.FP4:
			l.Note = prequantised("TGI")
		}
		if kv == workload.FP8 {
			kvNote := "the plan was priced with an fp8 KV cache; TGI keeps its default KV format unless your version takes a KV-cache dtype flag, so expect fewer sequences in flight"
			if l.Note != "" {
				kvNote = l.Note + "; " + kvNote
			}
			l.Note = kvNote
		}
		l.Args = append(l.Args, "--port", port)
	case workload.FrameworkTensorRTLLM:
		l.Command = []string{"trtllm-serve"}
		l.Args = []string{model, "--tp_size", gpus, "--host", "0.0.0.0", "--port", port}
		if wp != workload.BF16 && wp != workload.FP16 {
			l.Note = "TensorRT-LLM sets weight_precision " + string(wp) + " when the checkpoint is quantised (ModelOpt): set MODEL to a quantised checkpoint"
		}
	default:
		return serveLine{}, false
	}
	return l, true
}
