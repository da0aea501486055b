package report

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/workload"
)

// recommendChecked is recommend as the CLI runs it: a service's plan is
// replayed by the simulator before it is quoted.
func recommendChecked(t *testing.T, spec *workload.Spec) *advisor.Result {
	t.Helper()
	r, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: catalogtest.Embedded(t), Now: answerNow, CheckPlans: true})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// relaxed is spec with the near-miss's relaxation applied, as a user
// would write it into the file.
func relaxed(spec *workload.Spec, n NearMissJSON) (*workload.Spec, error) {
	s := *spec
	switch n.Constraint {
	case advisor.RelaxDeadline.Field():
		s.Constraints.DeadlineHours = *n.Needed
	case advisor.RelaxBudget.Field():
		s.Constraints.BudgetUSD = *n.Needed
	case advisor.RelaxMaxGPUs.Field():
		s.Constraints.MaxGPUs = int(*n.Needed)
	case "constraints.pricing":
		s.Constraints.Pricing = append(slices.Clone(s.Constraints.Pricing), workload.PricingMode(n.Pricing))
	default:
		return nil, fmt.Errorf("unknown constraint %q", n.Constraint)
	}
	return &s, nil
}

// holds checks that every near-miss of spec's answer, applied to the
// file, admits the candidate it names (offer, region and pricing) within
// the relaxed constraint. It returns how many near-misses it checked.
// short checks the first near-miss per constraint only.
func holds(t *testing.T, name string, spec *workload.Spec, short bool) int {
	t.Helper()
	r := recommendChecked(t, spec)
	a := BuildAnswer(r, English)
	checked := map[string]bool{}
	n := 0
	for _, m := range a.NearMisses {
		if short && checked[m.Constraint] {
			continue
		}
		checked[m.Constraint] = true
		s, err := relaxed(spec, m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		n++
		r2 := recommendChecked(t, s)
		i := slices.IndexFunc(r2.Candidates, func(c *advisor.Candidate) bool {
			return c.Offer.ID() == m.Offer && c.Offer.Region == m.Region && (m.Pricing == "" || c.Cost.Mode.String() == m.Pricing)
		})
		if i < 0 {
			why := "not evaluated"
			for _, x := range r2.Excluded {
				if x.Offer == m.Offer && x.Region == m.Region && (m.Pricing == "" || x.Pricing == "" || x.Pricing == m.Pricing) {
					why = x.ReasonCode + ": " + x.Reason.String()
				}
			}
			t.Errorf("%s: %q\n  applied (%s), %s in %s (%s) does not qualify: %s", name, m.Sentence, m.Constraint, m.Offer, m.Region, m.Pricing, why)
			continue
		}
		c := r2.Candidates[i]
		k := s.Constraints
		switch m.Constraint {
		case advisor.RelaxMaxGPUs.Field():
			if c.GPUs > k.MaxGPUs {
				t.Errorf("%s: %s qualifies with %d GPUs, more than the %d named", name, m.Offer, c.GPUs, k.MaxGPUs)
			}
		case advisor.RelaxDeadline.Field():
			if c.DurationHours > k.DeadlineHours {
				t.Errorf("%s: %s takes %.2f h, past the %.1f h named", name, m.Offer, c.DurationHours, k.DeadlineHours)
			}
		}
	}
	return n
}

// tightened makes a file that misses: its pick's own time, cost or GPUs
// (the first of them, in an order drawn from rng, that the pick has) cut
// by a factor drawn from rng, so that the answer has near-misses to
// name. It returns nil when the pick gives nothing to tighten.
func tightened(spec *workload.Spec, pick *advisor.Candidate, rng *rand.Rand) *workload.Spec {
	s := *spec
	cut := 0.3 + 0.5*rng.Float64()
	for _, k := range rng.Perm(3) {
		switch {
		case k == 0 && pick.DurationHours > 0 && !spec.IsService():
			if d := math.Round(pick.DurationHours*cut*10) / 10; d > 0 {
				s.Constraints.DeadlineHours = d
				return &s
			}
		case k == 1 && pick.Cost.PriceKnown && pick.Cost.Cost.Total >= 4:
			s.Constraints.BudgetUSD = math.Floor(pick.Cost.Cost.Total * cut)
			return &s
		case k == 2 && pick.GPUs > 1:
			s.Constraints.MaxGPUs = max(1, int(float64(pick.GPUs)*cut))
			return &s
		}
	}
	return nil
}

var allNearMisses = flag.Bool("nearmiss.all", false, "TestNearMissesHold applies every near-miss of two generated files per example (minutes)")

// TestNearMissesHold: every near-miss the answer names, applied to the
// file, yields the candidate it names: over every example, and over files
// made from them by cutting a constraint below what their pick needs.
// By default it applies the first near-miss per constraint of one file
// generated per example; -short the examples alone; -nearmiss.all every
// near-miss of two generated files per example.
func TestNearMissesHold(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	perFile, every := 1, *allNearMisses
	switch {
	case every:
		perFile = 2
	case testing.Short():
		perFile = 0
	}
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "kind:") && !strings.Contains(string(b), "\nkind:") {
			continue // a simulate file (examples/service-*.yaml), not a workload
		}
		spec, err := workload.Parse(b, f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		// Each example draws from a stream of its own, so that adding an
		// example changes nothing the others generate.
		h := fnv.New64a()
		h.Write([]byte(name))
		rng := rand.New(rand.NewPCG(25, h.Sum64()))
		t.Run(name, func(t *testing.T) {
			r := recommendChecked(t, spec)
			total += holds(t, name, spec, !every)
			if len(r.Candidates) == 0 {
				return
			}
			for i := 0; i < perFile; i++ {
				s := tightened(spec, r.Candidates[0], rng)
				if s == nil {
					continue
				}
				k := s.Constraints
				t.Logf("generated: deadline %g h, budget $%g, max_gpus %d", s.Constraints.DeadlineHours, s.Constraints.BudgetUSD, s.Constraints.MaxGPUs)
				total += holds(t, fmt.Sprintf("%s (deadline %g h, budget $%g, max_gpus %d)", name, k.DeadlineHours, k.BudgetUSD, k.MaxGPUs), s, !every)
			}
		})
	}
	t.Logf("%d near-misses applied", total)
	// Most generated files leave nothing qualifying; fewer near-misses
	// than a third of the examples means the generator has stopped making
	// files that miss.
	if perFile > 0 && total < len(files)/3 {
		t.Errorf("only %d near-misses checked over %d examples: the generator makes too few", total, len(files))
	}
}
