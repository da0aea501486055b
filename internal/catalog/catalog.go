// Package catalog holds what gpupick knows about accelerators, providers,
// regions and GPU cloud offers, each fact with its source and date. It parses
// catalog files it is given (an fs.FS), checks their integrity, layers a
// user's rows and negotiated prices over them, and filters offers. It does no
// I/O of its own.
package catalog

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// StaleAfter is the age beyond which a fact is shown as stale.
const StaleAfter = 90 * 24 * time.Hour

// HoursPerMonth converts monthly subscription prices to an hourly
// equivalent: 365 days x 24 h / 12 months.
const HoursPerMonth = 730.0

// Fact is where a row came from: a URL or document, and the date the source
// stated it.
type Fact struct {
	Source string    `json:"source"`
	AsOf   time.Time `json:"as_of"`
}

// Stale reports whether the fact is older than StaleAfter at now.
func (f Fact) Stale(now time.Time) bool {
	return now.Sub(f.AsOf) > StaleAfter
}

// Tri is a yes/no fact that may be unknown. Unknown never counts as yes.
type Tri int8

// Tri values. The zero value is Unknown, so a missing fact stays unknown.
const (
	Unknown Tri = iota
	Yes
	No
)

func (t Tri) String() string {
	switch t {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// MarshalText writes yes, no or unknown.
func (t Tri) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// ParseTri reads yes/no/true/false (any case); empty and "unknown" are
// Unknown; anything else is not ok.
func ParseTri(s string) (Tri, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "unknown":
		return Unknown, true
	case "yes", "true", "y":
		return Yes, true
	case "no", "false", "n":
		return No, true
	}
	return Unknown, false
}

// DataType is a numeric format the hardware computes in.
type DataType int8

// Data types, in the order of the columns of accelerators.csv.
const (
	FP64 DataType = iota
	FP32
	TF32
	BF16
	FP16
	FP8
	FP4
	INT8
	NumDataTypes
)

var dataTypeNames = [NumDataTypes]string{"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"}

func (d DataType) String() string { return dataTypeNames[d] }

// ParseDataType maps "bf16" etc. to a DataType.
func ParseDataType(s string) (DataType, bool) {
	for i, n := range dataTypeNames {
		if strings.EqualFold(n, s) {
			return DataType(i), true
		}
	}
	return 0, false
}

// Accelerator is one kind of GPU or AI accelerator. Peak rates are dense
// (never 2:4 sparsity figures); a zero rate means the hardware has no such
// path.
type Accelerator struct {
	ID                string   `json:"id"`
	Aliases           []string `json:"aliases,omitempty"`
	Name              string   `json:"name"`
	Vendor            string   `json:"vendor"`
	Architecture      string   `json:"architecture"`
	ComputeCapability string   `json:"compute_capability,omitempty"` // NVIDIA, e.g. "9.0"
	GFXTarget         string   `json:"gfx_target,omitempty"`         // AMD, e.g. "gfx942"
	MemGiB            float64  `json:"memory_gib"`
	MemType           string   `json:"memory_type"`
	MemBandwidthGBps  float64  `json:"memory_bandwidth_gb_s"` // 10^9 bytes/s
	// PeakTFLOPS is the dense peak per data type in TFLOPS (INT8 in TOPS); 0 = not supported.
	PeakTFLOPS [NumDataTypes]float64 `json:"-"`
	LinkKind   string                `json:"link_kind"`
	// LinkGBps is the GPU-to-GPU bandwidth per GPU, GB/s, both directions added, as vendors publish.
	LinkGBps      float64 `json:"link_gb_s"`
	GPUsPerServer int     `json:"gpus_per_server"`
	NVLinkDomain  int     `json:"nvlink_domain"` // accelerators on the fast link without a NIC
	PCIeGen       int     `json:"pcie_gen,omitempty"`
	TDPWatts      float64 `json:"tdp_w,omitempty"`
	// PowerCapWatts is a board power limit below TDPWatts that the part
	// runs at (a capped variant); 0 = none. The datasheet peaks are the
	// uncapped part's; the performance model lowers sustained tensor
	// throughput for the cap.
	PowerCapWatts float64 `json:"power_cap_w,omitempty"`
	// L2MiB is the last-level on-chip cache that every SM shares (NVIDIA's
	// L2, AMD's Infinity Cache), MiB; 0 = not given. The image model
	// serves elementwise traffic of activations that fit in it from the
	// cache rather than device memory.
	L2MiB        float64 `json:"-"`
	MIG          bool    `json:"mig"`
	Confidential Tri     `json:"confidential_computing"`
	ReleaseYear  int     `json:"release_year,omitempty"`
	Notes        string  `json:"notes,omitempty"`
	Fact
}

// TFLOPS returns the dense peak for d, and whether the hardware has it.
func (a *Accelerator) TFLOPS(d DataType) (float64, bool) {
	v := a.PeakTFLOPS[d]
	return v, v > 0
}

// Region is a provider's region and where it is.
type Region struct {
	Provider      string `json:"provider"`
	ID            string `json:"region"`
	Country       string `json:"country"` // ISO 3166 alpha-2
	City          string `json:"city,omitempty"`
	EUEEA         bool   `json:"eu_eea"`
	MainlandChina bool   `json:"mainland_china"`
	Fact
}

// Certification is an attestation a provider holds and what it covers.
type Certification struct {
	Name  string `json:"name" yaml:"name"`
	Scope string `json:"scope" yaml:"scope"`
	// Compute says whether the certificate's scope includes the
	// provider's GPU compute instances: an AI-management certificate
	// may cover only managed AI services. Unknown when the scope does not
	// say.
	Compute Tri `json:"compute" yaml:"compute"`
	Fact    `yaml:",inline"`
}

// EgressTier prices internet egress: USDPerGB applies up to UpToTB per
// month (cumulative); the last tier has UpToTB 0, meaning no limit.
type EgressTier struct {
	UpToTB   float64 `json:"up_to_tb,omitempty"`
	USDPerGB float64 `json:"usd_per_gb"`
}

// Provider is a cloud and the facts that hold across its offers.
type Provider struct {
	ID                  string          `json:"id"`
	Name                string          `json:"name"`
	HQCountry           string          `json:"hq_country"`
	CloudAct            bool            `json:"cloud_act"`
	Certifications      []Certification `json:"certifications"`
	CustomerManagedKeys Tri             `json:"customer_managed_keys"`
	ConfidentialGPUVMs  Tri             `json:"confidential_gpu_vms"`
	SecureBoot          Tri             `json:"secure_boot"`
	// EgressTiers are in USD (converted at load when published in another
	// currency); none means the egress price is unknown, and a free
	// provider has one tier at 0. Egress is where they were read and the
	// date they speak for; EgressNotes what they leave out.
	EgressTiers []EgressTier `json:"egress_tiers"`
	Egress      Fact         `json:"egress_fact"`
	EgressNotes string       `json:"egress_notes,omitempty"`
	// Storage prices in USD per GB-month; 0 = unknown.
	BlockUSDPerGBMonth  float64       `json:"block_storage_usd_per_gb_month,omitempty"`
	ObjectUSDPerGBMonth float64       `json:"object_storage_usd_per_gb_month,omitempty"`
	BillingGranularity  time.Duration `json:"billing_granularity_s"`
	MinimumBilling      time.Duration `json:"minimum_billing_s"`
	// SpotInterruptionPerHour is the published chance of a spot interruption
	// per instance-hour; 0 = not published.
	SpotInterruptionPerHour float64 `json:"spot_interruption_per_hour,omitempty"`
	// Operator is who runs the provider's machines, with the source of the
	// classification; OperatorRules override it for the instance types
	// they match (a provider that sells both its own machines and its
	// hosts'). OperatorOf resolves one instance type.
	Operator      OperatorFact   `json:"operator"`
	OperatorRules []OperatorRule `json:"operator_rules,omitempty"`
	// MLPS are the provider's filings under China's Multi-Level Protection
	// Scheme 2.0 (等保 2.0), each with its level and what it covers.
	MLPS []MLPSFiling `json:"mlps,omitempty"`
	// LegalEntity, Datacenters and Documents are the provider's part of
	// its supply chain (nil or empty when unknown); SupplyChainOf joins
	// them with the regions, offers and export rules.
	LegalEntity *LegalEntity `json:"-"`
	Datacenters *Datacenters `json:"-"`
	Documents   []Document   `json:"-"`
	Notes       string       `json:"notes,omitempty"`
	Fact
}

// OperatorOf is who runs the machines of instanceType: the first rule
// that matches it, else the provider's own classification (kind unknown
// when the catalog has none).
func (p *Provider) OperatorOf(instanceType string) OperatorFact {
	for _, r := range p.OperatorRules {
		if ok, _ := path.Match(r.InstanceTypes, instanceType); ok {
			return OperatorFact{Kind: r.Kind, Fact: r.Fact}
		}
	}
	return p.Operator
}

// OperatorKind says who runs the machine an offer rents. Buyers with a
// compliance duty care because only the company they contract answers for
// the machine: an independent host of a marketplace is anonymous to them.
// The zero value is unknown, which never counts as the provider.
type OperatorKind string

// Operator kinds, from the most to the least accountable to the buyer.
const (
	// OperatorProvider: the provider runs the machines itself, in its own
	// or leased data centres.
	OperatorProvider OperatorKind = "provider"
	// OperatorPartner: data-centre partners or other clouds that the
	// provider contracts run the machines, under the provider's terms and
	// vetting; the buyer contracts only the provider.
	OperatorPartner OperatorKind = "partner"
	// OperatorMarketplace: independent hosts list their own machines on
	// the provider's marketplace; the provider brokers the rental and does
	// not run the machine, and the host is not known to the buyer.
	OperatorMarketplace OperatorKind = "marketplace"
	// OperatorCommunity: individual hosts of the provider's community
	// cloud run the machines; the provider vets them but does not name
	// them to the buyer.
	OperatorCommunity OperatorKind = "community"
)

var operatorKinds = []OperatorKind{OperatorProvider, OperatorPartner, OperatorMarketplace, OperatorCommunity}

// OperatorKinds lists the kinds in order.
func OperatorKinds() []OperatorKind { return append([]OperatorKind(nil), operatorKinds...) }

// ParseOperatorKind reads a kind's name, in any case.
func ParseOperatorKind(s string) (OperatorKind, bool) {
	for _, k := range operatorKinds {
		if strings.EqualFold(string(k), strings.TrimSpace(s)) {
			return k, true
		}
	}
	return "", false
}

// ThirdPartyHost reports whether an independent host, not known to the
// buyer, runs the machine: a marketplace or community host.
func (k OperatorKind) ThirdPartyHost() bool {
	return k == OperatorMarketplace || k == OperatorCommunity
}

// OperatorFact is an operator kind and where the classification comes
// from.
type OperatorFact struct {
	Kind OperatorKind `json:"kind"`
	Fact
}

// OperatorRule classifies the instance types that InstanceTypes matches
// (a path.Match pattern such as "*_COMMUNITY") apart from the provider's
// other machines.
type OperatorRule struct {
	InstanceTypes string       `json:"instance_types"`
	Kind          OperatorKind `json:"kind"`
	Fact
}

// Operator is who runs an offer's machines, with what a buyer weighs about
// them: the kind, and the provider that sells the offer (its name, home
// country and US CLOUD Act reach). Catalog.OfferOperator builds it.
type Operator struct {
	Kind         OperatorKind `json:"kind"`
	Provider     string       `json:"provider"`
	ProviderName string       `json:"provider_name"`
	HQCountry    string       `json:"hq_country"`
	CloudAct     bool         `json:"cloud_act"`
	Fact
}

// CertificationName is the name the filing is listed under among the
// provider's certifications, and that a workload's certifications name:
// "MLPS-L3" for level 3.
func (f MLPSFiling) CertificationName() string { return "MLPS-L" + strconv.Itoa(f.Level) }

// CoversRegion reports whether the filing covers a GPU offer in region (its
// platform, and a region it is not limited away from).
func (f MLPSFiling) CoversRegion(region string) bool {
	return f.Covers == MLPSPlatform && (len(f.Regions) == 0 || slices.Contains(f.Regions, region))
}

func joinKinds() string {
	s := make([]string, len(operatorKinds))
	for i, k := range operatorKinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// MLPS coverage: what a provider's MLPS filing covers.
const (
	// MLPSPlatform is the provider's cloud platform in mainland China, its
	// compute service included.
	MLPSPlatform = "platform"
	// MLPSProduct is one named product only (its Scope says which), not
	// the GPU compute service an offer rents.
	MLPSProduct = "product"
)

// MLPSFiling is one filing of a provider under China's Multi-Level
// Protection Scheme 2.0 (等保 2.0, GB/T 22239-2019): the level (1-5) its
// system was assessed at, what it covers (MLPSPlatform or MLPSProduct),
// the regions it is limited to (none: every mainland-China region of the
// provider), and its source. A provider's filing covers its own layer;
// the customer's system needs its own assessment.
type MLPSFiling struct {
	Level   int      `json:"level"`
	Covers  string   `json:"covers"`
	Regions []string `json:"regions,omitempty"`
	Scope   string   `json:"scope"`
	Fact
}

// Mode is a way to pay for an instance.
type Mode int8

// Pricing modes. Monthly is the subscription Chinese clouds sell
// (包年包月); its hourly equivalent is the monthly price / HoursPerMonth.
const (
	OnDemand Mode = iota
	Spot
	Monthly
	Reserved1y
	Reserved3y
	// Serverless is a platform that bills a worker by the second while it
	// runs and scales to zero: its price is per worker-hour, and the
	// offer's ColdStartS, IdleTimeoutS and BillingIncrementS say how a
	// worker starts, stays and is billed.
	Serverless
	NumModes
)

var modeNames = [NumModes]string{"on-demand", "spot", "monthly", "reserved-1y", "reserved-3y", "serverless"}

func (m Mode) String() string { return modeNames[m] }

// MarshalText writes the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// ParseMode maps a mode name (on-demand, spot, ...) to a Mode.
func ParseMode(s string) (Mode, bool) {
	for i, n := range modeNames {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return Mode(i), true
		}
	}
	return 0, false
}

// ModeNames lists the pricing modes in order.
func ModeNames() []string { return modeNames[:] }

// Prices are per instance-hour, one per mode; 0 means not published
// (catalog rules forbid a real price of 0).
type Prices [NumModes]float64

// SpotBasis says what an offer's spot price stands for: spot prices move
// by zone and by hour, so one figure needs to say how it was made.
type SpotBasis int8

// Spot bases. The zero value is a spot price whose source does not say
// (a hand-kept row, an older catalog file).
const (
	SpotBasisUnstated SpotBasis = iota
	// SpotZonesMean is the mean of the region's zones' prices at the
	// source's date; SpotMin and SpotMax are the cheapest and dearest zone.
	SpotZonesMean
	// SpotRegional is one price for every zone of the region (the zones of
	// the source agree, or the provider sets one price per region).
	SpotRegional
	// SpotAverage is the source's own average over the region's zones and
	// recent history, with the lowest and highest it saw.
	SpotAverage
	// SpotPoint is one zone's or one listing's price at one moment: what a
	// buyer pays may differ widely, and the cost interval is widened.
	SpotPoint
	numSpotBases
)

var spotBasisNames = [numSpotBases]string{"", "zones-mean", "regional", "average", "point"}

func (b SpotBasis) String() string { return spotBasisNames[b] }

// MarshalText writes the basis's name ("" when unstated).
func (b SpotBasis) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// ParseSpotBasis reads a basis name; "" is SpotBasisUnstated.
func ParseSpotBasis(s string) (SpotBasis, bool) {
	for i, n := range spotBasisNames {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return SpotBasis(i), true
		}
	}
	return 0, false
}

// SpotBasisNames lists the stated bases.
func SpotBasisNames() []string { return spotBasisNames[1:] }

// Get returns the price for m and whether it is known.
func (p Prices) Get(m Mode) (float64, bool) { return p[m], p[m] > 0 }

// Offer is one instance type in one region of one provider.
type Offer struct {
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	Region       string `json:"region"`
	Country      string `json:"country"` // from the region
	GPU          string `json:"gpu"`     // accelerator id (aliases resolved at load)
	GPUCount     int    `json:"gpu_count"`
	// GPUFraction is the share of one accelerator the offer holds when it
	// is a slice (a vGPU or MIG partition): 1/6 of an A10, 1/8 of an L4.
	// 0 means whole GPUs. A sliced offer has GPUCount 1, and its memory,
	// bandwidth and compute are that share of the accelerator's
	// (Catalog.OfferAccelerator).
	GPUFraction float64 `json:"gpu_fraction,omitempty"`
	GPUMemGiB   float64 `json:"gpu_memory_gib"`
	VCPUs       int     `json:"vcpus"`
	RAMGiB      float64 `json:"ram_gib"`
	// Storage and network; 0 = none or unknown.
	NVMeTB           float64 `json:"nvme_tb,omitempty"`
	NVMeReadGBps     float64 `json:"nvme_read_gb_s,omitempty"`
	BlockGBps        float64 `json:"block_gb_s,omitempty"`
	NetworkGbps      float64 `json:"network_gbps,omitempty"`
	InterconnectKind string  `json:"interconnect_kind,omitempty"`
	InterconnectGBps float64 `json:"interconnect_gb_s,omitempty"` // both directions, per GPU
	FabricKind       string  `json:"fabric_kind,omitempty"`       // empty: cannot be clustered
	FabricGbps       float64 `json:"fabric_gbps,omitempty"`       // per node
	// Currency is what the provider publishes in; LocalPrices are in it.
	Currency string `json:"currency"`
	// RegionInferred is true when the source lists the instance type for
	// a provider, not for this region: it may not be sold here.
	RegionInferred bool   `json:"region_inferred,omitempty"`
	LocalPrices    Prices `json:"-"`
	// ListPrices are LocalPrices in USD per instance-hour (monthly as its
	// hourly equivalent).
	ListPrices Prices `json:"-"`
	// YourPrices are ListPrices after the user's overlay; equal to
	// ListPrices when no rule matched.
	YourPrices Prices `json:"-"`
	// PriceRules names, per mode, the overlay rule that set YourPrices.
	PriceRules [NumModes]string `json:"-"`
	// PriceFacts are the source and date of each mode's price when they
	// differ from the offer's own (a reserved price from another file than
	// the on-demand one); zero otherwise. PriceFact reads them.
	PriceFacts [NumModes]Fact `json:"-"`
	// SpotBasis says how the spot price was made; SpotMin and SpotMax (in
	// Currency per instance-hour, 0 = unknown) are the range it moved in
	// over the zones (and history) averaged, SpotZones how many zones.
	SpotBasis SpotBasis `json:"spot_basis,omitempty"`
	SpotMin   float64   `json:"-"`
	SpotMax   float64   `json:"-"`
	SpotZones int       `json:"spot_zones,omitempty"`
	// AllUpfront1y and AllUpfront3y are the effective hourly rates (in
	// Currency per instance-hour) of a 1- and 3-year term paid wholly
	// upfront, where the provider sells one; the reserved modes hold the
	// no-upfront rate. 0 = not sold or unknown.
	AllUpfront1y float64 `json:"-"`
	AllUpfront3y float64 `json:"-"`
	// ColdStartS and IdleTimeoutS are what a serverless platform states
	// of a worker: seconds from a request to a ready worker when none is
	// warm (its own figure, before the model loads), and how long an idle
	// worker is kept (and billed) before it scales to zero, by default.
	// BillingIncrementS is the unit a worker's time is billed in. 0 =
	// not stated.
	ColdStartS         float64 `json:"cold_start_s,omitempty"`
	IdleTimeoutS       float64 `json:"idle_timeout_s,omitempty"`
	BillingIncrementS  float64 `json:"billing_increment_s,omitempty"`
	EgressUSDPerGB     float64 `json:"egress_usd_per_gb,omitempty"`
	BlockUSDPerGBMonth float64 `json:"block_usd_per_gb_month,omitempty"`
	Confidential       Tri     `json:"confidential_computing"`
	// Operator is who runs the offer's machines (Provider.OperatorOf its
	// instance type), filled when the catalog is built.
	Operator OperatorFact `json:"operator"`
	Driver   string       `json:"driver,omitempty"`
	Notes    string       `json:"notes,omitempty"`
	Fact
	// srcLine is the row's line in its catalog file, for errors (0: not
	// from a file).
	srcLine int
}

// GPUs is the number of whole accelerators the offer is worth: the count,
// or the fraction of a sliced offer. Prices per GPU-hour divide by it.
func (o *Offer) GPUs() float64 {
	if o.GPUFraction > 0 {
		return o.GPUFraction * float64(o.GPUCount)
	}
	return float64(o.GPUCount)
}

// Sliced reports whether the offer holds a fraction of one accelerator.
func (o *Offer) Sliced() bool { return o.GPUFraction > 0 && o.GPUFraction < 1 }

// PriceFact is the source and date of the offer's price in m: its own
// fact unless that mode's price came from another source.
func (o *Offer) PriceFact(m Mode) Fact {
	if f := o.PriceFacts[m]; f.Source != "" {
		return f
	}
	return o.Fact
}

// PricesAsOf is the date of the offer's prices: of its on-demand price,
// else the newest of its priced modes (its own date when unpriced).
func (o *Offer) PricesAsOf() time.Time {
	if o.LocalPrices[OnDemand] > 0 {
		return o.PriceFact(OnDemand).AsOf
	}
	var d time.Time
	for m := Mode(0); m < NumModes; m++ {
		if f := o.PriceFact(m); o.LocalPrices[m] > 0 && f.AsOf.After(d) {
			d = f.AsOf
		}
	}
	if d.IsZero() {
		return o.AsOf
	}
	return d
}

// PricesStale reports whether the offer's prices (PricesAsOf) are older
// than StaleAfter at now.
func (o *Offer) PricesStale(now time.Time) bool { return now.Sub(o.PricesAsOf()) > StaleAfter }

// SpotRange is the spread of the spot price as factors of it (lo <= 1 <=
// hi): the cheapest and dearest zone, or the lowest and highest the source
// saw. ok is false when the source gives no range.
func (o *Offer) SpotRange() (lo, hi float64, ok bool) {
	sp := o.LocalPrices[Spot]
	if sp <= 0 || o.SpotMin <= 0 || o.SpotMax <= 0 {
		return 1, 1, false
	}
	return o.SpotMin / sp, o.SpotMax / sp, true
}

// ID is the offer's name, provider/instance-type.
func (o *Offer) ID() string { return o.Provider + "/" + o.InstanceType }

// Key identifies the row: provider/instance-type@region.
func (o *Offer) Key() string { return o.ID() + "@" + o.Region }

// FX is an exchange rate: what one unit of Currency is worth in USD.
type FX struct {
	Currency   string  `json:"currency"`
	USDPerUnit float64 `json:"usd_per_unit"`
	Fact
}
