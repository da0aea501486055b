package advisor

import (
	"math"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Term is one way to pay for a candidate's fleet: a pricing mode, what it
// costs for the job (a service: a month), and for a commitment the share of
// the term the capacity must be busy for it to beat on-demand.
type Term struct {
	Mode catalog.Mode
	// CostUSD is the total (a service: per month) in this mode; Known is
	// false when the offer has no price in it.
	Known      bool
	CostUSD    float64
	PerHourUSD float64 // the fleet's price per hour
	// BreakEven is a commitment's price over on-demand's: the share of the
	// term the capacity must be used for it to cost less (0 for on-demand
	// and spot). Use is the share this job or service uses.
	BreakEven, Use float64
	// AllUpfrontPerHourUSD is the fleet's effective hourly rate of the
	// same term paid wholly upfront, where the provider sells one (0 if
	// not).
	AllUpfrontPerHourUSD float64
	// Spot is the spot risk of a spot term (nil otherwise).
	Spot *cost.Spot
}

// Terms compares the ways to pay for the pick's fleet: the same instances
// in the same region on demand, reserved or committed for 1 and 3 years,
// and on spot. Best is the cheapest known term; Held the cheapest whose
// capacity cannot be reclaimed (any but spot), -1 when none is priced.
type Terms struct {
	Offer     *catalog.Offer
	Instances int
	Service   bool
	Options   []Term
	Best      int
	Held      int
}

// LongJobHours is the wall time from which a job's terms are compared
// (a week): a shorter job cannot fill a commitment, unless the team says
// it will (constraints.reserved_utilization) or asks for one.
const LongJobHours = 168

// TermsOf prices c's fleet in every pricing mode its offer publishes, with
// the same plan, data and constraints the candidate was priced with: for a
// service, and for a job that is long or whose file asks about
// commitments. nil otherwise, and when c has no price.
func TermsOf(req Request, c *Candidate) *Terms {
	if c == nil || !c.Cost.PriceKnown || c.Pred == nil {
		return nil
	}
	ev := newEvaluator(&req, nil, nil)
	service := ev.service
	k := req.Spec.Constraints
	asked := k.ReservedUtilization > 0 || slices.ContainsFunc(k.Pricing, func(p workload.PricingMode) bool {
		return strings.HasPrefix(string(p), "reserved") || p == "monthly"
	})
	if !service && c.DurationHours < LongJobHours && !asked {
		return nil
	}
	t := &Terms{Offer: c.Offer, Instances: c.Instances, Service: service, Best: -1, Held: -1}
	share := c.Cost.PerHourUSD / math.Max(1e-12, c.Cost.PricePerHourUSD*float64(max(1, c.Instances)))
	if share >= 0.999 {
		share = 0
	}
	od, hasOD := c.Offer.YourPrices.Get(catalog.OnDemand)
	for m := catalog.Mode(0); m < catalog.NumModes; m++ {
		if m == catalog.Monthly && c.Offer.YourPrices[m] == 0 {
			continue
		}
		term := Term{Mode: m}
		price, ok := c.Offer.YourPrices.Get(m)
		if !ok {
			if m == catalog.OnDemand || m == catalog.Spot || m == catalog.Reserved1y || m == catalog.Reserved3y {
				t.Options = append(t.Options, term)
			}
			continue
		}
		var e cost.Estimate
		if sc := c.Plan.Scaling; sc != nil && m != catalog.Serverless {
			// The same day in this mode: its base paid in m, its burst on
			// demand (on spot for a spot plan).
			x := *sc
			x.Check = nil
			var why msg.Msg
			if e, why = ev.priceScaled(c.Offer, &x, c.Pred, m); !why.IsZero() {
				t.Options = append(t.Options, term)
				continue
			}
		} else {
			job := ev.costJob(c.Offer, c.Instances, c.Pred, m, service, share)
			e = cost.Price(job)
		}
		cost.AddPorting(&e, c.Cost.Porting, service)
		term.Known, term.CostUSD, term.PerHourUSD = true, e.Cost.Total, e.PerHourUSD
		term.Spot = e.Spot
		if r := e.Reserved; r != nil {
			term.Use = r.Utilization
			if hasOD {
				term.BreakEven = price / od
			}
			var up float64
			switch m {
			case catalog.Reserved1y:
				up = c.Offer.AllUpfront1y
			case catalog.Reserved3y:
				up = c.Offer.AllUpfront3y
			}
			if up > 0 && c.Offer.LocalPrices[m] > 0 {
				term.AllUpfrontPerHourUSD = e.PerHourUSD * up / c.Offer.LocalPrices[m]
			}
		}
		t.Options = append(t.Options, term)
	}
	for i, o := range t.Options {
		if !o.Known {
			continue
		}
		if t.Best < 0 || o.CostUSD < t.Options[t.Best].CostUSD {
			t.Best = i
		}
		if o.Mode != catalog.Spot && (t.Held < 0 || o.CostUSD < t.Options[t.Held].CostUSD) {
			t.Held = i
		}
	}
	if t.Best < 0 {
		return nil
	}
	return t
}
