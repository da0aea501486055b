package report

// trApp: internal/app, the application layer every surface shares (offer
// and GPU lookup, the checks it runs for the advisor, calibration).
var trApp = map[string]string{
	"give %s ID or %s PROVIDER/INSTANCE":                                   "请给出 %s 加速卡 ID，或 %s 云厂商/实例",
	"unknown accelerator %q (known: %s)":                                   "未知的加速卡 %q（已知：%s）",
	"%s has %s, not %s":                                                    "%s 配备的是 %s，不是 %s",
	"give --gpu ID or --offer PROVIDER/INSTANCE":                           "请给出 --gpu ID 或 --offer PROVIDER/INSTANCE",
	"no offer %q in the catalog%s; see the offers listing":                 "目录中没有实例 %q%s；请查看实例列表",
	"%s is not offered in %q in the catalog":                               "目录中 %s 不在 %q 区域提供",
	"must be an llm-inference workload, got %s":                            "必须是 llm-inference 工作负载，实际为 %s",
	"%s cannot serve %s: %s":                                               "%s 无法承载 %s：%s",
	"%s is not a candidate for this workload (its exclusion explains why)": "%s 不是该工作负载的候选（排除原因说明了为什么）",
	"nothing qualifies: %s":                                                "没有符合条件的候选：%s",
	"required: provider/instance-type":                                     "必填：云厂商/机型",
	"no region of %s meets the workload's compliance block (the cheapest, %s, does not): name one with --region to price it anyway": "%s 没有任何区域满足工作负载的合规要求（最便宜的 %s 也不满足）：如仍要计价，请用 --region 指定区域",
	"must be >= 1": "必须 >= 1",
	"must be >= 0": "必须 >= 0",
	"%s has %d GPUs per instance: the count must be a multiple of it":                                                                                 "%s 每台实例有 %d 块 GPU：数量必须是它的整数倍",
	"%s cannot run this workload as asked: %s":                                                                                                        "%s 无法按要求运行该工作负载：%s",
	"a service's fleet is sized by its load: %s serves it on %d GPUs (%d instances), not %d; leave the count out":                                     "在线服务的集群规模由负载决定：%s 需要 %d 块 GPU（%d 台实例），而不是 %d；请不要指定数量",
	"calibrated with the probe of %s on %s (%d x %s)":                                                                                                 "已用 %[2]s 在 %[1]s 上的探测结果校准（%[3]s × %[4]s）",
	"%s: its measured compute, storage and network replace the catalog's for the %d offers with %d x %s; other offers are predicted from the catalog": "%s：对配备 %[3]s × %[4]s 的 %[2]s 个实例，用实测的算力、存储和网络代替目录数据；其他实例仍按目录预测",
	"the probe of %s on %s measured no GPU: there is nothing to calibrate a GPU offer with; run gpupick probe --gpu-bench on the GPU server you rent": "%[2]s 在 %[1]s 上的探测没有测到 GPU：无法用它校准 GPU 实例；请在您租用的 GPU 服务器上运行 gpupick probe --gpu-bench",
	"%s. Fix: %s.": "%s。解决办法：%s。", // composed: fixSuffix
}

// trCLIMessages: the command line's own messages about a run, which the CLI passes
// through Tr with the domain's errors. Not checked by the coverage test
// (the CLI is not a domain package): kept for the messages a user meets
// after a recommendation or check.
var trCLIMessages = map[string]string{
	"of %d offers, %s":         "在 %d 条报价中，%s",
	"%s removed %d":            "%s 排除了 %d 条",
	"%d offers in the catalog": "目录中共 %d 条报价",
	"cannot read":              "无法读取",
	"a service file is required (see examples/service-*.yaml)":                          "需要服务文件（见 examples/service-*.yaml）",
	"no region of %s meets the compliance block of %s":                                  "%s 没有满足 %s 合规要求的区域",
	"unknown accelerator %q (see gpupick gpus; known: %s)":                              "未知的加速卡 %q（见 gpupick gpus；已知：%s）",
	"unknown accelerator %q (see gpupick gpus)":                                         "未知的加速卡 %q（见 gpupick gpus）",
	"unknown provider %q (see gpupick providers)":                                       "未知的云厂商 %q（见 gpupick providers）",
	"%d problems; first: %s":                                                            "共 %d 个问题；第一个：%s", // the API's summary of a list (server/errors.go)
	"nothing qualifies (see the report above)":                                          "没有符合条件的候选（见上方报告）",
	"check did not pass: stack %s (compliance not checked: give --offer)":               "检查未通过：软件栈 %s（未检查合规：请给出 --offer）",
	"check did not pass: stack %s, compliance %s":                                       "检查未通过：软件栈 %s，合规 %s",
	"no offer qualifies: %s":                                                            "没有符合条件的实例：%s",
	"must be >= 1, got %d (leave it out for one server's worth)":                        "必须 >= 1，实际为 %d（不写则按一台服务器计）",
	"a workload file is required (see examples/)":                                       "需要工作负载文件（见 examples/）",
	"want one of %s, got %q":                                                            "应为以下之一：%s，实际为 %q",
	"unknown vendor %q (known: %s)":                                                     "未知的厂商 %q（已知：%s）",
	"no accelerator has %g GiB or more from vendor %q":                                  "厂商 %[2]s 没有显存 %[1]s GiB 或以上的加速卡",
	"no region of the catalog is in %q: want an ISO 3166 alpha-2 code such as DE or US": "目录中没有位于 %q 的区域：应为 DE 或 US 这样的 ISO 3166 二字母代码",
	"want a file ending in .svg or .png, got %q":                                        "应为以 .svg 或 .png 结尾的文件，实际为 %q",
	"the server falls short of %s (see the critical findings)":                          "该服务器达不到 %s 的指标（见严重问题）",
	// simulate -f WORKLOAD.yaml (replay.go)
	"%s is a batch job, not a service: simulate replays a service's day (an llm-inference or image-generation workload with a request rate); recommend -f answers a job":                         "%s 是批处理作业，不是服务：simulate 重放的是服务的一天（带请求速率的 llm-inference 或 image-generation 工作负载）；作业请用 recommend -f",
	"not set: %s is a batch job, not a service, and simulate replays a service's day; recommend -f answers a job (a service states its request rate here, and its traffic in the service block)": "未设置：%s 是批处理作业，不是服务，而 simulate 重放的是服务的一天；作业请用 recommend -f（服务在此写明请求速率，并在 service 块中写明流量）",
	"nothing qualifies, so there is no plan to replay: %s":          "没有符合条件的候选，因此没有可重放的方案：%s",
	"%s, the first candidate, has no priced service plan to replay": "排名第一的候选 %s 没有已定价的服务方案可重放",
	// cli/simulate.go
	"%s in %s does not meet the compliance block of %s": "%s（%s）不满足 %s 的合规要求",
	"%s is a workload file: simulate replays the plan recommend picks for it; --search, --compare, --trace and --shards take a service file (write one with --save-plan)": "%s 是工作负载文件：simulate 会重放 recommend 为其选出的方案；--search、--compare、--trace 和 --shards 需要服务文件（可用 --save-plan 写出）",
	"--save-plan goes with a workload file (-f WORKLOAD.yaml): it writes the service file of the plan recommend picks":                                                    "--save-plan 需配合工作负载文件（-f WORKLOAD.yaml）使用：它写出 recommend 所选方案的服务文件",
}
