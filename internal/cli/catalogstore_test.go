package cli

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// storeState reads what a database holds: its snapshots and offers in force.
func storeState(t *testing.T, db string) ([]store.SnapshotInfo, []*catalog.Offer) {
	t.Helper()
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snaps, err := s.Snapshots(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	offers, _, err := s.CurrentOffers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return snaps, offers
}

func pricesOf(offers []*catalog.Offer) map[string]catalog.Prices {
	out := map[string]catalog.Prices{}
	for _, o := range offers {
		out[o.Key()] = o.ListPrices
	}
	return out
}

// TestImportPagesOneSnapshot: the two pages of one Azure listing are one
// snapshot, with the prices of both pages in force (an offer priced on-demand
// on page 1 and spot on page 2 has both); one page alone is refused as cut
// short unless --allow-shrink.
func TestImportPagesOneSnapshot(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gpupick.db")
	p1, p2 := "testdata/store/azure-page1.json", "testdata/store/azure-page2.json"
	out, errOut, code := runAt(t, day1, db, "catalog", "import", "--format", "azure", "--as-of", "2026-11-28", p1, p2)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := p1 + ", " + p2 + ": 3 offers of azure saved as snapshot #1 (2026-11-28)\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	snaps, offers := storeState(t, db)
	if len(snaps) != 1 {
		t.Errorf("%d snapshots, want 1", len(snaps))
	}
	want := map[string]catalog.Prices{
		"azure/Standard_ND96isr_H100_v5@eastus":     {catalog.OnDemand: 98.32, catalog.Spot: 39.33},
		"azure/Standard_NC24ads_A100_v4@eastus":     {catalog.OnDemand: 3.673, catalog.Spot: 0.444433},
		"azure/Standard_NC40ads_H100_v5@westeurope": {catalog.OnDemand: 6.98},
	}
	if d := cmp.Diff(want, pricesOf(offers)); d != "" {
		t.Errorf("prices in force (-want +got):\n%s", d)
	}

	// Page 1 alone: its NextPageLink names a page that is not there.
	db2 := filepath.Join(t.TempDir(), "gpupick.db")
	_, errOut, code = runAt(t, day1, db2, "catalog", "import", "--format", "azure", "--as-of", "2026-11-28", p1)
	if code != 2 || !strings.Contains(errOut, "the last page (without NextPageLink) is missing") || !strings.Contains(errOut, "--allow-shrink") {
		t.Errorf("page 1 alone: exit %d, %s", code, errOut)
	}
	if _, _, code := runAt(t, day1, db2, "catalog", "import", "--format", "azure", "--as-of", "2026-11-28", "--allow-shrink", p1); code != 0 {
		t.Errorf("page 1 alone with --allow-shrink: exit %d", code)
	}
}

// TestImportKeepsAbsentModes: an on-demand-only price list keeps the spot
// prices in force of the offers it lists, says so, and keeps them out of
// the history; --replace-modes drops them.
func TestImportKeepsAbsentModes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gpupick.db")
	imp := func(args ...string) (string, string) {
		t.Helper()
		out, errOut, code := runAt(t, fixedNow, db, append([]string{"catalog", "import", "--format", "skypilot", "--provider", "aws"}, args...)...)
		if code != 0 {
			t.Fatalf("import %v: exit %d: %s", args, code, errOut)
		}
		return out, errOut
	}
	imp("--as-of", "2026-11-27", "testdata/store/aws-day1.csv")
	out, _ := imp("--as-of", "2026-11-28", "testdata/store/aws-ondemand.csv")
	if want := "testdata/store/aws-ondemand.csv: kept spot prices of 2 offers from snapshot #1 (the import has no spot price)\n"; !strings.HasSuffix(out, want) {
		t.Errorf("output %q, want it to end with %q", out, want)
	}
	_, offers := storeState(t, db)
	want := map[string]catalog.Prices{
		"aws/p5.48xlarge@us-east-1":    {catalog.OnDemand: 88.49, catalog.Spot: 40},
		"aws/p5.48xlarge@eu-central-1": {catalog.OnDemand: 110},
		"aws/g5.xlarge@us-east-1":      {catalog.OnDemand: 1.006, catalog.Spot: 0.4},
	}
	if d := cmp.Diff(want, pricesOf(offers)); d != "" {
		t.Errorf("prices in force (-want +got):\n%s", d)
	}
	hist, errOut, code := runAt(t, fixedNow, db, "catalog", "history", "aws/p5.48xlarge@us-east-1", "--mode", "spot", "-o", "json")
	var h struct{ Points []store.PricePoint }
	if err := json.Unmarshal([]byte(hist), &h); code != 0 || err != nil || len(h.Points) != 1 || h.Points[0].SnapshotID != 1 {
		t.Errorf("spot history: exit %d %s %v: %s", code, errOut, err, hist)
	}
	// Commands reading the store show the kept price with its date.
	offersOut, _, _ := runAt(t, fixedNow, db, "offers", "--gpu", "h100-sxm", "--region", "us-east-1", "-o", "json")
	if !strings.Contains(offersOut, `"spot": 40`) || !strings.Contains(offersOut, "spot price as of 2026-11-27, kept from an earlier import") {
		t.Errorf("offers do not show the kept spot price and its date:\n%s", offersOut)
	}
	imp("--as-of", "2026-11-29", "--replace-modes", "testdata/store/aws-ondemand.csv")
	_, offers = storeState(t, db)
	if p := pricesOf(offers)["aws/p5.48xlarge@us-east-1"]; p[catalog.Spot] != 0 {
		t.Errorf("--replace-modes kept spot: %v", p)
	}
}

// TestImportRefusesCutFiles: a SkyPilot CSV cut mid-row (no final newline),
// or one with fewer than half the offers in force, is refused with exit 2
// and the store unchanged; --allow-shrink imports it.
func TestImportRefusesCutFiles(t *testing.T) {
	for _, tt := range []struct{ file, why string }{
		{"aws-cut.csv", "aws-cut.csv: the last line has no newline: the price list looks cut short; give --allow-shrink"},
		{"aws-one.csv", "aws: 1 offers, fewer than half the 3 of snapshot #2 in force: the price list looks cut short; give --allow-shrink"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			db := importDays(t)
			args := []string{"catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", "2026-11-29", "testdata/store/" + tt.file}
			_, errOut, code := runAt(t, fixedNow, db, args...)
			if code != 2 || !strings.Contains(errOut, tt.why) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errOut, tt.why)
			}
			if snaps, _ := storeState(t, db); len(snaps) != 2 {
				t.Errorf("a refused import left %d snapshots", len(snaps))
			}
			out, errOut, code := runAt(t, fixedNow, db, append(args, "--allow-shrink")...)
			if code != 0 || !strings.Contains(out, "saved as snapshot #3") {
				t.Errorf("with --allow-shrink: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// TestImportAllOrNothing: when one file cannot be read, the others are not
// imported either.
func TestImportAllOrNothing(t *testing.T) {
	db := importDays(t)
	_, errOut, code := runAt(t, fixedNow, db, "catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", "2026-11-29",
		"testdata/store/aws-day1.csv", "testdata/store/aws-bad.csv")
	if code != 2 || !strings.Contains(errOut, "1 of 2 files could not be read (see above); nothing was imported") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if snaps, _ := storeState(t, db); len(snaps) != 2 {
		t.Errorf("%d snapshots after a failed import, want the 2 before", len(snaps))
	}
}

// killEnv names, in the child of TestImportKilledMidway, the database, the
// row count at which to stop ("stall") or only report, and the files.
const killEnv = "GPUPICK_TEST_IMPORT_KILL"

// TestImportKilledChild is the child of TestImportKilledMidway: it runs
// catalog import on the files named by killEnv, printing "rows N" after
// each batch of price rows and, in stall mode, hanging inside the
// transaction once N reaches the given count, until it is killed.
func TestImportKilledChild(t *testing.T) {
	spec := os.Getenv(killEnv)
	if spec == "" {
		t.Skip("only run as the child of TestImportKilledMidway")
	}
	parts := strings.Split(spec, "|") // db|mode|stop|files...
	stop, _ := strconv.Atoi(parts[2])
	testStoreOptions = []store.Option{store.WithBatchHook(func(rows int) error {
		fmt.Printf("rows %d\n", rows)
		if parts[1] == "stall" && rows >= stop {
			fmt.Println("stalled")
			time.Sleep(time.Hour)
		}
		return nil
	})}
	args := append([]string{"catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", "2026-11-29"}, parts[3:]...)
	out, errOut, code := runAt(t, fixedNow, parts[0], args...)
	fmt.Printf("exit %d\n%s%s", code, out, errOut)
	os.Exit(0)
}

// TestImportKilledMidway kills (SIGKILL) a two-file import of one provider
// in a child process, half-way through writing it, and checks that the
// store holds either the snapshot before or the whole new one, never the
// first file alone: once while the import hangs inside its transaction
// (the snapshot before, surely), once while it runs on (either).
func TestImportKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	const perFile = 1500 // two price rows each: 12 batches of 250 per file
	var files []string
	for f := range 2 {
		var b strings.Builder
		b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n")
		for i := range perFile {
			fmt.Fprintf(&b, "p5.x%d,H100,8.0,192.0,2048.0,,%.2f,%.2f,us-east-1,use1-az1\n", f*perFile+i, 50+float64(i%100)/10, 20+float64(i%100)/10)
		}
		name := filepath.Join(dir, fmt.Sprintf("part%d.csv", f+1))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	for _, mode := range []string{"stall", "run"} {
		t.Run(mode, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "gpupick.db")
			if _, errOut, code := runAt(t, fixedNow, db, "catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", "2026-11-28", "testdata/store/aws-day1.csv"); code != 0 {
				t.Fatalf("first import: %s", errOut)
			}
			_, before := storeState(t, db)
			// Half-way through the second file's rows: saved a snapshot per
			// file, the first file alone would be committed by then.
			stop := 3 * perFile
			cmd := exec.Command(os.Args[0], "-test.run=^TestImportKilledChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), killEnv+"="+strings.Join(append([]string{db, mode, strconv.Itoa(stop)}, files...), "|"))
			cmd.Stderr = os.Stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			sc := bufio.NewScanner(stdout)
			killed, deadline := false, time.Now().Add(60*time.Second)
			for !killed && sc.Scan() && time.Now().Before(deadline) {
				line := sc.Text()
				rows, isRows := strings.CutPrefix(line, "rows ")
				n, _ := strconv.Atoi(rows)
				if mode == "stall" && line == "stalled" || mode == "run" && isRows && n >= stop {
					killed = cmd.Process.Signal(syscall.SIGKILL) == nil
				}
				if strings.HasPrefix(line, "exit ") {
					t.Logf("the child finished before it was killed: %s", line)
					break
				}
			}
			cmd.Wait()
			if mode == "stall" && !killed {
				t.Fatal("the child never stalled")
			}

			raw, err := sql.Open("sqlite", db)
			if err != nil {
				t.Fatal(err)
			}
			var check string
			if err := raw.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
				t.Errorf("integrity_check = %q, %v", check, err)
			}
			raw.Close()
			snaps, after := storeState(t, db)
			switch {
			case len(snaps) == 1 && cmp.Equal(pricesOf(before), pricesOf(after)):
				t.Logf("killed: the snapshot before is in force")
			case len(snaps) == 2 && len(after) == 2*perFile && snaps[1].Rows == 2*perFile && mode == "run":
				t.Logf("killed after the commit: the whole new snapshot is in force")
			default:
				t.Errorf("after the kill: %d snapshots, %d offers in force; want the 3 offers before or all %d", len(snaps), len(after), 2*perFile)
			}
		})
	}
}

// TestImportOneRegionKeepsTheOthers: an import limited with --region
// replaces that region's prices and keeps the provider's other regions.
func TestImportOneRegionKeepsTheOthers(t *testing.T) {
	db := importDays(t)
	_, errOut, code := runAt(t, day1.AddDate(0, 0, 5), db, "catalog", "import", "--format", "skypilot", "--provider", "aws",
		"--as-of", day1.AddDate(0, 0, 5).Format(time.DateOnly), "--region", "us-east-1", "--allow-shrink", "testdata/store/aws-day1.csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The store's offers in force, not the catalog layered under them.
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	offers, _, err := st.CurrentOffers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	regions := map[string]bool{}
	for _, o := range offers {
		regions[o.Region] = true
	}
	if !regions["eu-central-1"] || !regions["us-east-1"] {
		t.Errorf("after a us-east-1 import the store holds the regions %v", regions)
	}
}
