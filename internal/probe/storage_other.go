//go:build !linux

package probe

import "os"

// openForRead opens name; outside Linux the probe does not bypass the page
// cache, and says so in the report.
func openForRead(name string) (*os.File, bool, error) {
	f, err := os.Open(name)
	return f, false, err
}

func alignedBuffer(n int) []byte { return make([]byte, n) }

// freeBytes is unknown outside Linux.
func freeBytes(string) int64 { return 0 }
