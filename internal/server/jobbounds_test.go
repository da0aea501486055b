package server

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// submitFrom submits req from the client at addr, with a token when one
// is given.
func submitFrom(t *testing.T, s *Server, addr, token string, req SimulationRequest) (JobJSON, response) {
	t.Helper()
	r := send(t, s.Handler(), "POST", "/api/v1/simulations", jsonBody(t, req), func(r *http.Request) {
		r.RemoteAddr = addr
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
	})
	var j JobJSON
	if r.status == 202 {
		j = poll(t, s, idOf(t, r), func(JobJSON) bool { return true })
	}
	return j, r
}

func idOf(t *testing.T, r response) string {
	t.Helper()
	_, rest, ok := strings.Cut(r.body, `"id":"`)
	id, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 {
		t.Fatalf("no job id in %s", r.body)
	}
	return id
}

// TestJobsPerClient: one client (an address, or a token) runs at most
// jobsPerClient jobs at once, and is told when to retry; another client
// can still start one; the global bound stays.
func TestJobsPerClient(t *testing.T) {
	s := testServer(t, func(c *Config) { c.MaxJobs = 4 })
	token := addToken(t, s)
	long := SimulationRequest{Service: Text(longService)}
	const a, b, c = "192.0.2.1:1000", "198.51.100.7:2000", "203.0.113.9:3000"
	var ids []string
	for i := range jobsPerClient {
		j, r := submitFrom(t, s, a, "", long)
		if r.status != 202 {
			t.Fatalf("job %d of client a: %d %s", i+1, r.status, r.body)
		}
		ids = append(ids, j.ID)
	}
	_, r := submitFrom(t, s, a, "", long)
	if r.status != 429 || r.header.Get("Retry-After") == "" || !strings.Contains(r.errorOf(t).Message, "the most one client may run at once") {
		t.Fatalf("client a over its share: %d Retry-After %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	// Another port of the same address is the same client.
	if _, r := submitFrom(t, s, "192.0.2.1:1001", "", long); r.status != 429 {
		t.Errorf("client a from another port: %d %s", r.status, r.body)
	}
	j, r := submitFrom(t, s, b, "", long)
	if r.status != 202 {
		t.Fatalf("client b while a holds its share: %d %s", r.status, r.body)
	}
	ids = append(ids, j.ID)
	// A token does not make a new client: from a's address it is a.
	if _, r := submitFrom(t, s, a, token, long); r.status != 429 {
		t.Errorf("a token from a's address: %d %s", r.status, r.body)
	}
	// The last free slot goes to a client running none: not b again.
	if _, r := submitFrom(t, s, b, "", long); r.status != 429 {
		t.Errorf("client b taking the last slot: %d %s", r.status, r.body)
	}
	j, r = submitFrom(t, s, c, "", long)
	if r.status != 202 {
		t.Fatalf("client c takes the last slot: %d %s", r.status, r.body)
	}
	ids = append(ids, j.ID)
	// The four slots are taken: the global bound answers a new client.
	_, r = submitFrom(t, s, "203.0.113.10:4000", "", long)
	if r.status != 429 || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "too many simulations running") {
		t.Errorf("a new client with every slot taken: %d %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	// Addresses of one IPv6 /64 are one client.
	if got, want := s.jobClient(reqFrom("[2001:db8::1]:1")), s.jobClient(reqFrom("[2001:db8::ffff]:2")); got != want {
		t.Errorf("one /64 counted as %q and %q", got, want)
	}
	// Another client without the job's key cannot cancel a's job; a
	// token holder can.
	if r := doFrom(t, s, "198.51.100.7:2000", "DELETE", "/api/v1/simulations/"+ids[0], ""); r.status != 404 {
		t.Errorf("b cancelling a's job: %d %s", r.status, r.body)
	}
	if r := doFrom(t, s, "198.51.100.7:2000", "DELETE", "/api/v1/simulations/"+ids[0], token); r.status != 200 {
		t.Fatalf("cancel with a token: %d %s", r.status, r.body)
	}
	// Once one of a's jobs ends, it no longer counts.
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.jobs.mu.Lock()
		n := s.jobs.perClient["address 192.0.2.1"]
		s.jobs.mu.Unlock()
		if n < jobsPerClient {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled job still counts")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// One slot is free: it is kept for a client running none, so a (still
	// running one) waits while c's neighbour d starts.
	if _, r := submitFrom(t, s, a, "", long); r.status != 429 {
		t.Errorf("client a taking the last slot: %d %s", r.status, r.body)
	}
	if _, r := submitFrom(t, s, "203.0.113.11:5000", "", SimulationRequest{Service: Text(example(t, "service-fixed.yaml"))}); r.status != 202 {
		t.Errorf("a client running none after a job ended: %d %s", r.status, r.body)
	}
	s.jobs.cancelAll()
}

var stoppedRE = regexp.MustCompile(`^stopped after 0\.3\d* s: the limit is 0\.3 s of running time`)

// TestJobTimeLimit: a job that would run past the wall-clock limit ends
// failed soon after it, saying so, and frees its slot.
func TestJobTimeLimit(t *testing.T) {
	s := testServer(t, nil)
	s.jobs.timeLimit = 300 * time.Millisecond
	for _, req := range []SimulationRequest{{Service: Text(longService)}, {Service: Text(longSearch), Search: true}} {
		j, r := submit(t, s, req)
		if r.status != 202 {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		start := time.Now()
		got := poll(t, s, j.ID, func(j JobJSON) bool { return j.Status != JobRunning })
		took := time.Since(start)
		if got.Status != JobFailed || got.Error == nil || got.Result != nil || got.Search != nil ||
			!stoppedRE.MatchString(got.Error.Message) {
			t.Errorf("search %v: %+v", req.Search, got)
		}
		if took > 3*time.Second {
			t.Errorf("search %v: ended %v after it started, the limit is 300ms", req.Search, took)
		}
		waitStopped(t, s)
	}
}

// TestSimulationWorkLimits: over the API, work beyond the service's limits
// is refused before it starts with 400, the estimate and the limit; values
// out of their documented ranges name their field and line; an empty
// trace is an error; the policy search of examples/service-model.yaml is
// within the limits.
func TestSimulationWorkLimits(t *testing.T) {
	s := testServer(t, nil)
	plain := func(policy string) string {
		return "traffic: {kind: trace, format: plain}\nservice: {kind: distribution, mean_s: 1}\npolicy: " + policy + "\npricing: {per_hour_usd: 1}\n"
	}
	for _, tt := range []struct {
		name     string
		req      SimulationRequest
		field    string
		line     int
		contains []string
	}{
		{"a hundred thousand requests a second for a day", SimulationRequest{Service: Text("traffic: {kind: poisson, rate_per_s: 1e5, duration_s: 86400}\nservice: {kind: distribution, mean_s: 1}\npolicy: {kind: fixed, replicas: 10}\npricing: {per_hour_usd: 1}\n")},
			"", 0, []string{"this simulation would take about 1.7e+10 events (8.6e+09 requests over 24 h), over the limit of 3e+09 events", "this service's limits"}},
		{"a long search", SimulationRequest{Service: Text(longService), Search: true}, "", 0, []string{"this search would take about", "over the limit of 3e+09 events"}},
		{"a 99-year trace", SimulationRequest{Service: Text(plain("{kind: fixed, replicas: 1}")), Trace: "0\n3122064000\n"}, "", 0, []string{"would replay 98.9 years of traffic, over the limit of 366 days"}},
		{"rate_per_s 1e9", SimulationRequest{Service: Text("traffic:\n  kind: poisson\n  rate_per_s: 1e9\nservice: {kind: distribution, mean_s: 1}\npolicy: {kind: fixed, replicas: 1}\npricing: {per_hour_usd: 1}\n")},
			"traffic.rate_per_s", 3, []string{"at most 1e+06 requests/s"}},
		{"provisioning_s 1e15", SimulationRequest{Service: Text("traffic: {kind: poisson, rate_per_s: 1}\nservice:\n  kind: distribution\n  mean_s: 1\n  provisioning_s: 1e15\npolicy: {kind: target}\npricing: {per_hour_usd: 1}\n")},
			"service.provisioning_s", 5, []string{"at most 86400 s (a day), got 1e+15"}},
		{"header-only trace", SimulationRequest{Service: Text(plain("{kind: fixed, replicas: 1}")), Trace: "timestamp_s,prompt_tokens\n"}, "trace", 0, []string{"the trace holds no requests"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, r := submit(t, s, tt.req)
			if r.status != 400 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			e := r.errorOf(t)
			if e.Field != tt.field || e.Line != tt.line {
				t.Errorf("field %q line %d, want %q line %d: %s", e.Field, e.Line, tt.field, tt.line, r.body)
			}
			for _, w := range tt.contains {
				if !strings.Contains(e.Message, w) {
					t.Errorf("message lacks %q: %s", w, e.Message)
				}
			}
		})
	}
	j, r := submit(t, s, SimulationRequest{Service: Text(example(t, "service-model.yaml")), Workload: Text(example(t, "llama3-70b-chat.yaml")), Search: true})
	if r.status != 202 {
		t.Fatalf("the search of examples/service-model.yaml: %d %s", r.status, r.body)
	}
	if r := cancelJob(t, s.Handler(), j.ID, j.CancelKey); r.status != 200 {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	waitStopped(t, s)
}

// reqFrom is a request from addr, for jobClient.
func reqFrom(addr string) *http.Request {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = addr
	return r
}

// doFrom sends a request without a body from addr, with token if given.
func doFrom(t *testing.T, s *Server, addr, method, path, token string) response {
	t.Helper()
	return send(t, s.Handler(), method, path, "", func(r *http.Request) {
		r.RemoteAddr = addr
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
	})
}
