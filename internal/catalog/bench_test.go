package catalog_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/catalog"
)

func BenchmarkLoadEmbedded(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		f, err := catalog.Parse(data.FS, true)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := catalog.Build(f); err != nil {
			b.Fatal(err)
		}
	}
}

// syntheticOffers makes n offers shaped like the real catalog's, from a
// fixed seed.
func syntheticOffers(n int) []*catalog.Offer {
	rng := rand.New(rand.NewPCG(1, 2))
	gpus := []string{"h100-sxm", "a100-80gb", "l4", "a10g", "h200", "mi300x", "t4", "l40s"}
	providers := []string{"aws", "gcp", "azure", "lambda", "tencent", "alibaba"}
	countries := []string{"US", "DE", "CN", "JP", "FR"}
	out := make([]*catalog.Offer, n)
	for i := range out {
		count := []int{1, 2, 4, 8}[rng.IntN(4)]
		o := &catalog.Offer{
			Provider: providers[rng.IntN(len(providers))], InstanceType: fmt.Sprintf("x%d", i),
			Region: fmt.Sprintf("r%d", rng.IntN(20)), Country: countries[rng.IntN(len(countries))],
			GPU: gpus[rng.IntN(len(gpus))], GPUCount: count, GPUMemGiB: 80,
		}
		o.ListPrices[catalog.OnDemand] = float64(count) * (0.5 + 4*rng.Float64())
		if rng.IntN(2) == 0 {
			o.ListPrices[catalog.Spot] = o.ListPrices[catalog.OnDemand] * 0.4
		}
		o.YourPrices = o.ListPrices
		out[i] = o
	}
	return out
}

// BenchmarkSelect100k filters 100,000 offers the way `gpupick offers --gpu
// h100-sxm --country US --max-price 40 --pricing spot` does. Target: < 20 ms.
func BenchmarkSelect100k(b *testing.B) {
	offers := syntheticOffers(100_000)
	f := catalog.Filter{GPU: "h100-sxm", Country: "US", MaxPrice: 40, Mode: catalog.Spot, NeedMode: true}
	b.ReportAllocs()
	for b.Loop() {
		sel := catalog.SelectFrom(offers, f, nil)
		if len(sel.Offers) == 0 {
			b.Fatal("nothing selected")
		}
	}
}

// BenchmarkSelectSort100k adds sorting by price per GPU to the filter.
func BenchmarkSelectSort100k(b *testing.B) {
	offers := syntheticOffers(100_000)
	f := catalog.Filter{MinGPUs: 4}
	b.ReportAllocs()
	for b.Loop() {
		sel := catalog.SelectFrom(offers, f, nil)
		catalog.Sort(sel.Offers, catalog.ByPricePerGPU, catalog.OnDemand)
	}
}
