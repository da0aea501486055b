package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalogtest"
)

// send is do with the request's headers set by edit first.
func send(t testing.TB, h http.Handler, method, path, body string, edit func(*http.Request)) response {
	t.Helper()
	req := httptest.NewRequest(method, local+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if edit != nil {
		edit(req)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return response{w.Code, w.Header(), w.Body.String()}
}

// cancelJob cancels a simulation with its cancel key.
func cancelJob(t testing.TB, h http.Handler, id, key string) response {
	t.Helper()
	return send(t, h, "DELETE", "/api/v1/simulations/"+id, "", header("X-Cancel-Key", key))
}

func header(k, v string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(k, v) }
}

// TestJSONBodiesOnly: a body is read only when it is declared JSON, which
// also keeps out what an HTML form or a plain cross-site fetch can send.
func TestJSONBodiesOnly(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	token := addToken(t, s)
	validate := jsonBody(t, ValidateRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})
	for _, tt := range []struct {
		name, method, path, contentType string
		status                          int
	}{
		{"json", "POST", "/api/v1/validate", "application/json", 200},
		{"json with charset", "POST", "/api/v1/validate", "application/json; charset=UTF-8", 200},
		{"text/plain", "POST", "/api/v1/validate", "text/plain", 415},
		{"text/plain job", "POST", "/api/v1/simulations", "text/plain;charset=UTF-8", 415},
		{"form", "POST", "/api/v1/recommend", "application/x-www-form-urlencoded", 415},
		{"multipart", "POST", "/api/v1/recommend", "multipart/form-data; boundary=x", 415},
		{"none", "POST", "/api/v1/validate", "", 415},
		{"not utf-8", "POST", "/api/v1/validate", "application/json; charset=utf-16", 415},
		{"json-ish", "POST", "/api/v1/validate", "application/jsonx", 415},
		{"put prices as text", "PUT", "/api/v1/prices", "text/plain", 415},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := send(t, h, tt.method, tt.path, validate, func(r *http.Request) {
				r.Header.Set("Authorization", "Bearer "+token)
				r.Header.Del("Content-Type")
				if tt.contentType != "" {
					r.Header.Set("Content-Type", tt.contentType)
				}
			})
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status == 415 {
				if e := r.errorOf(t); e.Code != "unsupported_media_type" || !strings.Contains(e.Message, "Content-Type") || !strings.Contains(e.Message, "application/json") {
					t.Errorf("error %+v", e)
				}
			}
		})
	}
}

// TestCrossOriginWrites: a page of another origin cannot start a job or
// write (CSRF); the server's own page, allowed origins and clients that
// send no Origin (curl, the CLI) can.
func TestCrossOriginWrites(t *testing.T) {
	s := testServer(t, func(c *Config) { c.CORSOrigins = []string{"https://app.example"} })
	h := s.Handler()
	token := addToken(t, s)
	job := jsonBody(t, SimulationRequest{Service: Text(example(t, "service-target.yaml"))})
	prices := jsonBody(t, PricesRequest{Overlay: "rules:\n  - {provider: aws, instance: \"p5.*\", discount_percent: 50}\n"})
	auth := header("Authorization", "Bearer "+token)
	for _, tt := range []struct {
		name, method, path, body string
		headers                  map[string]string
		status                   int
	}{
		{"job from another origin", "POST", "/api/v1/simulations", job, map[string]string{"Origin": "https://evil.example"}, 403},
		{"job from another port", "POST", "/api/v1/simulations", job, map[string]string{"Origin": "http://127.0.0.1:3000"}, 403},
		{"job from a sandboxed frame", "POST", "/api/v1/simulations", job, map[string]string{"Origin": "null"}, 403},
		{"job cross-site, no Origin", "POST", "/api/v1/simulations", job, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"job same-site, other origin", "POST", "/api/v1/simulations", job, map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:3000"}, 403},
		{"prices from another origin", "PUT", "/api/v1/prices", prices, map[string]string{"Origin": "https://evil.example"}, 403},
		{"delete from another origin", "DELETE", "/api/v1/prices", "", map[string]string{"Origin": "https://evil.example"}, 403},
		{"recommend from another origin", "POST", "/api/v1/recommend", `{"workload": "x"}`, map[string]string{"Origin": "https://evil.example"}, 403},
		{"job from the server's page", "POST", "/api/v1/simulations", job, map[string]string{"Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-origin"}, 202},
		{"job from the server's origin, old browser", "POST", "/api/v1/simulations", job, map[string]string{"Origin": "http://127.0.0.1:8080"}, 202},
		{"job from an allowed origin", "POST", "/api/v1/simulations", job, map[string]string{"Origin": "https://app.example", "Sec-Fetch-Site": "cross-site"}, 202},
		{"job from curl", "POST", "/api/v1/simulations", job, nil, 202},
		{"prices from curl", "PUT", "/api/v1/prices", prices, nil, 200},
		{"read from another origin", "GET", "/api/v1/providers", "", map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := send(t, h, tt.method, tt.path, tt.body, func(r *http.Request) {
				auth(r)
				for k, v := range tt.headers {
					r.Header.Set(k, v)
				}
			})
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %.300s", r.status, tt.status, r.body)
			}
			if r.status == 202 {
				waitStopped(t, s) // a client runs at most two jobs at once
			}
			if tt.status == 403 {
				if e := r.errorOf(t); e.Code != "cross_origin" || !strings.Contains(e.Message, "--cors") {
					t.Errorf("error %+v", e)
				}
			}
		})
	}
	// A refused job is not started: the only jobs are the four allowed.
	m := do(t, h, "GET", "/metrics", "", "").body
	if want := `gpupick_http_requests_total{route="POST /api/v1/simulations",status="202"} 4`; !strings.Contains(m, want) {
		t.Errorf("metrics lack %s:\n%s", want, m)
	}

	anyOrigin := testServer(t, func(c *Config) { c.CORSOrigins = []string{"*"} }).Handler()
	if r := send(t, anyOrigin, "POST", "/api/v1/simulations", job, header("Origin", "https://anyone.example")); r.status != 202 {
		t.Errorf("--cors '*': %d %s", r.status, r.body)
	}
	if _, err := New(Config{Catalog: s.cfg.Catalog, Compat: s.cfg.Compat, CORSOrigins: []string{"app.example"}}); err == nil || !strings.Contains(err.Error(), "--cors") {
		t.Errorf("an origin without a scheme: %v", err)
	}
}

// TestHostCheck: the server answers the names it is reached by and
// refuses others, so that a rebound DNS name cannot reach it.
func TestHostCheck(t *testing.T) {
	loopback := testServer(t, nil).Handler() // 127.0.0.1:8080
	named := testServer(t, func(c *Config) { c.AllowedHosts = []string{"gpupick.corp.example", "Tunnel.example:9000"} }).Handler()
	public := testServer(t, func(c *Config) { c.Addr = "0.0.0.0:8080"; c.Public = true }).Handler()
	anyHost := testServer(t, func(c *Config) { c.AllowedHosts = []string{"*"} }).Handler()
	for _, tt := range []struct {
		name string
		h    http.Handler
		host string
		ok   bool
	}{
		{"127.0.0.1", loopback, "127.0.0.1:8080", true},
		{"localhost", loopback, "localhost:8080", true},
		{"LOCALHOST", loopback, "LOCALHOST:8080", true},
		{"::1", loopback, "[::1]:8080", true},
		{"rebound name", loopback, "evil.example:8080", false},
		{"rebound name, no port", loopback, "evil.example", false},
		{"loopback name, other port", loopback, "localhost:9000", false},
		{"loopback name, no port", loopback, "localhost", false},
		{"other address", loopback, "192.0.2.7:8080", false},
		{"localhost lookalike", loopback, "localhost.evil.example:8080", false},
		{"allowed name", named, "gpupick.corp.example", true},
		{"allowed name, any port", named, "gpupick.corp.example:8443", true},
		{"allowed name and port", named, "tunnel.example:9000", true},
		{"allowed name, other port", named, "tunnel.example:9001", false},
		{"allowed server, other name", named, "evil.example:8080", false},
		{"public by address", public, "192.0.2.7:8080", true},
		{"public by IPv6 address", public, "[2001:db8::1]:8080", true},
		{"public by loopback", public, "localhost:8080", true},
		{"public by a name not given", public, "gpupick.example.com", false},
		{"any host", anyHost, "whatever.example", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := send(t, tt.h, "GET", "/api/v1/providers", "", func(r *http.Request) { r.Host = tt.host })
			if tt.ok {
				if r.status != 200 {
					t.Errorf("refused: %d %s", r.status, r.body)
				}
				return
			}
			if r.status != http.StatusMisdirectedRequest {
				t.Fatalf("status %d, want 421: %.200s", r.status, r.body)
			}
			if e := r.errorOf(t); e.Code != "misdirected" || !strings.Contains(e.Message, "--allowed-host") || !strings.Contains(e.Message, tt.host) {
				t.Errorf("error %+v", e)
			}
		})
	}

	// The port is the one the connection came in on when there is one.
	for _, tt := range []struct {
		host string
		ok   bool
	}{{"127.0.0.1:5555", true}, {"localhost:5555", true}, {"127.0.0.1:8080", false}} {
		r := send(t, loopback, "GET", "/healthz", "", func(r *http.Request) {
			r.Host = tt.host
			*r = *r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5555}))
		})
		if (r.status == 200) != tt.ok {
			t.Errorf("listening on 5555, Host %s: %d", tt.host, r.status)
		}
	}

	// Through a real listener on another port than the configured one.
	ts := httptest.NewServer(loopback)
	defer ts.Close()
	if resp, err := http.Get(ts.URL + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("own address: %v %v", resp, err)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
	req.Host = "rebound.example:" + ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("rebound name through a listener: %v %v", resp, err)
	}

	for _, bad := range []string{"https://app.example", "app.example/path", "app.example:http", "app.example:0", ""} {
		if _, err := New(Config{Catalog: catalogtest.Embedded(t), Compat: testMatrix(t), AllowedHosts: []string{bad}}); err == nil || !strings.Contains(err.Error(), "--allowed-host") {
			t.Errorf("--allowed-host %q: %v", bad, err)
		}
	}
}

// TestSecurityHeaders: every response, whatever its kind, tells the browser
// not to sniff types, not to send a Referer on, and runs no inline script.
func TestSecurityHeaders(t *testing.T) {
	now := fixedNow
	s := testServer(t, func(c *Config) { c.RateLimit = 1000; c.Now = func() time.Time { return now } })
	h := s.Handler()
	rec := jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})
	for _, tt := range []struct {
		name, method, path, body string
		edit                     func(*http.Request)
		status                   int
		contentType              string
	}{
		{"json", "GET", "/api/v1/providers", "", nil, 200, "application/json"},
		{"json error", "GET", "/api/v1/nope", "", nil, 404, "application/json"},
		{"html report", "POST", "/api/v1/recommend?format=html", rec, nil, 200, "text/html"},
		{"svg chart", "POST", "/api/v1/recommend?format=svg", rec, nil, 200, "image/svg+xml"},
		{"docs", "GET", "/docs", "", nil, 200, "text/html"},
		{"docs script", "GET", "/docs.js", "", nil, 200, "text/javascript"},
		{"docs style", "GET", "/docs.css", "", nil, 200, "text/css"},
		{"openapi", "GET", "/openapi.json", "", nil, 200, "application/json"},
		{"page", "GET", "/", "", nil, 200, "text/html"},
		{"page script", "GET", "/app.js", "", nil, 200, "text/javascript"},
		{"page 404", "GET", "/nope.html", "", nil, 404, "text/html"},
		{"metrics", "GET", "/metrics", "", nil, 200, "text/plain"},
		{"healthz", "GET", "/healthz", "", nil, 200, "application/json"},
		{"405", "PUT", "/api/v1/offers", "", nil, 405, "application/json"},
		{"415", "POST", "/api/v1/validate", "x", header("Content-Type", "text/plain"), 415, "application/json"},
		{"403", "POST", "/api/v1/validate", "{}", header("Origin", "https://evil.example"), 403, "application/json"},
		{"421", "GET", "/", "", func(r *http.Request) { r.Host = "evil.example" }, 421, "application/json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := send(t, h, tt.method, tt.path, tt.body, tt.edit)
			if r.status != tt.status || !strings.HasPrefix(r.header.Get("Content-Type"), tt.contentType) {
				t.Fatalf("%d %s, want %d %s: %.200s", r.status, r.header.Get("Content-Type"), tt.status, tt.contentType, r.body)
			}
			if got := r.header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if got := r.header.Get("Referrer-Policy"); got != "no-referrer" {
				t.Errorf("Referrer-Policy %q", got)
			}
			csp := r.header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") ||
				!(strings.Contains(csp, "script-src 'self'") || strings.HasPrefix(csp, "default-src 'none'") && !strings.Contains(csp, "script-src")) {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if tt.name == "html report" {
				// Its one style element is allowed by its hash, and nothing else is.
				if !strings.Contains(r.body, "<style>") || !strings.Contains(csp, "style-src 'sha256-") || !strings.Contains(csp, "sandbox") {
					t.Errorf("report policy %q", csp)
				}
			}
		})
	}
	// The HTML pages hold no inline script or style for the policy to block.
	for _, path := range []string{"/", "/docs"} {
		body := do(t, h, "GET", path, "", "").body
		if strings.Contains(body, "<script>") || strings.Contains(body, "<style") || strings.Contains(body, " style=") || strings.Contains(body, " onclick=") {
			t.Errorf("%s has inline script or style:\n%s", path, body)
		}
	}
}

// TestMethodNotAllowed: a known path asked with a method it does not take
// is 405 with the methods it takes, not 404.
func TestMethodNotAllowed(t *testing.T) {
	h := testServer(t, nil).Handler()
	for _, tt := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"PUT", "/api/v1/offers", 405, "GET, HEAD"},
		{"POST", "/api/v1/workloads/7", 405, "GET, HEAD, DELETE"},
		{"GET", "/api/v1/prices", 405, "PUT, DELETE"},
		{"PATCH", "/api/v1/prices", 405, "PUT, DELETE"},
		{"GET", "/api/v1/recommend", 405, "POST"},
		{"OPTIONS", "/api/v1/recommend", 405, "POST"},
		{"POST", "/healthz", 405, "GET, HEAD"},
		{"DELETE", "/docs", 405, "GET, HEAD"},
		{"POST", "/", 405, "GET, HEAD"},
		{"POST", "/app.js", 405, "GET, HEAD"},
		{"POST", "/nope.html", 404, ""},
		{"POST", "/api/v1/nope", 404, ""},
		{"GET", "/api/v1/nope", 404, ""},
	} {
		r := do(t, h, tt.method, tt.path, "", "")
		if r.status != tt.status || r.header.Get("Allow") != tt.allow {
			t.Errorf("%s %s: %d Allow %q, want %d Allow %q: %s", tt.method, tt.path, r.status, r.header.Get("Allow"), tt.status, tt.allow, r.body)
			continue
		}
		want := map[int]string{405: "method_not_allowed", 404: "not_found"}[tt.status]
		if e := r.errorOf(t); e.Code != want {
			t.Errorf("%s %s: error %+v", tt.method, tt.path, e)
		}
	}
}

// TestEncodingFailureIs500: a value JSON cannot hold is a logged 500 with
// an error body, never a 200 with an empty one.
func TestEncodingFailureIs500(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	var logs bytes.Buffer
	s.log = slog.New(slog.NewJSONHandler(&logs, nil))

	w := httptest.NewRecorder()
	s.writeJSON(w, httptest.NewRequest("GET", local+"/x", nil), http.StatusOK, map[string]float64{"price": math.NaN()})
	var e ErrorJSON
	if w.Code != 500 || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error.Code != "internal" {
		t.Errorf("NaN: %d %q", w.Code, w.Body.String())
	}
	if !strings.Contains(logs.String(), "encode response") || !strings.Contains(logs.String(), "NaN") {
		t.Errorf("not logged: %s", logs.String())
	}

	// Through an endpoint, as a handler's answer.
	type answer struct {
		PerHourUSD float64 `json:"per_hour_usd"`
	}
	rt := op("GET", "/x", "test", "a NaN", func(http.ResponseWriter, *http.Request, *noBody) (answer, error) {
		return answer{PerHourUSD: math.Inf(1)}, nil
	})
	r := do(t, s.endpoint(rt), "GET", "/x", "", "")
	if r.status != 500 || !strings.Contains(r.body, `"internal"`) || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("+Inf through an endpoint: %d %q", r.status, r.body)
	}
	if ok := do(t, s.endpoint(op("GET", "/y", "test", "fine", func(http.ResponseWriter, *http.Request, *noBody) (answer, error) {
		return answer{PerHourUSD: 2.5}, nil
	})), "GET", "/y", "", ""); ok.status != 200 || ok.body != "{\"per_hour_usd\":2.5}\n" || ok.header.Get("Content-Length") != "21" {
		t.Errorf("a plain answer: %d %q %v", ok.status, ok.body, ok.header)
	}
}

// TestRefusedRequestsCountedByRoute: requests answered before the mux (rate
// limited, a refused Host) are counted under their route, not "unmatched".
func TestRefusedRequestsCountedByRoute(t *testing.T) {
	now := fixedNow
	s := testServer(t, func(c *Config) { c.RateLimit = 1; c.Now = func() time.Time { return now } })
	h := s.Handler()
	for range 3 {
		do(t, h, "GET", "/api/v1/providers", "", "")
	}
	send(t, h, "GET", "/api/v1/workloads/3", "", func(r *http.Request) { r.Host = "evil.example"; r.RemoteAddr = "192.0.2.9:1" })
	now = now.Add(time.Minute)
	m := do(t, h, "GET", "/metrics", "", "").body
	for _, want := range []string{
		`gpupick_http_requests_total{route="GET /api/v1/providers",status="200"} 2`,
		`gpupick_http_requests_total{route="GET /api/v1/providers",status="429"} 1`,
		`gpupick_http_requests_total{route="GET /api/v1/workloads/{id}",status="421"} 1`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, m)
		}
	}
	if strings.Contains(m, "unmatched") {
		t.Errorf("a request counted as unmatched:\n%s", m)
	}
}

// TestImportRejectsJSON: the rows an import refused are listed with JSON
// names (line, item, field, reason), in the response and the OpenAPI
// document.
func TestImportRejectsJSON(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	token := addToken(t, s)
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n" +
		"p5.48xlarge,H100,8,192,2048,77.77,30.1,us-east-1,us-east-1a\n" +
		"p5.48xlarge,H100,8,192,2048,lots,30.1,us-west-2,us-west-2a\n"
	r := do(t, h, "POST", "/api/v1/catalog/import", jsonBody(t, ImportRequest{Format: "skypilot", Provider: "aws", AsOf: "2026-06-03", Content: csv}), token)
	if r.status != http.StatusCreated {
		t.Fatalf("import: %d %s", r.status, r.body)
	}
	var got struct {
		Rejected []map[string]any `json:"rejected"`
	}
	if err := json.Unmarshal([]byte(r.body), &got); err != nil || len(got.Rejected) == 0 {
		t.Fatalf("rejected: %v %s", err, r.body)
	}
	rej := got.Rejected[0]
	if rej["line"] != float64(3) || rej["reason"] == nil || rej["item"] == nil || rej["Line"] != nil || rej["Reason"] != nil {
		t.Errorf("a refused row reads %v", rej)
	}
	doc := do(t, h, "GET", "/openapi.json", "", "").body
	if !strings.Contains(doc, `"RejectJSON"`) || strings.Contains(doc, `"Reason"`) {
		t.Errorf("the OpenAPI document does not name the reject's fields in JSON")
	}
}
