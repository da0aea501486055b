package server

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// offerPage is OffersPage as a client reads it.
type offerPage struct {
	Items []struct {
		ID                 string      `json:"id"`
		Mode               string      `json:"mode"`
		PriceUSDPerHour    *float64    `json:"price_usd_per_hour"`
		PriceUSDPerGPUHour *float64    `json:"price_usd_per_gpu_hour"`
		PriceStatus        string      `json:"price_status"`
		ModePrices         []ModePrice `json:"mode_prices"`
	} `json:"items"`
	Total int `json:"total"`
}

func offersPage(t *testing.T, s *Server, query string) offerPage {
	t.Helper()
	r := do(t, s.Handler(), "GET", "/api/v1/offers?"+query, "", "")
	if r.status != 200 {
		t.Fatalf("%s: %d %s", query, r.status, r.body)
	}
	var p offerPage
	if err := json.Unmarshal([]byte(r.body), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOffersShownPrice: each offer carries the price a page shows, in the
// listing's mode, and sort and the price filters act on exactly that
// figure; every mode is there (monthly too), and a price not published is
// told from a mode not sold.
func TestOffersShownPrice(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	for _, q := range []string{"sort=price", "sort=price-per-gpu", "pricing=spot&sort=price-per-gpu", "pricing=monthly&sort=price"} {
		p := offersPage(t, s, q+"&per_page=500")
		if len(p.Items) == 0 {
			t.Fatalf("%s: no offers", q)
		}
		perGPU := q != "sort=price" && q != "pricing=monthly&sort=price"
		var prev float64
		unknownSeen := false
		for i, it := range p.Items {
			v := it.PriceUSDPerHour
			if perGPU {
				v = it.PriceUSDPerGPUHour
			}
			if v == nil {
				unknownSeen = true
				if it.PriceStatus != PriceUnknown && it.PriceStatus != PriceNotOffered {
					t.Errorf("%s: %s has no price but status %q", q, it.ID, it.PriceStatus)
				}
				continue
			}
			if unknownSeen {
				t.Errorf("%s: %s priced after an unknown price", q, it.ID)
			}
			if i > 0 && *v < prev-1e-6 {
				t.Errorf("%s: %s at %v after %v: not sorted by the price shown", q, it.ID, *v, prev)
			}
			prev = *v
			if len(it.ModePrices) != int(catalog.NumModes) {
				t.Fatalf("%s: %d mode prices", it.ID, len(it.ModePrices))
			}
			mp := it.ModePrices[slices.IndexFunc(it.ModePrices, func(m ModePrice) bool { return m.Mode == it.Mode })]
			if mp.USDPerHour == nil || *mp.USDPerHour != *it.PriceUSDPerHour {
				t.Errorf("%s: price %v, its mode's %v", it.ID, *it.PriceUSDPerHour, mp.USDPerHour)
			}
		}
	}

	// A bound on the shown price per GPU keeps exactly the offers at or
	// below it.
	all := offersPage(t, s, "gpu=h100-sxm&per_page=500")
	capped := offersPage(t, s, "gpu=h100-sxm&per_page=500&max_price_per_gpu=3")
	want := 0
	for _, it := range all.Items {
		if it.PriceUSDPerGPUHour != nil && *it.PriceUSDPerGPUHour <= 3 {
			want++
		}
	}
	if capped.Total != want || want == 0 || want == all.Total {
		t.Errorf("max_price_per_gpu=3 kept %d of %d; want %d", capped.Total, all.Total, want)
	}
	for _, it := range capped.Items {
		if *it.PriceUSDPerGPUHour > 3 {
			t.Errorf("%s at %v per GPU-hour passed max_price_per_gpu=3", it.ID, *it.PriceUSDPerGPUHour)
		}
	}
	if r := do(t, s.Handler(), "GET", "/api/v1/offers?max_price_per_gpu=cheap", "", ""); r.status != 400 || r.errorOf(t).Field != "max_price_per_gpu" {
		t.Errorf("bad max_price_per_gpu: %d %s", r.status, r.body)
	}

	// Monthly prices come per month as well; unknown and not offered
	// are both there and told apart.
	var monthly, unknown, notOffered bool
	for _, it := range offersPage(t, s, "per_page=500&page=1").Items {
		for _, mp := range it.ModePrices {
			switch {
			case mp.Mode == "monthly" && mp.USDPerHour != nil:
				if mp.USDPerMonth == nil || *mp.USDPerMonth < *mp.USDPerHour*700 {
					t.Errorf("%s: monthly %v per hour, %v per month", it.ID, *mp.USDPerHour, mp.USDPerMonth)
				}
				monthly = true
			case mp.Status == PriceUnknown:
				unknown = mp.USDPerHour == nil
			case mp.Status == PriceNotOffered:
				notOffered = mp.USDPerHour == nil
			}
		}
	}
	total := offersPage(t, s, "per_page=1").Total
	for page := 2; page <= (total+499)/500; page++ {
		for _, it := range offersPage(t, s, "per_page=500&page="+itoa(int64(page))).Items {
			for _, mp := range it.ModePrices {
				monthly = monthly || (mp.Mode == "monthly" && mp.USDPerMonth != nil)
				unknown = unknown || mp.Status == PriceUnknown
				notOffered = notOffered || mp.Status == PriceNotOffered
			}
		}
	}
	if !monthly || !unknown || !notOffered {
		t.Errorf("in the catalog: monthly %v, unknown %v, not offered %v; want all", monthly, unknown, notOffered)
	}
}
