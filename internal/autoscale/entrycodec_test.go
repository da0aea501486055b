package autoscale

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// fullEntry has every field of SearchEntry and of its Policy set to a
// distinct value, so that a field the codec forgets does not come back.
func fullEntry(t *testing.T) SearchEntry {
	t.Helper()
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			n++
			switch f.Kind() {
			case reflect.String:
				f.SetString("s" + string(rune('a'+n%26)) + "é")
			case reflect.Int:
				f.SetInt(int64(n * 7))
			case reflect.Float64:
				f.SetFloat(float64(n) + 1.0/3)
			case reflect.Bool:
				f.SetBool(true)
			case reflect.Struct:
				fill(f)
			case reflect.Pointer:
				// the mixed-fleet tiers: set below, by hand
			default:
				t.Fatalf("the codec test does not know field %s of kind %s: teach EncodeEntries and this test", v.Type().Field(i).Name, f.Kind())
			}
		}
	}
	var e SearchEntry
	fill(reflect.ValueOf(&e).Elem())
	return e
}

func TestEntriesRoundTrip(t *testing.T) {
	full := fullEntry(t)
	mixed := full
	mixed.Policy.OnDemand = &OnDemandTier{Replicas: 2}
	mixed.Policy.Spot = &SpotTier{MaxReplicas: 6, InterruptionsPerHour: 0.05, NoticeS: 120, ColdStartS: 90}
	mixed.Policy.Fallback = &FallbackTier{Mode: "drain", Replicas: 1, Speed: 0.25, WindowS: 60, ColdStartS: 30}
	odd := SearchEntry{Candidate: "x", CostUSD: math.Inf(1), SLOViolationFraction: math.SmallestNonzeroFloat64, P95LatencyS: math.Copysign(0, -1), ReplicaHours: 0.1 + 0.2}
	for name, in := range map[string][]SearchEntry{"none": {}, "full": {full, full}, "mixed": {full, mixed, odd}} {
		b, err := EncodeEntries(in)
		if err != nil {
			t.Fatal(err)
		}
		if CountEntries(b) != len(in) {
			t.Errorf("%s: CountEntries = %d, want %d", name, CountEntries(b), len(in))
		}
		out, err := DecodeEntries(nil, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(in) == 0 && len(out) == 0 {
			continue
		}
		if !reflect.DeepEqual(out, in) {
			t.Errorf("%s: round trip changed the entries\n got %+v\nwant %+v", name, out, in)
		}
		for i := range in {
			if math.Float64bits(out[i].P95LatencyS) != math.Float64bits(in[i].P95LatencyS) {
				t.Errorf("%s: float bits changed", name)
			}
		}
		// Cut short anywhere: an error, never a panic.
		for k := range len(b) - 1 {
			if _, err := DecodeEntries(nil, b[:k+1]); err == nil && k+1 < len(b) {
				t.Errorf("%s: %d of %d bytes decoded without an error", name, k+1, len(b))
				break
			}
		}
	}
	// The JSON earlier versions stored still reads.
	j, _ := json.Marshal([]SearchEntry{full})
	if CountEntries(j) != -1 {
		t.Error("CountEntries of JSON should be -1")
	}
	out, err := DecodeEntries(nil, j)
	if err != nil || !reflect.DeepEqual(out, []SearchEntry{full}) {
		t.Errorf("JSON form: %v %+v", err, out)
	}
}

// rankReference is RankSearch as it was before the merge was made fast: a
// stable sort of every entry, then the duplicates dropped.
func rankReference(entries []SearchEntry) *SearchResult {
	all := make([]SearchEntry, len(entries))
	copy(all, entries)
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.MeetsSLO != b.MeetsSLO {
			return a.MeetsSLO
		}
		if a.MeetsSLO {
			return a.CostUSD < b.CostUSD
		}
		return a.SLOViolationFraction < b.SLOViolationFraction
	})
	out := &SearchResult{Evaluated: len(all)}
	type outcome struct {
		cand, region        string
		cost, viol, p95, hr float64
	}
	seen := map[outcome]bool{}
	kept := all[:0]
	for _, e := range all {
		k := outcome{e.Candidate, e.Region, e.CostUSD, e.SLOViolationFraction, e.P95LatencyS, e.ReplicaHours}
		if !seen[k] {
			seen[k] = true
			kept = append(kept, e)
		}
	}
	if len(kept) > 0 && kept[0].MeetsSLO {
		b := kept[0]
		out.Best = &b
		kept = kept[1:]
	}
	out.RunnersUp = kept[:min(5, len(kept))]
	return out
}

// TestRankSearchMatchesStableSort: with many ties and duplicates, the
// ranking is the stable sort's, in JSON byte for byte, whether the first
// entries are selected from a few or from thousands.
func TestRankSearchMatchesStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		// Small lists sort whole; long ones go through the heap, and with
		// few distinct outcomes (trial%5 == 0) it must take more than 64.
		n := r.IntN(60)
		if trial%2 == 1 {
			n = 100 + r.IntN(3000)
		}
		cands := []string{"a", "b", "c"}
		if trial%5 == 0 {
			cands = cands[:1]
		}
		var entries []SearchEntry
		for i := range n {
			entries = append(entries, SearchEntry{Candidate: cands[r.IntN(len(cands))], Summary: string(rune('A' + i%26)),
				MeetsSLO: r.IntN(3) > 0 && trial%7 != 0, CostUSD: float64(r.IntN(5)), SLOViolationFraction: float64(r.IntN(4)) / 100,
				P95LatencyS: float64(r.IntN(2)), ReplicaHours: float64(r.IntN(2)), Policy: Policy{Kind: PolicyFixed, Replicas: i}})
			if trial%5 == 0 { // fewer than six distinct outcomes: every entry is looked at
				e := &entries[len(entries)-1]
				e.CostUSD, e.SLOViolationFraction, e.P95LatencyS, e.ReplicaHours = float64(r.IntN(2)), 0, 0, 0
			}
		}
		got, _ := json.Marshal(RankSearch(entries))
		want, _ := json.Marshal(rankReference(entries))
		if string(got) != string(want) {
			t.Fatalf("trial %d: RankSearch differs from the stable sort\n got %s\nwant %s", trial, got, want)
		}
	}
}
