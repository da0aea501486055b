package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/report"
)

func newProvidersCmd(e *Env) *cobra.Command {
	var out string
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
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			j, t := report.Providers(c, e.Now())
			return write(e, format, j, t)
		},
	}
	outputFlag(cmd, &out, "table|json|csv")
	return cmd
}
