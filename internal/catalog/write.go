package catalog

import (
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"time"
)

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// WriteOffers writes offers in the catalog's offers CSV format (the columns
// ParseOffers reads, in order), sorted by key, prices in their local
// currency: what `catalog build` writes to data/offers. Empty cells are
// unknown values; numbers use the shortest form that reads back exactly.
func WriteOffers(w io.Writer, offers []*Offer) error {
	sorted := append([]*Offer(nil), offers...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key() < sorted[j].Key() })
	cw := csv.NewWriter(w)
	if err := cw.Write(offerColumns); err != nil {
		return err
	}
	f := func(v float64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	i := func(v int) string {
		if v == 0 {
			return ""
		}
		return strconv.Itoa(v)
	}
	tri := func(t Tri) string {
		if t == Unknown {
			return ""
		}
		return t.String()
	}
	for _, o := range sorted {
		monthly := ""
		if v := o.LocalPrices[Monthly]; v > 0 {
			monthly = f(v * HoursPerMonth)
		}
		rec := []string{
			o.Provider, o.InstanceType, o.Region, o.GPU, strconv.Itoa(o.GPUCount), f(o.GPUFraction), f(o.GPUMemGiB),
			i(o.VCPUs), f(o.RAMGiB), f(o.NVMeTB), f(o.NVMeReadGBps), f(o.BlockGBps), f(o.NetworkGbps),
			o.InterconnectKind, f(o.InterconnectGBps), o.FabricKind, f(o.FabricGbps),
			f(o.LocalPrices[OnDemand]), f(o.LocalPrices[Spot]), f(o.LocalPrices[Reserved1y]), f(o.LocalPrices[Reserved3y]),
			monthly, o.Currency, f(o.EgressUSDPerGB), f(o.BlockUSDPerGBMonth), tri(o.Confidential), o.Driver,
			o.Source, o.AsOf.Format(time.DateOnly), o.Notes, yes(o.RegionInferred),
			f(o.SpotMin), f(o.SpotMax), o.SpotBasis.String(), i(o.SpotZones),
			f(o.AllUpfront1y), f(o.AllUpfront3y), formatPriceSources(o),
			f(o.LocalPrices[Serverless]), f(o.ColdStartS), f(o.IdleTimeoutS), f(o.BillingIncrementS),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
