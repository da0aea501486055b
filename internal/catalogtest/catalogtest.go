// Package catalogtest gives tests the embedded catalog, parsed and built
// once per test binary.
package catalogtest

import (
	"sync"
	"testing"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/catalog"
)

var (
	once sync.Once
	cat  *catalog.Catalog
	err  error
)

// Embedded returns the embedded catalog, failing the test when it does not
// load. The catalog is shared: tests must not modify it.
func Embedded(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	once.Do(func() {
		var f *catalog.Files
		if f, err = catalog.Parse(data.FS, true); err == nil {
			cat, err = catalog.Build(f)
		}
	})
	if err != nil {
		tb.Fatalf("embedded catalog: %v", err)
	}
	return cat
}
