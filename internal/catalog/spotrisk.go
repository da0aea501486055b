package catalog

import (
	"fmt"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// SpotRiskFile is the optional file of what is published or measured about
// how often spot capacity is reclaimed.
const SpotRiskFile = "spot-risk.csv"

// SpotBuckets are the AWS Spot Instance Advisor's interruption-frequency
// ranges: the share of spot instances of a type and region reclaimed over
// the trailing month.
var SpotBuckets = [...]string{"<5%", "5-10%", "10-15%", "15-20%", ">20%"}

// SpotRisk is one row of spot-risk.csv: how often spot capacity of an
// instance type (or of every type of an accelerator, or of a provider) in a
// region (or in any) is reclaimed, as a published frequency bucket or a
// measured rate, with its source and date.
type SpotRisk struct {
	Provider string `json:"provider"`
	// InstanceType, GPU and Region narrow the row; empty = any.
	InstanceType string `json:"instance_type,omitempty"`
	GPU          string `json:"gpu,omitempty"`
	Region       string `json:"region,omitempty"`
	// Bucket is the index in SpotBuckets of a published frequency, or -1.
	Bucket int `json:"bucket"`
	// PerHour is a measured rate, instances lost per instance-hour; 0 when
	// the row gives a bucket.
	PerHour float64 `json:"interruptions_per_instance_hour,omitempty"`
	Notes   string  `json:"notes,omitempty"`
	Fact
}

// Frequency names what the row says: the bucket's range, or the rate.
func (r *SpotRisk) Frequency() string {
	if r.Bucket >= 0 {
		return SpotBuckets[r.Bucket] + " of instances reclaimed a month"
	}
	return fmt.Sprintf("%.3g instances lost per instance-hour (measured)", r.PerHour)
}

var spotRiskColumns = []string{"provider", "instance_type", "gpu", "region", "frequency", "interruptions_per_hour", "source", "as_of", "notes"}

// ParseSpotRisks reads spot-risk.csv.
func ParseSpotRisks(file string, data []byte, errs *apperr.List) []*SpotRisk {
	var out []*SpotRisk
	readTable(file, data, spotRiskColumns, []string{"provider", "source", "as_of"}, errs, func(t *table) {
		r := &SpotRisk{Provider: strings.ToLower(t.req("provider")), InstanceType: t.str("instance_type"),
			GPU: strings.ToLower(t.str("gpu")), Region: t.str("region"), Bucket: -1,
			PerHour: t.pos("interruptions_per_hour"), Notes: t.str("notes"), Fact: t.fact()}
		if f := t.str("frequency"); f != "" {
			for i, b := range SpotBuckets {
				if f == b {
					r.Bucket = i
				}
			}
			if r.Bucket < 0 {
				t.fail(t.line, "frequency", "want one of %s, got %q", strings.Join(SpotBuckets[:], ", "), f)
			}
		}
		if (r.Bucket >= 0) == (r.PerHour > 0) {
			t.fail(t.line, "frequency", "give either a frequency bucket or interruptions_per_hour")
		}
		if r.PerHour > 10 {
			t.fail(t.line, "interruptions_per_hour", "%g per instance-hour is beyond any measured fleet (at most 10)", r.PerHour)
		}
		out = append(out, r)
	})
	return out
}

// WriteSpotRisks writes rows in spot-risk.csv's format.
func WriteSpotRisks(rows []*SpotRisk) []byte {
	var b strings.Builder
	b.WriteString(strings.Join(spotRiskColumns, ",") + "\n")
	for _, r := range rows {
		freq, rate := "", ""
		if r.Bucket >= 0 {
			freq = SpotBuckets[r.Bucket]
		} else {
			rate = fmt.Sprint(r.PerHour)
		}
		b.WriteString(csvLine(r.Provider, r.InstanceType, r.GPU, r.Region, freq, rate, r.Source, r.AsOf.Format("2006-01-02"), r.Notes))
	}
	return []byte(b.String())
}

// csvLine writes one CSV record, quoting cells that need it.
func csvLine(cells ...string) string {
	for i, c := range cells {
		if strings.ContainsAny(c, ",\"\n") {
			cells[i] = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
		}
	}
	return strings.Join(cells, ",") + "\n"
}

type spotRiskKey struct{ provider, instance, gpu, region string }

// SpotRiskOf is the most specific row that applies to o: its instance type
// in its region, its instance type anywhere, its accelerator in its region
// or anywhere, the provider anywhere. nil when none does.
func (c *Catalog) SpotRiskOf(o *Offer) *SpotRisk {
	for _, k := range []spotRiskKey{
		{o.Provider, o.InstanceType, "", o.Region}, {o.Provider, o.InstanceType, "", ""},
		{o.Provider, "", o.GPU, o.Region}, {o.Provider, "", o.GPU, ""},
		{o.Provider, "", "", o.Region}, {o.Provider, "", "", ""},
	} {
		if r, ok := c.spotRisk[k]; ok {
			return r
		}
	}
	return nil
}
