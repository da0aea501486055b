package probe

import (
	"encoding/json"
	"fmt"
	"strings"
)

// stackScript prints one JSON object describing the Python stack. It reads
// versions from package metadata rather than importing the packages (vLLM
// and JAX take seconds to import); only torch is imported, to ask it about
// its CUDA build and devices.
const stackScript = `
import json, platform
out = {"python": platform.python_version(), "packages": {}}
try:
    from importlib import metadata
    for name in ("jax", "jaxlib", "vllm", "transformers", "deepspeed", "flash-attn", "flash_attn", "triton",
                 "tensorrt-llm", "tensorrt_llm", "sglang", "megatron-core", "torchtitan", "tensorflow", "bitsandbytes"):
        try:
            out["packages"][name.replace("_", "-")] = metadata.version(name)
        except Exception:
            pass
except Exception:
    pass
try:
    import torch
    out["torch"] = torch.__version__
    out["torch_cuda"] = torch.version.cuda
    out["torch_hip"] = getattr(torch.version, "hip", None)
    try:
        out["arch_list"] = torch.cuda.get_arch_list()
    except Exception:
        pass
    out["cuda_available"] = bool(torch.cuda.is_available())
    if out["cuda_available"]:
        out["device_count"] = torch.cuda.device_count()
except Exception as e:
    out["torch_error"] = str(e)[:300]
print(json.dumps(out))
`

// ParsePython reads the JSON object stackScript prints (the last line of
// the output that starts with "{", so warnings printed before it do no
// harm).
func ParsePython(out []byte) (*Stack, error) {
	line := lastJSONLine(out)
	if line == "" {
		return nil, fmt.Errorf("python3 printed no JSON: %q", firstLine(string(out)))
	}
	var v struct {
		Python        string            `json:"python"`
		Torch         string            `json:"torch"`
		TorchCUDA     *string           `json:"torch_cuda"`
		TorchHIP      *string           `json:"torch_hip"`
		ArchList      []string          `json:"arch_list"`
		CUDAAvailable bool              `json:"cuda_available"`
		DeviceCount   int               `json:"device_count"`
		TorchError    string            `json:"torch_error"`
		Packages      map[string]string `json:"packages"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return nil, fmt.Errorf("python3 stack JSON: %w", err)
	}
	s := &Stack{Python: v.Python, Torch: v.Torch, ArchList: v.ArchList, CUDAAvailable: v.CUDAAvailable,
		DeviceCount: v.DeviceCount, TorchError: v.TorchError}
	if v.TorchCUDA != nil {
		s.TorchCUDA = *v.TorchCUDA
	}
	if v.TorchHIP != nil {
		s.TorchHIP = *v.TorchHIP
	}
	for k, ver := range v.Packages {
		switch k {
		case "jax":
			s.JAX = ver
		case "vllm":
			s.VLLM = ver
		default:
			if s.Packages == nil {
				s.Packages = map[string]string{}
			}
			s.Packages[k] = ver
		}
	}
	return s, nil
}

// benchScript times dense matrix multiplies per data type and a
// device-to-device copy on GPU 0 with PyTorch, and prints one JSON object.
// Each part that fails is reported under "errors"; without torch or a GPU
// the object has only "error". It runs for about a minute at most.
const benchScript = `
import json, time
try:
    import torch
except Exception as e:
    print(json.dumps({"error": "torch is not importable: %s" % str(e)[:200]})); raise SystemExit(0)
if not torch.cuda.is_available():
    print(json.dumps({"error": "torch.cuda.is_available() is False"})); raise SystemExit(0)
dev = torch.device("cuda")
n = 8192
res = {"device": torch.cuda.get_device_name(0), "tflops": {}, "errors": {}}
def timed(fn, iters):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(iters):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / iters
for name, dt in (("bf16", torch.bfloat16), ("fp16", torch.float16), ("tf32", torch.float32)):
    try:
        torch.backends.cuda.matmul.allow_tf32 = name == "tf32"
        a = torch.randn(n, n, device=dev, dtype=dt)
        b = torch.randn(n, n, device=dev, dtype=dt)
        s = timed(lambda: torch.matmul(a, b), 20)
        res["tflops"][name] = 2 * n ** 3 / s / 1e12
        del a, b
    except Exception as e:
        res["errors"][name] = str(e)[:200]
try:
    f8 = getattr(torch, "float8_e4m3fn", None)
    if f8 is None or not hasattr(torch, "_scaled_mm"):
        raise RuntimeError("this torch has no float8 matmul")
    a = torch.randn(n, n, device=dev).to(f8)
    b = torch.randn(n, n, device=dev).to(f8).t()
    one = torch.tensor(1.0, device=dev)
    s = timed(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16), 20)
    res["tflops"]["fp8"] = 2 * n ** 3 / s / 1e12
    del a, b
except Exception as e:
    res["errors"]["fp8"] = str(e)[:200]
try:
    x = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    y = torch.empty_like(x)
    s = timed(lambda: y.copy_(x), 20)
    res["copy_gb_s"] = 2 * x.numel() / s / 1e9
except Exception as e:
    res["errors"]["copy"] = str(e)[:200]
print(json.dumps(res))
`

// ParseBench reads the JSON object benchScript prints. An object with only
// "error" (no torch, no GPU) is returned as an error carrying its text.
func ParseBench(out []byte) (*Bench, error) {
	line := lastJSONLine(out)
	if line == "" {
		return nil, fmt.Errorf("the benchmark printed no JSON: %q", firstLine(string(out)))
	}
	var v struct {
		Error    string             `json:"error"`
		Device   string             `json:"device"`
		TFLOPS   map[string]float64 `json:"tflops"`
		CopyGBps float64            `json:"copy_gb_s"`
		Errors   map[string]string  `json:"errors"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return nil, fmt.Errorf("benchmark JSON: %w", err)
	}
	if v.Error != "" {
		return nil, fmt.Errorf("%s", v.Error)
	}
	b := &Bench{Device: v.Device, TFLOPS: v.TFLOPS, CopyGBps: v.CopyGBps}
	if b.TFLOPS == nil {
		b.TFLOPS = map[string]float64{}
	}
	if len(v.Errors) > 0 {
		b.Errors = v.Errors
	}
	return b, nil
}

func lastJSONLine(out []byte) string {
	lines := strings.Split(string(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "{") {
			return l
		}
	}
	return ""
}
