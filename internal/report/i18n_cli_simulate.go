package report

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
	for k, v := range cliSimulate17 {
		cliMessages[k] = v
	}
}
