package app

import (
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/workload"
)

// Over the embedded catalog: an independent host's machine (marketplace or
// community) is never a candidate of a workload with compliance
// requirements or of a production service unless compliance.operators
// allows it; each refusal for the operator carries its code and sentence;
// with the allowance, hosts come back (where nothing else refuses them:
// an allowance does not make a host's own jurisdiction known, so
// exclude_jurisdictions still leaves it unknown).
func TestIndependentHostsNeedAnAllowance(t *testing.T) {
	c := catalogtest.Embedded(t)
	k := NewChecker(matrix(t), c)
	// The providers with hosts, and two that run their own machines, keep
	// the run short; the rule does not depend on who else is there.
	const scope = "constraints: {providers: [vastai, tensordock, hyperbolic, runpod, lambda, nebius], max_gpus: 8}\n"
	for _, tc := range []struct {
		name, yaml string
	}{
		{"production service", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 500, output_tokens: 100, requests_per_second: 2}\n" + scope},
		{"GDPR service", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 500, output_tokens: 100, requests_per_second: 2}\ncompliance: {countries: [EU]}\n" + scope},
		{"job with a compliance block", "kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e8}\ncompliance: {countries: [DE, FR, NL, PL, CZ]}\n" + scope},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := workload.Parse([]byte(tc.yaml), "w.yaml")
			if err != nil {
				t.Fatal(err)
			}
			host := func(offer string) bool {
				o, err := FindOffer(c, JSON, offer)
				return err == nil && o.Operator.Kind.ThirdPartyHost()
			}
			run := func() *advisor.Result {
				r, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: c, Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), Checks: k.Checks()})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			r := run()
			for _, cand := range r.Candidates {
				if cand.Offer.Operator.Kind.ThirdPartyHost() {
					t.Fatalf("%s (%s) is a candidate, operators %v", cand.Offer.Key(), cand.Offer.Operator.Kind, spec.Compliance.Operators)
				}
			}
			refused := 0
			for _, x := range r.Excluded {
				if x.ReasonCode == advisor.ReasonOperator {
					refused++
					if !host(x.Offer) || !strings.Contains(x.Reason.String(), "operator fail: ") || !strings.Contains(x.Reason.String(), "independent host") && !strings.Contains(x.Reason.String(), "individual host") {
						t.Errorf("%s@%s: refused for its operator with %q", x.Offer, x.Region, x.Reason.String())
					}
				}
			}
			if refused == 0 || len(r.Candidates) == 0 {
				t.Fatalf("%d refused for the operator, %d candidates: the property tests nothing", refused, len(r.Candidates))
			}

			spec.Compliance.Operators = workload.Operators()
			r = run()
			back := 0
			for _, cand := range r.Candidates {
				if cand.Offer.Operator.Kind.ThirdPartyHost() {
					back++
				}
			}
			for _, x := range r.Excluded {
				if x.ReasonCode == advisor.ReasonOperator {
					t.Errorf("%s refused for its operator although every operator is allowed", x.Offer)
				}
			}
			if back == 0 {
				t.Error("with every operator allowed, no independent host's machine came back")
			}
			t.Logf("%d refusals for the operator; with the allowance %d host candidates of %d", refused, back, len(r.Candidates))
		})
	}
}
