package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
)

// CheckJSON is the document `gpupick check -o json` prints.
type CheckJSON struct {
	GPU        string            `json:"gpu"`
	Offer      string            `json:"offer,omitempty"`
	Region     string            `json:"region,omitempty"`
	Compat     compat.Result     `json:"compat"`
	Compliance compliance.Result `json:"compliance"`
}

var verdictWordsZh = map[string]string{
	"compatible": "兼容", "needs-work": "需要适配", "incompatible": "不兼容",
	"pass": "通过", "fail": "不通过", "unknown": "未知",
}

func verdictWord(l Lang, v string) string {
	if l == Chinese {
		if z, ok := verdictWordsZh[v]; ok {
			return z + " (" + v + ")"
		}
	}
	return v
}

// WriteCheck prints the stack and compliance verdicts with every reason,
// its fix and its source.
func WriteCheck(w io.Writer, v CheckJSON, l Lang) error {
	var b strings.Builder
	subject := v.GPU
	if v.Offer != "" {
		subject = fmt.Sprintf("%s in %s (%s)", v.Offer, v.Region, v.GPU)
	}
	label := map[Lang][3]string{English: {"Software stack", "Compliance", "Proof-of-concept checklist"}, Chinese: {"软件栈兼容性", "合规", "概念验证清单"}}[l]
	fmt.Fprintf(&b, "%s: %s\n", label[0], verdictWord(l, string(v.Compat.Verdict)))
	fmt.Fprintf(&b, "  for %s\n", subject)
	for _, r := range v.Compat.Reasons {
		fmt.Fprintf(&b, "  - [%s] %s\n", r.Verdict, r.Text)
		if r.Fix != "" {
			fmt.Fprintf(&b, "    fix: %s\n", r.Fix)
		}
		fmt.Fprintf(&b, "    source: %s\n", r.Source)
	}
	if len(v.Compat.MinVersions) > 0 {
		keys := make([]string, 0, len(v.Compat.MinVersions))
		for k := range v.Compat.MinVersions {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " " + v.Compat.MinVersions[k]
		}
		fmt.Fprintf(&b, "  lowest versions that work: %s\n", strings.Join(parts, ", "))
	}
	if v.Compat.LockIn != "" {
		fmt.Fprintf(&b, "  lock-in: %s\n", v.Compat.LockIn)
	}
	fmt.Fprintf(&b, "\n%s: %s\n", label[1], verdictWord(l, string(v.Compliance.Verdict)))
	if len(v.Compliance.Requirements) == 0 {
		b.WriteString("  (the workload states no compliance requirement)\n")
	}
	for _, q := range v.Compliance.Requirements {
		need := "required"
		if !q.Required {
			need = "preferred"
		}
		fmt.Fprintf(&b, "  - %s (%s): %s\n    %s\n", q.Name, need, verdictWord(l, string(q.Verdict)), q.Reason)
		if q.Source != "" {
			fmt.Fprintf(&b, "    source: %s\n", q.Source)
		}
	}
	if len(v.Compat.Checklist) > 0 {
		fmt.Fprintf(&b, "\n%s:\n", label[2])
		for i, s := range v.Compat.Checklist {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, s)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
