package workload

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

func TestParseImageGeneration(t *testing.T) {
	s, err := Parse([]byte("kind: image-generation\nmodel: {preset: SDXL}\nimage: {images: 5000, precision: fp8}\nstack: {framework: tensorrt}\n"), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	im, m := s.Image, s.Model
	if m.Preset != "sdxl" || m.Arch != ArchUNet || im.Width != 1024 || im.Height != 1024 || im.Frames != 1 || im.Steps != 30 ||
		im.Guidance == nil || !*im.Guidance || im.Batch != 1 || im.Precision != FP8 || m.VAEPrecision != FP32 {
		t.Errorf("defaults not filled from the preset: model %+v image %+v", m, im)
	}
	if got := m.DenoiserTokens(im.Width, im.Height, im.Frames); got != 16384 {
		t.Errorf("SDXL at 1024 px: %v latent tokens, want 128×128", got)
	}
	flux, err := Parse([]byte("kind: image-generation\nmodel: {preset: flux.1-schnell}\nimage: {requests_per_second: 2, slo: {latency_s: 5}}\n"), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if *flux.Image.Guidance || flux.Image.Steps != 4 || flux.Image.SLO.Percentile != 99 || flux.Stack.Framework != FrameworkDiffusers || flux.Image.Precision != BF16 {
		t.Errorf("flux.1-schnell defaults: %+v %s", flux.Image, flux.Stack.Framework)
	}
	v, err := Parse([]byte("kind: image-generation\nmodel: {preset: hunyuanvideo}\nimage: {images: 10}\n"), "v.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if v.Image.Frames != 129 || v.Model.LatentFrames(129) != 33 || v.Model.DenoiserTokens(1280, 720, 129) != 118800 {
		t.Errorf("video: frames %d, latent frames %d, tokens %v", v.Image.Frames, v.Model.LatentFrames(129), v.Model.DenoiserTokens(1280, 720, 129))
	}
	// Explicit DiT fields: the attention and the forward work are derived.
	d, err := Parse([]byte("kind: image-generation\nmodel: {arch: dit, params_b: 2, layers: 24, hidden: 1536, image_px: 1024}\nimage: {images: 1}\n"), "d.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d.Model.ReferenceTokens != 4096 || d.Model.AttentionGMACsPerSample <= 0 || d.Model.ForwardGMACsPerSample <= d.Model.AttentionGMACsPerSample {
		t.Errorf("explicit DiT: %+v", d.Model)
	}
}

func TestParseImageGenerationErrors(t *testing.T) {
	for _, tc := range []struct {
		name, doc, field, want string
		line                   int
	}{
		{"unknown preset", "kind: image-generation\nmodel:\n  preset: sd-9\nimage: {images: 1}\n", "model.preset", "unknown preset", 3},
		{"width not divisible", "kind: image-generation\nmodel: {preset: flux.1-dev}\nimage:\n  width: 1000\n  images: 1\n", "image.width", "not a multiple of 16", 4},
		{"fp8 on openvino", "kind: image-generation\nmodel: {preset: sd-1.5}\nimage:\n  precision: fp8\n  images: 1\nstack: {framework: openvino}\n", "image.precision", "openvino cannot run the denoiser in fp8", 4},
		{"fp4 off tensorrt", "kind: image-generation\nmodel: {preset: sdxl}\nimage:\n  precision: fp4\n  images: 1\n", "image.precision", "diffusers cannot run the denoiser in fp4", 4},
		{"frames on image model", "kind: image-generation\nmodel: {preset: sdxl}\nimage:\n  frames: 16\n  images: 1\n", "image.frames", "image model", 4},
		{"frames off the VAE grid", "kind: image-generation\nmodel: {preset: cogvideox-5b}\nimage:\n  frames: 50\n  images: 1\n", "image.frames", "1 + k×4", 4},
		{"both", "kind: image-generation\nmodel: {preset: sdxl}\nimage:\n  images: 10\n  requests_per_second: 2\n", "image.requests_per_second", "not both", 5},
		{"neither", "kind: image-generation\nmodel: {preset: sdxl}\nimage:\n  steps: 20\n", "image.images", "give images", 3},
		{"no image block", "kind: image-generation\nmodel: {preset: sdxl}\n", "image", "required for kind image-generation", 1},
		{"llm preset", "kind: image-generation\nmodel:\n  preset: llama-3-8b\nimage: {images: 1}\n", "model.preset", "not a diffusion model", 3},
		{"diffusion preset in llm kind", "kind: llm-inference\nmodel:\n  preset: sdxl\ninference: {prompt_tokens: 1, output_tokens: 1}\n", "model.preset", "use kind image-generation", 3},
		{"llm engine", "kind: image-generation\nmodel: {preset: sdxl}\nimage: {images: 1}\nstack:\n  framework: vllm\n", "stack.framework", "does not run diffusion pipelines", 5},
		{"tensor parallel", "kind: image-generation\nmodel: {preset: sdxl}\nimage: {images: 1}\nparallelism:\n  tensor: 2\n", "parallelism.tensor", "not used by kind image-generation", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), "w.yaml")
			var l apperr.List
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.As(err, &l) {
				t.Fatalf("not a list: %v", err)
			}
			for _, e := range l {
				if e.Field == tc.field && strings.Contains(e.Error(), tc.want) && e.Line == tc.line && apperr.CodeOf(e) == apperr.Invalid {
					return
				}
			}
			t.Errorf("want %s at line %d containing %q; got %v", tc.field, tc.line, tc.want, err)
		})
	}
}

// TestUnknownPresetListsKind: an unknown preset's message lists only the
// presets a file of that kind can name.
func TestUnknownPresetListsKind(t *testing.T) {
	for _, tc := range []struct {
		name, doc     string
		lists, leaves []string
	}{
		{"image-generation", "kind: image-generation\nmodel:\n  preset: sdxxl\nimage: {images: 1}\n",
			[]string{"sd-1.5", "sdxl", "flux.1-dev", "hunyuanvideo"}, []string{"llama-2-7b", "resnet-50", "bert-large"}},
		{"llm-inference", "kind: llm-inference\nmodel:\n  preset: llama-9\ninference: {}\n",
			[]string{"llama-2-7b", "mixtral-8x7b", "bert-large"}, []string{"sd-1.5", "sdxl", "flux.1-dev", "resnet-50"}},
		{"cnn-train", "kind: cnn-train\nmodel:\n  preset: resnet-9\n",
			[]string{"resnet-50", "vit-b-16"}, []string{"llama-2-7b", "sdxl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), "w.yaml")
			var l apperr.List
			if !errors.As(err, &l) {
				t.Fatalf("want a list of errors, got %v", err)
			}
			var msg string
			for _, e := range l {
				if e.Field == "model.preset" {
					msg = e.Error()
				}
			}
			_, known, ok := strings.Cut(msg, "(known: ")
			if !ok {
				t.Fatalf("no list of known presets in %q", msg)
			}
			names := map[string]bool{}
			for _, n := range strings.Split(strings.TrimSuffix(known, ")"), ", ") {
				names[n] = true
			}
			for _, n := range tc.lists {
				if !names[n] {
					t.Errorf("%s not listed: %s", n, msg)
				}
			}
			for _, n := range tc.leaves {
				if names[n] {
					t.Errorf("%s listed for kind %s: %s", n, tc.name, msg)
				}
			}
		})
	}
}
