package autoscale

import "math"

// Sketch is a mergeable, fixed-size histogram of non-negative values
// (seconds) with log-spaced buckets: 128 per power of two, so a quantile read
// from it is within 0.4% (relative) of a value that was added. Values below
// 2^-20 (about 1 µs) count as zero; values above 2^24 (about 194 days) land in
// the top bucket. Its size never depends on how many values it holds.
// The zero value is not ready; use NewSketch.
type Sketch struct {
	counts []uint64 // len sketchBuckets
	zero   uint64   // values below the smallest bucket, including exact zeros
	n      uint64
	sum    float64
	max    float64
}

const (
	sketchSubBits = 7
	sketchSub     = 1 << sketchSubBits
	sketchMinExp  = -20
	sketchMaxExp  = 24
	sketchBuckets = (sketchMaxExp - sketchMinExp) * sketchSub
)

// NewSketch returns an empty sketch.
func NewSketch() *Sketch { return &Sketch{counts: make([]uint64, sketchBuckets)} }

// Add records one value v (seconds; negative values count as zero).
func (s *Sketch) Add(v float64) {
	s.n++
	if v > s.max {
		s.max = v
	}
	if !(v >= 0x1p-20) { // also catches NaN
		s.zero++
		return
	}
	s.sum += v
	b := math.Float64bits(v)
	exp := int(b>>52) - 1023
	i := (exp-sketchMinExp)<<sketchSubBits | int(b>>(52-sketchSubBits))&(sketchSub-1)
	if i >= sketchBuckets {
		i = sketchBuckets - 1
	}
	s.counts[i]++
}

// Count is the number of values added.
func (s *Sketch) Count() uint64 { return s.n }

// Mean is the exact mean of the values added (0 when empty).
func (s *Sketch) Mean() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / float64(s.n)
}

// Max is the largest value added (0 when empty).
func (s *Sketch) Max() float64 { return s.max }

// Quantile returns the q-quantile (0 <= q <= 1) of the values added, within
// 0.4% relative error; 0 when empty.
func (s *Sketch) Quantile(q float64) float64 {
	if s.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(s.n)))
	if rank < 1 {
		rank = 1
	}
	if rank <= s.zero {
		return 0
	}
	c := s.zero
	for i, k := range s.counts {
		c += k
		if c >= rank {
			exp := i>>sketchSubBits + sketchMinExp
			m := float64(i&(sketchSub-1)) + 0.5
			v := math.Ldexp(1+m/sketchSub, exp)
			return math.Min(v, s.max)
		}
	}
	return s.max
}

// Merge adds every value of o into s.
func (s *Sketch) Merge(o *Sketch) {
	for i, k := range o.counts {
		s.counts[i] += k
	}
	s.zero += o.zero
	s.n += o.n
	s.sum += o.sum
	s.max = math.Max(s.max, o.max)
}

// Reset empties s, keeping its storage.
func (s *Sketch) Reset() {
	clear(s.counts)
	s.zero, s.n, s.sum, s.max = 0, 0, 0, 0
}

// SizeBytes is the memory the sketch holds, constant for its lifetime.
func (s *Sketch) SizeBytes() int { return 8*len(s.counts) + 40 }

// Percentiles summarises a distribution of durations, in seconds.
type Percentiles struct {
	MeanS float64 `json:"mean"`
	P50S  float64 `json:"p50"`
	P95S  float64 `json:"p95"`
	P99S  float64 `json:"p99"`
	MaxS  float64 `json:"max"`
}

// Summary reads the mean, median, 95th and 99th percentiles and the maximum.
func (s *Sketch) Summary() Percentiles {
	return Percentiles{MeanS: s.Mean(), P50S: s.Quantile(0.5), P95S: s.Quantile(0.95), P99S: s.Quantile(0.99), MaxS: s.Max()}
}
