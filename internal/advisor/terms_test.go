package advisor

import (
	"math"
	"slices"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// The terms of #1 are its fleet priced in each mode its offer publishes:
// the same cost as the candidate of that mode where one was ranked, a
// commitment's break-even its price over on-demand's, the best the
// cheapest, and the held one never spot.
func TestTermsOfThePick(t *testing.T) {
	const chat = "kind: llm-inference\nmodel: {preset: llama-3-70b}\ninference: {prompt_tokens: 1500, output_tokens: 300, requests_per_second: 30, weight_precision: fp8, slo: {ttft_ms: 500, tpot_ms: 50}}\n" +
		"constraints: {max_gpus: 32, pricing: [on-demand, reserved-1y, reserved-3y, spot], providers: [gcp]}\n"
	res, err := Recommend(Request{Spec: spec(t, chat), Catalog: embedded(t), Now: now})
	if err != nil || len(res.Candidates) == 0 {
		t.Fatalf("no candidates: %v", err)
	}
	if res.Terms == nil {
		t.Fatal("no terms for #1")
	}
	// The best candidate that publishes a commitment: its terms compare
	// them all.
	i := slices.IndexFunc(res.Candidates, func(c *Candidate) bool { return c.Offer.YourPrices[catalog.Reserved1y] > 0 })
	if i < 0 {
		t.Fatal("no candidate with a 1-year price")
	}
	pick := res.Candidates[i]
	terms := TermsOf(Request{Spec: res.Spec, Catalog: embedded(t), Now: now}, pick)
	known := 0
	for i, o := range terms.Options {
		if !o.Known {
			if _, ok := pick.Offer.YourPrices.Get(o.Mode); ok {
				t.Errorf("%s: unknown in the terms but priced in the catalog", o.Mode)
			}
			continue
		}
		known++
		if o.CostUSD < terms.Options[terms.Best].CostUSD {
			t.Errorf("best is %s at %g, but %s costs %g", terms.Options[terms.Best].Mode, terms.Options[terms.Best].CostUSD, o.Mode, o.CostUSD)
		}
		if o.Mode == catalog.Reserved1y || o.Mode == catalog.Reserved3y {
			od, _ := pick.Offer.YourPrices.Get(catalog.OnDemand)
			if want := pick.Offer.YourPrices[o.Mode] / od; math.Abs(o.BreakEven-want) > 1e-12 || o.Use != 1 {
				t.Errorf("%s: break-even %g use %g, want %g and 1 (a 24/7 service)", o.Mode, o.BreakEven, o.Use, want)
			}
		}
		// One plan: the ranked candidate of the same offer, region, fleet
		// and mode costs the same.
		for _, c := range res.Candidates {
			if c.Offer == pick.Offer && c.Instances == pick.Instances && c.Cost.Mode == o.Mode && math.Abs(c.Cost.Cost.Total-o.CostUSD) > 1e-6*o.CostUSD {
				t.Errorf("terms[%d] %s: %g, the candidate of that mode costs %g", i, o.Mode, o.CostUSD, c.Cost.Cost.Total)
			}
		}
	}
	if known < 3 {
		t.Errorf("%d known terms for %s, want on-demand, spot and a commitment at least", known, pick.Offer.Key())
	}
	if terms.Held < 0 || terms.Options[terms.Held].Mode == catalog.Spot {
		t.Errorf("held term %d, want a priced term that is not spot", terms.Held)
	}
}
