package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
)

// WriteComparison prints the variants of a service side by side for
// people, in l: cost, cost per thousand requests, p95 and p99 latency,
// SLO violations, replicas, and which is the cheapest that meets the SLO.
func WriteComparison(w io.Writer, c *autoscale.Comparison, l Lang) error {
	var b strings.Builder
	hours := 0.0
	if len(c.Results) > 0 {
		hours = c.Results[0].DurationS / 3600
	}
	fmt.Fprintln(&b, tc(l, "cmp.head", c.Name, len(c.Rows), hours, c.SLO.LatencyS, c.SLO.Target*100))
	b.WriteString("\n")
	t := &Table{Columns: []Column{{tc(l, "cmp.variant"), "variant", false}, {tc(l, "search.policy"), "policy", false},
		{tc(l, "search.cost"), "cost_usd", true}, {tc(l, "cmp.per_k"), "cost_per_1k_requests_usd", true},
		{tc(l, "cmp.p95"), "p95_latency_s", true}, {tc(l, "cmp.p99"), "p99_latency_s", true},
		{tc(l, "search.violations"), "slo_violation_pct", true}, {"SLO", "slo_met", false},
		{tc(l, "cmp.mean"), "mean_replicas", true}, {tc(l, "cmp.peak"), "peak_replicas", true}}}
	var best *autoscale.CompareRow
	for i := range c.Rows {
		r := &c.Rows[i]
		ok := tc(l, "search.met")
		if !r.SLOMet {
			ok = tc(l, "search.missed")
		}
		if r.Cheapest {
			best = r
		}
		t.Add(r.Name, policyWord(l, r.Policy), fmt.Sprintf("%.2f", r.CostUSD), fmt.Sprintf("%.3f", r.CostPerKRequestsUSD),
			fmt.Sprintf("%.1f", r.P95LatencyS), fmt.Sprintf("%.1f", r.P99LatencyS), fmt.Sprintf("%.2f", r.SLOViolationFraction*100), ok,
			fmt.Sprintf("%.2f", r.MeanReplicas), fmt.Sprint(r.PeakReplicas))
	}
	if err := t.WriteText(&b); err != nil {
		return err
	}
	b.WriteString("\n")
	if best != nil {
		fmt.Fprintln(&b, tc(l, "cmp.best", best.Name, best.CostUSD, best.P95LatencyS))
	} else {
		fmt.Fprintln(&b, tc(l, "cmp.none"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Bar colours: a variant that meets the SLO is bluish green, one that
// misses it vermilion (Okabe-Ito).
var (
	metColor    = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	missedColor = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
)

// ComparisonChart draws the variants' cost (USD) and p99 latency (s) as
// two bar panels, axes from 0, the SLO's latency bound as a dashed line,
// under a title, as "svg" or "png" (English in a PNG, whose font has no
// Chinese glyphs).
func ComparisonChart(w io.Writer, format string, c *autoscale.Comparison, l Lang) error {
	if format == "png" {
		l = English
	}
	names := make([]string, len(c.Rows))
	for i, r := range c.Rows {
		names[i] = r.Name
	}
	type panel struct {
		title, ylabel string
		v             func(autoscale.CompareRow) float64
		limit         float64
	}
	panels := []panel{
		{tc(l, "cmp.chart_cost"), tc(l, "cmp.chart_cost_y"), func(r autoscale.CompareRow) float64 { return r.CostUSD }, 0},
		{tc(l, "cmp.chart_p99"), tc(l, "chart.latency_y"), func(r autoscale.CompareRow) float64 { return r.P99LatencyS }, c.SLO.LatencyS},
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.title
		p.Y.Label.Text = pn.ylabel
		peak := pn.limit
		met, missed := make(plotter.Values, len(c.Rows)), make(plotter.Values, len(c.Rows))
		for k, r := range c.Rows {
			v := chartSnap(pn.v(r))
			peak = math.Max(peak, v)
			if r.SLOMet {
				met[k] = v
			} else {
				missed[k] = v
			}
		}
		step, top := axisTop(peak)
		p.Y.Min, p.Y.Max = 0, top
		p.Y.Tick.Marker = stepTicker{Step: step, Max: top}
		p.Add(plotter.NewGrid())
		for j, vals := range []plotter.Values{met, missed} {
			bars, err := plotter.NewBarChart(vals, vg.Points(28))
			if err != nil {
				return apperr.Wrap(apperr.Internal, "chart", err)
			}
			bars.Color = metColor
			bars.LineStyle.Width = 0
			label := tc(l, "cmp.chart_met")
			if j == 1 {
				bars.Color, label = missedColor, tc(l, "cmp.chart_missed")
			}
			p.Add(bars)
			if i == 0 {
				p.Legend.Add(label, bars)
			}
		}
		p.NominalX(names...)
		if pn.limit > 0 {
			if err := addSLOLine(p, -0.5, float64(len(names))-0.5, pn.limit, tc(l, "chart.slo", pn.limit)); err != nil {
				return err
			}
		}
		p.Legend.Top = true
		p.Legend.XOffs, p.Legend.YOffs = -vg.Millimeter*3, -vg.Millimeter*1
		plots[i] = []*plot.Plot{p}
	}
	hours := 0.0
	if len(c.Results) > 0 {
		hours = c.Results[0].DurationS / 3600
	}
	title := tc(l, "cmp.chart_title", c.Name, len(c.Rows), hours)
	return writeTitledPanels(w, format, title, 7*vg.Inch, vg.Millimeter*6, plots)
}
