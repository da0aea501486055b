package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	message "github.com/gpupick/gpupick/internal/msg"
)

// WriteCost prints the cost of one choice (gpupick cost) in l: what it is,
// how fast, the breakdown as a table in USD, the price and its date, the
// warnings as sentences, every cost note and every assumption. The model's
// sentences go through Tr; each appears once.
func WriteCost(w io.Writer, c *advisor.Candidate, now time.Time, l Lang) error {
	var b strings.Builder
	o := c.Offer
	head := tc(l, "cost.head", o.ID(), o.Region, o.Country, c.GPUs, o.GPU, c.Instances, modeName(l, c.Cost.Mode.String()))
	if s := c.Plan.Slice; s != nil && s.Kind == advisor.SliceFraction {
		head = sm(l, "cost_head_fraction", o.ID(), o.Region, o.Country, s.Profile, o.GPU, c.Instances, modeName(l, c.Cost.Mode.String()))
	}
	fmt.Fprintln(&b, head)
	fmt.Fprintln(&b, msg(l, "plan", PlanSentence(c.Plan, l)))
	p := c.Pred
	fmt.Fprintln(&b, tc(l, "pred.verdict", Render(l, p.Verdict)))
	if !p.Fix.IsZero() {
		fmt.Fprintln(&b, tc(l, "pred.fix", Render(l, p.Fix)))
	}
	fmt.Fprintln(&b, tc(l, "cost.perf", cliFixed(p.Throughput.Value, 0), perfUnit(l, p.Throughput.Unit), p.Utilization*100,
		bottleneckText(l, p.Bottleneck), p.MFU*100, confidenceWord(l, p.Confidence)))
	if c.DurationHours > 0 {
		fmt.Fprintln(&b, tc(l, "cost.wall", spanText(l, c.DurationHours), spanText(l, c.Cost.TransferHours), spanText(l, c.Cost.SetupHours), spanText(l, c.Cost.ProductiveHours)))
	}
	if c.CostP10 > 0 {
		what := tc(l, "cost.range_total")
		if c.PerMonthUSD > 0 {
			what = tc(l, "cost.range_month")
		}
		line := tc(l, "cost.range", what, cliGrouped(c.CostP10, 2), cliGrouped(c.CostP90, 2))
		if c.DurationHoursP10 > 0 {
			line += tc(l, "cost.range_time", spanRange(l, c.DurationHoursP10, c.DurationHoursP90))
		}
		if p.Interval != nil {
			line += tc(l, "paren", strings.TrimSuffix(Render(l, p.Interval.Basis), "."))
		}
		fmt.Fprintln(&b, line)
	}
	if c.Cost.PriceKnown {
		price := tc(l, "cost.price", c.Cost.PricePerHourUSD, c.Cost.ListPerHourUSD)
		if c.Cost.PriceRule != "" {
			price += tc(l, "cost.rule", c.Cost.PriceRule)
		}
		f := o.PriceFact(c.Cost.Mode)
		fmt.Fprintln(&b, price+tc(l, "cost.source", ShortSource(f.Source, sourceWidth), date(f.AsOf)))
		b.WriteString("\n" + tc(l, "cost.breakdown") + "\n")
		k := c.Cost.Cost
		t := &Table{Columns: []Column{{tc(l, "col.part"), "part", false}, {tc(l, "col.usd"), "usd", true}}}
		t.Add(tc(l, "cost.compute"), cliGrouped(k.Compute, 2))
		t.Add(tc(l, "cost.storage"), cliGrouped(k.Storage, 2))
		t.Add(tc(l, "cost.egress"), cliGrouped(k.Egress, 2))
		t.Add(tc(l, "cost.setup"), cliGrouped(k.Setup, 2))
		t.Add(tc(l, "cost.spot"), cliGrouped(k.SpotOverhead, 2))
		if k.Porting > 0 {
			t.Add(tc(l, "cost.porting"), cliGrouped(k.Porting, 2))
		}
		t.Add(tc(l, "cost.total"), cliGrouped(k.Total, 2))
		if err := t.WriteText(&b); err != nil {
			return err
		}
		if c.PerMonthUSD > 0 {
			fmt.Fprintln(&b, tc(l, "cost.service", c.Plan.Replicas, c.Plan.Instances, cliGrouped(c.PerHourUSD, 2), cliGrouped(c.PerMonthUSD, 2)))
		}
		if c.UnitCost > 0 {
			fmt.Fprintln(&b, tc(l, "cost.unit", c.UnitCost, unitText(l, c.UnitCostUnit)))
		}
	} else {
		fmt.Fprintln(&b, WarningText(l, advisor.Warning{Code: advisor.WarnPriceUnknown}))
	}
	fmt.Fprintln(&b, FreshnessText(l, catalog.Stats([]*catalog.Offer{o}, now)))
	if ws := shownWarnings(c); len(ws) > 0 {
		fmt.Fprintln(&b, "\n"+tc(l, "cost.warnings"))
		for _, wn := range ws {
			fmt.Fprintf(&b, "  - %s\n", costWarning(l, wn))
		}
	}
	fmt.Fprintln(&b, "\n"+tc(l, "cost.notes"))
	for _, n := range c.Cost.Notes {
		fmt.Fprintf(&b, "  - %s\n", Render(l, n))
	}
	fmt.Fprintln(&b, "\n"+tc(l, "pred.assumptions"))
	for _, a := range p.Assumptions {
		fmt.Fprintf(&b, "  - %s\n", Render(l, a))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// costWarning is one warning as a sentence in l. A check's exclusion that
// cost demotes to a warning (the offer was named, so it is priced anyway)
// carries its reason code and sentence: the code becomes words.
func costWarning(l Lang, w advisor.Warning) string {
	if head, ok := demotedHead[w.Code]; ok {
		why := ""
		if len(w.Args) == 1 {
			if m, ok := w.Args[0].(message.Msg); ok && m.Format() == "%s: %s" && len(m.Args()) == 2 {
				// "reason: why", as app.Demote words it: the head says the reason
				why = fmt.Sprint(argIn(l, m.Args()[1]))
			} else {
				why = Tr(l, strings.TrimPrefix(fmt.Sprint(w.Args[0]), advisor.ReasonText(w.Code)+": "))
			}
		}
		return tc(l, "cost.demoted", tc(l, head), why)
	}
	if _, known := warnTemplates[w.Code]; !known && len(w.Args) != 1 {
		return tc(l, "cost.demoted", reasonText(l, w.Code), "")
	}
	if l == Chinese && len(w.Args) == 1 {
		// A sentence carried whole (a note, a preference, a needed fix):
		// translated before it goes into its template.
		switch w.Args[0].(type) {
		case string, message.Msg:
			if w.Code == advisor.WarnPreferred {
				return fmt.Sprint(argIn(l, w.Args[0])) // the sentence names the preference itself
			}
			w.Args = []any{argIn(l, w.Args[0])}
		}
	}
	return Tr(l, WarningText(l, w))
}

// demotedHead names the checks whose exclusion cost shows as a warning.
var demotedHead = map[string]string{
	advisor.ReasonNonCompliant: "cost.non_compliant",
	advisor.ReasonOperator:     "cost.operator_not_allowed",
	advisor.ReasonIncompatible: "cost.incompatible",
}

// cliGrouped formats v with prec decimals and thousands separated by commas
// ("80,408.22"), for money read by people.
func cliGrouped(v float64, prec int) string {
	s := cliFixed(v, prec)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// spanText is a duration given in hours, in the unit that reads best: hours
// from one hour, else minutes, else seconds ("2 s", not "0.00 h").
func spanText(l Lang, hours float64) string {
	switch {
	case hours >= 1:
		return tc(l, "span.h", hours)
	case hours*60 >= 1:
		return tc(l, "span.min", hours*60)
	}
	return tc(l, "span.s", hours*3600)
}

// spanRange is a range of hours in the unit spanText picks for its upper
// end, with enough decimals to tell the ends apart.
func spanRange(l Lang, lo, hi float64) string {
	key, scale := "span.h_range", 1.0
	switch {
	case hi >= 1:
	case hi*60 >= 1:
		key, scale = "span.min_range", 60
	default:
		key, scale = "span.s_range", 3600
	}
	prec := 1
	if hi*scale < 10 {
		prec = 2
	}
	return tc(l, key, cliFixed(lo*scale, prec), cliFixed(hi*scale, prec))
}
