package server

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/importer"
	"github.com/gpupick/gpupick/internal/store"
)

// ImportRequest imports a price list into the store (gpupick catalog
// import): Content is the file's text in Format (azure, aws, gcp, skypilot,
// gpuhunt); Provider names the provider of a SkyPilot or gpuhunt file.
type ImportRequest struct {
	Format   string `json:"format"`
	Name     string `json:"name,omitempty"`
	Provider string `json:"provider,omitempty"`
	// AsOf is the date (YYYY-MM-DD) the prices speak for; required for
	// skypilot and gpuhunt content, which carries no date of its own.
	AsOf    string `json:"as_of,omitempty"`
	Content string `json:"content"`
	// AllowShrink imports content that looks cut short: a CSV whose last
	// line has no newline, pages that say one is missing, or a provider
	// with fewer than half the offers it has in the store now. Without it
	// such content is refused (400) and the store is not changed.
	AllowShrink bool `json:"allow_shrink,omitempty"`
	// ReplaceModes drops the prices in force of pricing modes the content
	// has no price in; by default they are kept (see Carried).
	ReplaceModes bool `json:"replace_modes,omitempty"`
}

// ImportResponse is the snapshot the import saved and what it refused.
type ImportResponse struct {
	Snapshot store.SnapshotInfo `json:"snapshot"`
	Offers   int                `json:"offers"`
	Rejected []RejectJSON       `json:"rejected"`
	Reloaded bool               `json:"reloaded"` // the served catalog now uses the new prices
	// Carried lists the pricing modes the content had no price in whose
	// prices in force were kept, as snapshot.carried does ([] when none).
	Carried []store.Carried `json:"carried"`
}

// RejectJSON is a row of a price list the import refused.
type RejectJSON struct {
	Line   int    `json:"line,omitempty"`  // 1-based line of a CSV file; absent for JSON sources
	Item   string `json:"item,omitempty"`  // the source's id of the row (SKU, meter, instance@region)
	Field  string `json:"field,omitempty"` // the source field at fault
	Reason string `json:"reason"`
}

func rejectsJSON(rs []importer.Reject) []RejectJSON {
	out := make([]RejectJSON, len(rs)) // [] rather than null when none
	for i, r := range rs {
		out[i] = RejectJSON{Line: r.Line, Item: r.Item, Field: r.Field, Reason: r.Reason}
	}
	return out
}

// importPrices saves a price list as a snapshot and, when the server can
// reload its catalog, serves the new prices from the next request on.
func (s *Server) importPrices(_ http.ResponseWriter, r *http.Request, in *ImportRequest) (ImportResponse, error) {
	if in.Format == "" || in.Content == "" {
		return ImportResponse{}, apperr.Invalidf("format", "format and content are required")
	}
	name := in.Name
	if name == "" {
		name = "upload"
	}
	opt := importer.Options{Catalog: s.st().cat, Provider: in.Provider, Now: s.now}
	if in.AsOf != "" {
		d, err := time.Parse(time.DateOnly, in.AsOf)
		if err != nil || d.After(s.now()) {
			return ImportResponse{}, apperr.Invalidf("as_of", "want a past date YYYY-MM-DD, got %q", in.AsOf)
		}
		opt.AsOf = d
	}
	res, err := importer.Parse(in.Format, strings.NewReader(in.Content), name, opt)
	if err != nil {
		return ImportResponse{}, err
	}
	if !in.AllowShrink {
		if err := store.CheckComplete(in.Format, []store.ImportFile{{Name: name, Content: []byte(in.Content)}}); err != nil {
			return ImportResponse{}, shrinkRefused(err)
		}
	}
	if len(res.Offers) == 0 {
		return ImportResponse{}, apperr.Invalidf("content", "no offer could be imported (%d rows refused)", len(res.Rejected))
	}
	st, ctx, cancel, err := s.storeCtx(r)
	if err != nil {
		return ImportResponse{}, err
	}
	defer cancel()
	info, err := st.SaveSnapshot(ctx, store.Snapshot{Source: res.Source, URL: res.URL, FetchedAt: res.FetchedAt, Offers: res.Offers,
		RefuseShrink: !in.AllowShrink, ReplaceModes: in.ReplaceModes})
	if err != nil {
		return ImportResponse{}, shrinkRefused(err)
	}
	out := ImportResponse{Snapshot: info, Offers: len(res.Offers), Rejected: rejectsJSON(res.Rejected)}
	if out.Carried = info.Carried; out.Carried == nil {
		out.Carried = []store.Carried{}
	}
	if s.cfg.Reload != nil {
		c, err := s.cfg.Reload()
		if err != nil {
			return out, err
		}
		s.base.Store(c)
		s.applyPrices()
		out.Reloaded = true
	}
	return out, nil
}

// shrinkRefused says how to import content refused as cut short.
func shrinkRefused(err error) error {
	if !errors.Is(err, store.ErrTruncated) {
		return err
	}
	return &apperr.Error{Code: apperr.Invalid, Field: "content",
		Msg: err.Error() + `; send "allow_shrink": true if it really is that short (nothing was imported)`}
}

// PricesRequest sets the team's negotiated prices (a --prices overlay in
// YAML or JSON) for every request until it is replaced. With a store they
// are kept there, so that every replica sharing the database and a
// restarted server serve them; without one, until the server stops.
type PricesRequest struct {
	Overlay string `json:"overlay"`
}

// PricesResponse says how many offers carry a negotiated price.
type PricesResponse struct {
	Rules        int `json:"rules"`
	OffersPriced int `json:"offers_priced"`
	// Version is the stored overlay's version, one more per change; 0
	// without a store.
	Version int64 `json:"version"`
}

func (s *Server) setPrices(_ http.ResponseWriter, r *http.Request, in *PricesRequest) (PricesResponse, error) {
	ov, err := catalog.ParseOverlay([]byte(in.Overlay))
	if err != nil {
		return PricesResponse{}, apperr.InFile(err, "overlay")
	}
	if _, err := s.base.Load().WithPrices(ov); err != nil {
		return PricesResponse{}, err
	}
	version, err := s.storePrices(r, in.Overlay)
	if err != nil {
		return PricesResponse{}, err
	}
	s.usePrices(ov, version)
	n := 0
	for _, o := range s.st().cat.Offers {
		if o.HasOwnPrices() {
			n++
		}
	}
	return PricesResponse{Rules: len(ov.Rules), OffersPriced: n, Version: version}, nil
}

func (s *Server) clearPrices(_ http.ResponseWriter, r *http.Request, _ *noBody) (PricesResponse, error) {
	version, err := s.storePrices(r, "")
	if err != nil {
		return PricesResponse{}, err
	}
	s.usePrices(nil, version)
	return PricesResponse{Version: version}, nil
}

// storePrices records the overlay's text in the store, when there is one
// that keeps overlays, and returns its version (0: not stored).
func (s *Server) storePrices(r *http.Request, text string) (int64, error) {
	po, ok := s.store.(store.PriceOverlays)
	if !ok {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), contextTimeout)
	defer cancel()
	o, err := po.PutPriceOverlay(ctx, text)
	return o.Version, err
}

// overlaySync is what a server knows of the stored overlay: the version it
// serves, and a lock that keeps two changes from applying out of order.
type overlaySync struct {
	mu      sync.Mutex
	version atomic.Int64
}

// overlaySyncs holds each server's overlaySync, keyed weakly so that a
// closed and dropped server is not kept alive. (It belongs in Server; it
// lives here while this file is the only one of the server that knows the
// stored overlay.)
var overlaySyncs sync.Map // weak.Pointer[Server] -> *overlaySync

func (s *Server) overlaySync() *overlaySync {
	k := weak.Make(s)
	if v, ok := overlaySyncs.Load(k); ok {
		return v.(*overlaySync)
	}
	v, loaded := overlaySyncs.LoadOrStore(k, &overlaySync{})
	if !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[Server]) { overlaySyncs.Delete(k) }, k)
	}
	return v.(*overlaySync)
}

// usePrices serves ov (nil: no negotiated prices), stored as version (0:
// not stored), unless a newer stored version is served already.
func (s *Server) usePrices(ov *catalog.Overlay, version int64) {
	seen := s.overlaySync()
	seen.mu.Lock()
	defer seen.mu.Unlock()
	if version != 0 && version < seen.version.Load() {
		return
	}
	s.overlay.Store(ov)
	s.applyPrices()
	seen.version.Store(version)
}

// syncPrices serves the overlay in the store when its version is not the
// one this server serves: set through another replica, or before a
// restart. When nothing changed it costs one read of the version. The
// server calls it at start and before each request; an overlay the
// catalog no longer takes is logged and skipped (the server keeps what it
// serves).
func (s *Server) syncPrices(ctx context.Context) error {
	po, ok := s.store.(store.PriceOverlays)
	if !ok {
		return nil
	}
	seen := s.overlaySync()
	v, err := po.PriceOverlayVersion(ctx)
	if err != nil || v == seen.version.Load() {
		return err
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	o, err := po.PriceOverlay(ctx)
	if err != nil || o.Version == seen.version.Load() {
		return err
	}
	var ov *catalog.Overlay
	if o.Text != "" {
		ov, err = catalog.ParseOverlay([]byte(o.Text))
		if err == nil {
			_, err = s.base.Load().WithPrices(ov)
		}
		if err != nil {
			s.log.WarnContext(ctx, "stored price overlay skipped", "version", o.Version, "err", err.Error())
			seen.version.Store(o.Version) // not again on every request
			return nil
		}
	}
	s.overlay.Store(ov)
	s.applyPrices()
	seen.version.Store(o.Version)
	return nil
}

// applyPrices serves the base catalog with the current overlay.
func (s *Server) applyPrices() {
	c := s.base.Load()
	if ov := s.overlay.Load(); ov != nil {
		if priced, err := c.WithPrices(ov); err == nil {
			c = priced
		}
	}
	s.setCatalog(c)
}
