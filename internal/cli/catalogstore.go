package cli

// The store the catalog subcommands share: where it is, how it is opened,
// and storeLayer, through which the other commands read the store's current
// offers over the embedded catalog. The subcommands are in catalog_update.go
// (update, import) and catalog_history.go (history, diff, snapshots).

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
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
