package advisor

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

const (
	// GPUs only: an Inferentia2 instance (a whole accelerator, priced like a
	// quarter of a big GPU) is a different comparison.
	chat8BShared = "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 1000, output_tokens: 250, requests_per_second: 0.2, slo: {ttft_ms: 1000, tpot_ms: 60}}\nstack: {vendors: [nvidia]}\nconstraints: {max_gpus: 16, providers: [aws, gcp, azure], shared_gpus: true}\n"
	sdxlShared   = "kind: image-generation\nmodel: {preset: sdxl}\nimage: {width: 1024, height: 1024, steps: 30, guidance: true, batch: 1, precision: fp16, requests_per_second: 0.2, slo: {latency_s: 30, percentile: 95}}\nstack: {framework: diffusers}\nconstraints: {max_gpus: 16, providers: [aws, gcp, azure], shared_gpus: true}\n"
	chat70B      = "kind: llm-inference\nmodel: {preset: llama-3-70b}\ninference: {prompt_tokens: 1000, output_tokens: 250, requests_per_second: 0.2, weight_precision: fp8, slo: {ttft_ms: 2000, tpot_ms: 100}}\nconstraints: {max_gpus: 16, shared_gpus: true}\n"
)

// On a shared pool (a team's cluster on a hyperscaler) a low-rate small model comes out cheapest on a slice
// (MIG or time-sliced), priced at its share of the instances, and cheaper
// than the best whole-GPU plan.
func TestSharedPoolSmallModelsCheapestOnSlice(t *testing.T) {
	for name, y := range map[string]string{"llama-3-8b chat": chat8BShared, "sdxl images": sdxlShared} {
		t.Run(name, func(t *testing.T) {
			res, err := Recommend(Request{Spec: spec(t, y), Catalog: embedded(t), Now: now})
			if err != nil || len(res.Candidates) == 0 {
				t.Fatalf("no candidates: %v", err)
			}
			top := res.Candidates[0]
			s := top.Plan.Slice
			if s == nil || (s.Kind != SliceMIG && s.Kind != SliceTimeSliced) || !s.Shared {
				t.Fatalf("#1 = %s with slice %+v, want a shared MIG or time-sliced slice", top.Offer.Key(), s)
			}
			var whole *Candidate
			for _, c := range res.Candidates {
				if c.Plan.Slice == nil && c.Cost.PriceKnown {
					whole = c
					break
				}
			}
			if whole == nil || !(costOf(top) < costOf(whole)) {
				t.Errorf("the slice on %s must cost less than the best whole-GPU plan %v", top.Offer.Key(), whole)
			}
			// The fleet pays its replicas' share: replica price x replicas.
			if got, want := top.PerHourUSD, s.ReplicaPerHourUSD*float64(top.Plan.Replicas); got < want*0.999 || got > want*1.001 {
				t.Errorf("fleet %g per hour, want %g per replica x %d", got, s.ReplicaPerHourUSD, top.Plan.Replicas)
			}
			if !strings.Contains(strings.Join(msg.Strings(top.Pred.Assumptions), "\n"), "priced per slice on a shared pool") {
				t.Errorf("the assumptions do not say the pricing: %q", msg.Strings(top.Pred.Assumptions))
			}
		})
	}
}

// A fleet priced per slice that leaves slices of its instances idle says
// so, with the price of the whole instances: the figure a team pays if
// nothing else uses them. A fleet that fills its instances has no such
// warning.
func TestSharedPoolIdleSlicesWarned(t *testing.T) {
	res, err := Recommend(Request{Spec: spec(t, sdxlShared), Catalog: embedded(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	warned := 0
	for _, c := range res.Candidates {
		var w *Warning
		for i := range c.Warnings {
			if c.Warnings[i].Code == WarnSharedPool {
				w = &c.Warnings[i]
			}
		}
		s := c.Plan.Slice
		if s == nil || !s.Shared || !c.Cost.PriceKnown {
			if w != nil {
				t.Errorf("%s: a shared-pool warning on a plan not priced per slice: %+v", c.Offer.Key(), w)
			}
			continue
		}
		slots := c.Plan.Instances * c.Offer.GPUCount * s.PerGPU
		if slots == c.Plan.Replicas {
			if w != nil {
				t.Errorf("%s: every slice used, yet warned: %+v", c.Offer.Key(), w)
			}
			continue
		}
		if w == nil || len(w.Args) != 5 {
			t.Fatalf("%s: %d replicas on %d slices without a shared-pool warning: %+v", c.Offer.Key(), c.Plan.Replicas, slots, c.Warnings)
		}
		warned++
		if w.Args[0] != slots-c.Plan.Replicas || w.Args[1] != slots || w.Args[2] != c.Plan.Instances {
			t.Errorf("%s: args %v, want %d idle of %d on %d instances", c.Offer.Key(), w.Args, slots-c.Plan.Replicas, slots, c.Plan.Instances)
		}
		// The whole instances: every instance at its price all month, plus
		// what is not compute (setup, storage, egress) as the fleet pays it.
		whole := c.Cost.PricePerHourUSD*float64(c.Plan.Instances)*catalog.HoursPerMonth + c.Cost.Cost.Total - c.Cost.Cost.Compute
		if got := w.Args[4].(float64); got < whole-1 || got > whole+1 {
			t.Errorf("%s: whole instances %v a month, want %.0f", c.Offer.Key(), got, whole)
		}
		if paid := w.Args[3].(float64); !(paid < w.Args[4].(float64)) {
			t.Errorf("%s: the slices cost %v, not less than the whole instances %v", c.Offer.Key(), paid, w.Args[4])
		}
	}
	if warned == 0 {
		t.Error("no candidate leaves a slice idle: the case is not exercised")
	}
}

// A 70B model never gets a 1g MIG slice, nor a time-sliced share whose
// memory cannot hold it.
func TestSharedPoolLargeModelNoSmallSlice(t *testing.T) {
	res, err := Recommend(Request{Spec: spec(t, chat70B), Catalog: embedded(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		s := c.Plan.Slice
		if s == nil {
			continue
		}
		if s.Kind == SliceMIG && strings.HasPrefix(s.Profile, "1g.") {
			t.Errorf("%s: a 70B model on MIG %s", c.Offer.Key(), s.Profile)
		}
		if s.MemGB < 70 {
			t.Errorf("%s: a 70B fp8 model on a %s slice of %.3g GB", c.Offer.Key(), s.Profile, s.MemGB)
		}
	}
}

// Without the opt-in nothing changes: no time-sliced plan, no slice priced
// by its share, and the same ranking whether shared_gpus is absent or
// false.
func TestSharedPoolOptIn(t *testing.T) {
	for _, y := range []string{chat8BShared, sdxlShared} {
		absent := strings.Replace(y, ", shared_gpus: true", "", 1)
		off := strings.Replace(y, "shared_gpus: true", "shared_gpus: false", 1)
		a, err := Recommend(Request{Spec: spec(t, absent), Catalog: embedded(t), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Recommend(Request{Spec: spec(t, off), Catalog: embedded(t), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Candidates) != len(b.Candidates) {
			t.Fatalf("%d candidates without the field, %d with false", len(a.Candidates), len(b.Candidates))
		}
		for i, c := range a.Candidates {
			d := b.Candidates[i]
			if c.Offer.Key() != d.Offer.Key() || c.Cost.Mode != d.Cost.Mode || costOf(c) != costOf(d) {
				t.Errorf("#%d: %s %g without the field, %s %g with false", i+1, c.Offer.Key(), costOf(c), d.Offer.Key(), costOf(d))
			}
			if s := c.Plan.Slice; s != nil && (s.Kind == SliceTimeSliced || s.Shared) {
				t.Errorf("#%d %s: slice %+v without the opt-in", i+1, c.Offer.Key(), s)
			}
		}
	}
}

// A time-sliced replica gets at most a k-th of the GPU's compute, memory
// bandwidth and memory, and an LLM replica at most a k-th of the whole
// GPU's request rate. (An image replica's host dispatch does not slow
// down with its share: k replicas fill the gaps one leaves, so only its
// GPU time is bounded.)
func TestTimeSlicedReplica(t *testing.T) {
	cat := embedded(t)
	a, ok := cat.Accelerator("l40s")
	if !ok {
		t.Fatal("no l40s")
	}
	o := onlyOffers(t, func(o *catalog.Offer) bool { return o.GPU == "l40s" && o.GPUCount == 1 && !o.Sliced() }).Offers[0]
	for _, y := range []string{chat8BShared, sdxlShared} {
		sp := spec(t, y)
		for _, k := range TimeSliceWays {
			if ts := (sliceOn{k: k}).accelerator(a); ts.MemBandwidthGBps > a.MemBandwidthGBps/float64(k) {
				t.Errorf("k=%d: %g GB/s per replica, more than a %d-th of %g", k, ts.MemBandwidthGBps, k, a.MemBandwidthGBps)
			}
			if sp.Kind != workload.KindLLMInference {
				continue
			}
			ts := sliceOn{k: k}.accelerator(a)
			if ts.MemGiB > a.MemGiB/float64(k)+1e-9 {
				t.Errorf("k=%d: %g GiB per replica, more than %g / %d", k, ts.MemGiB, a.MemGiB, k)
			}
			for i, p := range ts.PeakTFLOPS {
				if p > a.PeakTFLOPS[i]/float64(k)+1e-9 {
					t.Errorf("k=%d: peak %d %g, more than a %d-th of %g", k, i, p, k, a.PeakTFLOPS[i])
				}
			}
			whole, ok1 := capacity(sp, cat, a, o)
			part, ok2 := capacity(sp, cat, ts, o)
			if !ok1 {
				t.Fatalf("%s does not fit a whole l40s", sp.Kind)
			}
			if !ok2 {
				continue // does not fit a k-th of the memory
			}
			if part > whole/float64(k)*(1+1e-9) {
				t.Errorf("%s k=%d: %.4g requests/s on a replica, more than a %d-th of the whole GPU's %.4g", sp.Kind, k, part, k, whole)
			}
		}
	}
}

// A time-sliced plan says its kind and its share, and is priced per slice.
func TestTimeSlicedPlan(t *testing.T) {
	cat := onlyOffers(t, func(o *catalog.Offer) bool { return o.GPU == "l40s" && !o.Sliced() })
	res, err := Recommend(Request{Spec: spec(t, chat8BShared), Catalog: cat, Now: now})
	if err != nil || len(res.Candidates) == 0 {
		t.Fatalf("no candidates: %v", err)
	}
	top := res.Candidates[0]
	s := top.Plan.Slice
	if s == nil || s.Kind != SliceTimeSliced || s.PerGPU < 2 || !s.Shared {
		t.Fatalf("#1 = %s with slice %+v, want a time-sliced l40s", top.Offer.Key(), s)
	}
	if s.ComputeShare > 1/float64(s.PerGPU) || s.MemGB > 48*1.0737/float64(s.PerGPU)+0.01 {
		t.Errorf("slice %+v: more than a %d-th of the GPU", s, s.PerGPU)
	}
	price, _ := top.Offer.YourPrices.Get(top.Cost.Mode)
	if want := price / float64(top.Offer.GPUCount*s.PerGPU); s.ReplicaPerHourUSD < want*0.999 || s.ReplicaPerHourUSD > want*1.001 {
		t.Errorf("price per replica %g, want %g", s.ReplicaPerHourUSD, want)
	}
	if !strings.Contains(strings.Join(msg.Strings(top.Pred.Assumptions), "\n"), "context switching") {
		t.Errorf("the assumptions do not state the time-slicing penalty: %q", msg.Strings(top.Pred.Assumptions))
	}
}

// capacity is the most requests/s one replica on a sustains for sp; ok is
// false when it does not fit.
func capacity(sp *workload.Spec, cat *catalog.Catalog, a *catalog.Accelerator, o *catalog.Offer) (float64, bool) {
	cl, err := perf.NewCluster(a, 1, 1, o)
	if err != nil {
		return 0, false
	}
	cl.Lookup = func(id string) *catalog.Accelerator { x, _ := cat.Accelerator(id); return x }
	p, err := perf.Predict(sp, cl)
	if err != nil || !p.Fits || p.Serving == nil || p.Serving.RequestsPerS <= 0 {
		return 0, false
	}
	return p.Serving.RequestsPerS, true
}
