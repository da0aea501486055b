package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/workload"
)

var sliceNow = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// sliceChat is the low-rate 8B chat of internal/advisor's slice tests.
const sliceChat = "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 256, requests_per_second: 0.2, weight_precision: int4, slo: {ttft_ms: 3000, tpot_ms: 150}}\nservice: {availability: best-effort}\n"

// sliceRequest is sliceChat on the embedded catalog's offers that keep
// accepts.
func sliceRequest(t *testing.T, y string, keep func(o *catalog.Offer) bool) advisor.Request {
	t.Helper()
	spec, err := workload.Parse([]byte(y), "chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cat := *catalogtest.Embedded(t)
	cat.Offers = nil
	for _, o := range catalogtest.Embedded(t).Offers {
		if keep(o) {
			cat.Offers = append(cat.Offers, o)
		}
	}
	if len(cat.Offers) == 0 {
		t.Fatal("no offers kept")
	}
	return advisor.Request{Spec: spec, Catalog: &cat, Now: sliceNow}
}

// renderAll is r as text, markdown and HTML in l, and its JSON's #1 plan.
func renderAll(t *testing.T, r *advisor.Result, l Lang) (text, md, htm string, plan map[string]any) {
	t.Helper()
	var tb, mb, hb bytes.Buffer
	if err := WriteRecommendText(&tb, "chat", r, 5, l); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecommendMarkdown(&mb, "chat", r, 5, l); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecommendHTML(&hb, "chat", r, 5, l); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(Recommendation("chat", "llm-inference", r, 5))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Candidates []struct {
			Plan map[string]any `json:"plan"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Candidates) == 0 {
		t.Fatalf("json: %v, %d candidates", err, len(doc.Candidates))
	}
	return tb.String(), mb.String(), hb.String(), doc.Candidates[0].Plan
}

func wantIn(t *testing.T, what, doc string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(doc, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, doc)
		}
	}
}

// End to end: restricted to Azure's A10 offers, the low-rate chat with a
// 7B model comes out #1 on a third of an A10 (8 GB holds Mistral 7B in
// int4, not Llama 3 8B with its 16-bit 128k-token embedding and head), and
// every surface says so.
func TestFractionSliceRenders(t *testing.T) {
	req := sliceRequest(t, strings.Replace(sliceChat, "llama-3-8b", "mistral-7b", 1), func(o *catalog.Offer) bool { return o.Provider == "azure" && o.GPU == "a10" })
	r, err := advisor.Recommend(req)
	if err != nil || len(r.Candidates) == 0 {
		t.Fatalf("no candidates: %v", err)
	}
	top := r.Candidates[0]
	s := top.Plan.Slice
	if s == nil || s.Kind != advisor.SliceFraction || s.GPU != "a10" {
		t.Fatalf("#1 %s: slice %+v, want a fraction of an a10", top.Offer.Key(), s)
	}
	text, md, htm, plan := renderAll(t, r, English)
	sentence := PlanSentence(top.Plan, English)
	want := s.Profile + " of one a10 per instance"
	if !strings.Contains(sentence, want) {
		t.Errorf("plan sentence %q lacks %q", sentence, want)
	}
	cell := "1 × " + s.Profile + " a10"
	wantIn(t, "text", text, want, cell)
	wantIn(t, "markdown", md, want, cell)
	wantIn(t, "html", htm, want, cell)
	js, ok := plan["slice"].(map[string]any)
	if !ok {
		t.Fatalf("plan JSON has no slice: %v", plan)
	}
	if js["kind"] != "fraction" || js["profile"] != s.Profile || js["per_gpu"].(float64) != float64(s.PerGPU) {
		t.Errorf("plan.slice = %v", js)
	}
	for _, k := range []string{"compute_share", "memory_share", "memory_gb", "replica_per_hour_usd"} {
		if _, ok := js[k]; !ok {
			t.Errorf("plan.slice lacks %s: %v", k, js)
		}
	}
	zhText, zhMD, _, _ := renderAll(t, r, Chinese)
	zh := "每台 " + s.Profile + " 块 a10"
	wantIn(t, "zh text", zhText, zh, "1 台 × "+s.Profile+" 块 a10")
	wantIn(t, "zh markdown", zhMD, zh)
	// A whole-GPU candidate has no slice in its JSON.
	for _, c := range r.Candidates {
		if c.Plan.Slice == nil {
			if v := PlanView(c.Plan); v.Slice != nil {
				t.Errorf("%s: whole GPUs with slice %+v", c.Offer.Key(), v.Slice)
			}
			b, _ := json.Marshal(PlanView(c.Plan))
			if strings.Contains(string(b), `"slice"`) {
				t.Errorf("%s: whole GPUs' plan JSON has a slice: %s", c.Offer.Key(), b)
			}
			break
		}
	}
}

// A MIG fleet: 8B replicas on 1g.10gb slices of a p5's H100s.
func TestMIGSliceRenders(t *testing.T) {
	req := sliceRequest(t, sliceChat, func(o *catalog.Offer) bool { return o.Key() == "aws/p5.48xlarge@us-east-1" })
	cs, _, ok := advisor.EvaluateOfferMIG(req, req.Catalog.Offers[0], "1g.10gb", []catalog.Mode{catalog.OnDemand})
	if !ok || len(cs) != 1 {
		t.Fatalf("no MIG candidate: %d, %v", len(cs), ok)
	}
	c := cs[0]
	c.Rank, c.Pareto = 1, true
	r := &advisor.Result{Spec: req.Spec, Objective: workload.ObjectiveCost, Candidates: []*advisor.Candidate{c}, Evaluated: 1}
	n := c.Plan.Replicas
	sentence := PlanSentence(c.Plan, English)
	want := "replica(s) on MIG 1g.10gb slice(s) of h100-sxm (7 to a GPU, 1 instance(s) of 8 GPU(s))"
	if !strings.HasPrefix(sentence, strconv.Itoa(n)+" ") || !strings.Contains(sentence, want) || !strings.HasSuffix(sentence, "; on-demand") {
		t.Errorf("plan sentence %q, want %d %s…; on-demand", sentence, n, want)
	}
	text, md, htm, plan := renderAll(t, r, English)
	cell := "1 × 8 h100-sxm MIG 1g.10gb × 7"
	wantIn(t, "text", text, want, cell, "MIG 1g.10gb replica(s)")
	wantIn(t, "markdown", md, want, cell)
	wantIn(t, "html", htm, want, cell)
	js, ok := plan["slice"].(map[string]any)
	if !ok || js["kind"] != "mig" || js["profile"] != "1g.10gb" || js["per_gpu"].(float64) != 7 || js["memory_gb"].(float64) != 10 {
		t.Errorf("plan.slice = %v", plan["slice"])
	}
	if v, _ := js["compute_share"].(float64); v != 0.1429 {
		t.Errorf("compute_share %v, want 1/7 to 4 decimals", js["compute_share"])
	}
	zhText, zhMD, _, _ := renderAll(t, r, Chinese)
	zh := "运行在 h100-sxm 的 MIG 1g.10gb 切片上（每块 GPU 7 个，1 台实例，每台 8 块 GPU）"
	wantIn(t, "zh text", zhText, zh, "h100-sxm MIG 1g.10gb 切片 × 7", "MIG 1g.10gb 切片副本")
	wantIn(t, "zh markdown", zhMD, zh)
	// --explain and cost state the plan with the same sentence.
	var ex, cost bytes.Buffer
	if err := WriteCost(&cost, c, sliceNow, English); err != nil {
		t.Fatal(err)
	}
	wantIn(t, "cost", cost.String(), "Plan: "+sentence)
	if err := WriteExplain(&ex, c, nil, sliceNow, English); err != nil {
		t.Fatal(err)
	}
	wantIn(t, "explain", ex.String(), "Plan: "+sentence)
}
