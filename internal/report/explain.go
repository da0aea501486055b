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
	fmt.Fprintf(&b, "%s in %s (%s): %d x %s on %d instance(s), %s\n", o.ID(), o.Region, o.Country, c.GPUs, o.GPU, c.Instances, c.Cost.Mode)
	fmt.Fprintln(&b, msg(l, "plan", PlanSentence(c.Plan, l)))
	p := c.Pred
	fmt.Fprintln(&b, msg(l, "verdict", VerdictText(l, p.Bottleneck, p.Verdict)))
	if p.Fix != "" {
		fmt.Fprintf(&b, "Fix: %s\n", p.Fix)
	}
	fmt.Fprintf(&b, "Throughput %.6g %s; utilisation %.0f%%; bottleneck %s; MFU %.1f%%; confidence %s\n",
		p.Throughput.Value, p.Throughput.Unit, p.Utilization*100, bottleneckText(l, p.Bottleneck), p.MFU*100, p.Confidence)
	if c.DurationHours > 0 {
		fmt.Fprintf(&b, "Wall-clock time %.1f h (transfer %.1f h, setup %.2f h, productive %.1f h)\n", c.DurationHours, c.Cost.TransferHours, c.Cost.SetupHours, c.Cost.ProductiveHours)
	}
	if c.CostP10 > 0 {
		what := "total cost"
		if c.PerMonthUSD > 0 {
			what = "cost per month"
		}
		fmt.Fprintf(&b, "80%% range: %s $%s-%s", what, money(c.CostP10), money(c.CostP90))
		if c.DurationHoursP10 > 0 {
			fmt.Fprintf(&b, ", wall-clock time %.1f-%.1f h", c.DurationHoursP10, c.DurationHoursP90)
		}
		fmt.Fprintf(&b, " (%s)\n", p.Interval.Basis)
	}
	if c.Cost.PriceKnown {
		fmt.Fprintf(&b, "Price: $%.2f per instance-hour (list $%.2f", c.Cost.PricePerHourUSD, c.Cost.ListPerHourUSD)
		if c.Cost.PriceRule != "" {
			fmt.Fprintf(&b, "; your price from rule %q", c.Cost.PriceRule)
		}
		fmt.Fprintf(&b, "), source %s, as of %s\n", o.Source, o.AsOf.Format("2006-01-02"))
		k := c.Cost.Cost
		fmt.Fprintln(&b, msg(l, "cost_breakdown", k.Compute, k.Storage, k.Egress, k.Setup, k.SpotOverhead, k.Total))
		if c.PerMonthUSD > 0 {
			fmt.Fprintf(&b, "Service: %d replica(s) on %d instance(s), $%.2f per hour, $%.0f per month\n", c.Plan.Replicas, c.Plan.Instances, c.PerHourUSD, c.PerMonthUSD)
		}
		if c.UnitCost > 0 {
			fmt.Fprintf(&b, "Unit cost: %.4g %s\n", c.UnitCost, c.UnitCostUnit)
		}
	} else {
		fmt.Fprintln(&b, WarningText(l, advisor.Warning{Code: advisor.WarnPriceUnknown}))
	}
	fmt.Fprintln(&b, FreshnessText(l, catalog.Stats([]*catalog.Offer{o}, now)))
	if ws := shownWarnings(c); len(ws) > 0 {
		fmt.Fprintln(&b, msg(l, "warnings"))
		for _, wn := range ws {
			fmt.Fprintf(&b, "  - %s\n", WarningText(l, wn))
		}
	}
	b.WriteString("Cost notes:\n")
	for _, n := range c.Cost.Notes {
		fmt.Fprintf(&b, "  - %s\n", n)
	}
	b.WriteString("Prediction assumptions:\n")
	for _, a := range p.Assumptions {
		fmt.Fprintf(&b, "  - %s\n", a)
	}
	b.WriteString("\n")
	if winner == nil {
		// A single choice: nothing to compare with.
	} else if c == winner {
		fmt.Fprintln(&b, msg(l, "explain_won"))
	} else {
		b.WriteString(msg(l, "explain_lost", fmt.Sprintf("#1 %s (%s, %d x %s, %s)", winner.Offer.ID(), winner.Offer.Region, winner.GPUs, winner.Offer.GPU, winner.Cost.Mode)))
		b.WriteString(lossReason(c, winner))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// lossReason compares a candidate with the winner on the numbers that
// decide the ranking.
func lossReason(c, win *advisor.Candidate) string {
	var parts []string
	if !c.Cost.PriceKnown {
		return "its price is unknown, so it cannot be ranked by cost."
	}
	if win.Cost.PriceKnown {
		d := c.Cost.Cost.Total - win.Cost.Cost.Total
		if d > 0 {
			parts = append(parts, fmt.Sprintf("it costs $%.0f more (%+.0f%%)", d, 100*d/win.Cost.Cost.Total))
		} else if d < 0 {
			parts = append(parts, fmt.Sprintf("it is $%.0f cheaper", -d))
		}
	}
	if c.DurationHours > 0 && win.DurationHours > 0 {
		if r := c.DurationHours / win.DurationHours; r > 1.05 {
			parts = append(parts, fmt.Sprintf("takes %.1fx as long (%.1f h against %.1f h)", r, c.DurationHours, win.DurationHours))
		} else if r < 0.95 {
			parts = append(parts, fmt.Sprintf("finishes %.1fx faster", 1/r))
		}
	}
	cg := c.Cost.PricePerHourUSD / c.Offer.GPUs()
	wg := win.Cost.PricePerHourUSD / win.Offer.GPUs()
	parts = append(parts, fmt.Sprintf("pays $%.2f per GPU-hour against $%.2f", cg, wg))
	perGPU := func(x *advisor.Candidate) float64 { return x.Pred.Throughput.Value / float64(max(1, x.Pred.GPUs)) }
	if win.Pred.Throughput.Unit == c.Pred.Throughput.Unit && perGPU(win) > 0 {
		parts = append(parts, fmt.Sprintf("each GPU delivers %.0f%% of the winner's per-GPU throughput (its bottleneck: %s)", 100*perGPU(c)/perGPU(win), c.Pred.Bottleneck))
	}
	if c.Cost.Cost.Egress > win.Cost.Cost.Egress+1 {
		parts = append(parts, fmt.Sprintf("moving the data costs $%.0f in egress", c.Cost.Cost.Egress))
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
		mode := x.Pricing
		if mode == "" {
			mode = "all pricing modes"
		}
		line := fmt.Sprintf("  - %s, %d GPUs, %s: %s", x.Region, x.GPUs, mode, x.Reason)
		if !seen[line] {
			seen[line] = true
			why = append(why, line)
		}
	}
	if len(why) == 0 {
		return false, nil
	}
	_, err := fmt.Fprintf(w, "%s was excluded:\n%s\n", offer, strings.Join(why, "\n"))
	return true, err
}
