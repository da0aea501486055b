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

// Accelerators builds the JSON view and the table of accelerators.
func Accelerators(accs []*catalog.Accelerator, now time.Time) ([]AcceleratorJSON, *Table) {
	out := make([]AcceleratorJSON, 0, len(accs))
	t := &Table{Columns: []Column{
		{"ID", "id", false}, {"NAME", "name", false}, {"VENDOR", "vendor", false}, {"ARCH", "architecture", false},
		{"MEM GiB", "memory_gib", true}, {"BW GB/s", "memory_bandwidth_gb_s", true},
		{"BF16 TFLOPS", "bf16_tflops", true}, {"FP8 TFLOPS", "fp8_tflops", true}, {"FP4 TFLOPS", "fp4_tflops", true},
		{"LINK GB/s", "link_gb_s", true}, {"TDP W", "tdp_w", true}, {"AS OF", "as_of", false},
	}}
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
		t.Add(a.ID, a.Name, a.Vendor, a.Architecture, num(a.MemGiB, 1), num(a.MemBandwidthGBps, 0),
			orDash(num(a.PeakTFLOPS[catalog.BF16], 1)), orDash(num(a.PeakTFLOPS[catalog.FP8], 1)), orDash(num(a.PeakTFLOPS[catalog.FP4], 1)),
			num(a.LinkGBps, 0), num(a.TDPWatts, 0), date(a.AsOf))
	}
	t.Notes = append(t.Notes, "TFLOPS are dense peaks (no sparsity); - = the hardware has no such path; LINK = GPU-to-GPU, both directions.")
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
	Source             string             `json:"source"`
	AsOf               string             `json:"as_of"`
	Stale              bool               `json:"stale"`
	Notes              string             `json:"notes,omitempty"`
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
		EgressUSDPerGB: o.EgressUSDPerGB, BlockUSDPerGBMonth: o.BlockUSDPerGBMonth, Confidential: o.Confidential,
		Source: o.Source, AsOf: date(o.AsOf), Stale: o.Stale(now), Notes: o.Notes,
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

// Offers builds the JSON view and the table of offers, priced in mode m.
// With yours, the table has a column for the user's own price.
func Offers(offers []*catalog.Offer, m catalog.Mode, yours bool, now time.Time) ([]OfferJSON, *Table) {
	out := make([]OfferJSON, 0, len(offers))
	cols := []Column{
		{"OFFER", "id", false}, {"REGION", "region", false}, {"CC", "country", false},
		{"GPU", "gpu", false}, {"N", "gpu_count", true}, {"MEM GiB", "gpu_memory_gib", true},
		{"vCPU", "vcpus", true}, {"RAM GiB", "ram_gib", true},
		{strings.ToUpper(m.String()) + " $/h", "price_usd_per_hour", true}, {"$/GPU-h", "price_usd_per_gpu_hour", true},
	}
	if yours {
		cols = append(cols, Column{"YOUR $/h", "your_price_usd_per_hour", true}, Column{"YOUR $/GPU-h", "your_price_usd_per_gpu_hour", true})
	}
	cols = append(cols, Column{"FABRIC Gb/s", "fabric_gbps", true}, Column{"AS OF", "as_of", false}, Column{"STALE", "stale", false})
	t := &Table{Columns: cols}
	stale, unknown := 0, 0
	for _, o := range offers {
		out = append(out, OfferView(o, now))
		price := func(p catalog.Prices) (string, string) {
			v, ok := p.Get(m)
			if !ok {
				return "unknown", "unknown"
			}
			return fmt.Sprintf("%.2f", v), fmt.Sprintf("%.2f", v/o.GPUs())
		}
		p, pg := price(o.ListPrices)
		if p == "unknown" {
			unknown++
		}
		row := []string{o.ID(), o.Region, o.Country, o.GPU, GPUCountString(o), num(o.GPUMemGiB, 1),
			intOrEmpty(o.VCPUs), num(o.RAMGiB, 0), p, pg}
		if yours {
			yp, ypg := price(o.YourPrices)
			row = append(row, yp, ypg)
		}
		s := "no"
		if o.Stale(now) {
			s = "yes"
			stale++
		}
		fabric := num(o.FabricGbps, 0)
		if fabric == "" {
			fabric = "-"
		}
		row = append(row, fabric, date(o.AsOf), s)
		t.Add(row...)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("%d offers; prices in USD per instance-hour (CNY converted at the rate in fx.csv).", len(offers)))
	t.Notes = append(t.Notes, FreshnessText(English, catalog.Stats(offers, now)))
	if stale > 0 {
		t.Notes = append(t.Notes, "STALE yes = the price is older than 90 days: check the source before you sign.")
	}
	if unknown > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d offers have no published %s price (shown as unknown, never as 0).", unknown, m))
	}
	return out, t
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
	BlockUSDPerGBMonth      float64                 `json:"block_storage_usd_per_gb_month,omitempty"`
	ObjectUSDPerGBMonth     float64                 `json:"object_storage_usd_per_gb_month,omitempty"`
	BillingGranularityS     float64                 `json:"billing_granularity_s"`
	MinimumBillingS         float64                 `json:"minimum_billing_s"`
	SpotInterruptionPerHour float64                 `json:"spot_interruption_per_hour,omitempty"`
	Offers                  int                     `json:"offers"`
	PricesAsOf              string                  `json:"prices_as_of,omitempty"` // newest date of a priced offer
	Source                  string                  `json:"source"`
	AsOf                    string                  `json:"as_of"`
	Stale                   bool                    `json:"stale"`
}

// Providers builds the JSON view and table of providers, with the number of
// offers and the newest price date of each.
func Providers(c *catalog.Catalog, now time.Time) ([]ProviderJSON, *Table) {
	count := map[string]int{}
	newest := map[string]time.Time{}
	for _, o := range c.Offers {
		count[o.Provider]++
		if o.ListPrices != (catalog.Prices{}) && o.AsOf.After(newest[o.Provider]) {
			newest[o.Provider] = o.AsOf
		}
	}
	t := &Table{Columns: []Column{
		{"PROVIDER", "id", false}, {"NAME", "name", false}, {"HQ", "hq_country", false}, {"CLOUD ACT", "cloud_act", false},
		{"CERTIFICATIONS", "certifications", false}, {"CMK", "customer_managed_keys", false}, {"CC GPU", "confidential_gpu_vms", false},
		{"EGRESS $/GB", "egress_usd_per_gb_first_tier", true}, {"OFFERS", "offers", true}, {"PRICES AS OF", "prices_as_of", false},
	}}
	var out []ProviderJSON
	for _, p := range c.Providers {
		j := ProviderJSON{
			ID: p.ID, Name: p.Name, HQCountry: p.HQCountry, CloudAct: p.CloudAct, Certifications: p.Certifications,
			CustomerManagedKeys: p.CustomerManagedKeys, ConfidentialGPUVMs: p.ConfidentialGPUVMs, SecureBoot: p.SecureBoot,
			EgressTiers: p.EgressTiers, BlockUSDPerGBMonth: p.BlockUSDPerGBMonth, ObjectUSDPerGBMonth: p.ObjectUSDPerGBMonth,
			BillingGranularityS: p.BillingGranularity.Seconds(), MinimumBillingS: p.MinimumBilling.Seconds(),
			SpotInterruptionPerHour: p.SpotInterruptionPerHour, Offers: count[p.ID], Source: p.Source,
			AsOf: date(p.AsOf), Stale: p.Stale(now),
		}
		if j.Certifications == nil {
			j.Certifications = []catalog.Certification{}
		}
		if j.EgressTiers == nil {
			j.EgressTiers = []catalog.EgressTier{}
		}
		pricesAsOf := ""
		if n, ok := newest[p.ID]; ok {
			j.PricesAsOf = date(n)
			pricesAsOf = date(n)
			if now.Sub(n) > catalog.StaleAfter {
				pricesAsOf += " (stale)"
			}
		}
		out = append(out, j)
		var certs []string
		for _, c := range p.Certifications {
			certs = append(certs, c.Name)
		}
		egress := "unknown"
		if len(p.EgressTiers) > 0 {
			egress = fmt.Sprintf("%.3f", p.EgressTiers[0].USDPerGB)
		}
		act := "no"
		if p.CloudAct {
			act = "yes"
		}
		t.Add(p.ID, p.Name, p.HQCountry, act, orDash(strings.Join(certs, " ")), p.CustomerManagedKeys.String(),
			p.ConfidentialGPUVMs.String(), egress, strconv.Itoa(count[p.ID]), orDash(pricesAsOf))
	}
	t.Notes = append(t.Notes, "CLOUD ACT yes = a US-headquartered company or parent: US authorities can compel access to data in any region.",
		"EGRESS = first internet-egress tier; see -o json for every tier and the scope of each certification.")
	return out, t
}
