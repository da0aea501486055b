package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/workload"
)

// TestAnswerSaysAlternativesAndDeadlineRisk: the LoRA example's answer
// says, in English and Chinese, how sure #1 is against the best other
// instance type (and names it), and, with a deadline its range crosses
// (between its median time and its p90), the chance of missing it and the
// cheapest candidate that meets it at p90, with the cost difference; its
// JSON carries the same numbers.
func TestAnswerSaysAlternativesAndDeadlineRisk(t *testing.T) {
	const file = "../../examples/llama3-8b-lora.yaml"
	// On demand only (a spot #1 whose interruptions alone would miss the
	// deadline is excluded instead): a deadline between #1's time and its
	// p90 keeps it #1, and its 80% range crosses the deadline.
	onDemand := func(s *workload.Spec) { s.Constraints.Pricing = []workload.PricingMode{workload.PricingOnDemand} }
	first := recommendFile(t, file, "", onDemand).Candidates[0]
	deadline := (first.DurationHours + first.DurationHoursP90) / 2
	r := recommendFile(t, file, "", func(s *workload.Spec) { onDemand(s); s.Constraints.DeadlineHours = deadline })
	if r.DeadlineRisk == nil || r.DeadlineRisk.Safe == nil {
		t.Fatalf("the example's #1 should cross its deadline and have a safe alternative: %+v", r.DeadlineRisk)
	}
	for _, l := range []Lang{English, Chinese} {
		a := BuildAnswer(r, l)
		cv, dl := a.Confidence, a.DeadlineRisk
		if cv == nil || len(cv.Alternatives) == 0 || dl == nil || dl.Safe == nil {
			t.Fatalf("%s: confidence %+v, deadline risk %+v", l, cv, dl)
		}
		alt := cv.Alternatives[0]
		want := map[Lang][]string{
			English: {alt.Offer, "another instance type", fmt.Sprintf("%.0f%%", 100*alt.Probability)},
			Chinese: {alt.Offer, "另一机型", fmt.Sprintf("%.0f%%", 100*alt.Probability)},
		}[l]
		for _, w := range want {
			if !strings.Contains(cv.Sentence.String(), w) {
				t.Errorf("%s: how sure %q lacks %q", l, cv.Sentence, w)
			}
		}
		want = map[Lang][]string{
			English: {pct(dl.PMiss) + " chance of missing", dl.Safe.Offer, usd(*dl.ExtraUSD) + " more", "meets it at p90"},
			Chinese: {"错过的概率为 " + pct(dl.PMiss), dl.Safe.Offer, "贵 " + usd(*dl.ExtraUSD), "p90"},
		}[l]
		for _, w := range want {
			if !strings.Contains(dl.Sentence, w) {
				t.Errorf("%s: deadline risk %q lacks %q", l, dl.Sentence, w)
			}
		}
		if strings.Contains(cv.Sentence.String()+dl.Sentence, "%!") {
			t.Errorf("%s: a bad format in %q / %q", l, cv.Sentence, dl.Sentence)
		}
		found := false
		for _, k := range a.Risks {
			found = found || k.Code == "deadline" && k.Sentence == dl.Sentence
		}
		if !found {
			t.Errorf("%s: the deadline risk is not among the risks: %+v", l, a.Risks)
		}
		if *dl.ExtraUSD <= 0 || dl.PMiss <= advisor.OnTimeAt || dl.PMiss > 1 || *dl.SafeHoursP90 > dl.DeadlineHours {
			t.Errorf("%s: %+v", l, dl)
		}
	}
	// The candidates carry their chance of missing the deadline.
	d := Recommendation("x", "llm-finetune", r, 10)
	if p := d.Candidates[0].PMissDeadline; p == nil || *p != d.Answer.DeadlineRisk.PMiss {
		t.Errorf("#1's p_miss_deadline %v, the answer's %v", p, d.Answer.DeadlineRisk.PMiss)
	}
}

// TestSureTextAccelerator: the sentence names the other accelerator
// within 20% with how far behind it is, in both languages, and a probe of
// the accelerators that cannot be told apart.
func TestSureTextAccelerator(t *testing.T) {
	c := &advisor.Confidence{Basis: "cost", GPU: "h100-sxm", Alternatives: []advisor.Alternative{
		{Kind: advisor.AltInstanceType, Rank: 3, Offer: "a/other", GPU: "h100-sxm", Probability: 0.91, Distinguishable: true, Behind: 0.04},
		{Kind: advisor.AltAccelerator, Rank: 5, Offer: "b/amd", GPU: "mi300x", Probability: 0.66, Behind: 0.12}}}
	en, zh := sureText(English, c), sureText(Chinese, c)
	for _, w := range []string{"a/other (#3, another instance type) with probability 91%", "b/amd (#5) on mi300x", "12% behind", "66%", "trial servers of h100-sxm and mi300x"} {
		if !strings.Contains(en, w) {
			t.Errorf("%q lacks %q", en, w)
		}
	}
	for _, w := range []string{"a/other（第 3 名，另一机型）更便宜的概率为 91%", "b/amd（第 5 名，另一种加速卡 mi300x", "落后第 1 名 12%", "66%", "h100-sxm 和 mi300x 的试用服务器"} {
		if !strings.Contains(zh, w) {
			t.Errorf("%q lacks %q", zh, w)
		}
	}
}
