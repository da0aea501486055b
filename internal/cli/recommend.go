package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

func newRecommendCmd(e *Env) *cobra.Command {
	var file, objective, out, lang, explain, calibration, compareTo string
	var pricing []string
	var top int
	var allRegions bool
	cmd := &cobra.Command{
		Use:   "recommend -f FILE",
		Short: "Rank every offer for a workload by what the whole job really costs, with the reasons",
		Example: `  gpupick recommend -f examples/llama3-8b-lora.yaml
  gpupick recommend -f examples/llama3-70b-chat.yaml --lang zh -o html > report.html
  gpupick recommend -f examples/llama3-70b-pretrain.yaml --pricing spot,on-demand --explain lambda/gpu_8x_h100_sxm5
  gpupick recommend -f examples/llama3-8b-lora.yaml -o json > before.json; gpupick recommend -f examples/llama3-8b-lora.yaml --compare-to before.json -o markdown`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt, report.CSVFmt, report.Markdown, report.HTML)
			if err != nil {
				return err
			}
			l, err := report.ParseLang(lang, e.getenv("LANG"))
			if err != nil {
				return err
			}
			if top < 0 {
				return apperr.Invalidf("--top", "must be >= 0")
			}
			e.preloadCompat() // the checks need it once the catalog is in
			spec, c, err := e.workloadAndCatalog(file)
			if err != nil {
				return err
			}
			var saved *report.RecommendJSON
			if compareTo != "" {
				data, err := os.ReadFile(compareTo)
				if err != nil {
					return apperr.Invalidf("--compare-to", "cannot read %s: %v", compareTo, errors.Unwrap(err))
				}
				d, err := report.ParseSaved(data, compareTo)
				if err != nil {
					return err
				}
				saved = &d
			}
			req := advisor.Request{Spec: spec, Catalog: c, Now: e.Now(), Detail: explain != ""}
			if objective != "" {
				o, err := workload.ParseObjective(objective)
				if err != nil {
					return apperr.Invalidf("--objective", "%v", err)
				}
				req.Objective = o
			}
			for _, p := range pricing {
				for _, s := range strings.Split(p, ",") {
					m, ok := catalog.ParseMode(s)
					if !ok {
						return apperr.Invalidf("--pricing", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), s)
					}
					req.Modes = append(req.Modes, m)
				}
			}
			m, err := e.Compat()
			if err != nil {
				return err
			}
			req.Checks = e.checker(m, c).Checks()
			if calibration != "" {
				r, err := e.loadProbeReport(calibration)
				if err != nil {
					return err
				}
				if err := app.CanCalibrate(r, "--calibrate"); err != nil {
					return err
				}
				req.Tune, req.TuneNote = app.CalibrateProbed(r, c)
			}
			req.CheckPlans = true
			res, err := advisor.Recommend(req)
			if err != nil {
				return err
			}
			if explain != "" {
				return writeExplain(e, res, explain, l)
			}
			opts := report.ReportOptions{Top: top, Lang: l, AllRegions: allRegions}
			doc := report.RecommendationIn(spec.Name, string(spec.Kind), res, top, l)
			if saved != nil {
				opts.Changes = report.Compare(*saved, doc, compareTo, l)
				doc.Changes = opts.Changes
			}
			switch format {
			case report.JSONFmt:
				err = report.WriteJSON(e.Stdout, doc)
			case report.CSVFmt:
				err = report.RecommendCSV(res, top).WriteCSV(e.Stdout)
			case report.Markdown:
				err = report.WriteRecommendMarkdownOpts(e.Stdout, spec.Name, res, opts)
			case report.HTML:
				err = report.WriteRecommendHTMLOpts(e.Stdout, spec.Name, res, opts)
			default:
				err = report.WriteRecommendTextOpts(e.Stdout, spec.Name, res, opts)
			}
			if err != nil {
				return err
			}
			if len(res.Candidates) == 0 {
				if format == report.JSONFmt || format == report.CSVFmt {
					return apperr.Emptyf("nothing qualifies: %s", res.Summary())
				}
				// The report has said why, near-misses included: the
				// status line only says so.
				return apperr.Emptyf("nothing qualifies (see the report above)")
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "workload `FILE` (YAML or JSON; see examples/)")
	cmd.Flags().StringVar(&objective, "objective", "", "rank by cost, time, tokens-per-dollar or balanced (default: the file's objective)")
	cmd.Flags().StringSliceVar(&pricing, "pricing", nil, "pricing `MODES` to compare (default: the file's constraints.pricing)")
	cmd.Flags().IntVar(&top, "top", 10, "show the best `N` candidates (0 = all)")
	cmd.Flags().StringVar(&lang, "lang", "", "output language: en or zh (default: from LANG)")
	cmd.Flags().StringVar(&calibration, "calibrate", "", "use what `REPORT` (gpupick probe -o json) measured for offers with the probed hardware")
	cmd.Flags().StringVar(&explain, "explain", "", "tell the full story of one candidate `OFFER` (provider/instance)")
	cmd.Flags().BoolVar(&allRegions, "all-regions", false, "show a row per region (default: an instance type offered in several regions is one row, in its best region)")
	cmd.Flags().StringVar(&compareTo, "compare-to", "", "show what changed since a saved run: `FILE` from recommend -o json (new #1, price and time of #1, candidates that appeared or left)")
	outputFlag(cmd, &out, "table|json|csv|markdown|html")
	return cmd
}

func (e *Env) getenv(k string) string {
	if e.Getenv != nil {
		return e.Getenv(k)
	}
	return ""
}

// writeExplain tells the story of one offer in the recommendation.
func writeExplain(e *Env, res *advisor.Result, offer string, l report.Lang) error {
	found, err := report.ExplainOffer(e.Stdout, res, offer, l)
	if err == nil && !found {
		return apperr.NotFoundf("--explain", "%q is neither a candidate nor excluded: is it in the catalog (gpupick offers)?", offer)
	}
	return err
}
