package server

import (
	"sync"
	"time"
)

// limiter is a token bucket per client address. Buckets idle for a minute
// are dropped, so the map stays as small as the set of active clients.
type limiter struct {
	mu      sync.Mutex
	rate    float64 // tokens per second
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate, burst float64, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: max(1, burst), now: now, buckets: map[string]*bucket{}}
}

func (l *limiter) allow(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.now()
	if t.Sub(l.swept) > time.Minute {
		for k, b := range l.buckets {
			if t.Sub(b.last) > time.Minute {
				delete(l.buckets, k)
			}
		}
		l.swept = t
	}
	b, ok := l.buckets[client]
	if !ok {
		b = &bucket{tokens: l.burst, last: t}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+t.Sub(b.last).Seconds()*l.rate)
	b.last = t
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// probe reports whether path is a liveness, readiness or metrics probe:
// never rate-limited, so that a flood from the address an orchestrator
// probes from (a proxy, an SNAT gateway) cannot get the pod restarted.
func probe(path string) bool {
	return path == "/healthz" || path == "/readyz" || path == "/metrics"
}

// refusals counts requests refused for their rate and logs them as one line
// per interval, not a line each: a flood of refused requests writes a line
// every refusalEvery, whatever its rate. The count of clients is bounded.
type refusals struct {
	mu      sync.Mutex
	count   int
	clients map[string]int
	since   time.Time
	now     func() time.Time
	every   time.Duration
	emit    func(count int, since time.Time, clients int, top string, topCount int)
}

const (
	refusalEvery      = 10 * time.Second
	refusalMaxClients = 1000
)

// add counts one refused request from client, and logs the interval's
// count when the interval has passed.
func (f *refusals) add(client string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count == 0 {
		f.since = f.now()
	}
	f.count++
	if _, ok := f.clients[client]; ok || len(f.clients) < refusalMaxClients {
		f.clients[client]++
	}
	f.flushLocked(false)
}

// tick logs the interval's count if it has passed (any request calls it),
// or at once when final (at shutdown).
func (f *refusals) tick(final bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushLocked(final)
}

func (f *refusals) flushLocked(final bool) {
	if f.count == 0 || !final && f.now().Sub(f.since) < f.every {
		return
	}
	top, topCount := "", 0
	for c, n := range f.clients {
		if n > topCount || n == topCount && c < top {
			top, topCount = c, n
		}
	}
	f.emit(f.count, f.since, len(f.clients), top, topCount)
	f.count = 0
	clear(f.clients)
}
