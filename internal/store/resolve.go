package store

import (
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
)

// ResolveSnapshot reads a snapshot as people name it: a number (#3 or 3),
// or a date YYYY-MM-DD meaning the last snapshot fetched on or before that
// day. Errors name field.
func ResolveSnapshot(snaps []SnapshotInfo, field, arg string) (int64, error) {
	if id, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64); err == nil {
		return id, nil // the store says when it does not exist
	}
	day, err := time.Parse(time.DateOnly, arg)
	if err != nil {
		return 0, apperr.Invalidf(field, "want a snapshot number or a date YYYY-MM-DD, got %q", arg)
	}
	end := day.Add(24 * time.Hour)
	var id int64
	var at time.Time
	for _, s := range snaps {
		if s.FetchedAt.Before(end) && !s.FetchedAt.Before(at) {
			id, at = s.ID, s.FetchedAt
		}
	}
	if id == 0 {
		return 0, apperr.NotFoundf(field, "no snapshot fetched on or before %s", arg)
	}
	return id, nil
}
