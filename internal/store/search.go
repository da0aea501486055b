package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
)

// Searches keeps the results of sharded policy searches (gpupick simulate
// --search --shards N) where every shard and the merge see them: one row
// per unit (a candidate offer) with its entries as an opaque blob
// (autoscale.EncodeEntries), and one per
// shard that started. *SQL implements it; like Jobs it is separate from
// Store.
//
// Error contract: as Store's.
type Searches interface {
	// StartSearchShard records that shard sh.Shard of search sh.SearchID
	// began, and returns the shard as stored: Done is set when it finished
	// in an earlier run. Invalid when the search is already known with
	// another shard count, unit count or fingerprint (different inputs
	// under one id), or when sh.Shard is not below sh.Shards.
	StartSearchShard(ctx context.Context, sh SearchShard) (SearchShard, error)
	// PutSearchUnit stores one unit's result; storing a unit key again
	// keeps the first result (a rerun of a shard is idempotent).
	PutSearchUnit(ctx context.Context, searchID string, u SearchUnit) error
	// SearchUnitKeys returns the keys of the units stored for a search.
	SearchUnitKeys(ctx context.Context, searchID string) (map[string]bool, error)
	// FinishSearchShard marks a shard done. NotFound when it never started.
	FinishSearchShard(ctx context.Context, searchID string, shard int) error
	// SearchShards returns the shards of a search that started, by shard
	// number. NotFound when no shard of the search ever started.
	SearchShards(ctx context.Context, searchID string) ([]SearchShard, error)
	// SearchUnits returns every stored unit of a search, by unit number.
	SearchUnits(ctx context.Context, searchID string) ([]SearchUnit, error)
}

// SearchShard is one shard of a sharded search as the store holds it.
type SearchShard struct {
	SearchID    string
	Shard       int    // 0 ≤ Shard < Shards
	Shards      int    // the shards the search was split into
	Units       int    // the units of the whole search
	Fingerprint string // a digest of the search's inputs
	Started     time.Time
	Done        time.Time // zero while it runs, or after it was stopped
}

// SearchUnit is one unit's stored result.
type SearchUnit struct {
	Key    string // unique within a search
	Unit   int    // the unit's position in the search, from 0
	Shard  int    // the shard that computed it
	Result []byte // opaque to the store (autoscale.EncodeEntries)
}

var _ Searches = (*SQL)(nil)

// StartSearchShard records a shard's start; see Searches.
func (s *SQL) StartSearchShard(ctx context.Context, sh SearchShard) (SearchShard, error) {
	if strings.TrimSpace(sh.SearchID) == "" {
		return SearchShard{}, apperr.Invalidf("search id", "a search needs an id")
	}
	if sh.Shards < 1 || sh.Shard < 0 || sh.Shard >= sh.Shards {
		return SearchShard{}, apperr.Invalidf("shard", "shard %d of %d", sh.Shard, sh.Shards)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return SearchShard{}, internal("start search shard", err)
	}
	defer tx.Rollback()
	var shards, units int
	var fp string
	err = tx.QueryRowContext(ctx, `SELECT shards, units, fingerprint FROM search_shards WHERE search_id = $1 LIMIT 1`, sh.SearchID).Scan(&shards, &units, &fp)
	switch {
	case err == nil:
		if shards != sh.Shards || units != sh.Units || fp != sh.Fingerprint {
			return SearchShard{}, apperr.Invalidf("search id", "search %s was started as %d shard(s) over %d unit(s) (inputs %s); this run has %d shard(s) over %d unit(s) (inputs %s): give the same files and --shards, or another --search-id",
				sh.SearchID, shards, units, short(fp), sh.Shards, sh.Units, short(sh.Fingerprint))
		}
	case err != sql.ErrNoRows:
		return SearchShard{}, internal("start search shard", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_shards (search_id, shard, shards, units, fingerprint, started_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (search_id, shard) DO NOTHING`,
		sh.SearchID, sh.Shard, sh.Shards, sh.Units, sh.Fingerprint, ms(s.now())); err != nil {
		return SearchShard{}, internal("start search shard", err)
	}
	out, err := scanShard(tx.QueryRowContext(ctx, `SELECT search_id, shard, shards, units, fingerprint, started_at, done_at
		FROM search_shards WHERE search_id = $1 AND shard = $2`, sh.SearchID, sh.Shard))
	if err != nil {
		return SearchShard{}, internal("start search shard", err)
	}
	return out, internal("start search shard", tx.Commit())
}

func short(fp string) string { return fp[:min(len(fp), 12)] }

type rowScanner interface{ Scan(...any) error }

func scanShard(r rowScanner) (SearchShard, error) {
	var sh SearchShard
	var started int64
	var done sql.NullInt64
	if err := r.Scan(&sh.SearchID, &sh.Shard, &sh.Shards, &sh.Units, &sh.Fingerprint, &started, &done); err != nil {
		return SearchShard{}, err
	}
	sh.Started = fromMS(started)
	if done.Valid {
		sh.Done = fromMS(done.Int64)
	}
	return sh, nil
}

// PutSearchUnit stores a unit's result; see Searches.
func (s *SQL) PutSearchUnit(ctx context.Context, searchID string, u SearchUnit) error {
	if u.Key == "" {
		return apperr.Invalidf("unit", "a unit needs a key")
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO search_results (search_id, unit_key, unit, shard, result, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (search_id, unit_key) DO NOTHING`,
		searchID, u.Key, u.Unit, u.Shard, u.Result, ms(s.now()))
	return internal("save search unit", err)
}

// SearchUnitKeys returns the stored unit keys; see Searches.
func (s *SQL) SearchUnitKeys(ctx context.Context, searchID string) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT unit_key FROM search_results WHERE search_id = $1`, searchID)
	if err != nil {
		return nil, internal("read search units", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, internal("read search units", err)
		}
		out[k] = true
	}
	return out, internal("read search units", rows.Err())
}

// FinishSearchShard marks a shard done; see Searches.
func (s *SQL) FinishSearchShard(ctx context.Context, searchID string, shard int) error {
	res, err := s.db.ExecContext(ctx, `UPDATE search_shards SET done_at = $1 WHERE search_id = $2 AND shard = $3`, ms(s.now()), searchID, shard)
	if err != nil {
		return internal("finish search shard", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return apperr.NotFoundf("shard", "shard %d of search %s never started", shard, searchID)
	}
	return nil
}

// SearchShards returns a search's shards; see Searches.
func (s *SQL) SearchShards(ctx context.Context, searchID string) ([]SearchShard, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT search_id, shard, shards, units, fingerprint, started_at, done_at
		FROM search_shards WHERE search_id = $1 ORDER BY shard`, searchID)
	if err != nil {
		return nil, internal("read search shards", err)
	}
	defer rows.Close()
	var out []SearchShard
	for rows.Next() {
		sh, err := scanShard(rows)
		if err != nil {
			return nil, internal("read search shards", err)
		}
		out = append(out, sh)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("read search shards", err)
	}
	if len(out) == 0 {
		return nil, apperr.NotFoundf("search id", "no search %q in the store (no shard of it has started)", searchID)
	}
	return out, nil
}

// SearchUnits returns a search's units; see Searches.
func (s *SQL) SearchUnits(ctx context.Context, searchID string) ([]SearchUnit, error) {
	// In primary-key order, which the index gives without a sort (a sort
	// would copy every result); unit keys begin with the zero-padded unit
	// number, so that is unit order unless a search has 100,000 units or
	// more, which the check below puts right.
	rows, err := s.db.QueryContext(ctx, `SELECT unit_key, unit, shard, result FROM search_results WHERE search_id = $1 ORDER BY search_id, unit_key`, searchID)
	if err != nil {
		return nil, internal("read search units", err)
	}
	defer rows.Close()
	var out []SearchUnit
	sorted := true
	for rows.Next() {
		var u SearchUnit
		if err := rows.Scan(&u.Key, &u.Unit, &u.Shard, &u.Result); err != nil {
			return nil, internal("read search units", err)
		}
		if n := len(out); n > 0 && (out[n-1].Unit > u.Unit || out[n-1].Unit == u.Unit && out[n-1].Key > u.Key) {
			sorted = false
		}
		out = append(out, u)
	}
	if !sorted {
		slices.SortFunc(out, func(a, b SearchUnit) int {
			return cmp.Or(cmp.Compare(a.Unit, b.Unit), strings.Compare(a.Key, b.Key))
		})
	}
	return out, internal("read search units", rows.Err())
}
