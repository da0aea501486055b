package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/parallel"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// The files of a catalog directory.
const (
	AcceleratorsFile = "accelerators.csv"
	ProvidersFile    = "providers.yaml"
	RegionsFile      = "regions.csv"
	FXFile           = "fx.csv"
	OffersDir        = "offers"
)

var acceleratorColumns = []string{
	"id", "aliases", "name", "vendor", "architecture", "compute_capability", "gfx_target",
	"memory_gib", "memory_type", "memory_bandwidth_gb_s",
	"fp64_tflops", "fp32_tflops", "tf32_tflops", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp4_tflops", "int8_tops",
	"link_kind", "link_gb_s", "gpus_per_server", "nvlink_domain", "pcie_gen", "tdp_w", "mig",
	"confidential_computing", "release_year", "source", "as_of", "notes", "power_cap_w", "l2_mib",
}

var regionColumns = []string{"provider", "region", "country", "city", "eu_eea", "mainland_china", "source", "as_of"}

var fxColumns = []string{"currency", "usd_per_unit", "source", "as_of"}

var offerColumns = []string{
	"provider", "instance_type", "region", "gpu", "gpu_count", "gpu_fraction", "gpu_memory_gib", "vcpus", "ram_gib",
	"nvme_tb", "nvme_read_gb_s", "block_gb_s", "network_gbps", "interconnect_kind", "interconnect_gb_s",
	"fabric_kind", "fabric_gbps", "price_on_demand", "price_spot", "price_reserved_1y", "price_reserved_3y",
	"price_monthly", "currency", "egress_usd_per_gb", "block_usd_per_gb_month", "confidential_computing",
	"driver", "source", "as_of", "notes", "region_inferred",
	"spot_min", "spot_max", "spot_basis", "spot_zones",
	"price_reserved_1y_all_upfront", "price_reserved_3y_all_upfront", "price_sources",
	"price_serverless", "cold_start_s", "idle_timeout_s", "billing_increment_s",
}

// Files is the parsed content of one catalog directory, before references
// are resolved. Build turns one or more of them into a Catalog.
type Files struct {
	Accelerators []*Accelerator
	Providers    []*Provider
	// providerEgressCurrency records providers whose egress and storage
	// figures are in another currency, converted in Build.
	providerCurrency map[string]string
	Regions          []*Region
	FX               []FX
	Offers           []*Offer
	// MIGProfiles are the rows of mig-profiles.csv (optional: a catalog
	// without it has no MIG profiles).
	MIGProfiles []*MIGProfile
	// SpotRisks are the rows of spot-risk.csv (optional).
	SpotRisks []*SpotRisk
	// Supply are the rows of supply-chain.yaml (optional).
	Supply SupplyFacts
}

// Parse reads a catalog directory. With requireAll, every file must be
// there (the embedded catalog); otherwise missing files are fine (a user's
// overlay directory holding only some rows). Every problem is reported, with
// file, line and column, as an apperr.List.
func Parse(fsys fs.FS, requireAll bool) (*Files, error) {
	f := &Files{providerCurrency: map[string]string{}}
	// Each file is parsed on its own, in parallel (the offer files are most
	// of a process's start-up), into its own error list; the lists are then
	// joined in the files' fixed order, so the report does not depend on
	// the schedule.
	type part struct {
		errs   apperr.List
		offers []*Offer
		name   string
	}
	var parts []*part
	var tasks []func()
	add := func(name string, optional bool, parse func(b []byte, errs *apperr.List)) *part {
		p := &part{name: name}
		parts = append(parts, p)
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			if (!optional && requireAll) || !errors.Is(err, fs.ErrNotExist) {
				p.errs = append(p.errs, &apperr.Error{Code: apperr.Invalid, File: name, Msg: "cannot read", Err: err})
			}
			return p
		}
		tasks = append(tasks, func() { parse(b, &p.errs) })
		return p
	}
	add(AcceleratorsFile, false, func(b []byte, errs *apperr.List) { f.Accelerators = parseAccelerators(AcceleratorsFile, b, errs) })
	add(ProvidersFile, false, func(b []byte, errs *apperr.List) { f.parseProviders(ProvidersFile, b, errs) })
	add(RegionsFile, false, func(b []byte, errs *apperr.List) { f.Regions = parseRegions(RegionsFile, b, errs) })
	add(FXFile, false, func(b []byte, errs *apperr.List) { f.FX = parseFX(FXFile, b, errs) })
	add(MIGProfilesFile, true, func(b []byte, errs *apperr.List) { f.MIGProfiles = parseMIGProfiles(MIGProfilesFile, b, errs) })
	add(SpotRiskFile, true, func(b []byte, errs *apperr.List) { f.SpotRisks = ParseSpotRisks(SpotRiskFile, b, errs) })
	add(SupplyChainFile, true, func(b []byte, errs *apperr.List) { f.Supply = ParseSupplyChain(SupplyChainFile, b, errs) })
	names, err := fs.Glob(fsys, OffersDir+"/*.csv")
	if err != nil {
		parts = append(parts, &part{errs: apperr.List{&apperr.Error{Code: apperr.Invalid, File: OffersDir, Msg: "cannot list", Err: err}}})
	}
	if requireAll && len(names) == 0 {
		parts = append(parts, &part{errs: apperr.List{&apperr.Error{Code: apperr.Invalid, File: OffersDir, Msg: "no offer files (offers/<provider>.csv)"}}})
	}
	sort.Strings(names)
	offerParts := map[*part]bool{}
	for _, n := range names {
		var p *part
		p = add(n, false, func(b []byte, errs *apperr.List) { p.offers = ParseOffers(n, b, errs) })
		offerParts[p] = true
	}
	parallel.For(len(tasks), func(i int) { tasks[i]() })

	var errs apperr.List
	type at struct {
		file string
		line int
	}
	seen := map[string]at{} // key -> the file and line of its first row
	for _, p := range parts {
		errs = append(errs, p.errs...)
		if !offerParts[p] {
			continue
		}
		for _, o := range p.offers {
			k := o.Key()
			if first, dup := seen[k]; dup {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: p.name, Line: o.srcLine, Field: "instance_type",
					Message: msg.New("%s is listed twice (first at %s:%d): one row per provider, instance type and region", k, first.file, first.line)})
				continue
			}
			seen[k] = at{p.name, o.srcLine}
			f.Offers = append(f.Offers, o)
		}
	}
	return f, errs.Err()
}

func parseAccelerators(file string, data []byte, errs *apperr.List) []*Accelerator {
	var out []*Accelerator
	readTable(file, data, acceleratorColumns,
		[]string{"id", "name", "vendor", "architecture", "memory_gib", "memory_bandwidth_gb_s", "source", "as_of"},
		errs, func(t *table) {
			a := &Accelerator{
				ID:                strings.ToLower(t.req("id")),
				Aliases:           list(t.str("aliases")),
				Name:              t.req("name"),
				Vendor:            strings.ToLower(t.req("vendor")),
				Architecture:      strings.ToLower(t.req("architecture")),
				ComputeCapability: t.str("compute_capability"),
				GFXTarget:         t.str("gfx_target"),
				MemGiB:            t.pos("memory_gib"),
				MemType:           t.str("memory_type"),
				MemBandwidthGBps:  t.pos("memory_bandwidth_gb_s"),
				LinkKind:          strings.ToLower(t.str("link_kind")),
				LinkGBps:          t.pos("link_gb_s"),
				GPUsPerServer:     t.integer("gpus_per_server"),
				NVLinkDomain:      t.integer("nvlink_domain"),
				PCIeGen:           t.integer("pcie_gen"),
				TDPWatts:          t.pos("tdp_w"),
				PowerCapWatts:     t.pos("power_cap_w"),
				L2MiB:             t.pos("l2_mib"),
				MIG:               t.boolean("mig"),
				Confidential:      t.tri("confidential_computing"),
				ReleaseYear:       t.integer("release_year"),
				Notes:             t.str("notes"),
				Fact:              t.fact(),
			}
			for d := DataType(0); d < NumDataTypes; d++ {
				col := d.String() + "_tflops"
				if d == INT8 {
					col = "int8_tops"
				}
				a.PeakTFLOPS[d] = t.pos(col)
			}
			for col, v := range map[string]float64{"memory_gib": a.MemGiB, "memory_bandwidth_gb_s": a.MemBandwidthGBps} {
				if v == 0 && t.str(col) == "" {
					t.fail(t.line, col, "required, got an empty cell (the performance model needs it)")
				}
			}
			if a.GPUsPerServer == 0 {
				a.GPUsPerServer = 8
			}
			if a.NVLinkDomain == 0 {
				a.NVLinkDomain = 1
			}
			checkPeakOrder(t, a)
			out = append(out, a)
		})
	return out
}

// checkPeakOrder catches sparsity figures stored as dense, and typos: on the
// same chip narrower types are never slower.
func checkPeakOrder(t *table, a *Accelerator) {
	order := []DataType{FP4, FP8, BF16, TF32}
	prev := DataType(-1)
	for _, d := range order {
		if a.PeakTFLOPS[d] == 0 {
			continue
		}
		if prev >= 0 && a.PeakTFLOPS[prev] < a.PeakTFLOPS[d] {
			t.fail(t.line, prev.String()+"_tflops", "%g is below %s_tflops %g: a sparsity figure or a typo?",
				a.PeakTFLOPS[prev], d, a.PeakTFLOPS[d])
		}
		prev = d
	}
}

func parseRegions(file string, data []byte, errs *apperr.List) []*Region {
	var out []*Region
	readTable(file, data, regionColumns, []string{"provider", "region", "country", "source", "as_of"}, errs, func(t *table) {
		r := &Region{
			Provider:      strings.ToLower(t.req("provider")),
			ID:            t.req("region"),
			Country:       strings.ToUpper(t.req("country")),
			City:          t.str("city"),
			EUEEA:         t.boolean("eu_eea"),
			MainlandChina: t.boolean("mainland_china"),
			Fact:          t.fact(),
		}
		switch {
		case r.Country == "UNKNOWN":
			// Written on purpose: a marketplace that does not say where
			// its capacity is. Residency constraints exclude the region.
			r.Country = ""
		case len(r.Country) != 2:
			t.fail(t.line, "country", "want an ISO 3166 alpha-2 code such as DE (or unknown, when the provider does not publish it), got %q", r.Country)
		}
		out = append(out, r)
	})
	return out
}

func parseFX(file string, data []byte, errs *apperr.List) []FX {
	var out []FX
	readTable(file, data, fxColumns, fxColumns, errs, func(t *table) {
		x := FX{Currency: strings.ToUpper(t.req("currency")), USDPerUnit: t.pos("usd_per_unit"), Fact: t.fact()}
		if x.USDPerUnit == 0 {
			t.fail(t.line, "usd_per_unit", "required, got an empty cell")
		}
		out = append(out, x)
	})
	return out
}

// ParseOffers reads one offers CSV file (exported for the fuzz target and
// for `catalog validate` on a single file).
func ParseOffers(file string, data []byte, errs *apperr.List) []*Offer {
	var out []*Offer
	want := strings.TrimSuffix(path.Base(file), ".csv")
	readTable(file, data, offerColumns,
		[]string{"provider", "instance_type", "region", "gpu", "gpu_count", "currency", "source", "as_of"},
		errs, func(t *table) {
			o := &Offer{
				Provider:           strings.ToLower(t.req("provider")),
				InstanceType:       t.req("instance_type"),
				Region:             t.req("region"),
				GPU:                t.req("gpu"),
				GPUCount:           t.integer("gpu_count"),
				GPUFraction:        t.pos("gpu_fraction"),
				GPUMemGiB:          t.pos("gpu_memory_gib"),
				VCPUs:              t.integer("vcpus"),
				RAMGiB:             t.pos("ram_gib"),
				NVMeTB:             t.pos("nvme_tb"),
				NVMeReadGBps:       t.pos("nvme_read_gb_s"),
				BlockGBps:          t.pos("block_gb_s"),
				NetworkGbps:        t.pos("network_gbps"),
				InterconnectKind:   strings.ToLower(t.str("interconnect_kind")),
				InterconnectGBps:   t.pos("interconnect_gb_s"),
				FabricKind:         strings.ToLower(t.str("fabric_kind")),
				FabricGbps:         t.pos("fabric_gbps"),
				Currency:           strings.ToUpper(t.req("currency")),
				EgressUSDPerGB:     t.pos("egress_usd_per_gb"),
				BlockUSDPerGBMonth: t.pos("block_usd_per_gb_month"),
				Confidential:       t.tri("confidential_computing"),
				RegionInferred:     t.boolean("region_inferred"),
				Driver:             t.str("driver"),
				Notes:              t.str("notes"),
				Fact:               t.fact(),
			}
			o.srcLine = t.line
			for _, col := range []string{"price_on_demand", "price_spot", "price_reserved_1y", "price_reserved_3y", "price_serverless"} {
				if v := t.num(col); v > MaxLocalPricePerHour {
					t.fail(t.line, col, "%g per instance-hour is beyond any real instance (at most %g)", v, MaxLocalPricePerHour)
				}
			}
			if v := t.num("price_monthly"); v > MaxLocalPricePerHour*HoursPerMonth {
				t.fail(t.line, "price_monthly", "%g per month is beyond any real instance (at most %g)", v, MaxLocalPricePerHour*HoursPerMonth)
			}
			o.LocalPrices[OnDemand] = t.pos("price_on_demand")
			o.LocalPrices[Spot] = t.pos("price_spot")
			o.LocalPrices[Reserved1y] = t.pos("price_reserved_1y")
			o.LocalPrices[Reserved3y] = t.pos("price_reserved_3y")
			o.LocalPrices[Monthly] = t.pos("price_monthly") / HoursPerMonth
			o.LocalPrices[Serverless] = t.pos("price_serverless")
			o.ColdStartS, o.IdleTimeoutS, o.BillingIncrementS = t.pos("cold_start_s"), t.pos("idle_timeout_s"), t.pos("billing_increment_s")
			if (o.ColdStartS > 0 || o.IdleTimeoutS > 0 || o.BillingIncrementS > 0) && o.LocalPrices[Serverless] == 0 {
				t.fail(t.line, "cold_start_s", "cold_start_s, idle_timeout_s and billing_increment_s describe a serverless price: price_serverless is empty")
			}
			o.AllUpfront1y = t.pos("price_reserved_1y_all_upfront")
			o.AllUpfront3y = t.pos("price_reserved_3y_all_upfront")
			parseSpotColumns(t, o)
			parsePriceSources(t, o)
			if o.GPUCount == 0 && t.str("gpu_count") != "" {
				t.fail(t.line, "gpu_count", "must be >= 1")
			}
			if want != "" && o.Provider != "" && o.Provider != want && path.Dir(file) == OffersDir {
				t.fail(t.line, "provider", "%q in the file of provider %q: one provider per file", o.Provider, want)
			}
			if od, ok := o.LocalPrices.Get(OnDemand); ok {
				if sp, ok := o.LocalPrices.Get(Spot); ok && sp >= od {
					t.fail(t.line, "price_spot", "%g is not below on-demand %g: a source error? leave it empty", sp, od)
				}
			}
			if o.FabricKind != "" && o.FabricGbps == 0 {
				t.fail(t.line, "fabric_gbps", "required when fabric_kind is set")
			}
			out = append(out, o)
		})
	return out
}

// parseSpotColumns reads the spot price's basis and range: a range holds
// the price, and needs a price to hold.
func parseSpotColumns(t *table, o *Offer) {
	o.SpotMin, o.SpotMax = t.pos("spot_min"), t.pos("spot_max")
	o.SpotZones = t.integer("spot_zones")
	b, ok := ParseSpotBasis(t.str("spot_basis"))
	if !ok {
		t.fail(t.line, "spot_basis", "want one of %s or empty, got %q", strings.Join(SpotBasisNames(), ", "), t.str("spot_basis"))
	}
	o.SpotBasis = b
	sp := o.LocalPrices[Spot]
	switch {
	case (o.SpotMin > 0) != (o.SpotMax > 0):
		t.fail(t.line, "spot_min", "spot_min and spot_max go together: give both or neither")
	case o.SpotMin > 0 && sp == 0:
		t.fail(t.line, "spot_min", "a spot range needs a price_spot")
	case o.SpotMin > 0 && (o.SpotMin > sp*(1+1e-9) || o.SpotMax < sp*(1-1e-9)):
		t.fail(t.line, "price_spot", "%g is outside its range %g-%g (spot_min-spot_max)", sp, o.SpotMin, o.SpotMax)
	}
	if b != SpotBasisUnstated && sp == 0 {
		t.fail(t.line, "spot_basis", "states how a spot price was made, but price_spot is empty")
	}
	if o.SpotZones > 0 && b != SpotZonesMean && b != SpotRegional {
		t.fail(t.line, "spot_zones", "counts the zones of a zones-mean or regional spot price, but spot_basis is %q", b)
	}
}

// PriceSourceSep separates the entries of the price_sources column.
const PriceSourceSep = " | "

// parsePriceSources reads price_sources: entries "MODES YYYY-MM-DD
// SOURCE" separated by " | ", MODES a comma-separated list of pricing
// modes whose price came from SOURCE as of that date rather than from the
// row's own source. A mode named must have a price.
func parsePriceSources(t *table, o *Offer) {
	s := t.str("price_sources")
	if s == "" {
		return
	}
	for _, entry := range strings.Split(s, PriceSourceSep) {
		fields := strings.SplitN(strings.TrimSpace(entry), " ", 3)
		if len(fields) < 3 {
			t.fail(t.line, "price_sources", "want entries %q separated by %q, got %q", "MODES YYYY-MM-DD SOURCE", PriceSourceSep, entry)
			continue
		}
		d, err := time.Parse(time.DateOnly, fields[1])
		if err != nil {
			t.fail(t.line, "price_sources", "want a date YYYY-MM-DD after the modes, got %q", fields[1])
			continue
		}
		for _, name := range strings.Split(fields[0], ",") {
			m, ok := ParseMode(name)
			if !ok {
				t.fail(t.line, "price_sources", "unknown pricing mode %q (want %s)", name, strings.Join(ModeNames(), ", "))
				continue
			}
			if o.LocalPrices[m] == 0 {
				t.fail(t.line, "price_sources", "names a source for %s, which has no price in this row", m)
				continue
			}
			o.PriceFacts[m] = Fact{Source: strings.TrimSpace(fields[2]), AsOf: d}
		}
	}
}

// formatPriceSources writes o's per-mode facts for price_sources: modes
// with the same fact share one entry, in mode order.
func formatPriceSources(o *Offer) string {
	var entries []string
	var done [NumModes]bool
	for m := Mode(0); m < NumModes; m++ {
		f := o.PriceFacts[m]
		if done[m] || f.Source == "" || o.LocalPrices[m] == 0 {
			continue
		}
		names := []string{m.String()}
		for n := m + 1; n < NumModes; n++ {
			if o.PriceFacts[n] == f && o.LocalPrices[n] > 0 {
				names = append(names, n.String())
				done[n] = true
			}
		}
		entries = append(entries, strings.Join(names, ",")+" "+f.AsOf.Format(time.DateOnly)+" "+f.Source)
	}
	return strings.Join(entries, PriceSourceSep)
}

type providerYAML struct {
	ID             string `yaml:"id"`
	Name           string `yaml:"name"`
	HQCountry      string `yaml:"hq_country"`
	CloudAct       bool   `yaml:"cloud_act"`
	Certifications []struct {
		Name    string `yaml:"name"`
		Scope   string `yaml:"scope"`
		Compute string `yaml:"compute"`
		Source  string `yaml:"source"`
		AsOf    string `yaml:"as_of"`
	} `yaml:"certifications"`
	CustomerManagedKeys string `yaml:"customer_managed_keys"`
	ConfidentialGPUVMs  string `yaml:"confidential_gpu_vms"`
	SecureBoot          string `yaml:"secure_boot"`
	EgressTiers         []struct {
		UpToTB   float64 `yaml:"up_to_tb"`
		USDPerGB float64 `yaml:"usd_per_gb"`
	} `yaml:"egress_tiers_usd_per_gb"`
	EgressCurrency          string  `yaml:"egress_currency"`
	EgressSource            string  `yaml:"egress_source"`
	EgressAsOf              string  `yaml:"egress_as_of"`
	EgressNotes             string  `yaml:"egress_notes"`
	BlockUSDPerGBMonth      float64 `yaml:"block_storage_usd_per_gb_month"`
	ObjectUSDPerGBMonth     float64 `yaml:"object_storage_usd_per_gb_month"`
	BillingGranularityS     float64 `yaml:"billing_granularity_s"`
	MinimumBillingS         float64 `yaml:"minimum_billing_s"`
	SpotInterruptionPerHour float64 `yaml:"spot_interruption_per_hour"`
	Operator                *struct {
		Kind   string `yaml:"kind"`
		Source string `yaml:"source"`
		AsOf   string `yaml:"as_of"`
	} `yaml:"operator"`
	OperatorRules []struct {
		InstanceTypes string `yaml:"instance_types"`
		Kind          string `yaml:"kind"`
		Source        string `yaml:"source"`
		AsOf          string `yaml:"as_of"`
	} `yaml:"operator_rules"`
	MLPS []struct {
		Level   int      `yaml:"level"`
		Covers  string   `yaml:"covers"`
		Regions []string `yaml:"regions"`
		Scope   string   `yaml:"scope"`
		Source  string   `yaml:"source"`
		AsOf    string   `yaml:"as_of"`
	} `yaml:"mlps"`
	LegalEntity *struct {
		Name    string `yaml:"name"`
		Country string `yaml:"country"`
		Source  string `yaml:"source"`
		AsOf    string `yaml:"as_of"`
	} `yaml:"legal_entity"`
	Datacenters *struct {
		Model  string `yaml:"model"`
		From   string `yaml:"from"`
		Note   string `yaml:"note"`
		Source string `yaml:"source"`
		AsOf   string `yaml:"as_of"`
	} `yaml:"datacenters"`
	Documents []struct {
		Kind   string `yaml:"kind"`
		URL    string `yaml:"url"`
		Access string `yaml:"access"`
		Source string `yaml:"source"`
		AsOf   string `yaml:"as_of"`
	} `yaml:"documents"`
	Source string `yaml:"source"`
	AsOf   string `yaml:"as_of"`
	Notes  string `yaml:"notes"`
}

func (f *Files) parseProviders(file string, data []byte, errs *apperr.List) {
	var raw []providerYAML
	if err := strictyaml.Decode(data, &raw); err != nil {
		var l apperr.List
		if errors.As(apperr.InFile(err, file), &l) {
			*errs = append(*errs, l...)
		}
		return
	}
	line := strictyaml.LineOf(data)
	bad := func(i int, field, format string, args ...any) {
		at := fmt.Sprintf("[%d].%s", i, field)
		e := apperr.Invalidf(at, format, args...)
		e.File, e.Line = file, line(at)
		*errs = append(*errs, e)
	}
	date := func(i int, field, s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			bad(i, field, "want a date YYYY-MM-DD, got %q", s)
		}
		return d
	}
	tri := func(i int, field, s string) Tri {
		v, ok := ParseTri(s)
		if !ok {
			bad(i, field, "want yes, no or unknown, got %q", s)
		}
		return v
	}
	for i, r := range raw {
		p := &Provider{
			ID:                      strings.ToLower(r.ID),
			Name:                    r.Name,
			HQCountry:               strings.ToUpper(r.HQCountry),
			CloudAct:                r.CloudAct,
			CustomerManagedKeys:     tri(i, "customer_managed_keys", r.CustomerManagedKeys),
			ConfidentialGPUVMs:      tri(i, "confidential_gpu_vms", r.ConfidentialGPUVMs),
			SecureBoot:              tri(i, "secure_boot", r.SecureBoot),
			BlockUSDPerGBMonth:      r.BlockUSDPerGBMonth,
			ObjectUSDPerGBMonth:     r.ObjectUSDPerGBMonth,
			BillingGranularity:      time.Duration(r.BillingGranularityS * float64(time.Second)),
			MinimumBilling:          time.Duration(r.MinimumBillingS * float64(time.Second)),
			SpotInterruptionPerHour: r.SpotInterruptionPerHour,
			Notes:                   r.Notes,
			Fact:                    Fact{Source: r.Source, AsOf: date(i, "as_of", r.AsOf)},
		}
		if p.ID == "" {
			bad(i, "id", "required")
		}
		if p.Name == "" {
			bad(i, "name", "required")
		}
		if len(p.HQCountry) != 2 {
			bad(i, "hq_country", "want an ISO 3166 alpha-2 code, got %q", r.HQCountry)
		}
		if p.Source == "" {
			bad(i, "source", "required")
		}
		if r.BlockUSDPerGBMonth < 0 || r.ObjectUSDPerGBMonth < 0 || r.SpotInterruptionPerHour < 0 || r.SpotInterruptionPerHour > 1 {
			bad(i, "prices", "storage prices must be >= 0 and spot_interruption_per_hour in [0, 1]")
		}
		for j, c := range r.Certifications {
			if c.Name == "" {
				bad(i, fmt.Sprintf("certifications[%d].name", j), "required")
			}
			if strings.HasPrefix(strings.ToUpper(c.Name), "MLPS") {
				bad(i, fmt.Sprintf("certifications[%d].name", j), "%s: write an MLPS filing under mlps, with its level and what it covers", c.Name)
			}
			cert := Certification{Name: c.Name, Scope: c.Scope, Fact: Fact{Source: c.Source}}
			if c.Compute != "" {
				cert.Compute = tri(i, fmt.Sprintf("certifications[%d].compute", j), c.Compute)
			}
			if cert.Source == "" {
				cert.Source = p.Source
			}
			if c.AsOf != "" {
				cert.AsOf = date(i, fmt.Sprintf("certifications[%d].as_of", j), c.AsOf)
			} else {
				cert.AsOf = p.AsOf
			}
			p.Certifications = append(p.Certifications, cert)
		}
		for j, e := range r.EgressTiers {
			if e.USDPerGB < 0 || e.UpToTB < 0 {
				bad(i, fmt.Sprintf("egress_tiers_usd_per_gb[%d]", j), "must be >= 0")
			}
			if j > 0 && e.UpToTB != 0 && e.UpToTB <= r.EgressTiers[j-1].UpToTB {
				bad(i, fmt.Sprintf("egress_tiers_usd_per_gb[%d].up_to_tb", j), "tiers must grow")
			}
			if j < len(r.EgressTiers)-1 && e.UpToTB == 0 {
				bad(i, fmt.Sprintf("egress_tiers_usd_per_gb[%d].up_to_tb", j), "only the last tier may be unlimited")
			}
			p.EgressTiers = append(p.EgressTiers, EgressTier{UpToTB: e.UpToTB, USDPerGB: e.USDPerGB})
		}
		if len(r.EgressTiers) > 0 {
			// Without its own source and date, the egress price is the
			// provider row's fact.
			p.Egress = p.Fact
			if r.EgressSource != "" {
				p.Egress.Source = r.EgressSource
			}
			if r.EgressAsOf != "" {
				p.Egress.AsOf = date(i, "egress_as_of", r.EgressAsOf)
			}
		} else if r.EgressSource != "" || r.EgressAsOf != "" {
			bad(i, "egress_source", "names the source of an egress price, but egress_tiers_usd_per_gb is empty (a free provider has one tier at 0)")
		}
		p.EgressNotes = r.EgressNotes
		// A classification needs its own source: who runs the machines is
		// not in the provider's price or egress sources.
		sourced := func(field, src, asOf string) Fact {
			if strings.TrimSpace(src) == "" {
				bad(i, field+".source", "required: where the classification comes from")
			}
			if asOf == "" {
				bad(i, field+".as_of", "required")
				return Fact{Source: src}
			}
			return Fact{Source: src, AsOf: date(i, field+".as_of", asOf)}
		}
		kind := func(field, s string) OperatorKind {
			k, ok := ParseOperatorKind(s)
			if !ok {
				bad(i, field, "want one of %s, got %q", joinKinds(), s)
			}
			return k
		}
		if op := r.Operator; op != nil {
			p.Operator = OperatorFact{Kind: kind("operator.kind", op.Kind), Fact: sourced("operator", op.Source, op.AsOf)}
		}
		for j, rule := range r.OperatorRules {
			field := fmt.Sprintf("operator_rules[%d]", j)
			if _, err := path.Match(rule.InstanceTypes, ""); err != nil || rule.InstanceTypes == "" {
				bad(i, field+".instance_types", "want a pattern over instance types such as \"*_COMMUNITY\", got %q", rule.InstanceTypes)
			}
			p.OperatorRules = append(p.OperatorRules, OperatorRule{InstanceTypes: rule.InstanceTypes,
				Kind: kind(field+".kind", rule.Kind), Fact: sourced(field, rule.Source, rule.AsOf)})
		}
		for j, m := range r.MLPS {
			field := fmt.Sprintf("mlps[%d]", j)
			if m.Level < 1 || m.Level > 5 {
				bad(i, field+".level", "want an MLPS level from 1 to 5, got %d", m.Level)
			}
			if m.Covers != MLPSPlatform && m.Covers != MLPSProduct {
				bad(i, field+".covers", "want %s or %s, got %q", MLPSPlatform, MLPSProduct, m.Covers)
			}
			f := MLPSFiling{Level: m.Level, Covers: m.Covers, Regions: m.Regions, Scope: m.Scope, Fact: sourced(field, m.Source, m.AsOf)}
			p.MLPS = append(p.MLPS, f)
			// Listed with the certifications too, under the name a
			// workload asks for (MLPS-L3).
			p.Certifications = append(p.Certifications, Certification{Name: f.CertificationName(), Scope: f.Scope, Fact: f.Fact})
		}
		if e := r.LegalEntity; e != nil {
			if strings.TrimSpace(e.Name) == "" {
				bad(i, "legal_entity.name", "required")
			}
			if e.Country != "" && len(e.Country) != 2 {
				bad(i, "legal_entity.country", "want an ISO 3166 alpha-2 code (or leave it out when the source does not say), got %q", e.Country)
			}
			p.LegalEntity = &LegalEntity{Name: e.Name, Country: strings.ToUpper(e.Country), Fact: sourced("legal_entity", e.Source, e.AsOf)}
		}
		if d := r.Datacenters; d != nil {
			if !slices.Contains(dcModels, d.Model) {
				bad(i, "datacenters.model", "want one of %s, got %q", strings.Join(dcModels, ", "), d.Model)
			}
			p.Datacenters = &Datacenters{Model: d.Model, From: d.From, Note: d.Note, Fact: sourced("datacenters", d.Source, d.AsOf)}
		}
		for j, d := range r.Documents {
			field := fmt.Sprintf("documents[%d]", j)
			if !slices.Contains(docKinds, d.Kind) {
				bad(i, field+".kind", "want one of %s, got %q", strings.Join(docKinds, ", "), d.Kind)
			}
			if !strings.HasPrefix(d.URL, "https://") && !strings.HasPrefix(d.URL, "http://") {
				bad(i, field+".url", "want an http(s) URL, got %q", d.URL)
			}
			if _, dup := p.Document(d.Kind); dup {
				bad(i, field+".kind", "%s is listed twice", d.Kind)
			}
			access := cmp.Or(d.Access, AccessPublic)
			if !slices.Contains(docAccess, access) {
				bad(i, field+".access", "want one of %s, got %q", strings.Join(docAccess, ", "), d.Access)
			}
			p.Documents = append(p.Documents, Document{Kind: d.Kind, URL: d.URL, Access: access, Fact: sourced(field, d.Source, d.AsOf)})
		}
		if c := strings.ToUpper(r.EgressCurrency); c != "" && c != "USD" {
			f.providerCurrency[p.ID] = c
		}
		f.Providers = append(f.Providers, p)
	}
}
