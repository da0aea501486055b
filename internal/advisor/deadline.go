package advisor

import (
	"math"
)

// OnTimeAt is the chance of missing the deadline above which a candidate
// is said not to meet it at p90: 10%, the bar the spot exclusion
// (ReasonSpotRisk) uses for interruptions.
const OnTimeAt = 0.10

// missDeadline is the chance that c, a job, finishes after deadline hours
// (0 without a deadline). The productive hours scale with 1/speed (as in
// setIntervals) and the speed's 80% range is read as that of a log-normal,
// so the chance is exactly 10% at the p90 time and above 50% when the
// median time is past the deadline. Without a range the point time decides.
// On spot, the chance that interruptions alone make it miss (computed by
// the cost model at the point time) is combined as independent.
func missDeadline(c *Candidate, deadline float64) float64 {
	if deadline <= 0 || c.DurationHours <= 0 {
		return 0
	}
	p := 0.0
	e := &c.Cost
	fixed, prod := e.WallHours-e.ProductiveHours, e.ProductiveHours
	switch iv := c.Pred.Interval; {
	case prod <= 0:
		p = b2f(c.DurationHours > deadline)
	case deadline <= fixed:
		p = 1
	case iv != nil && iv.SpeedP10 > 0 && iv.SpeedP90 > iv.SpeedP10:
		// Missed when the speed (a factor on the predicted one) is below
		// what the hours left for productive work need.
		mu, sigma := logNormal80(iv.SpeedP10, iv.SpeedP90)
		need := prod / (deadline - fixed)
		p = 0.5 * math.Erfc(-(math.Log(need)-mu)/(sigma*math.Sqrt2))
	default:
		p = b2f(c.DurationHours > deadline)
	}
	if s := e.Spot; s != nil {
		p = 1 - (1-p)*(1-s.ProbMissingDeadline)
	}
	return p
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// timeP90 is the p90 of c's time, or its point time without a range.
func timeP90(c *Candidate) float64 {
	if c.DurationHoursP90 > 0 {
		return c.DurationHoursP90
	}
	return c.DurationHours
}

// MeetsDeadlineAtP90 is true when the job c finishes by deadline hours
// with at least 90% probability, all risks counted: its p90 time is within
// the deadline and, on spot, interruptions do not push its chance of
// missing above OnTimeAt.
func MeetsDeadlineAtP90(c *Candidate, deadline float64) bool {
	return c.DurationHours > 0 && timeP90(c) <= deadline && c.PMissDeadline <= OnTimeAt
}

// DeadlineRisk is #1's risk of missing constraints.deadline_hours when
// its 80% range of time crosses the deadline (or, on spot, when
// interruptions push its chance of missing above OnTimeAt), and the
// cheapest candidate that meets the deadline at p90.
//
// It does not change the ranking. A candidate whose point time is past
// the deadline is already excluded (ReasonDeadline), so #1's chance is
// at most about one half; the rest of it is the model's uncertainty on
// speed, which gpupick probe measures away, unlike spot interruptions,
// whose own chance above OnTimeAt excludes a spot candidate
// (ReasonSpotRisk). The answer puts the chance and the price of the safe
// candidate side by side: the buyer decides what certainty is worth.
type DeadlineRisk struct {
	DeadlineHours float64
	// Miss is #1's chance of missing the deadline (Candidate.PMissDeadline);
	// MissSpot the part interruptions alone give on spot (0 otherwise).
	Miss, MissSpot float64
	// Safe is the cheapest priced candidate that meets the deadline at
	// p90 (MeetsDeadlineAtP90); nil when none does.
	Safe *Candidate
}

// deadlineRiskOf is r's DeadlineRisk, nil when the workload has no
// deadline, #1 is a service or meets the deadline at p90.
func deadlineRiskOf(r *Result, deadline float64) *DeadlineRisk {
	if deadline <= 0 || len(r.Candidates) == 0 {
		return nil
	}
	pick := r.Candidates[0]
	if pick.DurationHours <= 0 || MeetsDeadlineAtP90(pick, deadline) {
		return nil
	}
	d := &DeadlineRisk{DeadlineHours: deadline, Miss: pick.PMissDeadline}
	if s := pick.Cost.Spot; s != nil {
		d.MissSpot = s.ProbMissingDeadline
	}
	for _, c := range r.Candidates {
		if c.Cost.PriceKnown && MeetsDeadlineAtP90(c, deadline) && (d.Safe == nil || costOf(c) < costOf(d.Safe)) {
			d.Safe = c
		}
	}
	return d
}
