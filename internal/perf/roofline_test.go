package perf

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/workload"
)

// Roofline bounds of TestStepsBetweenRooflineAndAMultiple: a step is never
// faster than its roofline (the larger of its bytes over the datasheet
// bandwidth and its FLOPs over the datasheet peak), and never slower than
// this multiple of it plus a fixed overhead (the engine's per-step host
// work, kernel launches, the framework's step). Decode's multiple is the
// issue's bound (2.5 x + 5 ms); prefill's covers the lowest matrix
// efficiency the model uses, a first-generation accelerator's factor with
// a serving engine ported to it (0.5 x 0.7 of peak) and attention slower
// still.
const (
	decodeRoofMult, decodeRoofPlusS   = 2.5, 0.005
	prefillRoofMult, prefillRoofPlusS = 5.0, 0.005
	trainRoofMult                     = 10.0 // MFU of at least 10%
)

// TestStepsBetweenRooflineAndAMultiple holds decode, prefill and training
// steps of a dense model on one GPU of every accelerator in the catalog
// between their roofline and a stated multiple of it, and the named
// bottleneck of a decode step to its largest term. Llama 3 8B where its
// weights take under 60% of the GPU's memory, else MPT-1B.
func TestStepsBetweenRooflineAndAMultiple(t *testing.T) {
	cat := embedded(t)
	checked := 0
	for _, a := range cat.Accelerators {
		d, _ := dataTypeFor(a, workload.BF16) // or the type it falls back to
		peak := peakNominal(a, d)
		if peak <= 0 || a.MemBandwidthGBps <= 0 || a.MemGiB <= 0 {
			continue
		}
		bw := a.MemBandwidthGBps * 1e9
		preset := "llama-3-8b"
		if 16 > 0.6*a.MemGiB {
			preset = "mpt-1b"
		}
		m := mustSpec(t, fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 8, output_tokens: 8}\n", preset)).Model
		n := m.ActiveParamsB() * 1e9
		kvPerTok := 2 * float64(m.Layers*max(1, m.KVHeads)*m.EffectiveHeadDim()) * 2 // K and V, 2 bytes each
		c, err := NewCluster(a, 1, 0, nil)
		if err != nil {
			t.Fatalf("%s: %v", a.ID, err)
		}
		where := func(what string) string { return fmt.Sprintf("%s (%s, %s)", a.ID, preset, what) }

		// Decode: a static batch of 32 (or 8) sequences, 512 in and 512 out.
		for _, b := range []int{32, 8} {
			y := fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 512, output_tokens: 512, max_batch: %d, batching: static}\nstack: {framework: vllm}\n", preset, b)
			p, err := Predict(mustSpec(t, y), c)
			if err != nil {
				t.Fatalf("%s: %v", where("decode"), err)
			}
			if !p.Fits || p.TPOTMs == nil || p.Serving == nil {
				continue
			}
			bb := float64(p.Serving.Batch)
			ctx := 512.0 + 256 // the mean context over the answer
			bytes := n*2 + bb*ctx*kvPerTok
			roof := math.Max(bytes/bw, 2*n*bb/peak)
			floor := math.Max(0.8*n*2/bw, 2*n*bb/peak) // the weights (embeddings are looked up) and the GEMMs
			tpot := *p.TPOTMs / 1000
			if tpot < floor {
				t.Errorf("%s: batch %d, TPOT %.3g ms below its roofline %.3g ms", where("decode"), p.Serving.Batch, tpot*1000, floor*1000)
			}
			if limit := decodeRoofMult*roof + decodeRoofPlusS; tpot > limit {
				t.Errorf("%s: batch %d, TPOT %.3g ms over %.1f x its roofline %.3g ms + %.0f ms (%s)", where("decode"), p.Serving.Batch, tpot*1000, decodeRoofMult, roof*1000, decodeRoofPlusS*1000, p.Verdict.String())
			}
			bd := p.Breakdown
			top, topV := "", 0.0
			for k, v := range map[string]float64{Compute: bd.ComputeS, MemoryBandwidth: bd.MemoryS, Interconnect: bd.CommExposedS, CPU: bd.OverheadS} {
				if v > topV {
					top, topV = k, v
				}
			}
			if got := p.Bottleneck; got != top && !(got == MemoryCapacity && top == MemoryBandwidth) {
				t.Errorf("%s: bottleneck %s, the largest term is %s (%+v)", where("decode"), got, top, bd)
			}
			checked++
			break
		}

		// Prefill: prompts of 2,048 tokens, nothing generated.
		y := fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 2048, output_tokens: 0, requests: 1e4}\nstack: {framework: vllm}\n", preset)
		p, err := Predict(mustSpec(t, y), c)
		if err != nil {
			t.Fatalf("%s: %v", where("prefill"), err)
		}
		if p.Fits && p.Throughput.Value > 0 {
			perPrompt := 2048 / p.Throughput.Value
			flops := 2*n*2048 + 2*float64(m.Layers*m.Heads*m.EffectiveHeadDim())*2048*2048 // causal attention: half of 4·L·q·s²
			roof := flops / peak
			if perPrompt < 0.8*roof {
				t.Errorf("%s: %.3g ms per prompt below its roofline %.3g ms", where("prefill"), perPrompt*1000, roof*1000)
			}
			if limit := prefillRoofMult*roof + prefillRoofPlusS; perPrompt > limit {
				t.Errorf("%s: %.3g ms per prompt over %.1f x its roofline %.3g ms + %.0f ms", where("prefill"), perPrompt*1000, prefillRoofMult, roof*1000, prefillRoofPlusS*1000)
			}
		}

		// Training: MPT-1B at 2,048 tokens a sequence, 8 sequences a step.
		y = "kind: llm-train\nmodel: {preset: mpt-1b}\ntraining: {seq_len: 2048, global_batch: 8, tokens: 1e8, precision: bf16}\nstack: {framework: pytorch}\n"
		p, err = Predict(mustSpec(t, y), c)
		if err != nil {
			t.Fatalf("%s: %v", where("train"), err)
		}
		if p.Fits {
			if p.MFU > 1 || p.MFU < 1/trainRoofMult {
				t.Errorf("%s: MFU %.3f: the step is faster than its roofline or more than %.0f x slower (%s)", where("train"), p.MFU, trainRoofMult, p.Verdict.String())
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d accelerators checked", checked)
	}
}

// TestWideningDoesNotCountASpreadTwice: a prediction of lower confidence
// widens its regime's band, by the class's factor at most on each side: a
// narrow band is scaled, a wide one (sources that disagree) is not scaled
// again beyond that factor; never narrower than the band itself.
func TestWideningDoesNotCountASpreadTwice(t *testing.T) {
	spec := mustSpec(t, "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 8, output_tokens: 8}\n")
	reg := RegimeOf(spec)
	for _, band := range [][2]float64{{-0.3, 0.2}, {-2.2, 1.3}} {
		for conf, w := range widening {
			m := DefaultParams()
			m.intervals = map[string][2]float64{reg: band}
			p := Prediction{Fits: true, Confidence: conf, Throughput: Quantity{Value: 100}}
			applyInterval(m, spec, &p)
			lo, hi := math.Log(p.Interval.SpeedP10), math.Log(p.Interval.SpeedP90)
			if lo > band[0]+0.02 || hi < band[1]-0.02 { // the bounds are rounded to 3 decimals
				t.Errorf("band %v, %s: %.3f-%.3f is narrower than the band", band, conf, lo, hi)
			}
			if lo < band[0]-math.Log(w)-0.02 || hi > band[1]+math.Log(w)+0.02 {
				t.Errorf("band %v, %s: %.3f-%.3f widens by more than x%.1f on a side", band, conf, lo, hi, w)
			}
		}
	}
}

// TestTrainingAtThousandsOfGPUs: Llama 3 70B with FSDP at 128 to 2,048
// H100 (a fixed batch per GPU): throughput per GPU never grows with the
// GPUs; the weight and gradient exchanges, hierarchical over the nodes'
// rails, take a share of the step that never shrinks ((n-1)/n of the
// shard group's data); the slowest link named is the fabric; and MFU
// stays where published runs of this size are (0.2-0.7).
func TestTrainingAtThousandsOfGPUs(t *testing.T) {
	cat := embedded(t)
	prevPer, prevComm := math.Inf(1), -1.0
	for _, g := range []int{128, 512, 2048} {
		y := fmt.Sprintf("kind: llm-train\nmodel: {preset: llama-3-70b}\ntraining: {seq_len: 4096, global_batch: %d, tokens: 1e11, precision: bf16}\nparallelism: {tensor: 8, sharding: fsdp}\nstack: {framework: torchtitan}\n", g/8*4)
		p := mustPredict(t, cat, y, "h100-sxm", g, g/8)
		if !p.Fits {
			t.Fatalf("%d GPUs: %s", g, p.Reason.String())
		}
		per := p.Throughput.Value / float64(g)
		share := p.Breakdown.CommTotalS / p.StepTimeS
		t.Logf("%d GPUs: %.0f tokens/s per GPU, MFU %.2f, communication %.2f of the step over %s", g, per, p.MFU, share, p.Breakdown.CommLink)
		if per > prevPer*1.0001 {
			t.Errorf("%d GPUs: %.0f tokens/s per GPU, more than at fewer GPUs (%.0f)", g, per, prevPer)
		}
		if share < prevComm-1e-9 {
			t.Errorf("%d GPUs: communication %.3f of the step, less than at fewer GPUs (%.3f)", g, share, prevComm)
		}
		if !strings.HasPrefix(p.Breakdown.CommLink, "inter-node") {
			t.Errorf("%d GPUs on %d nodes: the slowest link is %q, not the fabric", g, g/8, p.Breakdown.CommLink)
		}
		if p.MFU < 0.2 || p.MFU > 0.7 {
			t.Errorf("%d GPUs: MFU %.2f, outside what published runs of this size reach (0.2-0.7)", g, p.MFU)
		}
		prevPer, prevComm = per, share
	}
}
