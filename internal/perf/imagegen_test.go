package perf

import (
	"fmt"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

func testAccelerator(t testing.TB, id string) *catalog.Accelerator {
	t.Helper()
	a, ok := embedded(t).Accelerator(id)
	if !ok {
		t.Fatalf("no accelerator %s", id)
	}
	return a
}

func imageSpec(t testing.TB, body string) *workload.Spec {
	t.Helper()
	s, err := workload.Parse([]byte("kind: image-generation\n"+body), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func imagePredict(t testing.TB, spec *workload.Spec, gpu string, n int) Prediction {
	t.Helper()
	a := testAccelerator(t, gpu)
	c, err := NewCluster(a, n, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Predict(spec, c)
	if err != nil || !p.Fits {
		t.Fatalf("%s on %s: %v %s", spec.Model.Preset, gpu, err, p.Reason.String())
	}
	return p
}

// TestImageGenProperties checks the physics of the diffusion model on every
// preset: MFU at most 1, the job no shorter than its work at peak, the
// bottleneck the largest term, latency growing with steps and resolution,
// and classifier-free guidance about doubling the denoiser's time.
func TestImageGenProperties(t *testing.T) {
	for _, pr := range workload.Presets() {
		if !pr.Model.Arch.IsDiffusion() {
			continue
		}
		for _, gpu := range []string{"h100-sxm", "a100-80gb", "l40s"} {
			t.Run(pr.Name+"/"+gpu, func(t *testing.T) {
				base := fmt.Sprintf("model: {preset: %s}\nimage: {images: 1000, steps: 20, guidance: true, width: %d, height: %d}\nstack: {framework: tensorrt}\n",
					pr.Name, pr.Image.Width, pr.Image.Height)
				s := imageSpec(t, base)
				a := testAccelerator(t, gpu)
				c, _ := NewCluster(a, 1, 0, nil)
				p, err := Predict(s, c)
				if err != nil {
					t.Fatal(err)
				}
				if !p.Fits {
					return // a video model on a 48 GB card
				}
				if p.MFU > 1 || p.MFU <= 0 {
					t.Errorf("MFU %v", p.MFU)
				}
				j, _ := newImageJob(s, a, new([]msg.Msg))
				call := j.call(defaultParams, c, c.factors(defaultParams), 1)
				peak := peakNominal(a, j.dt)
				if *p.DurationHours*3600 < 1000*call.flops/peak*0.999 {
					t.Errorf("duration %.0f s is less than the work at peak %.0f s", *p.DurationHours*3600, 1000*call.flops/peak)
				}
				if *p.LatencyS <= 0 || p.StepTimeS*20 > *p.LatencyS {
					t.Errorf("latency %v vs 20 steps of %v", *p.LatencyS, p.StepTimeS)
				}
				s40 := *s
				im40 := *s.Image
				im40.Steps = 40
				s40.Image = &im40
				p40, _ := Predict(&s40, c)
				if *p40.LatencyS <= *p.LatencyS {
					t.Errorf("40 steps %.3f s not slower than 20 %.3f s", *p40.LatencyS, *p.LatencyS)
				}
				big := *s
				imBig := *s.Image
				imBig.Width, imBig.Height = 2*imBig.Width, 2*imBig.Height
				big.Image = &imBig
				if pb, _ := Predict(&big, c); pb.Fits && *pb.LatencyS <= *p.LatencyS {
					t.Errorf("double resolution %.3f s not slower than %.3f s", *pb.LatencyS, *p.LatencyS)
				}
				noCFG := *s
				imNo := *s.Image
				imNo.Guidance = new(bool)
				noCFG.Image = &imNo
				// At batch 4: at batch 1 a UNet's deepest GEMMs are so small
				// (SD 1.5 at 16²: 256 rows) that guidance's doubled rows
				// also raise their efficiency.
				j1, _ := newImageJob(&noCFG, a, new([]msg.Msg))
				c1 := j1.call(defaultParams, c, c.factors(defaultParams), 4)
				c2 := j.call(defaultParams, c, c.factors(defaultParams), 4)
				den2, den1 := c2.linS+c2.attnS, c1.linS+c1.attnS
				if r := den2 / den1; r < 1.7 || r > 2.3 {
					t.Errorf("guidance multiplies the denoiser's arithmetic by %.2f, want about 2", r)
				}
				terms := map[string]float64{Compute: p.Breakdown.ComputeS, CPU: p.Breakdown.OverheadS, Interconnect: p.Breakdown.CommExposedS}
				for name, v := range terms {
					if v > terms[p.Bottleneck]*1.001 && name != p.Bottleneck && p.Bottleneck != MemoryBandwidth {
						t.Errorf("bottleneck %s (%.3f s) but %s takes %.3f s", p.Bottleneck, terms[p.Bottleneck], name, v)
					}
				}
			})
		}
	}
}

// TestImageGenClusterScales: each GPU serves its own calls.
func TestImageGenClusterScales(t *testing.T) {
	s := imageSpec(t, "model: {preset: sdxl}\nimage: {images: 1000, batch: 4}\n")
	one := imagePredict(t, s, "h100-sxm", 1)
	eight := imagePredict(t, s, "h100-sxm", 8)
	if r := eight.Throughput.Value / one.Throughput.Value; r < 7.9 || r > 8.1 {
		t.Errorf("8 GPUs give %.2fx one GPU's throughput, want 8x", r)
	}
	if *eight.LatencyS != *one.LatencyS {
		t.Errorf("latency of one call changed with the GPU count")
	}
	if one.Throughput.Unit != "images/s" {
		t.Errorf("unit %s", one.Throughput.Unit)
	}
}

func BenchmarkPredictImage(b *testing.B) {
	s := imageSpec(b, "model: {preset: sdxl}\nimage: {images: 100000, batch: 8, precision: fp16}\nstack: {framework: tensorrt}\n")
	a := testAccelerator(b, "h100-sxm")
	c, _ := NewCluster(a, 8, 0, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Predict(s, c); err != nil {
			b.Fatal(err)
		}
	}
}

func TestImageGenCPUSecondsPerImage(t *testing.T) {
	s := imageSpec(t, "model: {preset: sd-1.5}\nimage: {images: 1, steps: 20}\nstack: {framework: openvino}\n")
	// 32 vCPUs of a Sapphire Rapids with AMX bf16 at 2 GHz.
	amx, err := ImageGenCPUSecondsPerImage(s, 32, 2.0, 1024)
	if err != nil {
		t.Fatal(err)
	}
	avx, _ := ImageGenCPUSecondsPerImage(s, 32, 2.0, 64)
	if !(amx > 0.1 && amx < 10) || avx <= amx {
		t.Errorf("SD 1.5, 20 steps: AMX %.2f s, AVX-512 %.2f s per image", amx, avx)
	}
	double, _ := ImageGenCPUSecondsPerImage(s, 64, 2.0, 1024)
	if r := amx / double; r < 1.99 || r > 2.01 {
		t.Errorf("twice the vCPUs is %.2fx faster", r)
	}
	if _, err := ImageGenCPUSecondsPerImage(s, 0, 2, 64); err == nil {
		t.Error("0 vCPUs accepted")
	}
}

// TestImageGenCacheShare: the share of elementwise traffic that reaches
// device memory lies in (0, 1], grows with the batch (larger tensors spill
// out of the cache), is 1 on a GPU without a cache size, and a call's
// latency still grows with the batch.
func TestImageGenCacheShare(t *testing.T) {
	for _, preset := range []string{"sd-1.5", "sdxl", "flux.1-dev"} {
		for _, gpu := range []string{"a100-80gb", "l40s", "h100-sxm"} {
			a := testAccelerator(t, gpu)
			if a.L2MiB <= 0 {
				t.Fatalf("%s has no l2_mib", gpu)
			}
			c, _ := NewCluster(a, 1, 0, nil)
			prev, prevLat := 0.0, 0.0
			for _, b := range []int{1, 2, 4, 8, 16} {
				s := imageSpec(t, fmt.Sprintf("model: {preset: %s}\nimage: {images: 100, steps: 20, guidance: true, batch: %d}\nstack: {framework: diffusers}\n", preset, b))
				j, _ := newImageJob(s, a, new([]msg.Msg))
				bytes := j.linGMAC * 1e9 / j.width() * float64(b) * j.guide * 2
				sh := j.dramShare(defaultParams, a, bytes)
				if !(sh > 0 && sh <= 1) || sh < prev {
					t.Errorf("%s on %s batch %d: DRAM share %.3f (batch before %.3f)", preset, gpu, b, sh, prev)
				}
				noCache := *a
				noCache.L2MiB = 0
				if v := j.dramShare(defaultParams, &noCache, bytes); v != 1 {
					t.Errorf("no cache size: DRAM share %.3f, want 1", v)
				}
				lat := j.call(defaultParams, c, c.factors(defaultParams), b).latencyS
				if lat <= prevLat {
					t.Errorf("%s on %s: batch %d call %.3f s not longer than the smaller batch's %.3f s", preset, gpu, b, lat, prevLat)
				}
				prev, prevLat = sh, lat
			}
		}
	}
}
