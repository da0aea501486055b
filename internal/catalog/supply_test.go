package catalog

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestSupplyChainFacts: the supply-chain facts of a provider and of
// supply-chain.yaml come back whole, and SupplyChainOf joins them with the
// provider's offers and regions.
func TestSupplyChainFacts(t *testing.T) {
	providers := providerRow + `  legal_entity: {name: "A Web Services, Inc.", country: us, source: "https://a.example/agreement", as_of: 2025-01-02}
  datacenters: {model: mixed, from: "Equinix", source: "https://a.example/dc", as_of: 2025-01-03}
  certifications:
    - {name: ISO42001, scope: "the AI platform only", compute: "no", source: "https://a.example/42001", as_of: 2025-01-04}
  documents:
    - {kind: dpa, url: "https://a.example/dpa", source: "https://a.example/dpa", as_of: 2025-01-05}
    - {kind: compliance_reports, url: "https://a.example/artifact", access: account, source: "https://a.example/artifact", as_of: 2025-01-05}
`
	supply := `vendors:
  - {id: nvidia, name: NVIDIA, designer_country: us, fab: TSMC, source: "https://n.example", as_of: 2025-01-01}
export_controls:
  - {accelerators: [a10g], market: CN, status: restricted, since: 2022-10-07, text: "Old rule.", source: "https://bis.example/1", as_of: 2022-10-07}
  - {accelerators: [a10g], market: CN, status: licence_required, since: 2025-04-15, text: "New rule.", source: "https://bis.example/2", as_of: 2025-04-15}
  - {accelerators: [a10g], market: RU, status: restricted, since: 2022-03-01, text: "Other market.", source: "https://bis.example/3", as_of: 2022-03-01}
`
	m := brokenCatalog(t, "providers.yaml", providers)
	delete(m, "offers/tencent.csv")
	m[SupplyChainFile] = &fstest.MapFile{Data: []byte(supply)}
	m["regions.csv"] = &fstest.MapFile{Data: []byte("provider,region,country,source,as_of\naws,us-east-1,US,s,2025-01-01\naws,cn-north-1,CN,s,2025-01-01\n")}
	m["offers/aws.csv"] = &fstest.MapFile{Data: []byte(offerHeader +
		"aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,\n" +
		"aws,g5.xlarge,cn-north-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,\n")}
	files, err := Parse(m, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Build(files)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Provider("aws")
	if p.LegalEntity == nil || p.LegalEntity.Country != "US" || p.LegalEntity.Source != "https://a.example/agreement" {
		t.Errorf("legal entity %+v", p.LegalEntity)
	}
	if p.Certifications[0].Compute != No {
		t.Errorf("compute %v, want no", p.Certifications[0].Compute)
	}
	if d, _ := p.Document(DocDPA); d.Access != AccessPublic {
		t.Errorf("a document without access is public: %+v", d)
	}
	sc := c.SupplyChainOf("aws")
	if sc.Jurisdiction != "US" || sc.Datacenters == nil || sc.Datacenters.From != "Equinix" || len(sc.Documents) != 2 {
		t.Errorf("supply chain %+v", sc)
	}
	if strings.Join(sc.RegionCountries, ",") != "CN,US" {
		t.Errorf("region countries %v", sc.RegionCountries)
	}
	if len(sc.Accelerators) != 1 || sc.Accelerators[0].DesignerCountry != "US" || sc.Accelerators[0].Parts[0] != "a10g" {
		t.Errorf("accelerators %+v", sc.Accelerators)
	}
	// The rule in force in CN is the newest; RU has no region, so its
	// rule is not this provider's concern.
	if len(sc.ExportControls) != 1 || sc.ExportControls[0].Status != ExportLicence || sc.ExportControls[0].Market != "CN" {
		t.Errorf("export controls %+v", sc.ExportControls)
	}
	if x := c.ExportControlsFor("a10g", "CN"); len(x) != 2 || x[0].Text != "New rule." {
		t.Errorf("ExportControlsFor: newest first, got %+v", x)
	}
	if _, ok := c.Vendor("nvidia"); !ok {
		t.Error("vendor nvidia")
	}
	if sc := c.SupplyChainOf("nobody"); sc.LegalEntity != nil || sc.Documents == nil {
		t.Errorf("unknown provider: empty lists, not nil: %+v", sc)
	}
}

// TestSupplyChainErrors: every bad supply-chain fact is a located error
// naming its field.
func TestSupplyChainErrors(t *testing.T) {
	for _, tc := range []struct {
		file, data, want string
	}{
		{"providers.yaml", providerRow + "  legal_entity: {name: X, country: USA, source: s, as_of: 2025-01-01}\n", "providers.yaml:6: [0].legal_entity.country"},
		{"providers.yaml", providerRow + "  legal_entity: {name: X, country: US, as_of: 2025-01-01}\n", "legal_entity.source"},
		{"providers.yaml", providerRow + "  datacenters: {model: rented, source: s, as_of: 2025-01-01}\n", "datacenters.model: want one of owned, leased, mixed, partners, marketplace"},
		{"providers.yaml", providerRow + "  documents: [{kind: brochure, url: 'https://x', source: s, as_of: 2025-01-01}]\n", "documents[0].kind: want one of"},
		{"providers.yaml", providerRow + "  documents: [{kind: dpa, url: 'ftp://x', source: s, as_of: 2025-01-01}]\n", "documents[0].url: want an http(s) URL"},
		{"providers.yaml", providerRow + "  documents: [{kind: dpa, url: 'https://x', access: secret, source: s, as_of: 2025-01-01}]\n", "documents[0].access: want one of public, account, nda"},
		{"providers.yaml", providerRow + "  documents: [{kind: dpa, url: 'https://x', source: s, as_of: 2025-01-01}, {kind: dpa, url: 'https://y', source: s, as_of: 2025-01-01}]\n", "providers.yaml:6: [0].documents[1].kind: dpa is listed twice"},
		{"providers.yaml", providerRow + "  certifications: [{name: ISO42001, compute: maybe, source: s, as_of: 2025-01-01}]\n", "compute"},
		{SupplyChainFile, "vendors: [{id: x, designer_country: USA, source: s, as_of: 2025-01-01}]\n", "supply-chain.yaml:1: vendors[0].designer_country"},
		{SupplyChainFile, "vendors: [{id: x, designer_country: US, source: s, as_of: 2025}]\n", "vendors[0].as_of"},
		{SupplyChainFile, "export_controls: [{accelerators: [h20], market: CN, status: banned, since: 2025-04-15, text: t, source: s, as_of: 2025-04-15}]\n", "export_controls[0].status: want one of restricted, licence_required, market_part"},
		{SupplyChainFile, "export_controls: [{market: CN, status: restricted, since: 2025-04-15, text: t, source: s, as_of: 2025-04-15}]\n", "export_controls[0].accelerators: required"},
		{SupplyChainFile, "export_controls: [{accelerators: [h20], market: CN, status: restricted, since: April, text: t, source: s, as_of: 2025-04-15}]\n", "export_controls[0].since"},
		{SupplyChainFile, "vendors: [{id: x, designer_country: US, source: s, as_of: 2025-01-01, colour: red}]\n", "colour"},
	} {
		_, err := Parse(fstest.MapFS{tc.file: {Data: []byte(tc.data)}}, false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n%s\ngot %v, want an error containing %q", tc.file, tc.data, err, tc.want)
		}
	}
}
