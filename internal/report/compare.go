package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// ChangesJSON is what changed in a recommendation since a saved run
// (`recommend --compare-to previous.json`), like a cost diff in review:
// the "changes" of `recommend -o json`.
type ChangesJSON struct {
	// Since is the saved file compared with.
	Since string `json:"since"`
	// Pick and PreviousPick name #1 now and then: "offer in region,
	// pricing, N GPUs"; empty when nothing qualified.
	Pick         string `json:"pick"`
	PreviousPick string `json:"previous_pick"`
	PickChanged  bool   `json:"pick_changed"`
	// CostUSD is #1's total cost (per month for a service) now and then;
	// DurationHours its time (null for a service or an unknown price).
	CostUSD       *DeltaJSON `json:"cost_usd"`
	DurationHours *DeltaJSON `json:"duration_hours"`
	// Appeared and Disappeared are the candidates in one ranking shown
	// and not in the other, named as Pick is.
	Appeared    []string `json:"appeared"`
	Disappeared []string `json:"disappeared"`
	// Sentences say it all for people, in the report's language.
	Sentences []string `json:"sentences"`
}

// DeltaJSON is a number now and before, and the change.
type DeltaJSON struct {
	Now           float64  `json:"now"`
	Before        float64  `json:"before"`
	Change        float64  `json:"change"`
	ChangePercent *float64 `json:"change_percent"` // null when Before is 0
}

// ParseSaved reads a saved `recommend -o json` document. An error names
// the file (and the line of a JSON syntax error) and is the user's input.
func ParseSaved(data []byte, file string) (RecommendJSON, error) {
	var d RecommendJSON
	var probe struct {
		Candidates *json.RawMessage `json:"candidates"`
		Workload   *string          `json:"workload"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		line := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		}
		return d, &apperr.Error{Code: apperr.Invalid, File: file, Line: line, Field: "--compare-to", Msg: "not a saved `gpupick recommend -o json`: " + err.Error()}
	}
	if probe.Candidates == nil || probe.Workload == nil {
		return d, &apperr.Error{Code: apperr.Invalid, File: file, Field: "--compare-to", Msg: "not a saved `gpupick recommend -o json`: it has no \"workload\" and \"candidates\""}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return d, &apperr.Error{Code: apperr.Invalid, File: file, Field: "--compare-to", Msg: "not a saved `gpupick recommend -o json`: " + err.Error()}
	}
	return d, nil
}

// candidateKey names one candidate of a ranking.
func candidateKey(c CandidateJSON) string {
	gpus := "GPUs"
	if c.GPUs == 1 {
		gpus = "GPU"
	}
	return fmt.Sprintf("%s in %s, %s, %d %s", c.Offer, c.Region, c.Pricing, c.GPUs, gpus)
}

// maxListed bounds the candidates a changes sentence lists.
const maxListed = 5

// Compare says what changed from before (a saved run, read from since)
// to now, in l. Both rankings are compared as shown (their top rows).
func Compare(before, now RecommendJSON, since string, l Lang) *ChangesJSON {
	ch := &ChangesJSON{Since: since, Appeared: []string{}, Disappeared: []string{}, Sentences: []string{}}
	if len(now.Candidates) > 0 {
		ch.Pick = candidateKey(now.Candidates[0])
	}
	if len(before.Candidates) > 0 {
		ch.PreviousPick = candidateKey(before.Candidates[0])
	}
	ch.PickChanged = ch.Pick != ch.PreviousPick
	say := func(s string) { ch.Sentences = append(ch.Sentences, s) }
	if before.Workload != now.Workload {
		say(am(l, "compare_workload", before.Workload, now.Workload))
	}
	none := am(l, "no_pick")
	switch {
	case ch.PickChanged:
		say(am(l, "compare_new_pick", orText(ch.Pick, none), orText(ch.PreviousPick, none)))
	case ch.Pick != "":
		say(am(l, "compare_same", ch.Pick))
	}
	if len(now.Candidates) > 0 && len(before.Candidates) > 0 {
		a, b := now.Candidates[0], before.Candidates[0]
		if a.Cost != nil && b.Cost != nil {
			ch.CostUSD = delta(a.Cost.Total, b.Cost.Total)
			if now, was := usd(a.Cost.Total), usd(b.Cost.Total); now != was {
				say(am(l, "compare_cost", now, was, percentText(ch.CostUSD)))
			}
		}
		if a.DurationHours != nil && b.DurationHours != nil {
			ch.DurationHours = delta(*a.DurationHours, *b.DurationHours)
			// A change too small to print is no news.
			if now, was := hoursFmt(*a.DurationHours), hoursFmt(*b.DurationHours); now != was {
				say(am(l, "compare_time", am(l, "hours_v", now), am(l, "hours_v", was), percentText(ch.DurationHours)))
			}
		}
	}
	was := map[string]bool{}
	for _, c := range before.Candidates {
		was[candidateKey(c)] = true
	}
	is := map[string]bool{}
	for _, c := range now.Candidates {
		k := candidateKey(c)
		is[k] = true
		if !was[k] {
			ch.Appeared = append(ch.Appeared, k)
		}
	}
	for _, c := range before.Candidates {
		if k := candidateKey(c); !is[k] {
			ch.Disappeared = append(ch.Disappeared, k)
		}
	}
	if len(ch.Appeared) > 0 {
		say(am(l, "compare_appeared", listSome(ch.Appeared, l)))
	}
	if len(ch.Disappeared) > 0 {
		say(am(l, "compare_gone", listSome(ch.Disappeared, l)))
	}
	if len(ch.Sentences) == 0 || (len(ch.Sentences) == 1 && !ch.PickChanged && ch.Pick != "") {
		say(am(l, "compare_none"))
	}
	return ch
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

func delta(now, before float64) *DeltaJSON {
	d := &DeltaJSON{Now: now, Before: before, Change: r2(now - before)}
	if before != 0 {
		d.ChangePercent = fp(math.Round((now-before)/before*1000) / 10)
	}
	return d
}

// percentText writes a change as "+12.5%" or "-3%".
func percentText(d *DeltaJSON) string {
	if d.ChangePercent == nil {
		return fmt.Sprintf("%+.2f", d.Change)
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%+.1f", *d.ChangePercent), "0"), ".") + "%"
}

// listSome lists the first maxListed names and counts the rest.
func listSome(names []string, l Lang) string {
	if len(names) <= maxListed {
		return strings.Join(names, "; ")
	}
	return strings.Join(names[:maxListed], "; ") + am(l, "and_more", len(names)-maxListed)
}
