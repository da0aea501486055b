package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gpupick/gpupick/internal/store"
	"github.com/gpupick/gpupick/internal/store/storetest"
)

// TestDatabaseFileIsPrivate: the SQLite file and its -wal and -shm files are
// 0600 whatever the umask, the most permissive one included.
func TestDatabaseFileIsPrivate(t *testing.T) {
	for _, umask := range []int{0, 0o022, 0o277} {
		t.Run(fmt.Sprintf("umask-%04o", umask), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gpupick.db")
			old := syscall.Umask(umask)
			s, err := store.Open(context.Background(), path)
			if err == nil {
				_, err = s.SaveSnapshot(context.Background(), storetest.Snapshot("aws", 0, storetest.Offer("aws", "p5.48xlarge", "us-east-1", 98, 40)))
			}
			syscall.Umask(old)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				st, err := os.Stat(f)
				if err != nil {
					t.Errorf("%s: %v", filepath.Base(f), err)
					continue
				}
				if st.Mode().Perm() != 0o600 {
					t.Errorf("%s has mode %v, want 0600", filepath.Base(f), st.Mode().Perm())
				}
			}
		})
	}
}

// TestPriceOverlayAcrossHandles: the overlay one handle sets is what
// another handle on the same database, and a reopened one, read.
func TestPriceOverlayAcrossHandles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gpupick.db")
	a := openSQLite(t, path).(store.PriceOverlays)
	b := openSQLite(t, path).(store.PriceOverlays)
	set, err := a.PutPriceOverlay(ctx, "rules:\n  - {provider: aws, discount_percent: 30}\n")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := b.PriceOverlayVersion(ctx); err != nil || v != set.Version {
		t.Fatalf("the other handle sees version %d (%v), want %d", v, err, set.Version)
	}
	a.(store.Store).Close()
	b.(store.Store).Close()
	c := openSQLite(t, path).(store.PriceOverlays)
	if got, err := c.PriceOverlay(ctx); err != nil || got != set {
		t.Errorf("after reopening: %+v %v; want %+v", got, err, set)
	}
}

func TestCheckComplete(t *testing.T) {
	page := func(next string) string {
		if next == "" {
			return `{"Items": [], "NextPageLink": null, "Count": 0}`
		}
		return `{"Items": [], "NextPageLink": "https://prices.azure.com/api/retail/prices?$filter=x&` + next + `", "Count": 100}`
	}
	f := func(name, content string) store.ImportFile {
		return store.ImportFile{Name: name, Content: []byte(content)}
	}
	tests := []struct {
		name   string
		format string
		files  []store.ImportFile
		want   string // "" when complete
	}{
		{"csv", "skypilot", []store.ImportFile{f("vms.csv", "a,b\n1,2\n")}, ""},
		{"csv crlf", "gpuhunt", []store.ImportFile{f("l.csv", "a,b\r\n1,2\r\n")}, ""},
		{"csv cut", "skypilot", []store.ImportFile{f("ok.csv", "a\n"), f("vms.csv", "a,b\n1,2\n3,")}, "vms.csv: the last line has no newline"},
		{"azure one page", "azure", []store.ImportFile{f("p.json", page(""))}, ""},
		{"azure two files", "azure", []store.ImportFile{f("p2.json", page("")), f("p1.json", page("$skip=100"))}, ""},
		{"azure pages in one file", "azure", []store.ImportFile{f("p.json", page("$skip=100")+"\n"+page("$skip=200")+page(""))}, ""},
		{"azure last page missing", "azure", []store.ImportFile{f("p1.json", page("$skip=100"))}, "azure: the NextPageLinks make 2 pages, but 1 page is given"},
		{"azure middle page missing", "azure", []store.ImportFile{f("p1.json", page("$skip=100")), f("p3.json", page("$skip=300")), f("p4.json", page(""))},
			"the page at $skip=200 of https://prices.azure.com/api/retail/prices?$filter=x is missing"},
		{"azure two listings", "azure", []store.ImportFile{f("a.json", page("$skip=100")+page("")),
			f("b.json", strings.Replace(page("$skip=100"), "filter=x", "filter=y", 1)+page(""))}, ""},
		{"azure not json", "azure", []store.ImportFile{f("p.json", "{")}, ""},
		{"gcp", "gcp", []store.ImportFile{f("1.json", `{"skus": [], "nextPageToken": "P2"}`), f("2.json", `{"skus": [], "nextPageToken": ""}`)}, ""},
		{"gcp last page missing", "gcp", []store.ImportFile{f("1.json", `{"skus": [], "nextPageToken": "P2"}`)}, "gcp: the nextPageTokens make 2 pages, but 1 page is given: the last page (without nextPageToken) is missing"},
		{"aws", "aws", []store.ImportFile{f("index.json", `{"products": {}`)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := store.CheckComplete(tt.format, tt.files)
			if tt.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, store.ErrTruncated) {
				t.Errorf("err = %v, want one with %q wrapping ErrTruncated", err, tt.want)
			}
		})
	}
}
