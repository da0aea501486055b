package catalog

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestStats(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	offer := func(provider, asOf, source string, priced bool) *Offer {
		o := &Offer{Provider: provider, InstanceType: "x", Region: "r", Fact: Fact{Source: source, AsOf: day(asOf)}}
		if priced {
			o.ListPrices[Spot] = 1 // any one mode makes a row priced
		}
		return o
	}
	tests := []struct {
		name   string
		offers []*Offer
		want   PriceStats
	}{
		{"none", nil, PriceStats{Providers: []string{}, Sources: []string{}}},
		{
			"odd count: the middle date",
			[]*Offer{
				offer("aws", "2026-05-01", "a", true),
				offer("aws", "2026-01-01", "a", true),
				offer("aws", "2026-03-01", "a", true),
			},
			PriceStats{Offers: 3, Priced: 3, Oldest: day("2026-01-01"), Median: day("2026-03-01"), Newest: day("2026-05-01"),
				Stale: 2, Providers: []string{"aws"}, StaleProviders: []string{"aws"}, Sources: []string{"a"}},
		},
		{
			"even count: the midpoint of the two middle dates",
			[]*Offer{
				offer("aws", "2026-05-01", "a", true),
				offer("gcp", "2026-01-01", "b", true),
				offer("aws", "2026-03-01", "a", true),
				offer("gcp", "2026-03-05", "b", true),
			},
			PriceStats{Offers: 4, Priced: 4, Oldest: day("2026-01-01"), Median: day("2026-03-03"), Newest: day("2026-05-01"),
				Stale: 2, Providers: []string{"aws", "gcp"}, StaleProviders: []string{"aws", "gcp"}, Sources: []string{"a", "b"}},
		},
		{
			"unpriced rows count as rows but not in dates or stale",
			[]*Offer{
				offer("tencent", "2020-01-01", "doc; row 3", false),
				offer("tencent", "2026-05-20", "doc; row 9", true),
			},
			PriceStats{Offers: 2, Priced: 1, Oldest: day("2026-05-20"), Median: day("2026-05-20"), Newest: day("2026-05-20"),
				Providers: []string{"tencent"}, Sources: []string{"doc"}},
		},
		{
			"no priced row: zero dates",
			[]*Offer{offer("huawei", "2020-01-01", "x", false)},
			PriceStats{Offers: 1, Providers: []string{"huawei"}, Sources: []string{"x"}},
		},
		{
			"stale at now: 90 days is not stale, 91 is; providers by stale rows",
			[]*Offer{
				offer("b", "2026-03-03", "s", true), // 90 days before now
				offer("b", "2026-03-02", "s", true), // 91 days
				offer("a", "2025-01-01", "s", true),
				offer("c", "2025-01-01", "s", true),
				offer("c", "2025-01-02", "s", true),
			},
			PriceStats{Offers: 5, Priced: 5, Oldest: day("2025-01-01"), Median: day("2025-01-02"), Newest: day("2026-03-03"),
				Stale: 4, Providers: []string{"a", "b", "c"}, StaleProviders: []string{"c", "a", "b"}, Sources: []string{"s"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Modes and spot bases have a test of their own.
			if diff := cmp.Diff(tt.want, Stats(tt.offers, now), cmpopts.IgnoreFields(PriceStats{}, "Modes", "SpotBases")); diff != "" {
				t.Errorf("Stats (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStatsByProvider(t *testing.T) {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	c := mini(t)
	got := StatsByProvider(c.Offers, now)
	var names []string
	rows := 0
	for _, p := range got {
		names = append(names, p.Provider)
		rows += p.Offers
		if want := Stats(offersOf(c.Offers, p.Provider), now); !cmp.Equal(p.PriceStats, want) {
			t.Errorf("%s: %+v, want Stats of its offers %+v", p.Provider, p.PriceStats, want)
		}
	}
	if diff := cmp.Diff([]string{"aws", "tencent"}, names); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
	if rows != len(c.Offers) {
		t.Errorf("rows add up to %d, want %d", rows, len(c.Offers))
	}
}

func offersOf(offers []*Offer, provider string) []*Offer {
	var out []*Offer
	for _, o := range offers {
		if o.Provider == provider {
			out = append(out, o)
		}
	}
	return out
}

func TestSourcePrefix(t *testing.T) {
	for in, want := range map[string]string{
		"https://aws.amazon.com/ec2/pricing/":         "https://aws.amazon.com/ec2/pricing/",
		"github.com/x/y@abc vms.csv; row 12; spot ok": "github.com/x/y@abc vms.csv",
		"":  "",
		";": "",
	} {
		if got := SourcePrefix(in); got != want {
			t.Errorf("SourcePrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

// Stats counts each pricing mode's rows with the dates of those prices
// (a mode priced from another file keeps that file's date), and the spot
// prices by basis.
func TestStatsModes(t *testing.T) {
	d1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d2 := time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)
	mk := func(basis SpotBasis, reserved bool) *Offer {
		o := &Offer{Provider: "aws", InstanceType: "x", Region: "r", Fact: Fact{Source: "a", AsOf: d1}, SpotBasis: basis}
		o.ListPrices[OnDemand], o.LocalPrices[OnDemand] = 10, 10
		o.ListPrices[Spot], o.LocalPrices[Spot] = 3, 3
		if reserved {
			o.ListPrices[Reserved1y], o.LocalPrices[Reserved1y] = 6, 6
			o.PriceFacts[Reserved1y] = Fact{Source: "b", AsOf: d2}
		}
		return o
	}
	s := Stats([]*Offer{mk(SpotZonesMean, true), mk(SpotZonesMean, false), mk(SpotPoint, false)}, d1)
	want := []ModeStats{{OnDemand, 3, d1, d1}, {Spot, 3, d1, d1}, {Reserved1y, 1, d2, d2}}
	if d := cmp.Diff(want, s.Modes); d != "" {
		t.Errorf("modes (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]int{"zones-mean": 2, "point": 1}, s.SpotBases); d != "" {
		t.Errorf("spot bases (-want +got):\n%s", d)
	}
}
