package report

import (
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
)

func TestFreshnessText(t *testing.T) {
	day := func(s string) time.Time {
		d, _ := time.Parse(time.DateOnly, s)
		return d
	}
	many := catalog.PriceStats{Offers: 4812, Priced: 4800, Oldest: day("2026-01-15"), Median: day("2026-05-20"), Newest: day("2026-06-03"),
		Stale: 412, Providers: make([]string, 23), StaleProviders: []string{"alibaba", "tencent", "baidu", "huawei", "oci"}}
	fresh := catalog.PriceStats{Offers: 2, Priced: 2, Oldest: day("2026-06-01"), Median: day("2026-06-01"), Newest: day("2026-06-01"),
		Providers: []string{"aws"}}
	one := catalog.PriceStats{Offers: 1, Priced: 1, Oldest: day("2025-01-01"), Median: day("2025-01-01"), Newest: day("2025-01-01"),
		Stale: 1, Providers: []string{"aws"}, StaleProviders: []string{"aws"}}
	tests := []struct {
		name string
		l    Lang
		s    catalog.PriceStats
		want string
	}{
		{"nothing", English, catalog.PriceStats{}, ""},
		{"unpriced", English, catalog.PriceStats{Offers: 3, Providers: []string{"huawei"}}, "Prices: none of the 3 offers has a published price."},
		{"many", English, many, "Prices: 4,812 offers from 23 providers (4,800 with a price), as of 2026-01-15 to 2026-06-03 (median 2026-05-20); 412 older than 90 days (alibaba, tencent, baidu and 2 more)."},
		{"many zh", Chinese, many, "价格：4,812 条报价，来自 23 家云厂商（4,800 条有价格），日期 2026-01-15 至 2026-06-03（中位数 2026-05-20）；412 条超过 90 天（alibaba、tencent、baidu 等 2 家）。"},
		{"one date, none stale", English, fresh, "Prices: 2 offers from 1 provider, as of 2026-06-01; none older than 90 days."},
		{"one offer", English, one, "Price as of 2025-01-01: older than 90 days; check the source before you sign."},
		{"one offer zh", Chinese, one, "价格日期 2025-01-01：已超过 90 天，签约前请核对来源。"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FreshnessText(tt.l, tt.s); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	for in, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 4812: "4,812", 1234567: "1,234,567", -1200: "-1,200"} {
		if got := thousands(in); got != want {
			t.Errorf("thousands(%d) = %q, want %q", in, got, want)
		}
	}
}

// TestStaleWarningLeftToTheFreshnessLine: people see the stale-price
// warning only through the freshness line; -o json keeps it per candidate.
func TestStaleWarningLeftToTheFreshnessLine(t *testing.T) {
	c := &advisor.Candidate{Warnings: []advisor.Warning{{Code: advisor.WarnStale, Args: []any{"2025-01-01"}}, {Code: advisor.WarnLowConfidence}}}
	if ws := shownWarnings(c); len(ws) != 1 || ws[0].Code != advisor.WarnLowConfidence {
		t.Errorf("shownWarnings = %v", ws)
	}
	o := &catalog.Offer{Provider: "aws", InstanceType: "p5.48xlarge", Region: "us-east-1", GPUCount: 8}
	c.Offer, c.Pred = o, &perf.Prediction{}
	if j := CandidateView(c); len(j.Warnings) != 2 || j.Warnings[0].Code != advisor.WarnStale {
		t.Errorf("JSON warnings = %+v, want the stale_price warning kept", j.Warnings)
	}
}
