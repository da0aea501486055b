package app

import (
	"os"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/workload"
)

var portingNow = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

// recommendAt recommends spec (YAML) with engineer_day_usd set to rate
// (nil: the file's), with the stack and compliance checks.
func recommendAt(t *testing.T, yaml []byte, rate *float64) *advisor.Result {
	t.Helper()
	spec, err := workload.Parse(yaml, "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if rate != nil {
		spec.Constraints.EngineerDayUSD = rate
	}
	c := catalogtest.Embedded(t)
	res, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: c, Now: portingNow, Checks: NewChecker(matrix(t), c).Checks()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func key(c *advisor.Candidate) string { return c.Offer.Key() + " " + c.Cost.Mode.String() }

// A needs-work candidate's total includes its porting, priced at
// engineer_day_usd; 0 removes the line and nothing else; the ported
// candidates fall in the ranking by what they pay; the example's TPU wins
// unpriced and loses priced.
func TestPortingIsPricedAndRanked(t *testing.T) {
	b, err := os.ReadFile("../../examples/llama3-8b-chat-tpu.yaml")
	if err != nil {
		t.Fatal(err)
	}
	zero := 0.0
	priced, free := recommendAt(t, b, nil), recommendAt(t, b, &zero)
	freeBy := map[string]*advisor.Candidate{}
	for _, c := range free.Candidates {
		freeBy[key(c)] = c
		if c.Cost.Cost.Porting != 0 {
			t.Errorf("%s: porting line %g at engineer_day_usd 0", key(c), c.Cost.Cost.Porting)
		}
	}
	ported := 0
	for _, c := range priced.Candidates {
		e, p := c.Cost, c.Cost.Porting
		sum := e.Cost.Compute + e.Cost.Storage + e.Cost.Egress + e.Cost.Setup + e.Cost.SpotOverhead + e.Cost.Porting
		if d := sum - e.Cost.Total; d > 1e-6 || d < -1e-6 {
			t.Errorf("%s: lines add up to %g, total %g", key(c), sum, e.Cost.Total)
		}
		f := freeBy[key(c)]
		if f == nil {
			t.Errorf("%s ranked with porting priced, absent without", key(c))
			continue
		}
		if p == nil {
			if f.Cost.Cost.Total != e.Cost.Total {
				t.Errorf("%s needs no work, yet its total moved from %g to %g", key(c), f.Cost.Cost.Total, e.Cost.Total)
			}
			continue
		}
		ported++
		if !(p.EngineerDays > 0 && p.DelayDays > 0 && len(p.Kinds) > 0) || p.USD != p.EngineerDays*workload.DefaultEngineerDayUSD || e.Cost.Porting != p.USD {
			t.Errorf("%s: porting %+v, line %g", key(c), p, e.Cost.Porting)
		}
		if d := e.Cost.Total - f.Cost.Cost.Total - p.USD; d > 1e-6 || d < -1e-6 {
			t.Errorf("%s: total %g priced, %g unpriced, porting %g", key(c), e.Cost.Total, f.Cost.Cost.Total, p.USD)
		}
		if c.Rank < f.Rank {
			t.Errorf("%s rose from #%d to #%d when its porting was priced", key(c), f.Rank, c.Rank)
		}
	}
	if ported == 0 {
		t.Fatal("no ported candidate in the example")
	}
	if p := free.Candidates[0].Cost.Porting; p == nil {
		t.Errorf("unpriced, #1 is %s, not a ported TPU", key(free.Candidates[0]))
	}
	if p := priced.Candidates[0].Cost.Porting; p != nil {
		t.Errorf("priced, #1 is still the ported %s", key(priced.Candidates[0]))
	}
}

// A batch job waits for its porting: the delay is in its time, and a
// deadline shorter than the delay excludes every ported candidate.
func TestPortingDelaysAJob(t *testing.T) {
	job := "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: lora, tokens: 2e8}\nstack: {framework: pytorch}\nconstraints: {providers: [gcp], max_gpus: 8}\n"
	res := recommendAt(t, []byte(job), nil)
	ported := 0
	for _, c := range res.Candidates {
		p := c.Cost.Porting
		if p == nil {
			continue
		}
		ported++
		if c.DurationHours < p.DelayDays*24+c.Cost.ProductiveHours {
			t.Errorf("%s: %g h, less than its %g days' delay and %g h of work", key(c), c.DurationHours, p.DelayDays, c.Cost.ProductiveHours)
		}
	}
	if ported == 0 {
		t.Fatal("no ported candidate (PyTorch on TPU)")
	}
	short := job[:len(job)-len("}\n")] + ", deadline_hours: 72}\n"
	res = recommendAt(t, []byte(short), nil)
	for _, c := range res.Candidates {
		if c.Cost.Porting != nil && c.Cost.Porting.DelayDays*24 > 72 {
			t.Errorf("%s waits %g days for its porting, yet meets a 72 h deadline", key(c), c.Cost.Porting.DelayDays)
		}
	}
}

// A QLoRA fine-tune needs bitsandbytes, which has no TPU or AWS Neuron
// backend: no such candidate is ever offered, and each is excluded as
// incompatible.
func TestQLoRANeverOnTPUOrNeuron(t *testing.T) {
	res := recommendAt(t, []byte("kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {method: qlora, tokens: 2e8}\nconstraints: {providers: [gcp, aws], max_gpus: 8}\n"), nil)
	c := catalogtest.Embedded(t)
	vendor := func(gpu string) string {
		if a, ok := c.Accelerator(gpu); ok {
			return a.Vendor
		}
		return ""
	}
	for _, x := range res.Candidates {
		if v := vendor(x.Offer.GPU); v == "google" || v == "aws" {
			t.Errorf("a QLoRA candidate on %s (%s)", x.Offer.Key(), x.Offer.GPU)
		}
	}
	gpuOf := map[string]string{}
	for _, o := range c.Offers {
		gpuOf[o.ID()] = o.GPU
	}
	excluded := 0
	for _, x := range res.Excluded {
		if v := vendor(gpuOf[x.Offer]); v == "google" || v == "aws" {
			excluded++
			if x.ReasonCode != advisor.ReasonIncompatible {
				t.Errorf("%s in %s excluded as %s, want %s", x.Offer, x.Region, x.ReasonCode, advisor.ReasonIncompatible)
			}
		}
	}
	if excluded == 0 {
		t.Fatal("no TPU or Neuron offer was judged")
	}
	if len(res.Candidates) == 0 {
		t.Fatal("no candidate at all")
	}
}
