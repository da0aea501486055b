package compliance

import (
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// certImplies lists certifications that also satisfy a request for another:
// a FedRAMP High authorisation is a FedRAMP authorisation.
var certImplies = map[string][]string{
	"FedRAMP-High": {"FedRAMP"},
}

// certKey is the name to compare certifications by: the workload package's
// canonical name when it knows the certification, else the name in upper
// case without separators.
func certKey(s string) string {
	if c, ok := workload.CanonicalCertification(s); ok {
		return c
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// canonicalCert returns the canonical spelling of name when it is known,
// else name trimmed.
func canonicalCert(name string) string {
	if c, ok := workload.CanonicalCertification(name); ok {
		return c
	}
	return strings.TrimSpace(name)
}

// satisfies reports whether holding have satisfies a request for want (both
// compared by certKey).
func satisfies(have, want string) bool {
	if have == want {
		return true
	}
	for _, w := range certImplies[have] {
		if w == want {
			return true
		}
	}
	return false
}

func certification(name string, f Facts) Requirement {
	if lvl, ok := mlpsLevel(name); ok {
		// An MLPS level is a filing of the platform for a region, judged
		// as compliance.mlps_level is.
		q := mlps(lvl, f)
		q.Name = CertificationPrefix + name
		return q
	}
	q := Requirement{Name: CertificationPrefix + name, Required: true}
	p := f.Provider
	pname := providerName(f)
	if p == nil {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for %s, so whether it holds %s is unknown; ask the provider for the certificate and its scope.", pname, name)
		return q
	}
	want := certKey(name)
	var best *Requirement
	for i := range p.Certifications {
		c := &p.Certifications[i]
		if !satisfies(certKey(c.Name), want) {
			continue
		}
		r := scoped(q, c, name, pname, f)
		if best == nil || r.Verdict == Pass && best.Verdict != Pass {
			best = &r
		}
	}
	if best != nil {
		return *best
	}
	q.Verdict = Unknown
	q.Reason = msg.New("The catalog does not list %s for %s: it may hold it without our knowing. Ask the provider for the %s certificate and its scope (services and regions), then add it to providers.yaml with its source.", name, pname, name)
	return q
}

// serviceScoped are the certifications whose scope usually names a few
// services rather than a whole cloud: ISO/IEC 42001 (an AI management
// system) is mostly certified for AI platforms (model hosting, assistants),
// not the compute instances a GPU job rents, so holding it says nothing
// about compute unless the catalog records that its scope covers compute.
var serviceScoped = map[string]bool{certKey("ISO42001"): true}

// scoped gives the verdict for a certification the provider lists, after
// reading its scope: a scope limited to regions that exclude this one, or
// limited to services that may not be this offer, or unconfirmed, is unknown.
func scoped(q Requirement, c *catalog.Certification, name, pname string, f Facts) Requirement {
	q.Source = c.Source
	var held any = c.Name
	if certKey(c.Name) != certKey(name) {
		held = msg.New("%s, which covers %s", c.Name, name)
	}
	scope := strings.TrimSpace(c.Scope)
	s := strings.ToLower(scope)
	region := regionName(f)
	switch c.Compute {
	case catalog.No:
		q.Verdict = Fail
		q.Reason = msg.New("%s holds %s, but its scope (%s) does not include its GPU compute instances, so it does not cover %s; ask whether a certificate covering compute is planned, or choose a provider whose %s covers compute.", pname, held, scope, offerName(f), name)
		return q
	case catalog.Yes:
		if scope == "" {
			scope = "not stated"
		}
	case catalog.Unknown:
		if serviceScoped[certKey(name)] {
			if scope == "" {
				scope = "not stated"
			}
			q.Verdict = Unknown
			q.Reason = msg.New("%s holds %s, but %s certificates usually name AI services, and the catalog does not know whether its scope (%s) includes the GPU compute instances of %s; ask for the scope statement.", pname, held, name, scope, offerName(f))
			return q
		}
	}
	switch {
	case strings.Contains(s, "china") && (strings.Contains(s, "only") || strings.Contains(s, "mainland")):
		switch {
		case f.Region == nil:
			q.Verdict = Unknown
			q.Reason = msg.New("%s holds %s for its China regions only (scope: %s), and the catalog does not know where region %s is; confirm it is a mainland-China region.", pname, held, scope, region)
		case f.Region.MainlandChina:
			q.Verdict = Pass
			q.Reason = msg.New("%s holds %s; scope: %s, which includes mainland-China region %s.", pname, held, scope, region)
		default:
			q.Verdict = Unknown
			q.Reason = msg.New("%s holds %s only for its China regions (scope: %s), and region %s is not one; ask the provider whether %s covers this region, or choose a region in scope.", pname, held, scope, region, name)
		}
		return q
	case strings.Contains(s, "govcloud"):
		if strings.Contains(strings.ToLower(region), "gov") {
			q.Verdict = Pass
			q.Reason = msg.New("%s holds %s; scope: %s, which includes region %s.", pname, held, scope, region)
		} else {
			q.Verdict = Unknown
			q.Reason = msg.New("%s holds %s only in its government regions (scope: %s), and region %s is not one; ask the provider whether %s covers this region.", pname, held, scope, region, name)
		}
		return q
	case strings.Contains(s, "only") || strings.Contains(s, "unverified") || strings.Contains(s, "not confirmed"):
		q.Verdict = Unknown
		q.Reason = msg.New("%s lists %s with a limited or unconfirmed scope (%s); ask the provider whether it covers %s in %s.", pname, held, scope, offerName(f), region)
		return q
	}
	q.Verdict = Pass
	if c.Compute == catalog.Yes {
		q.Reason = msg.New("%s holds %s; scope: %s, which includes its GPU compute instances.", pname, held, scope)
		return q
	}
	if scope == "" {
		scope = "not stated"
	}
	q.Reason = msg.New("%s holds %s; scope: %s. Check that the GPU compute service of %s is in scope.", pname, held, scope, offerName(f))
	return q
}
