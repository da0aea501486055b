package server

import (
	"context"
	"maps"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

// contextTimeout bounds one store call.
const contextTimeout = 10 * time.Second

// OffersPage is one page of GET /api/v1/offers.
type OffersPage struct {
	Items   []OfferItem `json:"items"`
	Total   int         `json:"total"` // offers that pass the filters, all pages
	Page    int         `json:"page"`  // 1-based
	PerPage int         `json:"per_page"`
}

// Price statuses: how the price of an offer in a pricing mode is known.
const (
	PriceListed     = "listed"      // the provider's published price
	PriceNegotiated = "negotiated"  // the team's own price (a --prices overlay or PUT /api/v1/prices)
	PriceUnknown    = "unknown"     // the offer is sold this way, but its price is not published
	PriceNotOffered = "not_offered" // the provider does not sell this way (no offer of it has a price in the mode)
)

// OfferItem is one offer of GET /api/v1/offers: the offer as `gpupick
// offers -o json` writes it, then the price a page shows and what sort
// and max_price act on, in the listing's pricing mode, and the offer's
// price in every mode. USD; null where the price is not known.
type OfferItem struct {
	report.OfferJSON
	// Mode is the pricing mode of PriceUSDPerHour: the request's pricing,
	// else on-demand.
	Mode string `json:"mode"`
	// PriceUSDPerHour is the price of one instance-hour in Mode (the
	// team's price where it has one, else the list price); sort=price and
	// max_price use it. PriceUSDPerGPUHour divides it by the GPUs (a
	// sliced GPU counts as its fraction); sort=price-per-gpu and
	// max_price_per_gpu use it.
	PriceUSDPerHour    *float64 `json:"price_usd_per_hour"`
	PriceUSDPerGPUHour *float64 `json:"price_usd_per_gpu_hour"`
	// PriceStatus is listed, negotiated, unknown or not_offered.
	PriceStatus string `json:"price_status"`
	// ModePrices has every pricing mode, in the order of catalog.ModeNames.
	ModePrices []ModePrice `json:"mode_prices"`
}

// ModePrice is an offer's price in one pricing mode.
type ModePrice struct {
	Mode          string   `json:"mode"`
	USDPerHour    *float64 `json:"usd_per_hour"`
	USDPerGPUHour *float64 `json:"usd_per_gpu_hour"`
	// USDPerMonth is a monthly subscription's price per month, as sold
	// (the hourly price is it over 730 hours); set for monthly only.
	USDPerMonth *float64 `json:"usd_per_month,omitempty"`
	Status      string   `json:"status"`
}

// sells lists, per provider, the pricing modes in which some offer of its
// has a price: a mode no offer has is one the provider does not sell.
func sells(c *catalog.Catalog) map[string]*[catalog.NumModes]bool {
	out := map[string]*[catalog.NumModes]bool{}
	for _, o := range c.Offers {
		m := out[o.Provider]
		if m == nil {
			m = new([catalog.NumModes]bool)
			out[o.Provider] = m
		}
		for mode := range catalog.NumModes {
			if _, ok := o.ListPrices.Get(mode); ok {
				m[mode] = true
			}
		}
	}
	return out
}

// offerItem adds to v the prices of o, in mode first.
func offerItem(v report.OfferJSON, o *catalog.Offer, mode catalog.Mode, sold *[catalog.NumModes]bool) OfferItem {
	it := OfferItem{OfferJSON: v, Mode: mode.String(), ModePrices: make([]ModePrice, 0, catalog.NumModes)}
	for m := range catalog.NumModes {
		mp := ModePrice{Mode: m.String()}
		switch p, ok := o.YourPrices.Get(m); {
		case ok:
			mp.USDPerHour, mp.USDPerGPUHour = fp(round6(p)), fp(round6(p/o.GPUs()))
			mp.Status = PriceListed
			if o.PriceRules[m] != "" {
				mp.Status = PriceNegotiated
			}
			if m == catalog.Monthly {
				mp.USDPerMonth = fp(math.Round(p*catalog.HoursPerMonth*100) / 100)
			}
		case m == catalog.OnDemand || (sold != nil && sold[m]):
			mp.Status = PriceUnknown
		default:
			mp.Status = PriceNotOffered
		}
		if m == mode {
			it.PriceUSDPerHour, it.PriceUSDPerGPUHour, it.PriceStatus = mp.USDPerHour, mp.USDPerGPUHour, mp.Status
		}
		it.ModePrices = append(it.ModePrices, mp)
	}
	return it
}

func fp(v float64) *float64 { return &v }

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func (s *Server) accelerators(_ http.ResponseWriter, r *http.Request, _ *noBody) ([]report.AcceleratorJSON, error) {
	q := r.URL.Query()
	vendor := q.Get("vendor")
	minMem, err := floatParam(q.Get("min_memory_gb"), "min_memory_gb")
	if err != nil {
		return nil, err
	}
	var keep []*catalog.Accelerator
	vendors := map[string]bool{}
	for _, a := range s.st().cat.Accelerators {
		vendors[a.Vendor] = true
		if (vendor == "" || strings.EqualFold(a.Vendor, vendor)) && a.MemGiB >= minMem {
			keep = append(keep, a)
		}
	}
	if vendor != "" && !vendors[strings.ToLower(vendor)] {
		return nil, apperr.Invalidf("vendor", "unknown vendor %q (known: %s)", vendor, strings.Join(slices.Sorted(maps.Keys(vendors)), ", "))
	}
	j, _ := report.Accelerators(keep, s.now())
	if j == nil {
		j = []report.AcceleratorJSON{}
	}
	return j, nil
}

func (s *Server) providers(_ http.ResponseWriter, _ *http.Request, _ *noBody) ([]report.ProviderJSON, error) {
	j, _ := report.Providers(s.st().cat, s.now())
	return j, nil
}

func (s *Server) offers(_ http.ResponseWriter, r *http.Request, _ *noBody) (OffersPage, error) {
	q := r.URL.Query()
	sortBy := q.Get("sort")
	if sortBy == "" {
		sortBy = "price"
	}
	key, err := catalog.ParseSortKey(sortBy)
	if err != nil {
		return OffersPage{}, apperr.Invalidf("sort", "want price, price-per-gpu or memory, got %q", sortBy)
	}
	pricing := q.Get("pricing")
	mode := catalog.OnDemand
	if pricing != "" {
		var ok bool
		if mode, ok = catalog.ParseMode(pricing); !ok {
			return OffersPage{}, apperr.Invalidf("pricing", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), pricing)
		}
	}
	f := catalog.Filter{Region: q.Get("region"), Country: q.Get("country"), Mode: mode, NeedMode: pricing != ""}
	if f.MaxPrice, err = floatParam(q.Get("max_price"), "max_price"); err != nil {
		return OffersPage{}, err
	}
	if f.MinGPUs, err = intParam(q.Get("min_gpus"), "min_gpus", 0); err != nil {
		return OffersPage{}, err
	}
	if g := q.Get("gpu"); g != "" {
		req, err := catalog.ParseGPURequest(g)
		if err != nil {
			return OffersPage{}, apperr.Wrap(apperr.Invalid, "gpu", err)
		}
		a, ok := s.st().cat.Accelerator(req.Name)
		if !ok { // a bad query parameter, as a bad number would be
			return OffersPage{}, apperr.Invalidf("gpu", "unknown accelerator %q (known: %s)", req.Name, strings.Join(s.st().cat.AcceleratorNames(), ", "))
		}
		f.GPU, f.GPUCount = a.ID, req.Count
	}
	for _, p := range q["provider"] {
		for _, id := range strings.Split(p, ",") {
			if id = strings.TrimSpace(id); id == "" {
				continue
			}
			if _, ok := s.st().cat.Provider(id); !ok {
				return OffersPage{}, apperr.Invalidf("provider", "unknown provider %q (see /api/v1/providers)", id)
			}
			f.Providers = append(f.Providers, strings.ToLower(id))
		}
	}
	page, err := intParam(q.Get("page"), "page", 1)
	if err != nil || page < 1 {
		return OffersPage{}, apperr.Invalidf("page", "want a page number >= 1, got %q", q.Get("page"))
	}
	perPage, err := intParam(q.Get("per_page"), "per_page", 50)
	if err != nil || perPage < 1 || perPage > 500 {
		return OffersPage{}, apperr.Invalidf("per_page", "want 1 to 500, got %q", q.Get("per_page"))
	}
	maxPerGPU, err := floatParam(q.Get("max_price_per_gpu"), "max_price_per_gpu")
	if err != nil {
		return OffersPage{}, err
	}
	if maxPerGPU > 0 {
		f.NeedMode = true // an unknown price is not below a bound
	}
	st := s.st()
	sel := st.cat.Select(f)
	if maxPerGPU > 0 {
		keep := sel.Offers[:0:0]
		for _, o := range sel.Offers {
			if p, ok := o.YourPrices.Get(mode); ok && p/o.GPUs() <= maxPerGPU {
				keep = append(keep, o)
			}
		}
		sel.Offers = keep
	}
	catalog.Sort(sel.Offers, key, mode)
	out := OffersPage{Items: []OfferItem{}, Total: len(sel.Offers), Page: page, PerPage: perPage}
	lo := min((page-1)*perPage, len(sel.Offers))
	hi := min(lo+perPage, len(sel.Offers))
	if hi > lo {
		views, _ := report.Offers(sel.Offers[lo:hi], mode, false, s.now())
		for i, o := range sel.Offers[lo:hi] {
			out.Items = append(out.Items, offerItem(views[i], o, mode, st.sells[o.Provider]))
		}
	}
	return out, nil
}

func floatParam(v, name string) (float64, error) {
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f != f {
		return 0, apperr.Invalidf(name, "want a number >= 0, got %q", v)
	}
	return f, nil
}

func intParam(v, name string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, apperr.Invalidf(name, "want a whole number >= 0, got %q", v)
	}
	return n, nil
}

// SnapshotJSON is one snapshot, as `gpupick catalog snapshots -o json`.
type SnapshotJSON struct {
	store.SnapshotInfo
	// CurrentFor lists the providers whose offers in force come from it.
	CurrentFor []string `json:"current_for"`
}

// HistoryJSON is an offer's price history, as `gpupick catalog history -o json`.
type HistoryJSON struct {
	Offer  string             `json:"offer"`
	Region string             `json:"region,omitempty"`
	Mode   catalog.Mode       `json:"mode"`
	Points []store.PricePoint `json:"points"`
}

func (s *Server) storeCtx(r *http.Request) (store.Store, context.Context, context.CancelFunc, error) {
	if s.store == nil {
		return nil, nil, nil, errNoStore
	}
	ctx, cancel := context.WithTimeout(r.Context(), contextTimeout)
	return s.store, ctx, cancel, nil
}

func (s *Server) snapshots(_ http.ResponseWriter, r *http.Request, _ *noBody) ([]SnapshotJSON, error) {
	st, ctx, cancel, err := s.storeCtx(r)
	if err != nil {
		return nil, err
	}
	defer cancel()
	snaps, err := st.Snapshots(ctx)
	if err != nil {
		return nil, err
	}
	_, current, err := st.CurrentOffers(ctx)
	if err != nil {
		return nil, err
	}
	views := make([]SnapshotJSON, len(snaps))
	for i, sn := range snaps {
		views[i] = SnapshotJSON{SnapshotInfo: sn, CurrentFor: []string{}}
		for p, c := range current {
			if c.ID == sn.ID {
				views[i].CurrentFor = append(views[i].CurrentFor, p)
			}
		}
		sort.Strings(views[i].CurrentFor)
	}
	return views, nil
}

func (s *Server) history(_ http.ResponseWriter, r *http.Request, _ *noBody) (HistoryJSON, error) {
	qs := r.URL.Query()
	modeName := qs.Get("mode")
	if modeName == "" {
		modeName = "on-demand"
	}
	m, ok := catalog.ParseMode(modeName)
	if !ok {
		return HistoryJSON{}, apperr.Invalidf("mode", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), modeName)
	}
	q := store.HistoryQuery{Offer: qs.Get("offer"), Region: qs.Get("region"), Mode: m}
	if o, reg, ok := strings.Cut(q.Offer, "@"); ok {
		if q.Region != "" && q.Region != reg {
			return HistoryJSON{}, apperr.Invalidf("region", "%s names region %s already", q.Offer, reg)
		}
		q.Offer, q.Region = o, reg
	}
	if !strings.Contains(q.Offer, "/") {
		return HistoryJSON{}, apperr.Invalidf("offer", "want provider/instance-type (optionally @region), got %q", q.Offer)
	}
	var err error
	if q.From, err = day("from", qs.Get("from"), false); err != nil {
		return HistoryJSON{}, err
	}
	if q.To, err = day("to", qs.Get("to"), true); err != nil {
		return HistoryJSON{}, err
	}
	st, ctx, cancel, err := s.storeCtx(r)
	if err != nil {
		return HistoryJSON{}, err
	}
	defer cancel()
	pts, err := st.History(ctx, q)
	if err != nil {
		return HistoryJSON{}, err
	}
	if pts == nil {
		pts = []store.PricePoint{}
	}
	return HistoryJSON{Offer: q.Offer, Region: q.Region, Mode: m, Points: pts}, nil
}

func day(field, v string, endOfDay bool) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, apperr.Invalidf(field, "want a date YYYY-MM-DD, got %q", v)
	}
	if endOfDay {
		t = t.Add(24*time.Hour - time.Millisecond)
	}
	return t, nil
}

func (s *Server) diff(_ http.ResponseWriter, r *http.Request, _ *noBody) (*store.Diff, error) {
	st, ctx, cancel, err := s.storeCtx(r)
	if err != nil {
		return nil, err
	}
	defer cancel()
	snaps, err := st.Snapshots(ctx)
	if err != nil {
		return nil, err
	}
	if len(snaps) == 0 {
		return nil, apperr.Emptyf("the store holds no snapshots yet (gpupick catalog import or update)")
	}
	qs := r.URL.Query()
	to := snaps[len(snaps)-1].ID
	if v := qs.Get("to"); v != "" {
		if to, err = store.ResolveSnapshot(snaps, "to", v); err != nil {
			return nil, err
		}
	}
	var from int64
	if v := qs.Get("from"); v != "" {
		if from, err = store.ResolveSnapshot(snaps, "from", v); err != nil {
			return nil, err
		}
	} else {
		for _, sn := range snaps {
			if sn.ID < to {
				from = sn.ID
			}
		}
		if from == 0 {
			return nil, apperr.Emptyf("only one snapshot (#%d): nothing to compare it with", to)
		}
	}
	return st.Diff(ctx, from, to)
}
