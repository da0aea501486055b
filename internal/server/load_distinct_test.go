package server

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var loadClients = flag.Int("load-clients", 50, "clients of TestLoadDistinct")

// TestLoadDistinct drives recommend with -load-clients clients for -load,
// every request a different 70B pre-training workload (no prediction is
// shared), while a prober asks /healthz every 50 ms. It reports the
// recommend latencies and the slowest health answer. Skipped without
// -load (go test -run LoadDistinct -load 10s -load-clients 200 -cpu 2
// ./internal/server/).
func TestLoadDistinct(t *testing.T) {
	if *loadDuration <= 0 {
		t.Skip("give -load DURATION to run the load test")
	}
	clients := *loadClients
	TuneRuntime()
	s := testServer(t, func(c *Config) { c.DB = "" })
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: clients + 1}
	client := &http.Client{Transport: tr, Timeout: 120 * time.Second}
	defer tr.CloseIdleConnections()

	var n atomic.Int64
	workload := func() string {
		i := n.Add(1)
		// The sequence length and token count change the prediction: no
		// two requests share one.
		return fmt.Sprintf("name: pretrain-%d\nkind: llm-train\nmodel: {preset: llama-3-70b}\ntraining: {seq_len: %d, global_batch: 1024, tokens: %d}\nstack: {framework: megatron}\nconstraints: {max_gpus: 64, deadline_hours: 2000}\n",
			i, 2048+int(i%7)*512, 1000000000000+i*1000003)
	}
	var mu sync.Mutex
	var lat, health []time.Duration
	var failures int
	stop := time.Now().Add(*loadDuration)
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for time.Now().Before(stop) {
				body := jsonBody(t, RecommendRequest{Workload: Text(workload())})
				t0 := time.Now()
				resp, err := client.Post(ts.URL+"/api/v1/recommend", "application/json", strings.NewReader(body))
				if err != nil {
					bad++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					bad++
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			failures += bad
			mu.Unlock()
		})
	}
	wg.Go(func() {
		probe := &http.Client{Timeout: 10 * time.Second} // its own connection, as a kubelet's probe has
		for time.Now().Before(stop) {
			t0 := time.Now()
			if resp, err := probe.Get(ts.URL + "/healthz"); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				health = append(health, time.Since(t0))
				mu.Unlock()
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	wg.Wait()
	elapsed := time.Since(start)
	if len(lat) == 0 {
		t.Fatalf("no successful request (%d failures)", failures)
	}
	slices.Sort(lat)
	slices.Sort(health)
	pct := func(v []time.Duration, p float64) time.Duration { return v[min(len(v)-1, int(p*float64(len(v))))] }
	t.Logf("recommend, distinct 70B pre-training workloads, %d clients, %v: %d requests, %.1f req/s, p50 %v, p99 %v, max %v, %d failures; /healthz p99 %v, max %v over %d probes",
		clients, elapsed.Round(time.Millisecond), len(lat), float64(len(lat))/elapsed.Seconds(),
		pct(lat, 0.5).Round(time.Millisecond), pct(lat, 0.99).Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond), failures,
		pct(health, 0.99).Round(time.Millisecond), health[len(health)-1].Round(time.Millisecond), len(health))
	if len(health) > 0 && health[len(health)-1] > 100*time.Millisecond {
		t.Errorf("/healthz took %v while recommendations queued: want under 100 ms", health[len(health)-1])
	}
}

// BenchmarkRecommendDistinct is one recommend request of a 70B pre-training
// workload no earlier request shared a prediction with.
func BenchmarkRecommendDistinct(b *testing.B) {
	s := testServer(b, func(c *Config) { c.DB = "" })
	h := s.Handler()
	i := 0
	for b.Loop() {
		i++
		y := fmt.Sprintf("name: pretrain-%d\nkind: llm-train\nmodel: {preset: llama-3-70b}\ntraining: {seq_len: %d, global_batch: 1024, tokens: %d}\nstack: {framework: megatron}\nconstraints: {max_gpus: 64, deadline_hours: 2000}\n",
			i, 2048+(i%7)*512, 1000000000000+i*1000003)
		if r := do(b, h, "POST", "/api/v1/recommend", jsonBody(b, RecommendRequest{Workload: Text(y)}), ""); r.status != 200 {
			b.Fatalf("status %d: %s", r.status, r.body)
		}
	}
}
