package store

import (
	"context"
	"strings"

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
	// CheckToken reports whether hash belongs to a recorded token.
	CheckToken(ctx context.Context, hash string) (bool, error)
	// CountTokens returns how many tokens are recorded.
	CountTokens(ctx context.Context) (int, error)
}

var _ Tokens = (*SQL)(nil)

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

// CheckToken reports whether hash is recorded; see Tokens.
func (s *SQL) CheckToken(ctx context.Context, hash string) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM api_tokens WHERE hash = $1`, hash).Scan(&n); err != nil {
		return false, internal("check token", err)
	}
	return n > 0, nil
}

// CountTokens returns the number of recorded tokens; see Tokens.
func (s *SQL) CountTokens(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM api_tokens`).Scan(&n); err != nil {
		return 0, internal("count tokens", err)
	}
	return n, nil
}
