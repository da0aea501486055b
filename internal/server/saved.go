package server

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/store"
	"github.com/gpupick/gpupick/internal/workload"
)

// SaveRequest is the body of POST /api/v1/workloads and /api/v1/reports.
type SaveRequest struct {
	Name string `json:"name"`
	// Body is the document: a workload's YAML or JSON text, or a report
	// (any text, usually the JSON of a recommendation).
	Body string `json:"body"`
}

// DocumentJSON is a saved workload or report; listings leave Body out.
type DocumentJSON struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	Size    int       `json:"size_bytes"`
	Body    *string   `json:"body,omitempty"`
}

// Deleted answers a DELETE.
type Deleted struct {
	ID      int64 `json:"id"`
	Deleted bool  `json:"deleted"`
}

func docJSON(d store.Document, withBody bool) DocumentJSON {
	j := DocumentJSON{ID: d.ID, Name: d.Name, Created: d.Created, Size: d.Size}
	if withBody {
		b := string(d.Body)
		j.Body = &b
	}
	return j
}

// documents are the four operations on one kind of saved document.
type documents struct {
	s      *Server
	kind   string
	check  func(body string) error
	save   func(store.Store, context.Context, store.Document) (store.Document, error)
	get    func(store.Store, context.Context, int64) (store.Document, error)
	list   func(store.Store, context.Context) ([]store.Document, error)
	delete func(store.Store, context.Context, int64) error
}

func (s *Server) workloadDocs() *documents {
	return &documents{s: s, kind: "workload",
		check: func(body string) error {
			_, err := workload.Parse([]byte(body), "workload")
			return err
		},
		save:   store.Store.SaveWorkload,
		get:    store.Store.GetWorkload,
		list:   store.Store.ListWorkloads,
		delete: store.Store.DeleteWorkload,
	}
}

func (s *Server) reportDocs() *documents {
	return &documents{s: s, kind: "report",
		check:  func(string) error { return nil },
		save:   store.Store.SaveReport,
		get:    store.Store.GetReport,
		list:   store.Store.ListReports,
		delete: store.Store.DeleteReport,
	}
}

func (d *documents) create(_ http.ResponseWriter, r *http.Request, in *SaveRequest) (DocumentJSON, error) {
	if strings.TrimSpace(in.Name) == "" {
		return DocumentJSON{}, apperr.Invalidf("name", "a %s needs a name", d.kind)
	}
	if err := d.check(in.Body); err != nil {
		return DocumentJSON{}, err
	}
	st, ctx, cancel, err := d.s.storeCtx(r)
	if err != nil {
		return DocumentJSON{}, err
	}
	defer cancel()
	doc, err := d.save(st, ctx, store.Document{Name: in.Name, Body: []byte(in.Body)})
	if err != nil {
		return DocumentJSON{}, err
	}
	return docJSON(doc, false), nil
}

func (d *documents) listAll(_ http.ResponseWriter, r *http.Request, _ *noBody) ([]DocumentJSON, error) {
	st, ctx, cancel, err := d.s.storeCtx(r)
	if err != nil {
		return nil, err
	}
	defer cancel()
	docs, err := d.list(st, ctx)
	if err != nil {
		return nil, err
	}
	out := make([]DocumentJSON, len(docs))
	for i, doc := range docs {
		out[i] = docJSON(doc, false)
	}
	return out, nil
}

func (d *documents) getOne(_ http.ResponseWriter, r *http.Request, _ *noBody) (DocumentJSON, error) {
	id, err := pathID(r)
	if err != nil {
		return DocumentJSON{}, err
	}
	st, ctx, cancel, err := d.s.storeCtx(r)
	if err != nil {
		return DocumentJSON{}, err
	}
	defer cancel()
	doc, err := d.get(st, ctx, id)
	if err != nil {
		return DocumentJSON{}, err
	}
	return docJSON(doc, true), nil
}

func (d *documents) deleteOne(_ http.ResponseWriter, r *http.Request, _ *noBody) (Deleted, error) {
	id, err := pathID(r)
	if err != nil {
		return Deleted{}, err
	}
	st, ctx, cancel, err := d.s.storeCtx(r)
	if err != nil {
		return Deleted{}, err
	}
	defer cancel()
	if err := d.delete(st, ctx, id); err != nil {
		return Deleted{}, err
	}
	return Deleted{ID: id, Deleted: true}, nil
}

func pathID(r *http.Request) (int64, error) {
	v := r.PathValue("id")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.Invalidf("id", "want a positive whole number, got %q", v)
	}
	return id, nil
}
