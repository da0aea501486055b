package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
)

// WriteSimulation prints a simulation's results for people, in l.
func WriteSimulation(w io.Writer, r *autoscale.Result, l Lang) error {
	var b strings.Builder
	fmt.Fprintln(&b, tc(l, "sim.head", r.Name, policyWord(l, r.Policy), r.DurationS/3600))
	b.WriteString("\n")
	t := &Table{Columns: []Column{{tc(l, "col.quantity"), "quantity", false}, {tc(l, "col.value"), "value", true}, {tc(l, "col.unit"), "unit", false}}}
	t.Add(tc(l, "sim.requests"), fmt.Sprint(r.Requests), tc(l, "sim.arrived"))
	t.Add(tc(l, "sim.completed"), fmt.Sprint(r.Completed), "")
	t.Add(tc(l, "sim.dropped"), fmt.Sprint(r.Dropped), tc(l, "sim.queue_full"))
	t.Add(tc(l, "sim.timed_out"), fmt.Sprint(r.TimedOut), tc(l, "sim.gave_up"))
	t.Add(tc(l, "sim.violations"), fmt.Sprintf("%.2f", r.SLOViolationFraction*100), tc(l, "sim.pct_requests"))
	t.Add(tc(l, "sim.cost"), fmt.Sprintf("%.2f", r.CostUSD), tc(l, "col.usd"))
	t.Add(tc(l, "sim.replica_h"), fmt.Sprintf("%.2f", r.ReplicaHours), tc(l, "u.h"))
	if r.InstanceHours > 0 {
		t.Add(tc(l, "sim.instance_h"), fmt.Sprintf("%.2f", r.InstanceHours), tc(l, "sim.instance_h_unit"))
	}
	t.Add(tc(l, "sim.gpu_h"), fmt.Sprintf("%.2f", r.GPUHours), tc(l, "u.h"))
	t.Add(tc(l, "sim.util"), fmt.Sprintf("%.2f", r.Utilization*100), tc(l, "sim.util_unit"))
	t.Add(tc(l, "sim.mean_replicas"), fmt.Sprintf("%.2f", chartSnap(r.MeanReplicas)), "")
	t.Add(tc(l, "sim.peak_replicas"), fmt.Sprint(r.PeakReplicas), "")
	t.Add(tc(l, "sim.cold_starts"), fmt.Sprint(r.ColdStarts), "")
	t.Add(tc(l, "sim.scale_events"), fmt.Sprint(r.ScaleEvents), "")
	if r.Interruptions > 0 {
		t.Add(tc(l, "sim.interruptions"), fmt.Sprint(r.Interruptions), tc(l, "sim.requeued", r.Requeued))
	}
	if err := t.WriteText(&b); err != nil {
		return err
	}
	b.WriteString("\n" + tc(l, "sim.latency") + "\n")
	lt := &Table{Columns: []Column{{"", "what", false}, {tc(l, "sim.mean"), "mean", true}, {"P50", "p50", true}, {"P95", "p95", true}, {"P99", "p99", true}, {tc(l, "sim.max"), "max", true}}}
	for _, row := range []struct {
		key string
		p   autoscale.Percentiles
	}{{"sim.queueing", r.Wait}, {"sim.first_token", r.TTFT}, {"sim.end_to_end", r.Latency}} {
		lt.Add(tc(l, row.key), f3(row.p.MeanS), f3(row.p.P50S), f3(row.p.P95S), f3(row.p.P99S), f3(row.p.MaxS))
	}
	if err := lt.WriteText(&b); err != nil {
		return err
	}
	if len(r.Tiers) > 1 {
		b.WriteString("\n" + tc(l, "sim.tiers") + "\n")
		tt := &Table{Columns: []Column{{tc(l, "sim.tier"), "tier", false}, {tc(l, "sim.tier_price"), "price", true}, {tc(l, "sim.tier_h"), "replica_hours", true}, {tc(l, "sim.tier_cost"), "cost", true}}}
		for _, x := range r.Tiers {
			tt.Add(tierWord(l, x.Name), fmt.Sprintf("%.2f", x.PricePerHourUSD), fmt.Sprintf("%.2f", x.ReplicaHours), fmt.Sprintf("%.2f", x.CostUSD))
		}
		if err := tt.WriteText(&b); err != nil {
			return err
		}
	}
	if err := writeCommitments(&b, r, l); err != nil {
		return err
	}
	verdict := "sim.meets"
	if !r.SLOMet {
		verdict = "sim.misses"
	}
	b.WriteString("\n" + tc(l, verdict, r.SLOViolationFraction*100) + "\n")
	if a := AdviceText(l, r); a != "" {
		b.WriteString(a + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCommitments prints the run's on-demand replicas priced as a
// committed base plus on-demand above it, one row per commitment, and a
// sentence on the cheapest.
func writeCommitments(b *strings.Builder, r *autoscale.Result, l Lang) error {
	if len(r.Commitments) == 0 {
		return nil
	}
	b.WriteString("\n" + tc(l, "sim.commit") + "\n")
	t := &Table{Columns: []Column{{tc(l, "sim.commit_term"), "term", false}, {tc(l, "sim.commit_base"), "base", true},
		{tc(l, "sim.commit_price"), "price", true}, {tc(l, "sim.commit_held"), "held", true}, {tc(l, "sim.commit_cost"), "cost", true},
		{tc(l, "sim.commit_od"), "on_demand", true}, {tc(l, "sim.commit_fleet"), "fleet", true}}}
	best := -1
	for i, c := range r.Commitments {
		held := "-"
		if c.Base > 0 {
			held = fmt.Sprintf("%.0f", c.BaseHeldFraction*100)
		}
		t.Add(modeName(l, c.Term), commitUnits(l, c), fmt.Sprintf("%.2f", c.PerHourUSD), held, fmt.Sprintf("%.2f", c.CostUSD),
			fmt.Sprintf("%.2f", c.OnDemandCostUSD), fmt.Sprintf("%.2f", c.FleetCostUSD))
		if c.Base > 0 && (best < 0 || c.CostUSD < r.Commitments[best].CostUSD) {
			best = i
		}
	}
	if err := t.WriteText(b); err != nil {
		return err
	}
	if best < 0 {
		// Every commitment's base is 0: name the cheapest term's bar.
		c := r.Commitments[0]
		for _, x := range r.Commitments[1:] {
			if x.BreakEven < c.BreakEven {
				c = x
			}
		}
		b.WriteString(tc(l, "sim.commit_none", c.BreakEven*100, modeName(l, c.Term)) + "\n")
		return nil
	}
	c := r.Commitments[best]
	saving := 0.0
	if c.OnDemandCostUSD > 0 {
		saving = (1 - c.CostUSD/c.OnDemandCostUSD) * 100
	}
	b.WriteString(tc(l, "sim.commit_best", commitUnits(l, c), modeName(l, c.Term), c.CostUSD, c.OnDemandCostUSD, saving, c.BreakEven*100, c.BaseHeldFraction*100) + "\n")
	return nil
}

// commitUnits says a commitment's base with its unit, in l.
func commitUnits(l Lang, c autoscale.CommitResult) string {
	if c.Unit == "instance" {
		return tc(l, "sim.unit_instance", c.Base)
	}
	return tc(l, "sim.unit_replica", c.Base)
}

func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

// tierWord names a fleet tier (on-demand, spot, fallback) in l.
func tierWord(l Lang, t string) string {
	if l == Chinese {
		if z, ok := map[string]string{"on-demand": "按需", "spot": "竞价", "fallback": "兜底"}[t]; ok {
			return z
		}
	}
	return Tr(l, t)
}

// policyWord names a scaling policy kind in l.
func policyWord(l Lang, p string) string {
	if l == Chinese {
		if z, ok := policyZh[p]; ok {
			return z
		}
	}
	return p
}

var policyZh = map[string]string{
	"fixed": "固定副本", "target": "目标跟踪", "hpa": "HPA", "keda": "KEDA", "knative": "Knative",
	"serverless": "无服务器", "mixed": "混合",
}

// WriteSearch prints the cheapest policy and offer that meet the SLO and
// the runners-up, in l.
func WriteSearch(w io.Writer, s *autoscale.SearchResult, l Lang) error {
	var b strings.Builder
	if s.Best != nil {
		where := s.Best.Candidate
		if s.Best.Region != "" {
			where += tc(l, "search.in", s.Best.Region)
		}
		fmt.Fprintln(&b, tc(l, "search.best", where, Render(l, s.Best.SummaryMsg()), s.Best.CostUSD, s.Best.P95LatencyS, s.Best.SLOViolationFraction*100, s.Best.Utilization*100))
		b.WriteString("\n")
	} else {
		b.WriteString(tc(l, "search.none") + "\n\n")
	}
	t := &Table{Columns: []Column{{"#", "rank", true}, {tc(l, "search.candidate"), "candidate", false}, {tc(l, "col.region"), "region", false}, {tc(l, "search.policy"), "policy", false}, {tc(l, "search.cost"), "cost_usd", true},
		{tc(l, "search.p95"), "p95_latency_s", true}, {tc(l, "search.violations"), "slo_violation_pct", true}, {tc(l, "search.util"), "utilization_pct", true}, {"SLO", "meets_slo", false}}}
	rows := append([]autoscale.SearchEntry(nil), s.RunnersUp...)
	if s.Best != nil {
		rows = append([]autoscale.SearchEntry{*s.Best}, rows...)
	}
	for i, e := range rows {
		ok := tc(l, "search.met")
		if !e.MeetsSLO {
			ok = tc(l, "search.missed")
		}
		t.Add(fmt.Sprint(i+1), e.Candidate, orDash(e.Region), Render(l, e.SummaryMsg()), fmt.Sprintf("%.2f", e.CostUSD), f3(e.P95LatencyS),
			fmt.Sprintf("%.2f", e.SLOViolationFraction*100), fmt.Sprintf("%.0f", e.Utilization*100), ok)
	}
	if err := t.WriteText(&b); err != nil {
		return err
	}
	fmt.Fprintln(&b, tc(l, "search.runs", s.Evaluated))
	_, err := io.WriteString(w, b.String())
	return err
}

// chartPanel is one panel of the simulation chart: a series over time on a
// y axis from 0 to Max, with ticks every Step, and an optional limit line.
type chartPanel struct {
	Title, YLabel string
	XY            plotter.XYs
	Max, Step     float64
	Limit         float64 // a horizontal line (the SLO), 0 = none
	LimitLabel    string
	Color         color.Color
}

// Series colours (Okabe-Ito, readable by colour-blind people); the SLO line
// is vermilion and dashed.
var (
	trafficColor  = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	replicasColor = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	latencyColor  = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
	sloColor      = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
)

// chartSnap rounds away float noise (a time-weighted mean of 5 replicas comes
// out as 4.9999999 or 5.0000008), so a flat series is drawn flat.
func chartSnap(v float64) float64 { return math.Round(v*1000) / 1000 }

// niceStep is the 1-2-5 step that cuts [0, max] into about n intervals.
func niceStep(max float64, n int) float64 {
	if !(max > 0) {
		return 1
	}
	raw := max / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// chartPanels builds the panels of a simulation chart: traffic, replicas
// and p95 latency, each on an axis from 0 (scale-to-zero is visible) to a
// whole number of 1-2-5 steps above its peak; the latency panel carries
// the SLO's latency bound when there is one.
func chartPanels(r *autoscale.Result, slo autoscale.SLO, l Lang) []chartPanel {
	panels := []chartPanel{
		{Title: tc(l, "chart.traffic"), YLabel: tc(l, "chart.traffic_y"), Color: trafficColor},
		{Title: tc(l, "chart.replicas"), YLabel: tc(l, "chart.replicas_y"), Color: replicasColor},
		{Title: tc(l, "chart.latency"), YLabel: tc(l, "chart.latency_y"), Color: latencyColor},
	}
	value := []func(autoscale.SeriesPoint) float64{
		func(p autoscale.SeriesPoint) float64 { return p.ArrivalsPerS },
		func(p autoscale.SeriesPoint) float64 { return p.Replicas },
		func(p autoscale.SeriesPoint) float64 { return p.P95LatencyS },
	}
	if slo.LatencyS > 0 {
		panels[2].Limit, panels[2].LimitLabel = slo.LatencyS, tc(l, "chart.slo", slo.LatencyS)
	}
	for i := range panels {
		pn := &panels[i]
		pn.XY = make(plotter.XYs, len(r.Series))
		peak := pn.Limit
		for k, s := range r.Series {
			pn.XY[k].X, pn.XY[k].Y = s.TS/3600, chartSnap(value[i](s))
			peak = math.Max(peak, pn.XY[k].Y)
		}
		if i == 1 {
			peak = math.Max(peak, 1) // at least one replica's height
		}
		pn.Step, pn.Max = axisTop(peak)
	}
	return panels
}

// stepTicker puts a labelled tick every Step from 0 to Max.
type stepTicker struct{ Step, Max float64 }

func (t stepTicker) Ticks(_, _ float64) []plot.Tick {
	prec := 0
	if t.Step < 1 {
		prec = int(math.Ceil(-math.Log10(t.Step) - 1e-9))
	}
	var ticks []plot.Tick
	for i := 0; ; i++ {
		v := float64(i) * t.Step
		if v > t.Max*(1+1e-9) {
			break
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', prec, 64)})
	}
	return ticks
}

// SimulationChart draws traffic, replicas and p95 latency over time, one
// panel each, under a title, as "svg" or "png". The axes start at 0 with
// 1-2-5 ticks; the SLO's latency bound is a dashed line. Labels are in
// English in a PNG (its font has no Chinese glyphs) and in l in an SVG.
func SimulationChart(w io.Writer, format string, r *autoscale.Result, slo autoscale.SLO, l Lang) error {
	if format == "png" {
		l = English
	}
	panels := chartPanels(r, slo, l)
	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.Title
		p.Y.Label.Text = pn.YLabel
		p.Y.Min, p.Y.Max = 0, pn.Max
		p.Y.Tick.Marker = stepTicker{Step: pn.Step, Max: pn.Max}
		if i == len(panels)-1 {
			p.X.Label.Text = tc(l, "chart.time")
		}
		if hours := r.DurationS / 3600; hours > 0 {
			p.X.Min, p.X.Max = 0, hours
			p.X.Tick.Marker = stepTicker{Step: niceStep(hours, 6), Max: hours}
		}
		p.Add(plotter.NewGrid())
		if len(pn.XY) > 0 {
			line, err := plotter.NewLine(pn.XY)
			if err != nil {
				return apperr.Wrap(apperr.Internal, "chart", err)
			}
			line.Color = pn.Color
			line.Width = vg.Points(1.5)
			p.Add(line)
		}
		if pn.Limit > 0 {
			if err := addSLOLine(p, 0, r.DurationS/3600, pn.Limit, pn.LimitLabel); err != nil {
				return err
			}
			p.Legend.Top = true
			p.Legend.XOffs, p.Legend.YOffs = -vg.Millimeter*3, -vg.Millimeter*1 // inside the frame
		}
		plots[i] = []*plot.Plot{p}
	}
	title := tc(l, "chart.title", r.Name, policyWord(l, r.Policy), r.DurationS/3600)
	return writeTitledPanels(w, format, title, 7.5*vg.Inch, vg.Millimeter*4, plots)
}

// addSLOLine draws the SLO's bound limit on p as a dashed vermilion line
// from x0 to x1, labelled in the legend.
func addSLOLine(p *plot.Plot, x0, x1, limit float64, label string) error {
	lim, err := plotter.NewLine(plotter.XYs{{X: x0, Y: limit}, {X: x1, Y: limit}})
	if err != nil {
		return apperr.Wrap(apperr.Internal, "chart", err)
	}
	lim.Color = sloColor
	lim.Width = vg.Points(1.5)
	lim.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(lim)
	p.Legend.Add(label, lim)
	return nil
}

// writeTitledPanels draws plots (one panel a row, padY apart) under title
// on a page 8 inches wide and height high, and writes it to w as "svg" or
// "png".
func writeTitledPanels(w io.Writer, format, title string, height, padY vg.Length, plots [][]*plot.Plot) error {
	width := 8 * vg.Inch
	drawAll := func(c vg.CanvasSizer) { // the title, then the panels below it
		dc := draw.New(c)
		font := plot.DefaultFont
		font.Size = vg.Points(14)
		sty := draw.TextStyle{Color: color.Black, Font: font, XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
		dc.FillText(sty, vg.Point{X: width / 2, Y: height - vg.Millimeter*3}, title)
		body := draw.Crop(dc, 0, 0, 0, -vg.Millimeter*12)
		tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: padY, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
		for i, row := range plot.Align(plots, tiles, body) {
			plots[i][0].Draw(row[0])
		}
	}
	switch format {
	case "svg":
		c := vgsvg.New(width, height)
		drawAll(c)
		_, err := c.WriteTo(w)
		return err
	case "png":
		c := vgimg.New(width, height)
		drawAll(c)
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	return apperr.Invalidf("--chart", "want a file ending in .svg or .png, got format %q", format)
}

// axisTop is the 1-2-5 step for an axis from 0 whose data peak at peak,
// and the top of the axis: a whole number of steps, at least one, with
// headroom above the peak so a flat line does not sit on the frame.
func axisTop(peak float64) (step, top float64) {
	step = niceStep(peak*1.15, 5)
	top = math.Ceil(peak*1.15/step-1e-9) * step
	if top <= 0 {
		top = step
	}
	return step, top
}

// PlanReplayJSON is `simulate -f WORKLOAD.yaml -o json`: the plan
// recommend ranks first (offer, region, pricing, its fleet and scaling,
// with the check recommend quotes) and the simulator's replay of its day.
type PlanReplayJSON struct {
	Offer      string            `json:"offer"`
	Region     string            `json:"region"`
	Pricing    string            `json:"pricing"`
	Plan       PlanJSON          `json:"plan"`
	Simulation *autoscale.Result `json:"simulation"`
}

// PlanReplayView is the JSON of a replayed plan.
func PlanReplayView(c *advisor.Candidate, r *autoscale.Result) PlanReplayJSON {
	return PlanReplayJSON{Offer: c.Offer.ID(), Region: c.Offer.Region, Pricing: c.Cost.Mode.String(), Plan: PlanView(c.Plan), Simulation: r}
}

// WritePlanReplay prints the replay of the plan recommend ranks first:
// which plan it is, the simulation, and the check recommend quotes for it
// (the same day, so the same numbers).
func WritePlanReplay(w io.Writer, c *advisor.Candidate, r *autoscale.Result, l Lang) error {
	var b strings.Builder
	fmt.Fprintln(&b, tc(l, "sim.plan_head", c.Offer.ID(), c.Offer.Region, modeName(l, c.Cost.Mode.String())))
	fmt.Fprintln(&b, "  "+PlanSentence(c.Plan, l))
	if sc := c.Plan.Scaling; sc != nil && sc.Check != nil {
		ch := sc.Check
		fmt.Fprintln(&b, "  "+tc(l, "sim.plan_check", pct4(ch.SLOAttainment), thousands(int(ch.Requests)), pct(ch.SLOTarget), usd(ch.PerMonthUSD)))
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return WriteSimulation(w, r, l)
}
