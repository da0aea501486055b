package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// WritePrediction renders a prediction for people, in l: the verdict first,
// then the numbers with units, the step breakdown, memory, and every
// assumption. The model's sentences go through Tr.
func WritePrediction(w io.Writer, p perf.Prediction, l Lang) error {
	return writePrediction(w, p, "", l)
}

// writePrediction is WritePrediction with a line that says what an image
// workload asked for (setup, "" for none), before the assumptions.
func writePrediction(w io.Writer, p perf.Prediction, setup string, l Lang) error {
	image := p.Kind == string(workload.KindImageGeneration)
	var b strings.Builder
	count := strconv.Itoa(p.GPUs)
	if p.GPUFraction > 0 {
		count = catalog.FractionString(p.GPUFraction) // a slice of one GPU
	}
	where := tc(l, "pred.where", count, p.GPU, p.Nodes)
	if p.Offer != "" {
		where += tc(l, "pred.of", p.Offer)
	}
	fmt.Fprintln(&b, tc(l, "pred.head", kindText(l, string(p.Kind)), where))
	if !p.Fits {
		fmt.Fprintln(&b, tc(l, "pred.nofit", strings.TrimSuffix(Render(l, p.Reason), ".")))
		if !p.Fix.IsZero() {
			fmt.Fprintln(&b, tc(l, "pred.would_fit", Render(l, p.Fix)))
		}
		writeMemory(&b, p.Memory, l)
		writeAssumptions(&b, p, l)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintln(&b, tc(l, "pred.verdict", Render(l, p.Verdict)))
	if !p.Fix.IsZero() {
		fmt.Fprintln(&b, tc(l, "pred.fix", Render(l, p.Fix)))
	}
	b.WriteString("\n")
	t := &Table{Columns: []Column{{tc(l, "col.quantity"), "quantity", false}, {tc(l, "col.value"), "value", true}, {tc(l, "col.range"), "range", true}, {tc(l, "col.unit"), "unit", false}}}
	// Each quantity has its own decimals, the same in its value and range.
	span := func(lo, hi *float64, prec int) string {
		if lo == nil || hi == nil {
			return ""
		}
		return cliFixed(*lo, prec) + "-" + cliFixed(*hi, prec)
	}
	tp := sigDecimals(p.Throughput.Value, 3)
	t.Add(tc(l, "q.throughput"), cliFixed(p.Throughput.Value, tp), span(p.Throughput.P10, p.Throughput.P90, tp), perfUnit(l, p.Throughput.Unit))
	if image {
		imageRows(t, p, span, l)
	}
	if d := p.DurationHours; d != nil {
		// A burst of prompts takes seconds or minutes: never "0.00 hours".
		scale, unit := 1.0, "u.hours"
		switch {
		case *d < 1.0/60:
			scale, unit = 3600, "u.seconds"
		case *d < 1:
			scale, unit = 60, "u.minutes"
		}
		at := func(v *float64) *float64 {
			if v == nil {
				return nil
			}
			x := *v * scale
			return &x
		}
		t.Add(tc(l, "q.duration"), cliFixed(*d*scale, 2), span(at(p.DurationHoursP10), at(p.DurationHoursP90), 2), tc(l, unit))
	}
	if p.TTFTMs != nil {
		t.Add(tc(l, "q.ttft"), cliFixed(*p.TTFTMs, 1), span(p.TTFTMsP10, p.TTFTMsP90, 1), "ms")
	}
	if p.TPOTMs != nil {
		t.Add(tc(l, "q.tpot"), cliFixed(*p.TPOTMs, 1), span(p.TPOTMsP10, p.TPOTMsP90, 1), "ms")
	}
	t.Add(tc(l, "q.step"), cliFixed(p.StepTimeS, sigDecimals(p.StepTimeS, 3)), "", tc(l, "u.s"))
	t.Add("MFU", cliFixed(p.MFU*100, 1), "", tc(l, "u.pct_peak"))
	t.Add(tc(l, "q.util"), cliFixed(p.Utilization*100, 1), "", tc(l, "u.pct_util"))
	t.Add(tc(l, "q.mem"), cliFixed(p.MemoryPerGPUGB, 1), "", tc(l, "u.gb_of", p.Memory.CapacityGB))
	t.Add(tc(l, "q.bottleneck"), bottleneckText(l, p.Bottleneck), "", "")
	t.Add(tc(l, "q.confidence"), confidenceWord(l, p.Confidence), "", "")
	if err := t.WriteText(&b); err != nil {
		return err
	}
	if image {
		b.WriteString("\n" + imageLayout(p, l))
	} else {
		b.WriteString("\n" + llmLayout(p, l))
	}
	b.WriteString("\n" + tc(l, "pred.eff", p.Efficiency*100) + "\n")
	if p.Interval != nil {
		fmt.Fprintln(&b, tc(l, "pred.range", strings.TrimSuffix(Render(l, p.Interval.Basis), ".")))
	}
	if s := p.Serving; s != nil && !image {
		b.WriteString(tc(l, "pred.serving", s.Engine, cliWord(l, s.Batching), cliFixed(s.OfflineTokensS, 0), cliFixed(s.RequestsPerS, 2), cliFixed(s.PrefillMs, 1)))
		if s.MakespanS > 0 {
			b.WriteString(tc(l, "pred.makespan", cliFixed(s.MakespanS, 1)))
		}
		if s.Sustainable != nil {
			b.WriteString(tc(l, "pred.load", s.Load*100))
			if s.ReplicasNeeded > 0 {
				b.WriteString(tc(l, "pred.needed", s.ReplicasNeeded))
			}
		}
		b.WriteString("\n")
	}
	bd := p.Breakdown
	b.WriteString("\n" + tc(l, "pred.breakdown") + "\n")
	bt := &Table{Columns: []Column{{tc(l, "col.part"), "part", false}, {tc(l, "col.seconds"), "s", true}}}
	bt.Add(tc(l, "part.compute"), cliFixed(bd.ComputeS, 4))
	if bd.MemoryS > 0 {
		bt.Add(tc(l, "part.memory"), cliFixed(bd.MemoryS, 4))
	}
	comm := tc(l, "part.comm")
	if bd.CommLink != "" {
		comm += tc(l, "paren", cliWord(l, bd.CommLink))
	}
	bt.Add(comm, cliFixed(bd.CommExposedS, 4))
	bt.Add(tc(l, "part.bubble"), cliFixed(bd.BubbleS, 4))
	bt.Add(tc(l, "part.data"), cliFixed(bd.DataStallS, 4))
	if err := bt.WriteText(&b); err != nil {
		return err
	}
	writeMemory(&b, p.Memory, l)
	if setup != "" {
		b.WriteString("\n" + label(l, imm(l, "pred_setup_head"), setup) + "\n")
	}
	writeAssumptions(&b, p, l)
	_, err := io.WriteString(w, b.String())
	return err
}

// llmLayout is the parallel layout of a training or serving prediction:
// data, tensor and pipeline degrees, then what applies of virtual
// pipeline, context and expert parallelism, micro-batching and replicas.
func llmLayout(p perf.Prediction, l Lang) string {
	var b strings.Builder
	pl := p.Parallelism
	b.WriteString(tc(l, "pred.layout", pl.Data, pl.Tensor, pl.Pipeline))
	if pl.VirtualPipeline > 1 {
		b.WriteString(tc(l, "pred.vpp", pl.VirtualPipeline))
	}
	if pl.Schedule == "dualpipe" {
		b.WriteString(tc(l, "pred.dualpipe"))
	}
	if pl.Context > 1 {
		b.WriteString(tc(l, "pred.context", pl.Context))
	}
	if pl.Expert > 1 {
		b.WriteString(tc(l, "pred.expert", pl.Expert))
	}
	if pl.PrefillGPUs > 0 {
		b.WriteString(tc(l, "pred.disagg", pl.PrefillGPUs, pl.PrefillReplicaGPUs))
	}
	if pl.MicroBatch > 0 {
		b.WriteString(tc(l, "pred.micro", pl.MicroBatch, pl.GradAccumulation, cliWord(l, pl.Sharding), cliWord(l, pl.Recompute)))
		if pl.GlobalBatch > 0 {
			b.WriteString(tc(l, "pred.global", pl.GlobalBatch))
		}
	}
	if s := p.Serving; s != nil {
		b.WriteString(tc(l, "pred.replicas", pl.Replicas, s.Batch, s.MaxBatchMemory, s.MaxBatchSLO))
	}
	return b.String()
}

// sigDecimals is the number of decimals that shows v with sig significant
// digits (0 for large numbers, at most 9).
func sigDecimals(v float64, sig int) int {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return min(9, max(0, sig-1-int(math.Floor(math.Log10(math.Abs(v))))))
}

// cliFixed formats v with prec decimals, never with an exponent.
func cliFixed(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

func writeMemory(b *strings.Builder, m perf.Memory, l Lang) {
	b.WriteString("\n" + tc(l, "pred.memory", m.WeightsGB, m.GradientsGB, m.OptimizerGB, m.ActivationsGB, m.KVCacheGB, m.OverheadGB, m.TotalGB, m.CapacityGB) + "\n")
}

func writeAssumptions(b *strings.Builder, p perf.Prediction, l Lang) {
	b.WriteString("\n" + tc(l, "pred.assumptions") + "\n")
	for _, a := range p.Assumptions {
		fmt.Fprintf(b, "  - %s\n", Render(l, a))
	}
	if lines := evidenceLines(p.Evidence, l); len(lines) > 0 {
		b.WriteString("\n" + heading(l, am(l, "ev_head_job")) + "\n")
		for _, s := range lines {
			fmt.Fprintf(b, "  - %s\n", s)
		}
	}
}

// kindText names a workload kind in l.
func kindText(l Lang, k string) string {
	if l == Chinese {
		if z, ok := kindZh[k]; ok {
			return z
		}
	}
	return k
}

var kindZh = map[string]string{
	"llm-train": "大模型预训练", "llm-finetune": "大模型微调", "llm-inference": "大模型推理",
	"cnn-train": "CNN 训练", "generic": "通用任务", "image-generation": "图像生成",
}

// perfUnit names a throughput unit in l.
func perfUnit(l Lang, u string) string {
	if l == Chinese {
		if z, ok := perfUnitZh[u]; ok {
			return z
		}
	}
	return u
}

var perfUnitZh = map[string]string{"tokens/s": "token/秒", "prompt tokens/s": "提示词 token/秒", "images/s": "张图片/秒", "videos/s": "段视频/秒", "items/s": "个条目/秒"}

func confidenceWord(l Lang, c string) string {
	if l == Chinese {
		if z, ok := map[string]string{"high": "高", "medium": "中", "low": "低"}[c]; ok {
			return z
		}
	}
	return c
}

// cliWord is a short technical token of the model (a sharding, batching or
// link name) in l: its own translation, else Tr's.
func cliWord(l Lang, s string) string {
	if l != Chinese {
		return s
	}
	if z, ok := wordZh[s]; ok {
		return z
	}
	for _, pre := range []string{"intra-node ", "inter-node "} {
		if rest, ok := strings.CutPrefix(s, pre); ok {
			return wordZh[strings.TrimSpace(pre)] + " " + rest
		}
	}
	return Tr(l, s)
}

var wordZh = map[string]string{
	"none": "无", "zero1": "ZeRO-1", "fsdp": "FSDP（ZeRO-3）", "selective": "选择性", "full": "完整",
	"continuous": "连续", "static": "静态", "burst": "突发", "intra-node": "节点内", "inter-node": "节点间",
}
