package rebuild

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

// MeasuredSpotFile holds hand-kept spot interruption rates measured in
// published traces, each row with its source.
const MeasuredSpotFile = "sources/spot/measured.csv"

// spotAdvisor is the part of the AWS Spot Instance Advisor feed
// (spot-advisor-data.json) the build reads: per region and OS, per instance
// type, the interruption-frequency range index r and the savings s.
type spotAdvisor struct {
	Ranges []struct {
		Index int    `json:"index"`
		Label string `json:"label"`
	} `json:"ranges"`
	SpotAdvisor map[string]map[string]map[string]struct {
		S int `json:"s"`
		R int `json:"r"`
	} `json:"spot_advisor"`
}

// spotRisks makes spot-risk.csv: the AWS Spot Advisor's bucket for every
// AWS offer of the catalog it lists (Linux), a row per instance type for
// regions the feed does not list (the median of its regions) and per type
// it does not list at all (the median of its family's letter: p, g...), and
// the measured rates kept by hand.
func spotRisks(fsys fs.FS, cat *catalog.Catalog, srcs []Source, offers []*catalog.Offer, errs *apperr.List) []*catalog.SpotRisk {
	var out []*catalog.SpotRisk
	for i, s := range srcs {
		field := fmt.Sprintf("spot_risk[%d]", i)
		date, err := time.Parse(time.DateOnly, s.AsOf)
		if err != nil || s.Format != "aws-spot-advisor" || s.Repository == "" || s.Commit == "" {
			*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: field,
				Msg: "want file, format aws-spot-advisor, repository, commit and as_of YYYY-MM-DD"})
			continue
		}
		name := path.Join("sources", s.File)
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: name, Msg: "cannot read", Err: err})
			continue
		}
		var doc spotAdvisor
		if err := json.Unmarshal(raw, &doc); err != nil || len(doc.SpotAdvisor) == 0 {
			*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: name, Msg: "not a Spot Instance Advisor feed (spot_advisor missing)", Err: err})
			continue
		}
		for _, r := range doc.Ranges {
			if r.Index < 0 || r.Index >= len(catalog.SpotBuckets) || catalog.SpotBuckets[r.Index] != r.Label {
				*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: name, Field: "ranges",
					Message: msg.New("range %d is %q, the catalog knows %q: the feed's buckets changed", r.Index, r.Label, catalog.SpotBuckets[min(max(r.Index, 0), len(catalog.SpotBuckets)-1)])})
			}
		}
		out = append(out, advisorRows(cat, doc, s, date, offers)...)
	}
	if raw, err := fs.ReadFile(fsys, MeasuredSpotFile); err == nil {
		out = append(out, catalog.ParseSpotRisks(MeasuredSpotFile, raw, errs)...)
	}
	return out
}

// advisorRows are the rows of one feed for the provider's offers. A type
// the feed does not list at all gets the median bucket of the types whose
// accelerator is of its generation (released at most two years before it):
// capacity of a new part is reclaimed like that of the last ones, not like
// a decade-old part's.
func advisorRows(cat *catalog.Catalog, doc spotAdvisor, s Source, date time.Time, offers []*catalog.Offer) []*catalog.SpotRisk {
	year := map[string]int{} // instance type -> its accelerator's release year
	for _, o := range offers {
		if a, ok := cat.Accelerator(o.GPU); ok && o.Provider == s.Provider {
			year[o.InstanceType] = a.ReleaseYear
		}
	}
	src := s.Repository + "@" + s.Commit + " " + s.Path
	fact := catalog.Fact{Source: src, AsOf: date}
	byType := map[string][]int{} // buckets of a type over its regions
	have := map[string]bool{}
	var out []*catalog.SpotRisk
	seen := map[string]bool{}
	for _, o := range offers {
		if o.Provider != s.Provider || seen[o.Key()] {
			continue
		}
		seen[o.Key()] = true
		e, ok := doc.SpotAdvisor[o.Region]["Linux"][o.InstanceType]
		if !ok || e.R < 0 || e.R >= len(catalog.SpotBuckets) {
			continue
		}
		out = append(out, &catalog.SpotRisk{Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Bucket: e.R, Fact: fact})
		have[o.Key()] = true
	}
	// Every region's bucket of every type in the feed, for the medians.
	for _, os := range doc.SpotAdvisor {
		for typ, e := range os["Linux"] {
			if e.R >= 0 && e.R < len(catalog.SpotBuckets) {
				byType[typ] = append(byType[typ], e.R)
			}
		}
	}
	types := map[string]bool{}
	for _, o := range offers {
		if o.Provider == s.Provider && !have[o.Key()] && o.LocalPrices[catalog.Spot] > 0 {
			types[o.InstanceType] = true
		}
	}
	names := make([]string, 0, len(types))
	for t := range types {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		if b := byType[t]; len(b) > 0 {
			out = append(out, &catalog.SpotRisk{Provider: s.Provider, InstanceType: t, Bucket: medianBucket(b), Fact: fact,
				Notes: fmt.Sprintf("[estimated] the feed has no row for this region: the median bucket of %s's %d regions in it", t, len(b))})
			continue
		}
		var b []int
		var like []string
		for typ, v := range byType {
			if y, ok := year[typ]; ok && y > 0 && y >= year[t]-2 && typ[:1] == t[:1] {
				b = append(b, v...)
				like = append(like, familyOf(typ))
			}
		}
		if len(b) == 0 || year[t] == 0 {
			continue
		}
		like = uniqueSorted(like)
		out = append(out, &catalog.SpotRisk{Provider: s.Provider, InstanceType: t, Bucket: medianBucket(b), Fact: fact,
			Notes: fmt.Sprintf("[estimated] the feed has no row for %s: the median bucket of the %s rows it has (types of accelerators from %d on)", t, joinFamilies(like), year[t]-2)})
	}
	return out
}

func medianBucket(b []int) int {
	s := append([]int(nil), b...)
	sort.Ints(s)
	return s[(len(s)-1)/2]
}

func familyOf(instanceType string) string {
	f, _, _ := strings.Cut(instanceType, ".")
	return f
}

func uniqueSorted(v []string) []string {
	sort.Strings(v)
	out := v[:0]
	for i, x := range v {
		if i == 0 || x != v[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func joinFamilies(f []string) string {
	return strings.Join(f, ", ")
}
