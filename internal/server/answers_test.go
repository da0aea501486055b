package server

import (
	"bytes"
	"fmt"
	"testing"
)

// TestAnswerCacheBounded: the cache holds at most its bytes, the oldest
// answers going first, and keeps no answer larger than a quarter of it.
func TestAnswerCacheBounded(t *testing.T) {
	c := newAnswerCache(1000)
	for i := range 20 {
		c.put(fmt.Sprint(i), bytes.Repeat([]byte{'x'}, 100))
		if c.size() > 1000 {
			t.Fatalf("after %d answers: %d bytes", i+1, c.size())
		}
	}
	if _, ok := c.get("0"); ok {
		t.Error("the oldest answer is still there")
	}
	if b, ok := c.get("19"); !ok || len(b) != 100 {
		t.Error("the newest answer is gone")
	}
	c.put("big", make([]byte, 251))
	if _, ok := c.get("big"); ok {
		t.Error("an answer over a quarter of the bound was kept")
	}
	if answerKey([]byte("ab"), []byte("c")) == answerKey([]byte("a"), []byte("bc")) {
		t.Error("the key does not separate its parts")
	}
}

// TestRecommendAnswerCached: the same request gets the same bytes, from
// the cache the second time; another language is another answer.
func TestRecommendAnswerCached(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	body := jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})
	first := do(t, h, "POST", "/api/v1/recommend", body, "")
	held := s.st().answers.size()
	second := do(t, h, "POST", "/api/v1/recommend", body, "")
	if first.status != 200 || second.body != first.body || held == 0 || s.st().answers.size() != held {
		t.Fatalf("first %d (%d bytes), second equal %v, cache %d then %d bytes", first.status, len(first.body), second.body == first.body, held, s.st().answers.size())
	}
	zh := do(t, h, "POST", "/api/v1/recommend", jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml")), Lang: "zh"}), "")
	if zh.status != 200 || zh.body == first.body {
		t.Errorf("the Chinese answer is the English one")
	}
	all := do(t, h, "POST", "/api/v1/recommend?exclusions=all", body, "")
	if len(all.body) <= len(first.body) {
		t.Errorf("exclusions=all answered from the slim answer's cache entry")
	}
}
