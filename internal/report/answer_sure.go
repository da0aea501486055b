package report

import (
	"math"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
)

// How sure the answer is, against real alternatives, and how likely the
// pick is to miss its deadline.

// DeadlineRiskJSON is the pick's chance of missing
// constraints.deadline_hours when its 80% range of time crosses it, and
// the cheapest candidate that meets the deadline at p90.
type DeadlineRiskJSON struct {
	DeadlineHours float64 `json:"deadline_hours"`
	// PMiss is the pick's chance of missing the deadline, 0 to 1: its
	// speed's 80% range read as a log-normal and, on spot, interruptions;
	// PMissSpot is interruptions' part alone (absent off spot).
	PMiss     float64  `json:"p_miss"`
	PMissSpot *float64 `json:"p_miss_spot,omitempty"`
	// Safe is the cheapest candidate that meets the deadline at p90 (null
	// when none does); SafeHoursP90 its p90 time; ExtraUSD its total cost
	// minus the pick's (null when either has no price).
	Safe         *AnswerPickJSON `json:"safe"`
	SafeHoursP90 *float64        `json:"safe_duration_hours_p90"`
	ExtraUSD     *float64        `json:"extra_usd"`
	Sentence     string          `json:"sentence"`
}

// deadlineRiskAnswer is r.DeadlineRisk for the answer, in l; nil when the
// pick meets its deadline at p90 (or has none).
func deadlineRiskAnswer(r *advisor.Result, l Lang) *DeadlineRiskJSON {
	d := r.DeadlineRisk
	if d == nil || len(r.Candidates) == 0 {
		return nil
	}
	pick := r.Candidates[0]
	// The sentence states the rounded chances the JSON carries, so the two never disagree.
	j := &DeadlineRiskJSON{DeadlineHours: d.DeadlineHours, PMiss: math.Round(d.Miss*1000) / 1000}
	hours := func(v float64) string { return am(l, "hours_v", hoursFmt(v)) }
	var parts []string
	if pick.DurationHoursP90 > d.DeadlineHours {
		parts = append(parts, am(l, "dl_range", hours(d.DeadlineHours), hoursFmt(pick.DurationHoursP10), hours(pick.DurationHoursP90), pct(j.PMiss)))
	} else {
		parts = append(parts, am(l, "dl_spot", pct(j.PMiss), hours(d.DeadlineHours)))
	}
	if pick.Cost.Spot != nil {
		j.PMissSpot = fp(math.Round(d.MissSpot*1000) / 1000)
		parts[0] += am(l, "dl_spot_part", pct(*j.PMissSpot))
	}
	if s := d.Safe; s != nil {
		j.Safe = answerPick(s, l)
		j.SafeHoursP90 = fp(r2(s.DurationHoursP90))
		if s.DurationHoursP90 == 0 {
			j.SafeHoursP90 = fp(r2(s.DurationHours))
		}
		keep := "dl_keep"
		if d.Miss > 0.5 {
			keep = "dl_keep_likely"
		}
		price := am(l, "dl_total", usd(s.Cost.Cost.Total))
		if pick.Cost.PriceKnown {
			extra := s.Cost.Cost.Total - pick.Cost.Cost.Total
			j.ExtraUSD = fp(r2(extra))
			rel := 100 * extra / pick.Cost.Cost.Total
			price = am(l, "dl_more", usd(extra), rel)
			if extra < 0 {
				price = am(l, "dl_less", usd(-extra), -rel)
			}
		}
		parts = append(parts, am(l, "dl_safe", s.Offer.ID(), s.Offer.Region, s.Rank, am(l, "gpus_n", s.GPUs, s.Offer.GPU),
			modeName(l, s.Cost.Mode.String()), hours(*j.SafeHoursP90), price), am(l, keep))
	} else {
		parts = append(parts, am(l, "dl_none"))
	}
	j.Sentence = sentences(l, parts...)
	return j
}

// sentences joins clauses into sentences, each ended once: "A. B." or
// "甲。乙。".
func sentences(l Lang, parts ...string) string {
	var b strings.Builder
	for _, s := range parts {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if l == Chinese {
			b.WriteString(strings.TrimSuffix(s, "。") + "。")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSuffix(s, ".") + ".")
	}
	return b.String()
}

// sureText is the answer's "how sure" sentence in l: #1 against the best
// candidate of another instance type and, within 20%, of another
// accelerator; against #2 when every candidate is #1's instance type.
func sureText(l Lang, c *advisor.Confidence) string {
	if len(c.Alternatives) == 0 {
		return confidenceText(l, c)
	}
	better := am(l, "sure_cheaper")
	if c.Basis == "time" {
		better = am(l, "sure_faster")
	}
	t := c.Alternatives[0]
	s := am(l, "sure_alt_type", better, t.Offer, t.Rank, 100*t.Probability)
	if t.GPU != c.GPU {
		s = am(l, "sure_alt_type_gpu", better, t.Offer, t.Rank, t.GPU, 100*t.Probability)
	}
	probe := []string{c.GPU}
	tied := !t.Distinguishable
	if tied && t.GPU != c.GPU {
		probe = append(probe, t.GPU)
	}
	for _, a := range c.Alternatives[1:] {
		s += am(l, "sure_alt_gpu", a.Offer, a.Rank, a.GPU, 100*math.Max(0, a.Behind), better, 100*a.Probability)
		if !a.Distinguishable {
			tied = true
			probe = append(probe, a.GPU)
		}
	}
	parts := []string{s}
	if tied {
		on := am(l, "sure_probe_one", probe[0])
		if len(probe) > 1 {
			on = am(l, "sure_probe_many", strings.Join(probe[:len(probe)-1], am(l, "comma")), probe[len(probe)-1])
		}
		parts = append(parts, am(l, "sure_alt_tied", on))
	}
	return sentences(l, parts...)
}
