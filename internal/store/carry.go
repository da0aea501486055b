package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
)

// carry gives the offers of provider in p the prices in force (snapshot
// from, which priced the modes inForce says) of the modes p has no price in
// at all; see Store.SaveSnapshot. It marks what it kept in p.carried and
// p.priced, and returns one Carried per mode with anything to keep.
func (s *SQL) carry(ctx context.Context, tx *sql.Tx, p *prepared, provider string, from int64, inForce sql.NullInt64) ([]Carried, error) {
	var absent []catalog.Mode
	priced := p.priced[provider]
	for m := catalog.Mode(0); m < catalog.NumModes; m++ {
		if !priced[m] && (!inForce.Valid || inForce.Int64&(1<<m) != 0) {
			absent = append(absent, m)
		}
	}
	if len(absent) == 0 {
		return nil, nil
	}
	old, err := currentOf(ctx, tx, provider)
	if err != nil {
		return nil, internal("read the offers in force of "+provider, err)
	}
	var kept, skipped [catalog.NumModes]int
	for _, k := range p.keys {
		o, prev := p.offers[k], old[k]
		if prev == nil || o.Provider != provider {
			continue
		}
		var c *catalog.Offer // a copy, made on the first kept price
		for _, m := range absent {
			v, ok := prev.ListPrices.Get(m)
			if !ok {
				continue
			}
			if currencyOf(prev) != currencyOf(o) || m == catalog.Spot && o.ListPrices[catalog.OnDemand] > 0 && v >= o.ListPrices[catalog.OnDemand] {
				skipped[m]++
				continue
			}
			if c == nil {
				cp := *o
				c = &cp
			}
			local := prev.LocalPrices[m]
			if local == 0 && currencyOf(prev) == "USD" {
				local = v
			}
			c.ListPrices[m], c.LocalPrices[m] = v, local
			c.PriceFacts[m] = prev.PriceFact(m) // the kept price keeps its own source and date
			switch m {
			case catalog.Spot:
				c.SpotBasis, c.SpotMin, c.SpotMax, c.SpotZones = prev.SpotBasis, prev.SpotMin, prev.SpotMax, prev.SpotZones
			case catalog.Reserved1y:
				c.AllUpfront1y = prev.AllUpfront1y
			case catalog.Reserved3y:
				c.AllUpfront3y = prev.AllUpfront3y
			}
			c.Notes = withNote(c.Notes, keptNote(prev, m))
			p.carried[k] = append(p.carried[k], m)
			priced[m] = true
			kept[m]++
		}
		if c != nil {
			b, err := encodeOffer(c)
			if err != nil {
				return nil, internal("encode "+k, err)
			}
			p.offers[k], p.data[k] = c, b
		}
	}
	var out []Carried
	for _, m := range absent {
		if kept[m]+skipped[m] > 0 {
			out = append(out, Carried{Provider: provider, Mode: m, Offers: kept[m], Skipped: skipped[m], FromSnapshot: from})
		}
	}
	return out, nil
}

// currentOf returns the offers in force of one provider by key.
func currentOf(ctx context.Context, tx *sql.Tx, provider string) (map[string]*catalog.Offer, error) {
	rows, err := tx.QueryContext(ctx, `SELECT data FROM current_offers WHERE provider = $1`, provider)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*catalog.Offer{}
	var b []byte
	for rows.Next() {
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		o, err := decodeOffer(b)
		if err != nil {
			return nil, err
		}
		out[o.Key()] = o
	}
	return out, rows.Err()
}

func currencyOf(o *catalog.Offer) string {
	if o.Currency == "" {
		return "USD"
	}
	return strings.ToUpper(o.Currency)
}

// keptNote dates a kept price in the offer's notes, since the offer's AsOf
// is the new import's: "spot price as of 2026-11-28, kept from an earlier
// import". A price kept again keeps its first note.
func keptNote(prev *catalog.Offer, m catalog.Mode) string {
	prefix := m.String() + " price as of "
	for _, n := range strings.Split(prev.Notes, "; ") {
		if strings.HasPrefix(n, prefix) {
			return n
		}
	}
	return prefix + prev.AsOf.UTC().Format(time.DateOnly) + keptSuffix
}

const keptSuffix = ", kept from an earlier import"

// KeptNotes returns the notes of an offer's record that date prices kept
// from an earlier snapshot ("spot price as of 2026-11-28, kept from an
// earlier import"), joined by "; "; "" when there are none. A layer that
// takes a stored offer's prices but not its notes adds these.
func KeptNotes(notes string) string {
	var kept []string
	for _, n := range strings.Split(notes, "; ") {
		if strings.HasSuffix(n, keptSuffix) {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}

func withNote(notes, n string) string {
	switch {
	case notes == "":
		return n
	case strings.Contains(notes, n):
		return notes
	}
	return notes + "; " + n
}

// carriedRecord is how Carried is kept in snapshots.carried: the mode by
// name, so that the stored JSON does not depend on catalog.Mode's order.
type carriedRecord struct {
	Provider     string `json:"provider"`
	Mode         string `json:"mode"`
	Offers       int    `json:"offers"`
	Skipped      int    `json:"skipped,omitempty"`
	FromSnapshot int64  `json:"from_snapshot"`
}

func encodeCarried(cs []Carried) (string, error) {
	if len(cs) == 0 {
		return "", nil
	}
	recs := make([]carriedRecord, len(cs))
	for i, c := range cs {
		recs[i] = carriedRecord{Provider: c.Provider, Mode: c.Mode.String(), Offers: c.Offers, Skipped: c.Skipped, FromSnapshot: c.FromSnapshot}
	}
	b, err := json.Marshal(recs)
	return string(b), err
}

func decodeCarried(text string) ([]Carried, error) {
	if text == "" {
		return nil, nil
	}
	var recs []carriedRecord
	if err := json.Unmarshal([]byte(text), &recs); err != nil {
		return nil, fmt.Errorf("snapshot's kept prices: %w", err)
	}
	out := make([]Carried, len(recs))
	for i, r := range recs {
		m, ok := catalog.ParseMode(r.Mode)
		if !ok {
			return nil, fmt.Errorf("snapshot's kept prices: unknown mode %q", r.Mode)
		}
		out[i] = Carried{Provider: r.Provider, Mode: m, Offers: r.Offers, Skipped: r.Skipped, FromSnapshot: r.FromSnapshot}
	}
	return out, nil
}
