package catalog

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// PriceStats says how fresh the prices of a set of offers are. Dates are
// taken from priced rows only: an offer without any list price has no price
// date worth reporting.
type PriceStats struct {
	// Offers is the number of rows; Priced of them have at least one list
	// price (in any pricing mode).
	Offers, Priced int
	// Oldest, Median and Newest are the as_of dates of the priced rows;
	// zero when Priced is 0. With an even count the median is the midpoint
	// of the two middle dates.
	Oldest, Median, Newest time.Time
	// Stale is how many priced rows are older than StaleAfter at the time
	// the stats were taken.
	Stale int
	// Providers are the distinct providers of all the rows, sorted.
	Providers []string
	// StaleProviders are the providers of the stale rows, the most stale
	// rows first (ties by id).
	StaleProviders []string
	// Sources are the distinct sources of all the rows, each cut at its
	// first ';' (SourcePrefix), sorted.
	Sources []string
	// Modes are, per pricing mode with at least one price, how many rows
	// are priced in it and the oldest and newest date of those prices;
	// SpotBases counts the spot prices by basis ("" = unstated).
	Modes     []ModeStats
	SpotBases map[string]int
}

// ModeStats is how many offers are priced in one mode, and how old the
// prices are.
type ModeStats struct {
	Mode           Mode
	Offers         int
	Oldest, Newest time.Time
}

// ProviderStats is the PriceStats of one provider's offers.
type ProviderStats struct {
	Provider string
	PriceStats
}

// SourcePrefix is the part of a source before its first ';', trimmed: the
// document a row comes from, without the row-specific detail after it.
func SourcePrefix(source string) string {
	before, _, _ := strings.Cut(source, ";")
	return strings.TrimSpace(before)
}

// Priced reports whether the offer has a list price in at least one mode.
func (o *Offer) Priced() bool {
	for m := Mode(0); m < NumModes; m++ {
		if _, ok := o.ListPrices.Get(m); ok {
			return true
		}
	}
	return false
}

// Stats summarises the price dates of offers at now. Every element counts
// as a row: callers that hold one offer several times (a candidate per
// pricing mode) pass each offer once.
func Stats(offers []*Offer, now time.Time) PriceStats {
	s := PriceStats{Offers: len(offers)}
	var dates []time.Time
	providers, sources := map[string]bool{}, map[string]bool{}
	staleBy := map[string]int{}
	var modes [NumModes]ModeStats
	for _, o := range offers {
		providers[o.Provider] = true
		sources[SourcePrefix(o.Source)] = true
		if !o.Priced() {
			continue
		}
		for m := Mode(0); m < NumModes; m++ {
			if _, ok := o.ListPrices.Get(m); !ok {
				continue
			}
			ms, d := &modes[m], o.PriceFact(m).AsOf
			ms.Offers++
			if ms.Oldest.IsZero() || d.Before(ms.Oldest) {
				ms.Oldest = d
			}
			if d.After(ms.Newest) {
				ms.Newest = d
			}
			if m == Spot {
				if s.SpotBases == nil {
					s.SpotBases = map[string]int{}
				}
				s.SpotBases[o.SpotBasis.String()]++
			}
		}
		dates = append(dates, o.PricesAsOf())
		if o.PricesStale(now) {
			s.Stale++
			staleBy[o.Provider]++
		}
	}
	for m, ms := range modes {
		if ms.Offers > 0 {
			ms.Mode = Mode(m)
			s.Modes = append(s.Modes, ms)
		}
	}
	s.Priced = len(dates)
	if n := len(dates); n > 0 {
		slices.SortFunc(dates, time.Time.Compare)
		s.Oldest, s.Newest = dates[0], dates[n-1]
		s.Median = dates[n/2]
		if n%2 == 0 {
			lo := dates[n/2-1]
			s.Median = lo.Add(s.Median.Sub(lo) / 2)
		}
	}
	s.Providers = sortedKeys(providers)
	s.Sources = sortedKeys(sources)
	for p := range staleBy {
		s.StaleProviders = append(s.StaleProviders, p)
	}
	slices.SortFunc(s.StaleProviders, func(a, b string) int {
		return cmp.Or(cmp.Compare(staleBy[b], staleBy[a]), cmp.Compare(a, b))
	})
	return s
}

// StatsByProvider is Stats of each provider's offers at now, by provider id.
func StatsByProvider(offers []*Offer, now time.Time) []ProviderStats {
	by := map[string][]*Offer{}
	for _, o := range offers {
		by[o.Provider] = append(by[o.Provider], o)
	}
	out := make([]ProviderStats, 0, len(by))
	for _, p := range sortedKeys(by) {
		out = append(out, ProviderStats{Provider: p, PriceStats: Stats(by[p], now)})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
