package report

import (
	"fmt"
	"math"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
)

// A service's day in the answer: the base that always runs and how it is
// paid for, the peak and what the busy hours add, what a lost instance
// and a lost zone do, and the simulated day that checked the plan. The
// numbers are the pick's plan (plan.scaling); the sentences say them.

// DayJSON is the pick's plan over its day: its figures and a sentence
// each for the base, the peak, the loss of an instance, the loss of a
// zone and the simulator's check.
type DayJSON struct {
	Scaling *advisor.Scaling `json:"scaling"`
	Lines   []string         `json:"lines"`
}

// dayAnswer is the day of r's pick, nil when the pick is no planned
// service.
func dayAnswer(r *advisor.Result, l Lang) *DayJSON {
	if len(r.Candidates) == 0 || r.Candidates[0].Plan.Scaling == nil || !r.Candidates[0].Cost.PriceKnown {
		return nil
	}
	c := r.Candidates[0]
	sc := c.Plan.Scaling
	o := c.Offer
	d := &DayJSON{Scaling: sc}
	add := func(key string, args ...any) { d.Lines = append(d.Lines, am(l, key, args...)) }
	production := sc.Spare > 0
	mode := func(m catalog.Mode) string { return modeName(l, m.String()) }

	// The base.
	why := am(l, "day_base_need", max(1, sc.TroughNeed))
	if sc.TroughRPS >= sc.PeakRPS {
		why = am(l, "day_base_need_const", max(1, sc.TroughNeed))
	}
	if sc.HeadroomExtra > 0 {
		why += am(l, "day_base_headroom", sc.HeadroomExtra, pct(sc.Headroom))
	}
	switch {
	case sc.ZoneSafe:
		why += am(l, "day_base_spare_zone", sc.Spare)
	case production:
		why += am(l, "day_base_spare", sc.Spare)
	}
	if sc.Held < sc.Base {
		if sc.Held > 0 {
			add("day_base_spot", sc.Base, sc.Held, mode(sc.BaseMode), sc.Base-sc.Held, usd(sc.BaseUSD), why)
		} else {
			add("day_base_allspot", sc.Base, usd(sc.BaseUSD), why)
		}
	} else {
		add("day_base", sc.Base, mode(sc.BaseMode), usd(sc.BaseUSD), why)
	}

	// The peak.
	if burst := sc.Max - sc.Base; burst > 0 && sc.BurstInstances > 0 {
		hours := 24 * sc.BurstInstances / float64(burst)
		add("day_peak", sc.Max, fmt.Sprintf("%02d:00", sc.PeakHour), sig(sc.PeakRPS), burst, mode(sc.BurstMode), am(l, "hours_v", hoursFmt(hours)), usd(sc.BurstUSD))
	} else if sc.TroughRPS < sc.PeakRPS {
		add("day_peak_inbase", sig(sc.TroughRPS), sig(sc.PeakRPS), fmt.Sprintf("%02d:00", sc.PeakHour))
	} else {
		add("day_constant", sig(sc.MeanRPS))
	}

	// A lost instance.
	minutes := fmt.Sprintf("%.0f", math.Ceil(sc.ReplaceMinutes))
	if production {
		add("day_lose_one", minutes)
	} else {
		add("day_lose_one_be", minutes)
	}

	// A lost zone.
	switch {
	case !production:
	case sc.ZoneSafe:
		add("day_lose_zone_safe", sc.Zones, o.Region)
	case sc.Zones >= 2:
		add("day_lose_zone", o.Provider, sc.Zones, o.Region, pct(sc.ZoneLossAtPeak), minutes)
	default:
		add("day_zone_unknown", o.Region)
	}

	// The simulator.
	switch ch := sc.Check; {
	case ch != nil && ch.Met && ch.ReplicasMin == ch.ReplicasMax:
		add("day_check_fixed", pct4(ch.SLOAttainment), thousands(int(ch.Requests)), pct(ch.SLOTarget), usd(ch.PerMonthUSD), ch.ReplicasMax)
	case ch != nil && ch.Met:
		add("day_check", pct4(ch.SLOAttainment), thousands(int(ch.Requests)), pct(ch.SLOTarget), usd(ch.PerMonthUSD), ch.ReplicasMin, ch.ReplicasMax, sig(ch.TargetInFlight))
	case ch != nil:
		add("day_check_missed", pct4(ch.SLOAttainment), thousands(int(ch.Requests)), pct(ch.SLOTarget))
	case sc.Sized:
		add("day_sized", sig(sc.PeakRPS))
	case sc.ReplayedIn != "":
		add("day_replayed_in", sc.ReplayedIn)
	default:
		add("day_estimate")
	}
	if sc.Check != nil {
		add("day_replay")
	}
	return d
}

// pct4 is a share as a percentage with two decimals, rounded down so
// that a day with one request over its SLO never reads 100%.
func pct4(v float64) string { return fmt.Sprintf("%.2f%%", math.Floor(v*1e4)/100) }
