// Package importer turns public price lists into catalog offers: the Azure
// Retail Prices API, AWS Price List offer files, the GCP Cloud Billing
// Catalog, SkyPilot's vms.csv and gpuhunt's catalog CSV. Each source has a
// parser (Parse, for a saved file) and, for the three clouds, a fetcher
// (Fetch, over HTTP with timeouts, retries with backoff, paging and a polite
// rate).
//
// Every accepted row is in catalog terms: our provider and accelerator ids,
// USD prices per instance-hour per mode, and a Fact naming the source URL or
// file and the date of its prices. Rows that break the catalog's rules (a
// price of zero, a GPU name no mapping table knows) are refused and reported
// in Result.Rejected, never dropped silently; a region the catalog does not
// know is kept with its country unknown, and said in Result.Warnings. A failure part-way through a live import fails the whole import:
// partial results are never returned as success.
//
// This is an edge package: it does HTTP. The catalog package it feeds does
// no I/O.
package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// Row is one imported offer with its prices, already in catalog terms.
type Row = catalog.Offer

// Sources are the formats Parse reads; the first three can also be fetched.
// The -csv formats are public price documents flattened to one row per
// instance type and region (extracts.go).
var Sources = []string{"azure", "aws", "gcp", "skypilot", "gpuhunt", "vantage-csv", "gcp-machines-csv", "azure-retail-csv"}

// Result is the outcome of one import.
type Result struct {
	// Source is the format: azure, aws, gcp, skypilot or gpuhunt.
	Source string
	// Provider is the provider id of the rows; for skypilot and gpuhunt
	// files it is empty when the rows belong to several providers.
	Provider string
	// URL is where the rows came from: a URL or a file name.
	URL string
	// FetchedAt is the date the prices speak for: the source's date
	// (Options.AsOf) for a saved file, the time of the fetch for a live
	// import. Every row's AsOf is this time.
	FetchedAt time.Time
	// Offers are the accepted rows, one per (provider, instance type,
	// region), sorted by Key. Prices of several source rows for the same
	// offer and mode (zones, duplicates) keep the lowest.
	Offers []*catalog.Offer
	// Rejected are the rows or prices refused, each with its reason.
	Rejected []Reject
	// Unmapped counts source rows per provider GPU name that no mapping
	// table knows (each is also in Rejected).
	Unmapped map[string]int
	// Skipped counts source rows that are not GPU offers at all (CPU VMs,
	// Windows or licence meters, storage): they are out of scope, not errors.
	Skipped int
	// Rows counts the GPU rows of a CSV source (rows naming an accelerator,
	// FPGAs included) and AcceptedRows those that gave at least one price
	// to an accepted offer. OutOfScope counts the rows refused because their
	// accelerator is not a GPU or AI accelerator (FPGAs).
	Rows, AcceptedRows, OutOfScope int
	// Warnings are accepted rows with a caveat: a region the catalog does
	// not know yet (accepted with its country unknown), a spot price not
	// below on-demand (dropped).
	Warnings []Reject
}

// AcceptRate is the share of the GPU rows in scope that were accepted (1
// when there are none).
func (r *Result) AcceptRate() float64 {
	n := r.Rows - r.OutOfScope
	if n <= 0 {
		return 1
	}
	return float64(r.AcceptedRows) / float64(n)
}

// Reject is one refused row or price.
type Reject struct {
	Line   int    // 1-based line of a CSV file; 0 for JSON sources
	Item   string // the source's id of the row (SKU, meter, instance@region)
	Field  string // the source field at fault
	Reason string
}

func (r Reject) String() string {
	var b strings.Builder
	if r.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", r.Line)
	}
	if r.Item != "" {
		b.WriteString(r.Item)
		b.WriteString(": ")
	}
	if r.Field != "" {
		b.WriteString(r.Field)
		b.WriteString(": ")
	}
	b.WriteString(r.Reason)
	return b.String()
}

// Options tune an import. Catalog is required; the rest have defaults.
type Options struct {
	// Regions limits the import to these regions (as the provider names
	// them); empty means every region the catalog knows for the provider
	// (Fetch) or every region in the file (Parse).
	Regions []string
	// Client makes the requests; nil means a client with default transport.
	Client *http.Client
	// BaseURL replaces the source's endpoint (tests, mirrors): the Azure
	// prices URL, the AWS ".../AmazonEC2/current" prefix, the GCP skus URL.
	BaseURL string
	// APIKey is the GCP API key the Cloud Billing Catalog requires.
	APIKey string
	// Provider names the provider of a skypilot or gpuhunt file when its
	// name does not tell (vms.csv outside a <cloud>/ directory).
	Provider string
	// Now is the clock stamped on rows; nil means time.Now.
	Now func() time.Time
	// AsOf is the date of a saved file's prices (the source's date: a
	// catalog commit, a publication date). Parse requires it for formats
	// that carry no date of their own (skypilot, gpuhunt) and prefers it to
	// the date a document states. Fetch ignores it: a live price is as of
	// the fetch.
	AsOf time.Time
	// RatePerSecond caps requests per second (a token bucket, burst 1);
	// 0 means 4.
	RatePerSecond float64
	// MaxRetries is how many times a failed request (network error, 429,
	// 5xx, a body cut short) is retried; 0 means 4, negative means none.
	MaxRetries int
	// RetryBase is the first backoff delay, doubled per retry up to 30 s
	// (a Retry-After header wins when longer); 0 means 1 s.
	RetryBase time.Duration
	// Timeout bounds one request including its body; 0 means 2 minutes
	// (AWS offer files are hundreds of MB).
	Timeout time.Duration
	// Catalog resolves accelerator ids and aliases and knows the regions.
	Catalog *catalog.Catalog
	// SpotBasis is what a spot price that one row alone gives stands for
	// in this source: a point price of one zone or listing (the default),
	// or a regional list price. Prices of several zones of one region are
	// averaged whatever it says.
	SpotBasis catalog.SpotBasis
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

// Parse reads a saved price list in the given format: azure (one Retail
// Prices API response, or several pages as JSON lines or concatenated),
// aws (an offer file index.json), gcp (a skus response, or several pages),
// skypilot (vms.csv) or gpuhunt (a provider's CSV). name is the file name or
// URL stamped on the rows. A file that cannot be read as its format at all
// is an Invalid error naming the file and what is wrong; bad rows are in
// Result.Rejected.
func Parse(format string, r io.Reader, name string, opt Options) (*Result, error) {
	if opt.Catalog == nil {
		return nil, &apperr.Error{Code: apperr.Internal, Msg: "importer: Options.Catalog is required"}
	}
	b := newBuilder(format, "", name, &opt)
	if !opt.AsOf.IsZero() {
		b.fact.AsOf = opt.AsOf.UTC()
		b.res.FetchedAt = b.fact.AsOf
	} else if format != "azure" && format != "aws" && format != "gcp" {
		return nil, &apperr.Error{Code: apperr.Invalid, File: name, Field: "as-of",
			Msg: format + " files carry no date: say the date of the prices (the catalog commit's date) with --as-of YYYY-MM-DD"}
	} else {
		b.res.Warnings = append(b.res.Warnings, Reject{Field: "as-of",
			Reason: "no --as-of given: the prices are dated today, the day of the import; give the date the file was downloaded if it is older"})
	}
	var err error
	switch format {
	case "azure":
		b.res.Provider = "azure"
		err = parseAzureStream(b, r)
	case "aws":
		b.res.Provider = "aws"
		var doc *awsDoc
		if doc, err = decodeAWS(r); err == nil {
			doc.apply(b)
		}
	case "gcp":
		b.res.Provider = "gcp"
		g := newGCPCollector()
		if err = decodeGCPStream(r, g); err == nil {
			g.apply(b)
		}
	case "skypilot":
		err = parseSkyPilot(b, r, name, opt.Provider)
	case "gpuhunt":
		err = parseGpuhunt(b, r, name, opt.Provider)
	case "vantage-csv":
		err = parseVantage(b, r)
	case "gcp-machines-csv":
		err = parseGCPMachines(b, r)
	case "azure-retail-csv":
		err = parseAzureRetailCSV(b, r)
	default:
		return nil, apperr.Invalidf("format", "unknown price-list format %q (known: %s)", format, strings.Join(Sources, ", "))
	}
	if err == nil {
		err = b.finish()
	}
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, File: name, Msg: format, Err: err}
	}
	return b.res, nil
}

// Fetch imports a live price list: azure (Retail Prices API, one filtered
// query per region), aws (the per-region EC2 offer files) or gcp (Cloud
// Billing Catalog, Compute Engine SKUs; needs Options.APIKey). Any failure
// (network, HTTP status after retries, a page that does not parse) fails the
// whole import with an Unavailable error that says what failed and where.
func Fetch(ctx context.Context, source string, opt Options) (*Result, error) {
	if opt.Catalog == nil {
		return nil, &apperr.Error{Code: apperr.Internal, Msg: "importer: Options.Catalog is required"}
	}
	f := newFetcher(source, &opt)
	var (
		res *Result
		err error
	)
	switch source {
	case "azure":
		res, err = fetchAzure(ctx, f, &opt)
	case "aws":
		res, err = fetchAWS(ctx, f, &opt)
	case "gcp":
		if opt.APIKey == "" {
			return nil, apperr.Invalidf("api-key", "gcp: the Cloud Billing Catalog API needs an API key (create one in the Google Cloud console)")
		}
		res, err = fetchGCP(ctx, f, &opt)
	case "skypilot", "gpuhunt", "vantage-csv", "gcp-machines-csv", "azure-retail-csv":
		return nil, apperr.Invalidf("source", "%s catalogs are imported from a file you keep: parse it instead of fetching", source)
	default:
		return nil, apperr.Invalidf("source", "unknown price source %q (fetchable: azure, aws, gcp)", source)
	}
	if err != nil {
		// The source failed or changed: an outside failure, whatever the
		// cause's own code, and the import as a whole fails.
		return nil, &apperr.Error{Code: apperr.Unavailable, Err: err}
	}
	return res, nil
}

// builder collects price rows of one import into offers, applying the
// catalog's rules as it goes.
type builder struct {
	res    *Result
	cat    *catalog.Catalog
	fact   catalog.Fact
	want   map[string]bool
	offers map[string]*catalog.Offer
	// considered counts GPU rows looked at; missing counts, per field, the
	// rows refused because the field was absent. When every row lacks the
	// same field the format has changed, and the import fails.
	considered int
	missing    map[string]int
	// accepted holds the source lines that gave an accepted price.
	accepted map[int]bool
	// newRegions are regions accepted with an unknown country.
	newRegions map[string]bool
	// spots gathers each offer's spot prices over the rows that give one
	// (one per zone of a region): the offer's spot price is their mean,
	// with the cheapest and dearest zone as its range, never the cheapest
	// alone.
	spots map[string]*spotZones
	// oneSpot is the basis of a spot price that one row alone gives.
	oneSpot catalog.SpotBasis
}

// spotZones is the spot prices an offer's rows gave, or a range the source
// stated itself (basis set).
type spotZones struct {
	sum, lo, hi float64
	n           int
	basis       catalog.SpotBasis
}

func newBuilder(source, provider, url string, opt *Options) *builder {
	now := opt.now()
	b := &builder{
		res:        &Result{Source: source, Provider: provider, URL: url, FetchedAt: now, Unmapped: map[string]int{}},
		cat:        opt.Catalog,
		fact:       catalog.Fact{Source: url, AsOf: now},
		offers:     map[string]*catalog.Offer{},
		missing:    map[string]int{},
		accepted:   map[int]bool{},
		newRegions: map[string]bool{},
		spots:      map[string]*spotZones{},
		oneSpot:    opt.SpotBasis,
	}
	if b.oneSpot == catalog.SpotBasisUnstated {
		b.oneSpot = catalog.SpotPoint
		if source == "azure" || source == "gcp" {
			// The Retail Prices API and the Billing Catalog give one spot
			// rate per region and size, not a zone's moment.
			b.oneSpot = catalog.SpotRegional
		}
	}
	if len(opt.Regions) > 0 {
		b.want = map[string]bool{}
		for _, r := range opt.Regions {
			b.want[r] = true
		}
	}
	return b
}

func (b *builder) wantRegion(r string) bool { return b.want == nil || b.want[r] }

func (b *builder) reject(line int, item, field, format string, args ...any) {
	b.res.Rejected = append(b.res.Rejected, Reject{Line: line, Item: item, Field: field, Reason: fmt.Sprintf(format, args...)})
}

// lacks refuses a row whose required field is absent.
func (b *builder) lacks(line int, item, field string) {
	b.missing[field]++
	b.reject(line, item, field, "required field is missing or empty")
}

// unmapped refuses a row whose GPU name no table knows, and counts it.
func (b *builder) unmapped(line int, item, field, name string) {
	b.res.Unmapped[name]++
	b.reject(line, item, field, "unmapped GPU %q: no mapping to a gpupick accelerator id (add it to the importer's table or the catalog's aliases)", name)
}

// priceRow is one price of one offer in one mode, as a parser read it.
type priceRow struct {
	line     int
	item     string
	provider string
	instance string
	region   string
	gpu      string // our id
	count    int
	vcpus    int
	ramGiB   float64
	fraction float64 // share of one GPU; 0 for whole GPUs
	notes    string  // how the price was made, when not read as is
	mode     catalog.Mode
	price    float64 // per instance-hour, in currency
	currency string
	// spotBasis, spotMin and spotMax are a spot row's own statement of
	// what its price is (an average with its range); unstated for a row
	// that is one zone's price, which add averages over the region.
	spotBasis        catalog.SpotBasis
	spotMin, spotMax float64
	// allUpfront is, for a reserved row, the effective hourly rate of the
	// same term paid wholly upfront (0 = not sold or not given).
	allUpfront float64
}

// add checks one price against the catalog's rules and merges it into its
// offer. It reports whether the price was accepted.
func (b *builder) add(p priceRow) bool {
	if !b.wantRegion(p.region) {
		return false
	}
	if p.item == "" {
		p.item = p.provider + "/" + p.instance + "@" + p.region
	}
	if math.IsNaN(p.price) || math.IsInf(p.price, 0) || p.price <= 0 || p.price > catalog.MaxLocalPricePerHour {
		b.reject(p.line, p.item, "price", "%s price must be > 0 and at most %g per instance-hour, got %g", p.mode, catalog.MaxLocalPricePerHour, p.price)
		return false
	}
	if p.count < 1 || p.count > catalog.MaxOfferGPUs {
		b.reject(p.line, p.item, "gpu_count", "must be between 1 and %d, got %d", catalog.MaxOfferGPUs, p.count)
		return false
	}
	cur := strings.ToUpper(p.currency)
	if cur == "" {
		cur = "USD"
	}
	rate, ok := b.cat.Rate(cur)
	if !ok {
		b.reject(p.line, p.item, "currency", "no exchange rate for %q in the catalog", cur)
		return false
	}
	if _, ok := b.cat.Provider(p.provider); !ok && !b.newRegions[p.provider] {
		// A provider the catalog has no facts on: its prices are kept,
		// and what is not known of it (jurisdiction, certifications,
		// egress) is said where it matters.
		b.newRegions[p.provider] = true
		b.res.Warnings = append(b.res.Warnings, Reject{Line: p.line, Item: p.item, Field: "provider",
			Reason: fmt.Sprintf("provider %q is not in the catalog's providers.yaml: its offers are accepted, with its jurisdiction, certifications and egress unknown (add it to providers.yaml)", p.provider)})
	}
	country := ""
	if reg, ok := b.cat.Region(p.provider, p.region); ok {
		country = reg.Country
	} else if k := p.provider + "/" + p.region; !b.newRegions[k] {
		// A new region is not a reason to lose its prices: the offer is
		// kept with its country unknown, which residency rules exclude.
		b.newRegions[k] = true
		b.res.Warnings = append(b.res.Warnings, Reject{Line: p.line, Item: p.item, Field: "region",
			Reason: fmt.Sprintf("region %q of %s is not in the catalog's regions.csv: accepted with its country unknown (residency constraints exclude it; add the region to regions.csv)", p.region, p.provider)})
	}
	key := p.provider + "/" + p.instance + "@" + p.region
	o := b.offers[key]
	if o == nil {
		o = &catalog.Offer{
			Provider: p.provider, InstanceType: p.instance, Region: p.region, Country: country,
			GPU: p.gpu, GPUCount: p.count, GPUFraction: p.fraction, VCPUs: p.vcpus, RAMGiB: p.ramGiB, Currency: cur, Fact: b.fact,
			Notes: p.notes,
		}
		b.offers[key] = o
	} else {
		if o.GPU != p.gpu || o.GPUCount != p.count || o.GPUFraction != p.fraction {
			b.reject(p.line, p.item, "gpu", "%s x%d (fraction %g) conflicts with %s x%d (fraction %g) of an earlier row for %s", p.gpu, p.count, p.fraction, o.GPU, o.GPUCount, o.GPUFraction, key)
			return false
		}
		if o.Currency != cur {
			b.reject(p.line, p.item, "currency", "%s conflicts with %s of an earlier row for %s", cur, o.Currency, key)
			return false
		}
		if o.VCPUs == 0 {
			o.VCPUs = p.vcpus
		}
		if o.RAMGiB == 0 {
			o.RAMGiB = p.ramGiB
		}
	}
	switch {
	case p.mode == catalog.Spot:
		z := b.spots[key]
		if z == nil {
			z = &spotZones{lo: p.price, hi: p.price}
			b.spots[key] = z
		}
		if p.spotBasis != catalog.SpotBasisUnstated {
			// The source states its own average and range.
			*z = spotZones{sum: p.price, n: 1, lo: p.spotMin, hi: p.spotMax, basis: p.spotBasis}
			break
		}
		z.sum += p.price
		z.n++
		z.lo, z.hi = math.Min(z.lo, p.price), math.Max(z.hi, p.price)
	default:
		// Zones of one region list one on-demand (or reserved) price;
		// where two rows differ the lower is the published list price
		// of the cheaper zone, which a buyer can choose.
		if old := o.LocalPrices[p.mode]; old == 0 || p.price < old {
			o.LocalPrices[p.mode] = p.price
			o.ListPrices[p.mode] = p.price * rate.USDPerUnit
			switch p.mode {
			case catalog.Reserved1y:
				o.AllUpfront1y = p.allUpfront
			case catalog.Reserved3y:
				o.AllUpfront3y = p.allUpfront
			}
		}
	}
	if p.line > 0 {
		b.accepted[p.line] = true
	}
	return true
}

// finish applies the rules that need a whole offer (spot below on-demand),
// sorts the offers and fails the import when a required field was missing
// from every row looked at.
func (b *builder) finish() error {
	if b.considered > 0 && len(b.offers) == 0 {
		fields := make([]string, 0, len(b.missing))
		for f, n := range b.missing {
			if n == b.considered {
				fields = append(fields, f)
			}
		}
		sort.Strings(fields)
		if len(fields) > 0 {
			return apperr.Invalidf(fields[0], "missing from all %d GPU rows: has the format changed?", b.considered)
		}
	}
	keys := make([]string, 0, len(b.offers))
	for k := range b.offers {
		keys = append(keys, k) // the map key is o.Key(): sort it once, not per comparison
	}
	sort.Strings(keys)
	out := make([]*catalog.Offer, 0, len(b.offers))
	providers := map[string]bool{}
	for _, k := range keys {
		o := b.offers[k]
		if z := b.spots[k]; z != nil {
			b.setSpot(o, z)
		}
		if od, ok := o.LocalPrices.Get(catalog.OnDemand); ok {
			if sp, ok := o.LocalPrices.Get(catalog.Spot); ok && sp >= od {
				b.res.Warnings = append(b.res.Warnings, Reject{Item: o.Key(), Field: "spot",
					Reason: fmt.Sprintf("spot %g is not below on-demand %g: spot price dropped", sp, od)})
				o.LocalPrices[catalog.Spot], o.ListPrices[catalog.Spot] = 0, 0
				o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones = catalog.SpotBasisUnstated, 0, 0, 0
			}
		}
		o.YourPrices = o.ListPrices
		out = append(out, o)
		providers[o.Provider] = true
	}
	b.res.Offers = out
	if b.res.Provider == "" && len(providers) == 1 {
		b.res.Provider = out[0].Provider
	}
	return nil
}

// setSpot gives o the spot price of its rows: the mean over the zones that
// priced it, with the cheapest and dearest zone as its range (regional when
// every zone agrees), a range the source stated, or one row's price with
// the basis of the format (a point price, or a regional list price).
func (b *builder) setSpot(o *catalog.Offer, z *spotZones) {
	mean := z.sum / float64(z.n)
	rate, _ := b.cat.Rate(o.Currency)
	o.LocalPrices[catalog.Spot] = mean
	o.ListPrices[catalog.Spot] = mean * rate.USDPerUnit
	o.SpotZones = 0
	switch {
	case z.basis != catalog.SpotBasisUnstated:
		o.SpotBasis, o.SpotMin, o.SpotMax = z.basis, z.lo, z.hi
		if z.lo <= 0 || z.hi <= 0 {
			o.SpotMin, o.SpotMax = 0, 0
		}
	case z.n == 1:
		o.SpotBasis, o.SpotMin, o.SpotMax = b.oneSpot, 0, 0
	case z.lo == z.hi:
		o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones = catalog.SpotRegional, 0, 0, z.n
	default:
		o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones = catalog.SpotZonesMean, z.lo, z.hi, z.n
	}
}

// eachPage decodes the JSON pages of a saved paged response, one after
// another (a file may hold one page or several), and hands each to use.
// want names the document in the error for an empty file.
func eachPage[P any](r io.Reader, decode func(*json.Decoder) (*P, error), want string, use func(*P)) error {
	dec := json.NewDecoder(r)
	for pages := 0; ; pages++ {
		p, err := decode(dec)
		if errors.Is(err, io.EOF) && pages > 0 {
			return nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("empty file: want " + want)
			}
			return fmt.Errorf("page %d: %w", pages+1, err)
		}
		use(p)
	}
}
