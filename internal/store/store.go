// Package store keeps what gpupick learns over time: catalog snapshots (each
// import of live or file prices is one versioned snapshot per provider), the
// price history of every offer and pricing mode, and what the HTTP service
// shares between replicas: saved workloads and reports, API tokens (hashed),
// simulation jobs and the team's negotiated prices. SQLite (pure Go, the
// file created 0600) is the default; PostgreSQL is used when the data source
// is a postgres:// URL. Both go through database/sql with one code path; the
// schema migrations are embedded and applied on Open.
package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
)

// Store holds catalog snapshots, price history, workloads and reports. It is
// safe for concurrent use.
//
// Error contract: every error is an *apperr.Error. Its code is
//   - apperr.Invalid for input the store refuses (an empty snapshot, a
//     negative or non-finite price, an unknown mode, two offers with the same
//     key, a blank name);
//   - apperr.NotFound for an id or offer that is not stored;
//   - apperr.Unavailable when the database cannot be reached or opened;
//   - apperr.Internal for anything else (a failed statement, a corrupt row).
//
// A method that fails changes nothing: writes are single transactions.
type Store interface {
	// SaveSnapshot stores one import in a single transaction. The snapshot
	// replaces the current offers of the providers it contains, and only
	// those; the other providers keep their last snapshot. Each provider
	// must have at least one offer, so a failed fetch never blanks one.
	//
	// Pricing modes the import does not carry are kept, per provider: a
	// mode in which none of the snapshot's offers of a provider has a price
	// (an on-demand price list has no spot prices) takes, for each of those
	// offers whose key is in the provider's snapshot in force, that offer's
	// price in the mode, provided it is in the same currency and, for spot,
	// below the new on-demand price. A mode priced for even one offer of the
	// provider is the import's: offers without a price in it have none.
	// SnapshotInfo.Carried says what was kept; CurrentOffers and Diff see
	// kept prices, History does not (they were not observed at the new
	// date). Snapshot.ReplaceModes turns this off.
	//
	// With Snapshot.RefuseShrink, a provider with fewer than half the
	// offers of its snapshot in force is refused: Invalid, wrapping
	// ErrTruncated.
	//
	// The snapshot in force for a provider is the one with its newest
	// prices (FetchedAt), whatever order imports commit in (they are
	// serialised per provider): a snapshot older than the one in force
	// joins the history and leaves the current offers as they are
	// (SnapshotInfo.Superseded says so).
	SaveSnapshot(ctx context.Context, s Snapshot) (SnapshotInfo, error)
	// SaveSnapshots stores several snapshots, in order, each as SaveSnapshot
	// would, in one transaction: all are saved or none is.
	SaveSnapshots(ctx context.Context, s ...Snapshot) ([]SnapshotInfo, error)
	// Snapshots lists every snapshot, oldest first.
	Snapshots(ctx context.Context) ([]SnapshotInfo, error)
	// CurrentOffers returns the offers of the last snapshot of each provider,
	// sorted by key, and that snapshot per provider id. Both are empty (no
	// error) when nothing was imported yet.
	CurrentOffers(ctx context.Context) ([]*catalog.Offer, map[string]SnapshotInfo, error)
	// History returns the list prices of one offer in one mode over time,
	// ordered by region, then time. Snapshots in which the offer had no
	// price in that mode, or only one kept from an earlier snapshot, are
	// left out. NotFound when the offer was never imported.
	History(ctx context.Context, q HistoryQuery) ([]PricePoint, error)
	// Diff compares the catalog as it stood after snapshot from with the
	// catalog after snapshot to (each provider as of its last snapshot up to
	// that id). NotFound when either id does not exist.
	Diff(ctx context.Context, fromID, toID int64) (*Diff, error)

	// SaveWorkload stores a workload document: a new one when d.ID is 0,
	// else it replaces the document with that id (NotFound if none).
	SaveWorkload(ctx context.Context, d Document) (Document, error)
	GetWorkload(ctx context.Context, id int64) (Document, error)
	// ListWorkloads returns every workload, newest first, without bodies.
	ListWorkloads(ctx context.Context) ([]Document, error)
	DeleteWorkload(ctx context.Context, id int64) error

	// SaveReport, GetReport, ListReports and DeleteReport do the same for
	// rendered reports.
	SaveReport(ctx context.Context, d Document) (Document, error)
	GetReport(ctx context.Context, id int64) (Document, error)
	ListReports(ctx context.Context) ([]Document, error)
	DeleteReport(ctx context.Context, id int64) error

	// Close releases the database.
	Close() error
}

// Snapshot is one import: the offers one source listed at one time.
type Snapshot struct {
	// Source names the importer or file format, e.g. "aws" or "skypilot".
	Source string
	// Providers are the provider ids whose offers this snapshot replaces.
	// Empty means the providers of Offers.
	Providers []string
	// URL is where the prices came from (an API endpoint or a file name).
	URL string
	// FetchedAt is when the source was read; history is plotted against it.
	FetchedAt time.Time
	// Offers carry ListPrices in USD per instance-hour (0 = unknown) and,
	// optionally, Currency and LocalPrices as published.
	Offers []*catalog.Offer
	// ReplaceModes replaces every pricing mode of the providers: a mode
	// the snapshot has no price in is left without prices, instead of
	// keeping those in force (see Store.SaveSnapshot).
	ReplaceModes bool
	// RefuseShrink refuses the snapshot when a provider has fewer than half
	// the offers of its snapshot in force: a price list cut short looks
	// like that. Set it for files; a live fetch fails whole instead.
	RefuseShrink bool
}

// ErrTruncated is wrapped by the errors that refuse an import because it
// looks cut short: a provider shrunk to fewer than half its offers
// (Snapshot.RefuseShrink), or a file CheckComplete refuses.
var ErrTruncated = errors.New("the price list looks cut short")

// Superseded is a provider of a snapshot whose prices are older than those
// of the provider's snapshot in force, which stays in force.
type Superseded struct {
	Provider    string    `json:"provider"`
	InForce     int64     `json:"in_force"`
	InForceAsOf time.Time `json:"in_force_as_of"`
}

// Carried is one pricing mode of one provider that a snapshot kept from the
// provider's snapshot in force, because the import had no price in it.
type Carried struct {
	Provider string       `json:"provider"`
	Mode     catalog.Mode `json:"mode"`
	// Offers kept their price in Mode; Skipped did not (a price in another
	// currency, or a spot price not below the new on-demand price).
	Offers  int `json:"offers"`
	Skipped int `json:"skipped,omitempty"`
	// FromSnapshot is the snapshot the prices were in force in.
	FromSnapshot int64 `json:"from_snapshot"`
}

// SnapshotInfo describes a stored snapshot.
type SnapshotInfo struct {
	ID        int64     `json:"id"` // increasing in the order of import
	Source    string    `json:"source"`
	Providers []string  `json:"providers"` // sorted
	URL       string    `json:"url,omitempty"`
	FetchedAt time.Time `json:"fetched_at"` // UTC, millisecond precision
	SavedAt   time.Time `json:"saved_at"`   // UTC, when the import committed
	Rows      int       `json:"rows"`       // offers in the snapshot
	// Checksum is "sha256:" and the hex digest of the snapshot's offers in
	// key order (kept prices included), so two imports of identical data
	// have the same checksum.
	Checksum string `json:"checksum"`
	// Carried lists the modes kept from earlier snapshots, by provider and
	// mode; nil when none.
	Carried []Carried `json:"carried,omitempty"`
	// Superseded lists, when the snapshot is saved, the providers whose
	// newer snapshot stays in force: for them it is history only.
	Superseded []Superseded `json:"superseded,omitempty"`
}

// Label is a short name for people: "#3 aws 2026-11-29".
func (s SnapshotInfo) Label() string {
	return "#" + itoa(s.ID) + " " + strings.Join(s.Providers, ",") + " " + s.FetchedAt.Format(time.DateOnly)
}

// HistoryQuery selects the price history of one offer.
type HistoryQuery struct {
	// Offer is provider/instance-type; a region may follow after "@".
	Offer string
	// Region limits the history to one region; empty means every region.
	Region string
	Mode   catalog.Mode
	// From and To bound FetchedAt, both inclusive; zero means unbounded.
	From, To time.Time
}

// PricePoint is the price of an offer in one snapshot.
type PricePoint struct {
	At         time.Time `json:"at"` // the snapshot's FetchedAt
	SnapshotID int64     `json:"snapshot"`
	Region     string    `json:"region"`
	USDPerHour float64   `json:"usd_per_hour"` // list price per instance-hour
}

// Diff is what changed between two snapshots. Keys are Offer.Key().
type Diff struct {
	From    SnapshotInfo `json:"from"`
	To      SnapshotInfo `json:"to"`
	Added   []string     `json:"added"`   // sorted
	Removed []string     `json:"removed"` // sorted
	Moved   []Move       `json:"moved"`   // by key, then mode
}

// Move is a price that changed; prices that appeared or vanished in one mode
// are not moves.
type Move struct {
	Key  string       `json:"offer"`
	Mode catalog.Mode `json:"mode"`
	From float64      `json:"from_usd_per_hour"`
	To   float64      `json:"to_usd_per_hour"`
	// Percent is (To-From)/From x 100.
	Percent float64 `json:"percent"`
}

// Document is a saved workload or report.
type Document struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"` // UTC, set by the store on first save
	// Size is len(Body) in bytes; List methods fill it but not Body.
	Size int    `json:"size_bytes"`
	Body []byte `json:"-"`
}

// IsPostgres reports whether dsn selects PostgreSQL rather than SQLite.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}
