package server

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSharedDatabase runs two replicas on one database, as behind a load
// balancer: a workload saved through one is read through the other. It runs
// on a shared SQLite file always, and on PostgreSQL when
// GPUPICK_TEST_POSTGRES holds a URL.
func TestSharedDatabase(t *testing.T) {
	dsns := map[string]string{"sqlite": filepath.Join(t.TempDir(), "shared.db")}
	if pg := os.Getenv("GPUPICK_TEST_POSTGRES"); pg != "" {
		dsns["postgres"] = pg
	}
	for name, dsn := range dsns {
		t.Run(name, func(t *testing.T) {
			a := testServer(t, func(c *Config) { c.DB = dsn })
			b := testServer(t, func(c *Config) { c.DB = dsn })
			token := addToken(t, a) // created through one, honoured by both
			body := example(t, "llama3-8b-lora.yaml")
			r := do(t, a.Handler(), "POST", "/api/v1/workloads", jsonBody(t, SaveRequest{Name: "shared", Body: body}), token)
			if r.status != 201 {
				t.Fatalf("save on a: %d %s", r.status, r.body)
			}
			var doc DocumentJSON
			if err := json.Unmarshal([]byte(r.body), &doc); err != nil {
				t.Fatal(err)
			}
			r = do(t, b.Handler(), "GET", "/api/v1/workloads/"+itoa(doc.ID), "", "")
			var got DocumentJSON
			if err := json.Unmarshal([]byte(r.body), &got); err != nil || r.status != 200 || got.Body == nil || *got.Body != body {
				t.Fatalf("read on b: %d %.300s", r.status, r.body)
			}
			if r := do(t, b.Handler(), "DELETE", "/api/v1/workloads/"+itoa(doc.ID), "", token); r.status != 200 {
				t.Fatalf("delete on b: %d %s", r.status, r.body)
			}
			if r := do(t, a.Handler(), "GET", "/api/v1/workloads/"+itoa(doc.ID), "", ""); r.status != 404 {
				t.Errorf("a still sees it: %d", r.status)
			}

			// A simulation submitted to a is polled through b, and a
			// long one submitted to a is cancelled through b.
			j, r2 := submit(t, a, SimulationRequest{Service: Text(example(t, "service-target.yaml"))})
			if r2.status != 202 {
				t.Fatalf("submit on a: %d %s", r2.status, r2.body)
			}
			done := poll(t, b, j.ID, func(j JobJSON) bool { return j.Status != JobRunning })
			if done.Status != JobDone || done.Result == nil || done.Result.Requests == 0 {
				t.Fatalf("polled on b: %+v", done)
			}
			long, r2 := submit(t, a, SimulationRequest{Service: Text(longService)})
			if r2.status != 202 {
				t.Fatalf("submit long on a: %d %s", r2.status, r2.body)
			}
			poll(t, b, long.ID, func(j JobJSON) bool { return j.Progress > 0 }) // b sees it run
			// b knows the key's hash only through the store.
			if r := do(t, b.Handler(), "DELETE", "/api/v1/simulations/"+long.ID, "", ""); r.status != 404 {
				t.Fatalf("cancel on b without the key: %d %s", r.status, r.body)
			}
			if r := cancelJob(t, b.Handler(), long.ID, long.CancelKey); r.status != 200 {
				t.Fatalf("cancel on b: %d %s", r.status, r.body)
			}
			if r := do(t, b.Handler(), "GET", "/api/v1/simulations/"+long.ID, "", ""); strings.Contains(r.body, "key") {
				t.Errorf("a poll shows the key or its hash: %s", r.body)
			}
			waitStopped(t, a)
			if got := poll(t, b, long.ID, func(j JobJSON) bool { return j.Status != JobRunning }); got.Status != JobCancelled {
				t.Errorf("after cancel through b: %+v", got)
			}
			if r := do(t, b.Handler(), "GET", "/api/v1/simulations/nope", "", ""); r.status != 404 {
				t.Errorf("unknown job on b: %d %s", r.status, r.body)
			}
		})
	}
}

// TestGracefulShutdown cancels the server while a request is in flight: the
// request finishes, then Serve returns.
func TestGracefulShutdown(t *testing.T) {
	s := testServer(t, nil)
	entered := make(chan struct{})
	inner := s.handler
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(entered)
			time.Sleep(300 * time.Millisecond)
			_, _ = io.WriteString(w, "finished")
			return
		}
		inner.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-entered
	cancel()
	if body := <-got; body != "finished" {
		t.Errorf("in-flight request: %q", body)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Error("still accepting after shutdown")
	}
}
