package report

import (
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
)

// WriteSimulation prints a simulation's results for people.
func WriteSimulation(w io.Writer, r *autoscale.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Simulation of %s (%s policy) over %.1f h\n\n", r.Name, r.Policy, r.DurationS/3600)
	t := &Table{Columns: []Column{{"QUANTITY", "quantity", false}, {"VALUE", "value", true}, {"UNIT", "unit", false}}}
	t.Add("requests", fmt.Sprint(r.Requests), "arrived")
	t.Add("completed", fmt.Sprint(r.Completed), "")
	t.Add("dropped", fmt.Sprint(r.Dropped), "(queue full)")
	t.Add("timed out", fmt.Sprint(r.TimedOut), "(gave up waiting)")
	t.Add("SLO violations", fmt.Sprintf("%.2f", r.SLOViolationFraction*100), "% of requests")
	t.Add("cost", fmt.Sprintf("%.2f", r.CostUSD), "USD")
	t.Add("replica-hours", fmt.Sprintf("%.1f", r.ReplicaHours), "h")
	if r.InstanceHours > 0 {
		t.Add("instance-hours", fmt.Sprintf("%.1f", r.InstanceHours), "h (replicas share instances; whole instances billed)")
	}
	t.Add("GPU-hours", fmt.Sprintf("%.1f", r.GPUHours), "h")
	t.Add("utilisation", fmt.Sprintf("%.1f", r.Utilization*100), "% of replica time busy")
	t.Add("replicas", fmt.Sprintf("%.1f mean, %d peak", r.MeanReplicas, r.PeakReplicas), "")
	t.Add("cold starts", fmt.Sprint(r.ColdStarts), "")
	t.Add("scale events", fmt.Sprint(r.ScaleEvents), "")
	if r.Interruptions > 0 {
		t.Add("spot interruptions", fmt.Sprint(r.Interruptions), fmt.Sprintf("(%d requests re-queued)", r.Requeued))
	}
	if err := t.WriteText(&b); err != nil {
		return err
	}
	b.WriteString("\nLatency (s):\n")
	lt := &Table{Columns: []Column{{"", "what", false}, {"MEAN", "mean", true}, {"P50", "p50", true}, {"P95", "p95", true}, {"P99", "p99", true}, {"MAX", "max", true}}}
	for _, row := range []struct {
		name string
		p    autoscale.Percentiles
	}{{"queueing", r.Wait}, {"first token", r.TTFT}, {"end to end", r.Latency}} {
		lt.Add(row.name, f3(row.p.MeanS), f3(row.p.P50S), f3(row.p.P95S), f3(row.p.P99S), f3(row.p.MaxS))
	}
	if err := lt.WriteText(&b); err != nil {
		return err
	}
	if len(r.Tiers) > 1 {
		b.WriteString("\nTiers:\n")
		tt := &Table{Columns: []Column{{"TIER", "tier", false}, {"$/REPLICA-H", "price", true}, {"REPLICA-H", "replica_hours", true}, {"COST $", "cost", true}}}
		for _, x := range r.Tiers {
			tt.Add(x.Name, fmt.Sprintf("%.2f", x.PricePerHourUSD), fmt.Sprintf("%.1f", x.ReplicaHours), fmt.Sprintf("%.2f", x.CostUSD))
		}
		if err := tt.WriteText(&b); err != nil {
			return err
		}
	}
	verdict := "meets the SLO"
	if !r.SLOMet {
		verdict = "MISSES the SLO"
	}
	fmt.Fprintf(&b, "\nVerdict: this policy %s (%.2f%% of requests violate it).\n", verdict, r.SLOViolationFraction*100)
	_, err := io.WriteString(w, b.String())
	return err
}

func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

// WriteSearch prints the cheapest policy and offer that meet the SLO and
// the runners-up.
func WriteSearch(w io.Writer, s *autoscale.SearchResult) error {
	var b strings.Builder
	if s.Best != nil {
		where := s.Best.Candidate
		if s.Best.Region != "" {
			where += " in " + s.Best.Region
		}
		fmt.Fprintf(&b, "Cheapest that meets the SLO: %s with %s: $%.2f, p95 %.3f s, %.1f%% violations, utilisation %.0f%%\n\n",
			where, s.Best.Summary, s.Best.CostUSD, s.Best.P95LatencyS, s.Best.SLOViolationFraction*100, s.Best.Utilization*100)
	} else {
		b.WriteString("No candidate policy meets the SLO; the closest are below.\n\n")
	}
	t := &Table{Columns: []Column{{"#", "rank", true}, {"OFFER", "candidate", false}, {"REGION", "region", false}, {"POLICY", "policy", false}, {"COST $", "cost_usd", true},
		{"P95 s", "p95_latency_s", true}, {"VIOLATIONS %", "slo_violation_pct", true}, {"UTIL", "utilization", true}, {"SLO", "meets_slo", false}}}
	rows := append([]autoscale.SearchEntry(nil), s.RunnersUp...)
	if s.Best != nil {
		rows = append([]autoscale.SearchEntry{*s.Best}, rows...)
	}
	for i, e := range rows {
		ok := "met"
		if !e.MeetsSLO {
			ok = "missed"
		}
		t.Add(fmt.Sprint(i+1), e.Candidate, orDash(e.Region), e.Summary, fmt.Sprintf("%.2f", e.CostUSD), f3(e.P95LatencyS),
			fmt.Sprintf("%.2f", e.SLOViolationFraction*100), fmt.Sprintf("%.0f%%", e.Utilization*100), ok)
	}
	if err := t.WriteText(&b); err != nil {
		return err
	}
	fmt.Fprintf(&b, "%d simulations run.\n", s.Evaluated)
	_, err := io.WriteString(w, b.String())
	return err
}

// SimulationChart draws traffic, replicas and p95 latency over time, one
// panel each, as "svg" or "png".
func SimulationChart(w io.Writer, format string, r *autoscale.Result) error {
	series := r.Series
	panels := []struct {
		title, y string
		value    func(autoscale.SeriesPoint) float64
	}{
		{"traffic", "requests/s", func(p autoscale.SeriesPoint) float64 { return p.ArrivalsPerS }},
		{"replicas", "replicas", func(p autoscale.SeriesPoint) float64 { return p.Replicas }},
		{"p95 latency", "s", func(p autoscale.SeriesPoint) float64 { return p.P95LatencyS }},
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.title
		p.Y.Label.Text = pn.y
		if i == len(panels)-1 {
			p.X.Label.Text = "time (h)"
		}
		xy := make(plotter.XYs, len(series))
		for k, s := range series {
			xy[k].X, xy[k].Y = s.TS/3600, pn.value(s)
		}
		if len(xy) > 0 {
			line, err := plotter.NewLine(xy)
			if err != nil {
				return apperr.Wrap(apperr.Internal, "chart", err)
			}
			p.Add(line)
		}
		p.Add(plotter.NewGrid())
		plots[i] = []*plot.Plot{p}
	}
	width, height := 8*vg.Inch, 7*vg.Inch
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	switch format {
	case "svg":
		c := vgsvg.New(width, height)
		dc := draw.New(c)
		for i, row := range plot.Align(plots, tiles, dc) {
			plots[i][0].Draw(row[0])
		}
		_, err := c.WriteTo(w)
		return err
	case "png":
		c := vgimg.New(width, height)
		dc := draw.New(c)
		for i, row := range plot.Align(plots, tiles, dc) {
			plots[i][0].Draw(row[0])
		}
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	return apperr.Invalidf("--chart", "want a file ending in .svg or .png, got format %q", format)
}
