package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
)

var day0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// offers returns n offers spread over providers, priced by seed: on-demand
// for all, spot for every other one.
func offers(n int, providers []string, seed float64) []*catalog.Offer {
	out := make([]*catalog.Offer, n)
	for i := range out {
		o := &catalog.Offer{Provider: providers[i%len(providers)], InstanceType: fmt.Sprintf("gpu-%d", i/len(providers)),
			Region: fmt.Sprintf("region-%d", i%7), GPU: "h100-sxm", GPUCount: 1 + i%8, Currency: "USD",
			Fact: catalog.Fact{Source: "bench", AsOf: day0}}
		o.ListPrices[catalog.OnDemand] = 1 + float64(i%1000)/100 + seed
		if i%2 == 0 {
			o.ListPrices[catalog.Spot] = o.ListPrices[catalog.OnDemand] / 3
		}
		o.LocalPrices = o.ListPrices
		out[i] = o
	}
	return out
}

func openTest(t testing.TB, path string) *SQL {
	t.Helper()
	s, err := openSQL(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// testStores opens an empty store for a test, by name: SQLite always,
// PostgreSQL (a schema of the test's own) when GPUPICK_TEST_POSTGRES names
// one.
func testStores() map[string]func(t *testing.T) *SQL {
	stores := map[string]func(t *testing.T) *SQL{
		"sqlite": func(t *testing.T) *SQL { return openTest(t, filepath.Join(t.TempDir(), "db")) },
	}
	if dsn := os.Getenv("GPUPICK_TEST_POSTGRES"); dsn != "" {
		stores["postgres"] = func(t *testing.T) *SQL { return openPostgresSchema(t, dsn) }
	}
	return stores
}

// TestFailureMidSaveKeepsPrevious breaks an import after some rows were
// written, inside the transaction: the previous snapshot must stay in force
// and the error must say what failed.
func TestFailureMidSaveKeepsPrevious(t *testing.T) {
	for name, open := range testStores() {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			good, err := s.SaveSnapshot(ctx, Snapshot{Source: "aws", FetchedAt: day0, Offers: offers(100, []string{"aws"}, 0)})
			if err != nil {
				t.Fatal(err)
			}
			s.afterBatch = func(rows int) error {
				if rows >= 2*batchRows {
					return errors.New("disk on fire")
				}
				return nil
			}
			_, err = s.SaveSnapshot(ctx, Snapshot{Source: "aws", FetchedAt: day0.AddDate(0, 0, 1), Offers: offers(3000, []string{"aws"}, 5)})
			if err == nil || !strings.Contains(err.Error(), "write price history: disk on fire") {
				t.Fatalf("err = %v, want one that says the price history failed", err)
			}
			s.afterBatch = nil
			cur, infos, err := s.CurrentOffers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(cur) != 100 || infos["aws"].ID != good.ID {
				t.Errorf("after a failed import: %d offers, snapshot %+v; want 100 offers of #%d", len(cur), infos["aws"], good.ID)
			}
			var n int
			if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM price_history WHERE snapshot_id <> $1`, good.ID).Scan(&n); err != nil || n != 0 {
				t.Errorf("the failed import left %d price rows (%v)", n, err)
			}
		})
	}
}

// openPostgresSchema opens the store in a fresh schema, dropped at the end.
func openPostgresSchema(t *testing.T, dsn string) *SQL {
	t.Helper()
	admin := openTest(t, dsn)
	schema := fmt.Sprintf("gpupick_it_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := admin.db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.db.Exec("DROP SCHEMA " + schema + " CASCADE") })
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return openTest(t, dsn+sep+"search_path="+schema)
}

const crashEnv = "GPUPICK_STORE_CRASH_DB"

// TestCrashWriterChild is the child of TestKilledWriterLeavesLastCommit: it
// imports into the database named by crashEnv until it is killed, printing
// "batch" after each batch of rows and "commit ID" after each commit.
func TestCrashWriterChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("only run as the child of TestKilledWriterLeavesLastCommit")
	}
	s := openTest(t, path)
	s.afterBatch = func(int) error { fmt.Println("batch"); return nil }
	for i := 0; ; i++ {
		info, err := s.SaveSnapshot(context.Background(), Snapshot{Source: "crash", FetchedAt: day0.AddDate(0, 0, i),
			Offers: offers(4000+i, []string{"aws", "azure"}, float64(i))})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Println("commit", info.ID)
	}
}

// TestKilledWriterLeavesLastCommit kills a writer with SIGKILL in the middle
// of an import and checks that the database is intact and holds a complete,
// committed snapshot: the last one the writer reported, or the one whose
// commit it had not yet reported.
func TestKilledWriterLeavesLastCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriterChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var lastCommit int64
	batchesAfter := 0
	sc := bufio.NewScanner(out)
	deadline := time.Now().Add(60 * time.Second)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "commit "):
			lastCommit, _ = strconv.ParseInt(strings.TrimPrefix(line, "commit "), 10, 64)
			batchesAfter = 0
		case line == "batch":
			batchesAfter++
		case strings.HasPrefix(line, "error"):
			t.Fatalf("child: %s", line)
		}
		// Kill in the middle of the third import, some batches in.
		if lastCommit >= 2 && batchesAfter == 5 || time.Now().After(deadline) {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if lastCommit < 2 {
		t.Fatalf("the child committed %d snapshots before it was killed; want >= 2", lastCommit)
	}

	s := openTest(t, path)
	ctx := context.Background()
	var check string
	if err := s.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	cur, infos, err := s.CurrentOffers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, prov := range []string{"aws", "azure"} {
		info := infos[prov]
		if info.ID != lastCommit && info.ID != lastCommit+1 {
			t.Errorf("%s: current snapshot #%d, want #%d (the last reported commit) or the next", prov, info.ID, lastCommit)
		}
	}
	info := infos["aws"]
	p, err := prepare(Snapshot{Source: "check", Offers: cur})
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != info.Rows || p.checksum != info.Checksum {
		t.Errorf("current offers: %d rows, checksum %s; snapshot #%d says %d rows, %s", len(cur), p.checksum, info.ID, info.Rows, info.Checksum)
	}
	snaps, err := s.Snapshots(ctx)
	if err != nil || len(snaps) == 0 || snaps[len(snaps)-1].ID != info.ID {
		t.Errorf("snapshots end with %+v, want #%d (%v)", snaps[len(snaps)-1], info.ID, err)
	}
	t.Logf("killed after commit #%d; database holds #%d with %d offers", lastCommit, info.ID, info.Rows)
}

// BenchmarkImport100k imports 100,000 offers (150,000 price rows: all
// on-demand, half spot) into a new SQLite database per iteration.
func BenchmarkImport100k(b *testing.B) {
	in := offers(100_000, []string{"aws", "azure", "gcp", "lambda", "coreweave"}, 0)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		s := openTest(b, filepath.Join(b.TempDir(), fmt.Sprintf("bench%d.db", i)))
		b.StartTimer()
		if _, err := s.SaveSnapshot(ctx, Snapshot{Source: "bench", FetchedAt: day0, Offers: in}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImport100kAgain imports the same 100,000 offers into a database
// that already holds them: the daily update.
func BenchmarkImport100kAgain(b *testing.B) {
	in := offers(100_000, []string{"aws", "azure", "gcp", "lambda", "coreweave"}, 0)
	ctx := context.Background()
	s := openTest(b, filepath.Join(b.TempDir(), "bench.db"))
	if _, err := s.SaveSnapshot(ctx, Snapshot{Source: "bench", FetchedAt: day0, Offers: in}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.SaveSnapshot(ctx, Snapshot{Source: "bench", FetchedAt: day0, Offers: in}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistoryYear queries one offer's on-demand history over 365 daily
// snapshots of 200 offers each.
func BenchmarkHistoryYear(b *testing.B) {
	s := openTest(b, filepath.Join(b.TempDir(), "history.db"))
	ctx := context.Background()
	for d := range 365 {
		if _, err := s.SaveSnapshot(ctx, Snapshot{Source: "bench", FetchedAt: day0.AddDate(0, 0, d),
			Offers: offers(200, []string{"aws"}, float64(d)/100)}); err != nil {
			b.Fatal(err)
		}
	}
	q := HistoryQuery{Offer: "aws/gpu-42", Region: "region-0", Mode: catalog.OnDemand,
		From: day0, To: day0.AddDate(1, 0, 0)}
	for b.Loop() {
		pts, err := s.History(ctx, q)
		if err != nil || len(pts) != 365 {
			b.Fatalf("%d points, %v", len(pts), err)
		}
	}
}
