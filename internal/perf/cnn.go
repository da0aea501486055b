package perf

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// predictCNN models image-model training: FLOPs per image from the preset
// (3 forward passes) on the convolution engines, memory traffic from the
// network's activations (batch norm, activations and their gradients, which
// fused frameworks such as XLA or NVIDIA's MXNet move less of), data
// parallelism with an overlapped gradient all-reduce, and the data pipeline
// (JPEG reads and CPU decoding) that often limits it. The framework changes
// the traffic, not the convolutions: they are cuDNN's in every framework.
func predictCNN(m *Params, spec *workload.Spec, c Cluster, p *Prediction) error {
	md, tr := spec.Model, spec.Training
	if md == nil || tr == nil || md.ForwardGMACsPerSample <= 0 {
		return fmt.Errorf("perf: cnn-train needs an image model with forward_gmacs_per_sample (a preset such as resnet-50)")
	}
	a := c.GPU
	f := c.factors(m)
	dt, fell := dataTypeFor(a, tr.Precision)
	if fell {
		p.Assumptions = append(p.Assumptions, msg.New("%s has no %s path: predicted in %s (training.precision)", a.ID, tr.Precision, dt))
	}
	stack, fused := trainStackFor(spec.Stack)
	G := float64(c.GPUs)
	perGPU := math.Max(1, float64(tr.GlobalBatch)/G)
	sizeEff := perGPU / (perGPU + 8) // small per-GPU batches leave the GPU idle between kernels
	flops := md.TrainFLOPsPerSample()
	conv := m.CNNConv // tensor-core convolutions with few channels quantise poorly
	if dt == catalog.FP32 {
		conv = 1 // CUDA-core convolutions keep the FP32 units busy
	}
	tCompute := flops / (m.matmulFLOPS(a, f, dt) * conv * sizeEff)
	elem := 2.0 // bytes per activation value in mixed precision
	if dt == catalog.FP32 || dt == catalog.TF32 {
		elem = 4
	}
	acts := md.ForwardActivationsM * 1e6
	if acts == 0 {
		acts = md.ForwardGMACsPerSample * workload.ResNetActivationsPerGMAC * 1e6
	}
	fuse := 1.0
	if fused {
		fuse = m.CNNFused
	}
	traffic := acts * m.CNNBytesPerAct * elem / 2 * fuse
	tMem := traffic / (a.MemBandwidthGBps * 1e9 * f.BW)
	tImg := tCompute + tMem
	batchS := tImg * perGPU
	// Gradient all-reduce once per step, overlapped with the backward pass.
	var comm, exposed float64
	params := md.ParamsB * 1e9
	if c.GPUs > 1 {
		B := c.intraGBps() * 1e9
		link := "intra-node " + c.LinkKind
		if c.Nodes > 1 {
			B, link = c.interGBps()*1e9, "inter-node "+c.FabricKind
		}
		comm = 2 * (G - 1) / G * params * 2 / B
		exposed = math.Max(0, comm-m.OverlapDP*batchS*2/3)
		p.Breakdown.CommLink = link
	}
	step := batchS + exposed
	imgS := perGPU * G / step
	p.Fits = true
	actGB := perGPU * cnnActivationGB(md)
	p.Memory = roundMemory(Memory{WeightsGB: params * 16 / 1e9, ActivationsGB: actGB, OverheadGB: runtimeGB,
		TotalGB: params*16/1e9 + actGB + runtimeGB, CapacityGB: a.MemGiB * 1.073741824})
	p.MemoryPerGPUGB = p.Memory.TotalGB
	if p.Memory.TotalGB > p.Memory.CapacityGB {
		p.Fits = false
		p.Bottleneck = MemoryCapacity
		p.Reason = msg.New("%.0f images per GPU need %.0f GB of activations, more than %.0f GB", perGPU, actGB, p.Memory.CapacityGB)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("a smaller global batch per GPU (more GPUs or gradient accumulation) would fit")
		return nil
	}
	p.Parallelism = Parallelism{Data: c.GPUs, Tensor: 1, Pipeline: 1, MicroBatch: int(perGPU), GradAccumulation: 1, Sharding: shardNone, Recompute: string(workload.CheckpointNone)}
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
		p.Assumptions = append(p.Assumptions, msg.New("data.cpu_ms_per_sample not set: %.0f ms of CPU per image for JPEG decoding and augmentation (set 0.01 for pre-decoded data or GPU decoding such as DALI)", cnnCPUMsPerImage))
	}
	pipe := balance(pspec, c, imgS, imgS*bytesPerImg)
	imgS *= pipe.utilization
	p.Throughput = Quantity{Value: imgS, Unit: "images/s"}
	p.StepTimeS = round(step, 4)
	p.Utilization = round(pipe.utilization, 3)
	p.Efficiency = round(f.Matmul*sizeEff, 3)
	p.MFU = round(flops*imgS/(G*peakNominal(a, dt)), 3)
	p.Breakdown.ComputeS = round(perGPU*tCompute, 4)
	p.Breakdown.MemoryS = round(perGPU*tMem, 4)
	p.Breakdown.CommTotalS = round(comm, 4)
	p.Breakdown.CommExposedS = round(exposed, 4)
	p.Breakdown.DataStallS = round(step*(1/pipe.utilization-1), 4)
	if tr.Samples > 0 {
		p.DurationHours = ptr(tr.Samples / imgS / 3600)
	}
	fusion := "eager"
	if fused {
		fusion = "fused"
	}
	p.Assumptions = append(p.Assumptions,
		msg.New("%.1f GFLOP per training image (3 x %.2f GMAC forward x 2 FLOP/MAC); %.1f million forward activation values, %.0f MB of memory traffic per image (%s elementwise kernels, %s)",
			flops/1e9, md.ForwardGMACsPerSample, acts/1e6, traffic/1e6, fusion, stack.Note),
		msg.New("data parallel over %d GPUs, %.0f images per GPU per step; reading from %s", c.GPUs, perGPU, pipe.storage))
	// The verdict names the largest term of the step.
	switch {
	case pipe.utilization < 0.97:
		p.Bottleneck, p.Verdict, p.Fix = pipe.stage, pipe.verdict, pipe.fix
	case exposed > perGPU*math.Max(tCompute, tMem):
		p.Bottleneck = Interconnect
		if c.Nodes > 1 {
			p.Bottleneck = Network
		}
		p.Verdict = msg.New("the gradient all-reduce leaves %.0f%% of each step exposed.", 100*exposed/step)
		p.Fix = msg.New("a larger batch per GPU or a faster fabric would hide it")
	case tMem > tCompute:
		p.Bottleneck = MemoryBandwidth
		p.Verdict = msg.New("memory-bound layers (batch norm, activations) take %.0f%% of the GPU time.", 100*tMem/(tMem+tCompute))
		p.Fix = msg.New("fused kernels (channels-last, torch.compile, XLA, DALI) or a GPU with more memory bandwidth would help")
	default:
		p.Bottleneck = Compute
		p.Verdict = msg.New("compute-bound: convolutions take %.0f%% of the GPU time.", 100*tCompute/(tMem+tCompute))
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
