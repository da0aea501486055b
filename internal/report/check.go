package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
	message "github.com/gpupick/gpupick/internal/msg"
)

// CheckJSON is the document `gpupick check -o json` prints.
type CheckJSON struct {
	GPU        string         `json:"gpu"`
	Offer      string         `json:"offer,omitempty"`
	Region     string         `json:"region,omitempty"`
	Compat     compat.Result  `json:"compat"`
	Compliance ComplianceJSON `json:"compliance"`
	// ComplianceChecked is false when no offer was given (--gpu alone):
	// compliance depends on the provider, the region and the instance, so
	// each requirement is unknown and says so.
	ComplianceChecked bool `json:"compliance_checked"`
	// DueDiligence is what to read or request before signing for this
	// offer (only with an offer).
	DueDiligence []DiligenceJSON `json:"due_diligence,omitempty"`
}

// ComplianceJSON is a compliance.Result as check prints it, its reasons
// rendered in the reader's language (the same JSON as compliance.Result).
type ComplianceJSON struct {
	Verdict      compliance.Verdict `json:"verdict"`
	Requirements []RequirementJSON  `json:"requirements"`
}

// RequirementJSON is one compliance.Requirement, its reason rendered.
type RequirementJSON struct {
	Name     string             `json:"name"`
	Verdict  compliance.Verdict `json:"verdict"`
	Required bool               `json:"required"`
	Reason   string             `json:"reason"`
	Source   string             `json:"source"`
}

// ComplianceView renders r's reasons in l.
func ComplianceView(r compliance.Result, l Lang) ComplianceJSON {
	out := ComplianceJSON{Verdict: r.Verdict, Requirements: make([]RequirementJSON, len(r.Requirements))}
	for i, q := range r.Requirements {
		out.Requirements[i] = RequirementJSON{Name: q.Name, Verdict: q.Verdict, Required: q.Required, Reason: Render(l, q.Reason), Source: q.Source}
	}
	return out
}

// notCheckedReason is the reason of every requirement of a compliance
// block judged without an offer.
var notCheckedReason = message.New("Not checked: no offer was given; this requirement depends on the provider, the region and the instance (give --offer PROVIDER/INSTANCE).")

// NotChecked turns the verdicts of a compliance block judged without an
// offer into what they are: every requirement unknown, its reason saying
// that no offer was given.
func NotChecked(r compliance.Result) compliance.Result {
	out := compliance.Result{Verdict: compliance.Pass, Requirements: make([]compliance.Requirement, len(r.Requirements))}
	for i, q := range r.Requirements {
		q.Verdict, q.Source = compliance.Unknown, ""
		q.Reason = notCheckedReason
		out.Requirements[i] = q
		if q.Required {
			out.Verdict = compliance.Unknown
		}
	}
	return out
}

var verdictWordsZh = map[string]string{
	"compatible": "兼容", "needs-work": "需要适配", "incompatible": "不兼容",
	"pass": "通过", "fail": "不通过", "unknown": "未知",
}

func verdictWord(l Lang, v string) string {
	if l == Chinese {
		if z, ok := verdictWordsZh[v]; ok {
			return z
		}
	}
	return v
}

// sourceWidth is where a source is cut in text output.
const sourceWidth = 100

// WriteCheck prints the stack and compliance verdicts with every reason,
// its fix and its source (cut to sourceWidth characters; -o json has them
// whole), in l.
func WriteCheck(w io.Writer, v CheckJSON, l Lang) error {
	var b strings.Builder
	cut := false
	source := func(s string) string {
		short := ShortSource(s, sourceWidth)
		cut = cut || short != s
		return tc(l, "check.source", short)
	}
	subject := tc(l, "check.gpu_only", v.GPU)
	if v.Offer != "" {
		subject = tc(l, "check.offer", v.Offer, v.Region, v.GPU)
	}
	fmt.Fprintln(&b, tc(l, "check.stack", verdictWord(l, string(v.Compat.Verdict))))
	fmt.Fprintf(&b, "  %s\n", subject)
	for _, r := range v.Compat.Reasons {
		fmt.Fprintf(&b, "  - [%s] %s\n", verdictWord(l, string(r.Verdict)), Render(l, r.Text))
		if !r.Fix.IsZero() {
			fmt.Fprintf(&b, "    %s\n", tc(l, "check.fix", Render(l, r.Fix)))
		}
		if r.Source != "" {
			fmt.Fprintf(&b, "    %s\n", source(r.Source))
		}
	}
	if len(v.Compat.MinVersions) > 0 {
		keys := make([]string, 0, len(v.Compat.MinVersions))
		for k := range v.Compat.MinVersions {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = componentName(l, k) + " " + v.Compat.MinVersions[k]
		}
		fmt.Fprintf(&b, "  %s\n", tc(l, "check.lowest", strings.Join(parts, tc(l, "list_sep"))))
	}
	if !v.Compat.LockIn.IsZero() {
		fmt.Fprintf(&b, "  %s\n", tc(l, "check.lockin", Render(l, v.Compat.LockIn)))
	}
	b.WriteString("\n")
	switch {
	case !v.ComplianceChecked && len(v.Compliance.Requirements) > 0:
		names := make([]string, len(v.Compliance.Requirements))
		for i, q := range v.Compliance.Requirements {
			names[i] = requirementName(l, q.Name)
		}
		fmt.Fprintln(&b, tc(l, "check.compliance_not_checked"))
		fmt.Fprintf(&b, "  %s\n", tc(l, "check.not_checked", len(names), strings.Join(names, tc(l, "list_sep")), v.GPU))
	default:
		fmt.Fprintln(&b, tc(l, "check.compliance", verdictWord(l, string(v.Compliance.Verdict))))
		if len(v.Compliance.Requirements) == 0 {
			fmt.Fprintf(&b, "  %s\n", tc(l, "check.no_requirements"))
		}
		for _, q := range v.Compliance.Requirements {
			need := tc(l, "check.required")
			if !q.Required {
				need = tc(l, "check.preferred")
			}
			fmt.Fprintf(&b, "  - %s\n    %s\n", tc(l, "check.req", requirementName(l, q.Name), need, verdictWord(l, string(q.Verdict))), q.Reason)
			if q.Source != "" {
				fmt.Fprintf(&b, "    %s\n", source(q.Source))
			}
		}
	}
	if len(v.DueDiligence) > 0 {
		fmt.Fprintf(&b, "\n%s\n", tc(l, "check.diligence", len(v.DueDiligence)))
		for i, d := range v.DueDiligence {
			fmt.Fprintf(&b, "  %d. %s\n     %s\n", i+1, d.Title, d.Why)
			serves := make([]string, len(d.Serves))
			for j, s := range d.Serves {
				serves[j] = requirementName(l, s)
			}
			fmt.Fprintf(&b, "     %s\n", tc(l, "check.dd_serves", strings.Join(serves, tc(l, "list_sep"))))
			switch {
			case d.Access == compliance.AccessPublished:
				fmt.Fprintf(&b, "     %s\n", tc(l, "check.dd_published", d.Where))
			case d.Where != "":
				fmt.Fprintf(&b, "     %s\n", tc(l, "check.dd_request_at", d.Where))
			default:
				fmt.Fprintf(&b, "     %s\n", tc(l, "check.dd_request"))
			}
			if d.Shared == catalog.AccessAccount || d.Shared == catalog.AccessNDA {
				fmt.Fprintf(&b, "     %s\n", tc(l, "check.dd_"+d.Shared))
			}
		}
	}
	if len(v.Compat.Checklist) > 0 {
		fmt.Fprintf(&b, "\n%s\n", tc(l, "check.checklist"))
		for i, s := range v.Compat.Checklist {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, Render(l, s))
		}
	}
	if cut {
		fmt.Fprintf(&b, "\n%s\n", tc(l, "check.sources_cut", sourceWidth))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// requirementName names a compliance requirement in l ("residency",
// "certification:SOC2").
func requirementName(l Lang, name string) string {
	return Render(l, compliance.NameMsg(name))
}

// componentName names a stack component of the lowest versions in l: the
// products keep their names, the driver is a word.
func componentName(l Lang, k string) string {
	if l == Chinese && k == "driver" {
		return "驱动"
	}
	return k
}
