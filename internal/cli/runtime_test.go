package cli

import (
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// gcSettings reads the collector's percent and memory limit without
// changing them.
func gcSettings() (int, int64) {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p, debug.SetMemoryLimit(-1)
}

// TestShortRun: a one-shot command runs without collections until its heap
// reaches shortRunHeap, and the first collection restores the collector;
// the servers and an environment's own GOGC or GOMEMLIMIT are left alone.
func TestShortRun(t *testing.T) {
	p0, l0 := gcSettings()
	t.Cleanup(func() { debug.SetGCPercent(p0); debug.SetMemoryLimit(l0) })
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")

	for _, server := range []string{"serve", "mcp"} {
		ShortRun(server)
		if p, l := gcSettings(); p != p0 || l != l0 {
			t.Fatalf("%s: GOGC %d, limit %d; want %d, %d untouched", server, p, l, p0, l0)
		}
	}
	t.Setenv("GOGC", "50")
	ShortRun("recommend")
	if p, l := gcSettings(); p != p0 || l != l0 {
		t.Fatalf("GOGC set by the user: GOGC %d, limit %d; want %d, %d untouched", p, l, p0, l0)
	}
	t.Setenv("GOGC", "")

	ShortRun("recommend")
	if p, l := gcSettings(); p != -1 || l != shortRunLimit(os.ReadFile) {
		t.Fatalf("recommend: GOGC %d, limit %d; want off until %d bytes", p, l, shortRunLimit(os.ReadFile))
	}
	runtime.GC() // what reaching the limit would start
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, l := gcSettings()
		if p == p0 && l == l0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the first collection: GOGC %d, limit %d; want %d, %d restored", p, l, p0, l0)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestTuneNamesTheCommand: Execute tells Tune the command that runs, even
// behind a global flag and its value.
func TestTuneNamesTheCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--db", "serve", "version"}} {
		var out, errb strings.Builder
		e := NewEnv(&out, &errb)
		e.Getenv = func(string) string { return "" }
		got := ""
		e.Tune = func(command string) { got = command }
		Execute(e, args)
		if got != "version" {
			t.Errorf("%q: Tune(%q), want version", args, got)
		}
	}
}

// TestShortRunLimit: a container's memory limit caps the first heap at a
// quarter of it; no limit, or an unlimited one, leaves shortRunHeap.
func TestShortRunLimit(t *testing.T) {
	read := func(files map[string]string) func(string) ([]byte, error) {
		return func(name string) ([]byte, error) {
			if v, ok := files[name]; ok {
				return []byte(v), nil
			}
			return nil, fs.ErrNotExist
		}
	}
	for _, tc := range []struct {
		files map[string]string
		want  int64
	}{
		{nil, shortRunHeap},
		{map[string]string{"/sys/fs/cgroup/memory.max": "max\n"}, shortRunHeap},
		{map[string]string{"/sys/fs/cgroup/memory.max": "268435456\n"}, 64 << 20},
		{map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "4294967296"}, shortRunHeap},
	} {
		if got := shortRunLimit(read(tc.files)); got != tc.want {
			t.Errorf("%v: %d bytes, want %d", tc.files, got, tc.want)
		}
	}
}
