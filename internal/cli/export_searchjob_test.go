package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportSearchJob: the search Job of a small model service, its
// workload carried beside it in the ConfigMap. deploy's tests validate this
// golden file against the Kubernetes schemas and the house rules.
func TestExportSearchJob(t *testing.T) {
	out, errOut, code := run(t, "export", "search-job", "-f", "testdata/service-chat-8b.yaml", "--shards", "3", "--search-id", "golden")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "export-search-job.yaml", out)
}

// TestExportSearchJobToDir: with -o DIR the Job goes into DIR as
// search-job.yaml, the same bytes stdout gets without it.
func TestExportSearchJobToDir(t *testing.T) {
	printed, _, _ := run(t, "export", "search-job", "-f", "testdata/service-chat-8b.yaml", "--shards", "3", "--search-id", "golden")
	dir := t.TempDir()
	out, errOut, code := run(t, "export", "search-job", "-f", "testdata/service-chat-8b.yaml", "--shards", "3", "--search-id", "golden", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "search-job.yaml"))
	if err != nil || string(b) != printed || !strings.Contains(out, "wrote search-job.yaml to "+dir) {
		t.Errorf("written %d bytes (%v), printed %d; stdout %q", len(b), err, len(printed), out)
	}
}
