package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// PriceOverlays keeps the team's negotiated prices (a --prices overlay, as
// text) set through the HTTP service, so that every replica sharing the
// database and a restarted one serve the same prices. *SQL implements it;
// like Tokens it is separate from Store. The store keeps the text as given:
// parsing and checking it is the caller's.
//
// Error contract: as Store's.
type PriceOverlays interface {
	// PutPriceOverlay records text as the overlay in force (empty: none)
	// and returns it with its version, one more than the one before (the
	// first is 1). Concurrent puts get distinct versions; the last wins.
	PutPriceOverlay(ctx context.Context, text string) (PriceOverlay, error)
	// PriceOverlay returns the overlay in force: the zero PriceOverlay
	// (version 0, no text) when none was ever recorded.
	PriceOverlay(ctx context.Context) (PriceOverlay, error)
	// PriceOverlayVersion returns the version alone: a cheap check, on
	// every request, of whether another replica changed the overlay.
	PriceOverlayVersion(ctx context.Context) (int64, error)
}

// PriceOverlay is the stored overlay.
type PriceOverlay struct {
	Text    string    // YAML or JSON, as set; empty means no negotiated prices
	Version int64     // grows by one per change; 0: never set
	Updated time.Time // UTC, when it was set
}

var _ PriceOverlays = (*SQL)(nil)

// PutPriceOverlay records the overlay in force; see PriceOverlays.
func (s *SQL) PutPriceOverlay(ctx context.Context, text string) (PriceOverlay, error) {
	o := PriceOverlay{Text: text, Updated: fromMS(ms(s.now()))}
	err := s.db.QueryRowContext(ctx, `INSERT INTO price_overlay (id, version, overlay, updated_at) VALUES (1, 1, $1, $2)
ON CONFLICT (id) DO UPDATE SET version = price_overlay.version + 1, overlay = excluded.overlay, updated_at = excluded.updated_at
RETURNING version`, text, ms(o.Updated)).Scan(&o.Version)
	if err != nil {
		return PriceOverlay{}, internal("save price overlay", err)
	}
	return o, nil
}

// PriceOverlay returns the overlay in force; see PriceOverlays.
func (s *SQL) PriceOverlay(ctx context.Context) (PriceOverlay, error) {
	var o PriceOverlay
	var updated int64
	err := s.db.QueryRowContext(ctx, `SELECT version, overlay, updated_at FROM price_overlay WHERE id = 1`).Scan(&o.Version, &o.Text, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return PriceOverlay{}, nil
	}
	if err != nil {
		return PriceOverlay{}, internal("read price overlay", err)
	}
	o.Updated = fromMS(updated)
	return o, nil
}

// PriceOverlayVersion returns the version in force; see PriceOverlays.
func (s *SQL) PriceOverlayVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, `SELECT version FROM price_overlay WHERE id = 1`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, internal("read price overlay version", err)
}
