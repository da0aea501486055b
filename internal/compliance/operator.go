package compliance

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// operatorOf is who runs the offer's machines: the offer's classification
// (filled when the catalog was built), else its provider's.
func operatorOf(f Facts) catalog.OperatorFact {
	switch {
	case f.Offer != nil && f.Offer.Operator.Kind != "":
		return f.Offer.Operator
	case f.Provider != nil && f.Offer != nil:
		return f.Provider.OperatorOf(f.Offer.InstanceType)
	case f.Provider != nil:
		return f.Provider.Operator
	}
	return catalog.OperatorFact{}
}

// hqText is the provider's home country, or "an unrecorded country".
func hqText(f Facts) any {
	if f.Provider != nil && f.Provider.HQCountry != "" {
		return f.Provider.HQCountry
	}
	return msg.Term("an unrecorded country")
}

// operator judges who runs the machine against the operators the workload
// accepts. An independent host of a marketplace or community cloud is not
// known to the buyer and answers to no one the workload contracts.
func operator(c workload.Compliance, f Facts) Requirement {
	q := Requirement{Name: Operator, Required: true}
	op := operatorOf(f)
	name, offer := providerName(f), offerName(f)
	allowed := joinOperators(c.Operators)
	if op.Kind == "" {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog does not say who runs the machines of %s (the provider, a partner it contracts, or independent hosts), and the workload accepts only %s; add operator to providers.yaml with its source, or ask %s.", offer, allowed, name)
		return q
	}
	q.Source = op.Source
	if c.AllowsOperator(workload.Operator(op.Kind)) {
		q.Verdict = Pass
		switch op.Kind {
		case catalog.OperatorProvider:
			q.Reason = msg.New("%s runs the machines of %s itself.", name, offer)
		case catalog.OperatorPartner:
			q.Reason = msg.New("%s has the machines of %s run by data-centre partners or other clouds it contracts, under its own terms, which the workload accepts.", name, offer)
		default:
			q.Reason = msg.New("%s runs on a machine of an independent host of %s (%s), not known to you, which the workload accepts (compliance.operators: %s).", offer, name, op.Kind, allowed)
		}
		return q
	}
	q.Verdict = Fail
	switch op.Kind {
	case catalog.OperatorMarketplace:
		q.Reason = msg.New("%s is a machine of an independent host listed on %s's marketplace: %s brokers the rental but does not run the machine, and the host is not known to you; the workload accepts only %s (compliance.operators). Choose an offer whose provider runs its machines, or list marketplace to accept such hosts.", offer, name, name, allowed)
	case catalog.OperatorCommunity:
		q.Reason = msg.New("%s runs on an individual host of %s's community cloud, vetted by %s but not named to you; the workload accepts only %s (compliance.operators). Choose an offer whose provider runs its machines, or list community to accept such hosts.", offer, name, name, allowed)
	default:
		q.Reason = msg.New("The machines of %s are run by the %s kind of operator, which the workload does not accept (compliance.operators: %s).", offer, op.Kind, allowed)
	}
	return q
}

// joinOperators lists operator kinds, each a glossary term.
func joinOperators(list []workload.Operator) msg.Msg {
	s := make([]msg.Msg, len(list))
	for i, o := range list {
		s[i] = msg.Text(string(o))
	}
	return msg.Join("%s, %s", s)
}

// mlpsLevel reads the level of a certification named "MLPS-L<n>" (the
// canonical name of an MLPS requirement among certifications).
func mlpsLevel(cert string) (int, bool) {
	var n int
	if _, err := fmt.Sscanf(cert, "MLPS-L%d", &n); err != nil || n < 1 || n > 5 {
		return 0, false
	}
	return n, true
}

// mlps judges whether the offer's platform is filed at MLPS 2.0 level
// want or above for its region. MLPS applies in mainland China; a filing
// covers the provider's own platform, never an independent host's machine,
// and a filing of one product or other regions does not cover GPU compute
// here.
func mlps(want int, f Facts) Requirement {
	q := Requirement{Name: MLPS, Required: true}
	name, region := providerName(f), regionName(f)
	switch {
	case f.Region == nil:
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for region %s of %s, so it cannot tell whether MLPS 2.0 level %d applies there; choose a mainland-China region the catalog knows.", region, name, want)
		return q
	case !f.Region.MainlandChina:
		q.Verdict, q.Source = Fail, f.Region.Source
		q.Reason = msg.New("Region %s is in %s, outside mainland China, where MLPS 2.0 applies: a level-%d system needs a mainland-China region of a provider whose platform is filed at that level.", region, f.Region.Country, want)
		return q
	case f.Provider == nil:
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for %s, so its MLPS 2.0 filing is unknown; ask the provider for its filing certificate and evaluation report.", name)
		return q
	}
	if op := operatorOf(f); op.Kind.ThirdPartyHost() {
		q.Verdict, q.Source = Fail, op.Source
		q.Reason = msg.New("%s runs on an independent host's machine, which no MLPS 2.0 filing of %s covers: a level-%d system needs a cloud platform filed at that level.", offerName(f), name, want)
		return q
	}
	var best, partial *catalog.MLPSFiling
	for i := range f.Provider.MLPS {
		m := &f.Provider.MLPS[i]
		switch {
		case !m.CoversRegion(f.Region.ID):
			if partial == nil || m.Level > partial.Level {
				partial = m
			}
		case best == nil || m.Level > best.Level:
			best = m
		}
	}
	switch {
	case best != nil && best.Level >= want:
		q.Verdict, q.Source = Pass, best.Source
		q.Reason = msg.New("%s's platform is filed at MLPS 2.0 level %d (scope: %s), which covers region %s and meets level %d; your own system on it still needs its own level-%d assessment.", name, best.Level, best.Scope, region, want, want)
	case best != nil:
		q.Verdict, q.Source = Fail, best.Source
		q.Reason = msg.New("%s's platform is filed at MLPS 2.0 level %d (scope: %s), below the level %d the workload needs; choose a provider filed at level %d or above.", name, best.Level, best.Scope, want, want)
	case partial != nil:
		q.Verdict, q.Source = Unknown, partial.Source
		q.Reason = msg.New("%s's MLPS 2.0 level-%d filing covers %s only, not the GPU compute of region %s; ask the provider for the filing of its compute service there.", name, partial.Level, partial.Scope, region)
	default:
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog lists no MLPS 2.0 filing for %s: it may hold one without our knowing. Ask the provider for its filing certificate and evaluation report for the compute service in region %s, then add it to providers.yaml under mlps with its source.", name, region)
	}
	return q
}
