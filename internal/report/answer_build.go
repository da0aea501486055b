package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compliance"
	message "github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// BuildAnswer builds the answer block of r in l from what the advisor
// already computed: it reads the ranked candidates, their warnings and the
// exclusions, and evaluates nothing again (it is on the API's hot path).
// The pick is r.Candidates[0]; the runner-up the best candidate on another
// instance type. r.Spec (nil allowed) gives the deadline, budget and SLO.
func BuildAnswer(r *advisor.Result, l Lang) AnswerJSON {
	svc := answerIsService(r)
	a := AnswerJSON{
		Qualifies: len(r.Candidates) > 0, Service: svc, Objective: string(r.Objective),
		ObjectiveSentence: objectiveSentence(r, svc, l),
		Factors:           []FactorJSON{}, Risks: []RiskJSON{}, NearMisses: nearMisses(r, svc, l),
	}
	if len(r.Candidates) == 0 {
		a.Headline = am(l, "head_none", thousands(r.Evaluated))
		if len(a.NearMisses) > 0 {
			a.Headline = am(l, "head_none_near", thousands(r.Evaluated), nearShort(a.NearMisses[0], l))
		}
		return a
	}
	pick := r.Candidates[0]
	a.Pick = answerPick(pick, l)
	if runner := r.RunnerUp(); runner != nil {
		a.RunnerUp = answerPick(runner, l)
		a.Factors = factors(r, pick, runner, svc, l)
	}
	a.Headline = headline(pick, svc, l)
	for _, w := range pick.Warnings {
		if w.Code == advisor.WarnOldPrice && len(w.Args) > 0 {
			a.Headline += am(l, "head_old_price", w.Args[0])
		}
	}
	if pick.Cost.PriceKnown {
		b := pick.Cost.Cost
		a.Cost = &AnswerCostJSON{Unit: "USD", Compute: r2(b.Compute), Storage: r2(b.Storage), Egress: r2(b.Egress),
			Setup: r2(b.Setup), SpotOverhead: r2(b.SpotOverhead), Porting: r2(b.Porting), Total: r2(b.Total)}
		if svc {
			a.Cost.Unit = "USD/month"
		}
		if pick.CostP10 > 0 && pick.CostP90 > 0 {
			a.Cost.P10, a.Cost.P90 = fp(r2(pick.CostP10)), fp(r2(pick.CostP90))
		}
	}
	if !svc && pick.DurationHours > 0 {
		a.Duration = &RangeJSON{Value: r2(pick.DurationHours)}
		if pick.DurationHoursP10 > 0 && pick.DurationHoursP90 > 0 {
			a.Duration.P10, a.Duration.P90 = fp(r2(pick.DurationHoursP10)), fp(r2(pick.DurationHoursP90))
		}
	}
	if svc {
		a.ServiceFigures = serviceFigures(r, pick)
	}
	if c := r.ConfidenceVsNext; c != nil {
		a.Confidence = &ConfidenceJSON{Confidence: *c, Sentence: message.Text(sureText(l, c))}
	}
	a.DeadlineRisk = deadlineRiskAnswer(r, l)
	a.Risks = risks(r, pick, svc, l, a.DeadlineRisk)
	a.Terms = termsAnswer(r, l)
	a.Day = dayAnswer(r, l)
	a.Operator = operatorAnswer(r, l)
	a.Porting = portingAnswer(r, svc, l)
	a.DueDiligence = DiligenceView(r.DueDiligence, l)
	return a
}

// DiligenceJSON is one document to read or request before signing, as
// check -o json and the answer print it: compliance.Diligence with its
// title and reason rendered in the reader's language.
type DiligenceJSON struct {
	Document string   `json:"document"`
	Title    string   `json:"title"`
	Why      string   `json:"why"`
	Serves   []string `json:"serves"`
	Access   string   `json:"access"`
	Where    string   `json:"where,omitempty"`
	Shared   string   `json:"shared,omitempty"`
	Source   string   `json:"source,omitempty"`
}

// DiligenceView renders a due-diligence list in l.
func DiligenceView(dd []compliance.Diligence, l Lang) []DiligenceJSON {
	if dd == nil {
		return nil
	}
	out := make([]DiligenceJSON, len(dd))
	for i, d := range dd {
		out[i] = DiligenceJSON{Document: d.Document, Title: Render(l, d.Title), Why: Render(l, d.Why), Serves: d.Serves,
			Access: d.Access, Where: d.Where, Shared: d.Shared, Source: d.Source}
	}
	return out
}

// diligenceLines are one sentence per document: its title, why it
// matters, and where to get it.
func diligenceLines(dd []DiligenceJSON, l Lang) []string {
	var out []string
	for _, d := range dd {
		switch {
		case d.Access == compliance.AccessPublished:
			out = append(out, am(l, "dd_published", d.Title, d.Why, d.Where))
		case d.Where != "":
			out = append(out, am(l, "dd_request_at", d.Title, d.Why, d.Where))
		default:
			out = append(out, am(l, "dd_request", d.Title, d.Why))
		}
	}
	return out
}

// portingAnswer says what porting is priced at when it matters: the pick
// needs work on its stack, or the best-ranked candidate that would have
// beaten the pick with its porting unpriced.
func portingAnswer(r *advisor.Result, svc bool, l Lang) *PortingAnswerJSON {
	pick := r.Candidates[0]
	c := pick
	if pick.Cost.Porting == nil {
		c = nil
		for _, x := range r.Candidates[1:] {
			p := x.Cost.Porting
			if p != nil && p.USD > 0 && x.Cost.PriceKnown && pick.Cost.PriceKnown && x.Cost.Cost.Total-p.USD < pick.Cost.Cost.Total {
				c = x
				break
			}
		}
	}
	if c == nil {
		return nil
	}
	p := c.Cost.Porting
	j := &PortingAnswerJSON{Offer: c.Offer.ID(), Region: c.Offer.Region, Rank: c.Rank, Kinds: p.Kinds,
		EngineerDays: p.EngineerDays, EngineerDayUSD: p.EngineerDayUSD, USD: r2(p.USD), DelayDays: p.DelayDays}
	var kinds []string
	for _, k := range p.Kinds {
		kinds = append(kinds, am(l, "work_"+k))
	}
	work := strings.Join(kinds, am(l, "list_sep"))
	days, delay := dayCount(p.EngineerDays), dayCount(p.DelayDays)
	switch {
	case p.USD <= 0:
		j.Sentence = am(l, "port_unpriced", j.Offer, days, work, delay)
	case c != pick:
		without := r2(c.Cost.Cost.Total - p.USD)
		j.WithoutUSD = &without
		j.Sentence = am(l, "port_lost", j.Offer, c.Rank, usd(without), usd(pick.Cost.Cost.Total), days, work, usd(p.EngineerDayUSD), usd(p.USD), delay)
	case svc:
		j.Sentence = am(l, "port_pick_svc", j.Offer, days, work, usd(p.EngineerDayUSD), usd(p.USD), delay)
	default:
		j.Sentence = am(l, "port_pick_job", j.Offer, days, work, usd(p.EngineerDayUSD), usd(p.USD), delay)
	}
	return j
}

// operatorAnswer says who runs #1's machines when the workload cares: it
// has compliance requirements, or it is a service its users depend on.
func operatorAnswer(r *advisor.Result, l Lang) *OperatorAnswerJSON {
	op := r.Operator
	if op == nil || r.Spec == nil || !compliance.Requires(r.Spec.Compliance) && !r.Spec.Production() {
		return nil
	}
	j := &OperatorAnswerJSON{Kind: string(op.Kind), Provider: op.Provider, HQCountry: op.HQCountry, CloudAct: op.CloudAct, Source: op.Source}
	if !op.AsOf.IsZero() {
		j.AsOf = date(op.AsOf)
	}
	hq := op.HQCountry
	if hq == "" {
		hq = am(l, "op_hq_unknown")
	}
	law := ""
	if op.CloudAct {
		law = am(l, "op_cloud_act")
	}
	switch op.Kind {
	case catalog.OperatorProvider:
		j.Sentence = am(l, "op_provider", op.ProviderName, hq, law)
	case catalog.OperatorPartner:
		j.Sentence = am(l, "op_partner", op.ProviderName, hq, law)
	case catalog.OperatorMarketplace:
		j.Sentence = am(l, "op_marketplace", op.ProviderName, hq, law)
	case catalog.OperatorCommunity:
		j.Sentence = am(l, "op_community", op.ProviderName, hq, law)
	default:
		j.Sentence = am(l, "op_unknown", op.ProviderName)
	}
	return j
}

// nearShort names a near-miss and what it needs in a few words, for a
// headline: "aws/g5.xlarge in us-east-1 with a deadline of 177.4 h".
func nearShort(n NearMissJSON, l Lang) string {
	switch {
	case n.Constraint == advisor.RelaxDeadline.Field() && n.Needed != nil:
		return am(l, "short_deadline", n.Offer, n.Region, am(l, "hours_v", hoursFmt(*n.Needed)))
	case n.Constraint == advisor.RelaxBudget.Field() && n.Needed != nil:
		return am(l, "short_budget", n.Offer, n.Region, usd(*n.Needed))
	case n.Constraint == advisor.RelaxMaxGPUs.Field() && n.Needed != nil:
		return am(l, "short_maxgpus", n.Offer, n.Region, int(*n.Needed))
	}
	return am(l, "short_pricing", n.Offer, n.Region, modeName(l, n.Pricing))
}

// answerIsService says whether r is a service sized to a request rate:
// from its candidates, or from its workload when nothing qualifies.
func answerIsService(r *advisor.Result) bool {
	if len(r.Candidates) > 0 {
		for _, c := range r.Candidates {
			if c.PerMonthUSD > 0 || c.Plan.RequestsPerSPerReplica > 0 {
				return true
			}
		}
		return false
	}
	return advisor.IsService(r.Spec)
}

func answerPick(c *advisor.Candidate, l Lang) *AnswerPickJSON {
	p := &AnswerPickJSON{Rank: c.Rank, Offer: c.Offer.ID(), Region: c.Offer.Region, GPU: c.Offer.GPU, GPUs: c.GPUs,
		Pricing: c.Cost.Mode.String(), Plan: PlanSentence(c.Plan, l)}
	if c.Cost.PriceKnown {
		p.TotalUSD = fp(r2(c.Cost.Cost.Total))
	}
	p.Evidence = c.Evidence
	if l != English && len(c.Evidence) > 0 {
		p.Evidence = slices.Clone(c.Evidence)
		for i := range p.Evidence {
			p.Evidence[i].Unit = evidenceUnit(l, p.Evidence[i].Unit)
		}
	}
	if len(c.Evidence) > 0 && c.Evidence[0].Distance > perf.EvidenceNear {
		p.EvidenceNote = evidenceFar(c.Evidence, l)
	}
	return p
}

// evidenceFar says that no published measurement is near the job.
func evidenceFar(ev []perf.Evidence, l Lang) string {
	return am(l, "ev_far", strconv.FormatFloat(ev[0].Distance, 'f', 1, 64), strconv.FormatFloat(perf.EvidenceNear, 'f', 1, 64))
}

// evidenceUnitZh rewrites the units of published measurements (free text,
// as each source states them) in Chinese, longest phrases first.
var evidenceUnitZh = strings.NewReplacer(
	" (system)", "（整机）", " (one stream)", "（单流）", " (decode)", "（解码）", " (all GPUs)", "（所有 GPU）", " (system, ", "（整机，",
	"output tokens/s/GPU", "输出 token/秒/GPU", "output tokens/s", "输出 token/秒", "tokens/s/GPU", "token/秒/GPU", "tokens/s", "token/秒",
	" (", "（", " at ", "，", "tok/s/user", "token/秒/用户", "(system)", "（整机）", "(one stream)", "（单流）", "(decode)", "（解码）",
	" per 8-GPU node)", "/8-GPU 节点）", " GPUs)", " 块 GPU）", " HPUs)", " 块 HPU）", "(", "（",
	"s per iteration", "秒/迭代", "s/step", "秒/步", "images/s", "张图/秒", "it/s", "迭代/秒", "ms/token", "毫秒/token")

// evidenceUnit is a published measurement's unit in l.
func evidenceUnit(l Lang, u string) string {
	if l != Chinese {
		return u
	}
	switch u {
	case "s":
		return "秒"
	case "ms":
		return "毫秒"
	}
	return evidenceUnitZh.Replace(u)
}

// evidenceSetup is how a published result ran: its framework and
// precision, where stated.
func evidenceSetup(e perf.Evidence) []string {
	return slices.DeleteFunc([]string{e.Framework, e.Precision}, func(s string) bool { return s == "" || s == "other" })
}

// evidenceLines write the published measurements nearest to the pick's
// job, one sentence each, led by a sentence when none is near.
func evidenceLines(ev []perf.Evidence, l Lang) []string {
	if len(ev) == 0 {
		return nil
	}
	var out []string
	if ev[0].Distance > perf.EvidenceNear {
		out = append(out, evidenceFar(ev, l))
	}
	for _, e := range ev {
		job := strings.TrimSpace(e.Model + " " + e.Kind)
		setup := strings.Join(evidenceSetup(e), am(l, "list_sep"))
		out = append(out, am(l, "ev_line", job, e.GPUs, e.Accelerator, setup, e.Source, e.Date,
			sig(e.Measured), evidenceUnit(l, e.Unit), sig(e.Predicted), strconv.FormatFloat(e.Ratio, 'f', 2, 64), strconv.FormatFloat(e.Distance, 'f', 1, 64)))
	}
	return out
}

func headline(c *advisor.Candidate, svc bool, l Lang) string {
	o := c.Offer
	mode := modeName(l, c.Cost.Mode.String())
	if svc {
		reps := replicasPhrase(l, c.Plan)
		inst := instancesPhrase(l, c.Plan, o.GPU)
		if sc := c.Plan.Scaling; sc != nil && sc.Max > sc.Base && c.Plan.Slice == nil {
			reps = am(l, "replicas_range", sc.ReplicasOn(sc.Base), sc.ReplicasOn(sc.Max))
			inst = am(l, "instances_range", sc.Base, sc.Max, c.Plan.GPUsPerInstance, o.GPU)
		}
		if !c.Cost.PriceKnown {
			return am(l, "head_svc_noprice", o.ID(), o.Region, mode, reps, inst)
		}
		if c.Pred.LatencyS != nil && c.Pred.TTFTMs == nil {
			return imm(l, "head_svc", o.ID(), o.Region, mode, reps, inst, usd(c.PerMonthUSD), usd(c.PerHourUSD),
				sText(l, c.Pred.LatencyS), c.Plan.Batch)
		}
		return am(l, "head_svc", o.ID(), o.Region, mode, reps, inst, usd(c.PerMonthUSD), usd(c.PerHourUSD),
			msText(l, c.Pred.TTFTMs), msText(l, c.Pred.TPOTMs))
	}
	gpus := gpusCell(l, c.Plan, c.GPUs, o.GPU)
	hours := am(l, "hours_v", hoursFmt(c.DurationHours))
	if !c.Cost.PriceKnown {
		return am(l, "head_job_noprice", o.ID(), o.Region, mode, gpus, hours)
	}
	return am(l, "head_job", o.ID(), o.Region, mode, gpus, hours, usd(c.Cost.Cost.Total))
}

func objectiveSentence(r *advisor.Result, svc bool, l Lang) string {
	if r.Objective != workload.ObjectiveTime && len(r.Candidates) > 0 && !r.Candidates[0].Cost.PriceKnown {
		// Unpriced candidates rank last: an unpriced #1 means none has a price.
		if svc {
			return am(l, "obj_noprice_svc")
		}
		return am(l, "obj_noprice")
	}
	switch r.Objective {
	case workload.ObjectiveTime:
		if svc {
			return am(l, "obj_time_svc")
		}
		return am(l, "obj_time")
	case workload.ObjectiveTokensPerDollar:
		u := unitLabel(r)
		if u == "" {
			u = "USD per unit"
		}
		return am(l, "obj_tpd", unitText(l, u))
	case workload.ObjectiveBalanced:
		return am(l, "obj_balanced")
	}
	if svc {
		return am(l, "obj_cost_svc")
	}
	return am(l, "obj_cost")
}

// factorDef is one factor: how to read it off a candidate (ok false when
// unknown), its unit, whether less is better, and how to print a value.
type factorDef struct {
	code   string
	unit   string
	less   bool
	get    func(c *advisor.Candidate) (float64, bool)
	format func(v float64) string
}

// factorOrder lists the factors of a kind of result, the decisive one (the
// objective's) first.
func factorOrder(r *advisor.Result, pick *advisor.Candidate, svc bool, l Lang) []factorDef {
	priced := func(f func(c *advisor.Candidate) float64) func(c *advisor.Candidate) (float64, bool) {
		return func(c *advisor.Candidate) (float64, bool) { return f(c), c.Cost.PriceKnown }
	}
	msF := func(v float64) string { return am(l, "ms_v", sig(v)) }
	totalCost := factorDef{"total_cost", "USD", true, priced(func(c *advisor.Candidate) float64 { return c.Cost.Cost.Total }), usd}
	perMonth := factorDef{"cost_per_month", "USD/month", true, priced(func(c *advisor.Candidate) float64 { return c.PerMonthUSD }),
		func(v float64) string { return am(l, "per_month_v", usd(v)) }}
	duration := factorDef{"duration", "h", true, func(c *advisor.Candidate) (float64, bool) { return c.DurationHours, c.DurationHours > 0 },
		func(v float64) string { return am(l, "hours_v", hoursFmt(v)) }}
	perHour := factorDef{"price_per_hour", "USD/h", true, priced(func(c *advisor.Candidate) float64 { return c.Cost.PerHourUSD }),
		func(v float64) string { return am(l, "per_hour_v", usd(v)) }}
	tu := pick.Pred.Throughput.Unit
	throughput := factorDef{"throughput", tu, false, func(c *advisor.Candidate) (float64, bool) {
		return c.Pred.Throughput.Value, c.Pred.Throughput.Value > 0 && c.Pred.Throughput.Unit == tu
	}, func(v float64) string { return sig(v) + " " + throughputUnit(l, tu) }}
	uu := pick.UnitCostUnit
	unitCost := factorDef{"unit_cost", uu, true, func(c *advisor.Candidate) (float64, bool) {
		return c.UnitCost, c.UnitCost > 0 && c.UnitCostUnit == uu
	}, func(v float64) string { return "$" + sig(v) }}
	replicas := factorDef{"replicas", "replicas", true, func(c *advisor.Candidate) (float64, bool) {
		return float64(c.Plan.Replicas), c.Plan.Replicas > 0
	}, func(v float64) string { return strconv.Itoa(int(v)) }}
	ptr := func(f func(c *advisor.Candidate) *float64) func(c *advisor.Candidate) (float64, bool) {
		return func(c *advisor.Candidate) (float64, bool) {
			if v := f(c); v != nil {
				return *v, true
			}
			return 0, false
		}
	}
	ttft := factorDef{"ttft", "ms", true, ptr(func(c *advisor.Candidate) *float64 { return c.Pred.TTFTMs }), msF}
	tpot := factorDef{"tpot", "ms", true, ptr(func(c *advisor.Candidate) *float64 { return c.Pred.TPOTMs }), msF}
	if svc && imageResult(r) {
		latency := factorDef{"latency", "s", true, ptr(func(c *advisor.Candidate) *float64 { return c.Pred.LatencyS }),
			func(v float64) string { return imm(l, "s_v", sig(v)) }}
		switch r.Objective {
		case workload.ObjectiveTime:
			return []factorDef{latency, perMonth, replicas}
		case workload.ObjectiveTokensPerDollar:
			return []factorDef{unitCost, perMonth, replicas, latency}
		}
		return []factorDef{perMonth, replicas, latency}
	}
	if svc {
		switch r.Objective {
		case workload.ObjectiveTime:
			return []factorDef{ttft, tpot, perMonth, replicas}
		case workload.ObjectiveTokensPerDollar:
			return []factorDef{unitCost, perMonth, replicas, ttft, tpot}
		}
		return []factorDef{perMonth, replicas, ttft, tpot}
	}
	switch r.Objective {
	case workload.ObjectiveTime:
		return []factorDef{duration, totalCost, throughput, perHour}
	case workload.ObjectiveTokensPerDollar:
		return []factorDef{unitCost, totalCost, duration, throughput}
	}
	return []factorDef{totalCost, duration, perHour, throughput}
}

func factors(r *advisor.Result, pick, runner *advisor.Candidate, svc bool, l Lang) []FactorJSON {
	out := []FactorJSON{}
	for _, f := range factorOrder(r, pick, svc, l) {
		a, okA := f.get(pick)
		b, okB := f.get(runner)
		if !okA || !okB {
			continue
		}
		fj := FactorJSON{Code: f.code, Pick: fp(factorNum(a, f.unit)), RunnerUp: fp(factorNum(b, f.unit)), Unit: f.unit}
		fj.PickBetter = a < b
		if !f.less {
			fj.PickBetter = a > b
		}
		delta := am(l, "same")
		if b != 0 && math.Abs(a-b)/math.Abs(b) >= 0.0005 {
			rel := math.Abs(a-b) / math.Abs(b) * 100
			pct := fmt.Sprintf("%.0f%%", rel)
			if rel < 10 {
				pct = fmt.Sprintf("%.1f%%", rel)
			}
			switch {
			case a < b:
				delta = am(l, "lower", pct)
			case a >= 2*b:
				delta = am(l, "times", strconv.FormatFloat(a/b, 'g', 3, 64))
			default:
				delta = am(l, "higher", pct)
			}
		}
		name := am(l, "f_"+f.code)
		if f.code == "latency" {
			name = imm(l, "f_latency")
		}
		fj.Sentence = am(l, "factor", name, f.format(a), runner.Offer.ID(), f.format(b), delta)
		out = append(out, fj)
	}
	return out
}

func serviceFigures(r *advisor.Result, c *advisor.Candidate) *ServiceAnswerJSON {
	s := &ServiceAnswerJSON{Replicas: c.Plan.Replicas}
	if c.Cost.PriceKnown {
		s.PerHourUSD, s.PerMonthUSD = fp(r2(c.PerHourUSD)), fp(r2(c.PerMonthUSD))
		if c.UnitCost > 0 && strings.Contains(c.UnitCostUnit, "tokens") {
			s.PerMillionTokensUSD = fp(roundSig(c.UnitCost))
		}
	}
	if imageResult(r) {
		if c.Pred.LatencyS != nil {
			s.LatencyS = fp(roundSig(*c.Pred.LatencyS))
		}
		s.Batch = c.Plan.Batch
		if v, pct := imageSLO(r.Spec); v > 0 {
			s.SLOLatencyS, s.SLOPercentile = fp(v), fp(pct)
		}
		if c.Cost.PriceKnown && c.UnitCost > 0 {
			s.PerThousandImagesUSD = fp(roundSig(c.UnitCost))
		}
		return s
	}
	if c.Pred.TTFTMs != nil {
		s.TTFTMs = fp(roundSig(*c.Pred.TTFTMs))
	}
	if c.Pred.TPOTMs != nil {
		s.TPOTMs = fp(roundSig(*c.Pred.TPOTMs))
	}
	if sp := r.Spec; sp != nil && sp.Inference != nil {
		if v := sp.Inference.SLO.TTFTMs; v > 0 {
			s.SLOTTFTMs = fp(v)
		}
		if v := sp.Inference.SLO.TPOTMs; v > 0 {
			s.SLOTPOTMs = fp(v)
		}
	}
	return s
}

// riskLevels orders risk levels, most serious first.
var riskLevels = map[string]int{"high": 0, "medium": 1, "low": 2}

// risks is what could go wrong with the pick c, one sentence each, most
// serious first.
func risks(r *advisor.Result, c *advisor.Candidate, svc bool, l Lang, dl *DeadlineRiskJSON) []RiskJSON {
	out := []RiskJSON{}
	add := func(code, level, sentence string) {
		out = append(out, RiskJSON{Code: code, Level: level, Sentence: sentence})
	}
	var deadline float64
	if r.Spec != nil {
		deadline = r.Spec.Constraints.DeadlineHours
	}
	hours := func(v float64) string { return am(l, "hours_v", hoursFmt(v)) }
	switch {
	case dl != nil:
		add("deadline", "high", dl.Sentence)
	case deadline > 0 && c.DurationHoursP90 > deadline: // a result without its DeadlineRisk
		add("deadline", "high", am(l, "risk_deadline", hours(deadline), hoursFmt(c.DurationHoursP10), hours(c.DurationHoursP90)))
	}
	for _, w := range c.Warnings {
		arg := func(i int) any {
			if i >= len(w.Args) {
				return ""
			}
			return argIn(l, w.Args[i])
		}
		switch w.Code {
		case advisor.WarnPriceUnknown:
			add(w.Code, "high", am(l, "risk_price"))
		case advisor.WarnSpotRisk:
			add(w.Code, "high", am(l, "risk_spot_risk", arg(0), hours(deadline)))
		case advisor.ReasonNonCompliant, advisor.ReasonOperator, advisor.ReasonIncompatible:
			add(w.Code, "high", sentenceCase(fmt.Sprint(arg(0))))
		case advisor.WarnSpot:
			add(w.Code, "medium", am(l, "risk_spot", arg(0), arg(1)))
		case advisor.WarnSpotUnheld:
			add(w.Code, "high", am(l, "risk_spot_unheld", arg(0), arg(1), arg(2), arg(3)))
		case advisor.WarnSpotService:
			add(w.Code, "medium", am(l, "risk_spot_service", arg(0), arg(1), arg(2)))
		case advisor.WarnSpotPoint:
			add(w.Code, "low", am(l, "risk_spot_point", arg(0), arg(1)))
		case advisor.WarnSharedPool:
			if len(w.Args) == 5 {
				money := func(v any) string {
					f, _ := v.(float64)
					if svc {
						return am(l, "per_month_v", usd(f))
					}
					return usd(f)
				}
				add(w.Code, "medium", am(l, "risk_shared_pool", arg(0), arg(1), arg(2), money(w.Args[3]), money(w.Args[4])))
			}
		case advisor.WarnEgressUnknown:
			add(w.Code, "medium", am(l, "risk_egress_unknown", arg(0), arg(1), arg(2)))
		case advisor.WarnOldPrice:
			add(w.Code, "medium", am(l, "risk_old_price", arg(0), arg(1)))
		case advisor.WarnNeedsWork:
			add(w.Code, "medium", am(l, "risk_stack", fmt.Sprint(arg(0))))
		case advisor.WarnPreferred:
			add(w.Code, "medium", am(l, "risk_compliance", fmt.Sprint(arg(0))))
		case advisor.WarnReserved:
			add(w.Code, "medium", am(l, "risk_reserved", modeName(l, fmt.Sprint(arg(0))), arg(1), arg(2)))
		case advisor.WarnLowConfidence:
			add(w.Code, "medium", am(l, "risk_low_conf"))
		case advisor.WarnStale:
			add(w.Code, "low", am(l, "risk_stale", arg(0), staleDays))
		case advisor.WarnLowUtil:
			b := ""
			if len(w.Args) > 1 {
				b = bottleneckText(l, fmt.Sprint(w.Args[1]))
			}
			add(w.Code, "low", am(l, "risk_low_util", arg(0), b))
		case advisor.WarnRegionInferred:
			add(w.Code, "low", am(l, "risk_region", arg(0)))
		case advisor.WarnNote:
			add(w.Code, "low", sentenceCase(fmt.Sprint(arg(0))))
		default:
			add(w.Code, "low", sentenceCase(warningIn(l, w)))
		}
	}
	// A close call against the same instance type elsewhere (another
	// region or pricing mode) is a tie on the same hardware, not a risk:
	// the close call that counts is against the best other instance type
	// (none when every candidate is #1's type).
	if cf := r.ConfidenceVsNext; cf != nil && len(cf.Alternatives) > 0 {
		if t := cf.Alternatives[0]; !t.Distinguishable {
			add("close_call", "medium", am(l, "risk_close_alt", t.Offer, 100*t.Probability))
		}
	}
	if svc && r.Spec != nil && r.Spec.Inference != nil {
		slo := r.Spec.Inference.SLO
		near := func(name string, v *float64, target float64) {
			if v != nil && target > 0 && *v > 0.9*target && *v <= target {
				add("slo_headroom", "medium", am(l, "risk_slo", am(l, name), am(l, "ms_v", sig(*v)), am(l, "ms_v", sig(target))))
			}
		}
		near("ttft_name", c.Pred.TTFTMs, slo.TTFTMs)
		near("tpot_name", c.Pred.TPOTMs, slo.TPOTMs)
	}
	if v, target := c.Pred.LatencyS, r.Spec; svc && imageResult(r) && v != nil {
		if slo, _ := imageSLO(target); slo > 0 && *v > 0.9*slo && *v <= slo {
			add("slo_headroom", "medium", imm(l, "risk_slo", imm(l, "latency_name"), imm(l, "s_v", sig(*v)), imm(l, "s_v", sig(slo))))
		}
	}
	slices.SortStableFunc(out, func(a, b RiskJSON) int { return cmp.Compare(riskLevels[a.Level], riskLevels[b.Level]) })
	for i := range out {
		s := strings.TrimSpace(out[i].Sentence)
		switch {
		case l == Chinese && !strings.HasSuffix(s, "。"):
			s = strings.TrimSuffix(s, ".") + "。"
		case l != Chinese && !strings.HasSuffix(s, "."):
			s += "."
		}
		out[i].Sentence = s
	}
	return out
}

// nearMisses writes the near-misses the advisor found and checked: per
// relaxable constraint, the excluded candidates that need it relaxed
// least, nearest first.
func nearMisses(r *advisor.Result, svc bool, l Lang) []NearMissJSON {
	out := []NearMissJSON{}
	var k workload.Constraints
	if r.Spec != nil {
		k = r.Spec.Constraints
	}
	maxGPUs := k.MaxGPUs
	if maxGPUs == 0 {
		maxGPUs = advisor.DefaultMaxGPUs
	}
	hours := func(v float64) string { return am(l, "hours_v", hoursFmt(v)) }
	for _, x := range r.NearMisses {
		relax := x.Relax
		{
			n := NearMissJSON{Constraint: relax.Field(), Offer: x.Offer, Region: x.Region, Pricing: x.Pricing}
			dur, total := float64(x.DurationHours), float64(x.TotalUSD)
			mode := modeName(l, x.Pricing)
			switch relax {
			case advisor.RelaxDeadline:
				needed := math.Ceil(float64(x.Needed)*10) / 10
				n.Needed = fp(needed)
				if total > 0 {
					n.Sentence = am(l, "near_deadline", x.Offer, x.Region, mode, hours(needed), hours(k.DeadlineHours), hours(dur), usd(total))
				} else {
					n.Sentence = am(l, "near_deadline_noprice", x.Offer, x.Region, mode, hours(needed), hours(k.DeadlineHours), hours(dur))
				}
			case advisor.RelaxBudget:
				needed := math.Ceil(float64(x.Needed))
				n.Needed = fp(needed)
				if svc {
					n.Sentence = am(l, "near_budget_svc", x.Offer, x.Region, mode, usd(needed), usd(k.BudgetUSD))
				} else {
					n.Sentence = am(l, "near_budget", x.Offer, x.Region, mode, usd(needed), usd(k.BudgetUSD), hours(dur))
				}
			case advisor.RelaxMaxGPUs:
				n.Needed = fp(float64(x.Needed))
				if x.ReasonCode == advisor.ReasonUnsustained {
					n.Sentence = am(l, "near_maxgpus_svc", x.Offer, x.Region, int(x.Needed), maxGPUs)
				} else if !svc && dur > 0 && total > 0 {
					n.Sentence = am(l, "near_maxgpus_job", x.Offer, x.Region, mode, int(x.Needed), maxGPUs, int(x.Needed), hours(dur), usd(total))
				} else {
					n.Sentence = am(l, "near_maxgpus", x.Offer, x.Region, int(x.Needed), maxGPUs, int(x.Needed))
				}
			}
			out = append(out, n)
		}
	}
	// Another pricing mode (evaluated only when nothing qualifies).
	for _, c := range r.OtherModes {
		n := NearMissJSON{Constraint: "constraints.pricing", Offer: c.Offer.ID(), Region: c.Offer.Region, Pricing: c.Cost.Mode.String()}
		mode := modeName(l, c.Cost.Mode.String())
		if c.PerMonthUSD > 0 {
			n.Sentence = am(l, "near_pricing_svc", n.Offer, n.Region, mode, usd(c.PerMonthUSD))
		} else {
			n.Sentence = am(l, "near_pricing", n.Offer, n.Region, mode, hours(c.DurationHours), usd(c.Cost.Cost.Total))
		}
		out = append(out, n)
	}
	return out
}

// dayCount writes a number of days: "5", "2.5".
func dayCount(v float64) string { return strconv.FormatFloat(roundTo(v, 1), 'f', -1, 64) }

// usd writes dollars for people: "$86.72", "$103", "$71,811".
func usd(v float64) string {
	if math.Abs(v) >= 100 {
		return "$" + thousands(int(math.Round(v)))
	}
	return fmt.Sprintf("$%.2f", v)
}

// hoursFmt writes hours with one decimal (two below one hour).
func hoursFmt(v float64) string {
	switch {
	case v < 1:
		return fmt.Sprintf("%.2f", v)
	case v >= 1000:
		return thousands(int(math.Round(v)))
	}
	return fmt.Sprintf("%.1f", v)
}

// sig writes v with three significant digits, without an exponent
// (thousands grouped from 1,000 up).
func sig(v float64) string {
	if v == 0 {
		return "0"
	}
	if math.Abs(v) >= 1000 {
		return thousands(int(math.Round(v)))
	}
	d := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return strconv.FormatFloat(v, 'f', d, 64)
}

// roundSig rounds v to four significant digits (the answer's JSON
// numbers).
// factorNum is a factor's number in the JSON, as precise as its sentence
// writes it, so that a table of them shows what the sentence says
// ($37,955.49, not the $37,960 of four significant digits): money to the
// cent, other figures from 1,000 up to the hundredth, smaller ones to
// four significant digits.
func factorNum(v float64, unit string) float64 {
	if strings.HasPrefix(unit, "USD") && math.Abs(v) >= 0.01 || math.Abs(v) >= 1000 {
		return r2(v)
	}
	return roundSig(v)
}

func roundSig(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

func msText(l Lang, v *float64) string {
	if v == nil {
		return msg(l, "unknown")
	}
	return am(l, "ms_v", sig(*v))
}

// sentenceCase capitalises the first letter of an English sentence.
func sentenceCase(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// modeName names a pricing mode in l.
func modeName(l Lang, m string) string {
	if z, ok := modeZh[m]; ok && l == Chinese {
		return z
	}
	return m
}

// levelName names a confidence level (high, medium, low) in l.
func levelName(l Lang, level string) string {
	if _, ok := riskLevels[level]; ok && l == Chinese {
		return am(l, "level_"+level)
	}
	return level
}

// termsAnswer says how the pick's fleet could be paid for, and which way
// wins and why: the cheapest term, and when that is spot, the cheapest one
// whose capacity is held.
func termsAnswer(r *advisor.Result, l Lang) *TermsJSON {
	t := r.Terms
	if t == nil || t.Best < 0 || len(r.Candidates) == 0 {
		return nil
	}
	out := &TermsJSON{Unit: "USD", Best: t.Options[t.Best].Mode.String()}
	if t.Service {
		out.Unit = "USD/month"
	}
	var od *advisor.Term
	for i := range t.Options {
		if t.Options[i].Mode == catalog.OnDemand && t.Options[i].Known {
			od = &t.Options[i]
		}
	}
	money := func(v float64) string {
		if t.Service {
			return am(l, "per_month_v", usd(v))
		}
		return usd(v)
	}
	for _, o := range t.Options {
		j := TermJSON{Pricing: o.Mode.String(), Known: o.Known}
		name := modeName(l, o.Mode.String())
		if !o.Known {
			j.Sentence = am(l, "term_none", name, t.Offer.ID())
			out.Options = append(out.Options, j)
			continue
		}
		j.CostUSD, j.PerHourUSD = fp(r2(o.CostUSD)), fp(r2(o.PerHourUSD))
		rel := ""
		if od != nil && od.CostUSD > 0 && o.Mode != catalog.OnDemand {
			v := o.CostUSD / od.CostUSD
			j.VsOnDemand = fp(math.Round(v*1000) / 1000)
			if v < 1 {
				rel = am(l, "term_less", pct(1-v))
			} else {
				rel = am(l, "term_more", pct(v-1))
			}
		}
		switch {
		case o.BreakEven > 0:
			j.BreakEvenUse, j.Use = fp(math.Round(o.BreakEven*1000)/1000), fp(math.Round(o.Use*1000)/1000)
			key := "term_commit_pays"
			if o.Use < o.BreakEven {
				key = "term_commit_idle"
			}
			j.Sentence = am(l, key, name, money(o.CostUSD), rel, pct(o.BreakEven), pct(o.Use))
			if o.AllUpfrontPerHourUSD > 0 {
				j.AllUpfrontPerHourUSD = fp(r2(o.AllUpfrontPerHourUSD))
				j.Sentence += am(l, "term_upfront", am(l, "per_hour_v", usd(o.AllUpfrontPerHourUSD)))
			}
		case o.Spot != nil:
			j.ExpectedInterruptions = fp(math.Round(o.Spot.ExpectedInterrupts*10) / 10)
			j.HoldProbability = fp(math.Round(o.Spot.HoldProbability*100) / 100)
			if t.Service {
				j.Sentence = am(l, "term_spot_svc", name, money(o.CostUSD), rel, round1(o.Spot.ExpectedInterrupts), pct(o.Spot.DowntimeFraction))
			} else {
				j.Sentence = am(l, "term_spot_job", name, money(o.CostUSD), rel, round1(o.Spot.ExpectedInterrupts), pct(o.Spot.HoldProbability))
			}
		default:
			j.Sentence = am(l, "term_plain", name, money(o.CostUSD), rel)
		}
		out.Options = append(out.Options, j)
	}
	best := t.Options[t.Best]
	bestName := modeName(l, best.Mode.String())
	switch {
	case best.Mode == catalog.Spot && t.Held >= 0:
		held := t.Options[t.Held]
		out.Held = held.Mode.String()
		key := "terms_spot_job"
		if t.Service {
			key = "terms_spot_svc"
		}
		out.Sentence = am(l, key, bestName, money(best.CostUSD), modeName(l, held.Mode.String()), money(held.CostUSD))
		if sc := r.Candidates[0].Plan.Scaling; t.Service && sc != nil && sc.Held > 0 {
			// The plan already holds its quiet hours on capacity spot
			// cannot reclaim.
			out.Sentence = am(l, "terms_spot_svc_based", bestName, money(best.CostUSD), sc.Held, modeName(l, catalog.OnDemand.String()), money(held.CostUSD))
		}
	case best.BreakEven > 0:
		out.Held = best.Mode.String()
		out.Sentence = am(l, "terms_commit", bestName, money(best.CostUSD), pct(best.Use), pct(best.BreakEven))
	default:
		out.Held = best.Mode.String()
		key := "terms_od_job"
		if t.Service {
			key = "terms_od_svc"
		}
		out.Sentence = am(l, key, bestName, money(best.CostUSD))
		if !slices.ContainsFunc(t.Options, func(o advisor.Term) bool { return o.Known && o.BreakEven > 0 }) {
			out.Sentence += am(l, "terms_no_commit", t.Offer.ID())
		}
	}
	return out
}

// pct writes a share as a percentage: whole from 1% ("38%"), with one
// decimal below ("0.4%").
func pct(v float64) string {
	if v > 0 && v < 0.01 {
		return strconv.FormatFloat(math.Round(v*1000)/10, 'f', 1, 64) + "%"
	}
	return strconv.Itoa(int(math.Round(v*100))) + "%"
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
