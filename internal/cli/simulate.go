package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

func newSimulateCmd(e *Env) *cobra.Command {
	var file, trace, out, chart string
	var search bool
	var top int
	cmd := &cobra.Command{
		Use:   "simulate -f SERVICE.yaml [--trace FILE] [--chart out.svg|out.png] [--search]",
		Short: "Replay traffic against an autoscaling policy or serverless platform: cost, latency and SLO violations",
		Example: `  gpupick simulate -f examples/service-target.yaml
  gpupick simulate -f examples/service-model.yaml --trace examples/traces/sample-azure-synthetic.csv --chart day.svg
  gpupick simulate -f examples/service-model.yaml --search`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			chartFormat, err := chartFormatOf(chart)
			if err != nil {
				return err
			}
			spec, err := e.loadService(file)
			if err != nil {
				return err
			}
			dir := filepath.Dir(file)
			source := func() (autoscale.Source, error) { return nil, nil }
			if spec.Traffic.Kind == autoscale.TrafficTrace || trace != "" {
				path := trace
				if path == "" {
					path = filepath.Join(dir, spec.Traffic.File)
				}
				if spec.Traffic.Format == "" {
					spec.Traffic.Format = "azure"
				}
				source = func() (autoscale.Source, error) {
					b, err := e.ReadFile(path)
					if err != nil {
						return nil, &apperr.Error{Code: apperr.Invalid, Field: "--trace", Msg: "cannot read", Err: err}
					}
					src, err := autoscale.ReadTrace(spec.Traffic.Format, strings.NewReader(string(b)), autoscale.TraceOptions{
						TimeScale: spec.Traffic.TimeScale, PromptTokens: spec.Traffic.PromptTokens, OutputTokens: spec.Traffic.OutputTokens})
					if err != nil {
						return nil, apperr.InFile(err, path)
					}
					return &traceSource{src, path}, nil
				}
			}
			var model *autoscale.BatchModel
			var candidates []autoscale.Candidate
			if spec.Service.Kind == autoscale.ServiceModel {
				c, err := e.Catalog()
				if err != nil {
					return err
				}
				ws, err := e.loadWorkload(filepath.Join(dir, spec.Service.Workload))
				if err != nil {
					return err
				}
				o, err := app.FindOffer(c, app.Flags, spec.Service.Offer)
				if err != nil {
					return apperr.Wrap(apperr.Invalid, "service.offer", err)
				}
				model, err = app.BatchModel(spec, ws, c, o)
				if err != nil {
					return err
				}
				candidates = append(candidates, autoscale.Candidate{Name: o.ID(), Model: model})
				if search {
					candidates = append(candidates, e.searchCandidates(spec, ws, c, o, top)...)
				}
			} else {
				candidates = []autoscale.Candidate{{Name: spec.Name, PricePerHourUSD: spec.Pricing.PerHourUSD}}
			}
			if search {
				res, err := autoscale.Search(spec, candidates, func() autoscale.Source {
					src, _ := source()
					return src
				}, autoscale.Options{})
				if err != nil {
					return err
				}
				if format == report.JSONFmt {
					return report.WriteJSON(e.Stdout, res)
				}
				return report.WriteSearch(e.Stdout, res)
			}
			src, err := source()
			if err != nil {
				return err
			}
			opts := autoscale.Options{}
			if bar := e.progress(spec); bar != nil {
				opts.Progress = func(done, total float64) {
					if total > 0 {
						_ = bar.Set64(int64(done / total * 1000))
					}
				}
				defer bar.Finish()
			}
			res, err := autoscale.Simulate(spec, src, model, opts)
			if err != nil {
				return err
			}
			if chart != "" {
				if err := writeFileAtomic(chart, func(w io.Writer) error { return report.SimulationChart(w, chartFormat, res) }); err != nil {
					return err
				}
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, res)
			}
			return report.WriteSimulation(e.Stdout, res)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "service `FILE` (traffic, service, policy, slo; see examples/service-*.yaml)")
	cmd.Flags().StringVar(&trace, "trace", "", "replay a trace `FILE` (Azure LLM trace CSV, BurstGPT CSV or plain timestamps; format from traffic.format)")
	cmd.Flags().StringVar(&chart, "chart", "", "also draw traffic, replicas and latency over time into `FILE` (.svg or .png)")
	cmd.Flags().BoolVar(&search, "search", false, "search for the cheapest policy (and offer, for a model service) that meets the SLO")
	cmd.Flags().IntVar(&top, "offers", 4, "with --search on a model service, also try the `N` best other offers for the workload")
	outputFlag(cmd, &out, "table|json")
	return cmd
}

// traceSource names the trace file in its errors.
type traceSource struct {
	autoscale.ErrSource
	path string
}

func (t *traceSource) Err() error { return apperr.InFile(t.ErrSource.Err(), t.path) }

func (e *Env) loadService(file string) (*autoscale.Spec, error) {
	if file == "" {
		return nil, apperr.Invalidf("-f", "a service file is required (see examples/service-*.yaml)")
	}
	b, err := e.ReadFile(file)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, Field: "-f", Msg: "cannot read", Err: err}
	}
	spec, err := autoscale.ParseSpec(b)
	if err != nil {
		return nil, apperr.InFile(err, file)
	}
	return spec, nil
}

// searchCandidates are the other offers recommend ranks best for the
// workload, one per instance type.
func (e *Env) searchCandidates(spec *autoscale.Spec, ws *workload.Spec, c *catalog.Catalog, chosen *catalog.Offer, n int) []autoscale.Candidate {
	res, err := advisor.Recommend(advisor.Request{Spec: ws, Catalog: c, Now: e.Now()})
	if err != nil {
		return nil
	}
	seen := map[string]bool{chosen.ID(): true}
	var out []autoscale.Candidate
	for _, cand := range res.Candidates {
		if len(out) >= n || !cand.Cost.PriceKnown {
			continue
		}
		if seen[cand.Offer.ID()] {
			continue
		}
		seen[cand.Offer.ID()] = true
		if m, err := app.BatchModel(spec, ws, c, cand.Offer); err == nil {
			out = append(out, autoscale.Candidate{Name: cand.Offer.ID(), Model: m})
		}
	}
	return out
}

// progress returns a bar on stderr when it is a terminal, else nil.
func (e *Env) progress(spec *autoscale.Spec) *progressbar.ProgressBar {
	f, ok := e.Stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return progressbar.NewOptions64(1000, progressbar.OptionSetWriter(io.Writer(f)), progressbar.OptionSetDescription("simulating "+spec.Name),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100_000_000))
}
