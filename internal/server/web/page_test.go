package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpupick/gpupick/internal/server/web/browsertest"
)

// fakeAPI answers the page's API calls with canned documents from testdata/
// (made with `gpupick ... -o json`), so that the page can be tested in a
// browser without the real service. The server package's end-to-end test
// drives the same page against the real API.
func fakeAPI(t *testing.T) http.Handler {
	file := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			b, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Errorf("fake API: %v", err)
				http.Error(w, err.Error(), 500)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
		}
	}
	send := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	var polls atomic.Int32
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(FS))
	mux.HandleFunc("GET /api/v1/offers", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("gpu") == "h100-sxm" {
			file("offers-h100-sxm.json")(w, r)
			return
		}
		file("offers.json")(w, r)
	})
	mux.HandleFunc("GET /api/v1/accelerators", file("accelerators.json"))
	mux.HandleFunc("GET /api/v1/providers", file("providers.json"))
	mux.HandleFunc("POST /api/v1/validate", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Workload string }
		json.NewDecoder(r.Body).Decode(&req)
		if i := strings.Index(req.Workload, "bogus"); i >= 0 {
			line := strings.Count(req.Workload[:i], "\n") + 1
			send(w, 200, map[string]any{"ok": false, "errors": []map[string]any{{"field": "training.bogus", "line": line, "message": "unknown field"}}})
			return
		}
		send(w, 200, map[string]any{"ok": true, "defaults": []map[string]string{{"field": "data.bytes_per_sample", "value": "16384", "why": "not set"}}})
	})
	mux.HandleFunc("POST /api/v1/recommend", file("recommend.json"))
	mux.HandleFunc("POST /api/v1/check", file("check.json"))
	mux.HandleFunc("POST /api/v1/explain", func(w http.ResponseWriter, r *http.Request) {
		send(w, 200, map[string]string{"text": "why this offer, step by step"})
	})
	mux.HandleFunc("POST /api/v1/simulations", func(w http.ResponseWriter, r *http.Request) {
		polls.Store(0)
		send(w, 202, map[string]string{"id": "sim-1", "status": "queued"})
	})
	mux.HandleFunc("GET /api/v1/simulations/{id}", func(w http.ResponseWriter, r *http.Request) {
		if polls.Add(1) < 2 {
			send(w, 200, map[string]any{"id": "sim-1", "status": "running", "progress": 0.5})
			return
		}
		file("simulation.json")(w, r)
	})
	// Served under the policy the real server sends, so that the page is
	// tested with what it may not do (inline script, style attributes).
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", ContentSecurityPolicy)
		mux.ServeHTTP(w, r)
	})
}

// TestPageWithFakeAPI drives every part of the page in headless Chromium
// against fakeAPI: offers and paging, validation errors at their line, the
// ranked table, the Pareto chart, a candidate's detail with verdicts, the
// side-by-side comparison, a simulation's charts, and Chinese, all under the
// server's content security policy with nothing blocked. A phone-sized
// screenshot of each tab is left in $GPUPICK_ARTIFACTS when that is set.
func TestPageWithFakeAPI(t *testing.T) {
	tabCtx, errs := browsertest.Start(t, context.Background())
	ts := httptest.NewServer(fakeAPI(t))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(tabCtx, 90*time.Second)
	defer cancel()
	artifacts := os.Getenv("GPUPICK_ARTIFACTS")
	shot := func(name string) {
		if artifacts == "" {
			return
		}
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			os.MkdirAll(artifacts, 0o755)
			os.WriteFile(filepath.Join(artifacts, "page-"+name+".png"), png, 0o644)
		}
	}
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			shot("failed")
			t.Fatalf("%s: %v (JavaScript errors: %q)", name, err, errs())
		}
	}
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return void(chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second)))
	}
	count := func(sel string) int {
		var n int
		step("count "+sel, into(chromedp.Evaluate[int](`document.querySelectorAll(`+jsString(sel)+`).length`), &n))
		return n
	}

	step("load", browsertest.WatchCSP(), chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#offers-table tbody tr`)),
		poll(`document.querySelectorAll('#filter-provider option').length > 1`))
	if n := count(`#offers-table tbody tr`); n != 25 {
		t.Errorf("offers rows = %d, want 25", n)
	}
	// A slice of one GPU reads as its share, priced per whole-GPU hour.
	step("slice", poll(`(() => { const r = document.querySelector('#offers-table tr[data-offer="azure/Standard_NV6ads_A10_v5"]');
		return r && r.cells[1].textContent === 'a10 × 1/6' && r.cells[6].textContent === '$2.72'; })()`))
	step("filter", chromedp.SendKeys(chromedp.CSS(`#filter-gpu`), "h100-sxm"), chromedp.Click(chromedp.CSS(`#filter-apply`)),
		poll(`[...document.querySelectorAll('#offers-table tbody tr')].every(r => r.cells[1].textContent.startsWith('h100-sxm '))`))
	step("stale badge", chromedp.WaitVisible(chromedp.CSS(`#offers-table .badge.stale`)))
	shot("offers")

	step("validate as you type", chromedp.Click(chromedp.CSS(`#tabbtn-recommend`)),
		chromedp.WaitVisible(chromedp.CSS(`#workload`)),
		poll(`document.querySelector('#workload-status').textContent.startsWith('Valid')`),
		chromedp.SendKeys(chromedp.CSS(`#workload`), "\nbogus: 1"),
		poll(`document.querySelector('#workload-errors li[data-field="training.bogus"]') !== null`))
	var errText string
	step("error text", into(chromedp.Text(chromedp.CSS(`#workload-errors li`)), &errText))
	if !regexp.MustCompile(`line \d+: training.bogus unknown field`).MatchString(errText) {
		t.Errorf("validation error shown as %q", errText)
	}

	step("recommend", chromedp.Click(chromedp.CSS(`#recommend-run`)),
		chromedp.WaitVisible(chromedp.CSS(`#candidates-table tbody tr`)),
		chromedp.WaitVisible(chromedp.CSS(`#pareto svg circle`)))
	if n := count(`#candidates-table tbody tr`); n != 8 {
		t.Errorf("candidate rows = %d, want 8", n)
	}
	if n := count(`#pareto svg circle.pareto`); n == 0 {
		t.Error("no Pareto point is filled")
	}
	var hours, conf string
	step("ranges", into(chromedp.Text(chromedp.CSS(`#candidates-table tbody tr:nth-child(1) td:nth-child(6)`)), &hours),
		into(chromedp.Text(chromedp.CSS(`#recommend-confidence`)), &conf))
	if !regexp.MustCompile(`^\d+\.\d \(\d+\.\d–\d+\.\d\)$`).MatchString(hours) {
		t.Errorf("hours cell %q: want the value and its 80%% range", hours)
	}
	if !strings.Contains(conf, "#1 and #2") || !strings.Contains(conf, "probe") {
		t.Errorf("confidence line %q: want whether #1 and #2 can be told apart and what would settle it", conf)
	}
	// One freshness line stands in for a stale-price warning per candidate.
	var fresh string
	step("freshness", into(chromedp.Text(chromedp.CSS(`#recommend-freshness`)), &fresh))
	if want := "Prices: 8 offer(s) from 3 provider(s), as of 2023-11-15 to 2026-02-26 (median 2024-06-24); 8 older than 90 days (azure, nebius, crusoe)."; fresh != want {
		t.Errorf("freshness line %q, want %q", fresh, want)
	}
	if n := count(`#candidates-table .badge.warn`); n != 0 {
		t.Errorf("%d candidates flag warnings; the fixture's only warnings are stale prices, shown once in the freshness line", n)
	}
	step("detail", chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(2) td:nth-child(3)`)),
		poll(`document.querySelector('#candidate-detail').dataset.rank === '2'`),
		chromedp.WaitVisible(chromedp.CSS(`#cost-bar span`)),
		// The bar's widths are styles the policy lets the script set.
		poll(`document.querySelector('#cost-bar span').getBoundingClientRect().width > 0`),
		chromedp.WaitVisible(chromedp.CSS(`#detail-verdicts .badge.ok`)),
		poll(`document.querySelector('#detail-warnings') === null`),
		chromedp.Click(chromedp.CSS(`#detail-explain summary`)),
		poll(`document.querySelector('#detail-explain .explain').textContent.startsWith('why')`))
	step("compare", chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(1) input.compare`)),
		chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(3) input.compare`)),
		chromedp.Click(chromedp.CSS(`#compare-run`)),
		chromedp.WaitVisible(chromedp.CSS(`#compare-table`)))
	if n := count(`#compare-table thead th`); n != 3 {
		t.Errorf("comparison columns = %d, want 3 (labels + 2 candidates)", n)
	}
	if n := count(`#candidate-detail[data-rank="2"]`); n != 1 {
		t.Error("ticking a compare box changed the open candidate")
	}
	shot("recommend")

	step("simulate", chromedp.Click(chromedp.CSS(`#tabbtn-simulate`)), chromedp.Click(chromedp.CSS(`#sim-run`)),
		chromedp.WaitVisible(chromedp.CSS(`#sim-charts [data-chart="latency"] svg polyline`)))
	if n := count(`#sim-charts svg`); n != 3 {
		t.Errorf("simulation charts = %d, want 3", n)
	}
	shot("simulate")

	var h2 string
	step("chinese", chromedp.SetValue(chromedp.CSS(`#lang`), "zh"),
		void(chromedp.Evaluate[chromedp.Void](`document.querySelector('#lang').dispatchEvent(new Event('change'))`)),
		into(chromedp.Text(chromedp.CSS(`#tab-simulate h2`)), &h2))
	if !regexp.MustCompile(`\p{Han}`).MatchString(h2) {
		t.Errorf("heading in Chinese = %q", h2)
	}
	step("phone", chromedp.EmulateViewport(390, 844), chromedp.Click(chromedp.CSS(`#tabbtn-recommend`)))
	var overflow bool
	step("phone width", into(chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`), &overflow))
	if overflow {
		t.Error("the page scrolls sideways on a phone")
	}
	shot("phone-zh")
	if len(errs()) > 0 {
		t.Errorf("JavaScript errors: %q", errs())
	}
	var blocked []string
	step("policy", into(browsertest.CSPViolations(), &blocked))
	if len(blocked) > 0 {
		t.Errorf("the content security policy blocked: %q", blocked)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// void runs a and drops its value.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// into runs a and stores its value in dst.
func into[T any](a chromedp.Action[T], dst *T) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		v, err := a(ctx, t)
		*dst = v
		return chromedp.Void{}, err
	}
}
