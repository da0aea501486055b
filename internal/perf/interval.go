package perf

import (
	"math"

	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Interval is the 80% range a prediction's speed is expected in, from the
// held-out residuals of its regime (docs/accuracy.md): the measured speed
// was between SpeedP10 and SpeedP90 times the predicted speed for 80% of
// published rows from sources the model was not fitted to.
type Interval struct {
	Regime   string  `json:"regime"`
	SpeedP10 float64 `json:"speed_p10"` // multiplies the predicted speed
	SpeedP90 float64 `json:"speed_p90"`
	// Widened is how much the regime's band was widened for the
	// prediction's confidence (1 for high).
	Widened float64 `json:"widened"`
	Basis   msg.Msg `json:"basis"`
}

// widening is how much wider than its regime's band a prediction of each
// confidence class is: the regime bands come mostly from NVIDIA rows.
var widening = map[string]float64{"high": 1, "medium": 1.5, "low": 2.5}

// lowerConfidence is the next class down.
func lowerConfidence(c string) string {
	switch c {
	case "high":
		return "medium"
	}
	return "low"
}

// applyInterval fills the p10/p90 fields of a fitting prediction from the
// parameters' intervals; parameters without intervals (a fit in progress)
// leave them empty.
func applyInterval(m *Params, spec *workload.Spec, p *Prediction) {
	if !p.Fits || len(m.intervals) == 0 {
		return
	}
	reg := RegimeOf(spec)
	q, ok := m.intervals[reg]
	if !ok {
		q, ok = m.intervals["pooled"]
	}
	if !ok {
		return
	}
	w := widening[p.Confidence]
	if w == 0 {
		w = widening["low"]
	}
	// Widening scales the band for an accelerator or engine the rows
	// calibrate less; a band already wide (a regime whose sources disagree)
	// is widened by at most the factor w itself on each side, so that its
	// own spread is not counted twice.
	lo := math.Exp(math.Max(q[0]*w, q[0]-math.Log(w)))
	hi := math.Exp(math.Min(q[1]*w, q[1]+math.Log(w)))
	iv := &Interval{Regime: reg, SpeedP10: round(lo, 3), SpeedP90: round(hi, 3), Widened: w,
		Basis: msg.New("80%% interval from the leave-one-source-out residuals of %s predictions (measured speed %.2f-%.2f times predicted)", reg, math.Exp(q[0]), math.Exp(q[1]))}
	if w > 1 {
		iv.Basis = msg.New("%s, widened to %.2f-%.2f times for %s confidence", iv.Basis, lo, hi, p.Confidence)
	}
	p.Interval = iv
	d := throughputDigits(spec)
	p.Throughput.P10 = ptr(round(p.Throughput.Value*lo, d))
	p.Throughput.P90 = ptr(round(p.Throughput.Value*hi, d))
	// Times shrink as speed grows: the low end of a time is the high end
	// of the speed.
	if p.DurationHours != nil {
		p.DurationHoursP10 = ptr(*p.DurationHours / hi)
		p.DurationHoursP90 = ptr(*p.DurationHours / lo)
	}
	if p.TTFTMs != nil {
		p.TTFTMsP10 = ptr(round(*p.TTFTMs/hi, 1))
		p.TTFTMsP90 = ptr(round(*p.TTFTMs/lo, 1))
	}
	if p.LatencyS != nil {
		p.LatencySP10 = ptr(round(*p.LatencyS/hi, 3))
		p.LatencySP90 = ptr(round(*p.LatencyS/lo, 3))
	}
	if p.TPOTMs != nil {
		p.TPOTMsP10 = ptr(round(*p.TPOTMs/hi, 2))
		p.TPOTMsP90 = ptr(round(*p.TPOTMs/lo, 2))
	}
	p.Assumptions = append(p.Assumptions, iv.Basis)
}
