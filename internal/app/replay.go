package app

import (
	"context"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// PlanReplay is the day of a recommended service plan as the simulator
// replays it: the candidate recommend ranks first, its plan written as a
// service file, that file read back, and the simulator's result.
type PlanReplay struct {
	Candidate *advisor.Candidate
	File      []byte
	Service   *autoscale.Spec
	Result    *autoscale.Result
}

// ReplayRecommended ranks the offers for a service workload as recommend
// does (its plans sized and checked by the simulator) and replays the
// plan of the first: the same file, the same day and the same fleet as
// the check recommend quotes. name is how the service file refers to the
// workload file.
func ReplayRecommended(ctx context.Context, spec *workload.Spec, c *catalog.Catalog, k *Checker, now time.Time, name string) (*PlanReplay, error) {
	if !spec.IsService() {
		field := "inference.requests_per_second"
		switch spec.Kind {
		case workload.KindImageGeneration:
			field = "image.requests_per_second"
		case workload.KindLLMInference:
		default:
			return nil, apperr.Invalidf("kind", "%s is a batch job, not a service: simulate replays a service's day (an llm-inference or image-generation workload with a request rate); recommend -f answers a job", spec.Kind)
		}
		return nil, apperr.Invalidf(field, "not set: %s is a batch job, not a service, and simulate replays a service's day; recommend -f answers a job (a service states its request rate here, and its traffic in the service block)", spec.Name)
	}
	res, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: c, Now: now, Checks: k.Checks(), CheckPlans: true, Context: ctx})
	if err != nil {
		return nil, err
	}
	if len(res.Candidates) == 0 {
		return nil, apperr.Emptyf("nothing qualifies, so there is no plan to replay: %s", res.Summary())
	}
	cand := res.Candidates[0]
	if cand.Plan.Scaling == nil || !cand.Cost.PriceKnown {
		return nil, apperr.Emptyf("%s, the first candidate, has no priced service plan to replay", cand.Offer.ID())
	}
	in := advisor.PlanInput{Spec: spec, Catalog: c}
	b, err := advisor.PlanFile(in, cand, name)
	if err != nil {
		return nil, err
	}
	as, err := autoscale.ParseSpec(b)
	if err != nil {
		return nil, err
	}
	r, err := advisor.ReplayPlan(ctx, in, cand, b)
	if err != nil {
		return nil, err
	}
	return &PlanReplay{Candidate: cand, File: b, Service: as, Result: r}, nil
}
