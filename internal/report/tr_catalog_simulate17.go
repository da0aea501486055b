package report

// trSimulate17: issue 17's additions to internal/autoscale (the CPU tier,
// the drain mode, packed replicas, the compare block). Merged into
// trAutoscale at init so that Tr finds them with the simulator's others.
var trSimulate17 = map[string]string{
	// issue 18: a sharded search's flags (autoscale/shard.go)
	"want 1 to %d shards, got %d":                                                                                  "分片数应为 1 到 %d，实际为 %d",
	"want a shard index from 0 to %d (of --shards %d), got %d":                                                     "分片序号应为 0 到 %d（共 --shards %d 个），实际为 %d",
	"give either speed or mean_s, not both":                                                                        "speed 和 mean_s 只能给出其一",
	"the fallback tier must not be faster than the main one (service.mean_s = %v s), got %v s":                     "后备层不得快于主层（service.mean_s = %v 秒），实际为 %v 秒",
	"required: service speed of the fallback tier relative to the main one (or mean_s, its service time)":          "必填：后备层相对主层的服务速度（或 mean_s，其服务时间）",
	"used only in mode replace; in mode drain the tier serves while requests wait and the burst tier is scaled in": "仅用于 replace 模式；在 drain 模式下，该层在有请求等待且突发层已缩容时服务",
	"give either this or policy.fallback.instance (whose price is used), not both":                                 "此项与 policy.fallback.instance（使用其价格）只能给出其一",
	"required with a fallback tier (or policy.fallback.instance, a CPU instance whose price is used)":              "有后备层时必填（或给出 policy.fallback.instance，使用该 CPU 实例的价格）",
	"unknown CPU instance %q; known: %s":                                                                           "未知的 CPU 实例 %q；已知：%s",
	"pricing.fallback_per_hour_usd = %v (the on-demand price of %s in %s)":                                         "pricing.fallback_per_hour_usd = %v（%s 在 %s 的按需价格）",
	"the on-demand price of %s in %s":                                                                              "%s 在 %s 的按需价格",
	"not set; the fallback tier replaces the GPUs at low traffic":                                                  "未设置；低流量时后备层替代 GPU",
	"not set; one replica per instance":                                                                            "未设置；每个实例一个副本",
	"required: a name for the variant":                                                                             "必填：变体的名称",
	"%q names another variant too":                                                                                 "%q 也是另一个变体的名称",
	"the file is not a mapping":                                                                                    "文件不是映射",
	"want a list of variants":                                                                                      "需要变体列表",
	"compare[%d]":                                                                                                  "compare[%d]", // a field path
	"%s %s, %s, %d vCPU: %s (%s)":                                                                                  "%s %s，%s，%d 个 vCPU：%s（%s）",
	"no variants to compare":                                                                                       "没有可比较的变体",
	"want the header %s":                                                                                           "表头应为 %s",
	"want a lowercase provider, an instance type and a region":                                                     "需要小写的提供商、实例类型和区域",
	"want a positive integer, got %q":                                                                              "需要正整数，实际为 %q",
	"want a positive number, got %q":                                                                               "需要正数，实际为 %q",
	"want true or false, got %q":                                                                                   "需要 true 或 false，实际为 %q",
	"want a positive price, got %q":                                                                                "需要正的价格，实际为 %q",
	"want USD, got %q":                                                                                             "需要 USD，实际为 %q",
	"every price needs its source":                                                                                 "每个价格都需要注明来源",
	"want YYYY-MM-DD, got %q":                                                                                      "需要 YYYY-MM-DD，实际为 %q",
	"%s in %s appears twice":                                                                                       "%s（%s）出现了两次",
	"it has no MIG profiles":                                                                                       "它没有 MIG 配置",
	"its profiles: ":                                                                                               "它的配置：",
	"the offer is itself a fraction of a GPU":                                                                      "该报价本身就是 GPU 的一部分",
	"a service file with a compare block is needed for --compare (see examples/service-image-api.yaml)": "--compare 需要带 compare 块的服务文件（见 examples/service-image-api.yaml）",
}

// cliSimulate17 are the CLI phrases of simulate --compare, in English and
// Chinese.
var cliSimulate17 = map[string][2]string{
	"cmp.head":         {"%s: %d fleets over %.1f h of the same traffic; SLO %g s for %g%% of requests", "%[1]s：%[2]d 种机群，相同流量下 %.1[3]f 小时；SLO 为 %[5]g%% 的请求在 %[4]g 秒内"},
	"cmp.variant":      {"VARIANT", "变体"},
	"cmp.per_k":        {"$/1K REQ", "每千请求（美元）"},
	"cmp.p95":          {"P95 s", "P95（秒）"},
	"cmp.p99":          {"P99 s", "P99（秒）"},
	"cmp.mean":         {"MEAN REPLICAS", "平均副本"},
	"cmp.peak":         {"PEAK", "峰值"},
	"cmp.best":         {"Cheapest that meets the SLO: %s, $%.2f, p95 %.1f s.", "满足 SLO 的最便宜方案：%s，%.2f 美元，p95 %.1f 秒。"},
	"cmp.none":         {"No variant meets the SLO.", "没有变体满足 SLO。"},
	"cmp.chart_title":  {"%s: %d fleets over %.1f h", "%s：%d 种机群，%.1f 小时"},
	"cmp.chart_cost":   {"cost", "成本"},
	"cmp.chart_cost_y": {"USD", "美元"},
	"cmp.chart_p99":    {"p99 end-to-end latency", "p99 端到端延迟"},
	"cmp.chart_met":    {"meets the SLO", "满足 SLO"},
	"cmp.chart_missed": {"misses the SLO", "未满足 SLO"},
	"cmp.wrote":        {"gpupick: wrote the chart to %s (cost and p99 latency of each fleet)", "gpupick：图表已写入 %s（各机群的成本和 p99 延迟）"},
}

func init() {
	for k, v := range trSimulate17 {
		trAutoscale[k] = v
	}
	for k, v := range cliSimulate17 {
		cliMessages[k] = v
	}
}
