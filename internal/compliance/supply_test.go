package compliance_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/workload"
)

// aiCo holds ISO/IEC 42001 three ways: for compute, for AI services only,
// and with the scope unstated (three providers, one row each).
func aiProvider(compute catalog.Tri) *catalog.Provider {
	return &catalog.Provider{ID: "aico", Name: "AI Cloud", HQCountry: "DE", Fact: fact("https://aico.example"),
		Certifications: []catalog.Certification{{Name: "ISO42001", Scope: "the AI platform", Compute: compute, Fact: fact("https://aico.example/42001")}}}
}

func TestISO42001JudgedByScope(t *testing.T) {
	for _, tc := range []struct {
		name     string
		provider *catalog.Provider
		want     compliance.Verdict
		reason   string
	}{
		{"scope covers GPU compute", aiProvider(catalog.Yes), compliance.Pass, "includes its GPU compute instances"},
		{"scope is AI services only", aiProvider(catalog.No), compliance.Fail, "does not include its GPU compute"},
		{"scope does not say", aiProvider(catalog.Unknown), compliance.Unknown, "usually name AI services"},
		{"not held as far as the catalog knows", euProvider, compliance.Unknown, "does not list ISO42001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compliance.Check(workload.Compliance{Certifications: []string{"ISO42001"}}, compliance.Facts{Provider: tc.provider, Region: frankfurt})
			q := find(t, r, "certification:ISO42001")
			if q.Verdict != tc.want || !strings.Contains(q.Reason.String(), tc.reason) {
				t.Errorf("got %s %q, want %s containing %q", q.Verdict, q.Reason, tc.want, tc.reason)
			}
			if tc.want != compliance.Unknown && q.Source != "https://aico.example/42001" {
				t.Errorf("source %q, want the certificate's", q.Source)
			}
		})
	}
}

func TestAcceleratorOrigin(t *testing.T) {
	h100 := &catalog.Accelerator{ID: "h100-sxm", Vendor: "nvidia"}
	nvidia := &catalog.Vendor{ID: "nvidia", Name: "NVIDIA", DesignerCountry: "US", Fact: fact("https://nvidia.example/about")}
	for _, tc := range []struct {
		name     string
		accepted []string
		gpu      *catalog.Accelerator
		vendor   *catalog.Vendor
		want     compliance.Verdict
		reason   string
	}{
		{"accepted", []string{"us", "EU"}, h100, nvidia, compliance.Pass, "headquartered in US, a country the workload accepts"},
		{"not accepted", []string{"CN"}, h100, nvidia, compliance.Fail, "outside the accepted CN"},
		{"vendor unknown", []string{"US"}, h100, nil, compliance.Unknown, "add the vendor to supply-chain.yaml"},
		{"accelerator unknown", []string{"US"}, nil, nil, compliance.Unknown, "does not know which accelerator"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compliance.Check(workload.Compliance{AcceleratorOrigins: tc.accepted}, compliance.Facts{Provider: euProvider, Region: frankfurt, GPU: tc.gpu, Vendor: tc.vendor})
			q := find(t, r, compliance.AcceleratorOrigin)
			if q.Verdict != tc.want || !strings.Contains(q.Reason.String(), tc.reason) {
				t.Errorf("got %s %q, want %s containing %q", q.Verdict, q.Reason, tc.want, tc.reason)
			}
			if tc.vendor != nil && q.Source != tc.vendor.Source {
				t.Errorf("source %q, want the vendor's %q", q.Source, tc.vendor.Source)
			}
		})
	}
}

// The law that reaches data follows the company a customer contracts: a
// European brand whose contracting entity is American fails an exclusion
// of US law even when its headquarters pass.
func TestJurisdictionFollowsContractingEntity(t *testing.T) {
	p := *euProvider
	p.LegalEntity = &catalog.LegalEntity{Name: "EU Cloud US, Inc.", Country: "US", Fact: fact("https://euco.example/terms")}
	r := compliance.Check(workload.Compliance{ExcludeJurisdictions: []string{"US"}}, compliance.Facts{Provider: &p, Region: frankfurt})
	q := find(t, r, compliance.Jurisdiction)
	if q.Verdict != compliance.Fail || !strings.Contains(q.Reason.String(), "EU Cloud US, Inc.") || !strings.Contains(q.Source, "https://euco.example/terms") {
		t.Errorf("got %s %q (source %q); want fail naming the contracting entity, citing its source", q.Verdict, q.Reason, q.Source)
	}
	p.LegalEntity.Country = "DE"
	if q := find(t, compliance.Check(workload.Compliance{ExcludeJurisdictions: []string{"US"}}, compliance.Facts{Provider: &p, Region: frankfurt}), compliance.Jurisdiction); q.Verdict != compliance.Pass {
		t.Errorf("a German entity of a German provider: got %s %q, want pass", q.Verdict, q.Reason)
	}
}

func TestDueDiligenceServesEachRequirement(t *testing.T) {
	p := *euProvider
	p.Certifications = append(slices.Clone(p.Certifications), catalog.Certification{Name: "ISO42001", Scope: "all services", Compute: catalog.Yes, Fact: fact("https://euco.example/42001")})
	p.LegalEntity = &catalog.LegalEntity{Name: "EU Cloud GmbH", Country: "DE", Fact: fact("https://euco.example/terms")}
	p.Documents = []catalog.Document{
		{Kind: catalog.DocSecurityWhitepaper, URL: "https://euco.example/security.pdf", Access: catalog.AccessPublic, Fact: fact("https://euco.example/security")},
		{Kind: catalog.DocComplianceReports, URL: "https://euco.example/portal", Access: catalog.AccessAccount, Fact: fact("https://euco.example/portal")},
		{Kind: catalog.DocDPA, URL: "https://euco.example/sales", Access: catalog.AccessNDA, Fact: fact("https://euco.example/sales")},
	}
	h100 := &catalog.Accelerator{ID: "h100-sxm", Vendor: "nvidia"}
	export := []*catalog.ExportControl{{Accelerators: []string{"h100-sxm"}, Market: "CN", Status: catalog.ExportRestricted,
		Since: time.Date(2022, 10, 7, 0, 0, 0, 0, time.UTC), Text: "Exports need a licence presumed denied.", Fact: fact("https://bis.example/rule")}}
	c := workload.Compliance{Countries: []string{"DE"}, ExcludeJurisdictions: []string{"US"}, Certifications: []string{"ISO42001", "SOC2"},
		ConfidentialComputing: workload.Required, CustomerManagedKeys: workload.Required, AcceleratorOrigins: []string{"US"}}
	f := compliance.Facts{Provider: &p, Region: frankfurt, GPU: h100, Export: export, Offer: &catalog.Offer{Provider: "euco", InstanceType: "gpu-8x", Region: "eu-frankfurt"}}
	r := compliance.Check(c, f)
	dd := compliance.DueDiligence(c, f, r)
	if len(dd) < 5 {
		t.Fatalf("%d items, want at least the five every buyer reads", len(dd))
	}
	byID := map[string]compliance.Diligence{}
	for _, d := range dd {
		if d.Title.IsZero() || len(d.Why.String()) < 40 || len(d.Serves) == 0 {
			t.Errorf("%s: every item needs a title, a reason and what it serves: %+v", d.Document, d)
		}
		if d.Access != compliance.AccessPublished && d.Access != compliance.AccessRequest {
			t.Errorf("%s: access %q", d.Document, d.Access)
		}
		if d.Access == compliance.AccessPublished && !strings.HasPrefix(d.Where, "http") {
			t.Errorf("%s: published without a link", d.Document)
		}
		if _, dup := byID[d.Document]; dup {
			t.Errorf("%s listed twice", d.Document)
		}
		byID[d.Document] = d
	}
	// Every requirement the workload states is served by some document,
	// except the ones a document cannot prove (where the region is).
	for _, q := range r.Requirements {
		if q.Name == compliance.Residency || q.Name == compliance.Jurisdiction || q.Name == compliance.AcceleratorOrigin ||
			strings.HasPrefix(q.Name, compliance.CertificationPrefix) || q.Name == compliance.ConfidentialComputing || q.Name == compliance.CustomerManagedKeys {
			if !slices.ContainsFunc(dd, func(d compliance.Diligence) bool { return slices.Contains(d.Serves, q.Name) }) {
				t.Errorf("no document serves %s", q.Name)
			}
		}
	}
	for id, want := range map[string]string{
		catalog.DocSecurityWhitepaper: compliance.AccessPublished, // public
		catalog.DocComplianceReports:  compliance.AccessPublished, // in the customer portal
		catalog.DocDPA:                compliance.AccessRequest,   // under NDA: ask, at that page
		catalog.DocSubprocessors:      compliance.AccessRequest,   // the catalog knows no list; the DPA page is where to ask
		"certificate:ISO42001":        compliance.AccessPublished, // the certificate's source is a link
		catalog.DocAttestation:        compliance.AccessRequest,
		catalog.DocKeyCustody:         compliance.AccessRequest,
		catalog.DocCustomerAgreement:  compliance.AccessRequest,
		"hardware_origin":             compliance.AccessRequest,
		"export_control":              compliance.AccessPublished,
	} {
		d, ok := byID[id]
		if !ok {
			t.Errorf("no %s item", id)
			continue
		}
		if d.Access != want {
			t.Errorf("%s: access %s, want %s", id, d.Access, want)
		}
	}
	if d := byID[catalog.DocDPA]; d.Where != "https://euco.example/sales" || d.Shared != catalog.AccessNDA {
		t.Errorf("dpa under NDA: %+v", d)
	}
	if d := byID[catalog.DocCustomerAgreement]; !strings.Contains(d.Why.String(), "EU Cloud GmbH (DE)") || d.Where != "https://euco.example/terms" {
		t.Errorf("customer agreement should name the entity and link its source: %+v", d)
	}
	if _, ok := byID["certificate:SOC2"]; ok {
		t.Error("SOC 2 is the audit report item, not a second certificate item")
	}
	if d := byID[catalog.DocComplianceReports]; !slices.Contains(d.Serves, "certification:SOC2") {
		t.Errorf("the SOC 2 report serves the SOC2 requirement: %v", d.Serves)
	}

	// Without requirements, the five every buyer reads and no more.
	plain := compliance.DueDiligence(workload.Compliance{}, f, compliance.Check(workload.Compliance{}, f))
	var ids []string
	for _, d := range plain {
		ids = append(ids, d.Document)
	}
	want := []string{catalog.DocSecurityWhitepaper, catalog.DocComplianceReports, catalog.DocDPA, catalog.DocSubprocessors, compliance.DocCompatList, "export_control"}
	if !slices.Equal(ids, want) {
		t.Errorf("no requirements: %v, want %v", ids, want)
	}
}

// Over the embedded catalog: every offer gets at least five items, each
// published one links somewhere, and the documents the catalog records
// for the provider are the links used.
func TestDueDiligenceOverCatalog(t *testing.T) {
	c := load(t)
	req := workload.Compliance{Certifications: []string{"ISO27001"}, ExcludeJurisdictions: []string{"CN"}}
	seen := map[string]bool{}
	for _, o := range c.Offers {
		if seen[o.Provider] {
			continue
		}
		seen[o.Provider] = true
		f := compliance.FactsFor(c, o, 0)
		dd := compliance.DueDiligence(req, f, compliance.Check(req, f))
		if len(dd) < 5 {
			t.Errorf("%s: %d items", o.ID(), len(dd))
		}
		for _, d := range dd {
			if d.Access == compliance.AccessPublished && !strings.HasPrefix(d.Where, "http") {
				t.Errorf("%s %s: published without a link", o.ID(), d.Document)
			}
			if d.Document == catalog.DocSecurityWhitepaper && f.Provider != nil {
				if x, ok := f.Provider.Document(catalog.DocSecurityWhitepaper); ok && d.Where != x.URL {
					t.Errorf("%s: white paper at %q, the catalog has %q", o.Provider, d.Where, x.URL)
				}
			}
		}
	}
}

// TestMLPSLevelsAsCertifications: a certification MLPS-L<n> is judged as
// the filing level it asks for: a level-3 filing meets level 2, not 4.
func TestMLPSLevelsAsCertifications(t *testing.T) {
	for cert, want := range map[string]compliance.Verdict{"MLPS-L2": compliance.Pass, "等保三级": compliance.Pass, "MLPS-L4": compliance.Fail} {
		name, ok := workload.CanonicalCertification(cert)
		if !ok {
			t.Fatalf("%s is not a known certification", cert)
		}
		r := compliance.Check(workload.Compliance{Certifications: []string{name}}, compliance.Facts{Provider: euProvider, Region: hangzhou})
		if q := find(t, r, "certification:"+name); q.Verdict != want {
			t.Errorf("%s on a level-3 filing: %s %q, want %s", cert, q.Verdict, q.Reason, want)
		}
	}
}
