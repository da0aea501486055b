package cli

// The catalog subcommands that use the store: update, import, history, diff
// and snapshots, and storeLayer, through which the other commands read the
// store's current offers over the embedded catalog.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/importer"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

// dbEnv overrides the default database; --db overrides both.
const dbEnv = "GPUPICK_DB"

// storeDSN picks the database: the --db flag, else $GPUPICK_DB, else
// gpupick/gpupick.db under the user's configuration directory.
func (e *Env) storeDSN(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if v := e.getenv(dbEnv); v != "" {
		return v, nil
	}
	return store.DefaultPath()
}

// storeExists reports whether dsn names a database that is already there:
// always true for PostgreSQL, for SQLite whether the file exists.
func storeExists(dsn string) bool {
	if store.IsPostgres(dsn) {
		return true
	}
	_, err := os.Stat(dsn)
	return err == nil
}

// openExistingStore opens the store for reading commands; it is NotFound
// when the SQLite file does not exist, so reading never creates one.
func (e *Env) openExistingStore(ctx context.Context, flag string) (store.Store, string, error) {
	dsn, err := e.storeDSN(flag)
	if err != nil {
		return nil, "", err
	}
	if !storeExists(dsn) {
		return nil, dsn, apperr.NotFoundf("--db", "no database at %s yet (gpupick catalog import or update creates it)", dsn)
	}
	s, err := store.Open(ctx, dsn, store.WithClock(e.Now))
	return s, dsn, err
}

// storeLayer returns the store's current offers as a catalog layer to put
// over the embedded catalog, and a line naming the snapshot(s) used, e.g.
// "store snapshot 2026-11-29 (aws, azure)". When there is no database, or it
// holds no snapshot yet, it returns nil, "" and no error. Offers whose GPU,
// provider, region or currency the embedded catalog does not know are
// skipped and counted in the line. An offer that is also in the embedded
// catalog keeps the embedded hardware facts and takes the store's prices.
// Errors are Unavailable (the database cannot be read): callers should warn
// and fall back to the embedded catalog.
func (e *Env) storeLayer() (*catalog.Files, string, error) {
	dsn, err := e.storeDSN(e.dbFlag)
	if err != nil || !storeExists(dsn) {
		return nil, "", nil // no configuration directory: no default store
	}
	base, err := catalog.Parse(e.Embedded, true)
	if err != nil {
		return nil, "", apperr.Wrap(apperr.Internal, "embedded catalog", err)
	}
	known, err := catalog.Build(base)
	if err != nil {
		return nil, "", apperr.Wrap(apperr.Internal, "embedded catalog", err)
	}
	ctx := context.Background()
	s, err := store.Open(ctx, dsn, store.WithClock(e.Now))
	if err != nil {
		return nil, "", apperr.Wrap(apperr.Unavailable, "read the catalog store", err)
	}
	defer s.Close()
	offers, infos, err := s.CurrentOffers(ctx)
	if err != nil {
		return nil, "", apperr.Wrap(apperr.Unavailable, "read the catalog store", err)
	}
	if len(offers) == 0 {
		return nil, "", nil
	}
	layer, skipped := storeOffersLayer(offers, base, known)
	return layer, storeLine(infos, skipped), nil
}

// storeOffersLayer keeps the stored offers the catalog can resolve, merged
// with the embedded rows of the same key.
func storeOffersLayer(offers []*catalog.Offer, base *catalog.Files, known *catalog.Catalog) (*catalog.Files, int) {
	byKey := make(map[string]*catalog.Offer, len(base.Offers))
	for _, o := range base.Offers {
		byKey[o.Key()] = o
	}
	layer := &catalog.Files{}
	added := map[string]bool{}
	skipped := 0
	for _, o := range offers {
		if o.LocalPrices == (catalog.Prices{}) && o.ListPrices != (catalog.Prices{}) {
			o.Currency, o.LocalPrices = "USD", o.ListPrices
		}
		a, okGPU := known.OfferAccelerator(o)
		_, okRate := known.Rate(o.Currency)
		if !okGPU || !okRate || o.GPUCount < 1 || o.GPUCount > catalog.MaxOfferGPUs ||
			(o.GPUMemGiB != 0 && math.Abs(o.GPUMemGiB-a.MemGiB) > 0.1*a.MemGiB) {
			skipped++
			continue
		}
		if _, ok := known.Provider(o.Provider); !ok && !added[o.Provider] {
			// A provider imported from a price file but without facts in
			// providers.yaml: offered, with what is not known unknown.
			added[o.Provider] = true
			layer.Providers = append(layer.Providers, &catalog.Provider{ID: o.Provider, Name: o.Provider,
				Notes: "imported from a price file; not in providers.yaml: headquarters, certifications, keys and egress are unknown", Fact: o.Fact})
		}
		if _, ok := known.Region(o.Provider, o.Region); !ok && !added[o.Provider+"/"+o.Region] {
			// A region the catalog does not know yet (a new one in a
			// provider's file): kept, with its country unknown, so that
			// residency constraints exclude it rather than the offer vanishing.
			added[o.Provider+"/"+o.Region] = true
			layer.Regions = append(layer.Regions, &catalog.Region{Provider: o.Provider, ID: o.Region, Fact: o.Fact})
		}
		if b, ok := byKey[o.Key()]; ok {
			merged := *b
			merged.Currency, merged.LocalPrices, merged.ListPrices, merged.Fact = o.Currency, o.LocalPrices, o.ListPrices, o.Fact
			if kept := store.KeptNotes(o.Notes); kept != "" { // the date of a price kept from an earlier import
				merged.Notes = strings.TrimPrefix(merged.Notes+"; "+kept, "; ")
			}
			o = &merged
		}
		layer.Offers = append(layer.Offers, o)
	}
	return layer, skipped
}

// storeLine says which snapshot(s) the catalog came from.
func storeLine(infos map[string]store.SnapshotInfo, skipped int) string {
	var providers []string
	var first, last time.Time
	for p, i := range infos {
		providers = append(providers, p)
		if first.IsZero() || i.FetchedAt.Before(first) {
			first = i.FetchedAt
		}
		if i.FetchedAt.After(last) {
			last = i.FetchedAt
		}
	}
	sort.Strings(providers)
	line := "store snapshot " + last.Format(time.DateOnly)
	if f := first.Format(time.DateOnly); f != last.Format(time.DateOnly) {
		line = "store snapshots " + f + " to " + last.Format(time.DateOnly)
	}
	line += " (" + strings.Join(providers, ", ") + ")"
	if skipped > 0 {
		line += fmt.Sprintf("; %d stored offers skipped (GPU, region or currency unknown to the catalog)", skipped)
	}
	return line
}

// addStoreCmds adds the subcommands that use the store to the catalog
// command, with the --db flag they share.
func addStoreCmds(e *Env, cmd *cobra.Command) {
	db := &e.dbFlag // the root's --db
	cmd.AddCommand(newCatalogUpdateCmd(e, db), newCatalogImportCmd(e, db), newCatalogHistoryCmd(e, db),
		newCatalogDiffCmd(e, db), newCatalogSnapshotsCmd(e, db))
}

// fetchSources are the sources `catalog update --source all` reads.
var fetchSources = []string{"azure", "aws", "gcp"}

func newCatalogUpdateCmd(e *Env, db *string) *cobra.Command {
	var source, apiKey, baseURL string
	var regions []string
	var retries int
	cmd := &cobra.Command{
		Use:   "update",
		Short: "Fetch live prices from the clouds' public price lists into the catalog store",
		Long: `Fetch live prices from the Azure Retail Prices API, the AWS Price List and the GCP
Cloud Billing Catalog, and save each source as a snapshot in the store. All
fetches finish before the store is touched: without network nothing changes.
A source that fails keeps its previous snapshot; the others are saved.`,
		Example: `  gpupick catalog update --source aws --region us-east-1,us-west-2
  GPUPICK_GCP_API_KEY=... gpupick catalog update --source all`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var sources []string
			switch source {
			case "all":
				sources = fetchSources
			case "azure", "aws", "gcp":
				sources = []string{source}
			default:
				return apperr.Invalidf("--source", "want azure, aws, gcp or all, got %q", source)
			}
			if apiKey == "" {
				apiKey = e.getenv("GPUPICK_GCP_API_KEY")
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			opt := importer.Options{Regions: splitList(regions), APIKey: apiKey, BaseURL: baseURL, Now: e.Now,
				MaxRetries: retries, Catalog: c}
			ctx := cmd.Context()
			var got []*importer.Result
			var failed []string
			var firstErr error
			for _, src := range sources {
				if src == "gcp" && apiKey == "" && source == "all" {
					fmt.Fprintln(e.Stderr, "gcp: skipped (the Cloud Billing Catalog needs an API key: --api-key or GPUPICK_GCP_API_KEY)")
					continue
				}
				o := opt
				bar := e.byteBar("fetching " + src + " prices")
				if bar != nil {
					o.Client = &http.Client{Transport: countingTransport{http.DefaultTransport, bar}}
				}
				res, err := importer.Fetch(ctx, src, o)
				if bar != nil {
					bar.Finish()
				}
				if err != nil {
					fmt.Fprintf(e.Stderr, "%s: %v\n", src, err)
					failed = append(failed, src)
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
				got = append(got, res)
			}
			if len(got) == 0 {
				if firstErr == nil {
					return apperr.Invalidf("--source", "nothing to fetch")
				}
				return &apperr.Error{Code: apperr.CodeOf(firstErr), Msg: fmt.Sprintf(
					"catalog update: could not fetch %s (no network?); the store was not changed", strings.Join(failed, ", ")), Err: firstErr}
			}
			s, err := e.openStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			if err := e.keepOtherRegions(ctx, s, splitList(regions), resultOffers(got)...); err != nil {
				return err
			}
			for _, res := range got {
				if err := e.saveResult(ctx, s, res.Source, res); err != nil {
					fmt.Fprintf(e.Stderr, "%s: %v\n", res.Source, err)
					failed = append(failed, res.Source)
				}
			}
			if len(failed) > 0 {
				return &apperr.Error{Code: apperr.Unavailable, Msg: fmt.Sprintf(
					"catalog update: %s failed; their previous snapshots stay in force", strings.Join(failed, ", "))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&source, "source", "all", "price list to fetch: azure, aws, gcp or all")
	cmd.Flags().StringSliceVar(&regions, "region", nil, "fetch only these `REGIONS` (as the provider names them; default: every region in the catalog)")
	cmd.Flags().StringVar(&apiKey, "api-key", "", "GCP API `KEY` for the Cloud Billing Catalog (default: $GPUPICK_GCP_API_KEY)")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "fetch from this `URL` instead of the source's endpoint (a mirror; tests)")
	cmd.Flags().IntVar(&retries, "retries", 0, "retries per request (0: the importer's default, -1: none)")
	cmd.Flags().MarkHidden("base-url")
	cmd.Flags().MarkHidden("retries")
	return cmd
}

func newCatalogImportCmd(e *Env, db *string) *cobra.Command {
	var format, provider, asOf string
	var regions []string
	var allowShrink, replaceModes bool
	cmd := &cobra.Command{
		Use:   "import --format azure|aws|gcp|skypilot|gpuhunt|vantage-csv|gcp-machines-csv|azure-retail-csv FILE...",
		Short: "Import saved price lists into the catalog store, one snapshot per provider",
		Long: `Import saved price lists (an Azure Retail Prices response, an AWS offer file, a GCP
skus response, SkyPilot's vms.csv or a gpuhunt CSV) into the store. Every file
is read first; if any cannot be, nothing is imported. The offers of one
provider, from however many files (the pages of one listing), make one
snapshot; several providers make one snapshot each, all saved in one
transaction. A snapshot replaces the offers of its provider and leaves the
others alone.

A pricing mode the files carry no price in at all for a provider (spot, in an
on-demand price list) keeps the prices in force of that mode for the offers
listed again, and says so; --replace-modes drops them instead.

A file that looks cut short is refused, unless --allow-shrink: a CSV whose
last line has no newline, pages of a paged listing that say one is missing,
or a provider with fewer than half the offers it has in the store now.

The prices are dated by --as-of, the day the file speaks for (a catalog
commit's date, the day a price list was downloaded): SkyPilot and gpuhunt
files carry no date of their own and need it; for the others it defaults to
today, with a warning.`,
		Example: `  gpupick catalog import --format skypilot --as-of 2026-06-03 ~/.sky/catalogs/v9/aws/vms.csv
  gpupick catalog import --format azure --db prices.db azure-page1.json azure-page2.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !contains(importer.Sources, format) {
				return apperr.Invalidf("--format", "want one of %s, got %q", strings.Join(importer.Sources, ", "), format)
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			opt := importer.Options{Regions: splitList(regions), Provider: provider, Now: e.Now, Catalog: c}
			if asOf != "" {
				d, err := time.Parse(time.DateOnly, asOf)
				if err != nil {
					return apperr.Invalidf("--as-of", "want a date YYYY-MM-DD, got %q", asOf)
				}
				if d.After(e.Now()) {
					return apperr.Invalidf("--as-of", "%s is in the future", asOf)
				}
				opt.AsOf = d
			}
			var results []*importer.Result
			var files []store.ImportFile
			var firstErr error
			failed := 0
			for _, name := range args {
				b, err := e.ReadFile(name)
				if err == nil {
					files = append(files, store.ImportFile{Name: name, Content: b})
					var res *importer.Result
					if res, err = importer.Parse(format, bytes.NewReader(b), name, opt); err == nil {
						results = append(results, res)
						continue
					}
				}
				err = apperr.InFile(apperr.Wrap(apperr.Invalid, "", err), name)
				fmt.Fprintf(e.Stderr, "not imported: %v\n", err) // the error names the file
				failed++
				if firstErr == nil {
					firstErr = err
				}
			}
			if firstErr != nil {
				return &apperr.Error{Code: apperr.CodeOf(firstErr), Msg: fmt.Sprintf(
					"catalog import: %d of %d files could not be read (see above); nothing was imported", failed, len(args))}
			}
			if !allowShrink {
				if err := store.CheckComplete(format, files); err != nil {
					return shrinkHint(err)
				}
			}
			snaps, err := snapshotsOf(format, results)
			if err != nil {
				return err
			}
			for i := range snaps {
				snaps[i].RefuseShrink, snaps[i].ReplaceModes = !allowShrink, replaceModes
			}
			ctx := cmd.Context()
			s, err := e.openStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			for i := range snaps {
				if err := e.keepOtherRegions(ctx, s, splitList(regions), &snaps[i].Offers); err != nil {
					return err
				}
			}
			infos, err := s.SaveSnapshots(ctx, snaps...)
			if err != nil {
				if errors.Is(err, store.ErrTruncated) {
					return shrinkHint(err)
				}
				return &apperr.Error{Code: apperr.CodeOf(err), Msg: "catalog import: nothing was imported", Err: err}
			}
			for _, info := range infos {
				e.saidSaved(info)
			}
			for _, res := range results {
				e.saidRefused(res)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "format of the files: "+strings.Join(importer.Sources, ", "))
	cmd.Flags().StringVar(&provider, "provider", "", "provider `ID` of skypilot or gpuhunt files whose path does not tell (<cloud>/vms.csv)")
	cmd.Flags().StringVar(&asOf, "as-of", "", "the `DATE` (YYYY-MM-DD) the file's prices speak for; required for skypilot and gpuhunt files")
	cmd.Flags().StringSliceVar(&regions, "region", nil, "import only these `REGIONS`")
	cmd.Flags().BoolVar(&allowShrink, "allow-shrink", false, "import files that look cut short (a CSV without a final newline, a page missing, fewer than half the offers in force)")
	cmd.Flags().BoolVar(&replaceModes, "replace-modes", false, "replace every pricing mode: modes the files have no price in lose their prices instead of keeping those in force")
	cmd.MarkFlagRequired("format")
	return cmd
}

// shrinkHint adds the way around to an error that refused an import as
// cut short.
func shrinkHint(err error) error {
	if !errors.Is(err, store.ErrTruncated) {
		return err
	}
	return &apperr.Error{Code: apperr.Invalid, Msg: "catalog import: " + err.Error() + "; give --allow-shrink if it really is that short; nothing was imported"}
}

// testStoreOptions are added to every store the catalog commands open; a
// test sets them in a child process to stop an import half-way.
var testStoreOptions []store.Option

func (e *Env) openStore(ctx context.Context, flag string) (store.Store, error) {
	dsn, err := e.storeDSN(flag)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, dsn, append([]store.Option{store.WithClock(e.Now)}, testStoreOptions...)...)
}

// snapshotsOf makes one snapshot per provider of the parsed files, in
// provider order. The offers of one provider from several files (the pages
// of one listing) are merged: an offer in two files takes each mode's price
// from the file that has it, the lower where both do, as the importer does
// for zones; two files that disagree on its GPUs or currency are an error.
func snapshotsOf(format string, results []*importer.Result) ([]store.Snapshot, error) {
	type group struct {
		files  []string
		at     time.Time
		offers map[string]*catalog.Offer
		from   map[string]string // key -> the file it came from first
		keys   []string
	}
	groups := map[string]*group{}
	var providers []string
	for _, res := range results {
		if len(res.Offers) == 0 {
			return nil, &apperr.Error{Code: apperr.Invalid, File: res.URL, Msg: fmt.Sprintf(
				"no usable offers (%d rows rejected%s); nothing was imported", len(res.Rejected), firstRejects(res.Rejected, 3))}
		}
		for _, o := range res.Offers {
			g := groups[o.Provider]
			if g == nil {
				g = &group{offers: map[string]*catalog.Offer{}, from: map[string]string{}}
				groups[o.Provider] = g
				providers = append(providers, o.Provider)
			}
			if len(g.files) == 0 || g.files[len(g.files)-1] != res.URL {
				g.files = append(g.files, res.URL)
			}
			if res.FetchedAt.After(g.at) {
				g.at = res.FetchedAt
			}
			k := o.Key()
			prev, ok := g.offers[k]
			if !ok {
				g.offers[k], g.from[k] = o, res.URL
				g.keys = append(g.keys, k)
				continue
			}
			merged, err := mergeOffer(prev, o)
			if err != nil {
				return nil, &apperr.Error{Code: apperr.Invalid, File: res.URL, Field: k, Msg: fmt.Sprintf("disagrees with %s", g.from[k]), Err: err}
			}
			g.offers[k] = merged
		}
	}
	sort.Strings(providers)
	snaps := make([]store.Snapshot, len(providers))
	for i, p := range providers {
		g := groups[p]
		sort.Strings(g.keys)
		offers := make([]*catalog.Offer, len(g.keys))
		for j, k := range g.keys {
			offers[j] = g.offers[k]
		}
		snaps[i] = store.Snapshot{Source: format, Providers: []string{p}, URL: strings.Join(g.files, ", "), FetchedAt: g.at, Offers: offers}
	}
	return snaps, nil
}

// mergeOffer combines the prices of one offer read from two files.
func mergeOffer(a, b *catalog.Offer) (*catalog.Offer, error) {
	if a.GPU != b.GPU || a.GPUCount != b.GPUCount || a.GPUFraction != b.GPUFraction {
		return nil, fmt.Errorf("%s x%d (fraction %g) against %s x%d (fraction %g)", b.GPU, b.GPUCount, b.GPUFraction, a.GPU, a.GPUCount, a.GPUFraction)
	}
	if a.Currency != b.Currency {
		return nil, fmt.Errorf("prices in %s against %s", b.Currency, a.Currency)
	}
	m := *a
	for mode := catalog.Mode(0); mode < catalog.NumModes; mode++ {
		if v, ok := b.ListPrices.Get(mode); ok && (m.ListPrices[mode] == 0 || v < m.ListPrices[mode]) {
			m.ListPrices[mode], m.LocalPrices[mode] = v, b.LocalPrices[mode]
		}
	}
	if m.VCPUs == 0 {
		m.VCPUs = b.VCPUs
	}
	if m.RAMGiB == 0 {
		m.RAMGiB = b.RAMGiB
	}
	if m.Notes == "" {
		m.Notes = b.Notes
	}
	return &m, nil
}

// saveResult stores one fetched source as a snapshot and says what it did.
// resultOffers points at each result's offers, for keepOtherRegions.
func resultOffers(rs []*importer.Result) []*[]*catalog.Offer {
	out := make([]*[]*catalog.Offer, len(rs))
	for i, r := range rs {
		out[i] = &r.Offers
	}
	return out
}

// keepOtherRegions adds to each list of offers, when the import was limited
// to some regions, the offers in force of the same providers in the other
// regions: a snapshot replaces its provider's offers, and an import of one
// region must not drop the rest.
func (e *Env) keepOtherRegions(ctx context.Context, s store.Store, regions []string, lists ...*[]*catalog.Offer) error {
	if len(regions) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, r := range regions {
		want[r] = true
	}
	current, _, err := s.CurrentOffers(ctx)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "read the catalog store", err)
	}
	for _, list := range lists {
		providers := map[string]bool{}
		for _, o := range *list {
			providers[o.Provider] = true
		}
		kept := 0
		for _, o := range current {
			if providers[o.Provider] && !want[o.Region] {
				*list = append(*list, o)
				kept++
			}
		}
		if kept > 0 {
			fmt.Fprintf(e.Stderr, "kept %d offers of the regions not imported (--region limits the import, not the snapshot)\n", kept)
		}
	}
	return nil
}

func (e *Env) saveResult(ctx context.Context, s store.Store, source string, res *importer.Result) error {
	snap := store.Snapshot{Source: source, URL: res.URL, FetchedAt: res.FetchedAt, Offers: res.Offers}
	if res.Provider != "" {
		snap.Providers = []string{res.Provider}
	}
	if len(res.Offers) == 0 {
		return &apperr.Error{Code: apperr.Invalid, Msg: fmt.Sprintf("no usable offers (%d rows rejected%s); the previous snapshot stays in force",
			len(res.Rejected), firstRejects(res.Rejected, 3))}
	}
	info, err := s.SaveSnapshot(ctx, snap)
	if err != nil {
		return err
	}
	e.saidSaved(info)
	e.saidRefused(res)
	return nil
}

// saidSaved prints what a snapshot holds and what it kept from the one
// before.
func (e *Env) saidSaved(info store.SnapshotInfo) {
	fmt.Fprintf(e.Stdout, "%s: %d offers of %s saved as snapshot #%d (%s)\n", info.URL, info.Rows,
		strings.Join(info.Providers, ", "), info.ID, info.FetchedAt.Format(time.DateOnly))
	for _, c := range info.Carried {
		of := ""
		if len(info.Providers) > 1 {
			of = " of " + c.Provider
		}
		line := fmt.Sprintf("%s: kept %s prices of %d offers%s from snapshot #%d (the import has no %s price)",
			info.URL, c.Mode, c.Offers, of, c.FromSnapshot, c.Mode)
		if c.Skipped > 0 {
			line += fmt.Sprintf("; %d not kept (another currency, or a spot price not below the new on-demand one)", c.Skipped)
		}
		fmt.Fprintln(e.Stdout, line)
	}
	for _, x := range info.Superseded {
		fmt.Fprintf(e.Stdout, "%s: the %s prices are older than those of snapshot #%d (%s), which stays in force: they join the price history only\n",
			info.URL, x.Provider, x.InForce, x.InForceAsOf.Format(time.DateOnly))
	}
}

// saidRefused prints the rows an import refused and its warnings.
func (e *Env) saidRefused(res *importer.Result) {
	if len(res.Rejected) > 0 {
		fmt.Fprintf(e.Stderr, "%s: %d rows rejected%s\n", res.URL, len(res.Rejected), firstRejects(res.Rejected, 10))
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintf(e.Stderr, "%s: %d warnings%s\n", res.URL, len(res.Warnings), firstRejects(res.Warnings, 10))
	}
}

func firstRejects(rs []importer.Reject, n int) string {
	if len(rs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(":")
	for i, r := range rs {
		if i == n {
			fmt.Fprintf(&b, "\n  ... and %d more", len(rs)-n)
			break
		}
		b.WriteString("\n  " + r.String())
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// splitList accepts both --region a,b and --region a --region b.
func splitList(in []string) []string {
	var out []string
	for _, v := range in {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// byteBar returns a bar counting downloaded bytes on stderr when it is a
// terminal, else nil.
func (e *Env) byteBar(desc string) *progressbar.ProgressBar {
	f, ok := e.Stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return progressbar.NewOptions64(-1, progressbar.OptionSetWriter(io.Writer(f)), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
}

// countingTransport adds the bytes of every response body to a bar.
type countingTransport struct {
	next http.RoundTripper
	bar  *progressbar.ProgressBar
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		resp.Body = &countingBody{resp.Body, t.bar}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	bar *progressbar.ProgressBar
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.bar.Add(n)
	return n, err
}

// HistoryJSON is the JSON output of catalog history.
type HistoryJSON struct {
	Offer  string             `json:"offer"`
	Region string             `json:"region,omitempty"`
	Mode   catalog.Mode       `json:"mode"`
	Points []store.PricePoint `json:"points"`
}

func newCatalogHistoryCmd(e *Env, db *string) *cobra.Command {
	var mode, region, from, to, out, chart string
	cmd := &cobra.Command{
		Use:   "history OFFER",
		Short: "Show an offer's list price over time, from the store's snapshots",
		Long: `Show an offer's list price (USD per instance-hour) in one pricing mode over the
snapshots in the store. OFFER is provider/instance-type, optionally @region;
without a region every region is shown.`,
		Example: `  gpupick catalog history aws/p5.48xlarge@us-east-1 --mode spot
  gpupick catalog history azure/Standard_ND96isr_H100_v5 --chart h100.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			m, ok := catalog.ParseMode(mode)
			if !ok {
				return apperr.Invalidf("--mode", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), mode)
			}
			q := store.HistoryQuery{Offer: args[0], Region: region, Mode: m}
			if o, r, ok := strings.Cut(q.Offer, "@"); ok {
				if region != "" && region != r {
					return apperr.Invalidf("--region", "%s names region %s already", args[0], r)
				}
				q.Offer, q.Region = o, r
			}
			if !strings.Contains(q.Offer, "/") {
				return apperr.Invalidf("OFFER", "want provider/instance-type (optionally @region), got %q", args[0])
			}
			if q.From, err = parseDay("--from", from, false); err != nil {
				return err
			}
			if q.To, err = parseDay("--to", to, true); err != nil {
				return err
			}
			chartFormat, err := chartFormatOf(chart)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, _, err := e.openExistingStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			pts, err := s.History(ctx, q)
			if err != nil {
				return err
			}
			if pts == nil {
				pts = []store.PricePoint{}
			}
			if chart != "" {
				title := fmt.Sprintf("%s %s, USD per instance-hour", q.Offer, m)
				if err := writeFileAtomic(chart, func(w io.Writer) error { return historyChart(w, chartFormat, title, pts) }); err != nil {
					return err
				}
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, HistoryJSON{Offer: q.Offer, Region: q.Region, Mode: m, Points: pts})
			}
			var b strings.Builder
			where := q.Offer
			if q.Region != "" {
				where += " in " + q.Region
			}
			fmt.Fprintf(&b, "%s, %s list price, USD per instance-hour (%d snapshots)\n\n", where, m, len(pts))
			if len(pts) == 0 {
				fmt.Fprintf(&b, "No %s price in the selected snapshots.\n", m)
				if chart != "" {
					fmt.Fprintf(&b, "Chart written to %s.\n", chart)
				}
				_, err := io.WriteString(e.Stdout, b.String())
				return err
			}
			t := &report.Table{Columns: []report.Column{{Header: "DATE", Key: "date"}, {Header: "REGION", Key: "region"},
				{Header: "SNAPSHOT", Key: "snapshot", Right: true}, {Header: "$/H", Key: "usd_per_hour", Right: true},
				{Header: "CHANGE", Key: "change_percent", Right: true}}}
			prev := map[string]float64{}
			for _, p := range pts {
				change := ""
				if old, ok := prev[p.Region]; ok && old != p.USDPerHour {
					change = fmt.Sprintf("%+.1f%%", (p.USDPerHour-old)/old*100)
				}
				prev[p.Region] = p.USDPerHour
				t.Add(p.At.Format(time.DateOnly), p.Region, "#"+strconv.FormatInt(p.SnapshotID, 10), fmt.Sprintf("%.4f", p.USDPerHour), change)
			}
			if chart != "" {
				t.Notes = append(t.Notes, "Chart written to "+chart+".")
			}
			if err := t.WriteText(&b); err != nil {
				return err
			}
			_, err = io.WriteString(e.Stdout, b.String())
			return err
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "on-demand", "pricing mode: "+strings.Join(catalog.ModeNames(), ", "))
	cmd.Flags().StringVar(&region, "region", "", "only this `REGION`")
	cmd.Flags().StringVar(&from, "from", "", "first `DATE` (YYYY-MM-DD) to show")
	cmd.Flags().StringVar(&to, "to", "", "last `DATE` (YYYY-MM-DD) to show")
	cmd.Flags().StringVar(&chart, "chart", "", "also draw the history to `FILE` (.svg or .png)")
	outputFlag(cmd, &out, "table|json")
	return cmd
}

// parseDay reads YYYY-MM-DD; endOfDay moves it to the last millisecond of
// that day, so that --to includes the day.
func parseDay(flag, s string, endOfDay bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, apperr.Invalidf(flag, "want a date YYYY-MM-DD, got %q", s)
	}
	if endOfDay {
		t = t.Add(24*time.Hour - time.Millisecond)
	}
	return t, nil
}

// historyChart draws one line per region: price against date.
func historyChart(w io.Writer, format, title string, pts []store.PricePoint) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "date"
	p.Y.Label.Text = "USD per instance-hour"
	p.X.Tick.Marker = plot.TimeTicks{Format: time.DateOnly}
	p.Add(plotter.NewGrid())
	byRegion := map[string]plotter.XYs{}
	var regions []string
	for _, pt := range pts {
		if _, ok := byRegion[pt.Region]; !ok {
			regions = append(regions, pt.Region)
		}
		byRegion[pt.Region] = append(byRegion[pt.Region], plotter.XY{X: float64(pt.At.Unix()), Y: pt.USDPerHour})
	}
	for i, r := range regions {
		line, points, err := plotter.NewLinePoints(byRegion[r])
		if err != nil {
			return apperr.Wrap(apperr.Internal, "chart", err)
		}
		line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
		points.Shape = draw.CircleGlyph{}
		points.Radius = vg.Points(1.5)
		p.Add(line, points)
		p.Legend.Add(r, line)
	}
	p.Legend.Top = true
	width, height := 8*vg.Inch, 4*vg.Inch
	switch format {
	case "svg":
		c := vgsvg.New(width, height)
		p.Draw(draw.New(c))
		_, err := c.WriteTo(w)
		return err
	case "png":
		c := vgimg.New(width, height)
		p.Draw(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	return apperr.Invalidf("--chart", "want a file ending in .svg or .png, got format %q", format)
}

func newCatalogDiffCmd(e *Env, db *string) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "diff [FROM] [TO]",
		Short: "Show what changed between two snapshots: new and removed offers, price moves",
		Long: `Compare the catalog as it stood after snapshot FROM with the catalog after
snapshot TO (each provider as of its last snapshot up to that point). FROM and
TO are snapshot numbers (see gpupick catalog snapshots) or dates (YYYY-MM-DD:
the last snapshot fetched on or before that day). Without TO, the latest
snapshot; without either, the latest against the one before it.`,
		Example: `  gpupick catalog diff
  gpupick catalog diff 3 7 -o json`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, _, err := e.openExistingStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			snaps, err := s.Snapshots(ctx)
			if err != nil {
				return err
			}
			if len(snaps) == 0 {
				return apperr.Emptyf("the store holds no snapshots yet (gpupick catalog import or update)")
			}
			to := snaps[len(snaps)-1].ID
			if len(args) == 2 {
				if to, err = store.ResolveSnapshot(snaps, "TO", args[1]); err != nil {
					return err
				}
			}
			var from int64
			if len(args) >= 1 {
				if from, err = store.ResolveSnapshot(snaps, "FROM", args[0]); err != nil {
					return err
				}
			} else {
				from = 0
				for _, sn := range snaps {
					if sn.ID < to {
						from = sn.ID
					}
				}
				if from == 0 {
					return apperr.Emptyf("only one snapshot (#%d): nothing to compare it with", to)
				}
			}
			d, err := s.Diff(ctx, from, to)
			if err != nil {
				return err
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, d)
			}
			return writeDiff(e.Stdout, d)
		},
	}
	outputFlag(cmd, &out, "table|json")
	return cmd
}

func snapshotLabel(i store.SnapshotInfo) string {
	return fmt.Sprintf("#%d (%s, %s, %s)", i.ID, i.Source, strings.Join(i.Providers, ", "), i.FetchedAt.Format(time.DateOnly))
}

func writeDiff(w io.Writer, d *store.Diff) error {
	var b strings.Builder
	fmt.Fprintf(&b, "From snapshot %s to %s: %d added, %d removed, %d price moves\n",
		snapshotLabel(d.From), snapshotLabel(d.To), len(d.Added), len(d.Removed), len(d.Moved))
	if len(d.Added)+len(d.Removed)+len(d.Moved) > 0 {
		b.WriteString("\n")
		t := &report.Table{Columns: []report.Column{{Header: "CHANGE", Key: "change"}, {Header: "OFFER", Key: "offer"},
			{Header: "MODE", Key: "mode"}, {Header: "FROM $/H", Key: "from_usd_per_hour", Right: true},
			{Header: "TO $/H", Key: "to_usd_per_hour", Right: true}, {Header: "MOVE", Key: "percent", Right: true}}}
		for _, k := range d.Added {
			t.Add("added", k, "", "", "", "")
		}
		for _, k := range d.Removed {
			t.Add("removed", k, "", "", "", "")
		}
		for _, m := range d.Moved {
			t.Add("price", m.Key, m.Mode.String(), fmt.Sprintf("%.4f", m.From), fmt.Sprintf("%.4f", m.To), fmt.Sprintf("%+.1f%%", m.Percent))
		}
		if err := t.WriteText(&b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SnapshotJSON is one line of catalog snapshots -o json.
type SnapshotJSON struct {
	store.SnapshotInfo
	// CurrentFor lists the providers whose offers in force come from it.
	CurrentFor []string `json:"current_for"`
}

func newCatalogSnapshotsCmd(e *Env, db *string) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "snapshots",
		Short:   "List the snapshots in the catalog store, oldest first",
		Example: `  gpupick catalog snapshots -o json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, _, err := e.openExistingStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			snaps, err := s.Snapshots(ctx)
			if err != nil {
				return err
			}
			_, current, err := s.CurrentOffers(ctx)
			if err != nil {
				return err
			}
			views := make([]SnapshotJSON, len(snaps))
			for i, sn := range snaps {
				views[i] = SnapshotJSON{SnapshotInfo: sn, CurrentFor: []string{}}
				for p, c := range current {
					if c.ID == sn.ID {
						views[i].CurrentFor = append(views[i].CurrentFor, p)
					}
				}
				sort.Strings(views[i].CurrentFor)
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, views)
			}
			t := &report.Table{Columns: []report.Column{{Header: "ID", Key: "id", Right: true}, {Header: "FETCHED (UTC)", Key: "fetched_at"},
				{Header: "SOURCE", Key: "source"}, {Header: "PROVIDERS", Key: "providers"}, {Header: "OFFERS", Key: "rows", Right: true},
				{Header: "CHECKSUM", Key: "checksum"}, {Header: "IN FORCE FOR", Key: "current_for"}}}
			for _, v := range views {
				sum := strings.TrimPrefix(v.Checksum, "sha256:")
				if len(sum) > 12 {
					sum = sum[:12]
				}
				t.Add(strconv.FormatInt(v.ID, 10), v.FetchedAt.Format("2006-01-02 15:04"), v.Source, strings.Join(v.Providers, ","),
					strconv.Itoa(v.Rows), sum, strings.Join(v.CurrentFor, ","))
			}
			if len(views) == 0 {
				t.Notes = append(t.Notes, "No snapshots yet (gpupick catalog import or update adds them).")
			}
			return t.WriteText(e.Stdout)
		},
	}
	outputFlag(cmd, &out, "table|json")
	return cmd
}
