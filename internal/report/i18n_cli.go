package report

import "github.com/gpupick/gpupick/internal/autoscale"

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
	"egress_free":  {"free", "免费"},
	"egress_after": {"%s after %s TB free", "前 %[2]s TB 免费，之后 %[1]s"},
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
	"col.operator":     {"OPERATOR", "运营方"},
	"col.law_dc":       {"LAW · DCS", "法律 · 机房"},
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
	"providers.note4": {"LAW · DCS = the country whose law governs the company you contract, and whether the provider owns its data centres, leases them, both, runs in partners' or is a marketplace of independent hosts; -o json has the whole supply chain (entity, regions, accelerator origin, export rules, documents) with sources.", "法律 · 机房 = 与您签约的公司所适用法律的国家，以及云厂商的数据中心是自有、租用、两者兼有、由合作方运营，还是独立主机方的市场；-o json 给出完整的供应链（签约主体、区域、加速卡来源、出口管制、文件）及来源。"},
	"providers.note3": {"OPERATOR = who runs the machines: provider (itself), partner (data centres or clouds it contracts), marketplace or community (independent hosts not known to you), then the instance types a rule sets apart; MLPS-L<n> = an MLPS 2.0 filing at level n.", "运营方 = 谁运营机器：云厂商自营、签约合作方（其签约的数据中心或云）、市场主机方或社区主机方（您无从得知的独立主机方），其后为按规则单列的机型；MLPS-L<n> = 按等保 2.0 第 n 级备案。"},
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
	"pred.disagg":      {" on the decode pool; prefill on %d other GPUs, %d per replica", "（解码池）；预填充在另外 %d 块 GPU 上，每副本 %d 块"},
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
	"check.diligence":              {"Before signing, read or request (%d):", "签约前应阅读或索取的文件（%d 份）："},
	"check.dd_published":           {"published: %s", "已公开：%s"},
	"check.dd_request":             {"not published: request it from the provider's account team or support", "未公开：需向云厂商的客户经理或技术支持索取"},
	"check.dd_request_at":          {"request it from the provider (%s)", "需向云厂商索取（%s）"},
	"check.dd_account":             {"customers download it after signing in to the provider's console or portal", "客户登录云厂商控制台或门户后下载"},
	"check.dd_nda":                 {"shared on request under NDA", "签署保密协议后按需提供"},
	"check.dd_serves":              {"serves: %s", "对应要求：%s"},
	"check.sources_cut":            {"Sources longer than %d characters are cut (…); -o json has them whole.", "超过 %d 个字符的来源已截断（…）；完整内容见 -o json。"},

	// cost
	"cost.head":                 {"%s in %s (%s): %d x %s on %d instance(s), %s", "%s，区域 %s（%s）：%d 块 %s，%d 台实例，%s"},
	"cost.perf":                 {"Throughput %s %s; utilisation %.0f%%; bottleneck %s; MFU %.1f%%; confidence %s", "吞吐量 %s %s；利用率 %.0f%%；瓶颈 %s；MFU %.1f%%；置信度 %s"},
	"cost.wall":                 {"Wall-clock time %s (transfer %s, setup %s, productive %s)", "总耗时 %s（数据传输 %s，准备 %s，有效计算 %s）"},
	"span.h":                    {"%.2f h", "%.2f 小时"},
	"span.min":                  {"%.0f min", "%.0f 分钟"},
	"span.s":                    {"%.0f s", "%.0f 秒"},
	"cost.range_total":          {"total cost", "总成本"},
	"cost.range_month":          {"cost per month", "每月成本"},
	"cost.range":                {"80%% range: %s $%s-%s", "80%% 区间：%s %s-%s 美元"},
	"cost.range_time":           {", wall-clock time %s", "，总耗时 %s"},
	"span.h_range":              {"%s-%s h", "%s-%s 小时"},
	"span.min_range":            {"%s-%s min", "%s-%s 分钟"},
	"span.s_range":              {"%s-%s s", "%s-%s 秒"},
	"cost.price":                {"Price: $%.2f per instance-hour (list $%.2f", "价格：每实例小时 %.2f 美元（目录价 %.2f 美元"},
	"cost.rule":                 {"; your price from rule %q", "；您的价格来自规则 %q"},
	"cost.source":               {"), source %s, as of %s", "），来源 %s，日期 %s"},
	"cost.breakdown":            {"Cost breakdown:", "成本明细："},
	"col.usd":                   {"USD", "美元"},
	"cost.compute":              {"compute", "计算"},
	"cost.storage":              {"storage", "存储"},
	"cost.egress":               {"egress", "出网流量"},
	"cost.setup":                {"setup", "准备"},
	"cost.spot":                 {"spot overhead", "竞价中断损失"},
	"cost.porting":              {"porting", "移植"},
	"cost.total":                {"total", "合计"},
	"cost.service":              {"Service: %d replica(s) on %d instance(s), $%s per hour, $%s per month", "在线服务：%d 个副本，%d 台实例，每小时 %s 美元，每月 %s 美元"},
	"cost.unit":                 {"Unit cost: %.4g %s", "单位成本：%.4g %s"},
	"cost.warnings":             {"Warnings:", "警告："},
	"cost.notes":                {"Cost notes:", "成本说明："},
	"cost.demoted":              {"%s: %s", "%s：%s"},
	"cost.non_compliant":        {"does not meet the workload's compliance requirements (priced anyway because you named it)", "不满足工作负载的合规要求（因您指定了该实例，仍给出价格）"},
	"cost.operator_not_allowed": {"is run by an independent host the workload does not accept (priced anyway because you named it)", "由工作负载不接受的独立主机方运营（因您指定了该实例，仍给出价格）"},
	"cost.incompatible":         {"incompatible with the workload's software stack (priced anyway because you named it)", "与工作负载的软件栈不兼容（因您指定了该实例，仍给出价格）"},

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
	"sim.plan_head":                    {"The plan recommend ranks first: %s in %s (%s), replayed over the day its check replays.", "recommend 排名第一的方案：%s（%s，%s），按其检验所用的同一天重放。"},
	"sim.plan_check":                   {"recommend's check of this plan: %s of %s requests within the SLO (target %s), %s a month.", "recommend 对该方案的检验：%[2]s 个请求中 %[1]s 满足 SLO（目标 %[3]s），每月 %[4]s。"},
	"sim.plan_saved":                   {"gpupick: wrote the plan as a service file to %s (change it and replay it with gpupick simulate -f %[1]s)", "gpupick：方案已作为服务文件写入 %s（可修改后用 gpupick simulate -f %[1]s 重放）"},
	"u.h":                              {"h", "小时"},
	"sim.head":                         {"Simulation of %s (%s policy) over %.1f h", "%s 的模拟（%s策略），共 %.1f 小时"},
	"sim.requests":                     {"requests", "请求"},
	"sim.arrived":                      {"arrived", "到达"},
	"sim.completed":                    {"completed", "完成"},
	"sim.dropped":                      {"dropped", "丢弃"},
	"sim.queue_full":                   {"(queue full)", "（队列已满）"},
	"sim.timed_out":                    {"timed out", "超时"},
	"sim.gave_up":                      {"(gave up waiting)", "（放弃等待）"},
	"sim.violations":                   {"SLO violations", "违反 SLO"},
	"sim.pct_requests":                 {"% of requests", "% 的请求"},
	"sim.cost":                         {"cost", "成本"},
	"sim.replica_h":                    {"replica-hours", "副本小时"},
	"sim.instance_h":                   {"instance-hours", "实例小时"},
	"sim.instance_h_unit":              {"h (replicas share instances; whole instances billed)", "小时（副本共享实例；按整台实例计费）"},
	"sim.gpu_h":                        {"GPU-hours", "GPU 小时"},
	"sim.util":                         {"utilisation", "利用率"},
	"sim.util_unit":                    {"% of replica time busy", "% 的副本时间处于忙碌"},
	"sim.mean_replicas":                {"replicas, mean", "平均副本数"},
	"sim.peak_replicas":                {"replicas, peak", "峰值副本数"},
	"sim.cold_starts":                  {"cold starts", "冷启动"},
	"sim.scale_events":                 {"scale events", "扩缩容次数"},
	"sim.interruptions":                {"spot interruptions", "竞价实例中断"},
	"sim.requeued":                     {"(%d requests re-queued)", "（%d 个请求重新排队）"},
	"sim.latency":                      {"Latency (s):", "延迟（秒）："},
	"sim.mean":                         {"MEAN", "平均"},
	"sim.max":                          {"MAX", "最大"},
	"sim.queueing":                     {"queueing", "排队"},
	"sim.first_token":                  {"first token", "首 token"},
	"sim.end_to_end":                   {"end to end", "端到端"},
	"sim.tiers":                        {"Tiers:", "层级："},
	"sim.tier":                         {"TIER", "层级"},
	"sim.tier_price":                   {"$/REPLICA-H", "美元/副本小时"},
	"sim.tier_h":                       {"REPLICA-H", "副本小时"},
	"sim.tier_cost":                    {"COST $", "成本（美元）"},
	"sim.commit":                       {"Committed base (the on-demand replicas; the run stands for the traffic the term repeats):", "承诺基数（按需副本；以本次运行代表承诺期内重复的流量）："},
	"sim.commit_term":                  {"TERM", "计费方式"},
	"sim.commit_base":                  {"BASE", "承诺数量"},
	"sim.commit_price":                 {"$/H EACH", "每个美元/小时"},
	"sim.commit_held":                  {"HELD %", "占用 %"},
	"sim.commit_cost":                  {"COST $", "成本（美元）"},
	"sim.commit_od":                    {"ALL ON-DEMAND $", "全部按需（美元）"},
	"sim.commit_fleet":                 {"FLEET $", "整个机群（美元）"},
	"sim.unit_instance":                {"%d instance(s)", "%d 台实例"},
	"sim.unit_replica":                 {"%d replica(s)", "%d 个副本"},
	"sim.commit_best":                  {"Commit %s on %s and pay on-demand above them: $%.2f over the run against $%.2f all on demand (%.0f%% less). A committed unit pays off when held more than %.0f%% of the time; the last one is held %.0f%%. Paid whether running or not, they may as well stay up: a floor of %[1]s costs nothing more.", "以%[2]s承诺 %[1]s，超出部分按需付费：本次运行 %.2[3]f 美元，全部按需为 %.2[4]f 美元（低 %.0[5]f%%）。承诺的单位占用超过 %.0[6]f%% 的时间即可回本；最后一个的占用为 %.0[7]f%%。承诺的单位无论是否运行都要付费，不妨一直保留：保持 %[1]s 的下限不会多花钱。"},
	"sim.commit_none":                  {"No commitment pays off: none of the on-demand units is held %.0f%% of the run, the least at which %s beats on-demand.", "任何承诺都不划算：没有一个按需单位的占用达到运行时间的 %.0[1]f%%，而这是 %[2]s 胜过按需的最低占用。"},
	"sim.meets":                        {"Verdict: this policy meets the SLO (%.2f%% of requests violate it).", "结论：该策略满足 SLO（%.2f%% 的请求违反）。"},
	"sim.misses":                       {"Verdict: this policy MISSES the SLO (%.2f%% of requests violate it).", "结论：该策略不满足 SLO（%.2f%% 的请求违反）。"},
	"sim.advice.raise_max":             {"Advice: raise the maximum. The fleet sat at its %[1]v replica(s) for %[2]v%% of the run, and %[3]v%% of requests missed the SLO.", "建议：提高副本上限。机群有 %[2]v%% 的时间停在上限 %[1]v 个副本，%[3]v%% 的请求未满足 SLO。"},
	"sim.advice.faster_replica":        {"Advice: more replicas will not help. Requests hardly waited (p%[4]v %[3]v s), yet a request takes %[1]v s at p%[4]v against the %[2]v s bound: choose a faster GPU, fewer requests in flight per replica, or shorter outputs.", "建议：增加副本无济于事。请求几乎不排队（等待 p%[4]v 为 %[3]v 秒），但请求 p%[4]v 需要 %[1]v 秒，超过 %[2]v 秒的上限：请换更快的 GPU、减少每副本并发请求数或缩短输出。"},
	"sim.advice.spot_base":             {"Advice: keep more of the fleet on on-demand. %[1]v spot interruption(s) re-queued %[2]v request(s), and %[3]v%% of requests missed the SLO.", "建议：让更多副本使用按需实例。%[1]v 次竞价中断使 %[2]v 个请求重新排队，%[3]v%% 的请求未满足 SLO。"},
	"sim.advice.scale_sooner":          {"Advice: scale up sooner. Requests waited %[1]v s at p%[4]v while the fleet grew (%[2]v cold start(s)), and %[3]v%% missed the SLO: lower the target per replica, shorten the scale-up delay or keep more replicas warm.", "建议：更早扩容。机群扩容期间请求等待 p%[4]v 为 %[1]v 秒（%[2]v 次冷启动），%[3]v%% 的请求未满足 SLO：请降低每副本目标值、缩短扩容延迟或保留更多热副本。"},
	"sim.advice.scale_down":            {"Advice: spend less. The SLO holds with margin (%[3]v%% of requests over it, %[4]v%% allowed) and replicas busy only %[1]v%% of the time (%[2]v on average): lower the minimum or raise the target per replica, and simulate again.", "建议：降低开支。SLO 有余量（%[3]v%% 的请求未达标，允许 %[4]v%%），副本只有 %[1]v%% 的时间在工作（平均 %[2]v 个）：请降低副本下限或提高每副本目标值，然后再次模拟。"},
	"sim.advice.scale_down.fixed":      {"Advice: spend less. The SLO holds with margin (%[3]v%% of requests over it, %[4]v%% allowed) and the %[2]v replicas busy only %[1]v%% of the time: run fewer, or a target policy that follows the traffic, and simulate again.", "建议：降低开支。SLO 有余量（%[3]v%% 的请求未达标，允许 %[4]v%%），%[2]v 个副本只有 %[1]v%% 的时间在工作：请减少副本，或改用随流量伸缩的 target 策略，然后再次模拟。"},
	"sim.advice.scale_down.serverless": {"Advice: spend less. The SLO holds with margin (%[3]v%% of requests over it, %[4]v%% allowed) and workers busy only %[1]v%% of the time (%[2]v on average): lower min_workers or the idle timeout, or let a worker take more requests, and simulate again.", "建议：降低开支。SLO 有余量（%[3]v%% 的请求未达标，允许 %[4]v%%），工作节点只有 %[1]v%% 的时间在工作（平均 %[2]v 个）：请降低 min_workers 或空闲超时，或让每个工作节点处理更多请求，然后再次模拟。"},
	"sim.advice.scale_down.mixed":      {"Advice: spend less. The SLO holds with margin (%[3]v%% of requests over it, %[4]v%% allowed) and replicas busy only %[1]v%% of the time (%[2]v on average): lower the on-demand floor or raise the target per replica, and simulate again.", "建议：降低开支。SLO 有余量（%[3]v%% 的请求未达标，允许 %[4]v%%），副本只有 %[1]v%% 的时间在工作（平均 %[2]v 个）：请降低按需副本下限或提高每副本目标值，然后再次模拟。"},
	"sim.advice.tight":                 {"Advice: add margin. The SLO holds, but %[1]v%% of requests missed it against %[2]v%% allowed: a busier day may break it; keep a spare replica or scale up sooner.", "建议：留出余量。虽然满足 SLO，但有 %[1]v%% 的请求未达标（允许 %[2]v%%）：更繁忙的一天可能突破上限；请保留一个备用副本或更早扩容。"},
	"sim.advice.keep":                  {"Advice: nothing to change. %[1]v%% of requests missed the SLO against %[2]v%% allowed, with replicas busy %[3]v%% of the time.", "建议：无需调整。%[1]v%% 的请求未满足 SLO（允许 %[2]v%%），副本 %[3]v%% 的时间在工作。"},
	"search.in":                        {" in %s", "（%s）"},
	"search.best":                      {"Cheapest that meets the SLO: %s with %s: $%.2f, p95 %.3f s, %.2f%% violations, utilisation %.0f%%", "满足 SLO 的最便宜方案：%s，%s：%.2f 美元，p95 %.3f 秒，违反率 %.2f%%，利用率 %.0f%%"},
	"search.none":                      {"No candidate policy meets the SLO; the closest are below.", "没有候选策略满足 SLO；最接近的如下。"},
	"search.candidate":                 {"CANDIDATE", "候选"},
	"search.policy":                    {"POLICY", "策略"},
	"search.cost":                      {"COST $", "成本（美元）"},
	"search.p95":                       {"P95 s", "P95（秒）"},
	"search.violations":                {"VIOLATIONS %", "违反率 %"},
	"search.util":                      {"UTIL %", "利用率 %"},
	"search.met":                       {"met", "满足"},
	"search.missed":                    {"missed", "未满足"},
	"search.runs":                      {"%d simulations run.", "共运行 %d 次模拟。"},
}

// tc renders the CLI phrase key in l, formatted with args.
func tc(l Lang, key string, args ...any) string { return phrase(cliMessages, l, key, args...) }

// CLIText is a fixed phrase of the commands (a note on stderr, a message)
// in l, for the cli package.
func CLIText(l Lang, key string, args ...any) string { return tc(l, key, args...) }

// SimulationIn is r as its JSON answer gives it in l: a copy whose
// advice carries its sentence (r is not changed: a job's result is shared
// by the polls in every language).
func SimulationIn(r *autoscale.Result, l Lang) *autoscale.Result {
	if r == nil || r.Advice == nil {
		return r
	}
	c, a := *r, *r.Advice
	a.Sentence = AdviceText(l, r)
	c.Advice = &a
	return &c
}

// AdviceText is a run's advice as a sentence in l ("" for none), in the
// words of its policy where they differ.
func AdviceText(l Lang, r *autoscale.Result) string {
	a := r.Advice
	if a == nil {
		return ""
	}
	args := make([]any, len(a.Args))
	for i, v := range a.Args {
		args[i] = v
	}
	key := "sim.advice." + a.Code
	if _, ok := cliMessages[key+"."+r.Policy]; ok {
		key += "." + r.Policy
	}
	return tc(l, key, args...)
}
