package report

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

var answerNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// recommendFile runs the advisor on the embedded catalog for a workload
// file, edited by edit (nil: as it is).
func recommendFile(t *testing.T, path string, objective workload.Objective, edit func(*workload.Spec)) *advisor.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := workload.Parse(b, path)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(spec)
	}
	r, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: catalogtest.Embedded(t), Now: answerNow, Objective: objective})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkAnswerProperties checks what every answer of a qualifying result
// must satisfy, whatever the workload.
func checkAnswerProperties(t *testing.T, r *advisor.Result, a AnswerJSON) {
	t.Helper()
	if len(r.Candidates) == 0 {
		t.Fatal("no candidates")
	}
	pick := r.Candidates[0]
	if !a.Qualifies || a.Pick == nil || a.Pick.Rank != 1 || a.Pick.Offer != pick.Offer.ID() || a.Pick.Region != pick.Offer.Region ||
		a.Pick.Pricing != pick.Cost.Mode.String() || a.Pick.GPUs != pick.GPUs {
		t.Errorf("the pick is not candidates[0]: %+v", a.Pick)
	}
	// The runner-up is the first candidate on another instance type.
	var want *advisor.Candidate
	for _, c := range r.Candidates[1:] {
		if c.Offer.Provider != pick.Offer.Provider || c.Offer.InstanceType != pick.Offer.InstanceType {
			want = c
			break
		}
	}
	switch {
	case want == nil && a.RunnerUp != nil:
		t.Errorf("a runner-up %+v with no other instance type", a.RunnerUp)
	case want != nil && (a.RunnerUp == nil || a.RunnerUp.Rank != want.Rank || a.RunnerUp.Offer != want.Offer.ID()):
		t.Errorf("runner-up %+v, want #%d %s", a.RunnerUp, want.Rank, want.Offer.ID())
	case want != nil && a.RunnerUp.Offer == a.Pick.Offer:
		t.Errorf("the runner-up has the pick's instance type %s", a.Pick.Offer)
	}
	// Factor numbers are the candidates' own.
	if want != nil && len(a.Factors) == 0 {
		t.Error("no factors against the runner-up")
	}
	for _, f := range a.Factors {
		var p, q float64
		switch f.Code {
		case "total_cost":
			p, q = pick.Cost.Cost.Total, want.Cost.Cost.Total
		case "cost_per_month":
			p, q = pick.PerMonthUSD, want.PerMonthUSD
		case "duration":
			p, q = pick.DurationHours, want.DurationHours
		case "price_per_hour":
			p, q = pick.Cost.PerHourUSD, want.Cost.PerHourUSD
		case "throughput":
			p, q = pick.Pred.Throughput.Value, want.Pred.Throughput.Value
		case "unit_cost":
			p, q = pick.UnitCost, want.UnitCost
		case "replicas":
			p, q = float64(pick.Plan.Replicas), float64(want.Plan.Replicas)
		case "ttft":
			p, q = *pick.Pred.TTFTMs, *want.Pred.TTFTMs
		case "tpot":
			p, q = *pick.Pred.TPOTMs, *want.Pred.TPOTMs
		default:
			t.Errorf("unknown factor %q", f.Code)
			continue
		}
		if !close4(*f.Pick, factorNum(p, f.Unit)) || !close4(*f.RunnerUp, factorNum(q, f.Unit)) {
			t.Errorf("factor %s: %v vs %v, the candidates have %v vs %v", f.Code, *f.Pick, *f.RunnerUp, p, q)
		}
		if f.Sentence == "" || !strings.Contains(f.Sentence, want.Offer.ID()) {
			t.Errorf("factor %s: sentence %q does not name the runner-up", f.Code, f.Sentence)
		}
		// The sentence and the factor's table (the JSON) give one number:
		// whole from 1,000 up (the page prints no decimals there).
		for _, v := range []float64{*f.Pick, *f.RunnerUp} {
			if v >= 1000 && !strings.Contains(f.Sentence, thousands(int(math.Round(v)))) {
				t.Errorf("factor %s: sentence %q does not give the table's %s", f.Code, f.Sentence, thousands(int(math.Round(v))))
			}
		}
	}
	// Risks most serious first, one sentence each.
	for i := 1; i < len(a.Risks); i++ {
		if riskLevels[a.Risks[i-1].Level] > riskLevels[a.Risks[i].Level] {
			t.Errorf("risks out of order: %s before %s", a.Risks[i-1].Level, a.Risks[i].Level)
		}
	}
	for _, k := range a.Risks {
		if _, ok := riskLevels[k.Level]; !ok || k.Sentence == "" || k.Code == "" {
			t.Errorf("risk %+v", k)
		}
	}
	// The cost adds up and is the pick's.
	if pick.Cost.PriceKnown {
		c := a.Cost
		if c == nil || !close4(c.Total, pick.Cost.Cost.Total) {
			t.Fatalf("cost %+v, the pick costs %v", c, pick.Cost.Cost.Total)
		}
		if sum := c.Compute + c.Storage + c.Egress + c.Setup + c.SpotOverhead; math.Abs(sum-c.Total) > 0.06 {
			t.Errorf("cost parts add to %v, total %v", sum, c.Total)
		}
		if c.P10 != nil && (*c.P10 > c.Total || *c.P90 < c.Total) {
			t.Errorf("cost %v outside its range %v-%v", c.Total, *c.P10, *c.P90)
		}
	}
	if a.Headline == "" || a.ObjectiveSentence == "" {
		t.Error("no headline or objective sentence")
	}
}

func close4(a, b float64) bool { return math.Abs(a-b) <= 1e-3*math.Max(1, math.Abs(b)) }

func TestAnswerTraining(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", "", nil)
	a := BuildAnswer(r, English)
	checkAnswerProperties(t, r, a)
	if a.Service || a.ServiceFigures != nil {
		t.Error("a training job is no service")
	}
	if a.Duration == nil || a.Duration.Value <= 0 || a.Duration.P10 == nil || *a.Duration.P10 > a.Duration.Value {
		t.Errorf("duration %+v", a.Duration)
	}
	if a.Cost == nil || a.Cost.Unit != "USD" {
		t.Errorf("cost %+v", a.Cost)
	}
	if len(a.Factors) == 0 || a.Factors[0].Code != "total_cost" {
		t.Errorf("ranked by cost: the decisive factor is total_cost, got %+v", a.Factors)
	}
	if !strings.HasPrefix(a.Headline, "Run it on "+r.Candidates[0].Offer.ID()) {
		t.Errorf("headline %q", a.Headline)
	}
	// Ranked by time, time is the decisive factor.
	rt := recommendFile(t, "../../examples/llama3-8b-lora.yaml", workload.ObjectiveTime, nil)
	at := BuildAnswer(rt, English)
	checkAnswerProperties(t, rt, at)
	if len(at.Factors) == 0 || at.Factors[0].Code != "duration" || !strings.Contains(at.ObjectiveSentence, "time") {
		t.Errorf("ranked by time: %q, factors %+v", at.ObjectiveSentence, at.Factors)
	}
	// Chinese: the sentences are Chinese, the numbers the same.
	z := BuildAnswer(r, Chinese)
	if !strings.Contains(z.Headline, "选择") || !strings.Contains(z.ObjectiveSentence, "按总成本") || *z.Factors[0].Pick != *a.Factors[0].Pick {
		t.Errorf("Chinese answer: %q / %q", z.Headline, z.ObjectiveSentence)
	}
}

func TestAnswerService(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-70b-chat.yaml", "", nil)
	a := BuildAnswer(r, English)
	checkAnswerProperties(t, r, a)
	pick := r.Candidates[0]
	s := a.ServiceFigures
	if !a.Service || s == nil || a.Duration != nil {
		t.Fatalf("a service: %+v, duration %+v", s, a.Duration)
	}
	if s.Replicas != pick.Plan.Replicas || !close4(*s.PerMonthUSD, pick.PerMonthUSD) || !close4(*s.PerHourUSD, pick.PerHourUSD) {
		t.Errorf("service figures %+v, the plan has %d replicas at %v/month", s, pick.Plan.Replicas, pick.PerMonthUSD)
	}
	if s.SLOTTFTMs == nil || *s.SLOTTFTMs != 500 || s.SLOTPOTMs == nil || *s.SLOTPOTMs != 50 {
		t.Errorf("the SLO of the workload: %+v", s)
	}
	if a.Cost.Unit != "USD/month" || a.Factors[0].Code != "cost_per_month" {
		t.Errorf("a service is priced per month: %s, first factor %s", a.Cost.Unit, a.Factors[0].Code)
	}
	if !strings.Contains(a.Headline, "replica") || !strings.Contains(a.Headline, "per month") {
		t.Errorf("headline %q", a.Headline)
	}
}

func TestAnswerNothingQualifies(t *testing.T) {
	// The LoRA job in six minutes: every candidate misses the deadline.
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", "", func(s *workload.Spec) { s.Constraints.DeadlineHours = 0.1 })
	if len(r.Candidates) != 0 {
		t.Skipf("%d candidates finish in 6 minutes", len(r.Candidates))
	}
	a := BuildAnswer(r, English)
	if a.Qualifies || a.Pick != nil || a.RunnerUp != nil || a.Cost != nil || len(a.Risks) != 0 {
		t.Errorf("nothing qualifies, yet %+v", a)
	}
	if !strings.HasPrefix(a.Headline, "Nothing qualifies") {
		t.Errorf("headline %q", a.Headline)
	}
	// The near-miss on the deadline is the fastest non-spot exclusion.
	fastest := math.Inf(1)
	for _, x := range r.Excluded {
		if x.ReasonCode == advisor.ReasonDeadline && x.Pricing != "spot" {
			fastest = math.Min(fastest, float64(x.DurationHours))
		}
	}
	var got *NearMissJSON
	for i, n := range a.NearMisses {
		if n.Constraint == advisor.RelaxDeadline.Field() {
			got = &a.NearMisses[i]
			break
		}
	}
	if got == nil {
		t.Fatalf("no deadline near-miss: %+v", a.NearMisses)
	}
	if *got.Needed != math.Ceil(fastest*10)/10 || !strings.Contains(a.Headline, got.Offer) {
		t.Errorf("near-miss needs %v h, the fastest excluded takes %v h; headline %q", *got.Needed, fastest, a.Headline)
	}
	if !strings.Contains(got.Sentence, "deadline of") {
		t.Errorf("sentence %q", got.Sentence)
	}
}

func TestMaxGPUsExclusionHasItsOwnCode(t *testing.T) {
	// Ranked by time, a larger instance would beat the pick: a near-miss
	// worth naming.
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", workload.ObjectiveTime, func(s *workload.Spec) { s.Constraints.MaxGPUs = 4 })
	n := 0
	for _, x := range r.Excluded {
		if strings.Contains(x.Reason.String(), "constraints.max_gpus") && strings.HasPrefix(x.Reason.String(), "one instance has") {
			n++
			if x.ReasonCode != advisor.ReasonMaxGPUs || x.Relax != advisor.RelaxMaxGPUs || x.Needed <= 4 {
				t.Errorf("%+v", x)
			}
		}
	}
	if n == 0 {
		t.Fatal("no offer with more than 4 GPUs excluded")
	}
	a := BuildAnswer(r, English)
	found := false
	for _, m := range a.NearMisses {
		if m.Constraint == advisor.RelaxMaxGPUs.Field() {
			found = true
			if *m.Needed <= 4 || !strings.Contains(m.Sentence, "now 4") {
				t.Errorf("%+v", m)
			}
		}
	}
	if !found {
		t.Error("no max_gpus near-miss")
	}
}

// BenchmarkBuildAnswer measures the answer on the API's hot path, for a
// result of the embedded catalog (thousands of candidates and exclusions).
func BenchmarkBuildAnswer(b *testing.B) {
	t := &testing.T{}
	for _, f := range []string{"llama3-8b-lora", "llama3-70b-chat"} {
		r := recommendFile(t, "../../examples/"+f+".yaml", "", nil)
		b.Run(f, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = BuildAnswer(r, English)
			}
		})
	}
}

// TestAnswerOtherPricingMode: when no candidate has a price in the modes
// asked for, the near-misses say which other mode would give one.
func TestAnswerOtherPricingMode(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", "", func(s *workload.Spec) {
		s.Constraints.Pricing = []workload.PricingMode{"monthly"}
	})
	for _, c := range r.Candidates {
		if c.Cost.PriceKnown {
			t.Skipf("%s has a monthly price", c.Offer.ID())
		}
	}
	a := BuildAnswer(r, English)
	n := 0
	for _, m := range a.NearMisses {
		if m.Constraint != "constraints.pricing" {
			continue
		}
		n++
		if m.Pricing == "monthly" || m.Pricing == "" || !strings.Contains(m.Sentence, "would qualify on "+m.Pricing) {
			t.Errorf("%+v", m)
		}
	}
	if n == 0 || n > maxOtherModesShown {
		t.Errorf("%d pricing near-misses: %+v", n, a.NearMisses)
	}
	// With a priced candidate, nothing is evaluated twice.
	if r2 := recommendFile(t, "../../examples/llama3-8b-lora.yaml", "", nil); len(r2.OtherModes) != 0 {
		t.Errorf("other modes evaluated although candidates are priced: %d", len(r2.OtherModes))
	}
}

// maxOtherModesShown is advisor's bound on other-mode candidates.
const maxOtherModesShown = 3

// TestRecommendationInLanguage: the API's document carries its sentences
// in the language asked for, and its codes and numbers unchanged.
func TestRecommendationInLanguage(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", "", func(s *workload.Spec) { s.Constraints.MaxGPUs = 4 })
	en := RecommendationIn("x", "llm-finetune", r, 10, English)
	zh := RecommendationIn("x", "llm-finetune", r, 10, Chinese)
	if en.Summary.String() != r.Summary().String() || !strings.Contains(zh.Summary.String(), "共评估") || !strings.Contains(zh.Summary.String(), reasonMaxGPUsZh) {
		t.Errorf("summary: %q / %q", en.Summary, zh.Summary)
	}
	if !strings.Contains(zh.Answer.Headline, "选择") || en.Answer.Pick.Offer != zh.Answer.Pick.Offer || *en.Answer.Pick.TotalUSD != *zh.Answer.Pick.TotalUSD {
		t.Errorf("answer: %q / %q", en.Answer.Headline, zh.Answer.Headline)
	}
}

// TestCloseCallRisk: #1 within the model's error of the best other
// instance type is a risk; a tie with #1's own instance type elsewhere
// (#2 in another region) is not, nor is a clear lead over the other type.
func TestCloseCallRisk(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", "", nil)
	pick := r.Candidates[0]
	has := func() bool {
		for _, k := range BuildAnswer(r, English).Risks {
			if k.Code == "close_call" {
				return true
			}
		}
		return false
	}
	other := advisor.Alternative{Kind: advisor.AltInstanceType, Rank: 3, Offer: "other/type", GPU: "x", Probability: 0.55}
	r.ConfidenceVsNext = &advisor.Confidence{Probability: 0.55, Basis: "cost", Next: "other/type", GPU: pick.Offer.GPU, NextGPU: "x",
		Alternatives: []advisor.Alternative{other}}
	if !has() {
		t.Error("a close call against another instance type is a risk")
	}
	r.ConfidenceVsNext.Next, r.ConfidenceVsNext.Alternatives = pick.Offer.ID(), nil
	if has() {
		t.Error("a tie with the same instance type elsewhere is no risk")
	}
	other.Probability, other.Distinguishable = 0.9, true
	r.ConfidenceVsNext.Alternatives = []advisor.Alternative{other}
	if has() {
		t.Error("a tie with #1's type elsewhere and a clear lead over the other type is no risk")
	}
}

// TestServiceMaxGPUsNearMiss: a service no fleet within max_gpus can
// serve names the max_gpus the model estimates, and with it the offer
// does qualify.
func TestServiceMaxGPUsNearMiss(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-70b-chat.yaml", "", func(s *workload.Spec) { s.Constraints.MaxGPUs = 4 })
	var near *NearMissJSON
	a := BuildAnswer(r, English)
	for i, n := range a.NearMisses {
		if n.Constraint == advisor.RelaxMaxGPUs.Field() && strings.Contains(n.Sentence, "would serve the load") {
			near = &a.NearMisses[i]
			break
		}
	}
	if near == nil {
		t.Fatal("no max_gpus near-miss for a service that needs more GPUs")
	}
	needed := int(*near.Needed)
	r2 := recommendFile(t, "../../examples/llama3-70b-chat.yaml", "", func(s *workload.Spec) { s.Constraints.MaxGPUs = needed })
	for _, c := range r2.Candidates {
		if c.Offer.ID() == near.Offer && c.Offer.Region == near.Region {
			if c.GPUs > needed {
				t.Errorf("%s qualifies with %d GPUs, more than the %d named", near.Offer, c.GPUs, needed)
			}
			return
		}
	}
	t.Errorf("%s in %s does not qualify with max_gpus %d: %s", near.Offer, near.Region, needed, near.Sentence)
}

// TestAnswerWhenNothingHasAPrice: when no qualifying candidate has a
// published price (here: only monthly terms accepted, which the offers
// that qualify do not publish), the answer
// does not call its #1 the cheapest: it says none can be ranked by cost,
// names the fastest and asks for a quote, and warns of no stale price for
// a price that does not exist.
func TestAnswerWhenNothingHasAPrice(t *testing.T) {
	r := recommendFile(t, "../../examples/llama3-8b-lora.yaml", workload.ObjectiveCost, func(s *workload.Spec) {
		s.Constraints.Pricing = []workload.PricingMode{"monthly"}
	})
	for _, c := range r.Candidates {
		if c.Cost.PriceKnown {
			t.Skipf("%s has a price: the case is gone from the catalog", c.Offer.ID())
		}
	}
	if len(r.Candidates) < 2 {
		t.Fatalf("%d candidates", len(r.Candidates))
	}
	for i := 1; i < len(r.Candidates); i++ {
		if r.Candidates[i].DurationHours < r.Candidates[i-1].DurationHours {
			t.Errorf("#%d (%.1f h) is faster than #%d (%.1f h): unpriced candidates are ordered by time", i+1, r.Candidates[i].DurationHours, i, r.Candidates[i-1].DurationHours)
		}
	}
	for _, l := range []Lang{English, Chinese} {
		a := BuildAnswer(r, l)
		checkAnswerProperties(t, r, a)
		if a.ObjectiveSentence != am(l, "obj_noprice") {
			t.Errorf("%s: objective sentence %q", l, a.ObjectiveSentence)
		}
		if !strings.Contains(a.Headline, r.Candidates[0].Offer.ID()) || strings.Contains(a.Headline, "cheapest") {
			t.Errorf("%s: headline %q", l, a.Headline)
		}
		for _, k := range a.Risks {
			if k.Code == "stale_price" || k.Code == "old_price" {
				t.Errorf("%s: a price that does not exist is called stale: %+v", l, k)
			}
		}
	}
	if a := BuildAnswer(r, English); !strings.Contains(a.Headline, "No candidate that meets every constraint has a published price") {
		t.Errorf("headline %q", a.Headline)
	}
}

// TestEvidenceUnitsInChinese: every unit a published measurement states,
// rendered in Chinese, keeps no English word (token, GPU and HPU are how
// Chinese readers write them; FLOP and GiB are units, and single letters
// the s of FLOP/s and the k of thousands).
func TestEvidenceUnitsInChinese(t *testing.T) {
	keep := map[string]bool{"token": true, "gpu": true, "hpu": true, "tflop": true, "pflop": true, "gib": true}
	seen := map[string]bool{}
	for _, r := range perf.EvidenceRows() {
		if seen[r.Unit] {
			continue
		}
		seen[r.Unit] = true
		zh := evidenceUnit(Chinese, r.Unit)
		for _, w := range strings.FieldsFunc(strings.ToLower(zh), func(c rune) bool { return c < 'a' || c > 'z' }) {
			if !keep[w] && len(w) > 1 {
				t.Errorf("unit %q reads %q in Chinese: %q is English", r.Unit, zh, w)
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("only %d units in the embedded evidence", len(seen))
	}
}
