package server

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gpupick/gpupick/internal/server/web/browsertest"

	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compat"
)

// TestE2EPage drives the embedded page in headless Chromium against the
// real API, in English and Chinese, at 1400 px and 390 px, as a user
// would: rank a training job, a service and a workload nothing qualifies
// for, open a candidate and its full reasoning, filter offers from the
// address bar, run a model-based simulation and a policy search (and
// cancel one), save and reload a workload, and open a missing page. It
// checks what the user sees: the answer before the ranking with its
// reasons, costs, time, confidence and risks; services labelled as
// services; every exclusion reachable; no sideways scrolling on a phone;
// no English data string on the Chinese page; nothing the content security
// policy blocks; and, with axe-core (see browsertest.AxeScript), no
// serious or critical accessibility violation on any view. Screenshots of
// each view go to $GPUPICK_ARTIFACTS when it is set.
func TestE2EPage(t *testing.T) {
	browsertest.Require(t)
	axe := browsertest.AxeScript()
	if axe == "" {
		if os.Getenv("GPUPICK_REQUIRE_AXE") != "" {
			t.Fatal("GPUPICK_REQUIRE_AXE is set but axe-core is not installed (see browsertest.AxeScript)")
		}
		t.Log("axe-core not installed: the accessibility checks are skipped (.ci/run installs it)")
	}
	logs := &lockedBuffer{}
	srv := testServer(t, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	t.Cleanup(func() {
		if s := logs.String(); t.Failed() && s != "" {
			t.Logf("the server's warnings and errors:\n%s", s)
		}
	})
	token := addToken(t, srv)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	artifacts := os.Getenv("GPUPICK_ARTIFACTS")

	sessionCtx, cancelSession := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancelSession()
	tabCtx, errs := browsertest.Start(t, sessionCtx)
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start the browser: %v", err)
	}
	if err := chromedp.Do(tabCtx, browsertest.WatchCSP()); err != nil {
		t.Fatal(err)
	}

	for _, lang := range []string{"en", "zh"} {
		for _, width := range []int64{1400, 390} {
			t.Run(fmt.Sprintf("%s-%d", lang, width), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(tabCtx, 4*time.Minute)
				defer cancel()
				p := &pageCheck{t: t, ctx: ctx, tab: tabCtx, errs: errs, axe: axe, lang: lang, width: width,
					shots: artifacts, name: fmt.Sprintf("%s-%d", lang, width)}
				p.do("viewport", chromedp.EmulateViewport(width, 900))
				p.recommendJob(ts.URL)
				p.recommendService()
				p.recommendImageService()
				if width == 1400 {
					p.recommendImageJob()
				}
				p.nothingQualifies()
				p.offers(ts.URL)
				p.simulate(ts.URL)
				if width == 1400 {
					p.downloads(ts.URL)
				}
				if lang == "en" && width == 1400 {
					p.savedWorkloads(ts.URL, token)
					p.calibrate(ts.URL)
				}
				p.notFound(ts.URL)
				var blocked []string
				p.do("policy", e2eInto(browsertest.CSPViolations(), &blocked))
				if len(blocked) > 0 {
					t.Errorf("the content security policy blocked: %q", blocked)
				}
				if e := errs(); len(e) > 0 {
					t.Errorf("JavaScript errors: %q", e)
				}
			})
		}
	}
}

// lockedBuffer is a log the server writes from many goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// pageCheck is one language at one width of TestE2EPage.
type pageCheck struct {
	t        *testing.T
	ctx, tab context.Context
	errs     func() []string
	axe      string
	lang     string
	width    int64
	shots    string
	name     string
}

func (p *pageCheck) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		e2eScreenshot(p.t, p.tab, p.name+" "+step)
		p.t.Fatalf("%s: %v (JavaScript errors: %q)", step, err, p.errs())
	}
}

func (p *pageCheck) poll(expr string) chromedp.Action[chromedp.Void] {
	return e2eVoid(chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
}

func (p *pageCheck) text(step, sel string) string {
	p.t.Helper()
	var s string
	p.do(step, e2eInto(chromedp.Evaluate[string](`(() => { const e = document.querySelector(`+jsonString(sel)+`); return e ? e.innerText : "<missing>"; })()`), &s))
	return s
}

func (p *pageCheck) eval(step, expr string) string {
	p.t.Helper()
	var s string
	p.do(step, e2eInto(chromedp.Evaluate[string](expr), &s))
	return s
}

// view checks a view as it stands: no sideways scrolling on a phone, no
// accessibility violation, and a screenshot.
func (p *pageCheck) view(name string) {
	p.t.Helper()
	var over string
	p.do(name+": overflow", e2eInto(browsertest.Overflow(), &over))
	if over != "" {
		p.t.Errorf("%s scrolls sideways: %s", name, over)
	}
	if p.axe != "" {
		var bad []string
		p.do(name+": axe", e2eInto(browsertest.Axe(p.axe), &bad))
		for _, v := range bad {
			p.t.Errorf("%s: accessibility: %s", name, v)
		}
	}
	if path, err := browsertest.Screenshot(p.ctx, p.shots, p.name+"-"+name); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	} else if path != "" {
		p.t.Logf("screenshot: %s", path)
	}
}

// noEnglish fails when the Chinese page shows English words in sel beyond
// identifiers (offer, region and accelerator ids, anything with a digit,
// slash, dot or hyphen), units and product names.
func (p *pageCheck) noEnglish(sel string) {
	p.t.Helper()
	if p.lang != "zh" {
		return
	}
	var left string
	p.do("English left in "+sel, e2eInto(browsertest.EnglishWords(sel, browsertest.Commands...), &left))
	if left != "" {
		p.t.Errorf("English words on the Chinese page in %s: %s", sel, left)
	}
}

func (p *pageCheck) load(base, query string) {
	p.t.Helper()
	p.do("load "+query, chromedp.Navigate(base+"/?lang="+p.lang+strings.TrimPrefix(query, "?")),
		p.poll(`document.documentElement.dataset.ready === "1"`))
}

// rank picks an example and ranks it, waiting for the answer.
func (p *pageCheck) rank(example string) {
	p.t.Helper()
	p.do("rank "+example,
		chromedp.SetValue(chromedp.CSS(`#example`), example),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#workload').value.includes(`+jsonString("name: "+strings.TrimSuffix(example, ".yaml"))+`)`),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#recommend-result').dataset.workload = ""`)),
		// Pressed from script: a click at the button's coordinates can land
		// on the field above it when the file's validation line appears in
		// between and pushes the button down (seen at 390 px under load).
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#recommend-run').click()`)),
		p.poll(`!document.querySelector('#recommend-run').disabled && (document.querySelector('#recommend-result').dataset.workload === `+jsonString(strings.TrimSuffix(example, ".yaml"))+
			` || document.querySelector('#workload-errors.errors li') !== null)`))
	if e := p.eval("rank errors", `[...document.querySelectorAll('#workload-errors.errors li')].map(e => e.innerText).join("; ")`); e != "" {
		p.t.Fatalf("ranking %s failed: %s", example, e)
	}
}

func (p *pageCheck) recommendJob(base string) {
	t := p.t
	p.load(base, "#recommend")
	// The tabs follow the arrow keys, Home and End (WAI-ARIA tabs), and
	// only the selected one is in the Tab order.
	p.do("focus the tab", e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#tabbtn-recommend').focus()`)))
	for _, k := range []struct{ key, want string }{{kb.ArrowRight, "offers"}, {kb.End, "simulate"}, {kb.ArrowRight, "recommend"}, {kb.ArrowLeft, "simulate"}, {kb.Home, "recommend"}} {
		p.do("tab key", chromedp.KeyEvent(k.key))
		got := p.eval("tab", `[document.activeElement.dataset.tab, document.querySelector('.tabs [aria-selected=true]').dataset.tab,
			[...document.querySelectorAll('.tabs button')].filter(b => b.tabIndex === 0).length, document.querySelector('#tab-' + document.activeElement.dataset.tab).hidden].join(" ")`)
		if want := k.want + " " + k.want + " 1 false"; got != want {
			t.Errorf("after %q: focused, selected, in the Tab order, panel hidden = %q, want %q", k.key, got, want)
		}
	}
	p.rank("llama3-8b-lora.yaml")
	// The answer takes the focus once it is in.
	if f := p.eval("focus", `document.activeElement ? document.activeElement.id : ""`); f != "answer-title" {
		t.Errorf("after Rank the focus is on %q, want the answer's heading", f)
	}
	zh := p.lang == "zh"
	// The answer comes first, before the ranking.
	if order := p.eval("order", `String(document.querySelector('#answer').getBoundingClientRect().bottom <= document.querySelector('#candidates-table').getBoundingClientRect().top)`); order != "true" {
		t.Error("the answer is not above the ranking")
	}
	first := p.eval("first offer", `document.querySelector('#candidates-table tbody tr').dataset.offer`)
	if h := p.text("headline", "#answer-headline"); !strings.Contains(h, first) {
		t.Errorf("headline %q does not name #1 (%s)", h, first)
	}
	obj := p.text("objective", "#answer-objective")
	if want := map[bool]string{false: "Objective: lowest total cost", true: "优化目标：总成本最低"}[zh]; !strings.Contains(obj, want) {
		t.Errorf("objective line %q, want %q", obj, want)
	}
	why := p.text("why", "#answer-why")
	if !regexp.MustCompile(`\$\d`).MatchString(why) || !strings.Contains(why, map[bool]string{false: "total cost", true: "总成本"}[zh]) {
		t.Errorf("why #1 beats the runner-up, without the cost compared:\n%s", why)
	}
	cost := p.text("cost", "#answer-cost")
	for _, part := range map[bool][]string{false: {"compute", "storage", "egress", "setup", "spot overhead", "total"}, true: {"计算", "存储", "出网流量", "准备", "抢占开销", "合计"}}[zh] {
		if !strings.Contains(cost, part) {
			t.Errorf("cost breakdown lacks %q:\n%s", part, cost)
		}
	}
	if tm := p.text("time", "#answer-time"); !regexp.MustCompile(`\d`).MatchString(tm) {
		t.Errorf("how long: %q", tm)
	}
	if c := p.text("confidence", "#answer-confidence"); !strings.Contains(c, "%") {
		t.Errorf("how sure: %q, want a probability", c)
	}
	risks := p.text("risks", "#answer-risks")
	if !strings.Contains(risks, map[bool]string{false: "spot interruptions per instance-hour", true: "每实例·小时抢占次数"}[zh]) ||
		!strings.Contains(risks, map[bool]string{false: "checkpoint every", true: "检查点间隔"}[zh]) ||
		!strings.Contains(risks, map[bool]string{false: "chance of missing the deadline", true: "错过截止时间的概率"}[zh]) {
		t.Errorf("the spot pick's risk figures are not shown:\n%s", risks)
	}
	// The table: the top 10; the chart: every candidate.
	rows, _ := strconv.Atoi(p.eval("rows", `String(document.querySelectorAll('#candidates-table tbody tr').length)`))
	points, _ := strconv.Atoi(p.eval("points", `String(document.querySelectorAll('#pareto svg circle').length)`))
	if rows != 10 || points <= 100 {
		t.Errorf("%d rows and %d points: want the top 10 in the table and every candidate on the chart", rows, points)
	}
	// Each row says how it is paid for, on a phone too (where the pricing
	// column is hidden, under the offer).
	if row := p.text("first row", "#candidates-table tbody tr"); !regexp.MustCompile(`spot|on-demand|monthly|reserved|抢占式|按需|包月|预留`).MatchString(row) {
		t.Errorf("the first row does not say its pricing mode: %q", row)
	}
	head := p.text("table head", "#candidates-table thead")
	if !strings.Contains(head, map[bool]string{false: "Total $", true: "总价 $"}[zh]) || !strings.Contains(head, map[bool]string{false: "USD per million tokens trained", true: "美元/百万训练 token"}[zh]) && p.width > 800 {
		t.Errorf("job table headers %q", head)
	}
	// The unit cost has a column of its own on a wide screen; on a phone,
	// where that column is hidden, each row says it under its total.
	body := p.text("table body", "#candidates-table tbody")
	if p.width > 800 && regexp.MustCompile(`USD per|美元/百万|\$/M|\$/百万`).MatchString(body) {
		t.Error("the unit is repeated in the rows")
	}
	perRow := regexp.MustCompile(`\d \$/M tokens|\d \$/百万 token`).MatchString(body)
	if p.width <= 800 && !perRow {
		t.Error("on a phone the rows do not say their unit cost (its column is hidden)")
	}
	if d := p.eval("decimals", `(() => { const v = [...document.querySelectorAll('#candidates-table tbody tr')].map(r => r.cells[6].innerText.split(/\s/)[0]);
		const d = v.map(s => (s.split(".")[1] || "").length); return d.every(x => x === d[0]) ? "" : v.join(" "); })()`); d != "" {
		t.Errorf("total column with varying decimals: %s", d)
	}
	// The caption counts the points drawn; those not drawn (no price) are
	// counted too, so that the "show all" count adds up.
	capText := p.text("caption", "#pareto-caption")
	var capNums []int
	for _, m := range regexp.MustCompile(`\d[\d,]*`).FindAllString(capText, -1) {
		n, _ := strconv.Atoi(strings.ReplaceAll(m, ",", ""))
		capNums = append(capNums, n)
	}
	if len(capNums) == 0 || capNums[0] != points {
		t.Errorf("chart caption %q does not count the %d candidates plotted", capText, points)
	}
	total := points
	if len(capNums) >= 3 {
		total = capNums[2]
	}
	// The ranking folds regions as the CLI does, and says how many
	// candidates it folds: the chart's count.
	note := p.eval("fold note", `(() => { const n = document.querySelector('#fold-note'); return n.hidden ? "" : n.textContent; })()`)
	if note == "" {
		t.Errorf("no note on how the ranking folds regions (%d candidates)", total)
	} else if n, _ := strconv.Atoi(regexp.MustCompile(`\D`).ReplaceAllString(note, "")); n != total {
		t.Errorf("the ranking's note %q and the chart's caption %q count different candidates", note, capText)
	}
	dupJS := `(() => { const seen = {}; let dup = ""; for (const r of document.querySelectorAll('#candidates-table tbody tr')) {
		if (seen[r.dataset.fold]) dup = r.dataset.fold; seen[r.dataset.fold] = 1; } return dup; })()`
	if dup := p.eval("folded", dupJS); dup != "" {
		t.Errorf("one instance type, size and pricing mode in two rows: %s", dup)
	}
	if lines := p.eval("limits", `[...document.querySelectorAll('#pareto text.limit-label')].map(e => e.textContent).join("|")`); !strings.Contains(lines, map[bool]string{false: "deadline 24 h", true: "截止 24 小时"}[zh]) {
		t.Errorf("no deadline line on the chart (limit labels %q)", lines)
	}
	// Exclusions: grouped by reason, counts adding up to the total.
	if sum := p.eval("excluded", `(() => { const n = [...document.querySelectorAll('#excluded-groups summary .count')].map(e => +e.textContent.replace(/\D/g, ""));
		const total = +document.querySelector('#excluded-title').textContent.replace(/\D/g, "");
		return n.length > 1 && n.reduce((a, b) => a + b, 0) === total && total > 200 ? "" : n.join("+") + " != " + total; })()`); sum != "" {
		t.Errorf("excluded groups: %s", sum)
	}
	p.do("open a group", chromedp.Click(chromedp.CSS(`#excluded-groups details:last-child summary`)),
		p.poll(`document.querySelectorAll('#excluded-groups details:last-child li').length > 0`))
	// The largest group lists its first offers, and all of them on asking:
	// the answer carries three of each reason.
	p.do("open the largest group", chromedp.Click(chromedp.CSS(`#excluded-groups details:first-child summary`)),
		p.poll(`document.querySelectorAll('#excluded-groups details:first-child li').length > 0`))
	if n := p.eval("first listed", `String(document.querySelectorAll('#excluded-groups details:first-child li').length)`); n != "3" {
		t.Errorf("the largest group lists %s offers before asking, want 3", n)
	}
	want := p.eval("largest count", `document.querySelector('#excluded-groups details:first-child summary .count').textContent.replace(/\D/g, "")`)
	p.do("show all", chromedp.Click(chromedp.CSS(`#excluded-groups details:first-child button`)),
		p.poll(`String(document.querySelectorAll('#excluded-groups details:first-child li').length) === '`+want+`'`))
	p.noEnglish("#answer")
	p.noEnglish("#candidates-table")
	p.noEnglish("#excluded-groups summary")
	p.noEnglish("#recommend-summary")
	// Comparing needs the rows' checkboxes, which a phone does not show.
	if v := p.eval("compare shown", `String(document.querySelector('#compare-run').offsetParent !== null)`); v != map[bool]string{true: "false", false: "true"}[p.width < 800] {
		t.Errorf("at %d px the compare button is shown: %s", p.width, v)
	}
	p.view("job")

	// A row opens its detail, scrolled into view, with the full reasoning.
	second := p.eval("second offer", `document.querySelector('#candidates-table tbody tr:nth-child(2)').dataset.offer`)
	p.do("detail", chromedp.Click(chromedp.CSS(`#candidates-table tbody tr:nth-child(2) td.offer`)),
		p.poll(`document.querySelector('#candidate-detail').dataset.rank === '2'`),
		p.poll(`(() => { const r = document.querySelector('#candidate-detail').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })()`),
		p.poll(`document.querySelector('#detail-verdicts .badge') !== null`),
		chromedp.Click(chromedp.CSS(`#detail-explain summary`)),
		p.poll(`(() => { const t = document.querySelector('#detail-explain .explain').textContent; return t !== "" && t !== `+jsonString(map[bool]string{false: "Loading…", true: "加载中…"}[zh])+`; })()`))
	explain := p.text("explain", "#detail-explain .explain")
	if strings.HasPrefix(explain, "Failed") || strings.HasPrefix(explain, "失败") || !strings.Contains(explain, second) {
		t.Errorf("full reasoning of %s: %.300q", second, explain)
	}
	p.noEnglish("#candidate-detail .kv")
	p.view("detail")
}

func (p *pageCheck) recommendService() {
	t := p.t
	zh := p.lang == "zh"
	p.do("tab", chromedp.Click(chromedp.CSS(`#tabbtn-recommend`)))
	p.rank("llama3-70b-chat.yaml")
	defer p.simulatePlan()
	head := p.text("service head", "#candidates-table thead")
	for _, want := range map[bool][]string{false: {"Replicas", "$/month"}, true: {"副本", "$/月"}}[zh] {
		if !strings.Contains(head, want) {
			t.Errorf("service table headers %q lack %q", head, want)
		}
	}
	if strings.Contains(head, "Hours") || strings.Contains(head, "小时（") || strings.Contains(head, "Total $") {
		t.Errorf("service table headers %q show a job's hours or total", head)
	}
	if body := p.text("service rows", "#candidates-table tbody"); strings.Contains(body, "nodes") || strings.Contains(body, "节点") {
		t.Error("replicas shown as nodes")
	}
	svc := p.text("service card", "#answer-service")
	for _, want := range map[bool][]string{false: {"replicas", "$ per hour", "$ per month", "$ per million tokens", "time to first token", "SLO"}, true: {"副本数", "$ / 小时", "$ / 月", "$ / 百万 token", "首 token 时间", "SLO"}}[zh] {
		if !strings.Contains(svc, want) {
			t.Errorf("service figures lack %q:\n%s", want, svc)
		}
	}
	if cost := p.text("service cost", "#answer-cost h3"); !strings.Contains(cost, map[bool]string{false: "per month", true: "每月"}[zh]) {
		t.Errorf("service cost heading %q: want per month", cost)
	}
	if cap := p.text("caption", "#pareto-caption"); !strings.Contains(cap, map[bool]string{false: "time to first token", true: "首 token"}[zh]) {
		t.Errorf("service chart caption %q", cap)
	}
	// A GDPR service: who runs the pick's machine is said, and it is no
	// independent host's.
	op := p.text("operator", "#answer-operator")
	if !strings.Contains(op, map[bool]string{false: "Who runs the machine", true: "谁运营"}[zh]) {
		t.Errorf("who runs the machine is not said:\n%s", op)
	}
	if kind := p.eval("operator kind", `document.querySelector('#answer-operator-sentence').dataset.kind`); kind != "provider" && kind != "partner" {
		t.Errorf("the pick of a GDPR service is run by a %q", kind)
	}
	// How to pay for it: the pick's fleet on demand and in each term its
	// offer sells, with which wins.
	terms := p.text("terms", "#answer-terms")
	if !strings.Contains(terms, map[bool]string{false: "How to pay for it", true: "如何付费"}[zh]) ||
		!strings.Contains(terms, map[bool]string{false: "on-demand: $", true: "按需：$"}[zh]) ||
		!regexp.MustCompile(map[bool]string{false: `wins at \$|is cheapest at \$`, true: `最划算|最便宜`}[zh]).MatchString(terms) {
		t.Errorf("the terms of the pick's fleet are not shown:\n%s", terms)
	}
	// The service's day: the base and, when the load outgrows it, the peak
	// with their pricing, what a lost instance and a lost zone do, and the
	// simulated day against the SLO with its monthly cost. A base that
	// serves the whole day says so instead of a peak, and its simulated
	// line names the replicas that ran.
	day := p.text("day", "#answer-day")
	basesAll := regexp.MustCompile(map[bool]string{false: `The load goes from [\d.]+ to [\d.]+ requests/s \(peak around \d+:\d+\); the base serves all of it\.`,
		true: `负载在 [\d.]+ 到 [\d.]+ 请求/秒之间（约 \d+:\d+ 达到高峰）；基础机群即可全部承担。`}[zh]).MatchString(day)
	want := map[bool][]string{
		false: {`The service's day`, `Base: \d+ instance\(s\) run at all times`, `Losing an instance: `, `Losing a zone: `, `gpupick simulate -f`},
		true:  {`服务的一天`, `基础：\d+ 台实例始终运行`, `丢失一台实例：`, `丢失一个可用区：`, `gpupick simulate -f`},
	}[zh]
	peak := map[bool][]string{
		false: {`Peak: up to \d+ instance\(s\)`, `Simulated day: [\d.]+% of [\d,]+ requests met the SLO \(99% asked\), \$[\d,]+ a month`},
		true:  {`高峰：.*最多 \d+ 台实例`, `模拟的一天：[\d,]+ 个请求中 [\d.]+% 满足 SLO（要求 99%），每月 \$[\d,]+`},
	}[zh]
	if basesAll {
		if regexp.MustCompile(peak[0]).MatchString(day) {
			t.Errorf("the service's day says the base serves all of it and also plans a peak:\n%s", day)
		}
		peak = map[bool][]string{
			false: {`Simulated: [\d.]+% of [\d,]+ requests met the SLO \(99% asked\), \$[\d,]+ a month, on \d+ replica\(s\)\.`},
			true:  {`模拟结果：[\d,]+ 个请求中 [\d.]+% 满足 SLO（要求 99%），每月 \$[\d,]+，共 \d+ 个副本。`},
		}[zh]
	}
	for _, re := range append(want, peak...) {
		if !regexp.MustCompile(re).MatchString(day) {
			t.Errorf("the service's day lacks %s:\n%s", re, day)
		}
	}
	p.noEnglish("#answer")
	p.noEnglish("#candidates-table")
	p.view("service")
}

// recommendImageService ranks the FLUX image API: an image service reads
// as one, latency per image in seconds against its SLO and dollars per
// thousand images, with no token latencies anywhere in its ranking.
func (p *pageCheck) recommendImageService() {
	t := p.t
	zh := p.lang == "zh"
	p.rank("flux-image-api.yaml")
	head := p.text("image service head", "#candidates-table thead")
	wants := map[bool][]string{false: {"Replicas", "$/month", "Latency s"}, true: {"副本", "$/月", "延迟 秒"}}[zh]
	if p.width > 800 {
		wants = append(wants, map[bool]string{false: "$/K images", true: "$/千张图像"}[zh])
	}
	for _, want := range wants {
		if !strings.Contains(head, want) {
			t.Errorf("image service table headers %q lack %q", head, want)
		}
	}
	if regexp.MustCompile(`TTFT|TPOT|token`).MatchString(head) {
		t.Errorf("image service table headers %q show token latencies", head)
	}
	lat := p.eval("latency cells", `(() => { const h = [...document.querySelectorAll('#candidates-table thead th')].findIndex(e => /Latency s|延迟 秒/.test(e.innerText));
		return h < 0 ? "" : [...document.querySelectorAll('#candidates-table tbody tr')].map(r => r.cells[h].innerText).join("|"); })()`)
	if !regexp.MustCompile(`^\d+(\.\d+)?(\|\d+(\.\d+)?)*$`).MatchString(lat) {
		t.Errorf("latency column cells %q: want a number of seconds in every row", lat)
	}
	svc := p.text("image service card", "#answer-service")
	for _, want := range map[bool][]string{false: {"replicas", "$ per hour", "$ per month", "$ per thousand images", "latency per image", "images per pipeline call"},
		true: {"副本数", "$ / 小时", "$ / 月", "$ / 千张图像", "每张图像延迟", "每次生成调用的图像数"}}[zh] {
		if !strings.Contains(svc, want) {
			t.Errorf("image service figures lack %q:\n%s", want, svc)
		}
	}
	if !regexp.MustCompile(map[bool]string{false: `\d s \(SLO: p99 ≤ 15 s\)`, true: `\d 秒（SLO：p99 ≤ 15 秒）`}[zh]).MatchString(svc) {
		t.Errorf("image service figures do not say the latency in seconds against the SLO:\n%s", svc)
	}
	if regexp.MustCompile(`time to first token|首 token|per million tokens|百万 token`).MatchString(svc) {
		t.Errorf("image service figures show token figures:\n%s", svc)
	}
	if cap := p.text("caption", "#pareto-caption"); !strings.Contains(cap, map[bool]string{false: "latency per image", true: "每张图像延迟"}[zh]) {
		t.Errorf("image service chart caption %q", cap)
	}
	axes := p.eval("axes", `[...document.querySelectorAll('#pareto svg text')].map(e => e.textContent).join("|")`)
	for _, want := range map[bool][]string{false: {"latency per image (s)", "cost per month (USD)", "SLO 15 s"}, true: {"每张图像延迟（秒）", "每月成本（美元）", "SLO 15 秒"}}[zh] {
		if !strings.Contains(axes, want) {
			t.Errorf("image service chart lacks %q (its texts: %.300q)", want, axes)
		}
	}
	p.noEnglish("#answer")
	p.noEnglish("#candidates-table")
	p.view("image-service")
}

// recommendImageJob ranks the offline SDXL job: its unit cost is in USD
// per thousand images.
func (p *pageCheck) recommendImageJob() {
	zh := p.lang == "zh"
	p.rank("sdxl-images.yaml")
	if head := p.text("image job head", "#candidates-table thead"); !strings.Contains(head, map[bool]string{false: "USD per thousand images", true: "美元/千张图像"}[zh]) {
		p.t.Errorf("image job table headers %q: want the unit cost per thousand images", head)
	}
	p.noEnglish("#candidates-table")
	p.view("image-job")
}

func (p *pageCheck) nothingQualifies() {
	t := p.t
	p.rank("marco-eu-assistant.yaml")
	if cls := p.eval("none", `document.querySelector('#answer-headline').className`); !strings.Contains(cls, "none") {
		t.Errorf("nothing qualifies, but the headline is not marked so (%q)", p.text("headline", "#answer-headline"))
	}
	// Why: the exclusions by reason with counts, compliance first.
	if first := p.eval("why none", `(() => { const li = document.querySelector('#answer-exclusions li'); return li ? li.dataset.code + " " + li.innerText : ""; })()`); !strings.HasPrefix(first, "non_compliant ") ||
		!strings.Contains(first, map[bool]string{false: "not compliant (", true: "不合规（"}[p.lang == "zh"]) && !strings.Contains(first, "(") {
		t.Errorf("why nothing qualifies: %q\n%s", first, p.text("answer", "#answer"))
	}
	if v := p.eval("no empty ranking", `["#candidates-scroll", "#ranking-actions", "#chart-row"].filter(s => !document.querySelector(s).hidden).join(" ")`); v != "" {
		t.Errorf("nothing qualifies, yet an empty ranking shows: %s", v)
	}
	p.noEnglish("#answer")
	// Without candidates there is nothing to rank, compare or plot.
	if v := p.eval("ranking tools", `["#ranking-actions", "#chart-row"].map(q => String(document.querySelector(q).offsetParent !== null)).join(",")`); v != "false,false" {
		t.Errorf("with no candidate the ranking's buttons and chart show: %s", v)
	}
	p.view("none")
	// A failing request marks the results on screen as old.
	p.do("fail", chromedp.SetValue(chromedp.CSS(`#workload`), "kind: nope\n"),
		chromedp.Click(chromedp.CSS(`#recommend-run`)),
		p.poll(`!document.querySelector('#result-stale').hidden && document.querySelector('#recommend-result').classList.contains('stale')`),
		p.poll(`document.querySelectorAll('#workload-errors li').length > 0`))
	if e := p.text("errors", "#workload-errors"); p.lang == "zh" && !regexp.MustCompile(`\p{Han}`).MatchString(e) {
		t.Errorf("the error of a bad workload is not in Chinese: %q", e)
	}
	// Validation as you type, in the page's language.
	p.do("validate", p.poll(`document.querySelector('#workload-status').classList.contains('error') && document.querySelector('#workload-status').textContent !== ""`))
	if e := p.text("validation", "#workload-errors"); p.lang == "zh" && !regexp.MustCompile(`\p{Han}`).MatchString(e) {
		t.Errorf("validation in Chinese shows %q", e)
	}
}

func (p *pageCheck) offers(base string) {
	t := p.t
	zh := p.lang == "zh"
	p.load(base, "&gpu=t4&pricing=monthly#offers")
	p.do("offers", p.poll(`document.querySelectorAll('#offers-table tbody tr').length > 0`))
	if v := p.eval("filter from the URL", `document.querySelector('#filter-gpu').value + " " + document.querySelector('#filter-pricing').value`); v != "t4 monthly" {
		t.Errorf("filters read from the address: %q", v)
	}
	head := p.text("offers head", "#offers-table thead")
	if p.width > 800 {
		for _, want := range map[bool][]string{false: {"vCPU", "RAM GiB", "NVMe TB", "monthly $/month", "monthly $/GPU-h"}, true: {"vCPU", "内存 GiB", "NVMe TB", "包月 $/月", "包月 $/GPU·时"}}[zh] {
			if !strings.Contains(head, want) {
				t.Errorf("offers headers %q lack %q", head, want)
			}
		}
	}
	p.view("offers")
	p.do("unknown gpu", chromedp.SetValue(chromedp.CSS(`#filter-gpu`), "nope-gpu"), chromedp.Click(chromedp.CSS(`#filter-apply`)),
		p.poll(`document.querySelector('#offers-status').classList.contains('error')`))
	if st := p.text("error", "#offers-status"); !strings.Contains(st, "nope-gpu") {
		t.Errorf("unknown GPU: %q", st)
	}
	if n := p.eval("cleared", `String(document.querySelectorAll('#offers-table tbody tr').length)`); n != "0" {
		t.Errorf("%s old rows left under the error", n)
	}
	if u := p.eval("url", `location.search`); !strings.Contains(u, "gpu=nope-gpu") || !strings.Contains(u, "pricing=monthly") {
		t.Errorf("filters not kept in the address: %q", u)
	}
	// Unknown prices (Chinese clouds publish few) read as unknown, not as not offered.
	p.load(base, "&provider=huawei#offers")
	p.do("unknown prices", p.poll(`document.querySelectorAll('#offers-table tbody tr').length > 0`))
	if n := p.eval("unknown", `String(document.querySelectorAll('#offers-table td.price-unknown').length)`); n == "0" {
		t.Errorf("no price shown as unknown for huawei:\n%s", p.text("table", "#offers-table tbody"))
	}
	p.noEnglish("#offers-table")
}

// simulatePlan replays the recommended service's plan from its answer:
// the Simulate tab opens with #1's plan and the workload, runs it, and
// ends with advice; then the Recommend tab comes back as it was.
func (p *pageCheck) simulatePlan() {
	t := p.t
	zh := p.lang == "zh"
	if b := p.text("simulate plan", "#simulate-plan"); b != map[bool]string{false: "Simulate this plan", true: "模拟此方案"}[zh] {
		t.Errorf("the service's answer offers no way to simulate its plan (%q)", b)
		return
	}
	offer := p.eval("pick", `document.querySelector('#candidates-table tbody tr').dataset.offer`)
	p.do("simulate the plan", chromedp.Click(chromedp.CSS(`#simulate-plan`)),
		p.poll(`document.querySelector('#sim-advice') !== null || document.querySelector('#sim-status').classList.contains('error')`))
	if st := p.text("status", "#sim-status"); strings.Contains(st, "Failed") || strings.Contains(st, "失败") {
		t.Fatalf("simulating the plan: %s", st)
	}
	if tab := p.eval("tab", `document.querySelector('.tabs [aria-selected=true]').dataset.tab`); tab != "simulate" {
		t.Errorf("the plan is simulated on the %s tab", tab)
	}
	if svc := p.eval("service", `document.querySelector('#service').value`); !strings.Contains(svc, "offer: "+offer) || !strings.Contains(svc, "kind: model") {
		t.Errorf("the service file is not #1's plan (%s):\n%s", offer, svc)
	}
	if a := p.text("advice", "#sim-advice"); !strings.HasPrefix(a, map[bool]string{false: "Advice: ", true: "建议："}[zh]) {
		t.Errorf("the plan's simulation gives no advice: %q", a)
	}
	p.do("back", chromedp.Click(chromedp.CSS(`#tabbtn-recommend`)))
}

func (p *pageCheck) simulate(base string) {
	t := p.t
	p.load(base, "#simulate")
	p.do("model service", chromedp.SetValue(chromedp.CSS(`#sim-example`), "service-model.yaml"),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#sim-example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#sim-workload').value.includes('name: llama3-70b-chat')`),
		chromedp.Click(chromedp.CSS(`#sim-run`)),
		p.poll(`document.querySelectorAll('#sim-charts svg polyline').length === 3 || document.querySelector('#sim-status').classList.contains('error')`))
	if st := p.text("status", "#sim-status"); strings.Contains(st, "Failed") || strings.Contains(st, "失败") {
		t.Fatalf("model service simulation: %s", st)
	}
	if slo := p.eval("slo line", `String(document.querySelectorAll('#sim-charts [data-chart=latency] line.limit').length)`); slo != "1" {
		t.Error("no SLO line on the latency chart")
	}
	// The result ends with what to change, in a sentence.
	if a := p.text("advice", "#sim-advice"); !strings.HasPrefix(a, map[bool]string{false: "Advice: ", true: "建议："}[p.lang == "zh"]) || len([]rune(a)) < 30 {
		t.Errorf("the simulation gives no advice: %q", a)
	}
	p.noEnglish("#sim-summary")
	p.view("simulate")
	// A service file with a committed price: the on-demand replicas are
	// priced as a committed base plus on-demand above it.
	p.do("committed base", chromedp.SetValue(chromedp.CSS(`#sim-example`), "service-target.yaml"),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#sim-example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#service').value.includes('name: chat-target')`),
		chromedp.Click(chromedp.CSS(`#sim-run`)),
		p.poll(`document.querySelector('#commit-verdict') !== null || document.querySelector('#sim-status').classList.contains('error')`))
	verdict := p.text("commit verdict", "#commit-verdict")
	for _, w := range map[bool][]string{false: {"Commit ", "replica(s) on reserved", "all on demand", "% less"}, true: {"以预留承诺", "个副本", "全部按需", "即可回本"}}[p.lang == "zh"] {
		if !strings.Contains(verdict, w) {
			t.Errorf("committed base: %q missing from %q", w, verdict)
		}
	}
	if n := p.eval("commit rows", `String(document.querySelectorAll('#commit-table tbody tr').length)`); n != "1" {
		t.Errorf("committed base: %s rows, want 1 (reserved)", n)
	}
	p.noEnglish("#commit-table")
	p.noEnglish("#commit-verdict")
	p.view("commit")
	// A policy search is a job with progress that can be cancelled.
	p.do("search and cancel", chromedp.SetValue(chromedp.CSS(`#sim-example`), "service-target.yaml"),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#sim-example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#service').value.includes('name: chat-target')`),
		chromedp.Click(chromedp.CSS(`#sim-search`)),
		chromedp.Click(chromedp.CSS(`#sim-run`)),
		p.poll(`!document.querySelector('#sim-cancel').hidden`),
		chromedp.Click(chromedp.CSS(`#sim-cancel`)),
		p.poll(`document.querySelector('#sim-cancel').hidden && document.querySelector('#sim-progress').hidden`))
	if st := p.text("cancelled", "#sim-status"); st != map[bool]string{false: "Cancelled.", true: "已取消。"}[p.lang == "zh"] {
		t.Errorf("after cancel: %q", st)
	}
	// The search reports how far it is, not 0% until its end.
	p.do("search", e2eVoid(chromedp.Evaluate[chromedp.Void](`window.__progress = []; window.__watch = setInterval(() => {
			const e = document.querySelector('#sim-progress'); if (!e.hidden) window.__progress.push(e.value); }, 100)`)),
		chromedp.Click(chromedp.CSS(`#sim-run`)),
		p.poll(`document.querySelector('#search-table') !== null || document.querySelector('#sim-status').classList.contains('error')`))
	var moved, readings int
	fmt.Sscan(p.eval("progress", `(() => { clearInterval(window.__watch); const v = window.__progress.filter(x => x > 0 && x < 1);
		return v.length + " " + window.__progress.length; })()`), &moved, &readings)
	if readings >= 5 && moved == 0 {
		t.Errorf("the search's progress stayed at 0 or 1 over %d readings a tenth of a second apart", readings)
	}
	if n := p.eval("search rows", `String(document.querySelectorAll('#search-table tbody tr').length)`); n == "0" {
		t.Errorf("search result: %s", p.text("status", "#sim-status"))
	}
	if o := p.eval("search fits", `(() => { const s = document.querySelector('#search-table').parentElement; return s.scrollWidth > s.clientWidth + 1 ? s.scrollWidth + " > " + s.clientWidth : ""; })()`); o != "" {
		t.Errorf("the search result scrolls sideways: %s", o)
	}
	p.view("search")
}

func (p *pageCheck) savedWorkloads(base, token string) {
	t := p.t
	p.load(base, "#recommend")
	p.do("save", chromedp.SetValue(chromedp.CSS(`#example`), "resnet50-imagenet.yaml"),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`document.querySelector('#example').dispatchEvent(new Event('change'))`)),
		p.poll(`document.querySelector('#workload').value.includes('name: resnet50-imagenet')`),
		chromedp.Click(chromedp.CSS(`#save-box summary`)),
		chromedp.SendKeys(chromedp.CSS(`#save-name`), "my resnet"),
		chromedp.SendKeys(chromedp.CSS(`#api-token`), token),
		chromedp.Click(chromedp.CSS(`#save-run`)),
		p.poll(`[...document.querySelectorAll('#saved option')].some(o => o.textContent === 'my resnet')`))
	p.load(base, "#recommend")
	p.do("reload saved", p.poll(`[...document.querySelectorAll('#saved option')].some(o => o.textContent === 'my resnet')`),
		e2eVoid(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#saved'); s.value = [...s.options].find(o => o.textContent === 'my resnet').value; s.dispatchEvent(new Event('change')); })()`)),
		p.poll(`document.querySelector('#workload').value.includes('name: resnet50-imagenet')`))
	if st := p.text("status", "#save-status"); st != "" {
		t.Logf("save status after reload: %q", st)
	}
}

// downloads: the HTML report and the SVG chart of the ranking on screen,
// in the page's language, saved as files the page makes (blob: URLs).
func (p *pageCheck) downloads(base string) {
	t := p.t
	p.load(base, "#recommend")
	p.rank("llama3-8b-lora.yaml")
	pick := p.eval("pick", `document.querySelector('#candidates-table tbody tr').dataset.offer`)
	p.do("catch downloads", e2eVoid(chromedp.Evaluate[chromedp.Void](`window.__blobs = []; (() => { const make = URL.createObjectURL;
		URL.createObjectURL = b => { window.__blobs.push(b); return make.call(URL, b); }; })()`)))
	for _, c := range []struct{ button, want string }{{"#download-html", "<html"}, {"#download-svg", "<svg"}} {
		var doc string
		p.do("download "+c.button, e2eVoid(chromedp.Evaluate[chromedp.Void](`window.__blobs = []`)), chromedp.Click(chromedp.CSS(c.button)),
			p.poll(`window.__blobs.length === 1`),
			e2eInto(chromedp.Evaluate[string](`window.__blobs[0].text()`, chromedp.EvalAwaitPromise), &doc))
		if !strings.Contains(doc, c.want) || c.want == "<html" && !strings.Contains(doc, pick) {
			t.Errorf("%s gave %.200q: want %s naming %s", c.button, doc, c.want, pick)
		}
		if p.lang == "zh" && !regexp.MustCompile(`\p{Han}`).MatchString(doc) {
			t.Errorf("%s in Chinese has no Chinese", c.button)
		}
	}
	if st := p.text("file name", "#download-status"); st != "llama3-8b-lora.svg" {
		t.Errorf("download status %q", st)
	}
}

// calibrate: a probe report (gpupick probe -o json) uploaded on the page
// goes with the ranking, which says it calibrated.
func (p *pageCheck) calibrate(base string) {
	t := p.t
	probe, err := filepath.Abs("../cli/testdata/probe-h100-slow.json")
	if err != nil {
		t.Fatal(err)
	}
	p.load(base, "#recommend")
	// The file picker's button is named in the page's language, not the
	// browser's (a native file input says "Choose File").
	if b := p.text("file button", `label.file .file-btn`); b != map[bool]string{false: "Choose a file…", true: "选择文件…"}[p.lang == "zh"] {
		t.Errorf("file button reads %q", b)
	}
	p.do("probe", chromedp.SetUploadFiles(chromedp.CSS(`#probe-file`), []string{probe}),
		p.poll(`document.querySelector('#probe-status').textContent.includes('probe-h100-slow.json')`))
	p.rank("llama3-8b-lora.yaml")
	if notes := p.text("notes", "#recommend-notes"); !strings.Contains(strings.ToLower(notes), "calibrat") {
		t.Errorf("ranked with a probe report, the notes say nothing of it: %q", notes)
	}
	p.do("remove the probe", chromedp.Click(chromedp.CSS(`#probe-clear`)), p.poll(`document.querySelector('#probe-clear').hidden`))
}

func (p *pageCheck) notFound(base string) {
	p.do("404", chromedp.Navigate(base+"/no/such/page"), chromedp.WaitVisible(chromedp.CSS(`main.notfound h1`)))
	if h := p.text("404", "main.notfound"); !strings.Contains(h, "Page not found") || !strings.Contains(h, "页面不存在") {
		p.t.Errorf("404 page: %q", h)
	}
	p.view("404")
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
	name := regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(t.Name()+"-"+step), "-") + ".png"
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

// TestValidateLang: the page validates as the user types, in its
// language: validate takes lang and writes the problems' messages in it
// (field paths and lines stay as they are); a bad lang is 400.
func TestValidateLang(t *testing.T) {
	h := testServer(t, nil).Handler()
	body := func(lang string) string {
		b, _ := json.Marshal(map[string]string{"workload": "kind: nope\nname: x\n", "lang": lang})
		return string(b)
	}
	var en, zh ValidateResponse
	for _, c := range []struct {
		lang string
		into *ValidateResponse
	}{{"en", &en}, {"zh", &zh}} {
		r := do(t, h, "POST", "/api/v1/validate", body(c.lang), "")
		if r.status != 200 {
			t.Fatalf("lang %s: %d %s", c.lang, r.status, r.body)
		}
		if err := json.Unmarshal([]byte(r.body), c.into); err != nil {
			t.Fatal(err)
		}
	}
	if en.OK || zh.OK || len(en.Errors) == 0 || len(zh.Errors) != len(en.Errors) {
		t.Fatalf("en %+v, zh %+v", en, zh)
	}
	if zh.Errors[0].Field != en.Errors[0].Field || zh.Errors[0].Line != en.Errors[0].Line ||
		!regexp.MustCompile(`\p{Han}`).MatchString(zh.Errors[0].Message) || regexp.MustCompile(`\p{Han}`).MatchString(en.Errors[0].Message) {
		t.Errorf("en %+v, zh %+v: want the same field and line, the message in each language", en.Errors[0], zh.Errors[0])
	}
	if r := do(t, h, "POST", "/api/v1/validate", body("fr"), ""); r.status != 400 || !strings.Contains(r.body, `"lang"`) {
		t.Errorf("lang fr: %d %s", r.status, r.body)
	}
}
