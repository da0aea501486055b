package importer

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
)

// fixedNow is the clock of every test import.
var fixedNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func testOptions(t testing.TB) Options {
	return Options{
		Catalog:       catalogtest.Embedded(t),
		Now:           func() time.Time { return fixedNow },
		RatePerSecond: 1000,
		RetryBase:     time.Millisecond,
		MaxRetries:    2,
		Timeout:       5 * time.Second,
	}
}

// offerSum is what tests compare of an offer.
type offerSum struct {
	Key   string
	GPU   string
	Count int
	OD    float64
	Spot  float64
	R1    float64
	R3    float64
}

func summarize(offers []*catalog.Offer) []offerSum {
	r := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	out := make([]offerSum, len(offers))
	for i, o := range offers {
		out[i] = offerSum{o.Key(), o.GPU, o.GPUCount,
			r(o.ListPrices[catalog.OnDemand]), r(o.ListPrices[catalog.Spot]),
			r(o.ListPrices[catalog.Reserved1y]), r(o.ListPrices[catalog.Reserved3y])}
	}
	return out
}

// hasReject reports whether a reject names field and contains text.
func hasReject(res *Result, field, text string) bool {
	for _, r := range res.Rejected {
		if r.Field == field && strings.Contains(r.String(), text) {
			return true
		}
	}
	return false
}

func rejectList(res *Result) string {
	var b strings.Builder
	for _, r := range res.Rejected {
		b.WriteString("\n  " + r.String())
	}
	return b.String()
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
