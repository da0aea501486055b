package cli

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/store"
)

// TestMergeUnitsForms: units stored in the binary form, or as the JSON of
// earlier versions, or both, merge to the ranking of the entries in
// candidate order; a unit whose bytes are cut short is an error naming it.
func TestMergeUnitsForms(t *testing.T) {
	var all []autoscale.SearchEntry
	var units [3][]autoscale.SearchEntry
	for u := range units {
		for k := range 9 {
			e := autoscale.SearchEntry{Candidate: fmt.Sprintf("p/i%d", u), Policy: autoscale.Policy{Kind: autoscale.PolicyFixed, Replicas: k + 1},
				Summary: fmt.Sprintf("fixed %d", k+1), MeetsSLO: k > 2, CostUSD: float64((u*5+k*3)%7) + 0.1, SLOViolationFraction: float64(9-k) / 100}
			units[u] = append(units[u], e)
			all = append(all, e)
		}
	}
	want := autoscale.RankSearch(all)
	shards := []store.SearchShard{{SearchID: "m", Shard: 0, Shards: 1, Units: 3, Done: time.Unix(1, 0)}}
	for name, asJSON := range map[string][3]bool{"binary": {}, "json": {true, true, true}, "mixed": {false, true, false}} {
		var stored []store.SearchUnit
		for u, entries := range units {
			var b []byte
			var err error
			if asJSON[u] {
				b, err = json.Marshal(entries)
			} else {
				b, err = autoscale.EncodeEntries(entries)
			}
			if err != nil {
				t.Fatal(err)
			}
			stored = append(stored, store.SearchUnit{Key: autoscale.UnitKey(u, autoscale.Candidate{Name: entries[0].Candidate}), Unit: u, Result: b})
		}
		got, err := mergeUnits("m", shards, stored)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: merged %+v, want %+v", name, got, want)
		}
		if name == "binary" {
			stored[1].Result = stored[1].Result[:len(stored[1].Result)-3]
			if _, err := mergeUnits("m", shards, stored); err == nil {
				t.Error("a unit cut short merged without an error")
			}
		}
	}
}
