package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary run gpupick instead of the tests, so that
// a sharded search can be run as separate processes without a go build.
const childEnv = "GPUPICK_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		e := NewEnv(os.Stdout, os.Stderr)
		e.Now = func() time.Time { return fixedNow }
		os.Exit(Execute(e, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// gpupickProc runs gpupick as a child process with the store dsn and
// extra environment, and returns its stdout, stderr and exit code.
func gpupickProc(t *testing.T, dsn string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append([]string{childEnv + "=1", "GPUPICK_DB=" + dsn, "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// searchDSNs are the stores the sharded search is tested on: a SQLite file
// always, PostgreSQL when GPUPICK_TEST_POSTGRES names one (.ci/run starts
// it). Each test uses its own search id, so a shared PostgreSQL is fine.
func searchDSNs(t *testing.T) map[string]string {
	out := map[string]string{"sqlite": filepath.Join(t.TempDir(), "search.db")}
	if pg := os.Getenv("GPUPICK_TEST_POSTGRES"); pg != "" {
		out["postgres"] = pg
	}
	return out
}

// TestShardedSearch runs the policy search of a short model service over
// four offers as one process, then as two shards in two processes (run in
// parallel), and merges them: the same table and the same winner. A shard
// stopped after one unit and run again finishes the rest; a shard that
// never ran makes the merge fail, naming it.
func TestShardedSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gpupick processes")
	}
	const svc = "testdata/service-model-short.yaml"
	search := []string{"simulate", "-f", svc, "--search", "--offers", "3"}
	for name, dsn := range searchDSNs(t) {
		t.Run(name, func(t *testing.T) {
			want, errOut, code := gpupickProc(t, dsn, nil, search...)
			if code != 0 {
				t.Fatalf("single process: exit %d: %s", code, errOut)
			}
			if !strings.Contains(errOut, "search estimate: ") {
				t.Errorf("no estimate on stderr: %s", errOut)
			}
			id := "test-" + name + "-" + strings.ReplaceAll(t.Name(), "/", "-") + time.Now().Format("150405.000000000")
			sharded := func(shard string, env ...string) (string, string, int) {
				return gpupickProc(t, dsn, env, append(search, "--shards", "2", "--shard", shard, "--search-id", id)...)
			}
			// Shard 0 alone: the merge names shard 1.
			if _, errOut, code := sharded("0"); code != 0 {
				t.Fatalf("shard 0: exit %d: %s", code, errOut)
			}
			_, errOut, code = gpupickProc(t, dsn, nil, "simulate", "--search-results", id)
			if code == 0 || !strings.Contains(errOut, "incomplete: 1 of 2 shard(s) not done: shard 1 (never started)") {
				t.Fatalf("merge without shard 1: exit %d: %s", code, errOut)
			}
			// Shard 1, from JOB_COMPLETION_INDEX, stopped after one unit.
			index := []string{"JOB_COMPLETION_INDEX=1", stopAfterEnv + "=1"}
			_, errOut, code = gpupickProc(t, dsn, index, append(search, "--shards", "2", "--search-id", id)...)
			if code == 0 || !strings.Contains(errOut, "stopped after 1 unit") {
				t.Fatalf("stopped shard 1: exit %d: %s", code, errOut)
			}
			_, errOut, code = gpupickProc(t, dsn, nil, "simulate", "--search-results", id)
			if code == 0 || !strings.Contains(errOut, "shard 1 (started, not finished)") {
				t.Fatalf("merge with shard 1 stopped: exit %d: %s", code, errOut)
			}
			out, errOut, code := gpupickProc(t, dsn, index[:1], append(search, "--shards", "2", "--search-id", id)...)
			if code != 0 || !strings.Contains(out, "1 candidate(s) searched") || !strings.Contains(out, "1 already stored") {
				t.Fatalf("shard 1 rerun: exit %d: %s%s", code, out, errOut)
			}
			// Done shards are not redone.
			if out, errOut, code := sharded("0"); code != 0 || !strings.Contains(out, "nothing to do") {
				t.Fatalf("shard 0 rerun: exit %d: %s%s", code, out, errOut)
			}
			got, errOut, code := gpupickProc(t, dsn, nil, "simulate", "--search-results", id)
			if code != 0 {
				t.Fatalf("merge: exit %d: %s", code, errOut)
			}
			if got != want {
				t.Errorf("merged search differs from the single-process one\n--- merged ---\n%s\n--- single ---\n%s", got, want)
			}
			wantJSON, _, _ := gpupickProc(t, dsn, nil, append(search, "-o", "json")...)
			gotJSON, _, _ := gpupickProc(t, dsn, nil, "simulate", "--search-results", id, "-o", "json")
			if gotJSON != wantJSON || !strings.Contains(gotJSON, `"best"`) {
				t.Errorf("merged JSON differs\n--- merged ---\n%s\n--- single ---\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// TestShardedSearchParallel runs three shards at once against one store.
func TestShardedSearchParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gpupick processes")
	}
	dsn := filepath.Join(t.TempDir(), "search.db")
	search := []string{"simulate", "-f", "testdata/service-model-short.yaml", "--search", "--offers", "3"}
	want, errOut, code := gpupickProc(t, dsn, nil, search...)
	if code != 0 {
		t.Fatalf("single process: exit %d: %s", code, errOut)
	}
	type res struct {
		out  string
		code int
	}
	done := make(chan res, 3)
	for i := range 3 {
		go func() {
			out, errOut, code := gpupickProc(t, dsn, []string{"JOB_COMPLETION_INDEX=" + string(rune('0'+i))}, append(search, "--shards", "3", "--search-id", "par")...)
			done <- res{out + errOut, code}
		}()
	}
	for range 3 {
		if r := <-done; r.code != 0 {
			t.Fatalf("shard: exit %d: %s", r.code, r.out)
		}
	}
	got, errOut, code := gpupickProc(t, dsn, nil, "simulate", "--search-results", "par")
	if code != 0 || got != want {
		t.Errorf("exit %d: %s\n--- merged ---\n%s\n--- single ---\n%s", code, errOut, got, want)
	}
}

// TestShardFlags: the shard index is checked, and read from the Job.
func TestShardFlags(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"index too large", nil, []string{"--shards", "2", "--shard", "2"}, "--shard: want a shard index from 0 to 1 (of --shards 2), got 2"},
		{"negative index", nil, []string{"--shards", "2", "--shard", "-1"}, "got -1"},
		{"no index", nil, []string{"--shards", "2"}, "give --shard I (0 to 1) or set JOB_COMPLETION_INDEX"},
		{"bad job index", map[string]string{"JOB_COMPLETION_INDEX": "x"}, []string{"--shards", "2"}, `JOB_COMPLETION_INDEX="x" is not a whole number`},
		{"job index too large", map[string]string{"JOB_COMPLETION_INDEX": "5"}, []string{"--shards", "2"}, "got 5"},
		{"zero shards", nil, []string{"--shards", "0", "--shard", "0"}, "--shards: want 1 to 10000 shards, got 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"simulate", "-f", "testdata/service-trace.yaml", "--search"}, tt.args...)
			_, errOut, code := runEnv(t, tt.env, args...)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
		})
	}
	_, errOut, code := run(t, "simulate", "-f", "testdata/service-trace.yaml", "--shards", "2", "--shard", "0")
	if code != 2 || !strings.Contains(errOut, "go with --search") {
		t.Errorf("without --search: exit %d: %s", code, errOut)
	}
	_, errOut, code = run(t, "simulate", "--search-results", "nope")
	if code != 2 || !strings.Contains(errOut, "no database at") {
		t.Errorf("no store: exit %d: %s", code, errOut)
	}
}
