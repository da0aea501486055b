package importer

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpupick/gpupick/internal/apperr"
)

// azureServer serves the two recorded pages; page(n) may replace a page's
// handling (n = 1 or 2) by returning true.
func azureServer(t *testing.T, page func(n int, w http.ResponseWriter) bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/api/retail/prices" {
			http.NotFound(w, r)
			return
		}
		n, file := 1, "testdata/azure-page1.json"
		if r.URL.Query().Get("$skip") != "" {
			n, file = 2, "testdata/azure-page2.json"
		} else if f := r.URL.Query().Get("$filter"); !strings.Contains(f, "armRegionName eq 'eastus'") || !strings.Contains(f, "serviceName eq 'Virtual Machines'") {
			t.Errorf("filter = %q", f)
		}
		if page != nil && page(n, w) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, strings.ReplaceAll(string(readFile(t, file)), "{{BASE}}", srv.URL))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func azureOptions(t *testing.T, srv *httptest.Server) Options {
	opt := testOptions(t)
	opt.BaseURL = srv.URL + "/api/retail/prices"
	opt.Regions = []string{"eastus"}
	return opt
}

func TestFetchAzurePaging(t *testing.T) {
	srv, hits := azureServer(t, nil)
	res, err := Fetch(context.Background(), "azure", azureOptions(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	want := []offerSum{
		{"azure/Standard_NC24ads_A100_v4@eastus", "a100-80gb-pcie", 1, 3.673, 0.4444, 0, 0},
		{"azure/Standard_NC4as_T4_v3@eastus", "t4", 1, 0.526, 0, 0, 0},
		{"azure/Standard_ND96isr_H100_v5@eastus", "h100-sxm", 8, 98.32, 39.33, 57.0776, 41.8569},
		{"azure/Standard_NV6ads_A10_v5@eastus", "a10", 1, 0.454, 0, 0, 0}, // 1/6 of an A10
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if o := offerByKey(res, "azure/Standard_NV6ads_A10_v5@eastus"); o == nil || o.GPUFraction != 1.0/6 {
		t.Errorf("NV6ads A10 v5 = %+v, want fraction 1/6", o)
	}
	// The region asked for is the only one imported: no offer, and no
	// warning, for the file's unknown region.
	if hasWarning(res, "region", "") || hasReject(res, "region", "") {
		t.Errorf("rejects:%s\nwarnings:%s", rejectList(res), warningList(res))
	}
	if hits.Load() != 2 {
		t.Errorf("requests = %d, want 2 pages", hits.Load())
	}
	if res.Offers[0].Source != srv.URL+"/api/retail/prices" || !res.Offers[0].AsOf.Equal(fixedNow) {
		t.Errorf("fact = %+v", res.Offers[0].Fact)
	}
}

func TestFetchAzureRetriesThen200(t *testing.T) {
	var failed atomic.Bool
	srv, hits := azureServer(t, func(n int, w http.ResponseWriter) bool {
		if n == 2 && !failed.Swap(true) {
			http.Error(w, "busy", http.StatusInternalServerError)
			return true
		}
		return false
	})
	res, err := Fetch(context.Background(), "azure", azureOptions(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 4 || hits.Load() != 3 {
		t.Errorf("offers %d, requests %d; want 4 and 3", len(res.Offers), hits.Load())
	}
}

// TestFetchFailures: every failure fails the whole import, clearly.
func TestFetchFailures(t *testing.T) {
	page1 := string(readFile(t, "testdata/azure-page1.json"))
	for _, c := range []struct {
		name string
		page func(n int, w http.ResponseWriter) bool
		want []string
		hits int32
	}{
		{"500 mid-paging persists", func(n int, w http.ResponseWriter) bool {
			if n == 2 {
				http.Error(w, "down", http.StatusInternalServerError)
				return true
			}
			return false
		}, []string{"region eastus, page 2", "HTTP 500", "azure: GET"}, 1 + 3},
		{"truncated body", func(n int, w http.ResponseWriter) bool {
			w.Header().Set("Content-Length", "100000")
			_, _ = io.WriteString(w, page1[:2000])
			return true
		}, []string{"azure: GET", "truncated", "unexpected EOF"}, 3},
		{"truncated JSON", func(n int, w http.ResponseWriter) bool {
			_, _ = io.WriteString(w, page1[:2000])
			return true
		}, []string{"azure: GET", "truncated JSON"}, 1},
		{"changed field", func(n int, w http.ResponseWriter) bool {
			_, _ = w.Write(readFile(t, "testdata/azure-changed-field.json"))
			return true
		}, []string{"azure", "retailPrice: missing from all 4 GPU rows"}, 1},
		{"404 not retried", func(n int, w http.ResponseWriter) bool {
			http.Error(w, "no such api", http.StatusNotFound)
			return true
		}, []string{"HTTP 404 Not Found: no such api"}, 1},
		{"next page on another host", func(n int, w http.ResponseWriter) bool {
			_, _ = io.WriteString(w, `{"Items":[],"NextPageLink":"https://evil.example/api"}`)
			return true
		}, []string{"leaves http://127.0.0.1"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, hits := azureServer(t, c.page)
			res, err := Fetch(context.Background(), "azure", azureOptions(t, srv))
			if err == nil {
				t.Fatalf("no error; %d offers", len(res.Offers))
			}
			if res != nil {
				t.Error("a partial result came back with the error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nwant it to contain %q", err, w)
				}
			}
			if apperr.CodeOf(err) != apperr.Unavailable {
				t.Errorf("code = %s, want unavailable", apperr.CodeOf(err))
			}
			if hits.Load() != c.hits {
				t.Errorf("requests = %d, want %d", hits.Load(), c.hits)
			}
		})
	}
}

func TestFetchPagingLoop(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"Items":[],"NextPageLink":"`+srv.URL+`/api/retail/prices?$skip=100"}`)
	}))
	defer srv.Close()
	_, err := Fetch(context.Background(), "azure", azureOptions(t, srv))
	if err == nil || !strings.Contains(err.Error(), "paging does not end") {
		t.Errorf("err = %v", err)
	}
}

func TestFetchNoNetwork(t *testing.T) {
	opt := testOptions(t)
	opt.BaseURL = "http://127.0.0.1:1/api"
	opt.MaxRetries = -1
	_, err := Fetch(context.Background(), "azure", opt)
	if err == nil || apperr.CodeOf(err) != apperr.Unavailable || !strings.Contains(err.Error(), "azure: GET http://127.0.0.1:1/api") {
		t.Fatalf("err = %v", err)
	}
}

func TestFetchAWS(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if r.URL.Path == "/offers/current/us-east-1/index.json" {
			_, _ = w.Write(readFile(t, "testdata/aws-offer.json"))
			return
		}
		http.Error(w, "no", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	opt := testOptions(t)
	opt.BaseURL = srv.URL + "/offers/current"
	opt.Regions = []string{"us-east-1"}
	res, err := Fetch(context.Background(), "aws", opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []offerSum{
		{"aws/g5.xlarge@us-east-1", "a10g", 1, 1.006, 0, 0, 0},
		{"aws/p5.48xlarge@us-east-1", "h100-sxm", 8, 98.32, 0, 62.15, 43.16},
		{"aws/trn1.32xlarge@us-east-1", "trainium1", 16, 21.5, 0, 0, 0},
	}
	if d := cmp.Diff(want, summarize(res.Offers)); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if len(res.Unmapped) != 1 || res.Unmapped["family x9imaginary (1 GPUs)"] != 1 {
		t.Errorf("unmapped = %v", res.Unmapped)
	}
	// A second region whose file keeps failing fails the whole import.
	opt.Regions = []string{"us-east-1", "us-west-2"}
	paths = nil
	if _, err := Fetch(context.Background(), "aws", opt); err == nil || !strings.Contains(err.Error(), "region us-west-2") ||
		!strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("err = %v", err)
	}
	if len(paths) != 1+3 {
		t.Errorf("requests %v, want 1 + 3 attempts", paths)
	}
}

func TestFetchGCP(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		q := r.URL.Query()
		if q.Get("key") != "secret-key" {
			http.Error(w, `{"error":{"code":403,"message":"API key not valid."}}`, http.StatusForbidden)
			return
		}
		switch q.Get("pageToken") {
		case "":
			_, _ = w.Write(readFile(t, "testdata/gcp-skus-page1.json"))
		case "PAGE2":
			_, _ = w.Write(readFile(t, "testdata/gcp-skus-page2.json"))
		default:
			http.Error(w, "bad token", http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	opt := testOptions(t)
	opt.BaseURL = srv.URL + "/v1/services/6F81-5844-456A/skus"
	opt.APIKey = "secret-key"
	res, err := Fetch(context.Background(), "gcp", opt)
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 || len(res.Offers) == 0 || res.Unmapped["nvidia imaginary x1"] != 1 {
		t.Errorf("requests %d offers %d unmapped %v", hits.Load(), len(res.Offers), res.Unmapped)
	}
	// A wrong key: not retried, and the key never shows in the error.
	opt.APIKey = "wrong-key"
	hits.Store(0)
	_, err = Fetch(context.Background(), "gcp", opt)
	if err == nil || strings.Contains(err.Error(), "wrong-key") || !strings.Contains(err.Error(), "key=REDACTED") ||
		!strings.Contains(err.Error(), "API key not valid") || hits.Load() != 1 {
		t.Errorf("err = %v (requests %d)", err, hits.Load())
	}
	opt.APIKey = ""
	if _, err := Fetch(context.Background(), "gcp", opt); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "API key") {
		t.Errorf("no key: err = %v", err)
	}
}

func TestFetchSources(t *testing.T) {
	for _, s := range []string{"skypilot", "gpuhunt", "oracle"} {
		if _, err := Fetch(context.Background(), s, testOptions(t)); apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("%s: err = %v", s, err)
		}
	}
	if _, err := Fetch(context.Background(), "azure", Options{}); apperr.CodeOf(err) != apperr.Internal {
		t.Errorf("no catalog: err = %v", err)
	}
}

// TestRetryAfter: a 429's Retry-After sets the wait when longer than the
// backoff; waits double otherwise.
func TestRetryAfter(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch hits.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.WriteHeader(http.StatusBadGateway)
		default:
			_, _ = io.WriteString(w, "ok")
		}
	}))
	defer srv.Close()
	opt := testOptions(t)
	opt.RetryBase = 100 * time.Millisecond
	f := newFetcher("azure", &opt)
	var waits []time.Duration
	f.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	var body string
	err := f.get(context.Background(), srv.URL, func(r io.Reader) error {
		b, err := io.ReadAll(r)
		body = string(b)
		return err
	})
	if err != nil || body != "ok" {
		t.Fatalf("err %v body %q", err, body)
	}
	if len(waits) != 2 || waits[0] != 7*time.Second || waits[1] < 200*time.Millisecond || waits[1] > 240*time.Millisecond {
		t.Errorf("waits = %v, want [7s ~200ms]", waits)
	}
}

func TestTokenBucket(t *testing.T) {
	now := time.Unix(0, 0)
	var slept time.Duration
	tb := newTokenBucket(4, func() time.Time { return now }, func(_ context.Context, d time.Duration) error {
		slept += d
		now = now.Add(d)
		return nil
	})
	for range 9 {
		if err := tb.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if slept != 2*time.Second { // 9 requests at 4/s: the first is free, 8 wait 250 ms
		t.Errorf("slept %v, want 2s", slept)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"": 0, "3": 3 * time.Second, "-1": 0, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}
