package report

// trImageService: image-generation services in internal/advisor (their
// fleets, exclusions and assumptions).
var trImageService = map[string]string{
	"no batch from %d down to 1 fits on %s": "从 %d 到 1 的任何批大小在 %s 上都放不下",
	"no batch meets the latency SLO on %s: one pipeline call at batch 1 takes %.3g s, and %.3g s at p%g leaves no room for a request to wait for the call ahead of it":                                         "在 %s 上没有任何批大小满足延迟 SLO：批大小为 1 的一次生成调用需要 %.3g 秒，而 %.3g 秒（p%g）的目标不留请求等待前一次调用的余地",
	"image service: %d replica(s) on %d instance(s), pipeline calls of %d image(s) taking %.3g s, %.3g requests/s each (%.0f%% busy, the rest is the headroom the %.3g s p%g latency SLO leaves for queueing)": "图像服务：%d 个副本，%d 台实例，每次生成调用 %d 张、耗时 %.3g 秒，每个副本承载 %.3g 请求/秒（繁忙 %.0f%%，其余是 %.3g 秒（p%g）延迟 SLO 为排队留出的余量）",
}
