package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/store"
	"github.com/gpupick/gpupick/internal/store/storetest"
)

func TestSQLiteConformance(t *testing.T) {
	storetest.RunConformance(t, func(t *testing.T) store.Store {
		return openSQLite(t, filepath.Join(t.TempDir(), "gpupick.db"))
	})
}

func TestSQLiteInMemoryConformance(t *testing.T) {
	storetest.RunConformance(t, func(t *testing.T) store.Store { return openSQLite(t, ":memory:") })
}

func openSQLite(t testing.TB, path string) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestPostgresConformance runs the suite against the database named by
// GPUPICK_TEST_POSTGRES (a postgres:// URL); .ci/run starts one. Each test
// gets a schema of its own, dropped afterwards.
func TestPostgresConformance(t *testing.T) {
	dsn := os.Getenv("GPUPICK_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("GPUPICK_TEST_POSTGRES is not set")
	}
	storetest.RunConformance(t, func(t *testing.T) store.Store { return openPostgres(t, dsn) })
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "gpupick.db")
	ctx := context.Background()
	s := openSQLite(t, path)
	info, err := s.SaveSnapshot(ctx, storetest.Snapshot("aws", 0, storetest.Offer("aws", "p5.48xlarge", "us-east-1", 98, 40)))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := openSQLite(t, path) // migrations already applied: a no-op
	_, infos, err := s2.CurrentOffers(ctx)
	if err != nil || infos["aws"].Checksum != info.Checksum {
		t.Fatalf("after reopening: %+v, %v", infos, err)
	}
}

func TestOpenFailsClearly(t *testing.T) {
	_, err := store.Open(context.Background(), "postgres://nobody:secret@127.0.0.1:1/none?sslmode=disable&connect_timeout=2")
	if err == nil {
		t.Fatal("opened a database on port 1")
	}
	if got := err.Error(); !strings.Contains(got, "open database") || strings.Contains(got, "secret") || apperr.CodeOf(err) != apperr.Unavailable {
		t.Errorf("error = %q: want a message that hides the password", got)
	}
}

// openPostgres opens the store in a new schema of the database dsn names,
// dropped when the test ends, so tests neither see nor disturb each other.
func openPostgres(t *testing.T, dsn string) store.Store {
	t.Helper()
	ctx := context.Background()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := fmt.Sprintf("gpupick_test_%d_%d", os.Getpid(), schemaSeq.Add(1))
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE") })
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	s, err := store.Open(ctx, dsn+sep+"search_path="+schema)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var schemaSeq atomic.Int64
