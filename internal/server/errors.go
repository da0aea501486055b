package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/report"
)

// HTTP-only error codes, next to apperr's.
const (
	codeUnauthorized = "unauthorized"
	codeTooLarge     = "too_large"
	codeRateLimited  = "rate_limited"
	codeMethod       = "method_not_allowed"
	codeMediaType    = "unsupported_media_type"
	codeCrossOrigin  = "cross_origin"
	codeMisdirected  = "misdirected"
)

// ErrorJSON is the one shape of every error response: {"error": {...}}.
type ErrorJSON struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody says what went wrong: a code from apperr (invalid, not_found,
// empty, unavailable, internal) or the HTTP layer (unauthorized, too_large,
// rate_limited, method_not_allowed, unsupported_media_type, cross_origin,
// misdirected), a message, and for input errors the field and line.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Line    int    `json:"line,omitempty"`
	// Errors lists every problem when the input had several (a workload
	// with many bad fields); the first is repeated above.
	Errors []FieldError `json:"errors,omitempty"`
}

// FieldError is one problem in the input.
type FieldError struct {
	Field   string `json:"field,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// httpError is an error raised by the HTTP layer itself.
type httpError struct {
	status int
	body   ErrorBody
}

func (e *httpError) Error() string { return e.body.Message }

// statusOf is the one place where error codes become HTTP statuses.
func statusOf(code string) int {
	switch code {
	case string(apperr.Invalid):
		return http.StatusBadRequest
	case string(apperr.NotFound):
		return http.StatusNotFound
	case string(apperr.Empty):
		// Understood, but nothing qualifies. Endpoints that can show an
		// empty result (listings, recommend, check) answer 200 with it;
		// those that cannot answer 422.
		return http.StatusUnprocessableEntity
	case string(apperr.Unavailable):
		return http.StatusServiceUnavailable
	case codeUnauthorized:
		return http.StatusUnauthorized
	case codeTooLarge:
		return http.StatusRequestEntityTooLarge
	case codeRateLimited:
		return http.StatusTooManyRequests
	case codeMethod:
		return http.StatusMethodNotAllowed
	case codeMediaType:
		return http.StatusUnsupportedMediaType
	case codeCrossOrigin:
		return http.StatusForbidden
	case codeMisdirected:
		return http.StatusMisdirectedRequest
	default:
		return http.StatusInternalServerError
	}
}

// errorBody turns any error into the response body. Internal errors keep
// their message out of the response (it is logged): it may name files or
// queries.
func errorBody(err error) ErrorBody { return errorBodyIn(err, report.English) }

// errorBodyIn is errorBody with its sentences in l.
func errorBodyIn(err error, lang report.Lang) ErrorBody {
	var he *httpError
	if errors.As(err, &he) {
		return he.body
	}
	var l apperr.List
	if errors.As(err, &l) && len(l) > 0 {
		b := fromAppErr(l[0], lang)
		if len(l) > 1 {
			for _, e := range l {
				b.Errors = append(b.Errors, FieldError{Field: e.Field, Line: e.Line, Message: report.ErrorMsg(lang, e)})
			}
			b.Message = report.Render(lang, msg.New("%d problems; first: %s", len(l), msg.Text(b.Message)))
		}
		return b
	}
	var ae *apperr.Error
	if errors.As(err, &ae) {
		b := fromAppErr(ae, lang)
		if ae.Code != apperr.Internal {
			b.Message = report.ErrorText(lang, err) // the whole chain: wrapped context helps the user
		}
		return b
	}
	return ErrorBody{Code: string(apperr.Internal), Message: "internal error (logged; please report it)"}
}

func fromAppErr(e *apperr.Error, lang report.Lang) ErrorBody {
	if e.Code == apperr.Internal {
		return ErrorBody{Code: string(apperr.Internal), Message: "internal error (logged; please report it)"}
	}
	// The file name is the server's choice ("workload"), not the user's.
	text := report.ErrorText(lang, e)
	if e.File != "" {
		text = strings.TrimPrefix(text, e.File+": ")
	}
	return ErrorBody{Code: string(e.Code), Message: text, Field: firstField(e), Line: firstLine(e)}
}

// firstField finds the innermost field named in an error chain.
func firstField(e *apperr.Error) string {
	for e != nil {
		if e.Field != "" {
			return e.Field
		}
		var next *apperr.Error
		if !errors.As(e.Err, &next) {
			var l apperr.List
			if errors.As(e.Err, &l) && len(l) > 0 {
				return l[0].Field
			}
			return ""
		}
		e = next
	}
	return ""
}

func firstLine(e *apperr.Error) int {
	for e != nil {
		if e.Line > 0 {
			return e.Line
		}
		var next *apperr.Error
		if !errors.As(e.Err, &next) {
			return 0
		}
		e = next
	}
	return 0
}

func badRequest(field, format string, args ...any) error {
	return apperr.Invalidf(field, format, args...)
}

// writeError writes err in the one error shape, logging internal errors.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	b := translateBody(errorBody(err), err)
	status := statusOf(b.Code)
	var he *httpError
	if errors.As(err, &he) {
		status = he.status
	}
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err.Error())
	}
	s.writeJSON(w, r, status, ErrorJSON{Error: b})
}

// encodeFailed is the body of a response whose value JSON cannot hold.
var encodeFailed = ErrorJSON{Error: ErrorBody{Code: string(apperr.Internal),
	Message: "internal error: the answer could not be written as JSON (logged; please report it)"}}

// writeJSON writes v as JSON with the status. It encodes into a buffer
// before writing anything, so a value JSON cannot hold (a NaN or an
// infinite float, a channel) is logged and answered 500 with an error body,
// never 200 with an empty or cut-off one.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	buf.Reset()
	// The same document as the CLI's -o json, without the indentation: on a
	// recommendation it costs a fifth of the server's time.
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		s.log.ErrorContext(r.Context(), "encode response", "method", r.Method, "path", r.URL.Path, "status", status, "err", err.Error())
		buf.Reset()
		_ = json.NewEncoder(buf).Encode(encodeFailed) // plain strings: cannot fail
		status = http.StatusInternalServerError
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// jsonBuffers keeps response buffers between requests: a recommendation is
// tens of kilobytes, written many times a second under load.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putJSONBuffer(b *bytes.Buffer) {
	if b.Cap() <= 4<<20 { // a rare huge answer is not kept
		jsonBuffers.Put(b)
	}
}
