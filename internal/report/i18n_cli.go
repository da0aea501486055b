package report

import "fmt"

// cliMessages holds the fixed phrases of every command other than
// recommend (gpus, offers, providers, predict, simulate, cost, check), in
// English and Chinese. Data strings from the domain packages go through Tr
// instead.
var cliMessages = map[string][2]string{
	// words
	"yes":          {"yes", "是"},
	"no":           {"no", "否"},
	"unknown":      {"unknown", "未知"},
	"stale_suffix": {" (stale)", "（过期）"},
	"list_sep":     {", ", "、"},

	// column headers
	"col.id":           {"ID", "ID"},
	"col.name":         {"NAME", "名称"},
	"col.vendor":       {"VENDOR", "厂商"},
	"col.arch":         {"ARCH", "架构"},
	"col.mem_gib":      {"MEM GiB", "显存 GiB"},
	"col.bw":           {"BW GB/s", "带宽 GB/s"},
	"col.fp16":         {"FP16 TFLOPS", "FP16 TFLOPS"},
	"col.bf16":         {"BF16 TFLOPS", "BF16 TFLOPS"},
	"col.fp8":          {"FP8 TFLOPS", "FP8 TFLOPS"},
	"col.fp4":          {"FP4 TFLOPS", "FP4 TFLOPS"},
	"col.link":         {"LINK GB/s", "互连 GB/s"},
	"col.tdp":          {"TDP W", "功耗 W"},
	"col.as_of":        {"AS OF", "数据日期"},
	"col.offer":        {"OFFER", "实例"},
	"col.region":       {"REGION", "区域"},
	"col.cc":           {"CC", "国家"},
	"col.gpu":          {"GPU", "GPU"},
	"col.n":            {"N", "GPU数"},
	"col.vcpu":         {"vCPU", "vCPU"},
	"col.ram_gib":      {"RAM GiB", "内存 GiB"},
	"col.price_h":      {"%s $/h", "%s 美元/小时"},
	"col.price_gpu_h":  {"$/GPU-h", "美元/GPU·小时"},
	"col.your_h":       {"YOUR $/h", "您的价格 美元/小时"},
	"col.your_gpu_h":   {"YOUR $/GPU-h", "您的价格 美元/GPU·小时"},
	"col.fabric":       {"FABRIC Gb/s", "组网 Gb/s"},
	"col.stale":        {"STALE", "过期"},
	"col.provider":     {"PROVIDER", "云厂商"},
	"col.hq":           {"HQ", "总部"},
	"col.cloud_act":    {"CLOUD ACT", "CLOUD法案"},
	"col.certs":        {"CERTIFICATIONS", "认证"},
	"col.cmk":          {"CMK", "客户管理密钥"},
	"col.cc_gpu":       {"CC GPU", "机密计算GPU"},
	"col.egress":       {"EGRESS $/GB", "出网 美元/GB"},
	"col.offers":       {"OFFERS", "报价数"},
	"col.prices_as_of": {"PRICES AS OF", "价格日期"},

	// gpus, offers, providers
	"gpus.note":       {"TFLOPS are dense peaks (no sparsity); - = the hardware has no such path; LINK = GPU-to-GPU, both directions.", "TFLOPS 为稠密峰值（不含稀疏）；- 表示硬件不支持该数据类型；互连 = GPU 之间，双向合计。"},
	"offers.note":     {"%d offers; prices in USD per instance-hour (CNY converted at the rate in fx.csv).", "共 %d 条报价；价格为每实例小时美元（人民币按 fx.csv 中的汇率换算）。"},
	"offers.stale":    {"STALE yes = the price is older than 90 days: check the source before you sign.", "过期 = 是：价格超过 90 天，签约前请核对来源。"},
	"offers.unknown":  {"%d offers have no published %s price (shown as unknown, never as 0).", "%d 条报价没有公开的%s价格（显示为未知，从不当作 0）。"},
	"offers.fabric":   {"FABRIC - = no multi-node fabric published for the instance.", "组网 - 表示该实例没有公开的多节点组网。"},
	"providers.note1": {"CLOUD ACT yes = a US-headquartered company or parent: US authorities can compel access to data in any region.", "CLOUD法案 = 是：总部或母公司在美国，美国当局可要求调取任何区域的数据。"},
	"providers.note2": {"EGRESS = first internet-egress tier; see -o json for every tier and the scope of each certification.", "出网 = 第一档互联网出网价格；各档价格和每项认证的范围见 -o json。"},

	// predict
	"paren":            {" (%s)", "（%s）"},
	"pred.head":        {"%s: %s", "%s：%s"},
	"pred.where":       {"%s x %s on %d node(s)", "%s 块 %s，%d 个节点"},
	"pred.of":          {" of %s", "（%s）"},
	"pred.nofit":       {"DOES NOT FIT: %s.", "放不下：%s。"},
	"pred.would_fit":   {"What would fit: %s", "可行的方案：%s"},
	"pred.verdict":     {"Verdict: %s", "结论：%s"},
	"pred.fix":         {"Fix: %s", "改进：%s"},
	"col.quantity":     {"QUANTITY", "指标"},
	"col.value":        {"VALUE", "数值"},
	"col.range":        {"80% RANGE", "80% 区间"},
	"col.unit":         {"UNIT", "单位"},
	"q.throughput":     {"throughput", "吞吐量"},
	"q.duration":       {"duration", "时长"},
	"q.ttft":           {"time to first token", "首 token 延迟"},
	"q.tpot":           {"time per output token", "每个输出 token 耗时"},
	"q.step":           {"step time", "单步时间"},
	"q.util":           {"GPU utilisation", "GPU 利用率"},
	"q.mem":            {"memory per GPU", "每块 GPU 显存"},
	"q.bottleneck":     {"bottleneck", "瓶颈"},
	"q.confidence":     {"confidence", "置信度"},
	"u.hours":          {"hours", "小时"},
	"u.minutes":        {"min", "分钟"},
	"u.seconds":        {"s", "秒"},
	"u.s":              {"s", "秒"},
	"u.pct_peak":       {"% of dense peak", "% 稠密峰值"},
	"u.pct_util":       {"% (after data pipeline)", "%（计入数据管道后）"},
	"u.gb_of":          {"GB of %.1f", "GB（共 %.1f）"},
	"pred.layout":      {"Layout: data %d x tensor %d x pipeline %d", "并行布局：数据并行 %d × 张量并行 %d × 流水线并行 %d"},
	"pred.vpp":         {" (%d chunks per stage)", "（每级 %d 个分块）"},
	"pred.context":     {" x context %d", " × 上下文并行 %d"},
	"pred.expert":      {", expert %d", "，专家并行 %d"},
	"pred.micro":       {"; micro-batch %d, %d accumulation step(s); sharding %s; activation checkpointing %s", "；微批 %d，梯度累积 %d 步；分片 %s；激活检查点 %s"},
	"pred.global":      {"; %d sequences per step, not the file's global batch (see the assumptions)", "；每步 %d 条序列，不是文件中的全局批大小（见假设）"},
	"pred.replicas":    {"; %d replica(s); batch %d in flight (memory holds %d, SLO allows %d)", "；%d 个副本；在途批大小 %d（显存可容纳 %d，SLO 允许 %d）"},
	"pred.eff":         {"Efficiency used: %.1f%% of peak for matrix maths", "采用的效率：矩阵运算达到峰值的 %.1f%%"},
	"pred.range":       {"Range: %s.", "区间：%s。"},
	"pred.serving":     {"Serving: %s, %s batching; offline capacity %s tokens/s (%s requests/s); prefill of one prompt %s ms", "推理服务：%s，%s批处理；离线容量 %s token/秒（%s 请求/秒）；单个提示词预填充 %s 毫秒"},
	"pred.makespan":    {"; burst makespan %s s", "；突发请求总完成时间 %s 秒"},
	"pred.load":        {"; load %.0f%% of capacity", "；负载为容量的 %.0f%%"},
	"pred.needed":      {"; %d replica(s) needed within the SLO", "；满足 SLO 需要 %d 个副本"},
	"pred.breakdown":   {"Step breakdown (s):", "单步时间构成（秒）："},
	"col.part":         {"PART", "部分"},
	"col.seconds":      {"SECONDS", "秒"},
	"part.compute":     {"compute", "计算"},
	"part.memory":      {"memory traffic", "显存读写"},
	"part.comm":        {"communication exposed", "未被掩盖的通信"},
	"part.bubble":      {"pipeline bubble", "流水线气泡"},
	"part.data":        {"waiting for data", "等待数据"},
	"pred.memory":      {"Memory per GPU (GB): weights %.2f, gradients %.2f, optimizer %.2f, activations %.2f, KV cache %.2f, overhead %.2f = %.2f of %.2f", "每块 GPU 显存（GB）：权重 %.2f，梯度 %.2f，优化器 %.2f，激活 %.2f，KV 缓存 %.2f，其他开销 %.2f = %.2f（共 %.2f）"},
	"pred.assumptions": {"Assumptions:", "假设："},

	// check
	"check.gpu_only":               {"for the accelerator %s (no offer given)", "针对加速卡 %s（未指定实例）"},
	"check.offer":                  {"for %s in %s (%s)", "针对 %s，区域 %s（%s）"},
	"check.stack":                  {"Software stack: %s", "软件栈兼容性：%s"},
	"check.fix":                    {"fix: %s", "解决办法：%s"},
	"check.source":                 {"source: %s", "来源：%s"},
	"check.lowest":                 {"lowest versions that work: %s", "可用的最低版本：%s"},
	"check.lockin":                 {"lock-in: %s", "厂商锁定：%s"},
	"check.compliance":             {"Compliance: %s", "合规：%s"},
	"check.compliance_not_checked": {"Compliance: not checked (no offer given)", "合规：未检查（未指定实例）"},
	"check.not_checked":            {"The workload's %d requirement(s) (%s) depend on the provider, the region and the instance, not on the accelerator; run gpupick check with --offer PROVIDER/INSTANCE to judge them for an offer with %s.", "工作负载的 %d 项合规要求（%s）取决于云厂商、区域和实例，而不是加速卡；请用 gpupick check --offer 云厂商/实例 针对搭载 %s 的具体实例检查。"},
	"check.not_checked_req":        {"Not checked: no offer was given; this requirement depends on the provider, the region and the instance (give --offer PROVIDER/INSTANCE).", "未检查：未指定实例；该要求取决于云厂商、区域和实例（请给出 --offer 云厂商/实例）。"},
	"check.no_requirements":        {"(the workload states no compliance requirement)", "（工作负载没有提出合规要求）"},
	"check.req":                    {"%s (%s): %s", "%s（%s）：%s"},
	"check.required":               {"required", "必需"},
	"check.preferred":              {"preferred", "优先"},
	"check.checklist":              {"Proof-of-concept checklist:", "概念验证清单："},
	"check.sources_cut":            {"Sources longer than %d characters are cut (…); -o json has them whole.", "超过 %d 个字符的来源已截断（…）；完整内容见 -o json。"},

	// cost
	"cost.head":          {"%s in %s (%s): %d x %s on %d instance(s), %s", "%s，区域 %s（%s）：%d 块 %s，%d 台实例，%s"},
	"cost.perf":          {"Throughput %s %s; utilisation %.0f%%; bottleneck %s; MFU %.1f%%; confidence %s", "吞吐量 %s %s；利用率 %.0f%%；瓶颈 %s；MFU %.1f%%；置信度 %s"},
	"cost.wall":          {"Wall-clock time %s (transfer %s, setup %s, productive %s)", "总耗时 %s（数据传输 %s，准备 %s，有效计算 %s）"},
	"span.h":             {"%.2f h", "%.2f 小时"},
	"span.min":           {"%.0f min", "%.0f 分钟"},
	"span.s":             {"%.0f s", "%.0f 秒"},
	"cost.range_total":   {"total cost", "总成本"},
	"cost.range_month":   {"cost per month", "每月成本"},
	"cost.range":         {"80%% range: %s $%s-%s", "80%% 区间：%s %s-%s 美元"},
	"cost.range_time":    {", wall-clock time %s", "，总耗时 %s"},
	"span.h_range":       {"%s-%s h", "%s-%s 小时"},
	"span.min_range":     {"%s-%s min", "%s-%s 分钟"},
	"span.s_range":       {"%s-%s s", "%s-%s 秒"},
	"cost.price":         {"Price: $%.2f per instance-hour (list $%.2f", "价格：每实例小时 %.2f 美元（目录价 %.2f 美元"},
	"cost.rule":          {"; your price from rule %q", "；您的价格来自规则 %q"},
	"cost.source":        {"), source %s, as of %s", "），来源 %s，日期 %s"},
	"cost.breakdown":     {"Cost breakdown:", "成本明细："},
	"col.usd":            {"USD", "美元"},
	"cost.compute":       {"compute", "计算"},
	"cost.storage":       {"storage", "存储"},
	"cost.egress":        {"egress", "出网流量"},
	"cost.setup":         {"setup", "准备"},
	"cost.spot":          {"spot overhead", "竞价中断损失"},
	"cost.total":         {"total", "合计"},
	"cost.service":       {"Service: %d replica(s) on %d instance(s), $%s per hour, $%s per month", "在线服务：%d 个副本，%d 台实例，每小时 %s 美元，每月 %s 美元"},
	"cost.unit":          {"Unit cost: %.4g %s", "单位成本：%.4g %s"},
	"cost.warnings":      {"Warnings:", "警告："},
	"cost.notes":         {"Cost notes:", "成本说明："},
	"cost.demoted":       {"%s: %s", "%s：%s"},
	"cost.non_compliant": {"does not meet the workload's compliance requirements (priced anyway because you named it)", "不满足工作负载的合规要求（因您指定了该实例，仍给出价格）"},
	"cost.incompatible":  {"incompatible with the workload's software stack (priced anyway because you named it)", "与工作负载的软件栈不兼容（因您指定了该实例，仍给出价格）"},

	// simulate --chart
	"chart.title":      {"%s: %s policy over %.1f h", "%s：%s策略，%.1f 小时"},
	"chart.traffic":    {"traffic", "流量"},
	"chart.traffic_y":  {"requests/s", "请求/秒"},
	"chart.replicas":   {"replicas (0 = scaled to zero)", "副本数（0 = 缩容到零）"},
	"chart.replicas_y": {"replicas", "副本"},
	"chart.latency":    {"p95 end-to-end latency", "p95 端到端延迟"},
	"chart.latency_y":  {"s", "秒"},
	"chart.slo":        {"SLO %g s", "SLO %g 秒"},
	"chart.time":       {"time (h)", "时间（小时）"},
	"chart.wrote":      {"gpupick: wrote the chart to %s (traffic, replicas and p95 latency over time)", "gpupick：图表已写入 %s（流量、副本数和 p95 延迟随时间的变化）"},

	// simulate
	"u.h":                 {"h", "小时"},
	"sim.head":            {"Simulation of %s (%s policy) over %.1f h", "%s 的模拟（%s策略），共 %.1f 小时"},
	"sim.requests":        {"requests", "请求"},
	"sim.arrived":         {"arrived", "到达"},
	"sim.completed":       {"completed", "完成"},
	"sim.dropped":         {"dropped", "丢弃"},
	"sim.queue_full":      {"(queue full)", "（队列已满）"},
	"sim.timed_out":       {"timed out", "超时"},
	"sim.gave_up":         {"(gave up waiting)", "（放弃等待）"},
	"sim.violations":      {"SLO violations", "违反 SLO"},
	"sim.pct_requests":    {"% of requests", "% 的请求"},
	"sim.cost":            {"cost", "成本"},
	"sim.replica_h":       {"replica-hours", "副本小时"},
	"sim.instance_h":      {"instance-hours", "实例小时"},
	"sim.instance_h_unit": {"h (replicas share instances; whole instances billed)", "小时（副本共享实例；按整台实例计费）"},
	"sim.gpu_h":           {"GPU-hours", "GPU 小时"},
	"sim.util":            {"utilisation", "利用率"},
	"sim.util_unit":       {"% of replica time busy", "% 的副本时间处于忙碌"},
	"sim.mean_replicas":   {"replicas, mean", "平均副本数"},
	"sim.peak_replicas":   {"replicas, peak", "峰值副本数"},
	"sim.cold_starts":     {"cold starts", "冷启动"},
	"sim.scale_events":    {"scale events", "扩缩容次数"},
	"sim.interruptions":   {"spot interruptions", "竞价实例中断"},
	"sim.requeued":        {"(%d requests re-queued)", "（%d 个请求重新排队）"},
	"sim.latency":         {"Latency (s):", "延迟（秒）："},
	"sim.mean":            {"MEAN", "平均"},
	"sim.max":             {"MAX", "最大"},
	"sim.queueing":        {"queueing", "排队"},
	"sim.first_token":     {"first token", "首 token"},
	"sim.end_to_end":      {"end to end", "端到端"},
	"sim.tiers":           {"Tiers:", "层级："},
	"sim.tier":            {"TIER", "层级"},
	"sim.tier_price":      {"$/REPLICA-H", "美元/副本小时"},
	"sim.tier_h":          {"REPLICA-H", "副本小时"},
	"sim.tier_cost":       {"COST $", "成本（美元）"},
	"sim.meets":           {"Verdict: this policy meets the SLO (%.2f%% of requests violate it).", "结论：该策略满足 SLO（%.2f%% 的请求违反）。"},
	"sim.misses":          {"Verdict: this policy MISSES the SLO (%.2f%% of requests violate it).", "结论：该策略不满足 SLO（%.2f%% 的请求违反）。"},
	"search.in":           {" in %s", "（%s）"},
	"search.best":         {"Cheapest that meets the SLO: %s with %s: $%.2f, p95 %.3f s, %.2f%% violations, utilisation %.0f%%", "满足 SLO 的最便宜方案：%s，%s：%.2f 美元，p95 %.3f 秒，违反率 %.2f%%，利用率 %.0f%%"},
	"search.none":         {"No candidate policy meets the SLO; the closest are below.", "没有候选策略满足 SLO；最接近的如下。"},
	"search.candidate":    {"CANDIDATE", "候选"},
	"search.policy":       {"POLICY", "策略"},
	"search.cost":         {"COST $", "成本（美元）"},
	"search.p95":          {"P95 s", "P95（秒）"},
	"search.violations":   {"VIOLATIONS %", "违反率 %"},
	"search.util":         {"UTIL %", "利用率 %"},
	"search.met":          {"met", "满足"},
	"search.missed":       {"missed", "未满足"},
	"search.runs":         {"%d simulations run.", "共运行 %d 次模拟。"},
}

// tc renders the CLI phrase key in l, formatted with args.
func tc(l Lang, key string, args ...any) string {
	m, ok := cliMessages[key]
	if !ok {
		return key
	}
	s := m[0]
	if l == Chinese {
		s = m[1]
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// CLIText is a fixed phrase of the commands (a note on stderr, a message)
// in l, for the cli package.
func CLIText(l Lang, key string, args ...any) string { return tc(l, key, args...) }

// modeText names a pricing mode in l.
func modeText(l Lang, mode string) string {
	if l == Chinese {
		if z, ok := modeZh[mode]; ok {
			return z
		}
	}
	return mode
}

// trCLI translates the messages of the commands' own errors (and the
// catalog's "what removed what"), which reach stderr through Tr under
// --lang zh or a Chinese LANG.
var trCLI = map[string]string{
	"no offer qualifies: %s":   "没有符合条件的报价：%s",
	"of %d offers, %s":         "在 %d 条报价中，%s",
	"%s removed %d":            "%s 排除了 %d 条",
	"%d offers in the catalog": "目录中共 %d 条报价",
	"no %s price":              "无%s价格",
	"cannot read":              "无法读取",
	"must be >= 1, got %d (leave it out for one server's worth)":                        "必须 >= 1，实际为 %d（不填则为一台服务器的 GPU 数）",
	"a workload file is required (see examples/)":                                       "需要工作负载文件（见 examples/）",
	"a service file is required (see examples/service-*.yaml)":                          "需要服务文件（见 examples/service-*.yaml）",
	"no region of %s meets the compliance block of %s":                                  "%s 没有满足 %s 合规要求的区域",
	"want one of %s, got %q":                                                            "应为 %s 之一，实际为 %q",
	"no region of the catalog is in %q: want an ISO 3166 alpha-2 code such as DE or US": "目录中没有位于 %q 的区域：请使用 ISO 3166 两位字母代码，如 DE 或 US",
	"unknown accelerator %q (see gpupick gpus; known: %s)":                              "未知的加速卡 %q（见 gpupick gpus；已知：%s）",
	"unknown accelerator %q (see gpupick gpus)":                                         "未知的加速卡 %q（见 gpupick gpus）",
	"unknown provider %q (see gpupick providers)":                                       "未知的云厂商 %q（见 gpupick providers）",
	"unknown vendor %q (known: %s)":                                                     "未知的厂商 %q（已知：%s）",
	"no accelerator has %g GiB or more from vendor %q":                                  "厂商 %[2]q 没有显存不少于 %[1]g GiB 的加速卡",
	"check did not pass: stack %s (compliance not checked: give --offer)":               "检查未通过：软件栈 %s（未检查合规：请给出 --offer）",
	"check did not pass: stack %s, compliance %s":                                       "检查未通过：软件栈 %s，合规 %s",
	"want a file ending in .svg or .png, got %q":                                        "文件名应以 .svg 或 .png 结尾，实际为 %q",
	"want en or zh, got %q":                                                             "应为 en 或 zh，实际为 %q",
}
