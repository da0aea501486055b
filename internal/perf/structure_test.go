package perf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

func hasNote(p Prediction, sub string) bool {
	return strings.Contains(strings.Join(msg.Strings(p.Assumptions), "\n"), sub)
}

// TestEngineVersions: the release a stack.version allows decides the
// engine's behaviour; a version outside the tables uses the nearest one,
// says so, lowers the confidence and widens the interval.
func TestEngineVersions(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 512, weight_precision: bf16}\nstack: {framework: vllm, version: %q}\n"
	at := func(v string) Prediction {
		return mustPredict(t, cat, fmt.Sprintf(y, v), "h100-sxm", 1, 1)
	}
	old, v06, v1, open := at("0.5.3"), at(">=0.6, <0.7"), at("0.8"), at(">=0.6")
	if !(old.Throughput.Value < v06.Throughput.Value && v06.Throughput.Value < v1.Throughput.Value) {
		t.Errorf("vLLM 0.5 < 0.6 < 0.8 in throughput, got %.0f, %.0f, %.0f", old.Throughput.Value, v06.Throughput.Value, v1.Throughput.Value)
	}
	if !strings.HasPrefix(v06.Serving.Engine, "vllm 0.6") || !strings.HasPrefix(open.Serving.Engine, "vllm 0.14") {
		t.Errorf("engines %q and %q: a range picks its newest known release", v06.Serving.Engine, open.Serving.Engine)
	}
	if open.Confidence != "high" || hasNote(open, "outside") || hasNote(open, "newer than the tables") {
		t.Errorf(">=0.6 is covered by the tables: confidence %s, %v", open.Confidence, msg.Strings(open.Assumptions))
	}
	future := at(">=5.0")
	if !(hasNote(future, "newer than the tables") || hasNote(future, "allows no release")) || future.Confidence != "medium" {
		t.Errorf("vLLM 5.0: want the nearest release, a note and medium confidence; got %s %v", future.Confidence, msg.Strings(future.Assumptions))
	}
	if w := future.Interval.SpeedP90 / future.Interval.SpeedP10; w <= open.Interval.SpeedP90/open.Interval.SpeedP10 {
		t.Errorf("an untabled version must widen the interval: %.2f vs %.2f", w, open.Interval.SpeedP90/open.Interval.SpeedP10)
	}
	ancient := at("<0.1")
	if !hasNote(ancient, "older than the tables") && !hasNote(ancient, "allows no release") {
		t.Errorf("vLLM <0.1: the assumption must say the table has no such release: %v", msg.Strings(ancient.Assumptions))
	}
}

// TestPrecisionFallbackIsStated: a precision the accelerator cannot run is
// never changed silently.
func TestPrecisionFallbackIsStated(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {seq_len: 4096, global_batch: 64, tokens: 1e10, precision: fp4}\nstack: {framework: megatron}\n"
	h := mustPredict(t, cat, y, "h100-sxm", 8, 1)
	if !hasNote(h, "has no fp4 path: predicted in fp8") {
		t.Errorf("fp4 training on H100 must fall back to fp8 and say so: %v", msg.Strings(h.Assumptions))
	}
	b := mustPredict(t, cat, y, "b200", 8, 1)
	if hasNote(b, "no fp4 path") {
		t.Errorf("B200 has fp4: no fallback expected")
	}
	b8 := mustPredict(t, cat, strings.Replace(y, "fp4", "fp8", 1), "b200", 8, 1)
	if r := b.Throughput.Value / b8.Throughput.Value; r < 1.1 || r > 1.8 {
		t.Errorf("NVFP4 over FP8 training on B200: %.2fx, want a clear but partial gain (attention and elementwise stay)", r)
	}
}

// TestBatchingPolicies: static batches and finite bursts are slower than
// steady continuous batching on the same engine, and a burst's makespan
// grows with the spread of answer lengths.
func TestBatchingPolicies(t *testing.T) {
	cat := embedded(t)
	base := "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 256, output_tokens: 256, weight_precision: fp8, max_batch: 256%s}\nstack: {framework: vllm}\n"
	cont := mustPredict(t, cat, fmt.Sprintf(base, ""), "h100-sxm", 1, 1)
	static := mustPredict(t, cat, fmt.Sprintf(base, ", batching: static"), "h100-sxm", 1, 1)
	burst0 := mustPredict(t, cat, fmt.Sprintf(base, ", batching: burst, requests: 1000"), "h100-sxm", 1, 1)
	burst1 := mustPredict(t, cat, fmt.Sprintf(base, ", batching: burst, requests: 1000, output_tokens_cv: 1"), "h100-sxm", 1, 1)
	t.Logf("continuous %.0f, static %.0f, burst cv0 %.0f, burst cv1 %.0f tokens/s", cont.Throughput.Value, static.Throughput.Value, burst0.Throughput.Value, burst1.Throughput.Value)
	if static.Throughput.Value >= cont.Throughput.Value {
		t.Errorf("static batches (KV reserved for the whole answer, prefill not overlapped) must be slower than continuous: %.0f >= %.0f", static.Throughput.Value, cont.Throughput.Value)
	}
	if burst0.Throughput.Value > cont.Throughput.Value*1.02 {
		t.Errorf("a burst cannot beat steady state: %.0f > %.0f", burst0.Throughput.Value, cont.Throughput.Value)
	}
	if burst1.Throughput.Value >= burst0.Throughput.Value {
		t.Errorf("long-tailed answers must lengthen the makespan: %.0f >= %.0f", burst1.Throughput.Value, burst0.Throughput.Value)
	}
	if burst1.DurationHours == nil || burst1.Serving.MakespanS <= 0 || math.Abs(*burst1.DurationHours*3600-burst1.Serving.MakespanS) > 0.05 {
		t.Errorf("a burst's duration is its makespan: %v h, %v s", burst1.DurationHours, burst1.Serving.MakespanS)
	}
}

// TestOutputLengthsKeepTheirMean: the burst's lengths have the mean and
// spread the workload gives.
func TestOutputLengthsKeepTheirMean(t *testing.T) {
	for _, cv := range []float64{0, 0.5, 1, 2} {
		length := outputLengths(2000, 300, cv, 1e6)
		var s, s2 float64
		for i := range 2000 {
			x := length(i)
			s += x
			s2 += x * x
		}
		mean := s / 2000
		sd := math.Sqrt(s2/2000 - mean*mean)
		if math.Abs(mean/300-1) > 0.03 || math.Abs(sd/mean-cv) > 0.1*cv+0.01 {
			t.Errorf("cv %.1f: mean %.1f, cv %.2f", cv, mean, sd/mean)
		}
	}
}

// TestLittlesLaw: under load the batch in flight is the arrival rate times
// the time a request spends in the engine.
func TestLittlesLaw(t *testing.T) {
	cat := embedded(t)
	for _, rps := range []string{"2", "10", "30"} {
		p := mustPredict(t, cat, "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 200, requests_per_second: "+rps+", weight_precision: fp8}\nparallelism: {tensor: 1}\n", "h100-sxm", 1, 1)
		lambda := p.Throughput.Value / 200
		latency := (*p.TTFTMs + 200**p.TPOTMs) / 1000
		want := lambda * latency
		got := float64(p.Serving.Batch)
		t.Logf("%s requests/s: batch %v, rate x latency %.1f", rps, got, want)
		if math.Abs(got-want) > math.Max(1.5, 0.1*want) {
			t.Errorf("%s requests/s: batch in flight %.0f, but rate x latency is %.1f", rps, got, want)
		}
	}
}

// TestParallelismBlockIsFollowed: every field of the block is honoured.
func TestParallelismBlockIsFollowed(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-train\nmodel: {preset: qwen3-30b-a3b}\ntraining: {seq_len: 4096, global_batch: 512, tokens: 1e10, precision: bf16}\nparallelism: {tensor: 2, pipeline: 2, virtual_pipeline: 2, expert: 4, data: 4, micro_batch: 2}\nstack: {framework: megatron}\n"
	p := mustPredict(t, cat, y, "h100-sxm", 16, 2)
	pl := p.Parallelism
	if pl.Tensor != 2 || pl.Pipeline != 2 || pl.VirtualPipeline != 2 || pl.Expert != 4 || pl.Data != 4 || pl.MicroBatch != 2 {
		t.Errorf("layout %+v does not follow the block", pl)
	}
	if !hasNote(p, "as the parallelism block gives it") {
		t.Errorf("the assumptions must say the layout was given: %v", msg.Strings(p.Assumptions))
	}
}

// TestMoELayoutUsesExperts: left to itself the search spreads experts.
func TestMoELayoutUsesExperts(t *testing.T) {
	cat := embedded(t)
	p := mustPredict(t, cat, "kind: llm-train\nmodel: {preset: qwen3-30b-a3b}\ntraining: {seq_len: 4096, global_batch: 256, tokens: 1e10, precision: bf16}\nstack: {framework: megatron}\n", "h100-sxm", 16, 2)
	if !p.Fits || p.Parallelism.Expert < 2 {
		t.Errorf("an MoE on 16 GPUs should use expert parallelism: %+v (%s)", p.Parallelism, p.Reason.String())
	}
	dense := mustPredict(t, cat, "kind: llm-train\nmodel: {layers: 48, hidden: 2048, heads: 32, kv_heads: 4, head_dim: 128, ffn_hidden: 6144, vocab: 151936}\ntraining: {seq_len: 4096, global_batch: 256, tokens: 1e10, precision: bf16}\nstack: {framework: megatron}\n", "h100-sxm", 16, 2)
	if p.MFU >= dense.MFU {
		t.Errorf("grouped GEMMs, permutation and all-to-all must cost an MoE some MFU: MoE %.3f, dense %.3f", p.MFU, dense.MFU)
	}
}

// TestPipelineHeadImbalance: the output head sits on the last stage; with
// few layers and a large vocabulary the other stages wait for it.
func TestPipelineHeadImbalance(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-train\nmodel: {layers: 8, hidden: 2048, heads: 16, ffn_hidden: 8192, vocab: %d}\ntraining: {seq_len: 4096, global_batch: 64, tokens: 1e10}\nparallelism: {pipeline: 4, virtual_pipeline: 1, tensor: 1, data: 2, micro_batch: 1}\nstack: {framework: megatron}\n"
	share := func(v int) float64 {
		p := mustPredict(t, cat, fmt.Sprintf(y, v), "h100-sxm", 8, 1)
		return p.Breakdown.BubbleS / p.StepTimeS
	}
	small, big := share(32000), share(256000)
	t.Logf("waiting share of the step: vocab 32k %.2f, 256k %.2f", small, big)
	if big < small+0.1 {
		t.Errorf("a 256k-token head on the last of 4 stages must leave the others waiting: %.2f vs %.2f of the step", big, small)
	}
	if got := layerSplit(10, 2, 1, 0, 2); math.Abs(got-6) > 1e-6 {
		t.Errorf("10 layers of 1 s over 2 stages with a 2 s head: the best split is 6 + (4 + 2), got %.3f", got)
	}
}

// TestPowerCapIsAnAttribute: a capped variant is slower where compute
// limits it, and says why.
func TestPowerCapIsAnAttribute(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {seq_len: 4096, global_batch: 64, tokens: 1e10}\nstack: {framework: megatron}\n"
	full := mustPredict(t, cat, y, "h100-sxm", 8, 1)
	capped := mustPredict(t, cat, y, "h100-sxm-96gb-500w", 8, 1)
	r := capped.Throughput.Value / full.Throughput.Value
	if r >= 0.97 || r < 0.75 {
		t.Errorf("500 W of 700 W: throughput ratio %.2f, want somewhat slower", r)
	}
	if !hasNote(capped, "capped at 500 W") {
		t.Errorf("the cap must be stated: %v", msg.Strings(capped.Assumptions))
	}
}

// TestPhysicsProperties checks, over random workloads and accelerators,
// what no prediction may break: MFU and utilisation at most 100%, a
// duration no shorter than the work at the datasheet peak, intervals
// around the value, and a named bottleneck.
func TestPhysicsProperties(t *testing.T) {
	cat := embedded(t)
	rng := rand.New(rand.NewPCG(7, 11))
	gpus := []string{"h100-sxm", "a100-80gb", "l40s", "mi300x", "b200", "gaudi2", "h200", "a10g", "v100"}
	models := []string{"llama-3-8b", "mistral-7b", "qwen2.5-7b", "mixtral-8x7b", "qwen3-30b-a3b", "llama-3-70b", "mpt-7b"}
	frameworks := []string{"pytorch", "megatron", "torchtitan", "deepspeed"}
	engines := []string{"vllm", "sglang", "tensorrt-llm", "tgi", "lmdeploy"}
	n := 120
	if testing.Short() {
		n = 30
	}
	for i := range n {
		gpu := gpus[rng.IntN(len(gpus))]
		model := models[rng.IntN(len(models))]
		count := []int{1, 2, 4, 8, 16}[rng.IntN(5)]
		var y string
		if rng.IntN(2) == 0 {
			seq := []int{1024, 2048, 4096, 8192}[rng.IntN(4)]
			y = fmt.Sprintf("kind: llm-train\nmodel: {preset: %s}\ntraining: {seq_len: %d, global_batch: %d, tokens: 1e9, precision: %s}\nstack: {framework: %s}\n",
				model, seq, 64*count, []string{"bf16", "fp8"}[rng.IntN(2)], frameworks[rng.IntN(len(frameworks))])
		} else {
			rps := ", requests: 1e6" // offline: a duration to check
			if rng.IntN(2) == 0 {
				rps = fmt.Sprintf(", requests_per_second: %d", 1+rng.IntN(50))
			}
			out := rng.IntN(400)
			if rng.IntN(4) == 0 {
				out = 0 // prefill only: embedding, scoring
			}
			y = fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: %d, output_tokens: %d, weight_precision: %s%s}\nstack: {framework: %s}\n",
				model, 64+rng.IntN(1500), out, []string{"bf16", "fp8", "int4"}[rng.IntN(3)], rps, engines[rng.IntN(len(engines))])
		}
		a, _ := cat.Accelerator(gpu)
		if a.Vendor != "nvidia" && strings.Contains(y, "tensorrt-llm") {
			continue
		}
		nodes := 0
		if count > a.GPUsPerServer && a.GPUsPerServer > 0 {
			nodes = (count + a.GPUsPerServer - 1) / a.GPUsPerServer
		}
		c, err := NewCluster(a, count, nodes, nil)
		if err != nil {
			continue
		}
		p, err := Predict(mustSpec(t, y), c)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, y)
		}
		if !p.Fits {
			continue
		}
		where := fmt.Sprintf("case %d (%d x %s):\n%s", i, count, gpu, y)
		if p.MFU > 1 || p.MFU < 0 {
			t.Errorf("%s MFU %.3f outside [0, 1]", where, p.MFU)
		}
		if p.Utilization > 1 || p.Utilization <= 0 {
			t.Errorf("%s utilisation %.3f outside (0, 1]", where, p.Utilization)
		}
		if p.Bottleneck == "" || p.Verdict.String() == "" {
			t.Errorf("%s no bottleneck or verdict", where)
		}
		if p.Throughput.P10 == nil || !(*p.Throughput.P10 <= p.Throughput.Value && p.Throughput.Value <= *p.Throughput.P90) {
			t.Errorf("%s throughput %.4g outside its interval %v-%v", where, p.Throughput.Value, p.Throughput.P10, p.Throughput.P90)
		}
		spec := mustSpec(t, y)
		if spec.Kind == workload.KindLLMTrain && p.DurationHours != nil {
			d, _ := dataTypeFor(a, spec.Training.Precision)
			work := 6 * spec.Model.ActiveParamsB() * 1e9 * spec.Training.Tokens * 0.9 // a lower bound: embeddings are lookups
			floor := work / (float64(count) * peakNominal(a, d)) / 3600
			if *p.DurationHours < floor {
				t.Errorf("%s duration %.4g h is below work / peak = %.4g h", where, *p.DurationHours, floor)
			}
		}
		if spec.Kind == workload.KindLLMInference && p.DurationHours != nil {
			// Every prompt and output token passes through the weights it
			// uses: 2 FLOPs per active parameter, at best at the peak.
			inf := spec.Inference
			d, _ := dataTypeFor(a, "bf16")
			work := 2 * spec.Model.ActiveParamsB() * 1e9 * 0.8 * inf.Requests * float64(inf.PromptTokens+inf.OutputTokens)
			if floor := work / (float64(count) * 2 * peakNominal(a, d)) / 3600; *p.DurationHours < floor {
				t.Errorf("%s duration %.4g h is below work / peak = %.4g h", where, *p.DurationHours, floor)
			}
		}
		if spec.Kind == workload.KindLLMInference && spec.Inference.OutputTokens == 0 && p.TPOTMs != nil {
			t.Errorf("%s a prefill-only job has a time per output token", where)
		}
		if spec.Kind == workload.KindLLMInference && p.TPOTMs != nil {
			// A decode step reads every weight a token uses at least once.
			wb := spec.Model.ActiveParamsB() * 1e9 * spec.Inference.WeightPrecision.Bytes() * 0.8 / float64(p.Parallelism.Tensor)
			if floor := wb / (a.MemBandwidthGBps * 1e9) * 1000; *p.TPOTMs < floor {
				t.Errorf("%s TPOT %.3g ms is below the weight read at full bandwidth, %.3g ms", where, *p.TPOTMs, floor)
			}
		}
	}
}

// TestBottleneckIsTheLargestTerm: the named bottleneck of a decode step is
// its largest part.
func TestBottleneckIsTheLargestTerm(t *testing.T) {
	cat := embedded(t)
	for _, tc := range []struct{ y, gpu string }{
		{"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 256, output_tokens: 256, max_batch: 1}\n", "h100-sxm"},
		{"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 256, output_tokens: 256, max_batch: 512, weight_precision: fp8}\n", "h100-sxm"},
		{"kind: llm-inference\nmodel: {preset: llama-3-70b}\ninference: {prompt_tokens: 256, output_tokens: 256, max_batch: 4}\nparallelism: {tensor: 8}\n", "l40s"},
		{"kind: llm-inference\nmodel: {preset: bert-large}\ninference: {prompt_tokens: 384, output_tokens: 0, requests: 5e7}\n", "h100-sxm"},
	} {
		p := mustPredict(t, cat, tc.y, tc.gpu, 8, 1)
		if !p.Fits {
			t.Fatalf("%s: %s", tc.y, p.Reason.String())
		}
		bd := p.Breakdown
		terms := map[string]float64{Compute: bd.ComputeS, MemoryBandwidth: bd.MemoryS, Interconnect: bd.CommExposedS, CPU: bd.OverheadS}
		top := ""
		for k, v := range terms {
			if top == "" || v > terms[top] {
				top = k
			}
		}
		got := p.Bottleneck
		if got == MemoryCapacity {
			got = MemoryBandwidth // a KV-limited batch is bandwidth-bound in its step
		}
		if got != top {
			t.Errorf("%s on %s: bottleneck %s, but the largest term is %s (%+v)", strings.TrimSpace(tc.y), tc.gpu, p.Bottleneck, top, bd)
		}
	}
}

// TestLayerSplitIsOptimal compares layerSplit with every way of splitting
// a few layers over a few stages.
func TestLayerSplitIsOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 300 {
		L, pp := 1+rng.IntN(12), 2+rng.IntN(3)
		tl, tf, tLast := 0.1+rng.Float64(), rng.Float64()*2, rng.Float64()*3
		best := math.Inf(1)
		var walk func(d, left int, worst float64)
		walk = func(d, left int, worst float64) {
			if d == pp-1 {
				load := float64(left)*tl + tLast
				if d == 0 {
					load += tf
				}
				best = math.Min(best, math.Max(worst, load))
				return
			}
			for n := 0; n <= left; n++ {
				load := float64(n) * tl
				if d == 0 {
					load += tf
				}
				walk(d+1, left-n, math.Max(worst, load))
			}
		}
		walk(0, L, 0)
		if got := layerSplit(L, pp, tl, tf, tLast); math.Abs(got-best) > 1e-9*best {
			t.Fatalf("L %d pp %d layer %.3f first %.3f last %.3f: got %.6f, best %.6f", L, pp, tl, tf, tLast, got, best)
		}
	}
}

// TestGlobalBatchIsKeptOrSaid: a global batch the data-parallel degree
// divides is run as given; one it does not is rounded up, and the
// prediction says so and counts the sequences actually run.
func TestGlobalBatchIsKeptOrSaid(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, seq_len: 2048, global_batch: 64, tokens: 1e8}\n"
	for _, gpus := range []int{1, 2, 3, 4, 6, 8} {
		p := mustPredict(t, cat, y, "h100-sxm", gpus, 1)
		if !p.Fits {
			t.Fatalf("%d GPUs: %s", gpus, p.Reason.String())
		}
		pl := p.Parallelism
		ran := pl.MicroBatch * pl.Data * pl.GradAccumulation
		said := hasNote(p, "is not a multiple of data parallel")
		switch {
		case ran == 64 && (said || pl.GlobalBatch != 0):
			t.Errorf("%d GPUs run 64 sequences a step, yet the prediction says otherwise", gpus)
		case ran != 64 && (!said || pl.GlobalBatch != ran):
			t.Errorf("%d GPUs run %d sequences a step (file: 64) without saying so (global_batch %d)", gpus, ran, pl.GlobalBatch)
		}
	}
}

// TestEveryPresetObeysPhysics serves and fine-tunes every language-model
// preset on 8 H100s and checks the invariants: MFU and utilisation at most
// 100%, the named bottleneck of a service the largest part of its step,
// and a throughput inside its own interval.
func TestEveryPresetObeysPhysics(t *testing.T) {
	cat := embedded(t)
	for _, pr := range workload.Presets() {
		if pr.Model.Arch != "" && pr.Model.Arch != workload.ArchDecoder {
			continue // vision and encoder presets have their own kinds
		}
		for _, y := range []string{
			"kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 1024, output_tokens: 256, requests_per_second: 4, weight_precision: fp8}\n",
			"kind: llm-finetune\nmodel: {preset: %s}\ntraining: {method: lora, seq_len: 2048, global_batch: 32, tokens: 1e8}\n",
		} {
			p := mustPredict(t, cat, fmt.Sprintf(y, pr.Name), "h100-sxm", 8, 1)
			if !p.Fits {
				continue
			}
			where := fmt.Sprintf("%s (%s)", pr.Name, strings.SplitN(y, "\n", 2)[0])
			if p.MFU > 1 || p.Utilization > 1 || p.MFU < 0 || p.Utilization <= 0 {
				t.Errorf("%s: MFU %.3f, utilisation %.3f", where, p.MFU, p.Utilization)
			}
			if p.Throughput.P10 != nil && !(*p.Throughput.P10 <= p.Throughput.Value && p.Throughput.Value <= *p.Throughput.P90) {
				t.Errorf("%s: throughput outside its interval", where)
			}
			if p.Serving != nil && p.Serving.Sustainable != nil && *p.Serving.Sustainable {
				bd := p.Breakdown
				terms := map[string]float64{Compute: bd.ComputeS, MemoryBandwidth: bd.MemoryS, Interconnect: bd.CommExposedS, CPU: bd.OverheadS}
				got := p.Bottleneck
				if got == MemoryCapacity {
					got = MemoryBandwidth
				}
				for k, v := range terms {
					if v > terms[got]*1.0001 {
						t.Errorf("%s: bottleneck %s (%.4g s) but %s takes %.4g s", where, p.Bottleneck, terms[got], k, v)
					}
				}
			}
		}
	}
}

// TestShardingIsFollowed: parallelism.sharding is followed exactly, an MoE
// model's included (left to itself the search shards only the optimizer of
// an MoE model), and each kind keeps what it shards: zero2 less than
// zero1, fsdp least; hsdp keeps a node's share and pays a gradient
// all-reduce over the fabric that fsdp does not.
func TestShardingIsFollowed(t *testing.T) {
	cat := embedded(t)
	const moe = "kind: llm-train\nmodel: {preset: qwen3-30b-a3b}\ntraining: {seq_len: 4096, global_batch: 256, tokens: 1e10, precision: bf16}\nparallelism: {sharding: fsdp}\nstack: {framework: pytorch}\n"
	if p := mustPredict(t, cat, moe, "h100-sxm", 16, 2); p.Parallelism.Sharding != "fsdp" {
		t.Errorf("an MoE model with sharding fsdp runs %q", p.Parallelism.Sharding)
	}
	mem := map[string]float64{}
	comm := map[string]float64{}
	for _, sh := range []string{"zero1", "zero2", "fsdp", "hsdp"} {
		y := fmt.Sprintf("kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {seq_len: 4096, global_batch: 256, tokens: 1e10, precision: bf16}\nparallelism: {data: 32, tensor: 1, sharding: %s}\nstack: {framework: pytorch}\n", sh)
		p := mustPredict(t, cat, y, "h100-sxm", 32, 4)
		if p.Parallelism.Sharding != sh {
			t.Errorf("sharding %s: runs %q", sh, p.Parallelism.Sharding)
		}
		mem[sh] = p.Memory.WeightsGB + p.Memory.GradientsGB + p.Memory.OptimizerGB
		comm[sh] = p.Breakdown.CommTotalS
	}
	if !(mem["zero2"] < mem["zero1"] && mem["fsdp"] < mem["zero2"] && mem["fsdp"] < mem["hsdp"] && mem["hsdp"] < mem["zero1"]) {
		t.Errorf("state per GPU (GB): %v; want fsdp < zero2 < zero1, fsdp < hsdp < zero1", mem)
	}
	if !(comm["hsdp"] < comm["fsdp"]) {
		t.Errorf("communication per step (s): %v; hsdp gathers within a node and should move less over the fabric than fsdp", comm)
	}
}

// TestGroupedKVReads: before TensorRT-LLM 0.7 the decode attention kernel
// read a grouped KV head once per query head, so a GQA model's decode
// streams its KV cache heads/kv_heads times; a release with grouped
// kernels reads it once, and a model without GQA is unaffected.
func TestGroupedKVReads(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 2048, output_tokens: 2048, weight_precision: fp8, max_batch: 64, batching: static}\nparallelism: {tensor: 2}\nstack: {framework: tensorrt-llm, version: %q}\n"
	at := func(model, v string) Prediction {
		return mustPredict(t, cat, fmt.Sprintf(y, model, v), "h100-sxm", 2, 1)
	}
	oldGQA, newGQA := at("llama-2-70b", "0.6.1"), at("llama-2-70b", "0.7")
	// Llama 2 70B: 64 query heads over 8 KV heads. Per GPU and step the
	// weights are 35 GB and the KV cache of 64 sequences at a mean context
	// of 3,072 tokens about 16 GB, so eight reads of it at least double
	// the memory time, and at most the KV share grows eightfold.
	r := oldGQA.Breakdown.MemoryS / newGQA.Breakdown.MemoryS
	if r < 2 || r > 8 {
		t.Errorf("memory time per step, TensorRT-LLM 0.6.1 over 0.7 on a GQA model: %.2fx, want 2-8x", r)
	}
	if !hasNote(oldGQA, "once per query head") {
		t.Errorf("the assumptions must say why: %v", msg.Strings(oldGQA.Assumptions))
	}
	oldMHA, newMHA := at("llama-2-7b", "0.6.1"), at("llama-2-7b", "0.7")
	if oldMHA.Breakdown.MemoryS != newMHA.Breakdown.MemoryS {
		t.Errorf("a model without grouped KV heads reads its cache once either way: %.5f vs %.5f s", oldMHA.Breakdown.MemoryS, newMHA.Breakdown.MemoryS)
	}
}

// TestHostOverlap: TensorRT-LLM's PyTorch executor prepares the next step
// while the GPU runs this one, so its per-sequence host work (about 29 us
// a sequence) costs nothing at small batches and sets the pace at large
// ones, where the verdict must name the host.
func TestHostOverlap(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 128, output_tokens: 2048, weight_precision: fp8, max_batch: %d}\nstack: {framework: tensorrt-llm, version: \"1.0\"}\n"
	small := mustPredict(t, cat, fmt.Sprintf(y, 64), "h200", 1, 1)
	gaps := 32 * defaultParams.DecodeLayerS // the GPU's kernel gaps, reported with the overhead
	if small.Bottleneck == CPU || small.Breakdown.OverheadS > 0.6e-3+gaps {
		t.Errorf("64 sequences: the host's 1.9 ms hides under the GPU's step; got bottleneck %s, overhead %.2f ms (%.2f ms of it kernel gaps)", small.Bottleneck, small.Breakdown.OverheadS*1000, gaps*1000)
	}
	large := mustPredict(t, cat, fmt.Sprintf(y, 1024), "h200", 1, 1)
	if large.Serving.Batch < 850 {
		t.Fatalf("want a batch near 1024 (or what memory holds), got %d", large.Serving.Batch)
	}
	rel, _, _ := pickRelease(engines[workload.FrameworkTensorRTLLM], "1.0")
	host := rel.PerSeqS * float64(large.Serving.Batch)
	if large.Bottleneck != CPU || large.StepTimeS < host || large.StepTimeS > host+1e-3 {
		t.Errorf("%d sequences: want the host's %.1f ms to pace the step and be named; got bottleneck %s, step %.1f ms", large.Serving.Batch, host*1000, large.Bottleneck, large.StepTimeS*1000)
	}
	if !strings.Contains(large.Verdict.String(), "host work") {
		t.Errorf("the verdict must say the host sets the pace: %s", large.Verdict)
	}
}

// TestAdmissionWait: a request held back for balancing waits that many
// decode steps before its prefill, all of them in its time to first
// token; the attention data-parallel ranks then prefill in step, so the
// time per token is no longer, and the assumption says so.
func TestAdmissionWait(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 800, output_tokens: 2000, weight_precision: fp4, requests_per_second: 5%s}\nparallelism: {expert: 8}\nstack: {framework: tensorrt-llm, version: \"1.0\"}\n"
	now := mustPredict(t, cat, fmt.Sprintf(y, ""), "gb200", 8, 0)
	held := mustPredict(t, cat, fmt.Sprintf(y, ", admission_wait_steps: 9"), "gb200", 8, 0)
	if now.TTFTMs == nil || held.TTFTMs == nil || now.TPOTMs == nil || held.TPOTMs == nil {
		t.Fatal("a service has latencies")
	}
	step := held.StepTimeS * 1000
	if got := *held.TTFTMs - *now.TTFTMs; got < 8.5*step || got > 9.5*step+1 {
		t.Errorf("nine steps of %.1f ms held back: TTFT %.1f -> %.1f ms (+%.1f)", step, *now.TTFTMs, *held.TTFTMs, got)
	}
	// Held back until every rank has one, the prompts are prefilled in
	// step: the time per token loses the out-of-step stall and gains
	// nothing from the wait.
	if d := *held.TPOTMs / *now.TPOTMs; d < 0.5 || d > 1.0001 {
		t.Errorf("the wait is before the first token and keeps the ranks in step: TPOT %.1f -> %.1f ms", *now.TPOTMs, *held.TPOTMs)
	}
	if !hasNote(now, "prefill out of step") {
		t.Errorf("without the wait the ranks prefill out of step: %v", msg.Strings(now.Assumptions))
	}
	if !hasNote(held, "waits 9 decode steps") {
		t.Errorf("the assumption must say so: %v", msg.Strings(held.Assumptions))
	}
}

// TestStaticBatchLatency: a static batch prefills its prompts together and
// then only decodes, so its time per output token is the decode step (no
// other request's prefill interleaves, as in continuous batching) and its
// first token waits for the whole batch's prefill.
func TestStaticBatchLatency(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 2048, output_tokens: 256, weight_precision: fp8, max_batch: 64%s}\nstack: {framework: tensorrt-llm}\n"
	static := mustPredict(t, cat, fmt.Sprintf(y, ", batching: static"), "h100-sxm", 1, 1)
	cont := mustPredict(t, cat, fmt.Sprintf(y, ""), "h100-sxm", 1, 1)
	if static.TPOTMs == nil || static.TTFTMs == nil || cont.TPOTMs == nil {
		t.Fatal("both have latencies")
	}
	if step := static.StepTimeS * 1000; math.Abs(*static.TPOTMs-step) > 0.01*step {
		t.Errorf("static batch: TPOT %.2f ms, want its decode step %.2f ms", *static.TPOTMs, step)
	}
	if *cont.TPOTMs <= *static.TPOTMs {
		t.Errorf("continuous batching interleaves other prompts' prefills: TPOT %.2f ms, static %.2f ms", *cont.TPOTMs, *static.TPOTMs)
	}
	one := static.Serving.PrefillMs
	if b := float64(static.Serving.Batch); *static.TTFTMs < 0.9*b*one {
		t.Errorf("static batch of %.0f: first token at %.0f ms, before the batch's prefill (%.0f ms a prompt)", b, *static.TTFTMs, one)
	}
}

// TestVLLMAsyncScheduling: vLLM's V1 engine schedules between GPU steps
// until 0.14, which prepares the next step during this one: at the same
// batch, the older release's step is longer by the host's work per
// sequence, and the newer one hides it while the GPU's step is longer.
func TestVLLMAsyncScheduling(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 128, output_tokens: 2048, weight_precision: fp8, max_batch: 512}\nstack: {framework: vllm, version: %q}\n"
	syncP := mustPredict(t, cat, fmt.Sprintf(y, "0.11"), "h100-sxm", 1, 1)
	asyncP := mustPredict(t, cat, fmt.Sprintf(y, "0.14"), "h100-sxm", 1, 1)
	if syncP.Serving.Batch != asyncP.Serving.Batch || syncP.Serving.Batch < 400 {
		t.Fatalf("want the same batch near 512, got %d and %d", syncP.Serving.Batch, asyncP.Serving.Batch)
	}
	rel, _, _ := pickRelease(engines[workload.FrameworkVLLM], "0.11")
	host := rel.PerSeqS * float64(syncP.Serving.Batch)
	if d := syncP.StepTimeS - asyncP.StepTimeS; math.Abs(d-host) > 0.05*host {
		t.Errorf("0.11 schedules between steps: its step %.2f ms should exceed 0.14's %.2f ms by the host's %.2f ms", syncP.StepTimeS*1000, asyncP.StepTimeS*1000, host*1000)
	}
	if asyncP.Bottleneck == CPU {
		t.Errorf("0.14 hides %.2f ms of host work under a longer GPU step; got bottleneck %s", host*1000, asyncP.Bottleneck)
	}
}

// TestTGICUDAGraphs: TGI launched each decode step eagerly, layer by layer,
// until 2.0 replayed it from CUDA graphs by default: at the same batch the
// older release's step is longer by the launches of every layer.
func TestTGICUDAGraphs(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-2-13b}\ninference: {prompt_tokens: 256, output_tokens: 256, max_batch: 8}\nstack: {framework: tgi, version: %q}\n"
	eager := mustPredict(t, cat, fmt.Sprintf(y, "1.4"), "a100-80gb", 1, 1)
	graphs := mustPredict(t, cat, fmt.Sprintf(y, "2.0"), "a100-80gb", 1, 1)
	rel, _, _ := pickRelease(engines[workload.FrameworkTGI], "1.4")
	launches := rel.LaunchPerLayerS * 40 // Llama 2 13B has 40 layers
	if d := eager.StepTimeS - graphs.StepTimeS; launches <= 0 || math.Abs(d-launches) > 0.05*launches {
		t.Errorf("TGI 1.4 launches 40 layers eagerly: step %.2f ms should exceed 2.0's %.2f ms by %.2f ms", eager.StepTimeS*1000, graphs.StepTimeS*1000, launches*1000)
	}
}

// TestQuantisedCheckpointLayout: a quantised checkpoint keeps the
// embedding and output head in 16 bits, and an FP4 one of an MLA model its
// query and latent projections in FP8; the weights' memory counts them so
// and the assumptions say so.
func TestQuantisedCheckpointLayout(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 512, output_tokens: 512, weight_precision: %s}\nparallelism: {tensor: %d}\nstack: {framework: tensorrt-llm}\n"
	weights := func(preset, prec, gpu string, tp int) (Prediction, *workload.Model) {
		s := fmt.Sprintf(y, preset, prec, tp)
		return mustPredict(t, cat, s, gpu, tp, 1), mustSpec(t, s).Model
	}
	bf, m := weights("llama-3.1-8b", "bf16", "h100-sxm", 1)
	f8, _ := weights("llama-3.1-8b", "fp8", "h100-sxm", 1)
	emb := 2 * float64(m.Vocab) * float64(m.Hidden) // untied: embedding and head
	n := m.ParamsB * 1e9
	if want := ((n-emb)*1 + emb*2) / 1e9; math.Abs(f8.Memory.WeightsGB-want) > 0.02*want {
		t.Errorf("Llama 3.1 8B in fp8: weights %.2f GB, want %.2f GB (head and embedding in 16 bits; bf16 takes %.2f)", f8.Memory.WeightsGB, want, bf.Memory.WeightsGB)
	}
	if !hasNote(f8, "output head stay in 16 bits") || hasNote(bf, "output head stay in 16 bits") {
		t.Errorf("only the fp8 prediction states its 16-bit head: %v / %v", msg.Strings(f8.Assumptions), msg.Strings(bf.Assumptions))
	}
	ds, dm := weights("deepseek-v3", "fp4", "b200", 8)
	latent := dm.LatentProjParams() * float64(dm.Layers)
	dEmb := 2 * float64(dm.Vocab) * float64(dm.Hidden)
	want := ((dm.ParamsB*1e9-dEmb-latent)*workload.FP4.StoredBytes() + latent + dEmb*2) / 8 / 1e9
	if latent < 1e9 || math.Abs(ds.Memory.WeightsGB-want) > 0.02*want {
		t.Errorf("DeepSeek-V3 in fp4 over 8 GPUs: weights %.2f GB per GPU, want %.2f GB (%.1f B latent projections in fp8)", ds.Memory.WeightsGB, want, latent/1e9)
	}
	if !hasNote(ds, "latent key/value projections stay in fp8") {
		t.Errorf("the fp8 latent projections must be stated: %v", msg.Strings(ds.Assumptions))
	}
}

// TestFP8TrainingHeadInBF16: fp8 training casts the transformer blocks'
// linear layers; the output head stays in bf16. The step time a larger
// vocabulary adds is then the same in fp8 as in bf16, where an fp8 head
// would add about half of it.
func TestFP8TrainingHeadInBF16(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-train\nmodel: {layers: 16, hidden: 2048, heads: 16, ffn_hidden: 8192, vocab: %d}\ntraining: {seq_len: 4096, global_batch: 64, tokens: 1e10, precision: %s, activation_checkpointing: none}\nparallelism: {tensor: 1, pipeline: 1, data: 8, micro_batch: 1}\nstack: {framework: megatron}\n"
	added := func(prec string) float64 {
		small := mustPredict(t, cat, fmt.Sprintf(y, 32000, prec), "h100-sxm", 8, 1)
		large := mustPredict(t, cat, fmt.Sprintf(y, 256000, prec), "h100-sxm", 8, 1)
		return large.StepTimeS - small.StepTimeS
	}
	bf, f8 := added("bf16"), added("fp8")
	if bf <= 0 || f8/bf < 0.9 || f8/bf > 1.1 {
		t.Errorf("224k more vocabulary adds %.2f ms to a bf16 step and %.2f ms to an fp8 step; want the same (the head stays in bf16)", bf*1000, f8*1000)
	}
}

// TestOptimizerStateInBF16: a model loaded and trained in bf16 keeps bf16
// Adam moments and no fp32 master copy, 8 bytes per parameter instead of
// 16. VectorLM's reference run fine-tunes Llama 3 8B in full on one
// A100-80GB at 16,384 tokens per step: it fits only so.
func TestOptimizerStateInBF16(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: full, seq_len: 2048, global_batch: 32, tokens: 1e9, precision: bf16, optimizer_precision: %s, activation_checkpointing: full}\nparallelism: {data: 1, micro_batch: 8, sharding: fsdp}\n"
	mixed := mustPredict(t, cat, fmt.Sprintf(y, "fp32"), "a100-80gb", 1, 1)
	bf := mustPredict(t, cat, fmt.Sprintf(y, "bf16"), "a100-80gb", 1, 1)
	if mixed.Fits {
		t.Errorf("with fp32 master weights and moments the job fits in %.1f GB; want it not to fit in 80 GiB", mixed.Memory.TotalGB)
	}
	if !bf.Fits {
		t.Fatalf("with a bf16 optimizer state the job needs %.1f GB; want it to fit in 80 GiB", bf.Memory.TotalGB)
	}
	if got := bf.Memory.OptimizerGB / mixed.Memory.OptimizerGB; !(math.Abs(got-1.0/3) <= 0.01) {
		t.Errorf("bf16 optimizer state is %.2f of the mixed-precision one; want 1/3 (4 bytes per parameter against 12)", got)
	}
	if bf.Memory.WeightsGB != mixed.Memory.WeightsGB || bf.Memory.GradientsGB != mixed.Memory.GradientsGB {
		t.Errorf("weights %.2f/%.2f GB, gradients %.2f/%.2f GB: want the 16-bit weights and gradients unchanged",
			bf.Memory.WeightsGB, mixed.Memory.WeightsGB, bf.Memory.GradientsGB, mixed.Memory.GradientsGB)
	}
}

// TestCompiledPyTorchDecode: PyTorch's generation loop under torch.compile
// with CUDA graphs (gpt-fast) replays each decode step as one graph: no
// per-layer launches from the host, a lean loop, fused elementwise kernels;
// eager generate() launches every kernel from Python.
func TestCompiledPyTorchDecode(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-2-7b}\ninference: {prompt_tokens: 5, output_tokens: 200, max_batch: 1, requests: 1}\nstack: {framework: pytorch%s}\n"
	eager := mustPredict(t, cat, fmt.Sprintf(y, ""), "a100-80gb", 1, 1)
	compiled := mustPredict(t, cat, fmt.Sprintf(y, ", compile: true"), "a100-80gb", 1, 1)
	if !(compiled.StepTimeS < 0.7*eager.StepTimeS) {
		t.Errorf("batch-1 decode of Llama 2 7B on an A100: %.1f ms compiled, %.1f ms eager; want the graph replay well under the eager loop", compiled.StepTimeS*1000, eager.StepTimeS*1000)
	}
	if !(compiled.Breakdown.OverheadS < 1.5e-3) || !(eager.Breakdown.OverheadS > 3*compiled.Breakdown.OverheadS) {
		t.Errorf("overhead per step %.2f ms compiled, %.2f ms eager; want the compiled loop's under 1.5 ms and a third of the eager one's", compiled.Breakdown.OverheadS*1000, eager.Breakdown.OverheadS*1000)
	}
	if !hasNote(compiled, "torch.compile with CUDA graphs") || hasNote(eager, "torch.compile with CUDA graphs") {
		t.Errorf("the assumptions must name the compiled loop only when compile is set: %v", msg.Strings(compiled.Assumptions))
	}
}
