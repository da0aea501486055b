package probe

// The fixtures of these tests, for the rendering tests of package
// probe_test (which may import report, which imports probe).
var (
	H100Report = h100Report
	H100Offer  = h100Offer
	Golden     = golden
)
