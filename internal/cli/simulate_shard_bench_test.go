package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/store"
)

// BenchmarkMergeSearch merges a search of 10,000 stored units (candidate
// offers, 8 entries each, the size of a real candidate's policy search
// after deduplication is 20 to 80) from SQLite, stored as shards store
// them (autoscale.EncodeEntries): read, decode and rank.
func BenchmarkMergeSearch(b *testing.B) {
	for _, perUnit := range []int{8, 50} {
		b.Run(fmt.Sprintf("units=10000/entries=%d", perUnit), func(b *testing.B) {
			ctx := context.Background()
			st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			sr := st.(store.Searches)
			const units, shards = 10000, 8
			for sh := range shards {
				if _, err := sr.StartSearchShard(ctx, store.SearchShard{SearchID: "b", Shard: sh, Shards: shards, Units: units, Fingerprint: "f"}); err != nil {
					b.Fatal(err)
				}
			}
			for u := range units {
				var entries []autoscale.SearchEntry
				for k := range perUnit {
					entries = append(entries, autoscale.SearchEntry{Candidate: fmt.Sprintf("p/i%d", u), Region: "r",
						Policy: autoscale.Policy{Kind: autoscale.PolicyTarget, Target: float64(k + 1), MaxReplicas: 8}, Summary: "target",
						MeetsSLO: k%3 != 0, CostUSD: float64((u*7919+k*104729)%100000) / 100, SLOViolationFraction: float64(k) / 1000,
						P95LatencyS: 1.5, ReplicaHours: float64(k), Utilization: 0.5})
				}
				body, err := autoscale.EncodeEntries(entries)
				if err != nil {
					b.Fatal(err)
				}
				c := autoscale.Candidate{Name: fmt.Sprintf("p/i%d", u)}
				if err := sr.PutSearchUnit(ctx, "b", store.SearchUnit{Key: autoscale.UnitKey(u, c), Unit: u, Shard: u % shards, Result: body}); err != nil {
					b.Fatal(err)
				}
			}
			for sh := range shards {
				if err := sr.FinishSearchShard(ctx, "b", sh); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				shs, err := sr.SearchShards(ctx, "b")
				if err != nil {
					b.Fatal(err)
				}
				us, err := sr.SearchUnits(ctx, "b")
				if err != nil {
					b.Fatal(err)
				}
				res, err := mergeUnits("b", shs, us)
				if err != nil || res.Evaluated != units*perUnit {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}
