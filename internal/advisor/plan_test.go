package advisor

import (
	"github.com/gpupick/gpupick/internal/catalog"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/workload"
)

// TestPlansObeyPhysics runs every example workload over the embedded
// catalog and checks each candidate's plan and prediction: the fleet is
// whole instances; its replicas fit the GPUs paid for; the price is the
// instances'; MFU and utilisation are at most 100%; a job takes at least
// its work at peak; the layout of one copy fits an instance.
func TestPlansObeyPhysics(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	cat := embedded(t)
	// Besides the examples, a busy small-model service with a tight SLO:
	// many instances, where a fleet that just misses the SLO is easy.
	inline := map[string]string{"chat8b-tight.yaml": "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 256, requests_per_second: 200, slo: {ttft_ms: 300, tpot_ms: 30}}\nconstraints: {max_gpus: 64}\n"}
	for name := range inline {
		files = append(files, name)
	}
	spans := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if y, ok := inline[f]; ok {
			b, err = []byte(y), nil
		}
		if err != nil {
			t.Fatal(err)
		}
		s, err := workload.Parse(b, f)
		if err != nil {
			continue // a service file for simulate, not a workload
		}
		res, err := Recommend(Request{Spec: s, Catalog: cat, Now: now})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range res.Candidates {
			pl, p := c.Plan, c.Pred
			where := filepath.Base(f) + " " + c.Offer.Key() + " " + pl.Pricing.String()
			if pl.Instances < 1 || pl.GPUs != pl.Instances*pl.GPUsPerInstance || pl.GPUs != c.GPUs || pl.Instances != c.Instances {
				t.Errorf("%s: plan %+v against candidate %d instances, %d GPUs", where, pl, c.Instances, c.GPUs)
			}
			// Replicas on MIG or time-sliced slices sit PerGPU to a GPU.
			perGPU := 1
			if sl := pl.Slice; sl != nil && sl.Kind != SliceFraction {
				perGPU = sl.PerGPU
			}
			if pl.Replicas < 1 || pl.Replicas*pl.GPUsPerReplica > pl.GPUs*perGPU {
				t.Errorf("%s: %d replicas of %d GPUs on %d GPUs paid for", where, pl.Replicas, pl.GPUsPerReplica, pl.GPUs)
			}
			if k := pl.InstancesPerReplica; k > 1 {
				// A replica over k instances: the fleet holds whole
				// replicas, each GPU's share fits it, the day is counted
				// in replicas, and max_gpus holds with the spare.
				if pl.Replicas*k > pl.Instances || pl.GPUsPerReplica > k*pl.GPUsPerInstance || p.Parallelism.NodesPerReplica != k {
					t.Errorf("%s: %d replicas over %d instances each (%d GPUs each) on %d instances", where, pl.Replicas, k, pl.GPUsPerReplica, pl.Instances)
				}
				if p.Memory.TotalGB > p.Memory.CapacityGB {
					t.Errorf("%s: %.1f GB per GPU of %.1f", where, p.Memory.TotalGB, p.Memory.CapacityGB)
				}
				if sc := pl.Scaling; sc != nil && (sc.InstancesPerReplica != k || sc.Base%k != 0 || sc.Max%k != 0 || sc.Spare%k != 0) {
					t.Errorf("%s: a day of %d to %d instances (spare %d) for replicas of %d", where, sc.Base, sc.Max, sc.Spare, k)
				}
				if mg := s.Constraints.MaxGPUs; mg > 0 && pl.GPUs > mg {
					t.Errorf("%s: %d GPUs, max_gpus %d", where, pl.GPUs, mg)
				}
				spans++
			} else if pl.ReplicasPerInstance > 0 && pl.ReplicasPerInstance*pl.GPUsPerReplica > pl.GPUsPerInstance*perGPU {
				t.Errorf("%s: %d replicas of %d GPUs per instance of %d", where, pl.ReplicasPerInstance, pl.GPUsPerReplica, pl.GPUsPerInstance)
			}
			switch sl := pl.Slice; {
			case !c.Cost.PriceKnown:
			case sl != nil && sl.Shared:
				// A shared pool: the fleet pays for the slices it holds.
				if want := sl.ReplicaPerHourUSD * float64(pl.Replicas); math.Abs(c.Cost.PerHourUSD-want) > 0.01*want+0.01 {
					t.Errorf("%s: %.2f $/h for %d replicas at %.3f $/h a slice", where, c.Cost.PerHourUSD, pl.Replicas, sl.ReplicaPerHourUSD)
				}
			case pl.Scaling != nil:
				// A service's day: its base at all times, at most its peak
				// fleet, whole instances either way.
				sc := pl.Scaling
				held, _ := c.Offer.YourPrices.Get(sc.BaseMode)
				top := max(c.Offer.YourPrices[catalog.OnDemand], c.Offer.YourPrices[c.Cost.Mode])
				if lo, hi := float64(sc.Held)*held, float64(sc.Max)*top*1.1; c.Cost.PerHourUSD < lo*0.999 || c.Cost.PerHourUSD > hi {
					t.Errorf("%s: %.2f $/h for a day of %d (%d held at %.2f) to %d instances at up to %.2f $/h", where, c.Cost.PerHourUSD, sc.Base, sc.Held, held, sc.Max, top)
				}
			case math.Abs(c.Cost.PerHourUSD-float64(pl.Instances)*c.Cost.PricePerHourUSD) > 0.01*c.Cost.PerHourUSD+0.01:
				t.Errorf("%s: %.2f $/h for %d instances at %.2f $/h: instances are billed whole", where, c.Cost.PerHourUSD, pl.Instances, c.Cost.PricePerHourUSD)
			}
			if inf := s.Inference; inf != nil && inf.RequestsPerSecond != nil && p.Serving != nil {
				// A service is ranked on meeting its SLO: its plan does.
				if slo := inf.SLO.TTFTMs; slo > 0 && p.TTFTMs != nil && *p.TTFTMs > slo*1.001 {
					t.Errorf("%s: TTFT %.1f ms over the SLO %.0f ms", where, *p.TTFTMs, slo)
				}
				if slo := inf.SLO.TPOTMs; slo > 0 && p.TPOTMs != nil && *p.TPOTMs > slo*1.001 {
					t.Errorf("%s: TPOT %.2f ms over the SLO %.0f ms", where, *p.TPOTMs, slo)
				}
				if p.Serving.Sustainable != nil && !*p.Serving.Sustainable {
					t.Errorf("%s: the planned fleet does not keep up with the load", where)
				}
			}
			if im := s.Image; im != nil && im.RequestsPerSecond != nil {
				// An image service: one call within the latency SLO, and
				// replicas enough for the rate at the plan's batch.
				if p.LatencyS == nil || p.Serving == nil || c.PerMonthUSD <= 0 && c.Cost.PriceKnown {
					t.Errorf("%s: an image service without latency, serving figures or a monthly cost", where)
					continue
				}
				if slo := im.SLO.LatencyS; slo > 0 && *p.LatencyS > slo*1.001 {
					t.Errorf("%s: latency %.2f s over the SLO %.0f s", where, *p.LatencyS, slo)
				}
				if capacity := float64(pl.Replicas*pl.Batch) / *p.LatencyS; capacity < *im.RequestsPerSecond {
					t.Errorf("%s: %d replicas at batch %d serve %.3g requests/s, under the %.3g offered", where, pl.Replicas, pl.Batch, capacity, *im.RequestsPerSecond)
				}
			}
			if p.MFU > 1 || p.Utilization > 1 || p.MFU < 0 || p.Utilization < 0 {
				t.Errorf("%s: MFU %.3f, utilisation %.3f", where, p.MFU, p.Utilization)
			}
			if p.Throughput.P10 != nil && !(*p.Throughput.P10 <= p.Throughput.Value && p.Throughput.Value <= *p.Throughput.P90) {
				t.Errorf("%s: throughput %.4g outside its interval %.4g-%.4g", where, p.Throughput.Value, *p.Throughput.P10, *p.Throughput.P90)
			}
		}
	}
	if spans == 0 {
		t.Error("no example plans a replica over several instances (examples/deepseek-v3-chat.yaml should)")
	}
}

// TestInferredRegionsAreSaid: an offer whose region the source only
// infers carries a warning, and on a tie ranks after one it lists.
func TestInferredRegionsAreSaid(t *testing.T) {
	cat := embedded(t)
	s := spec(t, "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, seq_len: 2048, global_batch: 64, tokens: 1e8}\nconstraints: {providers: [lambda]}\n")
	// Prices fresh on the day: the inferred region is the only warning.
	fresh := time.Date(2026, 6, 3, 0, 0, 0, 0, time.UTC)
	res, err := Recommend(Request{Spec: s, Catalog: cat, Now: fresh})
	if err != nil || len(res.Candidates) == 0 {
		t.Fatalf("%v %d", err, len(res.Candidates))
	}
	for _, c := range res.Candidates {
		warned := false
		for _, w := range c.Warnings {
			warned = warned || w.Code == WarnRegionInferred
		}
		if c.Offer.RegionInferred != warned {
			t.Errorf("%s: region inferred %v, warned %v", c.Offer.Key(), c.Offer.RegionInferred, warned)
		}
	}
	listed, inferred := *res.Candidates[0], *res.Candidates[0]
	lo, io := *listed.Offer, *listed.Offer
	lo.RegionInferred, io.RegionInferred = false, true
	io.Region = "a-first-region" // would come first by key
	listed.Offer, inferred.Offer = &lo, &io
	r := &Result{Candidates: []*Candidate{&inferred, &listed}, Objective: s.Objective}
	rank(r)
	if r.Candidates[0].Offer.RegionInferred {
		t.Error("a tie went to the offer whose region is inferred")
	}
}
