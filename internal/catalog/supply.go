package catalog

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// SupplyChainFile holds the facts about accelerator vendors and export
// controls (optional: a catalog without it knows neither).
const SupplyChainFile = "supply-chain.yaml"

// LegalEntity is the company a customer contracts with, and the country
// whose law it is incorporated under.
type LegalEntity struct {
	Name    string `json:"name"`
	Country string `json:"country"` // ISO 3166 alpha-2; "" when the source does not say
	Fact
}

// Datacenter models: who builds and owns the halls a provider's machines
// stand in.
const (
	DCOwned       = "owned"       // the provider builds or owns its data centres
	DCLeased      = "leased"      // its own machines in leased or colocation halls
	DCMixed       = "mixed"       // both
	DCPartners    = "partners"    // partners or other clouds run the machines
	DCMarketplace = "marketplace" // independent hosts list their machines
)

var dcModels = []string{DCOwned, DCLeased, DCMixed, DCPartners, DCMarketplace}

// Datacenters is how a provider houses its machines: the model, from whom
// it rents halls or machines where that is public, and a note.
type Datacenters struct {
	Model string `json:"model"`
	From  string `json:"from,omitempty"`
	Note  string `json:"note,omitempty"`
	Fact
}

// Document kinds: what a buyer reads or requests before signing.
const (
	DocSecurityWhitepaper = "security_whitepaper"
	DocComplianceReports  = "compliance_reports"
	DocDPA                = "dpa"
	DocSubprocessors      = "subprocessors"
	DocTrustCenter        = "trust_center"
	DocAttestation        = "attestation"
	DocKeyCustody         = "key_custody"
	DocCustomerAgreement  = "customer_agreement"
)

var docKinds = []string{DocSecurityWhitepaper, DocComplianceReports, DocDPA, DocSubprocessors,
	DocTrustCenter, DocAttestation, DocKeyCustody, DocCustomerAgreement}

// DocKinds lists the document kinds providers.yaml accepts.
func DocKinds() []string { return slices.Clone(docKinds) }

// How a provider shares a document.
const (
	AccessPublic  = "public"  // anyone can read it at the URL
	AccessAccount = "account" // customers download it after signing in (a console or customer portal)
	AccessNDA     = "nda"     // the provider shares it on request, under NDA; the URL is where to ask
)

var docAccess = []string{AccessPublic, AccessAccount, AccessNDA}

// Document is where a provider publishes one document a buyer reads before
// signing, and how it is shared (Access).
type Document struct {
	Kind   string `json:"kind"`
	URL    string `json:"url"`
	Access string `json:"access"`
	Fact
}

// Document returns the provider's document of kind, if the catalog has it.
func (p *Provider) Document(kind string) (Document, bool) {
	for _, d := range p.Documents {
		if d.Kind == kind {
			return d, true
		}
	}
	return Document{}, false
}

// Vendor is who designs an accelerator family, the country of its
// headquarters and who fabricates its data-centre parts.
type Vendor struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	DesignerCountry string `json:"designer_country"`
	Fab             string `json:"fab,omitempty"`
	Fact
}

// Export-control statuses of an accelerator in a market.
const (
	// ExportRestricted: the part may not be exported to the market without
	// a licence that is presumed denied.
	ExportRestricted = "restricted"
	// ExportLicence: exports need a licence, decided case by case.
	ExportLicence = "licence_required"
	// ExportMarketPart: the part was made for the market, to stay under
	// the thresholds of the rules in force when it was made.
	ExportMarketPart = "market_part"
)

var exportStatuses = []string{ExportRestricted, ExportLicence, ExportMarketPart}

// ExportControl is one dated fact about the rules that decide which
// accelerators may be sold into a market (a country, such as CN).
type ExportControl struct {
	Accelerators []string  `json:"accelerators"`
	Market       string    `json:"market"`
	Status       string    `json:"status"`
	Since        time.Time `json:"since"`
	Text         string    `json:"text"`
	Fact
}

type supplyYAML struct {
	Vendors []struct {
		ID              string `yaml:"id"`
		Name            string `yaml:"name"`
		DesignerCountry string `yaml:"designer_country"`
		Fab             string `yaml:"fab"`
		Source          string `yaml:"source"`
		AsOf            string `yaml:"as_of"`
	} `yaml:"vendors"`
	ExportControls []struct {
		Accelerators []string `yaml:"accelerators"`
		Market       string   `yaml:"market"`
		Status       string   `yaml:"status"`
		Since        string   `yaml:"since"`
		Text         string   `yaml:"text"`
		Source       string   `yaml:"source"`
		AsOf         string   `yaml:"as_of"`
	} `yaml:"export_controls"`
}

// SupplyFacts are the rows of supply-chain.yaml.
type SupplyFacts struct {
	Vendors        []*Vendor
	ExportControls []*ExportControl
}

// ParseSupplyChain reads supply-chain.yaml: every row needs its source
// and date.
func ParseSupplyChain(file string, data []byte, errs *apperr.List) SupplyFacts {
	var raw supplyYAML
	var out SupplyFacts
	if err := strictyaml.Decode(data, &raw); err != nil {
		var l apperr.List
		if errors.As(apperr.InFile(err, file), &l) {
			*errs = append(*errs, l...)
		}
		return out
	}
	line := strictyaml.LineOf(data)
	bad := func(field, format string, args ...any) {
		e := apperr.Invalidf(field, format, args...)
		e.File, e.Line = file, line(field)
		*errs = append(*errs, e)
	}
	fact := func(field, src, asOf string) Fact {
		if strings.TrimSpace(src) == "" {
			bad(field+".source", "required")
		}
		d, err := time.Parse(time.DateOnly, asOf)
		if err != nil {
			bad(field+".as_of", "want a date YYYY-MM-DD, got %q", asOf)
		}
		return Fact{Source: src, AsOf: d}
	}
	for i, v := range raw.Vendors {
		field := fmt.Sprintf("vendors[%d]", i)
		if v.ID == "" {
			bad(field+".id", "required")
		}
		if len(v.DesignerCountry) != 2 {
			bad(field+".designer_country", "want an ISO 3166 alpha-2 code, got %q", v.DesignerCountry)
		}
		out.Vendors = append(out.Vendors, &Vendor{ID: strings.ToLower(v.ID), Name: v.Name,
			DesignerCountry: strings.ToUpper(v.DesignerCountry), Fab: v.Fab, Fact: fact(field, v.Source, v.AsOf)})
	}
	for i, x := range raw.ExportControls {
		field := fmt.Sprintf("export_controls[%d]", i)
		if len(x.Accelerators) == 0 {
			bad(field+".accelerators", "required: the accelerator ids the rule decides")
		}
		if len(x.Market) != 2 {
			bad(field+".market", "want an ISO 3166 alpha-2 code, got %q", x.Market)
		}
		if !slices.Contains(exportStatuses, x.Status) {
			bad(field+".status", "want one of %s, got %q", strings.Join(exportStatuses, ", "), x.Status)
		}
		since, err := time.Parse(time.DateOnly, x.Since)
		if err != nil {
			bad(field+".since", "want a date YYYY-MM-DD, got %q", x.Since)
		}
		if strings.TrimSpace(x.Text) == "" {
			bad(field+".text", "required: the rule in one sentence")
		}
		ids := make([]string, len(x.Accelerators))
		for j, a := range x.Accelerators {
			ids[j] = strings.ToLower(strings.TrimSpace(a))
		}
		out.ExportControls = append(out.ExportControls, &ExportControl{Accelerators: ids, Market: strings.ToUpper(x.Market),
			Status: x.Status, Since: since, Text: x.Text, Fact: fact(field, x.Source, x.AsOf)})
	}
	return out
}

// Vendor returns the vendor of id ("nvidia").
func (c *Catalog) Vendor(id string) (*Vendor, bool) {
	for _, v := range c.Vendors {
		if v.ID == strings.ToLower(id) {
			return v, true
		}
	}
	return nil, false
}

// ExportControlsFor returns the export-control facts that name accelerator
// id in market (all markets when market is ""), newest first.
func (c *Catalog) ExportControlsFor(id, market string) []*ExportControl {
	var out []*ExportControl
	for _, x := range c.ExportControls {
		if (market == "" || x.Market == market) && slices.Contains(x.Accelerators, id) {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Since.After(out[j].Since) })
	return out
}

// SupplyChain is what a buyer audits about a provider before signing:
// who they contract, under which law, where the machines stand and who
// houses them, and where the accelerators come from and under which
// export rules. Catalog.SupplyChainOf builds it from providers.yaml,
// regions.csv, the offers and supply-chain.yaml.
type SupplyChain struct {
	// LegalEntity is nil when the catalog does not know it.
	LegalEntity *LegalEntity `json:"legal_entity"`
	// Jurisdiction is the country whose law governs the provider: its
	// legal entity's country, else its headquarters'.
	Jurisdiction string `json:"jurisdiction"`
	// CloudAct: a US company, subject to the US CLOUD Act wherever its
	// data centres are.
	CloudAct bool `json:"cloud_act"`
	// Datacenters is nil when the catalog does not know it.
	Datacenters *Datacenters `json:"datacenters"`
	// RegionCountries are the countries of the provider's regions that
	// have GPU offers, sorted.
	RegionCountries []string `json:"region_countries"`
	// Accelerators are the vendors of the accelerators the provider
	// offers, each with the parts.
	Accelerators []AcceleratorOrigin `json:"accelerators"`
	// ExportControls are the facts about the parts the provider offers in
	// the markets its regions are in.
	ExportControls []ExportNote `json:"export_controls"`
	// Documents are where the provider publishes what a buyer reads
	// before signing.
	Documents []Document `json:"documents"`
}

// AcceleratorOrigin is one vendor of a provider's accelerators.
type AcceleratorOrigin struct {
	Vendor string `json:"vendor"`
	// DesignerCountry and Fab are empty when supply-chain.yaml does not
	// know the vendor.
	DesignerCountry string   `json:"designer_country"`
	Fab             string   `json:"fab,omitempty"`
	Parts           []string `json:"parts"`
	Source          string   `json:"source,omitempty"`
}

// ExportNote is an export-control fact about a part a provider offers in
// a market its regions are in.
type ExportNote struct {
	Accelerator string    `json:"accelerator"`
	Market      string    `json:"market"`
	Status      string    `json:"status"`
	Since       time.Time `json:"since"`
	Text        string    `json:"text"`
	Fact
}

// SupplyChainOf builds provider id's supply chain.
func (c *Catalog) SupplyChainOf(id string) SupplyChain {
	sc := SupplyChain{RegionCountries: []string{}, Accelerators: []AcceleratorOrigin{}, ExportControls: []ExportNote{}, Documents: []Document{}}
	p, ok := c.Provider(id)
	if !ok {
		return sc
	}
	sc.LegalEntity, sc.Datacenters, sc.CloudAct = p.LegalEntity, p.Datacenters, p.CloudAct
	sc.Jurisdiction = p.HQCountry
	if p.LegalEntity != nil && p.LegalEntity.Country != "" {
		sc.Jurisdiction = p.LegalEntity.Country
	}
	sc.Documents = append(sc.Documents, p.Documents...)
	countries := map[string]bool{}
	parts := map[string]map[string]bool{} // vendor -> part ids
	markets := map[string]map[string]bool{}
	for _, o := range c.Offers {
		if o.Provider != p.ID {
			continue
		}
		country := ""
		if r, ok := c.Region(o.Provider, o.Region); ok && r.Country != "" {
			country = r.Country
			countries[country] = true
		}
		a, ok := c.OfferAccelerator(o)
		if !ok {
			continue
		}
		if parts[a.Vendor] == nil {
			parts[a.Vendor] = map[string]bool{}
		}
		parts[a.Vendor][a.ID] = true
		if country != "" {
			if markets[a.ID] == nil {
				markets[a.ID] = map[string]bool{}
			}
			markets[a.ID][country] = true
		}
	}
	sc.RegionCountries = sortedKeys(countries)
	for _, vendor := range sortedKeys(parts) {
		o := AcceleratorOrigin{Vendor: vendor, Parts: sortedKeys(parts[vendor])}
		if v, ok := c.Vendor(vendor); ok {
			o.DesignerCountry, o.Fab, o.Source = v.DesignerCountry, v.Fab, v.Source
		}
		sc.Accelerators = append(sc.Accelerators, o)
		for _, part := range o.Parts {
			for _, market := range sortedKeys(markets[part]) {
				if x := c.ExportControlsFor(part, market); len(x) > 0 {
					// The newest rule is the one in force.
					sc.ExportControls = append(sc.ExportControls, ExportNote{Accelerator: part, Market: market,
						Status: x[0].Status, Since: x[0].Since, Text: x[0].Text, Fact: x[0].Fact})
				}
			}
		}
	}
	return sc
}
