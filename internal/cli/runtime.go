package cli

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/gpupick/gpupick/internal/server"
)

// shortRunHeap is how far a command's heap may grow before its first
// garbage collection, or a quarter of the container's memory where that is
// less. Every example's recommendation stays under it (the largest peaks
// near 100 MB resident); a larger job collects from there on as usual.
const shortRunHeap = 128 << 20

// longRunning are the commands that serve until stopped.
var longRunning = map[string]bool{"serve": true, "mcp": true}

// ShortRun tunes the garbage collector of this process for command, which
// starts, answers and exits. Such a run allocates some 40 MB that it mostly
// keeps (the catalog, then the ranking); collecting while it grows took 14%
// of the README example's time as a whole process, and frees little. So there is no collection
// until the heap reaches shortRunHeap; from the first one on, the collector
// runs as it did. A GOGC or GOMEMLIMIT in the environment is left alone, and
// so are the servers: serve tunes its own (server.TuneRuntime), and mcp
// answers a conversation for as long as it lasts.
func ShortRun(command string) {
	if longRunning[command] || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(shortRunLimit(os.ReadFile))
	// The limit starts the first collection, which frees the sentinel
	// (unreachable from here on); its cleanup restores the settings.
	runtime.AddCleanup(new([64]byte), func(prev [2]int64) {
		debug.SetGCPercent(int(prev[0]))
		debug.SetMemoryLimit(prev[1])
	}, [2]int64{int64(percent), limit})
}

// shortRunLimit is the heap a short run reaches before its first
// collection: shortRunHeap, or a quarter of the container's memory (read
// through read) where that is less, so that a small container keeps most
// of its memory.
func shortRunLimit(read func(string) ([]byte, error)) int64 {
	if c, ok := server.ContainerMemoryLimit(read); ok {
		return min(shortRunHeap, c/4)
	}
	return shortRunHeap
}
