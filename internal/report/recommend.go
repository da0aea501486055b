package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/perf"
)

// CandidateJSON is one element of `recommend -o json`'s "candidates".
type CandidateJSON struct {
	Rank                int              `json:"rank"`
	Offer               string           `json:"offer"`
	Provider            string           `json:"provider"`
	InstanceType        string           `json:"instance_type"`
	Region              string           `json:"region"`
	Country             string           `json:"country"`
	GPU                 string           `json:"gpu"`
	GPUs                int              `json:"gpus"`
	Nodes               int              `json:"nodes"`
	Pricing             string           `json:"pricing"`
	DurationHours       *float64         `json:"duration_hours"`
	DurationHoursP10    *float64         `json:"duration_hours_p10,omitempty"`
	DurationHoursP90    *float64         `json:"duration_hours_p90,omitempty"`
	Cost                *CostJSON        `json:"cost_usd"`
	UnitCost            *perf.Quantity   `json:"unit_cost"`
	TokensPerDollar     *float64         `json:"tokens_per_dollar"`
	Utilization         float64          `json:"utilization"`
	Bottleneck          string           `json:"bottleneck"`
	Pareto              bool             `json:"pareto"`
	Warnings            []WarningJSON    `json:"warnings"`
	PricePerHourUSD     *float64         `json:"price_per_hour_usd"`
	ListPricePerHourUSD *float64         `json:"list_price_per_hour_usd"`
	PriceRule           string           `json:"your_price_rule,omitempty"`
	PriceAsOf           string           `json:"price_as_of"`
	Throughput          perf.Quantity    `json:"throughput"`
	ReplicasNeeded      int              `json:"replicas_needed,omitempty"`
	PerHourUSD          *float64         `json:"per_hour_usd,omitempty"`
	PerMonthUSD         *float64         `json:"per_month_usd,omitempty"`
	TTFTMs              *float64         `json:"ttft_ms,omitempty"`
	TPOTMs              *float64         `json:"tpot_ms,omitempty"`
	Spot                *cost.Spot       `json:"spot,omitempty"`
	Reserved            *cost.Reserved   `json:"reserved,omitempty"`
	Parallelism         perf.Parallelism `json:"parallelism"`
	// Plan is the fleet this candidate prices; parallelism (above) is the
	// layout of one instance as predicted.
	Plan PlanJSON `json:"plan"`
}

// PlanJSON is the fleet a candidate deploys and pays for: every command
// that shows this candidate shows these numbers.
type PlanJSON struct {
	Instances              int      `json:"instances"`
	GPUsPerInstance        int      `json:"gpus_per_instance"`
	GPUFraction            float64  `json:"gpu_fraction,omitempty"`
	GPUs                   int      `json:"gpus"`
	Replicas               int      `json:"replicas"`
	ReplicasPerInstance    int      `json:"replicas_per_instance,omitempty"`
	GPUsPerReplica         int      `json:"gpus_per_replica"`
	Data                   int      `json:"data"`
	Tensor                 int      `json:"tensor"`
	Pipeline               int      `json:"pipeline"`
	Expert                 int      `json:"expert,omitempty"`
	Batch                  int      `json:"batch,omitempty"`
	RequestsPerSPerReplica *float64 `json:"requests_per_s_per_replica,omitempty"`
	Pricing                string   `json:"pricing"`
	PerHourUSD             *float64 `json:"per_hour_usd,omitempty"`
	Sentence               string   `json:"sentence"`
}

// serviceReplicas is a service's model copies (0 for a job): the plan's.
func serviceReplicas(c *advisor.Candidate) int {
	if c.PerMonthUSD > 0 || c.Plan.RequestsPerSPerReplica > 0 {
		return c.Plan.Replicas
	}
	return 0
}

// PlanView converts a plan.
func PlanView(p advisor.Plan) PlanJSON {
	j := PlanJSON{Instances: p.Instances, GPUsPerInstance: p.GPUsPerInstance, GPUFraction: p.GPUFraction, GPUs: p.GPUs,
		Replicas: p.Replicas, ReplicasPerInstance: p.ReplicasPerInstance, GPUsPerReplica: p.GPUsPerReplica,
		Data: p.Data, Tensor: p.Tensor, Pipeline: p.Pipeline, Expert: p.Expert, Batch: p.Batch,
		Pricing: p.Pricing.String(), Sentence: PlanSentence(p, English)}
	if p.RequestsPerSPerReplica > 0 {
		j.RequestsPerSPerReplica = fp(math.Round(p.RequestsPerSPerReplica*1000) / 1000)
	}
	if p.PerHourUSD > 0 {
		j.PerHourUSD = fp(r2(p.PerHourUSD))
	}
	return j
}

// PlanSentence says a plan in one sentence: "4 instance(s) of 4 GPU(s)
// (16 GPUs); 8 replica(s) of tensor parallelism 2, 2 per instance, 3.75
// requests/s each; on-demand".
func PlanSentence(p advisor.Plan, l Lang) string {
	zh := l == Chinese
	inst := fmt.Sprintf("%d instance(s) of %d GPU(s) (%d GPUs)", p.Instances, p.GPUsPerInstance, p.GPUs)
	if zh {
		inst = fmt.Sprintf("%d 台实例，每台 %d 块 GPU（共 %d 块）", p.Instances, p.GPUsPerInstance, p.GPUs)
	}
	if p.GPUFraction > 0 {
		inst = fmt.Sprintf("%d instance(s) of %s of a GPU", p.Instances, catalog.FractionString(p.GPUFraction))
		if zh {
			inst = fmt.Sprintf("%d 台实例，每台 %s 块 GPU", p.Instances, catalog.FractionString(p.GPUFraction))
		}
	}
	layout := fmt.Sprintf("tensor parallelism %d", p.Tensor)
	if zh {
		layout = fmt.Sprintf("张量并行 %d", p.Tensor)
	}
	if p.Pipeline > 1 {
		layout += fmt.Sprintf(" x pipeline %d", p.Pipeline)
		if zh {
			layout = fmt.Sprintf("张量并行 %d × 流水线 %d", p.Tensor, p.Pipeline)
		}
	}
	var s string
	switch {
	case p.ReplicasPerInstance > 0 && zh:
		s = fmt.Sprintf("%s；%d 个副本（%s），每台 %d 个", inst, p.Replicas, layout, p.ReplicasPerInstance)
		if p.RequestsPerSPerReplica > 0 {
			s += fmt.Sprintf("，每个 %.3g 请求/秒", p.RequestsPerSPerReplica)
		}
	case p.ReplicasPerInstance > 0:
		s = fmt.Sprintf("%s; %d replica(s) of %s, %d per instance", inst, p.Replicas, layout, p.ReplicasPerInstance)
		if p.RequestsPerSPerReplica > 0 {
			s += fmt.Sprintf(", %.3g requests/s each", p.RequestsPerSPerReplica)
		}
	case zh:
		s = fmt.Sprintf("%s；一个作业，数据并行 %d × %s", inst, p.Data, layout)
	default:
		s = fmt.Sprintf("%s; one job, data %d x %s", inst, p.Data, layout)
	}
	if zh {
		return s + "；" + modeZh[p.Pricing.String()]
	}
	return s + "; " + p.Pricing.String()
}

// CostJSON is a candidate's cost breakdown (a service's per month) with the
// 80% interval of its total: p10 and p90 carry the prediction's speed
// interval into the compute and spot lines.
type CostJSON struct {
	cost.Breakdown
	P10 *float64 `json:"p10,omitempty"`
	P90 *float64 `json:"p90,omitempty"`
}

// ConfidenceJSON is how sure the ranking is that #1 beats #2.
type ConfidenceJSON struct {
	advisor.Confidence
	Sentence string `json:"sentence"`
}

// WarningJSON is a warning with its code and its English text.
type WarningJSON struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// ExcludedJSON is one element of "excluded".
type ExcludedJSON struct {
	Offer      string `json:"offer"`
	Region     string `json:"region"`
	GPUs       int    `json:"gpus"`
	Pricing    string `json:"pricing,omitempty"`
	ReasonCode string `json:"reason_code"`
	Reason     string `json:"reason"`
}

// RecommendJSON is the document `gpupick recommend -o json` prints.
type RecommendJSON struct {
	Workload   string          `json:"workload"`
	Kind       string          `json:"kind"`
	Objective  string          `json:"objective"`
	Evaluated  int             `json:"evaluated"`
	Summary    string          `json:"summary"`
	Candidates []CandidateJSON `json:"candidates"`
	Excluded   []ExcludedJSON  `json:"excluded"`
	Notes      []string        `json:"notes"`
	// ConfidenceVsNext is the probability that #1 really beats #2 (null
	// with fewer than two candidates).
	ConfidenceVsNext *ConfidenceJSON `json:"confidence_vs_next"`
	// PriceFreshness is how fresh the prices of the candidates listed
	// are, each offer counted once (each candidate also keeps its
	// price_as_of and, when stale, its stale_price warning).
	PriceFreshness PriceFreshnessJSON `json:"price_freshness"`
	// Answer is what every surface opens with: the pick, why it beats the
	// runner-up, its cost, time, confidence, risks and near-misses.
	Answer AnswerJSON `json:"answer"`
}

func r2(v float64) float64 { return math.Round(v*100) / 100 }

func fp(v float64) *float64 { return &v }

// CandidateView converts one candidate.
func CandidateView(c *advisor.Candidate) CandidateJSON {
	o := c.Offer
	j := CandidateJSON{
		Rank: c.Rank, Offer: o.ID(), Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region,
		Country: o.Country, GPU: o.GPU, GPUs: c.GPUs, Nodes: c.Instances, Pricing: c.Cost.Mode.String(),
		Utilization: c.Pred.Utilization, Bottleneck: c.Pred.Bottleneck, Pareto: c.Pareto,
		PriceAsOf: o.AsOf.Format("2006-01-02"), Throughput: c.Pred.Throughput, ReplicasNeeded: serviceReplicas(c),
		TTFTMs: c.Pred.TTFTMs, TPOTMs: c.Pred.TPOTMs, Spot: c.Cost.Spot, Reserved: c.Cost.Reserved,
		Parallelism: c.Pred.Parallelism, PriceRule: c.Cost.PriceRule, Warnings: []WarningJSON{},
		Plan: PlanView(c.Plan),
	}
	if c.DurationHours > 0 {
		j.DurationHours = fp(r2(c.DurationHours))
		if c.DurationHoursP10 > 0 {
			j.DurationHoursP10, j.DurationHoursP90 = fp(r2(c.DurationHoursP10)), fp(r2(c.DurationHoursP90))
		}
	}
	if c.Cost.PriceKnown {
		b := c.Cost.Cost
		j.Cost = &CostJSON{Breakdown: cost.Breakdown{Compute: r2(b.Compute), Storage: r2(b.Storage), Egress: r2(b.Egress), Setup: r2(b.Setup), SpotOverhead: r2(b.SpotOverhead), Total: r2(b.Total)}}
		if c.CostP10 > 0 {
			j.Cost.P10, j.Cost.P90 = fp(r2(c.CostP10)), fp(r2(c.CostP90))
		}
		j.PricePerHourUSD = fp(r2(c.Cost.PricePerHourUSD))
		if c.Cost.ListPerHourUSD > 0 {
			j.ListPricePerHourUSD = fp(r2(c.Cost.ListPerHourUSD))
		}
		if c.PerMonthUSD > 0 {
			j.PerHourUSD, j.PerMonthUSD = fp(r2(c.PerHourUSD)), fp(r2(c.PerMonthUSD))
		}
	}
	if c.UnitCost > 0 {
		j.UnitCost = &perf.Quantity{Value: math.Round(c.UnitCost*1e4) / 1e4, Unit: c.UnitCostUnit}
	}
	if c.TokensPerUSD > 0 {
		j.TokensPerDollar = fp(math.Round(c.TokensPerUSD))
	}
	for _, w := range c.Warnings {
		j.Warnings = append(j.Warnings, WarningJSON{Code: w.Code, Text: WarningText(English, w)})
	}
	return j
}

// Recommendation builds the JSON document, keeping the top n candidates
// (0 = all) and every exclusion, with its answer in English.
func Recommendation(name, kind string, r *advisor.Result, top int) RecommendJSON {
	return RecommendationIn(name, kind, r, top, English)
}

// RecommendationIn is Recommendation with the answer's sentences in l
// (codes, numbers and the other fields do not change with the language).
func RecommendationIn(name, kind string, r *advisor.Result, top int, l Lang) RecommendJSON {
	d := RecommendJSON{Workload: name, Kind: kind, Objective: string(r.Objective), Evaluated: r.Evaluated,
		Summary: r.Summary(), Candidates: []CandidateJSON{}, Excluded: []ExcludedJSON{}, Notes: r.Notes}
	if d.Notes == nil {
		d.Notes = []string{}
	}
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		d.Candidates = append(d.Candidates, CandidateView(c))
	}
	d.Excluded = make([]ExcludedJSON, len(r.Excluded))
	for i, x := range r.Excluded {
		d.Excluded[i] = ExcludedJSON{Offer: x.Offer, Region: x.Region, GPUs: x.GPUs, Pricing: x.Pricing, ReasonCode: x.ReasonCode, Reason: x.Reason}
	}
	if c := r.ConfidenceVsNext; c != nil {
		d.ConfidenceVsNext = &ConfidenceJSON{Confidence: *c, Sentence: c.Sentence()}
	}
	d.PriceFreshness = PriceFreshnessView(r.Freshness(top))
	d.Answer = BuildAnswer(r, l)
	return d
}

// withRange writes a value and its 80% range: "2.2 (1.8-3.1)".
func withRange(v, lo, hi float64, format func(float64) string) string {
	if lo <= 0 || hi <= 0 {
		return format(v)
	}
	return fmt.Sprintf("%s (%s-%s)", format(v), format(lo), format(hi))
}

func hoursText(v float64) string { return fmt.Sprintf("%.1f", v) }

// confidenceText is the sentence on #1 against #2, in l.
func confidenceText(l Lang, c *advisor.Confidence) string {
	if c == nil {
		return ""
	}
	if l != Chinese {
		return c.Sentence()
	}
	better := "更便宜"
	if c.Basis == "time" {
		better = "更快"
	}
	if c.Distinguishable {
		return fmt.Sprintf("按两者预测的 80%% 区间，第 1 名比第 2 名（%s）%s的概率为 %.0f%%。", c.Next, better, 100*c.Probability)
	}
	probe := c.GPU
	if c.NextGPU != c.GPU {
		probe = c.GPU + " 和 " + c.NextGPU
	}
	return fmt.Sprintf("第 1 名与第 2 名（%s）在模型误差范围内无法区分：第 1 名%s的概率仅为 %.0f%%。在 %s 的试用服务器上运行 gpupick probe --gpu-bench，再用 recommend --calibrate REPORT，即可测出排名所依赖的速度并确定结果。",
		c.Next, better, 100*c.Probability, probe)
}

func money(v float64) string {
	switch {
	case v >= 1e5:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	case v >= 100:
		return fmt.Sprintf("%.0f", math.Round(v)) // half away from zero, as people round money
	}
	return fmt.Sprintf("%.2f", v)
}

func isService(r *advisor.Result) bool {
	for _, c := range r.Candidates {
		if c.PerMonthUSD > 0 {
			return true
		}
	}
	return false
}

// RecommendTable is the ranked table for people (also the basis of CSV and
// Markdown).
func RecommendTable(r *advisor.Result, top int, l Lang) *Table {
	svc := isService(r)
	cols := []Column{{msg(l, "rank"), "rank", true}, {msg(l, "offer"), "offer", false}, {msg(l, "region"), "region", false},
		{"CC", "country", false}, {msg(l, "gpus"), "gpus", false}, {msg(l, "pricing"), "pricing", false}}
	if svc {
		cols = append(cols, Column{msg(l, "replicas"), "replicas", true}, Column{msg(l, "perhour"), "usd_per_hour", true},
			Column{msg(l, "permonth"), "usd_per_month", true}, Column{msg(l, "permtok"), "usd_per_million_output_tokens", true},
			Column{msg(l, "latency"), "ttft_tpot_ms", true})
	} else {
		cols = append(cols, Column{msg(l, "hours"), "duration_hours", true}, Column{msg(l, "total"), "total_usd", true},
			Column{msg(l, "unit"), "unit_cost", true})
	}
	cols = append(cols, Column{msg(l, "util"), "utilization", true}, Column{msg(l, "bottleneck"), "bottleneck", false}, Column{msg(l, "pareto"), "pareto", false})
	t := &Table{Columns: cols}
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		row := []string{strconv.Itoa(c.Rank), c.Offer.ID(), c.Offer.Region, c.Offer.Country,
			fmt.Sprintf("%d x %s", c.GPUs, c.Offer.GPU), c.Cost.Mode.String()}
		unknown := msg(l, "unknown")
		if svc {
			lat := ""
			if c.Pred.TTFTMs != nil && c.Pred.TPOTMs != nil {
				lat = fmt.Sprintf("%.0f/%.0f", *c.Pred.TTFTMs, *c.Pred.TPOTMs)
			}
			if c.Cost.PriceKnown {
				row = append(row, strconv.Itoa(c.Plan.Replicas), money(c.PerHourUSD), withRange(c.PerMonthUSD, c.CostP10, c.CostP90, money), unitCost(c), lat)
			} else {
				row = append(row, strconv.Itoa(c.Plan.Replicas), unknown, unknown, unknown, lat)
			}
		} else {
			hours := withRange(c.DurationHours, c.DurationHoursP10, c.DurationHoursP90, hoursText)
			if c.Cost.PriceKnown {
				row = append(row, hours, withRange(c.Cost.Cost.Total, c.CostP10, c.CostP90, money), unitCost(c))
			} else {
				row = append(row, hours, unknown, unknown)
			}
		}
		p := ""
		if c.Pareto {
			p = "*"
		}
		row = append(row, fmt.Sprintf("%.0f%%", c.Pred.Utilization*100), bottleneckText(l, c.Pred.Bottleneck), p)
		t.Add(row...)
	}
	return t
}

func unitCost(c *advisor.Candidate) string {
	if c.UnitCost == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3g", c.UnitCost)
}

// unitLabel names the unit of the table's unit-cost column.
func unitLabel(r *advisor.Result) string {
	for _, c := range r.Candidates {
		if c.UnitCostUnit != "" {
			return c.UnitCostUnit
		}
	}
	return ""
}

// WriteRecommendText prints the ranked table, the warnings of the shown
// candidates, and the summary of exclusions.
func WriteRecommendText(w io.Writer, name string, r *advisor.Result, top int, l Lang) error {
	var b strings.Builder
	fmt.Fprintln(&b, msg(l, "title", name, msg(l, "objective", objectiveText(l, string(r.Objective)))))
	if len(r.Candidates) == 0 {
		fmt.Fprintln(&b, msg(l, "none"))
	} else {
		if err := RecommendTable(r, top, l).WriteText(&b); err != nil {
			return err
		}
		if u := unitLabel(r); u != "" && !isService(r) {
			fmt.Fprintln(&b, msg(l, "unit_line", unitText(l, u)))
		}
		if isService(r) {
			fmt.Fprintln(&b, msg(l, "service_note"))
		}
		fmt.Fprintln(&b, msg(l, "pareto_note"))
		fmt.Fprintln(&b, msg(l, "range_note"))
		if s := confidenceText(l, r.ConfidenceVsNext); s != "" {
			fmt.Fprintln(&b, s)
		}
		for _, c := range r.Candidates {
			if c.Cost.PriceRule != "" {
				fmt.Fprintln(&b, msg(l, "your_prices"))
				break
			}
		}
		fmt.Fprintln(&b, FreshnessText(l, r.Freshness(top)))
		wrote := false
		for i, c := range r.Candidates {
			if top > 0 && i >= top {
				break
			}
			ws := shownWarnings(c)
			if len(ws) == 0 {
				continue
			}
			if !wrote {
				fmt.Fprintf(&b, "\n%s\n", msg(l, "warnings"))
				wrote = true
			}
			texts := make([]string, len(ws))
			for k, wn := range ws {
				texts[k] = WarningText(l, wn)
			}
			fmt.Fprintf(&b, "  #%d %s: %s\n", c.Rank, c.Offer.ID(), strings.Join(texts, "; "))
		}
	}
	fmt.Fprintf(&b, "\n%s %s\n", msg(l, "excluded"), summaryText(r, l))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func summaryText(r *advisor.Result, l Lang) string {
	if l != Chinese {
		return r.Summary()
	}
	count := map[string]int{}
	var order []string
	for _, x := range r.Excluded {
		if count[x.ReasonCode] == 0 {
			order = append(order, x.ReasonCode)
		}
		count[x.ReasonCode]++
	}
	parts := make([]string, 0, len(order))
	for _, c := range order {
		parts = append(parts, fmt.Sprintf("%d 个%s", count[c], reasonText(l, c)))
	}
	return fmt.Sprintf("共评估 %d 个候选，排除 %d 个：%s", r.Evaluated, len(r.Excluded), strings.Join(parts, "，"))
}

// mdEscape makes user text (a workload's name, a catalog's strings) plain
// text in Markdown: HTML is written as entities and the characters that
// start emphasis, links, code or table cells are backslash-escaped, so a
// name cannot inject markup into a PR comment.
func mdEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '@': // no mention of a person or team in a PR comment
			b.WriteString("&#64;")
		case ':': // no autolink (https://...) of a link the user did not mean
			if strings.HasPrefix(s[i:], "://") {
				b.WriteString("&#58;")
			} else {
				b.WriteRune(r)
			}
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '|', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// WriteRecommendMarkdown prints the table as GitHub Markdown.
func WriteRecommendMarkdown(w io.Writer, name string, r *advisor.Result, top int, l Lang) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", msg(l, "title", mdEscape(name), msg(l, "objective", objectiveText(l, string(r.Objective)))))
	t := RecommendTable(r, top, l)
	heads := make([]string, len(t.Columns))
	aligns := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		heads[i] = c.Header
		aligns[i] = "---"
		if c.Right {
			aligns[i] = "---:"
		}
	}
	fmt.Fprintf(&b, "| %s |\n|%s|\n", strings.Join(heads, " | "), strings.Join(aligns, "|"))
	for _, row := range t.Rows {
		esc := make([]string, len(row))
		for i, cell := range row {
			esc[i] = mdEscape(cell)
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(esc, " | "))
	}
	fmt.Fprintf(&b, "\n%s %s\n", msg(l, "pareto_note"), msg(l, "range_note"))
	if s := confidenceText(l, r.ConfidenceVsNext); s != "" {
		fmt.Fprintf(&b, "\n%s\n", s)
	}
	if s := FreshnessText(l, r.Freshness(top)); s != "" {
		fmt.Fprintf(&b, "\n%s\n", s)
	}
	fmt.Fprintf(&b, "\n**%s** %s\n", msg(l, "excluded"), summaryText(r, l))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		for _, wn := range shownWarnings(c) {
			fmt.Fprintf(&b, "- #%d %s: %s\n", c.Rank, c.Offer.ID(), WarningText(l, wn))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteRecommendHTML writes one self-contained page (no network assets):
// the ranked table and an SVG chart of cost against time.
func WriteRecommendHTML(w io.Writer, name string, r *advisor.Result, top int, l Lang) error {
	var b strings.Builder
	title := msg(l, "title", name, msg(l, "objective", objectiveText(l, string(r.Objective))))
	lang := "en"
	if l == Chinese {
		lang = "zh"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=%q><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n", lang, html.EscapeString(title))
	b.WriteString(`<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;font-size:14px}th,td{padding:4px 8px;border-bottom:1px solid #ddd}td.r{text-align:right;white-space:nowrap}.scroll{overflow-x:auto;max-width:100%}.conf{border-left:3px solid #c0392b;padding-left:8px}th{background:#f4f4f4;text-align:left}.w{color:#8a5300;font-size:13px}svg{max-width:100%;height:auto}</style></head><body>` + "\n")
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	b.WriteString(ParetoSVG(r, l))
	t := RecommendTable(r, top, l)
	b.WriteString("<div class=\"scroll\"><table>\n<tr>")
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c.Header))
	}
	b.WriteString("</tr>\n")
	for _, row := range t.Rows {
		b.WriteString("<tr>")
		for i, cell := range row {
			cls := ""
			if t.Columns[i].Right {
				cls = ` class="r"`
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", cls, html.EscapeString(cell))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")
	fmt.Fprintf(&b, "<p>%s %s</p>\n", html.EscapeString(msg(l, "pareto_note")), html.EscapeString(msg(l, "range_note")))
	if s := confidenceText(l, r.ConfidenceVsNext); s != "" {
		fmt.Fprintf(&b, "<p class=\"conf\">%s</p>\n", html.EscapeString(s))
	}
	if s := FreshnessText(l, r.Freshness(top)); s != "" {
		fmt.Fprintf(&b, "<p class=\"fresh\">%s</p>\n", html.EscapeString(s))
	}
	b.WriteString("<ul class=\"w\">\n")
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		for _, wn := range shownWarnings(c) {
			fmt.Fprintf(&b, "<li>#%d %s: %s</li>\n", c.Rank, html.EscapeString(c.Offer.ID()), html.EscapeString(WarningText(l, wn)))
		}
	}
	b.WriteString("</ul>\n")
	fmt.Fprintf(&b, "<p><b>%s</b> %s</p>\n", html.EscapeString(msg(l, "excluded")), html.EscapeString(summaryText(r, l)))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "<p class=\"note\">Note: %s</p>\n", html.EscapeString(n))
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ParetoSVG draws every priced candidate as a point of (time, total cost) on
// log axes, the Pareto front joined by a line. Pure SVG, no scripts or fonts.
func ParetoSVG(r *advisor.Result, l Lang) string {
	type pt struct {
		x, y   float64
		pareto bool
		label  string
	}
	svc := isService(r)
	var pts []pt
	for _, c := range r.Candidates {
		if !c.Cost.PriceKnown || c.Cost.Cost.Total <= 0 {
			continue
		}
		x := c.DurationHours
		if svc {
			if c.Pred.TTFTMs == nil || c.Pred.TPOTMs == nil {
				continue
			}
			x = (*c.Pred.TTFTMs + *c.Pred.TPOTMs*100) / 1000
		}
		if x <= 0 {
			continue
		}
		pts = append(pts, pt{x, c.Cost.Cost.Total, c.Pareto, fmt.Sprintf("#%d %s %s", c.Rank, c.Offer.ID(), c.Cost.Mode)})
	}
	const W, H, M, L = 720.0, 420.0, 60.0, 90.0 // L: left margin for the cost labels
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`+"\n", W, H, W, H, html.EscapeString(msg(l, "chart_title")))
	fmt.Fprintf(&b, `<rect width="%.0f" height="%.0f" fill="white"/>`+"\n", W, H)
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14" text-anchor="middle">%s</text>`+"\n", W/2, html.EscapeString(msg(l, "chart_title")))
	if len(pts) == 0 {
		b.WriteString("</svg>\n")
		return b.String()
	}
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p.x), math.Max(maxX, p.x)
		minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
	}
	lx0, lx1 := math.Log10(minX)-0.05, math.Log10(maxX)+0.05
	ly0, ly1 := math.Log10(minY)-0.05, math.Log10(maxY)+0.05
	sx := func(x float64) float64 { return L + (math.Log10(x)-lx0)/(lx1-lx0)*(W-L-M) }
	sy := func(y float64) float64 { return H - M - (math.Log10(y)-ly0)/(ly1-ly0)*(H-2*M) }
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#888"/><line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#888"/>`+"\n", L, H-M, W-M, H-M, L, M, L, H-M)
	xl := msg(l, "chart_x")
	if svc {
		xl = msg(l, "chart_x_svc")
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="12" text-anchor="middle">%s (log)</text>`+"\n", (L+W-M)/2, H-15, html.EscapeString(xl))
	fmt.Fprintf(&b, `<text x="15" y="%.0f" font-size="12" text-anchor="middle" transform="rotate(-90 15 %.0f)">%s (log)</text>`+"\n", H/2, H/2, html.EscapeString(msg(l, "chart_y")))
	for _, v := range []float64{minX, math.Sqrt(minX * maxX), maxX} {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" font-size="10" text-anchor="middle">%.3g</text>`+"\n", sx(v), H-M+14, v)
	}
	for _, v := range []float64{minY, math.Sqrt(minY * maxY), maxY} {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" font-size="10" text-anchor="end">$%s</text>`+"\n", L-4, sy(v)+3, money(v))
	}
	var front []pt
	for _, p := range pts {
		if p.pareto {
			front = append(front, p)
		}
	}
	// Join the front from fastest to slowest.
	for i := 1; i < len(front); i++ {
		for j := i; j > 0 && front[j].x < front[j-1].x; j-- {
			front[j], front[j-1] = front[j-1], front[j]
		}
	}
	if len(front) > 1 {
		b.WriteString(`<polyline fill="none" stroke="#c0392b" stroke-width="1.5" points="`)
		for _, p := range front {
			fmt.Fprintf(&b, "%.1f,%.1f ", sx(p.x), sy(p.y))
		}
		b.WriteString(`"/>` + "\n")
	}
	for _, p := range pts {
		color, rad := "#7f8c8d", 3.0
		if p.pareto {
			color, rad = "#c0392b", 5
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%.0f" fill="%s"><title>%s</title></circle>`+"\n", sx(p.x), sy(p.y), rad, color, html.EscapeString(p.label))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
