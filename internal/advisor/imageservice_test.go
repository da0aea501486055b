package advisor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/workload"
)

// imageService is an image API on the embedded catalog at rps requests/s
// within sloS seconds at p99.
func imageService(t *testing.T, preset string, rps, sloS float64) *Result {
	t.Helper()
	y := fmt.Sprintf("name: img\nkind: image-generation\nmodel: {preset: %s}\nimage: {width: 1024, height: 1024, batch: 4, requests_per_second: %g, slo: {latency_s: %g, percentile: 99}}\nconstraints: {max_gpus: 64, pricing: [on-demand]}\n", preset, rps, sloS)
	s, err := workload.Parse([]byte(y), "img.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Recommend(Request{Spec: s, Catalog: embedded(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// bestPerOffer is each offer's (provider/instance-type, region) cheapest
// monthly cost and its replicas.
func bestPerOffer(r *Result) map[string]*Candidate {
	out := map[string]*Candidate{}
	for _, c := range r.Candidates {
		if !c.Cost.PriceKnown {
			continue
		}
		k := c.Offer.Key()
		if b, ok := out[k]; !ok || c.PerMonthUSD < b.PerMonthUSD {
			out[k] = c
		}
	}
	return out
}

// TestImageServiceSizing checks properties of an image service's fleets:
// an image service is a service (replicas, $/month, USD per thousand
// images); more requests never take fewer replicas on the same offer; a
// tighter SLO never makes the cheapest fleet cheaper; the chosen plan's
// call fits the SLO and its replicas carry the rate.
func TestImageServiceSizing(t *testing.T) {
	low, high := imageService(t, "sdxl", 1, 20), imageService(t, "sdxl", 8, 20)
	tight := imageService(t, "sdxl", 8, 6)
	for _, r := range []*Result{low, high, tight} {
		if len(r.Candidates) == 0 {
			t.Fatalf("no candidate: %s", r.Summary())
		}
	}
	for _, c := range high.Candidates[:min(20, len(high.Candidates))] {
		if c.PerMonthUSD <= 0 || c.Plan.Replicas < 1 || c.UnitCostUnit != "USD per thousand images" || c.DurationHours != 0 {
			t.Errorf("%s: not priced as a service: %+v", c.Offer.Key(), c.Plan)
		}
		if *c.Pred.LatencyS > 20 {
			t.Errorf("%s: latency %.2f s over the 20 s SLO", c.Offer.Key(), *c.Pred.LatencyS)
		}
		if cap := float64(c.Plan.Replicas*c.Plan.Batch) / *c.Pred.LatencyS; cap < 8 {
			t.Errorf("%s: %d replicas at batch %d carry %.2f requests/s, under 8", c.Offer.Key(), c.Plan.Replicas, c.Plan.Batch, cap)
		}
		if c.Plan.Batch < 1 || c.Plan.Batch > 4 {
			t.Errorf("%s: batch %d outside 1..image.batch 4", c.Offer.Key(), c.Plan.Batch)
		}
	}
	lo, hi := bestPerOffer(low), bestPerOffer(high)
	grew := false
	for k, a := range lo {
		b, ok := hi[k]
		if !ok || a.Plan.Slice != nil || b.Plan.Slice != nil {
			continue
		}
		if b.Plan.Replicas < a.Plan.Replicas {
			t.Errorf("%s: %d replicas at 8 requests/s, fewer than %d at 1", k, b.Plan.Replicas, a.Plan.Replicas)
		}
		grew = grew || b.Plan.Replicas > a.Plan.Replicas
	}
	if !grew {
		t.Error("no offer needs more replicas at 8 requests/s than at 1")
	}
	if a, b := high.Candidates[0].PerMonthUSD, tight.Candidates[0].PerMonthUSD; b < a*(1-1e-9) {
		t.Errorf("the 6 s SLO's cheapest fleet costs $%.0f/month, less than the 20 s SLO's $%.0f", b, a)
	}
	for _, c := range tight.Candidates[:min(20, len(tight.Candidates))] {
		if *c.Pred.LatencyS > 6 {
			t.Errorf("%s: latency %.2f s over the 6 s SLO", c.Offer.Key(), *c.Pred.LatencyS)
		}
	}
}

// TestImageServiceExcludesSlowGPUs: an image service with a latency SLO no
// GPU meets is excluded everywhere with a reason that names the SLO.
func TestImageServiceExcludesSlowGPUs(t *testing.T) {
	r := imageService(t, "sdxl", 1, 0.05)
	if len(r.Candidates) != 0 {
		t.Fatalf("%d candidates meet a 0.05 s SLO", len(r.Candidates))
	}
	found := false
	for _, x := range r.Excluded {
		found = found || x.ReasonCode == ReasonUnsustained && strings.Contains(x.Reason.String(), "no batch meets the latency SLO")
	}
	if !found {
		t.Errorf("no exclusion says that no batch meets the latency SLO: %s", r.Summary())
	}
}
