package cli

// catalog update and catalog import: prices fetched from the providers' APIs
// or read from a file, checked and saved to the store as dated snapshots.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/importer"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/store"
)

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
				return &apperr.Error{Code: apperr.CodeOf(firstErr), Message: msg.New(
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
				return &apperr.Error{Code: apperr.Unavailable, Message: msg.New(
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
				return &apperr.Error{Code: apperr.CodeOf(firstErr), Message: msg.New(
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
			return nil, &apperr.Error{Code: apperr.Invalid, File: res.URL, Message: msg.New(
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
				return nil, &apperr.Error{Code: apperr.Invalid, File: res.URL, Field: k, Message: msg.New("disagrees with %s", g.from[k]), Err: err}
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
		return &apperr.Error{Code: apperr.Invalid, Message: msg.New("no usable offers (%d rows rejected%s); the previous snapshot stays in force",
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
