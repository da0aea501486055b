package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

// noBody is the request type of endpoints without a body.
type noBody struct{}

// errWritten tells the endpoint that the handler wrote the response itself
// (an SVG or HTML rendering).
var errWritten = errors.New("response written")

// route is one API operation: what the mux matches, what the OpenAPI
// document says, and the handler. The request and response types are the
// handler's own, so the document cannot drift from the code.
type route struct {
	method, path, summary, tag string
	in, out                    reflect.Type
	params                     []param
	auth                       bool
	status                     int
	alt                        []string // other response content types
	// call decodes the request and runs the handler; the endpoint writes
	// what it returns.
	call func(w http.ResponseWriter, r *http.Request) (any, error)
}

// param is a query parameter.
type param struct {
	name, typ, doc string
}

// op declares an operation whose handler decodes In (unless it is noBody)
// and answers Out as JSON.
func op[In, Out any](method, path, tag, summary string, h func(http.ResponseWriter, *http.Request, *In) (Out, error)) *route {
	rt := &route{method: method, path: path, tag: tag, summary: summary, status: http.StatusOK,
		in: reflect.TypeFor[In](), out: reflect.TypeFor[Out]()}
	rt.call = func(w http.ResponseWriter, r *http.Request) (any, error) {
		in := new(In)
		if rt.in != reflect.TypeFor[noBody]() {
			if err := decodeJSON(w, r, in); err != nil {
				return nil, err
			}
		}
		// A bad lang is refused before any work; a good one also sets the
		// language of the error messages.
		lang := report.English
		if lr, ok := any(in).(langRequest); ok {
			l, err := parseLang(lr.language())
			if err != nil {
				return nil, err
			}
			lang = l
		}
		out, err := h(w, r, in)
		if err != nil {
			return nil, localized(err, lang)
		}
		return out, nil
	}
	return rt
}

func (rt *route) query(ps ...param) *route        { rt.params = append(rt.params, ps...); return rt }
func (rt *route) withAuth() *route                { rt.auth = true; return rt }
func (rt *route) withStatus(code int) *route      { rt.status = code; return rt }
func (rt *route) produces(types ...string) *route { rt.alt = append(rt.alt, types...); return rt }

// endpoint checks the token of a write and the type of a body, then runs
// the route and writes its answer.
func (s *Server) endpoint(rt *route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rt.auth {
			if err := s.authorize(r); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		if err := requireJSON(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		// Negotiated prices another replica stored since: one version read
		// when nothing changed. A failure keeps the prices in force.
		if err := s.syncPrices(r.Context()); err != nil {
			s.log.WarnContext(r.Context(), "reading the stored prices", "err", err.Error())
		}
		out, err := rt.call(w, r)
		switch {
		case errors.Is(err, errWritten):
		case err != nil:
			s.writeError(w, r, err)
		default:
			s.writeJSON(w, r, rt.status, out)
		}
	})
}

// requireJSON refuses a POST, PUT or PATCH whose body is not declared
// application/json (parameters allowed; a charset must be UTF-8). Besides
// saying early what is wrong, it keeps out the bodies an HTML form or a
// "simple" cross-site fetch can send (text/plain, form encodings) without
// the browser first asking the server's permission.
func requireJSON(r *http.Request) error {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return nil
	}
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && mt == "application/json" {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	got := fmt.Sprintf("%q", ct)
	if ct == "" {
		got = "none"
	}
	return &httpError{http.StatusUnsupportedMediaType, ErrorBody{Code: codeMediaType,
		Message: "the Content-Type header must be application/json (charset utf-8 if given), got " + got}}
}

// decodeJSON reads one JSON value into v: at most MaxBodyBytes, no unknown
// fields, nothing after it.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if dec.Decode(&struct{}{}) != io.EOF {
			return badRequest("", "the body must hold one JSON object and nothing after it")
		}
		return nil
	}
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return &httpError{http.StatusRequestEntityTooLarge, ErrorBody{Code: codeTooLarge,
			Message: fmt.Sprintf("the request body is over the limit of %d bytes", MaxBodyBytes)}}
	case errors.Is(err, io.EOF):
		return badRequest("", "a JSON body is required")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("", "malformed JSON: the body ends too early")
	case errors.As(err, &syntax):
		return badRequest("", "malformed JSON at byte %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.As(err, &typ) && typ.Type == documentType:
		return badRequest(typ.Field, "want a JSON object or a string of YAML or JSON text, got %s", typ.Value)
	case errors.As(err, &typ):
		return badRequest(typ.Field, "want a JSON %s, got %s", typ.Type.Kind(), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return badRequest(name, "unknown field %q", name)
	}
	return badRequest("", "cannot read the body: %v", err)
}

// HashToken is how tokens are kept: "sha256:" and the hex digest.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// NewToken returns a random API token (shown to its owner once) and the
// hash to store.
func NewToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", apperr.Wrap(apperr.Internal, "random token", err)
	}
	token = "gpk_" + base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

var errUnauthorized = &httpError{http.StatusUnauthorized, ErrorBody{Code: codeUnauthorized,
	Message: "this operation needs an API token: send Authorization: Bearer TOKEN (gpupick token create makes one)"}}

// authorize checks the bearer token of a write against the store.
func (s *Server) authorize(r *http.Request) error {
	if s.store == nil {
		return errNoStore
	}
	tk, ok := s.store.(store.Tokens)
	if !ok {
		return errUnauthorized
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || strings.TrimSpace(token) == "" {
		return errUnauthorized
	}
	ctx, cancel := context.WithTimeout(r.Context(), contextTimeout)
	defer cancel()
	found, err := tk.CheckToken(ctx, HashToken(strings.TrimSpace(token)))
	if err != nil {
		return err
	}
	if !found {
		return &httpError{http.StatusUnauthorized, ErrorBody{Code: codeUnauthorized, Message: "unknown API token"}}
	}
	return nil
}

var errNoStore = apperr.NotFoundf("", "this server has no store: start gpupick serve with --db to save documents and read catalog history")
