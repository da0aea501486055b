// Package browsertest starts headless Chromium for the web page's tests
// (the page's own, against a fake API, and the service's end-to-end test).
// Only tests import it.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium returns the browser to drive: $GPUPICK_CHROMIUM, Debian's
// /usr/bin/chromium, or chromium or chromium-browser on PATH; "" if none.
func Chromium() string {
	if p := os.Getenv("GPUPICK_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Require skips t under -short or without Chromium, saying why, and
// otherwise returns the browser's path.
func Require(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped under -short")
	}
	bin := Chromium()
	if bin == "" {
		t.Skip("no Chromium (set GPUPICK_CHROMIUM or install Debian's chromium)")
	}
	return bin
}

// Start calls Require, then prepares a headless browser (1280 x 900, English, a fresh profile) under parent and
// returns the context of its tab, which starts it on first use, and a
// function listing the JavaScript exceptions the page threw so far. The
// browser closes when the test ends.
func Start(t testing.TB, parent context.Context) (tab context.Context, jsErrors func() []string) {
	t.Helper()
	bin := Require(t)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	var (
		mu   sync.Mutex
		errs []string
	)
	tab, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			msg := e.ExceptionDetails.Text
			if x := e.ExceptionDetails.Exception; x != nil && x.Description != "" {
				msg += " " + x.Description
			}
			mu.Lock()
			errs = append(errs, msg)
			mu.Unlock()
		}
	}))
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	return tab, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), errs...) }
}

// WatchCSP makes every document the tab opens from now on record the
// content security policy violations it meets (an inline script or style
// the policy blocked), for CSPViolations to read. Run it before Navigate.
func WatchCSP() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchCSP})
		return err
	})
}

const watchCSP = `window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.effectiveDirective + " blocked " + (e.blockedURI || "?") + " at " + e.sourceFile + ":" + e.lineNumber);
});`

// CSPViolations lists the violations the current document met since it
// loaded (WatchCSP must have run before it loaded).
func CSPViolations() chromedp.Action[[]string] {
	return chromedp.Evaluate[[]string](`window.__cspViolations || ["WatchCSP did not run in this document"]`)
}
