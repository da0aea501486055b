package data_test

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// minSupplyProviders is how many providers must carry supply-chain facts
// (issue 28).
const minSupplyProviders = 15

// Supply-chain facts are sourced and dated: at least minSupplyProviders
// providers name their contracting entity or how they house their
// machines, every accelerator vendor the offers use is known, and every
// export-control row names accelerators the catalog has.
func TestSupplyChainFacts(t *testing.T) {
	c := load(t)
	sourced := func(f catalog.Fact) bool { return strings.TrimSpace(f.Source) != "" && !f.AsOf.IsZero() }
	covered := 0
	for _, p := range c.Providers {
		n := 0
		if e := p.LegalEntity; e != nil {
			if e.Name == "" || (e.Country != "" && len(e.Country) != 2) || !sourced(e.Fact) {
				t.Errorf("%s: legal entity %+v needs a name, a country and its source and date", p.ID, e)
			}
			n++
		}
		if d := p.Datacenters; d != nil {
			if !sourced(d.Fact) {
				t.Errorf("%s: datacenters without source or date", p.ID)
			}
			n++
		}
		for _, d := range p.Documents {
			if !sourced(d.Fact) || !strings.HasPrefix(d.URL, "https://") {
				t.Errorf("%s: document %s: want an https link with its source and date", p.ID, d.Kind)
			}
		}
		if n > 0 && len(p.Documents) > 0 {
			covered++
		}
	}
	if covered < minSupplyProviders {
		t.Errorf("%d providers have a legal entity or data-centre fact and a document; want at least %d", covered, minSupplyProviders)
	}
	vendors := map[string]bool{}
	for _, a := range c.Accelerators {
		vendors[a.Vendor] = true
	}
	for v := range vendors {
		x, ok := c.Vendor(v)
		if !ok {
			t.Errorf("accelerator vendor %q is not in supply-chain.yaml", v)
			continue
		}
		if len(x.DesignerCountry) != 2 || !sourced(x.Fact) {
			t.Errorf("vendor %s: %+v", v, x)
		}
	}
	for i, x := range c.ExportControls {
		for _, id := range x.Accelerators {
			if a, ok := c.Accelerator(id); !ok || a.ID != id {
				t.Errorf("export_controls[%d]: %q is not an accelerator id of the catalog", i, id)
			}
		}
		if !sourced(x.Fact) || x.Since.After(x.AsOf) {
			t.Errorf("export_controls[%d]: a rule is reported on or after it takes effect, with a source: %+v", i, x)
		}
	}
	t.Logf("%d providers with supply-chain facts; %d vendors; %d export-control facts", covered, len(c.Vendors), len(c.ExportControls))
}
