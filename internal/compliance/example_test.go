package compliance_test

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/workload"
)

// A bank's requirements against an offer in Frankfurt of a US-headquartered
// provider: residency passes, jurisdiction fails, and a preferred feature the
// catalog does not know only warns.
func ExampleCheck() {
	req := workload.Compliance{
		Countries:            []string{"EU"},
		ExcludeJurisdictions: []string{"US"},
		SecureBoot:           workload.Preferred,
	}
	f := compliance.Facts{
		Provider: &catalog.Provider{ID: "usco", Name: "US Cloud", HQCountry: "US", CloudAct: true,
			Fact: catalog.Fact{Source: "https://usco.example/about"}},
		Region: &catalog.Region{Provider: "usco", ID: "eu-central-1", Country: "DE", City: "Frankfurt", EUEEA: true,
			Fact: catalog.Fact{Source: "https://usco.example/regions"}},
	}
	r := compliance.Check(req, f)
	fmt.Println(r.Verdict)
	for _, q := range r.Requirements {
		fmt.Println(q.Name, q.Verdict, q.Required)
	}
	fmt.Println(len(r.Warnings()), "warning")
	// Output:
	// fail
	// residency pass true
	// jurisdiction fail true
	// secure_boot unknown false
	// 1 warning
}
