package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/report"
)

func newCheckCmd(e *Env) *cobra.Command {
	var file, gpu, offer, region, out, lang string
	cmd := &cobra.Command{
		Use:   "check -f FILE (--gpu ID | --offer PROVIDER/INSTANCE [--region R])",
		Short: "Judge software-stack compatibility and compliance of a workload on an accelerator or offer",
		Example: `  gpupick check -f examples/llama3-70b-chat.yaml --offer azure/Standard_NCC40ads_H100_v5 --region westeurope
  gpupick check -f examples/llama3-8b-lora.yaml --gpu mi300x -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			l, err := e.lang(lang)
			if err != nil {
				return err
			}
			spec, c, err := e.workloadAndCatalog(file)
			if err != nil {
				return err
			}
			m, err := e.Compat()
			if err != nil {
				return err
			}
			lj := l
			if format == report.JSONFmt {
				lj = report.English // -o json stays English
			}
			v, err := app.Check(spec, c, m, app.Flags, gpu, offer, region, lj)
			if err != nil {
				return err
			}
			if format == report.JSONFmt {
				err = report.WriteJSON(e.Stdout, v)
			} else {
				err = report.WriteCheck(e.Stdout, v, l)
			}
			if err != nil {
				return err
			}
			switch {
			case v.Compat.Verdict != compat.Compatible && !v.ComplianceChecked:
				return apperr.Emptyf("check did not pass: stack %s (compliance not checked: give --offer)", v.Compat.Verdict)
			case v.Compat.Verdict != compat.Compatible || (v.ComplianceChecked && v.Compliance.Verdict != compliance.Pass):
				return apperr.Emptyf("check did not pass: stack %s, compliance %s", v.Compat.Verdict, v.Compliance.Verdict)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "workload `FILE`")
	cmd.Flags().StringVar(&gpu, "gpu", "", "accelerator `ID` (stack check only; compliance needs an offer)")
	cmd.Flags().StringVar(&offer, "offer", "", "the offer `PROVIDER/INSTANCE`")
	cmd.Flags().StringVar(&region, "region", "", "the offer's `REGION` (default: the first that passes compliance)")
	langFlag(cmd, &lang)
	outputFlag(cmd, &out, "table|json")
	return cmd
}
