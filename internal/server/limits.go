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
