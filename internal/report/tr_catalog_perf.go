package report

// trPerf: internal/perf, the predictions: verdicts, fixes, assumptions and
// errors. Keys are the English format strings of the source, verbatim;
// entries marked "composed" join pieces the source appends to one another.
var trPerf = map[string]string{
	// cluster.go
	"must be >= 1, got %d":                       "必须 >= 1，实际为 %d",
	"%d GPUs do not spread evenly over %d nodes": "%d 块 GPU 无法平均分配到 %d 个节点",
	"%d GPUs per node, but a %s server holds %d": "每节点 %d 块 GPU，但一台 %s 服务器只有 %d 块",
	"no offer given: a generic %d-GPU %s server with %d vCPUs, %.1f TB local NVMe reading %.1f GB/s, %g Gbit/s network":                  "未指定实例：按一台通用的 %d 卡 %s 服务器估算，%d 个 vCPU，%.1f TB 本地 NVMe（读取 %.1f GB/s），%g Gbit/s 网络",
	"inter-node fabric assumed: %s at %g Gbit/s per node":                                                                                "假设的节点间互连：%s，每节点 %g Gbit/s",
	"%s publishes no vCPU count: assumed %d":                                                                                             "%s 未公布 vCPU 数：假设为 %d",
	"%s publishes no network bandwidth: assumed 25 Gbit/s":                                                                               "%s 未公布网络带宽：假设为 25 Gbit/s",
	"%s local NVMe read speed unpublished: assumed %.1f GB/s for %.1f TB":                                                                "%s 未公布本地 NVMe 读取速度：假设 %[3]s TB 的读取速度为 %[2]s GB/s",
	"%s has %d GPU(s) per instance and no inter-node fabric in the catalog: %d GPUs would take %d instances, and it cannot be clustered": "%s 每台实例 %d 块 GPU，目录中没有节点间互连：%d 块 GPU 需要 %d 台实例，而该机型无法组成集群",

	// cnn.go
	"perf: cnn-train needs an image model with forward_gmacs_per_sample (a preset such as resnet-50)":                                                                              "perf：cnn-train 需要带 forward_gmacs_per_sample 的图像模型（例如预设 resnet-50）",
	"%s has no %s path: predicted in %s (training.precision)":                                                                                                                      "%s 不支持 %s 计算路径：按 %s 预测（training.precision）",
	"%.0f images per GPU need %.0f GB of activations, more than %.0f GB":                                                                                                           "每块 GPU %.0f 张图片需要 %.0f GB 激活值，超过 %.0f GB",
	"a smaller global batch per GPU (more GPUs or gradient accumulation) would fit":                                                                                                "减小每块 GPU 分到的全局批大小（增加 GPU 或使用梯度累积）即可放下",
	"data.cpu_ms_per_sample not set: %.0f ms of CPU per image for JPEG decoding and augmentation (set 0.01 for pre-decoded data or GPU decoding such as DALI)":                     "未设置 data.cpu_ms_per_sample：按每张图片 %.0f ms CPU 时间做 JPEG 解码和数据增强估算（数据已预解码或在 GPU 上解码（如 DALI）时设为 0.01）",
	"%.1f GFLOP per training image (3 x %.2f GMAC forward x 2 FLOP/MAC); %.1f million forward activation values, %.0f MB of memory traffic per image (%s elementwise kernels, %s)": "每张训练图片 %.1f GFLOP（3 × %.2f GMAC 前向 × 2 FLOP/MAC）；前向激活值 %.1f 百万个，每张图片 %.0f MB 显存访问量（%s逐元素算子，%s）",
	"data parallel over %d GPUs, %.0f images per GPU per step; reading from %s":                                                                                                    "%d 块 GPU 数据并行，每块 GPU 每步 %.0f 张图片；从%s读取",
	"the gradient all-reduce leaves %.0f%% of each step exposed.":                                                                                                                  "梯度 all-reduce 有 %.0f%% 的时间未被计算掩盖。",
	"a larger batch per GPU or a faster fabric would hide it":                                                                                                                      "增大每块 GPU 的批大小或换用更快的互连即可掩盖",
	"memory-bound layers (batch norm, activations) take %.0f%% of the GPU time.":                                                                                                   "访存受限的层（批归一化、激活函数）占 GPU 时间的 %.0f%%。",
	"fused kernels (channels-last, torch.compile, XLA, DALI) or a GPU with more memory bandwidth would help":                                                                       "使用融合算子（channels-last、torch.compile、XLA、DALI）或显存带宽更高的 GPU 会有帮助",
	"compute-bound: convolutions take %.0f%% of the GPU time.":                                                                                                                     "计算受限：卷积占 GPU 时间的 %.0f%%。",

	// efficiency.go: serving engines and frameworks, as notes
	"FasterTransformer and early TensorRT-LLM: fused kernels, static sessions":                                                                                                         "FasterTransformer 与早期 TensorRT-LLM：融合算子，静态会话",
	"C++ executor with in-flight batching, paged KV, FP8 kernels; KV reserved for prompt + output (guaranteed no eviction); benchmarks tune max_batch_size to about 1024 [unverified]": "C++ 执行器，支持 in-flight 批处理、分页 KV 缓存、FP8 算子；KV 按提示 + 输出预留（保证不驱逐）；基准测试把 max_batch_size 调到约 1024［未核实］",
	"PyTorch backend (trtllm-bench): the same kernels with a Python executor; max_batch_size about 1024 [unverified]":                                                                  "PyTorch 后端（trtllm-bench）：相同的算子，Python 执行器；max_batch_size 约 1024［未核实］",
	"scheduler on the critical path between steps (before multi-step scheduling)":                                                                                                      "调度器位于每步之间的关键路径上（多步调度之前的版本）",
	"multi-step scheduling and asynchronous output processing (vLLM v0.6 release notes: 2.7x the throughput of v0.5.3 on Llama 3 8B)":                                                  "多步调度与异步输出处理（vLLM v0.6 发布说明：Llama 3 8B 上吞吐为 v0.5.3 的 2.7 倍）",
	"V1 engine: persistent batch, FlashAttention-3 / FlashInfer, CUDA graphs; max_num_seqs 1024 on 70 GB-class GPUs [unverified]":                                                      "V1 引擎：持久批处理、FlashAttention-3 / FlashInfer、CUDA Graphs；70 GB 级 GPU 上 max_num_seqs 为 1024［未核实］",
	"RadixAttention, FlashInfer kernels":                                                                                "RadixAttention、FlashInfer 算子",
	"zero-overhead batch scheduler (v0.4 release blog), FA3/FlashInfer":                                                 "零开销批调度器（v0.4 发布博客），FA3/FlashInfer",
	"router max_concurrent_requests 128 by default; FlashAttention-2 and paged attention":                               "路由器 max_concurrent_requests 默认 128；FlashAttention-2 与分页注意力",
	"TGI v3: FlashInfer, prefix caching, chunked prefill":                                                               "TGI v3：FlashInfer、前缀缓存、分块预填充",
	"TurboMind C++ engine with persistent batching; cache_max_entry_count 0.8 of free memory":                           "TurboMind C++ 引擎，持久批处理；cache_max_entry_count 为空闲显存的 0.8",
	"Huawei's Ascend serving engine with continuous batching and ATB kernels; maxBatchSize 200 by default [unverified]": "华为昇腾推理引擎，连续批处理与 ATB 算子；maxBatchSize 默认 200［未核实］",
	"Hugging Face Optimum Habana text generation: static batches replayed as HPU graphs, KV for prompt + output":        "Hugging Face Optimum Habana 文本生成：静态批以 HPU 图重放，KV 按提示 + 输出预留",
	"Hugging Face generate(): eager kernels, static batches padded to the longest request":                              "Hugging Face generate()：eager 算子，静态批按最长请求补齐",
	"an unlisted engine: assumed continuous batching with mid-range kernels":                                            "未收录的推理引擎：假设为连续批处理、中等水平的算子",
	"Transformer Engine fused kernels, cuDNN attention":                                                                 "Transformer Engine 融合算子，cuDNN 注意力",
	"XLA fusion, cuDNN / Pallas attention":                                                                              "XLA 融合，cuDNN / Pallas 注意力",
	"FlashAttention-2, eager PyTorch around it":                                                                         "FlashAttention-2，其余为 eager PyTorch",
	"PyTorch SDPA (FlashAttention-2 class); torch.compile when compile is set":                                          "PyTorch SDPA（FlashAttention-2 级）；设置 compile 时使用 torch.compile",
	"FSDP from a generic training loop (Hugging Face Trainer, torchtune and the like)":                                  "通用训练循环中的 FSDP（Hugging Face Trainer、torchtune 等）",
	"ZeRO with eager PyTorch kernels":                                                                                   "ZeRO，eager PyTorch 算子",
	"eager TensorFlow; XLA when compile is set":                                                                         "eager TensorFlow；设置 compile 时使用 XLA",
	"an unlisted framework, assumed eager":                                                                              "未收录的框架，假设为 eager 模式",
	"%s %s (%s build) on %s: %.2fx the kernel efficiency of its CUDA release":                                           "%s %s（%s 构建）在 %s 上：算子效率为其 CUDA 版本的 %.2f 倍",
	"%s %s: %s": "%s %s：%s",
	"stack.version %q is newer than the tables (%s is the latest known); assumed %s": "stack.version %q 比效率表新（已知最新为 %s）；按 %s 估算",
	"stack.version %q allows no release the tables know; assumed %s":                 "stack.version %q 不包含效率表中的任何版本；按 %s 估算",
	"stack.version %q is older than the tables (from %s); assumed %s":                "stack.version %q 比效率表旧（从 %s 起）；按 %s 估算",

	// generic.go
	"perf: generic needs a generic block":                           "perf：generic 类型需要 generic 配置块",
	"%s has no %s path: predicted in %s":                            "%s 不支持 %s 计算路径：按 %s 预测",
	"perf: generic.measured.gpu %q is not in the catalog":           "perf：generic.measured.gpu %q 不在目录中",
	"scaled from %.3g items/s measured on %s by the roofline ratio": "由在 %[2]s 上实测的 %[1]s 个/秒按屋顶线模型比例换算",
	"no flops_per_item or bytes_per_item: %.3g items/s on %s scaled by the geometric mean of the compute and bandwidth ratios":            "未给出 flops_per_item 或 bytes_per_item：由 %[2]s 上的 %[1]s 个/秒按算力比与带宽比的几何平均换算",
	"perf: generic needs flops_per_item, bytes_per_item or a measured throughput":                                                         "perf：generic 类型需要 flops_per_item、bytes_per_item 或实测吞吐",
	"the job needs %.0f GB per GPU; %s has %.0f GB":                                                                                       "任务每块 GPU 需要 %.0f GB；%s 只有 %.0f GB",
	"a GPU with more memory, or splitting each item":                                                                                      "换用显存更大的 GPU，或拆分每个条目",
	"bandwidth-bound: %.2g bytes per item against %.2g FLOP (arithmetic intensity %.1f FLOP/byte, below this GPU's ridge point of %.0f).": "带宽受限：每个条目 %.2g 字节、%.2g FLOP（算术强度 %.1f FLOP/字节，低于该 GPU 的拐点 %.0f）。",
	"a GPU with more memory bandwidth, not more FLOPS, would speed it up":                                                                 "提升速度要靠更高的显存带宽，而不是更多 FLOPS",
	"compute-bound in %s: more FLOPS per dollar is what matters.":                                                                         "%s 计算受限：关键是每美元能买到的 FLOPS。",

	// infer.go
	"perf: llm-inference needs a transformer model and an inference block":                          "perf：llm-inference 需要 Transformer 模型和 inference 配置块",
	"%s has no %s maths: weights are dequantised and multiplied in %s (inference.weight_precision)": "%s 不支持 %s 运算：权重反量化后按 %s 计算（inference.weight_precision）",
	"its mean length (prompt + half the output, paged)":                                             "平均长度（提示 + 一半输出，分页）",
	"prompt + output, reserved at admission":                                                        "提示 + 输出，在接纳请求时预留",
	"serving engine %s":                                                                             "推理引擎：%s", // composed: "serving engine "+note
	"%s batching: the engine takes %.0f%% of GPU memory, holds at most %d sequences per replica, and sizes each sequence's KV cache at %s":           "%s批处理：引擎占用 %.0f%% 的 GPU 显存，每个副本最多容纳 %d 条序列，每条序列的 KV 缓存按%s计算",
	"parallelism.data %d x %d GPUs per replica is not the cluster's %d GPUs: the cluster holds %d replicas":                                          "parallelism.data %d × 每副本 %d 块 GPU 与集群的 %d 块 GPU 不符：集群容纳 %d 个副本",
	"parallelism.pipeline and parallelism.context are not modelled for serving: each replica is predicted with tensor (and expert) parallelism only": "推理不建模 parallelism.pipeline 和 parallelism.context：每个副本只按张量（及专家）并行预测",
	"the parallelism block asks for %d GPUs per replica, but the cluster has %d":                                                                     "parallelism 配置要求每副本 %d 块 GPU，但集群只有 %d 块",
	"use a multiple of that many GPUs, or change parallelism.tensor":                                                                                 "使用该数量整数倍的 GPU，或修改 parallelism.tensor",
	"the weights alone take %.0f GB per GPU at tensor parallelism %d, with room for no sequence in %.0f GB (%.0f%% usable)":                          "张量并行 %[2]s 时仅权重就占每块 GPU %[1]s GB，%[3]s GB（可用 %[4]s%%）中放不下任何序列",
	"about %d GPUs of this kind would hold it":                                                                                                       "约 %d 块此型号 GPU 可以放下",
	"fp8 or int4 weights halve or quarter the weight memory":                                                                                         "fp8 或 int4 权重可将权重显存减半或减至四分之一",
	"a GPU with more memory": "换用显存更大的 GPU",
	"layout: %d replica(s) of tensor parallelism %d; operating batch %d sequences per replica (memory holds %d)":                                    "布局：%d 个副本，张量并行 %d；每副本运行批大小 %d 条序列（显存可容纳 %d 条）",
	"attention data-parallel with experts split over %d GPUs (parallelism.expert): each GPU keeps whole sequences and all attention weights":        "注意力数据并行，专家切分到 %d 块 GPU（parallelism.expert）：每块 GPU 保留完整序列和全部注意力权重",
	"under load the batch in flight is the arrival rate times each request's time in the engine (Little's law)":                                     "有负载时，在途批大小等于到达率乘以每个请求在引擎中的停留时间（利特尔定律）",
	"burst of %.0f requests at once: the makespan of a prefill wave, full-batch decode and the tail of the longest answers (output length CV %.2g)": "一次突发 %.0f 个请求：完工时间包括一轮预填充、满批解码和最长回答的尾部（输出长度变异系数 %.2g）",
	"; on whole instances of %s: %d instance(s), %d GPUs, %d replicas":                                                                              "；按 %s 整台实例计：%d 台实例，%d 块 GPU，%d 个副本",
	"%s; on whole instances of %s: %d instance(s), %d GPUs, %d replicas":                                                                            "%s；按 %s 整台实例计：%d 台实例，%d 块 GPU，%d 个副本", // composed
	"%.0f requests/s need %.0f%% of what this cluster can serve: queues grow without bound.":                                                        "%.0f 请求/秒需要该集群服务能力的 %.0f%%：队列会无限增长。",
	"about %d replicas of tensor parallelism %d (%d GPUs) would keep up":                                                                            "约 %d 个张量并行 %d 的副本（%d 块 GPU）可以跟上",
	"prefill only (embedding or scoring): %.2f ms of batched compute per %.0f-token prompt (%.1f ms for one prompt alone).":                         "仅预填充（向量化或打分）：每条 %[2]s token 的提示批量计算 %[1]s ms（单条提示单独计算 %[3]s ms）。",
	"more FLOPS (or fp8 maths) would raise throughput; memory bandwidth matters little here":                                                        "更多 FLOPS（或 fp8 运算）可提高吞吐；这里显存带宽影响不大",
	"no batch size meets the SLO: a single request already takes %.0f ms to its first token and %.1f ms per token.":                                 "没有批大小能满足 SLO：单个请求的首 token 延迟已达 %.0f ms，每 token %.1f ms。",
	"more tensor parallelism, faster GPUs, or lower-precision weights would shorten each step":                                                      "更高的张量并行度、更快的 GPU 或更低精度的权重可缩短每一步",
	"GPU-to-GPU collectives take %.0f%% of each decode step.":                                                                                       "GPU 间集合通信占每个解码步的 %.0f%%。",
	"fewer GPUs per replica (more replicas) or a faster GPU link would help":                                                                        "减少每副本 GPU 数（增加副本数）或使用更快的 GPU 互连会有帮助",
	"the engine's host work (scheduling, sampling) takes %.1f ms of each %.1f ms decode step.":                                                      "引擎的主机端工作（调度、采样）占每个 %[2]s ms 解码步中的 %[1]s ms。",
	"an engine with a lighter scheduler (CUDA graphs, asynchronous scheduling) or larger batches would amortise it":                                 "调度更轻量的引擎（CUDA Graphs、异步调度）或更大的批可以摊薄这部分开销",
	"the KV cache limits the batch to %d sequences, so decode stays bound by memory bandwidth.":                                                     "KV 缓存把批大小限制在 %d 条序列，解码因此受显存带宽限制。",
	"more GPU memory per replica, an fp8 KV cache, or quantised weights would allow larger batches and more throughput":                             "每副本更多显存、fp8 KV 缓存或量化权重可支持更大的批和更高的吞吐",
	"decode reads weights and KV cache at each step: %.1f ms of memory traffic against %.1f ms of maths.":                                           "解码每一步都要读取权重和 KV 缓存：访存 %.1f ms，计算 %.1f ms。",
	"larger batches (when the SLO allows), quantised weights or a GPU with more memory bandwidth would raise throughput":                            "更大的批（SLO 允许时）、量化权重或显存带宽更高的 GPU 可提高吞吐",
	"compute-bound at batch %d: %.1f ms of maths per step against %.1f ms of memory traffic.":                                                       "批大小 %d 时计算受限：每步计算 %.1f ms，访存 %.1f ms。",
	"perf: no serving curve: %s": "perf：没有推理性能曲线：%s",

	// interval.go
	"80%% interval from the leave-one-source-out residuals of %s predictions (measured speed %.2f-%.2f times predicted)": "80%% 区间来自 %s 预测的留一来源残差（实测速度为预测值的 %.2f-%.2f 倍）",
	", widened %.1f times for %s confidence":   "，因%[2]s置信度放宽 %[1]s 倍",
	"%s, widened %.1f times for %s confidence": "%s，因%[3]s置信度放宽 %[2]s 倍", // composed

	// params.go
	"params.%s: unknown parameter":                    "params.%s：未知参数",
	"params.%s: %g is outside [%g, %g]":               "params.%s：%g 超出范围 [%g, %g]",
	"intervals.%s: [%g, %g] must bracket 0 within ±3": "intervals.%s：[%g, %g] 必须在 ±3 以内且包含 0",
	"perf: embedded model.json: %v":                   "perf：内置 model.json：%v",

	// pipeline.go
	"%s reads %.1f GB/s but the GPUs could consume %.1f GB/s: they wait for data %.0f%% of the time.":              "%s读取速度为 %.1f GB/s，而 GPU 可消耗 %.1f GB/s：GPU 有 %.0f%% 的时间在等待数据。",
	"CPU preprocessing (%.1f ms per sample on %d vCPUs) delivers %.0f samples/s against %.0f the GPUs could take.": "CPU 预处理（%[2]s 个 vCPU，每个样本 %[1]s ms）每秒只能提供 %[3]s 个样本，而 GPU 每秒可处理 %[4]s 个。",
	"%d vCPUs per node (or GPU-side decoding such as DALI) would keep the GPUs busy":                               "每节点 %d 个 vCPU（或在 GPU 上解码，如 DALI）可让 GPU 保持忙碌",
	"%s storage (measured)":                       "%s 存储（实测）",
	"block storage (the offer has no local NVMe)": "块存储（该实例没有本地 NVMe）",
	"staging the dataset on local NVMe (%.1f GB/s per node) would keep the GPUs busy":                                                      "把数据集预先拷贝到本地 NVMe（每节点 %.1f GB/s）可让 GPU 保持忙碌",
	"storage reading %.1f GB/s per node (local NVMe RAID, a parallel file system, or caching the dataset in RAM) would keep the GPUs busy": "每节点读取 %.1f GB/s 的存储（本地 NVMe RAID、并行文件系统，或把数据集缓存在内存中）可让 GPU 保持忙碌",

	// predict.go
	"%s = %s: %s": "%#s = %#s：%s", // a default: the field and its value as written
	"the catalog has no compute rates for %s, so no prediction can be made":                      "目录中没有 %s 的算力数据，无法预测",
	"add its dense TFLOPS to accelerators.csv (--catalog DIR), or measure it with gpupick probe": "把它的稠密 TFLOPS 加入 accelerators.csv（--catalog DIR），或用 gpupick probe 实测",
	"perf: kind %q has no model": "perf：类型 %q 没有性能模型",

	// train.go
	"perf: %s needs a transformer model with layers and hidden":                "perf：%s 需要带 layers 和 hidden 的 Transformer 模型",
	"the architecture's best fused attention (cuDNN / FlashAttention-3 class)": "该架构上最好的融合注意力（cuDNN / FlashAttention-3 级）",
	"FlashAttention-2-class attention":                                         "FlashAttention-2 级注意力",
	"eager":                                                                    "eager 模式",
	"fused":                                                                    "融合",
	"eager elementwise kernels":                                                "eager 逐元素算子",
	"fused elementwise kernels":                                                "融合逐元素算子",
	"software stack %s: %s, %s, %.2fx the scheduling speed of tuned Megatron-Core (%s)":                                         "软件栈 %s：%s，%s，调度速度为调优后 Megatron-Core 的 %.2f 倍（%s）",
	"no parallel layout exists for %d GPUs with a global batch of %d sequences (each data-parallel replica needs at least one)": "%d 块 GPU、全局批大小 %d 条序列时不存在可行的并行布局（每个数据并行副本至少需要一条）",
	"the parallelism block (%s) does not fit %d GPUs with a global batch of %d sequences":                                       "parallelism 配置（%s）不适用于 %d 块 GPU、全局批大小 %d 条序列",
	"raise training.global_batch, use fewer GPUs, or change the parallelism block":                                              "增大 training.global_batch、减少 GPU 数，或修改 parallelism 配置",
	"even with the leanest layout":                     "即使用最省显存的布局",
	"with the given parallelism":                       "按给定的并行方式",
	"needs %.0f GB per GPU %s (%s) but %s has %.0f GB": "%[2]s，每块 GPU 需要 %[1]s GB（%[3]s），但 %[4]s 只有 %[5]s GB",
	"training.global_batch %d is not a multiple of data parallel %d x micro-batch %d: each step runs %d sequences (%d x %d x %d accumulation steps); keep %d with a GPU count that divides it, or set global_batch to %d": "training.global_batch %d 不是数据并行 %d × 微批 %d 的整数倍：每步实际运行 %d 条序列（%d × %d × %d 个累积步）；要保持 %d，请选择能整除它的 GPU 数，或把 global_batch 设为 %d",
	"parallel layout chosen from %d evaluated":          "从 %d 种候选中选出的并行布局",
	"parallel layout as the parallelism block gives it": "按 parallelism 配置给定的并行布局",
	"%s: %s": "%s：%s",
	"pipeline: whole layers per stage, the embedding on the first and the output head and loss on the last; stage imbalance %.2f s and bubbles %.2f s of each %.2f s step": "流水线：每个阶段包含整数层，嵌入层在第一阶段，输出头和损失在最后阶段；每个 %[3]s 秒的步中阶段不均衡占 %[1]s 秒，气泡占 %[2]s 秒",
	"mixture of experts: %.1fB of %.1fB parameters active per token; %d experts per GPU, %.0f tokens per expert per micro-batch in grouped GEMMs":                          "混合专家：每个 token 激活 %[2]sB 参数中的 %[1]sB；每块 GPU %[3]s 个专家，每个微批中每个专家 %[4]s 个 token，使用分组 GEMM",
	"%s is capped at %.0f W of its %.0f W: tensor clocks at %.0f%% of full power":                                                                                          "%s 功耗上限为 %[3]s W 中的 %[2]s W：张量核心频率为满功耗时的 %[4]s%%",
	"data %d x tensor %d x pipeline %d":     "数据并行 %d × 张量并行 %d × 流水线并行 %d",
	"data %d x tensor %d x pipeline %d%s":   "数据并行 %d × 张量并行 %d × 流水线并行 %d%s", // composed
	" (%d chunks per stage, interleaved)":   "（每阶段 %d 块，交错调度）",
	" (%d chunks per stage, interleaved)%s": "（每阶段 %d 块，交错调度）%s", // composed
	" x context %d":                         " × 上下文并行 %d",
	" x context %d%s":                       " × 上下文并行 %d%s", // composed
	", expert %d":                           "，专家并行 %d",
	", expert %d%s":                         "，专家并行 %d%s", // composed
	", micro-batch %d x %d accumulation steps, sharding %s, activation checkpointing %s": "，微批 %d × %d 个累积步，分片 %s，激活检查点 %s",
	"%d GPUs of this kind fit it": "%d 块此型号 GPU 可以放下",
	"a parallelism block with more tensor or pipeline parallelism (or none, to let gpupick choose)":                            "在 parallelism 配置中提高张量或流水线并行度（或不写该配置，由 gpupick 选择）",
	"LoRA or QLoRA fine-tuning keeps the frozen weights without optimizer state (2 or 0.56 bytes per parameter instead of 16)": "LoRA 或 QLoRA 微调保留冻结权重且不需要优化器状态（每个参数 2 或 0.56 字节，而不是 16 字节）",
	"QLoRA stores the frozen weights in 4 bits":                                "QLoRA 以 4 比特存储冻结权重",
	"full activation checkpointing cuts activation memory to the layer inputs": "完全激活检查点把激活显存降到只保存每层输入",
	"%s; or %s": "%s；或%s", // composed: the fit hints
	"%s; %s":    "%s；%s",  // composed
	"%.0f%% of each step waits for communication over the %s link, pipeline bubbles or stage imbalance.":                              "每步有 %.0f%% 的时间在等待 %s 链路上的通信、流水线气泡或阶段不均衡。",
	"a faster inter-node fabric, fewer nodes with more GPUs each, or a larger global batch (more compute per exchange) would lift it": "更快的节点间互连、更少但每台 GPU 更多的节点，或更大的全局批（每次通信对应更多计算）可以改善",
	"compute is the largest part (%.0f%% of each step), but %.0f%% waits for communication over the %s link or pipeline bubbles.":     "计算占比最大（每步 %.0f%%），但有 %.0f%% 在等待 %s 链路上的通信或流水线气泡。",
	"a larger global batch or fewer pipeline stages would hide more of the waiting":                                                   "更大的全局批或更少的流水线阶段可以掩盖更多等待",
	"compute-bound: the GPUs spend %.0f%% of each step computing; communication is mostly hidden.":                                    "计算受限：GPU 每步有 %.0f%% 的时间在计算；通信基本被掩盖。",
}
