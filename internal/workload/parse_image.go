package workload

import (
	"fmt"
	"strconv"
)

// diffusionModel completes and checks a diffusion model (arch unet or dit):
// the latent shape, the denoiser's work at its reference tokens, the text
// encoders and the VAE.
func (p *checker) diffusionModel(preset *Preset) {
	m := p.s.Model
	p.nonNegFloats(map[string]float64{"model.params_b": m.ParamsB, "model.forward_gmacs_per_sample": m.ForwardGMACsPerSample,
		"model.attention_gmacs_per_sample": m.AttentionGMACsPerSample, "model.text_encoder_params_b": m.TextEncoderParamsB,
		"model.vae_params_b": m.VAEParamsB, "model.vae_decoder_gmacs_per_mpx": m.VAEDecoderGMACsPerMpx})
	p.nonNegInts(map[string]int{"model.latent_channels": m.LatentChannels, "model.latent_factor": m.LatentFactor,
		"model.temporal_factor": m.TemporalFactor, "model.patch_size": m.PatchSize, "model.reference_tokens": m.ReferenceTokens,
		"model.text_tokens": m.TextTokens, "model.image_px": m.ImagePx, "model.hidden": m.Hidden, "model.layers": m.Layers})
	if m.ParamsB == 0 {
		p.errorf("model.params_b", "required for a diffusion model without a preset (denoiser parameters in billions, e.g. 2.6 for SDXL's UNet)")
	}
	if m.LatentFactor == 0 {
		m.LatentFactor = 8
		p.def("model.latent_factor", "8", "not set; every published Stable Diffusion, FLUX and video VAE downsamples 8x")
	}
	if m.LatentChannels == 0 {
		m.LatentChannels = 4
		if m.Arch == ArchDiT {
			m.LatentChannels = 16
		}
		p.def("model.latent_channels", strconv.Itoa(m.LatentChannels), "not set; 4 for a UNet (SD 1/2/XL VAE), 16 for a DiT (SD3/FLUX VAE)")
	}
	if m.PatchSize == 0 {
		m.PatchSize = 1
		if m.Arch == ArchDiT {
			m.PatchSize = 2
			p.def("model.patch_size", "2", "not set; the DiTs published so far patch the latent 2×2")
		}
	}
	if m.Arch == ArchUNet && m.PatchSize != 1 {
		p.errorf("model.patch_size", "a UNet does not patch its latent; want 1 (or leave it out)")
	}
	if m.ImagePx == 0 && m.ReferenceTokens == 0 {
		m.ImagePx = 1024
		p.def("model.image_px", "1024", "not set; the native resolution of current image models")
	}
	if m.ReferenceTokens == 0 && m.ImagePx > 0 {
		m.ReferenceTokens = int(m.DenoiserTokens(m.ImagePx, m.ImagePx, 1))
	}
	T := float64(m.ReferenceTokens)
	if m.AttentionGMACsPerSample == 0 && m.Arch == ArchDiT && m.Layers > 0 && m.Hidden > 0 && T > 0 {
		m.AttentionGMACsPerSample = round(2*float64(m.Layers)*T*T*float64(m.Hidden)/1e9, 1)
		p.def("model.attention_gmacs_per_sample", fmtFloat(m.AttentionGMACsPerSample),
			fmt.Sprintf("derived: 2 × %d layers × %d tokens² × %d hidden", m.Layers, m.ReferenceTokens, m.Hidden))
	}
	if m.ForwardGMACsPerSample == 0 && m.ParamsB > 0 && T > 0 {
		switch m.Arch {
		case ArchDiT:
			// Every parameter once per token is an upper bound: adaLN
			// modulation runs once per image and MMDiT streams split the
			// weights; about 0.55 of the parameters act per token (FLUX.1).
			m.ForwardGMACsPerSample = round(0.55*m.ParamsB*T+m.AttentionGMACsPerSample, 1)
			p.def("model.forward_gmacs_per_sample", fmtFloat(m.ForwardGMACsPerSample),
				"derived: 0.55 of params_b per token (FLUX.1's share; modulation layers run once per image) plus the attention")
		default:
			p.errorf("model.forward_gmacs_per_sample", "required for a UNet without a preset (GMAC of one denoiser pass for one image at model.image_px, e.g. 339 for SD 1.5 at 512)")
		}
	}
	if m.AttentionGMACsPerSample > m.ForwardGMACsPerSample && m.ForwardGMACsPerSample > 0 {
		p.errorf("model.attention_gmacs_per_sample", "%s is more than model.forward_gmacs_per_sample %s, of which it is a part", fmtFloat(m.AttentionGMACsPerSample), fmtFloat(m.ForwardGMACsPerSample))
	}
	if m.TextTokens == 0 {
		m.TextTokens = 77
		p.def("model.text_tokens", "77", "not set; CLIP's prompt length")
	}
	if m.VAEDecoderGMACsPerMpx == 0 {
		m.VAEDecoderGMACsPerMpx = sdVAEGMACsPerMpx
		if m.TemporalFactor > 1 {
			m.VAEDecoderGMACsPerMpx *= 3
		}
		p.def("model.vae_decoder_gmacs_per_mpx", fmtFloat(m.VAEDecoderGMACsPerMpx), "not set; the Stable Diffusion VAE decoder (about 1,240 GMAC at 512 px; three times that per pixel for a 3D video VAE)")
	}
	if m.VAEParamsB == 0 {
		m.VAEParamsB = 0.0838
	}
	if m.VAEPrecision == "" {
		m.VAEPrecision = FP16
	} else if pr, err := ParsePrecision(string(m.VAEPrecision)); err != nil {
		p.errorf("model.vae_precision", "%v", err)
	} else {
		m.VAEPrecision = pr
	}
}

// image completes and checks the image block against the model.
func (p *checker) image() {
	im, m := p.s.Image, p.s.Model
	var native *Image
	if p.preset != nil {
		native = p.preset.Image
	}
	p.nonNegInts(map[string]int{"image.width": im.Width, "image.height": im.Height, "image.frames": im.Frames,
		"image.steps": im.Steps, "image.batch": im.Batch})
	p.nonNegFloats(map[string]float64{"image.images": im.Images, "image.slo.latency_s": im.SLO.LatencyS, "image.slo.percentile": im.SLO.Percentile})
	side := 1024
	if m != nil && m.ImagePx > 0 {
		side = m.ImagePx
	}
	for _, f := range []struct {
		name   string
		v      *int
		native int
	}{{"width", &im.Width, side}, {"height", &im.Height, side}} {
		if *f.v == 0 && p.lines.Has("image."+f.name) {
			p.errorf("image."+f.name, "must be > 0 pixels")
			continue
		}
		if *f.v == 0 {
			n, why := f.native, "not set; the model's native resolution"
			if native != nil {
				if f.name == "width" {
					n = native.Width
				} else {
					n = native.Height
				}
			}
			*f.v = n
			p.def("image."+f.name, strconv.Itoa(n), why)
		}
	}
	if m != nil && m.LatentFactor > 0 {
		q := m.LatentFactor * max(m.PatchSize, 1)
		what := fmt.Sprintf("the latent factor %d", m.LatentFactor)
		if m.PatchSize > 1 {
			what = fmt.Sprintf("the latent factor %d × patch size %d", m.LatentFactor, m.PatchSize)
		}
		for _, f := range []struct {
			name string
			v    int
		}{{"width", im.Width}, {"height", im.Height}} {
			if f.v > 0 && f.v%q != 0 {
				p.errorf("image."+f.name, "%d pixels is not a multiple of %d (%s of %s); try %d", f.v, q, what, p.modelName(), max(q, (f.v+q/2)/q*q))
			}
		}
	}
	video := m != nil && m.TemporalFactor > 1
	switch {
	case im.Frames == 0 && p.lines.Has("image.frames"):
		p.errorf("image.frames", "must be > 0 (1 for an image)")
	case im.Frames == 0:
		im.Frames = 1
		if native != nil && native.Frames > 0 {
			im.Frames = native.Frames
		}
		if im.Frames > 1 {
			p.def("image.frames", strconv.Itoa(im.Frames), "not set; the model's native clip length")
		}
	case im.Frames > 1 && !video && m != nil: // without a model block the missing model is the error
		p.errorf("image.frames", "%d frames, but %s is an image model (no temporal VAE); use 1, or a video model such as cogvideox-5b", im.Frames, p.modelName())
	case video && (im.Frames-1)%m.TemporalFactor != 0:
		k := (im.Frames - 1) / m.TemporalFactor
		p.errorf("image.frames", "%d frames: %s's VAE compresses time %dx, so clips have 1 + k×%d frames (e.g. %d or %d)", im.Frames, p.modelName(), m.TemporalFactor, m.TemporalFactor, 1+k*m.TemporalFactor, 1+(k+1)*m.TemporalFactor)
	}
	if im.Steps == 0 {
		if p.lines.Has("image.steps") {
			p.errorf("image.steps", "must be > 0 denoising steps")
		} else {
			n, why := 30, "not set; a common sampler setting"
			if native != nil && native.Steps > 0 {
				n, why = native.Steps, "not set; the model's recommended steps"
			}
			im.Steps = n
			p.def("image.steps", strconv.Itoa(n), why)
		}
	}
	if im.Guidance == nil {
		g, why := true, "not set; classifier-free guidance (two denoiser passes per step) is the usual sampler"
		if native != nil && native.Guidance != nil {
			g = *native.Guidance
			why = "not set; the model is sampled with classifier-free guidance (two denoiser passes per step)"
			if !g {
				why = "not set; the model is guidance-distilled (one denoiser pass per step)"
			}
		}
		im.Guidance = ptr(g)
		p.def("image.guidance", strconv.FormatBool(g), why)
	}
	if im.Batch == 0 {
		if p.lines.Has("image.batch") {
			p.errorf("image.batch", "must be > 0 images per pipeline call")
		} else {
			im.Batch = 1
			p.def("image.batch", "1", "not set; one image per pipeline call")
		}
	}
	if im.Precision != "" {
		if pr, err := ParsePrecision(string(im.Precision)); err != nil {
			p.errorf("image.precision", "%v", err)
		} else {
			im.Precision = pr
		}
	}
	rps := im.RequestsPerSecond
	switch {
	case rps != nil && im.Images > 0:
		p.errorf("image.requests_per_second", "give images (an offline job) or requests_per_second (a service), not both")
	case rps == nil && im.Images == 0 && p.lines.Has("image.images"):
		p.errorf("image.images", "must be > 0 (images or clips in total)")
	case rps == nil && im.Images == 0:
		e := p.lines.Line("image")
		p.errorf("image.images", "give images (an offline job, images or clips in total) or requests_per_second (a service)")
		if len(p.errs) > 0 && p.errs[len(p.errs)-1].Line == 0 {
			p.errs[len(p.errs)-1].Line = e
		}
	case rps != nil:
		if !finite(*rps) || *rps <= 0 {
			p.errorf("image.requests_per_second", "must be a number > 0 (requests per second)")
		} else {
			p.inRange("image.requests_per_second", *rps)
		}
	}
	if rps == nil && im.SLO.LatencyS > 0 {
		p.errorf("image.slo.latency_s", "a latency target needs a service: give requests_per_second instead of images")
	}
	if pc := im.SLO.Percentile; pc > 100 || (pc == 0 && p.lines.Has("image.slo.percentile")) {
		p.errorf("image.slo.percentile", "must be in (0, 100] percent, got %s", fmtFloat(pc))
	}
	if im.SLO.Percentile == 0 && im.SLO.LatencyS > 0 {
		im.SLO.Percentile = 99
		p.def("image.slo.percentile", "99", "not set; the latency target is met by 99% of requests")
	}
}

// imageEngine fills the denoiser precision and checks that the engine can
// run it; it runs after stack, which settles the engine.
func (p *checker) imageEngine() {
	s := p.s
	im := s.Image
	if s.Kind != KindImageGeneration || im == nil || !contains(DiffusionEngines(), s.Stack.Framework) {
		return
	}
	fw := s.Stack.Framework
	if im.Precision == "" {
		pr, why := FP16, "not set; fp16, the usual precision of diffusion pipelines"
		if fw == FrameworkJAX || fw == FrameworkOptimumHabana || (s.Model != nil && s.Model.Arch == ArchDiT) {
			pr, why = BF16, "not set; bf16, the usual precision of DiT pipelines and of TPU and Gaudi"
		}
		im.Precision = pr
		p.def("image.precision", string(pr), why)
		return
	}
	if !im.Precision.Valid() {
		return // already reported
	}
	if !contains(fw.DiffusionPrecisions(), im.Precision) {
		hint := ""
		switch im.Precision {
		case FP4:
			hint = "; NVFP4 diffusion runs on TensorRT (ModelOpt) on Blackwell GPUs"
		case FP8:
			hint = "; FP8 diffusion runs on tensorrt, diffusers (torchao) or optimum-habana"
		}
		p.errorf("image.precision", "%s cannot run the denoiser in %s (it runs %s)%s", fw, im.Precision, joinEnum(fw.DiffusionPrecisions()), hint)
	}
}
