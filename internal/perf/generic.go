package perf

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// predictGeneric transfers a job described by FLOPs and bytes per item (or a
// measured throughput) across accelerators with a roofline.
func predictGeneric(m *Params, spec *workload.Spec, c Cluster, p *Prediction) error {
	g := spec.Generic
	if g == nil {
		return fmt.Errorf("perf: generic needs a generic block")
	}
	a := c.GPU
	f := c.factors(m)
	dt, fell := dataTypeFor(a, g.Precision)
	if fell {
		p.Assumptions = append(p.Assumptions, msg.New("%s has no %s path: predicted in %s", a.ID, g.Precision, dt))
	}
	roof := func(acc *catalog.Accelerator) (t, tc, tm float64) {
		ff := m.archFor(acc.Architecture)
		if acc == a {
			ff = f
		}
		d, _ := dataTypeFor(acc, g.Precision)
		if g.FLOPsPerItem > 0 {
			tc = g.FLOPsPerItem / m.matmulFLOPS(acc, ff, d)
		}
		if g.BytesPerItem > 0 {
			tm = g.BytesPerItem / (acc.MemBandwidthGBps * 1e9 * ff.BW)
		}
		return math.Max(tc, tm), tc, tm
	}
	t, tc, tm := roof(a)
	if ms := g.Measured; ms != nil && ms.ItemsPerS > 0 {
		var ref *catalog.Accelerator
		if c.Lookup != nil {
			ref = c.Lookup(ms.GPU)
		}
		if ref == nil {
			return fmt.Errorf("perf: generic.measured.gpu %q is not in the catalog", ms.GPU)
		}
		tRef, _, _ := roof(ref)
		if t > 0 && tRef > 0 {
			t = t / tRef / ms.ItemsPerS
			p.Assumptions = append(p.Assumptions, msg.New("scaled from %.3g items/s measured on %s by the roofline ratio", ms.ItemsPerS, ref.ID))
		} else {
			// No FLOPs or bytes: scale by the geometric mean of the compute and bandwidth ratios.
			d1, _ := dataTypeFor(ref, g.Precision)
			rc := m.matmulFLOPS(ref, m.archFor(ref.Architecture), d1) / m.matmulFLOPS(a, f, dt)
			rb := ref.MemBandwidthGBps * m.archFor(ref.Architecture).BW / (a.MemBandwidthGBps * f.BW)
			t = math.Sqrt(rc*rb) / ms.ItemsPerS
			tc, tm = t, t
			p.Assumptions = append(p.Assumptions, msg.New("no flops_per_item or bytes_per_item: %.3g items/s on %s scaled by the geometric mean of the compute and bandwidth ratios", ms.ItemsPerS, ref.ID))
			p.Confidence = "low"
		}
	}
	if t <= 0 {
		return fmt.Errorf("perf: generic needs flops_per_item, bytes_per_item or a measured throughput")
	}
	capGB := a.MemGiB * 1.073741824
	p.Memory = Memory{TotalGB: g.MemoryGB, CapacityGB: round(capGB, 2), OverheadGB: 0}
	p.MemoryPerGPUGB = g.MemoryGB
	if g.MemoryGB > capGB {
		p.Fits, p.Bottleneck = false, MemoryCapacity
		p.Reason = msg.New("the job needs %.0f GB per GPU; %s has %.0f GB", g.MemoryGB, a.ID, capGB)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("a GPU with more memory, or splitting each item")
		return nil
	}
	p.Fits = true
	itemsS := float64(c.GPUs) / t
	bytesPerItem := spec.Data.BytesPerSample
	pipe := balance(spec, c, itemsS, itemsS*bytesPerItem)
	itemsS *= pipe.utilization
	p.Parallelism = Parallelism{Data: c.GPUs, Tensor: 1, Pipeline: 1}
	p.Throughput = Quantity{Value: round(itemsS, 3), Unit: "items/s"}
	p.StepTimeS = round(t, 6)
	p.Utilization = round(pipe.utilization, 3)
	p.Efficiency = round(f.Matmul, 3)
	if g.FLOPsPerItem > 0 {
		p.MFU = round(g.FLOPsPerItem*itemsS/(float64(c.GPUs)*peakNominal(a, dt)), 3)
	}
	p.Breakdown = Breakdown{ComputeS: round(tc, 6), MemoryS: round(tm, 6), DataStallS: round(t*(1/pipe.utilization-1), 6)}
	if g.Items > 0 {
		p.DurationHours = ptr(round(g.Items/itemsS/3600, 3))
	}
	switch {
	case pipe.utilization < 0.97:
		p.Bottleneck, p.Verdict, p.Fix = pipe.stage, pipe.verdict, pipe.fix
	case tm > tc:
		p.Bottleneck = MemoryBandwidth
		p.Verdict = msg.New("bandwidth-bound: %.2g bytes per item against %.2g FLOP (arithmetic intensity %.1f FLOP/byte, below this GPU's ridge point of %.0f).",
			g.BytesPerItem, g.FLOPsPerItem, g.FLOPsPerItem/math.Max(g.BytesPerItem, 1), m.matmulFLOPS(a, f, dt)/(a.MemBandwidthGBps*1e9*f.BW))
		p.Fix = msg.New("a GPU with more memory bandwidth, not more FLOPS, would speed it up")
	default:
		p.Bottleneck = Compute
		p.Verdict = msg.New("compute-bound in %s: more FLOPS per dollar is what matters.", dt)
	}
	return nil
}
