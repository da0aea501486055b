package report

import (
	"io"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// An image-generation service is rendered by the LLM service's renderers:
// the same columns, answer block, JSON and chart, with its own figures
// where an LLM service has tokens: the latency of one pipeline call (s)
// against the SLO instead of time to first token and per output token,
// and USD per thousand images instead of per million tokens.

// imageMessages are the English and Chinese of an image service's labels.
var imageMessages = map[string][2]string{
	"col_latency":     {"LATENCY s", "延迟(秒)"},
	"col_unit":        {"$/K IMAGES", "$/千张图"},
	"col_unit_vid":    {"$/K VIDEOS", "$/千段视频"},
	"s_v":             {"%s s", "%s 秒"},
	"head_svc":        {"Serve it on %s in %s (%s): %s on %s, %s per month (%s per hour), %s per image (one pipeline call of %d).", "选择 %s（%s，%s）部署服务：%s，共 %s，每月 %s（每小时 %s），每张图延迟 %s（每次调用 %d 张）。"},
	"svc_line":        {"%s; %s per hour, %s per month, %s per thousand images", "%s；每小时 %s，每月 %s，每千张图 %s"},
	"latency_line":    {"latency of one pipeline call of %d image(s) %s", "一次生成调用（%d 张）的延迟 %s"},
	"slo_vs":          {"%s (SLO %s at p%s)", "%s（SLO：p%[3]s 不超过 %[2]s）"},
	"f_latency":       {"Latency per image", "每张图延迟"},
	"latency_name":    {"latency per image", "每张图延迟"},
	"chart_svc":       {"Cost per month (USD) against the latency of one image (s), log scales; the Pareto front in red", "每月成本（美元）与每张图延迟（秒），对数坐标；红色为帕累托前沿"},
	"chart_x_svc":     {"latency of one image (s)", "每张图延迟（秒）"},
	"chart_slo":       {"SLO %s s", "SLO %s 秒"},
	"risk_slo":        {"The predicted %s of %s is within 10%% of the SLO (%s): little headroom for bursts.", "预测的%s %s 距 SLO（%s）不足 10%%：应对突发的余量很小。"},
	"pred_latency":    {"latency", "延迟"},
	"pred_latency_u":  {"s per pipeline call of %d", "秒/次调用（每次 %d 张）"},
	"pred_per_img":    {"seconds per image", "每张图耗时"},
	"pred_per_img_u":  {"s, whole cluster", "秒（整个集群）"},
	"pred_groups":     {"Replicas: %d GPU group(s) of %d GPU(s), each running its own pipeline calls of %d", "副本：%d 组 GPU，每组 %d 块，各自执行每次 %d 张的生成调用"},
	"pred_no_slo":     {"; no replica count meets the latency SLO", "；任何副本数都无法满足延迟 SLO"},
	"pred_setup_head": {"Setup", "设置"},
	"pred_setup":      {"model %s, %d x %d, %s, %d steps, guidance %s, %s, engine %s", "模型 %s，%d x %d，%s，%d 步，引导 %s，%s，引擎 %s"},
	"on":              {"on", "开"},
	"off":             {"off", "关"},
	"frames_v":        {"%d frames", "%d 帧"},
	"one_image":       {"1 frame", "1 帧"},
}

// imm is an image service's message in l.
func imm(l Lang, key string, args ...any) string { return phrase(imageMessages, l, key, args...) }

// imageResult reports whether r is an image-generation service: from its
// workload, or (no workload) from a candidate predicted as one.
func imageResult(r *advisor.Result) bool {
	if s := r.Spec; s != nil {
		return s.Kind == workload.KindImageGeneration && advisor.IsService(s)
	}
	for _, c := range r.Candidates {
		if c.Pred != nil && c.Pred.LatencyS != nil && c.Pred.TTFTMs == nil && c.PerMonthUSD > 0 {
			return true
		}
	}
	return false
}

// sText says seconds: "3.2 s".
func sText(l Lang, v *float64) string {
	if v == nil {
		return msg(l, "unknown")
	}
	return imm(l, "s_v", sig(*v))
}

// imageSLO is the image service's latency SLO, seconds, and its
// percentile (0 when none).
func imageSLO(s *workload.Spec) (latencyS, percentile float64) {
	if s == nil || s.Image == nil {
		return 0, 0
	}
	return s.Image.SLO.LatencyS, s.Image.SLO.Percentile
}

// WriteImagePrediction renders an image-generation prediction like
// WritePrediction, with a line that says what was asked for: the preset,
// size, steps, guidance, precision and engine of spec.
func WriteImagePrediction(w io.Writer, p perf.Prediction, spec *workload.Spec, l Lang) error {
	return writePrediction(w, p, imageSetup(spec, l), l)
}

// imageSetup says what an image workload asks for, "" for another kind.
func imageSetup(spec *workload.Spec, l Lang) string {
	if spec == nil || spec.Image == nil || spec.Kind != workload.KindImageGeneration {
		return ""
	}
	im := spec.Image
	model := "-"
	if spec.Model != nil && spec.Model.Preset != "" {
		model = spec.Model.Preset
	}
	frames := imm(l, "one_image")
	if im.Frames > 1 {
		frames = imm(l, "frames_v", im.Frames)
	}
	guidance := imm(l, "off")
	if im.Guidance != nil && *im.Guidance {
		guidance = imm(l, "on")
	}
	return imm(l, "pred_setup", model, im.Width, im.Height, frames, im.Steps, guidance, string(im.Precision), string(spec.Stack.Framework))
}

// imageRows adds an image prediction's rows after its throughput: seconds
// per image for the cluster, the latency of one pipeline call, each with
// its 80% range (from the speed interval).
func imageRows(t *Table, p perf.Prediction, span func(lo, hi *float64, prec int) string, l Lang) {
	inv := func(v float64, f float64) *float64 {
		if f <= 0 {
			return nil
		}
		x := v / f
		return &x
	}
	var lo, hi float64 // speed p10, p90 against predicted
	if iv := p.Interval; iv != nil {
		lo, hi = iv.SpeedP10, iv.SpeedP90
	}
	if v := p.SecondsPerImage; v != nil {
		d := sigDecimals(*v, 3)
		t.Add(imm(l, "pred_per_img"), cliFixed(*v, d), span(inv(*v, hi), inv(*v, lo), d), imm(l, "pred_per_img_u"))
	}
	if v := p.LatencyS; v != nil {
		d := sigDecimals(*v, 3)
		t.Add(imm(l, "pred_latency"), cliFixed(*v, d), span(inv(*v, hi), inv(*v, lo), d), imm(l, "pred_latency_u", p.Parallelism.MicroBatch))
	}
}

// imageLayout is an image prediction's layout line: the GPU groups, each
// running its own pipeline calls, and a service's sizing.
func imageLayout(p perf.Prediction, l Lang) string {
	pl := p.Parallelism
	s := imm(l, "pred_groups", max(1, pl.Replicas), max(1, pl.Context), pl.MicroBatch)
	if sv := p.Serving; sv != nil && sv.Sustainable != nil {
		s += tc(l, "pred.load", sv.Load*100)
		if sv.ReplicasNeeded > 0 {
			s += tc(l, "pred.needed", sv.ReplicasNeeded)
		} else {
			s += imm(l, "pred_no_slo")
		}
	}
	return s
}
