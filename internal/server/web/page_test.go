package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpupick/gpupick/internal/server/web/browsertest"
)

// fakeAPI answers the page's API calls with canned documents from testdata/
// (made with the real API: `gpupick serve`, then POST /api/v1/recommend
// with top 0, trimmed to a few candidates and exclusions of each reason),
// so that the page can be tested in a browser without the real service.
// The server package's end-to-end test drives the same page against the
// real API. bodies records the body of every POST by path.
type fakeAPI struct {
	t      *testing.T
	mu     sync.Mutex
	bodies map[string][]map[string]any
	polls  atomic.Int32
}

func (f *fakeAPI) posted(path string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies[path]...)
}

func (f *fakeAPI) handler() http.Handler {
	t := f.t
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
	mux := http.NewServeMux()
	mux.Handle("GET /", Handler())
	mux.HandleFunc("GET /api/v1/offers", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("gpu") {
		case "h100-sxm":
			file("offers-h100-sxm.json")(w, r)
		case "":
			file("offers.json")(w, r)
		default:
			send(w, 400, map[string]any{"error": map[string]string{"code": "invalid", "field": "gpu", "message": "unknown accelerator \"" + r.URL.Query().Get("gpu") + "\""}})
		}
	})
	mux.HandleFunc("GET /api/v1/accelerators", file("accelerators.json"))
	mux.HandleFunc("GET /api/v1/providers", file("providers.json"))
	mux.HandleFunc("GET /api/v1/workloads", func(w http.ResponseWriter, r *http.Request) { send(w, 200, []any{}) })
	mux.HandleFunc("POST /api/v1/validate", func(w http.ResponseWriter, r *http.Request) {
		req := f.body(r)
		wl, _ := req["workload"].(string)
		if i := strings.Index(wl, "bogus"); i >= 0 {
			line := strings.Count(wl[:i], "\n") + 1
			send(w, 200, map[string]any{"ok": false, "errors": []map[string]any{{"field": "training.bogus", "line": line, "message": "unknown field"}}})
			return
		}
		send(w, 200, map[string]any{"ok": true, "defaults": []map[string]string{{"field": "data.bytes_per_sample", "value": "16384", "why": "not set"}}})
	})
	mux.HandleFunc("POST /api/v1/recommend", func(w http.ResponseWriter, r *http.Request) {
		req := f.body(r)
		wl, _ := req["workload"].(string)
		suffix := "" // the documents the API answers in English or in Chinese
		if req["lang"] == "zh" {
			suffix = "-zh"
		}
		switch {
		case strings.Contains(wl, "bogus"):
			send(w, 400, map[string]any{"error": map[string]any{"code": "invalid", "field": "training.bogus", "line": 3, "message": "unknown field"}})
		case strings.Contains(wl, "kind: llm-inference"):
			file("recommend-service"+suffix+".json")(w, r)
		default:
			file("recommend"+suffix+".json")(w, r)
		}
	})
	mux.HandleFunc("POST /api/v1/check", func(w http.ResponseWriter, r *http.Request) { f.body(r); file("check.json")(w, r) })
	mux.HandleFunc("POST /api/v1/explain", func(w http.ResponseWriter, r *http.Request) {
		req := f.body(r)
		send(w, 200, map[string]string{"text": fmt.Sprintf("why %v, step by step", req["offer"])})
	})
	mux.HandleFunc("POST /api/v1/simulations", func(w http.ResponseWriter, r *http.Request) {
		f.body(r)
		f.polls.Store(0)
		send(w, 202, map[string]any{"id": "sim-1", "status": "running", "progress": 0})
	})
	mux.HandleFunc("GET /api/v1/simulations/{id}", func(w http.ResponseWriter, r *http.Request) {
		if f.polls.Add(1) < 3 {
			send(w, 200, map[string]any{"id": "sim-1", "status": "running", "progress": 0.5})
			return
		}
		last := f.posted("/api/v1/simulations")
		if len(last) > 0 && strings.Contains(fmt.Sprint(last[len(last)-1]["service"]), "kind: fixed") {
			send(w, 200, map[string]any{"id": "sim-1", "status": "done", "progress": 1, "result": flatFleet()})
			return
		}
		file("simulation.json")(w, r)
	})
	mux.HandleFunc("DELETE /api/v1/simulations/{id}", func(w http.ResponseWriter, r *http.Request) {
		send(w, 200, map[string]any{"id": "sim-1", "status": "cancelled"})
	})
	// Served under the policy the real server sends, so that the page is
	// tested with what it may not do (inline script, style attributes).
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", ContentSecurityPolicy)
		mux.ServeHTTP(w, r)
	})
}

// body reads and records a JSON request body.
func (f *fakeAPI) body(r *http.Request) map[string]any {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	f.mu.Lock()
	if f.bodies == nil {
		f.bodies = map[string][]map[string]any{}
	}
	f.bodies[r.URL.Path] = append(f.bodies[r.URL.Path], m)
	f.mu.Unlock()
	return m
}

// flatFleet is a simulation of a fixed fleet of 5 replicas whose series
// carries the float noise time-averaging leaves (4.9999999 to 5.0000008).
func flatFleet() map[string]any {
	var series []map[string]any
	for i := range 48 {
		series = append(series, map[string]any{"t_s": i * 1800, "arrivals_per_s": 1 + 0.1*float64(i%3),
			"replicas": 5 + []float64{-1e-7, 8e-7, 0, 3e-7}[i%4], "in_flight": 2, "p95_latency_s": 1.5})
	}
	return map[string]any{"name": "flat", "requests": 1000, "completed": 1000, "latency_s": map[string]float64{"p95": 1.5, "p99": 2},
		"slo_violation_fraction": 0.001, "slo_met": true, "replica_hours": 120, "cost_usd": 300, "utilization": 0.5, "peak_replicas": 5, "series": series}
}

// page is a browser tab on the fake API for one test.
type page struct {
	t    *testing.T
	ctx  context.Context
	errs func() []string
	api  *fakeAPI
	url  string
	axe  string
}

func openPage(t *testing.T) *page {
	tabCtx, errs := browsertest.Start(t, context.Background())
	f := &fakeAPI{t: t}
	ts := httptest.NewServer(f.handler())
	t.Cleanup(ts.Close)
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start the browser: %v", err)
	}
	ctx, cancel := context.WithTimeout(tabCtx, 90*time.Second)
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx, errs: errs, api: f, url: ts.URL, axe: browsertest.AxeScript()}
	if p.axe == "" && os.Getenv("GPUPICK_REQUIRE_AXE") != "" {
		t.Fatal("GPUPICK_REQUIRE_AXE is set but axe-core is not installed (see browsertest.AxeScript)")
	}
	p.step("watch the policy", browsertest.WatchCSP())
	t.Cleanup(func() {
		var blocked []string
		if err := chromedp.Do(ctx, into(browsertest.CSPViolations(), &blocked)); err == nil && len(blocked) > 0 {
			t.Errorf("the content security policy blocked: %q", blocked)
		}
		if e := errs(); len(e) > 0 {
			t.Errorf("JavaScript errors: %q", e)
		}
	})
	return p
}

func (p *page) step(name string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.shot("failed-" + regexp.MustCompile(`\W+`).ReplaceAllString(name, "-"))
		p.t.Fatalf("%s: %v (JavaScript errors: %q)", name, err, p.errs())
	}
}

func (p *page) shot(name string) {
	if path, err := browsertest.Screenshot(p.ctx, os.Getenv("GPUPICK_ARTIFACTS"), "page-"+name); err == nil && path != "" {
		p.t.Logf("screenshot: %s", path)
	}
}

// compare ticks rows 1 and 3 and compares them.
func (p *page) compare() {
	p.t.Helper()
	p.step("compare", chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(1) input.compare`)),
		chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(3) input.compare`)),
		chromedp.Click(chromedp.CSS(`#compare-run`)), chromedp.WaitVisible(chromedp.CSS(`#compare-table`)))
	if n := p.eval(`String(document.querySelectorAll('#compare-table thead th').length)`); n != "3" {
		p.t.Errorf("comparison columns = %s, want 3 (labels + 2 candidates)", n)
	}
}

// part saves a screenshot of one element.
func (p *page) part(name, sel string) {
	if path, err := browsertest.ElementScreenshot(p.ctx, os.Getenv("GPUPICK_ARTIFACTS"), "page-"+name, sel); err == nil && path != "" {
		p.t.Logf("screenshot: %s", path)
	}
}

func (p *page) poll(expr string) chromedp.Action[chromedp.Void] {
	return void(chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second)))
}

func (p *page) eval(expr string) string {
	p.t.Helper()
	var s string
	p.step("evaluate "+expr, into(chromedp.Evaluate[string](expr), &s))
	return s
}

func (p *page) text(sel string) string {
	return p.eval(`(() => { const e = document.querySelector(` + jsString(sel) + `); return e ? e.innerText : "<missing>"; })()`)
}

func (p *page) load(query string, width int64, lang string) {
	p.t.Helper()
	p.step("load", chromedp.EmulateViewport(width, 900), chromedp.Navigate(p.url+"/?lang="+lang+query),
		p.poll(`document.documentElement.dataset.ready === "1"`))
}

func (p *page) rank() {
	p.t.Helper()
	p.step("rank", void(chromedp.Evaluate[chromedp.Void](`document.querySelector('#answer-headline').textContent = ""`)),
		chromedp.Click(chromedp.CSS(`#recommend-run`)),
		p.poll(`document.querySelector('#answer-headline').textContent !== "" && !document.querySelector('#recommend-run').disabled`))
}

// checkView: no sideways scrolling at phone width, no serious or critical
// accessibility violation (when axe-core is installed).
func (p *page) checkView(name string, width int64) {
	p.t.Helper()
	var over string
	p.step("overflow", into(browsertest.Overflow(), &over))
	if over != "" {
		p.t.Errorf("%s: %s", name, over)
	}
	if p.axe != "" {
		var bad []string
		p.step("axe", into(browsertest.Axe(p.axe), &bad))
		for _, v := range bad {
			p.t.Errorf("%s: accessibility: %s", name, v)
		}
	}
	p.shot(name)
}

// TestAnswerFirst ranks the LoRA fixture at both widths in both
// languages: the answer block comes before the ranking, with the pick,
// the factors with both numbers, the cost by part, the time, how sure,
// the risks with the spot pick's figures; the table shows the rows asked
// for while the chart plots every candidate; exclusions are grouped by
// reason with counts; the row detail scrolls into view and its full
// reasoning is asked for in the page's language; at 390 px the key
// columns fit without scrolling.
func TestAnswerFirst(t *testing.T) {
	p := openPage(t)
	var rec struct {
		Candidates []struct {
			Offer string `json:"offer"`
		} `json:"candidates"`
		Excluded []struct {
			ReasonCode string `json:"reason_code"`
		} `json:"excluded"`
		Answer struct {
			Pick struct {
				Offer string `json:"offer"`
			} `json:"pick"`
		} `json:"answer"`
	}
	b, err := os.ReadFile("testdata/recommend.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		for _, width := range []int64{1400, 390} {
			t.Run(fmt.Sprintf("%s-%d", lang, width), func(t *testing.T) {
				p.t = t
				zh := lang == "zh"
				p.load("#recommend", width, lang)
				p.rank()
				if p.eval(`String(document.querySelector('#answer').getBoundingClientRect().bottom <= document.querySelector('#candidates-table').getBoundingClientRect().top)`) != "true" {
					t.Error("the answer is not above the ranking")
				}
				if h := p.text("#answer-headline"); !strings.Contains(h, rec.Answer.Pick.Offer) {
					t.Errorf("headline %q, want the pick %s", h, rec.Answer.Pick.Offer)
				}
				want := map[bool][]string{
					false: {"Objective: lowest total cost", "Why #1 beats the runner-up", "total cost", "$16.95", "$17.98",
						"What it costs", "compute", "spot overhead", "How long", "1.4", "How sure", "58%", "What could go wrong",
						"spot interruptions per instance-hour", "checkpoint every (h)", "chance of missing the deadline"},
					true: {"优化目标：总成本最低", "第 1 名为何胜过次优选择", "总成本", "$16.95", "$17.98",
						"成本", "计算", "抢占开销", "耗时", "1.4", "把握有多大", "58%", "可能的风险",
						"每实例·小时抢占次数", "检查点间隔（小时）", "错过截止时间的概率"},
				}[zh]
				answer := p.text("#answer")
				for _, w := range want {
					if !strings.Contains(answer, w) {
						t.Errorf("the answer lacks %q:\n%s", w, answer)
					}
				}
				rows, _ := strconv.Atoi(p.eval(`String(document.querySelectorAll('#candidates-table tbody tr').length)`))
				points, _ := strconv.Atoi(p.eval(`String(document.querySelectorAll('#pareto svg circle').length)`))
				if rows != 10 || points != len(rec.Candidates) {
					t.Errorf("%d rows, %d points: want 10 rows and all %d candidates plotted", rows, points, len(rec.Candidates))
				}
				p.step("show all", chromedp.Click(chromedp.CSS(`#show-all`)),
					p.poll(`document.querySelectorAll('#candidates-table tbody tr').length === `+strconv.Itoa(len(rec.Candidates))),
					chromedp.Click(chromedp.CSS(`#show-all`)), p.poll(`document.querySelectorAll('#candidates-table tbody tr').length === 10`))
				head := p.text("#candidates-table thead")
				unit := map[bool]string{false: "USD per million tokens trained", true: "美元/百万训练 token"}[zh]
				if width > 800 && !strings.Contains(head, unit) {
					t.Errorf("the unit is not in the header %q", head)
				}
				if strings.Contains(p.text("#candidates-table tbody"), unit) {
					t.Error("the unit is repeated in the rows")
				}
				if d := p.eval(`(() => { const v = [...document.querySelectorAll('#candidates-table tbody tr')].map(r => r.cells[6].innerText.split(" ")[0]);
					const d = v.map(s => (s.split(".")[1] || "").length); return d.every(x => x === d[0]) ? "" : v.join(" "); })()`); d != "" {
					t.Errorf("total column with varying decimals: %s", d)
				}
				// The deadline (24 h) is within the chart's reach and drawn; the
				// budget ($1,000) is 10 times the dearest candidate and left out
				// rather than squash every point to the bottom.
				if l := p.eval(`[...document.querySelectorAll('#pareto text.limit-label')].map(e => e.textContent).join("|")`); l != map[bool]string{false: "deadline 24 h", true: "截止 24 小时"}[zh] {
					t.Errorf("chart reference lines %q", l)
				}
				// Exclusions: one group per reason, counts adding up.
				groups := map[string]int{}
				for _, x := range rec.Excluded {
					groups[x.ReasonCode]++
				}
				var got map[string]int
				p.step("groups", into(chromedp.Evaluate[map[string]int](`Object.fromEntries([...document.querySelectorAll('#excluded-groups details')].map(d => [d.dataset.code, +d.querySelector('.count').textContent.replace(/\D/g, "")]))`), &got))
				if fmt.Sprint(got) != fmt.Sprint(groups) {
					t.Errorf("excluded groups %v, want %v", got, groups)
				}
				if zh {
					for _, sel := range []string{"#answer", "#candidates-table", "#excluded-groups summary", "#pareto"} {
						var left string
						p.step("English", into(browsertest.EnglishWords(sel, englishAllowed...), &left))
						if left != "" {
							t.Errorf("English words on the Chinese page in %s: %s", sel, left)
						}
					}
				}
				// Key columns fit on a phone.
				if width < 800 {
					if o := p.eval(`(() => { const s = document.querySelector('#candidates-scroll'); return s.scrollWidth > s.clientWidth + 1 ? s.scrollWidth + " > " + s.clientWidth : ""; })()`); o != "" {
						t.Errorf("the ranking scrolls sideways on a phone: %s", o)
					}
				}
				p.checkView("answer-"+lang+"-"+strconv.Itoa(int(width)), width)
				p.part("answer-block-"+lang+"-"+strconv.Itoa(int(width)), "#answer")
				p.part("ranking-"+lang+"-"+strconv.Itoa(int(width)), "#candidates-scroll")

				// Two rows side by side (the ticks are a desktop column).
				if width > 800 {
					p.compare()
				}

				// Detail, scrolled into view, and its full reasoning in the page's language.
				p.step("detail", chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(2) td.offer`)),
					p.poll(`document.querySelector('#candidate-detail').dataset.rank === '2'`),
					p.poll(`(() => { const r = document.querySelector('#candidate-detail').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })()`),
					chromedp.WaitVisible(chromedp.CSS(`#cost-bar span`)),
					chromedp.Click(chromedp.CSS(`#detail-explain summary`)),
					p.poll(`document.querySelector('#detail-explain .explain').textContent.startsWith('why ')`))
				ex := p.api.posted("/api/v1/explain")
				if len(ex) == 0 || ex[len(ex)-1]["lang"] != lang || ex[len(ex)-1]["offer"] != rec.Candidates[1].Offer {
					t.Errorf("explain asked with %v, want lang %s and offer %s", ex, lang, rec.Candidates[1].Offer)
				}
				rq := p.api.posted("/api/v1/recommend")
				if last := rq[len(rq)-1]; last["lang"] != lang || last["top"] != float64(0) {
					t.Errorf("recommend asked with lang %v top %v: want %s and 0 (every candidate, for the chart)", last["lang"], last["top"], lang)
				}
			})
		}
	}
}

// TestService: a service reads as one: replicas (not nodes), $/hour,
// $/month, $/million tokens, TTFT and TPOT against the SLO; no hours
// column, no "Total $"; its chart is $/month against TTFT with the SLO.
func TestService(t *testing.T) {
	p := openPage(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			p.t = t
			zh := lang == "zh"
			p.load("#recommend", 1400, lang)
			p.step("service example", chromedp.SetValue(chromedp.CSS(`#example`), "llama3-70b-chat.yaml"),
				void(chromedp.Evaluate[chromedp.Void](`document.querySelector('#example').dispatchEvent(new Event('change'))`)),
				p.poll(`document.querySelector('#workload').value.includes('kind: llm-inference')`))
			p.rank()
			head := p.text("#candidates-table thead")
			for _, w := range map[bool][]string{false: {"Replicas", "$/hour", "$/month", "$/M tokens", "TTFT ms", "TPOT ms"}, true: {"副本", "$/小时", "$/月", "$/百万 token", "首 token 毫秒", "每 token 毫秒"}}[zh] {
				if !strings.Contains(head, w) {
					t.Errorf("service headers %q lack %q", head, w)
				}
			}
			for _, bad := range []string{"Hours", "Total $", "小时（", "总价"} {
				if strings.Contains(head, bad) {
					t.Errorf("service headers %q show %q", head, bad)
				}
			}
			if c := p.text("#candidates-table tbody tr td:nth-child(4)"); !regexp.MustCompile(`^3 × `).MatchString(c) {
				t.Errorf("replicas cell %q: want 3 × the GPUs of one replica", c)
			}
			svc := p.text("#answer-service")
			for _, w := range map[bool][]string{false: {"replicas", "3", "$41.34", "$30,204", "$1.28", "80 (SLO 500)", "42 (SLO 50)", "meets the SLO"},
				true: {"副本数", "3", "$41.34", "$30,204", "$1.28", "80（SLO 500）", "42（SLO 50）", "满足 SLO"}}[zh] {
				if !strings.Contains(svc, w) {
					t.Errorf("service figures lack %q:\n%s", w, svc)
				}
			}
			if l := p.eval(`[...document.querySelectorAll('#pareto text.limit-label')].map(e => e.textContent).join("|")`); !strings.Contains(l, map[bool]string{false: "SLO 500 ms", true: "SLO 500 毫秒"}[zh]) {
				t.Errorf("no TTFT SLO line on the service chart: %q", l)
			}
			if c := p.text("#pareto-caption"); !strings.Contains(c, map[bool]string{false: "per month against time to first token", true: "每月成本与首 token 时间"}[zh]) {
				t.Errorf("service chart caption %q", c)
			}
			p.checkView("service-"+lang, 1400)
		})
	}
}

// TestStaleResults: a failing request marks the results still on screen
// as the previous run's, and shows the error at its line.
func TestStaleResults(t *testing.T) {
	p := openPage(t)
	p.load("#recommend", 1400, "en")
	p.rank()
	p.step("fail", chromedp.SendKeys(chromedp.CSS(`#workload`), "\nbogus: 1"), chromedp.Click(chromedp.CSS(`#recommend-run`)),
		p.poll(`!document.querySelector('#result-stale').hidden`))
	if s := p.text("#result-stale"); !strings.Contains(s, "previous run") {
		t.Errorf("stale note %q", s)
	}
	if e := p.text("#workload-errors"); !strings.Contains(e, "line 3: training.bogus unknown field") {
		t.Errorf("error shown as %q", e)
	}
	if p.eval(`String(document.querySelector('#recommend-result').classList.contains('stale'))`) != "true" {
		t.Error("old results not marked")
	}
}

// TestOffersTab: filters come from and go to the query string; the price
// columns are those of the pricing mode filtered on, per GPU, per instance
// and per month; an offer with no published price reads "price unknown",
// one not sold in a mode "not offered"; an unknown GPU's 400 is shown and
// the old rows go.
func TestOffersTab(t *testing.T) {
	p := openPage(t)
	for _, width := range []int64{1400, 390} {
		p.load("&provider=aws&pricing=spot#offers", width, "en")
		p.step("rows", p.poll(`document.querySelectorAll('#offers-table tbody tr').length === 25`))
		if v := p.eval(`document.querySelector('#filter-provider').value + " " + document.querySelector('#filter-pricing').value`); v != "aws spot" {
			t.Errorf("filters from the address: %q", v)
		}
		head := p.text("#offers-table thead")
		for _, w := range []string{"spot $/GPU-h", "spot $/instance-h", "spot $/month", "vCPU", "RAM GiB", "NVMe TB"} {
			if width > 800 && !strings.Contains(head, w) {
				t.Errorf("offers headers %q lack %q", head, w)
			}
		}
		// Huawei publishes no on-demand price (unknown) and sells no spot
		// (not offered): in the spot listing its rows are "not offered".
		if n := p.eval(`String(document.querySelectorAll('#offers-table tr[data-offer^="huawei/"] td.not-offered').length)`); n == "0" {
			t.Errorf("huawei's spot prices not shown as not offered:\n%s", p.text("#offers-table tbody"))
		}
		p.checkView("offers-"+strconv.Itoa(int(width)), width)
	}
	p.load("&provider=aws#offers", 1400, "en")
	p.step("on-demand rows", p.poll(`document.querySelectorAll('#offers-table tbody tr').length === 25`))
	if n := p.eval(`String(document.querySelectorAll('#offers-table tr[data-offer^="huawei/"] td:nth-child(8).price-unknown').length)`); n != "5" {
		t.Errorf("%s of huawei's 5 on-demand $/GPU-h cells read price unknown", n)
	}
	p.step("unknown gpu", chromedp.SetValue(chromedp.CSS(`#filter-gpu`), "nope"), chromedp.Click(chromedp.CSS(`#filter-apply`)),
		p.poll(`document.querySelector('#offers-status').classList.contains('error')`))
	if s := p.text("#offers-status"); !strings.Contains(s, `unknown accelerator "nope"`) {
		t.Errorf("status %q", s)
	}
	if n := p.eval(`String(document.querySelectorAll('#offers-table tbody tr').length)`); n != "0" {
		t.Errorf("%s old rows left under the error", n)
	}
	if q := p.eval(`location.search`); !strings.Contains(q, "gpu=nope") || !strings.Contains(q, "provider=aws") || !strings.Contains(q, "sort=price-per-gpu") {
		t.Errorf("query string %q", q)
	}
}

// TestSimulate: a model service sends its workload text; a trace file is
// sent as text; the progress shows; a flat fleet is drawn flat (the float
// noise of time-averaging rounded away); the latency chart has the SLO.
func TestSimulate(t *testing.T) {
	p := openPage(t)
	p.load("#simulate", 1400, "en")
	p.step("model example", chromedp.SetValue(chromedp.CSS(`#sim-example`), "service-model.yaml"),
		void(chromedp.Evaluate[chromedp.Void](`document.querySelector('#sim-example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#sim-workload').value.includes('name: llama3-70b-chat')`))
	trace := filepath.Join(t.TempDir(), "trace.csv")
	os.WriteFile(trace, []byte("timestamp,prompt_tokens,output_tokens\n0,10,10\n"), 0o644)
	p.step("trace", chromedp.SetUploadFiles(chromedp.CSS(`#trace-file`), []string{trace}),
		p.poll(`document.querySelector('#trace-status').textContent.includes('trace.csv')`),
		chromedp.Click(chromedp.CSS(`#sim-search`)),
		chromedp.Click(chromedp.CSS(`#sim-run`)),
		p.poll(`!document.querySelector('#sim-progress').hidden && document.querySelector('#sim-status').textContent.includes('50%')`),
		p.poll(`document.querySelectorAll('#sim-charts svg polyline').length === 3`))
	sent := p.api.posted("/api/v1/simulations")
	if len(sent) != 1 || !strings.Contains(fmt.Sprint(sent[0]["workload"]), "name: llama3-70b-chat") ||
		!strings.Contains(fmt.Sprint(sent[0]["trace"]), "0,10,10") || sent[0]["search"] != true {
		t.Errorf("simulation asked with %v", sent)
	}
	if n := p.eval(`String(document.querySelectorAll('#sim-charts [data-chart=latency] line.limit').length)`); n != "1" {
		t.Error("no SLO line on the latency chart")
	}
	p.checkView("simulate", 1400)
	p.step("fixed example", chromedp.SetValue(chromedp.CSS(`#sim-example`), "service-fixed.yaml"),
		void(chromedp.Evaluate[chromedp.Void](`document.querySelector('#sim-example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#service').value.includes('kind: fixed')`),
		chromedp.Click(chromedp.CSS(`#sim-run`)),
		p.poll(`document.querySelectorAll('#sim-charts svg polyline').length === 3 && document.querySelector('#sim-status').textContent === 'Done.'`))
	ys := p.eval(`[...new Set(document.querySelector('#sim-charts [data-chart=replicas] polyline').getAttribute('points').split(" ").map(p => p.split(",")[1]))].join(" ")`)
	if strings.Contains(ys, " ") {
		t.Errorf("a flat fleet of 5 drawn at heights %s", ys)
	}
	// Its axis starts at 0, so that scaling to zero would show.
	if lo := p.eval(`[...document.querySelectorAll('#sim-charts [data-chart=replicas] text')].map(e => e.textContent).filter(s => /^[\d.,]+$/.test(s))[0]`); lo != "0" {
		t.Errorf("replicas axis starts at %q, want 0", lo)
	}
}

// englishAllowed are the names a Chinese page keeps in English: commands
// and options it tells the user to run.
var englishAllowed = browsertest.Commands

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

// TestLanguageSwitch: switching language with a result on screen asks the
// API again in the new language, so that its sentences follow the labels.
func TestLanguageSwitch(t *testing.T) {
	p := openPage(t)
	p.load("#recommend", 1400, "en")
	p.rank()
	if h := p.text("#answer-headline"); !strings.HasPrefix(h, "Run it on ") {
		t.Fatalf("English headline %q", h)
	}
	p.step("to Chinese", chromedp.SetValue(chromedp.CSS(`#lang`), "zh"),
		void(chromedp.Evaluate[chromedp.Void](`document.querySelector('#lang').dispatchEvent(new Event('change'))`)),
		p.poll(`/\p{Script=Han}/u.test(document.querySelector('#answer-headline').textContent)`))
	rq := p.api.posted("/api/v1/recommend")
	if len(rq) != 2 || rq[1]["lang"] != "zh" || rq[1]["workload"] != rq[0]["workload"] {
		t.Errorf("after the switch the page asked %d times, last with lang %v", len(rq), rq[len(rq)-1]["lang"])
	}
	if h := p.text("#tab-recommend h1"); h != "描述工作负载" {
		t.Errorf("heading %q", h)
	}
	if q := p.eval(`document.documentElement.lang`); q != "zh-CN" {
		t.Errorf("html lang %q", q)
	}
}
