package perf

import (
	"fmt"
	"testing"
)

// TestMultiNodeServing: a model larger than one node is served by
// replicas that span nodes, on every accelerator with a fabric, and the
// physics holds over those layouts: memory per GPU within capacity, the
// decode step no faster than reading each GPU's weights, utilisation at
// most 100%, the named bottleneck the largest term, and no layout over
// more nodes faster per token than the weights' read on one node.
func TestMultiNodeServing(t *testing.T) {
	cat := embedded(t)
	models := []struct{ preset, precision string }{
		{"deepseek-v3", "fp8"}, {"deepseek-v3", "bf16"}, {"llama-3.1-405b", "bf16"}, {"llama-3.1-405b", "fp8"},
	}
	spanned := 0
	for _, a := range cat.Accelerators {
		if a.Vendor != "nvidia" && a.Vendor != "amd" || a.MemGiB == 0 || a.GPUsPerServer < 2 {
			continue
		}
		for _, m := range models {
			y := fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 2000, output_tokens: 400, requests_per_second: 2, weight_precision: %s}\nstack: {framework: vllm}\n", m.preset, m.precision)
			spec := mustSpec(t, y)
			per := a.GPUsPerServer
			one, err := NewCluster(a, per, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			p1, err := Predict(spec, one)
			if err != nil {
				t.Fatal(err)
			}
			if p1.Fits {
				continue // fits one node: not this test's
			}
			found := false
			for _, nodes := range []int{2, 4, 8} {
				where := fmt.Sprintf("%s %s on %d x %d %s", m.preset, m.precision, nodes, per, a.ID)
				c, err := NewCluster(a, nodes*per, nodes, nil)
				if err != nil {
					t.Fatal(err)
				}
				p, err := Predict(spec, c)
				if err != nil {
					t.Fatal(err)
				}
				if !p.Fits {
					continue
				}
				found = true
				spanned++
				pl := p.Parallelism
				if pl.NodesPerReplica < 2 {
					t.Errorf("%s: a model that does not fit one node is served on %d node(s) per replica", where, pl.NodesPerReplica)
				}
				if pl.Tensor*max(1, pl.Pipeline)*pl.Replicas > c.GPUs {
					t.Errorf("%s: layout %+v takes more than %d GPUs", where, pl, c.GPUs)
				}
				if p.Memory.TotalGB > p.Memory.CapacityGB {
					t.Errorf("%s: %.1f GB per GPU of %.1f", where, p.Memory.TotalGB, p.Memory.CapacityGB)
				}
				if p.Utilization > 1 || p.MFU > 1 || p.MFU < 0 {
					t.Errorf("%s: utilisation %.3f, MFU %.3f", where, p.Utilization, p.MFU)
				}
				// The step reads every weight a token uses, spread over the
				// GPUs of a stage (or split experts), once per token.
				active := spec.Model.ActiveParamsB() * 1e9 * spec.Inference.WeightPrecision.Bytes() * 0.8
				floor := active / float64(pl.Tensor) / (a.MemBandwidthGBps * 1e9) * 1000
				if p.TPOTMs == nil || *p.TPOTMs < floor {
					t.Errorf("%s: TPOT %v ms below the weight read %.3g ms", where, p.TPOTMs, floor)
				}
				if pl.Pipeline > 1 || pl.Tensor > c.fastDomain() {
					if p.Breakdown.CommExposedS <= 0 || p.Breakdown.CommLink != "inter-node "+c.FabricKind {
						t.Errorf("%s: a layout over the fabric has no fabric term: %+v", where, p.Breakdown)
					}
				}
				bd := p.Breakdown
				terms := map[string]float64{Compute: bd.ComputeS, MemoryBandwidth: bd.MemoryS, Interconnect: bd.CommExposedS, CPU: bd.OverheadS}
				got := p.Bottleneck
				if got == MemoryCapacity {
					got = MemoryBandwidth
				}
				if p.Serving != nil && p.Serving.Sustainable != nil && *p.Serving.Sustainable {
					for k, v := range terms {
						if v > terms[got]*1.0001 {
							t.Errorf("%s: bottleneck %s (%.4g s) but %s takes %.4g s", where, p.Bottleneck, terms[got], k, v)
						}
					}
				}
				if !hasNote(p, "a replica spans") || p.Confidence == "high" {
					t.Errorf("%s: the layout over nodes is not said, or the confidence not lowered: %s", where, p.Confidence)
				}
			}
			if !found && a.MemGiB*float64(8*per) > 2*spec.Model.ParamsB*spec.Inference.WeightPrecision.Bytes() {
				t.Errorf("%s %s on %s: no multi-node layout up to 8 nodes serves it", m.preset, m.precision, a.ID)
			}
		}
	}
	if spanned < 10 {
		t.Errorf("only %d multi-node layouts checked", spanned)
	}
}

// TestPipelineNeverBeatsOneNode: splitting a model that fits one node
// into pipeline stages over two never lowers its time per token at batch
// one below the one node's: each stage still reads its weights once per
// token, and the hops add to it.
func TestPipelineNeverBeatsOneNode(t *testing.T) {
	cat := embedded(t)
	for _, gpu := range []string{"h100-sxm", "h200", "a100-80gb", "b200"} {
		for _, preset := range []string{"llama-3-70b", "qwen3-30b-a3b"} {
			base := fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 1000, output_tokens: 200, max_batch: 1, requests: 1000}\n", preset)
			one := mustPredict(t, cat, base+"parallelism: {tensor: 8}\n", gpu, 8, 1)
			for _, pp := range []int{2, 4} {
				two := mustPredict(t, cat, base+fmt.Sprintf("parallelism: {tensor: 8, pipeline: %d}\n", pp), gpu, 8*pp, pp)
				if !one.Fits || !two.Fits {
					t.Fatalf("%s on %s: %s / %s", preset, gpu, one.Reason.String(), two.Reason.String())
				}
				if two.Parallelism.Pipeline != pp || *two.TPOTMs < *one.TPOTMs || *two.TTFTMs < *one.TTFTMs {
					t.Errorf("%s on %s: pipeline %d (%+v) gives %.2f ms per token, %.1f ms to the first, one node %.2f and %.1f",
						preset, gpu, pp, two.Parallelism, *two.TPOTMs, *two.TTFTMs, *one.TPOTMs, *one.TTFTMs)
				}
			}
		}
	}
}
