package perf_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// The nearest-neighbour choice: distances never fall along the list, a
// closer row is never left out for a farther one, and the same job on the
// same hardware is at distance 0.
func TestNearestEvidenceOrder(t *testing.T) {
	rows := perf.EvidenceRows()
	if len(rows) < 200 {
		t.Fatalf("%d evidence rows, want the validation set's 200+", len(rows))
	}
	for i := range rows {
		r := &rows[i]
		if r.Source == "" || r.Date == "" || r.Measured <= 0 || r.Predicted <= 0 || r.Unit == "" {
			t.Errorf("%s: a row without source, date, measured, predicted or unit: %+v", r.ID, r)
		}
	}
	for _, r := range rows[:40] {
		q := perf.EvidenceQuery{Kind: r.Kind, ParamsB: r.ParamsB, GPU: r.GPU, Arch: r.Arch, Vendor: r.Vendor, GPUs: r.GPUs,
			Framework: r.Framework, Precision: r.Precision, Method: r.Method}
		got := perf.NearestEvidence(q, rows, 5)
		// A query a little away from every row: the ranking's shortcut
		// agrees with the list.
		far := q
		far.ParamsB, far.GPUs = q.ParamsB*3, q.GPUs*2+1
		if d, want := perf.NearestDistance(far, rows), perf.NearestEvidence(far, rows, 1)[0].Distance; d != want {
			t.Errorf("%s: NearestDistance %v, NearestEvidence's first %v", r.ID, d, want)
		}
		if len(got) != 5 || got[0].Distance != 0 {
			t.Fatalf("%s: the row itself is not first at distance 0: %+v", r.ID, got)
		}
		worst := got[len(got)-1].Distance
		for i := 1; i < len(got); i++ {
			if got[i].Distance < got[i-1].Distance {
				t.Errorf("%s: distance %v after %v", r.ID, got[i].Distance, got[i-1].Distance)
			}
		}
		listed := map[string]bool{}
		for _, e := range got {
			listed[e.ID] = true
		}
		for i := range rows {
			if d := math.Round(perf.EvidenceDistance(q, &rows[i])*100) / 100; d < worst && !listed[rows[i].ID] {
				t.Errorf("%s: %s at distance %.2f left out for one at %.2f", r.ID, rows[i].ID, d, worst)
			}
		}
	}
}

// Every README example predicted on its usual hardware carries at least
// three published results, each with source, measured and predicted.
func TestPredictionsCarryEvidence(t *testing.T) {
	cat := catalogtest.Embedded(t)
	files, _ := filepath.Glob("../../examples/*.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := workload.Parse(b, f)
		if err != nil {
			continue // a service file
		}
		a, _ := cat.Accelerator("h100-sxm")
		ev := perf.NearestEvidence(perf.QueryOf(spec, a, 8), perf.EvidenceRows(), perf.EvidenceListed)
		if len(ev) < 3 {
			t.Errorf("%s: %d evidence items", f, len(ev))
		}
		for _, e := range ev {
			if e.Source == "" || e.URL == "" || e.Measured <= 0 || e.Predicted <= 0 || e.Ratio <= 0 {
				t.Errorf("%s: %+v", f, e)
			}
		}
		if ev[0].Kind != string(spec.Kind) && spec.Kind != workload.KindGeneric {
			t.Errorf("%s (%s): the nearest published result is a %s", f, spec.Kind, ev[0].Kind)
		}
	}
}
