package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
)

// WritePrediction renders a prediction for people: the verdict first, then
// the numbers with units, the step breakdown, memory, and every assumption.
func WritePrediction(w io.Writer, p perf.Prediction) error {
	var b strings.Builder
	count := strconv.Itoa(p.GPUs)
	if p.GPUFraction > 0 {
		count = catalog.FractionString(p.GPUFraction) // a slice of one GPU
	}
	where := fmt.Sprintf("%s x %s on %d node(s)", count, p.GPU, p.Nodes)
	if p.Offer != "" {
		where += " of " + p.Offer
	}
	fmt.Fprintf(&b, "%s: %s\n", p.Kind, where)
	if !p.Fits {
		fmt.Fprintf(&b, "DOES NOT FIT: %s.\n", p.Reason)
		if p.Fix != "" {
			fmt.Fprintf(&b, "What would fit: %s\n", p.Fix)
		}
		writeMemory(&b, p.Memory)
		writeAssumptions(&b, p)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "Verdict: %s\n", p.Verdict)
	if p.Fix != "" {
		fmt.Fprintf(&b, "Fix: %s\n", p.Fix)
	}
	b.WriteString("\n")
	t := &Table{Columns: []Column{{"QUANTITY", "quantity", false}, {"VALUE", "value", true}, {"80% RANGE", "range", true}, {"UNIT", "unit", false}}}
	span := func(lo, hi *float64, format string) string {
		if lo == nil || hi == nil {
			return ""
		}
		return fmt.Sprintf(format+"-"+format, *lo, *hi)
	}
	t.Add("throughput", fmt.Sprintf("%.6g", p.Throughput.Value), span(p.Throughput.P10, p.Throughput.P90, "%.4g"), p.Throughput.Unit)
	if p.DurationHours != nil {
		t.Add("duration", fmt.Sprintf("%.4g", *p.DurationHours), span(p.DurationHoursP10, p.DurationHoursP90, "%.4g"), "hours")
	}
	if p.TTFTMs != nil {
		t.Add("time to first token", fmt.Sprintf("%.4g", *p.TTFTMs), span(p.TTFTMsP10, p.TTFTMsP90, "%.4g"), "ms")
	}
	if p.TPOTMs != nil {
		t.Add("time per output token", fmt.Sprintf("%.4g", *p.TPOTMs), span(p.TPOTMsP10, p.TPOTMsP90, "%.4g"), "ms")
	}
	t.Add("step time", fmt.Sprintf("%.4g", p.StepTimeS), "", "s")
	t.Add("MFU", fmt.Sprintf("%.1f", p.MFU*100), "", "% of dense peak")
	t.Add("GPU utilisation", fmt.Sprintf("%.1f", p.Utilization*100), "", "% (after data pipeline)")
	t.Add("memory per GPU", fmt.Sprintf("%.1f", p.MemoryPerGPUGB), "", fmt.Sprintf("GB of %.1f", p.Memory.CapacityGB))
	t.Add("bottleneck", p.Bottleneck, "", "")
	t.Add("confidence", p.Confidence, "", "")
	if err := t.WriteText(&b); err != nil {
		return err
	}
	pl := p.Parallelism
	fmt.Fprintf(&b, "\nLayout: data %d x tensor %d x pipeline %d", pl.Data, pl.Tensor, pl.Pipeline)
	if pl.VirtualPipeline > 1 {
		fmt.Fprintf(&b, " (%d chunks per stage)", pl.VirtualPipeline)
	}
	if pl.Context > 1 {
		fmt.Fprintf(&b, " x context %d", pl.Context)
	}
	if pl.Expert > 1 {
		fmt.Fprintf(&b, ", expert %d", pl.Expert)
	}
	if pl.MicroBatch > 0 {
		fmt.Fprintf(&b, "; micro-batch %d, %d accumulation step(s); sharding %s; activation checkpointing %s", pl.MicroBatch, pl.GradAccumulation, pl.Sharding, pl.Recompute)
		if pl.GlobalBatch > 0 {
			fmt.Fprintf(&b, "; %d sequences per step, not the file's global batch (see the assumptions)", pl.GlobalBatch)
		}
	}
	if s := p.Serving; s != nil {
		fmt.Fprintf(&b, "; %d replica(s); batch %d in flight (memory holds %d, SLO allows %d)", pl.Replicas, s.Batch, s.MaxBatchMemory, s.MaxBatchSLO)
	}
	fmt.Fprintf(&b, "\nEfficiency used: %.1f%% of peak for matrix maths\n", p.Efficiency*100)
	if p.Interval != nil {
		fmt.Fprintf(&b, "Range: %s.\n", p.Interval.Basis)
	}
	if s := p.Serving; s != nil {
		fmt.Fprintf(&b, "Serving: %s, %s batching; offline capacity %.6g tokens/s (%.4g requests/s); prefill of one prompt %.4g ms", s.Engine, s.Batching, s.OfflineTokensS, s.RequestsPerS, s.PrefillMs)
		if s.MakespanS > 0 {
			fmt.Fprintf(&b, "; burst makespan %.4g s", s.MakespanS)
		}
		if s.Sustainable != nil {
			fmt.Fprintf(&b, "; load %.0f%% of capacity", s.Load*100)
			if s.ReplicasNeeded > 0 {
				fmt.Fprintf(&b, "; %d replica(s) needed within the SLO", s.ReplicasNeeded)
			}
		}
		b.WriteString("\n")
	}
	bd := p.Breakdown
	b.WriteString("\nStep breakdown (s):\n")
	bt := &Table{Columns: []Column{{"PART", "part", false}, {"SECONDS", "s", true}}}
	bt.Add("compute", fmt.Sprintf("%.4g", bd.ComputeS))
	if bd.MemoryS > 0 {
		bt.Add("memory traffic", fmt.Sprintf("%.4g", bd.MemoryS))
	}
	comm := "communication exposed"
	if bd.CommLink != "" {
		comm += " (" + bd.CommLink + ")"
	}
	bt.Add(comm, fmt.Sprintf("%.4g", bd.CommExposedS))
	bt.Add("pipeline bubble", fmt.Sprintf("%.4g", bd.BubbleS))
	bt.Add("waiting for data", fmt.Sprintf("%.4g", bd.DataStallS))
	if err := bt.WriteText(&b); err != nil {
		return err
	}
	writeMemory(&b, p.Memory)
	writeAssumptions(&b, p)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMemory(b *strings.Builder, m perf.Memory) {
	fmt.Fprintf(b, "\nMemory per GPU (GB): weights %.2f, gradients %.2f, optimizer %.2f, activations %.2f, KV cache %.2f, overhead %.2f = %.2f of %.2f\n",
		m.WeightsGB, m.GradientsGB, m.OptimizerGB, m.ActivationsGB, m.KVCacheGB, m.OverheadGB, m.TotalGB, m.CapacityGB)
}

func writeAssumptions(b *strings.Builder, p perf.Prediction) {
	b.WriteString("\nAssumptions:\n")
	for _, a := range p.Assumptions {
		fmt.Fprintf(b, "  - %s\n", a)
	}
}
