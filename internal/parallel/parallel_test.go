package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestForCallsEveryIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 3, 100} {
			calls := make([]atomic.Int32, n)
			For(n, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if got := calls[i].Load(); got != 1 {
					t.Errorf("GOMAXPROCS %d, n %d: index %d called %d times, want 1", procs, n, i, got)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

func TestForRunsConcurrently(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one CPU")
	}
	// Two tasks that each wait for the other finish only when both run at once.
	a, b := make(chan struct{}), make(chan struct{})
	For(2, func(i int) {
		if i == 0 {
			close(a)
			<-b
		} else {
			close(b)
			<-a
		}
	})
}
