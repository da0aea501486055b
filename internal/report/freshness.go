package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
)

// staleDays is catalog.StaleAfter in days, as people read it.
var staleDays = int(catalog.StaleAfter / (24 * time.Hour))

// FreshnessJSON is how fresh the prices of a set of offers are: the
// "price_freshness" of `recommend -o json`, and the fields of each row of
// `catalog stats -o json`. Dates are YYYY-MM-DD, null without a priced row.
type FreshnessJSON struct {
	Rows       int     `json:"rows"`
	PricedRows int     `json:"priced_rows"`
	OldestAsOf *string `json:"oldest_as_of"`
	MedianAsOf *string `json:"median_as_of"`
	NewestAsOf *string `json:"newest_as_of"`
	StaleRows  int     `json:"stale_rows"`
}

// PriceFreshnessJSON is the aggregated freshness line of a recommendation,
// for the candidates it shows.
type PriceFreshnessJSON struct {
	FreshnessJSON
	Providers      []string `json:"providers"`
	StaleAfterDays int      `json:"stale_after_days"`
	StaleProviders []string `json:"stale_providers"`
	Sentence       string   `json:"sentence"`
}

func freshnessView(s catalog.PriceStats) FreshnessJSON {
	j := FreshnessJSON{Rows: s.Offers, PricedRows: s.Priced, StaleRows: s.Stale}
	if s.Priced > 0 {
		o, m, n := date(s.Oldest), date(s.Median), date(s.Newest)
		j.OldestAsOf, j.MedianAsOf, j.NewestAsOf = &o, &m, &n
	}
	return j
}

// PriceFreshnessView is the JSON view of s, with its English sentence.
func PriceFreshnessView(s catalog.PriceStats) PriceFreshnessJSON {
	return PriceFreshnessJSON{
		FreshnessJSON: freshnessView(s), Providers: nonNil(s.Providers), StaleAfterDays: staleDays,
		StaleProviders: nonNil(s.StaleProviders), Sentence: FreshnessText(English, s),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// FreshnessText is the one line that says how fresh the prices of a set of
// offers are, in l: "Prices: 4,812 offers from 23 providers, as of
// 2026-01-15 to 2026-06-03 (median 2026-05-20); 412 older than 90 days
// (alibaba, tencent, baidu and 4 more)." Empty for no offers.
func FreshnessText(l Lang, s catalog.PriceStats) string {
	if s.Offers == 0 {
		return ""
	}
	zh := l == Chinese
	if s.Priced == 0 {
		if zh {
			return fmt.Sprintf("价格：%s 条报价均无公开价格。", thousands(s.Offers))
		}
		return fmt.Sprintf("Prices: none of the %s has a published price.", plural(s.Offers, "offer"))
	}
	if s.Offers == 1 {
		// One offer (an explanation, a single candidate): its date says it all.
		switch {
		case s.Stale > 0 && zh:
			return fmt.Sprintf("价格日期 %s：已超过 %d 天，签约前请核对来源。", date(s.Newest), staleDays)
		case s.Stale > 0:
			return fmt.Sprintf("Price as of %s: older than %d days; check the source before you sign.", date(s.Newest), staleDays)
		case zh:
			return fmt.Sprintf("价格日期 %s：未超过 %d 天。", date(s.Newest), staleDays)
		}
		return fmt.Sprintf("Price as of %s: not older than %d days.", date(s.Newest), staleDays)
	}
	var b strings.Builder
	if zh {
		fmt.Fprintf(&b, "价格：%s 条报价，来自 %d 家云厂商", thousands(s.Offers), len(s.Providers))
		if s.Priced < s.Offers {
			fmt.Fprintf(&b, "（%s 条有价格）", thousands(s.Priced))
		}
	} else {
		fmt.Fprintf(&b, "Prices: %s from %s", plural(s.Offers, "offer"), plural(len(s.Providers), "provider"))
		if s.Priced < s.Offers {
			fmt.Fprintf(&b, " (%s with a price)", thousands(s.Priced))
		}
	}
	oldest, median, newest := date(s.Oldest), date(s.Median), date(s.Newest)
	switch {
	case oldest == newest && zh:
		fmt.Fprintf(&b, "，日期 %s", oldest)
	case oldest == newest:
		fmt.Fprintf(&b, ", as of %s", oldest)
	case zh:
		fmt.Fprintf(&b, "，日期 %s 至 %s（中位数 %s）", oldest, newest, median)
	default:
		fmt.Fprintf(&b, ", as of %s to %s (median %s)", oldest, newest, median)
	}
	switch {
	case s.Stale == 0 && zh:
		fmt.Fprintf(&b, "；没有超过 %d 天的价格。", staleDays)
	case s.Stale == 0:
		fmt.Fprintf(&b, "; none older than %d days.", staleDays)
	case zh:
		fmt.Fprintf(&b, "；%s 条超过 %d 天（%s）。", thousands(s.Stale), staleDays, someOf(s.StaleProviders, "、", " 等 %d 家"))
	default:
		fmt.Fprintf(&b, "; %s older than %d days (%s).", thousands(s.Stale), staleDays, someOf(s.StaleProviders, ", ", " and %d more"))
	}
	return b.String()
}

// someOf joins the first three names and counts the rest.
func someOf(names []string, sep, more string) string {
	const shown = 3
	if len(names) <= shown {
		return strings.Join(names, sep)
	}
	return strings.Join(names[:shown], sep) + fmt.Sprintf(more, len(names)-shown)
}

// thousands writes n with a comma every three digits: 4,812.
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(n) + " " + noun + "s"
}

// shownWarnings are a candidate's warnings for people: the stale-price
// warning is left out, because the recommendation's freshness line
// (advisor.Result.Freshness) covers every row at once. -o json keeps it.
func shownWarnings(c *advisor.Candidate) []advisor.Warning {
	var out []advisor.Warning
	for _, w := range c.Warnings {
		if w.Code != advisor.WarnStale {
			out = append(out, w)
		}
	}
	return out
}

// ProviderStatsJSON is one row of `gpupick catalog stats -o json`.
type ProviderStatsJSON struct {
	Provider string `json:"provider"`
	FreshnessJSON
	// Sources are the distinct sources of the provider's rows, each cut at
	// its first ';'.
	Sources []string `json:"sources"`
	// Modes are the pricing modes priced, each with how many rows and the
	// dates of those prices; SpotBases counts spot prices by basis
	// (zones-mean, regional, average, point; "unstated" for hand-kept rows
	// that do not say).
	Modes     []ModeStatsJSON `json:"modes"`
	SpotBases map[string]int  `json:"spot_bases,omitempty"`
}

// ModeStatsJSON is one pricing mode of a provider's rows.
type ModeStatsJSON struct {
	Pricing    string `json:"pricing"`
	Rows       int    `json:"rows"`
	OldestAsOf string `json:"oldest_as_of"`
	NewestAsOf string `json:"newest_as_of"`
}

// CatalogStatsJSON is the document `gpupick catalog stats -o json` prints.
type CatalogStatsJSON struct {
	Now            string              `json:"now"`
	StaleAfterDays int                 `json:"stale_after_days"`
	Providers      []ProviderStatsJSON `json:"providers"`
	// Total has provider "total" and covers every row.
	Total ProviderStatsJSON `json:"total"`
}

// CatalogStats builds the JSON view and the table of per-provider price
// freshness, with a total row over all offers.
func CatalogStats(by []catalog.ProviderStats, total catalog.PriceStats, now time.Time) (CatalogStatsJSON, *Table) {
	t := &Table{Columns: []Column{
		{"PROVIDER", "provider", false}, {"ROWS", "rows", true}, {"PRICED", "priced_rows", true},
		{"OLDEST AS OF", "oldest_as_of", false}, {"MEDIAN AS OF", "median_as_of", false}, {"NEWEST AS OF", "newest_as_of", false},
		{fmt.Sprintf("STALE >%d d", staleDays), "stale_rows", true}, {"PRICING MODES (ROWS)", "modes", false}, {"SOURCE", "sources", false},
	}}
	j := CatalogStatsJSON{Now: date(now), StaleAfterDays: staleDays, Providers: make([]ProviderStatsJSON, 0, len(by))}
	add := func(name string, s catalog.PriceStats) ProviderStatsJSON {
		v := ProviderStatsJSON{Provider: name, FreshnessJSON: freshnessView(s), Sources: nonNil(s.Sources), Modes: []ModeStatsJSON{}}
		var modes []string
		for _, m := range s.Modes {
			v.Modes = append(v.Modes, ModeStatsJSON{Pricing: m.Mode.String(), Rows: m.Offers, OldestAsOf: date(m.Oldest), NewestAsOf: date(m.Newest)})
			modes = append(modes, fmt.Sprintf("%s %s", m.Mode, thousands(m.Offers)))
		}
		if len(s.SpotBases) > 0 {
			v.SpotBases = map[string]int{}
			for k, n := range s.SpotBases {
				if k == "" {
					k = "unstated"
				}
				v.SpotBases[k] += n
			}
		}
		source := fmt.Sprintf("%d sources", len(s.Sources))
		if len(s.Sources) == 1 {
			source = orDash(ShortSource(s.Sources[0], 80)) // whole in -o json
		}
		t.Add(name, thousands(s.Offers), thousands(s.Priced), dateOrDash(s.Oldest, s.Priced), dateOrDash(s.Median, s.Priced),
			dateOrDash(s.Newest, s.Priced), thousands(s.Stale), orDash(strings.Join(modes, ", ")), source)
		return v
	}
	for _, p := range by {
		j.Providers = append(j.Providers, add(p.Provider, p.PriceStats))
	}
	j.Total = add("total", total)
	t.Notes = append(t.Notes,
		fmt.Sprintf("Dates are the as_of of priced rows (an offer with at least one list price); STALE = priced rows older than %d days on %s.", staleDays, date(now)),
		"PRICING MODES = the modes priced and how many rows each; -o json gives each mode's oldest and newest price date and how the spot prices were made (zones-mean, regional, average, point).",
		"SOURCE = the one source all of a provider's rows share (up to the first ';'), else how many there are; -o json lists them.")
	return j, t
}

func dateOrDash(t time.Time, priced int) string {
	if priced == 0 {
		return "-"
	}
	return date(t)
}
