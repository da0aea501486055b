package cli

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// GPU slicing end to end: with a fixture offer of half an A10G added to the
// mini catalog, a low-rate 8B chat comes out #1 on the half, and recommend
// (text, JSON, --explain, Chinese) and cost say the slice.
func TestRecommendShowsSlice(t *testing.T) {
	args := []string{"--catalog", "testdata/slice-catalog", "recommend", "-f", "testdata/slice-chat.yaml"}
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Serve it on aws/g5f.xlarge in us-east-1 (on-demand): 1 replica(s) on 1 instance(s) of 1/2 × a10g",
		"Service: 1 instance(s), 1/2 of one a10g per instance; 1 replica(s)",
		"1 × 1/2 a10g",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("recommend lacks %q:\n%s", want, out)
		}
	}
	js, errOut, code := run(t, append(args, "-o", "json")...)
	if code != 0 {
		t.Fatalf("-o json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Candidates []struct {
			Offer string `json:"offer"`
			Plan  struct {
				Sentence string         `json:"sentence"`
				Slice    map[string]any `json:"slice"`
			} `json:"plan"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Candidates) < 2 {
		t.Fatalf("json: %v, %d candidates", err, len(doc.Candidates))
	}
	top := doc.Candidates[0]
	if s := top.Plan.Slice; top.Offer != "aws/g5f.xlarge" || s == nil || s["kind"] != "fraction" || s["profile"] != "1/2" ||
		s["per_gpu"] != 2.0 || s["compute_share"] != 0.5 || s["memory_gb"] != 12.9 || s["replica_per_hour_usd"] != 0.4 {
		t.Errorf("#1 %s: plan.slice = %v", top.Offer, top.Plan.Slice)
	}
	if !strings.Contains(top.Plan.Sentence, "1/2 of one a10g per instance") {
		t.Errorf("plan.sentence = %q", top.Plan.Sentence)
	}
	for _, c := range doc.Candidates[1:] {
		if c.Plan.Slice != nil {
			t.Errorf("%s on whole GPUs has plan.slice %v", c.Offer, c.Plan.Slice)
		}
	}
	ex, errOut, code := run(t, append(args, "--explain", "aws/g5f.xlarge")...)
	if code != 0 {
		t.Fatalf("--explain: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"#1 aws/g5f.xlarge in us-east-1 (US): 1/2 x a10g on 1 instance(s), on-demand", "Plan: 1 instance(s), 1/2 of one a10g per instance"} {
		if !strings.Contains(ex, want) {
			t.Errorf("--explain lacks %q:\n%s", want, ex)
		}
	}
	zh, _, _ := run(t, append(args, "--lang", "zh")...)
	for _, want := range []string{"1 台实例，每台 1/2 块 a10g", "1 台 × 1/2 块 a10g"} {
		if !strings.Contains(zh, want) {
			t.Errorf("--lang zh lacks %q:\n%s", want, zh)
		}
	}
	// -o csv: the slice column, last, has the fraction; empty for whole GPUs.
	csvOut, errOut, code := run(t, append(args, "-o", "csv")...)
	if code != 0 {
		t.Fatalf("-o csv: exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil || len(recs) < 3 {
		t.Fatalf("csv: %v, %d rows", err, len(recs))
	}
	if last := len(recs[0]) - 1; recs[0][last] != "slice" || recs[1][1] != "aws/g5f.xlarge" || recs[1][last] != "1/2" || recs[2][last] != "" {
		t.Errorf("csv slice column: head %q, #1 %q, #2 %q", recs[0], recs[1], recs[2])
	}
	// export: the header names the fraction a node has, not "1 x a10g".
	ex, errOut, code = run(t, "--catalog", "testdata/slice-catalog", "export", "k8s", "-f", "testdata/slice-chat.yaml", "--offer", "aws/g5f.xlarge")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	if !strings.Contains(ex, "and offer aws/g5f.xlarge in us-east-1: 1/2 x a10g per node") || strings.Contains(ex, "1 x a10g per node") {
		t.Errorf("export header does not say the fraction:\n%.600s", ex)
	}
	cost, errOut, code := run(t, "--catalog", "testdata/slice-catalog", "cost", "-f", "testdata/slice-chat.yaml", "--offer", "aws/g5f.xlarge")
	if code != 0 {
		t.Fatalf("cost: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"aws/g5f.xlarge in us-east-1 (US): 1/2 x a10g on 1 instance(s)", "Plan: 1 instance(s), 1/2 of one a10g per instance"} {
		if !strings.Contains(cost, want) {
			t.Errorf("cost lacks %q:\n%s", want, cost)
		}
	}
}
