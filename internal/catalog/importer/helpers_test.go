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

// fixedAsOf is the date of the saved files' prices (Options.AsOf): not
// fixedNow, so a test can tell which one rows carry.
var fixedAsOf = time.Date(2025, 5, 20, 0, 0, 0, 0, time.UTC)

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

// fileOptions are testOptions with the prices dated fixedAsOf, as Parse
// requires for the formats that carry no date (skypilot, gpuhunt).
func fileOptions(t testing.TB) Options {
	opt := testOptions(t)
	opt.AsOf = fixedAsOf
	return opt
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
	return listOf(res.Rejected)
}

// hasWarning reports whether a warning names field and contains text.
func hasWarning(res *Result, field, text string) bool {
	for _, r := range res.Warnings {
		if r.Field == field && strings.Contains(r.String(), text) {
			return true
		}
	}
	return false
}

// warnings counts the warnings that name field.
func warnings(res *Result, field string) int {
	n := 0
	for _, r := range res.Warnings {
		if r.Field == field {
			n++
		}
	}
	return n
}

func warningList(res *Result) string {
	return listOf(res.Warnings)
}

func listOf(rs []Reject) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString("\n  " + r.String())
	}
	return b.String()
}

// offerByKey is the offer with that Key, or nil.
func offerByKey(res *Result, key string) *catalog.Offer {
	for _, o := range res.Offers {
		if o.Key() == key {
			return o
		}
	}
	return nil
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
