// Package rebuild makes the embedded catalog's offers from its sources:
// public SkyPilot-format price catalogs kept byte-exact in data/sources
// (listed with repository, commit and date in sources.yaml), hand-kept rows
// for providers without a public catalog (sources/manual), and instance
// specs the price files do not carry (sources/instance-specs.csv). It is
// deterministic: the same sources give the same bytes. It reads an fs.FS and
// returns file contents; writing them is the caller's job.
package rebuild

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/importer"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// Paths inside the data directory.
const (
	ManifestFile = "sources/sources.yaml"
	ManualDir    = "sources/manual" // <provider>.csv or <provider>.<part>.csv
	SpecsFile    = "sources/instance-specs.csv"
	SourcesDoc   = "SOURCES.md"
)

// MaxRejectRate is the share of a source file's GPU rows that may be
// refused before the build fails: a higher rate means the format or the
// mapping tables have fallen behind the file.
const MaxRejectRate = 0.10

// OutlierFactor bounds an offer's price per GPU-hour against the median of
// its accelerator: beyond this factor either way it is refused, unless a
// hand-kept row's notes say "[price outlier: why]".
const OutlierFactor = 3.0

// Source is one price file of the manifest.
type Source struct {
	File       string `yaml:"file"`
	Provider   string `yaml:"provider"`
	Format     string `yaml:"format"`
	Repository string `yaml:"repository"`
	Path       string `yaml:"path"`
	Commit     string `yaml:"commit"`
	AsOf       string `yaml:"as_of"`
	AsOfBasis  string `yaml:"as_of_basis"`
	// RegionsInferred, when set, says why the file's regions are not where
	// each type is sold (a fetcher that copies every type to every region):
	// its offers are marked region_inferred.
	RegionsInferred string `yaml:"regions_inferred"`
	// Extract says how the file here was made from the document at Path
	// (a flattening to CSV); empty when the file is that document.
	Extract string `yaml:"extract"`
	// SpotBasis is what a spot price given by one row alone stands for in
	// this file: point (one zone or listing at one moment, the default) or
	// regional (one list price per region). Rows of several zones of one
	// region are averaged whatever it says.
	SpotBasis string `yaml:"spot_basis"`
	// MaxRefused raises MaxRejectRate for a file whose rows the importer
	// refuses in part on purpose, RefusedWhy saying why (sizes it has no
	// table of GPUs for); 0 means MaxRejectRate.
	MaxRefused float64 `yaml:"max_refused"`
	RefusedWhy string  `yaml:"refused_why"`
	// ModesOnly makes the file add prices (its modes, where newer) to the
	// offers the provider's other files list, and no offer of its own: an
	// older document that completes a newer catalog (reserved terms) must
	// not bring back types or regions the newer one no longer sells.
	ModesOnly bool `yaml:"modes_only"`
}

// formats are the importer formats a manifest entry may name.
var formats = map[string]bool{"skypilot": true, "vantage-csv": true, "gcp-machines-csv": true, "azure-retail-csv": true}

type manifest struct {
	Sources []Source `yaml:"sources"`
	// SpotRisk are the files spot-risk.csv is made from (with the hand-kept
	// measured rates of MeasuredSpotFile).
	SpotRisk []Source `yaml:"spot_risk"`
}

// FileReport is what the build did with one source file.
type FileReport struct {
	Source
	Date       time.Time
	Rows       int // GPU rows
	Accepted   int
	OutOfScope int
	Offers     int // offers kept after the outlier check
	// Unlisted counts the offers of a modes-only file that no other file
	// lists: left out.
	Unlisted int
	Outliers []importer.Reject
	Rejected []importer.Reject
	Warnings []importer.Reject
}

// RejectRate is the share of in-scope GPU rows refused.
func (f *FileReport) RejectRate() float64 {
	r := importer.Result{Rows: f.Rows, AcceptedRows: f.Accepted, OutOfScope: f.OutOfScope}
	return 1 - r.AcceptRate()
}

// ManualReport describes one provider's hand-kept file.
type ManualReport struct {
	Provider, File string
	Rows, Kept     int
	Oldest, Newest time.Time
	Sources        int
}

// Result is a finished build: the files to write, relative to the data
// directory, and what was done.
type Result struct {
	Files   map[string][]byte
	Reports []FileReport
	Manual  []ManualReport
	Offers  []*catalog.Offer
	// SpotRisks counts the rows of spot-risk.csv written.
	SpotRisks int
}

// Build reads the sources under fsys (the data directory) and makes
// offers/<provider>.csv and SOURCES.md. It fails, naming file and line,
// when a source cannot be read, a file refuses more than MaxRejectRate of
// its GPU rows, a region has no row in regions.csv, or a hand-kept row is
// a price outlier without a note.
func Build(fsys fs.FS) (*Result, error) {
	// The accelerators, providers, regions and rates the sources are read
	// against; the offers the build replaces are not read (they may be the
	// broken files it is run to fix).
	for _, f := range []string{catalog.AcceleratorsFile, catalog.ProvidersFile, catalog.RegionsFile, catalog.FXFile} {
		if _, err := fs.Stat(fsys, f); err != nil {
			return nil, &apperr.Error{Code: apperr.Invalid, File: f, Msg: "cannot read: a catalog directory holds accelerators.csv, providers.yaml, regions.csv, fx.csv and sources/", Err: err}
		}
	}
	base, err := catalog.Parse(withoutOffers{fsys}, false)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Build(base)
	if err != nil {
		return nil, err
	}
	var m manifest
	raw, err := fs.ReadFile(fsys, ManifestFile)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Msg: "cannot read", Err: err}
	}
	if err := strictyaml.Decode(raw, &m); err != nil {
		return nil, apperr.InFile(apperr.Wrap(apperr.Invalid, "", err), ManifestFile)
	}
	if len(m.Sources) == 0 {
		return nil, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: "sources", Msg: "no source files listed: the build would write an empty catalog"}
	}
	specs, err := readSpecs(fsys)
	if err != nil {
		return nil, err
	}
	var errs apperr.List
	res := &Result{Files: map[string][]byte{}}
	byProvider := map[string][]*catalog.Offer{}
	imported := map[string]bool{} // offer keys from source files
	merged := map[string]*catalog.Offer{}
	// origin names where each offer came from, for errors; a key seen
	// twice (a file listed twice, two files of one provider that overlap)
	// is an error rather than a silent duplicate.
	origin := map[string]string{}
	seenFile := map[string]string{}
	// Prices of one offer may come from several files of its provider:
	// each mode takes the newest file's price (the first listed of files of
	// one date), and remembers which file it came from.
	modeDate := map[string]*[catalog.NumModes]time.Time{}
	for i, s := range m.Sources {
		field := fmt.Sprintf("sources[%d]", i)
		date, err := time.Parse(time.DateOnly, s.AsOf)
		if err != nil {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: field + ".as_of", Message: msg.New("want YYYY-MM-DD, got %q", s.AsOf)})
			continue
		}
		if !formats[s.Format] || s.Provider == "" || s.File == "" || s.Commit == "" || s.Repository == "" {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: field,
				Msg: "want file, provider, format (" + strings.Join(sortedKeys(formats), ", ") + "), repository and commit"})
			continue
		}
		if other, dup := seenFile[s.File]; dup {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: field + ".file",
				Message: msg.New("%s is listed twice (also %s)", s.File, other)})
			continue
		}
		seenFile[s.File] = field
		spotBasis, ok := catalog.ParseSpotBasis(s.SpotBasis)
		if !ok || spotBasis == catalog.SpotZonesMean || spotBasis == catalog.SpotAverage {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: field + ".spot_basis",
				Message: msg.New("want point or regional (what one row's spot price stands for), got %q", s.SpotBasis)})
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join("sources", s.File))
		if err != nil {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: path.Join("sources", s.File), Msg: "cannot read", Err: err})
			continue
		}
		name := path.Join("sources", s.File)
		r, err := importer.Parse(s.Format, bytes.NewReader(data), name,
			importer.Options{Catalog: cat, Provider: s.Provider, AsOf: date, SpotBasis: spotBasis})
		if err != nil {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Err: err})
			continue
		}
		fr := FileReport{Source: s, Date: date, Rows: r.Rows, Accepted: r.AcceptedRows, OutOfScope: r.OutOfScope,
			Rejected: r.Rejected, Warnings: r.Warnings}
		for _, w := range r.Warnings {
			if w.Field == "provider" {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Line: w.Line, Field: "provider",
					Msg: s.Provider + ": not in " + catalog.ProvidersFile + ": add the provider's facts (headquarters, certifications, egress) first"})
			}
			if w.Field == "region" {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Line: w.Line, Field: "Region",
					Msg: w.Item + ": region not in " + catalog.RegionsFile + ": add it with its country (the embedded catalog knows every region's country)"})
			}
		}
		limit := MaxRejectRate
		if s.MaxRefused > 0 {
			limit = s.MaxRefused
			if s.RefusedWhy == "" || s.MaxRefused >= 1 {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: ManifestFile, Field: field + ".max_refused",
					Msg: "a raised limit below 1 needs refused_why: why the importer refuses these rows on purpose"})
			}
		}
		if rate := fr.RejectRate(); rate > limit {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Message: msg.New(
				"%.1f%% of its %d GPU rows refused (at most %.0f%% may be): the importer's tables have fallen behind the file; first refusals: %s",
				100*rate, fr.Rows-fr.OutOfScope, 100*limit, firstReasons(r.Rejected, 3))})
		}
		// The row names the document; how an extract was made is in
		// SOURCES.md, once.
		src := s.Repository + "@" + s.Commit + " " + s.Path
		if s.Extract != "" {
			src += " (extract: see SOURCES.md)"
		}
		for _, o := range r.Offers {
			o.Source = src
			if s.RegionsInferred != "" {
				o.RegionInferred = true
				o.Notes = joinNotes(o.Notes, "region inferred: "+s.RegionsInferred)
			}
			if sp, ok := specs[o.Provider+"/"+o.InstanceType]; ok {
				sp.apply(o)
			}
			if prev, ok := merged[o.Key()]; ok {
				if why := layer(prev, o, modeDate[o.Key()]); why != "" {
					fr.Rejected = append(fr.Rejected, importer.Reject{Item: o.Key(), Field: "gpu", Reason: why})
				}
				continue
			}
			if s.ModesOnly {
				fr.Unlisted++
				continue
			}
			dates := new([catalog.NumModes]time.Time)
			for m := range catalog.NumModes {
				if o.LocalPrices[m] > 0 {
					dates[m] = o.AsOf
				}
			}
			modeDate[o.Key()] = dates
			merged[o.Key()] = o
			imported[o.Key()] = true
			origin[o.Key()] = name
			byProvider[o.Provider] = append(byProvider[o.Provider], o)
		}
		fr.Offers = len(r.Offers) - fr.Unlisted
		res.Reports = append(res.Reports, fr)
	}
	for _, offers := range byProvider {
		for _, o := range offers {
			settle(o)
		}
	}
	gpuHour := readGPUHour(fsys, cat, &errs)
	manual, err := fs.Glob(fsys, ManualDir+"/*.csv")
	if err != nil {
		return nil, err
	}
	sort.Strings(manual)
	for _, name := range manual {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Msg: "cannot read", Err: err})
			continue
		}
		rows := catalog.ParseOffers(name, data, &errs)
		// <provider>.csv, or <provider>.<part>.csv for a provider's rows of
		// another kind (its serverless workers beside its instances).
		provider, _, _ := strings.Cut(strings.TrimSuffix(path.Base(name), ".csv"), ".")
		mr := ManualReport{Provider: provider, File: name, Rows: len(rows)}
		sources := map[string]bool{}
		for i, o := range rows {
			where := fmt.Sprintf("%s:%d", name, i+2) // one record per line: hand-kept rows have no line breaks in cells
			if o.Provider != mr.Provider {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Line: i + 2, Field: "provider",
					Message: msg.New("%q in the file of provider %q: one provider per file", o.Provider, mr.Provider)})
				continue
			}
			if imported[o.Key()] {
				continue // a public catalog's price is newer than a hand-kept one
			}
			if prev, dup := origin[o.Key()]; dup {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: name, Line: i + 2, Field: "instance_type",
					Msg: o.Key() + " is listed twice (also " + prev + ")"})
				continue
			}
			origin[o.Key()] = where
			if o.LocalPrices[catalog.Spot] > 0 && o.SpotBasis == catalog.SpotBasisUnstated {
				// A hand-kept spot price that does not say how it was
				// made is one listing's moment, as an importer's one row.
				o.SpotBasis = catalog.SpotPoint
			}
			mr.Kept++
			sources[strings.SplitN(o.Source, ";", 2)[0]] = true
			if mr.Oldest.IsZero() || o.AsOf.Before(mr.Oldest) {
				mr.Oldest = o.AsOf
			}
			if o.AsOf.After(mr.Newest) {
				mr.Newest = o.AsOf
			}
			byProvider[o.Provider] = append(byProvider[o.Provider], o)
		}
		mr.Sources = len(sources)
		res.Manual = append(res.Manual, mr)
	}
	// Per-GPU-hour prices of the providers' pages, on the offers of both
	// the public files and the hand-kept rows, where newer.
	applyGPUHour(gpuHour, byProvider, modeDate, &errs)
	for _, offers := range byProvider {
		for _, o := range offers {
			// The offer's own source stays the file that lists it; a
			// page's price keeps its own in price_sources.
			for m := range catalog.NumModes {
				if o.PriceFacts[m] == o.Fact {
					o.PriceFacts[m] = catalog.Fact{}
				}
			}
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	// Outliers: each offer's price per GPU-hour against its accelerator's
	// market median. A public catalog's row beyond the band that is in line
	// with the same instance type in the provider's other regions is that
	// provider's pricing (a hyperscaler's list price, a large host around
	// one GPU): kept, with the note that says so. One far from its own
	// instance type's median too is a data error (a placeholder price in
	// one zone), and refused.
	med := medians(cat, byProvider)
	fileOf := map[string]int{} // one source file per provider, checked above
	for i, f := range res.Reports {
		fileOf[f.Provider] = i
	}
	var providers []string
	for p := range byProvider {
		providers = append(providers, p)
	}
	sort.Strings(providers)
	for _, p := range providers {
		own := newInstanceMedians(cat, byProvider[p])
		var kept []*catalog.Offer
		for _, o := range byProvider[p] {
			why := outlier(cat, o, med)
			switch {
			case why == "" || strings.Contains(o.Notes, "[price outlier:"):
				kept = append(kept, o)
			case imported[o.Key()] && own.plausible(cat, o):
				o.Notes = joinNotes(o.Notes, "[price outlier: "+why+"; in line with "+o.InstanceType+" in "+p+"'s other regions]")
				kept = append(kept, o)
			case imported[o.Key()]:
				fr := &res.Reports[fileOf[p]]
				fr.Outliers = append(fr.Outliers, importer.Reject{Item: o.Key(), Field: "price", Reason: why + ", and beyond 3x of " + o.InstanceType + "'s median over " + p + "'s regions"})
				fr.Offers--
			default:
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, Field: "price_on_demand",
					Msg: origin[o.Key()] + ": " + o.Key() + ": " + why + `: check the source, or say why in notes with "[price outlier: ...]"`})
			}
		}
		var buf bytes.Buffer
		if err := catalog.WriteOffers(&buf, kept); err != nil {
			return nil, err
		}
		res.Files[catalog.OffersDir+"/"+p+".csv"] = buf.Bytes()
		res.Offers = append(res.Offers, kept...)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	risks := spotRisks(fsys, cat, m.SpotRisk, res.Offers, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(risks) > 0 {
		res.Files[catalog.SpotRiskFile] = catalog.WriteSpotRisks(risks)
	}
	res.SpotRisks = len(risks)
	// What is written must load: every accelerator, region, currency and
	// fraction of every row checked as the binary will check it.
	if _, err := catalog.Build(base, &catalog.Files{Offers: res.Offers, SpotRisks: risks}); err != nil {
		return nil, err
	}
	res.Files[SourcesDoc] = sourcesDoc(res)
	return res, nil
}

// layer takes into prev, the offer as an earlier file gave it, the prices
// of next (the same offer in a later file of the manifest) that are newer
// than prev's in their mode, each with next's source and date; specs prev
// lacks are filled. dates holds the date of each of prev's prices. It says
// why next is refused when the two disagree on what the offer is.
func layer(prev, next *catalog.Offer, dates *[catalog.NumModes]time.Time) string {
	if prev.GPU != next.GPU || prev.GPUCount != next.GPUCount || prev.GPUFraction != next.GPUFraction {
		return fmt.Sprintf("%s x%d (fraction %g) here, %s x%d (fraction %g) in %s", next.GPU, next.GPUCount, next.GPUFraction,
			prev.GPU, prev.GPUCount, prev.GPUFraction, catalog.SourcePrefix(prev.Source))
	}
	took := false
	for m := range catalog.NumModes {
		if m == catalog.Spot && prev.LocalPrices[m] > 0 && next.LocalPrices[m] > 0 && prev.Currency == next.Currency {
			if averageSpot(prev, next, dates) {
				took = true
				continue
			}
		}
		if next.LocalPrices[m] == 0 || (prev.LocalPrices[m] > 0 && !next.AsOf.After(dates[m])) {
			continue
		}
		if prev.Currency != next.Currency {
			continue // one currency per offer: the other file's price stays out
		}
		prev.LocalPrices[m], prev.ListPrices[m], prev.YourPrices[m] = next.LocalPrices[m], next.ListPrices[m], next.YourPrices[m]
		prev.PriceFacts[m] = next.Fact
		dates[m] = next.AsOf
		took = true
		switch m {
		case catalog.Spot:
			prev.SpotBasis, prev.SpotMin, prev.SpotMax, prev.SpotZones = next.SpotBasis, next.SpotMin, next.SpotMax, next.SpotZones
		case catalog.Reserved1y:
			prev.AllUpfront1y = next.AllUpfront1y
		case catalog.Reserved3y:
			prev.AllUpfront3y = next.AllUpfront3y
		}
	}
	if prev.VCPUs == 0 {
		prev.VCPUs = next.VCPUs
	}
	if prev.RAMGiB == 0 {
		prev.RAMGiB = next.RAMGiB
	}
	if !took {
		return ""
	}
	// When no price of the earlier file is left, neither are its notes
	// nor its word on where the type is sold.
	left := false
	for m := range catalog.NumModes {
		left = left || prev.LocalPrices[m] > 0 && prev.PriceFacts[m].Source == ""
	}
	if !left {
		prev.Notes, prev.RegionInferred = next.Notes, next.RegionInferred
	} else if next.Notes != "" {
		prev.Notes = joinNotes(prev.Notes, next.Notes)
	}
	return ""
}

// SpotHistory is how far apart two files' spot prices of one offer may be
// for a point price to be averaged with the other: within a year, both
// are recent history.
const SpotHistory = 365 * 24 * time.Hour

// averageSpot handles an offer whose spot price two files give when the
// newer of them is a point price (one zone or listing at one moment): a
// buyer pays neither moment, so the offer's spot price is the mean of the
// two, with the range of everything either saw, basis average. It reports
// whether it set the price; otherwise the newer price wins as for any mode.
func averageSpot(prev, next *catalog.Offer, dates *[catalog.NumModes]time.Time) bool {
	newer, older, olderDate := next, prev, dates[catalog.Spot]
	if !next.AsOf.After(dates[catalog.Spot]) {
		newer, older, olderDate = prev, next, next.AsOf
	}
	newerDate := newer.AsOf
	if newer == prev {
		newerDate = dates[catalog.Spot]
	}
	if (newer.SpotBasis != catalog.SpotPoint && newer.SpotBasis != catalog.SpotBasisUnstated) || newerDate.Sub(olderDate) > SpotHistory {
		return false
	}
	a, b := newer.LocalPrices[catalog.Spot], older.LocalPrices[catalog.Spot]
	lo, hi := math.Min(a, b), math.Max(a, b)
	if older.SpotMin > 0 {
		lo = math.Min(lo, older.SpotMin)
	}
	if older.SpotMax > 0 {
		hi = math.Max(hi, older.SpotMax)
	}
	mean := (a + b) / 2
	rate := 1.0
	if prev.LocalPrices[catalog.Spot] > 0 {
		rate = prev.ListPrices[catalog.Spot] / prev.LocalPrices[catalog.Spot]
	}
	olderSrc := catalog.SourcePrefix(older.PriceFact(catalog.Spot).Source)
	prev.Notes = joinNotes(prev.Notes, fmt.Sprintf("spot: the mean of a point price %g (%s) and %g (%s, %s)",
		a, newerDate.Format(time.DateOnly), b, olderDate.Format(time.DateOnly), olderSrc))
	prev.LocalPrices[catalog.Spot], prev.ListPrices[catalog.Spot], prev.YourPrices[catalog.Spot] = mean, mean*rate, mean*rate
	prev.SpotBasis, prev.SpotMin, prev.SpotMax, prev.SpotZones = catalog.SpotAverage, lo, hi, 0
	if newer == next {
		prev.PriceFacts[catalog.Spot] = next.Fact
	}
	dates[catalog.Spot] = newerDate
	return true
}

// settle makes an offer built from several files read as one: its own
// source and date are those of its on-demand price (else of its first
// priced mode), the other modes keep theirs where they differ, and a spot
// price no longer below a newer on-demand one is dropped.
func settle(o *catalog.Offer) {
	first := catalog.Mode(-1)
	if o.LocalPrices[catalog.OnDemand] > 0 {
		first = catalog.OnDemand
	} else {
		for m := range catalog.NumModes {
			if o.LocalPrices[m] > 0 {
				first = m
				break
			}
		}
	}
	if first >= 0 && o.PriceFacts[first].Source != "" {
		own := o.Fact
		o.Fact = o.PriceFacts[first]
		for m := range catalog.NumModes {
			if o.PriceFacts[m].Source == "" && o.LocalPrices[m] > 0 {
				o.PriceFacts[m] = own
			}
		}
	}
	for m := range catalog.NumModes {
		if o.PriceFacts[m] == o.Fact {
			o.PriceFacts[m] = catalog.Fact{}
		}
	}
	if od, sp := o.LocalPrices[catalog.OnDemand], o.LocalPrices[catalog.Spot]; od > 0 && sp >= od {
		o.LocalPrices[catalog.Spot], o.ListPrices[catalog.Spot], o.YourPrices[catalog.Spot] = 0, 0, 0
		o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones = catalog.SpotBasisUnstated, 0, 0, 0
		o.PriceFacts[catalog.Spot] = catalog.Fact{}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// withoutOffers hides the offers directory of a catalog directory.
type withoutOffers struct{ fs.FS }

func (w withoutOffers) Open(name string) (fs.File, error) {
	if name == catalog.OffersDir || strings.HasPrefix(name, catalog.OffersDir+"/") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.FS.Open(name)
}

// usdPerGPUHour is an offer's on-demand price per whole GPU-hour in USD,
// or its monthly price's hourly equivalent where on-demand is not sold, or
// (spotToo) its spot price where it is sold only on spot.
func usdPerGPUHour(cat *catalog.Catalog, o *catalog.Offer, spotToo bool) (float64, bool) {
	rate, ok := cat.Rate(o.Currency)
	if !ok {
		return 0, false
	}
	p, ok := o.LocalPrices.Get(catalog.OnDemand)
	if !ok {
		p, ok = o.LocalPrices.Get(catalog.Monthly)
	}
	if !ok && spotToo {
		// A spot-only offer is judged by its spot price, against the
		// market's on-demand median (medians are of on-demand prices).
		p, ok = o.LocalPrices.Get(catalog.Spot)
	}
	if !ok {
		return 0, false
	}
	return p * rate.USDPerUnit / o.GPUs(), true
}

// medians are each accelerator's market price per GPU-hour: the median
// over providers of each provider's median, so that a cloud listing many
// regions counts once, as a marketplace listing one does.
func medians(cat *catalog.Catalog, byProvider map[string][]*catalog.Offer) map[string]float64 {
	perProvider := map[string][]float64{}
	for _, offers := range byProvider {
		prices := map[string][]float64{}
		for _, o := range offers {
			if a, ok := cat.Accelerator(o.GPU); ok {
				if v, ok := usdPerGPUHour(cat, o, false); ok {
					prices[a.ID] = append(prices[a.ID], v)
				}
			}
		}
		for id, v := range prices {
			perProvider[id] = append(perProvider[id], median(v))
		}
	}
	out := map[string]float64{}
	for id, v := range perProvider {
		out[id] = median(v)
	}
	return out
}

// instanceMedians is the median price per GPU-hour of each instance type
// of one provider over its regions.
type instanceMedians map[string]float64

func newInstanceMedians(cat *catalog.Catalog, offers []*catalog.Offer) instanceMedians {
	prices := map[string][]float64{}
	for _, o := range offers {
		if v, ok := usdPerGPUHour(cat, o, false); ok {
			prices[o.InstanceType] = append(prices[o.InstanceType], v)
		}
	}
	out := instanceMedians{}
	for k, v := range prices {
		out[k] = median(v)
	}
	return out
}

// plausible reports whether the offer's price is within the band of its
// instance type's median.
func (m instanceMedians) plausible(cat *catalog.Catalog, o *catalog.Offer) bool {
	return outlierAgainst(cat, o, m[o.InstanceType], "%.2f") == ""
}

func median(v []float64) float64 {
	sort.Float64s(v)
	n := len(v)
	return (v[(n-1)/2] + v[n/2]) / 2
}

// outlier says why an offer's price is implausible, or "".
func outlier(cat *catalog.Catalog, o *catalog.Offer, med map[string]float64) string {
	a, ok := cat.Accelerator(o.GPU)
	if !ok {
		return ""
	}
	return outlierAgainst(cat, o, med[a.ID], "the median %.2f of "+a.ID)
}

// outlierAgainst says why an offer's price per GPU-hour (on-demand, or
// its hourly equivalent, and spot) is beyond the band around m, or "";
// what names m.
func outlierAgainst(cat *catalog.Catalog, o *catalog.Offer, m float64, what string) string {
	v, ok := usdPerGPUHour(cat, o, true)
	if !ok || m == 0 {
		return ""
	}
	_, listed := usdPerGPUHour(cat, o, false)
	against := fmt.Sprintf(what, m)
	// A spot price far below the on-demand median is what spot is; only
	// a list price can be implausibly low.
	if v > OutlierFactor*m || (listed && v < m/OutlierFactor) {
		return fmt.Sprintf("%.2f USD per GPU-hour is %.1fx %s (allowed: 1/%g to %gx)", v, v/m, against, OutlierFactor, OutlierFactor)
	}
	if sp, ok := o.LocalPrices.Get(catalog.Spot); ok {
		rate, _ := cat.Rate(o.Currency)
		if s := sp * rate.USDPerUnit / o.GPUs(); s > OutlierFactor*m {
			return fmt.Sprintf("spot %.2f USD per GPU-hour is %.1fx %s", s, s/m, against)
		}
	}
	return ""
}

func firstReasons(rs []importer.Reject, n int) string {
	var parts []string
	for i, r := range rs {
		if i == n {
			break
		}
		parts = append(parts, r.String())
	}
	return strings.Join(parts, "; ")
}

// roundRate writes a share as a percentage with one decimal.
func roundRate(v float64) string { return fmt.Sprintf("%.1f%%", 100*math.Max(0, v)) }
