package server

import (
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var loadDuration = flag.Duration("load", 0, "run TestLoadRecommend for this long (e.g. -load 5s)")

// TestLoadRecommend drives recommend with 50 concurrent clients over
// loopback for -load and reports requests per second and latency
// percentiles. Skipped without -load. Target: p99 under 200 ms on 2 cores
// (go test -run LoadRecommend -load 5s -cpu 2 ./internal/server/).
func TestLoadRecommend(t *testing.T) {
	if *loadDuration <= 0 {
		t.Skip("give -load DURATION to run the load test")
	}
	const clients = 50
	TuneRuntime() // as gpupick serve does
	s := testServer(t, func(c *Config) { c.DB = "" })
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	body := jsonBody(t, RecommendRequest{Workload: Text(example(t, "llama3-8b-lora.yaml"))})
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()

	var mu sync.Mutex
	var lat []time.Duration
	var failures int
	stop := time.Now().Add(*loadDuration)
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for time.Now().Before(stop) {
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
	wg.Wait()
	elapsed := time.Since(start)
	if len(lat) == 0 {
		t.Fatalf("no successful request (%d failures)", failures)
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	t.Logf("recommend, %d clients, %v: %d requests, %.1f req/s, p50 %v, p90 %v, p99 %v, max %v, %d failures",
		clients, elapsed.Round(time.Millisecond), len(lat), float64(len(lat))/elapsed.Seconds(),
		pct(0.50).Round(time.Millisecond), pct(0.90).Round(time.Millisecond), pct(0.99).Round(time.Millisecond),
		lat[len(lat)-1].Round(time.Millisecond), failures)
	if failures > 0 {
		t.Errorf("%d failed requests", failures)
	}
}

// BenchmarkRecommendParallel measures one recommend request through the
// whole handler (decode, evaluate, encode) with parallel clients.
func BenchmarkRecommendParallel(b *testing.B) { benchmarkRecommend(b, "") }

// BenchmarkRecommendParallelGzip is BenchmarkRecommendParallel for
// clients that take gzip, as browsers do: the answer is compressed.
func BenchmarkRecommendParallelGzip(b *testing.B) { benchmarkRecommend(b, "gzip") }

func benchmarkRecommend(b *testing.B, encoding string) {
	s := testServer(b, func(c *Config) { c.DB = "" })
	h := s.Handler()
	body := jsonBody(b, RecommendRequest{Workload: Text(example(b, "llama3-8b-lora.yaml"))})
	b.SetParallelism(25) // 25 x GOMAXPROCS goroutines: 50 on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("POST", local+"/api/v1/recommend", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if encoding != "" {
				req.Header.Set("Accept-Encoding", encoding)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != 200 || w.Header().Get("Content-Encoding") != encoding {
				b.Fatalf("status %d, encoding %q", w.Code, w.Header().Get("Content-Encoding"))
			}
		}
	})
}
