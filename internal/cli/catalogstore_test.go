package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/store"
)

// runAt executes gpupick on the fixture catalog at a given time, with
// GPUPICK_DB pointing at db.
func runAt(t *testing.T, now time.Time, db string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := NewEnv(&out, &errb)
	e.Now = func() time.Time { return now }
	e.Embedded = os.DirFS("../catalog/testdata/mini")
	e.Getenv = func(k string) string {
		if k == dbEnv {
			return db
		}
		return ""
	}
	code = Execute(e, args)
	return out.String(), errb.String(), code
}

var day1 = time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)

// importDays imports the two fixture days into a new database and returns
// its path.
func importDays(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "gpupick.db")
	for i, f := range []string{"aws-day1.csv", "aws-day2.csv"} {
		out, errOut, code := runAt(t, day1.AddDate(0, 0, i), db, "catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", day1.AddDate(0, 0, i).Format(time.DateOnly), "testdata/store/"+f)
		if code != 0 {
			t.Fatalf("import %s: exit %d\n%s%s", f, code, out, errOut)
		}
		want := "testdata/store/" + f + ": 3 offers of aws saved as snapshot #" + string(rune('1'+i))
		if !strings.HasPrefix(out, want) {
			t.Errorf("import output %q, want it to start with %q", out, want)
		}
	}
	return db
}

func TestCatalogStoreGolden(t *testing.T) {
	db := importDays(t)
	tests := []struct {
		name string
		args []string
	}{
		{"catalog-snapshots.txt", []string{"catalog", "snapshots"}},
		{"catalog-diff.txt", []string{"catalog", "diff"}},
		{"catalog-diff.json", []string{"catalog", "diff", "1", "2", "-o", "json"}},
		{"catalog-diff-dates.txt", []string{"catalog", "diff", "2026-11-28", "2026-11-29"}},
		{"catalog-history.txt", []string{"catalog", "history", "aws/p5.48xlarge"}},
		{"catalog-history-spot.txt", []string{"catalog", "history", "aws/p5.48xlarge@us-east-1", "--mode", "spot"}},
		{"catalog-history.json", []string{"catalog", "history", "aws/p5.48xlarge", "--region", "us-east-1", "-o", "json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runAt(t, fixedNow, db, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

func TestCatalogHistoryChart(t *testing.T) {
	db := importDays(t)
	for _, ext := range []string{"svg", "png"} {
		chart := filepath.Join(t.TempDir(), "h."+ext)
		if _, errOut, code := runAt(t, fixedNow, db, "catalog", "history", "aws/p5.48xlarge", "--chart", chart); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, err := os.ReadFile(chart)
		if err != nil || len(b) < 500 {
			t.Fatalf("%s: %d bytes, %v", chart, len(b), err)
		}
		if ext == "svg" && !bytes.Contains(b, []byte("<svg")) || ext == "png" && !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%s is not a %s file", chart, ext)
		}
	}
}

func TestCatalogStoreErrors(t *testing.T) {
	db := importDays(t)
	missing := filepath.Join(t.TempDir(), "none.db")
	tests := []struct {
		name, db string
		args     []string
		code     int
		stderr   string
	}{
		{"unknown offer", db, []string{"catalog", "history", "aws/p9.huge"}, 2, "aws/p9.huge was never imported"},
		{"bad mode", db, []string{"catalog", "history", "aws/p5.48xlarge", "--mode", "cheap"}, 2, "--mode"},
		{"bad chart", db, []string{"catalog", "history", "aws/p5.48xlarge", "--chart", "x.gif"}, 2, "--chart"},
		{"no snapshot", db, []string{"catalog", "diff", "1", "9"}, 2, "no snapshot #9"},
		{"no database", missing, []string{"catalog", "snapshots"}, 2, "no database at"},
		{"bad format", db, []string{"catalog", "import", "--format", "excel", "x.csv"}, 2, "--format"},
		{"bad file", db, []string{"catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", "2026-01-02", "testdata/store/aws-bad.csv"}, 2, "aws-bad.csv"},
		{"missing file", db, []string{"catalog", "import", "--format", "skypilot", "--provider", "aws", "testdata/store/nope.csv"}, 2, "nope.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runAt(t, fixedNow, tt.db, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a reading command created the database")
	}
	// The failed imports left snapshot #2 in force.
	out, _, _ := runAt(t, fixedNow, db, "catalog", "snapshots", "-o", "json")
	var snaps []SnapshotJSON
	if err := json.Unmarshal([]byte(out), &snaps); err != nil || len(snaps) != 2 || len(snaps[1].CurrentFor) != 1 {
		t.Errorf("after failed imports: %s (%v)", out, err)
	}
}

// TestCatalogUpdateOffline fetches from a closed loopback port: the update
// must fail clearly, with exit 1, and create or change nothing.
func TestCatalogUpdateOffline(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	for _, setup := range []string{"new", "existing"} {
		t.Run(setup, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "gpupick.db")
			var before []byte
			if setup == "existing" {
				db = importDays(t)
				before, _ = os.ReadFile(db)
			}
			_, errOut, code := runAt(t, fixedNow, db, "catalog", "update", "--source", "aws", "--region", "us-east-1",
				"--base-url", closed, "--retries", "-1")
			if code != 1 || !strings.Contains(errOut, "could not fetch aws (no network?); the store was not changed") {
				t.Errorf("exit %d, stderr:\n%s", code, errOut)
			}
			after, err := os.ReadFile(db)
			switch {
			case setup == "new" && err == nil:
				t.Error("an offline update created the database")
			case setup == "existing" && !bytes.Equal(before, after):
				t.Error("an offline update changed the database")
			}
		})
	}
}

func TestStoreLayer(t *testing.T) {
	db := importDays(t)
	var out, errb bytes.Buffer
	e := NewEnv(&out, &errb)
	e.Embedded = os.DirFS("../catalog/testdata/mini")
	e.Getenv = func(k string) string {
		if k == dbEnv {
			return db
		}
		return ""
	}
	layer, line, err := e.storeLayer()
	if err != nil {
		t.Fatal(err)
	}
	if line != "store snapshot 2026-11-29 (aws)" {
		t.Errorf("line = %q", line)
	}
	base, err := catalog.Parse(e.Embedded, true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Build(base, layer)
	if err != nil {
		t.Fatalf("layering the store over the catalog: %v", err)
	}
	var p5 *catalog.Offer
	for _, o := range c.Offers {
		if o.Key() == "aws/p5.48xlarge@us-east-1" {
			p5 = o
		}
	}
	if p5 == nil || p5.ListPrices[catalog.OnDemand] != 88.49 || p5.FabricKind == "" {
		t.Errorf("p5 after layering = %+v; want the store's price 88.49 and the embedded fabric", p5)
	}

	// An offer the catalog cannot resolve is skipped and counted.
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	o := &catalog.Offer{Provider: "nebius", InstanceType: "gpu-h200x8", Region: "eu-north1", GPU: "h200", GPUCount: 8, Currency: "USD"}
	o.ListPrices[catalog.OnDemand], o.LocalPrices[catalog.OnDemand] = 25, 25
	if _, err := s.SaveSnapshot(context.Background(), store.Snapshot{Source: "test", FetchedAt: day1, Offers: []*catalog.Offer{o}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, line, err = e.storeLayer(); err != nil || line != "store snapshots 2026-11-28 to 2026-11-29 (aws, nebius); 1 stored offers skipped (GPU, region or currency unknown to the catalog)" {
		t.Errorf("line = %q, %v", line, err)
	}

	// A provider and region the catalog has no row for are layered with
	// what is known: the offer is there, its country unknown.
	s, err = store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	o = &catalog.Offer{Provider: "cudo", InstanceType: "sapphire-rapids-h100_1x2v4gb", Region: "no-kristiansand-1", GPU: "h100-sxm", GPUCount: 1, Currency: "USD"}
	o.ListPrices[catalog.OnDemand], o.LocalPrices[catalog.OnDemand] = 1.82, 1.82
	if _, err := s.SaveSnapshot(context.Background(), store.Snapshot{Source: "test", FetchedAt: day1.Add(time.Hour), Offers: []*catalog.Offer{o}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if layer, _, err = e.storeLayer(); err != nil {
		t.Fatal(err)
	}
	if c, err = catalog.Build(base, layer); err != nil {
		t.Fatalf("layering a new provider: %v", err)
	}
	found := false
	for _, o := range c.Offers {
		if o.Key() == "cudo/sapphire-rapids-h100_1x2v4gb@no-kristiansand-1" {
			found = o.Country == "" && o.ListPrices[catalog.OnDemand] == 1.82
		}
	}
	if p, ok := c.Provider("cudo"); !found || !ok || p.HQCountry != "" {
		t.Errorf("the cudo offer after layering: found %v, provider %+v", found, p)
	}

	// No database: no layer, no line, no error, and no file created.
	e.Getenv = func(string) string { return filepath.Join(t.TempDir(), "none.db") }
	if layer, line, err := e.storeLayer(); layer != nil || line != "" || err != nil {
		t.Errorf("without a database: %v %q %v", layer, line, err)
	}
}

// TestCommandsReadTheStore: after an import, other commands use the stored
// prices and say which snapshot they used; --db selects the database.
func TestCommandsReadTheStore(t *testing.T) {
	db := importDays(t)
	out, errOut, code := runAt(t, day1, filepath.Join(t.TempDir(), "other.db"), "--db", db, "offers", "--gpu", "h100-sxm", "--region", "us-east-1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "prices from the store snapshot 2026-11-29 (aws)") {
		t.Errorf("the command does not say which snapshot it used: %q", errOut)
	}
	if !strings.Contains(out, `"on-demand": 88.49`) {
		t.Errorf("offers did not use the stored price:\n%s", out)
	}
}
