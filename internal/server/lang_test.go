package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/report"
)

// TestLangOnEveryRoute: every route that answers with sentences takes
// lang (en or zh, the page sends it) and refuses another naming the field.
func TestLangOnEveryRoute(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	lora := Text(example(t, "llama3-8b-lora.yaml"))
	routes := []struct {
		path string
		req  func(lang string) any
		ok   int
	}{
		{"/api/v1/predict", func(l string) any { return PredictRequest{Workload: lora, GPU: "h100-sxm", Lang: l} }, 200},
		{"/api/v1/recommend", func(l string) any { return RecommendRequest{Workload: lora, Lang: l} }, 200},
		{"/api/v1/explain", func(l string) any {
			return ExplainRequest{Workload: lora, Offer: "lambda/gpu_8x_h100_sxm5", Lang: l}
		}, 200},
		{"/api/v1/check", func(l string) any { return CheckRequest{Workload: lora, GPU: "mi300x", Lang: l} }, 200},
		{"/api/v1/cost", func(l string) any { return CostRequest{Workload: lora, Offer: "aws/p5.48xlarge", Lang: l} }, 200},
		{"/api/v1/simulations", func(l string) any {
			return SimulationRequest{Service: Text(example(t, "service-fixed.yaml")), Lang: l}
		}, http.StatusAccepted},
	}
	for _, rt := range routes {
		for _, l := range []string{"", "en", "zh"} {
			r := do(t, h, "POST", rt.path, jsonBody(t, rt.req(l)), "")
			if r.status != rt.ok {
				t.Errorf("%s lang %q: %d %s", rt.path, l, r.status, r.body)
			}
			var job JobJSON
			if rt.ok == http.StatusAccepted && json.Unmarshal([]byte(r.body), &job) == nil {
				cancelJob(t, h, job.ID, job.CancelKey) // a client runs two at most
				waitStopped(t, s)
				if want := map[string]string{"zh": "zh"}[l]; job.Lang != want {
					t.Errorf("job asked in %q has lang %q", l, job.Lang)
				}
			}
		}
		r := do(t, h, "POST", rt.path, jsonBody(t, rt.req("fr")), "")
		if r.status != 400 {
			t.Errorf("%s lang fr: %d, want 400", rt.path, r.status)
			continue
		}
		if e := r.errorOf(t); e.Field != "lang" || !strings.Contains(e.Message, "en or zh") {
			t.Errorf("%s lang fr: %+v", rt.path, e)
		}
	}
	waitStopped(t, s)
}

// TestExplainInChinese: the explanation is written in the language asked.
func TestExplainInChinese(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	lora := Text(example(t, "llama3-8b-lora.yaml"))
	var texts [2]string
	for i, l := range []string{"en", "zh"} {
		r := do(t, h, "POST", "/api/v1/explain", jsonBody(t, ExplainRequest{Workload: lora, Offer: "lambda/gpu_8x_h100_sxm5", Lang: l}), "")
		if r.status != 200 {
			t.Fatalf("%s: %d %s", l, r.status, r.body)
		}
		texts[i] = r.body
	}
	if texts[0] == texts[1] {
		t.Error("lang zh explains in the same words as en")
	}
	if !containsHan(texts[1]) || containsHan(texts[0]) {
		t.Errorf("zh should be Chinese and en not:\n%s\n%s", texts[1], texts[0])
	}
}

func containsHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// TestErrorsInLang: a request's error is written in its lang, rendered
// from its message (report.ErrorText, as the command line writes it): the
// field as it is, the sentence in Chinese.
func TestErrorsInLang(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	req := CostRequest{Workload: Text(example(t, "llama3-8b-lora.yaml")), Lang: "zh"}
	r := do(t, h, "POST", "/api/v1/cost", jsonBody(t, req), "")
	if r.status != 400 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	e := r.errorOf(t)
	req.Lang = "en"
	en := do(t, h, "POST", "/api/v1/cost", jsonBody(t, req), "").errorOf(t)
	if e.Field != en.Field || e.Field != "offer" || !strings.HasPrefix(e.Message, "offer: ") || !containsHan(e.Message) || containsHan(en.Message) {
		t.Errorf("zh error %+v; want the field as it is and the sentence of %q in Chinese", e, en.Message)
	}
}

// TestRecommendInChinese: lang zh puts the recommendation's sentences in
// Chinese (the answer, each candidate's plan) and leaves codes and numbers
// as they are.
func TestRecommendInChinese(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	var docs [2]report.RecommendJSON
	for i, l := range []string{"en", "zh"} {
		r := do(t, h, "POST", "/api/v1/recommend", jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml")), Lang: l}), "")
		if r.status != 200 {
			t.Fatalf("%s: %d %s", l, r.status, r.body)
		}
		if err := json.Unmarshal([]byte(r.body), &docs[i]); err != nil {
			t.Fatal(err)
		}
	}
	en, zh := docs[0], docs[1]
	if !containsHan(zh.Answer.Headline) || containsHan(en.Answer.Headline) {
		t.Errorf("headlines: en %q, zh %q", en.Answer.Headline, zh.Answer.Headline)
	}
	if len(zh.Candidates) == 0 || len(zh.Candidates) != len(en.Candidates) {
		t.Fatalf("candidates: en %d, zh %d", len(en.Candidates), len(zh.Candidates))
	}
	for i := range zh.Candidates {
		c, e := zh.Candidates[i], en.Candidates[i]
		if !containsHan(c.Plan.Sentence) {
			t.Errorf("#%d plan in zh: %q", c.Rank, c.Plan.Sentence)
		}
		if c.Offer != e.Offer || c.Cost.Total != e.Cost.Total || c.Bottleneck != e.Bottleneck || c.Plan.Replicas != e.Plan.Replicas {
			t.Errorf("#%d: zh changed a code or a number", c.Rank)
		}
	}
}

// TestErrorListInLang: a file with several problems is summed up in the
// language asked for, each problem too.
func TestErrorListInLang(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	bad := Text("kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining:\n  seq_lenn: 4096\n  tokenz: 5\n")
	req := PredictRequest{Workload: bad, GPU: "h100-sxm", Lang: "zh"}
	r := do(t, h, "POST", "/api/v1/predict", jsonBody(t, req), "")
	if r.status != 400 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	e := r.errorOf(t)
	if len(e.Errors) < 2 {
		t.Fatalf("want several problems, got %+v", e)
	}
	if !strings.HasPrefix(e.Message, fmt.Sprintf("共 %d 个问题；第一个：", len(e.Errors))) || strings.Contains(e.Message, "problems") {
		t.Errorf("zh summary %q", e.Message)
	}
}
