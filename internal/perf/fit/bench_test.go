package fit

import "testing"

// BenchmarkLeaveOneSourceOut is the whole validation: one fit on every
// row and one per source left out.
func BenchmarkLeaveOneSourceOut(b *testing.B) {
	ev, _ := evaluator(b)
	for b.Loop() {
		LeaveOneSourceOut(ev, DefaultOptions)
	}
}
