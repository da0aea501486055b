package store

import (
	"encoding/json"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
)

// offerRecord is how an offer is kept in current_offers.data. It is our own
// struct, not catalog.Offer, so that the stored JSON is a stable contract:
// prices per mode are arrays in catalog.Mode order and tri-state facts are
// their names.
type offerRecord struct {
	Provider           string    `json:"provider"`
	InstanceType       string    `json:"instance_type"`
	Region             string    `json:"region"`
	Country            string    `json:"country,omitempty"`
	GPU                string    `json:"gpu"`
	GPUCount           int       `json:"gpu_count"`
	GPUFraction        float64   `json:"gpu_fraction,omitempty"`
	GPUMemGiB          float64   `json:"gpu_memory_gib,omitempty"`
	VCPUs              int       `json:"vcpus,omitempty"`
	RAMGiB             float64   `json:"ram_gib,omitempty"`
	NVMeTB             float64   `json:"nvme_tb,omitempty"`
	NVMeReadGBps       float64   `json:"nvme_read_gb_s,omitempty"`
	BlockGBps          float64   `json:"block_gb_s,omitempty"`
	NetworkGbps        float64   `json:"network_gbps,omitempty"`
	InterconnectKind   string    `json:"interconnect_kind,omitempty"`
	InterconnectGBps   float64   `json:"interconnect_gb_s,omitempty"`
	FabricKind         string    `json:"fabric_kind,omitempty"`
	FabricGbps         float64   `json:"fabric_gbps,omitempty"`
	Currency           string    `json:"currency,omitempty"`
	RegionInferred     bool      `json:"region_inferred,omitempty"`
	LocalPrices        []float64 `json:"local_prices"` // per catalog.Mode
	ListPrices         []float64 `json:"list_prices"`  // USD per instance-hour
	EgressUSDPerGB     float64   `json:"egress_usd_per_gb,omitempty"`
	BlockUSDPerGBMonth float64   `json:"block_usd_per_gb_month,omitempty"`
	Confidential       string    `json:"confidential_computing,omitempty"`
	Driver             string    `json:"driver,omitempty"`
	Notes              string    `json:"notes,omitempty"`
	Source             string    `json:"source,omitempty"`
	AsOf               time.Time `json:"as_of"`
	// Added with spot bases and reserved terms; absent in older records.
	SpotBasis    string       `json:"spot_basis,omitempty"`
	SpotMin      float64      `json:"spot_min,omitempty"` // Currency per instance-hour
	SpotMax      float64      `json:"spot_max,omitempty"`
	SpotZones    int          `json:"spot_zones,omitempty"`
	AllUpfront1y float64      `json:"all_upfront_1y,omitempty"` // Currency per instance-hour, effective
	AllUpfront3y float64      `json:"all_upfront_3y,omitempty"`
	PriceFacts   []modeRecord `json:"price_facts,omitempty"`
	// Serverless platforms' worker facts, seconds.
	ColdStartS        float64 `json:"cold_start_s,omitempty"`
	IdleTimeoutS      float64 `json:"idle_timeout_s,omitempty"`
	BillingIncrementS float64 `json:"billing_increment_s,omitempty"`
}

// modeRecord is the source and date of one mode's price when it differs
// from the offer's.
type modeRecord struct {
	Mode   string    `json:"mode"`
	Source string    `json:"source"`
	AsOf   time.Time `json:"as_of"`
}

func toRecord(o *catalog.Offer) offerRecord {
	r := offerRecord{
		Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Country: o.Country,
		GPU: o.GPU, GPUCount: o.GPUCount, GPUFraction: o.GPUFraction, GPUMemGiB: o.GPUMemGiB, VCPUs: o.VCPUs, RAMGiB: o.RAMGiB,
		NVMeTB: o.NVMeTB, NVMeReadGBps: o.NVMeReadGBps, BlockGBps: o.BlockGBps, NetworkGbps: o.NetworkGbps,
		InterconnectKind: o.InterconnectKind, InterconnectGBps: o.InterconnectGBps,
		FabricKind: o.FabricKind, FabricGbps: o.FabricGbps, Currency: o.Currency, RegionInferred: o.RegionInferred,
		LocalPrices: o.LocalPrices[:], ListPrices: o.ListPrices[:],
		EgressUSDPerGB: o.EgressUSDPerGB, BlockUSDPerGBMonth: o.BlockUSDPerGBMonth,
		Driver: o.Driver, Notes: o.Notes, Source: o.Source, AsOf: o.AsOf.UTC(),
	}
	if o.Confidential != catalog.Unknown {
		r.Confidential = o.Confidential.String()
	}
	r.SpotBasis, r.SpotMin, r.SpotMax, r.SpotZones = o.SpotBasis.String(), o.SpotMin, o.SpotMax, o.SpotZones
	r.AllUpfront1y, r.AllUpfront3y = o.AllUpfront1y, o.AllUpfront3y
	r.ColdStartS, r.IdleTimeoutS, r.BillingIncrementS = o.ColdStartS, o.IdleTimeoutS, o.BillingIncrementS
	for m := catalog.Mode(0); m < catalog.NumModes; m++ {
		if f := o.PriceFacts[m]; f.Source != "" {
			r.PriceFacts = append(r.PriceFacts, modeRecord{m.String(), f.Source, f.AsOf.UTC()})
		}
	}
	return r
}

func (r *offerRecord) offer() *catalog.Offer {
	o := &catalog.Offer{
		Provider: r.Provider, InstanceType: r.InstanceType, Region: r.Region, Country: r.Country,
		GPU: r.GPU, GPUCount: r.GPUCount, GPUFraction: r.GPUFraction, GPUMemGiB: r.GPUMemGiB, VCPUs: r.VCPUs, RAMGiB: r.RAMGiB,
		NVMeTB: r.NVMeTB, NVMeReadGBps: r.NVMeReadGBps, BlockGBps: r.BlockGBps, NetworkGbps: r.NetworkGbps,
		InterconnectKind: r.InterconnectKind, InterconnectGBps: r.InterconnectGBps,
		FabricKind: r.FabricKind, FabricGbps: r.FabricGbps, Currency: r.Currency, RegionInferred: r.RegionInferred,
		EgressUSDPerGB: r.EgressUSDPerGB, BlockUSDPerGBMonth: r.BlockUSDPerGBMonth,
		Driver: r.Driver, Notes: r.Notes,
		Fact: catalog.Fact{Source: r.Source, AsOf: r.AsOf},
	}
	copy(o.LocalPrices[:], r.LocalPrices)
	copy(o.ListPrices[:], r.ListPrices)
	o.YourPrices = o.ListPrices
	o.Confidential, _ = catalog.ParseTri(r.Confidential)
	o.SpotBasis, _ = catalog.ParseSpotBasis(r.SpotBasis)
	o.SpotMin, o.SpotMax, o.SpotZones = r.SpotMin, r.SpotMax, r.SpotZones
	o.AllUpfront1y, o.AllUpfront3y = r.AllUpfront1y, r.AllUpfront3y
	o.ColdStartS, o.IdleTimeoutS, o.BillingIncrementS = r.ColdStartS, r.IdleTimeoutS, r.BillingIncrementS
	for _, f := range r.PriceFacts {
		if m, ok := catalog.ParseMode(f.Mode); ok {
			o.PriceFacts[m] = catalog.Fact{Source: f.Source, AsOf: f.AsOf}
		}
	}
	return o
}

func encodeOffer(o *catalog.Offer) ([]byte, error) { return json.Marshal(toRecord(o)) }

func decodeOffer(b []byte) (*catalog.Offer, error) {
	var r offerRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return r.offer(), nil
}
