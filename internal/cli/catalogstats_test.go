package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

func TestCatalogStatsGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"catalog-stats.txt", []string{"catalog", "stats"}},
		{"catalog-stats.json", []string{"catalog", "stats", "-o", "json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// catalogStats decodes the output of `catalog stats -o json`, failing the
// test on a non-zero exit.
func catalogStats(t *testing.T) func(stdout, stderr string, code int) report.CatalogStatsJSON {
	return func(stdout, stderr string, code int) report.CatalogStatsJSON {
		t.Helper()
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var j report.CatalogStatsJSON
		if err := json.Unmarshal([]byte(stdout), &j); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		return j
	}
}

func providerRow(t *testing.T, j report.CatalogStatsJSON, id string) report.ProviderStatsJSON {
	t.Helper()
	for _, p := range j.Providers {
		if p.Provider == id {
			return p
		}
	}
	t.Fatalf("no row for %s in %+v", id, j.Providers)
	return report.ProviderStatsJSON{}
}

// TestCatalogStatsReadsTheLayeredCatalog: the stats cover the catalog the
// other commands read: --catalog rows and the store's prices included.
func TestCatalogStatsReadsTheLayeredCatalog(t *testing.T) {
	base := catalogStats(t)(run(t, "catalog", "stats", "-o", "json"))
	withDir := catalogStats(t)(run(t, "--catalog", "testdata/user-catalog", "catalog", "stats", "-o", "json"))
	if got, want := providerRow(t, withDir, "aws").Rows, providerRow(t, base, "aws").Rows+1; got != want {
		t.Errorf("with --catalog: aws has %d rows, want %d (one more offer in testdata/user-catalog)", got, want)
	}
	if withDir.Total.Rows != base.Total.Rows+1 {
		t.Errorf("with --catalog: total %d rows, want %d", withDir.Total.Rows, base.Total.Rows+1)
	}

	// A store snapshot re-prices aws/p5.48xlarge in us-east-1 with a newer date.
	db := filepath.Join(t.TempDir(), "gpupick.db")
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	asOf := fixedNow.AddDate(0, 0, 1).Truncate(24 * time.Hour)
	o := &catalog.Offer{Provider: "aws", InstanceType: "p5.48xlarge", Region: "us-east-1", GPU: "h100-sxm", GPUCount: 8, Currency: "USD",
		Fact: catalog.Fact{Source: "test snapshot", AsOf: asOf}}
	o.ListPrices[catalog.OnDemand], o.LocalPrices[catalog.OnDemand] = 90, 90
	if _, err := s.SaveSnapshot(context.Background(), store.Snapshot{Source: "test", FetchedAt: fixedNow, Offers: []*catalog.Offer{o}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, errOut, code := runAt(t, fixedNow, db, "catalog", "stats", "-o", "json")
	if !strings.Contains(errOut, "prices from the store snapshot") {
		t.Errorf("stderr does not name the store snapshot: %q", errOut)
	}
	stored := catalogStats(t)(out, errOut, code)
	aws := providerRow(t, stored, "aws")
	if aws.NewestAsOf == nil || *aws.NewestAsOf != asOf.Format("2006-01-02") {
		t.Errorf("aws newest_as_of = %v, want the store's %s", aws.NewestAsOf, asOf.Format("2006-01-02"))
	}
	if aws.Rows != providerRow(t, base, "aws").Rows {
		t.Errorf("the store re-prices an embedded offer: aws rows %d, want %d", aws.Rows, providerRow(t, base, "aws").Rows)
	}
	found := false
	for _, src := range aws.Sources {
		found = found || src == "test snapshot"
	}
	if !found {
		t.Errorf("aws sources %v lack the store's", aws.Sources)
	}
}

func TestCatalogStatsErrors(t *testing.T) {
	for _, tt := range []struct {
		name     string
		args     []string
		contains string
	}{
		{"bad format", []string{"catalog", "stats", "-o", "csv"}, `-o: want table, json, got "csv"`},
		{"unknown flag", []string{"catalog", "stats", "--provider", "aws"}, "unknown flag: --provider"},
		{"extra argument", []string{"catalog", "stats", "aws"}, `unknown command "aws" for "gpupick catalog stats"`},
		{"bad catalog dir", []string{"--catalog", "testdata/bad-catalog", "catalog", "stats"}, "testdata/bad-catalog/offers/aws.csv:2: price_on_demand: must be > 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if !strings.Contains(errOut, tt.contains) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.contains)
			}
			if out != "" {
				t.Errorf("stdout must stay empty on error, got %q", out)
			}
		})
	}
}
