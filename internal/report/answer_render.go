package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	message "github.com/gpupick/gpupick/internal/msg"
)

// The answer block as text, Markdown and HTML: every report of a
// recommendation opens with it, before the ranking.

// answerLines are the answer's parts as plain sentences, in reading
// order, for every format to lay out its own way.
type answerLines struct {
	headline, objective string
	whyHead             string   // "Why not X (#n), ..." or empty
	why                 []string // factor sentences
	cost, time          string   // "Cost: ..." lines, empty when unknown
	service, latency    string
	operator            string // who runs the machine, where it matters
	porting             string // what porting is priced at, where it matters
	sure                string
	risks               []RiskJSON
	near                []string
	termsHead           string   // "Terms for this fleet:" or empty
	terms               []string // one sentence per pricing mode, then which wins
	dayHead             string   // "The service's day:" or empty
	day                 []string // base, peak, losses, simulated day
	evidenceHead        string   // "Published results nearest to #1's job:" or empty
	evidence            []string
	diligenceHead       string // "Before signing ...:" or empty
	diligence           []string
}

// answerList is a headed list of the answer that every renderer writes
// alike: the service's day, the published results near #1.
type answerList struct {
	class, head string
	lines       []string
}

// lists are p's headed lists that have a head, in the order they print.
func (p answerLines) lists() []answerList {
	var out []answerList
	for _, x := range []answerList{{"day", p.dayHead, p.day}, {"evidence", p.evidenceHead, p.evidence}, {"diligence", p.diligenceHead, p.diligence}} {
		if x.head != "" {
			out = append(out, x)
		}
	}
	return out
}

func answerParts(a AnswerJSON, l Lang) answerLines {
	p := answerLines{headline: a.Headline, objective: a.ObjectiveSentence}
	if a.RunnerUp != nil {
		p.whyHead = am(l, "why_runner", a.RunnerUp.Offer, a.RunnerUp.Rank)
		for _, f := range a.Factors {
			p.why = append(p.why, f.Sentence)
		}
	} else if a.Qualifies {
		p.whyHead = am(l, "no_runner")
	}
	if c := a.Cost; c != nil {
		line := am(l, "cost_line", usd(c.Compute), usd(c.Storage), usd(c.Egress), usd(c.Setup), usd(c.SpotOverhead), usd(c.Total))
		if c.Porting > 0 {
			line = am(l, "cost_line_porting", usd(c.Compute), usd(c.Storage), usd(c.Egress), usd(c.Setup), usd(c.SpotOverhead), usd(c.Porting), usd(c.Total))
		}
		if c.P10 != nil && c.P90 != nil {
			line += sep(l) + am(l, "range80", usd(*c.P10), usd(*c.P90))
		}
		head := am(l, "cost_head")
		if a.Service {
			head = am(l, "cost_month")
		}
		p.cost = label(l, head, line)
	}
	if d := a.Duration; d != nil {
		line := am(l, "hours_v", hoursFmt(d.Value))
		if d.P10 != nil && d.P90 != nil {
			line += sep(l) + am(l, "range80", hoursFmt(*d.P10), am(l, "hours_v", hoursFmt(*d.P90)))
		}
		p.time = label(l, am(l, "time_head"), line)
	}
	if s := a.ServiceFigures; s != nil && a.Pick != nil {
		if s.Batch > 0 { // an image service
			p.service, p.latency = imageServiceLines(*s, a.Pick.Plan, l)
		} else {
			p.service, p.latency = llmServiceLines(*s, a.Pick.Plan, l)
		}
	}
	if c := a.Confidence; c != nil {
		p.sure = label(l, am(l, "conf_head"), c.Sentence.String())
		if a.Pick != nil && c.Next == a.Pick.Offer && !c.Distinguishable && len(c.Alternatives) == 0 {
			// #2 is #1's hardware elsewhere: a tie that no probe settles.
			p.sure = label(l, am(l, "conf_head"), am(l, "sure_same", 100*c.Probability))
		}
	}
	if a.Porting != nil {
		p.porting = a.Porting.Sentence
	}
	if a.Operator != nil {
		p.operator = a.Operator.Sentence
	}
	p.risks = a.Risks
	if t := a.Terms; t != nil && len(t.Options) > 1 {
		p.termsHead = am(l, "terms_head")
		for _, o := range t.Options {
			p.terms = append(p.terms, o.Sentence)
		}
		p.terms = append(p.terms, t.Sentence)
	}
	if d := a.Day; d != nil && len(d.Lines) > 0 {
		p.dayHead, p.day = am(l, "day_head"), d.Lines
	}
	for _, n := range a.NearMisses {
		p.near = append(p.near, n.Sentence)
	}
	if a.Pick != nil {
		if p.evidence = evidenceLines(a.Pick.Evidence, l); len(p.evidence) > 0 {
			p.evidenceHead = am(l, "ev_head")
		}
	}
	if p.diligence = diligenceLines(a.DueDiligence, l); len(p.diligence) > 0 {
		p.diligenceHead = am(l, "dd_head")
	}
	return p
}

// usdOrUnknown is a dollar figure of the answer, or "unknown" when absent.
func usdOrUnknown(l Lang, v *float64) string {
	if v == nil {
		return msg(l, "unknown")
	}
	return usd(*v)
}

// llmServiceLines are an LLM service's plan-and-price line and its
// latency line (TTFT and TPOT against their SLOs).
func llmServiceLines(s ServiceAnswerJSON, plan string, l Lang) (service, latency string) {
	tok := msg(l, "unknown")
	if s.PerMillionTokensUSD != nil {
		tok = "$" + sig(*s.PerMillionTokensUSD)
	}
	service = label(l, am(l, "svc_head"), am(l, "svc_line", plan, usdOrUnknown(l, s.PerHourUSD), usdOrUnknown(l, s.PerMonthUSD), tok))
	lat := func(v, slo *float64) string {
		t := msText(l, v)
		if slo != nil {
			t = am(l, "slo_vs", t, am(l, "ms_v", sig(*slo)))
		}
		return t
	}
	latency = sentenceCase(am(l, "latency_line", lat(s.TTFTMs, s.SLOTTFTMs), lat(s.TPOTMs, s.SLOTPOTMs)))
	return service, latency
}

// imageServiceLines are an image service's plan-and-price line (dollars
// per thousand images) and its latency line: one pipeline call of Batch
// images against the latency SLO.
func imageServiceLines(s ServiceAnswerJSON, plan string, l Lang) (service, latency string) {
	per := msg(l, "unknown")
	if s.PerThousandImagesUSD != nil {
		per = "$" + sig(*s.PerThousandImagesUSD)
	}
	service = label(l, am(l, "svc_head"), imm(l, "svc_line", plan, usdOrUnknown(l, s.PerHourUSD), usdOrUnknown(l, s.PerMonthUSD), per))
	t := sText(l, s.LatencyS)
	if s.SLOLatencyS != nil && s.SLOPercentile != nil {
		t = imm(l, "slo_vs", t, imm(l, "s_v", sig(*s.SLOLatencyS)), strconv.FormatFloat(*s.SLOPercentile, 'g', -1, 64))
	}
	latency = sentenceCase(imm(l, "latency_line", s.Batch, t))
	return service, latency
}

// label joins a heading and its text: "Cost: ..." or "成本：...".
func label(l Lang, head, text string) string {
	if l == Chinese {
		return head + "：" + text
	}
	return head + ": " + text
}

// heading writes a heading followed by a list: "Risks:" or "风险：".
func heading(l Lang, head string) string {
	if l == Chinese {
		return head + "："
	}
	return head + ":"
}

func sep(l Lang) string {
	if l == Chinese {
		return "；"
	}
	return "; "
}

func levelText(l Lang, level string) string { return am(l, "level_"+level) }

// writeAnswerText writes the answer block for a terminal.
func writeAnswerText(b *strings.Builder, a AnswerJSON, l Lang) {
	p := answerParts(a, l)
	fmt.Fprintf(b, "%s\n", label(l, am(l, "answer"), p.headline))
	fmt.Fprintf(b, "%s\n", p.objective)
	if p.whyHead != "" {
		fmt.Fprintf(b, "%s\n", p.whyHead)
		for _, s := range p.why {
			fmt.Fprintf(b, "  - %s\n", s)
		}
	}
	for _, s := range []string{p.cost, p.time, p.service, p.latency, p.porting, p.operator, p.sure} {
		if s != "" {
			fmt.Fprintf(b, "%s\n", s)
		}
	}
	for _, sec := range p.lists() {
		fmt.Fprintf(b, "%s\n", heading(l, sec.head))
		for _, s := range sec.lines {
			fmt.Fprintf(b, "  - %s\n", s)
		}
	}
	if p.termsHead != "" {
		fmt.Fprintf(b, "%s\n", heading(l, p.termsHead))
		for _, s := range p.terms {
			fmt.Fprintf(b, "  - %s\n", s)
		}
	}
	if a.Qualifies {
		if len(p.risks) == 0 {
			fmt.Fprintf(b, "%s\n", am(l, "no_risks"))
		} else {
			fmt.Fprintf(b, "%s\n", heading(l, am(l, "risks_head")))
			for _, k := range p.risks {
				fmt.Fprintf(b, "  - [%s] %s\n", levelText(l, k.Level), k.Sentence)
			}
		}
	}
	if len(p.near) > 0 {
		fmt.Fprintf(b, "%s\n", heading(l, am(l, "near_head")))
		for _, s := range p.near {
			fmt.Fprintf(b, "  - %s\n", s)
		}
	}
}

// writeAnswerMarkdown writes the answer block as Markdown: compact, for
// the top of a pull-request comment.
func writeAnswerMarkdown(b *strings.Builder, a AnswerJSON, l Lang) {
	p := answerParts(a, l)
	fmt.Fprintf(b, "**%s**\n\n%s\n", mdEscape(p.headline), mdEscape(p.objective))
	if p.whyHead != "" {
		fmt.Fprintf(b, "\n%s\n", mdEscape(p.whyHead))
		for _, s := range p.why {
			fmt.Fprintf(b, "- %s\n", mdEscape(s))
		}
	}
	var facts []string
	for _, s := range []string{p.cost, p.time, p.service, p.latency, p.porting, p.operator, p.sure} {
		if s != "" {
			facts = append(facts, "- "+mdEscape(s))
		}
	}
	if len(facts) > 0 {
		fmt.Fprintf(b, "\n%s\n", strings.Join(facts, "\n"))
	}
	for _, sec := range p.lists() {
		fmt.Fprintf(b, "\n**%s**\n", mdEscape(sec.head))
		for _, s := range sec.lines {
			fmt.Fprintf(b, "- %s\n", mdEscape(s))
		}
	}
	if p.termsHead != "" {
		fmt.Fprintf(b, "\n**%s**\n", mdEscape(p.termsHead))
		for _, s := range p.terms {
			fmt.Fprintf(b, "- %s\n", mdEscape(s))
		}
	}
	if a.Qualifies {
		if len(p.risks) == 0 {
			fmt.Fprintf(b, "\n%s\n", mdEscape(am(l, "no_risks")))
		} else {
			fmt.Fprintf(b, "\n**%s**\n", mdEscape(am(l, "risks_head")))
			for _, k := range p.risks {
				fmt.Fprintf(b, "- **%s** %s\n", mdEscape(levelText(l, k.Level)), mdEscape(k.Sentence))
			}
		}
	}
	if len(p.near) > 0 {
		if a.Qualifies { // a detail beside a pick
			fmt.Fprintf(b, "\n<details><summary>%s</summary>\n\n", htmlText(am(l, "near_head")))
		} else {
			fmt.Fprintf(b, "\n**%s**\n", mdEscape(am(l, "near_head")))
		}
		for _, s := range p.near {
			fmt.Fprintf(b, "- %s\n", mdEscape(s))
		}
		if a.Qualifies {
			b.WriteString("\n</details>\n")
		}
	}
}

// writeAnswerHTML writes the answer block as an HTML section.
func writeAnswerHTML(b *strings.Builder, a AnswerJSON, l Lang) {
	p := answerParts(a, l)
	e := html.EscapeString
	cls := "answer"
	if !a.Qualifies {
		cls += " none"
	}
	fmt.Fprintf(b, "<section class=%q aria-label=%q>\n<p class=\"headline\">%s</p>\n<p class=\"objective\">%s</p>\n", cls, e(am(l, "answer")), e(p.headline), e(p.objective))
	if p.whyHead != "" {
		fmt.Fprintf(b, "<p class=\"why\">%s</p>\n", e(p.whyHead))
		if len(p.why) > 0 {
			b.WriteString("<ul class=\"factors\">\n")
			for i, s := range p.why {
				c := ""
				if a.Factors[i].PickBetter {
					c = ` class="better"`
				}
				fmt.Fprintf(b, "<li%s>%s</li>\n", c, e(s))
			}
			b.WriteString("</ul>\n")
		}
	}
	var facts []string
	for _, s := range []string{p.cost, p.time, p.service, p.latency, p.porting, p.operator, p.sure} {
		if s != "" {
			facts = append(facts, "<li>"+e(s)+"</li>")
		}
	}
	if len(facts) > 0 {
		fmt.Fprintf(b, "<ul class=\"facts\">\n%s\n</ul>\n", strings.Join(facts, "\n"))
	}
	for _, sec := range p.lists() {
		if sec.class == "evidence" && a.Pick != nil && len(a.Pick.Evidence) > 0 {
			fmt.Fprintf(b, "<h2>%s</h2>\n", e(sec.head))
			writeEvidenceTable(b, a.Pick, l, sec.head)
			continue
		}
		fmt.Fprintf(b, "<h2>%s</h2>\n<ul class=\"%s\">\n", e(sec.head), sec.class)
		for _, s := range sec.lines {
			fmt.Fprintf(b, "<li>%s</li>\n", e(s))
		}
		b.WriteString("</ul>\n")
	}
	if p.termsHead != "" {
		fmt.Fprintf(b, "<h2>%s</h2>\n<ul class=\"terms\">\n", e(p.termsHead))
		for _, s := range p.terms {
			fmt.Fprintf(b, "<li>%s</li>\n", e(s))
		}
		b.WriteString("</ul>\n")
	}
	if a.Qualifies {
		if len(p.risks) == 0 {
			fmt.Fprintf(b, "<p class=\"risks\">%s</p>\n", e(am(l, "no_risks")))
		} else {
			fmt.Fprintf(b, "<h2>%s</h2>\n<ul class=\"risks\">\n", e(am(l, "risks_head")))
			for _, k := range p.risks {
				fmt.Fprintf(b, "<li class=%q><span class=\"lvl\">%s</span> %s</li>\n", "risk-"+k.Level, e(levelText(l, k.Level)), e(k.Sentence))
			}
			b.WriteString("</ul>\n")
		}
	}
	if len(p.near) > 0 {
		// Beside a pick, near-misses are a detail; without one, the answer.
		open := ""
		if !a.Qualifies {
			open = " open"
		}
		fmt.Fprintf(b, "<details%s><summary>%s</summary>\n<ul class=\"near\">\n", open, e(am(l, "near_head")))
		for _, s := range p.near {
			fmt.Fprintf(b, "<li>%s</li>\n", e(s))
		}
		b.WriteString("</ul></details>\n")
	}
	b.WriteString("</section>\n")
}

// shownRow is one row of the ranking: a candidate and, when regions are
// folded, how many other regions offer the same instance type, size and
// pricing mode at a rank below it.
type shownRow struct {
	c      *advisor.Candidate
	others int
}

// shownRows are the rows a report shows: the first top (0 = all) after
// folding every instance type, size and pricing mode into its best-ranked
// region (regionFolds), unless allRegions.
func shownRows(r *advisor.Result, top int, allRegions bool) []shownRow {
	var rows []shownRow
	var into, others []int
	if !allRegions {
		into, others = regionFolds(r.Candidates)
	}
	for i, c := range r.Candidates {
		if top > 0 && len(rows) >= top {
			break
		}
		if allRegions {
			rows = append(rows, shownRow{c: c})
		} else if into[i] == i {
			rows = append(rows, shownRow{c: c, others: others[i]})
		}
	}
	return rows
}

// regionFolds folds the ranked candidates by instance type, size and
// pricing mode: into[i] is the index of the best-ranked candidate of i's
// kind (i itself for that one), and others[i] how many candidates of
// other regions fold into i. Every surface folds the same way: the
// table's rows, and the JSON's folded_into and other_regions that the
// page reads.
func regionFolds(cs []*advisor.Candidate) (into, others []int) {
	type key struct {
		provider, instance string
		mode               catalog.Mode
		gpus               int
	}
	into, others = make([]int, len(cs)), make([]int, len(cs))
	at := make(map[key]int, len(cs))
	for i, c := range cs {
		k := key{c.Offer.Provider, c.Offer.InstanceType, c.Cost.Mode, c.GPUs}
		j, ok := at[k]
		if !ok {
			j = i
			at[k] = i
		} else {
			others[j]++
		}
		into[i] = j
	}
	return into, others
}

// columnDecimals is the number of decimals that prints every value of a
// column alike with at least minSig significant digits in its smallest
// value (up to maxDec), and more where two different values of adjacent
// ranks would otherwise print the same.
func columnDecimals(vals []float64, minSig, maxDec int) int {
	return decimals(vals, minSig, maxDec, true)
}

// plainDecimals is columnDecimals without telling ranks apart: for a
// column the ranking is not by.
func plainDecimals(vals []float64, minSig, maxDec int) int {
	return decimals(vals, minSig, maxDec, false)
}

func decimals(vals []float64, minSig, maxDec int, distinct bool) int {
	small := math.Inf(1)
	for _, v := range vals {
		if v > 0 {
			small = math.Min(small, v)
		}
	}
	if math.IsInf(small, 1) {
		return 0
	}
	d := min(maxDec, max(0, minSig-1-int(math.Floor(math.Log10(small)))))
	for ; distinct && d < maxDec; d++ {
		clash := false
		for i := 1; i < len(vals); i++ {
			a, b := vals[i-1], vals[i]
			if a != b && a > 0 && b > 0 && strconv.FormatFloat(a, 'f', d, 64) == strconv.FormatFloat(b, 'f', d, 64) {
				clash = true
				break
			}
		}
		if !clash {
			break
		}
	}
	return d
}

// fixed writes v with d decimals, thousands grouped.
func fixed(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	n, err := strconv.Atoi(strings.TrimPrefix(intPart, "-"))
	if err != nil {
		return s
	}
	out := thousands(n)
	if neg {
		out = "-" + out
	}
	if frac != "" {
		out += "." + frac
	}
	return out
}

// rangeCell writes "v (lo-hi)" with d decimals, or v alone without a range.
func rangeCell(v, lo, hi float64, d int) string {
	if lo <= 0 || hi <= 0 {
		return fixed(v, d)
	}
	return fmt.Sprintf("%s (%s-%s)", fixed(v, d), fixed(lo, d), fixed(hi, d))
}

// warningGroup is one warning sentence and the ranks of the rows that have
// it.
type warningGroup struct {
	text  string
	ranks []int
}

// groupWarnings gathers the shown rows' warnings (the stale price left to
// the freshness line) by sentence, in the order they first appear. A
// compliance preference the catalog cannot judge is one line per
// requirement, whatever the offer its sentence names.
func groupWarnings(rows []shownRow, l Lang) []warningGroup {
	var out []warningGroup
	at := map[string]int{}
	texts := map[string]map[string]bool{}
	prefs := map[string][2]string{}        // a preference's key: its requirement and verdict
	sharedLo, sharedHi := math.Inf(1), 0.0 // whole instances / slices paid
	for _, row := range rows {
		for _, w := range shownWarnings(row.c) {
			t := warningIn(l, w)
			key := t
			if m, ok := firstMsg(w); ok && w.Code == advisor.WarnPreferred && len(w.Args) == 1 && len(m.Args()) == 3 {
				// "preferred %s is %s: %s": one line per requirement and verdict
				name, verdict := fmt.Sprint(m.Args()[0]), fmt.Sprint(m.Args()[1])
				key = "preferred\x00" + name + "\x00" + verdict
				prefs[key] = [2]string{name, verdict}
			}
			if w.Code == advisor.WarnSharedPool && len(w.Args) == 5 {
				key = "shared\x00"
				paid, _ := w.Args[3].(float64)
				whole, _ := w.Args[4].(float64)
				if paid > 0 {
					sharedLo, sharedHi = math.Min(sharedLo, whole/paid), math.Max(sharedHi, whole/paid)
				}
			}
			i, ok := at[key]
			if !ok {
				i = len(out)
				at[key] = i
				out = append(out, warningGroup{text: t})
				texts[key] = map[string]bool{}
			}
			texts[key][t] = true
			if n := len(out[i].ranks); n == 0 || out[i].ranks[n-1] != row.c.Rank {
				out[i].ranks = append(out[i].ranks, row.c.Rank)
			}
		}
	}
	if i, ok := at["shared\x00"]; ok && sharedHi > 0 {
		times := fixed(sharedLo, 1)
		if hi := fixed(sharedHi, 1); hi != times {
			times += "-" + hi
		}
		out[i].text = am(l, "agg_shared", times)
	}
	for key, i := range at {
		if p, ok := prefs[key]; ok && len(texts[key]) > 1 {
			head := fmt.Sprintf("preferred %s is %s", p[0], p[1])
			if l == Chinese {
				head = am(l, "pref_head", requirementName(l, p[0]), complianceVerdictZh(p[1]))
			}
			out[i].text = am(l, "agg_unknown", head)
		}
	}
	return out
}

// complianceVerdictZh names a compliance verdict in Chinese.
func complianceVerdictZh(v string) string {
	switch v {
	case "unknown":
		return "未知"
	case "fail":
		return "不满足"
	case "pass":
		return "满足"
	}
	return v
}

// warningIn renders a warning in l, its sentence arguments (a check's
// reason, a fix) translated too.
func warningIn(l Lang, w advisor.Warning) string {
	if l != Chinese || len(w.Args) == 0 {
		return WarningText(l, w)
	}
	if (w.Code == advisor.WarnPreferred || w.Code == advisor.WarnNote) && len(w.Args) == 1 {
		return fmt.Sprint(argIn(l, w.Args[0])) // a whole sentence already
	}
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		args[i] = argIn(l, a)
	}
	return WarningText(l, advisor.Warning{Code: w.Code, Args: args})
}

// ranksText writes ranks as "#1, #3, #7".
func ranksText(ranks []int) string {
	parts := make([]string, len(ranks))
	for i, r := range ranks {
		parts[i] = "#" + strconv.Itoa(r)
	}
	return strings.Join(parts, ", ")
}

// rowsFreshness is how fresh the prices of the rows shown are, each offer
// counted once.
func rowsFreshness(r *advisor.Result, rows []shownRow) catalog.PriceStats {
	seen := map[string]bool{}
	var offers []*catalog.Offer
	for _, row := range rows {
		if k := row.c.Offer.Key(); !seen[k] {
			seen[k] = true
			offers = append(offers, row.c.Offer)
		}
	}
	return catalog.Stats(offers, r.Now)
}

// writeEvidenceTable writes the published results nearest to the pick's
// job as a short table: the job, its source and date, what was measured
// and what gpupick predicts for it (and the ratio), both in the row's
// unit, and the distance.
func writeEvidenceTable(b *strings.Builder, p *AnswerPickJSON, l Lang, head string) {
	e := html.EscapeString
	if p.EvidenceNote != "" {
		fmt.Fprintf(b, "<p class=\"notes\">%s</p>\n", e(p.EvidenceNote))
	}
	// On a phone the table may scroll sideways: the region takes the
	// keyboard focus, so it can be scrolled without a pointer.
	fmt.Fprintf(b, "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"%s\"><table class=\"evidence\">\n<tr><th>%s</th><th>%s</th><th class=\"r\">%s</th><th class=\"r\">%s</th><th>%s</th><th class=\"r\">%s</th></tr>\n",
		e(head), e(am(l, "ev_col_job")), e(am(l, "ev_col_source")), e(am(l, "ev_col_measured")), e(am(l, "ev_col_predicted")), e(am(l, "ev_col_unit")), e(am(l, "ev_col_distance")))
	for _, x := range p.Evidence {
		parts := append([]string{x.Model, x.Kind, fmt.Sprintf("%d × %s", x.GPUs, x.Accelerator)}, evidenceSetup(x)...)
		fmt.Fprintf(b, "<tr><td class=\"wrap\">%s</td><td class=\"wrap\">%s, %s</td><td class=\"r\">%s</td><td class=\"r\">%s (%s×)</td><td class=\"wrap\">%s</td><td class=\"r\">%s</td></tr>\n",
			e(strings.Join(parts, " · ")), e(x.Source), e(x.Date), e(sig(x.Measured)), e(sig(x.Predicted)),
			strconv.FormatFloat(x.Ratio, 'f', 2, 64), e(evidenceUnit(l, x.Unit)), strconv.FormatFloat(x.Distance, 'f', 1, 64))
	}
	b.WriteString("</table></div>\n")
}

// firstMsg is a warning's first argument when it is a message.
func firstMsg(w advisor.Warning) (message.Msg, bool) {
	if len(w.Args) == 0 {
		return message.Msg{}, false
	}
	m, ok := w.Args[0].(message.Msg)
	return m, ok
}
