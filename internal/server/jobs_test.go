package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/store"
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

// waitStopped waits until no job runs, for at most 10 s.
func waitStopped(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.jobs.mu.Lock()
		running := s.jobs.running
		s.jobs.mu.Unlock()
		if running == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("a cancelled job is still running")
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
		{"distribution", SimulationRequest{Service: Text(example(t, "service-target.yaml"))}},
		{"model", SimulationRequest{Service: Text(example(t, "service-model.yaml")), Workload: Text(example(t, "llama3-70b-chat.yaml"))}},
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
	_, r := submit(t, s, SimulationRequest{Service: Text(example(t, "service-model.yaml"))})
	if r.status != 400 || r.errorOf(t).Field != "workload" {
		t.Errorf("model service without workload: %d %s", r.status, r.body)
	}
	_, r = submit(t, s, SimulationRequest{Service: Text(traceService)})
	if r.status != 400 || r.errorOf(t).Field != "trace" {
		t.Errorf("trace service without its trace: %d %s", r.status, r.body)
	}
}

// traceService replays a trace file; over the API the trace comes in the
// request.
const traceService = `name: replay
traffic: {kind: trace, format: azure, file: day.csv}
service: {kind: distribution, mean_s: 1}
policy: {kind: fixed, replicas: 2}
pricing: {per_hour_usd: 1}
`

// longService runs for a long simulated time, so that it can be cancelled.
const longService = `name: long
traffic: {kind: poisson, rate_per_s: 200, duration_s: 2592000, seed: 1}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: fixed, replicas: 200}
pricing: {per_hour_usd: 1}
`

// longSearch is a search that runs for minutes, within the service's
// limit on a job's estimated work (longService's search is not).
const longSearch = `name: long-search
traffic: {kind: poisson, rate_per_s: 100, duration_s: 86400, seed: 1}
service: {kind: distribution, mean_s: 0.5}
policy: {kind: fixed, replicas: 100}
pricing: {per_hour_usd: 1}
`

func TestSimulationCancelAndBounds(t *testing.T) {
	// Without a store, so that only memory keeps jobs (a store keeps them
	// for a day: TestSharedDatabase).
	s := testServer(t, func(c *Config) { c.MaxJobs = 1; c.MaxKeptJobs = 2; c.DB = "" })
	j, r := submit(t, s, SimulationRequest{Service: Text(longService)})
	if r.status != 202 {
		t.Fatalf("submit: %d %s", r.status, r.body)
	}
	poll(t, s, j.ID, func(j JobJSON) bool { return j.Progress > 0 })
	if _, r := submit(t, s, SimulationRequest{Service: Text(longService)}); r.status != 429 {
		t.Errorf("second job over the bound: %d %s", r.status, r.body)
	}
	// Without its key (or a token) the job is not there to cancel.
	if r := do(t, s.Handler(), "DELETE", "/api/v1/simulations/"+j.ID, "", ""); r.status != 404 || !strings.Contains(r.body, "X-Cancel-Key") {
		t.Fatalf("cancel without the key: %d %s", r.status, r.body)
	}
	if r := cancelJob(t, s.Handler(), j.ID, "0123"+j.CancelKey[4:]); r.status != 404 {
		t.Fatalf("cancel with a wrong key: %d %s", r.status, r.body)
	}
	if r := cancelJob(t, s.Handler(), j.ID, j.CancelKey); r.status != 200 || !strings.Contains(r.body, `"cancelled"`) || strings.Contains(r.body, "cancel_key") {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	waitStopped(t, s) // the slot frees once the simulator stops
	if got := poll(t, s, j.ID, func(JobJSON) bool { return true }); got.Status != JobCancelled || got.Result != nil {
		t.Errorf("after cancel: %+v", got)
	}
	// Only the newest finished jobs are kept.
	var ids []string
	for range 3 {
		j, r := submit(t, s, SimulationRequest{Service: Text(example(t, "service-target.yaml"))})
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

// TestSimulationTraceAndSearch replays a trace sent in the request and
// runs a policy search as a job, and checks both against the simulator
// called directly, as gpupick simulate --trace [--search] does.
func TestSimulationTraceAndSearch(t *testing.T) {
	s := testServer(t, nil)
	service := example(t, "service-target.yaml")
	trace := example(t, "traces/sample-azure-synthetic.csv")
	spec, err := autoscale.ParseSpec([]byte(service))
	if err != nil {
		t.Fatal(err)
	}
	source := func() autoscale.Source {
		src, err := app.ReadTrace(spec, strings.NewReader(trace), "trace")
		if err != nil {
			t.Fatal(err)
		}
		return src
	}

	j, r := submit(t, s, SimulationRequest{Service: Text(service), Trace: trace})
	if r.status != 202 {
		t.Fatalf("submit trace: %d %s", r.status, r.body)
	}
	got := poll(t, s, j.ID, func(j JobJSON) bool { return j.Status != JobRunning })
	want, err := autoscale.Simulate(spec, source(), nil, autoscale.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != JobDone || got.Result == nil || got.Search != nil {
		t.Fatalf("trace job: %+v", got)
	}
	if got.Result.Requests != want.Requests || got.Result.CostUSD != want.CostUSD || want.Requests != 400 {
		t.Errorf("trace over the API: %d requests $%.4f; directly: %d requests $%.4f (the trace has 400)",
			got.Result.Requests, got.Result.CostUSD, want.Requests, want.CostUSD)
	}

	j, r = submit(t, s, SimulationRequest{Service: Text(service), Trace: trace, Search: true})
	if r.status != 202 {
		t.Fatalf("submit search: %d %s", r.status, r.body)
	}
	got = poll(t, s, j.ID, func(j JobJSON) bool { return j.Status != JobRunning })
	ws, err := autoscale.Search(spec, []autoscale.Candidate{{Name: spec.Name, PricePerHourUSD: spec.Pricing.PerHourUSD}},
		source, autoscale.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != JobDone || got.Search == nil || got.Result != nil || got.Progress != 1 {
		t.Fatalf("search job: %+v", got)
	}
	if got.Search.Evaluated != ws.Evaluated || (got.Search.Best == nil) != (ws.Best == nil) ||
		(ws.Best != nil && got.Search.Best.CostUSD != ws.Best.CostUSD) {
		t.Errorf("search over the API: %+v; directly: %+v", got.Search, ws)
	}

	for _, tt := range []struct {
		name  string
		req   SimulationRequest
		field string
		line  int
	}{
		{"bad trace header", SimulationRequest{Service: Text(service), Trace: "when,what\n1,2\n"}, "trace", 1},
		{"bad trace row", SimulationRequest{Service: Text(service), Trace: strings.Replace(trace, ",72\n", ",seventy\n", 1)}, "trace.GeneratedTokens", 3},
		{"trace kind without trace", SimulationRequest{Service: Text(traceService)}, "trace", 0},
		{"offers without search", SimulationRequest{Service: Text(service), Offers: new(2)}, "offers", 0},
		{"too many offers", SimulationRequest{Service: Text(service), Search: true, Offers: new(11)}, "offers", 0},
	} {
		_, r := submit(t, s, tt.req)
		if r.status != 400 {
			t.Errorf("%s: %d %s", tt.name, r.status, r.body)
			continue
		}
		if e := r.errorOf(t); e.Field != tt.field || (tt.line > 0 && e.Line != tt.line) {
			t.Errorf("%s: field %q line %d, want %q line %d: %s", tt.name, e.Field, e.Line, tt.field, tt.line, r.body)
		}
	}
}

// TestSearchCancel checks that a running search stops when cancelled.
func TestSearchCancel(t *testing.T) {
	s := testServer(t, nil)
	j, r := submit(t, s, SimulationRequest{Service: Text(longSearch), Search: true})
	if r.status != 202 {
		t.Fatalf("submit: %d %s", r.status, r.body)
	}
	time.Sleep(50 * time.Millisecond) // let it start simulating
	if r := cancelJob(t, s.Handler(), j.ID, j.CancelKey); r.status != 200 {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	waitStopped(t, s)
	if got := poll(t, s, j.ID, func(JobJSON) bool { return true }); got.Status != JobCancelled || got.Search != nil {
		t.Errorf("after cancel: %+v", got)
	}
}

// TestLostJob: a job whose replica stopped writing its state (it crashed)
// is reported failed once lostAfter has passed, not running forever.
func TestLostJob(t *testing.T) {
	now := fixedNow
	s := testServer(t, func(c *Config) { c.Now = func() time.Time { return now } })
	js := s.store.(store.Jobs)
	state := jsonBody(t, JobJSON{ID: "ghost", Status: JobRunning, Progress: 0.4, Created: now})
	if err := js.PutJob(context.Background(), "ghost", []byte(state)); err != nil {
		t.Fatal(err)
	}
	get := func() JobJSON {
		t.Helper()
		return poll(t, s, "ghost", func(JobJSON) bool { return true })
	}
	if j := get(); j.Status != JobRunning || j.Progress != 0.4 {
		t.Errorf("fresh: %+v", j)
	}
	now = now.Add(lostAfter + time.Second)
	if j := get(); j.Status != JobFailed || j.Error == nil || !strings.Contains(j.Error.Message, "stopped reporting") {
		t.Errorf("after its replica went silent: %+v", j)
	}
}

// TestJobFailures: a run that fails or panics ends failed with its error,
// not cancelled.
func TestJobFailures(t *testing.T) {
	s := testServer(t, nil)
	for name, run := range map[string]func(func(float64, float64)) (outcome, error){
		"error": func(func(float64, float64)) (outcome, error) {
			return outcome{}, apperr.Invalidf("service.mean_s", "boom")
		},
		"panic": func(func(float64, float64)) (outcome, error) { panic("boom") },
	} {
		j, err := s.jobs.start(run)
		if err != nil {
			t.Fatal(err)
		}
		got := poll(t, s, j.id, func(j JobJSON) bool { return j.Status != JobRunning })
		if got.Status != JobFailed || got.Error == nil || !strings.Contains(got.Error.Message, "boom") && got.Error.Code != "internal" {
			t.Errorf("%s: %+v", name, got)
		}
	}
}
