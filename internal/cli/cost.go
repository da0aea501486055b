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
			l, err := e.lang(lang)
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
			m, err := e.Compat()
			if err != nil {
				return err
			}
			cand, err := app.Cost(spec, c, e.checker(m, c), e.Now(), app.Flags, offer, region, gpus, mode)
			if err != nil {
				return err
			}
			cands := []*advisor.Candidate{cand}
			if format == report.JSONFmt {
				v := report.CandidateView(cands[0])
				return report.WriteJSON(e.Stdout, struct {
					report.CandidateJSON
					Notes []string `json:"cost_notes"`
				}{v, report.RenderAll(report.English, cands[0].Cost.Notes)})
			}
			return report.WriteCost(e.Stdout, cands[0], e.Now(), l)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "workload `FILE`")
	cmd.Flags().StringVar(&offer, "offer", "", "the offer `PROVIDER/INSTANCE`")
	cmd.Flags().StringVar(&region, "region", "", "the offer's `REGION` (default: the cheapest region with a price in the mode)")
	cmd.Flags().IntVar(&gpus, "gpus", 0, "total GPUs `N`, a multiple of the instance's (default: one instance)")
	cmd.Flags().StringVar(&pricing, "pricing", "on-demand", "pricing `MODE`: "+strings.Join(catalog.ModeNames(), ", "))
	langFlag(cmd, &lang)
	outputFlag(cmd, &out, "table|json")
	return cmd
}
