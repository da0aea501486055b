package report

// trImageGen: the sentences of the image-generation kind (issue 17): the
// diffusion performance model (perf/imagegen.go, imagegen_cpu.go) and the
// checks of the workload's model and image blocks (workload/parse.go,
// parse_image.go), with the phrases they put into each other's %s (engine
// notes, the guidance note, the bottleneck terms, precision hints) and the
// units of an image job.
//
// Terms (docs/glossary-zh.md): 去噪器 (denoiser), 去噪步 (denoising step),
// 无分类器引导（CFG）, 潜空间 (latent), 文本编码器, VAE 解码, 图像（张）,
// 视频片段（段）, 管线 for a diffusion pipeline (流水线 stays pipeline
// parallelism), 生成调用 for one pipeline call. Model, engine and product
// names (diffusers, TensorRT, ONNX Runtime, OpenVINO, MIGraphX, IREE,
// Stable Diffusion, SDXL, FLUX.1, UNet, DiT, VAE, CLIP) stay in English.
var trImageGen = map[string]string{
	// perf/imagegen.go: the prediction
	"parallelism.context %d does not divide the %d GPUs":                                                                                                            "parallelism.context %d 不能整除 GPU 数 %d",
	"use a GPU count that is a multiple of parallelism.context":                                                                                                     "使用 parallelism.context 整数倍的 GPU 数",
	"%s with its text encoders needs %.0f GB per GPU at batch %d, more than %.0f GB":                                                                                "%s 连同文本编码器每块 GPU 需要 %.0f GB（批大小 %d），超过 %.0f GB",
	"the model with its text encoders needs %.0f GB per GPU at batch %d, more than %.0f GB":                                                                         "模型连同文本编码器每块 GPU 需要 %.0f GB（批大小 %d），超过 %.0f GB",
	"a smaller image.batch, fp8 or int8 weights, offloading the text encoders (they run once per request), or a GPU with more memory would fit":                     "减小 image.batch、改用 fp8 或 int8 权重、卸载文本编码器（每个请求只运行一次），或换用显存更大的 GPU，即可放下",
	"%.0f latent tokens per image; one denoiser pass %.0f GMAC per image (%.0f linear, %.0f attention)%s; VAE decode %.0f GMAC; text encoders %.0f GMAC per prompt": "每张图像 %.0f 个潜空间 token；去噪器每次前向每张图像 %.0f GMAC（线性部分 %.0f，注意力 %.0f）%s；VAE 解码 %.0f GMAC；文本编码器每个提示词 %.0f GMAC",
	", run twice per step for classifier-free guidance":                                                                                                             "，因无分类器引导（CFG）每步运行两次",
	"%s: %s; denoiser in %s, VAE in %s":                                                                                                                             "%s：%s；去噪器精度 %s，VAE 精度 %s",
	"each of %d GPU groups of %d runs its own pipeline calls of %d images: %.2f s per call (%.3f s text encoding, %d steps of %.3f s, %.3f s VAE decode)":           "%d 个 GPU 组（每组 %d 块）各自运行生成调用，每次生成 %d 张图像：每次调用 %.2f 秒（文本编码 %.3f 秒，%d 个去噪步、每步 %.3f 秒，VAE 解码 %.3f 秒）",
	"%s take %.0f%% of each %.2f s pipeline call.":                                                                                                                  "%s占每次生成调用的 %.0f%%（每次调用 %.2f 秒）。",
	// the bottleneck terms of the verdict above
	"denoiser, text encoder and VAE arithmetic":                                                                                       "去噪器、文本编码器和 VAE 的计算",
	"elementwise kernels and weight reads at the memory bandwidth":                                                                    "受显存带宽限制的逐元素算子和权重读取",
	"all-to-alls of the sequence-parallel group":                                                                                      "序列并行组内的 all-to-all 通信",
	"host-side kernel launches and scheduling not hidden behind the GPU":                                                              "未被 GPU 计算掩盖的主机端算子启动和调度",
	"attention dominates at this resolution: fewer tokens (lower resolution or frames) or an engine with faster attention would help": "在此分辨率下注意力占主导：减少 token 数（降低分辨率或帧数），或换用注意力更快的引擎会有帮助",
	"fp8 or int8 denoiser weights (TensorRT ModelOpt) or fewer steps would cut it":                                                    "去噪器改用 fp8 或 int8 权重（TensorRT ModelOpt），或减少去噪步数，可缩短这部分时间",
	"fewer steps (a distilled sampler) or a faster GPU would cut it":                                                                  "减少去噪步数（使用蒸馏采样器）或换用更快的 GPU，可缩短这部分时间",
	"a larger image.batch would reuse each weight read for more images":                                                               "增大 image.batch，每次读取的权重可供更多图像复用",
	"fewer GPUs per image (parallelism.context) trades latency for throughput":                                                        "每张图像使用更少的 GPU（parallelism.context），以延迟换取吞吐",
	"a compiled engine (tensorrt, diffusers-compile) fuses the elementwise kernels into the GEMMs":                                    "换用编译型引擎（tensorrt、diffusers-compile）可把逐元素算子融合进 GEMM",
	"a compiled engine (tensorrt, diffusers-compile) or a larger batch would hide the launches":                                       "换用编译型引擎（tensorrt、diffusers-compile）或增大批大小，可掩盖算子启动开销",
	"perf: image-generation needs a diffusion model with forward_gmacs_per_sample and reference_tokens (a preset such as sdxl)":       "perf：image-generation 需要带 forward_gmacs_per_sample 和 reference_tokens 的扩散模型（例如预设 sdxl）",
	"%s has no %s path: the denoiser is predicted in %s (image.precision)":                                                            "%s 没有 %s 计算路径：去噪器按 %s 预测（image.precision）",
	// how each engine runs the pipeline (the second %s of "%s: %s; denoiser in ...")
	"eager PyTorch with SDPA attention":                    "eager PyTorch，SDPA 注意力",
	"torch.compile (inductor) with CUDA graphs":            "torch.compile（TorchInductor），配合 CUDA 图",
	"TensorRT engines with fused kernels and CUDA graphs":  "TensorRT 引擎，融合算子并配合 CUDA 图",
	"ONNX Runtime graph optimisations and fused attention": "ONNX Runtime 图优化和融合注意力",
	"OpenVINO compiled graphs":                             "OpenVINO 编译图",
	"IREE compiled dispatches":                             "IREE 编译的分派内核",
	"MIGraphX compiled graphs":                             "MIGraphX 编译图",
	"HPU graphs (Optimum Habana)":                          "HPU 图（Optimum Habana）",
	"XLA-compiled JAX pipeline":                            "XLA 编译的 JAX 管线",
	// perf/imagegen_cpu.go
	"perf: CPU seconds per image need an image-generation workload":                         "perf：计算每张图像的 CPU 秒数需要 image-generation 类型的工作负载",
	"perf: CPU seconds per image need vcpus, clock and FLOP per cycle > 0 (got %d, %g, %g)": "perf：计算每张图像的 CPU 秒数需要 vcpus、时钟频率和每周期 FLOP 均 > 0（实际为 %d、%g、%g）",
	"perf: the model has no reference tokens (a preset such as sd-1.5)":                     "perf：模型没有参考 token 数（例如预设 sd-1.5）",

	// units of an image job
	"videos/s":                "段视频/秒",
	"USD per thousand videos": "美元/千段视频",

	// workload/parse.go: the kind, the model and the engine
	"required when model.preset is not given (unet or dit)":                                                                                             "未给出 model.preset 时必填（unet 或 dit）",
	"%s is not a diffusion model; kind image-generation needs one (e.g. sdxl, flux.1-dev, or arch unet or dit)":                                         "%s 不是扩散模型；任务类型 image-generation 需要扩散模型（例如 sdxl、flux.1-dev，或 arch 为 unet 或 dit）",
	"%s is a diffusion model; use kind image-generation":                                                                                                "%s 是扩散模型；请使用任务类型 image-generation",
	"for training; an image pipeline's batch is image.batch":                                                                                            "用于训练；图像生成管线的批大小是 image.batch",
	"not used by kind image-generation: each GPU runs whole pipelines (data), or parallelism.context GPUs split one image (patch or sequence parallel)": "任务类型 image-generation 不使用此项：每块 GPU 运行完整的管线（数据并行），或由 parallelism.context 块 GPU 分担一张图像（分块并行或序列并行）",
	"not set; Hugging Face diffusers on eager PyTorch, the mainstream open pipeline, is assumed":                                                        "未设置；假设为主流开源管线：基于 eager PyTorch 的 Hugging Face diffusers",
	"%s does not run diffusion pipelines; kind image-generation needs one of %s":                                                                        "%s 不能运行扩散管线；任务类型 image-generation 需要以下之一：%s",
	"%s runs diffusion pipelines; use kind image-generation, or a framework for kind %s":                                                                "%s 运行扩散管线；请使用任务类型 image-generation，或换用适合任务类型 %s 的框架",

	// workload/parse_image.go: the diffusion model
	"required for a diffusion model without a preset (denoiser parameters in billions, e.g. 2.6 for SDXL's UNet)":                  "没有预设的扩散模型必填（去噪器参数量，单位十亿，例如 SDXL 的 UNet 为 2.6）",
	"not set; every published Stable Diffusion, FLUX and video VAE downsamples 8x":                                                 "未设置；已发布的 Stable Diffusion、FLUX 和视频 VAE 都做 8 倍下采样",
	"not set; 4 for a UNet (SD 1/2/XL VAE), 16 for a DiT (SD3/FLUX VAE)":                                                           "未设置；UNet 为 4（SD 1/2/XL 的 VAE），DiT 为 16（SD3/FLUX 的 VAE）",
	"not set; the DiTs published so far patch the latent 2×2":                                                                      "未设置；目前已发布的 DiT 都把潜空间按 2×2 分块",
	"a UNet does not patch its latent; want 1 (or leave it out)":                                                                   "UNet 不对潜空间分块；应为 1（或不写此项）",
	"not set; the native resolution of current image models":                                                                       "未设置；当前图像模型的原生分辨率",
	"derived: 2 × %d layers × %d tokens² × %d hidden":                                                                              "推算：2 × %d 层 × %d token² × 隐藏维度 %d",
	"derived: 0.55 of params_b per token (FLUX.1's share; modulation layers run once per image) plus the attention":                "推算：每个 token 计 params_b 的 0.55（FLUX.1 的比例；调制层每张图像只运行一次），再加上注意力",
	"required for a UNet without a preset (GMAC of one denoiser pass for one image at model.image_px, e.g. 339 for SD 1.5 at 512)": "没有预设的 UNet 必填（在 model.image_px 分辨率下一张图像去噪器单次前向的 GMAC，例如 SD 1.5 在 512 像素时为 339）",
	"%s is more than model.forward_gmacs_per_sample %s, of which it is a part":                                                     "%s 大于 model.forward_gmacs_per_sample %s，而它只是后者的一部分",
	"not set; CLIP's prompt length":                                                                                                "未设置；CLIP 的提示词长度",
	"not set; the Stable Diffusion VAE decoder (about 1,240 GMAC at 512 px; three times that per pixel for a 3D video VAE)":        "未设置；按 Stable Diffusion 的 VAE 解码器（512 像素时约 1,240 GMAC；3D 视频 VAE 每像素为其三倍）",

	// workload/parse_image.go: the image block
	"must be > 0 pixels":                                   "必须 > 0 像素",
	"not set; the model's native resolution":               "未设置；模型的原生分辨率",
	"the latent factor %d":                                 "潜空间缩放倍数 %d",
	"the latent factor %d × patch size %d":                 "潜空间缩放倍数 %d × 分块大小 %d",
	"%d pixels is not a multiple of %d (%s of %s); try %d": "%[1]s 像素不是 %[2]s 的整数倍（%[4]s 的%[3]s）；可改为 %[5]s",
	"must be > 0 (1 for an image)":                         "必须 > 0（单张图像为 1）",
	"not set; the model's native clip length":              "未设置；模型原生的视频片段帧数",
	"%d frames, but %s is an image model (no temporal VAE); use 1, or a video model such as cogvideox-5b": "%d 帧，但 %s 是图像模型（没有时间维度的 VAE）；请用 1，或换用视频模型，例如 cogvideox-5b",
	"%d frames: %s's VAE compresses time %dx, so clips have 1 + k×%d frames (e.g. %d or %d)":              "%d 帧：%s 的 VAE 在时间维度上压缩 %d 倍，因此视频片段的帧数为 1 + k×%d（例如 %d 或 %d）",
	"must be > 0 denoising steps":            "必须 > 0（去噪步数）",
	"not set; a common sampler setting":      "未设置；常用的采样器设置",
	"not set; the model's recommended steps": "未设置；模型推荐的去噪步数",
	"not set; classifier-free guidance (two denoiser passes per step) is the usual sampler":      "未设置；通常采用无分类器引导（CFG，每步两次去噪器前向）",
	"not set; the model is sampled with classifier-free guidance (two denoiser passes per step)": "未设置；该模型采用无分类器引导（CFG，每步两次去噪器前向）采样",
	"not set; the model is guidance-distilled (one denoiser pass per step)":                      "未设置；该模型经过引导蒸馏（每步一次去噪器前向）",
	"must be > 0 images per pipeline call":                                                       "必须 > 0（每次生成调用生成的图像数）",
	"not set; one image per pipeline call":                                                       "未设置；每次生成调用生成一张图像",
	"give images (an offline job) or requests_per_second (a service), not both":                  "images（离线任务）和 requests_per_second（在线服务）只能给出一个",
	"must be > 0 (images or clips in total)":                                                     "必须 > 0（图像或视频片段的总数）",
	"give images (an offline job, images or clips in total) or requests_per_second (a service)":  "请给出 images（离线任务，图像或视频片段的总数）或 requests_per_second（在线服务）",
	"must be a number > 0 (requests per second)":                                                 "必须是 > 0 的数（每秒请求数）",
	"a latency target needs a service: give requests_per_second instead of images":               "延迟目标只适用于在线服务：请给出 requests_per_second 而不是 images",
	"not set; the latency target is met by 99%% of requests":                                     "未设置；99%% 的请求满足延迟目标",
	"not set; fp16, the usual precision of diffusion pipelines":                                  "未设置；fp16，扩散管线的常用精度",
	"not set; bf16, the usual precision of DiT pipelines and of TPU and Gaudi":                   "未设置；bf16，DiT 管线以及 TPU 和 Gaudi 上的常用精度",
	"%s cannot run the denoiser in %s (it runs %s)%s":                                            "%s 无法以 %s 运行去噪器（它支持 %s）%s",
	// the hints appended to the sentence above
	"; NVFP4 diffusion runs on TensorRT (ModelOpt) on Blackwell GPUs":         "；NVFP4 扩散模型可在 Blackwell GPU 上用 TensorRT（ModelOpt）运行",
	"; FP8 diffusion runs on tensorrt, diffusers (torchao) or optimum-habana": "；FP8 扩散模型可用 tensorrt、diffusers（torchao）或 optimum-habana 运行",

	// app: an image-generation model service and its CPU fallback tier
	"must be an llm-inference or image-generation workload, got %s":                                                         "必须是 llm-inference 或 image-generation 类型的工作负载，实际为 %s",
	"%s cannot serve %s at batch %d: %s":                                                                                    "%s 无法在批大小 %[3]s 时服务 %[2]s：%[4]s",
	"AMX bf16 at %.2f of its 1024 FLOP/cycle peak (one published OpenVINO point)":                                           "AMX bf16，按其 1024 FLOP/周期峰值的 %.2f 计（一个已发布的 OpenVINO 数据点）",
	"%s at %.1f GHz, %s (%.0f FLOP/cycle/core); %s":                                                                         "%s，%.1f GHz，%s（每核每周期 %.0f FLOP）；%s",
	"%.3g s per request on the main tier (performance model) over mean_s %g s":                                              "主层每个请求 %.3g 秒（性能模型）除以 mean_s %g 秒",
	"%.3g s per image on %d vCPUs of %s (perf.ImageGenCPUSecondsPerImage, efficiency %.2f) against %.3g s on the main tier": "%[3]s 的 %[2]s 个 vCPU 上每张图像 %[1]s 秒（perf.ImageGenCPUSecondsPerImage，效率 %[4]s），主层为 %[5]s 秒",
	"policy.fallback.speed = %.4g (%s)":                                                                                     "policy.fallback.speed = %.4g（%s）",
	"pricing.per_hour_usd = %.4g (the serverless price of %s per worker)":                                                   "pricing.per_hour_usd = %.4g（%s 每个 worker 的无服务器价格）",
	"pricing.commitments: %s %.4g (the %s price of %s in %s over %d replicas an instance)":                                  "pricing.commitments：%[1]s %[2]s（%[4]s 在 %[5]s 的 %[3]s 价格除以每台实例 %[6]s 个副本）",
	"pricing.spot_per_hour_usd = %.4g (the spot price of %s in %s over %d replicas an instance)":                            "pricing.spot_per_hour_usd = %.4g（%s 在 %s 的竞价价格除以每台实例 %d 个副本）",
	"the speed of a CPU tier is derived for image-generation workloads only; give policy.fallback.speed or mean_s":          "只有 image-generation 类型的工作负载才能推算 CPU 层的速度；请给出 policy.fallback.speed 或 mean_s",
	"no clock is known for %s (%s); give policy.fallback.speed or mean_s":                                                   "不知道 %s（%s）的时钟频率；请给出 policy.fallback.speed 或 mean_s",
	"the fallback tier would be faster than the main one (%.3g s against %.3g s a request): it is no fallback":              "备用层会比主层更快（每个请求 %.3g 秒，主层 %.3g 秒）：这不是备用层",
	"MIG %s of %s: %d per instance (%d GPUs x %d)":                                                                          "%[2]s 的 MIG %[1]s：每台实例 %[3]s 个（%[4]s 块 GPU × %[5]s）",
	"%s's GPU (%s) has no MIG profile %q; %s":                                                                               "%s 的 GPU（%s）没有 MIG 配置 %q；%s",

	// autoscale: model services in compare, the fallback speed, MIG slices
	"%d batching models for %d variants":                                                                                    "%d 个批处理模型对应 %d 个变体",
	"variant %q is a model service: compare needs its batching model":                                                       "变体 %q 是模型服务：compare 需要它的批处理模型",
	"must be in (0, 1], got %v (for a model service, derived from policy.fallback.instance or mean_s by app.ApplyFallback)": "必须在 (0, 1] 之间，实际为 %v（模型服务由 app.ApplyFallback 根据 policy.fallback.instance 或 mean_s 推算）",
	"want a MIG profile such as 1g.10gb (compute slices g, memory GB), got %q":                                              "应为 MIG 配置，例如 1g.10gb（计算切片数 g，显存 GB），实际为 %q",
}
