package report

// trAdvisor: internal/advisor (exclusion reasons, summaries, confidence)
// and trCost: internal/cost (cost notes).
var trAdvisor = map[string]string{
	"%d candidates evaluated, none excluded": "共评估 %d 个候选，无排除",
	"%d %s":                                  "%d 个%s",
	"%d candidates evaluated, %d excluded: %s": "共评估 %d 个候选，排除 %d 个：%s",
	"%s, %s": "%s，%s", // composed: the summary's list of reasons
	// ReasonText: the subject is "N candidates", as in the summary.
	"do not fit in memory": "显存放不下",
	"miss the deadline":    "超过截止时间",
	"risk missing the deadline on spot (under 90%% on time)": "在竞价实例上有错过截止时间的风险（准时率低于 90%%）",
	"exceed the budget":                                               "超出预算",
	"have no price in that pricing mode":                              "在该计费方式下没有价格",
	"are from providers not allowed":                                  "来自不允许的云厂商",
	"use accelerator vendors not accepted":                            "使用不被接受的加速卡厂商",
	"cannot span nodes (no fabric)":                                   "无法跨节点组网（没有互连）",
	"cannot serve the load within the GPU limit":                      "在 GPU 数上限内无法承载负载",
	"are incompatible with the software stack":                        "与软件栈不兼容",
	"fail a compliance requirement":                                   "不满足合规要求",
	"need more GPUs than constraints.max_gpus":                        "所需 GPU 超过 constraints.max_gpus",
	"have more GPUs per instance than constraints.max_gpus":           "单台实例的 GPU 数超过 constraints.max_gpus",
	"constraints.max_gpus not set: clusters up to %d GPUs considered": "未设置 constraints.max_gpus：考虑最多 %d 块 GPU 的集群",
	"%s is not in constraints.providers":                              "%s 不在 constraints.providers 中",
	"%s is made by %s, not in stack.vendors":                          "%s 由 %s 生产，不在 stack.vendors 中",
	"one instance has %d GPUs, more than constraints.max_gpus %d":     "单台实例有 %d 块 GPU，超过 constraints.max_gpus %d",
	// confidence.go; the comparative is "cheaper" or "faster".
	"#1 is %s than #2 (%s) with probability %.0f%% given both predictions' 80%% intervals.": "按两者预测的 80%% 区间，第 1 名比第 2 名（%[2]s）%[1]s的概率为 %[3]s%%。",
	"a trial server of %s":       "%s 的试用服务器",
	"trial servers of %s and %s": "%s 和 %s 的试用服务器",
	"#1 and #2 (%s) cannot be told apart: #1 is %s with probability %.0f%% within the model's uncertainty. Running gpupick probe --gpu-bench on %s, then recommend --calibrate REPORT, measures the speed the ranking rests on and settles it.": "第 1 名与第 2 名（%s）在模型误差范围内无法区分：第 1 名%s的概率仅为 %.0f%%。在 %s上运行 gpupick probe --gpu-bench，再用 recommend --calibrate REPORT，即可测出排名所依赖的速度并确定结果。",
	"cheaper": "更便宜",
	"faster":  "更快",
	"better":  "更好",
	// evaluate.go
	"no usable prediction for %s (throughput %g %s)":                                                   "%s 没有可用的预测（吞吐 %g %s）",
	"%.4g requests/s within the SLO need more than %d instances (%d GPUs, constraints.max_gpus %d)":    "在 SLO 内承载 %.4g 请求/秒需要超过 %d 台实例（%d 块 GPU，constraints.max_gpus 为 %d）",
	"fleet of %d instances, each with %d replica(s) of tensor parallelism %d, serving %.3g requests/s": "%d 台实例组成的集群，每台 %d 个张量并行 %d 的副本，承载 %.3g 请求/秒",
	"takes %.1f h (%s), the deadline is %.0f h":                                                        "需要 %.1f 小时（瓶颈：%s），截止时间为 %.0f 小时",
	"on spot, %.0f%% chance of missing the %.0f h deadline (%.1f interruptions expected)":              "使用竞价实例时，有 %.0f%% 的概率错过 %.0f 小时的截止时间（预计 %.1f 次中断）",
	"costs $%.0f, the budget is $%.0f":                                                                 "成本 %.0f 美元，预算为 %.0f 美元",
	"no batch size meets the SLO on this GPU: %s":                                                      "在此 GPU 上没有批大小能满足 SLO：%s",        // composed
	"%s publishes no %s price for %s in %s":                                                            "%s 未公布 %[4]s 区域 %[3]s 的%[2]s价格", // composed
}

var trCost = map[string]string{
	"%s publishes no %s price for %s":                                                                                                    "%s 未公布 %[3]s 的%[2]s价格",
	"a service: every total is for one month (730 h) of continuous running":                                                              "在线服务：所有总额均按连续运行一个月（730 小时）计算",
	"staging %.0f GB to local disks at %.1f GB/s takes %.2f h":                                                                           "以 %[2]s GB/s 把 %[1]s GB 拷贝到本地磁盘需要 %[3]s 小时",
	"staging %.0f GB to local disks at %.1f GB/s takes %.0f s":                                                                           "以 %[2]s GB/s 把 %[1]s GB 拷贝到本地磁盘需要 %[3]s 秒",
	"staging %.0f GB to local disks at %.1f GB/s takes %.0f min":                                                                         "以 %[2]s GB/s 把 %[1]s GB 拷贝到本地磁盘需要 %[3]s 分钟",
	"setup billed but not productive: %.2f h (provisioning %.2f h, image pull %.2f h, staging)":                                          "计费但不产出的准备时间：%.2f 小时（开通 %.2f 小时，拉取镜像 %.2f 小时，数据拷贝）",
	"uploading %.0f GB from your own site: ingress is free":                                                                              "从您自己的机房上传 %s GB：入网流量免费",
	"copying %.0f GB at %.0f Gbit/s delays the start by %.0f s":                                                                          "以 %[2]s Gbit/s 复制 %[1]s GB 使开始时间推迟 %[3]s 秒",
	"copying %.0f GB at %.0f Gbit/s delays the start by %.0f min":                                                                        "以 %[2]s Gbit/s 复制 %[1]s GB 使开始时间推迟 %[3]s 分钟",
	"copying %.0f GB at %.0f Gbit/s delays the start by %.1f h":                                                                          "以 %[2]s Gbit/s 复制 %[1]s GB 使开始时间推迟 %[3]s 小时",
	"copying %.0f GB between %s regions: $%.2f/GB (typical inter-region rate), %.1f h":                                                   "在 %[2]s 的区域之间复制 %[1]s GB：%[3]s 美元/GB（典型跨区域费率），%[4]s 小时",
	"moving %.0f GB out of %s costs $%.2f in egress (%s)":                                                                                "从 %[2]s 转出 %[1]s GB 的出网流量费用为 %[3]s 美元（%[4]s）",
	"%.0f GB of outputs leave %s: $%.2f (%s)":                                                                                            "%.0f GB 输出从 %s 转出：%.2f 美元（%s）",
	"block-storage price unknown for %s: assumed $%.2f/GB-month":                                                                         "%s 的块存储价格未知：假设为 %.2f 美元/GB·月",
	"storage: %.0f GB (dataset and two checkpoints of %.1f GB) for %.1f hours at $%.3f/GB-month":                                         "存储：%.0f GB（数据集和两份各 %.0f GB 的检查点），%.1f 小时，%.3f 美元/GB·月",
	"storage: %.0f GB (dataset and two checkpoints of %.1f GB) for %.1f days at $%.3f/GB-month":                                          "存储：%.0f GB（数据集和两份各 %.0f GB 的检查点），%.1f 天，%.3f 美元/GB·月",
	"storage: %.0f GB (dataset and two checkpoints of %.1f GB) for %.1f months at $%.3f/GB-month":                                        "存储：%.0f GB（数据集和两份各 %.0f GB 的检查点），%.1f 个月，%.3f 美元/GB·月",
	"storage: %.0f GB (dataset and two copies of the %.0f GB model weights) for one month at $%.3f/GB-month":                             "存储：%.0f GB（数据集和两份各 %.0f GB 的模型权重），一个月，%.3f 美元/GB·月",
	"storage: %.0f GB (two copies of the %.0f GB model weights) for one month at $%.3f/GB-month":                                         "存储：%.0f GB（两份各 %.0f GB 的模型权重），一个月，%.3f 美元/GB·月",
	"egress price unknown: assumed $%.2f/GB":                                                                                             "出网流量价格未知：假设为 %.2f 美元/GB",
	"%s egress tiers, first $%.3f/GB":                                                                                                    "%s 出网流量阶梯价，首档 %.3f 美元/GB",
	"$%.3f/GB for this offer":                                                                                                            "该实例 %.3f 美元/GB",
	"spot: %.2g interruptions per instance-hour (%s); checkpoint every %.2f h (Young/Daly), %.2f h lost per interruption on average":     "竞价实例：每实例小时 %.2g 次中断（%s）；每 %.2f 小时保存一次检查点（Young/Daly 公式），每次中断平均损失 %.2f 小时",
	"%s: a %.0f h term; at %.0f%% expected utilisation each used hour costs $%.2f per instance (break-even against on-demand at %.0f%%)": "%s：期限 %.0f 小时；按预期利用率 %.0f%% 计，每台实例每个实际使用小时成本 %.2f 美元（与按需相比的盈亏平衡点为 %.0f%%）",
	" published rate":   " 公布费率",
	"%s published rate": "%s 公布的费率", // composed: the spot hazard's source
	"default: GPU spot in AWS's >20%%/month interruption bucket": "默认值：AWS 中断率 >20%%/月 档的 GPU 竞价实例",
}
