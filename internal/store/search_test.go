package store

import (
	"context"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

// TestSearches: shards start once, units are stored once (a rerun keeps
// the first result), a shard is marked done, and a shard run with other
// inputs under the same id is refused; SQLite always, PostgreSQL when
// GPUPICK_TEST_POSTGRES names one.
func TestSearches(t *testing.T) {
	for name, open := range testStores() {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			if _, err := s.SearchShards(ctx, "s1"); apperr.CodeOf(err) != apperr.NotFound {
				t.Fatalf("unknown search: %v", err)
			}
			sh := SearchShard{SearchID: "s1", Shard: 1, Shards: 2, Units: 3, Fingerprint: "abc"}
			got, err := s.StartSearchShard(ctx, sh)
			if err != nil || !got.Done.IsZero() || got.Units != 3 {
				t.Fatalf("start: %+v, %v", got, err)
			}
			if err := s.PutSearchUnit(ctx, "s1", SearchUnit{Key: "00001 b", Unit: 1, Shard: 1, Result: []byte(`[1]`)}); err != nil {
				t.Fatal(err)
			}
			if err := s.PutSearchUnit(ctx, "s1", SearchUnit{Key: "00001 b", Unit: 1, Shard: 1, Result: []byte(`[2]`)}); err != nil {
				t.Fatalf("a unit stored again: %v", err)
			}
			if err := s.PutSearchUnit(ctx, "s1", SearchUnit{Key: "00000 a", Unit: 0, Shard: 0, Result: []byte(`[0]`)}); err != nil {
				t.Fatal(err)
			}
			units, err := s.SearchUnits(ctx, "s1")
			if err != nil || len(units) != 2 || units[0].Key != "00000 a" || string(units[1].Result) != "[1]" {
				t.Fatalf("units: %+v, %v", units, err)
			}
			keys, err := s.SearchUnitKeys(ctx, "s1")
			if err != nil || !keys["00001 b"] || len(keys) != 2 {
				t.Fatalf("keys: %v, %v", keys, err)
			}
			if err := s.FinishSearchShard(ctx, "s1", 1); err != nil {
				t.Fatal(err)
			}
			if got, err := s.StartSearchShard(ctx, sh); err != nil || got.Done.IsZero() {
				t.Fatalf("restart of a done shard: %+v, %v", got, err)
			}
			if err := s.FinishSearchShard(ctx, "s1", 0); apperr.CodeOf(err) != apperr.NotFound {
				t.Fatalf("finish a shard never started: %v", err)
			}
			other := sh
			other.Shard, other.Fingerprint = 0, "def"
			if _, err := s.StartSearchShard(ctx, other); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "was started as 2 shard(s) over 3 unit(s)") {
				t.Fatalf("other inputs: %v", err)
			}
			shards, err := s.SearchShards(ctx, "s1")
			if err != nil || len(shards) != 1 || shards[0].Shard != 1 {
				t.Fatalf("shards: %+v, %v", shards, err)
			}
			if _, err := s.StartSearchShard(ctx, SearchShard{SearchID: "s2", Shard: 2, Shards: 2}); apperr.CodeOf(err) != apperr.Invalid {
				t.Fatalf("shard out of range: %v", err)
			}
		})
	}
}
