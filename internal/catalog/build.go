package catalog

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/parallel"
)

// Catalog is a checked, indexed set of catalog facts. Offers are sorted by
// key; accelerators by id. A Catalog is read-only once built, and safe for
// concurrent use.
type Catalog struct {
	Accelerators []*Accelerator
	Providers    []*Provider
	Regions      []*Region
	FX           []FX
	Offers       []*Offer
	// MIGProfiles are every accelerator's MIG profiles, by accelerator id.
	MIGProfiles []*MIGProfile

	byName   map[string]*Accelerator // lowercase id or alias
	provider map[string]*Provider
	region   map[string]*Region // provider/region
	fx       map[string]FX
	sliced   map[sliceKey]*Accelerator
	mig      map[string][]*MIGProfile // accelerator id -> profiles
	spotRisk map[spotRiskKey]*SpotRisk
	// SpotRisks are the rows of spot-risk.csv, later layers replacing
	// earlier rows of the same scope.
	SpotRisks []*SpotRisk
	// Vendors and ExportControls are the rows of supply-chain.yaml: a
	// later layer's vendor replaces the one of the same id, its export
	// facts add to the earlier ones.
	Vendors        []*Vendor
	ExportControls []*ExportControl
}

// sliceKey names the accelerator of a sliced offer: id and fraction.
type sliceKey struct {
	id string
	f  float64
}

// MaxOfferGPUs bounds an offer's accelerator count: a TPU v5p pod slice
// holds up to 8,960 chips, rented as one unit.
const MaxOfferGPUs = 10000

// Build layers files (later ones replace earlier rows with the same key and
// add new ones), resolves references, converts prices to USD and checks every
// rule. All problems are returned together, naming file, row and column.
//
// The catalog adopts the layers' offers rather than copying them: each is
// resolved in place (its accelerator id, country, operator and USD prices
// filled from its own columns), which spares a process start a second
// megabyte-sized copy of thousands of offers. Resolving is idempotent, so the
// same Files may be built again, one build at a time.
func Build(layers ...*Files) (*Catalog, error) {
	c := &Catalog{
		byName:   map[string]*Accelerator{},
		provider: map[string]*Provider{},
		region:   map[string]*Region{},
		fx:       map[string]FX{"USD": {Currency: "USD", USDPerUnit: 1}},
		sliced:   map[sliceKey]*Accelerator{},
		spotRisk: map[spotRiskKey]*SpotRisk{},
	}
	var errs apperr.List
	accel := map[string]*Accelerator{}
	offers := map[string]*Offer{}
	currency := map[string]string{}
	migRows := map[string]int{} // gpu/profile -> index in migs
	var migs []*MIGProfile
	for _, f := range layers {
		for _, p := range f.MIGProfiles {
			k := p.GPU + "/" + p.Profile
			if i, ok := migRows[k]; ok {
				migs[i] = p
				continue
			}
			migRows[k] = len(migs)
			migs = append(migs, p)
		}
		for _, a := range f.Accelerators {
			accel[a.ID] = a
		}
		for _, p := range f.Providers {
			c.provider[p.ID] = p
		}
		for k, v := range f.providerCurrency {
			currency[k] = v
		}
		for _, r := range f.Regions {
			c.region[r.Provider+"/"+r.ID] = r
		}
		for _, x := range f.FX {
			c.fx[x.Currency] = x
		}
		for _, o := range f.Offers {
			offers[o.Key()] = o
		}
		for _, v := range f.Supply.Vendors {
			if i := slices.IndexFunc(c.Vendors, func(x *Vendor) bool { return x.ID == v.ID }); i >= 0 {
				c.Vendors[i] = v
			} else {
				c.Vendors = append(c.Vendors, v)
			}
		}
		c.ExportControls = append(c.ExportControls, f.Supply.ExportControls...)
		for _, r := range f.SpotRisks {
			k := spotRiskKey{r.Provider, r.InstanceType, r.GPU, r.Region}
			if _, ok := c.spotRisk[k]; !ok {
				c.SpotRisks = append(c.SpotRisks, r)
			} else {
				for i, x := range c.SpotRisks {
					if (spotRiskKey{x.Provider, x.InstanceType, x.GPU, x.Region}) == k {
						c.SpotRisks[i] = r
					}
				}
			}
			c.spotRisk[k] = r
		}
	}
	for _, a := range accel {
		c.Accelerators = append(c.Accelerators, a)
	}
	sort.Slice(c.Accelerators, func(i, j int) bool { return c.Accelerators[i].ID < c.Accelerators[j].ID })
	for _, a := range c.Accelerators {
		c.index(a, a.ID, &errs)
		for _, al := range a.Aliases {
			c.index(a, al, &errs)
		}
	}
	c.resolveMIG(migs, &errs)
	for _, p := range c.provider {
		if cur, ok := currency[p.ID]; ok {
			rate, ok := c.fx[cur]
			if !ok {
				errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: ProvidersFile, Field: p.ID + ".egress_currency",
					Message: msg.New("no exchange rate for %s in %s", cur, FXFile)})
				continue
			}
			// Copy before converting: the same Files may be built again.
			cp := *p
			cp.EgressTiers = append([]EgressTier(nil), p.EgressTiers...)
			for i := range cp.EgressTiers {
				cp.EgressTiers[i].USDPerGB *= rate.USDPerUnit
			}
			cp.BlockUSDPerGBMonth *= rate.USDPerUnit
			cp.ObjectUSDPerGBMonth *= rate.USDPerUnit
			c.provider[p.ID] = &cp
		}
		c.Providers = append(c.Providers, c.provider[p.ID])
	}
	sort.Slice(c.Providers, func(i, j int) bool { return c.Providers[i].ID < c.Providers[j].ID })
	for _, r := range c.region {
		if _, ok := c.provider[r.Provider]; !ok {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, File: RegionsFile, Field: "provider",
				Message: msg.New("region %s: unknown provider %q (not in %s)", r.ID, r.Provider, ProvidersFile)})
		}
		c.Regions = append(c.Regions, r)
	}
	sort.Slice(c.Regions, func(i, j int) bool {
		if c.Regions[i].Provider != c.Regions[j].Provider {
			return c.Regions[i].Provider < c.Regions[j].Provider
		}
		return c.Regions[i].ID < c.Regions[j].ID
	})
	for _, x := range c.fx {
		c.FX = append(c.FX, x)
	}
	sort.Slice(c.FX, func(i, j int) bool { return c.FX[i].Currency < c.FX[j].Currency })
	// Sorted by key, each key built once (the map's) rather than per
	// comparison.
	keys := make([]string, 0, len(offers))
	for k := range offers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// Offers are resolved in parallel (each reads the maps filled above and
	// writes only its own offer and error list), then gathered in key order.
	resolved := make([]*Offer, len(keys))
	offerErrs := make([]apperr.List, len(keys))
	parallel.For(len(keys), func(i int) {
		if o := offers[keys[i]]; c.resolveOffer(o, &offerErrs[i]) {
			resolved[i] = o
		}
	})
	c.Offers = make([]*Offer, 0, len(keys))
	for i, o := range resolved {
		errs = append(errs, offerErrs[i]...)
		if o == nil {
			continue
		}
		if o.Sliced() {
			k := sliceKey{o.GPU, o.GPUFraction}
			if _, ok := c.sliced[k]; !ok {
				a, _ := c.Accelerator(o.GPU)
				c.sliced[k] = slice(a, o.GPUFraction)
			}
		}
		c.Offers = append(c.Offers, o)
	}
	return c, errs.Err()
}

func (c *Catalog) index(a *Accelerator, name string, errs *apperr.List) {
	k := strings.ToLower(strings.TrimSpace(name))
	if other, ok := c.byName[k]; ok && other != a {
		*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: AcceleratorsFile, Field: "aliases",
			Message: msg.New("%q names both %s and %s", name, other.ID, a.ID)})
		return
	}
	c.byName[k] = a
}

// offerErr reports a problem with an offer row; offers are identified by key
// because rows of several layers are merged.
func offerErr(o *Offer, field, format string, args ...any) *apperr.Error {
	return &apperr.Error{Code: apperr.Invalid, File: OffersDir + "/" + o.Provider + ".csv", Line: o.srcLine, Field: field,
		Msg: o.Key() + ": " + fmt.Sprintf(format, args...)}
}

// resolveOffer checks an offer against the rest of the catalog, resolves its
// accelerator id and fills its country, operator and prices in USD; false
// when it has a problem.
func (c *Catalog) resolveOffer(o *Offer, errs *apperr.List) bool {
	n := len(*errs)
	a, ok := c.Accelerator(o.GPU)
	if !ok {
		*errs = append(*errs, offerErr(o, "gpu", "unknown accelerator %q (not an id or alias in %s)", o.GPU, AcceleratorsFile))
	} else {
		o.GPU = a.ID
		mem := a.MemGiB
		switch {
		case o.GPUFraction == 0:
		case o.GPUFraction >= 1 || o.GPUFraction < 0:
			*errs = append(*errs, offerErr(o, "gpu_fraction", "must be between 0 and 1 (a slice of one GPU), got %g; leave it empty for whole GPUs", o.GPUFraction))
		case o.GPUCount != 1:
			*errs = append(*errs, offerErr(o, "gpu_fraction", "a sliced offer holds a fraction of one GPU: gpu_count must be 1, got %d", o.GPUCount))
		default:
			mem = a.MemGiB * o.GPUFraction // Build keeps its slice
		}
		if o.GPUMemGiB == 0 {
			o.GPUMemGiB = mem
		} else if math.Abs(o.GPUMemGiB-mem) > 0.1*mem {
			*errs = append(*errs, offerErr(o, "gpu_memory_gib", "%g GiB per GPU, but %s has %.3g GiB: wrong accelerator or fraction?", o.GPUMemGiB, a.ID, mem))
		}
	}
	if p, ok := c.provider[o.Provider]; !ok {
		*errs = append(*errs, offerErr(o, "provider", "unknown provider %q (not in %s)", o.Provider, ProvidersFile))
	} else {
		o.Operator = p.OperatorOf(o.InstanceType)
	}
	if r, ok := c.region[o.Provider+"/"+o.Region]; !ok {
		*errs = append(*errs, offerErr(o, "region", "unknown region %q of %s (not in %s)", o.Region, o.Provider, RegionsFile))
	} else {
		o.Country = r.Country
	}
	if o.GPUCount < 1 || o.GPUCount > MaxOfferGPUs {
		*errs = append(*errs, offerErr(o, "gpu_count", "must be between 1 and %d, got %d", MaxOfferGPUs, o.GPUCount))
	}
	rate, ok := c.fx[o.Currency]
	if !ok {
		*errs = append(*errs, offerErr(o, "currency", "no exchange rate for %q in %s", o.Currency, FXFile))
	}
	for m := Mode(0); m < NumModes; m++ {
		o.ListPrices[m] = o.LocalPrices[m] * rate.USDPerUnit
	}
	o.YourPrices = o.ListPrices
	o.PriceRules = [NumModes]string{}
	return len(*errs) == n
}

// Accelerator resolves an id or alias, case-insensitively.
func (c *Catalog) Accelerator(name string) (*Accelerator, bool) {
	a, ok := c.byName[strings.ToLower(strings.TrimSpace(name))]
	return a, ok
}

// OfferAccelerator is the accelerator an offer gives its user: the
// catalog's, or for a sliced offer its share of memory, bandwidth and
// compute. ok is false when the offer's accelerator is unknown.
func (c *Catalog) OfferAccelerator(o *Offer) (*Accelerator, bool) {
	a, ok := c.Accelerator(o.GPU)
	if !ok || !o.Sliced() {
		return a, ok
	}
	if s, ok := c.sliced[sliceKey{a.ID, o.GPUFraction}]; ok {
		return s, true
	}
	return slice(a, o.GPUFraction), true // an offer added after Build
}

// slice is the part f of accelerator a: memory, bandwidth and every peak
// scale by f (a time-sliced or partitioned GPU); a slice has no GPU-to-GPU
// link and no MIG of its own.
func slice(a *Accelerator, f float64) *Accelerator {
	s := partOf(a, fmt.Sprintf("%s (%s slice)", a.Name, FractionString(f)), a.MemGiB*f, f, f)
	s.L2MiB *= f
	return s
}

// partOf is a part of accelerator a named name: memGiB of memory,
// memBWShare of its memory bandwidth, and computeShare of every compute
// peak and of its power (TDP and cap). Like every slice it has no
// GPU-to-GPU link and no MIG of its own. Its L2 cache is a's; a caller
// that partitions the GPU scales it.
func partOf(a *Accelerator, name string, memGiB, memBWShare, computeShare float64) *Accelerator {
	s := *a
	s.Name = name
	s.MemGiB = memGiB
	s.MemBandwidthGBps *= memBWShare
	for i := range s.PeakTFLOPS {
		s.PeakTFLOPS[i] *= computeShare
	}
	s.LinkKind, s.LinkGBps = "none", 0
	s.GPUsPerServer, s.NVLinkDomain = 1, 1
	s.MIG = false
	s.TDPWatts *= computeShare
	s.PowerCapWatts *= computeShare
	return &s
}

// FractionString writes a slice as 1/n when it is one, else as a decimal:
// 0.1667 is "1/6", 0.125 "1/8", 0.4 "0.4".
func FractionString(f float64) string {
	if f > 0 && f < 1 {
		n := math.Round(1 / f)
		if math.Abs(1/n-f) < 0.002 {
			return fmt.Sprintf("1/%d", int(n))
		}
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}

// Provider returns the provider with the given id.
func (c *Catalog) Provider(id string) (*Provider, bool) {
	p, ok := c.provider[strings.ToLower(id)]
	return p, ok
}

// OfferOperator is who runs o's machines: its kind (unknown when the
// catalog does not classify its provider) and the provider that sells it.
func (c *Catalog) OfferOperator(o *Offer) Operator {
	op := Operator{Kind: o.Operator.Kind, Provider: o.Provider, ProviderName: o.Provider, Fact: o.Operator.Fact}
	if p, ok := c.Provider(o.Provider); ok {
		if op.Kind == "" {
			f := p.OperatorOf(o.InstanceType) // an offer added after Build
			op.Kind, op.Fact = f.Kind, f.Fact
		}
		op.HQCountry, op.CloudAct = p.HQCountry, p.CloudAct
		if p.Name != "" {
			op.ProviderName = p.Name
		}
	}
	return op
}

// Region returns a provider's region.
func (c *Catalog) Region(provider, region string) (*Region, bool) {
	r, ok := c.region[strings.ToLower(provider)+"/"+region]
	return r, ok
}

// Rate returns the exchange rate of a currency (USD is always 1).
func (c *Catalog) Rate(currency string) (FX, bool) {
	x, ok := c.fx[strings.ToUpper(currency)]
	return x, ok
}

// Newest returns the most recent as_of date of any offer with a price: the
// date the catalog's prices speak for.
func (c *Catalog) Newest() time.Time {
	var t time.Time
	for _, o := range c.Offers {
		if o.ListPrices != (Prices{}) && o.AsOf.After(t) {
			t = o.AsOf
		}
	}
	return t
}

// AcceleratorNames lists every id, for error messages.
func (c *Catalog) AcceleratorNames() []string {
	out := make([]string, len(c.Accelerators))
	for i, a := range c.Accelerators {
		out[i] = a.ID
	}
	return out
}
