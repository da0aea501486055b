package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

var fixedNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func example(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func testMatrix(t testing.TB) *compat.Matrix {
	t.Helper()
	b, err := fs.ReadFile(data.FS, "compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// testServer builds a server on the embedded catalog; edit changes the
// config first. Its store, when the config names none, is a fresh SQLite
// file.
func testServer(t testing.TB, edit func(*Config)) *Server {
	t.Helper()
	cfg := Config{Catalog: catalogtest.Embedded(t), Compat: testMatrix(t), Now: func() time.Time { return fixedNow },
		DB: filepath.Join(t.TempDir(), "gpupick.db"), Logger: slog.New(slog.DiscardHandler)}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// addToken records a token in the server's store and returns it.
func addToken(t testing.TB, s *Server) string {
	t.Helper()
	token, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.store.(store.Tokens).CreateToken(context.Background(), "test", hash); err != nil {
		t.Fatal(err)
	}
	return token
}

type response struct {
	status int
	header http.Header
	body   string
}

// errorOf decodes an error response.
func (r response) errorOf(t *testing.T) ErrorBody {
	t.Helper()
	var e ErrorJSON
	if err := json.Unmarshal([]byte(r.body), &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error response (%v): %s", err, r.body)
	}
	return e.Error
}

// local is where test requests are sent: the default listening address,
// so that the Host check lets them through.
const local = "http://127.0.0.1:8080"

// do sends a request to h as a local client would: to the default
// address, with a JSON body declared as such.
func do(t testing.TB, h http.Handler, method, path, body, token string) response {
	t.Helper()
	req := httptest.NewRequest(method, local+path, strings.NewReader(body))
	if body != "" || method == "POST" || method == "PUT" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return response{w.Code, w.Header(), w.Body.String()}
}

func jsonBody(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEndpoints(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	lora := example(t, "llama3-8b-lora.yaml")
	chat := example(t, "llama3-70b-chat.yaml")
	badWorkload := strings.Replace(lora, "seq_len: 4096", "seq_len: -4", 1)
	tests := []struct {
		name, method, path string
		body               any
		status             int
		want               string // in the body
		code, field        string // of an error
	}{
		{"healthz", "GET", "/healthz", nil, 200, `"ok"`, "", ""},
		{"readyz", "GET", "/readyz", nil, 200, `"ready"`, "", ""},
		{"accelerators", "GET", "/api/v1/accelerators?vendor=nvidia&min_memory_gb=80", nil, 200, `"h100-sxm"`, "", ""},
		{"accelerators none", "GET", "/api/v1/accelerators?min_memory_gb=100000", nil, 200, `[]`, "", ""},
		{"accelerators bad vendor", "GET", "/api/v1/accelerators?vendor=acme", nil, 400, "", "invalid", "vendor"},
		{"accelerators bad memory", "GET", "/api/v1/accelerators?min_memory_gb=lots", nil, 400, "", "invalid", "min_memory_gb"},
		{"offers", "GET", "/api/v1/offers?gpu=h100-sxm:8&pricing=on-demand&sort=price-per-gpu&per_page=3", nil, 200, `"per_page": 3`, "", ""},
		{"offers by provider", "GET", "/api/v1/offers?provider=aws,lambda&country=US", nil, 200, `"items"`, "", ""},
		{"offers unknown gpu", "GET", "/api/v1/offers?gpu=z9000", nil, 400, "", "invalid", "gpu"},
		{"offers unknown provider", "GET", "/api/v1/offers?provider=acme", nil, 400, "", "invalid", "provider"},
		{"offers bad page", "GET", "/api/v1/offers?page=0", nil, 400, "", "invalid", "page"},
		{"offers bad sort", "GET", "/api/v1/offers?sort=vibes", nil, 400, "", "invalid", "sort"},
		{"offers bad pricing", "GET", "/api/v1/offers?pricing=free", nil, 400, "", "invalid", "pricing"},
		{"providers", "GET", "/api/v1/providers", nil, 200, `"aws"`, "", ""},
		{"validate ok", "POST", "/api/v1/validate", ValidateRequest{Workload: Text(lora)}, 200, `"ok": true`, "", ""},
		{"validate bad", "POST", "/api/v1/validate", ValidateRequest{Workload: Text(badWorkload)}, 200, `"field": "training.seq_len"`, "", ""},
		{"predict", "POST", "/api/v1/predict", PredictRequest{Workload: Text(lora), GPU: "h100-sxm", GPUs: 8}, 200, `"throughput"`, "", ""},
		{"predict on offer", "POST", "/api/v1/predict", PredictRequest{Workload: Text(lora), Offer: "aws/p5.48xlarge"}, 200, `"throughput"`, "", ""},
		{"predict no gpu", "POST", "/api/v1/predict", PredictRequest{Workload: Text(lora)}, 400, "", "invalid", "gpu"},
		{"predict unknown gpu", "POST", "/api/v1/predict", PredictRequest{Workload: Text(lora), GPU: "z9000"}, 404, "", "not_found", "gpu"},
		{"predict bad workload", "POST", "/api/v1/predict", PredictRequest{Workload: Text(badWorkload), GPU: "h100-sxm"}, 400, `"line": 14`, "invalid", "training.seq_len"},
		{"predict no workload", "POST", "/api/v1/predict", PredictRequest{GPU: "h100-sxm"}, 400, "", "invalid", "workload"},
		{"recommend", "POST", "/api/v1/recommend", RecommendRequest{Workload: Text(lora), Pricing: []string{"on-demand"}}, 200, `"candidates"`, "", ""},
		{"recommend bad objective", "POST", "/api/v1/recommend", RecommendRequest{Workload: Text(lora), Objective: "vibes"}, 400, "", "invalid", "objective"},
		{"recommend bad pricing", "POST", "/api/v1/recommend", RecommendRequest{Workload: Text(lora), Pricing: []string{"free"}}, 400, "", "invalid", "pricing"},
		{"recommend bad format", "POST", "/api/v1/recommend?format=pdf", RecommendRequest{Workload: Text(lora)}, 400, "", "invalid", "format"},
		{"recommend malformed", "POST", "/api/v1/recommend", `{"workload": `, 400, "malformed JSON", "invalid", ""},
		{"recommend syntax", "POST", "/api/v1/recommend", `{"workload" "x"}`, 400, "malformed JSON at byte", "invalid", ""},
		{"recommend unknown field", "POST", "/api/v1/recommend", `{"workload": "x", "budget": 3}`, 400, "", "invalid", "budget"},
		{"recommend wrong type", "POST", "/api/v1/recommend", `{"workload": 3}`, 400, "", "invalid", "workload"},
		{"recommend two values", "POST", "/api/v1/recommend", `{"workload": "x"} {}`, 400, "one JSON object", "invalid", ""},
		{"recommend empty body", "POST", "/api/v1/recommend", ``, 400, "body is required", "invalid", ""},
		{"explain", "POST", "/api/v1/explain", ExplainRequest{Workload: Text(lora), Offer: "aws/p5.48xlarge"}, 200, `"text"`, "", ""},
		{"explain unknown", "POST", "/api/v1/explain", ExplainRequest{Workload: Text(lora), Offer: "acme/big"}, 404, "", "not_found", "offer"},
		{"check", "POST", "/api/v1/check", CheckRequest{Workload: Text(chat), Offer: "aws/p5.48xlarge"}, 200, `"compat"`, "", ""},
		{"check gpu", "POST", "/api/v1/check", CheckRequest{Workload: Text(lora), GPU: "mi300x"}, 200, `"compat"`, "", ""},
		{"check bad region", "POST", "/api/v1/check", CheckRequest{Workload: Text(chat), Offer: "aws/p5.48xlarge", Region: "mars-1"}, 404, "", "not_found", "region"},
		{"cost", "POST", "/api/v1/cost", CostRequest{Workload: Text(lora), Offer: "aws/p5.48xlarge"}, 200, `"cost_notes"`, "", ""},
		{"cost bad gpus", "POST", "/api/v1/cost", CostRequest{Workload: Text(lora), Offer: "aws/p5.48xlarge", GPUs: 3}, 400, "", "invalid", "gpus"},
		{"cost no offer", "POST", "/api/v1/cost", CostRequest{Workload: Text(lora)}, 400, "", "invalid", "offer"},
		// The lora's best offer may be on a cloud SkyPilot lacks: then only
		// other families' tasks (skypilot-<family>.yaml) are written.
		{"export skypilot", "POST", "/api/v1/export/skypilot", ExportRequest{Workload: Text(lora)}, 200, `"skypilot`, "", ""},
		{"export bad lang", "POST", "/api/v1/export/skypilot", ExportRequest{Workload: Text(lora), Lang: "fr"}, 400, "", "invalid", "lang"},
		{"export all with policy", "POST", "/api/v1/export/all", ExportRequest{Workload: Text(chat), Policy: Text(example(t, "service-target.yaml"))}, 200, `"scaledobject.yaml"`, "", ""},
		{"export bad kind", "POST", "/api/v1/export/helm", ExportRequest{Workload: Text(lora)}, 400, "", "invalid", "kind"},
		{"export bad policy", "POST", "/api/v1/export/keda", ExportRequest{Workload: Text(chat), Policy: Text("policy: {kind: psychic}")}, 400, "", "invalid", "traffic.kind"},
		{"snapshots", "GET", "/api/v1/catalog/snapshots", nil, 200, `[]`, "", ""},
		{"history bad offer", "GET", "/api/v1/catalog/history?offer=p5", nil, 400, "", "invalid", "offer"},
		{"history bad date", "GET", "/api/v1/catalog/history?offer=aws/p5.48xlarge&from=May", nil, 400, "", "invalid", "from"},
		{"diff empty", "GET", "/api/v1/catalog/diff", nil, 422, "", "empty", ""},
		{"simulation missing", "GET", "/api/v1/simulations/nope", nil, 404, "", "not_found", "id"},
		{"simulation bad service", "POST", "/api/v1/simulations", SimulationRequest{Service: Text("traffic: {kind: tidal}")}, 400, "", "invalid", "pricing.per_hour_usd"},
		{"workload missing", "GET", "/api/v1/workloads/999", nil, 404, "", "not_found", "id"},
		{"workload bad id", "GET", "/api/v1/workloads/abc", nil, 400, "", "invalid", "id"},
		{"reports list", "GET", "/api/v1/reports", nil, 200, `[]`, "", ""},
		{"unknown endpoint", "GET", "/api/v1/gpus", nil, 404, "no endpoint", "not_found", ""},
		{"wrong method", "PUT", "/api/v1/offers", nil, 405, "GET, HEAD", "method_not_allowed", ""},
		{"page", "GET", "/", nil, 200, "<", "", ""},
		{"docs", "GET", "/docs", nil, 200, "openapi.json", "", ""},
		{"openapi", "GET", "/openapi.json", nil, 200, `"/api/v1/recommend"`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			switch b := tt.body.(type) {
			case nil:
			case string:
				body = b
			default:
				body = jsonBody(t, b)
			}
			r := do(t, h, tt.method, tt.path, body, "")
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			// Responses are compact JSON; the table writes "key": value.
			if want := strings.ReplaceAll(tt.want, `": `, `":`); !strings.Contains(r.body, want) {
				t.Errorf("body lacks %q: %.600s", want, r.body)
			}
			if tt.code != "" {
				e := r.errorOf(t)
				if e.Code != tt.code || e.Field != tt.field {
					t.Errorf("error %+v, want code %s field %q", e, tt.code, tt.field)
				}
				if strings.Contains(r.body, "goroutine") || strings.Contains(r.body, ".go:") {
					t.Errorf("error leaks internals: %s", r.body)
				}
			}
		})
	}
}

// TestSameJSONAsCLI pins that a response carries the document the CLI's
// -o json prints: the recommend response decodes into the same type and
// lists the offers page items with the report's fields.
func TestRecommendFormats(t *testing.T) {
	h := testServer(t, nil).Handler()
	body := jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})
	svg := do(t, h, "POST", "/api/v1/recommend?format=svg", body, "")
	if svg.status != 200 || svg.header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg.body, "<svg") {
		t.Errorf("svg: %d %s %.200s", svg.status, svg.header.Get("Content-Type"), svg.body)
	}
	html := do(t, h, "POST", "/api/v1/recommend?format=html", body, "")
	if html.status != 200 || !strings.HasPrefix(html.header.Get("Content-Type"), "text/html") || !strings.Contains(html.body, "<html") {
		t.Errorf("html: %d %s %.200s", html.status, html.header.Get("Content-Type"), html.body)
	}
	top := 2
	js := do(t, h, "POST", "/api/v1/recommend", jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml")), Top: &top}), "")
	var v struct {
		Candidates []json.RawMessage `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(js.body), &v); err != nil || len(v.Candidates) != 2 {
		t.Errorf("top 2: %v, %d candidates", err, len(v.Candidates))
	}
}

func TestOffersPaging(t *testing.T) {
	h := testServer(t, nil).Handler()
	type page struct {
		Items []struct {
			ID     string `json:"id"`
			Region string `json:"region"`
		} `json:"items"`
		Total, Page int
	}
	var all, p2 page
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/v1/offers?gpu=h100-sxm&per_page=500", "", "").body), &all); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/v1/offers?gpu=h100-sxm&per_page=2&page=2", "", "").body), &p2); err != nil {
		t.Fatal(err)
	}
	if all.Total < 4 || p2.Total != all.Total || len(p2.Items) != 2 || p2.Page != 2 {
		t.Fatalf("total %d, page 2: %+v", all.Total, p2)
	}
	key := func(o struct {
		ID     string `json:"id"`
		Region string `json:"region"`
	}) string {
		return o.ID + "@" + o.Region
	}
	if key(p2.Items[0]) != key(all.Items[2]) || key(p2.Items[1]) != key(all.Items[3]) {
		t.Errorf("page 2 is %s, %s; want %s, %s", key(p2.Items[0]), key(p2.Items[1]), key(all.Items[2]), key(all.Items[3]))
	}
	var past page
	_ = json.Unmarshal([]byte(do(t, h, "GET", "/api/v1/offers?page=9999", "", "").body), &past)
	if len(past.Items) != 0 || past.Items == nil {
		t.Errorf("past the end: %+v", past.Items)
	}
}

func TestSavedDocuments(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	token := addToken(t, s)
	lora := example(t, "llama3-8b-lora.yaml")
	save := jsonBody(t, SaveRequest{Name: "lora", Body: lora})

	for _, tok := range []string{"", "gpk_wrong"} {
		r := do(t, h, "POST", "/api/v1/workloads", save, tok)
		if r.status != 401 || r.errorOf(t).Code != "unauthorized" {
			t.Fatalf("token %q: %d %s", tok, r.status, r.body)
		}
	}
	r := do(t, h, "POST", "/api/v1/workloads", jsonBody(t, SaveRequest{Name: "bad", Body: "kind: nope"}), token)
	if r.status != 400 {
		t.Fatalf("invalid workload saved: %d %s", r.status, r.body)
	}
	r = do(t, h, "POST", "/api/v1/workloads", jsonBody(t, SaveRequest{Body: lora}), token)
	if r.status != 400 || r.errorOf(t).Field != "name" {
		t.Fatalf("nameless workload: %d %s", r.status, r.body)
	}
	r = do(t, h, "POST", "/api/v1/workloads", save, token)
	if r.status != 201 {
		t.Fatalf("save: %d %s", r.status, r.body)
	}
	var doc DocumentJSON
	if err := json.Unmarshal([]byte(r.body), &doc); err != nil || doc.ID == 0 || doc.Size != len(lora) {
		t.Fatalf("saved %+v (%v)", doc, err)
	}
	path := "/api/v1/workloads/" + itoa(doc.ID)
	r = do(t, h, "GET", path, "", "")
	var got DocumentJSON
	if err := json.Unmarshal([]byte(r.body), &got); err != nil || got.Body == nil || *got.Body != lora {
		t.Fatalf("get: %d %.300s", r.status, r.body)
	}
	if r = do(t, h, "GET", "/api/v1/workloads", "", ""); !strings.Contains(r.body, `"lora"`) || strings.Contains(r.body, `"body"`) {
		t.Errorf("list: %s", r.body)
	}
	if r = do(t, h, "DELETE", path, "", ""); r.status != 401 {
		t.Errorf("delete without token: %d", r.status)
	}
	if r = do(t, h, "DELETE", path, "", token); r.status != 200 {
		t.Errorf("delete: %d %s", r.status, r.body)
	}
	if r = do(t, h, "GET", path, "", ""); r.status != 404 {
		t.Errorf("after delete: %d", r.status)
	}

	// Reports take any text.
	r = do(t, h, "POST", "/api/v1/reports", jsonBody(t, SaveRequest{Name: "r1", Body: `{"candidates": []}`}), token)
	if r.status != 201 {
		t.Fatalf("save report: %d %s", r.status, r.body)
	}
	if err := json.Unmarshal([]byte(r.body), &doc); err != nil {
		t.Fatal(err)
	}
	if r = do(t, h, "GET", "/api/v1/reports/"+itoa(doc.ID), "", ""); r.status != 200 || !strings.Contains(r.body, "candidates") {
		t.Errorf("get report: %d %s", r.status, r.body)
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func TestOversizedBody(t *testing.T) {
	s := testServer(t, nil)
	token := addToken(t, s)
	big := jsonBody(t, SaveRequest{Name: "big", Body: strings.Repeat("x", MaxBodyBytes)})
	for _, path := range []string{"/api/v1/recommend", "/api/v1/reports"} {
		r := do(t, s.Handler(), "POST", path, big, token)
		if r.status != 413 || r.errorOf(t).Code != "too_large" {
			t.Errorf("%s: %d %.200s", path, r.status, r.body)
		}
	}
}

func TestNoStore(t *testing.T) {
	h := testServer(t, func(c *Config) { c.DB = "" }).Handler()
	for _, tt := range []struct{ method, path string }{
		{"GET", "/api/v1/catalog/snapshots"}, {"GET", "/api/v1/catalog/diff"},
		{"GET", "/api/v1/catalog/history?offer=aws/p5.48xlarge"}, {"GET", "/api/v1/workloads"},
		{"POST", "/api/v1/workloads"}, {"DELETE", "/api/v1/reports/1"},
	} {
		r := do(t, h, tt.method, tt.path, `{"name": "x", "body": "y"}`, "")
		if r.status != 404 || !strings.Contains(r.errorOf(t).Message, "no store") {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, r.status, r.body)
		}
	}
	if r := do(t, h, "GET", "/readyz", "", ""); r.status != 200 {
		t.Errorf("readyz without store: %d", r.status)
	}
}

func TestRateLimit(t *testing.T) {
	now := fixedNow
	var logs bytes.Buffer
	s := testServer(t, func(c *Config) {
		c.RateLimit = 1
		c.Now = func() time.Time { return now }
		c.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	})
	h := s.Handler()
	const path = "/api/v1/providers"
	for i := range 2 { // the burst
		if r := do(t, h, "GET", path, "", ""); r.status != 200 {
			t.Fatalf("request %d: %d", i, r.status)
		}
	}
	r := do(t, h, "GET", path, "", "")
	if r.status != 429 || r.errorOf(t).Code != "rate_limited" || r.header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d %s", r.status, r.body)
	}
	// Probes are never limited: an orchestrator probing from the flooded
	// address must not restart the pod.
	for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
		for range 5 {
			if r := do(t, h, "GET", p, "", ""); r.status != 200 {
				t.Fatalf("%s from a limited client: %d", p, r.status)
			}
		}
	}
	req := httptest.NewRequest("GET", local+path, nil)
	req.RemoteAddr = "198.51.100.7:4000" // another client has its own budget
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 200 {
		t.Errorf("other client: %d", w.Code)
	}
	// A flood of refusals is counted, not logged a line each: one line an
	// interval, with the count.
	for range 5000 {
		do(t, h, "GET", path, "", "")
	}
	refusedLines := func() (lines, total int) {
		for _, l := range strings.Split(logs.String(), "\n") {
			var e struct {
				Msg    string `json:"msg"`
				Status int    `json:"status"`
				Count  int    `json:"count"`
			}
			if json.Unmarshal([]byte(l), &e) != nil {
				continue
			}
			if e.Msg == "request" && e.Status == 429 {
				t.Fatalf("a refused request logged on its own: %s", l)
			}
			if e.Msg == "requests refused for their rate" {
				lines++
				total += e.Count
			}
		}
		return
	}
	if n, _ := refusedLines(); n != 0 {
		t.Errorf("%d refusal lines within the first interval", n)
	}
	now = now.Add(refusalEvery + time.Second)
	if r := do(t, h, "GET", path, "", ""); r.status != 200 {
		t.Errorf("after the interval: %d", r.status)
	}
	if n, total := refusedLines(); n != 1 || total != 5001 {
		t.Errorf("%d refusal lines counting %d requests, want 1 counting 5001", n, total)
	}
	if lines := strings.Count(logs.String(), "\n"); lines > 30 {
		t.Errorf("%d log lines for a flood of 5001 refusals", lines)
	}
}

func TestCORS(t *testing.T) {
	preflight := func(h http.Handler, origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("OPTIONS", local+"/api/v1/recommend", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	off := testServer(t, nil).Handler()
	if w := preflight(off, "https://evil.example"); w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS on by default: %v", w.Header())
	}
	on := testServer(t, func(c *Config) { c.CORSOrigins = []string{"https://app.example"} }).Handler()
	if w := preflight(on, "https://app.example"); w.Code != 204 || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("allowed origin: %d %v", w.Code, w.Header())
	}
	if w := preflight(on, "https://evil.example"); w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("other origin allowed: %v", w.Header())
	}
}

func TestPanicIsInternal(t *testing.T) {
	s := testServer(t, nil)
	var logs bytes.Buffer
	s.log = slog.New(slog.NewJSONHandler(&logs, nil))
	h := s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("secret detail at foo.go:12") }))
	r := do(t, h, "GET", "/x", "", "")
	if r.status != 500 || r.errorOf(t).Code != "internal" || strings.Contains(r.body, "secret") || strings.Contains(r.body, "goroutine") {
		t.Errorf("panic: %d %s", r.status, r.body)
	}
	if !strings.Contains(logs.String(), "secret detail") {
		t.Errorf("panic not logged: %s", logs.String())
	}
}

func TestMetricsAndLogs(t *testing.T) {
	var logs bytes.Buffer
	s := testServer(t, func(c *Config) { c.Logger = slog.New(slog.NewJSONHandler(&logs, nil)) })
	h := s.Handler()
	do(t, h, "POST", "/api/v1/recommend", jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))}), "")
	do(t, h, "GET", "/api/v1/workloads/7", "", "")
	m := do(t, h, "GET", "/metrics", "", "").body
	for _, want := range []string{
		`gpupick_http_requests_total{route="POST /api/v1/recommend",status="200"} 1`,
		`gpupick_http_requests_total{route="GET /api/v1/workloads/{id}",status="404"} 1`,
		`gpupick_http_request_duration_seconds_count{route="POST /api/v1/recommend"} 1`,
		`gpupick_evaluations_total{kind="recommend",outcome="ok"} 1`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, m)
		}
	}
	line, _, _ := strings.Cut(logs.String(), "\n")
	var rec map[string]any
	if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["route"] != "POST /api/v1/recommend" || rec["status"] != float64(200) {
		t.Errorf("log line %s (%v)", line, err)
	}
}

func TestOpenAPI(t *testing.T) {
	s := testServer(t, nil)
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
		Comp    struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(do(t, s.Handler(), "GET", "/openapi.json", "", "").body), &doc); err != nil {
		t.Fatal(err)
	}
	for _, rt := range s.routes {
		op, ok := doc.Paths[rt.path][strings.ToLower(rt.method)]
		if !ok {
			t.Errorf("%s %s missing", rt.method, rt.path)
			continue
		}
		if rt.auth && op["security"] == nil {
			t.Errorf("%s %s: no security", rt.method, rt.path)
		}
	}
	for _, name := range []string{"report_RecommendJSON", "RecommendRequest", "ErrorJSON", "JobJSON", "OfferItem", "perf_Prediction", "Workload", "Service"} {
		if doc.Comp.Schemas[name] == nil {
			t.Errorf("schema %s missing", name)
		}
	}
}

// TestOpenAPIFileSchemas: the OpenAPI document carries the full workload
// and service schemas, and each request field that holds such a file is
// the object or its text; /api/v1/openapi.json is the same document.
func TestOpenAPIFileSchemas(t *testing.T) {
	h := testServer(t, func(c *Config) { c.DB = "" }).Handler()
	body := do(t, h, "GET", "/openapi.json", "", "").body
	if other := do(t, h, "GET", "/api/v1/openapi.json", "", ""); other.status != 200 || other.body != body {
		t.Errorf("/api/v1/openapi.json: %d, same document %v", other.status, other.body == body)
	}
	var doc struct {
		Comp struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"ValidateRequest": {"workload": "Workload"}, "PredictRequest": {"workload": "Workload"},
		"RecommendRequest": {"workload": "Workload"}, "ExplainRequest": {"workload": "Workload"},
		"CheckRequest": {"workload": "Workload"}, "CostRequest": {"workload": "Workload"},
		"ExportRequest":     {"workload": "Workload", "policy": "Service"},
		"SimulationRequest": {"workload": "Workload", "service": "Service"},
	}
	for req, fields := range want {
		for field, ref := range fields {
			var p struct {
				OneOf []struct {
					Ref  string `json:"$ref"`
					Type string `json:"type"`
				} `json:"oneOf"`
			}
			if err := json.Unmarshal(doc.Comp.Schemas[req].Properties[field], &p); err != nil || len(p.OneOf) != 2 ||
				p.OneOf[0].Ref != "#/components/schemas/"+ref || p.OneOf[1].Type != "string" {
				t.Errorf("%s.%s: %s, want oneOf $ref %s or string", req, field, doc.Comp.Schemas[req].Properties[field], ref)
			}
		}
	}
	for name, keys := range map[string][]string{"Workload": {"kind", "model", "training", "inference", "constraints"}, "Service": {"traffic", "service", "policy", "slo"}} {
		for _, k := range keys {
			if doc.Comp.Schemas[name].Properties[k] == nil {
				t.Errorf("components %s has no %s", name, k)
			}
		}
	}
	for _, lang := range []string{"PredictRequest", "RecommendRequest", "ExplainRequest", "CheckRequest", "CostRequest", "SimulationRequest"} {
		if doc.Comp.Schemas[lang].Properties["lang"] == nil {
			t.Errorf("%s has no lang", lang)
		}
	}
}

func TestCheckPublic(t *testing.T) {
	ctx := context.Background()
	if err := testServer(t, func(c *Config) { c.Addr = "127.0.0.1:0" }).CheckPublic(ctx); err != nil {
		t.Errorf("loopback: %v", err)
	}
	if err := testServer(t, func(c *Config) { c.Addr = "0.0.0.0:8080" }).CheckPublic(ctx); err == nil {
		t.Error("non-loopback without --public started")
	}
	pub := testServer(t, func(c *Config) { c.Addr = "0.0.0.0:8080"; c.Public = true })
	if err := pub.CheckPublic(ctx); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("public without tokens: %v", err)
	}
	addToken(t, pub)
	if err := pub.CheckPublic(ctx); err != nil {
		t.Errorf("public with a token: %v", err)
	}
	if err := testServer(t, func(c *Config) { c.Addr = "0.0.0.0:8080"; c.Public = true; c.DB = "" }).CheckPublic(ctx); err == nil {
		t.Error("public without a store started")
	}
}

// TestWrites: importing prices and setting negotiated prices need a token,
// and change what the next request sees.
func TestWrites(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	token := addToken(t, s)
	csv := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n" +
		"p5.48xlarge,H100,8,192,2048,77.77,30.1,us-east-1,us-east-1a\n"
	body := jsonBody(t, ImportRequest{Format: "skypilot", Provider: "aws", Name: "vms.csv", AsOf: "2026-06-03", Content: csv})
	if r := do(t, h, "POST", "/api/v1/catalog/import", body, ""); r.status != http.StatusUnauthorized {
		t.Fatalf("import without a token: %d", r.status)
	}
	r := do(t, h, "POST", "/api/v1/catalog/import", body, token)
	if r.status != http.StatusCreated || !strings.Contains(r.body, `"offers":1`) {
		t.Fatalf("import: %d %s", r.status, r.body)
	}
	overlay := jsonBody(t, PricesRequest{Overlay: "rules:\n  - {provider: aws, instance: \"p5.*\", discount_percent: 50}\n"})
	if r := do(t, h, "PUT", "/api/v1/prices", overlay, ""); r.status != http.StatusUnauthorized {
		t.Fatalf("prices without a token: %d", r.status)
	}
	r = do(t, h, "PUT", "/api/v1/prices", overlay, token)
	if r.status != http.StatusOK || !strings.Contains(r.body, `"rules":1`) {
		t.Fatalf("prices: %d %s", r.status, r.body)
	}
	r = do(t, h, "GET", "/api/v1/offers?gpu=h100-sxm:8&provider=aws&region=us-east-1", "", "")
	if !strings.Contains(r.body, `"your_prices_usd_per_hour"`) {
		t.Errorf("offers after setting prices lack your prices: %.400s", r.body)
	}
	bad := jsonBody(t, PricesRequest{Overlay: "rules:\n  - {provider: aws, discount: 5}\n"})
	if r := do(t, h, "PUT", "/api/v1/prices", bad, token); r.status != http.StatusBadRequest || !strings.Contains(r.body, "rules[0].discount") {
		t.Errorf("a bad overlay: %d %s", r.status, r.body)
	}
	if r := do(t, h, "DELETE", "/api/v1/prices", "", token); r.status != http.StatusOK {
		t.Errorf("clear prices: %d", r.status)
	}
}

// TestEvaluationGate checks that recommend waits in line for a slot when
// every slot is taken, answers as soon as one frees, and gives a clear 503
// (not a hang) to a client that gives up while waiting.
func TestEvaluationGate(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	body := jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})
	for range cap(s.gate) {
		s.gate <- struct{}{}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "POST", local+"/api/v1/recommend", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "waiting to evaluate") {
		t.Fatalf("gate full, client gave up: want 503 naming the wait, got %d %s", w.Code, w.Body.String())
	}

	done := make(chan response, 1)
	go func() { done <- do(t, h, "POST", "/api/v1/recommend", body, "") }()
	select {
	case r := <-done:
		t.Fatalf("answered with every slot taken: %d", r.status)
	case <-time.After(100 * time.Millisecond):
	}
	<-s.gate // free one slot
	select {
	case r := <-done:
		if r.status != 200 {
			t.Fatalf("after a slot freed: %d %.300s", r.status, r.body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still waiting after a slot freed")
	}
	if len(s.gate) != cap(s.gate)-1 {
		t.Errorf("the request did not give its slot back: %d of %d taken", len(s.gate), cap(s.gate))
	}
}

// TestCalibrateOverAPI sends a probe report that measured half the matmul
// speed of an 8 x H100 server: predict and recommend slow those servers
// down and say why, leave other hardware alone, and do not leak the
// calibration into later uncalibrated answers (the shared prediction
// cache).
func TestCalibrateOverAPI(t *testing.T) {
	h := testServer(t, func(c *Config) { c.DB = "" }).Handler()
	b, err := os.ReadFile("../cli/testdata/probe-h100-slow.json")
	if err != nil {
		t.Fatal(err)
	}
	workload := example(t, "llama3-8b-lora.yaml")

	predict := func(calibrate string) perf.Prediction {
		t.Helper()
		r := do(t, h, "POST", "/api/v1/predict", jsonBody(t, PredictRequest{Workload: Text(workload), Offer: "aws/p5.48xlarge", Calibrate: calibrate}), "")
		var p perf.Prediction
		if r.status != 200 || json.Unmarshal([]byte(r.body), &p) != nil {
			t.Fatalf("predict: %d %.300s", r.status, r.body)
		}
		return p
	}
	plain, cal := predict(""), predict(string(b))
	if !(cal.Throughput.Value < 0.8*plain.Throughput.Value) || !strings.Contains(strings.Join(msg.Strings(cal.Assumptions), "\n"), "compute efficiency x") {
		t.Errorf("calibrated predict: %.0f vs %.0f %s, assumptions %q", cal.Throughput.Value, plain.Throughput.Value, plain.Throughput.Unit, msg.Strings(cal.Assumptions))
	}

	recommend := func(calibrate string) map[string]float64 {
		t.Helper()
		all := 0
		r := do(t, h, "POST", "/api/v1/recommend", jsonBody(t, RecommendRequest{Workload: Text(workload), Top: &all, Calibrate: calibrate}), "")
		var res report.RecommendJSON
		if r.status != 200 || json.Unmarshal([]byte(r.body), &res) != nil {
			t.Fatalf("recommend: %d %.300s", r.status, r.body)
		}
		hours := map[string]float64{}
		for _, c := range res.Candidates {
			if c.DurationHours != nil {
				hours[fmt.Sprintf("%s %s %s %d %d %s", c.Offer, c.Region, c.GPU, c.GPUs, c.Nodes, c.Pricing)] = *c.DurationHours
			}
		}
		return hours
	}
	before := recommend("")
	calibrated := recommend(string(b))
	after := recommend("")
	slower, same := 0, 0
	for k, h0 := range before {
		h1, ok := calibrated[k]
		if !ok {
			continue
		}
		probed := strings.Contains(k, " h100-sxm 8 1 ") // one server of 8, as probed
		switch {
		case probed && h1 > 1.2*h0:
			slower++
		case probed:
			t.Errorf("%s: the probed hardware did not slow down: %.2f h -> %.2f h", k, h0, h1)
		case h1 != h0:
			t.Errorf("%s: other hardware changed: %.2f h -> %.2f h", k, h0, h1)
		default:
			same++
		}
		if after[k] != h0 {
			t.Errorf("%s: a calibrated request changed a later plain one: %.2f h -> %.2f h", k, h0, after[k])
		}
	}
	t.Logf("%d candidates on the probed hardware slowed down, %d others unchanged", slower, same)
	if slower == 0 || same == 0 {
		t.Errorf("%d probed candidates slowed, %d others compared", slower, same)
	}

	r := do(t, h, "POST", "/api/v1/predict", jsonBody(t, PredictRequest{Workload: Text(workload), GPU: "h100", Calibrate: `{"gpus": []}`}), "")
	if r.status != 400 || r.errorOf(t).Field != "calibrate" {
		t.Errorf("a document without a version: %d %s", r.status, r.body)
	}
}

// TestTrustedProxies checks whom a request is counted against: the peer,
// unless the peer is a trusted proxy; then the nearest untrusted address of
// X-Forwarded-For, so a client cannot forge its way past the rate limit.
func TestTrustedProxies(t *testing.T) {
	s := testServer(t, func(c *Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	})
	for _, tt := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"192.0.2.1:5000", nil, "192.0.2.1"},
		{"192.0.2.1:5000", []string{"203.0.113.9"}, "192.0.2.1"},                          // not from a proxy: header ignored
		{"10.1.2.3:5000", []string{"203.0.113.9"}, "203.0.113.9"},                         // one proxy
		{"10.1.2.3:5000", []string{"198.51.100.1, 203.0.113.9, 10.9.9.9"}, "203.0.113.9"}, // forged left entry, two proxies
		{"10.1.2.3:5000", []string{"198.51.100.1", "203.0.113.9"}, "203.0.113.9"},         // several header lines
		{"10.1.2.3:5000", []string{"10.4.4.4"}, "10.4.4.4"},                               // all proxies: the farthest
		{"10.1.2.3:5000", nil, "10.1.2.3"},                                                // proxy without the header
		{"[fd00::1]:5000", []string{"2001:db8::7"}, "2001:db8::7"},                        // IPv6
		{"10.1.2.3:5000", []string{"not-an-ip"}, "10.1.2.3"},                              // junk: the proxy that passed it
		{"10.1.2.3:5000", []string{"203.0.113.9, junk, 10.9.9.9"}, "10.9.9.9"},            // junk behind a proxy: that proxy
		{"10.1.2.3:5000", []string{"203.0.113.9:41000"}, "203.0.113.9"},                   // a port is not a new client
		{"10.1.2.3:5000", []string{"[2001:db8::7]:41000, 10.9.9.9:80"}, "2001:db8::7"},    // ports on every hop
		{"[::ffff:10.1.2.3]:5000", []string{"203.0.113.9"}, "203.0.113.9"},                // IPv4-mapped peer
	} {
		req := httptest.NewRequest("GET", local+"/healthz", nil)
		req.RemoteAddr = tt.remote
		for _, v := range tt.xff {
			req.Header.Add("X-Forwarded-For", v)
		}
		if got := s.clientIP(req); got != tt.want {
			t.Errorf("%s with X-Forwarded-For %q: counted as %q, want %q", tt.remote, tt.xff, got, tt.want)
		}
	}

	// Through the rate limit: clients behind one proxy have budgets of
	// their own; a forged header from outside does not buy a new one.
	now := fixedNow
	h := testServer(t, func(c *Config) {
		c.RateLimit, c.Now = 1, func() time.Time { return now }
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	}).Handler()
	get := func(remote, xff string) int {
		req := httptest.NewRequest("GET", local+"/api/v1/providers", nil) // probes are never limited
		req.RemoteAddr, req.Header["X-Forwarded-For"] = remote, []string{xff}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	for i := range 3 {
		if code := get("192.0.2.1:1", fmt.Sprintf("203.0.113.%d", i)); (i < 2) != (code == 200) {
			t.Errorf("forged header, request %d: %d", i, code)
		}
	}
	for i := range 3 {
		if code := get("10.0.0.1:1", fmt.Sprintf("203.0.113.%d", i)); code != 200 {
			t.Errorf("client %d behind the proxy: %d", i, code)
		}
	}
}

// TestContainerMemoryLimit reads cgroup v2 and v1 limits and treats "max"
// and v1's "unlimited" as none.
func TestContainerMemoryLimit(t *testing.T) {
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(f string) ([]byte, error) {
			if v, ok := m[f]; ok {
				return []byte(v), nil
			}
			return nil, os.ErrNotExist
		}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64
		ok    bool
	}{
		{"v2", map[string]string{"/sys/fs/cgroup/memory.max": "536870912\n"}, 512 << 20, true},
		{"v2 unlimited", map[string]string{"/sys/fs/cgroup/memory.max": "max\n"}, 0, false},
		{"v1", map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "268435456"}, 256 << 20, true},
		{"v1 unlimited", map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712"}, 0, false},
		{"none", nil, 0, false},
	} {
		got, ok := ContainerMemoryLimit(files(tc.files))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %d %v, want %d %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRecommendSlimExclusions: the API's answer counts every exclusion by
// reason but lists a few of each, unless asked for all; the full answer's
// exclusions are the CLI's.
func TestRecommendSlimExclusions(t *testing.T) {
	h := testServer(t, nil).Handler()
	body := jsonBody(t, RecommendRequest{Workload: Text(example(t, "deepseek-v3-chat.yaml"))})
	type answer struct {
		Excluded         []report.ExcludedJSON       `json:"excluded"`
		ExcludedByReason []report.ExclusionGroupJSON `json:"excluded_by_reason"`
		ExcludedOmitted  int                         `json:"excluded_omitted"`
	}
	decode := func(r response) answer {
		t.Helper()
		var d answer
		if r.status != 200 || json.Unmarshal([]byte(r.body), &d) != nil {
			t.Fatalf("recommend: %d %.300s", r.status, r.body)
		}
		return d
	}
	slim := decode(do(t, h, "POST", "/api/v1/recommend", body, ""))
	full := decode(do(t, h, "POST", "/api/v1/recommend?exclusions=all", body, ""))
	total := 0
	for _, g := range slim.ExcludedByReason {
		total += g.Count
		if len(g.Examples) == 0 || len(g.Examples) > 3 || len(g.Examples) > g.Count {
			t.Errorf("%s: %d examples of %d", g.ReasonCode, len(g.Examples), g.Count)
		}
	}
	if total != len(full.Excluded) || total < 100 {
		t.Fatalf("groups count %d exclusions, the full answer lists %d", total, len(full.Excluded))
	}
	if len(slim.Excluded)+slim.ExcludedOmitted != total || len(slim.Excluded) > 3*len(slim.ExcludedByReason) || full.ExcludedOmitted != 0 {
		t.Errorf("slim answer: %d listed + %d omitted of %d; full omits %d", len(slim.Excluded), slim.ExcludedOmitted, total, full.ExcludedOmitted)
	}
	if r := do(t, h, "POST", "/api/v1/recommend?exclusions=some", body, ""); r.status != 400 || !strings.Contains(r.body, "exclusions") {
		t.Errorf("a bad exclusions: %d %s", r.status, r.body)
	}
	if ls, lf := len(do(t, h, "POST", "/api/v1/recommend", body, "").body), len(do(t, h, "POST", "/api/v1/recommend?exclusions=all", body, "").body); ls*4 > lf {
		t.Errorf("slim answer %d bytes against %d in full", ls, lf)
	}
}

// TestAdmitOneSlotPerCore: as many recommendations evaluate at once as
// there are cores (none is held back for probes); the next waits its turn
// and a client that gives up while waiting is told the service is busy.
func TestAdmitOneSlotPerCore(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	cores := runtime.GOMAXPROCS(0)
	var frees []func()
	for i := range cores {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		free, err := s.admit(ctx)
		cancel()
		if err != nil {
			t.Fatalf("slot %d of %d: %v", i+1, cores, err)
		}
		frees = append(frees, free)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.admit(ctx); err == nil {
		t.Fatalf("slot %d admitted on %d cores", cores+1, cores)
	} else if apperr.CodeOf(err) != apperr.Unavailable {
		t.Errorf("a request that gave up waiting: %v, want unavailable", err)
	}
	frees[0]()
	free, err := s.admit(context.Background())
	if err != nil {
		t.Fatalf("a freed slot must admit the next request: %v", err)
	}
	free()
}
