package perf

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/msg"
)

const dsv3 = "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 2000, output_tokens: 1000, weight_precision: fp8%s}\nparallelism: {%s}\nstack: {framework: sglang}\n"

// TestWideEPOnNVLinkDomain: DeepSeek-V3 decode with attention data parallel
// and experts split over a GB200 NVL72 domain. Widening the expert group
// leaves each GPU fewer expert slots and more room for KV cache, so the
// batch per GPU grows, and the output per GPU never falls and rises over
// the whole range (it flattens as the step turns compute-bound), while the
// all-to-all stays on NVLink. Wide expert parallelism is run with the
// experts rebalanced (EPLB, as the wide-EP recipes do): with static
// placement each GPU's few experts carry the routing skew, and the widest
// group is no faster per GPU than the narrowest.
func TestWideEPOnNVLinkDomain(t *testing.T) {
	cat := embedded(t)
	prevTok, prevBatch, first := 0.0, 0.0, 0.0
	for _, ep := range []int{8, 16, 32, 64} {
		p := mustPredict(t, cat, fmt.Sprintf(dsv3, "", fmt.Sprintf("expert: %d, expert_balancing: true", ep)), "gb200", ep, 0)
		if !p.Fits {
			t.Fatalf("EP%d on gb200: does not fit: %s", ep, p.Reason.String())
		}
		if !strings.HasPrefix(p.Breakdown.CommLink, "intra-node") {
			t.Errorf("EP%d inside one NVL72 domain: communication on %q, want NVLink", ep, p.Breakdown.CommLink)
		}
		perGPU := p.Throughput.Value / float64(p.GPUs)
		batch := float64(p.Serving.Batch) / float64(ep)
		if perGPU < prevTok || batch <= prevBatch {
			t.Errorf("EP%d: %.0f tokens/s and %.0f sequences per GPU, below the narrower group's %.0f and %.0f", ep, perGPU, batch, prevTok, prevBatch)
		}
		if first == 0 {
			first = perGPU
		} else if ep == 64 && perGPU < first*1.03 {
			t.Errorf("EP64: %.0f tokens/s per GPU, not 3%% above EP8's %.0f", perGPU, first)
		}
		prevTok, prevBatch = perGPU, batch
		if p.Memory.TotalGB > p.Memory.CapacityGB {
			t.Errorf("EP%d: %.1f GB per GPU of %.1f", ep, p.Memory.TotalGB, p.Memory.CapacityGB)
		}
	}
	static := mustPredict(t, cat, fmt.Sprintf(dsv3, "", "expert: 64"), "gb200", 64, 0)
	if perGPU := static.Throughput.Value / 64; perGPU >= first {
		t.Errorf("EP64 with static experts: %.0f tokens/s per GPU, want below EP8's %.0f balanced", perGPU, first)
	}
}

// TestWideEPOverFabric: on 8-GPU H200 nodes the expert group that grows past
// a node sends part of its all-to-all over InfiniBand: the communication
// link becomes the fabric and the all-to-all time per sequence grows.
func TestWideEPOverFabric(t *testing.T) {
	cat := embedded(t)
	commPerSeq := func(ep int) (float64, Prediction) {
		// The same batch per GPU, so that only the link differs.
		y := fmt.Sprintf(dsv3, ", max_batch: "+fmt.Sprint(64*ep), fmt.Sprintf("expert: %d", ep))
		p := mustPredict(t, cat, y, "h200", ep, 0)
		if !p.Fits {
			t.Fatalf("EP%d on h200: does not fit: %s", ep, p.Reason.String())
		}
		return p.Breakdown.CommTotalS / float64(p.Serving.Batch/ep), p
	}
	in8, p8 := commPerSeq(8)
	over32, p32 := commPerSeq(32)
	if !strings.HasPrefix(p8.Breakdown.CommLink, "intra-node") || !strings.HasPrefix(p32.Breakdown.CommLink, "inter-node") {
		t.Errorf("links: EP8 %q, EP32 %q; want intra-node then inter-node", p8.Breakdown.CommLink, p32.Breakdown.CommLink)
	}
	if over32 <= in8 {
		t.Errorf("all-to-all per sequence: %.3g s over the fabric (EP32) is not above %.3g s on NVLink (EP8)", over32, in8)
	}
}

// TestExpertSlots: experts that the group does not divide fill ceil(E/G)
// slots per GPU (EPLB's redundant copies), and the busiest GPU's share of
// random routing lies above the mean by a margin that shrinks with load.
func TestExpertSlots(t *testing.T) {
	j := &inferJob{experts: 256}
	for _, c := range []struct {
		g    int
		want float64
	}{{8, 32.0 / 256}, {48, 6.0 / 256}, {72, 4.0 / 256}, {256, 1.0 / 256}} {
		if got := (replica{j: j, tp: c.g}).expertSlots(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("256 experts over %d GPUs: %.5f of them per GPU, want %.5f", c.g, got, c.want)
		}
	}
	if epImbalance(100, 1, 256, false) != 1 {
		t.Error("one GPU has no imbalance")
	}
	if !(epImbalance(10, 64, 256, true) > epImbalance(1000, 64, 256, true) && epImbalance(1000, 64, 256, true) > epImbalance(1000, 8, 256, true) && epImbalance(1000, 8, 256, true) > 1) {
		t.Error("imbalance must fall with the load per GPU and grow with the group")
	}
	// Static placement adds the routing skew: with 8 of DeepSeek-R1's 256
	// experts on each of 32 GPUs and 1,024 routed tokens per GPU, the
	// busiest got 2.56 times the mean (TensorRT-LLM tech blog 4); balanced,
	// 1.11.
	if got := epImbalance(1024, 32, 256, false); got < 2.0 || got > 3.0 {
		t.Errorf("static placement over 32 GPUs: busiest %.2f times the mean, want 2-3 (measured 2.56)", got)
	}
	if got := epImbalance(1024, 32, 256, true); got < 1.0 || got > 1.2 {
		t.Errorf("balanced over 32 GPUs: busiest %.2f times the mean, want 1.0-1.2 (measured 1.11)", got)
	}
	if epImbalance(1024, 48, 256, false) != epImbalance(1024, 48, 256, true) {
		t.Error("48 GPUs do not divide 256 experts: the engine places redundant copies, as if balanced")
	}
}

// TestExpertBalancing: a DeepSeek decode over 8 GPUs with static expert
// placement waits for its busiest GPU's experts and all-to-all, so it is
// slower than the same decode with the experts rebalanced, and says so.
func TestExpertBalancing(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 1024, output_tokens: 2048, weight_precision: fp4, max_batch: 4096}\nparallelism: {expert: 8%s}\nstack: {framework: tensorrt-llm, version: \"1.0\"}\n"
	static := mustPredict(t, cat, fmt.Sprintf(y, ""), "b200", 8, 0)
	balanced := mustPredict(t, cat, fmt.Sprintf(y, ", expert_balancing: true"), "b200", 8, 0)
	if static.Throughput.Value >= balanced.Throughput.Value {
		t.Errorf("static placement must be slower: %.0f against %.0f tokens/s balanced", static.Throughput.Value, balanced.Throughput.Value)
	}
	if !hasNote(static, "experts placed statically") || hasNote(balanced, "experts placed statically") {
		t.Errorf("only static placement is stated: %v / %v", msg.Strings(static.Assumptions), msg.Strings(balanced.Assumptions))
	}
}

// TestMLADecodeAttention: DeepSeek's MLA decodes in its absorbed form,
// whose attention FLOPs per position run over the latent: 2·128·(512+64)
// for QK and 2·128·512 for PV, about three times a 192-wide head's 4·128·192.
func TestMLADecodeAttention(t *testing.T) {
	var notes []msg.Msg
	cat := embedded(t)
	a, _ := cat.Accelerator("h100-sxm")
	j, err := newInferJob(mustSpec(t, fmt.Sprintf(dsv3, "", "")), a, &notes)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2*128*(512+64) + 2*128*512.0; j.decAttn != want {
		t.Errorf("MLA decode attention: %.0f FLOPs per token, layer and position, want %.0f", j.decAttn, want)
	}
	llama, err := newInferJob(mustSpec(t, "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 512, output_tokens: 128}\n"), a, &notes)
	if err != nil {
		t.Fatal(err)
	}
	if llama.decAttn != 4*32*128 {
		t.Errorf("GQA decode attention: %.0f, want 4 x 32 heads x 128", llama.decAttn)
	}
}

// TestDisaggregatedPools: prefill_gpus splits the cluster into two pools.
// The decode pool, never pausing for a prompt, produces more per GPU than
// the same GPUs would prefilling and decoding; the service runs at the
// slower pool's pace; the first token waits for the prefill and the KV
// cache's trip; and a split that leaves no decode GPU does not fit.
func TestDisaggregatedPools(t *testing.T) {
	cat := embedded(t)
	colo := mustPredict(t, cat, fmt.Sprintf(dsv3, "", "expert: 48"), "gb200", 48, 0)
	dis := mustPredict(t, cat, fmt.Sprintf(dsv3, "", "expert: 48, prefill_gpus: 16"), "gb200", 64, 0)
	if !colo.Fits || !dis.Fits {
		t.Fatalf("fits: colocated %v, disaggregated %v (%s)", colo.Fits, dis.Fits, dis.Reason.String())
	}
	s := dis.Serving
	if s.DecodeTokensS/48 <= colo.Throughput.Value/48 {
		t.Errorf("decode pool %.0f tokens/s per GPU, not above colocated %.0f", s.DecodeTokensS/48, colo.Throughput.Value/48)
	}
	capacity := math.Min(s.DecodeTokensS, s.PrefillTokensS/2000*1000)
	if math.Abs(dis.Throughput.Value-capacity) > 1e-6*capacity+0.1 {
		t.Errorf("throughput %.1f, want the slower pool's %.1f", dis.Throughput.Value, capacity)
	}
	if *dis.TTFTMs < s.PrefillMs+s.KVTransferMs || s.KVTransferMs <= 0 {
		t.Errorf("TTFT %.1f ms below prefill %.1f + KV transfer %.2f ms", *dis.TTFTMs, s.PrefillMs, s.KVTransferMs)
	}
	if dis.Parallelism.PrefillGPUs != 16 || dis.Parallelism.Expert != 48 || dis.Parallelism.PrefillReplicaGPUs == 0 {
		t.Errorf("layout %+v: want 16 prefill GPUs and the decode pool's EP48", dis.Parallelism)
	}
	prefillBound := s.PrefillTokensS/2000 < s.DecodeTokensS/1000
	if prefillBound != strings.HasPrefix(dis.Verdict.String(), "the prefill pool sets the pace") {
		t.Errorf("verdict %q does not name the slower pool (prefill %.1f, decode %.1f requests/s)", dis.Verdict.String(), s.PrefillTokensS/2000, s.DecodeTokensS/1000)
	}
	if dis.MFU > 1 || dis.Utilization > 1 {
		t.Errorf("MFU %.3f, utilisation %.3f", dis.MFU, dis.Utilization)
	}
	none := mustPredict(t, cat, fmt.Sprintf(dsv3, "", "prefill_gpus: 8"), "gb200", 8, 0)
	if none.Fits || !strings.Contains(none.Reason.String(), "parallelism.prefill_gpus 8") {
		t.Errorf("8 prefill GPUs of 8: fits %v, reason %q", none.Fits, none.Reason.String())
	}
}

// TestSpeculativeDecoding: drafts accepted with chance a yield
// (1-a^(k+1))/(1-a) tokens per step; at batch 1, where a step reads the
// weights whatever it verifies, the time per token falls by nearly that
// much, and it never falls below the step over the yield.
func TestSpeculativeDecoding(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-70b}\ninference: {prompt_tokens: 1000, output_tokens: 500, max_batch: 1, weight_precision: fp8%s}\nstack: {framework: vllm}\n"
	plain := mustPredict(t, cat, fmt.Sprintf(y, ""), "h100-sxm", 2, 0)
	spec := mustPredict(t, cat, fmt.Sprintf(y, ", speculative_tokens: 2, speculative_acceptance: 0.7"), "h100-sxm", 2, 0)
	yield := 1 + 0.7 + 0.49
	if *spec.TPOTMs >= *plain.TPOTMs/yield*1.15 || *spec.TPOTMs < *plain.TPOTMs/yield*0.99 {
		t.Errorf("batch-1 TPOT %.2f ms with drafts, %.2f without: want about 1/%.2f of it", *spec.TPOTMs, *plain.TPOTMs, yield)
	}
	if got := spec.StepTimeS / yield * 1000; math.Abs(got-*spec.TPOTMs) > 0.02 {
		t.Errorf("TPOT %.2f ms is not the step %.2f ms over the yield %.2f", *spec.TPOTMs, spec.StepTimeS*1000, yield)
	}
}

// TestSLOBoundsOfflineThroughput: a throughput job with a per-token bound
// runs at the largest batch that meets it, not at the batch memory holds.
func TestSLOBoundsOfflineThroughput(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 1000, output_tokens: 1000%s}\nstack: {framework: vllm}\n"
	free := mustPredict(t, cat, fmt.Sprintf(y, ""), "h100-sxm", 1, 0)
	bound := mustPredict(t, cat, fmt.Sprintf(y, ", slo: {tpot_ms: 12}"), "h100-sxm", 1, 0)
	if bound.Serving.Batch != bound.Serving.MaxBatchSLO || bound.Serving.Batch >= free.Serving.Batch {
		t.Errorf("batch %d with a 12 ms bound (SLO allows %d), %d without", bound.Serving.Batch, bound.Serving.MaxBatchSLO, free.Serving.Batch)
	}
	if *bound.TPOTMs > 12 || bound.Throughput.Value >= free.Throughput.Value {
		t.Errorf("TPOT %.2f ms at %.0f tokens/s, against %.0f unbound", *bound.TPOTMs, bound.Throughput.Value, free.Throughput.Value)
	}
}

// TestLongAnswersFillTheBatch: in steady continuous batching a sequence
// stays for its answer's length, so with varied lengths the batch holds a
// longer mean context (prompt + mean/2·(1+CV²)) than with fixed ones:
// fewer sequences fit and the same mean output is served more slowly.
func TestLongAnswersFillTheBatch(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 1000, output_tokens: 500, output_tokens_cv: %g}\nstack: {framework: vllm}\n"
	fixed := mustPredict(t, cat, fmt.Sprintf(y, 0.0), "h100-sxm", 1, 0)
	varied := mustPredict(t, cat, fmt.Sprintf(y, 1.0), "h100-sxm", 1, 0)
	if varied.Serving.MaxBatchMemory >= fixed.Serving.MaxBatchMemory || varied.Throughput.Value >= fixed.Throughput.Value {
		t.Errorf("CV 1: %d sequences fit, %.0f tokens/s; CV 0: %d, %.0f", varied.Serving.MaxBatchMemory, varied.Throughput.Value, fixed.Serving.MaxBatchMemory, fixed.Throughput.Value)
	}
	// The KV cache per sequence grows with the mean context: 1000 + 250
	// tokens against 1000 + 500.
	if r := float64(fixed.Serving.MaxBatchMemory) / float64(varied.Serving.MaxBatchMemory); math.Abs(r-1500.0/1250) > 0.02 {
		t.Errorf("sequences that fit, CV 0 over CV 1: %.3f, want %.3f", r, 1500.0/1250)
	}
}

// TestPrefillExpertGEMMs: a prefill's expert GEMMs run grouped, on the
// rows routed to each expert, as a decode step's and training's do: they
// slow with the grouped-GEMM efficiency, and with experts placed
// statically over expert-parallel GPUs the busiest GPU's routing skew.
func TestPrefillExpertGEMMs(t *testing.T) {
	var notes []msg.Msg
	cat := embedded(t)
	a, _ := cat.Accelerator("h100-sxm")
	c, err := NewCluster(a, 8, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	prefill := func(y string, grouped float64, lay layout) float64 {
		j, err := newInferJob(mustSpec(t, y), a, &notes)
		if err != nil {
			t.Fatal(err)
		}
		m := defaultParams.Clone()
		m.MoEGrouped = grouped
		r := newReplica(m, &j, c, m.archFor(a.Architecture), lay)
		t, _ := r.prefillCompute(2048, 2048, 0, false)
		return t
	}
	mixtral := "kind: llm-inference\nmodel: {preset: mixtral-8x7b}\ninference: {prompt_tokens: 2048, output_tokens: 128, weight_precision: fp8}\n"
	fast, slow := prefill(mixtral, 1, layout{tp: 8}), prefill(mixtral, 0.5, layout{tp: 8})
	if !(slow > fast*1.2) {
		t.Errorf("Mixtral's prefill is mostly expert GEMMs: %.2f ms at full grouped efficiency, %.2f ms at half; want it much slower", fast*1000, slow*1000)
	}
	static := prefill(fmt.Sprintf(dsv3, "", "expert: 8"), 0.8, layout{tp: 8, ep: true})
	balanced := prefill(fmt.Sprintf(dsv3, "", "expert: 8, expert_balancing: true"), 0.8, layout{tp: 8, ep: true})
	if !(static > balanced) {
		t.Errorf("DeepSeek-V3 over 8 GPUs: a prefill with static experts (%.2f ms) must wait for the busiest GPU, balanced %.2f ms", static*1000, balanced*1000)
	}
}

// TestDecodeGEMMShare: from two rows on, a decode step's dense GEMMs run
// at the architecture's decode share of the GEMM rate (vLLM's ROCm build
// hands them to hipBLASLt); one row runs the skinny kernels at the full
// rate, and architectures whose decode kernels are tuned keep share 1.
func TestDecodeGEMMShare(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-70b}\ninference: {prompt_tokens: 128, output_tokens: 2048, weight_precision: fp8}\nstack: {framework: vllm}\n"
	compute := func(gpu string, share float64, b int) float64 {
		r := testReplica(t, y, gpu, defaultParams.Clone(), func(f *archFactors) { f.DecodeMatmul = share }, layout{tp: 8})
		_, _, tComp, _, _ := r.step(b, 1000)
		return tComp
	}
	if full, half := compute("mi300x", 1, 128), compute("mi300x", 0.5, 128); !(half > 1.8*full) {
		t.Errorf("128 rows at half the decode share: compute %.2f ms against %.2f ms at the full rate; want nearly twice", half*1000, full*1000)
	}
	if full, half := compute("mi300x", 1, 1), compute("mi300x", 0.5, 1); half != full {
		t.Errorf("one row runs the skinny kernels: compute %.3f ms at half the decode share, %.3f ms at the full one; want equal", half*1000, full*1000)
	}
	for _, a := range cat.Accelerators {
		f := defaultParams.archFor(a.Architecture)
		switch a.Architecture {
		case "cdna2", "cdna3":
			if !(f.DecodeMatmul > 0.1 && f.DecodeMatmul < 1) {
				t.Errorf("%s: decode share %.2f; want hipBLASLt's general kernels below the large-GEMM rate", a.ID, f.DecodeMatmul)
			}
		default:
			if f.DecodeMatmul != 1 {
				t.Errorf("%s (%s): decode share %.2f; want 1 where no published decode sweep says otherwise", a.ID, a.Architecture, f.DecodeMatmul)
			}
		}
	}
}

// TestDecodeLayerGaps: every decode layer loses the gaps and ramps of its
// small kernels, graph-replayed or not: the step grows by decode.layer_s
// per layer, reported with its overhead, and a pipeline stage pays only
// for its own layers.
func TestDecodeLayerGaps(t *testing.T) {
	y := "kind: llm-inference\nmodel: {preset: llama-3.1-70b}\ninference: {prompt_tokens: 512, output_tokens: 256, weight_precision: fp8}\nstack: {framework: tensorrt-llm}\n"
	added := func(lay layout) (step, overhead float64) {
		var s, o [2]float64
		for k, gap := range []float64{0, 10e-6} {
			m := defaultParams.Clone()
			m.DecodeLayerS = gap
			r := testReplica(t, y, "h100-sxm", m, nil, lay)
			s[k], _, _, _, o[k] = r.stage(8, 700, r.frac)
		}
		return s[1] - s[0], o[1] - o[0]
	}
	for _, tt := range []struct {
		lay    layout
		layers float64
	}{{layout{tp: 8}, 80}, {layout{tp: 4, pp: 2}, 40}} {
		step, overhead := added(tt.lay)
		want := tt.layers * 10e-6
		if math.Abs(step-want) > 1e-9 || math.Abs(overhead-want) > 1e-9 {
			t.Errorf("tp %d pp %d: %.0f layers at 10 us of gaps add %.3f ms to the step and %.3f ms to its overhead; want %.3f ms",
				tt.lay.tp, tt.lay.pp, tt.layers, step*1000, overhead*1000, want*1000)
		}
	}
}

// testReplica is one replica of the inference job y on 8 GPUs of gpu (one
// node) in layout lay under m, with edit (when not nil) applied to the
// architecture's factors.
func testReplica(t *testing.T, y, gpu string, m *Params, edit func(*archFactors), lay layout) replica {
	t.Helper()
	var notes []msg.Msg
	a, ok := embedded(t).Accelerator(gpu)
	if !ok {
		t.Fatalf("no accelerator %s", gpu)
	}
	c, err := NewCluster(a, 8, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := newInferJob(mustSpec(t, y), a, &notes)
	if err != nil {
		t.Fatal(err)
	}
	f := m.archFor(a.Architecture)
	if edit != nil {
		edit(&f)
	}
	return newReplica(m, &j, c, f, lay)
}

// TestDispatchPrecision: expert GEMMs that read fp8 activations get their
// tokens dispatched in fp8 and return them in bf16, 3 bytes a value for the
// pair against 4 when the GEMMs run in 16 bits; only the MoE layers
// exchange tokens, so the dense layers at the front add no all-to-all.
func TestDispatchPrecision(t *testing.T) {
	y := "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 1000, output_tokens: 1000, weight_precision: %s}\nparallelism: {expert: 8}\nstack: {framework: tensorrt-llm}\n"
	comm := func(prec string, lat float64) (float64, replica) {
		r := testReplica(t, fmt.Sprintf(y, prec), "h200", defaultParams, nil, layout{tp: 8, ep: true})
		r.arLat = lat
		_, _, _, c, _ := r.stage(512, 2000, 1)
		return c, r
	}
	fp8, r := comm("fp8", 0)
	bf16, _ := comm("bf16", 0)
	if got := fp8 / bf16; math.Abs(got-0.75) > 1e-9 {
		t.Errorf("all-to-all of an fp8 model is %.4f of a bf16 one's; want 0.75 (fp8 dispatch, bf16 combine)", got)
	}
	// The latency term counts two exchanges per MoE layer, not per layer.
	withLat, _ := comm("fp8", 1e-3)
	if got, want := withLat-fp8, 2*1e-3*r.j.moeLayers; math.Abs(got-want) > 1e-9 || r.j.moeLayers >= float64(r.j.layers) {
		t.Errorf("all-to-all latency per step %.1f ms; want %.1f ms (two per MoE layer, %.0f of %d layers)", got*1e3, want*1e3, r.j.moeLayers, r.j.layers)
	}
}

// TestExpertOverlap: parallelism.expert_overlap decides how much of a
// decode step's expert all-to-all hides under its compute. Over
// InfiniBand (EP32 on 8-GPU H200 nodes) the all-to-all is large: without
// overlap every step waits for all of it; a single-batch overlap hides
// part of it (the dispatch under the shared experts, the combine under
// the down projection) and never more than those GEMMs last; two
// micro-batches hide the most. Unset, each engine follows its own recipe
// (SGLang 0.5 two micro-batches, vLLM none).
func TestExpertOverlap(t *testing.T) {
	cat := embedded(t)
	pred := func(framework, overlap string) Prediction {
		par := "expert: 32, expert_balancing: true" + overlap
		y := strings.Replace(fmt.Sprintf(dsv3, ", max_batch: 4096", par), "framework: sglang", "framework: "+framework, 1)
		p := mustPredict(t, cat, y, "h200", 32, 0)
		if !p.Fits {
			t.Fatalf("%s%s: does not fit: %s", framework, overlap, p.Reason.String())
		}
		return p
	}
	def, two := pred("sglang", ""), pred("sglang", ", expert_overlap: two_batch")
	one, none := pred("sglang", ", expert_overlap: single_batch"), pred("sglang", ", expert_overlap: none")
	if def.Throughput.Value != two.Throughput.Value {
		t.Errorf("SGLang unset %.0f tokens/s, two_batch %.0f: want the same (its wide-EP recipe)", def.Throughput.Value, two.Throughput.Value)
	}
	exp := func(p Prediction) float64 { return p.Breakdown.CommExposedS }
	if !(exp(two) < exp(one) && exp(one) < exp(none)) || !(two.Throughput.Value > one.Throughput.Value && one.Throughput.Value > none.Throughput.Value) {
		t.Errorf("exposed all-to-all two_batch %.2f ms, single_batch %.2f ms, none %.2f ms (%.0f, %.0f, %.0f tokens/s): want each hiding less than the one before",
			exp(two)*1e3, exp(one)*1e3, exp(none)*1e3, two.Throughput.Value, one.Throughput.Value, none.Throughput.Value)
	}
	// The single batch hides at most its shared experts and down
	// projection: (1/8 + 1/3) of the routed experts' GEMM time, itself
	// part of the step's compute.
	if hidden := exp(none) - exp(one); hidden <= 0 || hidden > (1.0/8+1.0/3)*one.Breakdown.ComputeS {
		t.Errorf("single batch hides %.2f ms of the all-to-all, more than the shared experts and down projection of %.2f ms of compute can", hidden*1e3, one.Breakdown.ComputeS*1e3)
	}
	if !hasNote(none, "waits for its expert all-to-all") || !hasNote(two, "overlaps another's compute") || !hasNote(one, "single-batch overlap") {
		t.Errorf("assumptions do not say how the all-to-all overlaps: %v / %v / %v", msg.Strings(none.Assumptions), msg.Strings(one.Assumptions), msg.Strings(two.Assumptions))
	}
	vdef, vtwo := pred("vllm", ""), pred("vllm", ", expert_overlap: two_batch")
	if vtwo.Throughput.Value <= vdef.Throughput.Value {
		t.Errorf("vLLM unset %.0f tokens/s, with dual-batch overlap %.0f: want the overlap faster (off by default)", vdef.Throughput.Value, vtwo.Throughput.Value)
	}
}

// TestFP8DecodeAttention: MLA decode attention at a 4,096-token prompt is
// compute-bound on an H20 (148 TFLOPS of 16-bit maths). Stating fp8 maths
// over the fp8 cache (inference.attention_precision) shortens the step's
// compute and nothing else; an fp8 cache alone reads fewer bytes but keeps
// 16-bit maths; an accelerator without fp8 maths (A100) is unchanged, and
// the prediction says so.
func TestFP8DecodeAttention(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 4096, output_tokens: 1000, weight_precision: fp8, kv_precision: fp8, max_batch: 512%s}\nparallelism: {expert: 16, expert_balancing: true}\nstack: {framework: sglang}\n"
	pred := func(gpu, extra string) Prediction {
		p := mustPredict(t, cat, fmt.Sprintf(y, extra), gpu, 16, 0)
		if !p.Fits {
			t.Fatalf("%s%s: does not fit: %s", gpu, extra, p.Reason.String())
		}
		return p
	}
	b16, f8 := pred("h20", ""), pred("h20", ", attention_precision: fp8")
	if f8.Breakdown.ComputeS >= b16.Breakdown.ComputeS*0.9 || f8.Breakdown.MemoryS != b16.Breakdown.MemoryS {
		t.Errorf("h20: fp8 attention compute %.2f ms, memory %.2f ms; 16-bit %.2f ms, %.2f ms: want compute at least 10%% lower, memory equal",
			f8.Breakdown.ComputeS*1e3, f8.Breakdown.MemoryS*1e3, b16.Breakdown.ComputeS*1e3, b16.Breakdown.MemoryS*1e3)
	}
	if f8.Throughput.Value <= b16.Throughput.Value || !hasNote(f8, "decode attention runs its maths in fp8") || hasNote(b16, "decode attention runs its maths in fp8") {
		t.Errorf("h20: %.0f tokens/s with fp8 attention against %.0f; assumptions %v", f8.Throughput.Value, b16.Throughput.Value, msg.Strings(f8.Assumptions))
	}
	a16, a8 := pred("a100-80gb", ""), pred("a100-80gb", ", attention_precision: fp8")
	if a8.Throughput.Value != a16.Throughput.Value || !hasNote(a8, "has no fp8 maths: decode attention runs in 16 bits") {
		t.Errorf("a100: %.0f tokens/s with fp8 attention asked, %.0f without; want the same and a note: %v", a8.Throughput.Value, a16.Throughput.Value, msg.Strings(a8.Assumptions))
	}
}

// TestAttentionDPLockstep: attention data-parallel ranks wait for each
// other at every MoE layer, so a step lasts as long as the rank prefilling
// the most new prompts. Out of step (no admission wait), the busiest of g
// ranks holds the largest of g Poisson counts; the extra cost per prompt
// falls as more prompts join a step (the ranks' shares even out) and is
// never below side-by-side prefill. Holding new requests until every rank
// has one (admission_wait_steps) removes it; a disaggregated decode pool,
// which never prefills, and bursts of equal answers, whose groups are
// dealt evenly, do not pay it.
func TestAttentionDPLockstep(t *testing.T) {
	for _, mu := range []float64{0.01, 0.3, 2, 40} {
		if got := maxPoisson(mu, 1); math.Abs(got-mu) > 1e-4*math.Max(1, mu) {
			t.Errorf("maxPoisson(%g, 1) = %.5f, want the mean %g", mu, got, mu)
		}
		prev := mu
		for _, g := range []int{2, 8, 72} {
			got := maxPoisson(mu, g)
			if got <= prev {
				t.Errorf("maxPoisson(%g, %d) = %.4f, not above %.4f for fewer counts", mu, g, got, prev)
			}
			if small := 1 - math.Exp(-float64(g)*mu); mu*float64(g) < 0.5 && math.Abs(got/small-1) > 0.2 {
				t.Errorf("maxPoisson(%g, %d) = %.4f: rare prompts, want about P(any) = %.4f", mu, g, got, small)
			}
			prev = got
		}
	}
	for _, mu := range []float64{100, 199, 201, 5000} {
		if got, want := maxPoisson(mu, 8), mu+math.Sqrt(mu*2*math.Log(8)); math.Abs(got/want-1) > 0.05 {
			t.Errorf("maxPoisson(%g, 8) = %.1f, want near the normal extreme %.1f", mu, got, want)
		}
	}

	cat := embedded(t)
	const job = "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 800, output_tokens: 3600, output_tokens_cv: 1.25, weight_precision: fp4, max_batch: 4096%s}\nparallelism: {expert: 8%s}\nstack: {framework: tensorrt-llm}\n"
	free := mustPredict(t, cat, fmt.Sprintf(job, "", ""), "gb200", 8, 0)
	held := mustPredict(t, cat, fmt.Sprintf(job, ", admission_wait_steps: 10", ""), "gb200", 8, 0)
	if !(free.Throughput.Value < held.Throughput.Value*0.98) {
		t.Errorf("ranks out of step: %.0f tokens/s, want below %.0f in step", free.Throughput.Value, held.Throughput.Value)
	}
	if !hasNote(free, "prefill out of step") || hasNote(held, "prefill out of step") {
		t.Errorf("the out-of-step note belongs to the run without admission_wait_steps only:\n%v\n%v", free.Assumptions, held.Assumptions)
	}

	var notes []msg.Msg
	a, _ := cat.Accelerator("gb200")
	c, err := NewCluster(a, 8, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := newInferJob(mustSpec(t, fmt.Sprintf(job, "", "")), a, &notes)
	if err != nil {
		t.Fatal(err)
	}
	r := newReplica(defaultParams, &j, c, c.factors(defaultParams), layout{tp: 8, ep: true})
	if r.pfLocal <= r.pfWork {
		t.Fatalf("a prompt's own rank does %.2f ms of its prefill, want more than its %.2f ms share", r.pfLocal*1000, r.pfWork*1000)
	}
	prev := math.Inf(1)
	for _, n := range []float64{0.05, 0.5, 2, 8, 64, 512} {
		per := r.joinWork(n, true) / n
		if per < r.pfWork || per > prev*(1+1e-9) {
			t.Errorf("%.2f prompts a step: %.3f ms each, want between side by side (%.3f) and the rarer prompts' %.3f", n, per*1000, r.pfWork*1000, prev*1000)
		}
		prev = per
	}
	if lone, want := r.joinWork(0.01, true)/0.01, r.pfWork+r.pfLocal*7/8; math.Abs(lone/want-1) > 0.01 {
		t.Errorf("a lone prompt costs %.3f ms, want its rank's whole share %.3f ms while the others wait", lone*1000, want*1000)
	}

	dis := "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 800, output_tokens: 3600, output_tokens_cv: 1.25, weight_precision: fp4%s}\nparallelism: {expert: 8, prefill_gpus: 8}\nstack: {framework: tensorrt-llm}\n"
	d1 := mustPredict(t, cat, fmt.Sprintf(dis, ""), "gb200", 16, 0)
	d2 := mustPredict(t, cat, fmt.Sprintf(dis, ", admission_wait_steps: 10"), "gb200", 16, 0)
	if d1.Serving.DecodeTokensS != d2.Serving.DecodeTokensS || d1.Serving.DecodeTokensS == 0 {
		t.Errorf("a decode pool never prefills: %.0f tokens/s out of step, %.0f in step", d1.Serving.DecodeTokensS, d2.Serving.DecodeTokensS)
	}
	const equal = "kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {prompt_tokens: 1024, output_tokens: 2048, batching: burst, requests: 16384, max_batch: 4096, weight_precision: fp4%s}\nparallelism: {expert: 8}\nstack: {framework: tensorrt-llm}\n"
	b1 := mustPredict(t, cat, fmt.Sprintf(equal, ""), "b200", 8, 0)
	b2 := mustPredict(t, cat, fmt.Sprintf(equal, ", admission_wait_steps: 10"), "b200", 8, 0)
	if math.Abs(b1.Throughput.Value/b2.Throughput.Value-1) > 0.01 {
		t.Errorf("equal answers finish and join in groups dealt evenly: %.0f tokens/s against %.0f in step", b1.Throughput.Value, b2.Throughput.Value)
	}
}
