package compliance

import (
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Sources of the legal and platform rules the verdicts apply. They are cited
// next to the catalog fact they are applied to.
const (
	// CloudActSource is the rule that a US provider, or a provider with a US
	// parent, must disclose data in its possession, custody or control
	// wherever the data is stored.
	CloudActSource = "US CLOUD Act, 18 U.S.C. §2713 (H.R. 4943, 2018): https://wilmerhale.com/insights/client-alerts/congress-enacts-law-clarifying-reach-of-warrants-for-overseas-data"
	// PIPLSource is China's data-localisation and cross-border transfer rule
	// (CSL Art. 37, PIPL Arts. 38-40).
	PIPLSource = "PRC PIPL Arts. 38-40 and CSL Art. 37: https://technologyquotient.freshfields.com/post/102h60b/chinas-restrictions-on-cross-border-data-transfer; PIPL Art. 40 text: personalinformationprotectionlaw.com"
	// NVIDIACCSource documents the GPU TEE (confidential computing) modes and
	// their limits.
	NVIDIACCSource = "https://docs.nvidia.com/confidential-computing/ (R550 GA: https://docs.nvidia.com/confidential-computing/release-notes/r550-trd1; Blackwell R580: https://docs.nvidia.com/580trd1-trusted-computing-solutions-release-notes.pdf)"
)

// residency judges where the machine is, and says who runs it: an
// independent host is known only by the location it states, and a
// provider with US CLOUD Act reach can be made to hand over data wherever
// it is kept (the jurisdiction requirement excludes it when asked).
func residency(c workload.Compliance, f Facts) Requirement {
	q := location(c.Countries, f)
	if q.Verdict != Pass {
		return q
	}
	op := operatorOf(f)
	switch {
	case op.Kind.ThirdPartyHost():
		q.Reason = q.Reason.Then(msg.New("It is run by an independent host of %s, not known to you, so only the location the host states is known; %s is headquartered in %s.", providerName(f), providerName(f), hqText(f)))
	case f.Provider != nil && f.Provider.CloudAct && !contains(upperAll(c.ExcludeJurisdictions), "US") && !contains(upperAll(c.Countries), "US"):
		q.Reason = q.Reason.Then(msg.New("It is run by %s, headquartered in %s under the US CLOUD Act, which reaches data wherever it is stored; add US to compliance.exclude_jurisdictions if that is not acceptable.", providerName(f), f.Provider.HQCountry))
	}
	return q
}

// location judges where the machine is against the allowed countries.
func location(countries []string, f Facts) Requirement {
	want := upperAll(countries)
	q := Requirement{Name: Residency, Required: true}
	r := f.Region
	allowed := strings.Join(want, ", ")
	switch {
	case r == nil:
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for region %s of %s, so where the data would be processed is unknown; add the region to regions.csv with its country and source, or choose a region the catalog knows.", regionName(f), providerName(f))
		return q
	case r.Country == "" || len(r.Country) != 2 || r.Country == "EU":
		q.Verdict = Unknown
		q.Reason = msg.New("Region %s of %s is not tied to one country in the catalog (country %q), so it cannot be matched against %s; ask the provider which country the capacity is in.", r.ID, providerName(f), r.Country, allowed)
		return q
	}
	q.Source = r.Source
	where := r.Country
	if r.City != "" {
		where = r.City + ", " + r.Country
	}
	for _, c := range want {
		switch {
		case c == "EU" && r.EUEEA:
			q.Verdict = Pass
			q.Reason = msg.New("Region %s is in %s, an EU/EEA member, which the workload allows (%s).", r.ID, where, allowed)
			return q
		case c == "CN" && r.MainlandChina:
			q.Verdict = Pass
			q.Reason = msg.New("Region %s is in %s, mainland China, which the workload allows (%s).", r.ID, where, allowed)
			return q
		case c != "EU" && c != "CN" && c == r.Country:
			q.Verdict = Pass
			q.Reason = msg.New("Region %s is in %s, which the workload allows (%s).", r.ID, where, allowed)
			return q
		}
	}
	q.Verdict = Fail
	extra := ""
	if (r.Country == "CN" && !r.MainlandChina) || r.Country == "HK" {
		extra = " (Hong Kong is not mainland China)"
	}
	q.Reason = msg.New("Region %s is in %s%s, outside the allowed %s; choose a region of %s in one of those.", r.ID, where, extra, allowed, providerName(f))
	return q
}

// onlyMainlandChina reports whether the data must stay in mainland China: the
// workload's countries are CN and nothing else.
func onlyMainlandChina(countries []string) bool {
	c := upperAll(countries)
	return len(c) == 1 && c[0] == "CN"
}

func localisationCN(f Facts) Requirement {
	q := Requirement{Name: DataLocalisationCN, Required: true}
	r := f.Region
	if r == nil {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for region %s of %s, so it cannot tell whether PRC personal data would stay in mainland China (PIPL/CSL localisation); choose a mainland-China region the catalog knows.", regionName(f), providerName(f))
		return q
	}
	q.Source = joinSources("region", r.Source, "rule", PIPLSource)
	if r.MainlandChina {
		// Judged by who runs the machine too: the data stays in the PRC
		// only if its holder answers to PRC law.
		op := operatorOf(f)
		local := f.Provider != nil && (f.Provider.ID == "aws" || f.Provider.ID == "azure")
		switch {
		case op.Kind.ThirdPartyHost():
			q.Verdict = Unknown
			q.Source = joinSources("operator", op.Source, "region", r.Source, "rule", PIPLSource)
			q.Reason = msg.New("Region %s is in mainland China, but the machine is run by an independent host of %s, not known to you, while %s, headquartered in %s, brokers the rental: who holds the PRC personal data, and under which law, is unknown. Choose a provider that runs its own machines in mainland China.", r.ID, providerName(f), providerName(f), hqText(f))
			return q
		case f.Provider == nil || f.Provider.HQCountry != "CN" && !local:
			q.Verdict = Unknown
			q.Reason = msg.New("Region %s is in mainland China, but %s is headquartered in %s, and the catalog does not record a licensed local operator for the region; ask the provider who operates it before counting on PIPL localisation.", r.ID, providerName(f), hqText(f))
			return q
		}
		q.Verdict = Pass
		q.Reason = msg.New("Region %s is in mainland China, so PRC personal data stays in the PRC as CSL Art. 37 and PIPL Art. 40 require of critical-information-infrastructure operators and handlers above the CAC volume threshold. MLPS 2.0 level 3 remains an assessment of your own system.", r.ID)
		if local {
			q.Reason = q.Reason.Then(msg.New("%s's China regions are run by a local operator as a separate partition with separate accounts.", providerName(f)))
		}
		return q
	}
	q.Verdict = Fail
	q.Reason = msg.New("Region %s is in %s, outside mainland China: storing PRC personal data there is a cross-border transfer that needs a CAC security assessment, certification or the CAC standard contract (PIPL Art. 38), and is barred for CIIOs and high-volume handlers (PIPL Art. 40); choose a mainland-China region (cn-*).", r.ID, r.Country)
	return q
}

func jurisdiction(excluded []string, f Facts) Requirement {
	ex := upperAll(excluded)
	q := Requirement{Name: Jurisdiction, Required: true}
	p := f.Provider
	if p == nil || len(p.HQCountry) != 2 {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog does not record where %s is headquartered, so exposure to %s jurisdiction is unknown; add hq_country and cloud_act to providers.yaml with a source.", providerName(f), strings.Join(ex, ", "))
		return q
	}
	name := providerName(f)
	for _, j := range ex {
		if p.HQCountry == j {
			q.Verdict = Fail
			q.Source = p.Source
			q.Reason = msg.New("%s is headquartered in %s, a jurisdiction the workload excludes, in every region including %s; choose a provider headquartered elsewhere.", name, p.HQCountry, regionName(f))
			if j == "US" {
				q.Reason = q.Reason.Then(msg.New("The US CLOUD Act reaches its data wherever it is stored."))
				q.Source = joinSources("provider", p.Source, "rule", CloudActSource)
			}
			return q
		}
	}
	if p.CloudAct && contains(ex, "US") {
		q.Verdict = Fail
		q.Source = joinSources("provider", p.Source, "rule", CloudActSource)
		q.Reason = msg.New("%s is headquartered in %s but the catalog records US CLOUD Act reach (a US parent or US operations): US authorities can compel disclosure of data it holds even in region %s; choose a provider without US reach.", name, p.HQCountry, regionName(f))
		return q
	}
	if op := operatorOf(f); op.Kind.ThirdPartyHost() {
		// The platform's home is known, the host's is not.
		q.Verdict = Unknown
		q.Source = joinSources("provider", p.Source, "operator", op.Source)
		q.Reason = msg.New("%s, headquartered in %s, only brokers the machine: the independent host that runs it is not known to you, so whether it falls under %s jurisdiction is unknown; choose an offer whose provider runs its machines.", name, p.HQCountry, strings.Join(ex, ", "))
		return q
	}
	if e := p.LegalEntity; e != nil && contains(ex, e.Country) {
		q.Verdict = Fail
		q.Source = joinSources("legal entity", e.Source)
		q.Reason = msg.New("%s is headquartered in %s, but the company you contract, %s, is incorporated in %s, a jurisdiction the workload excludes; choose a provider whose contracting entity is elsewhere.", name, p.HQCountry, e.Name, e.Country)
		return q
	}
	q.Verdict = Pass
	q.Source = p.Source
	q.Reason = msg.New("%s is headquartered in %s, outside the excluded %s.", name, p.HQCountry, strings.Join(ex, ", "))
	if contains(ex, "US") {
		q.Reason = msg.New("%s is headquartered in %s, outside the excluded %s, and the catalog records no US CLOUD Act reach.", name, p.HQCountry, strings.Join(ex, ", "))
	}
	return q
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func customerKeys(f Facts) Requirement {
	q := Requirement{Name: CustomerManagedKeys}
	p := f.Provider
	name := providerName(f)
	if p == nil {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for %s, so customer-managed keys are unknown; ask the provider.", name)
		return q
	}
	switch p.CustomerManagedKeys {
	case catalog.Yes:
		q.Verdict, q.Source = Pass, p.Source
		q.Reason = msg.New("%s offers encryption at rest with customer-managed keys (provider fact; check the disk or storage type you attach supports it).", name)
	case catalog.No:
		q.Verdict, q.Source = Fail, p.Source
		q.Reason = msg.New("%s does not let customers manage the encryption keys (provider fact); choose a provider with CMEK/BYOK or encrypt the data yourself before it reaches the provider.", name)
	default:
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog does not know whether %s offers customer-managed keys; ask the provider for CMEK/BYOK on GPU instance disks, or encrypt the data yourself.", name)
	}
	return q
}

// secureBootException is an instance family of a provider that offers secure
// boot elsewhere but not on this family.
type secureBootException struct {
	provider string
	match    func(instanceType string) bool
	verdict  Verdict
	why      string
	source   string
}

const awsBootModes = "https://docs.aws.amazon.com/AWSEC2/latest/WindowsGuide/launch-instance-boot-mode.html (UEFI-capable Intel/AMD types: all Nitro instances except bare metal, DL1, G4ad, P4, u-*tb1, VT1); bare metal: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/uefi-secure-boot-optionA.html"

var secureBootExceptions = []secureBootException{
	{"aws", func(t string) bool { return strings.HasSuffix(t, ".metal") }, Fail,
		"bare-metal instance types do not support UEFI Secure Boot", awsBootModes},
	{"aws", func(t string) bool {
		for _, p := range []string{"p4d.", "p4de.", "dl1.", "g4ad.", "vt1.", "u-"} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	}, Fail, "this family boots only in legacy BIOS mode, and UEFI Secure Boot needs UEFI", awsBootModes},
	{"aws", func(t string) bool { return strings.HasPrefix(t, "p3.") }, Unknown,
		"P3 (other than p3dn) is a pre-Nitro family [unverified], and UEFI Secure Boot needs a Nitro instance that supports UEFI", awsBootModes},
}

func secureBoot(f Facts) Requirement {
	q := Requirement{Name: SecureBoot}
	p := f.Provider
	name := providerName(f)
	if p == nil {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog has no row for %s, so secure boot is unknown; ask the provider.", name)
		return q
	}
	switch p.SecureBoot {
	case catalog.Yes:
		if f.Offer != nil {
			for _, e := range secureBootExceptions {
				if e.provider == p.ID && e.match(f.Offer.InstanceType) {
					q.Verdict = e.verdict
					q.Source = e.source
					q.Reason = msg.New("%s offers secure boot, but on %s %s; choose another instance type, e.g. a current Nitro GPU family.", name, f.Offer.InstanceType, e.why)
					return q
				}
			}
		}
		q.Verdict, q.Source = Pass, p.Source
		q.Reason = msg.New("%s offers secure boot with a virtual TPM (provider fact; enable it at launch with a UEFI image, and use signed GPU drivers).", name)
	case catalog.No:
		q.Verdict, q.Source = Fail, p.Source
		q.Reason = msg.New("%s does not offer secure boot (provider fact); choose another provider.", name)
	default:
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog does not know whether %s offers secure boot on GPU instances; ask the provider (UEFI Secure Boot and a vTPM).", name)
	}
	return q
}

// origin judges where the offer's accelerator is designed against the
// countries the workload accepts.
func origin(accepted []string, f Facts) Requirement {
	ok := upperAll(accepted)
	q := Requirement{Name: AcceleratorOrigin, Required: true}
	if f.GPU == nil {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog does not know which accelerator %s has, so where it is designed is unknown.", offerName(f))
		return q
	}
	v := f.Vendor
	if v == nil {
		q.Verdict = Unknown
		q.Reason = msg.New("The catalog does not record where %s, the designer of %s, is headquartered; ask the provider, or add the vendor to supply-chain.yaml with a source.", f.GPU.Vendor, f.GPU.ID)
		return q
	}
	q.Source = v.Source
	name := v.Name
	if name == "" {
		name = v.ID
	}
	if contains(ok, v.DesignerCountry) {
		q.Verdict = Pass
		q.Reason = msg.New("%s is designed by %s, headquartered in %s, a country the workload accepts.", f.GPU.ID, name, v.DesignerCountry)
		return q
	}
	q.Verdict = Fail
	q.Reason = msg.New("%s is designed by %s, headquartered in %s, outside the accepted %s; choose an offer whose accelerator comes from an accepted country.", f.GPU.ID, name, v.DesignerCountry, strings.Join(ok, ", "))
	return q
}
