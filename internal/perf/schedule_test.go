package perf

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// dsv3Train is DeepSeek-V3 pre-training laid out as its report gives it:
// 16 pipeline stages, 64-way expert parallelism across 8 nodes, no tensor
// parallelism; %s is the rest of the parallelism block.
const dsv3Train = "kind: llm-train\nmodel: {preset: deepseek-v3}\ntraining: {seq_len: 4096, global_batch: 1920, tokens: 1e10, precision: fp8, activation_checkpointing: full}\nparallelism: {tensor: 1, pipeline: 16, expert: 64, data: 16, micro_batch: 1%s}\nstack: {framework: megatron}\n"

// TestDualPipe: DeepSeek-V3's schedule against plain 1F1B on the same
// layout. Its bubble is (PP/2-1) two thirds of a micro-batch's work
// against 1F1B's PP-1 whole ones; each stage holds two chunks' weights and
// gradients and one micro-batch's activations more; the expert all-to-all
// runs beside the other chunk's compute and shows only where it outlasts
// it; and the kernels that carry it keep 20 of 132 SMs from the compute.
func TestDualPipe(t *testing.T) {
	cat := embedded(t)
	plain := mustPredict(t, cat, fmt.Sprintf(dsv3Train, ", virtual_pipeline: 1"), "h800", 256, 32)
	dual := mustPredict(t, cat, fmt.Sprintf(dsv3Train, ", schedule: dualpipe"), "h800", 256, 32)
	if !plain.Fits || !dual.Fits {
		t.Fatalf("fits: 1f1b %v, dualpipe %v", plain.Fits, dual.Fits)
	}
	if dual.Parallelism.Schedule != "dualpipe" || plain.Parallelism.Schedule != "" {
		t.Errorf("schedule reported: dualpipe %q, 1f1b %q", dual.Parallelism.Schedule, plain.Parallelism.Schedule)
	}
	if got := dual.Memory.WeightsGB / plain.Memory.WeightsGB; math.Abs(got-2) > 0.01 {
		t.Errorf("DualPipe holds %.2f times the weights of 1F1B; want 2 (two chunks per stage)", got)
	}
	if !(dual.Memory.ActivationsGB > plain.Memory.ActivationsGB) {
		t.Errorf("activations %.2f GB under DualPipe against %.2f under 1F1B; want PP+1 micro-batches in flight, more than PP",
			dual.Memory.ActivationsGB, plain.Memory.ActivationsGB)
	}
	// Compute is the same work on fewer SMs.
	if got := dual.Breakdown.ComputeS / plain.Breakdown.ComputeS; math.Abs(got-1/(1-dualPipeCommSMs)) > 0.01 {
		t.Errorf("DualPipe's compute is %.3f times 1F1B's; want %.3f (20 of 132 SMs kept for communication)", got, 1/(1-dualPipeCommSMs))
	}
	if !(dual.Breakdown.CommExposedS < 0.2*plain.Breakdown.CommExposedS) {
		t.Errorf("exposed communication %.2f s under DualPipe against %.2f s under 1F1B; want most of it hidden",
			dual.Breakdown.CommExposedS, plain.Breakdown.CommExposedS)
	}
	if !(dual.StepTimeS < plain.StepTimeS) {
		t.Errorf("step %.2f s under DualPipe against %.2f s under 1F1B; want it shorter", dual.StepTimeS, plain.StepTimeS)
	}
	for _, p := range []Prediction{plain, dual} {
		if p.Breakdown.CommExposedS > p.Breakdown.CommTotalS+1e-9 {
			t.Errorf("%s: exposed communication %.3f s is more than all of it, %.3f s", describe(p), p.Breakdown.CommExposedS, p.Breakdown.CommTotalS)
		}
	}
}

// TestDualPipeBubble: DualPipe's bubble is (PP/2-1)·2/3 of a stage's
// micro-batch against 1F1B's (PP-1)·1 (DeepSeek-V3's table 2, with a
// forward a third of a micro-batch's work, the full backward two thirds
// and its weight-gradient part a third), on the same layout at every depth.
func TestDualPipeBubble(t *testing.T) {
	cat := embedded(t)
	a, _ := cat.Accelerator("h100-sxm")
	const y = "kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {seq_len: 4096, global_batch: 256, tokens: 1e10, precision: bf16}\nparallelism: {tensor: 1, pipeline: %d}\nstack: {framework: megatron}\n"
	for _, pp := range []int{2, 4, 8} {
		spec := mustSpec(t, fmt.Sprintf(y, pp))
		c, err := NewCluster(a, pp, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		var notes []msg.Msg
		j, err := newTrainJob(spec, a, &notes)
		if err != nil {
			t.Fatal(err)
		}
		cfg := trainConfig{tp: 1, pp: pp, vp: 1, dp: 1, cp: 1, ep: 1, micro: 1, accum: 256, shard: shardNone, rc: workload.CheckpointFull}
		plain := j.evaluate(defaultParams, c, c.factors(defaultParams), cfg, namesOf(c))
		cfg.dualPipe = true
		dual := j.evaluate(defaultParams, c, c.factors(defaultParams), cfg, namesOf(c))
		// A stage's work per micro-batch, from the 1F1B bubble.
		w := plain.bubbleS / float64(pp-1)
		want := (float64(pp)/2 - 1) * 2 / 3 * w / (1 - dualPipeCommSMs) // the same work on fewer SMs
		if math.Abs(dual.bubbleS-want) > 1e-9*math.Max(1, want) {
			t.Errorf("pp %d: DualPipe's bubble %.4f s; want %.4f s ((PP/2-1)·2/3 of a %.4f s micro-batch, on 112 of 132 SMs)", pp, dual.bubbleS, want, w)
		}
	}
}

// TestPlainPipelineExposesTheAllToAll: Megatron overlaps one micro-batch's
// expert all-to-all with another's compute only where the schedule keeps
// two on a GPU: with virtual pipeline stages (or without a pipeline). A
// plain 1F1B pipeline waits for all of it.
func TestPlainPipelineExposesTheAllToAll(t *testing.T) {
	cat := embedded(t)
	y := "kind: llm-train\nmodel: {preset: deepseek-v3}\ntraining: {seq_len: 4096, global_batch: 1024, tokens: 1e10, precision: bf16, activation_checkpointing: full}\nparallelism: {tensor: 1, pipeline: 8, virtual_pipeline: %d, expert: 64, data: 32, micro_batch: 1}\nstack: {framework: megatron}\n"
	plain := mustPredict(t, cat, fmt.Sprintf(y, 1), "h100-sxm", 256, 32)
	inter := mustPredict(t, cat, fmt.Sprintf(y, 2), "h100-sxm", 256, 32)
	if !plain.Fits || !inter.Fits {
		t.Fatalf("fits: vp 1 %v, vp 2 %v", plain.Fits, inter.Fits)
	}
	// The all-to-all is the same traffic in both.
	if !(plain.Breakdown.CommExposedS > 1.5*inter.Breakdown.CommExposedS) {
		t.Errorf("exposed communication: %.2f s with a plain pipeline, %.2f s interleaved; want the plain one to wait for the whole all-to-all",
			plain.Breakdown.CommExposedS, inter.Breakdown.CommExposedS)
	}
}

// TestFabricCopies: a kernel that sends a token once per node never sends
// more copies over the fabric than one per expert, reaches at most the
// nodes its group limit allows, and without a limit sends the expected
// number of distinct remote nodes of k draws.
func TestFabricCopies(t *testing.T) {
	for _, nodes := range []int{1, 2, 4, 8, 16, 32} {
		for _, k := range []int{1, 2, 4, 8} {
			n := float64(nodes)
			perExpert := float64(k) * (n - 1) / n
			free := fabricCopies(k, 0, 0, nodes)
			limited := fabricCopies(k, 8, 4, nodes)
			if free > perExpert+1e-12 || limited > free+1e-12 {
				t.Errorf("%d nodes, top-%d: %.3f copies per node, %.3f with 4 of 8 groups; want at most %.3f (one per expert), the limited fewer",
					nodes, k, free, limited, perExpert)
			}
			if k == 1 && math.Abs(free-perExpert) > 1e-12 {
				t.Errorf("%d nodes, top-1: %.3f copies; want %.3f (one expert, one node)", nodes, free, perExpert)
			}
			if nodes >= 8 && limited > 4*float64(nodes)/8+1e-12 {
				t.Errorf("%d nodes, top-%d, 4 of 8 groups: %.3f copies; a token reaches at most half the nodes", nodes, k, limited)
			}
		}
	}
	// DeepSeek-V3 over 8 nodes, one group each: top-8 within 4 nodes.
	if got := fabricCopies(8, 8, 4, 8); !(got > 2.5 && got < 3.5) {
		t.Errorf("DeepSeek-V3 over 8 nodes: %.2f copies of a token cross the fabric; want about 3.2 (up to 4 nodes, its own among them at times)", got)
	}
}
