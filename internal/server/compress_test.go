package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// get sends a request with headers to h.
func get(t *testing.T, h http.Handler, method, path, body string, headers map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, local+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestCompression: large text answers are gzipped for clients that take
// it, and mean the same; small ones, other clients, ranges and HEAD are
// not; the security headers stay.
func TestCompression(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	gz := map[string]string{"Accept-Encoding": "gzip, deflate, br"}
	rec := jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})

	plain := get(t, h, "POST", "/api/v1/recommend", rec, nil)
	zipped := get(t, h, "POST", "/api/v1/recommend", rec, gz)
	if plain.Code != 200 || zipped.Code != 200 {
		t.Fatalf("recommend: %d, %d", plain.Code, zipped.Code)
	}
	if plain.Header().Get("Content-Encoding") != "" {
		t.Error("compressed for a client that did not ask")
	}
	if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Header().Get("Content-Length") != "" {
		t.Fatalf("recommend with Accept-Encoding gzip: encoding %q, length %q", zipped.Header().Get("Content-Encoding"), zipped.Header().Get("Content-Length"))
	}
	if got := gunzip(t, zipped.Body.Bytes()); got != plain.Body.String() {
		t.Error("the gzipped recommendation differs from the plain one")
	}
	if zipped.Body.Len()*3 > plain.Body.Len() {
		t.Errorf("gzip saved little: %d of %d bytes", zipped.Body.Len(), plain.Body.Len())
	}
	for _, w := range []*httptest.ResponseRecorder{plain, zipped} {
		if !strings.Contains(w.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("no Vary: Accept-Encoding: %v", w.Header())
		}
	}

	page := get(t, h, "GET", "/", "", gz)
	if page.Code != 200 || page.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("page: %d, encoding %q", page.Code, page.Header().Get("Content-Encoding"))
	}
	for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
		if page.Header().Get(k) == "" {
			t.Errorf("page lost %s", k)
		}
	}
	if !strings.Contains(gunzip(t, page.Body.Bytes()), "<html") {
		t.Error("the gzipped page is no HTML")
	}

	for _, tc := range []struct {
		name, method, path string
		headers            map[string]string
	}{
		{"small", "GET", "/healthz", gz},
		{"q=0", "GET", "/", map[string]string{"Accept-Encoding": "gzip;q=0, identity"}},
		{"range", "GET", "/app.js", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-99"}},
		{"head", "HEAD", "/", gz},
		{"small error", "GET", "/api/v1/nothing", gz},
	} {
		w := get(t, h, tc.method, tc.path, "", tc.headers)
		if w.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: compressed (%d)", tc.name, w.Code)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "deflate, gzip;q=0.5": true, "gzip;q=0": false, "*": true,
		"br": false, "identity": false, "gzip ; q=0.0": false, "x-gzip": false,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestCompressionWriter: the writer's decisions on its own: by declared
// length, by buffered size, and a strong ETag made weak when compressed.
func TestCompressionWriter(t *testing.T) {
	big := strings.Repeat("gpupick ", gzipMinBytes)
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		zipped  bool
	}{
		{"declared small", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "2")
			w.Write([]byte("{}"))
		}, false},
		{"streamed big", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/css")
			w.Header().Set("ETag", `"abc"`)
			for range 8 {
				w.Write([]byte(big[:len(big)/8]))
			}
		}, true},
		{"binary", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte(big))
		}, false},
		{"not modified", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotModified)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := get(t, (&Server{}).compress(tc.handler), "GET", "/", "", map[string]string{"Accept-Encoding": "gzip"})
			if got := w.Header().Get("Content-Encoding") == "gzip"; got != tc.zipped {
				t.Fatalf("compressed %v, want %v", got, tc.zipped)
			}
			if tc.zipped {
				if gunzip(t, w.Body.Bytes()) != big[:len(big)/8*8] {
					t.Error("the body changed")
				}
				if w.Header().Get("ETag") != `W/"abc"` {
					t.Errorf("ETag %q: a compressed body needs a weak validator", w.Header().Get("ETag"))
				}
			}
		})
	}
}

// TestStaticCaching: the page's files carry a content hash as ETag and a
// Cache-Control; a browser that has the file gets 304, compressed or not.
func TestStaticCaching(t *testing.T) {
	h := testServer(t, func(c *Config) { c.DB = "" }).Handler()
	for _, path := range []string{"/", "/app.js", "/app.css", "/favicon.svg"} {
		first := get(t, h, "GET", path, "", nil)
		tag := first.Header().Get("ETag")
		if first.Code != 200 || !strings.HasPrefix(tag, `"`) || first.Header().Get("Cache-Control") == "" {
			t.Errorf("%s: %d, ETag %q, Cache-Control %q", path, first.Code, tag, first.Header().Get("Cache-Control"))
			continue
		}
		if again := get(t, h, "GET", path, "", nil).Header().Get("ETag"); again != tag {
			t.Errorf("%s: ETag %q then %q", path, tag, again)
		}
		if w := get(t, h, "GET", path, "", map[string]string{"If-None-Match": tag}); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Errorf("%s with its ETag: %d (%d bytes), want 304", path, w.Code, w.Body.Len())
		}
		zipped := get(t, h, "GET", path, "", map[string]string{"Accept-Encoding": "gzip"})
		ztag := zipped.Header().Get("ETag")
		if zipped.Header().Get("Content-Encoding") == "gzip" && ztag != "W/"+tag {
			t.Errorf("%s gzipped: ETag %q, want W/%s", path, ztag, tag)
		}
		if w := get(t, h, "GET", path, "", map[string]string{"If-None-Match": ztag, "Accept-Encoding": "gzip"}); w.Code != http.StatusNotModified {
			t.Errorf("%s with its gzipped ETag: %d, want 304", path, w.Code)
		}
	}
	other := get(t, h, "GET", "/app.css", "", nil).Header().Get("ETag")
	if other == get(t, h, "GET", "/app.js", "", nil).Header().Get("ETag") {
		t.Error("two files, one ETag")
	}
}

// BenchmarkCompress is the cost compress adds to one recommendation's
// JSON (as recommend answers the LoRA example), gzipped, against the same
// answer passed through.
func BenchmarkCompress(b *testing.B) {
	s := testServer(b, func(c *Config) { c.DB = "" })
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", local+"/api/v1/recommend", strings.NewReader(jsonBody(b, RecommendRequest{Workload: Text(example(b, "llama3-8b-lora.yaml"))})))
	req.Header.Set("Content-Type", "application/json")
	s.Handler().ServeHTTP(w, req)
	body := w.Body.Bytes()
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	for _, enc := range []string{"", "gzip"} {
		b.Run("accept="+enc, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Accept-Encoding", enc)
			var out int
			for b.Loop() {
				rec := httptest.NewRecorder()
				(&Server{}).compress(h).ServeHTTP(rec, r)
				out = rec.Body.Len()
			}
			b.ReportMetric(float64(len(body)), "bytes-in")
			b.ReportMetric(float64(out), "bytes-out")
		})
	}
}

// TestCompressionNotLocal: a client on this machine gets the bytes as they
// are (moving them costs nothing; compressing costs the CPU recommendations
// need), unless a trusted proxy there names a remote client.
func TestCompressionNotLocal(t *testing.T) {
	s := testServer(t, func(c *Config) {
		c.DB = ""
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	h := s.Handler()
	for _, tc := range []struct {
		name, peer, forwarded string
		zipped                bool
	}{
		{"remote", "192.0.2.7:5000", "", true},
		{"loopback", "127.0.0.1:5000", "", false},
		{"loopback v6", "[::1]:5000", "", false},
		{"local proxy for a remote client", "127.0.0.1:5000", "198.51.100.9", true},
		{"local proxy for a local client", "127.0.0.1:5000", "127.0.0.1", false},
	} {
		req := httptest.NewRequest("GET", local+"/", nil)
		req.RemoteAddr = tc.peer
		req.Header.Set("Accept-Encoding", "gzip")
		if tc.forwarded != "" {
			req.Header.Set("X-Forwarded-For", tc.forwarded)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if got := w.Header().Get("Content-Encoding") == "gzip"; w.Code != 200 || got != tc.zipped {
			t.Errorf("%s: %d, compressed %v, want %v", tc.name, w.Code, got, tc.zipped)
		}
	}
}
