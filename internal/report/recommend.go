package report

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	message "github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
)

// CandidateJSON is one element of `recommend -o json`'s "candidates".
type CandidateJSON struct {
	Rank         int    `json:"rank"`
	Offer        string `json:"offer"`
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	// Operator is who runs the machines: provider, partner, marketplace or
	// community ("" = not classified).
	Operator            string         `json:"operator"`
	Region              string         `json:"region"`
	Country             string         `json:"country"`
	GPU                 string         `json:"gpu"`
	GPUs                int            `json:"gpus"`
	Nodes               int            `json:"nodes"`
	Pricing             string         `json:"pricing"`
	DurationHours       *float64       `json:"duration_hours"`
	DurationHoursP10    *float64       `json:"duration_hours_p10,omitempty"`
	DurationHoursP90    *float64       `json:"duration_hours_p90,omitempty"`
	Cost                *CostJSON      `json:"cost_usd"`
	UnitCost            *perf.Quantity `json:"unit_cost"`
	TokensPerDollar     *float64       `json:"tokens_per_dollar"`
	Utilization         float64        `json:"utilization"`
	Bottleneck          string         `json:"bottleneck"`
	Pareto              bool           `json:"pareto"`
	Warnings            []WarningJSON  `json:"warnings"`
	PricePerHourUSD     *float64       `json:"price_per_hour_usd"`
	ListPricePerHourUSD *float64       `json:"list_price_per_hour_usd"`
	PriceRule           string         `json:"your_price_rule,omitempty"`
	PriceAsOf           string         `json:"price_as_of"`
	Throughput          perf.Quantity  `json:"throughput"`
	ReplicasNeeded      int            `json:"replicas_needed,omitempty"`
	PerHourUSD          *float64       `json:"per_hour_usd,omitempty"`
	PerMonthUSD         *float64       `json:"per_month_usd,omitempty"`
	TTFTMs              *float64       `json:"ttft_ms,omitempty"`
	TPOTMs              *float64       `json:"tpot_ms,omitempty"`
	LatencyS            *float64       `json:"latency_s,omitempty"`
	Spot                *cost.Spot     `json:"spot,omitempty"`
	Reserved            *cost.Reserved `json:"reserved,omitempty"`
	// Porting is the engineering the stack needs on this offer, priced in
	// cost_usd.porting; its delay is in duration_hours for a job.
	Porting     *cost.Porting    `json:"porting,omitempty"`
	Parallelism perf.Parallelism `json:"parallelism"`
	// FoldedInto is the rank of the best-ranked candidate of the same
	// instance type, size and pricing mode in another region, which a
	// ranking shows in this one's place (0: this one is shown);
	// OtherRegions counts the candidates folded into this one.
	FoldedInto   int `json:"folded_into,omitempty"`
	OtherRegions int `json:"other_regions,omitempty"`
	// Plan is the fleet this candidate prices; parallelism (above) is the
	// layout of one instance as predicted.
	Plan PlanJSON `json:"plan"`
	// PMissDeadline is the chance of missing constraints.deadline_hours
	// (the speed's 80% range read as a log-normal, and spot
	// interruptions); absent without a deadline or when it rounds to 0.
	PMissDeadline *float64 `json:"p_miss_deadline,omitempty"`
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
	InstancesPerReplica    int      `json:"instances_per_replica,omitempty"`
	GPUsPerReplica         int      `json:"gpus_per_replica"`
	Data                   int      `json:"data"`
	Tensor                 int      `json:"tensor"`
	Pipeline               int      `json:"pipeline"`
	Expert                 int      `json:"expert,omitempty"`
	PrefillGPUs            int      `json:"prefill_gpus,omitempty"`
	Batch                  int      `json:"batch,omitempty"`
	RequestsPerSPerReplica *float64 `json:"requests_per_s_per_replica,omitempty"`
	Pricing                string   `json:"pricing"`
	PerHourUSD             *float64 `json:"per_hour_usd,omitempty"`
	Sentence               string   `json:"sentence"`
	// Slice is set when each replica runs on part of a GPU: a MIG
	// profile or a fractional offer.
	Slice *SliceJSON `json:"slice,omitempty"`
	// Scaling is a service's day: its base and burst, what it survives,
	// how each part is paid for and, for the pick, the simulated day.
	Scaling *advisor.Scaling `json:"scaling,omitempty"`
}

// spanSentence says how a replica that spans instances is laid out and
// what joins them: pipeline stages or experts over the fabric, or tensor
// parallel over one NVLink domain.
func spanSentence(p advisor.Plan, l Lang) string {
	switch {
	case p.Pipeline > 1:
		return am(l, "plan_span_pp", p.InstancesPerReplica, p.Tensor, p.Pipeline, fabricText(l, p.Link))
	case p.Expert > 1 && p.Link == "":
		return am(l, "plan_span_ep_nvl", p.InstancesPerReplica, p.Expert)
	case p.Expert > 1:
		return am(l, "plan_span_ep", p.InstancesPerReplica, p.Expert, fabricText(l, p.Link))
	}
	return am(l, "plan_span_nvl", p.InstancesPerReplica, p.Tensor)
}

// fabricText names a fabric kind in l.
func fabricText(l Lang, kind string) string {
	if l == Chinese && (kind == "ethernet" || kind == "") {
		return "以太网"
	}
	return perf.FabricName(kind)
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
		Replicas: p.Replicas, ReplicasPerInstance: p.ReplicasPerInstance, InstancesPerReplica: p.InstancesPerReplica, GPUsPerReplica: p.GPUsPerReplica,
		Data: p.Data, Tensor: p.Tensor, Pipeline: p.Pipeline, Expert: p.Expert, PrefillGPUs: p.PrefillGPUs, Batch: p.Batch,
		Pricing: p.Pricing.String(), Sentence: PlanSentence(p, English), Slice: sliceView(p.Slice), Scaling: p.Scaling}
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
// requests/s each; on-demand". A plan on slices says them: "7 replica(s)
// on MIG 1g.10gb slice(s) of h100-sxm (7 to a GPU, 1 instance(s) of 8
// GPU(s))", "1 instance(s), 1/3 of one a10 per instance".
func PlanSentence(p advisor.Plan, l Lang) string {
	zh := l == Chinese
	mode := "; " + p.Pricing.String()
	if zh {
		mode = "；" + modeZh[p.Pricing.String()]
	}
	if s := p.Slice; s != nil && (s.Kind == advisor.SliceMIG || s.Kind == advisor.SliceTimeSliced) {
		out := sm(l, "plan_mig", p.Replicas, s.Profile, sliceGPU(s, ""), s.PerGPU, p.Instances, p.GPUsPerInstance)
		if s.Kind == advisor.SliceTimeSliced {
			out = sm(l, "plan_timesliced", p.Replicas, s.Profile, sliceGPU(s, ""), s.PerGPU, p.Instances, p.GPUsPerInstance)
		}
		if p.RequestsPerSPerReplica > 0 {
			out += sm(l, "plan_mig_rps", p.RequestsPerSPerReplica)
		}
		if s.Shared && s.ReplicaPerHourUSD > 0 {
			out += sm(l, "plan_shared", s.ReplicaPerHourUSD)
		}
		return out + mode
	}
	inst := fmt.Sprintf("%d instance(s) of %d GPU(s) (%d GPUs)", p.Instances, p.GPUsPerInstance, p.GPUs)
	if zh {
		inst = fmt.Sprintf("%d 台实例，每台 %d 块 GPU（共 %d 块）", p.Instances, p.GPUsPerInstance, p.GPUs)
	}
	if p.GPUFraction > 0 {
		inst = fmt.Sprintf("%d instance(s) of %s of a GPU", p.Instances, catalog.FractionString(p.GPUFraction))
		if zh {
			inst = fmt.Sprintf("%d 台实例，每台 %s 块 GPU", p.Instances, catalog.FractionString(p.GPUFraction))
		}
		if s := p.Slice; s != nil && s.Kind == advisor.SliceFraction && s.GPU != "" {
			inst = sm(l, "plan_fraction", p.Instances, s.Profile, s.GPU)
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
	case p.InstancesPerReplica > 1:
		s = am(l, "plan_span_replicas", inst, p.Replicas) + spanSentence(p, l)
		if p.RequestsPerSPerReplica > 0 {
			s += am(l, "plan_span_rps", p.RequestsPerSPerReplica)
		}
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
	if p.PrefillGPUs > 0 {
		s += am(l, "plan_prefill_pool", p.PrefillGPUs)
	}
	return s + mode
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
	Sentence message.Msg `json:"sentence"`
}

// WarningJSON is a warning with its code and its English text.
type WarningJSON struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// ExcludedJSON is one element of "excluded".
type ExcludedJSON struct {
	Offer      string      `json:"offer"`
	Region     string      `json:"region"`
	GPUs       int         `json:"gpus"`
	Pricing    string      `json:"pricing,omitempty"`
	ReasonCode string      `json:"reason_code"`
	Reason     message.Msg `json:"reason"`
}

// ExclusionGroupJSON is the exclusions of one reason.
type ExclusionGroupJSON struct {
	ReasonCode string         `json:"reason_code"`
	Count      int            `json:"count"`
	Examples   []ExcludedJSON `json:"examples"`
}

// exampleExclusions is how many exclusions of each reason a group shows,
// and a slim answer keeps.
const exampleExclusions = 3

// GroupExclusions fills ExcludedByReason from Excluded (call it again after
// translating the reasons).
func (d *RecommendJSON) GroupExclusions() {
	idx := map[string]int{}
	groups := []ExclusionGroupJSON{}
	for _, x := range d.Excluded {
		i, ok := idx[x.ReasonCode]
		if !ok {
			i = len(groups)
			idx[x.ReasonCode] = i
			groups = append(groups, ExclusionGroupJSON{ReasonCode: x.ReasonCode, Examples: []ExcludedJSON{}})
		}
		g := &groups[i]
		g.Count++
		if len(g.Examples) < exampleExclusions {
			g.Examples = append(g.Examples, x)
		}
	}
	slices.SortStableFunc(groups, func(a, b ExclusionGroupJSON) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.ReasonCode, b.ReasonCode)
	})
	d.ExcludedByReason = groups
}

// SlimExclusions keeps in Excluded only each reason's examples (the groups
// keep the counts): an answer of a few kilobytes instead of a list of every
// offer that could not run the job.
func (d *RecommendJSON) SlimExclusions() {
	if d.ExcludedByReason == nil {
		d.GroupExclusions()
	}
	kept := []ExcludedJSON{}
	for _, g := range d.ExcludedByReason {
		kept = append(kept, g.Examples...)
	}
	d.ExcludedOmitted = len(d.Excluded) - len(kept)
	d.Excluded = kept
}

// RecommendJSON is the document `gpupick recommend -o json` prints.
type RecommendJSON struct {
	Workload   string          `json:"workload"`
	Kind       string          `json:"kind"`
	Objective  string          `json:"objective"`
	Evaluated  int             `json:"evaluated"`
	Summary    message.Msg     `json:"summary"`
	Candidates []CandidateJSON `json:"candidates"`
	Excluded   []ExcludedJSON  `json:"excluded"`
	// ExcludedByReason groups the exclusions by reason code, the largest
	// group first, each with its count and its first examples.
	ExcludedByReason []ExclusionGroupJSON `json:"excluded_by_reason"`
	// ExcludedOmitted is how many exclusions a slim answer (the API's,
	// unless ?exclusions=all) leaves out of excluded: the groups count them.
	ExcludedOmitted int           `json:"excluded_omitted,omitempty"`
	Notes           []message.Msg `json:"notes"`
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
	// Changes is what changed since a saved run (--compare-to); absent
	// otherwise.
	Changes *ChangesJSON `json:"changes,omitempty"`
	// PlanService is, for a service, #1's plan as a service file (the
	// file simulate -f WORKLOAD.yaml --save-plan writes, its workload
	// named "workload.yaml"): the API fills it, so that a client can
	// replay the plan with POST /api/v1/simulations and the workload.
	PlanService string `json:"plan_service,omitempty"`
}

func r2(v float64) float64 { return math.Round(v*100) / 100 }

func fp(v float64) *float64 { return &v }

// CandidateView converts one candidate.
func CandidateView(c *advisor.Candidate) CandidateJSON {
	o := c.Offer
	j := CandidateJSON{
		Rank: c.Rank, Offer: o.ID(), Provider: o.Provider, InstanceType: o.InstanceType, Operator: string(o.Operator.Kind), Region: o.Region,
		Country: o.Country, GPU: o.GPU, GPUs: c.GPUs, Nodes: c.Instances, Pricing: c.Cost.Mode.String(),
		Utilization: c.Pred.Utilization, Bottleneck: c.Pred.Bottleneck, Pareto: c.Pareto,
		PriceAsOf: o.PriceFact(c.Cost.Mode).AsOf.Format("2006-01-02"), Throughput: c.Pred.Throughput, ReplicasNeeded: serviceReplicas(c),
		TTFTMs: c.Pred.TTFTMs, TPOTMs: c.Pred.TPOTMs, Spot: c.Cost.Spot, Reserved: c.Cost.Reserved, Porting: c.Cost.Porting,
		Parallelism: c.Pred.Parallelism, PriceRule: c.Cost.PriceRule, Warnings: []WarningJSON{},
		Plan: PlanView(c.Plan), LatencyS: c.Pred.LatencyS,
	}
	if c.DurationHours > 0 {
		j.DurationHours = fp(r2(c.DurationHours))
		if c.DurationHoursP10 > 0 {
			j.DurationHoursP10, j.DurationHoursP90 = fp(r2(c.DurationHoursP10)), fp(r2(c.DurationHoursP90))
		}
		if p := math.Round(c.PMissDeadline*1000) / 1000; p > 0 {
			j.PMissDeadline = fp(p)
		}
	}
	if c.Cost.PriceKnown {
		b := c.Cost.Cost
		j.Cost = &CostJSON{Breakdown: cost.Breakdown{Compute: r2(b.Compute), Storage: r2(b.Storage), Egress: r2(b.Egress), Setup: r2(b.Setup), SpotOverhead: r2(b.SpotOverhead), Porting: r2(b.Porting), Total: r2(b.Total)}}
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

// RecommendationIn is Recommendation with its sentences (the answer and
// the summary of exclusions) in l; codes, numbers and the other fields do
// not change with the language.
func RecommendationIn(name, kind string, r *advisor.Result, top int, l Lang) RecommendJSON {
	d := RecommendJSON{Workload: name, Kind: kind, Objective: string(r.Objective), Evaluated: r.Evaluated,
		Summary: message.Text(summaryText(r, l)), Candidates: []CandidateJSON{}, Excluded: []ExcludedJSON{}, Notes: r.Notes}
	if d.Notes == nil {
		d.Notes = []message.Msg{}
	}
	into, others := regionFolds(r.Candidates)
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		v := CandidateView(c)
		if j := into[i]; j != i {
			v.FoldedInto = r.Candidates[j].Rank
		}
		v.OtherRegions = others[i]
		d.Candidates = append(d.Candidates, v)
	}
	d.Excluded = make([]ExcludedJSON, len(r.Excluded))
	for i, x := range r.Excluded {
		d.Excluded[i] = ExcludedJSON{Offer: x.Offer, Region: x.Region, GPUs: x.GPUs, Pricing: x.Pricing, ReasonCode: x.ReasonCode, Reason: x.Reason}
	}
	d.GroupExclusions()
	if c := r.ConfidenceVsNext; c != nil {
		d.ConfidenceVsNext = &ConfidenceJSON{Confidence: *c, Sentence: c.Sentence()}
	}
	d.PriceFreshness = PriceFreshnessView(r.Freshness(top))
	d.Answer = BuildAnswer(r, l)
	return d
}

// confidenceText is the sentence on #1 against #2, in l.
func confidenceText(l Lang, c *advisor.Confidence) string {
	if c == nil {
		return ""
	}
	if l != Chinese {
		return c.Sentence().String()
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

func summaryText(r *advisor.Result, l Lang) string {
	if l != Chinese {
		return r.Summary().String()
	}
	count := map[string]int{}
	var order []string
	for _, x := range r.Excluded {
		if count[x.ReasonCode] == 0 {
			order = append(order, x.ReasonCode)
		}
		count[x.ReasonCode]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
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

// ReportOptions are the choices of a recommendation report.
type ReportOptions struct {
	// Top is the rows shown (0 = all).
	Top  int
	Lang Lang
	// AllRegions shows a row per region; by default an instance type,
	// size and pricing mode offered in several regions is one row, in its
	// best-ranked region, saying in how many others it is offered.
	AllRegions bool
	// Changes, when set, is what changed since a saved run (--compare-to).
	Changes *ChangesJSON
}

// RecommendTable is the ranked table for people: the first top rows (0 =
// all), each instance type, size and pricing mode in its best region.
func RecommendTable(r *advisor.Result, top int, l Lang) *Table {
	return recommendTable(r, shownRows(r, top, false), l, false)
}

// moneyDecimals is 0 or 2 decimals for a column of dollars: whole dollars
// when the smallest is 10 or more, unless ranks would print alike.
func moneyDecimals(vals []float64) int {
	d := columnDecimals(vals, 2, 2)
	if d == 1 {
		d = 2
	}
	return d
}

// recommendTable lays out rows; wordy says "also in N regions" in the
// region cell (a report with room) instead of "(+N)" and a note.
func recommendTable(r *advisor.Result, rows []shownRow, l Lang, wordy bool) *Table {
	svc := isService(r)
	img := svc && imageResult(r)
	cols := []Column{{msg(l, "rank"), "rank", true}, {msg(l, "offer"), "offer", false}, {msg(l, "region"), "region", false},
		{"CC", "country", false}}
	if svc {
		cols = append(cols, Column{msg(l, "replicas"), "replicas", true}, Column{am(l, "fleet_col"), "instances", false})
	} else {
		cols = append(cols, Column{msg(l, "gpus"), "gpus", false})
	}
	cols = append(cols, Column{msg(l, "pricing"), "pricing", false})
	switch {
	case img:
		unitCol := imm(l, "col_unit")
		if u := unitLabel(r); u == "USD per thousand videos" {
			unitCol = imm(l, "col_unit_vid")
		}
		cols = append(cols, Column{msg(l, "perhour"), "usd_per_hour", true}, Column{msg(l, "permonth"), "usd_per_month", true},
			Column{unitCol, "usd_per_thousand_images", true}, Column{imm(l, "col_latency"), "latency_s", true})
	case svc:
		cols = append(cols, Column{msg(l, "perhour"), "usd_per_hour", true}, Column{msg(l, "permonth"), "usd_per_month", true},
			Column{msg(l, "permtok"), "usd_per_million_output_tokens", true}, Column{msg(l, "latency"), "ttft_tpot_ms", true})
	default:
		cols = append(cols, Column{msg(l, "hours"), "duration_hours", true}, Column{msg(l, "total"), "total_usd", true},
			Column{msg(l, "unit"), "unit_cost", true})
	}
	// A utilisation every row shares says nothing: a note says it once.
	utilSame := len(rows) > 1
	for _, row := range rows[min(1, len(rows)):] {
		if math.Round(row.c.Pred.Utilization*100) != math.Round(rows[0].c.Pred.Utilization*100) {
			utilSame = false
		}
	}
	if !utilSame {
		cols = append(cols, Column{msg(l, "util"), "utilization", true})
	}
	cols = append(cols, Column{msg(l, "bottleneck"), "bottleneck", false}, Column{msg(l, "pareto"), "pareto", false})
	t := &Table{Columns: cols}
	if utilSame && len(rows) > 0 {
		t.Notes = append(t.Notes, am(l, "util_same", fmt.Sprintf("%.0f%%", rows[0].c.Pred.Utilization*100)))
	}
	// One number of decimals per column, enough to tell ranks apart.
	var hours, totals, units, perHour, perMonth, ttft, tpot, lats []float64
	for _, row := range rows {
		c := row.c
		hours = append(hours, c.DurationHours)
		if c.Cost.PriceKnown {
			totals = append(totals, c.Cost.Cost.Total)
			perHour = append(perHour, c.PerHourUSD)
			perMonth = append(perMonth, c.PerMonthUSD)
			units = append(units, c.UnitCost)
		}
		if c.Pred.TTFTMs != nil && c.Pred.TPOTMs != nil {
			ttft, tpot = append(ttft, *c.Pred.TTFTMs), append(tpot, *c.Pred.TPOTMs)
		}
		if c.Pred.LatencyS != nil {
			lats = append(lats, *c.Pred.LatencyS)
		}
	}
	// The columns a ranking is by (cost, unit cost) tell adjacent ranks
	// apart; time and latency do not need to.
	dHours, dTotal, dUnit := plainDecimals(hours, 2, 2), moneyDecimals(totals), columnDecimals(units, 3, 6)
	dHour, dMonth := moneyDecimals(perHour), moneyDecimals(perMonth)
	dTTFT, dTPOT := plainDecimals(ttft, 2, 1), plainDecimals(tpot, 2, 1)
	dLat := plainDecimals(lats, 2, 2)
	unknown := msg(l, "unknown")
	folded := false
	for _, row := range rows {
		c := row.c
		region := c.Offer.Region
		if row.others > 0 {
			switch {
			case wordy && row.others == 1:
				region += am(l, "comma") + am(l, "also_in_1")
			case wordy:
				region += am(l, "comma") + am(l, "also_in", row.others)
			default:
				region += fmt.Sprintf(" (+%d)", row.others)
			}
			folded = true
		}
		cells := []string{strconv.Itoa(c.Rank), c.Offer.ID(), region, c.Offer.Country}
		if svc {
			cells = append(cells, strconv.Itoa(c.Plan.Replicas), fleetCell(l, c.Plan, c.Offer.GPU))
		} else {
			cells = append(cells, gpusCell(l, c.Plan, c.GPUs, c.Offer.GPU))
		}
		cells = append(cells, modeName(l, c.Cost.Mode.String()))
		uc := "-"
		if c.UnitCost > 0 {
			uc = fixed(c.UnitCost, dUnit)
		}
		if svc {
			lat := ""
			if c.Pred.TTFTMs != nil && c.Pred.TPOTMs != nil {
				lat = fixed(*c.Pred.TTFTMs, dTTFT) + "/" + fixed(*c.Pred.TPOTMs, dTPOT)
			}
			if img && c.Pred.LatencyS != nil {
				lat = fixed(*c.Pred.LatencyS, dLat)
			}
			if c.Cost.PriceKnown {
				cells = append(cells, fixed(c.PerHourUSD, dHour), rangeCell(c.PerMonthUSD, c.CostP10, c.CostP90, dMonth), uc, lat)
			} else {
				cells = append(cells, unknown, unknown, unknown, lat)
			}
		} else {
			h := rangeCell(c.DurationHours, c.DurationHoursP10, c.DurationHoursP90, dHours)
			if c.Cost.PriceKnown {
				cells = append(cells, h, rangeCell(c.Cost.Cost.Total, c.CostP10, c.CostP90, dTotal), uc)
			} else {
				cells = append(cells, h, unknown, unknown)
			}
		}
		if !utilSame {
			cells = append(cells, fmt.Sprintf("%.0f%%", c.Pred.Utilization*100))
		}
		p := ""
		if c.Pareto {
			p = "*"
		}
		cells = append(cells, bottleneckText(l, c.Pred.Bottleneck), p)
		t.Add(cells...)
	}
	if folded {
		t.Notes = append(t.Notes, am(l, "regions_note"))
		if wordy {
			t.Notes[len(t.Notes)-1] = am(l, "regions_note_wordy")
		}
	}
	return t
}

// RecommendCSV is the ranking for a spreadsheet: every row of the first
// top candidates (0 = all), one per region, with plain values (numbers
// without units or ranges, true/false, empty when unknown). The last
// column, slice, is the plan's MIG profile or GPU fraction, empty for
// whole GPUs.
func RecommendCSV(r *advisor.Result, top int) *Table {
	svc := isService(r)
	t := &Table{Columns: []Column{{"", "rank", true}, {"", "offer", false}, {"", "region", false}, {"", "country", false},
		{"", "gpu", false}, {"", "gpus", true}, {"", "instances", true}, {"", "replicas", true}, {"", "pricing", false}}}
	img := svc && imageResult(r)
	switch {
	case img:
		t.Columns = append(t.Columns, Column{"", "usd_per_hour", true}, Column{"", "usd_per_month", true},
			Column{"", "usd_per_month_p10", true}, Column{"", "usd_per_month_p90", true}, Column{"", "latency_s", true})
	case svc:
		t.Columns = append(t.Columns, Column{"", "usd_per_hour", true}, Column{"", "usd_per_month", true},
			Column{"", "usd_per_month_p10", true}, Column{"", "usd_per_month_p90", true}, Column{"", "ttft_ms", true}, Column{"", "tpot_ms", true})
	default:
		t.Columns = append(t.Columns, Column{"", "duration_hours", true}, Column{"", "duration_hours_p10", true}, Column{"", "duration_hours_p90", true},
			Column{"", "total_usd", true}, Column{"", "total_usd_p10", true}, Column{"", "total_usd_p90", true})
	}
	t.Columns = append(t.Columns, Column{"", "unit_cost", true}, Column{"", "unit_cost_unit", false}, Column{"", "utilization", true},
		Column{"", "bottleneck", false}, Column{"", "pareto", false}, Column{"", "slice", false})
	num := func(v float64, known bool) string {
		if !known || math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(roundSig6(v), 'f', -1, 64)
	}
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		priced := c.Cost.PriceKnown
		cells := []string{strconv.Itoa(c.Rank), c.Offer.ID(), c.Offer.Region, c.Offer.Country, c.Offer.GPU, strconv.Itoa(c.GPUs),
			strconv.Itoa(c.Plan.Instances), strconv.Itoa(c.Plan.Replicas), c.Cost.Mode.String()}
		switch {
		case img:
			cells = append(cells, num(c.PerHourUSD, priced), num(c.PerMonthUSD, priced), num(c.CostP10, priced && c.CostP10 > 0),
				num(c.CostP90, priced && c.CostP90 > 0), ptrNum(c.Pred.LatencyS))
		case svc:
			cells = append(cells, num(c.PerHourUSD, priced), num(c.PerMonthUSD, priced), num(c.CostP10, priced && c.CostP10 > 0),
				num(c.CostP90, priced && c.CostP90 > 0), ptrNum(c.Pred.TTFTMs), ptrNum(c.Pred.TPOTMs))
		default:
			cells = append(cells, num(c.DurationHours, true), num(c.DurationHoursP10, c.DurationHoursP10 > 0), num(c.DurationHoursP90, c.DurationHoursP90 > 0),
				num(c.Cost.Cost.Total, priced), num(c.CostP10, priced && c.CostP10 > 0), num(c.CostP90, priced && c.CostP90 > 0))
		}
		slice := "" // a whole GPU
		if sl := c.Plan.Slice; sl != nil {
			slice = sl.Profile // the MIG profile ("1g.10gb") or the fraction ("1/3")
		}
		cells = append(cells, num(c.UnitCost, c.UnitCost > 0), c.UnitCostUnit, num(c.Pred.Utilization, true), c.Pred.Bottleneck, strconv.FormatBool(c.Pareto), slice)
		t.Add(cells...)
	}
	return t
}

func ptrNum(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(roundSig6(*v), 'f', -1, 64)
}

// roundSig6 keeps six significant digits: what a spreadsheet needs, without
// float noise.
func roundSig6(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 5-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
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

// tableNotes are the lines under the ranking: what the columns mean.
func tableNotes(r *advisor.Result, t *Table, l Lang) []string {
	notes := append([]string(nil), t.Notes...)
	if u := unitLabel(r); u != "" {
		notes = append(notes, msg(l, "unit_line", unitText(l, u)))
	}
	if isService(r) {
		notes = append(notes, msg(l, "service_note"))
	}
	notes = append(notes, msg(l, "pareto_note"), msg(l, "range_note"))
	for _, c := range r.Candidates {
		if c.Cost.PriceRule != "" {
			notes = append(notes, msg(l, "your_prices"))
			break
		}
	}
	return notes
}

// exclusionGroups counts the exclusions by reason, most first, each with
// one example.
func exclusionGroups(r *advisor.Result, l Lang) []string {
	count := map[string]int{}
	example := map[string]advisor.Excluded{}
	var codes []string
	for _, x := range r.Excluded {
		if count[x.ReasonCode] == 0 {
			codes = append(codes, x.ReasonCode)
			example[x.ReasonCode] = x
		}
		count[x.ReasonCode]++
	}
	slices.SortStableFunc(codes, func(a, b string) int { return count[b] - count[a] })
	out := make([]string, len(codes))
	for i, c := range codes {
		x := example[c]
		out[i] = am(l, "excl_group", thousands(count[c]), reasonText(l, c), x.Offer, x.Region, Render(l, x.Reason))
	}
	return out
}

// excludedLine is "Excluded: 212 candidates evaluated, ...".
func excludedLine(r *advisor.Result, l Lang) string {
	if l == Chinese {
		return msg(l, "excluded") + summaryText(r, l)
	}
	return msg(l, "excluded") + " " + summaryText(r, l)
}

// WriteRecommendText prints the ranked table, the warnings of the shown
// candidates, and the summary of exclusions.
func WriteRecommendText(w io.Writer, name string, r *advisor.Result, top int, l Lang) error {
	return WriteRecommendTextOpts(w, name, r, ReportOptions{Top: top, Lang: l})
}

// WriteRecommendTextOpts prints, for a terminal, the answer, what changed
// since a saved run, the ranking with its notes, the warnings of the rows
// shown (each sentence once, with the rows that have it) and the
// exclusions.
func WriteRecommendTextOpts(w io.Writer, name string, r *advisor.Result, o ReportOptions) error {
	l := o.Lang
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", msg(l, "title", name, msg(l, "objective", objectiveText(l, string(r.Objective)))))
	writeAnswerText(&b, BuildAnswer(r, l), l)
	if ch := o.Changes; ch != nil {
		fmt.Fprintf(&b, "\n%s\n", heading(l, am(l, "compare_head", ch.Since)))
		for _, s := range ch.Sentences {
			fmt.Fprintf(&b, "  - %s\n", s)
		}
	}
	if len(r.Candidates) > 0 {
		rows := shownRows(r, o.Top, o.AllRegions)
		t := recommendTable(r, rows, l, false)
		notes := tableNotes(r, t, l)
		t.Notes = nil
		b.WriteByte('\n')
		if err := t.WriteText(&b); err != nil {
			return err
		}
		for _, n := range notes {
			fmt.Fprintln(&b, n)
		}
		if s := FreshnessText(l, rowsFreshness(r, rows)); s != "" {
			fmt.Fprintln(&b, s)
		}
		if groups := groupWarnings(rows, l); len(groups) > 0 {
			fmt.Fprintf(&b, "\n%s\n", msg(l, "warnings"))
			for _, g := range groups {
				fmt.Fprintf(&b, "  - %s\n", am(l, "warn_rows", g.text, ranksText(g.ranks)))
			}
		}
	}
	fmt.Fprintf(&b, "\n%s\n", excludedLine(r, l))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "%s\n", label(l, am(l, "note"), Render(l, n)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// htmlText escapes s for HTML where Markdown is not processed (a
// <summary>), with no mention of a person.
func htmlText(s string) string {
	return strings.ReplaceAll(html.EscapeString(s), "@", "&#64;")
}

// WriteRecommendMarkdown prints the report as GitHub Markdown.
func WriteRecommendMarkdown(w io.Writer, name string, r *advisor.Result, top int, l Lang) error {
	return WriteRecommendMarkdownOpts(w, name, r, ReportOptions{Top: top, Lang: l})
}

// WriteRecommendMarkdownOpts prints the report as a pull-request comment:
// the answer in a few lines, what changed since a saved run, then the
// ranking, the warnings and the exclusions folded in <details> blocks.
func WriteRecommendMarkdownOpts(w io.Writer, name string, r *advisor.Result, o ReportOptions) error {
	l := o.Lang
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", msg(l, "title", mdEscape(name), msg(l, "objective", objectiveText(l, string(r.Objective)))))
	writeAnswerMarkdown(&b, BuildAnswer(r, l), l)
	if ch := o.Changes; ch != nil {
		fmt.Fprintf(&b, "\n**%s**\n", mdEscape(am(l, "compare_head", ch.Since)))
		for _, s := range ch.Sentences {
			fmt.Fprintf(&b, "- %s\n", mdEscape(s))
		}
	}
	if len(r.Candidates) > 0 {
		rows := shownRows(r, o.Top, o.AllRegions)
		t := recommendTable(r, rows, l, true)
		notes := tableNotes(r, t, l)
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", htmlText(am(l, "ranking_sum", len(rows), thousands(len(r.Candidates)))))
		heads := make([]string, len(t.Columns))
		aligns := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			heads[i] = mdEscape(c.Header)
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
		b.WriteByte('\n')
		for _, n := range notes {
			fmt.Fprintf(&b, "%s<br>\n", mdEscape(n))
		}
		if s := FreshnessText(l, rowsFreshness(r, rows)); s != "" {
			fmt.Fprintf(&b, "%s\n", mdEscape(s))
		}
		b.WriteString("\n</details>\n")
		if groups := groupWarnings(rows, l); len(groups) > 0 {
			fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", htmlText(am(l, "warnings_sum", len(groups))))
			for _, g := range groups {
				fmt.Fprintf(&b, "- %s\n", mdEscape(am(l, "warn_rows", g.text, ranksText(g.ranks))))
			}
			b.WriteString("\n</details>\n")
		}
	}
	fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", htmlText(excludedLine(r, l)))
	for _, g := range exclusionGroups(r, l) {
		fmt.Fprintf(&b, "- %s\n", mdEscape(g))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "- %s\n", mdEscape(label(l, am(l, "note"), Render(l, n))))
	}
	b.WriteString("\n</details>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// reportCSS lays the HTML report out for a desktop and, under 640 px, for
// a phone: the answer first, the ranking with its key columns only (the
// others fold into a line under each offer), nothing wider than the
// screen.
const reportCSS = `*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;margin:0 auto;max-width:1320px;padding:1em 1.5em;color:#1f2328;line-height:1.45}
h1{font-size:1.45em;margin:.3em 0 .6em}h2{font-size:1.1em;margin:1.1em 0 .35em}
.answer{border:1px solid #d0d7de;border-left:5px solid #1a7f37;border-radius:6px;padding:.7em 1em;background:#f6fef8}
.answer.none{border-left-color:#cf222e;background:#fff8f7}
.answer h2{font-size:1em}
.headline{font-size:1.15em;font-weight:600;margin:.2em 0}
.objective,.why{color:#57606a;margin:.25em 0}
ul{padding-left:1.3em;margin:.3em 0}li{margin:.15em 0}
ul.diligence{list-style:"\2610  "}ul.diligence li{overflow-wrap:anywhere}
.lvl{display:inline-block;min-width:4.6em;font-size:.78em;font-weight:700;text-transform:uppercase}
.risk-high .lvl{color:#cf222e}.risk-medium .lvl{color:#9a6700}.risk-low .lvl{color:#57606a}:lang(zh) .lvl{min-width:2em}
.changes{border-left:4px solid #0969da;padding:.2em .8em;margin:1em 0}
figure{margin:1em 0}figure svg{width:100%;max-width:780px;height:auto;display:block}figure .svgtitle{display:none}
.facts{margin-top:.6em}td{white-space:nowrap}td.offer{white-space:normal;max-width:17em;overflow-wrap:anywhere}td.wrap{white-space:normal;min-width:8em}th{vertical-align:bottom}th{font-size:12px}small{color:#57606a}
figcaption{color:#57606a;font-size:.9em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:14px;width:100%}
th,td{padding:4px 8px;border-bottom:1px solid #d8dee4;vertical-align:top;text-align:left}
th{background:#f6f8fa}
.r{text-align:right;white-space:nowrap}
.more{display:none;color:#57606a;font-size:12px}
.notes{color:#57606a;font-size:13px}
details{margin:.7em 0}summary{cursor:pointer;font-weight:600}
.w{color:#7d4e00;font-size:13px}
@media (max-width:640px){body{padding:.6em .75em}h1{font-size:1.2em}.answer{padding:.6em .7em}.opt{display:none}.more{display:block}td.offer{word-break:break-all}td,th,.r{white-space:normal}table{font-size:13px}th,td{padding:4px 5px}figure svg text{font-size:20px}}`

// keyColumns are the columns a phone keeps; the others fold into the line
// under each offer.
var keyColumns = map[string]bool{"rank": true, "offer": true, "duration_hours": true, "total_usd": true, "usd_per_month": true, "ttft_tpot_ms": true}

// WriteRecommendHTML writes one self-contained page (no network assets).
func WriteRecommendHTML(w io.Writer, name string, r *advisor.Result, top int, l Lang) error {
	return WriteRecommendHTMLOpts(w, name, r, ReportOptions{Top: top, Lang: l})
}

// WriteRecommendHTMLOpts writes one self-contained page (no network
// assets, no scripts): the answer, what changed since a saved run, the
// chart of every priced candidate, the ranking, its warnings and the
// exclusions.
func WriteRecommendHTMLOpts(w io.Writer, name string, r *advisor.Result, o ReportOptions) error {
	l := o.Lang
	e := html.EscapeString
	var b strings.Builder
	title := msg(l, "title", name, msg(l, "objective", objectiveText(l, string(r.Objective))))
	lang := "en"
	if l == Chinese {
		lang = "zh"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=%q><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>%s</style></head><body>\n", lang, e(title), reportCSS)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", e(title))
	writeAnswerHTML(&b, BuildAnswer(r, l), l)
	if ch := o.Changes; ch != nil {
		fmt.Fprintf(&b, "<section class=\"changes\"><h2>%s</h2>\n<ul>\n", e(am(l, "compare_head", ch.Since)))
		for _, s := range ch.Sentences {
			fmt.Fprintf(&b, "<li>%s</li>\n", e(s))
		}
		b.WriteString("</ul></section>\n")
	}
	if len(r.Candidates) > 0 {
		if anyPriced(r) {
			fmt.Fprintf(&b, "<figure>\n%s<figcaption>%s</figcaption>\n</figure>\n", ParetoSVG(r, l), e(chartCaption(r, l)))
		} else {
			fmt.Fprintf(&b, "<p class=\"notes\">%s</p>\n", e(am(l, "chart_none")))
		}
		rows := shownRows(r, o.Top, o.AllRegions)
		t := recommendTable(r, rows, l, true)
		notes := tableNotes(r, t, l)
		fmt.Fprintf(&b, "<h2>%s</h2>\n<div class=\"scroll\"><table>\n<thead><tr>", e(am(l, "ranking_sum", len(rows), thousands(len(r.Candidates)))))
		cls := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			var cs []string
			if c.Right {
				cs = append(cs, "r")
			}
			if !keyColumns[c.Key] {
				cs = append(cs, "opt")
			}
			switch c.Key {
			case "offer":
				cs = append(cs, "offer")
			case "region":
				cs = append(cs, "wrap")
			}
			if len(cs) > 0 {
				cls[i] = fmt.Sprintf(" class=%q", strings.Join(cs, " "))
			}
			fmt.Fprintf(&b, "<th%s>%s</th>", cls[i], e(c.Header))
		}
		b.WriteString("</tr></thead>\n<tbody>\n")
		for _, row := range t.Rows {
			b.WriteString("<tr>")
			for i, cell := range row {
				// A range goes under its value: the column stays narrow.
				if v, rng, ok := strings.Cut(cell, " ("); ok && t.Columns[i].Right && strings.HasSuffix(rng, ")") {
					fmt.Fprintf(&b, "<td%s>%s<br><small>%s</small>", cls[i], e(v), e(strings.TrimSuffix(rng, ")")))
				} else {
					fmt.Fprintf(&b, "<td%s>%s", cls[i], e(cell))
				}
				if t.Columns[i].Key == "offer" {
					var more []string
					for j, c := range t.Columns {
						switch {
						case keyColumns[c.Key] || row[j] == "" || c.Key == "pareto":
						case c.Right: // a number says what it is
							more = append(more, c.Header+" "+row[j])
						default:
							more = append(more, row[j])
						}
					}
					fmt.Fprintf(&b, "<div class=\"more\">%s</div>", e(strings.Join(more, " · ")))
				}
				b.WriteString("</td>")
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</tbody></table></div>\n<p class=\"notes\">")
		for i, n := range notes {
			if n == msg(l, "range_note") { // ranges sit under their values here
				n = am(l, "range_note_html")
			}
			if i > 0 {
				b.WriteString("<br>")
			}
			b.WriteString(e(n))
		}
		if s := FreshnessText(l, rowsFreshness(r, rows)); s != "" {
			fmt.Fprintf(&b, "<br>%s", e(s))
		}
		b.WriteString("</p>\n")
		if groups := groupWarnings(rows, l); len(groups) > 0 {
			fmt.Fprintf(&b, "<details open><summary>%s</summary>\n<ul class=\"w\">\n", e(am(l, "warnings_sum", len(groups))))
			for _, g := range groups {
				fmt.Fprintf(&b, "<li>%s</li>\n", e(am(l, "warn_rows", g.text, ranksText(g.ranks))))
			}
			b.WriteString("</ul></details>\n")
		}
	}
	fmt.Fprintf(&b, "<details><summary>%s</summary>\n<ul>\n", e(excludedLine(r, l)))
	for _, g := range exclusionGroups(r, l) {
		fmt.Fprintf(&b, "<li>%s</li>\n", e(g))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "<li>%s</li>\n", e(label(l, am(l, "note"), Render(l, n))))
	}
	b.WriteString("</ul></details>\n</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// chartCaption says what the chart plots, with the axes it draws.
func chartCaption(r *advisor.Result, l Lang) string {
	if isService(r) {
		if imageResult(r) {
			return imm(l, "chart_svc")
		}
		return am(l, "chart_svc")
	}
	return am(l, "chart_job")
}

// tickText writes a tick value without trailing zeros: 2, 0.5, 1,000.
func tickText(v float64) string {
	if v >= 1000 {
		return thousands(int(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// logTicks are the 1-2-5 values of a decade inside [lo, hi], or lo and hi
// when fewer than two fall inside.
func logTicks(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo && v <= hi {
				out = append(out, v)
			}
		}
	}
	if len(out) > 6 { // keep the powers of ten only
		var tens []float64
		for _, v := range out {
			if m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9)); math.Abs(m-1) < 1e-6 {
				tens = append(tens, v)
			}
		}
		if len(tens) >= 2 {
			out = tens
		}
	}
	if len(out) < 2 {
		return []float64{lo, hi}
	}
	return out
}

// anyPriced reports whether some candidate has a published price, the
// chart's only points.
func anyPriced(r *advisor.Result) bool {
	for _, c := range r.Candidates {
		if c.Cost.PriceKnown {
			return true
		}
	}
	return false
}

// ParetoSVG draws every priced candidate on log axes: a job's total cost
// against its time to finish, a service's cost per month against its time
// to first token; the Pareto front joined in red, #1 ringed, and the
// deadline, budget and SLO as dashed lines. Pure SVG, no scripts or fonts.
func ParetoSVG(r *advisor.Result, l Lang) string {
	type pt struct {
		x, y   float64
		pareto bool
		rank   int
		label  string
	}
	svc := isService(r)
	img := svc && imageResult(r)
	var pts []pt
	for _, c := range r.Candidates {
		if !c.Cost.PriceKnown {
			continue
		}
		x, y := c.DurationHours, c.Cost.Cost.Total
		switch {
		case img:
			if c.Pred.LatencyS == nil {
				continue
			}
			x, y = *c.Pred.LatencyS, c.PerMonthUSD
		case svc:
			if c.Pred.TTFTMs == nil {
				continue
			}
			x, y = *c.Pred.TTFTMs, c.PerMonthUSD
		}
		if x <= 0 || y <= 0 || math.IsInf(x, 0) || math.IsInf(y, 0) {
			continue
		}
		pts = append(pts, pt{x, y, c.Pareto, c.Rank, fmt.Sprintf("#%d %s %s %s", c.Rank, c.Offer.ID(), c.Offer.Region, modeName(l, c.Cost.Mode.String()))})
	}
	caption := chartCaption(r, l)
	xl, yl := am(l, "chart_x_job"), am(l, "chart_y_job")
	if svc {
		xl, yl = am(l, "chart_x_svc"), am(l, "chart_y_svc")
	}
	if img {
		xl = imm(l, "chart_x_svc")
	}
	// Limit lines: x for the deadline (a job) or the TTFT SLO (a service),
	// y for the budget.
	var xLimit, yLimit float64
	var xLimitText, yLimitText string
	if s := r.Spec; s != nil {
		if v, _ := imageSLO(s); img && v > 0 {
			xLimit, xLimitText = v, imm(l, "chart_slo", sig(v))
		}
		if svc && s.Inference != nil && s.Inference.SLO.TTFTMs > 0 {
			xLimit, xLimitText = s.Inference.SLO.TTFTMs, am(l, "chart_slo", sig(s.Inference.SLO.TTFTMs))
		}
		if !svc && s.Constraints.DeadlineHours > 0 {
			xLimit, xLimitText = s.Constraints.DeadlineHours, am(l, "chart_deadline", sig(s.Constraints.DeadlineHours))
		}
		if s.Constraints.BudgetUSD > 0 {
			yLimit, yLimitText = s.Constraints.BudgetUSD, am(l, "chart_budget", sig(s.Constraints.BudgetUSD))
		}
	}
	const W, H, L, R, T, B = 780.0, 460.0, 118.0, 28.0, 44.0, 62.0
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s" font-family="system-ui,sans-serif">`+"\n", W, H, W, H, e(caption))
	fmt.Fprintf(&b, "<title>%s</title>\n", e(caption))
	fmt.Fprintf(&b, `<rect width="%.0f" height="%.0f" fill="white"/>`+"\n", W, H)
	if len(pts) == 0 {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="15" text-anchor="middle">%s</text>`+"\n</svg>\n", W/2, H/2, e(am(l, "chart_none")))
		return b.String()
	}
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p.x), math.Max(maxX, p.x)
		minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
	}
	// A limit within a decade of the points is drawn; farther away it
	// would squash them.
	if xLimit > 0 && xLimit >= minX/10 && xLimit <= maxX*10 {
		minX, maxX = math.Min(minX, xLimit), math.Max(maxX, xLimit)
	} else {
		xLimit = 0
	}
	if yLimit > 0 && yLimit >= minY/10 && yLimit <= maxY*10 {
		minY, maxY = math.Min(minY, yLimit), math.Max(maxY, yLimit)
	} else {
		yLimit = 0
	}
	pad := func(lo, hi float64) (float64, float64) {
		a, z := math.Log10(lo), math.Log10(hi)
		p := math.Max(0.06*(z-a), 0.04)
		if z-a < 0.1 {
			p = 0.15
		}
		return a - p, z + p
	}
	lx0, lx1 := pad(minX, maxX)
	ly0, ly1 := pad(minY, maxY)
	sx := func(x float64) float64 { return L + (math.Log10(x)-lx0)/(lx1-lx0)*(W-L-R) }
	sy := func(y float64) float64 { return H - B - (math.Log10(y)-ly0)/(ly1-ly0)*(H-T-B) }
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#8c959f"/>`+"\n", L, T, W-L-R, H-T-B)
	for _, v := range logTicks(math.Pow(10, lx0), math.Pow(10, lx1)) {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#eaeef2"/><text x="%.1f" y="%.0f" font-size="13" text-anchor="middle">%s</text>`+"\n",
			sx(v), T, sx(v), H-B, sx(v), H-B+18, tickText(v))
	}
	for _, v := range logTicks(math.Pow(10, ly0), math.Pow(10, ly1)) {
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eaeef2"/><text x="%.0f" y="%.1f" font-size="13" text-anchor="end">$%s</text>`+"\n",
			L, sy(v), W-R, sy(v), L-6, sy(v)+4, tickText(v))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="14" text-anchor="middle">%s</text>`+"\n", (L+W-R)/2, H-14, e(am(l, "chart_log_axis", xl)))
	fmt.Fprintf(&b, `<text x="16" y="%.0f" font-size="14" text-anchor="middle" transform="rotate(-90 16 %.0f)">%s</text>`+"\n", (T+H-B)/2, (T+H-B)/2, e(am(l, "chart_log_axis", yl)))
	if xLimit > 0 {
		// The label sits at the foot of the line, clear of the budget's.
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#cf222e" stroke-dasharray="6 4"/><text x="%.1f" y="%.0f" font-size="13" fill="#cf222e" text-anchor="end">%s</text>`+"\n",
			sx(xLimit), T, sx(xLimit), H-B, sx(xLimit)-4, H-B-6, e(xLimitText))
	}
	if yLimit > 0 {
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#cf222e" stroke-dasharray="6 4"/><text x="%.0f" y="%.1f" font-size="13" fill="#cf222e">%s</text>`+"\n",
			L, sy(yLimit), W-R, sy(yLimit), L+6, sy(yLimit)-5, e(yLimitText))
	}
	var front []pt
	for _, p := range pts {
		if p.pareto {
			front = append(front, p)
		}
	}
	slices.SortFunc(front, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
	if len(front) > 1 {
		b.WriteString(`<polyline fill="none" stroke="#cf222e" stroke-width="1.5" points="`)
		for i, p := range front {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%.1f,%.1f", sx(p.x), sy(p.y))
		}
		b.WriteString(`"/>` + "\n")
	}
	// Points: the grey first, so the front and #1 are drawn on top.
	slices.SortStableFunc(pts, func(a, b pt) int {
		if a.pareto != b.pareto {
			if a.pareto {
				return 1
			}
			return -1
		}
		return cmp.Compare(b.rank, a.rank)
	})
	for _, p := range pts {
		color, rad := "#8c959f", 3.5
		if p.pareto {
			color, rad = "#cf222e", 5
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" fill-opacity="0.85"><title>%s</title></circle>`+"\n", sx(p.x), sy(p.y), rad, color, e(p.label))
		if p.rank == 1 {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="#1a7f37" stroke-width="2"/><text x="%.1f" y="%.1f" font-size="13" font-weight="bold" fill="#1a7f37">#1</text>`+"\n",
				sx(p.x), sy(p.y), sx(p.x)+11, sy(p.y)-9)
		}
	}
	fmt.Fprintf(&b, `<text class="svgtitle" x="%.0f" y="26" font-size="15" text-anchor="middle">%s</text>`+"\n", W/2, e(caption))
	b.WriteString("</svg>\n")
	return b.String()
}
