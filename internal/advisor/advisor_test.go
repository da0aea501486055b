package advisor

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/workload"
)

var now = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

func embedded(t testing.TB) *catalog.Catalog { return catalogtest.Embedded(t) }

func spec(t testing.TB, y string) *workload.Spec {
	t.Helper()
	s, err := workload.Parse([]byte(y), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestParetoIsExactlyNonDominated checks markPareto against the definition
// on random candidates, ties included.
func TestParetoIsExactlyNonDominated(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(30)
		cs := make([]*Candidate, n)
		for i := range cs {
			c := &Candidate{Offer: &catalog.Offer{Provider: "p", InstanceType: "i"}, DurationHours: float64(1 + rng.IntN(8))}
			c.Cost = cost.Estimate{PriceKnown: rng.IntN(10) > 0}
			c.Cost.Cost.Total = float64(1 + rng.IntN(8))
			cs[i] = c
		}
		markPareto(cs)
		for _, a := range cs {
			dominated := false
			for _, b := range cs {
				if b != a && b.Cost.PriceKnown && costOf(b) <= costOf(a) && timeOf(b) <= timeOf(a) && (costOf(b) < costOf(a) || timeOf(b) < timeOf(a)) {
					dominated = true
				}
			}
			want := a.Cost.PriceKnown && !dominated
			if a.Pareto != want {
				t.Fatalf("trial %d: candidate (cost %v, time %v, priced %v) pareto=%v, want %v", trial, costOf(a), timeOf(a), a.Cost.PriceKnown, a.Pareto, want)
			}
		}
	}
}

func TestRecommendRanksAndExplainsExclusions(t *testing.T) {
	cat := embedded(t)
	s := spec(t, `kind: llm-finetune
model: {preset: llama-3-8b}
training: {method: lora, tokens: 2e8, seq_len: 4096, global_batch: 64}
constraints: {deadline_hours: 24, max_gpus: 16, pricing: [on-demand, spot]}
objective: cost
`)
	res, err := Recommend(Request{Spec: s, Catalog: cat, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) < 10 {
		t.Fatalf("only %d candidates", len(res.Candidates))
	}
	for i, c := range res.Candidates {
		if c.Rank != i+1 {
			t.Errorf("rank %d at position %d", c.Rank, i)
		}
		if c.DurationHours > 24 {
			t.Errorf("%s takes %.1f h, past the 24 h deadline", c.Offer.Key(), c.DurationHours)
		}
		if c.GPUs > 16 {
			t.Errorf("%s uses %d GPUs, more than max_gpus 16", c.Offer.Key(), c.GPUs)
		}
		if i > 0 && res.Candidates[i-1].Cost.PriceKnown && c.Cost.PriceKnown && costOf(res.Candidates[i-1]) > costOf(c) {
			t.Errorf("objective cost: #%d costs %.2f, more than #%d at %.2f", i, costOf(res.Candidates[i-1]), i+1, costOf(c))
		}
		b := c.Cost.Cost
		if c.Cost.PriceKnown {
			if sum := b.Compute + b.Storage + b.Egress + b.Setup + b.SpotOverhead; sum-b.Total > 1e-6 || b.Total-sum > 1e-6 {
				t.Errorf("%s: breakdown sums to %.4f, total %.4f", c.Offer.Key(), sum, b.Total)
			}
		}
	}
	if len(res.Excluded) == 0 {
		t.Fatal("nothing excluded: deadline and max_gpus should exclude some")
	}
	for _, x := range res.Excluded {
		if x.ReasonCode == "" || x.Reason.String() == "" {
			t.Errorf("exclusion without a reason: %+v", x)
		}
	}
	if !strings.Contains(res.Summary().String(), "excluded") {
		t.Errorf("summary %q", res.Summary())
	}
	pareto := 0
	for _, c := range res.Candidates {
		if c.Pareto {
			pareto++
		}
	}
	if pareto == 0 {
		t.Error("no candidate on the Pareto front")
	}
	// The time objective puts the fastest first.
	res2, _ := Recommend(Request{Spec: s, Catalog: cat, Now: now, Objective: workload.ObjectiveTime})
	for _, c := range res2.Candidates[1:] {
		if c.Cost.PriceKnown && timeOf(c) < timeOf(res2.Candidates[0]) {
			t.Errorf("objective time: %s is faster than #1", c.Offer.Key())
		}
	}
}

func TestBudgetProvidersVendors(t *testing.T) {
	cat := embedded(t)
	s := spec(t, `kind: llm-finetune
model: {preset: llama-3-8b}
training: {method: lora, tokens: 2e8, seq_len: 4096, global_batch: 64}
stack: {vendors: [nvidia]}
constraints: {budget_usd: 20, providers: [aws, gcp, lambda], max_gpus: 8}
`)
	res, err := Recommend(Request{Spec: s, Catalog: cat, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, x := range res.Excluded {
		codes[x.ReasonCode]++
	}
	if codes[ReasonProvider] == 0 || codes[ReasonBudget] == 0 {
		t.Errorf("want provider and budget exclusions, got %v", codes)
	}
	for _, c := range res.Candidates {
		if c.Offer.Provider != "aws" && c.Offer.Provider != "gcp" && c.Offer.Provider != "lambda" {
			t.Errorf("%s is not an allowed provider", c.Offer.Key())
		}
		if c.Cost.PriceKnown && c.Cost.Cost.Total > 20 {
			t.Errorf("%s costs %.2f, over the $20 budget", c.Offer.Key(), c.Cost.Cost.Total)
		}
		if a, _ := cat.Accelerator(c.Offer.GPU); a.Vendor != "nvidia" {
			t.Errorf("%s uses %s", c.Offer.Key(), a.Vendor)
		}
	}
}

func TestServiceIsSizedByLoad(t *testing.T) {
	cat := embedded(t)
	s := spec(t, `kind: llm-inference
model: {preset: llama-3-8b}
inference: {prompt_tokens: 512, output_tokens: 256, requests_per_second: 40, weight_precision: bf16, slo: {ttft_ms: 1000, tpot_ms: 60}}
constraints: {max_gpus: 64}
`)
	res, err := Recommend(Request{Spec: s, Catalog: cat, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) == 0 {
		t.Fatal("no candidate can serve 40 requests/s of an 8B model")
	}
	for _, c := range res.Candidates[:min(10, len(res.Candidates))] {
		if c.Plan.Replicas < 1 || c.PerMonthUSD <= 0 && c.Cost.PriceKnown {
			t.Errorf("%s: replicas %d, per month %.0f", c.Offer.Key(), c.Plan.Replicas, c.PerMonthUSD)
		}
		if c.Cost.PriceKnown {
			if d := c.PerMonthUSD - c.Cost.Cost.Total; d > 1e-6 || d < -1e-6 {
				t.Errorf("%s: per month %.2f but total %.2f", c.Offer.Key(), c.PerMonthUSD, c.Cost.Cost.Total)
			}
			if !strings.Contains(c.UnitCostUnit, "million output tokens") {
				t.Errorf("service unit cost in %q", c.UnitCostUnit)
			}
		}
		if c.Instances*c.Offer.GPUCount > 64 {
			t.Errorf("%s uses %d GPUs", c.Offer.Key(), c.Instances*c.Offer.GPUCount)
		}
	}
}

// benchRecommend times one recommendation of y over the embedded catalog.
func benchRecommend(b *testing.B, y string) {
	cat := embedded(b)
	s := spec(b, y)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(Request{Spec: s, Catalog: cat, Now: now}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecommendEmbedded(b *testing.B) {
	benchRecommend(b, "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 2e9, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 64, pricing: [on-demand, spot]}\n")
}

// BenchmarkRecommendPretrain70B is the heaviest example: a 70B pre-training
// run, whose layout search runs for every offer and cluster size up to 64 GPUs.
func BenchmarkRecommendPretrain70B(b *testing.B) {
	benchRecommend(b, "kind: llm-train\nmodel: {preset: llama-3-70b}\ntraining: {tokens: 5e10, seq_len: 8192, global_batch: 512}\nstack: {framework: megatron}\nconstraints: {max_gpus: 64, pricing: [on-demand, spot]}\n")
}

// BenchmarkRecommend100k evaluates 100,000 synthetic offers: the real
// catalog's instance types copied into many regions with varied prices.
func BenchmarkRecommend100k(b *testing.B) {
	cat := embedded(b)
	big := *cat
	rng := rand.New(rand.NewPCG(3, 4))
	big.Offers = make([]*catalog.Offer, 0, 100_000)
	for len(big.Offers) < 100_000 {
		for _, o := range cat.Offers {
			if len(big.Offers) == 100_000 {
				break
			}
			o2 := *o
			o2.Region = o.Region // regions must exist for the rest of the model; vary the price instead
			f := 0.7 + 0.6*rng.Float64()
			for m := range o2.YourPrices {
				o2.YourPrices[m] *= f
				o2.ListPrices[m] *= f
			}
			big.Offers = append(big.Offers, &o2)
		}
	}
	s := spec(b, "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 2e9, seq_len: 4096, global_batch: 64}\nconstraints: {max_gpus: 64, pricing: [on-demand, spot]}\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(Request{Spec: s, Catalog: &big, Now: now}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPredictionCacheBoundedByBytes: a shared prediction cache counts what
// it holds and forgets older workloads past its bound, keeping the one in
// use; a recommendation from it equals one computed afresh.
func TestPredictionCacheBoundedByBytes(t *testing.T) {
	cat := embedded(t)
	pc := &PredictionCache{MaxBytes: 2 << 20}
	var last *Result
	for i, preset := range []string{"llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b"} {
		y := fmt.Sprintf("kind: llm-inference\nmodel: {preset: %s}\ninference: {prompt_tokens: 1000, output_tokens: 200, requests: 100000}\n", preset)
		s, err := workload.Parse([]byte(y), "w.yaml")
		if err != nil {
			t.Fatal(err)
		}
		res, err := Recommend(Request{Spec: s, Catalog: cat, Now: now, Predictions: pc})
		if err != nil {
			t.Fatal(err)
		}
		pc.mu.Lock()
		cur := pc.tables[mustKey(t, s)]
		n := len(pc.tables)
		pc.mu.Unlock()
		if cur == nil || cur.bytes.Load() <= 0 {
			t.Fatalf("workload %d: not cached", i)
		}
		if got := pc.Bytes(); got > max(pc.MaxBytes, cur.bytes.Load()) {
			t.Errorf("workload %d: the cache holds %d bytes, over its bound %d and the current workload's %d", i, got, pc.MaxBytes, cur.bytes.Load())
		}
		if i > 0 && cur.bytes.Load() > pc.MaxBytes/2 && n > 2 {
			t.Errorf("workload %d: %d workloads kept past the bound", i, n)
		}
		fresh, err := Recommend(Request{Spec: s, Catalog: cat, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Candidates) != len(fresh.Candidates) || len(res.Candidates) > 0 && res.Candidates[0].Offer.Key() != fresh.Candidates[0].Offer.Key() {
			t.Errorf("workload %d: cached answer differs from a fresh one", i)
		}
		last = res
	}
	if last == nil || pc.Bytes() <= 0 {
		t.Fatal("nothing cached")
	}
}

func mustKey(t *testing.T, s *workload.Spec) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheckpointFollowsOptimizerState: a full training checkpoint holds the
// weights and the optimizer state, 14 bytes per parameter in mixed
// precision and 6 with a bf16 optimizer state.
func TestCheckpointFollowsOptimizerState(t *testing.T) {
	y := "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: full, tokens: 1e9, optimizer_precision: %s}\n"
	mixed := checkpointGB(spec(t, fmt.Sprintf(y, "fp32")))
	bf := checkpointGB(spec(t, fmt.Sprintf(y, "bf16")))
	if got := bf / mixed; math.Abs(got-6.0/14) > 0.001 {
		t.Errorf("checkpoint %.1f GB with a bf16 optimizer state against %.1f GB in mixed precision (%.3f); want 6/14 of it", bf, mixed, got)
	}
}
