package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
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
				source = func() (autoscale.Source, error) {
					b, err := e.ReadFile(path)
					if err != nil {
						return nil, &apperr.Error{Code: apperr.Invalid, Field: "--trace", Msg: "cannot read", Err: err}
					}
					return app.ReadTrace(spec, bytes.NewReader(b), path)
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
				// The region the workload's compliance allows, as recommend picks it.
				var allowed bool
				if o, allowed, err = app.PickRegion(c, app.Flags, o, "", ws.Compliance, catalog.OnDemand); err != nil {
					return apperr.Wrap(apperr.Invalid, "service.offer", err)
				}
				if !allowed {
					return apperr.Invalidf("service.offer", "no region of %s meets the compliance block of %s", o.ID(), ws.Name)
				}
				model, err = app.BatchModel(spec, ws, c, o)
				if err != nil {
					return err
				}
				if search {
					m, err := e.Compat()
					if err != nil {
						return err
					}
					candidates = app.SearchCandidates(spec, ws, c, e.checker(m, c).Checks(), o, model, top, e.Now())
				}
			} else {
				candidates = []autoscale.Candidate{{Name: spec.Name, PricePerHourUSD: spec.Pricing.PerHourUSD}}
			}
			src, err := source() // read once here, so a bad trace fails before any run
			if err != nil {
				return err
			}
			if search {
				res, err := autoscale.Search(spec, candidates, func() autoscale.Source {
					src, _ := source() // read without error above
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
