package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
)

// num formats a number for a table or CSV cell: no exponent, no trailing
// zeros, at most prec decimals; 0 (unknown) is empty.
func num(v float64, prec int) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(roundTo(v, prec), 'f', -1, 64)
}

func roundTo(v float64, prec int) float64 {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	r, _ := strconv.ParseFloat(s, 64)
	return r
}

// GPUCountString is an offer's accelerators as people read them: "8", or
// "1/6" for a slice of one GPU.
func GPUCountString(o *catalog.Offer) string {
	if o.Sliced() {
		return catalog.FractionString(o.GPUFraction)
	}
	return strconv.Itoa(o.GPUCount)
}

func date(t time.Time) string { return t.Format(time.DateOnly) }

// AcceleratorJSON is one element of `gpupick gpus -o json`.
type AcceleratorJSON struct {
	ID                string             `json:"id"`
	Aliases           []string           `json:"aliases"`
	Name              string             `json:"name"`
	Vendor            string             `json:"vendor"`
	Architecture      string             `json:"architecture"`
	ComputeCapability string             `json:"compute_capability,omitempty"`
	GFXTarget         string             `json:"gfx_target,omitempty"`
	MemGiB            float64            `json:"memory_gib"`
	MemType           string             `json:"memory_type"`
	MemBandwidthGBps  float64            `json:"memory_bandwidth_gb_s"`
	TFLOPS            map[string]float64 `json:"tflops"`
	LinkKind          string             `json:"link_kind"`
	LinkGBps          float64            `json:"link_gb_s"`
	GPUsPerServer     int                `json:"gpus_per_server"`
	NVLinkDomain      int                `json:"nvlink_domain"`
	PCIeGen           int                `json:"pcie_gen,omitempty"`
	TDPWatts          float64            `json:"tdp_w,omitempty"`
	MIG               bool               `json:"mig"`
	Confidential      catalog.Tri        `json:"confidential_computing"`
	ReleaseYear       int                `json:"release_year,omitempty"`
	Source            string             `json:"source"`
	AsOf              string             `json:"as_of"`
	Stale             bool               `json:"stale"`
}

// Accelerators builds the JSON view and the English table of accelerators.
func Accelerators(accs []*catalog.Accelerator, now time.Time) ([]AcceleratorJSON, *Table) {
	return AcceleratorsIn(accs, now, English)
}

// AcceleratorsIn is Accelerators with the table in language l.
func AcceleratorsIn(accs []*catalog.Accelerator, now time.Time, l Lang) ([]AcceleratorJSON, *Table) {
	out := make([]AcceleratorJSON, 0, len(accs))
	t := &Table{Columns: []Column{
		{tc(l, "col.id"), "id", false}, {tc(l, "col.name"), "name", false}, {tc(l, "col.vendor"), "vendor", false}, {tc(l, "col.arch"), "architecture", false},
		{tc(l, "col.mem_gib"), "memory_gib", true}, {tc(l, "col.bw"), "memory_bandwidth_gb_s", true},
		{tc(l, "col.fp16"), "fp16_tflops", true}, {tc(l, "col.bf16"), "bf16_tflops", true}, {tc(l, "col.fp8"), "fp8_tflops", true}, {tc(l, "col.fp4"), "fp4_tflops", true},
		{tc(l, "col.link"), "link_gb_s", true}, {tc(l, "col.tdp"), "tdp_w", true}, {tc(l, "col.as_of"), "as_of", false},
	}}
	t.CSVColumns = []string{"id", "name", "vendor", "architecture", "memory_gib", "memory_bandwidth_gb_s",
		"fp16_tflops", "bf16_tflops", "fp8_tflops", "fp4_tflops", "link_gb_s", "tdp_w", "as_of", "stale"}
	for _, a := range accs {
		j := AcceleratorJSON{
			ID: a.ID, Aliases: a.Aliases, Name: a.Name, Vendor: a.Vendor, Architecture: a.Architecture,
			ComputeCapability: a.ComputeCapability, GFXTarget: a.GFXTarget, MemGiB: a.MemGiB, MemType: a.MemType,
			MemBandwidthGBps: a.MemBandwidthGBps, TFLOPS: map[string]float64{}, LinkKind: a.LinkKind, LinkGBps: a.LinkGBps,
			GPUsPerServer: a.GPUsPerServer, NVLinkDomain: a.NVLinkDomain, PCIeGen: a.PCIeGen, TDPWatts: a.TDPWatts,
			MIG: a.MIG, Confidential: a.Confidential, ReleaseYear: a.ReleaseYear, Source: a.Source,
			AsOf: date(a.AsOf), Stale: a.Stale(now),
		}
		if j.Aliases == nil {
			j.Aliases = []string{}
		}
		for d := catalog.DataType(0); d < catalog.NumDataTypes; d++ {
			if v, ok := a.TFLOPS(d); ok {
				j.TFLOPS[d.String()] = v
			}
		}
		out = append(out, j)
		tf := func(d catalog.DataType) string { return orDash(num(a.PeakTFLOPS[d], 1)) }
		t.Add(a.ID, ShortText(a.Name, 40), a.Vendor, a.Architecture, num(a.MemGiB, 1), num(a.MemBandwidthGBps, 0),
			tf(catalog.FP16), tf(catalog.BF16), tf(catalog.FP8), tf(catalog.FP4),
			num(a.LinkGBps, 0), num(a.TDPWatts, 0), date(a.AsOf))
		cf := func(v float64, prec int) string { return csvNum(v, prec, v > 0) }
		t.AddCSV(a.ID, a.Name, a.Vendor, a.Architecture, cf(a.MemGiB, 2), cf(a.MemBandwidthGBps, 1),
			cf(a.PeakTFLOPS[catalog.FP16], 2), cf(a.PeakTFLOPS[catalog.BF16], 2), cf(a.PeakTFLOPS[catalog.FP8], 2), cf(a.PeakTFLOPS[catalog.FP4], 2),
			cf(a.LinkGBps, 1), cf(a.TDPWatts, 0), date(a.AsOf), csvBool(j.Stale))
	}
	for _, col := range []int{4, 6, 7, 8, 9} {
		t.AlignDecimals(col, 1)
	}
	t.Notes = append(t.Notes, tc(l, "gpus.note"))
	return out, t
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// OfferJSON is one element of `gpupick offers -o json`.
type OfferJSON struct {
	ID                 string             `json:"id"`
	Provider           string             `json:"provider"`
	InstanceType       string             `json:"instance_type"`
	Region             string             `json:"region"`
	Country            string             `json:"country"`
	GPU                string             `json:"gpu"`
	GPUCount           int                `json:"gpu_count"`
	GPUFraction        float64            `json:"gpu_fraction,omitempty"`
	GPUMemGiB          float64            `json:"gpu_memory_gib"`
	VCPUs              int                `json:"vcpus,omitempty"`
	RAMGiB             float64            `json:"ram_gib,omitempty"`
	NVMeTB             float64            `json:"nvme_tb,omitempty"`
	NVMeReadGBps       float64            `json:"nvme_read_gb_s,omitempty"`
	BlockGBps          float64            `json:"block_gb_s,omitempty"`
	NetworkGbps        float64            `json:"network_gbps,omitempty"`
	InterconnectKind   string             `json:"interconnect_kind,omitempty"`
	InterconnectGBps   float64            `json:"interconnect_gb_s,omitempty"`
	FabricKind         string             `json:"fabric_kind,omitempty"`
	FabricGbps         float64            `json:"fabric_gbps,omitempty"`
	Prices             map[string]float64 `json:"prices_usd_per_hour"`
	YourPrices         map[string]float64 `json:"your_prices_usd_per_hour,omitempty"`
	PriceRules         map[string]string  `json:"your_price_rules,omitempty"`
	Currency           string             `json:"currency"`
	LocalPrices        map[string]float64 `json:"prices_local_per_hour,omitempty"`
	EgressUSDPerGB     float64            `json:"egress_usd_per_gb,omitempty"`
	BlockUSDPerGBMonth float64            `json:"block_usd_per_gb_month,omitempty"`
	Confidential       catalog.Tri        `json:"confidential_computing"`
	// Operator is who runs the machines: provider, partner, marketplace or
	// community ("" = not classified).
	Operator string `json:"operator"`
	Source   string `json:"source"`
	AsOf     string `json:"as_of"`
	Stale    bool   `json:"stale"`
	Notes    string `json:"notes,omitempty"`
}

func priceMap(p catalog.Prices) map[string]float64 {
	m := map[string]float64{}
	for mode := catalog.Mode(0); mode < catalog.NumModes; mode++ {
		if v, ok := p.Get(mode); ok {
			m[mode.String()] = roundTo(v, 6)
		}
	}
	return m
}

// OfferView converts one offer to its JSON view.
func OfferView(o *catalog.Offer, now time.Time) OfferJSON {
	j := OfferJSON{
		ID: o.ID(), Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Country: o.Country,
		GPU: o.GPU, GPUCount: o.GPUCount, GPUFraction: o.GPUFraction, GPUMemGiB: o.GPUMemGiB, VCPUs: o.VCPUs, RAMGiB: o.RAMGiB,
		NVMeTB: o.NVMeTB, NVMeReadGBps: o.NVMeReadGBps, BlockGBps: o.BlockGBps, NetworkGbps: o.NetworkGbps,
		InterconnectKind: o.InterconnectKind, InterconnectGBps: o.InterconnectGBps, FabricKind: o.FabricKind,
		FabricGbps: o.FabricGbps, Prices: priceMap(o.ListPrices), Currency: o.Currency,
		EgressUSDPerGB: o.EgressUSDPerGB, BlockUSDPerGBMonth: o.BlockUSDPerGBMonth, Confidential: o.Confidential, Operator: string(o.Operator.Kind),
		Source: o.Source, AsOf: date(o.PricesAsOf()), Stale: o.PricesStale(now), Notes: o.Notes,
	}
	if o.Currency != "USD" {
		j.LocalPrices = priceMap(o.LocalPrices)
		if v, ok := o.LocalPrices.Get(catalog.Monthly); ok {
			j.LocalPrices["monthly"] = roundTo(v*catalog.HoursPerMonth, 2) // as published: per month
		}
	}
	if o.HasOwnPrices() {
		j.YourPrices = priceMap(o.YourPrices)
		j.PriceRules = map[string]string{}
		for m, r := range o.PriceRules {
			if r != "" {
				j.PriceRules[catalog.Mode(m).String()] = r
			}
		}
	}
	return j
}

// Offers builds the JSON view and the English table of offers, priced in
// mode m. With yours, the table has a column for the user's own price.
func Offers(offers []*catalog.Offer, m catalog.Mode, yours bool, now time.Time) ([]OfferJSON, *Table) {
	return OffersIn(offers, m, yours, now, English)
}

// OffersIn is Offers with the table in language l.
func OffersIn(offers []*catalog.Offer, m catalog.Mode, yours bool, now time.Time, l Lang) ([]OfferJSON, *Table) {
	out := make([]OfferJSON, 0, len(offers))
	cols := []Column{
		{tc(l, "col.offer"), "id", false}, {tc(l, "col.region"), "region", false}, {tc(l, "col.cc"), "country", false},
		{tc(l, "col.gpu"), "gpu", false}, {tc(l, "col.n"), "gpu_count", true}, {tc(l, "col.mem_gib"), "gpu_memory_gib", true},
		{tc(l, "col.vcpu"), "vcpus", true}, {tc(l, "col.ram_gib"), "ram_gib", true},
		{tc(l, "col.price_h", strings.ToUpper(modeName(l, m.String()))), "price_usd_per_hour", true}, {tc(l, "col.price_gpu_h"), "price_usd_per_gpu_hour", true},
	}
	csvCols := []string{"id", "region", "country", "gpu", "gpu_count", "gpu_memory_gib", "vcpus", "ram_gib",
		"price_usd_per_hour", "price_usd_per_gpu_hour"}
	if yours {
		cols = append(cols, Column{tc(l, "col.your_h"), "your_price_usd_per_hour", true}, Column{tc(l, "col.your_gpu_h"), "your_price_usd_per_gpu_hour", true})
		csvCols = append(csvCols, "your_price_usd_per_hour", "your_price_usd_per_gpu_hour")
	}
	cols = append(cols, Column{tc(l, "col.fabric"), "fabric_gbps", true}, Column{tc(l, "col.as_of"), "as_of", false}, Column{tc(l, "col.stale"), "stale", false})
	t := &Table{Columns: cols, CSVColumns: append(csvCols, "fabric_gbps", "as_of", "stale", "provider", "instance_type", "pricing")}
	stale, unknown := 0, 0
	for _, o := range offers {
		out = append(out, OfferView(o, now))
		price := func(p catalog.Prices) (text, perGPU, csvText, csvPerGPU string) {
			v, ok := p.Get(m)
			if !ok {
				return tc(l, "unknown"), tc(l, "unknown"), "", ""
			}
			return fmt.Sprintf("%.2f", v), fmt.Sprintf("%.2f", v/o.GPUs()), csvNum(v, 6, true), csvNum(v/o.GPUs(), 6, true)
		}
		p, pg, cp, cpg := price(o.ListPrices)
		if cp == "" {
			unknown++
		}
		row := []string{o.ID(), o.Region, o.Country, o.GPU, GPUCountString(o), num(o.GPUMemGiB, 1),
			intOrEmpty(o.VCPUs), num(o.RAMGiB, 0), p, pg}
		crow := []string{o.ID(), o.Region, o.Country, o.GPU, csvNum(o.GPUs(), 6, true), csvNum(o.GPUMemGiB, 2, o.GPUMemGiB > 0),
			csvNum(float64(o.VCPUs), 0, o.VCPUs > 0), csvNum(o.RAMGiB, 2, o.RAMGiB > 0), cp, cpg}
		if yours {
			yp, ypg, cyp, cypg := price(o.YourPrices)
			row = append(row, yp, ypg)
			crow = append(crow, cyp, cypg)
		}
		s := tc(l, "no")
		if o.PriceFact(m).Stale(now) {
			s = tc(l, "yes")
			stale++
		}
		fabric := num(o.FabricGbps, 0)
		if fabric == "" {
			fabric = "-"
		}
		row = append(row, fabric, date(o.PriceFact(m).AsOf), s)
		crow = append(crow, csvNum(o.FabricGbps, 1, o.FabricGbps > 0), date(o.PriceFact(m).AsOf), csvBool(o.PriceFact(m).Stale(now)), o.Provider, o.InstanceType, m.String())
		t.Add(row...)
		t.AddCSV(crow...)
	}
	t.AlignDecimals(5, 1)
	t.Notes = append(t.Notes, tc(l, "offers.note", len(offers)))
	t.Notes = append(t.Notes, FreshnessText(l, catalog.Stats(offers, now)))
	if stale > 0 {
		t.Notes = append(t.Notes, tc(l, "offers.stale"))
	}
	if unknown > 0 {
		t.Notes = append(t.Notes, tc(l, "offers.unknown", unknown, modeName(l, m.String())))
	}
	if fabricDash(t) {
		t.Notes = append(t.Notes, tc(l, "offers.fabric"))
	}
	return out, t
}

// fabricDash reports whether some row shows "-" for an instance without a
// multi-node fabric.
func fabricDash(t *Table) bool {
	col := len(t.Columns) - 3
	for _, r := range t.Rows {
		if r[col] == "-" {
			return true
		}
	}
	return false
}

func intOrEmpty(v int) string {
	if v == 0 {
		return ""
	}
	return strconv.Itoa(v)
}

// ProviderJSON is one element of `gpupick providers -o json`.
type ProviderJSON struct {
	ID                      string                  `json:"id"`
	Name                    string                  `json:"name"`
	HQCountry               string                  `json:"hq_country"`
	CloudAct                bool                    `json:"cloud_act"`
	Certifications          []catalog.Certification `json:"certifications"`
	CustomerManagedKeys     catalog.Tri             `json:"customer_managed_keys"`
	ConfidentialGPUVMs      catalog.Tri             `json:"confidential_gpu_vms"`
	SecureBoot              catalog.Tri             `json:"secure_boot"`
	EgressTiers             []catalog.EgressTier    `json:"egress_tiers_usd_per_gb"`
	EgressSource            string                  `json:"egress_source,omitempty"`
	EgressAsOf              string                  `json:"egress_as_of,omitempty"`
	EgressNotes             string                  `json:"egress_notes,omitempty"`
	BlockUSDPerGBMonth      float64                 `json:"block_storage_usd_per_gb_month,omitempty"`
	ObjectUSDPerGBMonth     float64                 `json:"object_storage_usd_per_gb_month,omitempty"`
	BillingGranularityS     float64                 `json:"billing_granularity_s"`
	MinimumBillingS         float64                 `json:"minimum_billing_s"`
	SpotInterruptionPerHour float64                 `json:"spot_interruption_per_hour,omitempty"`
	// Operator is who runs the provider's machines (kind "" = not
	// classified), OperatorRules the instance types run by someone else,
	// and MLPS its filings under China's MLPS 2.0.
	Operator      catalog.OperatorFact   `json:"operator"`
	OperatorRules []catalog.OperatorRule `json:"operator_rules,omitempty"`
	MLPS          []catalog.MLPSFiling   `json:"mlps,omitempty"`
	// SupplyChain is what a buyer audits before signing: the contracting
	// entity and its law, the data centres, the countries of the regions,
	// where the accelerators come from and the export rules on them, and
	// the documents the provider publishes.
	SupplyChain catalog.SupplyChain `json:"supply_chain"`
	Offers      int                 `json:"offers"`
	PricesAsOf  string              `json:"prices_as_of,omitempty"` // newest date of a priced offer
	Source      string              `json:"source"`
	AsOf        string              `json:"as_of"`
	Stale       bool                `json:"stale"`
}

// Providers builds the JSON view and the English table of providers, with
// the number of offers and the newest price date of each.
func Providers(c *catalog.Catalog, now time.Time) ([]ProviderJSON, *Table) {
	return ProvidersIn(c, now, English)
}

// ProvidersIn is Providers with the table in language l.
func ProvidersIn(c *catalog.Catalog, now time.Time, l Lang) ([]ProviderJSON, *Table) {
	count := map[string]int{}
	newest := map[string]time.Time{}
	for _, o := range c.Offers {
		count[o.Provider]++
		if d := o.PricesAsOf(); o.ListPrices != (catalog.Prices{}) && d.After(newest[o.Provider]) {
			newest[o.Provider] = d
		}
	}
	t := &Table{Columns: []Column{
		{tc(l, "col.provider"), "id", false}, {tc(l, "col.name"), "name", false}, {tc(l, "col.hq"), "hq_country", false}, {tc(l, "col.cloud_act"), "cloud_act", false},
		{tc(l, "col.law_dc"), "jurisdiction", false},
		{tc(l, "col.operator"), "operator", false}, {tc(l, "col.certs"), "certifications", false}, {tc(l, "col.cmk"), "customer_managed_keys", false}, {tc(l, "col.cc_gpu"), "confidential_gpu_vms", false},
		{tc(l, "col.egress"), "egress_usd_per_gb_first_tier", true}, {tc(l, "col.offers"), "offers", true}, {tc(l, "col.prices_as_of"), "prices_as_of", false},
	}}
	t.CSVColumns = []string{"id", "name", "hq_country", "cloud_act", "jurisdiction", "datacenters", "operator", "certifications", "customer_managed_keys", "confidential_gpu_vms",
		"egress_usd_per_gb_first_tier", "offers", "prices_as_of", "prices_stale"}
	var out []ProviderJSON
	for _, p := range c.Providers {
		j := ProviderJSON{
			ID: p.ID, Name: p.Name, HQCountry: p.HQCountry, CloudAct: p.CloudAct, Certifications: p.Certifications,
			CustomerManagedKeys: p.CustomerManagedKeys, ConfidentialGPUVMs: p.ConfidentialGPUVMs, SecureBoot: p.SecureBoot,
			EgressTiers: p.EgressTiers, BlockUSDPerGBMonth: p.BlockUSDPerGBMonth, ObjectUSDPerGBMonth: p.ObjectUSDPerGBMonth,
			BillingGranularityS: p.BillingGranularity.Seconds(), MinimumBillingS: p.MinimumBilling.Seconds(),
			SpotInterruptionPerHour: p.SpotInterruptionPerHour, Operator: p.Operator, OperatorRules: p.OperatorRules, MLPS: p.MLPS,
			SupplyChain: c.SupplyChainOf(p.ID), Offers: count[p.ID], Source: p.Source, AsOf: date(p.AsOf), Stale: p.Stale(now),
		}
		if j.Certifications == nil {
			j.Certifications = []catalog.Certification{}
		}
		if j.EgressTiers == nil {
			j.EgressTiers = []catalog.EgressTier{}
		} else {
			j.EgressSource, j.EgressAsOf, j.EgressNotes = p.Egress.Source, date(p.Egress.AsOf), p.EgressNotes
		}
		pricesAsOf, pricesStale := "", ""
		if n, ok := newest[p.ID]; ok {
			j.PricesAsOf = date(n)
			pricesAsOf = date(n)
			pricesStale = "false"
			if now.Sub(n) > catalog.StaleAfter {
				pricesAsOf += tc(l, "stale_suffix")
				pricesStale = "true"
			}
		}
		out = append(out, j)
		var certs []string
		for _, c := range p.Certifications {
			certs = append(certs, c.Name)
		}
		egress, egressCSV := tc(l, "unknown"), ""
		if len(p.EgressTiers) > 0 {
			egress = egressCell(l, p.EgressTiers)
			egressCSV = csvNum(p.EgressTiers[0].USDPerGB, 6, true)
		}
		act := tc(l, "no")
		if p.CloudAct {
			act = tc(l, "yes")
		}
		op, opCSV := operatorCell(l, p)
		dc, dcCSV := tc(l, "unknown"), ""
		if p.Datacenters != nil {
			dc, dcCSV = Tr(l, p.Datacenters.Model), p.Datacenters.Model
		}
		law := j.SupplyChain.Jurisdiction + " · " + dc
		t.Add(p.ID, p.Name, p.HQCountry, act, law, op, orDash(strings.Join(certs, " ")), triText(l, p.CustomerManagedKeys),
			triText(l, p.ConfidentialGPUVMs), egress, strconv.Itoa(count[p.ID]), orDash(pricesAsOf))
		t.AddCSV(p.ID, p.Name, p.HQCountry, csvBool(p.CloudAct), j.SupplyChain.Jurisdiction, dcCSV, opCSV, strings.Join(certs, " "), csvTri(p.CustomerManagedKeys),
			csvTri(p.ConfidentialGPUVMs), egressCSV, strconv.Itoa(count[p.ID]), j.PricesAsOf, pricesStale)
	}
	t.Notes = append(t.Notes, tc(l, "providers.note1"), tc(l, "providers.note2"), tc(l, "providers.note3"), tc(l, "providers.note4"))
	return out, t
}

// operatorCell says who runs a provider's machines: its kind, then each
// rule's kind and the instance types it covers ("partner; community:
// *_COMMUNITY"), in l for the table and as the kinds themselves for CSV.
func operatorCell(l Lang, p *catalog.Provider) (table, csv string) {
	kind := func(k catalog.OperatorKind) (string, string) {
		if k == "" {
			return tc(l, "unknown"), "unknown"
		}
		return Tr(l, string(k)), string(k)
	}
	table, csv = kind(p.Operator.Kind)
	for _, r := range p.OperatorRules {
		t, c := kind(r.Kind)
		table += sep(l) + t + " " + r.InstanceTypes
		csv += "; " + c + " " + r.InstanceTypes
	}
	return table, csv
}

// triText is a yes/no/unknown fact in l.
func triText(l Lang, t catalog.Tri) string { return tc(l, t.String()) }

// egressCell says a provider's egress price in a few words: free, the
// first paid tier after a free allowance, or the first tier's price per GB.
func egressCell(l Lang, tiers []catalog.EgressTier) string {
	for i, t := range tiers {
		if t.USDPerGB == 0 {
			continue
		}
		price := fmt.Sprintf("%.4g", t.USDPerGB)
		if i > 0 && tiers[i-1].UpToTB > 0 {
			return fmt.Sprintf(tc(l, "egress_after"), price, fmt.Sprintf("%g", tiers[i-1].UpToTB))
		}
		return price
	}
	return tc(l, "egress_free")
}
