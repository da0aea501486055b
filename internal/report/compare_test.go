package report

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	cand := func(offer, region, mode string, gpus int, total, hours float64) CandidateJSON {
		c := CandidateJSON{Offer: offer, Region: region, Pricing: mode, GPUs: gpus, DurationHours: fp(hours)}
		c.Cost = &CostJSON{}
		c.Cost.Total = total
		return c
	}
	a := cand("aws/p5", "us-east-1", "spot", 8, 100, 2.5)
	b := cand("aws/p5", "us-east-1", "on-demand", 8, 250, 2.5)
	c := cand("gcp/a3", "us-central1", "on-demand", 1, 300, 20)
	before := RecommendJSON{Workload: "w", Candidates: []CandidateJSON{b, c}}
	now := RecommendJSON{Workload: "w", Candidates: []CandidateJSON{a, b}}

	ch := Compare(before, now, "old.json", English)
	if !ch.PickChanged || ch.Pick != "aws/p5 in us-east-1, spot, 8 GPUs" || ch.PreviousPick != "aws/p5 in us-east-1, on-demand, 8 GPUs" {
		t.Errorf("picks: %+v", ch)
	}
	if ch.CostUSD == nil || ch.CostUSD.Change != -150 || *ch.CostUSD.ChangePercent != -60 {
		t.Errorf("cost delta %+v", ch.CostUSD)
	}
	if len(ch.Appeared) != 1 || len(ch.Disappeared) != 1 || !strings.HasPrefix(ch.Disappeared[0], "gcp/a3 in us-central1") {
		t.Errorf("appeared %v, disappeared %v", ch.Appeared, ch.Disappeared)
	}
	text := strings.Join(ch.Sentences, " ")
	for _, want := range []string{"New #1: aws/p5", "Cost of #1: $100, was $250 (-60%)", "Appeared in the ranking", "Left the ranking: gcp/a3"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lacks %q", text, want)
		}
	}
	if strings.Contains(text, "Time of #1") {
		t.Errorf("an unchanged time is no news: %q", text)
	}
	// Compared with itself: nothing changed, said once.
	same := Compare(now, now, "old.json", Chinese)
	if same.PickChanged || len(same.Appeared)+len(same.Disappeared) != 0 || !strings.Contains(strings.Join(same.Sentences, ""), "没有变化") {
		t.Errorf("same: %+v", same)
	}
	// Nothing qualified before.
	none := Compare(RecommendJSON{Workload: "w", Candidates: []CandidateJSON{}}, now, "old.json", English)
	if !none.PickChanged || none.PreviousPick != "" || !strings.Contains(none.Sentences[0], "It was none (nothing qualified).") {
		t.Errorf("from nothing: %+v", none.Sentences)
	}
}

func TestParseSavedNamesTheFileAndLine(t *testing.T) {
	_, err := ParseSaved([]byte("{\n \"workload\": 1,\n}"), "prev.json")
	if err == nil || !strings.Contains(err.Error(), "prev.json") {
		t.Errorf("bad JSON: %v", err)
	}
	_, err = ParseSaved([]byte(`{"offers": []}`), "offers.json")
	if err == nil || !strings.Contains(err.Error(), "offers.json") || !strings.Contains(err.Error(), "recommend -o json") {
		t.Errorf("another document: %v", err)
	}
	d, err := ParseSaved([]byte(`{"workload": "w", "candidates": []}`), "ok.json")
	if err != nil || d.Workload != "w" {
		t.Errorf("a saved run: %v %+v", err, d)
	}
}
