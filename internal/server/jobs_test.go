package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func poll(t *testing.T, s *Server, id string, until func(JobJSON) bool) JobJSON {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := do(t, s.Handler(), "GET", "/api/v1/simulations/"+id, "", "")
		var j JobJSON
		if err := json.Unmarshal([]byte(r.body), &j); err != nil || r.status != 200 {
			t.Fatalf("poll: %d %s", r.status, r.body)
		}
		if until(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job still %s at %.2f", j.Status, j.Progress)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func submit(t *testing.T, s *Server, req SimulationRequest) (JobJSON, response) {
	t.Helper()
	r := do(t, s.Handler(), "POST", "/api/v1/simulations", jsonBody(t, req), "")
	var j JobJSON
	if r.status == 202 {
		if err := json.Unmarshal([]byte(r.body), &j); err != nil {
			t.Fatal(err)
		}
	}
	return j, r
}

func TestSimulationJobs(t *testing.T) {
	s := testServer(t, nil)
	for _, tt := range []struct {
		name string
		req  SimulationRequest
	}{
		{"distribution", SimulationRequest{Service: example(t, "service-target.yaml")}},
		{"model", SimulationRequest{Service: example(t, "service-model.yaml"), Workload: example(t, "llama3-70b-chat.yaml")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j, r := submit(t, s, tt.req)
			if r.status != 202 || j.Status != JobRunning || j.ID == "" {
				t.Fatalf("submit: %d %s", r.status, r.body)
			}
			done := poll(t, s, j.ID, func(j JobJSON) bool { return j.Status != JobRunning })
			if done.Status != JobDone || done.Result == nil || done.Progress != 1 {
				t.Fatalf("job: %+v", done)
			}
			if done.Result.Name == "" {
				t.Errorf("result: %+v", done.Result)
			}
		})
	}
	_, r := submit(t, s, SimulationRequest{Service: example(t, "service-model.yaml")})
	if r.status != 400 || r.errorOf(t).Field != "workload" {
		t.Errorf("model service without workload: %d %s", r.status, r.body)
	}
	_, r = submit(t, s, SimulationRequest{Service: strings.Replace(example(t, "service-target.yaml"), "kind: diurnal", "kind: trace\n  file: x.csv", 1)})
	if r.status != 400 {
		t.Errorf("trace service: %d %s", r.status, r.body)
	}
}

// longService runs for a long simulated time, so that it can be cancelled.
const longService = `name: long
traffic: {kind: poisson, rate_per_s: 200, duration_s: 2592000, seed: 1}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: fixed, replicas: 200}
pricing: {per_hour_usd: 1}
`

func TestSimulationCancelAndBounds(t *testing.T) {
	s := testServer(t, func(c *Config) { c.MaxJobs = 1; c.MaxKeptJobs = 2 })
	j, r := submit(t, s, SimulationRequest{Service: longService})
	if r.status != 202 {
		t.Fatalf("submit: %d %s", r.status, r.body)
	}
	poll(t, s, j.ID, func(j JobJSON) bool { return j.Progress > 0 })
	if _, r := submit(t, s, SimulationRequest{Service: longService}); r.status != 429 {
		t.Errorf("second job over the bound: %d %s", r.status, r.body)
	}
	if r := do(t, s.Handler(), "DELETE", "/api/v1/simulations/"+j.ID, "", ""); r.status != 200 || !strings.Contains(r.body, `"cancelled"`) {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	// The slot frees once the simulator stops.
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.jobs.mu.Lock()
		running := s.jobs.running
		s.jobs.mu.Unlock()
		if running == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("cancelled job still running")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := poll(t, s, j.ID, func(JobJSON) bool { return true }); got.Status != JobCancelled || got.Result != nil {
		t.Errorf("after cancel: %+v", got)
	}
	// Only the newest finished jobs are kept.
	var ids []string
	for range 3 {
		j, r := submit(t, s, SimulationRequest{Service: example(t, "service-target.yaml")})
		if r.status != 202 {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		poll(t, s, j.ID, func(j JobJSON) bool { return j.Status == JobDone })
		ids = append(ids, j.ID)
	}
	if r := do(t, s.Handler(), "GET", "/api/v1/simulations/"+ids[0], "", ""); r.status != 404 {
		t.Errorf("oldest job kept: %d", r.status)
	}
	if r := do(t, s.Handler(), "GET", "/api/v1/simulations/"+ids[2], "", ""); r.status != 200 {
		t.Errorf("newest job dropped: %d", r.status)
	}
}
