package app

import (
	"fmt"
	"strings"

	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// cpuCore is what the CPU tier's speed needs of a processor: its
// sustained all-core clock under vector load and its source.
type cpuCore struct {
	match    string  // a substring of the cpu column of data/cpu-instances.csv
	clockGHz float64 // all-core turbo
	amxOK    bool    // has AMX (bf16 tiles)
	bf16AVX  bool    // has AVX-512 BF16 (Cooper Lake and later, not Ice Lake)
	source   string
}

// cpuCores are the processors of data/cpu-instances.csv. The "C" parts
// are cloud SKUs that Intel ARK does not list; their providers state the
// all-core turbo clock.
var cpuCores = []cpuCore{
	{"6455B", 3.9, true, true, "aws.amazon.com/ec2/instance-types/r7iz (Xeon Gold 6455B, all-core turbo 3.9 GHz): the anchor's machine"},
	{"8488C", 3.2, true, true, "aws.amazon.com/ec2/instance-types/c7i (Xeon Platinum 8488C, all-core turbo 3.2 GHz)"},
	{"8481C", 3.0, true, true, "cloud.google.com/compute/docs/cpu-platforms (Sapphire Rapids: all-core turbo 3.0 GHz)"},
	{"8370C", 3.5, false, false, "learn.microsoft.com/azure/virtual-machines/dv5-dsv5-series (Xeon Platinum 8370C, all-core turbo 3.5 GHz)"},
	{"8272CL", 3.4, false, false, "learn.microsoft.com/azure/virtual-machines/fsv2-series (Xeon Platinum 8272CL, all-core turbo 3.4 GHz)"},
}

// FLOP per cycle per core of the CPU paths ImageGenCPUSecondsPerImage
// names: AMX bf16 tiles on Sapphire Rapids and later, AVX-512 bf16 dot
// products, AVX-512 fp32 FMAs (two units × 16 lanes × 2).
const (
	amxBF16FLOPPerCycle    = 1024
	avx512BF16FLOPPerCycle = 64
	avx512FP32FLOPPerCycle = 32
)

// amxSustained is the share of the AMX tile peak a diffusion pipeline
// keeps under OpenVINO, on top of perf.CPUImageEfficiency: the tiles idle
// through the group norms, softmax, VAE and layout changes that run on
// AVX-512, and at AMX's lower license clock. One published point sets it
// (a calibration, not a validation): SD 1.5, 512x512, 20 steps with
// guidance, OpenVINO bf16 with static shapes on an r7iz.metal-16xl (64
// vCPUs of a Xeon Gold 6455B) takes 4.7 s an image
// (huggingface.co/blog/stable-diffusion-inference-intel, 2023-03-28); the
// model at the full 1,024 FLOP/cycle gives 0.66 s, so AMX sustains about
// 0.66/4.7 = 0.14 of it. TestCPUTierAnchor keeps the two within 15%.
const amxSustained = 0.14

// CPURate is the clock (GHz) and FLOP per cycle per core of a CPU
// instance's processor on a diffusion pipeline (AMX bf16 where the row
// says amx, else AVX-512), with where the clock comes from; ok is false
// for a processor the table does not know.
func CPURate(cpu autoscale.CPUInstance) (clockGHz, flopsPerCycle float64, source string, ok bool) {
	for _, k := range cpuCores {
		if !strings.Contains(cpu.CPU, k.match) {
			continue
		}
		f, path := float64(avx512FP32FLOPPerCycle), "AVX-512 fp32"
		switch {
		case cpu.AMX && k.amxOK:
			f, path = amxBF16FLOPPerCycle*amxSustained, fmt.Sprintf("AMX bf16 at %.2f of its 1024 FLOP/cycle peak (one published OpenVINO point)", amxSustained)
		case k.bf16AVX:
			f, path = avx512BF16FLOPPerCycle, "AVX-512 bf16"
		}
		return k.clockGHz, f, fmt.Sprintf("%s at %.1f GHz, %s (%.0f FLOP/cycle/core); %s", cpu.CPU, k.clockGHz, path, f, k.source), true
	}
	return 0, 0, "", false
}

// ApplyFallback sets the speed of a model service's fallback tier from the
// performance model: with policy.fallback.mean_s, the main tier's time for
// one request over it; with policy.fallback.instance (a CPU instance) and
// no speed, the main tier's time over the CPU's seconds per image of an
// image-generation workload (perf.ImageGenCPUSecondsPerImage). The main
// tier's time is one request alone on a replica (StepS(1)). A speed over 1
// (a fallback faster than the GPUs) is an Invalid error.
func ApplyFallback(spec *autoscale.Spec, ws *workload.Spec, m *autoscale.BatchModel) error {
	f := spec.Policy.Fallback
	if spec.Service.Kind != autoscale.ServiceModel || f == nil || m == nil || f.Speed > 0 && f.MeanS == 0 {
		return nil
	}
	gpuS := m.StepS(1)
	if m.StepsPerRequest > 0 {
		gpuS *= float64(m.StepsPerRequest)
	}
	field := "policy.fallback.mean_s"
	var tierS float64
	switch {
	case f.MeanS > 0:
		tierS = f.MeanS
		f.SpeedSource = fmt.Sprintf("%.3g s per request on the main tier (performance model) over mean_s %g s", gpuS, f.MeanS)
	case f.Instance != "":
		field = "policy.fallback.instance"
		if ws.Kind != workload.KindImageGeneration {
			return spec.Errorf(field, "the speed of a CPU tier is derived for image-generation workloads only; give policy.fallback.speed or mean_s")
		}
		clock, fpc, src, ok := CPURate(f.CPU)
		if !ok {
			return spec.Errorf(field, "no clock is known for %s (%s); give policy.fallback.speed or mean_s", f.Instance, f.CPU.CPU)
		}
		s, err := perf.ImageGenCPUSecondsPerImage(ws, f.CPU.VCPUs, clock, fpc)
		if err != nil {
			return spec.Errorf(field, "%v", err)
		}
		tierS = s
		f.SpeedSource = fmt.Sprintf("%.3g s per image on %d vCPUs of %s (perf.ImageGenCPUSecondsPerImage, efficiency %.2f) against %.3g s on the main tier",
			s, f.CPU.VCPUs, src, perf.CPUImageEfficiency, gpuS)
	default:
		return nil
	}
	speed := gpuS / tierS
	if speed > 1 {
		return spec.Errorf(field, "the fallback tier would be faster than the main one (%.3g s against %.3g s a request): it is no fallback", tierS, gpuS)
	}
	f.Speed = speed
	spec.Defaults = append(spec.Defaults, fmt.Sprintf("policy.fallback.speed = %.4g (%s)", speed, f.SpeedSource))
	return nil
}
