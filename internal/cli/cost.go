package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
)

func pickPrice(o *catalog.Offer, m catalog.Mode) (float64, bool) {
	if o == nil {
		return 0, false
	}
	return o.YourPrices.Get(m)
}

func newCostCmd(e *Env) *cobra.Command {
	var file, offer, region, pricing, out, lang string
	var gpus int
	cmd := &cobra.Command{
		Use:   "cost -f FILE --offer PROVIDER/INSTANCE [--gpus N] [--pricing MODE]",
		Short: "Break down the total cost of a workload on one offer: compute, storage, egress, setup, spot",
		Example: `  gpupick cost -f examples/llama3-8b-lora.yaml --offer lambda/gpu_8x_h100_sxm5
  gpupick cost -f examples/resnet50-imagenet.yaml --offer aws/p4d.24xlarge --gpus 16 --pricing spot -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			l, err := report.ParseLang(lang, e.getenv("LANG"))
			if err != nil {
				return err
			}
			mode, ok := catalog.ParseMode(pricing)
			if !ok {
				return apperr.Invalidf("--pricing", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), pricing)
			}
			spec, c, err := e.workloadAndCatalog(file)
			if err != nil {
				return err
			}
			if offer == "" {
				return apperr.Invalidf("--offer", "required: PROVIDER/INSTANCE (see gpupick offers)")
			}
			o, err := app.FindOffer(c, app.Flags, offer)
			if err != nil {
				return err
			}
			// The region asked for, else the cheapest region with a price in the mode.
			var pick *catalog.Offer
			for _, x := range c.Offers {
				if x.ID() != o.ID() {
					continue
				}
				if region != "" {
					if strings.EqualFold(x.Region, region) {
						pick = x
						break
					}
					continue
				}
				if p, ok := x.YourPrices.Get(mode); ok {
					if q, ok := pickPrice(pick, mode); !ok || p < q {
						pick = x
					}
				}
			}
			switch {
			case pick != nil:
				o = pick
			case region != "":
				return apperr.NotFoundf("--region", "%s is not offered in %q in the catalog", o.ID(), region)
			}
			instances := 1
			if gpus > 0 {
				if gpus%o.GPUCount != 0 {
					return apperr.Invalidf("--gpus", "%s has %d GPUs per instance: --gpus must be a multiple of it", o.ID(), o.GPUCount)
				}
				instances = gpus / o.GPUCount
			}
			req := advisor.Request{Spec: spec, Catalog: c, Now: e.Now(), Detail: true}
			m, err := e.Compat()
			if err != nil {
				return err
			}
			// The user named this offer: an incompatible or non-compliant one
			// is still priced, with the verdict as a warning.
			for _, chk := range e.checker(m, c).Checks() {
				req.Checks = append(req.Checks, app.Demote(chk))
			}
			cands, excl := advisor.EvaluateOffer(req, o, instances, []catalog.Mode{mode})
			if len(cands) == 0 {
				reason := "no candidate"
				if len(excl) > 0 {
					reason = excl[0].Reason
				}
				return apperr.Emptyf("%s cannot run this workload as asked: %s", o.ID(), reason)
			}
			if format == report.JSONFmt {
				v := report.CandidateView(cands[0])
				return report.WriteJSON(e.Stdout, struct {
					report.CandidateJSON
					Notes []string `json:"cost_notes"`
				}{v, cands[0].Cost.Notes})
			}
			return report.WriteExplain(e.Stdout, cands[0], nil, l)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "workload `FILE`")
	cmd.Flags().StringVar(&offer, "offer", "", "the offer `PROVIDER/INSTANCE`")
	cmd.Flags().StringVar(&region, "region", "", "the offer's `REGION` (default: the cheapest region with a price in the mode)")
	cmd.Flags().IntVar(&gpus, "gpus", 0, "total GPUs `N`, a multiple of the instance's (default: one instance)")
	cmd.Flags().StringVar(&pricing, "pricing", "on-demand", "pricing `MODE`: "+strings.Join(catalog.ModeNames(), ", "))
	cmd.Flags().StringVar(&lang, "lang", "", "output language: en or zh")
	outputFlag(cmd, &out, "table|json")
	return cmd
}
