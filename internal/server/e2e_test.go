package server

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpupick/gpupick/internal/server/web/browsertest"

	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compat"
)

// e2eChromium returns the Chromium binary the end-to-end test drives:
// $GPUPICK_CHROMIUM, /usr/bin/chromium (Debian's, installed by .ci/run), or
// a chromium on PATH; "" when there is none.
// TestE2EWebPage drives the embedded web page in headless Chromium against
// the real API: filter offers, rank the preloaded workload, see the table
// and the Pareto chart, open a candidate, switch to Chinese. On failure it
// saves a screenshot under $GPUPICK_ARTIFACTS (or a kept temporary folder).
func TestE2EWebPage(t *testing.T) {
	bin := browsertest.Require(t)
	b, err := os.ReadFile("../../data/compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	matrix, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Catalog: catalogtest.Embedded(t), Compat: matrix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	// The whole browser session is bounded (2 min, start included); steps
	// share one 60 s budget and a screenshot on failure its own few seconds.
	sessionCtx, cancelSession := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancelSession()
	tabCtx, errs := browsertest.Start(t, sessionCtx)
	// Start the browser outside the step budget: a cold start can be slow.
	// The first action on tabCtx starts it, and a deadline on that action's
	// context would end the browser with it, so the bound is the parent's.
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	ctx, cancel := context.WithTimeout(tabCtx, 60*time.Second)
	defer cancel()
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			e2eScreenshot(t, tabCtx, name)
			t.Fatalf("%s: %v (JavaScript errors: %q)", name, err, errs())
		}
	}
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return e2eVoid(chromedp.Poll[bool](expr, chromedp.WithPollingInterval(100*time.Millisecond)))
	}

	step("load the page",
		browsertest.WatchCSP(),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#offers-table tbody tr`)),
	)
	step("filter offers by GPU",
		chromedp.SendKeys(chromedp.CSS(`#filter-gpu`), "h100-sxm"),
		chromedp.Click(chromedp.CSS(`#filter-apply`)),
		poll(`(() => { const rows = [...document.querySelectorAll('#offers-table tbody tr')];
			return rows.length > 0 && rows.every(r => r.cells[1].textContent.startsWith('h100-sxm ')); })()`),
	)
	step("rank the preloaded workload",
		chromedp.Click(chromedp.CSS(`#tabbtn-recommend`)),
		chromedp.WaitVisible(chromedp.CSS(`#recommend-run`)),
		chromedp.Click(chromedp.CSS(`#recommend-run`)),
		chromedp.WaitVisible(chromedp.CSS(`#candidates-table tbody tr`)),
		chromedp.WaitVisible(chromedp.CSS(`#pareto svg circle`)),
	)
	var detail string
	step("open the first candidate",
		chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:first-child td:nth-child(3)`)),
		chromedp.WaitVisible(chromedp.CSS(`#candidate-detail h4`)),
		poll(`!document.querySelector('#candidate-detail').hidden && document.querySelector('#candidate-detail').dataset.rank === '1'`),
		e2eInto(chromedp.Text(chromedp.CSS(`#candidate-detail`)), &detail),
	)
	if !strings.Contains(detail, "#1 ") {
		e2eScreenshot(t, tabCtx, "candidate detail")
		t.Fatalf("candidate detail does not name candidate #1:\n%s", detail)
	}
	var heading string
	step("switch to Chinese",
		chromedp.SetValue(chromedp.CSS(`#lang`), "zh"),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#lang').dispatchEvent(new Event('change'))`)),
		e2eInto(chromedp.Text(chromedp.CSS(`#tab-recommend h2`)), &heading),
	)
	if !regexp.MustCompile(`\p{Han}`).MatchString(heading) {
		e2eScreenshot(t, tabCtx, "chinese heading")
		t.Fatalf("heading after switching to Chinese = %q, want Chinese", heading)
	}
	var blocked []string
	step("nothing blocked on the page", e2eInto(browsertest.CSPViolations(), &blocked))
	if len(blocked) > 0 {
		t.Errorf("the content security policy blocked on the page: %q", blocked)
	}
	// The docs page runs its script from a file, under the same policy.
	step("open the API docs",
		chromedp.Navigate(ts.URL+"/docs"),
		chromedp.WaitVisible(chromedp.CSS(`#ops .op`)),
		e2eInto(browsertest.CSPViolations(), &blocked),
	)
	if len(blocked) > 0 {
		t.Errorf("the content security policy blocked on /docs: %q", blocked)
	}
	if len(errs()) > 0 {
		t.Errorf("JavaScript errors on the page: %q", errs())
	}
}

// TestE2ECrossOriginPage opens, in headless Chromium, a page of another
// origin (a second server, as a site the user happens to visit) that tries
// to start a simulation on the real server in the three ways a page can: a
// JSON fetch (needs CORS, which is off), a "simple" no-cors fetch of
// text/plain, and a submitted HTML form. None starts a job: the server
// refuses the two that reach it with 403. The server's own page, then,
// starts one.
func TestE2ECrossOriginPage(t *testing.T) {
	browsertest.Require(t)
	b, err := os.ReadFile("../../data/compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	matrix, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Catalog: catalogtest.Embedded(t), Compat: matrix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	var (
		mu    sync.Mutex
		posts []string // "Content-Type -> status" of each job start that reached the server
	)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		srv.Handler().ServeHTTP(sw, r)
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/simulations" {
			mu.Lock()
			posts = append(posts, fmt.Sprintf("%s -> %d", r.Header.Get("Content-Type"), sw.status))
			mu.Unlock()
		}
	}))
	t.Cleanup(target.Close)
	jobURL := target.URL + "/api/v1/simulations"
	service, err := json.Marshal(map[string]string{"service": example(t, "service-target.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	// The classic form CSRF: a text/plain body that reads as JSON.
	form := `<!doctype html><title>another site</title>
<form id="f" method="post" enctype="text/plain" target="sink" action="` + html.EscapeString(jobURL) + `">
<input name='{"service": "x", "pad": "' value='"}'></form><iframe name="sink"></iframe>`
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(form))
	}))
	t.Cleanup(site.Close)
	siteURL := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) // another site, not only another port

	sessionCtx, cancelSession := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancelSession()
	tabCtx, errs := browsertest.Start(t, sessionCtx)
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start the browser: %v", err)
	}
	ctx, cancel := context.WithTimeout(tabCtx, 60*time.Second)
	defer cancel()
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			e2eScreenshot(t, tabCtx, name)
			t.Fatalf("%s: %v (JavaScript errors: %q)", name, err, errs())
		}
	}
	attempt := func(opts string) string {
		return `fetch(` + jsonString(jobURL) + `, {method: "POST", ` + opts + `, body: ` + jsonString(string(service)) + `})
			.then(r => r.type === "opaque" ? "opaque" : "status " + r.status, e => "failed: " + e.message)`
	}
	var viaJSON, viaSimple string
	step("JSON fetch from another site",
		chromedp.Navigate(siteURL+"/"),
		e2eInto(chromedp.Evaluate[string](attempt(`headers: {"Content-Type": "application/json"}`), chromedp.EvalAwaitPromise), &viaJSON))
	step("no-cors text/plain fetch from another site",
		e2eInto(chromedp.Evaluate[string](attempt(`mode: "no-cors", headers: {"Content-Type": "text/plain"}`), chromedp.EvalAwaitPromise), &viaSimple))
	step("form post from another site",
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.getElementById("f").submit()`)))
	if !strings.HasPrefix(viaJSON, "failed") && viaJSON != "status 403" {
		t.Errorf("JSON fetch from another site: %s", viaJSON)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(posts)
		mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	got := append([]string(nil), posts...)
	mu.Unlock()
	t.Logf("from another site: JSON fetch %s; no-cors fetch %s; job starts that reached the server: %q", viaJSON, viaSimple, got)
	if len(got) < 2 {
		t.Errorf("the simple fetch (%s) and the form should reach the server; it saw %q", viaSimple, got)
	}
	for _, p := range got {
		if !strings.HasSuffix(p, "-> 403") {
			t.Errorf("a job start from another site was answered %s, want 403", p)
		}
	}

	var own string
	step("JSON fetch from the server's own page",
		chromedp.Navigate(target.URL+"/"),
		e2eInto(chromedp.Evaluate[string](strings.Replace(attempt(`headers: {"Content-Type": "application/json"}`), jsonString(jobURL), `"/api/v1/simulations"`, 1),
			chromedp.EvalAwaitPromise), &own))
	if own != "status 202" {
		t.Errorf("job start from the server's own page: %s", own)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// e2eScreenshot saves a full-page screenshot named after the failed step
// under $GPUPICK_ARTIFACTS, or a temporary folder that is kept, and logs
// its path.
func e2eScreenshot(t *testing.T, tabCtx context.Context, step string) {
	t.Helper()
	dir := os.Getenv("GPUPICK_ARTIFACTS")
	if dir == "" {
		d, err := os.MkdirTemp("", "gpupick-e2e-")
		if err != nil {
			t.Logf("screenshot: %v", err)
			return
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(tabCtx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot after %q failed: %v", step, err)
		return
	}
	name := fmt.Sprintf("%s-%s.png", t.Name(), regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(step), "-"))
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	t.Logf("screenshot after %q: %s", step, path)
}

// e2eVoid runs a and drops its value.
func e2eVoid[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// e2eInto runs a and stores its value in dst.
func e2eInto[T any](a chromedp.Action[T], dst *T) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		v, err := a(ctx, t)
		*dst = v
		return chromedp.Void{}, err
	}
}
