package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// SQL is the Store on database/sql, for SQLite (modernc.org/sqlite) and
// PostgreSQL (pgx). Statements are written once with $n placeholders, which
// both accept; the dialects differ only in a few words of the schema and in
// how the migration lock is taken.
type SQL struct {
	db       *sql.DB
	postgres bool
	now      func() time.Time
	// afterBatch, when set (WithBatchHook), runs after each batch of price
	// rows written by SaveSnapshots; an error aborts the import there.
	afterBatch func(rows int) error
}

var _ Store = (*SQL)(nil)

// DefaultPath is where the SQLite database lives when no --db is given:
// gpupick/gpupick.db under the user's configuration directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", apperr.Wrap(apperr.Unavailable, "no configuration directory for the default database (give --db)", err)
	}
	return filepath.Join(dir, "gpupick", "gpupick.db"), nil
}

// Open opens (creating it if needed) the database dsn names and applies the
// pending migrations: "" is DefaultPath, postgres:// or postgresql:// a
// PostgreSQL URL, anything else a SQLite file path (":memory:" for a private
// in-memory database). SQLite runs in WAL mode with synchronous=FULL, so a
// committed snapshot survives a crash, and waits up to 10 s for a lock.
func Open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	s, err := openSQL(ctx, dsn, opts...)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Option tunes Open.
type Option func(*SQL)

// WithClock sets the clock that stamps SnapshotInfo.SavedAt,
// Document.Created and migrations (tests; the default is time.Now).
func WithClock(now func() time.Time) Option { return func(s *SQL) { s.now = now } }

// WithBatchHook calls f inside a snapshot's transaction after each batch of
// price rows it writes, with the rows written so far by that call of
// SaveSnapshots; an error from f aborts the import, which then changes
// nothing. For progress, and for tests that stop an import half-way.
func WithBatchHook(f func(rows int) error) Option { return func(s *SQL) { s.afterBatch = f } }

func openSQL(ctx context.Context, dsn string, opts ...Option) (*SQL, error) {
	s := &SQL{postgres: IsPostgres(dsn), now: time.Now}
	for _, o := range opts {
		o(s)
	}
	var err error
	if s.postgres {
		s.db, err = sql.Open("pgx", dsn)
	} else {
		if dsn == "" {
			if dsn, err = DefaultPath(); err != nil {
				return nil, err
			}
		}
		if dsn != ":memory:" {
			if err := os.MkdirAll(filepath.Dir(dsn), 0o700); err != nil {
				return nil, apperr.Wrap(apperr.Unavailable, "create database directory", err)
			}
			if err := createPrivate(dsn); err != nil {
				return nil, apperr.Wrap(apperr.Unavailable, "create database "+dsn, err)
			}
		}
		// busy_timeout first: the pragmas run in order on each new
		// connection, and switching to WAL takes a lock another process
		// opening the same file may hold (gpupick processes of one sharded
		// search open it at once); without the timeout that is SQLITE_BUSY.
		s.db, err = sql.Open("sqlite", dsn+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)"+
			"&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_txlock=immediate")
		if dsn == ":memory:" {
			s.db.SetMaxOpenConns(1) // every connection would be another database
		}
	}
	if err == nil {
		err = s.db.PingContext(ctx)
	}
	if err != nil {
		if s.db != nil {
			s.db.Close()
		}
		return nil, apperr.Wrap(apperr.Unavailable, "open database "+redact(dsn), err)
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// createPrivate creates an empty SQLite database file readable by its owner
// only (0600, whatever the umask: it holds token hashes and the team's
// prices). SQLite gives the -wal and -shm files it creates the mode of the
// database file. An existing file is left as it is.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil { // the umask may have taken the owner's bits
		f.Close()
		return err
	}
	return f.Close()
}

// redact hides the password of a PostgreSQL URL in messages.
func redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	scheme, rest, _ := strings.Cut(dsn, "://")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		if user, _, ok := strings.Cut(rest[:at], ":"); ok {
			rest = user + ":xxxxx" + rest[at:]
		}
	}
	return scheme + "://" + rest
}

// Close releases the database.
func (s *SQL) Close() error { return s.db.Close() }

func (s *SQL) schema(text string) string {
	r := strings.NewReplacer(
		"{{autoid}}", "INTEGER PRIMARY KEY AUTOINCREMENT",
		"{{blob}}", "BLOB",
		"{{without_rowid}}", "WITHOUT ROWID")
	if s.postgres {
		r = strings.NewReplacer(
			"{{autoid}}", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
			"{{blob}}", "BYTEA",
			"{{without_rowid}}", "")
	}
	return r.Replace(text)
}

// migrate applies every embedded migration not yet recorded in
// schema_migrations, each in its own transaction.
func (s *SQL) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return apperr.Wrap(apperr.Internal, "create schema_migrations", err)
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return apperr.Wrap(apperr.Internal, "list migrations", err)
	}
	sort.Strings(names)
	latest := 0
	for _, name := range names {
		base := filepath.Base(name)
		num, _, _ := strings.Cut(base, "_")
		version, err := strconv.Atoi(num)
		if err != nil {
			return apperr.Wrap(apperr.Internal, "migration "+base, err)
		}
		latest = max(latest, version)
		if err := s.apply(ctx, version, name); err != nil {
			return apperr.Wrap(apperr.Internal, "apply migration "+base, err)
		}
	}
	var newest sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return apperr.Wrap(apperr.Internal, "read schema version", err)
	}
	if int(newest.Int64) > latest {
		return &apperr.Error{Code: apperr.Unavailable, Message: msg.New(
			"the database has schema version %d, newer than this gpupick knows (%d): upgrade gpupick", newest.Int64, latest)}
	}
	return nil
}

func (s *SQL) apply(ctx context.Context, version int, name string) error {
	text, err := migrationFS.ReadFile(name)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil) // SQLite: BEGIN IMMEDIATE, one migrator at a time
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.postgres {
		if _, err := tx.ExecContext(ctx, `LOCK TABLE schema_migrations IN EXCLUSIVE MODE`); err != nil {
			return err
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	for _, stmt := range strings.Split(s.schema(string(text)), ";\n") {
		if onlyComments(stmt) {
			continue
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%w in %s", err, strings.TrimSpace(stmt))
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
		version, filepath.Base(name), ms(s.now())); err != nil {
		return err
	}
	return tx.Commit()
}

func onlyComments(stmt string) bool {
	for _, line := range strings.Split(stmt, "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "--") {
			return false
		}
	}
	return true
}

func ms(t time.Time) int64     { return t.UnixMilli() }
func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }
func itoa(v int64) string      { return strconv.FormatInt(v, 10) }
func internal(op string, err error) error {
	if err == nil {
		return nil
	}
	return apperr.Wrap(apperr.Internal, op, err)
}

// noPrice is the mode of the price_history row that records an offer listed
// without any price, so that Diff still sees it.
const noPrice = -1

// prepared is a validated snapshot, ready to write.
type prepared struct {
	providers []string
	keys      []string // sorted
	offers    map[string]*catalog.Offer
	data      map[string][]byte
	checksum  string
	// perProvider counts the offers of each provider; priced says, per
	// provider, the modes in which at least one of its offers has a price.
	perProvider map[string]int
	priced      map[string]*[catalog.NumModes]bool
	// carried holds, per key, the modes whose price was kept from the
	// snapshot in force (see carry).
	carried map[string][]catalog.Mode
}

func prepare(snap Snapshot) (*prepared, error) {
	if strings.TrimSpace(snap.Source) == "" {
		return nil, apperr.Invalidf("source", "a snapshot needs a source")
	}
	if len(snap.Offers) == 0 {
		return nil, apperr.Invalidf("offers", "the %s snapshot has no offers: keeping the previous one", snap.Source)
	}
	p := &prepared{offers: make(map[string]*catalog.Offer, len(snap.Offers)), data: make(map[string][]byte, len(snap.Offers)),
		perProvider: map[string]int{}, priced: map[string]*[catalog.NumModes]bool{}, carried: map[string][]catalog.Mode{}}
	listed := map[string]bool{}
	for _, id := range snap.Providers {
		listed[id] = true
	}
	perProvider := p.perProvider
	for i, o := range snap.Offers {
		if o == nil || o.Provider == "" || o.InstanceType == "" || o.Region == "" {
			return nil, apperr.Invalidf(fmt.Sprintf("offers[%d]", i), "an offer needs a provider, an instance type and a region")
		}
		k := o.Key()
		if len(snap.Providers) > 0 && !listed[o.Provider] {
			return nil, apperr.Invalidf(fmt.Sprintf("offers[%d]", i), "%s: provider %q is not among the snapshot's providers %v", k, o.Provider, snap.Providers)
		}
		if _, dup := p.offers[k]; dup {
			return nil, apperr.Invalidf(fmt.Sprintf("offers[%d]", i), "%s listed twice", k)
		}
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			for _, v := range []float64{o.ListPrices[m], o.LocalPrices[m]} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					return nil, apperr.Invalidf(fmt.Sprintf("offers[%d].%s", i, m), "%s: price %v is not a number >= 0", k, v)
				}
			}
		}
		b, err := encodeOffer(o)
		if err != nil {
			return nil, apperr.Wrap(apperr.Invalid, k, err)
		}
		p.offers[k], p.data[k] = o, b
		p.keys = append(p.keys, k)
		perProvider[o.Provider]++
		priced := p.priced[o.Provider]
		if priced == nil {
			priced = &[catalog.NumModes]bool{}
			p.priced[o.Provider] = priced
		}
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			if o.ListPrices[m] > 0 {
				priced[m] = true
			}
		}
	}
	for _, id := range snap.Providers {
		if perProvider[id] == 0 {
			return nil, apperr.Invalidf("providers", "the %s snapshot has no offers for provider %s: keeping its previous snapshot", snap.Source, id)
		}
	}
	for id := range perProvider {
		p.providers = append(p.providers, id)
	}
	sort.Strings(p.providers)
	sort.Strings(p.keys)
	p.sum()
	return p, nil
}

// sum sets the checksum: the digest of the offers' records in key order.
func (p *prepared) sum() {
	h := sha256.New()
	for _, k := range p.keys {
		h.Write(p.data[k])
		h.Write([]byte{'\n'})
	}
	p.checksum = "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// batchRows is how many rows one INSERT carries: few statements for speed,
// well under both databases' limits on parameters.
const batchRows = 250

// inserter writes rows of a fixed width in multi-row INSERT statements.
// SQLite gets anonymous ? placeholders there: it looks up the name of every
// numbered one by a linear scan, which makes binding a 1,000-parameter
// statement quadratic.
type inserter struct {
	ctx      context.Context
	postgres bool
	tx       *sql.Tx
	head     string // INSERT INTO t (a, b)
	tail     string // e.g. ON CONFLICT DO NOTHING
	cols     int
	full     *sql.Stmt
	args     []any
	rows     int
}

func (in *inserter) statement(rows int) string {
	var b strings.Builder
	b.WriteString(in.head)
	b.WriteString(" VALUES ")
	n := 1
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for c := 0; c < in.cols; c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			if in.postgres {
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(n))
				n++
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	if in.tail != "" {
		b.WriteString(" " + in.tail)
	}
	return b.String()
}

// add queues one row and writes a batch when it is full; it reports whether
// it wrote one.
func (in *inserter) add(row ...any) (bool, error) {
	in.args = append(in.args, row...)
	in.rows++
	if in.rows < batchRows {
		return false, nil
	}
	if in.full == nil {
		st, err := in.tx.PrepareContext(in.ctx, in.statement(batchRows))
		if err != nil {
			return false, err
		}
		in.full = st
	}
	if _, err := in.full.ExecContext(in.ctx, in.args...); err != nil {
		return false, err
	}
	in.args, in.rows = in.args[:0], 0
	return true, nil
}

// flush writes the queued rows and releases the statement.
func (in *inserter) flush() error {
	if in.full != nil {
		defer in.full.Close()
	}
	if in.rows == 0 {
		return nil
	}
	_, err := in.tx.ExecContext(in.ctx, in.statement(in.rows), in.args...)
	in.args, in.rows = in.args[:0], 0
	return err
}

// SaveSnapshot stores one import in one transaction; see Store.
func (s *SQL) SaveSnapshot(ctx context.Context, snap Snapshot) (SnapshotInfo, error) {
	infos, err := s.SaveSnapshots(ctx, snap)
	if err != nil {
		return SnapshotInfo{}, err
	}
	return infos[0], nil
}

// SaveSnapshots stores several imports in one transaction; see Store.
func (s *SQL) SaveSnapshots(ctx context.Context, snaps ...Snapshot) ([]SnapshotInfo, error) {
	if len(snaps) == 0 {
		return nil, apperr.Invalidf("snapshots", "nothing to save")
	}
	preps := make([]*prepared, len(snaps))
	for i, snap := range snaps {
		p, err := prepare(snap)
		if err != nil {
			return nil, err
		}
		preps[i] = p
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, internal("begin import", err)
	}
	defer tx.Rollback()
	infos := make([]SnapshotInfo, len(snaps))
	written := 0 // price rows, for afterBatch
	for i := range snaps {
		if infos[i], err = s.save(ctx, tx, snaps[i], preps[i], &written); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, internal("commit import", err)
	}
	return infos, nil
}

// save writes one prepared snapshot inside tx: it checks the shrink guard,
// carries absent modes over, then replaces the providers' current offers.
func (s *SQL) save(ctx context.Context, tx *sql.Tx, snap Snapshot, p *prepared, written *int) (SnapshotInfo, error) {
	var carried []Carried
	var superseded []Superseded
	fetched := snap.FetchedAt
	if fetched.IsZero() {
		fetched = s.now()
	}
	for _, prov := range p.providers {
		if s.postgres {
			// Imports of one provider take turns, so that each reads the
			// snapshot the one before it left in force (SQLite's immediate
			// transactions already do).
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "gpupick import "+prov); err != nil {
				return SnapshotInfo{}, internal("wait for the imports of "+prov, err)
			}
		}
		from, n, modes, asOf, err := inForce(ctx, tx, prov)
		if err != nil {
			return SnapshotInfo{}, internal("read the snapshot in force", err)
		}
		if from != 0 && ms(fetched) < ms(asOf) {
			// Older prices than those in force: they join the history,
			// and the newer snapshot stays in force.
			superseded = append(superseded, Superseded{Provider: prov, InForce: from, InForceAsOf: asOf})
			continue
		}
		if snap.RefuseShrink && 2*p.perProvider[prov] < n {
			return SnapshotInfo{}, &apperr.Error{Code: apperr.Invalid, Err: ErrTruncated, Message: msg.New(
				"%s: %d offers, fewer than half the %d of snapshot #%d in force", prov, p.perProvider[prov], n, from)}
		}
		if !snap.ReplaceModes && from != 0 {
			c, err := s.carry(ctx, tx, p, prov, from, modes)
			if err != nil {
				return SnapshotInfo{}, err
			}
			carried = append(carried, c...)
		}
	}
	if len(carried) > 0 {
		p.sum()
	}
	info := SnapshotInfo{Source: snap.Source, Providers: p.providers, URL: snap.URL,
		FetchedAt: fromMS(ms(fetched)), SavedAt: fromMS(ms(s.now())), Rows: len(p.keys), Checksum: p.checksum, Carried: carried,
		Superseded: superseded}
	stale := map[string]bool{}
	for _, x := range superseded {
		stale[x.Provider] = true
	}
	carriedJSON, err := encodeCarried(carried)
	if err != nil {
		return SnapshotInfo{}, internal("record snapshot", err)
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO snapshots (source, providers, url, fetched_at, saved_at, row_count, checksum, carried)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		info.Source, strings.Join(info.Providers, ","), info.URL, ms(info.FetchedAt), ms(info.SavedAt), info.Rows, info.Checksum,
		carriedJSON).Scan(&info.ID); err != nil {
		return SnapshotInfo{}, internal("record snapshot", err)
	}
	for _, id := range p.providers {
		if _, err := tx.ExecContext(ctx, `INSERT INTO snapshot_providers (provider, snapshot_id, modes) VALUES ($1, $2, $3)`,
			id, info.ID, p.modeBits(id)); err != nil {
			return SnapshotInfo{}, internal("record snapshot providers", err)
		}
		if stale[id] {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM current_offers WHERE provider = $1`, id); err != nil {
			return SnapshotInfo{}, internal("replace offers of "+id, err)
		}
	}
	ids, err := s.offerIDs(ctx, tx, p)
	if err != nil {
		return SnapshotInfo{}, internal("record offer keys", err)
	}
	cur := &inserter{ctx: ctx, postgres: s.postgres, tx: tx, head: `INSERT INTO current_offers (offer_id, provider, snapshot_id, data)`, cols: 4}
	hist := &inserter{ctx: ctx, postgres: s.postgres, tx: tx, head: `INSERT INTO price_history (offer_id, mode, snapshot_id, usd_per_hour, carried)`, cols: 5}
	for _, k := range p.keys {
		o, id := p.offers[k], ids[k]
		if !stale[o.Provider] {
			if _, err := cur.add(id, o.Provider, info.ID, string(p.data[k])); err != nil {
				return SnapshotInfo{}, internal("write offers", err)
			}
		}
		priced := false
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			if v, ok := o.ListPrices.Get(m); ok {
				priced = true
				kept := 0
				if slices.Contains(p.carried[k], m) {
					kept = 1
				}
				if err := s.addPrice(hist, written, id, int(m), info.ID, v, kept); err != nil {
					return SnapshotInfo{}, err
				}
			}
		}
		if !priced {
			if err := s.addPrice(hist, written, id, noPrice, info.ID, 0, 0); err != nil {
				return SnapshotInfo{}, err
			}
		}
	}
	if err := cur.flush(); err != nil {
		return SnapshotInfo{}, internal("write offers", err)
	}
	if err := hist.flush(); err != nil {
		return SnapshotInfo{}, internal("write price history", err)
	}
	return info, nil
}

// inForce returns the id of a provider's snapshot in force (0: none), how
// many offers of the provider it holds, and the modes it priced for the
// provider (see modeBits; not Valid when not recorded).
func inForce(ctx context.Context, tx *sql.Tx, provider string) (int64, int, sql.NullInt64, time.Time, error) {
	var id, modes sql.NullInt64
	var fetched int64
	err := tx.QueryRowContext(ctx, `SELECT sp.snapshot_id, sp.modes, s.fetched_at FROM snapshot_providers sp
JOIN snapshots s ON s.id = sp.snapshot_id WHERE sp.provider = $1
ORDER BY s.fetched_at DESC, sp.snapshot_id DESC LIMIT 1`, provider).Scan(&id, &modes, &fetched)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, modes, time.Time{}, nil
	}
	if err != nil {
		return 0, 0, modes, time.Time{}, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM current_offers WHERE provider = $1`, provider).Scan(&n); err != nil {
		return 0, 0, modes, time.Time{}, err
	}
	return id.Int64, n, modes, fromMS(fetched), nil
}

// modeBits has bit m set when an offer of provider in p has a price in
// catalog.Mode m.
func (p *prepared) modeBits(provider string) int64 {
	var bits int64
	for m, ok := range p.priced[provider] {
		if ok {
			bits |= 1 << m
		}
	}
	return bits
}

func (s *SQL) addPrice(hist *inserter, written *int, offerID int64, mode int, snapshotID int64, usd float64, carried int) error {
	wrote, err := hist.add(offerID, mode, snapshotID, usd, carried)
	if err != nil {
		return internal("write price history", err)
	}
	*written++
	if wrote && s.afterBatch != nil {
		if err := s.afterBatch(*written); err != nil {
			return internal("write price history", err)
		}
	}
	return nil
}

// offerIDs returns the id of every key of the snapshot, adding new keys.
func (s *SQL) offerIDs(ctx context.Context, tx *sql.Tx, p *prepared) (map[string]int64, error) {
	ids := make(map[string]int64, len(p.keys))
	load := func() error {
		for _, prov := range p.providers {
			rows, err := tx.QueryContext(ctx, `SELECT id, offer_key FROM offer_keys WHERE provider = $1`, prov)
			if err != nil {
				return err
			}
			for rows.Next() {
				var id int64
				var k string
				if err := rows.Scan(&id, &k); err != nil {
					rows.Close()
					return err
				}
				ids[k] = id
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := load(); err != nil {
		return nil, err
	}
	in := &inserter{ctx: ctx, postgres: s.postgres, tx: tx, head: `INSERT INTO offer_keys (offer_key, provider, offer, region)`,
		tail: `ON CONFLICT (offer_key) DO NOTHING`, cols: 4}
	added := 0
	for _, k := range p.keys {
		if _, ok := ids[k]; ok {
			continue
		}
		o := p.offers[k]
		if _, err := in.add(k, o.Provider, o.ID(), o.Region); err != nil {
			return nil, err
		}
		added++
	}
	if err := in.flush(); err != nil {
		return nil, err
	}
	if added > 0 {
		if err := load(); err != nil {
			return nil, err
		}
	}
	for _, k := range p.keys {
		if _, ok := ids[k]; !ok {
			return nil, fmt.Errorf("offer key %s has no id after insert", k)
		}
	}
	return ids, nil
}

const snapshotColumns = `id, source, providers, url, fetched_at, saved_at, row_count, checksum, carried`

type scanner interface{ Scan(dest ...any) error }

func scanSnapshot(r scanner) (SnapshotInfo, error) {
	var i SnapshotInfo
	var providers, carried string
	var fetched, saved int64
	if err := r.Scan(&i.ID, &i.Source, &providers, &i.URL, &fetched, &saved, &i.Rows, &i.Checksum, &carried); err != nil {
		return i, err
	}
	i.Providers = strings.Split(providers, ",")
	i.FetchedAt, i.SavedAt = fromMS(fetched), fromMS(saved)
	var err error
	i.Carried, err = decodeCarried(carried)
	return i, err
}

// Snapshots lists every snapshot, oldest first.
func (s *SQL) Snapshots(ctx context.Context) ([]SnapshotInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+snapshotColumns+` FROM snapshots ORDER BY id`)
	if err != nil {
		return nil, internal("list snapshots", err)
	}
	defer rows.Close()
	var out []SnapshotInfo
	for rows.Next() {
		i, err := scanSnapshot(rows)
		if err != nil {
			return nil, internal("list snapshots", err)
		}
		out = append(out, i)
	}
	return out, internal("list snapshots", rows.Err())
}

func (s *SQL) snapshot(ctx context.Context, id int64) (SnapshotInfo, error) {
	i, err := scanSnapshot(s.db.QueryRowContext(ctx, `SELECT `+snapshotColumns+` FROM snapshots WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return i, apperr.NotFoundf("snapshot", "no snapshot #%d (see gpupick catalog snapshots)", id)
	}
	return i, internal("read snapshot", err)
}

// stateAsOf maps each provider to the snapshot in force once the snapshots
// with an id <= id were imported: the one with the newest prices
// (FetchedAt), the later import among equals.
func (s *SQL) stateAsOf(ctx context.Context, id int64) (map[string]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT provider, snapshot_id FROM (
  SELECT sp.provider, sp.snapshot_id,
    ROW_NUMBER() OVER (PARTITION BY sp.provider ORDER BY s.fetched_at DESC, sp.snapshot_id DESC) AS rn
  FROM snapshot_providers sp JOIN snapshots s ON s.id = sp.snapshot_id
  WHERE sp.snapshot_id <= $1) ranked WHERE rn = 1`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var p string
		var sid int64
		if err := rows.Scan(&p, &sid); err != nil {
			return nil, err
		}
		out[p] = sid
	}
	return out, rows.Err()
}

// CurrentOffers returns the last snapshot of each provider; see Store.
func (s *SQL) CurrentOffers(ctx context.Context) ([]*catalog.Offer, map[string]SnapshotInfo, error) {
	state, err := s.stateAsOf(ctx, math.MaxInt64)
	if err != nil {
		return nil, nil, internal("read current snapshots", err)
	}
	infos := map[string]SnapshotInfo{}
	for p, id := range state {
		i, err := s.snapshot(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		infos[p] = i
	}
	rows, err := s.db.QueryContext(ctx, `SELECT data FROM current_offers`)
	if err != nil {
		return nil, nil, internal("read current offers", err)
	}
	defer rows.Close()
	var out []*catalog.Offer
	var b []byte
	for rows.Next() {
		if err := rows.Scan(&b); err != nil {
			return nil, nil, internal("read current offers", err)
		}
		o, err := decodeOffer(b)
		if err != nil {
			return nil, nil, internal("decode stored offer", err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, internal("read current offers", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, infos, nil
}

// History returns one offer's prices over time; see Store.
func (s *SQL) History(ctx context.Context, q HistoryQuery) ([]PricePoint, error) {
	offer, region := q.Offer, q.Region
	if o, r, ok := strings.Cut(offer, "@"); ok && region == "" {
		offer, region = o, r
	}
	if q.Mode < 0 || q.Mode >= catalog.NumModes {
		return nil, apperr.Invalidf("mode", "unknown pricing mode %d", q.Mode)
	}
	from, to := int64(math.MinInt64), int64(math.MaxInt64)
	if !q.From.IsZero() {
		from = ms(q.From)
	}
	if !q.To.IsZero() {
		to = ms(q.To)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT k.region, h.snapshot_id, s.fetched_at, h.usd_per_hour
FROM offer_keys k
JOIN price_history h ON h.offer_id = k.id AND h.mode = $2 AND h.carried = 0
JOIN snapshots s ON s.id = h.snapshot_id
WHERE k.offer = $1 AND ($3 = '' OR k.region = $3) AND s.fetched_at >= $4 AND s.fetched_at <= $5`,
		offer, int(q.Mode), region, from, to)
	if err != nil {
		return nil, internal("read price history", err)
	}
	defer rows.Close()
	var out []PricePoint
	for rows.Next() {
		var p PricePoint
		var at int64
		if err := rows.Scan(&p.Region, &p.SnapshotID, &at, &p.USDPerHour); err != nil {
			return nil, internal("read price history", err)
		}
		p.At = fromMS(at)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("read price history", err)
	}
	if len(out) == 0 {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM offer_keys WHERE offer = $1 AND ($2 = '' OR region = $2)`,
			offer, region).Scan(&n); err != nil {
			return nil, internal("read price history", err)
		}
		if n == 0 {
			where := offer
			if region != "" {
				where += " in " + region
			}
			return nil, apperr.NotFoundf("offer", "%s was never imported (want provider/instance-type, optionally @region)", where)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Region != b.Region {
			return a.Region < b.Region
		}
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		return a.SnapshotID < b.SnapshotID
	})
	return out, nil
}

// pricesAsOf returns the offers of the catalog as it stood after snapshot
// id, with their list prices.
func (s *SQL) pricesAsOf(ctx context.Context, id int64) (map[string]*catalog.Prices, error) {
	state, err := s.stateAsOf(ctx, id)
	if err != nil {
		return nil, err
	}
	out := map[string]*catalog.Prices{}
	for prov, sid := range state {
		rows, err := s.db.QueryContext(ctx, `SELECT k.offer_key, h.mode, h.usd_per_hour
FROM price_history h JOIN offer_keys k ON k.id = h.offer_id
WHERE h.snapshot_id = $1 AND k.provider = $2`, sid, prov)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k string
			var mode int
			var v float64
			if err := rows.Scan(&k, &mode, &v); err != nil {
				rows.Close()
				return nil, err
			}
			p := out[k]
			if p == nil {
				p = &catalog.Prices{}
				out[k] = p
			}
			if mode >= 0 && mode < int(catalog.NumModes) {
				p[mode] = v
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Diff compares the catalog after two snapshots; see Store.
func (s *SQL) Diff(ctx context.Context, fromID, toID int64) (*Diff, error) {
	d := &Diff{Added: []string{}, Removed: []string{}, Moved: []Move{}}
	var err error
	if d.From, err = s.snapshot(ctx, fromID); err != nil {
		return nil, err
	}
	if d.To, err = s.snapshot(ctx, toID); err != nil {
		return nil, err
	}
	a, err := s.pricesAsOf(ctx, fromID)
	if err != nil {
		return nil, internal("read snapshot", err)
	}
	b, err := s.pricesAsOf(ctx, toID)
	if err != nil {
		return nil, internal("read snapshot", err)
	}
	for k, pb := range b {
		pa, ok := a[k]
		if !ok {
			d.Added = append(d.Added, k)
			continue
		}
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			if pa[m] > 0 && pb[m] > 0 && pa[m] != pb[m] {
				d.Moved = append(d.Moved, Move{Key: k, Mode: m, From: pa[m], To: pb[m], Percent: (pb[m] - pa[m]) / pa[m] * 100})
			}
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			d.Removed = append(d.Removed, k)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	sort.Slice(d.Moved, func(i, j int) bool {
		if d.Moved[i].Key != d.Moved[j].Key {
			return d.Moved[i].Key < d.Moved[j].Key
		}
		return d.Moved[i].Mode < d.Moved[j].Mode
	})
	return d, nil
}

// Kinds of documents.
const (
	workloadKind = "workload"
	reportKind   = "report"
)

func (s *SQL) saveDoc(ctx context.Context, kind string, d Document) (Document, error) {
	if strings.TrimSpace(d.Name) == "" {
		return Document{}, apperr.Invalidf("name", "a %s needs a name", kind)
	}
	body := d.Body
	if body == nil {
		body = []byte{}
	}
	if d.ID == 0 {
		d.Created = fromMS(ms(s.now()))
		if err := s.db.QueryRowContext(ctx, `INSERT INTO documents (kind, name, created_at, body) VALUES ($1, $2, $3, $4) RETURNING id`,
			kind, d.Name, ms(d.Created), body).Scan(&d.ID); err != nil {
			return Document{}, internal("save "+kind, err)
		}
	} else {
		var created int64
		err := s.db.QueryRowContext(ctx, `UPDATE documents SET name = $1, body = $2 WHERE id = $3 AND kind = $4 RETURNING created_at`,
			d.Name, body, d.ID, kind).Scan(&created)
		if errors.Is(err, sql.ErrNoRows) {
			return Document{}, apperr.NotFoundf("id", "no %s #%d", kind, d.ID)
		}
		if err != nil {
			return Document{}, internal("save "+kind, err)
		}
		d.Created = fromMS(created)
	}
	d.Body, d.Size = body, len(body)
	return d, nil
}

func (s *SQL) getDoc(ctx context.Context, kind string, id int64) (Document, error) {
	var d Document
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT id, name, created_at, body FROM documents WHERE id = $1 AND kind = $2`, id, kind).
		Scan(&d.ID, &d.Name, &created, &d.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, apperr.NotFoundf("id", "no %s #%d", kind, id)
	}
	if err != nil {
		return Document{}, internal("read "+kind, err)
	}
	d.Created, d.Size = fromMS(created), len(d.Body)
	return d, nil
}

func (s *SQL) listDocs(ctx context.Context, kind string) ([]Document, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, created_at, LENGTH(body) FROM documents WHERE kind = $1 ORDER BY created_at DESC, id DESC`, kind)
	if err != nil {
		return nil, internal("list "+kind+"s", err)
	}
	defer rows.Close()
	out := []Document{}
	for rows.Next() {
		var d Document
		var created int64
		if err := rows.Scan(&d.ID, &d.Name, &created, &d.Size); err != nil {
			return nil, internal("list "+kind+"s", err)
		}
		d.Created = fromMS(created)
		out = append(out, d)
	}
	return out, internal("list "+kind+"s", rows.Err())
}

func (s *SQL) deleteDoc(ctx context.Context, kind string, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM documents WHERE id = $1 AND kind = $2`, id, kind)
	if err != nil {
		return internal("delete "+kind, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return internal("delete "+kind, err)
	} else if n == 0 {
		return apperr.NotFoundf("id", "no %s #%d", kind, id)
	}
	return nil
}

// SaveWorkload stores a workload document; see Store.
func (s *SQL) SaveWorkload(ctx context.Context, d Document) (Document, error) {
	return s.saveDoc(ctx, workloadKind, d)
}

// GetWorkload returns a workload with its body.
func (s *SQL) GetWorkload(ctx context.Context, id int64) (Document, error) {
	return s.getDoc(ctx, workloadKind, id)
}

// ListWorkloads lists workloads, newest first, without bodies.
func (s *SQL) ListWorkloads(ctx context.Context) ([]Document, error) {
	return s.listDocs(ctx, workloadKind)
}

// DeleteWorkload removes a workload.
func (s *SQL) DeleteWorkload(ctx context.Context, id int64) error {
	return s.deleteDoc(ctx, workloadKind, id)
}

// SaveReport stores a report document; see Store.
func (s *SQL) SaveReport(ctx context.Context, d Document) (Document, error) {
	return s.saveDoc(ctx, reportKind, d)
}

// GetReport returns a report with its body.
func (s *SQL) GetReport(ctx context.Context, id int64) (Document, error) {
	return s.getDoc(ctx, reportKind, id)
}

// ListReports lists reports, newest first, without bodies.
func (s *SQL) ListReports(ctx context.Context) ([]Document, error) {
	return s.listDocs(ctx, reportKind)
}

// DeleteReport removes a report.
func (s *SQL) DeleteReport(ctx context.Context, id int64) error {
	return s.deleteDoc(ctx, reportKind, id)
}
