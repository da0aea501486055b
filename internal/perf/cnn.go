package perf

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// predictCNN models image-model training: FLOPs per image from the preset
// (3 forward passes), memory traffic for the bandwidth-bound layers, data
// parallelism with an overlapped gradient all-reduce, and the data pipeline
// (JPEG reads and CPU decoding) that often limits it.
func predictCNN(spec *workload.Spec, c Cluster, p *Prediction) error {
	m, tr := spec.Model, spec.Training
	if m == nil || tr == nil || m.ForwardGMACsPerSample <= 0 {
		return fmt.Errorf("perf: cnn-train needs an image model with forward_gmacs_per_sample (a preset such as resnet-50)")
	}
	a := c.GPU
	f := factorsFor(a)
	dt, fell := dataTypeFor(a, tr.Precision)
	if fell {
		p.Assumptions = append(p.Assumptions, fmt.Sprintf("%s has no %s path: predicted in %s", a.ID, tr.Precision, dt))
	}
	stack := stackFactor(spec.Stack.Framework, true)
	G := float64(c.GPUs)
	perGPU := math.Max(1, float64(tr.GlobalBatch)/G)
	sizeEff := perGPU / (perGPU + 8) // small per-GPU batches leave the GPU idle between kernels
	flops := m.TrainFLOPsPerSample()
	bytesPerGMAC := cnnBytesPerGMAC
	if m.Arch == workload.ArchViT {
		bytesPerGMAC /= 4 // a vision transformer is mostly matrix multiplies
	}
	tCompute := flops / (peakFLOPS(a, dt) * f.MatmulEff * sizeEff)
	// Memory traffic: bytesPerGMAC·GMACs bytes at GB/s: (bytes) / (1e9 bytes/s).
	tMem := bytesPerGMAC * m.ForwardGMACsPerSample / (a.MemBandwidthGBps * 1e9 * f.BWEff)
	tImg := (tCompute + tMem) / stack
	batchS := tImg * perGPU
	// Gradient all-reduce once per step, overlapped with the backward pass.
	var comm, exposed float64
	params := m.ParamsB * 1e9
	if c.GPUs > 1 {
		B := c.intraGBps() * 1e9
		link := "intra-node " + c.LinkKind
		if c.Nodes > 1 {
			B, link = c.interGBps()*1e9, "inter-node "+c.FabricKind
		}
		comm = 2 * (G - 1) / G * params * 2 / B
		exposed = math.Max(0, comm-overlapDP*batchS*2/3)
		p.Breakdown.CommLink = link
	}
	step := batchS + exposed
	imgS := perGPU * G / step
	p.Fits = true
	actGB := perGPU * cnnActivationGB(m)
	p.Memory = roundMemory(Memory{WeightsGB: params * 16 / 1e9, ActivationsGB: actGB, OverheadGB: runtimeGB,
		TotalGB: params*16/1e9 + actGB + runtimeGB, CapacityGB: a.MemGiB * 1.073741824})
	p.MemoryPerGPUGB = p.Memory.TotalGB
	if p.Memory.TotalGB > p.Memory.CapacityGB {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = fmt.Sprintf("%.0f images per GPU need %.0f GB of activations, more than %.0f GB", perGPU, actGB, p.Memory.CapacityGB)
		p.Verdict = p.Reason + "."
		p.Fix = "a smaller global batch per GPU (more GPUs or gradient accumulation) would fit"
		return nil
	}
	p.Parallelism = Parallelism{Data: c.GPUs, Tensor: 1, Pipeline: 1, MicroBatch: int(perGPU), GradAccumulation: 1, Sharding: shardNone, Recompute: string(RecomputeNone)}
	bytesPerImg := spec.Data.BytesPerSample
	if bytesPerImg == 0 {
		bytesPerImg = 110e3
	}
	pspec := spec
	if spec.Data.CPUMsPerSample == 0 {
		// Images are decoded and augmented on the CPU unless the file says
		// otherwise: a JPEG decode and random-resized crop costs a few ms.
		cp := *spec
		cp.Data.CPUMsPerSample = cnnCPUMsPerImage
		pspec = &cp
		p.Assumptions = append(p.Assumptions, fmt.Sprintf("data.cpu_ms_per_sample not set: %.0f ms of CPU per image for JPEG decoding and augmentation (set 0.01 for pre-decoded data or GPU decoding such as DALI)", cnnCPUMsPerImage))
	}
	pipe := balance(pspec, c, imgS, imgS*bytesPerImg)
	imgS *= pipe.utilization
	p.Throughput = Quantity{Value: round(imgS, 1), Unit: "images/s"}
	p.StepTimeS = round(step, 4)
	p.Utilization = round(pipe.utilization, 3)
	p.Efficiency = round(f.MatmulEff*sizeEff*stack, 3)
	p.MFU = round(flops*imgS/(G*peakNominal(a, dt)), 3)
	p.Breakdown.ComputeS = round(batchS, 4)
	p.Breakdown.CommTotalS = round(comm, 4)
	p.Breakdown.CommExposedS = round(exposed, 4)
	p.Breakdown.DataStallS = round(step*(1/pipe.utilization-1), 4)
	if tr.Samples > 0 {
		p.DurationHours = ptr(round(tr.Samples/imgS/3600, 2))
	}
	p.Assumptions = append(p.Assumptions,
		fmt.Sprintf("%.1f GFLOP per training image (3 x %.2f GMAC forward x 2 FLOP/MAC); %.0f MB of memory traffic per forward GMAC", flops/1e9, m.ForwardGMACsPerSample, bytesPerGMAC/1e6),
		fmt.Sprintf("data parallel over %d GPUs, %.0f images per GPU per step; reading from %s", c.GPUs, perGPU, pipe.storage))
	switch {
	case pipe.utilization < 0.97:
		p.Bottleneck, p.Verdict, p.Fix = pipe.stage, pipe.verdict, pipe.fix
	case exposed > 0.25*step:
		p.Bottleneck = Interconnect
		if c.Nodes > 1 {
			p.Bottleneck = Network
		}
		p.Verdict = fmt.Sprintf("the gradient all-reduce leaves %.0f%% of each step exposed.", 100*exposed/step)
		p.Fix = "a larger batch per GPU or a faster fabric would hide it"
	case tMem > tCompute:
		p.Bottleneck = MemoryBandwidth
		p.Verdict = fmt.Sprintf("memory-bound layers (batch norm, activations) take %.0f%% of the GPU time.", 100*tMem/(tMem+tCompute))
		p.Fix = "fused kernels (channels-last, torch.compile, DALI) or a GPU with more memory bandwidth would help"
	default:
		p.Bottleneck = Compute
		p.Verdict = "compute-bound: convolutions keep the tensor cores busy."
	}
	return nil
}

// cnnCPUMsPerImage is the CPU time to decode and augment one ImageNet-size
// JPEG on one core (PIL-SIMD/torchvision), when the file does not say.
const cnnCPUMsPerImage = 3.0

// cnnActivationGB is the activation memory of one training image, GB: the
// ResNet-50 figure in mixed precision (about 40 MB per 224 px image; NVIDIA
// trains it with 256 images per 16 GB V100) scaled by the forward work.
func cnnActivationGB(m *workload.Model) float64 {
	return 0.04 * m.ForwardGMACsPerSample / 4.1
}

// predictGeneric transfers a job described by FLOPs and bytes per item (or a
// measured throughput) across accelerators with a roofline.
func predictGeneric(spec *workload.Spec, c Cluster, p *Prediction) error {
	g := spec.Generic
	if g == nil {
		return fmt.Errorf("perf: generic needs a generic block")
	}
	a := c.GPU
	f := factorsFor(a)
	dt, fell := dataTypeFor(a, g.Precision)
	if fell {
		p.Assumptions = append(p.Assumptions, fmt.Sprintf("%s has no %s path: predicted in %s", a.ID, g.Precision, dt))
	}
	roof := func(acc *catalog.Accelerator) (t, tc, tm float64) {
		ff := factorsFor(acc)
		d, _ := dataTypeFor(acc, g.Precision)
		if g.FLOPsPerItem > 0 {
			tc = g.FLOPsPerItem / (peakFLOPS(acc, d) * ff.MatmulEff)
		}
		if g.BytesPerItem > 0 {
			tm = g.BytesPerItem / (acc.MemBandwidthGBps * 1e9 * ff.BWEff)
		}
		return math.Max(tc, tm), tc, tm
	}
	t, tc, tm := roof(a)
	if m := g.Measured; m != nil && m.ItemsPerS > 0 {
		var ref *catalog.Accelerator
		if c.Lookup != nil {
			ref = c.Lookup(m.GPU)
		}
		if ref == nil {
			return fmt.Errorf("perf: generic.measured.gpu %q is not in the catalog", m.GPU)
		}
		tRef, _, _ := roof(ref)
		if t > 0 && tRef > 0 {
			t = t / tRef / m.ItemsPerS
			p.Assumptions = append(p.Assumptions, fmt.Sprintf("scaled from %.3g items/s measured on %s by the roofline ratio", m.ItemsPerS, ref.ID))
		} else {
			// No FLOPs or bytes: scale by the geometric mean of the compute and bandwidth ratios.
			d1, _ := dataTypeFor(ref, g.Precision)
			rc := peakFLOPS(ref, d1) * factorsFor(ref).MatmulEff / (peakFLOPS(a, dt) * f.MatmulEff)
			rb := ref.MemBandwidthGBps * factorsFor(ref).BWEff / (a.MemBandwidthGBps * f.BWEff)
			t = math.Sqrt(rc*rb) / m.ItemsPerS
			tc, tm = t, t
			p.Assumptions = append(p.Assumptions, fmt.Sprintf("no flops_per_item or bytes_per_item: %.3g items/s on %s scaled by the geometric mean of the compute and bandwidth ratios", m.ItemsPerS, ref.ID))
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
		p.Reason = fmt.Sprintf("the job needs %.0f GB per GPU; %s has %.0f GB", g.MemoryGB, a.ID, capGB)
		p.Verdict = p.Reason + "."
		p.Fix = "a GPU with more memory, or splitting each item"
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
	p.Efficiency = round(f.MatmulEff, 3)
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
		p.Verdict = fmt.Sprintf("bandwidth-bound: %.2g bytes per item against %.2g FLOP (arithmetic intensity %.1f FLOP/byte, below this GPU's ridge point of %.0f).",
			g.BytesPerItem, g.FLOPsPerItem, g.FLOPsPerItem/math.Max(g.BytesPerItem, 1), peakFLOPS(a, dt)/(a.MemBandwidthGBps*1e9))
		p.Fix = "a GPU with more memory bandwidth, not more FLOPS, would speed it up"
	default:
		p.Bottleneck = Compute
		p.Verdict = fmt.Sprintf("compute-bound in %s: more FLOPS per dollar is what matters.", dt)
	}
	return nil
}
