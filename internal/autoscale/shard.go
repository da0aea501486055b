package autoscale

import (
	"fmt"
	"math"
	"time"
)

// Shard is one part of a search split across processes (a Kubernetes
// Indexed Job's pods, or local processes): shard Index of Count computes
// the candidates whose position in the candidate list is Index modulo
// Count. A candidate is the unit because its policy search is adaptive
// (see SearchCandidate); splitting by position, not by cost, keeps the
// partition a pure function of the candidate list, so every shard agrees
// on it without talking to the others.
type Shard struct {
	Index int // 0 ≤ Index < Count
	Count int // ≥ 1
}

// MaxShards bounds Shard.Count: far more than any candidate list.
const MaxShards = 10000

// Validate returns an Invalid error naming the flag when s is not a shard.
func (s Shard) Validate() error {
	if s.Count < 1 || s.Count > MaxShards {
		return invalidf("--shards", "want 1 to %d shards, got %d", MaxShards, s.Count)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return invalidf("--shard", "want a shard index from 0 to %d (of --shards %d), got %d", s.Count-1, s.Count, s.Index)
	}
	return nil
}

// Owns reports whether candidate number unit (0-based) is this shard's.
func (s Shard) Owns(unit int) bool { return unit%s.Count == s.Index }

// UnitKey names candidate number unit of a search in the store: its
// position, so that merging restores the single-process order, and its
// offer, so that a reader can see which it is.
func UnitKey(unit int, c Candidate) string {
	k := fmt.Sprintf("%05d %s", unit, c.Name)
	if c.Region != "" {
		k += "@" + c.Region
	}
	return k
}

// EventsPerSecond is the simulator's measured speed in units of
// Estimate.Cost per second on one core: 60 to 155 ns a unit on the shared
// 2-core reference machine, the slowest being the model service's search
// (1.3e9 units in 186 to 206 s, BENCHMARKS.md); the slow end is taken, so
// the wall time said is rather long than short.
const EventsPerSecond = 6.5e6

// Wall is how long the estimated work takes in one process at
// EventsPerSecond.
func (e Estimate) Wall() time.Duration {
	return time.Duration(e.Cost / EventsPerSecond * float64(time.Second))
}

// ShardsUnder is the fewest shards whose largest one is estimated to finish
// within target, at most one per candidate (a candidate is not split), and
// whether that many get under target at all. Candidates are taken to cost
// the same; a shard holds ceil(candidates/n) of them.
func (e Estimate) ShardsUnder(target time.Duration) (int, bool) {
	cands := max(e.Candidates, 1)
	per := e.Wall().Seconds() / float64(cands)
	for n := 1; n <= cands; n++ {
		if per*math.Ceil(float64(cands)/float64(n)) <= target.Seconds() {
			return n, true
		}
	}
	return cands, false
}

// ShardWall is the estimated wall time of a search split into n shards:
// the largest shard's share of the work.
func (e Estimate) ShardWall(n int) time.Duration {
	cands := max(e.Candidates, 1)
	n = max(1, min(n, cands))
	return time.Duration(float64(e.Wall()) * math.Ceil(float64(cands)/float64(n)) / float64(cands))
}
