package advisor

import (
	"cmp"
	"math/rand/v2"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// TestCompareKeysMatchesKey checks that rank's tie-break compares offers
// exactly as their keys (provider/instance@region) compare as strings,
// including parts that are prefixes of each other and separators inside
// names.
func TestCompareKeysMatchesKey(t *testing.T) {
	parts := []string{"", "a", "ab", "a-b", "a/b", "a@b", "b", "us", "us-fl", "US", "US-FL", "@", "/", "-", "a b", "z"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return parts[rng.IntN(len(parts))] }
	for range 20000 {
		a := &catalog.Offer{Provider: pick(), InstanceType: pick(), Region: pick()}
		b := &catalog.Offer{Provider: pick(), InstanceType: pick(), Region: pick()}
		if rng.IntN(4) == 0 {
			b.Provider, b.InstanceType = a.Provider, a.InstanceType
		}
		if got, want := compareKeys(a, b), cmp.Compare(a.Key(), b.Key()); got != want {
			t.Fatalf("compareKeys(%q, %q) = %d, want %d", a.Key(), b.Key(), got, want)
		}
	}
	o := &catalog.Offer{Provider: "p", InstanceType: "i", Region: "r"}
	if compareKeys(o, o) != 0 {
		t.Fatal("an offer must equal itself")
	}
}
