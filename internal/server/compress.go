package server

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
)

// gzipMinBytes is the smallest response worth compressing: below about one
// network packet, gzip's header and CPU cost more than the bytes it saves
// (an error, /healthz, a job's status).
const gzipMinBytes = 1400

// compressible are the content types compress shrinks: text. Images other
// than SVG, and anything already compressed, are left alone.
var compressible = map[string]bool{
	"application/json": true, "text/html": true, "text/css": true, "text/javascript": true,
	"application/javascript": true, "image/svg+xml": true, "text/plain": true, "text/csv": true,
	"text/markdown": true, "application/yaml": true, "text/yaml": true,
}

// gzipWriters keeps compressors between responses: each holds some
// hundreds of kilobytes of state.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed) // the level is valid
	return w
}}

// compress gzips the responses of clients that accept it, when they are
// text of at least gzipMinBytes: a recommendation's JSON (about 1 MB with
// its exclusions) shrinks twentyfold for some 3 ms of a core, the page's
// script fourfold. Ranges, HEAD and responses that set their own
// Content-Encoding pass as they are, and so does everything for a client
// on this machine (the loopback peer, or the client a trusted proxy names):
// there the bytes cost nothing to move, and compressing would only spend
// the CPU that recommendations need (a proxy on the same machine that
// serves remote clients compresses for them, or names them in
// X-Forwarded-For).
func (s *Server) compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !acceptsGzip(r.Header.Get("Accept-Encoding")) || r.Method == http.MethodHead || r.Header.Get("Range") != "" ||
			s.localClient(r) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		next.ServeHTTP(gw, r)
		gw.finish()
	})
}

// localClient reports whether r comes from this machine.
func (s *Server) localClient(r *http.Request) bool {
	a, err := netip.ParseAddr(s.clientIP(r))
	return err == nil && a.IsLoopback()
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) without q=0.
func acceptsGzip(h string) bool {
	for _, part := range strings.Split(h, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}

// gzipWriter holds a response back until it knows whether to compress it:
// at the first write when the handler declared its length, else once
// gzipMinBytes are buffered or the handler returns.
type gzipWriter struct {
	http.ResponseWriter
	status  int    // as the handler wrote it; 0 until then
	buf     []byte // held until decided
	decided bool
	gz      *gzip.Writer // nil: passing through
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.status != 0 {
		return
	}
	g.status = code
	if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified || code == http.StatusPartialContent {
		g.decide(false)
	}
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if g.status == 0 {
		g.WriteHeader(http.StatusOK)
	}
	if !g.decided {
		h := g.Header()
		switch {
		case h.Get("Content-Encoding") != "" || !compressible[mediaType(h.Get("Content-Type"))]:
			g.decide(false)
		case h.Get("Content-Length") != "":
			n, _ := strconv.Atoi(h.Get("Content-Length"))
			g.decide(n >= gzipMinBytes)
		default:
			g.buf = append(g.buf, b...)
			if len(g.buf) < gzipMinBytes {
				return len(b), nil
			}
			g.decide(true)
			return len(b), g.flushBuf()
		}
	}
	if g.gz != nil {
		return g.gz.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

// decide sends the header, compressed or not.
func (g *gzipWriter) decide(zip bool) {
	if g.decided {
		return
	}
	g.decided = true
	if g.status == 0 {
		g.status = http.StatusOK
	}
	if zip {
		h := g.Header()
		h.Set("Content-Encoding", "gzip")
		h.Del("Content-Length")
		// The compressed bytes are another representation: a strong
		// validator of the plain ones would be wrong for them.
		if et := h.Get("ETag"); et != "" && !strings.HasPrefix(et, "W/") {
			h.Set("ETag", "W/"+et)
		}
		g.gz = gzipWriters.Get().(*gzip.Writer)
		g.gz.Reset(g.ResponseWriter)
	}
	g.ResponseWriter.WriteHeader(g.status)
}

func (g *gzipWriter) flushBuf() error {
	if len(g.buf) == 0 {
		return nil
	}
	var err error
	if g.gz != nil {
		_, err = g.gz.Write(g.buf)
	} else {
		_, err = g.ResponseWriter.Write(g.buf)
	}
	g.buf = nil
	return err
}

// finish writes what is held back and ends the compressed stream.
func (g *gzipWriter) finish() {
	if !g.decided {
		if g.status == 0 && len(g.buf) == 0 {
			return // the handler wrote nothing: net/http sends its 200
		}
		if g.Header().Get("Content-Length") == "" {
			g.Header().Set("Content-Length", strconv.Itoa(len(g.buf)))
		}
		g.decide(false)
	}
	_ = g.flushBuf()
	if g.gz != nil {
		_ = g.gz.Close()
		g.gz.Reset(io.Discard)
		gzipWriters.Put(g.gz)
		g.gz = nil
	}
}

// Flush sends what is held back, deciding now if it must.
func (g *gzipWriter) Flush() {
	if !g.decided {
		g.decide(len(g.buf) >= gzipMinBytes && compressible[mediaType(g.Header().Get("Content-Type"))] &&
			g.Header().Get("Content-Encoding") == "")
	}
	_ = g.flushBuf()
	if g.gz != nil {
		_ = g.gz.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return mt
}
