// Package browsertest starts headless Chromium for the web page's tests
// (the page's own, against a fake API, and the service's end-to-end test).
// Only tests import it.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// AxeScript returns the text of axe-core's axe.min.js for Axe to inject:
// from $GPUPICK_AXE (the file, or a folder holding
// node_modules/axe-core/axe.min.js), else from the cache folder .ci/run
// installs it in ($XDG_CACHE_HOME or ~/.cache, gpupick-axe). It returns
// "" when there is none; with $GPUPICK_REQUIRE_AXE set (as in CI) a
// test should then fail rather than skip the check.
func AxeScript() string {
	var tries []string
	if p := os.Getenv("GPUPICK_AXE"); p != "" {
		tries = append(tries, p, filepath.Join(p, "node_modules", "axe-core", "axe.min.js"))
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache")
		}
	}
	if cache != "" {
		tries = append(tries, filepath.Join(cache, "gpupick-axe", "node_modules", "axe-core", "axe.min.js"))
	}
	for _, p := range tries {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				return string(b)
			}
		}
	}
	return ""
}

// Axe runs axe-core (its source from AxeScript) on the current document
// and returns its serious and critical violations, one line each: the
// rule, its impact, what it says and the first nodes it found. The script
// goes in through the DevTools protocol, which the page's content security
// policy does not govern.
func Axe(script string) chromedp.Action[[]string] {
	return func(ctx context.Context, t *chromedp.Target) ([]string, error) {
		if _, err := chromedp.Evaluate[chromedp.Void](script+"\n;void 0")(ctx, t); err != nil {
			return nil, fmt.Errorf("inject axe-core: %w", err)
		}
		return chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
			.filter(v => v.impact === "serious" || v.impact === "critical")
			.map(v => v.id + " (" + v.impact + "): " + v.help + " at " + v.nodes.slice(0, 3).map(n => n.target.join(" ") + " [" + (n.failureSummary || "").replace(/\s+/g, " ").slice(0, 160) + "]").join("; ")))`,
			chromedp.EvalAwaitPromise)(ctx, t)
	}
}

// Overflow reports how many CSS pixels the document is wider than the
// window (0 when nothing scrolls sideways), and the widest elements that
// stick out, for the message.
func Overflow() chromedp.Action[string] {
	return chromedp.Evaluate[string](`(() => {
  const w = window.innerWidth, sw = document.documentElement.scrollWidth;
  if (sw <= w) return "";
  const out = [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > w + 1 && e.getClientRects().length)
    .slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + String(e.className).split(" ").join(".") : "") + " right=" + Math.round(e.getBoundingClientRect().right));
  return "document " + sw + " px wide in a " + w + " px window: " + out.join(", ");
})()`)
}

// Screenshot saves a full-page PNG of the tab as dir/name.png ("" dir:
// nothing) and returns the path.
func Screenshot(ctx context.Context, dir, name string) (string, error) {
	if dir == "" {
		return "", nil
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: a PNG
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+".png")
	return p, os.WriteFile(p, png, 0o644)
}

// ElementScreenshot saves a PNG of the first element sel matches as
// dir/name.png ("" dir: nothing), for a closer look than a whole page
// shrunk to fit.
func ElementScreenshot(ctx context.Context, dir, name, sel string) (string, error) {
	if dir == "" {
		return "", nil
	}
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+".png")
	return p, os.WriteFile(p, png, 0o644)
}

// Commands are the names a Chinese page keeps in English: the commands and
// the words of the options it tells the user to run.
var Commands = []string{"gpupick", "probe", "recommend", "simulate", "token"}

// EnglishWords lists, once each, the English words a Chinese page shows in
// the elements sel matches: lower-case words of three letters or more,
// leaving out identifiers (anything with a digit, slash, dot, hyphen,
// underscore or @, and the words of the offer cells: ids and regions) and
// allow, the names that stay as they are (commands, frameworks). "" when
// there is none.
func EnglishWords(sel string, allow ...string) chromedp.Action[string] {
	a, _ := json.Marshal(allow)
	s, _ := json.Marshal(sel)
	return chromedp.Evaluate[string](`((sel, allow) => {
  const ids = new Set();
  document.querySelectorAll("td.offer, code").forEach(e => e.innerText.split(/\s+/).forEach(w => w && ids.add(w)));
  allow = new Set(allow);
  return [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).map(e => e.innerText).join(" ")
    .replace(/https?:\/\/\S+/g, " ") // an address is an identifier, in every language
    .split(/[^A-Za-z0-9\/_.@+-]+/).filter(w => w && !ids.has(w) && /^[a-z]{3,}$/.test(w) && !allow.has(w))
    .filter((w, i, a) => a.indexOf(w) === i).join(" ");
})(` + string(s) + `, ` + string(a) + `)`)
}
