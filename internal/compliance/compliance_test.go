package compliance_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

func load(t *testing.T) *catalog.Catalog { return catalogtest.Embedded(t) }

// sameMessage compares messages by their English.
var sameMessage = cmp.Comparer(func(a, b msg.Msg) bool { return a.String() == b.String() })

func fact(src string) catalog.Fact {
	return catalog.Fact{Source: src, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// Small hand-made facts, so each rule is tested on its own.
var (
	euProvider = &catalog.Provider{ID: "euco", Name: "EU Cloud", HQCountry: "DE", Fact: fact("https://euco.example/about"),
		Certifications: []catalog.Certification{
			{Name: "ISO27001", Scope: "all regions", Fact: fact("https://euco.example/iso")},
			{Name: "BSI-C5", Scope: "services in scope", Fact: fact("https://euco.example/c5")},
			{Name: "FedRAMP-High", Scope: "services in scope", Fact: fact("https://euco.example/fedramp")},
			{Name: "SOC2", Scope: "Secure Cloud only", Fact: fact("https://euco.example/soc2")},
		},
		MLPS:                []catalog.MLPSFiling{{Level: 3, Covers: catalog.MLPSPlatform, Regions: []string{"cn-hangzhou"}, Scope: "China regions only (partner-operated)", Fact: fact("https://euco.example/mlps")}},
		CustomerManagedKeys: catalog.Yes, SecureBoot: catalog.Unknown}
	usProvider = &catalog.Provider{ID: "usco", Name: "US Cloud", HQCountry: "US", CloudAct: true, Fact: fact("https://usco.example")}
	nlUSParent = &catalog.Provider{ID: "nlco", Name: "NL Cloud", HQCountry: "NL", CloudAct: true, Fact: fact("https://nlco.example")}
	cnProvider = &catalog.Provider{ID: "cnco", Name: "CN Cloud", HQCountry: "CN", Fact: fact("https://cnco.example")}

	frankfurt = &catalog.Region{Provider: "euco", ID: "eu-frankfurt", Country: "DE", City: "Frankfurt", EUEEA: true, Fact: fact("https://euco.example/regions")}
	virginia  = &catalog.Region{Provider: "euco", ID: "us-east", Country: "US", Fact: fact("https://euco.example/regions")}
	hangzhou  = &catalog.Region{Provider: "euco", ID: "cn-hangzhou", Country: "CN", MainlandChina: true, Fact: fact("https://euco.example/regions")}
	hongkong  = &catalog.Region{Provider: "euco", ID: "cn-hongkong", Country: "HK", Fact: fact("https://euco.example/regions")}
	europe    = &catalog.Region{Provider: "euco", ID: "europe", Country: "EU", Fact: fact("https://euco.example/regions")}
)

func verdicts(r compliance.Result) map[string]compliance.Verdict {
	m := map[string]compliance.Verdict{"": r.Verdict}
	for _, q := range r.Requirements {
		m[q.Name] = q.Verdict
	}
	return m
}

func TestResidency(t *testing.T) {
	for _, tc := range []struct {
		name      string
		countries []string
		region    *catalog.Region
		want      compliance.Verdict
	}{
		{"country listed", []string{"DE", "FR"}, frankfurt, compliance.Pass},
		{"EU matches an EU/EEA region", []string{"EU"}, frankfurt, compliance.Pass},
		{"EU excludes the US", []string{"EU"}, virginia, compliance.Fail},
		{"country not listed", []string{"FR"}, frankfurt, compliance.Fail},
		{"lower case codes", []string{"de"}, frankfurt, compliance.Pass},
		{"CN matches mainland China", []string{"CN"}, hangzhou, compliance.Pass},
		{"CN does not match Hong Kong", []string{"CN"}, hongkong, compliance.Fail},
		{"HK matches Hong Kong", []string{"HK"}, hongkong, compliance.Pass},
		{"EU does not match mainland China", []string{"EU"}, hangzhou, compliance.Fail},
		{"unknown region", []string{"EU"}, nil, compliance.Unknown},
		{"region spanning countries", []string{"EU", "DE"}, europe, compliance.Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := euProvider
			if tc.region == hangzhou {
				p = cnProvider // PIPL localisation also asks who runs the machine
			}
			r := compliance.Check(workload.Compliance{Countries: tc.countries}, compliance.Facts{Provider: p, Region: tc.region})
			q := find(t, r, compliance.Residency)
			if q.Verdict != tc.want {
				t.Fatalf("verdict %s, want %s (%s)", q.Verdict, tc.want, q.Reason)
			}
			if r.Verdict != tc.want {
				t.Errorf("result %s, want %s", r.Verdict, tc.want)
			}
			if !q.Required || q.Reason.IsZero() {
				t.Errorf("residency must be required and explained: %+v", q)
			}
			if q.Verdict != compliance.Unknown && q.Source != tc.region.Source {
				t.Errorf("source %q, want the region's %q", q.Source, tc.region.Source)
			}
		})
	}
}

func TestPIPL(t *testing.T) {
	for _, tc := range []struct {
		name      string
		countries []string
		region    *catalog.Region
		want      map[string]compliance.Verdict
	}{
		{"mainland region", []string{"CN"}, hangzhou, map[string]compliance.Verdict{"": compliance.Pass, compliance.Residency: compliance.Pass, compliance.DataLocalisationCN: compliance.Pass}},
		{"Hong Kong is outside", []string{"cn"}, hongkong, map[string]compliance.Verdict{"": compliance.Fail, compliance.Residency: compliance.Fail, compliance.DataLocalisationCN: compliance.Fail}},
		{"EU region", []string{"CN"}, frankfurt, map[string]compliance.Verdict{"": compliance.Fail, compliance.Residency: compliance.Fail, compliance.DataLocalisationCN: compliance.Fail}},
		{"unknown region", []string{"CN"}, nil, map[string]compliance.Verdict{"": compliance.Unknown, compliance.Residency: compliance.Unknown, compliance.DataLocalisationCN: compliance.Unknown}},
		{"CN among others is no localisation rule", []string{"CN", "HK"}, hongkong, map[string]compliance.Verdict{"": compliance.Pass, compliance.Residency: compliance.Pass}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compliance.Check(workload.Compliance{Countries: tc.countries}, compliance.Facts{Provider: cnProvider, Region: tc.region})
			if diff := cmp.Diff(tc.want, verdicts(r)); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			for _, q := range r.Requirements {
				if q.Name == compliance.DataLocalisationCN && q.Verdict != compliance.Unknown && !strings.Contains(q.Source, "PIPL") {
					t.Errorf("PIPL verdict does not cite the rule: %q", q.Source)
				}
			}
		})
	}
}

func TestJurisdiction(t *testing.T) {
	for _, tc := range []struct {
		name     string
		exclude  []string
		provider *catalog.Provider
		want     compliance.Verdict
		reason   string
	}{
		{"US-headquartered", []string{"US"}, usProvider, compliance.Fail, "headquartered in US"},
		{"US parent (CLOUD Act)", []string{"US"}, nlUSParent, compliance.Fail, "CLOUD Act"},
		{"CLOUD Act irrelevant when only CN is excluded", []string{"CN"}, nlUSParent, compliance.Pass, "headquartered in NL"},
		{"CN excluded", []string{"CN"}, cnProvider, compliance.Fail, "headquartered in CN"},
		{"EU provider", []string{"US", "CN"}, euProvider, compliance.Pass, "no US CLOUD Act reach"},
		{"unknown provider", []string{"US"}, nil, compliance.Unknown, "does not record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compliance.Check(workload.Compliance{ExcludeJurisdictions: tc.exclude}, compliance.Facts{Provider: tc.provider, Region: frankfurt})
			q := find(t, r, compliance.Jurisdiction)
			if q.Verdict != tc.want || !strings.Contains(q.Reason.String(), tc.reason) {
				t.Errorf("got %s %q, want %s containing %q", q.Verdict, q.Reason, tc.want, tc.reason)
			}
			if tc.provider != nil && !strings.Contains(q.Source, tc.provider.Source) {
				t.Errorf("source %q does not cite the provider's %q", q.Source, tc.provider.Source)
			}
		})
	}
}

func TestCertifications(t *testing.T) {
	for _, tc := range []struct {
		name, cert string
		region     *catalog.Region
		wantName   string
		want       compliance.Verdict
		source     string
		reason     string
	}{
		{"present", "ISO27001", frankfurt, "certification:ISO27001", compliance.Pass, "https://euco.example/iso", "scope: all regions"},
		{"alias ISO/IEC", "ISO/IEC 27001", frankfurt, "certification:ISO27001", compliance.Pass, "https://euco.example/iso", "ISO27001"},
		{"BSI C5 spelled differently", "BSI C5", frankfurt, "certification:C5", compliance.Pass, "https://euco.example/c5", "BSI-C5"},
		{"FedRAMP High covers FedRAMP", "FedRAMP", frankfurt, "certification:FedRAMP", compliance.Pass, "https://euco.example/fedramp", "FedRAMP-High, which covers FedRAMP"},
		{"absent is unknown, not fail", "HIPAA", frankfurt, "certification:HIPAA", compliance.Unknown, "", "does not list HIPAA"},
		{"MLPS outside mainland China", "MLPS-L3", frankfurt, "certification:MLPS-L3", compliance.Fail, "https://euco.example/regions", "outside mainland China, where MLPS 2.0 applies"},
		{"MLPS filing of the region", "MLPS3", hangzhou, "certification:MLPS-L3", compliance.Pass, "https://euco.example/mlps", "China regions only"},
		{"scope limited to one service", "SOC 2", frankfurt, "certification:SOC2", compliance.Unknown, "https://euco.example/soc2", "limited or unconfirmed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compliance.Check(workload.Compliance{Certifications: []string{tc.cert}}, compliance.Facts{Provider: euProvider, Region: tc.region})
			q := find(t, r, tc.wantName)
			if q.Verdict != tc.want || q.Source != tc.source || !strings.Contains(q.Reason.String(), tc.reason) {
				t.Errorf("got %s source %q reason %q; want %s source %q reason containing %q", q.Verdict, q.Source, q.Reason, tc.want, tc.source, tc.reason)
			}
			if r.Verdict != tc.want {
				t.Errorf("result %s, want %s: a required certification decides it", r.Verdict, tc.want)
			}
		})
	}
}

func TestPreferredOnlyWarns(t *testing.T) {
	p := *euProvider // CMK yes, secure boot unknown
	for _, tc := range []struct {
		name     string
		c        workload.Compliance
		want     compliance.Verdict
		warnings int
	}{
		{"preferred unknown warns", workload.Compliance{SecureBoot: workload.Preferred}, compliance.Pass, 1},
		{"required unknown excludes", workload.Compliance{SecureBoot: workload.Required}, compliance.Unknown, 0},
		{"preferred pass is silent", workload.Compliance{CustomerManagedKeys: workload.Preferred}, compliance.Pass, 0},
		{"required pass", workload.Compliance{CustomerManagedKeys: workload.Required}, compliance.Pass, 0},
		{"no adds nothing", workload.Compliance{SecureBoot: workload.NotNeeded, CustomerManagedKeys: "", ConfidentialComputing: workload.NotNeeded}, compliance.Pass, 0},
		{"preferred fail warns", workload.Compliance{ConfidentialComputing: workload.Preferred}, compliance.Pass, 1},
		{"required fail fails", workload.Compliance{ConfidentialComputing: workload.Required}, compliance.Fail, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := compliance.Facts{Provider: &p, Region: frankfurt,
				Offer: &catalog.Offer{Provider: "euco", InstanceType: "gpu.1", Region: "eu-frankfurt", GPU: "a100-80gb", GPUCount: 1, Confidential: catalog.No, Fact: fact("https://euco.example/gpu")}}
			r := compliance.Check(tc.c, f)
			if r.Verdict != tc.want {
				t.Errorf("verdict %s, want %s (%+v)", r.Verdict, tc.want, r.Requirements)
			}
			if w := r.Warnings(); len(w) != tc.warnings {
				t.Errorf("warnings %q, want %d", w, tc.warnings)
			}
			var excluded []compliance.Requirement
			for _, q := range r.Requirements {
				if q.Required && q.Verdict != compliance.Pass {
					excluded = append(excluded, q)
				}
			}
			if diff := cmp.Diff(excluded, r.Failed(), sameMessage); diff != "" {
				t.Errorf("Failed() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnsourcedPassIsUnknown(t *testing.T) {
	p := &catalog.Provider{ID: "x", Name: "X", HQCountry: "FR", CustomerManagedKeys: catalog.Yes, SecureBoot: catalog.Yes}
	r := compliance.Check(workload.Compliance{CustomerManagedKeys: workload.Required, SecureBoot: workload.Required, ExcludeJurisdictions: []string{"US"}},
		compliance.Facts{Provider: p})
	for _, q := range r.Requirements {
		if q.Verdict != compliance.Unknown || !strings.Contains(q.Reason.String(), "no source") {
			t.Errorf("%s: %s %q; a fact without a source must not pass", q.Name, q.Verdict, q.Reason)
		}
	}
	if r.Verdict != compliance.Unknown {
		t.Errorf("verdict %s, want unknown", r.Verdict)
	}
}

func TestEmptyCompliance(t *testing.T) {
	r := compliance.Check(workload.Compliance{}, compliance.Facts{})
	if diff := cmp.Diff(compliance.Result{Verdict: compliance.Pass, Requirements: []compliance.Requirement{}}, r, sameMessage); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, err := json.Marshal(r)
	if err != nil || string(b) != `{"verdict":"pass","requirements":[]}` {
		t.Errorf("json %s, %v", b, err)
	}
}

// The first case: EU only and no US jurisdiction excludes every
// US-headquartered or CLOUD Act provider, in every region, over the whole
// embedded catalog.
func TestEUOnlyNoUSJurisdiction(t *testing.T) {
	c := load(t)
	req := workload.Compliance{Countries: []string{"EU"}, ExcludeJurisdictions: []string{"US"}}
	passed := 0
	for _, o := range c.Offers {
		f := compliance.FactsFor(c, o, 0)
		r := compliance.Check(req, f)
		us := f.Provider.HQCountry == "US" || f.Provider.CloudAct
		switch {
		case us && r.Verdict == compliance.Pass:
			t.Errorf("%s: %s passes although its provider is under US jurisdiction", o.Key(), o.Provider)
		case us && find(t, r, compliance.Jurisdiction).Verdict != compliance.Fail:
			t.Errorf("%s: jurisdiction %+v, want fail", o.Key(), find(t, r, compliance.Jurisdiction))
		case r.Verdict == compliance.Pass && (f.Region == nil || !f.Region.EUEEA):
			t.Errorf("%s: passes outside the EU/EEA", o.Key())
		case r.Verdict == compliance.Pass:
			passed++
		}
	}
	if passed == 0 {
		t.Error("no offer passes: the catalog has EU regions of non-US providers")
	}
}

// The second case: a confidential-computing requirement keeps only
// offers whose instance is a confidential GPU VM and whose GPU has a TEE.
func TestConfidentialRequiredKeepsOnlyTEEOffers(t *testing.T) {
	c := load(t)
	req := workload.Compliance{ConfidentialComputing: workload.Required}
	kept := 0
	for _, o := range c.Offers {
		f := compliance.FactsFor(c, o, 0)
		r := compliance.Check(req, f)
		tee := o.Confidential == catalog.Yes && f.GPU != nil && f.GPU.Confidential == catalog.Yes
		if (r.Verdict == compliance.Pass) != tee {
			t.Errorf("%s: verdict %s, offer CC %s, GPU TEE %v", o.Key(), r.Verdict, o.Confidential, f.GPU.Confidential)
		}
		if r.Verdict == compliance.Pass {
			kept++
			q := find(t, r, compliance.ConfidentialComputing)
			if !strings.Contains(q.Reason.String(), "one GPU") && !strings.Contains(q.Reason.String(), "protected-PCIe") {
				t.Errorf("%s: the pass does not state the CC mode limit: %q", o.Key(), q.Reason)
			}
		}
	}
	if kept == 0 {
		t.Error("no confidential GPU offer kept; gcp/a3-highgpu-1g is one")
	}
}

func TestConfidentialLimits(t *testing.T) {
	h100 := &catalog.Accelerator{ID: "h100-sxm", Name: "H100", Architecture: "hopper", Confidential: catalog.Yes, Fact: fact("https://nvidia.example/h100")}
	b200 := &catalog.Accelerator{ID: "b200", Name: "B200", Architecture: "blackwell", Confidential: catalog.Yes, Fact: fact("https://nvidia.example/b200")}
	a100 := &catalog.Accelerator{ID: "a100-80gb", Name: "A100", Confidential: catalog.No, Fact: fact("https://nvidia.example/a100")}
	offer := func(n int, cc catalog.Tri) *catalog.Offer {
		return &catalog.Offer{Provider: "euco", InstanceType: "cc." + strconv.Itoa(n), GPUCount: n, Confidential: cc, Fact: fact("https://euco.example/cc")}
	}
	for _, tc := range []struct {
		name   string
		f      compliance.Facts
		want   compliance.Verdict
		reason string
	}{
		{"single GPU", compliance.Facts{Offer: offer(1, catalog.Yes), GPU: h100}, compliance.Pass, "one GPU"},
		{"several single-GPU VMs", compliance.Facts{Offer: offer(1, catalog.Yes), GPU: h100, GPUs: 4}, compliance.Pass, "4 separate VMs"},
		{"8-GPU VM", compliance.Facts{Offer: offer(8, catalog.Yes), GPU: h100}, compliance.Pass, "protected-PCIe"},
		{"Blackwell driver", compliance.Facts{Offer: offer(1, catalog.Yes), GPU: b200}, compliance.Pass, "R580"},
		{"not a CC VM", compliance.Facts{Offer: offer(1, catalog.No), GPU: h100}, compliance.Fail, "not sold as a confidential GPU VM"},
		{"GPU without TEE", compliance.Facts{Offer: offer(1, catalog.Unknown), GPU: a100}, compliance.Fail, "no GPU trusted execution"},
		{"unknown offer", compliance.Facts{Offer: offer(1, catalog.Unknown), GPU: h100}, compliance.Unknown, "does not know"},
		{"provider has none", compliance.Facts{Provider: &catalog.Provider{Name: "P", ConfidentialGPUVMs: catalog.No, Fact: fact("https://p.example")}, Offer: offer(1, catalog.Unknown), GPU: h100}, compliance.Fail, "offers no confidential GPU VMs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := find(t, compliance.Check(workload.Compliance{ConfidentialComputing: workload.Required}, tc.f), compliance.ConfidentialComputing)
			if q.Verdict != tc.want || !strings.Contains(q.Reason.String(), tc.reason) {
				t.Errorf("got %s %q, want %s containing %q", q.Verdict, q.Reason, tc.want, tc.reason)
			}
		})
	}
}

func TestSecureBootInstanceExceptions(t *testing.T) {
	c := load(t)
	for _, tc := range []struct {
		key  string
		want compliance.Verdict
	}{
		{"aws/p4d.24xlarge@us-east-1", compliance.Fail},
		{"aws/g4dn.metal@us-east-1", compliance.Fail},
		{"aws/p5.48xlarge@us-east-1", compliance.Pass},
	} {
		t.Run(tc.key, func(t *testing.T) {
			var o *catalog.Offer
			for _, x := range c.Offers {
				if x.Key() == tc.key {
					o = x
				}
			}
			if o == nil {
				t.Skipf("%s not in the catalog", tc.key)
			}
			q := find(t, compliance.Check(workload.Compliance{SecureBoot: workload.Required}, compliance.FactsFor(c, o, 0)), compliance.SecureBoot)
			if q.Verdict != tc.want || q.Source == "" {
				t.Errorf("got %s %q (source %q), want %s", q.Verdict, q.Reason, q.Source, tc.want)
			}
		})
	}
}

// Over the whole catalog and every requirement at once: a pass always has a
// source and a reason, and the result is never pass while a required
// requirement is not.
func TestInvariantsOverCatalog(t *testing.T) {
	c := load(t)
	for _, req := range []workload.Compliance{
		{Countries: []string{"EU"}, ExcludeJurisdictions: []string{"US"}, Certifications: []string{"ISO27001", "SOC2", "C5"},
			ConfidentialComputing: workload.Required, CustomerManagedKeys: workload.Required, SecureBoot: workload.Required},
		{Countries: []string{"CN"}, Certifications: []string{"MLPS-L3"}, ConfidentialComputing: workload.Preferred,
			CustomerManagedKeys: workload.Preferred, SecureBoot: workload.Preferred},
	} {
		for _, o := range c.Offers {
			r := compliance.Check(req, compliance.FactsFor(c, o, 16))
			for _, q := range r.Requirements {
				if q.Reason.IsZero() {
					t.Errorf("%s %s: no reason", o.Key(), q.Name)
				}
				if q.Verdict == compliance.Pass && q.Source == "" {
					t.Errorf("%s %s: pass without a source", o.Key(), q.Name)
				}
				if q.Required && q.Verdict != compliance.Pass && r.Verdict == compliance.Pass {
					t.Errorf("%s: overall pass although %s is %s", o.Key(), q.Name, q.Verdict)
				}
			}
		}
	}
}

func find(t *testing.T, r compliance.Result, name string) compliance.Requirement {
	t.Helper()
	for _, q := range r.Requirements {
		if q.Name == name {
			return q
		}
	}
	t.Fatalf("no requirement %q in %+v", name, r.Requirements)
	return compliance.Requirement{}
}

// Marketplace and partner machines of hand-made providers, so that each
// rule about who runs the machine is tested on its own.
var (
	marketCo = &catalog.Provider{ID: "hostco", Name: "Host Market", HQCountry: "US", CloudAct: true, Fact: fact("https://hostco.example"),
		Operator: catalog.OperatorFact{Kind: catalog.OperatorMarketplace, Fact: fact("https://hostco.example/terms")},
		OperatorRules: []catalog.OperatorRule{
			{InstanceTypes: "*_COMMUNITY", Kind: catalog.OperatorCommunity, Fact: fact("https://hostco.example/faq")},
			{InstanceTypes: "*_SECURE", Kind: catalog.OperatorPartner, Fact: fact("https://hostco.example/secure")},
		}}
	hostDE      = &catalog.Region{Provider: "hostco", ID: "DE", Country: "DE", EUEEA: true, Fact: fact("https://hostco.example/regions")}
	hostCN      = &catalog.Region{Provider: "hostco", ID: "CN", Country: "CN", MainlandChina: true, Fact: fact("https://hostco.example/regions")}
	hostOffer   = &catalog.Offer{Provider: "hostco", InstanceType: "1x-H100", Region: "DE"}
	hostCommun  = &catalog.Offer{Provider: "hostco", InstanceType: "1x_H100_COMMUNITY", Region: "DE"}
	hostSecure  = &catalog.Offer{Provider: "hostco", InstanceType: "1x_H100_SECURE", Region: "DE"}
	accountable = workload.AccountableOperators()
)

func TestOperator(t *testing.T) {
	for _, tc := range []struct {
		name   string
		offer  *catalog.Offer
		allow  []workload.Operator
		want   compliance.Verdict
		source string
		reason string
	}{
		{"marketplace host refused", hostOffer, accountable, compliance.Fail, "https://hostco.example/terms", "independent host listed on Host Market's marketplace"},
		{"community host refused", hostCommun, accountable, compliance.Fail, "https://hostco.example/faq", "community cloud"},
		{"partner accepted", hostSecure, accountable, compliance.Pass, "https://hostco.example/secure", "data-centre partners"},
		{"marketplace allowed", hostOffer, []workload.Operator{workload.OperatorProvider, workload.OperatorMarketplace}, compliance.Pass, "https://hostco.example/terms", "which the workload accepts"},
		{"community not allowed by a marketplace allowance", hostCommun, []workload.Operator{workload.OperatorMarketplace}, compliance.Fail, "https://hostco.example/faq", "list community"},
		{"provider refused when only hosts are wanted", &catalog.Offer{Provider: "euco", InstanceType: "x"}, []workload.Operator{workload.OperatorMarketplace}, compliance.Fail, "https://euco.example/own", "does not accept"},
		{"unclassified provider is unknown", &catalog.Offer{Provider: "usco", InstanceType: "x"}, accountable, compliance.Unknown, "", "does not say who runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := marketCo
			switch tc.offer.Provider {
			case "euco":
				cp := *euProvider
				cp.Operator = catalog.OperatorFact{Kind: catalog.OperatorProvider, Fact: fact("https://euco.example/own")}
				p = &cp
			case "usco":
				p = usProvider
			}
			r := compliance.Check(workload.Compliance{Operators: tc.allow}, compliance.Facts{Provider: p, Offer: tc.offer, Region: hostDE})
			q := find(t, r, compliance.Operator)
			if q.Verdict != tc.want || q.Source != tc.source || !strings.Contains(q.Reason.String(), tc.reason) || !q.Required {
				t.Errorf("got %s source %q reason %q; want %s source %q reason containing %q", q.Verdict, q.Source, q.Reason, tc.want, tc.source, tc.reason)
			}
		})
	}
	// Every operator allowed, or none listed: no requirement at all.
	for _, allow := range [][]workload.Operator{nil, workload.Operators()} {
		r := compliance.Check(workload.Compliance{Operators: allow}, compliance.Facts{Provider: marketCo, Offer: hostOffer, Region: hostDE})
		if len(r.Requirements) != 0 || r.Verdict != compliance.Pass {
			t.Errorf("operators %v: %+v, want no requirement", allow, r)
		}
	}
}

// TestOperatorJudgesWhereDataGoes: a localisation is judged by where the
// machine is and by who runs it.
func TestOperatorJudgesWhereDataGoes(t *testing.T) {
	allowHosts := workload.Operators()
	cases := []struct {
		name string
		req  workload.Compliance
		f    compliance.Facts
		want map[string]compliance.Verdict
		text map[string]string
	}{
		{"a marketplace host in mainland China, hosts allowed: localisation unknown",
			workload.Compliance{Countries: []string{"CN"}, Operators: allowHosts},
			compliance.Facts{Provider: marketCo, Offer: &catalog.Offer{Provider: "hostco", InstanceType: "1x-H100", Region: "CN"}, Region: hostCN},
			map[string]compliance.Verdict{"": compliance.Unknown, compliance.Residency: compliance.Pass, compliance.DataLocalisationCN: compliance.Unknown},
			map[string]string{compliance.DataLocalisationCN: "who holds the PRC personal data, and under which law, is unknown", compliance.Residency: "only the location the host states is known"}},
		{"a marketplace host in mainland China, by default: refused for its operator",
			workload.Compliance{Countries: []string{"CN"}, Operators: accountable},
			compliance.Facts{Provider: marketCo, Offer: &catalog.Offer{Provider: "hostco", InstanceType: "1x-H100", Region: "CN"}, Region: hostCN},
			map[string]compliance.Verdict{"": compliance.Fail, compliance.Residency: compliance.Pass, compliance.DataLocalisationCN: compliance.Unknown, compliance.Operator: compliance.Fail},
			nil},
		{"a foreign provider in mainland China without a local operator",
			workload.Compliance{Countries: []string{"CN"}},
			compliance.Facts{Provider: euProvider, Region: hangzhou},
			map[string]compliance.Verdict{"": compliance.Unknown, compliance.Residency: compliance.Pass, compliance.DataLocalisationCN: compliance.Unknown},
			map[string]string{compliance.DataLocalisationCN: "licensed local operator"}},
		{"a US provider in Germany: residency passes and names the CLOUD Act",
			workload.Compliance{Countries: []string{"EU"}},
			compliance.Facts{Provider: usProvider, Region: frankfurt},
			map[string]compliance.Verdict{"": compliance.Pass, compliance.Residency: compliance.Pass},
			map[string]string{compliance.Residency: "under the US CLOUD Act"}},
		{"a marketplace host under an excluded jurisdiction's check: its own seat is unknown",
			workload.Compliance{ExcludeJurisdictions: []string{"CN"}, Operators: allowHosts},
			compliance.Facts{Provider: marketCo, Offer: hostOffer, Region: hostDE},
			map[string]compliance.Verdict{"": compliance.Unknown, compliance.Jurisdiction: compliance.Unknown},
			map[string]string{compliance.Jurisdiction: "only brokers the machine"}},
		{"a marketplace host of an excluded home: fails on the platform's seat",
			workload.Compliance{ExcludeJurisdictions: []string{"US"}, Operators: allowHosts},
			compliance.Facts{Provider: marketCo, Offer: hostOffer, Region: hostDE},
			map[string]compliance.Verdict{"": compliance.Fail, compliance.Jurisdiction: compliance.Fail},
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := compliance.Check(tc.req, tc.f)
			if diff := cmp.Diff(tc.want, verdicts(r)); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			for name, text := range tc.text {
				if q := find(t, r, name); !strings.Contains(q.Reason.String(), text) {
					t.Errorf("%s: reason %q does not say %q", name, q.Reason, text)
				}
			}
		})
	}
}

func TestMLPS(t *testing.T) {
	filed := func(m ...catalog.MLPSFiling) *catalog.Provider {
		p := *cnProvider
		p.Operator = catalog.OperatorFact{Kind: catalog.OperatorProvider, Fact: fact("https://cnco.example/own")}
		p.MLPS = m
		return &p
	}
	l3 := catalog.MLPSFiling{Level: 3, Covers: catalog.MLPSPlatform, Scope: "mainland platform", Fact: fact("https://cnco.example/mlps3")}
	l4 := catalog.MLPSFiling{Level: 4, Covers: catalog.MLPSPlatform, Scope: "mainland platform", Fact: fact("https://cnco.example/mlps4")}
	product := catalog.MLPSFiling{Level: 3, Covers: catalog.MLPSProduct, Scope: "a database product", Fact: fact("https://cnco.example/db")}
	otherRegion := catalog.MLPSFiling{Level: 3, Covers: catalog.MLPSPlatform, Regions: []string{"cn-beijing"}, Scope: "Beijing", Fact: fact("https://cnco.example/bj")}
	for _, tc := range []struct {
		name   string
		want   int
		p      *catalog.Provider
		region *catalog.Region
		verd   compliance.Verdict
		reason string
	}{
		{"level 3 filed", 3, filed(l3), hangzhou, compliance.Pass, "filed at MLPS 2.0 level 3"},
		{"level 4 meets 3", 3, filed(l3, l4), hangzhou, compliance.Pass, "level 4"},
		{"level 3 is below 4", 4, filed(l3), hangzhou, compliance.Fail, "below the level 4"},
		{"a product's filing is not the compute's", 3, filed(product), hangzhou, compliance.Unknown, "a database product only"},
		{"a filing of other regions", 3, filed(otherRegion), hangzhou, compliance.Unknown, "not the GPU compute of region cn-hangzhou"},
		{"no filing known", 3, filed(), hangzhou, compliance.Unknown, "lists no MLPS 2.0 filing"},
		{"outside mainland China", 3, filed(l3), hongkong, compliance.Fail, "outside mainland China"},
		{"an independent host", 3, marketCo, hostCN, compliance.Fail, "independent host's machine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := compliance.Facts{Provider: tc.p, Region: tc.region, Offer: &catalog.Offer{Provider: tc.p.ID, InstanceType: "gn", Region: tc.region.ID}}
			for _, req := range []workload.Compliance{{MLPSLevel: tc.want}, {Certifications: []string{"MLPS-L" + strconv.Itoa(tc.want)}}} {
				r := compliance.Check(req, f)
				q := r.Requirements[0]
				if q.Verdict != tc.verd || !strings.Contains(q.Reason.String(), tc.reason) || r.Verdict != tc.verd {
					t.Errorf("%+v: %s %s %q; want %s containing %q", req, q.Name, q.Verdict, q.Reason, tc.verd, tc.reason)
				}
				if q.Verdict == compliance.Pass && !strings.HasPrefix(q.Source, "https://cnco.example/mlps") {
					t.Errorf("pass cites %q, not the filing", q.Source)
				}
			}
		})
	}
}

// Over the embedded catalog: no marketplace or community machine passes a
// compliance block that keeps the default operators, each is refused for
// its operator, and a mainland-China localisation with an MLPS level
// admits only providers filed at that level for mainland regions.
func TestOperatorAndMLPSOverCatalog(t *testing.T) {
	c := load(t)
	blocks := []workload.Compliance{
		{Countries: []string{"EU"}, Operators: accountable},
		{Countries: []string{"CN"}, Operators: accountable},
		{Operators: accountable},
	}
	hosts, passedMLPS := 0, map[string]bool{}
	for _, o := range c.Offers {
		f := compliance.FactsFor(c, o, 0)
		if o.Operator.Kind.ThirdPartyHost() {
			hosts++
			for _, b := range blocks {
				r := compliance.Check(b, f)
				if r.Verdict == compliance.Pass {
					t.Fatalf("%s (%s) passes %+v", o.Key(), o.Operator.Kind, b)
				}
				if q := find(t, r, compliance.Operator); q.Verdict != compliance.Fail || q.Source == "" {
					t.Errorf("%s: operator %s (source %q), want a sourced fail", o.Key(), q.Verdict, q.Source)
				}
			}
		}
		r := compliance.Check(workload.Compliance{Countries: []string{"CN"}, MLPSLevel: 3, Operators: workload.Operators()}, f)
		if r.Verdict != compliance.Pass {
			continue
		}
		passedMLPS[o.Provider] = true
		ok := false
		for _, m := range f.Provider.MLPS {
			ok = ok || m.Level >= 3 && m.CoversRegion(o.Region)
		}
		if !ok || f.Region == nil || !f.Region.MainlandChina || o.Operator.Kind.ThirdPartyHost() {
			t.Errorf("%s passes a mainland-China MLPS level 3 without a level-3 filing of its mainland region run by the provider", o.Key())
		}
	}
	if hosts == 0 || len(passedMLPS) == 0 {
		t.Errorf("%d host offers, providers passing MLPS 3 in mainland China %v: the property tests nothing", hosts, passedMLPS)
	}
	t.Logf("%d marketplace and community offers; providers passing CN + MLPS level 3: %v", hosts, passedMLPS)
}

// The workload's operators are the catalog's kinds, by name: a workload
// can name every kind the catalog classifies and nothing else.
func TestOperatorNamesAgree(t *testing.T) {
	var w, k []string
	for _, o := range workload.Operators() {
		w = append(w, string(o))
	}
	for _, o := range catalog.OperatorKinds() {
		k = append(k, string(o))
	}
	if diff := cmp.Diff(k, w); diff != "" {
		t.Errorf("catalog kinds vs workload operators (-catalog +workload):\n%s", diff)
	}
}
