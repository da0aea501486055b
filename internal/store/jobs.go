package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
)

// Jobs keeps the state of the HTTP service's simulation jobs where every
// replica sees it. *SQL implements it; like Tokens it is separate from
// Store.
//
// Error contract: as Store's.
type Jobs interface {
	// PutJob records a job's state (opaque JSON), creating the job or
	// replacing its state; a cancel request stays recorded.
	PutJob(ctx context.Context, id string, state []byte) error
	// GetJob returns a job's last state, whether a cancel was requested
	// and when the state was written. NotFound when there is no such job.
	GetJob(ctx context.Context, id string) (JobState, error)
	// RequestCancel records that a client asked to cancel the job; the
	// replica running it sees it at its next PutJob or GetJob. NotFound
	// when there is no such job.
	RequestCancel(ctx context.Context, id string) error
	// PruneJobs removes jobs not updated since before and returns how many.
	PruneJobs(ctx context.Context, before time.Time) (int, error)
}

// JobState is a job as the store holds it.
type JobState struct {
	State           []byte // opaque JSON
	CancelRequested bool
	Updated         time.Time
}

var _ Jobs = (*SQL)(nil)

// PutJob records a job's state; see Jobs.
func (s *SQL) PutJob(ctx context.Context, id string, state []byte) error {
	if strings.TrimSpace(id) == "" {
		return apperr.Invalidf("id", "a job needs an id")
	}
	if state == nil {
		state = []byte{}
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO jobs (id, state, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`, id, state, ms(s.now()))
	return internal("save job", err)
}

// GetJob returns a job's state; see Jobs.
func (s *SQL) GetJob(ctx context.Context, id string) (JobState, error) {
	var j JobState
	var cancel int
	var updated int64
	err := s.db.QueryRowContext(ctx, `SELECT state, cancel_requested, updated_at FROM jobs WHERE id = $1`, id).Scan(&j.State, &cancel, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return JobState{}, apperr.NotFoundf("id", "no simulation %q", id)
	}
	if err != nil {
		return JobState{}, internal("read job", err)
	}
	j.CancelRequested, j.Updated = cancel != 0, fromMS(updated)
	return j, nil
}

// RequestCancel records a cancel request; see Jobs.
func (s *SQL) RequestCancel(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET cancel_requested = 1 WHERE id = $1`, id)
	if err != nil {
		return internal("cancel job", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return apperr.NotFoundf("id", "no simulation %q", id)
	}
	return nil
}

// PruneJobs removes old jobs; see Jobs.
func (s *SQL) PruneJobs(ctx context.Context, before time.Time) (int, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM jobs WHERE updated_at < $1`, ms(before))
	if err != nil {
		return 0, internal("prune jobs", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
