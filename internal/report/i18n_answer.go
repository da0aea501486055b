package report

import (
	"github.com/gpupick/gpupick/internal/advisor"
)

// answerMessages holds the phrases of the answer block and of the
// reports that open with it, in English and Chinese. They are kept apart
// from messages (i18n.go) so each has one owner.
var answerMessages = map[string][2]string{
	// The answer.
	"head_job":              {"Run it on %s in %s (%s): %s, about %s, %s in total.", "选择 %s（%s，%s）：%s，约 %s，总成本 %s。"},
	"head_job_noprice":      {"Run it on %s in %s (%s): %s, about %s; its price is unknown.", "选择 %s（%s，%s）：%s，约 %s；价格未知。"},
	"head_svc":              {"Serve it on %s in %s (%s): %s on %s, %s per month (%s per hour), time to first token %s, per output token %s.", "选择 %s（%s，%s）部署服务：%s，共 %s，每月 %s（每小时 %s），首 token 延迟 %s，每 token 延迟 %s。"},
	"head_svc_noprice":      {"Serve it on %s in %s (%s): %s on %s; its price is unknown.", "选择 %s（%s，%s）部署服务：%s，共 %s；价格未知。"},
	"head_none":             {"Nothing qualifies: all %s candidates evaluated were excluded.", "没有符合条件的候选：评估的 %s 个候选全部被排除。"},
	"head_none_near":        {"Nothing qualifies: all %s candidates evaluated were excluded; the nearest is %s.", "没有符合条件的候选：评估的 %s 个候选全部被排除；最接近的是%s。"},
	"short_deadline":        {"%s in %s with a deadline of %s", " %s（%s），截止时间需放宽到 %s"},
	"short_budget":          {"%s in %s with a budget of %s", " %s（%s），预算需放宽到 %s"},
	"short_maxgpus":         {"%s in %s with constraints.max_gpus %d", " %s（%s），constraints.max_gpus 需放宽到 %d"},
	"short_pricing":         {"%s in %s on %s pricing", " %s（%s），采用%s计费"},
	"replicas_n":            {"%d replica(s)", "%d 个副本"},
	"instances_n":           {"%d instance(s) of %d × %s", "%d 台实例（每台 %d 块 %s）"},
	"gpus_n":                {"%d × %s", "%d 块 %s"},
	"hours_v":               {"%s h", "%s 小时"},
	"ms_v":                  {"%s ms", "%s 毫秒"},
	"per_month_v":           {"%s/month", "%s/月"},
	"per_hour_v":            {"%s/hour", "%s/小时"},
	"obj_cost":              {"Ranked by total cost: the cheapest candidate that meets every constraint comes first.", "按总成本排名：满足全部约束的最便宜候选排在第一。"},
	"obj_cost_svc":          {"Ranked by cost per month at the requested load: the cheapest fleet that meets the SLO comes first.", "按给定负载下的每月成本排名：满足 SLO 的最便宜机群排在第一。"},
	"obj_time":              {"Ranked by time to finish: the fastest candidate comes first, whatever it costs.", "按完成时长排名：最快的候选排在第一，不论成本。"},
	"obj_time_svc":          {"Ranked by the latency of one answer: the fastest fleet comes first, whatever it costs.", "按单次回答的延迟排名：最快的机群排在第一，不论成本。"},
	"obj_tpd":               {"Ranked by cost per unit of work (%s): the most work per dollar comes first.", "按单位工作量成本（%s）排名：每美元完成工作最多的排在第一。"},
	"obj_balanced":          {"Ranked by cost and time together (the product of each relative to the best): a candidate both cheap and fast comes first.", "按成本与时长综合排名（各自相对最优值之积）：既便宜又快的候选排在第一。"},
	"factor":                {"%[1]s: %[2]s, against %[4]s for %[3]s (%[5]s).", "%[1]s：%[2]s，%[3]s 为 %[4]s（%[5]s）。"},
	"lower":                 {"%s lower", "低 %s"},
	"higher":                {"%s higher", "高 %s"},
	"times":                 {"%s times as high", "是其 %s 倍"},
	"same":                  {"the same", "相同"},
	"f_total_cost":          {"Total cost", "总成本"},
	"f_cost_per_month":      {"Cost per month", "每月成本"},
	"f_duration":            {"Time to finish", "完成时长"},
	"f_price_per_hour":      {"Price per hour of the fleet", "机群每小时价格"},
	"f_throughput":          {"Throughput", "吞吐"},
	"f_unit_cost":           {"Cost per unit of work", "单位工作量成本"},
	"f_replicas":            {"Replicas", "副本数"},
	"f_ttft":                {"Time to first token", "首 token 延迟"},
	"f_tpot":                {"Time per output token", "每 token 延迟"},
	"near_deadline":         {"%s in %s (%s) would qualify with a deadline of %s (now %s): it takes %s and costs %s.", "%s（%s，%s）在截止时间放宽到 %s（现为 %s）时即可入选：需 %s，成本 %s。"},
	"near_deadline_noprice": {"%s in %s (%s) would qualify with a deadline of %s (now %s): it takes %s; its price is unknown.", "%s（%s，%s）在截止时间放宽到 %s（现为 %s）时即可入选：需 %s；价格未知。"},
	"near_budget":           {"%s in %s (%s) would qualify with a budget of %s (now %s): it takes %s.", "%s（%s，%s）在预算放宽到 %s（现为 %s）时即可入选：需 %s。"},
	"near_budget_svc":       {"%s in %s (%s) would qualify with a budget of %s per month (now %s).", "%s（%s，%s）在每月预算放宽到 %s（现为 %s）时即可入选。"},
	"near_maxgpus":          {"%s in %s would be evaluated with constraints.max_gpus %d (now %d): one instance has %d GPUs.", "%s（%s）在 constraints.max_gpus 放宽到 %d（现为 %d）时才会参与评估：单台实例有 %d 块 GPU。"},
	"near_pricing":          {"%s in %s would qualify on %s, a pricing mode not in constraints.pricing: it takes %s and costs %s.", "%s（%s）在 %s 计费下即可入选（该计费方式不在 constraints.pricing 中）：需 %s，成本 %s。"},
	"near_pricing_svc":      {"%s in %s would qualify on %s, a pricing mode not in constraints.pricing, at %s per month.", "%s（%s）在 %s 计费下即可入选（该计费方式不在 constraints.pricing 中），每月 %s。"},
	"near_maxgpus_svc":      {"%s in %s might serve the load with constraints.max_gpus of about %d (now %d), by the model's first estimate.", "%s（%s）在 constraints.max_gpus 放宽到约 %d（现为 %d）时或可承载负载（按模型的初步估计）。"},
	"risk_deadline":         {"The deadline of %s lies inside the 80%% range of the time (%s–%s): the job may miss it.", "截止时间 %s 落在时长的 80%% 区间（%s–%s）之内：任务可能错过截止时间。"},
	"risk_spot_risk":        {"On spot there is a %v%% chance of missing the deadline of %s; keep an on-demand fallback.", "竞价实例有 %v%% 的概率错过 %s 的截止时间；请准备按需实例作后备。"},
	"risk_spot":             {"Spot instances: about %v interruptions expected; checkpoint every %v h (the lost work is in the cost).", "竞价实例：预计约 %v 次中断；每 %v 小时保存一次检查点（损失的工作已计入成本）。"},
	"risk_spot_unheld":      {"Spot is unlikely to hold %v instance(s) for the whole job (%v%% chance): about %v interruptions expected and %v h waiting for capacity; it is ranked at that expected cost, not at its list price.", "竞价实例难以在整个任务期间保住 %v 台实例（概率 %v%%）：预计约 %v 次中断、等待容量约 %v 小时；排名按该期望成本而非目录价。"},
	"risk_spot_service":     {"A service on spot: about %v interruptions a month over the fleet; each replica is away %v%% of the time (%v h waiting for capacity, then a cold start that reloads the weights): keep spare replicas or an on-demand fallback.", "竞价实例上的服务：整个机群每月约 %v 次中断；每个副本约 %v%% 的时间不可用（等待容量约 %v 小时，再冷启动重新加载权重）：请保留备用副本或按需实例后备。"},
	"risk_spot_point":       {"The spot price is one zone's or listing's price at one moment: what you pay may be %v–%v times it; the cost range is widened.", "竞价价格只是某一可用区或某个挂单在某一时刻的价格：实际支付可能是它的 %v–%v 倍；成本区间已相应放宽。"},
	"risk_egress_unknown":   {"The egress price of %v is unknown: %v GB leaving it are priced at an assumed $%v/GB; ask the provider.", "%v 的出网流量价格未知：流出的 %v GB 按假定的 %v 美元/GB 计价；请向云厂商确认。"},
	"risk_old_price":        {"The price is from %v, %v years old: it may well have changed; the cost range is widened with its age. Ask the provider for a current quote.", "价格来自 %v，已有 %v 年：很可能已变化；成本区间已按其年龄放宽。请向云厂商索取最新报价。"},
	"head_old_price":        {" Its price is from %v, more than a year old: get a current quote before you sign.", "其价格来自 %v，已超过一年：签约前请获取最新报价。"},
	"risk_reserved":         {"%v pays off only above %v%% use of the term and this job uses %v%%: the idle rest is paid for.", "%v 仅在期限内使用率超过 %v%% 时划算，本任务仅使用 %v%%：闲置部分也要付费。"},
	"risk_stack":            {"The software stack needs work: %s", "软件栈需要适配：%s"},
	"risk_compliance":       {"Compliance: %s", "合规：%s"},
	"risk_low_conf":         {"The prediction is less sure than usual: this accelerator's efficiency is not calibrated on published results.", "预测把握低于一般水平：该加速卡的效率未经公开结果校准。"},
	"risk_close":            {"#1 and #2 are within the model's error: #1 is better with probability %.0f%% only; measure both with gpupick probe before committing.", "第 1 名与第 2 名在模型误差范围内：第 1 名更优的概率仅为 %.0f%%；承诺前请用 gpupick probe 实测两者。"},
	"risk_stale":            {"The price is from %v, more than %d days ago: check it with the provider before you sign.", "价格发布于 %v，已超过 %d 天：签约前请向云厂商核实。"},
	"risk_price":            {"No published price: the cost cannot be compared; ask the provider for a quote.", "没有公开价格：无法比较成本；请向云厂商询价。"},
	"risk_low_util":         {"The GPUs are busy %v%% of the time (%s): part of what is paid for waits.", "GPU 仅 %v%% 的时间在工作（%s）：所付费用有一部分在等待。"},
	"risk_region":           {"Region %v is inferred: the price source does not list this type in this region; check that it is sold there.", "区域 %v 为推断：价格来源未列出该机型在此区域；请确认该区域确有售卖。"},
	"risk_slo":              {"The predicted %s of %s is within 10%% of the SLO (%s): little headroom for bursts.", "预测的%s %s 距 SLO（%s）不足 10%%：应对突发的余量很小。"},
	"ttft_name":             {"time to first token", "首 token 延迟"},
	"tpot_name":             {"time per output token", "每 token 延迟"},

	// The reports around it.
	"answer":             {"Answer", "结论"},
	"why_runner":         {"Why not %s (#%d), the best other instance type:", "为何不选 %s（第 %d 名，其他机型中最好的）："},
	"no_runner":          {"No other instance type qualifies.", "没有其他机型符合条件。"},
	"cost_head":          {"Cost", "成本"},
	"cost_line":          {"compute %s + storage %s + egress %s + setup %s + spot overhead %s = %s", "计算 %s + 存储 %s + 出网流量 %s + 准备 %s + 竞价中断损失 %s = %s"},
	"cost_month":         {"Cost per month", "每月成本"},
	"range80":            {"80%% range %s–%s", "80%% 区间 %s–%s"},
	"time_head":          {"Time", "时长"},
	"svc_head":           {"Service", "服务"},
	"svc_line":           {"%s; %s per hour, %s per month, %s per million tokens", "%s；每小时 %s，每月 %s，每百万 token %s"},
	"latency_line":       {"time to first token %s, per output token %s", "首 token 延迟 %s，每 token 延迟 %s"},
	"slo_vs":             {"%s (SLO %s)", "%s（SLO %s）"},
	"sure_same":          {"#2 is the same instance type in another region or pricing mode (#1 ahead with probability %.0f%%): a tie on the same hardware, which no measurement settles; the price decides.", "第 2 名是同一机型的其他区域或计费方式（第 1 名领先的概率为 %.0f%%）：同一硬件之间的平手，实测无法区分，由价格决定。"},
	"conf_head":          {"How sure", "把握"},
	"risks_head":         {"Risks", "风险"},
	"no_risks":           {"No risk flagged for the pick.", "首选没有需要提示的风险。"},
	"near_head":          {"Near misses (one constraint relaxed)", "差一点入选（放宽一个约束）"},
	"level_high":         {"high", "高"},
	"level_medium":       {"medium", "中"},
	"level_low":          {"low", "低"},
	"also_in":            {"also in %d other regions", "另有 %d 个区域"},
	"comma":              {", ", "，"},
	"range_note_html":    {"The small figures under a value are its 80% range (p10-p90), from the model's errors on published results it was not fitted to.", "数值下方的小字为 80% 区间（p10-p90），来自模型在未参与拟合的公开结果上的误差。"},
	"also_in_1":          {"also in 1 other region", "另有 1 个区域"},
	"regions_note_wordy": {"One row per instance type, size and pricing mode, in its best-ranked region; --all-regions shows every region.", "每个机型、规模和计费方式一行，显示排名最高的区域；--all-regions 显示全部区域。"},
	"regions_note":       {"(+N) = also offered in N other regions, ranked lower; one row per instance type, size and pricing mode; --all-regions shows every region.", "(+N) = 另有 N 个区域提供，排名较低；每个机型、规模和计费方式一行；--all-regions 显示全部区域。"},
	"stale_agg":          {"Prices of %d of %d rows are older than %d days (oldest %s): check them with the provider before you sign.", "%[2]d 行中有 %[1]d 行的价格超过 %[3]d 天（最早 %[4]s）：签约前请向云厂商核实。"},
	"warn_rows":          {"%s (%s)", "%s（%s）"},
	"rows_n":             {"rows %s", "第 %s 行"},
	"nothing":            {"Nothing qualifies.", "没有符合条件的候选。"},
	"details":            {"Details", "详情"},
	"ranking":            {"Ranking", "排名"},
	"exclusions":         {"Exclusions", "排除"},
	"warnings_head":      {"Warnings", "警告"},
	"notes_head":         {"Notes", "说明"},
	"chart_job":          {"Total cost (USD) against time to finish (h), log scales; the Pareto front in red", "总成本（美元）与完成时长（小时），对数坐标；红色为帕累托前沿"},
	"chart_svc":          {"Cost per month (USD) against time to first token (ms), log scales; the Pareto front in red", "每月成本（美元）与首 token 延迟（毫秒），对数坐标；红色为帕累托前沿"},
	"chart_x_job":        {"time to finish (h)", "完成时长（小时）"},
	"chart_log_axis":     {"%s (log)", "%s（对数）"},
	"chart_x_svc":        {"time to first token (ms)", "首 token 延迟（毫秒）"},
	"chart_y_job":        {"total cost (USD)", "总成本（美元）"},
	"chart_y_svc":        {"cost per month (USD)", "每月成本（美元）"},
	"chart_deadline":     {"deadline %s h", "截止 %s 小时"},
	"chart_budget":       {"budget $%s", "预算 $%s"},
	"chart_slo":          {"SLO %s ms", "SLO %s 毫秒"},
	"total_month_col":    {"$/MONTH", "$/月"},
	"util_same":          {"Every row keeps its GPUs busy %s of the time.", "所有行的 GPU 利用率均为 %s。"},
	"excluded_by":        {"%s: %s", "%s：%s"},
	"more_regions_col":   {"ALSO IN", "其他区域"},
	"fleet_col":          {"INSTANCES", "机群"},
	"pref_head":          {"preferred %s is %s", "偏好要求 %s %s"},
	"agg_unknown":        {"%s: the catalog does not know for these offers; ask each provider before counting on it", "%s：目录中没有这些实例的相关信息；请先向各云厂商确认"},
	"fleet_cell":         {"%d × %d %s", "%d 台 × %d 块 %s"},
	"excl_group":         {"%s %s (e.g. %s in %s: %s)", "%s 个%s（例如 %s，%s：%s）"},
	"note":               {"Note", "说明"},
	"ranking_sum":        {"Ranking: %d rows of %s candidates", "排名：%d 行，共 %s 个候选"},
	"warnings_sum":       {"Warnings (%d)", "警告（%d 条）"},
	"compare_workload":   {"The saved run is for workload %s, this one for %s.", "保存的结果针对工作负载 %s，本次针对 %s。"},
	"and_more":           {" and %d more", " 等另外 %d 个"},
	// The story of one candidate (recommend --explain, the API's explain).
	"ex_head":          {"%s in %s (%s): %d x %s on %d instance(s), %s", "%s（%s，%s）：%d 块 %s，%d 台实例，%s"},
	"ex_fix":           {"Fix: %s", "改进：%s"},
	"ex_speed":         {"Throughput %.6g %s; utilisation %.0f%%; bottleneck %s; MFU %.1f%%; confidence %s", "吞吐 %.6g %s；利用率 %.0f%%；瓶颈 %s；MFU %.1f%%；置信度 %s"},
	"ex_wall":          {"Wall-clock time %.1f h (transfer %.1f h, setup %.2f h, productive %.1f h)", "完成时长 %.1f 小时（传输 %.1f 小时，准备 %.2f 小时，有效计算 %.1f 小时）"},
	"ex_total":         {"total cost", "总成本"},
	"ex_month":         {"cost per month", "每月成本"},
	"ex_range":         {"80%% range: %s $%s-%s", "80%% 区间：%s $%s-%s"},
	"ex_range_time":    {", wall-clock time %.1f-%.1f h", "，完成时长 %.1f-%.1f 小时"},
	"ex_basis":         {" (%s)", "（%s）"},
	"ex_rule":          {"; your price from rule %q", "；您的价格来自规则 %q"},
	"ex_price":         {"Price: $%.2f per instance-hour (list $%.2f%s), source %s, as of %s", "价格：每实例小时 $%.2f（目录价 $%.2f%s），来源 %s，日期 %s"},
	"ex_service":       {"Service: %d replica(s) on %d instance(s), $%.2f per hour, $%.0f per month", "服务：%d 个副本，%d 台实例，每小时 $%.2f，每月 $%.0f"},
	"ex_unit":          {"Unit cost: %.4g %s", "单位成本：%.4g %s"},
	"ex_cost_notes":    {"Cost notes", "成本说明"},
	"ex_assumptions":   {"Prediction assumptions", "预测假设"},
	"ex_lost_noprice":  {"its price is unknown, so it cannot be ranked by cost.", "价格未知，无法按成本排名。"},
	"ex_lost_more":     {"it costs $%.0f more (%+.0f%%)", "多花 $%.0f（%+.0f%%）"},
	"ex_lost_cheaper":  {"it is $%.0f cheaper", "便宜 $%.0f"},
	"ex_lost_slower":   {"takes %.1fx as long (%.1f h against %.1f h)", "耗时为其 %.1f 倍（%.1f 小时对 %.1f 小时）"},
	"ex_lost_faster":   {"finishes %.1fx faster", "快 %.1f 倍"},
	"ex_lost_gpuhour":  {"pays $%.2f per GPU-hour against $%.2f", "每 GPU 小时 $%.2f，对方 $%.2f"},
	"ex_lost_pergpu":   {"each GPU delivers %.0f%% of the winner's per-GPU throughput (its bottleneck: %s)", "每块 GPU 的吞吐为第一名的 %.0f%%（其瓶颈：%s）"},
	"ex_lost_egress":   {"moving the data costs $%.0f in egress", "迁移数据需 $%.0f 出网流量费"},
	"ex_winner":        {"#1 %s (%s, %d x %s, %s)", "#1 %s（%s，%d 块 %s，%s）"},
	"ex_all_modes":     {"all pricing modes", "所有计费方式"},
	"ex_excl_line":     {"  - %s, %d GPUs, %s: %s", "  - %s，%d 块 GPU，%s：%s"},
	"ex_excluded":      {"%s was excluded:", "%s 已被排除："},
	"no_pick":          {"none (nothing qualified)", "无（没有符合条件的候选）"},
	"compare_head":     {"Changes since %s", "与 %s 相比的变化"},
	"compare_new_pick": {"New #1: %s. It was %s.", "新的第 1 名：%s。原为 %s。"},
	"compare_same":     {"Same #1: %s.", "第 1 名不变：%s。"},
	"compare_cost":     {"Cost of #1: %s, was %s (%s).", "第 1 名成本：%s，原为 %s（%s）。"},
	"compare_time":     {"Time of #1: %s, was %s (%s).", "第 1 名时长：%s，原为 %s（%s）。"},
	"compare_appeared": {"Appeared in the ranking: %s.", "新进入排名：%s。"},
	"compare_gone":     {"Left the ranking: %s.", "退出排名：%s。"},
	"compare_none":     {"No change in the candidates shown.", "所显示的候选没有变化。"},
}

// am returns the answer phrase key in l, formatted with args.
func am(l Lang, key string, args ...any) string { return phrase(answerMessages, l, key, args...) }

// reasonMaxGPUsZh is the Chinese phrase of advisor.ReasonMaxGPUs; it joins
// the other reasons' phrases (i18n.go) at start-up.
const reasonMaxGPUsZh = "单台实例的 GPU 数超过 constraints.max_gpus"

func init() {
	if _, ok := reasonZh[advisor.ReasonMaxGPUs]; !ok {
		reasonZh[advisor.ReasonMaxGPUs] = reasonMaxGPUsZh
	}
}

// throughputUnitZh names the throughput units in Chinese.
var throughputUnitZh = map[string]string{"tokens/s": "token/秒", "images/s": "张图片/秒", "items/s": "个条目/秒"}

func throughputUnit(l Lang, u string) string {
	if l == Chinese {
		if z, ok := throughputUnitZh[u]; ok {
			return z
		}
		return Tr(l, u)
	}
	return u
}
