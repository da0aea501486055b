package advisor

import (
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
)

// TestFreshnessCountsEachShownOfferOnce: an offer that appears with several
// pricing modes or cluster sizes is one row; candidates past top are not
// shown and not counted.
func TestFreshnessCountsEachShownOfferOnce(t *testing.T) {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	offer := func(provider, region string, asOf time.Time) *catalog.Offer {
		o := &catalog.Offer{Provider: provider, InstanceType: "x", Region: region, Fact: catalog.Fact{AsOf: asOf}}
		o.ListPrices[catalog.OnDemand] = 10
		return o
	}
	fresh := offer("aws", "us-east-1", now.AddDate(0, 0, -10))
	stale := offer("aws", "eu-central-1", now.AddDate(-1, 0, 0))
	hidden := offer("tencent", "ap-guangzhou", now.AddDate(-5, 0, 0))
	r := &Result{Now: now, Candidates: []*Candidate{{Offer: fresh}, {Offer: fresh}, {Offer: stale}, {Offer: hidden}}}
	for _, tt := range []struct {
		top, rows, stale int
	}{{3, 2, 1}, {0, 3, 2}, {1, 1, 0}} {
		s := r.Freshness(tt.top)
		if s.Offers != tt.rows || s.Stale != tt.stale {
			t.Errorf("top %d: %d rows, %d stale; want %d and %d", tt.top, s.Offers, s.Stale, tt.rows, tt.stale)
		}
	}
}
