package cli

import "testing"

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
