package perf

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/workload"
)

// CPUImageEfficiency is the share of an x86 CPU's peak FLOP rate that
// OpenVINO or ONNX Runtime reach on a diffusion pipeline (oneDNN
// convolutions and attention in bf16 or fp32; the VAE and group norms are
// memory-bound). A prior, not fitted: no published CPU row is in the
// validation set.
const CPUImageEfficiency = 0.35

// ImageGenCPUSecondsPerImage is the time one image (or clip) of spec takes
// on vcpus x86 vCPUs (hardware threads: two share one core's vector units)
// at clockGHz, each core doing flopsPerCycle FLOP per cycle in the
// pipeline's precision: 32 for AVX-512 fp32 (two FMA units × 16 lanes ×
// 2), 64 for AVX-512 bf16, about 1,024 for AMX bf16 on Sapphire Rapids and
// later. It runs the whole pipeline of spec's image block (text encoding,
// image.steps denoiser passes with guidance, VAE decode) at batch 1, for a
// CPU tier that drains a queue (OpenVINO, ONNX Runtime on x86). It is an
// error when spec is not an image-generation workload or the CPU figures
// are not positive.
func ImageGenCPUSecondsPerImage(spec *workload.Spec, vcpus int, clockGHz, flopsPerCycle float64) (float64, error) {
	if spec == nil || spec.Kind != workload.KindImageGeneration || spec.Model == nil || spec.Image == nil {
		return 0, fmt.Errorf("perf: CPU seconds per image need an image-generation workload")
	}
	if vcpus <= 0 || !(clockGHz > 0) || !(flopsPerCycle > 0) {
		return 0, fmt.Errorf("perf: CPU seconds per image need vcpus, clock and FLOP per cycle > 0 (got %d, %g, %g)", vcpus, clockGHz, flopsPerCycle)
	}
	md, im := spec.Model, spec.Image
	if md.ReferenceTokens <= 0 {
		return 0, fmt.Errorf("perf: the model has no reference tokens (a preset such as sd-1.5)")
	}
	guide := 1.0
	if im.Guidance != nil && *im.Guidance {
		guide = 2
	}
	r := md.DenoiserTokens(im.Width, im.Height, im.Frames) / float64(md.ReferenceTokens)
	pass := (md.ForwardGMACsPerSample-md.AttentionGMACsPerSample)*r + md.AttentionGMACsPerSample*r*r
	vae := md.VAEDecoderGMACsPerMpx * float64(im.Width) * float64(im.Height) / 1e6 * float64(max(im.Frames, 1))
	text := md.TextEncoderParamsB * float64(md.TextTokens)
	flops := 2e9 * (guide*(text+float64(im.Steps)*pass) + vae)
	cores := float64(vcpus) / 2
	return flops / (cores * clockGHz * 1e9 * flopsPerCycle * CPUImageEfficiency), nil
}
