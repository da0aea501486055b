package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
)

// Tokens keeps the HTTP service's API tokens as hashes. *SQL implements it;
// it is separate from Store so that stores without tokens stay valid.
//
// Error contract: as Store's.
type Tokens interface {
	// CreateToken records the hash of a new token under a name and returns
	// its id. Invalid for a blank hash.
	CreateToken(ctx context.Context, name, hash string) (int64, error)
	// CheckToken reports whether hash belongs to a recorded token, and
	// records that the token was used (at most once a minute per token).
	CheckToken(ctx context.Context, hash string) (bool, error)
	// CountTokens returns how many tokens are recorded.
	CountTokens(ctx context.Context) (int, error)
	// ListTokens returns every token, oldest first, without its hash.
	ListTokens(ctx context.Context) ([]TokenInfo, error)
	// RevokeToken deletes the token ref names: "#ID" (or the bare number
	// when no token has it as its name) or a name, and returns it; the
	// token is refused from then on. NotFound when none matches; Invalid
	// when a name belongs to several tokens (revoke them by id).
	RevokeToken(ctx context.Context, ref string) (TokenInfo, error)
}

// TokenInfo describes a token; the token itself is never stored, and its
// hash is not shown.
type TokenInfo struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"` // UTC
	// LastUsed is when a request last presented the token, to the minute;
	// zero when it never did (or only before this was tracked).
	LastUsed time.Time `json:"last_used,omitzero"`
}

var _ Tokens = (*SQL)(nil)

// lastUsedStep is how stale last_used_at may be before a check updates it:
// it keeps a burst of writes from writing the token row each time.
const lastUsedStep = time.Minute

// CreateToken records a token hash; see Tokens.
func (s *SQL) CreateToken(ctx context.Context, name, hash string) (int64, error) {
	if strings.TrimSpace(hash) == "" {
		return 0, apperr.Invalidf("hash", "a token needs a hash")
	}
	var id int64
	if err := s.db.QueryRowContext(ctx, `INSERT INTO api_tokens (name, hash, created_at) VALUES ($1, $2, $3) RETURNING id`,
		name, hash, ms(s.now())).Scan(&id); err != nil {
		return 0, internal("create token", err)
	}
	return id, nil
}

// CheckToken reports whether hash is recorded and notes its use; see Tokens.
func (s *SQL) CheckToken(ctx context.Context, hash string) (bool, error) {
	var id int64
	var used sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT id, last_used_at FROM api_tokens WHERE hash = $1`, hash).Scan(&id, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, internal("check token", err)
	}
	if now := ms(s.now()); !used.Valid || now-used.Int64 >= lastUsedStep.Milliseconds() {
		if _, err := s.db.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE id = $2`, now, id); err != nil {
			return false, internal("record token use", err)
		}
	}
	return true, nil
}

// CountTokens returns the number of recorded tokens; see Tokens.
func (s *SQL) CountTokens(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM api_tokens`).Scan(&n); err != nil {
		return 0, internal("count tokens", err)
	}
	return n, nil
}

// ListTokens lists the tokens, oldest first; see Tokens.
func (s *SQL) ListTokens(ctx context.Context) ([]TokenInfo, error) {
	return s.tokens(ctx, ``)
}

func (s *SQL) tokens(ctx context.Context, where string, args ...any) ([]TokenInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, created_at, last_used_at FROM api_tokens `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, internal("list tokens", err)
	}
	defer rows.Close()
	out := []TokenInfo{}
	for rows.Next() {
		var t TokenInfo
		var created int64
		var used sql.NullInt64
		if err := rows.Scan(&t.ID, &t.Name, &created, &used); err != nil {
			return nil, internal("list tokens", err)
		}
		t.Created = fromMS(created)
		if used.Valid {
			t.LastUsed = fromMS(used.Int64)
		}
		out = append(out, t)
	}
	return out, internal("list tokens", rows.Err())
}

// RevokeToken deletes a token by "#ID" or name; see Tokens.
func (s *SQL) RevokeToken(ctx context.Context, ref string) (TokenInfo, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return TokenInfo{}, apperr.Invalidf("name", "name the token to revoke (its name or #ID; see gpupick token list)")
	}
	var match []TokenInfo
	var err error
	id, idErr := strconv.ParseInt(strings.TrimPrefix(ref, "#"), 10, 64)
	if !strings.HasPrefix(ref, "#") {
		if match, err = s.tokens(ctx, `WHERE name = $1`, ref); err != nil {
			return TokenInfo{}, err
		}
	}
	if len(match) == 0 && idErr == nil {
		if match, err = s.tokens(ctx, `WHERE id = $1`, id); err != nil {
			return TokenInfo{}, err
		}
	}
	switch len(match) {
	case 0:
		return TokenInfo{}, apperr.NotFoundf("name", "no token %q (see gpupick token list)", ref)
	case 1:
	default:
		ids := make([]string, len(match))
		for i, t := range match {
			ids[i] = "#" + itoa(t.ID)
		}
		return TokenInfo{}, apperr.Invalidf("name", "%d tokens are named %q (%s): revoke one by its id, e.g. %s",
			len(match), ref, strings.Join(ids, ", "), ids[0])
	}
	res, err := s.db.ExecContext(ctx, `DELETE FROM api_tokens WHERE id = $1`, match[0].ID)
	if err != nil {
		return TokenInfo{}, internal("revoke token", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return TokenInfo{}, apperr.NotFoundf("name", "no token %q (revoked meanwhile)", ref)
	}
	return match[0], nil
}
