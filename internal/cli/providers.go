package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/report"
)

func newProvidersCmd(e *Env) *cobra.Command {
	var out, lang string
	cmd := &cobra.Command{
		Use:     "providers",
		Short:   "List providers with jurisdiction, certifications, egress and price-data dates",
		Example: "  gpupick providers\n  gpupick providers -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt, report.CSVFmt)
			if err != nil {
				return err
			}
			l, err := e.lang(lang)
			if err != nil {
				return err
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			j, t := report.ProvidersIn(c, e.Now(), l)
			return write(e, format, j, t)
		},
	}
	langFlag(cmd, &lang)
	outputFlag(cmd, &out, "table|json|csv")
	return cmd
}
