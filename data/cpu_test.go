package data_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/autoscale"
)

// Every CPU price is traced to a dated public source: the source names a
// repository, a path in it and a commit (7 to 40 hex digits), the date is
// not in the future, and the price per vCPU-hour is plausible.
func TestCPUInstancesProvenance(t *testing.T) {
	rows, err := autoscale.ParseCPUInstances(data.CPUInstances)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no CPU instances")
	}
	src := regexp.MustCompile(`^github\.com/[\w.-]+/[\w.-]+ [\w./-]+@[0-9a-f]{7,40}$`)
	today := time.Now().UTC()
	for _, r := range rows {
		if !src.MatchString(r.Source) {
			t.Errorf("%s %s: source %q does not name a repository, a path and a commit", r.ID(), r.Region, r.Source)
		}
		d, err := time.Parse(time.DateOnly, r.AsOf)
		if err != nil {
			t.Errorf("%s %s: as_of %q: %v", r.ID(), r.Region, r.AsOf, err)
		} else if d.After(today) {
			t.Errorf("%s %s: as_of %s is in the future", r.ID(), r.Region, r.AsOf)
		}
		if per := r.PricePerHourUSD / float64(r.VCPUs); per < 0.01 || per > 0.2 {
			t.Errorf("%s %s: %.4f USD per vCPU-hour is outside 0.01-0.2", r.ID(), r.Region, per)
		}
	}
}
