package report

// trCompatImageGen: the sentences of data/compat.yaml's diffusion engines
// (diffusers, diffusers + torch.compile, TensorRT, ONNX Runtime, OpenVINO,
// IREE, MIGraphX; issue 17): the way an engine runs on a platform (via),
// why it does not, the fix and its cost. As in trCompatData, engine,
// package and product names stay as they are; 管线 is a diffusion
// pipeline, 执行提供程序（EP） an ONNX Runtime execution provider.
var trCompatImageGen = map[string]string{
	// via
	"FlaxStableDiffusionPipeline (JAX) rather than the PyTorch pipelines": "FlaxStableDiffusionPipeline（JAX），而非 PyTorch 管线",
	"Optimum Habana's Gaudi diffusion pipelines":                          "Optimum Habana 的 Gaudi 扩散管线",
	"Optimum Neuron's diffusion pipelines":                                "Optimum Neuron 的扩散管线",
	"the CANN execution provider":                                         "CANN 执行提供程序（EP）",
	"the hpu_backend of torch.compile in Intel's Gaudi PyTorch":           "Intel Gaudi PyTorch 中 torch.compile 的 hpu_backend",
	"torch_npu": "torch_npu", // a package name: the same in Chinese

	// verdicts
	"IREE has no Ascend target":                                          "IREE 没有昇腾编译目标",
	"IREE has no Gaudi target":                                           "IREE 没有 Gaudi 编译目标",
	"IREE has no Neuron target":                                          "IREE 没有 Neuron 编译目标",
	"IREE has no TPU target":                                             "IREE 没有 TPU 编译目标",
	"MIGraphX is AMD's ROCm graph compiler":                              "MIGraphX 是 AMD 的 ROCm 图编译器",
	"MIGraphX is AMD-only":                                               "MIGraphX 仅支持 AMD",
	"ONNX Runtime has no Gaudi execution provider":                       "ONNX Runtime 没有 Gaudi 执行提供程序（EP）",
	"ONNX Runtime has no Neuron execution provider":                      "ONNX Runtime 没有 Neuron 执行提供程序（EP）",
	"ONNX Runtime has no TPU execution provider":                         "ONNX Runtime 没有 TPU 执行提供程序（EP）",
	"OpenVINO does not run on AMD GPUs":                                  "OpenVINO 无法在 AMD GPU 上运行",
	"OpenVINO does not run on Ascend":                                    "OpenVINO 无法在昇腾上运行",
	"OpenVINO does not run on Gaudi":                                     "OpenVINO 无法在 Gaudi 上运行",
	"OpenVINO does not run on Neuron":                                    "OpenVINO 无法在 Neuron 上运行",
	"OpenVINO does not run on TPU":                                       "OpenVINO 无法在 TPU 上运行",
	"OpenVINO runs on x86 CPUs and Intel GPUs and NPUs, not NVIDIA GPUs": "OpenVINO 运行在 x86 CPU 以及 Intel GPU 和 NPU 上，不支持 NVIDIA GPU",
	"TensorRT is NVIDIA-only":                                            "TensorRT 仅支持 NVIDIA",
	"torch.compile's inductor backend does not target Ascend":            "torch.compile 的 TorchInductor 后端不支持昇腾",
	"torch.compile's inductor backend does not target Neuron":            "torch.compile 的 TorchInductor 后端不支持 Neuron",
	"torch.compile's inductor backend does not target TPU":               "torch.compile 的 TorchInductor 后端不支持 TPU",

	// fixes
	"build ONNX Runtime with the CANN EP":                          "构建带 CANN EP 的 ONNX Runtime",
	"compile the pipeline with optimum-neuron":                     "用 optimum-neuron 编译管线",
	"run diffusers on torch_npu":                                   "在 torch_npu 上运行 diffusers",
	"run eager diffusers on torch_npu":                             "在 torch_npu 上以 eager 模式运行 diffusers",
	"use MIGraphX or ONNX Runtime (ROCm) on AMD":                   "在 AMD 上使用 MIGraphX 或 ONNX Runtime（ROCm）",
	"use MIGraphX or ONNX Runtime (ROCm)":                          "使用 MIGraphX 或 ONNX Runtime（ROCm）",
	"use TensorRT on NVIDIA":                                       "在 NVIDIA 上使用 TensorRT",
	"use TensorRT or diffusers on NVIDIA; OpenVINO for a CPU tier": "在 NVIDIA 上使用 TensorRT 或 diffusers；CPU 层使用 OpenVINO",
	"use diffusers on torch_npu on Ascend":                         "在昇腾上基于 torch_npu 使用 diffusers",
	"use diffusers on torch_npu":                                   "基于 torch_npu 使用 diffusers",
	"use diffusers' Flax pipelines (jax) on TPU":                   "在 TPU 上使用 diffusers 的 Flax 管线（jax）",
	"use diffusers' Flax pipelines with JAX on TPU":                "在 TPU 上用 JAX 运行 diffusers 的 Flax 管线",
	"use optimum-habana on Gaudi":                                  "在 Gaudi 上使用 optimum-habana",
	"use optimum-habana with HPU graphs":                           "使用 optimum-habana 并配合 HPU 图",

	// costs
	"Gaudi-specific pipeline classes":                      "需使用 Gaudi 专用的管线类",
	"a less used provider; operator coverage varies":       "使用较少的执行提供程序；算子覆盖程度不一",
	"a separate backend with its own coverage":             "一个独立后端，算子覆盖范围与上游不同",
	"attention and some kernels fall back to slower paths": "注意力和部分算子会回退到较慢的实现",
	"fewer models have Flax pipelines":                     "提供 Flax 管线的模型较少",
	"static shapes compiled ahead of time":                 "需按静态形状提前编译",
}
