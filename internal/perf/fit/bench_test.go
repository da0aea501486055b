package fit

import (
	"testing"

	"github.com/gpupick/gpupick/internal/catalogtest"
)

// BenchmarkLeaveOneSourceOut is the whole validation: one fit on every
// row and one per source left out.
func BenchmarkLeaveOneSourceOut(b *testing.B) {
	cases, err := Published()
	if err != nil {
		b.Fatal(err)
	}
	ev, err := NewEvaluator(catalogtest.Embedded(b), cases)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		LeaveOneSourceOut(ev, DefaultOptions)
	}
}
