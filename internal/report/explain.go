package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
)

// WriteExplain tells the full story of one candidate: what it is, how fast,
// what limits it, every cost line, how fresh its price is at now, its
// warnings and assumptions, and why it lost to the winner (winner nil: no
// comparison).
func WriteExplain(w io.Writer, c, winner *advisor.Candidate, now time.Time, l Lang) error {
	var b strings.Builder
	o := c.Offer
	if c.Rank > 0 {
		fmt.Fprintf(&b, "#%d ", c.Rank)
	}
	head := am(l, "ex_head", o.ID(), o.Region, o.Country, c.GPUs, o.GPU, c.Instances, modeName(l, c.Cost.Mode.String()))
	if s := c.Plan.Slice; s != nil && s.Kind == advisor.SliceFraction {
		head = sm(l, "ex_head_fraction", o.ID(), o.Region, o.Country, s.Profile, o.GPU, c.Instances, modeName(l, c.Cost.Mode.String()))
	}
	fmt.Fprintln(&b, head)
	fmt.Fprintln(&b, msg(l, "plan", PlanSentence(c.Plan, l)))
	p := c.Pred
	fmt.Fprintln(&b, msg(l, "verdict", VerdictText(l, p.Bottleneck, p.Verdict)))
	if !p.Fix.IsZero() {
		fmt.Fprintln(&b, am(l, "ex_fix", Render(l, p.Fix)))
	}
	fmt.Fprintln(&b, am(l, "ex_speed", p.Throughput.Value, throughputUnit(l, p.Throughput.Unit), p.Utilization*100, bottleneckText(l, p.Bottleneck), p.MFU*100, levelName(l, p.Confidence)))
	if c.DurationHours > 0 {
		fmt.Fprintln(&b, am(l, "ex_wall", c.DurationHours, c.Cost.TransferHours, c.Cost.SetupHours, c.Cost.ProductiveHours))
	}
	if c.CostP10 > 0 {
		what := am(l, "ex_total")
		if c.PerMonthUSD > 0 {
			what = am(l, "ex_month")
		}
		b.WriteString(am(l, "ex_range", what, money(c.CostP10), money(c.CostP90)))
		if c.DurationHoursP10 > 0 {
			b.WriteString(am(l, "ex_range_time", c.DurationHoursP10, c.DurationHoursP90))
		}
		b.WriteString(am(l, "ex_basis", Render(l, p.Interval.Basis)) + "\n")
	}
	if c.Cost.PriceKnown {
		rule := ""
		if c.Cost.PriceRule != "" {
			rule = am(l, "ex_rule", c.Cost.PriceRule)
		}
		fmt.Fprintln(&b, am(l, "ex_price", c.Cost.PricePerHourUSD, c.Cost.ListPerHourUSD, rule, o.PriceFact(c.Cost.Mode).Source, o.PriceFact(c.Cost.Mode).AsOf.Format("2006-01-02")))
		k := c.Cost.Cost
		fmt.Fprintln(&b, msg(l, "cost_breakdown", k.Compute, k.Storage, k.Egress, k.Setup, k.SpotOverhead, k.Total))
		if c.PerMonthUSD > 0 {
			fmt.Fprintln(&b, am(l, "ex_service", c.Plan.Replicas, c.Plan.Instances, c.PerHourUSD, c.PerMonthUSD))
		}
		if c.UnitCost > 0 {
			fmt.Fprintln(&b, am(l, "ex_unit", c.UnitCost, unitText(l, c.UnitCostUnit)))
		}
	} else {
		fmt.Fprintln(&b, WarningText(l, advisor.Warning{Code: advisor.WarnPriceUnknown}))
	}
	fmt.Fprintln(&b, FreshnessText(l, catalog.Stats([]*catalog.Offer{o}, now)))
	if ws := shownWarnings(c); len(ws) > 0 {
		fmt.Fprintln(&b, msg(l, "warnings"))
		for _, wn := range ws {
			fmt.Fprintf(&b, "  - %s\n", warningIn(l, wn))
		}
	}
	fmt.Fprintln(&b, heading(l, am(l, "ex_cost_notes")))
	for _, n := range c.Cost.Notes {
		fmt.Fprintf(&b, "  - %s\n", Render(l, n))
	}
	fmt.Fprintln(&b, heading(l, am(l, "ex_assumptions")))
	for _, a := range p.Assumptions {
		fmt.Fprintf(&b, "  - %s\n", Render(l, a))
	}
	b.WriteString("\n")
	if winner == nil {
		// A single choice: nothing to compare with.
	} else if c == winner {
		fmt.Fprintln(&b, msg(l, "explain_won"))
	} else {
		b.WriteString(msg(l, "explain_lost", am(l, "ex_winner", winner.Offer.ID(), winner.Offer.Region, winner.GPUs, winner.Offer.GPU, modeName(l, winner.Cost.Mode.String()))))
		b.WriteString(lossReason(c, winner, l))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// lossReason compares a candidate with the winner on the numbers that
// decide the ranking.
func lossReason(c, win *advisor.Candidate, l Lang) string {
	var parts []string
	if !c.Cost.PriceKnown {
		return am(l, "ex_lost_noprice")
	}
	if win.Cost.PriceKnown {
		d := c.Cost.Cost.Total - win.Cost.Cost.Total
		if d > 0 {
			parts = append(parts, am(l, "ex_lost_more", d, 100*d/win.Cost.Cost.Total))
		} else if d < 0 {
			parts = append(parts, am(l, "ex_lost_cheaper", -d))
		}
	}
	if c.DurationHours > 0 && win.DurationHours > 0 {
		if r := c.DurationHours / win.DurationHours; r > 1.05 {
			parts = append(parts, am(l, "ex_lost_slower", r, c.DurationHours, win.DurationHours))
		} else if r < 0.95 {
			parts = append(parts, am(l, "ex_lost_faster", 1/r))
		}
	}
	cg := c.Cost.PricePerHourUSD / c.Offer.GPUs()
	wg := win.Cost.PricePerHourUSD / win.Offer.GPUs()
	parts = append(parts, am(l, "ex_lost_gpuhour", cg, wg))
	perGPU := func(x *advisor.Candidate) float64 { return x.Pred.Throughput.Value / float64(max(1, x.Pred.GPUs)) }
	if win.Pred.Throughput.Unit == c.Pred.Throughput.Unit && perGPU(win) > 0 {
		parts = append(parts, am(l, "ex_lost_pergpu", 100*perGPU(c)/perGPU(win), bottleneckText(l, c.Pred.Bottleneck)))
	}
	if c.Cost.Cost.Egress > win.Cost.Cost.Egress+1 {
		parts = append(parts, am(l, "ex_lost_egress", c.Cost.Cost.Egress))
	}
	if l == Chinese {
		return strings.Join(parts, "；") + "。"
	}
	return strings.Join(parts, "; ") + "."
}

// ExplainOffer tells the story of offer in a recommendation: its best
// candidate against the winner, or, when it was excluded, every reason. It
// returns false when the offer is neither a candidate nor excluded.
func ExplainOffer(w io.Writer, res *advisor.Result, offer string, l Lang) (bool, error) {
	for _, c := range res.Candidates {
		if strings.EqualFold(c.Offer.ID(), offer) {
			return true, WriteExplain(w, c, res.Candidates[0], res.Now, l)
		}
	}
	var why []string
	seen := map[string]bool{}
	for _, x := range res.Excluded {
		if !strings.EqualFold(x.Offer, offer) {
			continue
		}
		mode := modeName(l, x.Pricing)
		if mode == "" {
			mode = am(l, "ex_all_modes")
		}
		line := am(l, "ex_excl_line", x.Region, x.GPUs, mode, Render(l, x.Reason))
		if !seen[line] {
			seen[line] = true
			why = append(why, line)
		}
	}
	if len(why) == 0 {
		return false, nil
	}
	_, err := fmt.Fprintf(w, "%s\n%s\n", am(l, "ex_excluded", offer), strings.Join(why, "\n"))
	return true, err
}
