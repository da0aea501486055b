package compliance

import (
	"regexp"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// What a due-diligence item serves when it is not one of the workload's
// requirements.
const (
	ServesSecurity = "security"
	ServesData     = "data_protection"
	ServesStack    = "stack"
	ServesExport   = "export_control"
)

// DocCompatList is the due-diligence id of the instance's driver and
// CUDA/ROCm support list.
const DocCompatList = "compat_list"

// How a buyer gets a document.
const (
	// AccessPublished: the provider publishes it at Where.
	AccessPublished = "published"
	// AccessRequest: it must be requested from the provider (the catalog
	// knows no public copy, or the provider shares it only under NDA).
	AccessRequest = "request"
)

// Diligence is one document to read or request before signing: what it
// is, why it matters for this workload on this offer, which requirement it
// serves and where to get it.
type Diligence struct {
	// Document is a stable id: security_whitepaper, compliance_reports,
	// certificate:NAME, dpa, subprocessors, compat_list, attestation,
	// key_custody, customer_agreement, mlps_filing, export_control,
	// hardware_origin.
	Document string `json:"document"`
	// Title names the document; Why is a sentence about this workload.
	// Both are messages: JSON writes them in English, renderers in the
	// reader's language.
	Title msg.Msg `json:"title"`
	Why   msg.Msg `json:"why"`
	// Serves are the requirement names (as in Requirement.Name) or
	// security, data_protection, stack or export_control.
	Serves []string `json:"serves"`
	// Access is published (Where is the link) or request (Where, when
	// set, is the page to ask from).
	Access string `json:"access"`
	Where  string `json:"where,omitempty"`
	// Shared is how the provider shares the document at Where, when the
	// catalog knows: public, account (customers download it after signing
	// in) or nda (on request, under NDA).
	Shared string `json:"shared,omitempty"`
	// Source is where the catalog read Where.
	Source string `json:"source,omitempty"`
}

// DueDiligence lists the documents to read or request before signing for
// the workload's compliance block c on the offer f describes, given the
// verdicts r of Check: five that every buyer reads (security white paper,
// audit reports, data processing terms, sub-processors, the instance's
// driver and CUDA/ROCm support list), then one per requirement that a
// document proves (each certificate's scope, attestation, key custody,
// the contract's governing law, the MLPS filing, hardware origin) and the
// export rule on the accelerator in the region's market. Nothing is
// fetched: links are the catalog's.
func DueDiligence(c workload.Compliance, f Facts, r Result) []Diligence {
	p := f.Provider
	pname, offer, region := providerName(f), offerName(f), regionName(f)
	doc := func(kind string) (catalog.Document, bool) {
		if p == nil {
			return catalog.Document{}, false
		}
		return p.Document(kind)
	}
	item := func(id string, title, why msg.Msg, serves []string, kinds ...string) Diligence {
		d := Diligence{Document: id, Title: title, Why: why, Serves: serves, Access: AccessRequest}
		for _, k := range kinds {
			if x, ok := doc(k); ok {
				d.Where, d.Shared, d.Source = x.URL, x.Access, x.Source
				if k == kinds[0] && x.Access != catalog.AccessNDA {
					d.Access = AccessPublished
				}
				break
			}
		}
		return d
	}
	asked := func(name string) bool {
		for _, q := range r.Requirements {
			if q.Name == name {
				return true
			}
		}
		return false
	}
	var out []Diligence

	out = append(out, item(catalog.DocSecurityWhitepaper, msg.New("Security white paper"),
		msg.New("How %s isolates tenants on a GPU host, patches the hypervisor and firmware, and controls staff access to the machines that would run %s.", pname, offer),
		[]string{ServesSecurity}, catalog.DocSecurityWhitepaper, catalog.DocTrustCenter))

	soc := certificateOf(p, "SOC2")
	why := msg.New("A SOC 2 Type II report shows %s's controls operating over a period, with the auditor's exceptions; check that its system description names the GPU compute service and region %s.", pname, region)
	if soc == nil {
		why = msg.New("The catalog lists no SOC 2 report for %s: ask whether one exists and which services it covers; without one, ask for the ISO 27001 certificate and its statement of applicability.", pname)
	}
	serves := []string{ServesSecurity}
	if asked(CertificationPrefix + "SOC2") {
		serves = []string{CertificationPrefix + "SOC2"}
	}
	out = append(out, item(catalog.DocComplianceReports, msg.New("SOC 2 Type II report"), why, serves, catalog.DocComplianceReports, catalog.DocTrustCenter))

	why = msg.New("Sets what %s may do with the data and models you place on the machine, how fast it reports a breach, and how the data is deleted when you leave.", pname)
	serves = []string{ServesData}
	if len(c.Countries) > 0 {
		why = msg.New("Binds %s to process your data only in %s, as the workload requires, and sets its duties as a processor (GDPR Art. 28 or its local equivalent).", pname, strings.Join(c.Countries, ", "))
		serves = []string{Residency}
	}
	out = append(out, item(catalog.DocDPA, msg.New("Data processing agreement"), why, serves, catalog.DocDPA))

	why = msg.New("Names every company that may touch your data for %s and where it does so; each of them must meet the workload's requirements too.", pname)
	serves = []string{ServesData}
	var reqs []string
	for _, name := range []string{Residency, Jurisdiction, Operator} {
		if asked(name) {
			reqs = append(reqs, name)
		}
	}
	if len(reqs) > 0 {
		serves = reqs
	}
	out = append(out, item(catalog.DocSubprocessors, msg.New("Sub-processor list"), why, serves, catalog.DocSubprocessors, catalog.DocDPA))

	gpu := "the accelerator"
	if f.GPU != nil {
		gpu = f.GPU.ID
	}
	why = msg.New("The image and driver %s installs on %s decide which CUDA or ROCm and framework versions run on %s; confirm yours are supported before you commit.", pname, offer, gpu)
	if f.Offer != nil && f.Offer.Driver != "" {
		why = msg.New("The catalog records driver %s on %s; the provider's image and driver policy decide which CUDA or ROCm and framework versions run on %s, and when they are upgraded.", f.Offer.Driver, offer, gpu)
	}
	d := Diligence{Document: DocCompatList, Title: msg.New("Driver and CUDA/ROCm support list for %s", offer), Why: why,
		Serves: []string{ServesStack}, Access: AccessRequest}
	// The offer's source is a price list, not a support list: the caller
	// that judged the stack links the list its verdict rests on.
	out = append(out, d)

	for _, q := range r.Requirements {
		name, ok := strings.CutPrefix(q.Name, CertificationPrefix)
		if !ok || name == "SOC2" {
			continue
		}
		if _, isMLPS := mlpsLevel(name); isMLPS {
			continue
		}
		d := Diligence{Document: "certificate:" + name, Title: msg.New("%s certificate and scope statement", name),
			Why:    msg.New("The scope statement, not the logo, says which services and sites %s certifies; confirm it covers the GPU compute service in region %s (today's verdict: %s).", name, region, msg.Term(q.Verdict)),
			Serves: []string{q.Name}, Access: AccessRequest}
		if cert := certificateOf(p, name); cert != nil {
			if u := FirstURL(cert.Source); u != "" {
				d.Where, d.Source, d.Access = u, cert.Source, AccessPublished
			}
		}
		if d.Where == "" {
			if x, ok := doc(catalog.DocTrustCenter); ok {
				d.Where, d.Source = x.URL, x.Source
			}
		}
		out = append(out, d)
	}
	if asked(ConfidentialComputing) {
		out = append(out, item(catalog.DocAttestation, msg.New("TEE attestation documentation"),
			msg.New("How you verify, before any data is sent, that %s runs in a trusted execution environment with the GPU in confidential-computing mode: the attestation service, its evidence and who operates it.", offer),
			[]string{ConfidentialComputing}, catalog.DocAttestation))
	}
	if asked(CustomerManagedKeys) {
		out = append(out, item(catalog.DocKeyCustody, msg.New("Key-custody terms (BYOK)"),
			msg.New("Who holds the key material that encrypts your disks on %s, whether %s staff can use it, and what happens to data when you revoke the key.", offer, pname),
			[]string{CustomerManagedKeys}, catalog.DocKeyCustody))
	}
	if asked(Jurisdiction) {
		var entity any = pname // a name, or a message naming its country
		if p != nil && p.LegalEntity != nil {
			entity = p.LegalEntity.Name
			if p.LegalEntity.Country != "" {
				entity = msg.New("%s (%s)", p.LegalEntity.Name, p.LegalEntity.Country)
			}
		}
		d := item(catalog.DocCustomerAgreement, msg.New("Customer agreement: contracting entity and governing law"),
			msg.New("The law that reaches your data follows the company you contract, %s, not the region: confirm the entity and governing law against the excluded %s.", entity, strings.Join(upperAll(c.ExcludeJurisdictions), ", ")),
			[]string{Jurisdiction}, catalog.DocCustomerAgreement)
		if d.Where == "" && p != nil && p.LegalEntity != nil {
			if u := FirstURL(p.LegalEntity.Source); u != "" {
				d.Where, d.Source = u, p.LegalEntity.Source
			}
		}
		out = append(out, d)
	}
	if asked(MLPS) || hasMLPSCert(r) {
		d := Diligence{Document: "mlps_filing", Title: msg.New("MLPS 2.0 filing certificate (等保备案证明)"),
			Why:    msg.New("Shows that %s's platform in region %s is filed at the MLPS level your system builds on; your own system still needs its own assessment.", pname, region),
			Serves: []string{MLPS}, Access: AccessRequest}
		if p != nil {
			for _, m := range p.MLPS {
				if m.CoversRegion(regionName(f)) {
					if u := FirstURL(m.Source); u != "" {
						d.Where, d.Source = u, m.Source
					}
					break
				}
			}
		}
		out = append(out, d)
	}
	if asked(AcceleratorOrigin) {
		out = append(out, Diligence{Document: "hardware_origin", Title: msg.New("Hardware origin statement for %s", offer),
			Why:    msg.New("The workload accepts accelerators designed in %s only: ask %s to state in the contract the make and model of the accelerators and servers behind %s, so that a substitution cannot break the rule.", strings.Join(upperAll(c.AcceleratorOrigins), ", "), pname, offer),
			Serves: []string{AcceleratorOrigin}, Access: AccessRequest})
	}
	if len(f.Export) > 0 {
		x := f.Export[0]
		out = append(out, Diligence{Document: "export_control", Title: msg.New("Export-control status of %s in %s", gpu, x.Market),
			Why:    msg.New("Since %s, %s in %s: %s (the source gives the rule). Ask %s how the %s behind %s were supplied, so that a change in the rules cannot take the capacity away.", x.Since.Format("2006-01-02"), gpu, x.Market, exportStatusText[x.Status], pname, gpu, offer),
			Serves: []string{ServesExport}, Access: AccessPublished, Where: FirstURL(x.Source), Source: x.Source})
		if out[len(out)-1].Where == "" {
			out[len(out)-1].Access = AccessRequest
		}
	}
	return out
}

func certificateOf(p *catalog.Provider, name string) *catalog.Certification {
	if p == nil {
		return nil
	}
	want := certKey(name)
	for i := range p.Certifications {
		if satisfies(certKey(p.Certifications[i].Name), want) {
			return &p.Certifications[i]
		}
	}
	return nil
}

func hasMLPSCert(r Result) bool {
	for _, q := range r.Requirements {
		if name, ok := strings.CutPrefix(q.Name, CertificationPrefix); ok {
			if _, isMLPS := mlpsLevel(name); isMLPS {
				return true
			}
		}
	}
	return false
}

var urlRe = regexp.MustCompile(`https?://[^\s;,()'"]+`)

// exportStatusText says what an export-control status means for a buyer.
var exportStatusText = map[string]msg.Msg{
	catalog.ExportRestricted: msg.New("exports need a licence that is presumed denied"),
	catalog.ExportLicence:    msg.New("exports need a licence, decided case by case"),
	catalog.ExportMarketPart: msg.New("a part made for this market, to stay under the rules in force when it was made"),
}

// FirstURL is the first http(s) link in a source, without a trailing dot.
func FirstURL(source string) string {
	return strings.TrimRight(urlRe.FindString(source), ".")
}
