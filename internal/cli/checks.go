package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/workload"
)

// compatFile is the software-stack matrix inside a catalog directory.
const compatFile = "compat.yaml"

// Compat loads the compatibility matrix: the catalog directory's, or the
// embedded one when that directory has none (test fixtures).
func (e *Env) Compat() (*compat.Matrix, error) {
	if e.matrix != nil {
		return e.matrix, nil
	}
	b, err := fs.ReadFile(e.Embedded, compatFile)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = fs.ReadFile(data.FS, compatFile)
	}
	if err != nil {
		return nil, apperr.Wrap(apperr.Internal, "compatibility matrix", err)
	}
	m, err := compat.Parse(b)
	if err != nil {
		return nil, apperr.Wrap(apperr.Internal, "compatibility matrix", apperr.InFile(err, compatFile))
	}
	e.matrix = m
	return m, nil
}

// offerChecks are the stack and compliance judgements recommend applies to
// every offer: incompatible or non-compliant offers are excluded with the
// reason; needs-work and preferred-but-unmet requirements become warnings.
func offerChecks(m *compat.Matrix, c *catalog.Catalog) []advisor.Check {
	type key struct{ gpu, driver string }
	compatCache := map[key]compat.Result{}
	stack := func(spec *workload.Spec, o *catalog.Offer) (string, string, []advisor.CheckWarning) {
		k := key{o.GPU, o.Driver}
		r, ok := compatCache[k]
		if !ok {
			a, _ := c.Accelerator(o.GPU)
			r = m.Check(spec.Stack, a, o.Driver)
			compatCache[k] = r
		}
		var warnings []advisor.CheckWarning
		for _, reason := range r.Reasons {
			switch reason.Verdict {
			case compat.Incompatible:
				return advisor.ReasonIncompatible, reason.Text + fixSuffix(reason.Fix), nil
			case compat.NeedsWork:
				warnings = append(warnings, advisor.CheckWarning{Code: advisor.WarnNeedsWork, Text: reason.Text + fixSuffix(reason.Fix)})
			}
		}
		return "", "", warnings
	}
	rules := func(spec *workload.Spec, o *catalog.Offer) (string, string, []advisor.CheckWarning) {
		r := compliance.Check(spec.Compliance, compliance.FactsFor(c, o, 0))
		if r.Verdict != compliance.Pass {
			var why []string
			for _, q := range r.Requirements {
				if q.Required && q.Verdict != compliance.Pass {
					why = append(why, fmt.Sprintf("%s %s: %s", q.Name, q.Verdict, q.Reason))
				}
			}
			return advisor.ReasonNonCompliant, strings.Join(why, " "), nil
		}
		var ws []advisor.CheckWarning
		for _, w := range r.Warnings() {
			ws = append(ws, advisor.CheckWarning{Code: advisor.WarnPreferred, Text: w})
		}
		return "", "", ws
	}
	// The compat cache is written by Recommend's single filtering loop, so
	// no lock is needed.
	return []advisor.Check{stack, rules}
}

func fixSuffix(fix string) string {
	if fix == "" {
		return ""
	}
	return ". Fix: " + strings.TrimSuffix(fix, ".") + "."
}

// demote turns a check's exclusion into a warning.
func demote(chk advisor.Check) advisor.Check {
	return func(spec *workload.Spec, o *catalog.Offer) (string, string, []advisor.CheckWarning) {
		code, why, ws := chk(spec, o)
		if code != "" {
			ws = append([]advisor.CheckWarning{{Code: code, Text: advisor.ReasonText(code) + ": " + why}}, ws...)
		}
		return "", "", ws
	}
}
