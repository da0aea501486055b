package perf

import (
	"fmt"
	"math"

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
	f := c.factors()
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
