package report

import (
	"strconv"
	"testing"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/perf"
)

func TestColumnDecimals(t *testing.T) {
	tests := []struct {
		vals     []float64
		sig, max int
		distinct bool
		want     int
	}{
		// "0.0003 USD per thousand images" could not tell ranks apart.
		{[]float64{0.0003, 0.00031, 0.00032}, 3, 6, true, 6},
		{[]float64{0.2071, 0.2073, 0.503}, 3, 6, true, 4},
		{[]float64{0.207, 0.503, 0.563}, 3, 6, true, 3},
		{[]float64{103, 252, 281}, 2, 2, true, 0},
		{[]float64{16.95, 17.98}, 2, 2, true, 0},
		{[]float64{16.95, 16.98}, 2, 2, true, 1},
		{[]float64{2.547, 2.543}, 2, 2, false, 1}, // time: not what ranks
		{[]float64{0.35, 12}, 2, 2, false, 2},
		{nil, 3, 6, true, 0},
	}
	for _, tt := range tests {
		got := decimals(tt.vals, tt.sig, tt.max, tt.distinct)
		if tt.distinct {
			// every value printed differently
			seen := map[string]bool{}
			for _, v := range tt.vals {
				seen[strconv.FormatFloat(v, 'f', got, 64)] = true
			}
			if len(seen) != len(tt.vals) {
				t.Errorf("%v: ranks print alike with %d decimals", tt.vals, got)
			}
		}
		if got != tt.want {
			t.Errorf("decimals(%v, %d, %d, %v) = %d, want %d", tt.vals, tt.sig, tt.max, tt.distinct, got, tt.want)
		}
	}
	// Dollars: whole, or cents when ranks need them, never one decimal.
	if d := moneyDecimals([]float64{16.95, 16.98}); d != 2 {
		t.Errorf("moneyDecimals = %d, want 2", d)
	}
	if s := fixed(30204.4, 0); s != "30,204" {
		t.Errorf("fixed: %q", s)
	}
}

// TestShownRowsFoldRegions: an instance type, size and pricing mode is
// one row in its best region, counting the others; top counts rows shown.
func TestShownRowsFoldRegions(t *testing.T) {
	mk := func(rank int, inst, region string, mode catalog.Mode, gpus int, warn ...advisor.Warning) *advisor.Candidate {
		return &advisor.Candidate{Rank: rank, GPUs: gpus, Offer: &catalog.Offer{Provider: "p", InstanceType: inst, Region: region},
			Cost: cost.Estimate{Mode: mode}, Pred: &perf.Prediction{}, Warnings: warn}
	}
	note := func(s string) advisor.Warning { return advisor.Warning{Code: advisor.WarnNote, Args: []any{s}} }
	r := &advisor.Result{Candidates: []*advisor.Candidate{
		mk(1, "a", "r1", catalog.Spot, 8, note("same")), mk(2, "a", "r2", catalog.Spot, 8, note("same")), mk(3, "b", "r1", catalog.OnDemand, 8),
		mk(4, "a", "r1", catalog.OnDemand, 8, note("same")), mk(5, "a", "r3", catalog.Spot, 8), mk(6, "a", "r1", catalog.Spot, 16),
	}}
	rows := shownRows(r, 0, false)
	var got []string
	for _, row := range rows {
		got = append(got, strconv.Itoa(row.c.Rank)+"+"+strconv.Itoa(row.others))
	}
	if want := "[1+2 3+0 4+0 6+0]"; fmtSlice(got) != want {
		t.Errorf("folded rows %s, want %s", fmtSlice(got), want)
	}
	if n := len(shownRows(r, 2, false)); n != 2 {
		t.Errorf("top 2 shows %d rows", n)
	}
	if n := len(shownRows(r, 0, true)); n != 6 {
		t.Errorf("all regions shows %d rows", n)
	}
	// A warning the rows share is said once, with their ranks.
	g := groupWarnings(rows, English)
	if len(g) != 1 || g[0].text != "same" || ranksText(g[0].ranks) != "#1, #4" {
		t.Errorf("warnings %+v", g)
	}
}

func fmtSlice(s []string) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out + "]"
}
