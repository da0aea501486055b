package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

func newPredictCmd(e *Env) *cobra.Command {
	var file, gpu, offer, out, calibration, lang string
	var gpus, nodes int
	cmd := &cobra.Command{
		Use:   "predict -f FILE (--gpu ID | --offer PROVIDER/INSTANCE) [--gpus N] [--nodes M]",
		Short: "Predict speed, memory, utilisation and the bottleneck of a workload on given GPUs",
		Example: `  gpupick predict -f examples/llama3-8b-lora.yaml --gpu h100-sxm --gpus 8
  gpupick predict -f examples/llama3-70b-chat.yaml --offer aws/p5.48xlarge -o json`,
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
			if cmd.Flags().Changed("gpus") && gpus < 1 {
				return apperr.Invalidf("--gpus", "must be >= 1, got %d (leave it out for one server's worth)", gpus)
			}
			spec, c, err := e.workloadAndCatalog(file)
			if err != nil {
				return err
			}
			cl, err := app.Cluster(c, app.Flags, gpu, offer, gpus, nodes)
			if err != nil {
				return err
			}
			if calibration != "" {
				r, err := e.loadProbeReport(calibration)
				if err != nil {
					return err
				}
				if err := app.CanCalibrate(r, "--calibrate"); err != nil {
					return err
				}
				var o *catalog.Offer
				if offer != "" {
					o, _ = app.FindOffer(c, app.Flags, offer)
				}
				app.Calibrate(r, &cl, o)
			}
			p, err := perf.Predict(spec, cl)
			if err != nil {
				return apperr.Wrap(apperr.Invalid, "predict", err)
			}
			p.Evidence = perf.NearestEvidence(perf.QueryOf(spec, cl.GPU, p.GPUs), perf.EvidenceRows(), perf.EvidenceListed)
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, p)
			}
			if spec.Kind == workload.KindImageGeneration {
				return report.WriteImagePrediction(e.Stdout, p, spec, l)
			}
			return report.WritePrediction(e.Stdout, p, l)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "workload `FILE` (YAML or JSON; see examples/)")
	cmd.Flags().StringVar(&gpu, "gpu", "", "accelerator `ID` (see gpupick gpus)")
	cmd.Flags().StringVar(&offer, "offer", "", "take GPUs, storage, network and CPUs from `PROVIDER/INSTANCE`")
	cmd.Flags().IntVar(&gpus, "gpus", 0, "total accelerators `N` (default: one server's worth)")
	cmd.Flags().IntVar(&nodes, "nodes", 0, "spread them over `M` nodes (default: as few as the server allows)")
	cmd.Flags().StringVar(&calibration, "calibrate", "", "use what `REPORT` (gpupick probe -o json) measured: compute efficiency, storage, network")
	langFlag(cmd, &lang)
	outputFlag(cmd, &out, "table|json")
	return cmd
}

// loadWorkload reads and validates a workload file; its errors name the
// file, line and field.
func (e *Env) loadWorkload(file string) (*workload.Spec, error) {
	if file == "" {
		return nil, apperr.Invalidf("-f", "a workload file is required (see examples/)")
	}
	b, err := e.ReadFile(file)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, Field: "-f", Msg: "cannot read", Err: err}
	}
	return workload.Parse(b, file)
}

// workloadAndCatalog reads the workload file and loads the catalog, the
// first steps of every command that judges a workload.
func (e *Env) workloadAndCatalog(file string) (*workload.Spec, *catalog.Catalog, error) {
	spec, err := e.loadWorkload(file)
	if err != nil {
		return nil, nil, err
	}
	c, err := e.Catalog()
	if err != nil {
		return nil, nil, err
	}
	return spec, c, nil
}
