package store_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/store"
	"github.com/gpupick/gpupick/internal/store/storetest"
)

// Two imports of AWS prices, then the history of one offer and the diff.
func ExampleOpen() {
	ctx := context.Background()
	s, err := store.Open(ctx, ":memory:") // a file path, or a postgres:// URL
	if err != nil {
		panic(err)
	}
	defer s.Close()
	a, _ := s.SaveSnapshot(ctx, storetest.Snapshot("aws", 0, storetest.Offer("aws", "p5.48xlarge", "us-east-1", 98.32, 40)))
	b, _ := s.SaveSnapshot(ctx, storetest.Snapshot("aws", 1, storetest.Offer("aws", "p5.48xlarge", "us-east-1", 88.49, 40)))
	pts, _ := s.History(ctx, store.HistoryQuery{Offer: "aws/p5.48xlarge@us-east-1", Mode: catalog.OnDemand})
	for _, p := range pts {
		fmt.Printf("%s %.2f USD/h\n", p.At.Format(time.DateOnly), p.USDPerHour)
	}
	d, _ := s.Diff(ctx, a.ID, b.ID)
	for _, m := range d.Moved {
		fmt.Printf("%s %s %+.1f%%\n", m.Key, m.Mode, m.Percent)
	}
	// Output:
	// 2026-01-01 98.32 USD/h
	// 2026-01-02 88.49 USD/h
	// aws/p5.48xlarge@us-east-1 on-demand -10.0%
}
