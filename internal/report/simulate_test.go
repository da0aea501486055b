package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/autoscale"
)

// flatFleet is a fixed fleet of 5 replicas whose time-weighted means carry
// float noise, as the simulator's do, under traffic that scales to zero at
// the end.
func flatFleet() *autoscale.Result {
	r := &autoscale.Result{Name: "flat", Policy: "fixed", DurationS: 3600, SeriesStepS: 60}
	noise := []float64{4.9999999, 5.0000008, 5, 4.99999995, 5.0000001}
	for i := 0; i < 60; i++ {
		r.Series = append(r.Series, autoscale.SeriesPoint{TS: float64(i * 60), ArrivalsPerS: 6 + float64(i%3)*0.1,
			Replicas: noise[i%len(noise)], P95LatencyS: 1.5 + float64(i%4)*0.2})
	}
	return r
}

type svgPath struct {
	D     string `xml:"d,attr"`
	Style string `xml:"style,attr"`
}

type svgText struct {
	Text string `xml:",chardata"`
}

type svgDoc struct {
	Paths []svgPath `xml:"g>path"`
	Texts []svgText `xml:"g>text"`
}

// points reads the vertices of an SVG path "M x,y L x,y ...".
func points(t *testing.T, d string) [][2]float64 {
	t.Helper()
	var out [][2]float64
	for _, seg := range strings.FieldsFunc(d, func(r rune) bool { return r == 'M' || r == 'L' || r == 'Z' }) {
		x, y, ok := strings.Cut(seg, ",")
		if !ok {
			t.Fatalf("path segment %q", seg)
		}
		fx, err1 := strconv.ParseFloat(x, 64)
		fy, err2 := strconv.ParseFloat(y, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("path segment %q", seg)
		}
		out = append(out, [2]float64{fx, fy})
	}
	return out
}

func chartSVG(t *testing.T, r *autoscale.Result, slo autoscale.SLO) svgDoc {
	t.Helper()
	var b bytes.Buffer
	if err := SimulationChart(&b, "svg", r, slo, English); err != nil {
		t.Fatal(err)
	}
	var doc svgDoc
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("the chart is not valid SVG: %v", err)
	}
	return doc
}

func stroked(doc svgDoc, hex string) []svgPath {
	var out []svgPath
	for _, p := range doc.Paths {
		if strings.Contains(strings.ToUpper(p.Style), "STROKE:"+hex) {
			out = append(out, p)
		}
	}
	return out
}

// TestChartFlatFleetIsFlat: 5 replicas with float noise are one horizontal
// line, the SLO is a dashed line, the chart has a title, and every axis
// starts at 0 with 1-2-5 ticks (issue 16).
func TestChartFlatFleetIsFlat(t *testing.T) {
	doc := chartSVG(t, flatFleet(), autoscale.SLO{LatencyS: 4, Target: 0.99})
	lines := stroked(doc, "#009E73")
	if len(lines) != 1 {
		t.Fatalf("want one replicas line, got %d", len(lines))
	}
	pts := points(t, lines[0].D)
	if len(pts) != 60 {
		t.Fatalf("replicas line has %d points, want 60", len(pts))
	}
	for _, p := range pts {
		if p[1] != pts[0][1] {
			t.Fatalf("a constant fleet is drawn jagged: y %v and %v", pts[0][1], p[1])
		}
	}
	slo := stroked(doc, "#D55E00")
	found := false
	for _, p := range slo {
		if !strings.Contains(p.Style, "dasharray") {
			continue
		}
		if pts := points(t, p.D); len(pts) == 2 && pts[0][1] == pts[1][1] && pts[1][0]-pts[0][0] > 100 {
			found = true // the long one is the line; the short one the legend's sample
		}
	}
	if !found {
		t.Error("no horizontal dashed SLO line across the latency panel")
	}
	var texts []string
	for _, x := range doc.Texts {
		texts = append(texts, strings.TrimSpace(x.Text))
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"flat: fixed policy over 1.0 h", "SLO 4 s", "time (h)"} {
		if !strings.Contains(all, want) {
			t.Errorf("chart lacks %q: %s", want, all)
		}
	}

	// No SLO latency bound: no SLO line.
	if got := stroked(chartSVG(t, flatFleet(), autoscale.SLO{TTFTS: 1, Target: 0.9}), "#D55E00"); len(got) != 0 {
		t.Errorf("an SLO line without a latency bound: %d paths", len(got))
	}
}

// TestChartAxesFromZero: the panels' axes run from 0 to a whole number of
// 1-2-5 steps above the peak, for a flat fleet and for one that scales to
// zero.
func TestChartAxesFromZero(t *testing.T) {
	r := flatFleet()
	for i := 40; i < 60; i++ {
		r.Series[i].Replicas, r.Series[i].ArrivalsPerS = 0, 0
	}
	for _, pn := range chartPanels(r, autoscale.SLO{LatencyS: 4}, English) {
		ticks := stepTicker{Step: pn.Step, Max: pn.Max}.Ticks(0, pn.Max)
		if len(ticks) < 3 || ticks[0].Value != 0 || ticks[0].Label != "0" {
			t.Errorf("%s: ticks %v do not start at 0", pn.Title, ticks)
		}
		mant := pn.Step / math.Pow(10, math.Floor(math.Log10(pn.Step)))
		if m := math.Round(mant*1e6) / 1e6; m != 1 && m != 2 && m != 5 {
			t.Errorf("%s: step %g is not 1, 2 or 5 times a power of ten", pn.Title, pn.Step)
		}
		peak := pn.Limit
		for _, p := range pn.XY {
			peak = math.Max(peak, p.Y)
		}
		if pn.Max < peak || pn.Max > peak*2+pn.Step {
			t.Errorf("%s: axis to %g for a peak of %g", pn.Title, pn.Max, peak)
		}
	}
	pn := chartPanels(flatFleet(), autoscale.SLO{}, English)[1]
	if pn.Max != 6 || pn.Step != 2 {
		t.Errorf("5 replicas: axis 0-%g step %g, want 0-6 step 2", pn.Max, pn.Step)
	}
	for _, p := range pn.XY {
		if p.Y != 5 {
			t.Fatalf("noise not snapped: %v", p.Y)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ max, want float64 }{{6.9, 2}, {5.75, 2}, {1, 0.2}, {0.046, 0.01}, {230, 50}, {0, 1}, {10, 2}} {
		if got := niceStep(tc.max, 5); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("niceStep(%g) = %g, want %g", tc.max, got, tc.want)
		}
	}
}

// The committed base is told in both languages: the table of terms and a
// sentence on the cheapest, with its saving and break-even; and when no
// commitment pays, a sentence saying so.
func TestWriteSimulationCommitments(t *testing.T) {
	r := flatFleet()
	r.CostUSD = 445.18
	r.Commitments = []autoscale.CommitResult{
		autoscale.PriceCommitment([]float64{0, 3600, 3600, 7200, 7200, 7200, 3600, 3600}, 2.49, 1.62),
		autoscale.PriceCommitment([]float64{0, 3600, 3600, 7200, 7200, 7200, 3600, 3600}, 2.49, 1.10),
	}
	r.Commitments[0].Term, r.Commitments[0].Unit = "reserved-1y", "instance"
	r.Commitments[1].Term, r.Commitments[1].Unit = "reserved-3y", "instance"
	c := r.Commitments[1]
	if c.Base <= r.Commitments[0].Base {
		t.Fatalf("3-year base %d not above the 1-year base %d: the fixture does not test the choice", c.Base, r.Commitments[0].Base)
	}
	for _, tc := range []struct {
		l    Lang
		want []string
	}{
		{English, []string{"Committed base", "reserved-1y", fmt.Sprintf("Commit %d instance(s) on reserved-3y", c.Base),
			fmt.Sprintf("$%.2f over the run against $%.2f all on demand", c.CostUSD, c.OnDemandCostUSD), fmt.Sprintf("more than %.0f%% of the time", c.BreakEven*100)}},
		{Chinese, []string{"承诺基数", fmt.Sprintf("以预留 3 年承诺 %d 台实例", c.Base), fmt.Sprintf("%.2f 美元", c.CostUSD), "即可回本"}},
	} {
		var b bytes.Buffer
		if err := WriteSimulation(&b, r, tc.l); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%v: %q missing from\n%s", tc.l, w, b.String())
			}
		}
	}

	r.Commitments = []autoscale.CommitResult{autoscale.PriceCommitment([]float64{3600, 100}, 2.49, 2.2)}
	r.Commitments[0].Term, r.Commitments[0].Unit = "reserved-1y", "replica"
	var b bytes.Buffer
	if err := WriteSimulation(&b, r, English); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "No commitment pays off: none of the on-demand units is held 88% of the run") {
		t.Errorf("no sentence for a commitment that does not pay:\n%s", b.String())
	}
}
