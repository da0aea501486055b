package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
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
			var a *catalog.Accelerator
			var o *catalog.Offer
			switch {
			case offer != "":
				if o, err = app.FindOffer(c, app.Flags, offer); err != nil {
					return err
				}
				o, _, err = app.PickRegion(c, app.Flags, o, region, spec.Compliance, catalog.OnDemand)
				if err != nil {
					return err
				}
				a, _ = c.OfferAccelerator(o)
				if gpu != "" && !strings.EqualFold(gpu, a.ID) {
					if b, ok := c.Accelerator(gpu); !ok || b.ID != a.ID {
						return apperr.Invalidf("--gpu", "%s has %s, not %s", o.ID(), a.ID, gpu)
					}
				}
			case gpu != "":
				var ok bool
				if a, ok = c.Accelerator(gpu); !ok {
					return apperr.NotFoundf("--gpu", "unknown accelerator %q (see gpupick gpus)", gpu)
				}
			default:
				return apperr.Invalidf("--gpu", "give --gpu ID or --offer PROVIDER/INSTANCE")
			}
			driver := ""
			facts := compliance.Facts{GPU: a, GPUs: a.GPUsPerServer}
			if o != nil {
				driver = o.Driver
				facts = compliance.FactsFor(c, o, 0)
			}
			v := report.CheckJSON{Compat: m.Check(spec.Stack, a, driver), Compliance: compliance.Check(spec.Compliance, facts)}
			if o != nil {
				v.Offer, v.Region, v.ComplianceChecked = o.ID(), o.Region, true
			} else {
				// Compliance is a property of an offer in a region: with
				// --gpu alone it is not judged, and the output says so.
				v.Compliance = report.NotChecked(v.Compliance)
			}
			v.GPU = a.ID
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
