// gpupick web page: offers, recommendations and autoscaling simulations over
// the /api/v1 JSON API. Plain JavaScript, no framework, nothing fetched from
// other hosts. Charts are SVG drawn here. Strings for English and Chinese are
// in I18N below; every visible string goes through t(), and sentences that
// come from the API are asked for in the page's language (lang).
(function () {
  "use strict";

  // ---------- strings ----------
  var I18N = {
    en: {
      tagline: "GPU cloud servers, chosen by what the whole job costs",
      language: "Language", tab_offers: "Offers", tab_recommend: "Recommend", tab_simulate: "Simulate",
      offers_heading: "Offers", f_gpu: "GPU", f_provider: "Provider", f_country: "Country", f_pricing: "Pricing",
      f_max_price: "Max $/GPU-hour", yours: "yours", yours_title: "Your negotiated price", f_sort: "Sort", any: "any", any_od: "any (on-demand shown)", apply: "Apply",
      "m_on-demand": "on-demand", m_spot: "spot", m_monthly: "monthly", "m_reserved-1y": "reserved 1 y", "m_reserved-3y": "reserved 3 y", m_reserved: "reserved",
      s_price_per_gpu: "$/GPU-hour", s_price: "$/instance-hour", s_memory: "GPU memory",
      c_offer: "Offer", c_gpu: "GPU", c_mem: "GiB/GPU", c_vcpu: "vCPU", c_ram: "RAM GiB", c_disk: "NVMe TB",
      c_provider: "Provider", c_region: "Region", c_country: "Country",
      c_price_gpu: "{0} $/GPU-h", c_price_inst: "{0} $/instance-h", c_price_month: "{0} $/month", c_spot_gpu: "spot $/GPU-h",
      c_as_of: "Price date", price_unknown: "price unknown", not_offered: "not offered",
      price_unknown_title: "The provider sells this instance but publishes no price for it",
      not_offered_title: "The provider does not sell this instance in this pricing mode",
      prev: "‹ Previous", next: "Next ›", page_of: "page {0} of {1} · {2} offers", loading: "Loading…",
      no_offers: "No offer matches these filters.", stale: "stale", stale_title: "Price published more than 90 days ago",
      recommend_heading: "Describe a workload", workload_yaml: "Workload (YAML or JSON)", objective: "Objective",
      example: "Example", saved: "Saved workloads", choose: "choose…", no_saved: "none saved",
      from_file: "as in the file", o_cost: "lowest total cost", o_time: "shortest time", o_tpd: "most tokens per dollar",
      o_balanced: "balanced (Pareto knee)", pricing_modes: "Pricing (none checked: as in the file)", top: "Rows in the ranking",
      choose_file: "Choose a file…", probe_file: "Probe report for calibration (gpupick probe -o json)", probe_loaded: "Calibrating with {0} ({1} KB).",
      probe_bad: "{0} is not a probe report (JSON): {1}", probe_clear: "Remove the probe report",
      run_recommend: "Rank offers", save_workload: "Save this workload on the server", save_name: "Name", token: "API token",
      save: "Save", saved_ok: "Saved.", validating: "Checking…", valid: "Valid.", valid_defaults: "Valid; {0} defaults applied:",
      invalid: "{0} problem(s) in the file:", line: "line {0}", running: "Ranking offers…",
      stale_result: "The last request failed (see above); the results below are from the previous run.",
      answer_heading: "The answer", objective_used: "Objective: {0}.", nothing_qualifies: "Nothing qualifies.",
      why_heading: "Why #1 beats the runner-up", why_none: "No other instance type qualifies: there is no runner-up.",
      runner_up: "runner-up: #{0} {1}", factor: "factor", pick_col: "#1", next_col: "#{0}",
      cost_heading: "What it costs", cost_heading_month: "What it costs per month", range80: "80% range {0}–{1}", r80_label: "80% range (h)",
      time_heading: "How long", service_heading: "The service", operator_heading: "Who runs the machine", sure_heading: "How sure", risks_heading: "What could go wrong",
      near_heading: "Would qualify with one constraint relaxed", why_none_heading: "Why nothing qualifies", terms_heading: "How to pay for it", day_heading: "The service's day",
      ev_heading: "Published results near #1's job", ev_job: "Published job", ev_source: "Source", ev_measured: "Measured", ev_predicted: "gpupick predicts", ev_unit: "Unit",
      ev_distance: "Distance", ev_hint: "Distance 0 is the same job on the same hardware at the same scale; the ratio is gpupick's prediction over the measurement.",
      dd_heading: "Before signing: read or request", dd_published: "Published", dd_request: "Not published: request it from the provider.", dd_request_at: "Request it from the provider",
      no_near: "No single constraint relaxed would admit a candidate: the requirements above exclude every offer.", no_risks: "No risk flagged.",
      risk_figures: "Risk figures of #1", spot_rate: "spot interruptions per instance-hour", ckpt: "checkpoint every (h)",
      p_miss: "chance of missing the deadline", breakeven: "reserved break-even utilisation", expected_int: "expected interruptions",
      lvl_high: "high", lvl_medium: "medium", lvl_low: "low",
      slo_ok: "meets the SLO", slo_bad: "misses the SLO", vs_slo: "{0} (SLO {1})",
      download_html: "Download the HTML report", download_svg: "Download the chart (SVG)", downloading: "Preparing…",
      simulate_plan: "Simulate this plan", simulate_plan_hint: "Replays a day of this service's traffic against #1's fleet, as recommend checked it.",
      ranked: "Ranking", show_all: "Show all {0} rows", show_top: "Show the top {0}",
      all_regions: "Every region", fold_note: "One row per instance type, size and pricing mode, in its best-ranked region; (+N) = also offered in N other regions, ranked lower ({0} candidates in all).",
      every_region_note: "One row per candidate: every region ({0} candidates).",
      c_compare: "Compare", c_rank: "#", c_gpus: "GPUs", c_replicas: "Replicas", c_pricing: "Pricing",
      c_hours: "Hours", c_total: "Total $", r80: " (80% range)", c_unit: "{0}",
      c_per_hour: "$/hour", c_per_month: "$/month", c_per_mtok: "$/M tokens", c_ttft: "TTFT ms", c_tpot: "TPOT ms",
      c_latency_s: "Latency s", c_per_kimg: "$/K images",
      cheaper: "cheaper", faster: "faster",
      conf_clear: "#1 is {0} than #2 ({1}) with probability {2}% given both predictions' 80% ranges.",
      conf_close: "#1 and #2 ({0}) cannot be told apart: #1 is {1} with probability {2}% within the model's uncertainty. A probe on trial servers (gpupick probe --gpu-bench, then --calibrate) would settle it.",
      c_bottleneck: "Bottleneck", c_flags: "Flags", pareto: "Pareto", warnings_n: "{0} warning(s)",
      compare: "Compare selected", compare_hint: "Tick two or three rows.", compare_heading: "Side by side",
      caption_job: "Total cost against duration of {0} candidates; filled points are on the Pareto front.",
      caption_svc: "Cost per month against time to first token of {0} candidates; filled points are on the Pareto front.",
      caption_img: "Cost per month against latency per image of {0} candidates; filled points are on the Pareto front.",
      x_latency_s: "latency per image (s)",
      excluded: "Excluded offers", excluded_n: "Excluded offers ({0})", excluded_none: "None.", excluded_all: "Show all {0}",
      no_candidates: "No offer can run this workload. See the excluded offers below.",
      x_hours: "time to finish (h)", y_cost: "total cost (USD)", x_ttft: "time to first token (ms)", y_month: "cost per month (USD)",
      lim_deadline: "deadline {0} h", lim_budget: "budget ${0}", lim_slo_ms: "SLO {0} ms", lim_slo_s: "SLO {0} s", log: " (log)",
      no_chart: "No candidate has both a cost and a duration to plot.",
      caption_unplotted: " {0} of the {1} candidates have no price and are not drawn.",
      detail_heading: "#{0} {1}", close: "Close", cost_breakdown: "Cost breakdown",
      compute: "compute", storage: "storage", egress: "egress", setup: "setup", spot_overhead: "spot overhead", total: "total",
      warnings: "Warnings", no_warnings: "No warnings.", verdicts: "Verdicts", compat: "Software stack", compliance: "Compliance",
      explain: "Full reasoning", checking: "Checking…", failed: "Failed: {0}",
      gpus: "GPUs", instances: "instances", price_h: "price $/instance-hour", hours: "hours", throughput: "throughput", utilization: "utilization",
      bottleneck: "bottleneck", unit_cost: "unit cost", tokens_per_dollar: "tokens per $", price_date: "price date",
      per_month: "$ per month", per_hour: "$ per hour", per_mtok: "$ per million tokens", replicas: "replicas",
      per_kimg: "$ per thousand images", latency_img: "latency per image", img_batch: "images per pipeline call",
      lat_vs_slo: "{0} s (SLO: p{2} ≤ {1} s)",
      ttft: "time to first token (ms)", tpot: "time per output token (ms)", region: "region", plan: "plan",
      slice: "GPU slice", slice_mig: "MIG {0}, {1} to a GPU: {2} of the compute, {3} of the memory bandwidth, {4} GB",
      slice_fraction: "{0} of one {1}: {2} GB", slice_replica_h: "; {0} per replica-hour",
      pricing: "pricing", warnings_count: "warnings",
      fresh: "Prices: {0} offer(s) from {1} provider(s){2}, {3}; {4}", fresh_priced: " ({0} with a price)",
      fresh_dates: "as of {0} to {1} (median {2})", fresh_date: "as of {0}", fresh_stale: "{0} older than {1} days ({2}).",
      fresh_none_stale: "none older than {0} days.", fresh_more: "{0} and {1} more", fresh_sep: ", ",
      fresh_unpriced: "Prices: none of the {0} offer(s) has a published price.",
      simulate_heading: "Simulate autoscaling", service_yaml: "Service (YAML)", run_sim: "Run", cancel: "Cancel",
      sim_workload: "Workload of a model service (service.kind: model)", trace_file: "Trace to replay (traffic.kind: trace; CSV)",
      trace_loaded: "Replaying {0} ({1} KB).", sim_search: "Search for the cheapest policy (and offer) that meets the SLO",
      sim_queued: "Queued…", sim_running: "Running… {0}%", sim_done: "Done.", sim_canceled: "Cancelled.",
      ch_traffic: "Traffic (requests/s)", ch_replicas: "Replicas", ch_latency: "p95 latency (s)", x_time_h: "time (h)",
      requests: "requests", completed: "completed", dropped: "dropped", latency_p95: "latency p95 (s)", latency_p99: "latency p99 (s)",
      ttft_p95: "TTFT p95 (s)", slo_violations: "SLO violations", slo_met: "SLO met", yes: "yes", no: "no",
      replica_hours: "replica-hours", cost_usd: "cost ($)", peak_replicas: "peak replicas", cold_starts: "cold starts",
      search_heading: "Cheapest policy that meets the SLO", search_none: "No policy tried meets the SLO; the closest:",
      search_evaluated: "{0} runs.", s_candidate: "Offer", s_policy: "Policy", s_cost: "Cost $", s_viol: "SLO violations",
      s_p95: "p95 latency s", s_meets: "Meets SLO",
      commit_heading: "Committed base", cm_term: "Term", cm_base: "Committed", cm_price: "$/h each", cm_held: "Held",
      cm_cost: "Cost $", cm_od: "All on-demand $", cm_instances: "{0} instance(s)", cm_replicas: "{0} replica(s)",
      commit_best: "Commit {0} on {1} and pay on-demand above them: {2} over the run against {3} all on demand ({4} less). A committed unit pays off when held more than {5} of the time; the run stands for the traffic the term repeats.",
      commit_none: "No commitment pays off: none of the on-demand units is held {0} of the run, the least at which {1} beats on-demand.",
      footer: "Prices in US dollars; stale prices are flagged.",
      "b_compute": "compute", "b_memory-bandwidth": "memory bandwidth", "b_interconnect": "interconnect", "b_network": "network",
      "b_storage": "storage", "b_cpu": "CPU", "b_memory-capacity": "memory capacity",
      "r_does_not_fit": "does not fit in memory", "r_misses_deadline": "misses the deadline", "r_spot_deadline_risk": "spot puts the deadline at risk",
      "r_over_budget": "over budget", "r_no_price_in_mode": "no price in that pricing mode", "r_provider_not_allowed": "provider not allowed",
      "r_vendor_not_allowed": "accelerator vendor not accepted", "r_cannot_cluster": "cannot form a cluster",
      "r_cannot_serve_load": "cannot serve the load", "r_incompatible": "software stack incompatible", "r_non_compliant": "not compliant",
      "r_operator_not_allowed": "run by an independent host not accepted",
      "r_exceeds_max_gpus": "more GPUs than constraints.max_gpus",
      "v_compatible": "compatible", "v_needs-work": "needs work", "v_incompatible": "incompatible", "v_pass": "pass", "v_fail": "fail", "v_unknown": "unknown",
      "q_residency": "data residency", "q_jurisdiction": "jurisdiction", "q_operator": "operator", "q_certification": "certification {0}",
      "q_confidential_computing": "confidential computing", "q_customer_managed_keys": "customer-managed keys", "q_secure_boot": "secure boot",
      "q_data_localisation_cn": "China data localisation", "q_mlps": "MLPS 2.0 level",
      "fc_total_cost": "total cost", "fc_duration": "duration", "fc_price_per_hour": "price per hour", "fc_throughput": "throughput",
      "fc_ttft": "time to first token", "fc_tpot": "time per output token", "fc_per_month": "cost per month", "fc_replicas": "replicas",
      "fc_tokens_per_dollar": "tokens per dollar", "fc_unit_cost": "unit cost", "fc_gpus": "GPUs", "fc_cost_per_month": "cost per month",
      "fc_latency": "latency"
    },
    zh: {
      tagline: "按整个任务的真实成本挑选 GPU 云服务器",
      language: "语言", tab_offers: "报价", tab_recommend: "推荐", tab_simulate: "模拟",
      offers_heading: "云服务器报价", f_gpu: "GPU", f_provider: "云厂商", f_country: "国家/地区", f_pricing: "计费方式",
      f_max_price: "最高 $/GPU·小时", yours: "协议价", yours_title: "贵团队的协议价格", f_sort: "排序", any: "不限", any_od: "不限（显示按需价格）", apply: "筛选",
      "m_on-demand": "按需", m_spot: "抢占式", m_monthly: "包月", "m_reserved-1y": "预留 1 年", "m_reserved-3y": "预留 3 年", m_reserved: "预留",
      s_price_per_gpu: "$/GPU·小时", s_price: "$/实例·小时", s_memory: "显存",
      c_offer: "报价", c_gpu: "GPU", c_mem: "显存 GiB/卡", c_vcpu: "vCPU", c_ram: "内存 GiB", c_disk: "NVMe TB",
      c_provider: "云厂商", c_region: "区域", c_country: "国家/地区",
      c_price_gpu: "{0} $/GPU·时", c_price_inst: "{0} $/实例·时", c_price_month: "{0} $/月", c_spot_gpu: "抢占式 $/GPU·时",
      c_as_of: "价格日期", price_unknown: "价格未知", not_offered: "不提供",
      price_unknown_title: "云厂商销售此实例，但未公开价格",
      not_offered_title: "云厂商不以此计费方式销售此实例",
      prev: "‹ 上一页", next: "下一页 ›", page_of: "第 {0} / {1} 页 · 共 {2} 条报价", loading: "加载中…",
      no_offers: "没有符合筛选条件的报价。", stale: "过期", stale_title: "价格发布已超过 90 天",
      recommend_heading: "描述工作负载", workload_yaml: "工作负载（YAML 或 JSON）", objective: "优化目标",
      example: "示例", saved: "已保存的工作负载", choose: "请选择…", no_saved: "暂无",
      from_file: "按文件设置", o_cost: "总成本最低", o_time: "时间最短", o_tpd: "每美元 token 最多",
      o_balanced: "均衡（帕累托拐点）", pricing_modes: "计费方式（不勾选则按文件设置）", top: "排名显示行数",
      choose_file: "选择文件…", probe_file: "用于校准的探测报告（gpupick probe -o json）", probe_loaded: "使用 {0}（{1} KB）校准。",
      probe_bad: "{0} 不是探测报告（JSON）：{1}", probe_clear: "移除探测报告",
      run_recommend: "开始排名", save_workload: "在服务器上保存此工作负载", save_name: "名称", token: "API 令牌",
      save: "保存", saved_ok: "已保存。", validating: "检查中…", valid: "有效。", valid_defaults: "有效；使用了 {0} 个默认值：",
      invalid: "文件中有 {0} 个问题：", line: "第 {0} 行", running: "正在为报价排名…",
      stale_result: "上一次请求失败（见上方）；下面是之前一次的结果。",
      answer_heading: "结论", objective_used: "优化目标：{0}。", nothing_qualifies: "没有符合条件的候选。",
      why_heading: "第 1 名为何胜过次优选择", why_none: "没有其他实例类型符合条件，因此没有次优选择。",
      runner_up: "次优：第 {0} 名 {1}", factor: "因素", pick_col: "第 1 名", next_col: "第 {0} 名",
      cost_heading: "成本", cost_heading_month: "每月成本", range80: "80% 区间 {0}–{1}", r80_label: "80% 区间（小时）",
      time_heading: "耗时", service_heading: "服务规模", operator_heading: "谁运营机器", sure_heading: "把握有多大", risks_heading: "可能的风险",
      near_heading: "放宽一项约束即可符合条件", why_none_heading: "为何没有符合条件的候选", terms_heading: "如何付费", day_heading: "服务的一天",
      ev_heading: "与第 1 名任务最接近的已发表结果", ev_job: "已发表的任务", ev_source: "来源", ev_measured: "实测", ev_predicted: "gpupick 预测", ev_unit: "单位",
      ev_distance: "距离", ev_hint: "距离 0 表示同一任务、同一硬件、同一规模；比值为 gpupick 预测值除以实测值。",
      dd_heading: "签约前：应阅读或索取", dd_published: "已公开", dd_request: "未公开：需向云厂商索取。", dd_request_at: "需向云厂商索取",
      no_near: "仅放宽一项约束也无法让任何候选符合条件：上述要求排除了所有报价。", no_risks: "未发现风险。",
      risk_figures: "第 1 名的风险数据", spot_rate: "每实例·小时抢占次数", ckpt: "检查点间隔（小时）",
      p_miss: "错过截止时间的概率", breakeven: "预留实例回本利用率", expected_int: "预计中断次数",
      lvl_high: "高", lvl_medium: "中", lvl_low: "低",
      slo_ok: "满足 SLO", slo_bad: "未满足 SLO", vs_slo: "{0}（SLO {1}）",
      download_html: "下载 HTML 报告", download_svg: "下载图表（SVG）", downloading: "准备中…",
      simulate_plan: "模拟此方案", simulate_plan_hint: "用第 1 名的机群回放该服务一天的流量，与推荐时的检查相同。",
      ranked: "排名", show_all: "显示全部 {0} 行", show_top: "只显示前 {0} 个",
      all_regions: "显示全部区域", fold_note: "每个机型、规模和计费方式一行，显示排名最高的区域；(+N) = 另有 N 个区域提供，排名较低（共 {0} 个候选）。",
      every_region_note: "每个候选一行：全部区域（共 {0} 个候选）。",
      c_compare: "对比", c_rank: "#", c_gpus: "GPU", c_replicas: "副本", c_pricing: "计费",
      c_hours: "小时", c_total: "总价 $", r80: "（80% 区间）", c_unit: "{0}",
      c_per_hour: "$/小时", c_per_month: "$/月", c_per_mtok: "$/百万 token", c_ttft: "首 token 毫秒", c_tpot: "每 token 毫秒",
      c_latency_s: "延迟 秒", c_per_kimg: "$/千张图像",
      cheaper: "更便宜", faster: "更快",
      conf_clear: "按两者预测的 80% 区间，第 1 名比第 2 名（{1}）{0}的概率为 {2}%。",
      conf_close: "第 1 名与第 2 名（{0}）在模型误差范围内无法区分：第 1 名{1}的概率仅为 {2}%。在试用服务器上运行 gpupick probe --gpu-bench 再用 --calibrate 即可确定。",
      c_bottleneck: "瓶颈", c_flags: "标记", pareto: "帕累托", warnings_n: "{0} 条警告",
      compare: "对比所选", compare_hint: "勾选两到三行。", compare_heading: "并排对比",
      caption_job: "总成本与时长，共 {0} 个候选；实心点位于帕累托前沿。",
      caption_svc: "每月成本与首 token 时间，共 {0} 个候选；实心点位于帕累托前沿。",
      caption_img: "每月成本与每张图像延迟，共 {0} 个候选；实心点位于帕累托前沿。",
      x_latency_s: "每张图像延迟（秒）",
      excluded: "被排除的报价", excluded_n: "被排除的报价（{0}）", excluded_none: "无。", excluded_all: "显示全部 {0} 个",
      no_candidates: "没有报价能运行此工作负载，请查看下方被排除的报价。",
      x_hours: "完成时长（小时）", y_cost: "总成本（美元）", x_ttft: "首 token 延迟（毫秒）", y_month: "每月成本（美元）",
      lim_deadline: "截止 {0} 小时", lim_budget: "预算 ${0}", lim_slo_ms: "SLO {0} 毫秒", lim_slo_s: "SLO {0} 秒", log: "（对数）",
      no_chart: "没有同时具有成本和时长的候选，无法绘图。",
      caption_unplotted: "另有 {0} 个候选没有价格，未画出（共 {1} 个）。",
      detail_heading: "#{0} {1}", close: "关闭", cost_breakdown: "成本构成",
      compute: "计算", storage: "存储", egress: "出网流量", setup: "准备", spot_overhead: "抢占开销", total: "合计",
      warnings: "警告", no_warnings: "没有警告。", verdicts: "结论", compat: "软件栈兼容性", compliance: "合规",
      explain: "完整推理过程", checking: "检查中…", failed: "失败：{0}",
      gpus: "GPU 数", instances: "台实例", price_h: "价格 $/实例·小时", hours: "小时", throughput: "吞吐量", utilization: "利用率",
      bottleneck: "瓶颈", unit_cost: "单位成本", tokens_per_dollar: "每美元 token 数", price_date: "价格日期",
      per_month: "$ / 月", per_hour: "$ / 小时", per_mtok: "$ / 百万 token", replicas: "副本数",
      per_kimg: "$ / 千张图像", latency_img: "每张图像延迟", img_batch: "每次生成调用的图像数",
      lat_vs_slo: "{0} 秒（SLO：p{2} ≤ {1} 秒）",
      ttft: "首 token 时间（毫秒）", tpot: "每个输出 token 时间（毫秒）", region: "区域", plan: "部署方案",
      slice: "GPU 切片", slice_mig: "MIG {0}，每块 GPU {1} 个：算力的 {2}，显存带宽的 {3}，{4} GB",
      slice_fraction: "每台 {0} 块 {1}：{2} GB", slice_replica_h: "；每副本每小时 {0}",
      pricing: "计费", warnings_count: "警告",
      fresh: "价格：{0} 条报价，来自 {1} 家云厂商{2}，{3}；{4}", fresh_priced: "（{0} 条有价格）",
      fresh_dates: "日期 {0} 至 {1}（中位数 {2}）", fresh_date: "日期 {0}", fresh_stale: "{0} 条超过 {1} 天（{2}）。",
      fresh_none_stale: "没有超过 {0} 天的价格。", fresh_more: "{0} 等 {1} 家", fresh_sep: "、",
      fresh_unpriced: "价格：{0} 条报价均无公开价格。",
      simulate_heading: "模拟自动扩缩容", service_yaml: "服务（YAML）", run_sim: "运行", cancel: "取消",
      sim_workload: "模型服务的工作负载（service.kind: model）", trace_file: "回放的流量记录（traffic.kind: trace；CSV）",
      trace_loaded: "回放 {0}（{1} KB）。", sim_search: "搜索满足 SLO 的最便宜策略（及报价）",
      sim_queued: "排队中…", sim_running: "运行中… {0}%", sim_done: "完成。", sim_canceled: "已取消。",
      ch_traffic: "流量（请求/秒）", ch_replicas: "副本数", ch_latency: "p95 延迟（秒）", x_time_h: "时间（小时）",
      requests: "请求数", completed: "完成", dropped: "丢弃", latency_p95: "延迟 p95（秒）", latency_p99: "延迟 p99（秒）",
      ttft_p95: "首 token p95（秒）", slo_violations: "SLO 违约比例", slo_met: "满足 SLO", yes: "是", no: "否",
      replica_hours: "副本·小时", cost_usd: "成本（$）", peak_replicas: "峰值副本数", cold_starts: "冷启动次数",
      search_heading: "满足 SLO 的最便宜策略", search_none: "尝试过的策略都不满足 SLO；最接近的：",
      search_evaluated: "共运行 {0} 次。", s_candidate: "报价", s_policy: "策略", s_cost: "成本 $", s_viol: "SLO 违约比例",
      s_p95: "p95 延迟 秒", s_meets: "满足 SLO",
      commit_heading: "承诺基数", cm_term: "计费方式", cm_base: "承诺数量", cm_price: "每个 $/小时", cm_held: "占用",
      cm_cost: "成本 $", cm_od: "全部按需 $", cm_instances: "{0} 台实例", cm_replicas: "{0} 个副本",
      commit_best: "以{1}承诺 {0}，超出部分按需付费：本次运行 {2}，全部按需为 {3}（低 {4}）。承诺的单位占用超过 {5} 的时间即可回本；本次运行代表承诺期内重复的流量。",
      commit_none: "任何承诺都不划算：没有一个按需单位的占用达到运行时间的 {0}，而这是 {1} 胜过按需的最低占用。",
      footer: "价格单位为美元；过期价格会被标出。",
      "b_compute": "计算", "b_memory-bandwidth": "显存带宽", "b_interconnect": "卡间互联", "b_network": "网络",
      "b_storage": "存储", "b_cpu": "CPU", "b_memory-capacity": "显存容量",
      "r_does_not_fit": "显存放不下", "r_misses_deadline": "赶不上截止时间", "r_spot_deadline_risk": "抢占式实例危及截止时间",
      "r_over_budget": "超出预算", "r_no_price_in_mode": "该计费方式下无价格", "r_provider_not_allowed": "云厂商不在允许范围内",
      "r_vendor_not_allowed": "加速卡厂商不被接受", "r_cannot_cluster": "无法组成集群",
      "r_cannot_serve_load": "无法承载负载", "r_incompatible": "软件栈不兼容", "r_non_compliant": "不合规",
      "r_operator_not_allowed": "由不被接受的独立主机方运营",
      "r_exceeds_max_gpus": "GPU 数超过 constraints.max_gpus",
      "v_compatible": "兼容", "v_needs-work": "需要调整", "v_incompatible": "不兼容", "v_pass": "通过", "v_fail": "不通过", "v_unknown": "未知",
      "q_residency": "数据驻留", "q_jurisdiction": "司法管辖", "q_operator": "运营方", "q_certification": "认证 {0}",
      "q_confidential_computing": "机密计算", "q_customer_managed_keys": "客户管理密钥", "q_secure_boot": "安全启动",
      "q_data_localisation_cn": "中国数据本地化", "q_mlps": "等保 2.0 级别",
      "fc_total_cost": "总成本", "fc_duration": "时长", "fc_price_per_hour": "每小时价格", "fc_throughput": "吞吐量",
      "fc_ttft": "首 token 时间", "fc_tpot": "每 token 时间", "fc_per_month": "每月成本", "fc_replicas": "副本数",
      "fc_tokens_per_dollar": "每美元 token 数", "fc_unit_cost": "单位成本", "fc_gpus": "GPU 数", "fc_cost_per_month": "每月成本",
      "fc_latency": "延迟"
    }
  };

  // Units the API writes in English; shown translated.
  var UNITS_ZH = {
    "tokens/s": "token/秒", "prompt tokens/s": "提示 token/秒", "requests/s": "请求/秒", "images/s": "张图像/秒", "items/s": "项/秒", "USD": "美元", "USD/month": "美元/月",
    "USD per million tokens trained": "美元/百万训练 token", "USD per thousand images": "美元/千张图像",
    "USD per thousand items": "美元/千项", "USD per million output tokens": "美元/百万输出 token",
    "USD per million input tokens": "美元/百万输入 token", "hours": "小时", "h": "小时", "ms": "毫秒",
    "requests/s": "请求/秒", "s": "秒", "tokens per USD": "token/美元", "USD/hour": "美元/小时", "USD/h": "美元/小时", "replicas": "副本", "GPUs": "块 GPU"
  };
  function unitText(u) { return lang === "zh" && UNITS_ZH[u] ? UNITS_ZH[u] : (u || ""); }
  // shortUnit is a unit cost's unit in a few characters, for a phone's
  // row ("$/M tokens"); the column's header says it whole.
  function shortUnit(u) {
    if (/per million/.test(u || "")) return t("c_per_mtok");
    if (/per thousand images/.test(u || "")) return t("c_per_kimg");
    return unitText(u);
  }
  function coded(prefix, code) { var k = prefix + code; return I18N.en[k] ? t(k) : code; }
  // requirementLabel names a compliance requirement in the page's language
  // ("certification:ISO27001" is "certification ISO27001", 认证 ISO27001).
  function requirementLabel(name) {
    var cut = name.indexOf(":");
    if (cut > 0 && I18N.en["q_" + name.slice(0, cut)]) return t("q_" + name.slice(0, cut), name.slice(cut + 1));
    return coded("q_", name);
  }

  // The repository's examples/ files, served under examples/ (see web.go).
  var WORKLOAD_EXAMPLES = ["llama3-8b-lora.yaml", "llama3-70b-pretrain.yaml", "llama3-70b-chat.yaml", "deepseek-v3-chat.yaml", "deepseek-v3-disagg.yaml", "marco-eu-assistant.yaml", "eu-ai-act-assistant.yaml",
    "lin-70b-finetune.yaml", "embedding-batch.yaml", "sharegpt-burst.yaml", "resnet50-imagenet.yaml", "render-generic.yaml",
    "sdxl-images.yaml", "flux-image-api.yaml", "sdxl-image-service.yaml", "sdxl-shared-pool.yaml", "llama3-8b-chat-tpu.yaml"];
  var SERVICE_EXAMPLES = ["service-target.yaml", "service-fixed.yaml", "service-serverless.yaml", "service-mixed.yaml", "service-model.yaml",
    "service-image-api.yaml"];

  var lang = "en";
  function t(key) {
    var s = (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
    for (var i = 1; i < arguments.length; i++) s = s.split("{" + (i - 1) + "}").join(String(arguments[i]));
    return s;
  }

  // ---------- small helpers ----------
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function el(tag, attrs) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (attrs[k] == null) continue;
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else if (k === "style") e.style.cssText = attrs[k]; // a style attribute would break the CSP
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null) continue;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return e;
  }
  var SVGNS = "http://www.w3.org/2000/svg";
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function locale() { return lang === "zh" ? "zh-CN" : "en-US"; }
  function isNum(v) { return v != null && !isNaN(v) && isFinite(v); }
  // fixed writes v with exactly d decimals: one column shares one d.
  function fixed(v, d) {
    if (!isNum(v)) return "–";
    return Number(v).toLocaleString(locale(), { minimumFractionDigits: d, maximumFractionDigits: d });
  }
  function num(v, digits) {
    if (!isNum(v)) return "–";
    return Number(v).toLocaleString(locale(), { maximumFractionDigits: digits == null ? 2 : digits });
  }
  function usd(v, d) { return isNum(v) ? "$" + fixed(v, d == null ? 2 : d) : "–"; }
  function pct(v, d) { return isNum(v) ? fixed(v * 100, d == null ? 1 : d) + "%" : "–"; }
  function mode(m) { return m ? coded("m_", m) : "–"; }
  // decimals is how many decimals a column needs so that its smallest
  // non-zero value keeps sig significant digits (0 to 6).
  function decimals(vals, sig) {
    var m = Infinity;
    vals.forEach(function (v) { if (isNum(v) && v !== 0 && Math.abs(v) < m) m = Math.abs(v); });
    if (!isFinite(m)) return 0;
    return Math.max(0, Math.min(6, sig - 1 - Math.floor(Math.log10(m))));
  }
  // moneyDecimals: cents below $1,000, whole dollars above, more below $1.
  function moneyDecimals(vals) {
    var xs = vals.filter(isNum);
    if (xs.every(function (v) { return Math.abs(v) >= 1000 || v === 0; })) return 0;
    var small = xs.filter(function (v) { return v !== 0 && Math.abs(v) < 0.01; }).length;
    return small ? Math.min(4, Math.max(2, decimals(xs, 2))) : 2;
  }
  // sig writes v with about n significant digits.
  function sig(v, n) { return isNum(v) ? num(v, v === 0 ? 0 : decimals([v], n || 2)) : "–"; }
  function debounce(fn, ms) {
    var h, f = function () { var a = arguments; clearTimeout(h); h = setTimeout(function () { fn.apply(null, a); }, ms); };
    f.cancel = function () { clearTimeout(h); };
    return f;
  }
  function badge(text, cls, title) { return el("span", { "class": "badge " + cls, title: title, text: text }); }
  function verdictClass(v) {
    return { compatible: "ok", pass: "ok", "needs-work": "warn", unknown: "unknown", incompatible: "bad", fail: "bad" }[v] || "unknown";
  }
  function kb(s) { return num(s.length / 1024, 1); }

  // api calls the JSON API; a non-2xx answer rejects with the error object
  // {code, message, field, line} of the API's error envelope. raw: resolve
  // with the Response (for a download).
  function api(method, path, body, raw, extra) {
    var opts = { method: method, headers: { "Accept": raw ? "*/*" : "application/json" } };
    if (extra) Object.keys(extra).forEach(function (k) { opts.headers[k] = extra[k]; });
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    var tok = $("#api-token") && $("#api-token").value;
    if (tok) opts.headers["Authorization"] = "Bearer " + tok;
    return fetch(path, opts).then(function (r) {
      if (raw && r.ok) return r;
      return r.text().then(function (txt) {
        var data = null;
        try { data = txt ? JSON.parse(txt) : null; } catch (e) { data = null; }
        if (!r.ok) throw (data && data.error) || { code: String(r.status), message: txt || r.statusText };
        return data;
      });
    });
  }
  function errText(e) {
    if (!e) return "";
    var m = e.message || e.code || String(e);
    if (e.field && m.indexOf(e.field) !== 0) m = e.field + ": " + m;
    return m;
  }
  function listOf(d) { return Array.isArray(d) ? d : (d && (d.items || d.accelerators || d.providers || d.workloads)) || []; }
  function fetchText(path) {
    return fetch(path).then(function (r) { if (!r.ok) throw { message: r.status + " " + path }; return r.text(); });
  }
  function readFile(input) {
    return new Promise(function (resolve, reject) {
      var f = input.files && input.files[0];
      if (!f) { resolve(null); return; }
      var rd = new FileReader();
      rd.onload = function () { resolve({ name: f.name, text: String(rd.result) }); };
      rd.onerror = function () { reject(rd.error); };
      rd.readAsText(f);
    });
  }

  // ---------- tabs and language ----------
  var TABS = ["recommend", "offers", "simulate"];
  function showTab(name) {
    // Roving tabindex (WAI-ARIA tabs): Tab reaches the selected tab only;
    // the arrow keys, Home and End move between tabs.
    $$(".tabs button").forEach(function (b) {
      b.setAttribute("aria-selected", String(b.dataset.tab === name));
      b.tabIndex = b.dataset.tab === name ? 0 : -1;
    });
    $$("section.tab").forEach(function (s) { s.hidden = s.id !== "tab-" + name; });
    if (location.hash !== "#" + name) history.replaceState(null, "", location.pathname + location.search + "#" + name);
    // A chart's width is known once its tab is visible.
    if (name === "recommend" && rec.data) drawPareto();
    if (name === "simulate" && (sim.result || sim.search)) renderSim();
  }

  function setLang(l) {
    lang = I18N[l] ? l : "en";
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    $("#lang").value = lang;
    try { localStorage.setItem("gpupick.lang", lang); } catch (e) { /* private mode */ }
    $$("[data-i18n]").forEach(function (e) { e.textContent = t(e.dataset.i18n); });
    if (probe.text) showProbe();
    if (sim.trace) $("#trace-status").textContent = t("trace_loaded", sim.trace.name, kb(sim.trace.text));
    // Data sentences come from the API in one language: ask again.
    if (offers.data) renderOffers();
    if (rec.data && rec.body) { rec.body.lang = lang; fetchRecommend(rec.body, true); }
    if (sim.result || sim.search) renderSim();
    validateNow();
  }

  // ---------- offers ----------
  var offers = { page: 1, perPage: 25, data: null };
  var OFFER_FILTERS = [["gpu", "#filter-gpu"], ["provider", "#filter-provider"], ["country", "#filter-country"],
    ["pricing", "#filter-pricing"], ["max_price_per_gpu", "#filter-max-price"], ["sort", "#filter-sort"]];

  function offersQuery() {
    var q = new URLSearchParams();
    OFFER_FILTERS.forEach(function (p) { var v = $(p[1]).value.trim(); if (v) q.set(p[0], v); });
    if (offers.page > 1) q.set("page", offers.page);
    return q;
  }
  // The filters live in the query string, so that a filtered list can be
  // bookmarked and shared; readFilters puts them back.
  function readFilters() {
    var q = new URLSearchParams(location.search);
    OFFER_FILTERS.forEach(function (p) {
      var v = q.get(p[0]); if (v == null) return;
      var f = $(p[1]);
      if (f.tagName === "SELECT" && !$$("option", f).some(function (o) { return o.value === v; })) f.appendChild(el("option", { value: v, text: v }));
      f.value = v;
    });
    offers.page = Math.max(1, parseInt(q.get("page"), 10) || 1);
  }

  function loadOffers() {
    var st = $("#offers-status"), q = offersQuery();
    history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q.toString() : "") + location.hash);
    q.set("page", offers.page); q.set("per_page", offers.perPage); q.set("lang", lang);
    st.className = "status"; st.textContent = t("loading");
    var seq = offers.seq = (offers.seq || 0) + 1; // only the latest request's answer is shown
    return api("GET", "/api/v1/offers?" + q.toString()).then(function (d) {
      if (seq !== offers.seq) return;
      offers.data = d; renderOffers();
    }, function (e) {
      if (seq !== offers.seq) return;
      offers.data = null;
      clear($("#offers-table tbody"));
      $("#offers-page").textContent = "";
      st.className = "status error"; st.textContent = t("failed", errText(e));
    });
  }

  // gpus is what an offer is worth in whole GPUs: its count, or the share
  // of one GPU a slice holds (gpu_fraction, e.g. 1/6 of an A10).
  function gpus(o) { return o.gpu_count * (o.gpu_fraction || 1); }
  function gpuCount(o) {
    if (!o.gpu_fraction) return String(o.gpu_count);
    var n = Math.round(1 / o.gpu_fraction);
    return Math.abs(1 / n - o.gpu_fraction) < 0.002 ? "1/" + n : String(+o.gpu_fraction.toPrecision(3));
  }
  // modePrice is the API's price of o in mode m ({usd_per_hour,
  // usd_per_gpu_hour, usd_per_month, status}); made from the plain price
  // map for an older API.
  function modePrice(o, m) {
    var mp = (o.mode_prices || []).filter(function (x) { return x.mode === m; })[0];
    if (mp) return mp;
    var yp = o.your_prices_usd_per_hour && o.your_prices_usd_per_hour[m];
    var p = yp != null ? yp : o.prices_usd_per_hour && o.prices_usd_per_hour[m];
    if (p != null) return { usd_per_hour: p, usd_per_gpu_hour: o.gpu_count ? p / gpus(o) : null, status: yp != null ? "negotiated" : "listed" };
    var any = o.prices_usd_per_hour && Object.keys(o.prices_usd_per_hour).length;
    return { usd_per_hour: null, usd_per_gpu_hour: null, status: any || m !== "on-demand" ? "not_offered" : "unknown" };
  }
  var PRICE_OF = {
    gpu: function (mp) { return mp.usd_per_gpu_hour; },
    inst: function (mp) { return mp.usd_per_hour; },
    month: function (mp) { return mp.usd_per_month != null ? mp.usd_per_month : mp.usd_per_hour != null ? mp.usd_per_hour * 730 : null; }
  };
  // priceCell: the price, "price unknown" (sold, no published price) or
  // "not offered" (not sold in that mode): three different things.
  function priceCell(o, m, kind, d) {
    var mp = modePrice(o, m), v = PRICE_OF[kind](mp);
    if (v != null) {
      var td = el("td", { "class": "num", text: usd(v, d) });
      if (mp.status === "negotiated") td.appendChild(badge(t("yours"), "ok", t("yours_title")));
      return td;
    }
    if (mp.status === "not_offered") return el("td", { "class": "num not-offered", title: t("not_offered_title") }, el("span", { "aria-hidden": "true", text: "— " }), t("not_offered"));
    return el("td", { "class": "num price-unknown", title: t("price_unknown_title") }, t("price_unknown"));
  }
  function colPrices(items, m, kind) { return items.map(function (o) { return PRICE_OF[kind](modePrice(o, m)); }); }

  function renderOffers() {
    var d = offers.data, items = (d && d.items) || [];
    var m = $("#filter-pricing").value || "on-demand", ml = mode(m);
    var cols = [
      [t("c_offer"), ""], [t("c_gpu"), ""], [t("c_mem"), "num opt"], [t("c_vcpu"), "num opt"], [t("c_ram"), "num opt"],
      [t("c_disk"), "num opt"], [t("c_country"), "opt"],
      [t("c_price_gpu", ml), "num"], [t("c_price_inst", ml), "num opt"], [t("c_price_month", ml), "num opt"]];
    if (m !== "spot") cols.push([t("c_spot_gpu"), "num opt"]);
    cols.push([t("c_as_of"), "opt"]);
    var hr = clear($("#offers-table thead tr"));
    cols.forEach(function (c) { hr.appendChild(el("th", { "class": c[1], scope: "col", text: c[0] })); });
    var dg = moneyDecimals(colPrices(items, m, "gpu")), di = moneyDecimals(colPrices(items, m, "inst"));
    var dm = moneyDecimals(colPrices(items, m, "month")), ds = moneyDecimals(colPrices(items, "spot", "gpu"));
    var tb = clear($("#offers-table tbody"));
    items.forEach(function (o) {
      var tr = el("tr", { "data-offer": o.id },
        el("td", { "class": "offer" }, el("span", { title: o.instance_type, text: o.id }), el("small", { "class": "hint", text: " " + o.region })),
        el("td", { text: o.gpu + " × " + gpuCount(o) }),
        el("td", { "class": "num opt", text: fixed(o.gpu_memory_gib, 0) }),
        el("td", { "class": "num opt", text: o.vcpus ? String(o.vcpus) : "–" }),
        el("td", { "class": "num opt", text: o.ram_gib ? fixed(o.ram_gib, 0) : "–" }),
        el("td", { "class": "num opt", text: o.nvme_tb ? fixed(o.nvme_tb, 2) : "–" }),
        el("td", { "class": "opt", text: o.country }),
        priceCell(o, m, "gpu", dg),
        addClass(priceCell(o, m, "inst", di), "opt"),
        addClass(priceCell(o, m, "month", dm), "opt"));
      if (m !== "spot") tr.appendChild(addClass(priceCell(o, "spot", "gpu", ds), "opt"));
      tr.appendChild(el("td", { "class": "opt" }, o.as_of || "–", " ", o.stale ? badge(t("stale"), "stale", t("stale_title")) : null));
      tb.appendChild(tr);
    });
    var total = (d && d.total) || 0, pages = Math.max(1, Math.ceil(total / ((d && d.per_page) || offers.perPage)));
    $("#offers-page").textContent = t("page_of", (d && d.page) || offers.page, pages, total);
    $("#offers-prev").disabled = offers.page <= 1;
    $("#offers-next").disabled = offers.page >= pages;
    var st = $("#offers-status");
    st.className = "status"; st.textContent = items.length ? "" : t("no_offers");
  }
  function addClass(e, c) { e.classList.add(c); return e; }

  function loadFilterLists() {
    api("GET", "/api/v1/accelerators").then(function (d) {
      var dl = clear($("#gpu-list"));
      listOf(d).forEach(function (a) { dl.appendChild(el("option", { value: a.id, label: a.name })); });
    }, function () { /* the free-text field still works */ });
    return api("GET", "/api/v1/providers").then(function (d) {
      var s = $("#filter-provider"), cur = s.value;
      listOf(d).forEach(function (p) {
        if ($$("option", s).some(function (o) { return o.value === p.id; })) return;
        s.appendChild(el("option", { value: p.id, text: p.name ? p.id + " – " + p.name : p.id }));
      });
      s.value = cur;
    }, function () { /* "any" stays */ });
  }

  // ---------- examples and saved workloads ----------
  function fillExamples() {
    var s = $("#example");
    WORKLOAD_EXAMPLES.forEach(function (n) { s.appendChild(el("option", { value: n, text: n.replace(/\.yaml$/, "") })); });
    var ss = $("#sim-example");
    SERVICE_EXAMPLES.forEach(function (n) { ss.appendChild(el("option", { value: n, text: n.replace(/\.yaml$/, "") })); });
  }
  function loadExample(name) {
    if (!name) return Promise.resolve();
    return fetchText("examples/" + name).then(function (txt) { $("#workload").value = txt; validateNow(); },
      function (e) { $("#workload-status").className = "status error"; $("#workload-status").textContent = t("failed", errText(e)); });
  }
  function loadSimExample(name) {
    if (!name) return Promise.resolve();
    return fetchText("examples/" + name).then(function (txt) {
      $("#service").value = txt;
      var m = /^\s*kind:\s*model\b/m.test(txt) && /^\s*workload:\s*([\w.-]+\.ya?ml)/m.exec(txt);
      if (m && WORKLOAD_EXAMPLES.indexOf(m[1]) >= 0) return fetchText("examples/" + m[1]).then(function (w) { $("#sim-workload").value = w; });
    });
  }
  function loadSavedList() {
    return api("GET", "/api/v1/workloads").then(function (d) {
      var s = $("#saved"), items = listOf(d);
      while (s.options.length > 1) s.remove(1);
      items.forEach(function (w) { s.appendChild(el("option", { value: w.id, text: w.name || w.id })); });
      s.disabled = !items.length;
      s.options[0].textContent = items.length ? t("choose") : t("no_saved");
    }, function () { $("#saved").disabled = true; $("#saved").options[0].textContent = t("no_saved"); });
  }
  function loadSaved(id) {
    if (!id) return;
    api("GET", "/api/v1/workloads/" + encodeURIComponent(id)).then(function (d) {
      $("#workload").value = d.body || d.workload || ""; validateNow();
    }, function (e) { $("#workload-status").className = "status error"; $("#workload-status").textContent = t("failed", errText(e)); });
  }

  // ---------- workload validation ----------
  var val = { seq: 0, last: null };

  function validateNow() {
    var seq = ++val.seq, st = $("#workload-status");
    st.className = "status"; st.textContent = t("validating");
    api("POST", "/api/v1/validate", { workload: $("#workload").value, lang: lang }).then(function (d) {
      if (seq !== val.seq) return;
      val.last = d; renderValidation(d);
    }, function (e) {
      if (seq !== val.seq) return;
      val.last = { ok: false, errors: [e] }; renderValidation(val.last);
    });
  }

  function errorItem(e) {
    var li = el("li", { "data-field": e.field || "", "data-line": e.line || "" });
    if (e.line) li.appendChild(el("span", { "class": "line", text: t("line", e.line) + ": " }));
    if (e.field) { li.appendChild(el("code", { text: e.field })); li.appendChild(document.createTextNode(" ")); }
    li.appendChild(document.createTextNode(e.message || e.code || ""));
    return li;
  }

  function renderValidation(d) {
    var st = $("#workload-status"), ul = clear($("#workload-errors")), ta = $("#workload");
    if (d.ok) {
      ta.classList.remove("invalid");
      st.className = "status";
      var defs = d.defaults || [];
      st.textContent = defs.length ? t("valid_defaults", defs.length) : t("valid");
      defs.forEach(function (x) {
        var s = typeof x === "string" ? x : (x.field || "") + (x.value != null ? " = " + x.value : "") + (x.why || x.reason ? " (" + (x.why || x.reason) + ")" : "");
        ul.appendChild(el("li", { "class": "default", text: s }));
      });
      ul.className = "notes";
    } else {
      ta.classList.add("invalid");
      var errs = d.errors || [];
      st.className = "status error"; st.textContent = t("invalid", errs.length);
      ul.className = "errors";
      errs.forEach(function (e) { ul.appendChild(errorItem(e)); });
    }
  }

  // ---------- probe report (calibration) ----------
  var probe = { name: "", text: "" };
  function showProbe() {
    var st = $("#probe-status");
    st.className = "status"; st.textContent = probe.text ? t("probe_loaded", probe.name, kb(probe.text)) : "";
    $("#probe-clear").hidden = !probe.text;
  }
  function loadProbe() {
    readFile($("#probe-file")).then(function (f) {
      probe = { name: "", text: "" };
      if (f) {
        try { JSON.parse(f.text); probe = f; } catch (e) {
          $("#probe-status").className = "status error"; $("#probe-status").textContent = t("probe_bad", f.name, e.message);
          $("#probe-clear").hidden = false;
          return;
        }
      }
      showProbe();
    });
  }
  function clearProbe() { probe = { name: "", text: "" }; $("#probe-file").value = ""; showProbe(); }

  // ---------- recommend ----------
  var rec = { data: null, body: null, selected: null, all: false, seq: 0 };

  // requestBody is what the form asks for. top 0: every candidate comes
  // back, so that the chart draws the whole Pareto front and "show all"
  // needs no second request; the table shows the first "top" of them.
  function requestBody() {
    var body = { workload: $("#workload").value, top: 0, lang: lang };
    var obj = $("#objective").value; if (obj) body.objective = obj;
    var modes = $$("#pricing-modes input:checked").map(function (c) { return c.value; });
    if (modes.length) body.pricing = modes;
    if (probe.text) body.calibrate = probe.text;
    return body;
  }
  function topN() { return Math.max(1, parseInt($("#top").value, 10) || 10); }

  function runRecommend(ev) {
    if (ev) ev.preventDefault();
    return fetchRecommend(requestBody(), false);
  }
  function fetchRecommend(body, relabel) {
    var st = $("#workload-status"), btn = $("#recommend-run"), seq = ++rec.seq;
    if (!relabel) { st.className = "status"; st.textContent = t("running"); }
    btn.disabled = true;
    return api("POST", "/api/v1/recommend", body).then(function (d) {
      if (seq !== rec.seq) return;
      if (!relabel) { rec.selected = null; rec.all = false; rec.compare = []; }
      rec.data = d; rec.body = body;
      $("#recommend-result").dataset.workload = d.workload || ""; // which workload the results are of
      $("#result-stale").hidden = true;
      $("#recommend-result").classList.remove("stale");
      if (!relabel) {
        st.textContent = ""; val.last = null; clear($("#workload-errors"));
        $("#workload").classList.remove("invalid");
        $("#candidate-detail").hidden = true; $("#compare-panel").hidden = true;
      }
      $("#recommend-result").hidden = false;
      renderRecommend();
      // The answer takes the focus (the button was disabled while it ran,
      // which left the focus on the page's body).
      if (!relabel) { $("#answer").scrollIntoView({ block: "start" }); $("#answer-title").focus({ preventScroll: true }); }
    }, function (e) {
      if (seq !== rec.seq) return;
      if (relabel) return;
      val.last = { ok: false, errors: [e] }; renderValidation(val.last);
      // Results of an earlier run stay, marked as such.
      if (rec.data) {
        $("#result-stale").textContent = t("stale_result"); $("#result-stale").hidden = false;
        $("#recommend-result").classList.add("stale");
      }
    }).then(function () { if (seq === rec.seq) btn.disabled = false; });
  }

  function candidates() { return (rec.data && rec.data.candidates) || []; }
  // rows are the ranking's rows: by default one per instance type, size
  // and pricing mode in its best-ranked region (the server's folded_into,
  // as the CLI folds them), every candidate with "Every region" ticked.
  function rankRows() { return rec.allRegions ? candidates() : candidates().filter(function (c) { return !c.folded_into; }); }
  function shown() { var r = rankRows(); return rec.all ? r : r.slice(0, topN()); }
  function cand(rank) { return candidates().filter(function (c) { return c.rank === rank; })[0]; }
  function total(c) { return c.cost_usd ? c.cost_usd.total : null; }
  function isService() {
    var d = rec.data; if (!d) return false;
    if (d.answer && d.answer.service != null) return !!d.answer.service;
    return candidates().some(function (c) { return c.per_month_usd != null || c.replicas_needed; });
  }
  // isImageService: an image-generation service is sized by latency per
  // image against its SLO and priced per thousand images, not by TTFT/TPOT.
  function isImageService() { return isService() && !!rec.data && rec.data.kind === "image-generation"; }
  function replicas(c) { return (c.plan && c.plan.replicas) || c.replicas_needed || null; }
  // perKImg is a service's $ per thousand images, as the JSON states it.
  function perKImg(c) { return c.unit_cost && /per thousand images/.test(c.unit_cost.unit) ? c.unit_cost.value : null; }
  // latDecimals: latency in seconds to two significant figures, at most two decimals.
  function latDecimals(vals) { return Math.min(2, decimals(vals, 2)); }
  // A plan's slice as the JSON states it (the advisor decides it; the page
  // only says it): the GPU a replica runs on, "h100-sxm MIG 1g.10gb" or
  // "1/3 a10" (null for whole GPUs), and a sentence for the detail panel.
  function sliceGPU(c) {
    var s = c.plan && c.plan.slice;
    if (!s) return null;
    return s.kind === "mig" ? c.gpu + " MIG " + s.profile : s.profile + " " + c.gpu;
  }
  function sliceText(c) {
    var s = c.plan && c.plan.slice;
    if (!s) return null;
    var txt = s.kind === "mig" ? t("slice_mig", s.profile, s.per_gpu, pct(s.compute_share), pct(s.memory_share), num(s.memory_gb, 1))
      : t("slice_fraction", s.profile, c.gpu, num(s.memory_gb, 1));
    return txt + (s.replica_per_hour_usd != null ? t("slice_replica_h", usd(s.replica_per_hour_usd, 3)) : "");
  }
  // perMTok is a service's $ per million generated tokens.
  function perMTok(c) {
    if (c.unit_cost && /per million/.test(c.unit_cost.unit)) return c.unit_cost.value;
    if (c.per_hour_usd != null && c.throughput && c.throughput.value > 0 && /tokens\/s/.test(c.throughput.unit)) {
      return c.per_hour_usd / (c.throughput.value * 3600 * (replicas(c) || 1)) * 1e6;
    }
    return null;
  }
  function range(v, lo, hi, f) {
    if (!isNum(v)) return "–";
    return isNum(lo) && isNum(hi) ? f(v) + " (" + f(lo) + "–" + f(hi) + ")" : f(v);
  }
  function confidenceText(cv) {
    if (!cv) return "";
    if (cv.sentence && lang === "en" || cv.sentence && /\p{Script=Han}/u.test(cv.sentence)) return cv.sentence;
    var p = Math.round(cv.probability * 100), better = t(cv.basis === "time" ? "faster" : "cheaper");
    return cv.distinguishable ? t("conf_clear", better, cv.next, p) : t("conf_close", cv.next, better, p);
  }
  function freshnessText(f) {
    if (!f || !f.rows) return "";
    if (!f.priced_rows) return t("fresh_unpriced", num(f.rows, 0));
    var dates = f.oldest_as_of === f.newest_as_of ? t("fresh_date", f.oldest_as_of) : t("fresh_dates", f.oldest_as_of, f.newest_as_of, f.median_as_of);
    var names = f.stale_providers || [], list = names.slice(0, 3).join(t("fresh_sep"));
    if (names.length > 3) list = t("fresh_more", list, names.length - 3);
    var stale = f.stale_rows ? t("fresh_stale", num(f.stale_rows, 0), f.stale_after_days, list) : t("fresh_none_stale", f.stale_after_days);
    return t("fresh", num(f.rows, 0), (f.providers || []).length, f.priced_rows < f.rows ? t("fresh_priced", num(f.priced_rows, 0)) : "", dates, stale);
  }
  function shownWarnings(c) { return (c.warnings || []).filter(function (w) { return w.code !== "stale_price"; }); }
  function objectiveLabel(o) {
    return { cost: t("o_cost"), time: t("o_time"), "tokens-per-dollar": t("o_tpd"), balanced: t("o_balanced") }[o] || o || "–";
  }

  // workloadLimit reads one number of the workload text (deadline_hours,
  // budget_usd, ...) for the chart's reference lines; null when absent.
  function workloadLimit(key) {
    var m = new RegExp("[\"']?" + key + "[\"']?\\s*:\\s*([0-9.eE+]+)").exec($("#workload").value || "");
    var v = m ? parseFloat(m[1]) : NaN;
    return isNum(v) && v > 0 ? v : null;
  }

  function renderRecommend() {
    var d = rec.data;
    renderAnswer(d);
    // The answer's headline already says when nothing qualifies.
    $("#recommend-summary").textContent = (d.summary || "") + (candidates().length || (d.answer && d.answer.headline) ? "" : " " + t("no_candidates"));
    $("#recommend-freshness").textContent = (d.price_freshness && d.price_freshness.sentence && lang === "en") ? d.price_freshness.sentence : freshnessText(d.price_freshness);
    $("#recommend-freshness").hidden = !$("#recommend-freshness").textContent;
    // With no candidate there is no ranking to show, only why.
    var none = !candidates().length;
    ["#candidates-scroll", "#ranking-actions", "#chart-row"].forEach(function (sel) { $(sel).hidden = none; });
    renderTable();
    drawPareto();
    renderExcluded(d);
    var notes = clear($("#recommend-notes"));
    (d.notes || []).forEach(function (n) { notes.appendChild(el("li", { text: n })); });
    if (rec.selected != null && cand(rec.selected)) showDetail(rec.selected, true);
    if (!$("#compare-panel").hidden) renderCompare();
  }

  // ---------- the answer ----------
  function card(id, title) {
    var c = el("div", { "class": "card", id: id }, el("h3", { text: title }));
    $("#answer-body").appendChild(c);
    return c;
  }
  function kv(rows, id) {
    var dl = el("dl", { "class": "kv", id: id });
    rows.forEach(function (r) {
      if (r[1] == null || r[1] === "–") return;
      dl.appendChild(el("dt", { text: r[0] }));
      dl.appendChild(el("dd", null, r[1]));
    });
    return dl;
  }
  var COST_PARTS = [["compute", "#0b5cad"], ["storage", "#8250df"], ["egress", "#9a6700"], ["setup", "#1a7f37"], ["spot_overhead", "#cf222e"]];
  function costBar(b, id) {
    var bar = el("div", { "class": "bar", id: id, role: "img", "aria-label": t("cost_breakdown") });
    COST_PARTS.forEach(function (cp) {
      var v = b[cp[0]] || 0;
      if (v > 0 && b.total > 0) bar.appendChild(el("span", { style: "width:" + (v / b.total * 100) + "%;background:" + cp[1], title: t(cp[0]) + " " + usd(v) }));
    });
    return bar;
  }
  function costLegend() {
    var leg = el("div", { "class": "legend" });
    COST_PARTS.forEach(function (cp) { leg.appendChild(el("span", null, el("i", { style: "background:" + cp[1] }), t(cp[0]))); });
    return leg;
  }
  function fmtFactor(v, unit) {
    if (!isNum(v)) return "–";
    var u = unitText(unit);
    if (unit === "USD") return usd(v, moneyDecimals([v]));
    if (/^USD\//.test(unit)) return usd(v, moneyDecimals([v])) + u.replace(/^(USD|美元)/, "");
    if (/^USD /.test(unit)) return usd(v, decimals([v], 3)) + " " + u.replace(/^(USD|美元)\s*/, "");
    return num(v, Math.abs(v) < 10 ? 2 : Math.abs(v) < 100 ? 1 : 0) + (u ? " " + u : "");
  }

  // simulatePlan replays #1's plan of a service (the answer's plan_service,
  // with the workload of the form) on the Simulate tab.
  function simulatePlan() {
    var d = rec.data;
    if (!d || !d.plan_service) return;
    $("#service").value = d.plan_service;
    $("#sim-workload").value = $("#workload").value;
    $("#sim-example").value = "";
    $("#sim-search").checked = false;
    sim.trace = null; $("#trace-status").textContent = "";
    showTab("simulate");
    $("#tabbtn-simulate").focus();
    runSim();
  }

  function renderAnswer(d) {
    $("#simulate-plan").hidden = !d.plan_service;
    $("#simulate-plan").title = t("simulate_plan_hint");
    var a = d.answer, body = clear($("#answer-body"));
    var head = $("#answer-headline"), obj = $("#answer-objective");
    var top = candidates()[0], svc = isService();
    head.textContent = a ? a.headline : (top ? "#1 " + top.offer : t("nothing_qualifies"));
    head.classList.toggle("none", a ? !a.qualifies : !top);
    var o = (a && a.objective) || d.objective;
    obj.textContent = t("objective_used", objectiveLabel(o)) + (a && a.objective_sentence ? " " + a.objective_sentence : "");
    if (!a) { body.appendChild(el("p", { "class": "status", text: d.summary || "" })); return; }

    if (a.pick) {
      // Why #1 beats the runner-up, with the numbers.
      var why = card("answer-why", t("why_heading"));
      if (a.runner_up && (a.factors || []).length) {
        why.appendChild(el("p", { "class": "hint", text: t("runner_up", a.runner_up.rank, a.runner_up.offer) }));
        var ft = el("table", { "class": "data factors", id: "answer-factors" });
        ft.appendChild(el("thead", null, el("tr", null, el("th", { scope: "col", text: t("factor") }),
          el("th", { "class": "num", scope: "col", text: t("pick_col") }), el("th", { "class": "num", scope: "col", text: t("next_col", a.runner_up.rank) }))));
        var tb = el("tbody");
        a.factors.forEach(function (f) {
          tb.appendChild(el("tr", { "data-code": f.code }, el("th", { scope: "row", text: coded("fc_", f.code) }),
            el("td", { "class": "num", text: fmtFactor(f.pick, f.unit) }), el("td", { "class": "num", text: fmtFactor(f.runner_up, f.unit) })));
        });
        ft.appendChild(tb);
        why.appendChild(ft);
        var ul = el("ul", { "class": "sentences" });
        a.factors.forEach(function (f) { if (f.sentence) ul.appendChild(el("li", { text: f.sentence })); });
        why.appendChild(ul);
      } else {
        why.appendChild(el("p", { text: t("why_none") }));
      }
      if (a.pick.plan) why.appendChild(el("p", { "class": "plan", text: t("plan") + ": " + a.pick.plan }));

      // What it costs.
      if (a.cost) {
        var cc = card("answer-cost", svc ? t("cost_heading_month") : t("cost_heading"));
        var dd = moneyDecimals([a.cost.compute, a.cost.storage, a.cost.egress, a.cost.setup, a.cost.spot_overhead, a.cost.total]);
        cc.appendChild(kv(COST_PARTS.map(function (cp) { return [t(cp[0]), usd(a.cost[cp[0]], dd)]; })
          .concat([[t("total"), el("strong", { text: usd(a.cost.total, dd) + (svc ? " / " + unitText("USD/month").replace(/^(USD|美元)\//, "") : "") })]]), "answer-cost-kv"));
        cc.appendChild(costBar(a.cost, "answer-cost-bar"));
        cc.appendChild(costLegend());
        if (isNum(a.cost.p10) && isNum(a.cost.p90)) cc.appendChild(el("p", { "class": "hint", text: t("range80", usd(a.cost.p10, dd), usd(a.cost.p90, dd)) }));
      }

      // How long, or the service's size and latency.
      if (svc && a.service_figures) {
        var s = a.service_figures, sc = card("answer-service", t("service_heading"));
        var lat = function (v, slo) {
          if (!isNum(v)) return null;
          var txt = isNum(slo) ? t("vs_slo", num(v, 0), num(slo, 0)) : num(v, 0);
          return el("span", null, txt, isNum(slo) ? " " : null, isNum(slo) ? badge(v <= slo ? t("slo_ok") : t("slo_bad"), v <= slo ? "ok" : "bad") : null);
        };
        var common = [[t("replicas"), s.replicas ? String(s.replicas) : null], [t("per_hour"), usd(s.per_hour_usd)], [t("per_month"), usd(s.per_month_usd, 0)]];
        sc.appendChild(kv(isImageService() ? common.concat([
          [t("per_kimg"), usd(s.per_thousand_images_usd, moneyDecimals([s.per_thousand_images_usd]))],
          [t("latency_img"), imgLat(s.latency_s, s.slo_latency_s, s.slo_percentile)], [t("img_batch"), s.batch ? String(s.batch) : null]])
          : common.concat([[t("per_mtok"), usd(s.per_million_tokens_usd, moneyDecimals([s.per_million_tokens_usd]))],
          [t("ttft"), lat(s.ttft_ms, s.slo_ttft_ms)], [t("tpot"), lat(s.tpot_ms, s.slo_tpot_ms)]]), "answer-service-kv"));
      } else if (a.duration_hours) {
        var tc = card("answer-time", t("time_heading")), dh = a.duration_hours;
        tc.appendChild(kv([[t("hours"), num(dh.value, 1)], [t("r80_label"), isNum(dh.p10) ? num(dh.p10, 1) + "–" + num(dh.p90, 1) : null]], "answer-time-kv"));
      }
      // Who runs the pick's machine, where it matters (compliance or a
      // production service): the server's sentence, in the page's language.
      if (a.operator && a.operator.sentence) {
        card("answer-operator", t("operator_heading")).appendChild(
          el("p", { id: "answer-operator-sentence", "data-kind": a.operator.kind || "unknown", text: a.operator.sentence }));
      }
    }

    if (!a.qualifies) {
      // Why nothing qualifies: the exclusions by reason, largest first.
      var wn = card("answer-why-none", t("why_none_heading"));
      var ul0 = el("ul", { id: "answer-exclusions" });
      exclusionGroups(d).forEach(function (g) {
        ul0.appendChild(el("li", { "data-code": g.reason_code }, coded("r_", g.reason_code), " ", el("span", { "class": "count", text: "(" + g.count + ")" })));
      });
      wn.appendChild(ul0);
      if ((a.near_misses || []).length) renderNear(a);
      else wn.appendChild(el("p", { "class": "hint", text: t("no_near") }));
      return;
    }

    // How sure.
    var sure = card("answer-sure", t("sure_heading"));
    var ct = confidenceText(a.confidence_vs_next || d.confidence_vs_next);
    sure.appendChild(el("p", { id: "answer-confidence", text: ct || "–" }));

    // What could go wrong: every risk in words, and the pick's figures.
    var rk = card("answer-risks", t("risks_heading"));
    var rl = el("ul", { "class": "risks", id: "answer-risk-list" });
    (a.risks || []).forEach(function (r) {
      rl.appendChild(el("li", { "data-code": r.code, "class": "risk " + r.level }, badge(coded("lvl_", r.level), { high: "bad", medium: "warn", low: "unknown" }[r.level] || "unknown"), " ", r.sentence));
    });
    rk.appendChild((a.risks || []).length ? rl : el("p", { "class": "status", text: t("no_risks") }));
    var pc = top && a.pick ? cand(a.pick.rank) || top : null;
    if (pc && (pc.spot || pc.reserved)) {
      var sp = pc.spot || {}, rs = pc.reserved || {};
      rk.appendChild(el("h4", { text: t("risk_figures") }));
      rk.appendChild(kv([
        [t("spot_rate"), isNum(sp.interruptions_per_instance_hour) ? sig(sp.interruptions_per_instance_hour) : null],
        [t("expected_int"), isNum(sp.expected_interruptions) ? sig(sp.expected_interruptions) : null],
        [t("ckpt"), isNum(sp.checkpoint_interval_hours) ? sig(sp.checkpoint_interval_hours, 3) : null],
        [t("p_miss"), isNum(sp.p_miss_deadline) ? (sp.p_miss_deadline < 0.001 ? "< 0.1%" : pct(sp.p_miss_deadline)) : null],
        [t("breakeven"), isNum(rs.break_even_utilization) ? pct(rs.break_even_utilization, 0) : null]], "answer-risk-figures"));
    }

    // The service's day: base, peak, losses, the simulated day.
    if (a.day && (a.day.lines || []).length) {
      var dy = card("answer-day", t("day_heading")), dl = el("ul", { "class": "day", id: "answer-day-list" });
      a.day.lines.forEach(function (s) { dl.appendChild(el("li", null, s)); });
      dy.appendChild(dl);
    }

    // The published measurements nearest to #1's job.
    if (a.pick && (a.pick.evidence || []).length) {
      var ev = card("answer-evidence", t("ev_heading"));
      if (a.pick.evidence_note) ev.appendChild(el("p", { "class": "note", id: "answer-evidence-note", text: a.pick.evidence_note }));
      var et = el("table", { id: "answer-evidence-table" }), eh = el("tr");
      [t("ev_job"), t("ev_source"), t("ev_measured"), t("ev_predicted"), t("ev_unit"), t("ev_distance")].forEach(function (h, i) {
        eh.appendChild(el("th", { scope: "col", "class": i >= 2 && i !== 4 ? "num" : null, text: h }));
      });
      et.appendChild(el("thead", null, eh));
      var eb = el("tbody");
      a.pick.evidence.forEach(function (e) {
        // The job's names are identifiers (model, accelerator, framework,
        // precision), shown as code in every language.
        var job = el("span");
        [e.model, e.gpus + " × " + e.accelerator, e.framework, e.precision].filter(function (x) { return x && x !== "other"; }).forEach(function (x, i) {
          if (i) job.appendChild(document.createTextNode(" · "));
          job.appendChild(el("code", { text: x }));
        });
        var src = e.url ? el("a", { href: e.url, rel: "noopener", target: "_blank" }, e.source) : e.source;
        eb.appendChild(el("tr", null, el("td", null, job), el("td", null, src, el("small", { "class": "hint", text: " " + e.date })),
          el("td", { "class": "num", text: sig(e.measured) }),
          el("td", { "class": "num" }, sig(e.predicted) + " (" + num(e.ratio, 2) + "×)"),
          el("td", { text: e.unit }),
          el("td", { "class": "num", text: num(e.distance, 1) })));
      });
      et.appendChild(eb);
      // A phone may scroll the table sideways: the region takes the focus.
      ev.appendChild(el("div", { "class": "scroll", tabindex: "0", role: "region", "aria-label": t("ev_heading") }, et));
      ev.appendChild(el("p", { "class": "hint", text: t("ev_hint") }));
    }

    // The documents to read or request before signing with #1's provider.
    if ((a.due_diligence || []).length) {
      var dd = card("answer-diligence", t("dd_heading")), dl2 = el("ul", { "class": "checklist", id: "answer-diligence-list" });
      a.due_diligence.forEach(function (d, i) {
        var id = "dd-" + i, where;
        // An address is an identifier: code, in every language.
        var link = function () { return el("a", { href: d.where, rel: "noopener", target: "_blank" }, el("code", { text: d.where })); };
        if (d.access === "published") where = el("span", null, t("dd_published") + (lang === "zh" ? "：" : ": "), link());
        else if (d.where) where = el("span", null, t("dd_request_at") + (lang === "zh" ? "：" : ": "), link());
        else where = el("span", { text: t("dd_request") });
        dl2.appendChild(el("li", { "data-document": d.document },
          el("input", { type: "checkbox", id: id }), " ", el("label", { "for": id }, el("strong", { text: d.title })),
          el("p", { text: d.why }), el("p", { "class": "hint" }, where)));
      });
      dd.appendChild(dl2);
    }

    // How the fleet could be paid for, and which term wins.
    if (a.terms && (a.terms.options || []).length > 1) {
      var tm = card("answer-terms", t("terms_heading")), tl = el("ul", { "class": "terms", id: "answer-term-list" });
      a.terms.options.forEach(function (o) { tl.appendChild(el("li", { "data-pricing": o.pricing, "class": o.pricing === a.terms.best ? "best" : null }, o.sentence)); });
      tm.appendChild(tl);
      tm.appendChild(el("p", { id: "answer-terms-verdict", text: a.terms.sentence }));
    }

    if ((a.near_misses || []).length) renderNear(a);
  }
  // imgLat says an image service's latency per image against its SLO
  // ("4.33 s (SLO: p99 ≤ 15 s)") with a met/missed badge.
  function imgLat(v, slo, pctl) {
    if (!isNum(v)) return null;
    var d = latDecimals([v]);
    if (!isNum(slo)) return num(v, d) + " " + unitText("s");
    return el("span", null, t("lat_vs_slo", num(v, d), num(slo, latDecimals([slo])), pctl || 99), " ",
      badge(v <= slo ? t("slo_ok") : t("slo_bad"), v <= slo ? "ok" : "bad"));
  }
  // renderNear lists what one relaxed constraint would admit.
  function renderNear(a) {
    var nm = card("answer-near", t("near_heading")), nl = el("ul", { id: "answer-near-list" });
    a.near_misses.forEach(function (n) { nl.appendChild(el("li", { "data-constraint": n.constraint }, n.sentence || (n.constraint + " → " + n.offer))); });
    nm.appendChild(nl);
  }

  // ---------- the ranking ----------
  // columns lists the table's columns for a job or a service: the key ones
  // stay on a phone; "opt" ones fold into the row's detail panel there.
  // Each column's unit is in its header, never repeated in the rows.
  function columns(rows) {
    var svc = isService();
    var cb = { h: t("c_compare"), cls: "opt", cell: function (c) {
      return el("td", { "class": "opt" }, el("input", { type: "checkbox", "class": "compare", "data-rank": c.rank, "aria-label": t("c_compare") + " #" + c.rank }));
    } };
    var rank = { h: t("c_rank"), cls: "num", cell: function (c) { return el("td", { "class": "num", text: c.rank }); } };
    var offer = { h: t("c_offer"), cls: "offer", cell: function (c) {
      var more = !rec.allRegions && c.other_regions ? " (+" + c.other_regions + ")" : "";
      // On a phone the pricing column is hidden: the mode goes under the offer.
      return el("td", { "class": "offer", title: c.instance_type + " @ " + c.region }, c.offer, el("small", { "class": "hint", text: " " + c.region + more }),
        el("small", { "class": "hint phone", text: " · " + mode(c.pricing) }));
    } };
    var pricing = { h: t("c_pricing"), cls: "opt", cell: function (c) { return el("td", { "class": "opt", text: mode(c.pricing) }); } };
    var bott = { h: t("c_bottleneck"), cls: "opt", cell: function (c) { return el("td", { "class": "opt", text: c.bottleneck ? coded("b_", c.bottleneck) : "–" }); } };
    var flags = { h: t("c_flags"), cls: "opt", cell: function (c) {
      var ws = shownWarnings(c);
      return el("td", { "class": "opt" }, c.pareto ? badge(t("pareto"), "pareto") : null,
        ws.length ? badge(t("warnings_n", ws.length), "warn", ws.map(function (w) { return w.text; }).join("\n")) : null);
    } };
    // phone, when given, is what a column hidden on a phone says there:
    // a short text under this cell's value, shown on a phone only.
    var numCol = function (h, get, dec, opt, rangeOf, phone) {
      var d = dec(rows.map(get));
      return { h: h, cls: "num" + (opt ? " opt" : ""), rng: !!rangeOf, cell: function (c) {
        var f = function (v) { return fixed(v, d); }, r = rangeOf ? rangeOf(c) : [], v = get(c), p = phone ? phone(c) : "";
        // The 80% range folds away on a phone (the detail panel has it).
        return el("td", { "class": "num" + (opt ? " opt" : "") }, f(v),
          isNum(v) && isNum(r[0]) && isNum(r[1]) ? el("span", { "class": "rng", text: " (" + f(r[0]) + "–" + f(r[1]) + ")" }) : null,
          p ? el("small", { "class": "hint phone unit-cost", text: p }) : null);
      } };
    };
    // unitOnPhone says a candidate's unit cost under another column on a
    // phone, where the unit-cost column is hidden.
    var unitOnPhone = function (get, dec, unit) {
      var d = dec(rows.map(get));
      return function (c) { var v = get(c); return isNum(v) ? fixed(v, d) + " " + unit : ""; };
    };
    var money = moneyDecimals, one = function () { return 1; }, zero = function () { return 0; };
    if (svc) {
      var gp = { h: t("c_replicas"), cls: "", cell: function (c) {
        var n = replicas(c);
        return el("td", { "class": "fleet", text: (n ? n + " × " : "") + (sliceGPU(c) || c.gpu + " × " + (c.plan && c.plan.gpus_per_replica ? c.plan.gpus_per_replica : c.gpus)) });
      } };
      var perHour = numCol(t("c_per_hour"), function (c) { return c.per_hour_usd; }, money, true);
      var perMonthRange = function (c) { return [c.cost_usd && c.cost_usd.p10, c.cost_usd && c.cost_usd.p90]; };
      var perMonth = numCol(t("c_per_month"), function (c) { return c.per_month_usd; }, zero, false, perMonthRange,
        isImageService() ? unitOnPhone(perKImg, money, t("c_per_kimg")) : unitOnPhone(perMTok, money, t("c_per_mtok")));
      if (isImageService()) {
        return [cb, rank, offer, gp, pricing, perHour, perMonth,
          numCol(t("c_per_kimg"), perKImg, money, true),
          numCol(t("c_latency_s"), function (c) { return c.latency_s; }, latDecimals, false),
          bott, flags];
      }
      return [cb, rank, offer, gp, pricing, perHour, perMonth,
        numCol(t("c_per_mtok"), perMTok, money, true),
        numCol(t("c_ttft"), function (c) { return c.ttft_ms; }, zero, true),
        numCol(t("c_tpot"), function (c) { return c.tpot_ms; }, one, true),
        bott, flags];
    }
    var unit = rows.map(function (c) { return c.unit_cost && c.unit_cost.unit; }).filter(Boolean)[0];
    var gpusCol = { h: t("c_gpus"), cls: "opt", cell: function (c) { return el("td", { "class": "opt", text: c.gpu + " × " + c.gpus }); } };
    return [cb, rank, offer, gpusCol, pricing,
      numCol(t("c_hours"), function (c) { return c.duration_hours; }, function (v) { return Math.min(2, decimals(v, 2)); }, false, function (c) { return [c.duration_hours_p10, c.duration_hours_p90]; }),
      numCol(t("c_total"), total, money, false, function (c) { return [c.cost_usd && c.cost_usd.p10, c.cost_usd && c.cost_usd.p90]; },
        unit ? unitOnPhone(function (c) { return c.unit_cost && c.unit_cost.unit === unit ? c.unit_cost.value : null; }, function (v) { return decimals(v, 3); }, shortUnit(unit)) : null),
      numCol(unit ? unitText(unit) : t("unit_cost"), function (c) { return c.unit_cost && c.unit_cost.unit === unit ? c.unit_cost.value : null; }, function (v) { return decimals(v, 3); }, true),
      bott, flags];
  }

  function renderTable() {
    var rows = shown(), cols = columns(rows);
    var hr = clear($("#candidates-table thead tr"));
    cols.forEach(function (c) { hr.appendChild(el("th", { "class": c.cls, scope: "col" }, c.h, c.rng ? el("span", { "class": "rng", text: t("r80") }) : null)); });
    var tb = clear($("#candidates-table tbody"));
    rows.forEach(function (c) {
      var tr = el("tr", { "data-rank": c.rank, "data-offer": c.offer, "data-fold": c.offer + "|" + c.gpus + "|" + c.pricing, tabindex: "0" });
      cols.forEach(function (col) { tr.appendChild(col.cell(c)); });
      if (rec.selected === c.rank) tr.classList.add("selected");
      tb.appendChild(tr);
    });
    (rec.compare || []).forEach(function (r) { var b = $("#candidates-table input.compare[data-rank='" + r + "']"); if (b) b.checked = true; });
    updateCompareButton();
    var all = rankRows().length, sa = $("#show-all");
    sa.hidden = all <= topN();
    sa.textContent = rec.all ? t("show_top", topN()) : t("show_all", num(all, 0));
    var folded = candidates().some(function (c) { return c.folded_into; });
    $("#all-regions-label").hidden = !folded;
    $("#fold-note").hidden = !folded;
    $("#fold-note").textContent = t(rec.allRegions ? "every_region_note" : "fold_note", num(candidates().length, 0));
  }

  // exclusionGroups is the answer's exclusions by reason, largest first:
  // the server counts them all (excluded_by_reason) and sends a few
  // examples of each unless asked for all.
  function exclusionGroups(d) {
    if (d.excluded_by_reason) return d.excluded_by_reason;
    var groups = {}, order = [];
    (d.excluded || []).forEach(function (x) {
      var k = x.reason_code || "other";
      if (!groups[k]) { groups[k] = { reason_code: k, count: 0 }; order.push(k); }
      groups[k].count++;
    });
    return order.map(function (k) { return groups[k]; }).sort(function (a, b) { return b.count - a.count || (a.reason_code < b.reason_code ? -1 : 1); });
  }

  // renderExcluded lists the exclusions by reason, largest group first, each
  // with its count, in closed groups; a group whose offers the answer does
  // not all hold fetches them when asked.
  function renderExcluded(d, reopen) {
    var box = clear($("#excluded-groups")), groups = exclusionGroups(d), total = 0;
    groups.forEach(function (g) { total += g.count; });
    $("#excluded-title").textContent = t("excluded_n", total);
    if (!total) { box.appendChild(el("p", { "class": "status", text: t("excluded_none") })); return; }
    groups.forEach(function (g) {
      var k = g.reason_code, det = el("details", { "class": "exgroup", "data-code": k });
      det.appendChild(el("summary", null, coded("r_", k), " ", el("span", { "class": "count", text: "(" + g.count + ")" })));
      var filled = false;
      function fill() {
        if (!det.open || filled) return;
        filled = true;
        var ul = el("ul"), shown = (d.excluded || []).filter(function (x) { return (x.reason_code || "other") === k; });
        shown.forEach(function (x) {
          ul.appendChild(el("li", { "data-code": x.reason_code }, el("code", { text: x.offer + " " + x.region + " ×" + x.gpus + (x.pricing ? " " + mode(x.pricing) : "") }), " ", x.reason));
        });
        det.appendChild(ul);
        if (shown.length < g.count && rec.body) {
          var more = el("button", { type: "button", "class": "link", text: t("excluded_all", g.count) });
          more.addEventListener("click", function () {
            more.disabled = true;
            api("POST", "/api/v1/recommend?exclusions=all", rec.body).then(function (full) {
              if (rec.data !== d) return;
              d.excluded = full.excluded; d.excluded_omitted = 0;
              renderExcluded(d, k);
            }, function () { more.disabled = false; });
          });
          det.appendChild(more);
        }
      }
      det.addEventListener("toggle", fill);
      box.appendChild(det);
      if (reopen === k) { det.open = true; fill(); }
    });
  }

  // ---------- charts ----------
  function niceTicks(lo, hi, n) {
    if (!(hi > lo)) { hi = lo + 1; }
    var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n))), err = (hi - lo) / n / step;
    if (err >= 7.5) step *= 10; else if (err >= 3.5) step *= 5; else if (err >= 1.5) step *= 2;
    var out = [];
    for (var v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
    return out;
  }
  function logTicks(lo, hi) {
    var out = [];
    for (var e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      [1, 2, 5].forEach(function (m) { var v = m * Math.pow(10, e); if (v >= lo && v <= hi) out.push(v); });
    }
    return out;
  }
  function short(v, step) {
    var a = Math.abs(v);
    if (a >= 1e6) return num(v / 1e6, 1) + "M";
    if (a >= 1e4) return num(v / 1e3, 0) + "k";
    var d = step ? Math.max(0, Math.min(3, -Math.floor(Math.log10(step) + 1e-9))) : (a < 10 ? 2 : 0);
    return fixed(v, d);
  }
  // domain pads [lo, hi] by 6% each side; from zero when zero is near (a
  // quantity whose size, not only its differences, matters) or asked.
  function domain(vals, fromZero, extra) {
    var all = vals.concat(extra || []).filter(isNum);
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    if (hi === lo) { var p = Math.abs(hi) * 0.1 || 1; lo -= p; hi += p; }
    var pad = (hi - lo) * 0.06;
    if (fromZero || (lo >= 0 && lo < (hi - lo) * 0.5)) return [0, hi + pad];
    return [lo - pad, hi + pad];
  }

  // frame draws axes, ticks, labels and the grid of a W×H chart and
  // returns its scales.
  function frame(svg, W, H, m, xd, yd, xLabel, yLabel, logY) {
    var fx = function (v) { return m.l + (v - xd[0]) / (xd[1] - xd[0]) * (W - m.l - m.r); };
    var fy = logY
      ? function (v) { return H - m.b - (Math.log(v) - Math.log(yd[0])) / (Math.log(yd[1]) - Math.log(yd[0])) * (H - m.t - m.b); }
      : function (v) { return H - m.b - (v - yd[0]) / (yd[1] - yd[0]) * (H - m.t - m.b); };
    var yt = logY ? logTicks(yd[0], yd[1]) : niceTicks(yd[0], yd[1], H < 260 ? 3 : 4);
    var ys = yt.length > 1 ? yt[1] - yt[0] : 1;
    yt.forEach(function (v) {
      var y = fy(v);
      svg.appendChild(sv("line", { "class": "grid", x1: m.l, x2: W - m.r, y1: y, y2: y }));
      svg.appendChild(sv("text", { x: m.l - 5, y: y + 4, "text-anchor": "end" }, short(v, logY ? null : ys)));
    });
    var xt = niceTicks(xd[0], xd[1], W < 420 ? 3 : 5), xs = xt.length > 1 ? xt[1] - xt[0] : 1;
    xt.forEach(function (v) {
      var x = fx(v);
      svg.appendChild(sv("line", { "class": "axis", x1: x, x2: x, y1: H - m.b, y2: H - m.b + 4 }));
      svg.appendChild(sv("text", { x: x, y: H - m.b + 17, "text-anchor": "middle" }, short(v, xs)));
    });
    svg.appendChild(sv("line", { "class": "axis", x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b }));
    svg.appendChild(sv("line", { "class": "axis", x1: m.l, x2: m.l, y1: m.t, y2: H - m.b }));
    svg.appendChild(sv("text", { "class": "label", x: (m.l + W - m.r) / 2, y: H - 6, "text-anchor": "middle" }, xLabel));
    svg.appendChild(sv("text", { "class": "label", x: 14, y: (m.t + H - m.b) / 2, "text-anchor": "middle",
      transform: "rotate(-90 14 " + (m.t + H - m.b) / 2 + ")" }, yLabel));
    return { x: fx, y: fy };
  }
  function refLine(svg, W, H, m, s, axis, v, label, xd, yd) {
    if (axis === "x") {
      if (v < xd[0] || v > xd[1]) return;
      var x = s.x(v);
      svg.appendChild(sv("line", { "class": "limit", x1: x, x2: x, y1: m.t, y2: H - m.b }));
      svg.appendChild(sv("text", { "class": "limit-label", x: x - 4, y: m.t + 12, "text-anchor": "end" }, label));
    } else {
      if (v < yd[0] || v > yd[1]) return;
      var y = s.y(v);
      svg.appendChild(sv("line", { "class": "limit", x1: m.l, x2: W - m.r, y1: y, y2: y }));
      svg.appendChild(sv("text", { "class": "limit-label", x: W - m.r - 4, y: y - 5, "text-anchor": "end" }, label));
    }
  }
  // chartWidth is the width the chart is drawn at: its box's, so that text
  // is as large on a phone as on a desktop (no scaling of a fixed viewBox).
  function chartWidth(box, fallback) {
    var w = Math.floor(box.getBoundingClientRect().width);
    return w > 100 ? Math.min(w, 900) : fallback;
  }

  // drawPareto plots every candidate (not only the rows shown): a job's
  // total cost against its duration, a service's $ per month against its
  // time to first token, as the HTML report does; the Pareto front joins
  // the filled points; deadline, budget and SLO are drawn where set.
  function drawPareto() {
    var fig = $("#pareto");
    $$("svg, p.status", fig).forEach(function (n) { fig.removeChild(n); });
    var cs = candidates(), svc = isService(), img = isImageService(), a = rec.data && rec.data.answer;
    var X = img ? function (c) { return c.latency_s; } : svc ? function (c) { return c.ttft_ms; } : function (c) { return c.duration_hours; };
    var Y = svc ? function (c) { return c.per_month_usd != null ? c.per_month_usd : total(c); } : total;
    var pts = cs.filter(function (c) { return isNum(X(c)) && isNum(Y(c)) && X(c) > 0 && Y(c) > 0; });
    $("#pareto-caption").textContent = t(img ? "caption_img" : svc ? "caption_svc" : "caption_job", num(pts.length, 0)) +
      (pts.length < cs.length ? t("caption_unplotted", num(cs.length - pts.length, 0), num(cs.length, 0)) : "");
    if (!pts.length) { fig.appendChild(el("p", { "class": "status", text: t("no_chart") })); return; }
    var W = chartWidth(fig, 560), H = Math.round(Math.max(240, Math.min(360, W * 0.6)));
    var m = { l: 62, r: 16, t: 16, b: 44 };
    var svg = sv("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img",
      "aria-label": $("#pareto-caption").textContent });
    var xs = pts.map(X), ys = pts.map(Y);
    var deadline = svc ? null : workloadLimit("deadline_hours"), budget = svc ? null : workloadLimit("budget_usd");
    var sf = a && a.service_figures;
    var slo = img ? (sf && sf.slo_latency_s) || workloadLimit("latency_s")
      : svc ? (sf ? sf.slo_ttft_ms : workloadLimit("ttft_ms")) : null;
    var ymin = Math.min.apply(null, ys), ymax = Math.max.apply(null, ys);
    var logY = ymin > 0 && ymax / ymin > 30;
    // A limit within 3 times the data's reach is drawn; one further out
    // would squash every point into a corner.
    var near = function (v, hi) { return v != null && v < hi * 3; };
    var xd = domain(xs, false, [deadline, slo].filter(function (v) { return near(v, Math.max.apply(null, xs)); }));
    var yd = logY ? [ymin / 1.25, ymax * 1.25] : domain(ys, false, near(budget, ymax) ? [budget] : []);
    var s = frame(svg, W, H, m, xd, yd, img ? t("x_latency_s") : svc ? t("x_ttft") : t("x_hours"), (svc ? t("y_month") : t("y_cost")) + (logY ? t("log") : ""), logY);
    if (deadline != null) refLine(svg, W, H, m, s, "x", deadline, t("lim_deadline", num(deadline)), xd, yd);
    if (slo != null) refLine(svg, W, H, m, s, "x", slo, img ? t("lim_slo_s", num(slo, latDecimals([slo]))) : t("lim_slo_ms", num(slo, 0)), xd, yd);
    if (budget != null) refLine(svg, W, H, m, s, "y", budget, t("lim_budget", num(budget, 0)), xd, yd);
    var front = pts.filter(function (c) { return c.pareto; }).sort(function (p, q) { return X(p) - X(q); });
    if (front.length > 1) {
      svg.appendChild(sv("polyline", { "class": "front", points: front.map(function (c) { return s.x(X(c)).toFixed(1) + "," + s.y(Y(c)).toFixed(1); }).join(" ") }));
    }
    var labels = []; // where the #1-#3 labels went, so that they do not overlap
    pts.slice().reverse().forEach(function (c) {
      var g = sv("circle", { "class": "pt" + (c.pareto ? " pareto" : "") + (rec.selected === c.rank ? " sel" : ""),
        cx: s.x(X(c)).toFixed(1), cy: s.y(Y(c)).toFixed(1), r: c.rank === 1 ? 6 : 4.5, "data-rank": c.rank });
      g.appendChild(sv("title", {}, "#" + c.rank + " " + c.offer + " · " + mode(c.pricing) + " · " + num(X(c), img ? latDecimals([X(c)]) : 1) + " · " + usd(Y(c), 0)));
      g.addEventListener("click", function () { showDetail(c.rank); });
      svg.appendChild(g);
      if (c.rank <= 3) {
        var lx = s.x(X(c)) + 8, ly = s.y(Y(c)) - 7;
        while (labels.some(function (l) { return Math.abs(l[0] - lx) < 24 && Math.abs(l[1] - ly) < 13; })) ly += 13;
        labels.push([lx, ly]);
        svg.appendChild(sv("text", { "class": "pt-label", x: lx, y: ly }, "#" + c.rank));
      }
    });
    fig.appendChild(svg);
  }

  function lineChart(title, key, xs, ys, yLabel, limit, limitLabel) {
    var box = el("div", { "data-chart": key }, el("h3", { text: title }));
    $("#sim-charts").appendChild(box);
    var W = chartWidth(box, 400), H = 220, m = { l: 52, r: 12, t: 12, b: 42 };
    var svg = sv("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title });
    // Rounded: a flat fleet of 5 is drawn flat, not as float noise.
    ys = ys.map(function (v) { return Math.round(v * 1000) / 1000; });
    var yd = domain(ys, true, limit != null ? [limit] : []);
    var xd = [Math.min.apply(null, xs), Math.max.apply(null, xs)];
    if (xd[1] <= xd[0]) xd[1] = xd[0] + 1;
    var s = frame(svg, W, H, m, xd, yd, t("x_time_h"), yLabel, false);
    if (limit != null) refLine(svg, W, H, m, s, "y", limit, limitLabel, [0, 0], yd);
    svg.appendChild(sv("polyline", { "class": "line", points: xs.map(function (x, i) { return s.x(x).toFixed(1) + "," + s.y(ys[i]).toFixed(1); }).join(" ") }));
    box.appendChild(svg);
    return box;
  }

  // ---------- candidate detail ----------
  function showDetail(rank, keepScroll) {
    var c = cand(rank); if (!c) return;
    rec.selected = rank;
    $$("#candidates-table tbody tr").forEach(function (tr) { tr.classList.toggle("selected", +tr.dataset.rank === rank); });
    $$("#pareto circle").forEach(function (p) { p.classList.toggle("sel", +p.getAttribute("data-rank") === rank); });
    var p = clear($("#candidate-detail")), svc = isService();
    p.hidden = false;
    p.dataset.rank = rank;
    var close = el("button", { type: "button", "class": "close", text: t("close") });
    close.addEventListener("click", function () { p.hidden = true; rec.selected = null; });
    p.appendChild(close);
    p.appendChild(el("h3", { text: t("detail_heading", c.rank, c.offer) }));
    var sp = c.spot || {};
    p.appendChild(kv([
      [t("region"), c.region + (c.country ? " (" + c.country + ")" : "")],
      [t("gpus"), c.gpu + " × " + c.gpus + (c.nodes > 1 ? " (" + c.nodes + " " + t("instances") + ")" : "")],
      [t("plan"), c.plan && c.plan.sentence],
      [t("slice"), sliceText(c)],
      [t("pricing"), mode(c.pricing)],
      [t("price_h"), c.price_per_hour_usd != null ? usd(c.price_per_hour_usd) : null],
      [t("hours"), !svc && c.duration_hours != null ? range(c.duration_hours, c.duration_hours_p10, c.duration_hours_p90, function (v) { return num(v, 1); }) : null],
      [t("total"), !svc && c.cost_usd ? range(c.cost_usd.total, c.cost_usd.p10, c.cost_usd.p90, usd) : null],
      [t("throughput"), c.throughput ? num(c.throughput.value, 1) + " " + unitText(c.throughput.unit) : null],
      [t("utilization"), c.utilization != null ? pct(c.utilization) : null],
      [t("bottleneck"), c.bottleneck ? coded("b_", c.bottleneck) : null],
      [t("unit_cost"), c.unit_cost ? num(c.unit_cost.value, decimals([c.unit_cost.value], 3)) + " " + unitText(c.unit_cost.unit) : null],
      [t("tokens_per_dollar"), c.tokens_per_dollar != null ? num(c.tokens_per_dollar, 0) : null],
      [t("replicas"), svc && replicas(c) ? String(replicas(c)) : null],
      [t("per_hour"), c.per_hour_usd != null ? usd(c.per_hour_usd) : null],
      [t("per_month"), c.per_month_usd != null ? usd(c.per_month_usd, 0) : null],
      [t("per_mtok"), svc && perMTok(c) != null ? usd(perMTok(c), moneyDecimals([perMTok(c)])) : null],
      [t("per_kimg"), svc && perKImg(c) != null ? usd(perKImg(c), moneyDecimals([perKImg(c)])) : null],
      [t("latency_img"), c.latency_s != null ? num(c.latency_s, latDecimals([c.latency_s])) + " " + unitText("s") : null],
      [t("img_batch"), c.latency_s != null && c.plan && c.plan.batch ? String(c.plan.batch) : null],
      [t("ttft"), c.ttft_ms != null ? num(c.ttft_ms, 0) : null],
      [t("tpot"), c.tpot_ms != null ? num(c.tpot_ms, 1) : null],
      [t("spot_rate"), isNum(sp.interruptions_per_instance_hour) ? sig(sp.interruptions_per_instance_hour) : null],
      [t("ckpt"), isNum(sp.checkpoint_interval_hours) ? sig(sp.checkpoint_interval_hours, 3) : null],
      [t("p_miss"), isNum(sp.p_miss_deadline) ? (sp.p_miss_deadline < 0.001 ? "< 0.1%" : pct(sp.p_miss_deadline)) : null],
      [t("breakeven"), c.reserved && isNum(c.reserved.break_even_utilization) ? pct(c.reserved.break_even_utilization, 0) : null],
      [t("price_date"), c.price_as_of]
    ], "detail-facts"));

    p.appendChild(el("h4", { text: t("cost_breakdown") }));
    if (c.cost_usd) {
      var dd = moneyDecimals(COST_PARTS.map(function (cp) { return c.cost_usd[cp[0]]; }).concat([c.cost_usd.total]));
      p.appendChild(kv(COST_PARTS.map(function (cp) { return [t(cp[0]), usd(c.cost_usd[cp[0]], dd)]; }).concat([[t("total"), usd(c.cost_usd.total, dd)]])));
      p.appendChild(costBar(c.cost_usd, "cost-bar"));
      p.appendChild(costLegend());
    } else {
      p.appendChild(el("p", { "class": "status", text: t("price_unknown") }));
    }

    p.appendChild(el("h4", { text: t("warnings") }));
    var wl = el("ul", { id: "detail-warnings" }), ws = shownWarnings(c);
    ws.forEach(function (w) { wl.appendChild(el("li", { "data-code": w.code, text: w.text })); });
    p.appendChild(ws.length ? wl : el("p", { "class": "status", text: t("no_warnings") }));

    p.appendChild(el("h4", { text: t("verdicts") }));
    var vd = el("div", { id: "detail-verdicts" }, el("p", { "class": "status", text: t("checking") }));
    p.appendChild(vd);
    var ex = el("details", { id: "detail-explain" }, el("summary", { text: t("explain") }));
    var pre = el("div", { "class": "explain", tabindex: "0", role: "region", "aria-label": t("explain"), text: t("loading") });
    ex.appendChild(pre);
    p.appendChild(ex);

    var wl8 = rec.body ? rec.body.workload : $("#workload").value;
    api("POST", "/api/v1/check", { workload: wl8, gpu: c.gpu, offer: c.offer, region: c.region, lang: lang }).then(function (d) {
      if (rec.selected !== rank) return;
      clear(vd);
      [["compat", d.compat, "reasons"], ["compliance", d.compliance, "requirements"]].forEach(function (part) {
        if (!part[1]) return;
        vd.appendChild(el("p", null, el("strong", { text: t(part[0]) + ": " }), badge(coded("v_", part[1].verdict), verdictClass(part[1].verdict))));
        var ul = el("ul");
        (part[1][part[2]] || []).forEach(function (r) {
          ul.appendChild(el("li", { title: r.source || "" }, badge(coded("v_", r.verdict), verdictClass(r.verdict)), " ",
            r.name ? requirementLabel(r.name) + ": " : "", r.text || r.reason || "", r.fix ? " → " + r.fix : ""));
        });
        vd.appendChild(ul);
      });
    }, function (e) { clear(vd).appendChild(el("p", { "class": "status error", text: t("failed", errText(e)) })); });
    var loaded = false;
    ex.addEventListener("toggle", function () {
      if (!ex.open || loaded) return;
      loaded = true;
      var body = { workload: wl8, offer: c.offer, lang: lang };
      if (rec.body && rec.body.objective) body.objective = rec.body.objective;
      if (rec.body && rec.body.pricing) body.pricing = rec.body.pricing;
      api("POST", "/api/v1/explain", body).then(function (d) {
        pre.textContent = (d && d.text) || "";
      }, function (e) {
        // An API that does not take lang, objective or pricing here: ask with the essentials.
        if (e && (e.field === "lang" || e.field === "objective" || e.field === "pricing")) {
          return api("POST", "/api/v1/explain", { workload: wl8, offer: c.offer }).then(function (d) { pre.textContent = (d && d.text) || ""; });
        }
        throw e;
      }).catch(function (e) { pre.textContent = t("failed", errText(e)); loaded = false; });
    });
    if (!keepScroll) p.scrollIntoView({ block: "nearest" });
  }

  // ---------- compare ----------
  function compareRanks() { return $$("#candidates-table input.compare:checked").map(function (b) { return +b.dataset.rank; }); }
  function updateCompareButton() {
    var r = compareRanks();
    rec.compare = r;
    $("#compare-run").disabled = r.length < 2 || r.length > 3;
    $$("#candidates-table input.compare").forEach(function (b) { b.disabled = !b.checked && r.length >= 3; });
  }
  function renderCompare() {
    var cs = (rec.compare || []).map(cand).filter(Boolean), p = clear($("#compare-panel")), svc = isService();
    if (cs.length < 2) { p.hidden = true; return; }
    p.hidden = false;
    p.appendChild(el("h3", { text: t("compare_heading") }));
    var part = function (k) { return function (c) { return c.cost_usd && c.cost_usd[k]; }; };
    var rows = [
      [t("region"), function (c) { return c.region; }],
      [t("gpus"), function (c) { return c.gpu + " × " + c.gpus; }],
      [t("pricing"), function (c) { return mode(c.pricing); }],
      [t("price_h"), function (c) { return c.price_per_hour_usd; }, usd, -1],
      [t("hours"), function (c) { return svc ? null : c.duration_hours; }, function (v) { return num(v, 1); }, -1],
      [t("replicas"), function (c) { return svc ? replicas(c) : null; }, String, -1],
      [t("compute"), part("compute"), usd, -1], [t("storage"), part("storage"), usd, -1], [t("egress"), part("egress"), usd, -1],
      [t("setup"), part("setup"), usd, -1], [t("spot_overhead"), part("spot_overhead"), usd, -1],
      [svc ? t("per_month") : t("total"), total, usd, -1],
      [t("ttft"), function (c) { return c.ttft_ms; }, function (v) { return num(v, 0); }, -1],
      [t("latency_img"), function (c) { return c.latency_s; }, function (v) { return num(v, latDecimals([v])) + " " + unitText("s"); }, -1],
      [t("per_kimg"), function (c) { return svc ? perKImg(c) : null; }, function (v) { return usd(v, moneyDecimals([v])); }, -1],
      [t("tokens_per_dollar"), function (c) { return c.tokens_per_dollar; }, function (v) { return num(v, 0); }, 1],
      [t("utilization"), function (c) { return c.utilization; }, pct, 1],
      [t("bottleneck"), function (c) { return c.bottleneck ? coded("b_", c.bottleneck) : null; }],
      [t("warnings_count"), function (c) { return shownWarnings(c).length; }, String, -1]
    ];
    var tbl = el("table", { "class": "data compare-table", id: "compare-table" });
    var hr = el("tr", null, el("th"));
    cs.forEach(function (c) { hr.appendChild(el("th", { scope: "col", text: "#" + c.rank + " " + c.offer })); });
    tbl.appendChild(el("thead", null, hr));
    var tb = el("tbody");
    rows.forEach(function (r) {
      var vals = cs.map(r[1]);
      if (vals.every(function (v) { return v == null; })) return;
      var best = null;
      if (r[3]) vals.forEach(function (v) { if (v != null && (best == null || (r[3] < 0 ? v < best : v > best))) best = v; });
      var tr = el("tr", null, el("th", { scope: "row", text: r[0] }));
      vals.forEach(function (v) {
        var td = el("td", { "class": r[2] ? "num" : "", text: v == null ? "–" : r[2] ? r[2](v) : String(v) });
        if (best != null && v === best && vals.filter(function (x) { return x === best; }).length < vals.length) td.classList.add("best");
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    tbl.appendChild(tb);
    p.appendChild(el("div", { "class": "scroll", tabindex: "0", role: "region", "aria-label": t("compare_heading") }, tbl));
    p.scrollIntoView({ block: "nearest" });
  }

  // ---------- downloads ----------
  function download(format) {
    var st = $("#download-status"), body = rec.body || requestBody();
    var b = {}; for (var k in body) b[k] = body[k];
    b.lang = lang; b.top = topN();
    st.className = "status"; st.textContent = t("downloading");
    api("POST", "/api/v1/recommend?format=" + format, b, true).then(function (r) { return r.blob(); }).then(function (blob) {
      var url = URL.createObjectURL(blob), name = ((rec.data && rec.data.workload) || "gpupick") + (format === "html" ? ".html" : ".svg");
      var a = el("a", { href: url, download: name, "class": "hidden-link" });
      document.body.appendChild(a); a.click(); document.body.removeChild(a);
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
      st.textContent = name;
    }, function (e) { st.className = "status error"; st.textContent = t("failed", errText(e)); });
  }

  // ---------- simulate ----------
  var sim = { id: null, timer: null, result: null, search: null, trace: null };

  function simBody() {
    var svc = $("#service").value, b = { service: svc, lang: lang };
    var w = $("#sim-workload").value.trim();
    if (w && /^\s*kind:\s*model\b/m.test(svc)) b.workload = $("#sim-workload").value;
    if (sim.trace) b.trace = sim.trace.text;
    if ($("#sim-search").checked) b.search = true;
    return b;
  }
  function runSim() {
    stopPoll();
    var st = $("#sim-status"), pr = $("#sim-progress");
    st.className = "status"; st.textContent = t("sim_queued");
    pr.hidden = false; pr.value = 0;
    clear($("#sim-charts")); clear($("#sim-summary")); clear($("#sim-search-result")); sim.result = null; sim.search = null;
    $("#sim-run").disabled = true;
    api("POST", "/api/v1/simulations", simBody()).then(function (d) {
      sim.id = d.id; sim.key = d.cancel_key || ""; $("#sim-cancel").hidden = false;
      if (d.result || d.search) return simDone(d);
      poll();
    }, simFail);
  }
  function stopPoll() { if (sim.timer) clearTimeout(sim.timer); sim.timer = null; }
  function poll() {
    sim.timer = setTimeout(function () {
      var id = sim.id;
      api("GET", "/api/v1/simulations/" + encodeURIComponent(id) + "?lang=" + lang).then(function (d) {
        if (id !== sim.id) return;
        var s = d.status;
        if ((d.result || d.search) && (s == null || s === "done")) return simDone(d);
        if (s === "failed" || s === "cancelled" || d.error) return simFail(d.error || { message: s });
        $("#sim-progress").value = d.progress || 0;
        $("#sim-status").textContent = t("sim_running", Math.round((d.progress || 0) * 100));
        poll();
      }, simFail);
    }, 400);
  }
  function simEnd() { $("#sim-run").disabled = false; $("#sim-cancel").hidden = true; $("#sim-progress").hidden = true; }
  function simFail(e) {
    simEnd();
    var st = $("#sim-status");
    st.className = "status error";
    var msg = typeof e === "string" ? e : errText(e);
    if (e && e.line) msg = t("line", e.line) + ": " + msg;
    st.textContent = t("failed", msg);
  }
  function simDone(d) {
    simEnd();
    $("#sim-status").textContent = t("sim_done");
    sim.result = d.result || null; sim.search = d.search || null; renderSim();
  }
  function cancelSim() {
    if (!sim.id) return;
    var id = sim.id, key = sim.key; sim.id = null; sim.key = ""; stopPoll(); simEnd();
    $("#sim-status").textContent = t("sim_canceled");
    api("DELETE", "/api/v1/simulations/" + encodeURIComponent(id), undefined, false, key ? { "X-Cancel-Key": key } : undefined).catch(function () { /* already gone */ });
  }
  function sloOf() {
    var m = /^slo:\s*\n((?:[ \t]+.*\n?)*)/m.exec($("#service").value || "");
    var l = m && /latency_s:\s*([0-9.]+)/.exec(m[1]);
    return l ? parseFloat(l[1]) : null;
  }

  function renderSim() {
    var sum = clear($("#sim-summary")), sr = clear($("#sim-search-result"));
    clear($("#sim-charts"));
    if (sim.search) renderSearch(sr, sim.search);
    var r = sim.result;
    if (!r) return;
    var lat = r.latency_s || {}, tt = r.ttft_s || {};
    // A request answered in one piece (an image, a clip) has no first token
    // before its end: its time to first output is its latency, not shown twice.
    var streams = tt.p95 != null && !(Math.abs(tt.p95 - lat.p95) < 1e-9);
    sum.appendChild(kv([
      [t("requests"), num(r.requests, 0)], [t("completed"), num(r.completed, 0)], [t("dropped"), num(r.dropped, 0)],
      [t("latency_p95"), num(lat.p95, 2)], [t("latency_p99"), num(lat.p99, 2)], [t("ttft_p95"), streams ? num(tt.p95, 2) : null],
      [t("slo_violations"), pct(r.slo_violation_fraction, 2)], [t("slo_met"), r.slo_met == null ? null : t(r.slo_met ? "yes" : "no")],
      [t("replica_hours"), num(r.replica_hours, 1)], [t("peak_replicas"), r.peak_replicas == null ? null : String(r.peak_replicas)],
      [t("cold_starts"), r.cold_starts == null ? null : num(r.cold_starts, 0)],
      [t("utilization"), pct(r.utilization)], [t("cost_usd"), usd(r.cost_usd)]
    ], "sim-kv"));
    // What to change, in a sentence (the simulator decides; the page says it).
    if (r.advice && r.advice.sentence) sum.appendChild(el("p", { id: "sim-advice", "class": "advice " + (r.slo_met ? "ok" : "bad"), text: r.advice.sentence }));
    if (r.commitments && r.commitments.length) renderCommitments(sum, r.commitments);
    var s = r.series || [];
    if (!s.length) return;
    var xs = s.map(function (p) { return p.t_s / 3600; });
    lineChart(t("ch_traffic"), "traffic", xs, s.map(function (p) { return p.arrivals_per_s; }), unitText("requests/s"));
    lineChart(t("ch_replicas"), "replicas", xs, s.map(function (p) { return p.replicas; }), t("replicas"));
    var slo = sloOf();
    lineChart(t("ch_latency"), "latency", xs, s.map(function (p) { return p.p95_latency_s; }), unitText("s"), slo, t("lim_slo_s", num(slo, 1)));
  }
  // renderCommitments: the run's on-demand replicas priced as a committed
  // base plus on-demand above it, one row per term, and a sentence on the
  // cheapest (or on why none pays).
  function renderCommitments(box, cs) {
    function units(c) { return t(c.unit === "instance" ? "cm_instances" : "cm_replicas", String(c.base)); }
    box.appendChild(el("h3", { text: t("commit_heading") }));
    var tbl = el("table", { "class": "data", id: "commit-table" });
    tbl.appendChild(el("thead", null, el("tr", null, el("th", { scope: "col", text: t("cm_term") }), el("th", { "class": "num", scope: "col", text: t("cm_base") }),
      el("th", { "class": "num", scope: "col", text: t("cm_price") }), el("th", { "class": "num opt", scope: "col", text: t("cm_held") }),
      el("th", { "class": "num", scope: "col", text: t("cm_cost") }), el("th", { "class": "num", scope: "col", text: t("cm_od") }))));
    var tb = el("tbody"), best = null;
    cs.forEach(function (c) {
      if (c.base > 0 && (!best || c.cost_usd < best.cost_usd)) best = c;
      tb.appendChild(el("tr", null, el("td", { text: t("m_" + c.term) }), el("td", { "class": "num", text: units(c) }),
        el("td", { "class": "num", text: usd(c.per_hour_usd) }), el("td", { "class": "num opt", text: c.base > 0 ? pct(c.base_held_fraction, 0) : "–" }),
        el("td", { "class": "num", text: usd(c.cost_usd) }), el("td", { "class": "num", text: usd(c.on_demand_cost_usd) })));
    });
    tbl.appendChild(tb);
    box.appendChild(el("div", { "class": "scroll", tabindex: "0", role: "region", "aria-label": t("commit_heading") }, tbl));
    var text;
    if (best) {
      text = t("commit_best", units(best), t("m_" + best.term), usd(best.cost_usd), usd(best.on_demand_cost_usd),
        pct(best.on_demand_cost_usd > 0 ? 1 - best.cost_usd / best.on_demand_cost_usd : 0, 0), pct(best.break_even, 0));
    } else {
      var low = cs.reduce(function (a, c) { return c.break_even < a.break_even ? c : a; });
      text = t("commit_none", pct(low.break_even, 0), t("m_" + low.term));
    }
    box.appendChild(el("p", { id: "commit-verdict", text: text }));
  }
  function renderSearch(box, sr) {
    box.appendChild(el("h2", { text: t("search_heading") }));
    var rows = [];
    if (sr.best) rows.push(sr.best); else box.appendChild(el("p", { "class": "status error", text: t("search_none") }));
    rows = rows.concat(sr.runners_up || []);
    var tbl = el("table", { "class": "data", id: "search-table" });
    tbl.appendChild(el("thead", null, el("tr", null, el("th", { scope: "col", text: t("s_candidate") }), el("th", { scope: "col", text: t("s_policy") }),
      el("th", { "class": "num", scope: "col", text: t("s_cost") }), el("th", { "class": "num opt", scope: "col", text: t("s_viol") }),
      el("th", { "class": "num opt", scope: "col", text: t("s_p95") }), el("th", { scope: "col", text: t("s_meets") }))));
    var tb = el("tbody"), dc = moneyDecimals(rows.map(function (e) { return e.cost_usd; }));
    rows.forEach(function (e, i) {
      tb.appendChild(el("tr", { "class": i === 0 && sr.best ? "selected" : "" }, el("td", { "class": "offer", text: e.candidate + (e.region ? " " + e.region : "") }),
        el("td", { "class": "wrap", text: e.summary }), el("td", { "class": "num", text: usd(e.cost_usd, dc) }),
        el("td", { "class": "num opt", text: pct(e.slo_violation_fraction, 2) }), el("td", { "class": "num opt", text: num(e.p95_latency_s, 2) }),
        el("td", null, badge(t(e.meets_slo ? "yes" : "no"), e.meets_slo ? "ok" : "bad"))));
    });
    tbl.appendChild(tb);
    box.appendChild(el("div", { "class": "scroll", tabindex: "0", role: "region", "aria-label": t("search_heading") }, tbl));
    box.appendChild(el("p", { "class": "hint", text: t("search_evaluated", num(sr.evaluated, 0)) }));
  }
  function loadTrace() {
    readFile($("#trace-file")).then(function (f) {
      sim.trace = f;
      $("#trace-status").textContent = f ? t("trace_loaded", f.name, kb(f.text)) : "";
    });
  }

  // ---------- save workload ----------
  function saveWorkload() {
    var st = $("#save-status");
    st.className = "status"; st.textContent = "";
    api("POST", "/api/v1/workloads", { name: $("#save-name").value.trim(), body: $("#workload").value }).then(function () {
      st.textContent = t("saved_ok"); loadSavedList();
    }, function (e) { st.className = "status error"; st.textContent = t("failed", errText(e)); });
  }

  // ---------- wiring ----------
  function init() {
    var l = "en";
    try { l = localStorage.getItem("gpupick.lang") || ""; } catch (e) { l = ""; }
    var ql = new URLSearchParams(location.search).get("lang");
    if (ql) l = ql;
    if (!l) l = /^zh/i.test(navigator.language || "") ? "zh" : "en";
    fillExamples();
    readFilters();
    lang = I18N[l] ? l : "en";
    $("#example").value = WORKLOAD_EXAMPLES[0];
    var ready = Promise.all([loadExample(WORKLOAD_EXAMPLES[0]), loadSimExample(SERVICE_EXAMPLES[0]).then(function () { $("#sim-example").value = SERVICE_EXAMPLES[0]; })]);
    setLang(lang);

    $("#lang").addEventListener("change", function () { if (this.value !== lang) setLang(this.value); });
    $$(".tabs button").forEach(function (b) { b.addEventListener("click", function () { showTab(b.dataset.tab); }); });
    $(".tabs").addEventListener("keydown", function (e) {
      var i = TABS.indexOf(e.target.dataset && e.target.dataset.tab), n = TABS.length, j;
      if (i < 0) return;
      if (e.key === "ArrowRight") j = (i + 1) % n;
      else if (e.key === "ArrowLeft") j = (i + n - 1) % n;
      else if (e.key === "Home") j = 0;
      else if (e.key === "End") j = n - 1;
      else return;
      e.preventDefault();
      showTab(TABS[j]);
      $("#tabbtn-" + TABS[j]).focus();
    });
    var h = location.hash.replace("#", "");
    showTab(TABS.indexOf(h) >= 0 ? h : (location.search && !ql ? "offers" : "recommend"));

    var typed;
    // A reload asked for at once drops the one typing had scheduled: it
    // would fetch the same page again, and replace the answer being read.
    var reload = function () { if (typed) typed.cancel(); offers.page = 1; loadOffers(); };
    $("#offers-filter").addEventListener("submit", function (e) { e.preventDefault(); reload(); });
    $$("#offers-filter select").forEach(function (s) { s.addEventListener("change", reload); });
    typed = debounce(function () { offers.page = 1; loadOffers(); }, 350);
    $$("#offers-filter input").forEach(function (s) { s.addEventListener("input", typed); });
    $("#offers-prev").addEventListener("click", function () { if (offers.page > 1) { offers.page--; loadOffers(); } });
    $("#offers-next").addEventListener("click", function () { offers.page++; loadOffers(); });

    $("#example").addEventListener("change", function () { loadExample(this.value); });
    $("#saved").addEventListener("change", function () { loadSaved(this.value); });
    $("#workload").addEventListener("input", debounce(validateNow, 400));
    $("#recommend-form").addEventListener("submit", runRecommend);
    $("#probe-file").addEventListener("change", loadProbe);
    $("#probe-clear").addEventListener("click", clearProbe);
    $("#save-run").addEventListener("click", saveWorkload);
    $("#download-html").addEventListener("click", function () { download("html"); });
    $("#simulate-plan").addEventListener("click", simulatePlan);
    $("#download-svg").addEventListener("click", function () { download("svg"); });
    $("#show-all").addEventListener("click", function () { rec.all = !rec.all; renderTable(); });
    $("#all-regions").addEventListener("change", function () { rec.allRegions = this.checked; if (rec.data) renderTable(); });
    $("#top").addEventListener("change", function () { if (rec.data) renderTable(); });
    var tb = $("#candidates-table tbody");
    tb.addEventListener("click", function (e) {
      if (e.target.classList.contains("compare")) { updateCompareButton(); return; }
      var tr = e.target.closest("tr"); if (tr) showDetail(+tr.dataset.rank);
    });
    tb.addEventListener("keydown", function (e) {
      var tr = e.target.closest("tr");
      if (tr && e.target === tr && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); showDetail(+tr.dataset.rank); }
    });
    $("#compare-run").addEventListener("click", renderCompare);

    $("#sim-example").addEventListener("change", function () { loadSimExample(this.value); });
    $("#trace-file").addEventListener("change", loadTrace);
    $("#sim-run").addEventListener("click", runSim);
    $("#sim-cancel").addEventListener("click", cancelSim);
    window.addEventListener("resize", debounce(function () {
      if (rec.data && !$("#tab-recommend").hidden) drawPareto();
      if (sim.result && !$("#tab-simulate").hidden) renderSim();
    }, 200));

    loadFilterLists().then(function () { readFilters(); loadOffers(); });
    loadSavedList();
    ready.then(function () { document.documentElement.dataset.ready = "1"; });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
