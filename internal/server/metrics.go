package server

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// latencyBuckets are the upper bounds, in seconds, of the request latency
// histogram.
var latencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// metrics counts requests per route and status, their latencies per route,
// and evaluations per kind, and writes them in the Prometheus text format.
type metrics struct {
	mu          sync.Mutex
	requests    map[[2]string]uint64 // route, status
	latency     map[string]*histogram
	evaluations map[[2]string]uint64 // kind, outcome
	start       time.Time
}

type histogram struct {
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

func newMetrics() *metrics {
	return &metrics{requests: map[[2]string]uint64{}, latency: map[string]*histogram{},
		evaluations: map[[2]string]uint64{}, start: time.Now()}
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[[2]string{route, strconv.Itoa(status)}]++
	h := m.latency[route]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBuckets)+1)}
		m.latency[route] = h
	}
	sec := d.Seconds()
	i, _ := slices.BinarySearch(latencyBuckets, sec)
	h.counts[i]++
	h.sum += sec
	h.n++
}

// evaluated counts one evaluation (recommend, predict, simulate...) and
// whether it succeeded.
func (m *metrics) evaluated(kind string, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.mu.Lock()
	m.evaluations[[2]string{kind, outcome}]++
	m.mu.Unlock()
}

func (m *metrics) serve(w http.ResponseWriter, _ *http.Request) {
	var b strings.Builder
	m.mu.Lock()
	b.WriteString("# HELP gpupick_http_requests_total HTTP requests by route and status.\n# TYPE gpupick_http_requests_total counter\n")
	for _, k := range sortedKeys(m.requests) {
		fmt.Fprintf(&b, "gpupick_http_requests_total{route=%q,status=%q} %d\n", k[0], k[1], m.requests[k])
	}
	b.WriteString("# HELP gpupick_http_request_duration_seconds HTTP request latency by route.\n# TYPE gpupick_http_request_duration_seconds histogram\n")
	routes := make([]string, 0, len(m.latency))
	for r := range m.latency {
		routes = append(routes, r)
	}
	slices.Sort(routes)
	for _, r := range routes {
		h := m.latency[r]
		var cum uint64
		for i, le := range latencyBuckets {
			cum += h.counts[i]
			fmt.Fprintf(&b, "gpupick_http_request_duration_seconds_bucket{route=%q,le=%q} %d\n", r, strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(&b, "gpupick_http_request_duration_seconds_bucket{route=%q,le=\"+Inf\"} %d\n", r, h.n)
		fmt.Fprintf(&b, "gpupick_http_request_duration_seconds_sum{route=%q} %g\n", r, h.sum)
		fmt.Fprintf(&b, "gpupick_http_request_duration_seconds_count{route=%q} %d\n", r, h.n)
	}
	b.WriteString("# HELP gpupick_evaluations_total Evaluations by kind and outcome.\n# TYPE gpupick_evaluations_total counter\n")
	for _, k := range sortedKeys(m.evaluations) {
		fmt.Fprintf(&b, "gpupick_evaluations_total{kind=%q,outcome=%q} %d\n", k[0], k[1], m.evaluations[k])
	}
	m.mu.Unlock()
	fmt.Fprintf(&b, "# HELP gpupick_uptime_seconds Seconds since the server started.\n# TYPE gpupick_uptime_seconds gauge\ngpupick_uptime_seconds %g\n",
		time.Since(m.start).Seconds())
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

func sortedKeys(m map[[2]string]uint64) [][2]string {
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	return keys
}
