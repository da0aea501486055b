// gpupick web page: offers, recommendations and autoscaling simulations over
// the /api/v1 JSON API. Plain JavaScript, no framework, nothing fetched from
// other hosts. Charts are SVG drawn here. Strings for English and Chinese are
// in I18N below; every visible string goes through t().
(function () {
  "use strict";

  // ---------- strings ----------
  var I18N = {
    en: {
      tagline: "GPU cloud servers, chosen by what the whole job costs",
      language: "Language", tab_offers: "Offers", tab_recommend: "Recommend", tab_simulate: "Simulate",
      offers_heading: "Offers", f_gpu: "GPU", f_provider: "Provider", f_country: "Country", f_pricing: "Pricing",
      f_max_price: "Max $/instance-h", f_sort: "Sort", any: "any", apply: "Apply",
      "m_on-demand": "on-demand", m_spot: "spot", m_monthly: "monthly", "m_reserved-1y": "reserved 1 y", "m_reserved-3y": "reserved 3 y",
      s_price_per_gpu: "$/GPU-hour", s_price: "$/instance-hour", s_memory: "GPU memory",
      c_offer: "Offer", c_gpu: "GPU", c_mem: "GiB/GPU", c_provider: "Provider", c_region: "Region", c_country: "Country",
      c_od_gpu_h: "On-demand $/GPU-h", c_spot_gpu_h: "Spot $/GPU-h", c_as_of: "Price date",
      prev: "‹ Previous", next: "Next ›", page_of: "page {0} of {1} · {2} offers", loading: "Loading…",
      no_offers: "No offer matches these filters.", stale: "stale", stale_title: "Price published more than 90 days ago",
      recommend_heading: "Describe a workload", workload_yaml: "Workload (YAML)", objective: "Objective",
      from_file: "as in the file", o_cost: "lowest total cost", o_time: "shortest time", o_tpd: "most tokens per dollar",
      o_balanced: "balanced (Pareto knee)", pricing_modes: "Pricing (none checked: as in the file)", top: "Candidates shown",
      run_recommend: "Rank offers", save_workload: "Save this workload on the server", save_name: "Name", token: "API token",
      save: "Save", saved: "Saved.", validating: "Checking…", valid: "Valid.", valid_defaults: "Valid; {0} defaults applied:",
      invalid: "{0} problem(s) in the file:", line: "line {0}", ranked: "Ranked candidates", running: "Ranking offers…",
      c_compare: "Compare", c_rank: "#", c_gpus: "GPUs", c_pricing: "Pricing", c_hours: "Hours (80% range)", c_total: "Total $ (80% range)",
      cheaper: "cheaper", faster: "faster",
      conf_clear: "#1 is {0} than #2 ({1}) with probability {2}% given both predictions' 80% ranges.",
      conf_close: "#1 and #2 ({0}) cannot be told apart: #1 is {1} with probability {2}% within the model's uncertainty. A probe on trial servers (gpupick probe --gpu-bench, then --calibrate) would settle it.",
      c_unit_cost: "Unit cost", c_bottleneck: "Bottleneck", c_flags: "Flags", pareto: "Pareto", warnings_n: "{0} warning(s)",
      compare: "Compare selected", compare_hint: "Tick two or three rows.", compare_heading: "Side by side",
      pareto_caption: "Cost × duration; filled points are on the Pareto front", excluded: "Excluded offers",
      excluded_n: "Excluded offers ({0})", no_candidates: "No offer can run this workload. See the excluded offers below.",
      x_hours: "duration (h)", y_cost: "total cost ($)", x_ttft: "time to first token (ms)", y_month: "$ per month",
      no_chart: "No candidate has both a cost and a duration to plot.",
      detail_heading: "#{0} {1}", close: "Close", facts: "Facts", cost_breakdown: "Cost breakdown",
      compute: "compute", storage: "storage", egress: "egress", setup: "setup", spot_overhead: "spot overhead", total: "total",
      warnings: "Warnings", no_warnings: "No warnings.", verdicts: "Verdicts", compat: "Software stack", compliance: "Compliance",
      explain: "Full reasoning", checking: "Checking…", failed: "Failed: {0}",
      gpus: "GPUs", nodes: "nodes", price_h: "price $/h", hours: "hours", throughput: "throughput", utilization: "utilization",
      bottleneck: "bottleneck", unit_cost: "unit cost", tokens_per_dollar: "tokens per $", price_date: "price date",
      per_month: "$ per month", per_hour: "$ per hour", replicas: "replicas", ttft: "TTFT ms", tpot: "TPOT ms", region: "region",
      pricing: "pricing", warnings_count: "warnings",
      fresh: "Prices: {0} offer(s) from {1} provider(s){2}, {3}; {4}", fresh_priced: " ({0} with a price)",
      fresh_dates: "as of {0} to {1} (median {2})", fresh_date: "as of {0}", fresh_stale: "{0} older than {1} days ({2}).",
      fresh_none_stale: "none older than {0} days.", fresh_more: "{0} and {1} more", fresh_sep: ", ",
      fresh_unpriced: "Prices: none of the {0} offer(s) has a published price.",
      simulate_heading: "Simulate autoscaling", service_yaml: "Service (YAML)", run_sim: "Run simulation", cancel: "Cancel",
      sim_queued: "Queued…", sim_running: "Simulating… {0}%", sim_done: "Done.", sim_canceled: "Canceled.",
      ch_traffic: "Traffic (requests/s)", ch_replicas: "Replicas", ch_latency: "p95 latency (s)", x_time_h: "time (h)",
      requests: "requests", completed: "completed", dropped: "dropped", latency_p95: "latency p95 (s)", latency_p99: "latency p99 (s)",
      ttft_p95: "TTFT p95 (s)", slo_violations: "SLO violations", slo_met: "SLO met", yes: "yes", no: "no",
      replica_hours: "replica-hours", cost_usd: "cost ($)", peak_replicas: "peak replicas", cold_starts: "cold starts",
      footer: "Prices in US dollars per hour unless stated; stale prices are flagged."
    },
    zh: {
      tagline: "按整个任务的真实成本挑选 GPU 云服务器",
      language: "语言", tab_offers: "报价", tab_recommend: "推荐", tab_simulate: "模拟",
      offers_heading: "云服务器报价", f_gpu: "GPU", f_provider: "云厂商", f_country: "国家/地区", f_pricing: "计费方式",
      f_max_price: "最高 $/实例·小时", f_sort: "排序", any: "不限", apply: "筛选",
      "m_on-demand": "按需", m_spot: "抢占式", m_monthly: "包月", "m_reserved-1y": "预留 1 年", "m_reserved-3y": "预留 3 年",
      s_price_per_gpu: "$/GPU·小时", s_price: "$/实例·小时", s_memory: "显存",
      c_offer: "报价", c_gpu: "GPU", c_mem: "显存 GiB/卡", c_provider: "云厂商", c_region: "区域", c_country: "国家/地区",
      c_od_gpu_h: "按需 $/GPU·时", c_spot_gpu_h: "抢占式 $/GPU·时", c_as_of: "价格日期",
      prev: "‹ 上一页", next: "下一页 ›", page_of: "第 {0} / {1} 页 · 共 {2} 条报价", loading: "加载中…",
      no_offers: "没有符合筛选条件的报价。", stale: "过期", stale_title: "价格发布已超过 90 天",
      recommend_heading: "描述工作负载", workload_yaml: "工作负载（YAML）", objective: "优化目标",
      from_file: "按文件设置", o_cost: "总成本最低", o_time: "时间最短", o_tpd: "每美元 token 最多",
      o_balanced: "均衡（帕累托拐点）", pricing_modes: "计费方式（不勾选则按文件设置）", top: "显示候选数",
      run_recommend: "开始排名", save_workload: "在服务器上保存此工作负载", save_name: "名称", token: "API 令牌",
      save: "保存", saved: "已保存。", validating: "检查中…", valid: "有效。", valid_defaults: "有效；使用了 {0} 个默认值：",
      invalid: "文件中有 {0} 个问题：", line: "第 {0} 行", ranked: "候选排名", running: "正在为报价排名…",
      c_compare: "对比", c_rank: "#", c_gpus: "GPU 数", c_pricing: "计费", c_hours: "小时（80% 区间）", c_total: "总价 $（80% 区间）",
      cheaper: "更便宜", faster: "更快",
      conf_clear: "按两者预测的 80% 区间，第 1 名比第 2 名（{1}）{0}的概率为 {2}%。",
      conf_close: "第 1 名与第 2 名（{0}）在模型误差范围内无法区分：第 1 名{1}的概率仅为 {2}%。在试用服务器上运行 gpupick probe --gpu-bench 再用 --calibrate 即可确定。",
      c_unit_cost: "单位成本", c_bottleneck: "瓶颈", c_flags: "标记", pareto: "帕累托", warnings_n: "{0} 条警告",
      compare: "对比所选", compare_hint: "勾选两到三行。", compare_heading: "并排对比",
      pareto_caption: "成本 × 时长；实心点位于帕累托前沿", excluded: "被排除的报价",
      excluded_n: "被排除的报价（{0}）", no_candidates: "没有报价能运行此工作负载，请查看下方被排除的报价。",
      x_hours: "时长（小时）", y_cost: "总成本（$）", x_ttft: "首 token 时间（毫秒）", y_month: "$ / 月",
      no_chart: "没有同时具有成本和时长的候选，无法绘图。",
      detail_heading: "#{0} {1}", close: "关闭", facts: "概况", cost_breakdown: "成本构成",
      compute: "计算", storage: "存储", egress: "出网流量", setup: "准备", spot_overhead: "抢占开销", total: "合计",
      warnings: "警告", no_warnings: "没有警告。", verdicts: "结论", compat: "软件栈兼容性", compliance: "合规",
      explain: "完整推理过程", checking: "检查中…", failed: "失败：{0}",
      gpus: "GPU 数", nodes: "节点数", price_h: "价格 $/时", hours: "小时", throughput: "吞吐量", utilization: "利用率",
      bottleneck: "瓶颈", unit_cost: "单位成本", tokens_per_dollar: "每美元 token 数", price_date: "价格日期",
      per_month: "$ / 月", per_hour: "$ / 时", replicas: "副本数", ttft: "首 token 毫秒", tpot: "每 token 毫秒", region: "区域",
      pricing: "计费", warnings_count: "警告",
      fresh: "价格：{0} 条报价，来自 {1} 家云厂商{2}，{3}；{4}", fresh_priced: "（{0} 条有价格）",
      fresh_dates: "日期 {0} 至 {1}（中位数 {2}）", fresh_date: "日期 {0}", fresh_stale: "{0} 条超过 {1} 天（{2}）。",
      fresh_none_stale: "没有超过 {0} 天的价格。", fresh_more: "{0} 等 {1} 家", fresh_sep: "、",
      fresh_unpriced: "价格：{0} 条报价均无公开价格。",
      simulate_heading: "模拟自动扩缩容", service_yaml: "服务（YAML）", run_sim: "运行模拟", cancel: "取消",
      sim_queued: "排队中…", sim_running: "模拟中… {0}%", sim_done: "完成。", sim_canceled: "已取消。",
      ch_traffic: "流量（请求/秒）", ch_replicas: "副本数", ch_latency: "p95 延迟（秒）", x_time_h: "时间（小时）",
      requests: "请求数", completed: "完成", dropped: "丢弃", latency_p95: "延迟 p95（秒）", latency_p99: "延迟 p99（秒）",
      ttft_p95: "首 token p95（秒）", slo_violations: "SLO 违约比例", slo_met: "满足 SLO", yes: "是", no: "否",
      replica_hours: "副本·小时", cost_usd: "成本（$）", peak_replicas: "峰值副本数", cold_starts: "冷启动次数",
      footer: "除非另有说明，价格均为美元/小时；过期价格会被标出。"
    }
  };

  // Example files, as in examples/llama3-8b-lora.yaml and examples/service-target.yaml.
  var EXAMPLE_WORKLOAD = [
    "# LoRA fine-tune of Llama 3 8B on an instruction data set.",
    "# Units: token counts are tokens; sizes are GB (1e9 bytes); times are hours;",
    "# money is US dollars.",
    "name: llama3-8b-lora",
    "kind: llm-finetune",
    "model:",
    "  preset: llama-3-8b          # 8.03B params, 32 layers, GQA with 8 KV heads",
    "training:",
    "  method: lora                # frozen bf16 base weights + rank-16 adapters",
    "  lora_rank: 16",
    "  tokens: 5e8                 # ~120k conversations × ~1,400 tokens × 3 epochs",
    "  epochs: 3",
    "  seq_len: 4096               # tokens per packed sequence",
    "  global_batch: 64            # sequences per optimizer step (262k tokens)",
    "  precision: bf16",
    "  activation_checkpointing: true",
    "data:",
    "  dataset_gb: 2               # the JSONL files as stored",
    "  location: {provider: aws, region: us-east-1}   # where the data is today",
    "  storage: auto",
    "  outputs_gb: 17              # adapters (~0.2 GB) plus one merged bf16 copy (16 GB)",
    "stack:",
    "  framework: pytorch          # Hugging Face PEFT on PyTorch",
    "  version: \">=2.4\"",
    "  needs: [flash-attention-2]",
    "  vendors: [nvidia, amd]",
    "constraints:",
    "  deadline_hours: 24",
    "  budget_usd: 1000",
    "  max_gpus: 8",
    "  pricing: [on-demand, spot]",
    "objective: cost",
    ""
  ].join("\n");

  var EXAMPLE_SERVICE = [
    "# HPA/KEDA target tracking on requests in flight, over a day of diurnal",
    "# traffic; scales to zero at night.",
    "name: chat-target",
    "traffic:",
    "  kind: diurnal",
    "  rate_per_s: 2          # mean over the day",
    "  amplitude: 0.9         # night traffic at a tenth of the mean",
    "  peak_hour: 14",
    "  duration_s: 86400",
    "  seed: 1",
    "service:",
    "  kind: distribution",
    "  distribution: exponential",
    "  mean_s: 1.5",
    "  provisioning_s: 120    # new GPU node",
    "  image_pull_s: 30",
    "  model_gb: 16           # weights, loaded at storage_gbps",
    "  storage_gbps: 1",
    "policy:",
    "  kind: target",
    "  metric: in_flight      # queued + running requests per replica",
    "  target: 1",
    "  min_replicas: 0",
    "  max_replicas: 20",
    "  polling_interval_s: 15",
    "  scale_down_stabilization_s: 300",
    "  cooldown_s: 300        # idle time before the last replica goes",
    "slo:",
    "  latency_s: 10",
    "  target: 0.95",
    "pricing:",
    "  per_hour_usd: 2.49",
    ""
  ].join("\n");

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
  function num(v, digits) {
    if (v == null || isNaN(v)) return "–";
    return Number(v).toLocaleString(locale(), { maximumFractionDigits: digits == null ? 2 : digits });
  }
  function usd(v) {
    if (v == null || isNaN(v)) return "–";
    return "$" + Number(v).toLocaleString(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  function pct(v) { return v == null ? "–" : num(v * 100, 1) + "%"; }
  function mode(m) { return m ? t("m_" + m) : "–"; }
  function debounce(fn, ms) {
    var h; return function () { var a = arguments; clearTimeout(h); h = setTimeout(function () { fn.apply(null, a); }, ms); };
  }
  function badge(text, cls, title) { return el("span", { "class": "badge " + cls, title: title, text: text }); }
  function verdictClass(v) {
    return { compatible: "ok", pass: "ok", "needs-work": "warn", unknown: "unknown", incompatible: "bad", fail: "bad" }[v] || "unknown";
  }

  // api calls the JSON API; a non-2xx answer rejects with the error object
  // {code, message, field, line} of the API's error envelope.
  function api(method, path, body) {
    var opts = { method: method, headers: { "Accept": "application/json" } };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    var tok = $("#api-token") && $("#api-token").value;
    if (tok) opts.headers["Authorization"] = "Bearer " + tok;
    return fetch(path, opts).then(function (r) {
      return r.text().then(function (txt) {
        var data = null;
        try { data = txt ? JSON.parse(txt) : null; } catch (e) { data = null; }
        if (!r.ok) {
          var err = (data && data.error) || { code: String(r.status), message: txt || r.statusText };
          throw err;
        }
        return data;
      });
    });
  }
  function errText(e) { return (e && (e.message || e.code)) || String(e); }
  function listOf(d) { return Array.isArray(d) ? d : (d && (d.items || d.accelerators || d.providers)) || []; }

  // ---------- tabs and language ----------
  function showTab(name) {
    $$(".tabs button").forEach(function (b) { b.setAttribute("aria-selected", String(b.dataset.tab === name)); });
    $$("section.tab").forEach(function (s) { s.hidden = s.id !== "tab-" + name; });
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
  }

  function setLang(l) {
    lang = I18N[l] ? l : "en";
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    $("#lang").value = lang;
    try { localStorage.setItem("gpupick.lang", lang); } catch (e) { /* private mode */ }
    $$("[data-i18n]").forEach(function (e) { e.textContent = t(e.dataset.i18n); });
    // Re-render what was drawn from data.
    if (offers.data) renderOffers();
    if (rec.data) renderRecommend();
    if (sim.result) renderSim(sim.result);
    if (val.last) renderValidation(val.last);
  }

  // ---------- offers ----------
  var offers = { page: 1, perPage: 25, data: null };

  function offersQuery() {
    var q = new URLSearchParams();
    [["gpu", "#filter-gpu"], ["provider", "#filter-provider"], ["country", "#filter-country"],
      ["pricing", "#filter-pricing"], ["max_price", "#filter-max-price"], ["sort", "#filter-sort"]].forEach(function (p) {
      var v = $(p[1]).value.trim();
      if (v) q.set(p[0], v);
    });
    q.set("page", offers.page);
    q.set("per_page", offers.perPage);
    return q.toString();
  }

  function loadOffers() {
    var st = $("#offers-status");
    st.className = "status"; st.textContent = t("loading");
    return api("GET", "/api/v1/offers?" + offersQuery()).then(function (d) {
      offers.data = d; renderOffers();
    }, function (e) {
      st.className = "status error"; st.textContent = t("failed", errText(e));
    });
  }

  // gpus is what an offer is worth in whole GPUs: its count, or the share
  // of one GPU a slice holds (gpu_fraction, e.g. 1/6 of an A10).
  function gpus(o) { return o.gpu_count * (o.gpu_fraction || 1); }

  // gpuCount writes the count as people read it: "8", or "1/6" for a slice.
  function gpuCount(o) {
    if (!o.gpu_fraction) return String(o.gpu_count);
    var n = Math.round(1 / o.gpu_fraction);
    return Math.abs(1 / n - o.gpu_fraction) < 0.002 ? "1/" + n : String(+o.gpu_fraction.toPrecision(3));
  }

  function perGPU(o, m) {
    var p = o.prices_usd_per_hour && o.prices_usd_per_hour[m];
    return p == null || !o.gpu_count ? null : p / gpus(o);
  }

  function renderOffers() {
    var d = offers.data, tb = clear($("#offers-table tbody"));
    var items = (d && d.items) || [];
    items.forEach(function (o) {
      var tr = el("tr", { "data-offer": o.id },
        el("td", null, el("span", { title: o.instance_type, text: o.id })),
        el("td", { text: o.gpu + " × " + gpuCount(o) }),
        el("td", { "class": "num", text: num(o.gpu_memory_gib, 0) }),
        el("td", { text: o.provider }),
        el("td", { text: o.region }),
        el("td", { text: o.country }),
        el("td", { "class": "num", text: usd(perGPU(o, "on-demand")) }),
        el("td", { "class": "num", text: usd(perGPU(o, "spot")) }),
        el("td", null, o.as_of || "–", " ", o.stale ? badge(t("stale"), "stale", t("stale_title")) : null));
      tb.appendChild(tr);
    });
    var total = (d && d.total) || 0, pages = Math.max(1, Math.ceil(total / ((d && d.per_page) || offers.perPage)));
    $("#offers-page").textContent = t("page_of", (d && d.page) || offers.page, pages, total);
    $("#offers-prev").disabled = offers.page <= 1;
    $("#offers-next").disabled = offers.page >= pages;
    var st = $("#offers-status");
    st.className = "status"; st.textContent = items.length ? "" : t("no_offers");
  }

  function loadFilterLists() {
    api("GET", "/api/v1/accelerators").then(function (d) {
      var dl = clear($("#gpu-list"));
      listOf(d).forEach(function (a) { dl.appendChild(el("option", { value: a.id, label: a.name })); });
    }, function () { /* the free-text field still works */ });
    api("GET", "/api/v1/providers").then(function (d) {
      var s = $("#filter-provider");
      listOf(d).forEach(function (p) { s.appendChild(el("option", { value: p.id, text: p.name ? p.id + " – " + p.name : p.id })); });
    }, function () { /* "any" stays */ });
  }

  // ---------- workload validation ----------
  var val = { seq: 0, last: null };

  function validateNow() {
    var seq = ++val.seq, st = $("#workload-status");
    st.className = "status"; st.textContent = t("validating");
    api("POST", "/api/v1/validate", { workload: $("#workload").value }).then(function (d) {
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

  // ---------- recommend ----------
  var rec = { data: null, selected: null };

  function runRecommend(ev) {
    if (ev) ev.preventDefault();
    var body = { workload: $("#workload").value, top: parseInt($("#top").value, 10) || 10, lang: lang };
    var obj = $("#objective").value; if (obj) body.objective = obj;
    var modes = $$("#pricing-modes input:checked").map(function (c) { return c.value; });
    if (modes.length) body.pricing = modes;
    var st = $("#workload-status"), btn = $("#recommend-run");
    st.className = "status"; st.textContent = t("running"); btn.disabled = true;
    return api("POST", "/api/v1/recommend", body).then(function (d) {
      rec.data = d; rec.selected = null;
      st.textContent = "";
      val.last = null;
      clear($("#workload-errors"));
      $("#workload").classList.remove("invalid");
      $("#candidate-detail").hidden = true;
      $("#compare-panel").hidden = true;
      renderRecommend();
      $("#recommend-result").hidden = false;
    }, function (e) {
      val.last = { ok: false, errors: [e] }; renderValidation(val.last);
    }).then(function () { btn.disabled = false; });
  }

  function candidates() { return (rec.data && rec.data.candidates) || []; }
  function cand(rank) { return candidates().filter(function (c) { return c.rank === rank; })[0]; }
  function total(c) { return c.cost_usd ? c.cost_usd.total : null; }
  // range writes a value with its 80% interval: "5.7 (4.7–7.9)".
  function range(v, lo, hi, f) {
    if (v == null) return f(v);
    return lo != null && hi != null ? f(v) + " (" + f(lo) + "–" + f(hi) + ")" : f(v);
  }
  // confidenceText says, in the page's language, how sure #1 is to beat #2.
  function confidenceText(cv) {
    if (!cv) return "";
    var p = Math.round(cv.probability * 100), better = t(cv.basis === "time" ? "faster" : "cheaper");
    return cv.distinguishable ? t("conf_clear", better, cv.next, p) : t("conf_close", cv.next, better, p);
  }

  // freshnessText is the recommendation's one line on how fresh the prices
  // of the listed candidates are (price_freshness, computed by the server),
  // in the page's language. It stands in for a stale-price warning per row.
  function freshnessText(f) {
    if (!f || !f.rows) return "";
    if (!f.priced_rows) return t("fresh_unpriced", num(f.rows, 0));
    var dates = f.oldest_as_of === f.newest_as_of ? t("fresh_date", f.oldest_as_of) : t("fresh_dates", f.oldest_as_of, f.newest_as_of, f.median_as_of);
    var names = f.stale_providers || [], list = names.slice(0, 3).join(t("fresh_sep"));
    if (names.length > 3) list = t("fresh_more", list, names.length - 3);
    var stale = f.stale_rows ? t("fresh_stale", num(f.stale_rows, 0), f.stale_after_days, list) : t("fresh_none_stale", f.stale_after_days);
    return t("fresh", num(f.rows, 0), (f.providers || []).length, f.priced_rows < f.rows ? t("fresh_priced", num(f.priced_rows, 0)) : "", dates, stale);
  }
  // shownWarnings leaves out stale_price: the freshness line covers it.
  function shownWarnings(c) { return (c.warnings || []).filter(function (w) { return w.code !== "stale_price"; }); }

  function renderRecommend() {
    var d = rec.data, tb = clear($("#candidates-table tbody"));
    $("#recommend-summary").textContent = (d.summary || "") + (candidates().length ? "" : " " + t("no_candidates"));
    $("#recommend-confidence").textContent = confidenceText(d.confidence_vs_next);
    $("#recommend-confidence").hidden = !d.confidence_vs_next;
    $("#recommend-freshness").textContent = freshnessText(d.price_freshness);
    $("#recommend-freshness").hidden = !$("#recommend-freshness").textContent;
    var checked = {};
    candidates().forEach(function (c) {
      var cb = el("input", { type: "checkbox", "class": "compare", "data-rank": c.rank, "aria-label": t("c_compare") + " " + c.rank });
      var ws = shownWarnings(c);
      var flags = el("td", null,
        c.pareto ? badge(t("pareto"), "pareto") : null,
        ws.length ? badge(t("warnings_n", ws.length), "warn", ws.map(function (w) { return w.text; }).join("\n")) : null);
      var unit = c.unit_cost ? num(c.unit_cost.value, 4) + " " + c.unit_cost.unit : (c.per_month_usd != null ? usd(c.per_month_usd) + "/" + t("per_month").replace("$ / ", "").replace("$ per ", "") : "–");
      var tr = el("tr", { "data-rank": c.rank, "data-offer": c.offer, tabindex: "0" },
        el("td", null, cb),
        el("td", { "class": "num", text: c.rank }),
        el("td", { title: c.instance_type + " @ " + c.region }, c.offer, el("small", { "class": "hint", text: " " + c.region })),
        el("td", { text: c.gpu + " × " + c.gpus + (c.nodes > 1 ? " (" + c.nodes + " " + t("nodes") + ")" : "") }),
        el("td", { text: mode(c.pricing) }),
        el("td", { "class": "num", text: range(c.duration_hours, c.duration_hours_p10, c.duration_hours_p90, function (v) { return num(v, 1); }) }),
        el("td", { "class": "num", text: range(total(c), c.cost_usd && c.cost_usd.p10, c.cost_usd && c.cost_usd.p90, usd) }),
        el("td", { "class": "num", text: unit }),
        el("td", { text: c.bottleneck || "–" }),
        flags);
      if (rec.selected === c.rank) tr.classList.add("selected");
      tb.appendChild(tr);
    });
    (rec.compare || []).forEach(function (r) { var b = $("#candidates-table input.compare[data-rank='" + r + "']"); if (b) b.checked = true; });
    updateCompareButton();
    drawPareto();
    var ex = (d.excluded || []), ul = clear($("#excluded-list"));
    $("#excluded-box summary").textContent = t("excluded_n", ex.length);
    ex.slice(0, 200).forEach(function (x) {
      ul.appendChild(el("li", { "data-code": x.reason_code }, el("code", { text: x.offer + " " + x.region + " ×" + x.gpus + (x.pricing ? " " + mode(x.pricing) : "") }), " ", x.reason));
    });
    var notes = clear($("#recommend-notes"));
    (d.notes || []).forEach(function (n) { notes.appendChild(el("li", { text: n })); });
    if (rec.selected != null && cand(rec.selected)) showDetail(rec.selected, true);
    if (!$("#compare-panel").hidden) renderCompare();
  }

  // ---------- charts ----------
  function niceTicks(lo, hi, n) {
    if (!(hi > lo)) { hi = lo + 1; }
    var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n))), err = (hi - lo) / n / step;
    if (err >= 7.5) step *= 10; else if (err >= 3.5) step *= 5; else if (err >= 1.5) step *= 2;
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
    return out;
  }
  function logTicks(lo, hi) {
    var out = [];
    for (var e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      [1, 2, 5].forEach(function (m) { var v = m * Math.pow(10, e); if (v >= lo && v <= hi) out.push(v); });
    }
    return out;
  }
  function short(v) {
    var a = Math.abs(v);
    if (a >= 1e6) return num(v / 1e6, 1) + "M";
    if (a >= 1e4) return num(v / 1e3, 0) + "k";
    return num(v, a < 10 ? 2 : 0);
  }

  // axes returns a scale pair and draws the frame of a W×H chart into svg.
  function axes(svg, W, H, m, xs, ys, xLabel, yLabel, logY) {
    var xlo = Math.min.apply(null, xs), xhi = Math.max.apply(null, xs);
    var ylo = Math.min.apply(null, ys), yhi = Math.max.apply(null, ys);
    if (xhi === xlo) { xlo -= 1; xhi += 1; }
    if (logY) { ylo = ylo / 1.3; yhi = yhi * 1.3; } else { ylo = Math.min(0, ylo); if (yhi === ylo) yhi = ylo + 1; yhi *= 1.05; }
    var fx = function (v) { return m.l + (v - xlo) / (xhi - xlo) * (W - m.l - m.r); };
    var fy = logY
      ? function (v) { return H - m.b - (Math.log(v) - Math.log(ylo)) / (Math.log(yhi) - Math.log(ylo)) * (H - m.t - m.b); }
      : function (v) { return H - m.b - (v - ylo) / (yhi - ylo) * (H - m.t - m.b); };
    (logY ? logTicks(ylo, yhi) : niceTicks(ylo, yhi, 4)).forEach(function (v) {
      var y = fy(v);
      svg.appendChild(sv("line", { "class": "grid", x1: m.l, x2: W - m.r, y1: y, y2: y }));
      svg.appendChild(sv("text", { x: m.l - 4, y: y + 4, "text-anchor": "end" }, short(v)));
    });
    niceTicks(xlo, xhi, 5).forEach(function (v) {
      var x = fx(v);
      svg.appendChild(sv("line", { "class": "axis", x1: x, x2: x, y1: H - m.b, y2: H - m.b + 4 }));
      svg.appendChild(sv("text", { x: x, y: H - m.b + 16, "text-anchor": "middle" }, short(v)));
    });
    svg.appendChild(sv("line", { "class": "axis", x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b }));
    svg.appendChild(sv("line", { "class": "axis", x1: m.l, x2: m.l, y1: m.t, y2: H - m.b }));
    svg.appendChild(sv("text", { x: (m.l + W - m.r) / 2, y: H - 4, "text-anchor": "middle" }, xLabel));
    svg.appendChild(sv("text", { x: 12, y: (m.t + H - m.b) / 2, "text-anchor": "middle",
      transform: "rotate(-90 12 " + (m.t + H - m.b) / 2 + ")" }, yLabel));
    return { x: fx, y: fy };
  }

  // drawPareto plots every candidate's total cost against its duration (for
  // services: $ per month against time to first token) and joins the front.
  function drawPareto() {
    var fig = $("#pareto");
    $$("svg, p.status", fig).forEach(function (n) { fig.removeChild(n); });
    var cs = candidates(), X = "duration_hours", Y = total, xl = t("x_hours"), yl = t("y_cost");
    var pts = cs.filter(function (c) { return c[X] != null && Y(c) != null; });
    if (!pts.length) {
      X = "ttft_ms"; Y = function (c) { return c.per_month_usd; }; xl = t("x_ttft"); yl = t("y_month");
      pts = cs.filter(function (c) { return c[X] != null && Y(c) != null; });
    }
    if (!pts.length) { fig.appendChild(el("p", { "class": "status", text: t("no_chart") })); return; }
    var W = 560, H = 320, m = { l: 56, r: 14, t: 12, b: 38 };
    var svg = sv("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": t("pareto_caption") });
    var ys = pts.map(Y), logY = Math.min.apply(null, ys) > 0 && Math.max.apply(null, ys) / Math.min.apply(null, ys) > 20;
    var s = axes(svg, W, H, m, pts.map(function (c) { return c[X]; }), ys, xl, yl + (logY ? " (log)" : ""), logY);
    var front = pts.filter(function (c) { return c.pareto; }).sort(function (a, b) { return a[X] - b[X]; });
    if (front.length > 1) {
      svg.appendChild(sv("polyline", { "class": "front", points: front.map(function (c) { return s.x(c[X]) + "," + s.y(Y(c)); }).join(" ") }));
    }
    pts.slice().reverse().forEach(function (c) {
      var g = sv("circle", { "class": "pt" + (c.pareto ? " pareto" : "") + (rec.selected === c.rank ? " sel" : ""),
        cx: s.x(c[X]), cy: s.y(Y(c)), r: 5, "data-rank": c.rank });
      g.appendChild(sv("title", {}, "#" + c.rank + " " + c.offer + " · " + mode(c.pricing) + " · " + num(c[X], 1) + " · " + usd(Y(c))));
      g.addEventListener("click", function () { showDetail(c.rank); });
      svg.appendChild(g);
      if (c.rank <= 3) svg.appendChild(sv("text", { x: s.x(c[X]) + 7, y: s.y(Y(c)) - 6 }, "#" + c.rank));
    });
    fig.appendChild(svg);
  }

  function lineChart(title, key, xs, ys, yLabel) {
    var W = 400, H = 220, m = { l: 46, r: 10, t: 10, b: 36 };
    var box = el("div", { "data-chart": key }, el("h4", { text: title }));
    var svg = sv("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title });
    var s = axes(svg, W, H, m, xs, ys.concat([0]), t("x_time_h"), yLabel, false);
    svg.appendChild(sv("polyline", { "class": "line", points: xs.map(function (x, i) { return s.x(x).toFixed(1) + "," + s.y(ys[i]).toFixed(1); }).join(" ") }));
    box.appendChild(svg);
    return box;
  }

  // ---------- candidate detail ----------
  var COST_PARTS = [["compute", "#0b5cad"], ["storage", "#8250df"], ["egress", "#bf8700"], ["setup", "#1a7f37"], ["spot_overhead", "#cf222e"]];

  function kv(rows) {
    var dl = el("dl", { "class": "kv" });
    rows.forEach(function (r) { if (r[1] == null || r[1] === "–") return; dl.appendChild(el("dt", { text: r[0] })); dl.appendChild(el("dd", { text: r[1] })); });
    return dl;
  }

  function showDetail(rank, keepExtras) {
    var c = cand(rank); if (!c) return;
    rec.selected = rank;
    $$("#candidates-table tbody tr").forEach(function (tr) { tr.classList.toggle("selected", +tr.dataset.rank === rank); });
    $$("#pareto circle").forEach(function (p) { p.classList.toggle("sel", +p.getAttribute("data-rank") === rank); });
    var p = clear($("#candidate-detail"));
    p.hidden = false;
    p.dataset.rank = rank;
    var close = el("button", { type: "button", "class": "close", text: t("close") });
    close.addEventListener("click", function () { p.hidden = true; rec.selected = null; });
    p.appendChild(close);
    p.appendChild(el("h4", { text: t("detail_heading", c.rank, c.offer) }));
    p.appendChild(kv([
      [t("region"), c.region + (c.country ? " (" + c.country + ")" : "")],
      [t("gpus"), c.gpu + " × " + c.gpus + (c.nodes > 1 ? ", " + c.nodes + " " + t("nodes") : "")],
      [t("pricing"), mode(c.pricing)],
      [t("price_h"), c.price_per_hour_usd != null ? usd(c.price_per_hour_usd) : null],
      [t("hours"), c.duration_hours != null ? num(c.duration_hours, 2) : null],
      [t("throughput"), c.throughput ? num(c.throughput.value, 1) + " " + c.throughput.unit : null],
      [t("utilization"), c.utilization != null ? pct(c.utilization) : null],
      [t("bottleneck"), c.bottleneck],
      [t("unit_cost"), c.unit_cost ? num(c.unit_cost.value, 4) + " " + c.unit_cost.unit : null],
      [t("tokens_per_dollar"), c.tokens_per_dollar != null ? num(c.tokens_per_dollar, 0) : null],
      [t("replicas"), c.replicas_needed ? String(c.replicas_needed) : null],
      [t("per_hour"), c.per_hour_usd != null ? usd(c.per_hour_usd) : null],
      [t("per_month"), c.per_month_usd != null ? usd(c.per_month_usd) : null],
      [t("ttft"), c.ttft_ms != null ? num(c.ttft_ms, 0) : null],
      [t("tpot"), c.tpot_ms != null ? num(c.tpot_ms, 1) : null],
      [t("price_date"), c.price_as_of]
    ]));

    p.appendChild(el("h5", { text: t("cost_breakdown") }));
    if (c.cost_usd) {
      var bar = el("div", { "class": "bar", id: "cost-bar" }), leg = el("div", { "class": "legend" });
      COST_PARTS.forEach(function (cp) {
        var v = c.cost_usd[cp[0]] || 0;
        if (v > 0 && c.cost_usd.total > 0) bar.appendChild(el("span", { style: "width:" + (v / c.cost_usd.total * 100) + "%;background:" + cp[1], title: t(cp[0]) + " " + usd(v) }));
      });
      p.appendChild(kv(COST_PARTS.map(function (cp) { return [t(cp[0]), usd(c.cost_usd[cp[0]])]; }).concat([[t("total"), usd(c.cost_usd.total)]])));
      p.appendChild(bar);
      COST_PARTS.forEach(function (cp) { leg.appendChild(el("span", null, el("i", { style: "background:" + cp[1] }), t(cp[0]))); });
      p.appendChild(leg);
    } else {
      p.appendChild(el("p", { "class": "status", text: "–" }));
    }

    p.appendChild(el("h5", { text: t("warnings") }));
    var wl = el("ul", { id: "detail-warnings" }), ws = shownWarnings(c);
    ws.forEach(function (w) { wl.appendChild(el("li", { "data-code": w.code, text: w.text })); });
    p.appendChild(ws.length ? wl : el("p", { "class": "status", text: t("no_warnings") }));

    p.appendChild(el("h5", { text: t("verdicts") }));
    var vd = el("div", { id: "detail-verdicts" }, el("p", { "class": "status", text: t("checking") }));
    p.appendChild(vd);
    var ex = el("details", { id: "detail-explain" }, el("summary", { text: t("explain") }));
    var pre = el("div", { "class": "explain", text: t("loading") });
    ex.appendChild(pre);
    p.appendChild(ex);

    var wl8 = $("#workload").value;
    api("POST", "/api/v1/check", { workload: wl8, gpu: c.gpu, offer: c.offer, region: c.region }).then(function (d) {
      if (rec.selected !== rank) return;
      clear(vd);
      [["compat", d.compat, "reasons"], ["compliance", d.compliance, "requirements"]].forEach(function (part) {
        if (!part[1]) return;
        vd.appendChild(el("p", null, el("strong", { text: t(part[0]) + ": " }), badge(part[1].verdict, verdictClass(part[1].verdict))));
        var ul = el("ul");
        (part[1][part[2]] || []).forEach(function (r) {
          ul.appendChild(el("li", { title: r.source || "" }, badge(r.verdict, verdictClass(r.verdict)), " ",
            r.name ? r.name + ": " : "", r.text || r.reason || "", r.fix ? " → " + r.fix : ""));
        });
        vd.appendChild(ul);
      });
    }, function (e) { clear(vd).appendChild(el("p", { "class": "status error", text: t("failed", errText(e)) })); });
    var loaded = false;
    ex.addEventListener("toggle", function () {
      if (!ex.open || loaded) return;
      loaded = true;
      api("POST", "/api/v1/explain", { workload: wl8, offer: c.offer, lang: lang }).then(function (d) {
        pre.textContent = (d && d.text) || "";
      }, function (e) { pre.textContent = t("failed", errText(e)); loaded = false; });
    });
    if (!keepExtras && window.matchMedia && window.matchMedia("(max-width: 760px)").matches) p.scrollIntoView({ behavior: "smooth" });
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
    var cs = compareRanks().map(cand).filter(Boolean), p = clear($("#compare-panel"));
    if (cs.length < 2) { p.hidden = true; return; }
    p.hidden = false;
    p.appendChild(el("h4", { text: t("compare_heading") }));
    var rows = [
      [t("region"), function (c) { return c.region; }],
      [t("gpus"), function (c) { return c.gpu + " × " + c.gpus; }],
      [t("pricing"), function (c) { return mode(c.pricing); }],
      [t("price_h"), function (c) { return c.price_per_hour_usd; }, usd, -1],
      [t("hours"), function (c) { return c.duration_hours; }, function (v) { return num(v, 2); }, -1],
      [t("compute"), function (c) { return c.cost_usd && c.cost_usd.compute; }, usd, -1],
      [t("storage"), function (c) { return c.cost_usd && c.cost_usd.storage; }, usd, -1],
      [t("egress"), function (c) { return c.cost_usd && c.cost_usd.egress; }, usd, -1],
      [t("setup"), function (c) { return c.cost_usd && c.cost_usd.setup; }, usd, -1],
      [t("spot_overhead"), function (c) { return c.cost_usd && c.cost_usd.spot_overhead; }, usd, -1],
      [t("total"), total, usd, -1],
      [t("per_month"), function (c) { return c.per_month_usd; }, usd, -1],
      [t("tokens_per_dollar"), function (c) { return c.tokens_per_dollar; }, function (v) { return num(v, 0); }, 1],
      [t("utilization"), function (c) { return c.utilization; }, pct, 1],
      [t("bottleneck"), function (c) { return c.bottleneck; }],
      [t("warnings_count"), function (c) { return shownWarnings(c).length; }, String, -1]
    ];
    var tbl = el("table", { "class": "data compare-table", id: "compare-table" });
    var hr = el("tr", null, el("th"));
    cs.forEach(function (c) { hr.appendChild(el("th", { text: "#" + c.rank + " " + c.offer })); });
    tbl.appendChild(el("thead", null, hr));
    var tb = el("tbody");
    rows.forEach(function (r) {
      var vals = cs.map(r[1]);
      if (vals.every(function (v) { return v == null; })) return;
      var best = null;
      if (r[3]) vals.forEach(function (v) { if (v != null && (best == null || (r[3] < 0 ? v < best : v > best))) best = v; });
      var tr = el("tr", null, el("th", { text: r[0] }));
      vals.forEach(function (v) {
        var td = el("td", { "class": r[2] ? "num" : "", text: v == null ? "–" : r[2] ? r[2](v) : String(v) });
        if (best != null && v === best && vals.filter(function (x) { return x === best; }).length < vals.length) td.style.fontWeight = "700";
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    tbl.appendChild(tb);
    p.appendChild(el("div", { "class": "scroll" }, tbl));
  }

  // ---------- simulate ----------
  var sim = { id: null, timer: null, result: null };

  function runSim() {
    stopPoll();
    var st = $("#sim-status"), pr = $("#sim-progress");
    st.className = "status"; st.textContent = t("sim_queued");
    pr.hidden = false; pr.value = 0;
    clear($("#sim-charts")); clear($("#sim-summary")); sim.result = null;
    $("#sim-run").disabled = true;
    api("POST", "/api/v1/simulations", { service: $("#service").value }).then(function (d) {
      sim.id = d.id; $("#sim-cancel").hidden = false;
      if (d.result) return simDone(d);
      poll();
    }, simFail);
  }
  function stopPoll() { if (sim.timer) clearTimeout(sim.timer); sim.timer = null; }
  function poll() {
    sim.timer = setTimeout(function () {
      var id = sim.id;
      api("GET", "/api/v1/simulations/" + encodeURIComponent(id)).then(function (d) {
        if (id !== sim.id) return;
        var s = d.status;
        if (d.result && (s == null || s === "done" || s === "succeeded" || s === "completed")) return simDone(d);
        if (s === "failed" || s === "error" || s === "canceled" || s === "cancelled" || d.error) return simFail(d.error || { message: s });
        $("#sim-progress").value = d.progress || 0;
        $("#sim-status").textContent = s === "queued" ? t("sim_queued") : t("sim_running", Math.round((d.progress || 0) * 100));
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
    if (e && e.line) msg = t("line", e.line) + ": " + (e.field ? e.field + ": " : "") + msg;
    st.textContent = t("failed", msg);
  }
  function simDone(d) {
    simEnd();
    $("#sim-status").textContent = t("sim_done");
    sim.result = d.result; renderSim(d.result);
  }
  function cancelSim() {
    if (!sim.id) return;
    var id = sim.id; sim.id = null; stopPoll(); simEnd();
    $("#sim-status").textContent = t("sim_canceled");
    api("DELETE", "/api/v1/simulations/" + encodeURIComponent(id)).catch(function () { /* already gone */ });
  }

  function renderSim(r) {
    var sum = clear($("#sim-summary"));
    var lat = r.latency_s || {}, tt = r.ttft_s || {};
    sum.appendChild(kv([
      [t("requests"), num(r.requests, 0)], [t("completed"), num(r.completed, 0)], [t("dropped"), num(r.dropped, 0)],
      [t("latency_p95"), num(lat.p95, 2)], [t("latency_p99"), num(lat.p99, 2)], [t("ttft_p95"), num(tt.p95, 2)],
      [t("slo_violations"), pct(r.slo_violation_fraction)], [t("slo_met"), r.slo_met == null ? null : t(r.slo_met ? "yes" : "no")],
      [t("replica_hours"), num(r.replica_hours, 1)], [t("peak_replicas"), r.peak_replicas == null ? null : String(r.peak_replicas)],
      [t("cold_starts"), r.cold_starts == null ? null : num(r.cold_starts, 0)],
      [t("utilization"), pct(r.utilization)], [t("cost_usd"), usd(r.cost_usd)]
    ]));
    var ch = clear($("#sim-charts")), s = r.series || [];
    if (!s.length) return;
    var xs = s.map(function (p) { return p.t_s / 3600; });
    ch.appendChild(lineChart(t("ch_traffic"), "traffic", xs, s.map(function (p) { return p.arrivals_per_s; }), "req/s"));
    ch.appendChild(lineChart(t("ch_replicas"), "replicas", xs, s.map(function (p) { return p.replicas; }), t("replicas")));
    ch.appendChild(lineChart(t("ch_latency"), "latency", xs, s.map(function (p) { return p.p95_latency_s; }), "s"));
  }

  // ---------- save workload ----------
  function saveWorkload() {
    var st = $("#save-status");
    st.className = "status"; st.textContent = "";
    api("POST", "/api/v1/workloads", { name: $("#save-name").value.trim(), body: $("#workload").value }).then(function () {
      st.textContent = t("saved");
    }, function (e) { st.className = "status error"; st.textContent = t("failed", errText(e)); });
  }

  // ---------- wiring ----------
  function init() {
    var l = "en";
    try { l = localStorage.getItem("gpupick.lang") || ""; } catch (e) { l = ""; }
    if (!l) l = /^zh/i.test(navigator.language || "") ? "zh" : "en";
    $("#workload").value = EXAMPLE_WORKLOAD;
    $("#service").value = EXAMPLE_SERVICE;
    setLang(l);

    $("#lang").addEventListener("change", function () { setLang(this.value); });
    $$(".tabs button").forEach(function (b) { b.addEventListener("click", function () { showTab(b.dataset.tab); }); });
    var h = location.hash.replace("#", "");
    showTab(["offers", "recommend", "simulate"].indexOf(h) >= 0 ? h : "offers");

    var reload = function () { offers.page = 1; loadOffers(); };
    $("#offers-filter").addEventListener("submit", function (e) { e.preventDefault(); reload(); });
    $$("#offers-filter select").forEach(function (s) { s.addEventListener("change", reload); });
    var typed = debounce(reload, 350);
    $$("#offers-filter input").forEach(function (s) { s.addEventListener("input", typed); });
    $("#offers-prev").addEventListener("click", function () { if (offers.page > 1) { offers.page--; loadOffers(); } });
    $("#offers-next").addEventListener("click", function () { offers.page++; loadOffers(); });

    $("#workload").addEventListener("input", debounce(validateNow, 400));
    $("#recommend-form").addEventListener("submit", runRecommend);
    $("#save-run").addEventListener("click", saveWorkload);
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

    $("#sim-run").addEventListener("click", runSim);
    $("#sim-cancel").addEventListener("click", cancelSim);

    loadFilterLists();
    loadOffers();
    validateNow();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
