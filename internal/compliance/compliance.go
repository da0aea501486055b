// Package compliance turns a workload's compliance block into verdicts on one
// offer: per requirement pass, fail or unknown, each with a sentence a person
// can act on and the source of the catalog fact behind it.
//
// The rules that matter most to a regulated buyer hold everywhere here:
//
//   - Unknown never counts as pass. A required requirement that is unknown
//     makes the whole result unknown (the offer is excluded); a preferred one
//     only warns.
//   - Every pass cites its source. A pass whose fact has no source is turned
//     into unknown, so an unsourced claim can never look like a pass.
//   - A certification the catalog does not list is unknown, not fail: the
//     catalog may simply not know.
//
// The package reads only the facts it is given (see Facts); it does no I/O.
package compliance

import (
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Verdict is the outcome of one requirement, or of all of them together.
type Verdict string

// The verdicts. Unknown is never treated as Pass.
const (
	Pass    Verdict = "pass"
	Fail    Verdict = "fail"
	Unknown Verdict = "unknown"
)

// Requirement names that are not per certification. A certification
// requirement is named CertificationPrefix + its canonical name
// ("certification:ISO27001").
const (
	Residency             = "residency"
	Jurisdiction          = "jurisdiction"
	CertificationPrefix   = "certification:"
	ConfidentialComputing = "confidential_computing"
	CustomerManagedKeys   = "customer_managed_keys"
	SecureBoot            = "secure_boot"
	DataLocalisationCN    = "data_localisation_cn"
	// MLPS is the MLPS 2.0 (等保 2.0) level the provider's platform must
	// be filed at in the offer's region (compliance.mlps_level).
	MLPS = "mlps"
	// Operator is who runs the machine, against compliance.operators.
	Operator = "operator"
	// AcceleratorOrigin is where the accelerator's designer is
	// headquartered, against compliance.accelerator_origins.
	AcceleratorOrigin = "accelerator_origin"
)

// Requirement is the verdict on one requirement of the workload for one
// offer.
type Requirement struct {
	// Name is one of Residency, DataLocalisationCN, MLPS, Jurisdiction,
	// Operator, AcceleratorOrigin, CertificationPrefix+name, ConfidentialComputing,
	// CustomerManagedKeys, SecureBoot.
	Name    string  `json:"name"`
	Verdict Verdict `json:"verdict"`
	// Required is false for a "preferred" requirement: its fail or unknown
	// only warns and never excludes the offer.
	Required bool `json:"required"`
	// Reason is a sentence a person can act on: a message, written in
	// English in JSON and in the reader's language by the renderers.
	Reason msg.Msg `json:"reason"`
	// Source is the URL or document of the fact behind the verdict (the
	// catalog row's source, and the rule's for legal requirements). It is
	// empty only when the fact is unknown; a pass always has one.
	Source string `json:"source"`
}

// Result is the verdict on all of a workload's compliance requirements for
// one offer.
type Result struct {
	// Verdict is Fail if a required requirement fails; else Unknown if a
	// required one is unknown; else Pass. Preferred requirements never
	// change it.
	Verdict Verdict `json:"verdict"`
	// Requirements are in a fixed order: residency, data_localisation_cn,
	// mlps, jurisdiction, operator, accelerator origin, certifications (in the workload's
	// order), confidential computing, customer-managed keys, secure boot.
	// Never nil.
	Requirements []Requirement `json:"requirements"`
}

// Facts is what is known about one offer. Any pointer may be nil when the
// catalog has no row for it; the requirements that need it are then unknown.
type Facts struct {
	Provider *catalog.Provider
	Region   *catalog.Region
	Offer    *catalog.Offer
	GPU      *catalog.Accelerator
	// Vendor is who designs GPU (nil when the catalog does not know it).
	Vendor *catalog.Vendor
	// Export are the export-control facts on GPU in the market of the
	// offer's region, newest first.
	Export []*catalog.ExportControl
	// GPUs is the number of accelerators the job uses in total; 0 means one
	// instance of the offer (Offer.GPUCount).
	GPUs int
}

// FactsFor looks up the provider, region and accelerator of o in c. gpus is
// the job's total accelerator count (0 = one instance of o).
func FactsFor(c *catalog.Catalog, o *catalog.Offer, gpus int) Facts {
	f := Facts{Offer: o, GPUs: gpus}
	if c == nil || o == nil {
		return f
	}
	if p, ok := c.Provider(o.Provider); ok {
		f.Provider = p
	}
	if r, ok := c.Region(o.Provider, o.Region); ok {
		f.Region = r
	}
	if a, ok := c.OfferAccelerator(o); ok {
		f.GPU = a
		f.Vendor, _ = c.Vendor(a.Vendor)
		if f.Region != nil && f.Region.Country != "" {
			f.Export = c.ExportControlsFor(a.ID, f.Region.Country)
		}
	}
	return f
}

// Check returns the verdict on every requirement of c for the offer
// described by f. An empty compliance block passes with no requirements.
func Check(c workload.Compliance, f Facts) Result {
	var reqs []Requirement
	if len(c.Countries) > 0 {
		reqs = append(reqs, residency(c, f))
		if onlyMainlandChina(c.Countries) {
			reqs = append(reqs, localisationCN(f))
		}
	}
	if c.MLPSLevel > 0 {
		reqs = append(reqs, mlps(c.MLPSLevel, f))
	}
	if len(c.ExcludeJurisdictions) > 0 {
		reqs = append(reqs, jurisdiction(c.ExcludeJurisdictions, f))
	}
	if c.RestrictsOperators() {
		reqs = append(reqs, operator(c, f))
	}
	if len(c.AcceleratorOrigins) > 0 {
		reqs = append(reqs, origin(c.AcceleratorOrigins, f))
	}
	seen := map[string]bool{}
	for _, name := range c.Certifications {
		canon := canonicalCert(name)
		if canon == "" || seen[certKey(canon)] {
			continue
		}
		seen[certKey(canon)] = true
		reqs = append(reqs, certification(canon, f))
	}
	if r, ok := level(c.ConfidentialComputing); ok {
		reqs = append(reqs, with(confidential(f), r))
	}
	if r, ok := level(c.CustomerManagedKeys); ok {
		reqs = append(reqs, with(customerKeys(f), r))
	}
	if r, ok := level(c.SecureBoot); ok {
		reqs = append(reqs, with(secureBoot(f), r))
	}
	for i := range reqs {
		reqs[i] = sourced(reqs[i])
	}
	return summarise(reqs)
}

// Requires reports whether c asks anything of an offer: when it does not,
// Check passes every offer with no requirements, whatever its facts.
func Requires(c workload.Compliance) bool { return c.Asks() }

// Warnings returns one sentence per preferred requirement that failed or is
// unknown, for a recommendation's warnings. Required requirements are not
// warnings: they decide Verdict.
func (r Result) Warnings() []msg.Msg {
	var out []msg.Msg
	for _, q := range r.Requirements {
		if q.Required || q.Verdict == Pass {
			continue
		}
		out = append(out, msg.New("preferred %s is %s: %s", NameMsg(q.Name), q.Verdict, q.Reason))
	}
	return out
}

// Failed returns the required requirements that exclude the offer (fail or
// unknown), in order.
func (r Result) Failed() []Requirement {
	var out []Requirement
	for _, q := range r.Requirements {
		if q.Required && q.Verdict != Pass {
			out = append(out, q)
		}
	}
	return out
}

func summarise(reqs []Requirement) Result {
	res := Result{Verdict: Pass, Requirements: reqs}
	if res.Requirements == nil {
		res.Requirements = []Requirement{}
	}
	for _, q := range reqs {
		if !q.Required {
			continue
		}
		switch q.Verdict {
		case Fail:
			res.Verdict = Fail
		case Unknown:
			if res.Verdict != Fail {
				res.Verdict = Unknown
			}
		}
	}
	return res
}

// level maps a workload requirement level to required (true) or preferred
// (false); ok is false when nothing is asked ("no" or empty).
func level(r workload.Requirement) (required, ok bool) {
	switch workload.Requirement(strings.ToLower(strings.TrimSpace(string(r)))) {
	case workload.Required:
		return true, true
	case workload.Preferred:
		return false, true
	}
	return false, false
}

func with(q Requirement, required bool) Requirement {
	q.Required = required
	return q
}

// sourced keeps the invariant that every pass cites a source.
func sourced(q Requirement) Requirement {
	if q.Verdict == Pass && strings.TrimSpace(q.Source) == "" {
		q.Verdict = Unknown
		q.Reason = q.Reason.Then(msg.New("The catalog gives no source for this fact, so it is not counted as a pass; add the source to the catalog row."))
	}
	return q
}

func providerName(f Facts) string {
	switch {
	case f.Provider != nil && f.Provider.Name != "":
		return f.Provider.Name
	case f.Provider != nil:
		return f.Provider.ID
	case f.Offer != nil:
		return f.Offer.Provider
	}
	return "the provider"
}

func offerName(f Facts) string {
	if f.Offer != nil {
		return f.Offer.ID()
	}
	return "this offer"
}

func regionName(f Facts) string {
	switch {
	case f.Region != nil:
		return f.Region.ID
	case f.Offer != nil:
		return f.Offer.Region
	}
	return "this region"
}

// joinSources joins the non-empty sources, each labelled, with "; ".
func joinSources(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if s := strings.TrimSpace(pairs[i+1]); s != "" {
			if pairs[i] != "" {
				s = pairs[i] + ": " + s
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

func upperAll(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s = strings.ToUpper(strings.TrimSpace(s)); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// NameMsg is a requirement's name as a message: a certification is
// "certification:NAME" (its translation names the certificate), any
// other name a term of the glossary.
func NameMsg(name string) msg.Msg {
	if cert, ok := strings.CutPrefix(name, CertificationPrefix); ok {
		return msg.New("certification:%s", cert)
	}
	return msg.Text(name)
}
