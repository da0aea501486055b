package perf

import (
	"math"
	"slices"
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
	// Sequences end on a calendar of quantum steps: ends[k] holds those
	// that end at step k·quantum, and the sum of their prompts less their
	// first steps, from which their context at that step follows. When
	// every answer is as long, admissions happen at the start and when a
	// group ends, so the quantum is that length and every end is exact.
	// Answers of unequal length end at the multiple of 1/16 of the mean
	// answer nearest their last token: a long burst then takes a few
	// hundred batch changes, not one per request, and an end moves by at
	// most half a quantum, as often earlier as later.
	quantum := max(1, int(length(0)))
	if j.outputCV > 0 {
		quantum = max(1, int(j.output/16))
	}
	type due struct {
		n    int
		base float64 // Σ (prompt - admission step) of the sequences ending here
	}
	var ends []due
	var t, total, ctxSum float64
	inFlight, next, step := 0, 0, 0 // step: decode steps taken so far
	end := func(l float64, k int) {
		at := max((step+int(l)+quantum/2)/quantum, step/quantum+1)
		if at >= len(ends) {
			ends = slices.Grow(ends, at+1-len(ends))[:at+1]
		}
		ends[at].n += k
		ends[at].base += float64(k) * (j.prompt - float64(step))
		ctxSum += float64(k) * j.prompt
		total += float64(k) * l
		next += k
		inFlight += k
	}
	admit := func() int {
		k := min(n-next, r.bMax-inFlight)
		if k <= 0 {
			return 0
		}
		if j.outputCV <= 0 { // every answer is as long: one group per admission
			end(length(next), k)
			return k
		}
		for range k {
			end(length(next), 1)
		}
		return k
	}
	first := admit()
	t += r.prefillWave(float64(first))
	cur := 0 // the first index of ends not yet reached
	for inFlight > 0 {
		for cur < len(ends) && ends[cur].n == 0 {
			cur++
		}
		// Run until the next sequences end: the batch is constant in between.
		until := cur * quantum
		k := until - step
		if k > 0 {
			B := inFlight
			mean := ctxSum/float64(B) + float64(k)/2
			ts, _, _, _, _ := r.step(B, mean)
			t += float64(k) * ts / j.yield // k tokens per sequence
			ctxSum += float64(k * B)
			step = until
		}
		d := ends[cur]
		ctxSum -= float64(d.n)*float64(step) + d.base
		inFlight -= d.n
		ends[cur] = due{}
		switch joined := float64(admit()); {
		case joined <= 0:
		case j.outputCV <= 0:
			t += r.joinWork(joined, false) // a whole group, dealt evenly
		default:
			// The prompts stand for the answers that ended over the k
			// steps since the last change, about joined/k a step.
			t += float64(max(1, k)) * r.joinWork(joined/float64(max(1, k)), true)
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

// outputLengths returns the output length of each of n requests, at least
// 1 token and at most limit, with the given mean and coefficient of
// variation: log-normal quantiles at (i+0.5)/n, visited in golden-ratio
// order so that long and short answers are spread over the queue. The
// lengths are computed when asked for, so a burst of 100,000 requests
// allocates only a table: past lengthTableFrom requests, quantiles between
// the 1st and 99th percentiles, where the log-normal's is smooth, are read
// from a table of lengthTable points (within 0.1% of the exact value); the
// tails, which set a burst's longest answers, are computed exactly.
func outputLengths(n int, mean, cv, limit float64) func(i int) float64 {
	mean = math.Max(mean, 1)
	if cv <= 0 {
		l := math.Min(math.Round(mean), limit)
		return func(int) float64 { return l }
	}
	sigma := math.Sqrt(math.Log(1 + cv*cv))
	mu := math.Log(mean) - sigma*sigma/2
	exact := func(q float64) float64 { return math.Exp(mu + sigma*math.Sqrt2*math.Erfinv(2*q-1)) }
	const phi = 0.6180339887498949
	const lo, hi = 0.01, 0.99
	var table []float64
	if n > lengthTableFrom {
		table = make([]float64, lengthTable)
		for k := range table {
			table[k] = exact(lo + (hi-lo)*float64(k)/float64(lengthTable-1))
		}
	}
	nf := float64(n)
	return func(i int) float64 {
		u := float64(i)*phi + 0.5/nf
		u -= math.Floor(u)
		q := (math.Floor(u*nf) + 0.5) / nf
		var v float64
		if table != nil && q > lo && q < hi {
			x := (q - lo) / (hi - lo) * float64(lengthTable-1)
			k := min(int(x), lengthTable-2)
			v = table[k] + (table[k+1]-table[k])*(x-float64(k))
		} else {
			v = exact(q)
		}
		return math.Min(math.Max(1, math.Round(v)), limit)
	}
}

// lengthTable and lengthTableFrom: see outputLengths.
const lengthTable, lengthTableFrom = 1024, 4096
