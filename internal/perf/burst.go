package perf

import (
	"container/heap"
	"math"
)

// burst simulates n requests submitted at once to one replica with
// continuous batching and returns the makespan and the output tokens per
// second over it. Requests are admitted in order while the batch has room;
// a prefill wave starts the run, each later admission adds its prompt's
// prefill to the step it joins, and the run ends when the longest answer
// does. Output lengths follow a log-normal distribution with the
// workload's mean and coefficient of variation, taken at evenly spread
// quantiles in a fixed, well-mixed order, so a run repeats exactly.
func (r replica) burst(n int) (makespanS, tokS float64) {
	j := r.j
	if n < 1 || r.bMax < 1 {
		return 0, 0
	}
	length := outputLengths(n, j.output, j.outputCV, math.Max(1, r.lengthCap()))
	work := r.pfWork
	var t, total float64
	active := &finishHeap{} // one entry per finish step of an admission
	inFlight := 0
	next := 0
	step := 0 // decode steps taken so far
	var ctxSum float64
	ends := map[int]int{} // finish step -> sequences of this admission ending then
	admit := func() int {
		k := 0
		if j.outputCV <= 0 { // every answer is as long: one group per admission
			k = min(n-next, r.bMax-inFlight)
			if k > 0 {
				l := length(next)
				heap.Push(active, finish{at: step + int(l), start: step, ctx: j.prompt, n: k})
				ctxSum += float64(k) * j.prompt
				total += float64(k) * l
				next += k
				inFlight += k
			}
			return k
		}
		clear(ends)
		for next < n && inFlight < r.bMax {
			l := length(next)
			ends[step+int(l)]++
			ctxSum += j.prompt
			total += l
			next++
			inFlight++
			k++
		}
		for at, c := range ends { // distinct finish steps: the heap's order does not depend on this one
			heap.Push(active, finish{at: at, start: step, ctx: j.prompt, n: c})
		}
		return k
	}
	first := admit()
	t += r.prefillWave(float64(first))
	for inFlight > 0 {
		// Run until the next request finishes: the batch is constant in between.
		until := (*active)[0].at
		k := until - step
		if k > 0 {
			B := inFlight
			mean := ctxSum/float64(B) + float64(k)/2
			ts, _, _, _, _ := r.step(B, mean)
			t += float64(k) * ts / j.yield // k tokens per sequence
			ctxSum += float64(k * B)
			step = until
		}
		for active.Len() > 0 && (*active)[0].at <= step {
			f := heap.Pop(active).(finish)
			ctxSum -= float64(f.n) * (f.ctx + float64(step-f.start))
			inFlight -= f.n
		}
		if joined := admit(); joined > 0 {
			t += float64(joined) * work
		}
	}
	if t <= 0 {
		return 0, 0
	}
	return t, total / t
}

// lengthCap is the longest output the model's context leaves room for.
func (r replica) lengthCap() float64 {
	j := r.j
	if j.ctxLimit > j.prompt {
		return j.ctxLimit - j.prompt
	}
	return 64 * math.Max(j.output, 1)
}

// finish is a group of n sequences admitted at step start with prompt
// ctx that all end at step at.
type finish struct {
	at, start, n int
	ctx          float64
}

type finishHeap []finish

func (h finishHeap) Len() int           { return len(h) }
func (h finishHeap) Less(i, k int) bool { return h[i].at < h[k].at }
func (h finishHeap) Swap(i, k int)      { h[i], h[k] = h[k], h[i] }
func (h *finishHeap) Push(x any)        { *h = append(*h, x.(finish)) }
func (h *finishHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// outputLengths returns the output length of each of n requests, at least
// 1 token and at most limit, with the given mean and coefficient of
// variation: log-normal quantiles at (i+0.5)/n, visited in golden-ratio
// order so that long and short answers are spread over the queue. The
// lengths are computed when asked for, so a burst of 100,000 requests
// allocates none.
func outputLengths(n int, mean, cv, limit float64) func(i int) float64 {
	mean = math.Max(mean, 1)
	if cv <= 0 {
		l := math.Min(math.Round(mean), limit)
		return func(int) float64 { return l }
	}
	sigma := math.Sqrt(math.Log(1 + cv*cv))
	mu := math.Log(mean) - sigma*sigma/2
	const phi = 0.6180339887498949
	return func(i int) float64 {
		u := math.Mod(float64(i)*phi+0.5/float64(n), 1)
		q := (math.Floor(u*float64(n)) + 0.5) / float64(n)
		v := math.Exp(mu + sigma*math.Sqrt2*math.Erfinv(2*q-1))
		return math.Min(math.Max(1, math.Round(v)), limit)
	}
}
