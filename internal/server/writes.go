package server

import (
	"net/http"
	"strings"
	"time"

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
}

// ImportResponse is the snapshot the import saved and what it refused.
type ImportResponse struct {
	Snapshot store.SnapshotInfo `json:"snapshot"`
	Offers   int                `json:"offers"`
	Rejected []RejectJSON       `json:"rejected"`
	Reloaded bool               `json:"reloaded"` // the served catalog now uses the new prices
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
	if len(res.Offers) == 0 {
		return ImportResponse{}, apperr.Invalidf("content", "no offer could be imported (%d rows refused)", len(res.Rejected))
	}
	st, ctx, cancel, err := s.storeCtx(r)
	if err != nil {
		return ImportResponse{}, err
	}
	defer cancel()
	info, err := st.SaveSnapshot(ctx, store.Snapshot{Source: res.Source, URL: res.URL, FetchedAt: res.FetchedAt, Offers: res.Offers})
	if err != nil {
		return ImportResponse{}, err
	}
	out := ImportResponse{Snapshot: info, Offers: len(res.Offers), Rejected: rejectsJSON(res.Rejected)}
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

// PricesRequest sets the team's negotiated prices (a --prices overlay in
// YAML or JSON) for every request until it is replaced or the server stops.
type PricesRequest struct {
	Overlay string `json:"overlay"`
}

// PricesResponse says how many offers carry a negotiated price.
type PricesResponse struct {
	Rules        int `json:"rules"`
	OffersPriced int `json:"offers_priced"`
}

func (s *Server) setPrices(_ http.ResponseWriter, _ *http.Request, in *PricesRequest) (PricesResponse, error) {
	ov, err := catalog.ParseOverlay([]byte(in.Overlay))
	if err != nil {
		return PricesResponse{}, apperr.InFile(err, "overlay")
	}
	if _, err := s.base.Load().WithPrices(ov); err != nil {
		return PricesResponse{}, err
	}
	s.overlay.Store(ov)
	s.applyPrices()
	n := 0
	for _, o := range s.st().cat.Offers {
		if o.HasOwnPrices() {
			n++
		}
	}
	return PricesResponse{Rules: len(ov.Rules), OffersPriced: n}, nil
}

func (s *Server) clearPrices(_ http.ResponseWriter, _ *http.Request, _ *noBody) (PricesResponse, error) {
	s.overlay.Store(nil)
	s.applyPrices()
	return PricesResponse{}, nil
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
