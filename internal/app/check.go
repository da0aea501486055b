package app

import (
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

// Check judges spec's stack and compliance on an offer (in region, or the
// first region that passes compliance) or, with gpu alone, its stack on an
// accelerator: compliance is a property of an offer in a region, so without
// one every requirement is unknown and says so. With an offer the result
// carries the due-diligence list: the documents to read or request before
// signing, its sentences in l. check and POST /api/v1/check both print
// what this returns.
func Check(spec *workload.Spec, c *catalog.Catalog, m *compat.Matrix, f Fields, gpu, offer, region string, l report.Lang) (report.CheckJSON, error) {
	var v report.CheckJSON
	var a *catalog.Accelerator
	var o *catalog.Offer
	switch {
	case offer != "":
		var err error
		if o, err = FindOffer(c, f, offer); err != nil {
			return v, err
		}
		if o, _, err = PickRegion(c, f, o, region, spec.Compliance, catalog.OnDemand); err != nil {
			return v, err
		}
		a, _ = c.OfferAccelerator(o)
		if gpu != "" && !strings.EqualFold(gpu, a.ID) {
			if b, ok := c.Accelerator(gpu); !ok || b.ID != a.ID {
				return v, apperr.Invalidf(f.GPU, "%s has %s, not %s", o.ID(), a.ID, gpu)
			}
		}
	case gpu != "":
		var ok bool
		if a, ok = c.Accelerator(gpu); !ok {
			return v, apperr.NotFoundf(f.GPU, "unknown accelerator %q (see gpupick gpus)", gpu)
		}
	default:
		return v, apperr.Invalidf(f.GPU, "give %s ID or %s PROVIDER/INSTANCE", f.GPU, f.Offer)
	}
	v.GPU = a.ID
	if o == nil {
		v.Compat = m.Check(spec.Stack, a, "")
		v.Compliance = report.ComplianceView(report.NotChecked(compliance.Check(spec.Compliance, compliance.Facts{GPU: a, GPUs: a.GPUsPerServer})), l)
		return v, nil
	}
	facts := compliance.FactsFor(c, o, 0)
	v.Offer, v.Region, v.ComplianceChecked = o.ID(), o.Region, true
	v.Compat = m.Check(spec.Stack, a, o.Driver)
	res := compliance.Check(spec.Compliance, facts)
	v.Compliance = report.ComplianceView(res, l)
	dd := compliance.DueDiligence(spec.Compliance, facts, res)
	for i := range dd {
		// Without a link on the offer, the support list is the one the
		// stack verdict cites.
		if d := &dd[i]; d.Document == compliance.DocCompatList && d.Where == "" {
			for _, r := range v.Compat.Reasons {
				if u := compliance.FirstURL(r.Source); u != "" {
					d.Where, d.Source, d.Access = u, r.Source, compliance.AccessPublished
					break
				}
			}
		}
	}
	v.DueDiligence = report.DiligenceView(dd, l)
	return v, nil
}
