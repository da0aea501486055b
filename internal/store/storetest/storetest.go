// Package storetest is the conformance suite every store.Store must pass,
// and the fixtures it uses. The SQLite store runs it always; the PostgreSQL
// store runs it when GPUPICK_TEST_POSTGRES names a database.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/store"
)

// Day0 is the FetchedAt of the first fixture snapshot.
var Day0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Offer returns a fixture offer with an on-demand and, when spot > 0, a spot
// list price in USD per instance-hour.
func Offer(provider, instance, region string, onDemand, spot float64) *catalog.Offer {
	o := &catalog.Offer{Provider: provider, InstanceType: instance, Region: region, GPU: "h100-sxm", GPUCount: 8,
		VCPUs: 192, RAMGiB: 2048, Currency: "USD", Confidential: catalog.Yes,
		Fact: catalog.Fact{Source: "https://example.com/" + provider, AsOf: Day0}}
	o.ListPrices[catalog.OnDemand], o.ListPrices[catalog.Spot] = onDemand, spot
	o.LocalPrices = o.ListPrices
	o.YourPrices = o.ListPrices
	return o
}

// Snapshot returns a fixture snapshot of the given offers, fetched on day
// days after Day0.
func Snapshot(source string, day int, offers ...*catalog.Offer) store.Snapshot {
	return store.Snapshot{Source: source, URL: "https://example.com/" + source,
		FetchedAt: Day0.AddDate(0, 0, day), Offers: offers}
}

// RunConformance runs the suite; open must return a new, empty store, and is
// responsible for closing it at the end of the test.
func RunConformance(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Empty", testEmpty},
		{"SaveAndRead", testSaveAndRead},
		{"PerProviderReplacement", testPerProvider},
		{"RefusedSnapshotKeepsPrevious", testRefused},
		{"CancelledSaveKeepsPrevious", testCancelled},
		{"HistoryOrder", testHistory},
		{"InForceByPriceDate", testInForceByPriceDate},
		{"DiffPercentages", testDiff},
		{"Workloads", func(t *testing.T, s store.Store) {
			testDocuments(t, s.SaveWorkload, s.GetWorkload, s.ListWorkloads, s.DeleteWorkload)
		}},
		{"Reports", func(t *testing.T, s store.Store) {
			testDocuments(t, s.SaveReport, s.GetReport, s.ListReports, s.DeleteReport)
		}},
		{"WorkloadsAndReportsApart", testDocumentsApart},
		{"Jobs", testJobs},
		{"AbsentModesKept", testAbsentModesKept},
		{"SpotOnlyKeepsOnDemand", testSpotOnlyKeepsOnDemand},
		{"ShrinkRefused", testShrinkRefused},
		{"SaveSnapshotsAllOrNothing", testSaveSnapshotsAllOrNothing},
		{"Tokens", testTokens},
		{"PriceOverlay", testPriceOverlay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

// must pairs a result with its error; of fails the test on the error.
func must[T any](v T, err error) checked[T] { return checked[T]{v, err} }

type checked[T any] struct {
	v   T
	err error
}

func (c checked[T]) of(t *testing.T) T {
	t.Helper()
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.v
}

func wantCode(t *testing.T, err error, code apperr.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := apperr.CodeOf(err); got != code {
		t.Fatalf("got %s error %v, want %s", got, err, code)
	}
}

func keys(offers []*catalog.Offer) []string {
	out := make([]string, len(offers))
	for i, o := range offers {
		out[i] = o.Key()
	}
	return out
}

func testEmpty(t *testing.T, s store.Store) {
	ctx := context.Background()
	offers, infos, err := s.CurrentOffers(ctx)
	if err != nil || len(offers) != 0 || len(infos) != 0 {
		t.Fatalf("empty store: %d offers, %d snapshots, %v", len(offers), len(infos), err)
	}
	if snaps := must(s.Snapshots(ctx)).of(t); len(snaps) != 0 {
		t.Fatalf("empty store lists %d snapshots", len(snaps))
	}
	_, err = s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge", Mode: catalog.OnDemand})
	wantCode(t, err, apperr.NotFound)
	_, err = s.Diff(ctx, 1, 2)
	wantCode(t, err, apperr.NotFound)
}

func testSaveAndRead(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := Offer("aws", "p5.48xlarge", "us-east-1", 98.32, 40.1)
	in.Notes, in.Driver, in.FabricKind, in.FabricGbps = "note", "550", "efa", 3200
	in.Currency, in.LocalPrices[catalog.OnDemand] = "EUR", 90
	info := must(s.SaveSnapshot(ctx, Snapshot("aws", 0, in, Offer("aws", "p4d.24xlarge", "us-east-1", 32.77, 0)))).of(t)
	if info.ID == 0 || info.Rows != 2 || info.Source != "aws" || !info.FetchedAt.Equal(Day0) ||
		len(info.Checksum) != len("sha256:")+64 || fmt.Sprint(info.Providers) != "[aws]" {
		t.Fatalf("info = %+v", info)
	}
	offers, infos := must2(t, s.CurrentOffers)
	if d := cmp.Diff([]string{"aws/p4d.24xlarge@us-east-1", "aws/p5.48xlarge@us-east-1"}, keys(offers)); d != "" {
		t.Fatal(d)
	}
	if d := cmp.Diff(in, offers[1], cmpopts.IgnoreUnexported(catalog.Offer{})); d != "" {
		t.Errorf("offer after a round trip (-in +out):\n%s", d)
	}
	if d := cmp.Diff(map[string]store.SnapshotInfo{"aws": info}, infos); d != "" {
		t.Errorf("snapshot per provider:\n%s", d)
	}
	// The same data again has the same checksum.
	again := must(s.SaveSnapshot(ctx, Snapshot("aws", 0, in, Offer("aws", "p4d.24xlarge", "us-east-1", 32.77, 0)))).of(t)
	if again.Checksum != info.Checksum || again.ID <= info.ID {
		t.Errorf("second import: %+v, first %+v", again, info)
	}
	if snaps := must(s.Snapshots(ctx)).of(t); len(snaps) != 2 || snaps[0].ID != info.ID || snaps[1].ID != again.ID {
		t.Errorf("snapshots = %+v", snaps)
	}
}

func must2(t *testing.T, f func(context.Context) ([]*catalog.Offer, map[string]store.SnapshotInfo, error)) ([]*catalog.Offer, map[string]store.SnapshotInfo) {
	t.Helper()
	o, i, err := f(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return o, i
}

func testPerProvider(t *testing.T, s store.Store) {
	ctx := context.Background()
	multi := Snapshot("skypilot", 0,
		Offer("aws", "p5.48xlarge", "us-east-1", 98, 40),
		Offer("aws", "p4d.24xlarge", "us-east-1", 32, 0),
		Offer("azure", "ND96isr_H100_v5", "eastus", 98, 0))
	first := must(s.SaveSnapshot(ctx, multi)).of(t)
	if fmt.Sprint(first.Providers) != "[aws azure]" {
		t.Fatalf("providers = %v", first.Providers)
	}
	// A later aws import replaces aws only: p4d disappears, azure stays.
	second := must(s.SaveSnapshot(ctx, Snapshot("aws", 1, Offer("aws", "p5.48xlarge", "us-east-1", 90, 35)))).of(t)
	offers, infos := must2(t, s.CurrentOffers)
	if d := cmp.Diff([]string{"aws/p5.48xlarge@us-east-1", "azure/ND96isr_H100_v5@eastus"}, keys(offers)); d != "" {
		t.Fatal(d)
	}
	if infos["aws"].ID != second.ID || infos["azure"].ID != first.ID {
		t.Errorf("per provider: aws #%d, azure #%d; want #%d and #%d", infos["aws"].ID, infos["azure"].ID, second.ID, first.ID)
	}
	if offers[0].ListPrices[catalog.OnDemand] != 90 {
		t.Errorf("aws price = %v, want the new 90", offers[0].ListPrices)
	}
	// A snapshot that names a provider but has none of its offers is refused.
	bad := Snapshot("azure", 2, Offer("aws", "p5.48xlarge", "us-east-1", 1, 0))
	bad.Providers = []string{"aws", "azure"}
	_, err := s.SaveSnapshot(ctx, bad)
	wantCode(t, err, apperr.Invalid)
	if after, _ := must2(t, s.CurrentOffers); len(after) != 2 {
		t.Errorf("a refused snapshot changed the offers: %v", keys(after))
	}
}

func testRefused(t *testing.T, s store.Store) {
	ctx := context.Background()
	good := must(s.SaveSnapshot(ctx, Snapshot("aws", 0, Offer("aws", "p5.48xlarge", "us-east-1", 98, 40)))).of(t)
	for name, snap := range map[string]store.Snapshot{
		"empty":     Snapshot("aws", 1),
		"no source": Snapshot("", 1, Offer("aws", "a", "r", 1, 0)),
		"duplicate": Snapshot("aws", 1, Offer("aws", "a", "r", 1, 0), Offer("aws", "a", "r", 2, 0)),
		"negative":  Snapshot("aws", 1, Offer("aws", "a", "r", -1, 0)),
		"nan":       Snapshot("aws", 1, Offer("aws", "a", "r", math.NaN(), 0)),
		"no region": Snapshot("aws", 1, Offer("aws", "a", "", 1, 0)),
	} {
		_, err := s.SaveSnapshot(ctx, snap)
		if apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("%s: got %v, want an invalid error", name, err)
		}
	}
	offers, infos := must2(t, s.CurrentOffers)
	if len(offers) != 1 || infos["aws"].ID != good.ID {
		t.Errorf("after refused imports: %v, %+v", keys(offers), infos)
	}
	if snaps := must(s.Snapshots(ctx)).of(t); len(snaps) != 1 {
		t.Errorf("refused imports left snapshots: %+v", snaps)
	}
}

func testCancelled(t *testing.T, s store.Store) {
	good := must(s.SaveSnapshot(context.Background(), Snapshot("aws", 0, Offer("aws", "p5.48xlarge", "us-east-1", 98, 40)))).of(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var many []*catalog.Offer
	for i := range 2000 {
		many = append(many, Offer("aws", fmt.Sprintf("x%d", i), "us-east-1", 1, 0))
	}
	if _, err := s.SaveSnapshot(ctx, Snapshot("aws", 1, many...)); err == nil {
		t.Fatal("a save with a cancelled context succeeded")
	}
	offers, infos := must2(t, s.CurrentOffers)
	if len(offers) != 1 || infos["aws"].ID != good.ID {
		t.Errorf("after a cancelled import: %d offers, %+v", len(offers), infos)
	}
}

// testInForceByPriceDate: the snapshot in force is the one with the newest
// prices, not the last import: an older price list joins the history, says
// it was superseded, and leaves the current offers and the catalog alone.
func testInForceByPriceDate(t *testing.T, s store.Store) {
	ctx := context.Background()
	newer := must(s.SaveSnapshot(ctx, Snapshot("aws", 9, Offer("aws", "p5.48xlarge", "us-east-1", 90, 0)))).of(t)
	older := must(s.SaveSnapshot(ctx, store.Snapshot{Source: "aws", FetchedAt: Day0.AddDate(0, 0, 7),
		Offers: []*catalog.Offer{Offer("aws", "p5.48xlarge", "us-east-1", 70, 0), Offer("gcp", "a3-highgpu-8g", "us-central1", 60, 0)}})).of(t)
	if len(older.Superseded) != 1 || older.Superseded[0].Provider != "aws" || older.Superseded[0].InForce != newer.ID ||
		!older.Superseded[0].InForceAsOf.Equal(newer.FetchedAt) {
		t.Errorf("an older import's superseded = %+v, want aws in force at #%d", older.Superseded, newer.ID)
	}
	offers, infos := must2(t, s.CurrentOffers)
	var awsPrice float64
	for _, o := range offers {
		if o.Provider == "aws" {
			awsPrice, _ = o.ListPrices.Get(catalog.OnDemand)
		}
	}
	// gcp had nothing in force: the import is its snapshot in force.
	if awsPrice != 90 || infos["aws"].ID != newer.ID || infos["gcp"].ID != older.ID || len(offers) != 2 {
		t.Errorf("in force after an older import: aws %.0f from #%d, gcp #%d, %d offers; want 90 from #%d, gcp #%d",
			awsPrice, infos["aws"].ID, infos["gcp"].ID, len(offers), newer.ID, older.ID)
	}
	hist := must(s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge@us-east-1", Mode: catalog.OnDemand})).of(t)
	if len(hist) != 2 || hist[0].USDPerHour != 70 || hist[1].USDPerHour != 90 {
		t.Errorf("history = %+v, want 70 then 90", hist)
	}
	newest := must(s.SaveSnapshot(ctx, Snapshot("aws", 10, Offer("aws", "p5.48xlarge", "us-east-1", 100, 0)))).of(t)
	if _, infos := must2(t, s.CurrentOffers); infos["aws"].ID != newest.ID || len(newest.Superseded) != 0 {
		t.Errorf("a newer import is not in force: %+v, superseded %+v", infos["aws"], newest.Superseded)
	}
}

func testHistory(t *testing.T, s store.Store) {
	ctx := context.Background()
	// Imported out of order of FetchedAt on purpose; two regions.
	for _, day := range []int{2, 0, 1, 3} {
		must(s.SaveSnapshot(ctx, Snapshot("aws", day,
			Offer("aws", "p5.48xlarge", "us-east-1", 100+float64(day), 0),
			Offer("aws", "p5.48xlarge", "us-west-2", 200+float64(day), 50)))).of(t)
	}
	got := must(s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge@us-east-1", Mode: catalog.OnDemand})).of(t)
	var prices []float64
	for i, p := range got {
		prices = append(prices, p.USDPerHour)
		if p.Region != "us-east-1" || !p.At.Equal(Day0.AddDate(0, 0, i)) {
			t.Errorf("point %d = %+v", i, p)
		}
	}
	if d := cmp.Diff([]float64{100, 101, 102, 103}, prices); d != "" {
		t.Errorf("history:\n%s", d)
	}
	all := must(s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge", Mode: catalog.OnDemand,
		From: Day0.AddDate(0, 0, 1), To: Day0.AddDate(0, 0, 2)})).of(t)
	var regions []string
	for _, p := range all {
		regions = append(regions, fmt.Sprintf("%s %.0f", p.Region, p.USDPerHour))
	}
	if d := cmp.Diff([]string{"us-east-1 101", "us-east-1 102", "us-west-2 201", "us-west-2 202"}, regions); d != "" {
		t.Errorf("all regions, days 1-2:\n%s", d)
	}
	spot := must(s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge", Region: "us-east-1", Mode: catalog.Spot})).of(t)
	if len(spot) != 0 {
		t.Errorf("spot history of an offer without spot prices: %+v", spot)
	}
	_, err := s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge", Region: "eu-west-1", Mode: catalog.OnDemand})
	wantCode(t, err, apperr.NotFound)
}

func testDiff(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := must(s.SaveSnapshot(ctx, Snapshot("skypilot", 0,
		Offer("aws", "p5.48xlarge", "us-east-1", 100, 40),
		Offer("aws", "p4d.24xlarge", "us-east-1", 32, 0),
		Offer("azure", "ND96isr_H100_v5", "eastus", 98, 0)))).of(t)
	b := must(s.SaveSnapshot(ctx, Snapshot("aws", 1,
		Offer("aws", "p5.48xlarge", "us-east-1", 110, 30),
		Offer("aws", "p5e.48xlarge", "us-east-1", 120, 0)))).of(t)
	d := must(s.Diff(ctx, a.ID, b.ID)).of(t)
	want := &store.Diff{From: a, To: b,
		Added:   []string{"aws/p5e.48xlarge@us-east-1"},
		Removed: []string{"aws/p4d.24xlarge@us-east-1"},
		Moved: []store.Move{
			{Key: "aws/p5.48xlarge@us-east-1", Mode: catalog.OnDemand, From: 100, To: 110, Percent: 10},
			{Key: "aws/p5.48xlarge@us-east-1", Mode: catalog.Spot, From: 40, To: 30, Percent: -25},
		}}
	if diff := cmp.Diff(want, d, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-9 })); diff != "" {
		t.Errorf("diff (-want +got):\n%s", diff)
	}
	// Azure is unchanged: it is in both states of the catalog.
	back := must(s.Diff(ctx, b.ID, a.ID)).of(t)
	if len(back.Added) != 1 || back.Added[0] != "aws/p4d.24xlarge@us-east-1" || len(back.Moved) != 2 {
		t.Errorf("reverse diff: %+v", back)
	}
	_, err := s.Diff(ctx, a.ID, b.ID+100)
	wantCode(t, err, apperr.NotFound)
}

func testDocuments(t *testing.T,
	save func(context.Context, store.Document) (store.Document, error),
	get func(context.Context, int64) (store.Document, error),
	list func(context.Context) ([]store.Document, error),
	del func(context.Context, int64) error) {
	ctx := context.Background()
	if l := must(list(ctx)).of(t); len(l) != 0 {
		t.Fatalf("empty list: %+v", l)
	}
	_, err := save(ctx, store.Document{Name: " ", Body: []byte("x")})
	wantCode(t, err, apperr.Invalid)
	a := must(save(ctx, store.Document{Name: "chat", Body: []byte("kind: inference\n")})).of(t)
	b := must(save(ctx, store.Document{Name: "train", Body: nil})).of(t)
	if a.ID == 0 || b.ID == a.ID || a.Created.IsZero() || a.Size != 16 || b.Size != 0 {
		t.Fatalf("saved %+v and %+v", a, b)
	}
	got := must(get(ctx, a.ID)).of(t)
	if got.Name != "chat" || string(got.Body) != "kind: inference\n" || !got.Created.Equal(a.Created) {
		t.Errorf("get = %+v", got)
	}
	a.Name, a.Body = "chat-v2", []byte("kind: inference\nv: 2\n")
	upd := must(save(ctx, a)).of(t)
	if upd.ID != a.ID || !upd.Created.Equal(got.Created) || upd.Size != len(a.Body) {
		t.Errorf("update = %+v", upd)
	}
	l := must(list(ctx)).of(t)
	if len(l) != 2 || l[0].ID != b.ID || l[1].ID != a.ID || l[1].Name != "chat-v2" || l[1].Size != len(a.Body) || l[1].Body != nil {
		t.Errorf("list = %+v", l)
	}
	if err := del(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	_, err = get(ctx, a.ID)
	wantCode(t, err, apperr.NotFound)
	wantCode(t, del(ctx, a.ID), apperr.NotFound)
	_, err = save(ctx, store.Document{ID: a.ID, Name: "gone"})
	wantCode(t, err, apperr.NotFound)
	if l := must(list(ctx)).of(t); len(l) != 1 {
		t.Errorf("after delete: %+v", l)
	}
}

func testDocumentsApart(t *testing.T, s store.Store) {
	ctx := context.Background()
	w := must(s.SaveWorkload(ctx, store.Document{Name: "w", Body: []byte("w")})).of(t)
	_, err := s.GetReport(ctx, w.ID)
	wantCode(t, err, apperr.NotFound)
	wantCode(t, s.DeleteReport(ctx, w.ID), apperr.NotFound)
	if l := must(s.ListReports(ctx)).of(t); len(l) != 0 {
		t.Errorf("reports = %+v", l)
	}
}

func testJobs(t *testing.T, s store.Store) {
	js, ok := s.(store.Jobs)
	if !ok {
		t.Skip("this store keeps no jobs")
	}
	ctx := context.Background()
	if _, err := js.GetJob(ctx, "nope"); apperr.CodeOf(err) != apperr.NotFound {
		t.Errorf("missing job: %v", err)
	}
	wantCode(t, js.RequestCancel(ctx, "nope"), apperr.NotFound)
	wantCode(t, js.PutJob(ctx, " ", []byte("{}")), apperr.Invalid)
	if err := js.PutJob(ctx, "a1", []byte(`{"status":"running"}`)); err != nil {
		t.Fatal(err)
	}
	if err := js.RequestCancel(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	if err := js.PutJob(ctx, "a1", []byte(`{"status":"cancelled"}`)); err != nil {
		t.Fatal(err)
	}
	got, err := js.GetJob(ctx, "a1")
	if err != nil || string(got.State) != `{"status":"cancelled"}` || !got.CancelRequested || got.Updated.IsZero() {
		t.Errorf("after cancel and update: %+v %v", got, err)
	}
	if err := js.PutJob(ctx, "b2", []byte(`{"status":"done"}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := js.GetJob(ctx, "b2"); got.CancelRequested {
		t.Error("a cancel request leaked to another job")
	}
	if n, err := js.PruneJobs(ctx, time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Errorf("prune of nothing old: %d %v", n, err)
	}
	if n, err := js.PruneJobs(ctx, time.Now().Add(time.Hour)); err != nil || n != 2 {
		t.Errorf("prune of everything: %d %v", n, err)
	}
	if _, err := js.GetJob(ctx, "a1"); apperr.CodeOf(err) != apperr.NotFound {
		t.Errorf("pruned job still there: %v", err)
	}
}

func offerOf(t *testing.T, offers []*catalog.Offer, key string) *catalog.Offer {
	t.Helper()
	for _, o := range offers {
		if o.Key() == key {
			return o
		}
	}
	t.Fatalf("no offer %s among %v", key, keys(offers))
	return nil
}

// testAbsentModesKept: an import without any spot price (an on-demand
// price list) keeps the spot prices in force of the offers it lists, and
// says so; history shows only observed prices; ReplaceModes drops them.
func testAbsentModesKept(t *testing.T, s store.Store) {
	ctx := context.Background()
	first := must(s.SaveSnapshot(ctx, Snapshot("skypilot", 0,
		Offer("aws", "p5.48xlarge", "us-east-1", 98, 40),
		Offer("aws", "p4d.24xlarge", "us-east-1", 32, 12),
		Offer("aws", "g5.xlarge", "us-east-1", 1, 0.9), // spot above the new on-demand: not kept
		Offer("aws", "p3.2xlarge", "us-east-1", 3, 1),  // not in the new import: gone
		Offer("azure", "ND96isr_H100_v5", "eastus", 98, 30)))).of(t)
	second := must(s.SaveSnapshot(ctx, Snapshot("aws", 1,
		Offer("aws", "p5.48xlarge", "us-east-1", 90, 0),
		Offer("aws", "p4d.24xlarge", "us-east-1", 30, 0),
		Offer("aws", "g5.xlarge", "us-east-1", 0.8, 0),
		Offer("aws", "p5e.48xlarge", "us-east-1", 120, 0)))).of(t)
	want := []store.Carried{{Provider: "aws", Mode: catalog.Spot, Offers: 2, Skipped: 1, FromSnapshot: first.ID}}
	if d := cmp.Diff(want, second.Carried); d != "" {
		t.Errorf("carried (-want +got):\n%s", d)
	}
	offers, infos := must2(t, s.CurrentOffers)
	if d := cmp.Diff(want, infos["aws"].Carried); d != "" {
		t.Errorf("carried as stored (-want +got):\n%s", d)
	}
	p5 := offerOf(t, offers, "aws/p5.48xlarge@us-east-1")
	if p5.ListPrices[catalog.OnDemand] != 90 || p5.ListPrices[catalog.Spot] != 40 || p5.LocalPrices[catalog.Spot] != 40 {
		t.Errorf("p5 prices %v / %v: want on-demand 90 and the spot 40 kept", p5.ListPrices, p5.LocalPrices)
	}
	if !strings.Contains(p5.Notes, "spot price as of 2026-01-01, kept from an earlier import") {
		t.Errorf("p5 notes %q do not date the kept spot price", p5.Notes)
	}
	if g5 := offerOf(t, offers, "aws/g5.xlarge@us-east-1"); g5.ListPrices[catalog.Spot] != 0 {
		t.Errorf("g5 kept a spot price %v above its new on-demand price", g5.ListPrices)
	}
	if p5e := offerOf(t, offers, "aws/p5e.48xlarge@us-east-1"); p5e.ListPrices[catalog.Spot] != 0 {
		t.Errorf("a new offer got a spot price: %v", p5e.ListPrices)
	}
	if az := offerOf(t, offers, "azure/ND96isr_H100_v5@eastus"); az.ListPrices[catalog.Spot] != 30 {
		t.Errorf("azure changed: %v", az.ListPrices)
	}
	if len(offers) != 5 {
		t.Errorf("offers = %v; want p3 gone", keys(offers))
	}
	// History shows the spot price where it was observed only.
	spot := must(s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge@us-east-1", Mode: catalog.Spot})).of(t)
	if len(spot) != 1 || spot[0].SnapshotID != first.ID {
		t.Errorf("spot history = %+v; want the one observed in #%d", spot, first.ID)
	}
	// The catalog after #2 holds the kept price: no spot move, nothing
	// added or removed but p3 and p5e.
	d := must(s.Diff(ctx, first.ID, second.ID)).of(t)
	if fmt.Sprint(d.Added, d.Removed) != "[aws/p5e.48xlarge@us-east-1] [aws/p3.2xlarge@us-east-1]" || len(d.Moved) != 3 {
		t.Errorf("diff = %+v", d)
	}
	// A third on-demand list keeps the note of the first observation.
	third := must(s.SaveSnapshot(ctx, Snapshot("aws", 2, Offer("aws", "p5.48xlarge", "us-east-1", 89, 0)))).of(t)
	if len(third.Carried) != 1 || third.Carried[0].FromSnapshot != second.ID || third.Carried[0].Offers != 1 {
		t.Errorf("third carried = %+v", third.Carried)
	}
	offers, _ = must2(t, s.CurrentOffers)
	if p5 := offerOf(t, offers, "aws/p5.48xlarge@us-east-1"); p5.ListPrices[catalog.Spot] != 40 ||
		strings.Count(p5.Notes, "spot price as of 2026-01-01") != 1 {
		t.Errorf("after a third import: %v %q", p5.ListPrices, p5.Notes)
	}
	// An import with one spot price carries spot: the others lose theirs.
	mixed := Snapshot("aws", 3, Offer("aws", "p5.48xlarge", "us-east-1", 88, 0), Offer("aws", "p4d.24xlarge", "us-east-1", 29, 10))
	if info := must(s.SaveSnapshot(ctx, mixed)).of(t); info.Carried != nil {
		t.Errorf("an import with spot prices carried %+v", info.Carried)
	}
	offers, _ = must2(t, s.CurrentOffers)
	if p5 := offerOf(t, offers, "aws/p5.48xlarge@us-east-1"); p5.ListPrices[catalog.Spot] != 0 {
		t.Errorf("p5 kept spot %v from an import that has spot prices", p5.ListPrices)
	}
	// ReplaceModes keeps nothing.
	repl := Snapshot("aws", 4, Offer("aws", "p4d.24xlarge", "us-east-1", 28, 0))
	repl.ReplaceModes = true
	if info := must(s.SaveSnapshot(ctx, repl)).of(t); info.Carried != nil {
		t.Errorf("ReplaceModes carried %+v", info.Carried)
	}
	offers, _ = must2(t, s.CurrentOffers)
	if p4 := offerOf(t, offers, "aws/p4d.24xlarge@us-east-1"); p4.ListPrices[catalog.Spot] != 0 {
		t.Errorf("ReplaceModes kept spot: %v", p4.ListPrices)
	}
}

// testSpotOnlyKeepsOnDemand: a spot-only list keeps on-demand prices.
func testSpotOnlyKeepsOnDemand(t *testing.T, s store.Store) {
	ctx := context.Background()
	first := must(s.SaveSnapshot(ctx, Snapshot("aws", 0, Offer("aws", "p5.48xlarge", "us-east-1", 98, 40)))).of(t)
	second := must(s.SaveSnapshot(ctx, Snapshot("aws-spot", 1, Offer("aws", "p5.48xlarge", "us-east-1", 0, 35)))).of(t)
	if len(second.Carried) != 1 || second.Carried[0].Mode != catalog.OnDemand || second.Carried[0].FromSnapshot != first.ID {
		t.Errorf("carried = %+v", second.Carried)
	}
	offers, _ := must2(t, s.CurrentOffers)
	if p := offers[0].ListPrices; p[catalog.OnDemand] != 98 || p[catalog.Spot] != 35 {
		t.Errorf("prices = %v; want on-demand 98 kept and spot 35", p)
	}
}

// testShrinkRefused: with RefuseShrink, a provider that lost more than half
// its offers is refused and nothing changes; without, it is saved.
func testShrinkRefused(t *testing.T, s store.Store) {
	ctx := context.Background()
	var four []*catalog.Offer
	for i := range 4 {
		four = append(four, Offer("aws", fmt.Sprintf("p%d", i), "us-east-1", 10, 0))
	}
	good := must(s.SaveSnapshot(ctx, Snapshot("aws", 0, four...))).of(t)
	one := Snapshot("aws", 1, four[:1]...)
	one.RefuseShrink = true
	_, err := s.SaveSnapshot(ctx, one)
	wantCode(t, err, apperr.Invalid)
	if !errors.Is(err, store.ErrTruncated) || !strings.Contains(err.Error(), fmt.Sprintf("aws: 1 offers, fewer than half the 4 of snapshot #%d in force", good.ID)) {
		t.Errorf("err = %v", err)
	}
	if snaps := must(s.Snapshots(ctx)).of(t); len(snaps) != 1 || snaps[0].ID != good.ID {
		t.Errorf("a refused shrink left snapshots %+v", snaps)
	}
	half := Snapshot("aws", 2, four[:2]...) // half is not fewer than half
	half.RefuseShrink = true
	must(s.SaveSnapshot(ctx, half)).of(t)
	one.RefuseShrink = false
	must(s.SaveSnapshot(ctx, one)).of(t)
}

// testSaveSnapshotsAllOrNothing: when one snapshot of a batch is refused,
// none is saved.
func testSaveSnapshotsAllOrNothing(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(s.SaveSnapshot(ctx, Snapshot("skypilot", 0, Offer("aws", "a", "r", 1, 0), Offer("aws", "b", "r", 1, 0),
		Offer("aws", "c", "r", 1, 0), Offer("azure", "x", "r", 2, 0)))).of(t)
	az := Snapshot("azure", 1, Offer("azure", "x", "r", 3, 0))
	aws := Snapshot("aws", 1, Offer("aws", "a", "r", 1, 0))
	aws.RefuseShrink = true
	_, err := s.SaveSnapshots(ctx, az, aws)
	wantCode(t, err, apperr.Invalid)
	offers, infos := must2(t, s.CurrentOffers)
	if len(offers) != 4 || infos["azure"].ID != 1 || offerOf(t, offers, "azure/x@r").ListPrices[catalog.OnDemand] != 2 {
		t.Errorf("a refused batch changed azure: %v %+v", keys(offers), infos)
	}
	aws.RefuseShrink = false
	infos2 := must(s.SaveSnapshots(ctx, az, aws)).of(t)
	if len(infos2) != 2 || infos2[0].Providers[0] != "azure" || infos2[1].Providers[0] != "aws" || infos2[1].ID <= infos2[0].ID {
		t.Errorf("batch = %+v", infos2)
	}
}

func testTokens(t *testing.T, s store.Store) {
	tk, ok := s.(store.Tokens)
	if !ok {
		t.Skip("this store keeps no tokens")
	}
	ctx := context.Background()
	if l := must(tk.ListTokens(ctx)).of(t); len(l) != 0 {
		t.Fatalf("tokens in a new store: %+v", l)
	}
	a := must(tk.CreateToken(ctx, "ci", "sha256:aa")).of(t)
	b := must(tk.CreateToken(ctx, "laptop", "sha256:bb")).of(t)
	c := must(tk.CreateToken(ctx, "laptop", "sha256:cc")).of(t)
	if ok := must(tk.CheckToken(ctx, "sha256:aa")).of(t); !ok {
		t.Fatal("token aa refused")
	}
	l := must(tk.ListTokens(ctx)).of(t)
	if len(l) != 3 || l[0].ID != a || l[0].Name != "ci" || l[0].Created.IsZero() || l[0].LastUsed.IsZero() || !l[1].LastUsed.IsZero() {
		t.Errorf("list = %+v", l)
	}
	_, err := tk.RevokeToken(ctx, "laptop")
	wantCode(t, err, apperr.Invalid) // two are named laptop
	_, err = tk.RevokeToken(ctx, "desk")
	wantCode(t, err, apperr.NotFound)
	if got := must(tk.RevokeToken(ctx, fmt.Sprintf("#%d", b))).of(t); got.ID != b || got.Name != "laptop" {
		t.Errorf("revoked %+v", got)
	}
	if got := must(tk.RevokeToken(ctx, "laptop")).of(t); got.ID != c {
		t.Errorf("revoked %+v, want #%d", got, c)
	}
	if got := must(tk.RevokeToken(ctx, "ci")).of(t); got.ID != a {
		t.Errorf("revoked %+v, want #%d", got, a)
	}
	for _, h := range []string{"sha256:aa", "sha256:bb", "sha256:cc"} {
		if ok := must(tk.CheckToken(ctx, h)).of(t); ok {
			t.Errorf("revoked token %s still accepted", h)
		}
	}
	if n := must(tk.CountTokens(ctx)).of(t); n != 0 {
		t.Errorf("%d tokens left", n)
	}
}

func testPriceOverlay(t *testing.T, s store.Store) {
	po, ok := s.(store.PriceOverlays)
	if !ok {
		t.Skip("this store keeps no price overlay")
	}
	ctx := context.Background()
	if o := must(po.PriceOverlay(ctx)).of(t); o.Version != 0 || o.Text != "" {
		t.Fatalf("overlay of a new store: %+v", o)
	}
	a := must(po.PutPriceOverlay(ctx, "rules: []\n")).of(t)
	b := must(po.PutPriceOverlay(ctx, "rules:\n  - {provider: aws, discount_percent: 10}\n")).of(t)
	if a.Version != 1 || b.Version != 2 || b.Updated.IsZero() {
		t.Errorf("versions %+v %+v", a, b)
	}
	if got := must(po.PriceOverlay(ctx)).of(t); got != b {
		t.Errorf("overlay = %+v, want %+v", got, b)
	}
	if v := must(po.PriceOverlayVersion(ctx)).of(t); v != 2 {
		t.Errorf("version = %d", v)
	}
	if c := must(po.PutPriceOverlay(ctx, "")).of(t); c.Version != 3 || c.Text != "" {
		t.Errorf("clear = %+v", c)
	}
}
