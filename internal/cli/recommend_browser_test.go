package cli

import (
	"bytes"
	"context"
	"fmt"
	"github.com/gpupick/gpupick/internal/perf"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/server/web/browsertest"
)

// TestRecommendHTMLInBrowser opens the HTML report of a training job, a
// service and a nothing-qualifies case, on the embedded catalog, in
// headless Chromium at 1400 and 390 px in English and Chinese, and checks
// what a reader sees: the answer first, nothing wider than the window, no
// English word left in the Chinese report, and (with axe-core) no serious
// or critical accessibility violation. Screenshots go to
// $GPUPICK_ARTIFACTS when it is set.
func TestRecommendHTMLInBrowser(t *testing.T) {
	browsertest.Require(t)
	axe := browsertest.AxeScript()
	if axe == "" && os.Getenv("GPUPICK_REQUIRE_AXE") != "" {
		t.Fatal("GPUPICK_REQUIRE_AXE is set but axe-core is not installed (see browsertest.AxeScript)")
	}
	dir := t.TempDir()
	type report struct{ name, file, lang, path string }
	var reports []report
	for _, c := range []struct{ name, file string }{
		{"job", "../../examples/llama3-8b-lora.yaml"},
		{"service", "../../examples/llama3-70b-chat.yaml"},
		{"none", "testdata/none-near.yaml"},
		{"image-job", "../../examples/sdxl-images.yaml"},
		{"image-service", "../../examples/flux-image-api.yaml"},
	} {
		for _, lang := range []string{"en", "zh"} {
			var out, errb bytes.Buffer
			e := NewEnv(&out, &errb)
			e.Now = func() time.Time { return fixedNow }
			e.Getenv = noStore(t)
			code := Execute(e, []string{"recommend", "-f", c.file, "-o", "html", "--lang", lang})
			if code != 0 && !(c.name == "none" && code == 1) {
				t.Fatalf("%s %s: exit %d: %s", c.name, lang, code, errb.String())
			}
			p := filepath.Join(dir, c.name+"-"+lang+".html")
			if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			reports = append(reports, report{c.name, c.file, lang, p})
		}
	}
	// Names stay as they are: commands, units, and the words of provider,
	// offer and region ids (a sentence names an offer as "coreweave/NVIDIA
	// GB200 NVL72 (4-GPU slice)"; a marketplace's region is "default").
	allow := append([]string{"calibrate", "bench", "log", "constraints"}, browsertest.Commands...)
	for _, o := range catalogtest.Embedded(t).Offers {
		allow = append(allow, strings.FieldsFunc(strings.ToLower(o.ID()+" "+o.Region), func(r rune) bool { return r < 'a' || r > 'z' })...)
	}
	slices.Sort(allow)
	// The published results beside the answer name their models and
	// frameworks as their sources do (product names).
	for _, r := range perf.EvidenceRows() {
		allow = append(allow, strings.FieldsFunc(strings.ToLower(r.Model+" "+r.Framework), func(r rune) bool { return r < 'a' || r > 'z' })...)
	}
	slices.Sort(allow)
	allow = slices.Compact(allow)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tab, jsErrors := browsertest.Start(t, ctx)
	if err := chromedp.Do(tab); err != nil { // start it here: a subtest's context ending must not close it
		t.Fatalf("start the browser: %v", err)
	}
	shots := os.Getenv("GPUPICK_ARTIFACTS")
	for _, width := range []int64{1400, 390} {
		for _, r := range reports {
			name := fmt.Sprintf("report-%s-%s-%d", r.name, r.lang, width)
			t.Run(name, func(t *testing.T) {
				tab, cancel := context.WithTimeout(tab, time.Minute)
				defer cancel()
				var headline, over, english string
				var first bool
				err := chromedp.Do(tab,
					chromedp.EmulateViewport(width, 900),
					chromedp.Navigate("file://"+r.path),
					chromedp.WaitVisible(chromedp.CSS("section.answer .headline")),
					into(chromedp.Evaluate[string](`document.querySelector("section.answer .headline").innerText`), &headline),
					// The answer comes before the chart, the ranking and the exclusions.
					into(chromedp.Evaluate[bool](`(() => { const a = document.querySelector("section.answer");
						return [...document.querySelectorAll("figure, table, details:not(section.answer details)")].every(e => a.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING); })()`), &first),
					into(browsertest.Overflow(), &over))
				if err != nil {
					t.Fatal(err)
				}
				if headline == "" || !first {
					t.Errorf("the answer does not open the report (headline %q, first %v)", headline, first)
				}
				if over != "" {
					t.Errorf("sideways scrolling: %s", over)
				}
				if r.lang == "zh" {
					if err := chromedp.Do(tab, into(browsertest.EnglishWords("body", allow...), &english)); err != nil {
						t.Fatal(err)
					}
					if english != "" {
						t.Errorf("English words in the Chinese report: %s", english)
					}
				}
				if axe != "" {
					var bad []string
					if err := chromedp.Do(tab, into(browsertest.Axe(axe), &bad)); err != nil {
						t.Fatal(err)
					}
					for _, v := range bad {
						t.Errorf("accessibility: %s", v)
					}
				}
				if _, err := browsertest.Screenshot(tab, shots, name); err != nil {
					t.Error(err)
				}
			})
		}
	}
	if e := jsErrors(); len(e) > 0 {
		t.Errorf("JavaScript errors (the report has no scripts): %q", e)
	}
}

// into stores what a browser action returns in dst.
func into[T any](a chromedp.Action[T], dst *T) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		v, err := a(ctx, t)
		*dst = v
		return chromedp.Void{}, err
	}
}
