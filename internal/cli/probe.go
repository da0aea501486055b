package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/probe"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

// newProbeCmd is `gpupick probe` and its subcommands compare and net.
func newProbeCmd(e *Env) *cobra.Command {
	var path, size, file, out, connect string
	var gpuBench, noStorage bool
	var seconds, streams int
	cmd := &cobra.Command{
		Use:   "probe [--path DIR] [--size BYTES] [--gpu-bench] [--connect HOST:PORT] [-f WORKLOAD]",
		Short: "Measure this server (GPUs, drivers, Python stack, storage, network) for a proof of concept",
		Long: `probe runs on a candidate server and measures what the catalog only claims: the
accelerators and their drivers and links, the Python frameworks installed, CPU and
RAM, storage read speed and IOPS (it writes a test file under --path and removes it),
and, with --gpu-bench, matrix-multiply TFLOPS and copy bandwidth through PyTorch.
Every part that cannot be measured is skipped with its reason. Save the JSON report
and judge it with "gpupick probe compare", or use it with --calibrate.`,
		Example: `  gpupick probe -o json > report.json
  gpupick probe --gpu-bench --path /mnt/nvme --size 8GiB -f examples/llama3-8b-lora.yaml
  gpupick probe --connect 10.0.0.2:7070 -o json > report.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			var sizeBytes int64
			if size != "" {
				if sizeBytes, err = probe.ParseSize(size); err != nil {
					return apperr.Invalidf("--size", "%v", err)
				}
			}
			if seconds < 1 || streams < 1 {
				return apperr.Invalidf("--seconds", "--seconds and --streams must be >= 1")
			}
			var spec *workload.Spec
			if file != "" {
				if spec, err = e.loadWorkload(file); err != nil {
					return err
				}
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			opts := probe.Options{Resolve: catalogResolver(c), Now: e.Now, GPUBench: gpuBench,
				Connect: connect, NetDuration: time.Duration(seconds) * time.Second, NetStreams: streams}
			if !noStorage {
				opts.Storage = &probe.StorageOptions{Path: path, SizeBytes: sizeBytes}
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			fmt.Fprintln(e.Stderr, "gpupick probe: measuring this server (Ctrl-C stops it and removes the storage test file)...")
			r := probe.Run(ctx, opts)
			if ctx.Err() != nil {
				return apperr.Emptyf("probe interrupted")
			}
			v := probeJSON{Report: r}
			if spec != nil {
				m, err := e.Compat()
				if err != nil {
					return err
				}
				var a *catalog.Accelerator
				if len(r.GPUs) > 0 {
					a, _ = c.Accelerator(r.GPUs[0].CatalogID)
				}
				if a == nil {
					v.Findings = []probe.Finding{{Part: "stack", Severity: probe.Warning,
						Sentence: "the workload's stack cannot be checked: no accelerator the catalog knows was found"}}
				} else {
					v.Findings = probe.Compare(r, nil, a, spec, m)
				}
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, v)
			}
			if err := report.WriteProbe(e.Stdout, r); err != nil {
				return err
			}
			if v.Findings != nil {
				fmt.Fprintln(e.Stdout)
				return report.WriteProbeFindings(e.Stdout, v.Findings)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&path, "path", "", "measure storage under `DIR` (default: the system's temporary directory)")
	f.StringVar(&size, "size", "", "storage test file `BYTES`, e.g. 8GiB (default 2GiB, at most half the free space; above the RAM when direct I/O is unavailable)")
	f.BoolVar(&noStorage, "no-storage", false, "skip the storage measurement")
	f.BoolVar(&gpuBench, "gpu-bench", false, "time matrix multiplies and a device copy with PyTorch (about a minute)")
	f.StringVar(&connect, "connect", "", "also measure the network to `HOST:PORT` where gpupick probe net --listen runs")
	f.IntVar(&seconds, "seconds", 10, "network stream duration in `N` seconds (with --connect)")
	f.IntVar(&streams, "streams", 4, "parallel TCP streams `N` (with --connect)")
	f.StringVarP(&file, "file", "f", "", "check the installed stack against the workload `FILE`")
	outputFlag(cmd, &out, "table|json")
	cmd.AddCommand(newProbeCompareCmd(e), newProbeNetCmd(e))
	return cmd
}

// probeJSON is the report with, when a workload was given, its findings;
// probe.ReadReport ignores the findings.
type probeJSON struct {
	*probe.Report
	Findings []probe.Finding `json:"findings,omitempty"`
}

func newProbeCompareCmd(e *Env) *cobra.Command {
	var offer, file, out string
	cmd := &cobra.Command{
		Use:   "compare REPORT --offer PROVIDER/INSTANCE [-f WORKLOAD]",
		Short: "Set a probe report against what an offer claims (and a workload needs)",
		Example: `  gpupick probe compare report.json --offer aws/p5.48xlarge
  gpupick probe compare report.json --offer lambda/gpu_8x_h100_sxm5 -f examples/llama3-8b-lora.yaml -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			if offer == "" {
				return apperr.Invalidf("--offer", "give the offer the report is to be judged against, as PROVIDER/INSTANCE")
			}
			r, err := e.loadProbeReport(args[0])
			if err != nil {
				return err
			}
			var spec *workload.Spec
			var m *compat.Matrix
			if file != "" {
				if spec, err = e.loadWorkload(file); err != nil {
					return err
				}
				if m, err = e.Compat(); err != nil {
					return err
				}
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			o, err := app.FindOffer(c, app.Flags, offer)
			if err != nil {
				return err
			}
			a, _ := c.OfferAccelerator(o)
			fs := probe.Compare(r, o, a, spec, m)
			if format == report.JSONFmt {
				err = report.WriteJSON(e.Stdout, compareJSON{Offer: o.ID(), GPU: o.GPU, Findings: fs, Calibration: r.Calibration(a, o)})
			} else {
				err = report.WriteProbeFindings(e.Stdout, fs)
			}
			if err != nil {
				return err
			}
			if probe.Worst(fs) == probe.Critical {
				return apperr.Emptyf("the server falls short of %s (see the critical findings)", o.ID())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&offer, "offer", "", "the offer `PROVIDER/INSTANCE` the server was rented as")
	cmd.Flags().StringVarP(&file, "file", "f", "", "also judge against the workload `FILE` (stack, driver, storage it needs)")
	outputFlag(cmd, &out, "table|json")
	return cmd
}

// compareJSON is the output of probe compare -o json.
type compareJSON struct {
	Offer       string            `json:"offer"`
	GPU         string            `json:"gpu"`
	Findings    []probe.Finding   `json:"findings"`
	Calibration probe.Calibration `json:"calibration"`
}

func newProbeNetCmd(e *Env) *cobra.Command {
	var listen, connect, out string
	var count, seconds, streams int
	cmd := &cobra.Command{
		Use:   "net (--listen ADDR [--count N] | --connect HOST:PORT [--seconds N] [--streams N])",
		Short: "Measure TCP throughput and latency between two servers",
		Example: `  gpupick probe net --listen :7070 --count 1       # on the first server
  gpupick probe net --connect 10.0.0.1:7070 -o json   # on the second`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			if (listen == "") == (connect == "") {
				return apperr.Invalidf("--listen", "give exactly one of --listen ADDR and --connect HOST:PORT")
			}
			if count < 0 || seconds < 1 || streams < 1 {
				return apperr.Invalidf("--seconds", "--count must be >= 0, --seconds and --streams >= 1")
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			if listen != "" {
				err := probe.ListenAndServe(ctx, listen, count,
					func(addr string) { fmt.Fprintf(e.Stderr, "gpupick probe net: listening on %s (Ctrl-C stops)\n", addr) },
					func(peer string) { fmt.Fprintf(e.Stderr, "gpupick probe net: measured by %s\n", peer) })
				if err != nil {
					return apperr.Wrap(apperr.Unavailable, "listen on "+listen, err)
				}
				return nil
			}
			n, err := probe.MeasureNetwork(ctx, connect, time.Duration(seconds)*time.Second, streams)
			if err != nil {
				return apperr.Wrap(apperr.Unavailable, "measure the network to "+connect, err)
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, n)
			}
			return report.WriteProbeNetwork(e.Stdout, n)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "serve measurements on `ADDR` (e.g. :7070)")
	cmd.Flags().IntVar(&count, "count", 0, "exit after `N` sessions (0 = until Ctrl-C)")
	cmd.Flags().StringVar(&connect, "connect", "", "measure against the server at `HOST:PORT`")
	cmd.Flags().IntVar(&seconds, "seconds", 10, "stream for `N` seconds")
	cmd.Flags().IntVar(&streams, "streams", 4, "parallel TCP streams `N`")
	outputFlag(cmd, &out, "table|json")
	return cmd
}

// loadProbeReport reads a report written by gpupick probe -o json; the
// lead's --calibrate flags can use it too.
func (e *Env) loadProbeReport(file string) (*probe.Report, error) {
	b, err := e.ReadFile(file)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, File: file, Msg: "cannot read", Err: err}
	}
	r, err := app.ReadProbeReport(b, "")
	if err != nil {
		return nil, apperr.InFile(err, file)
	}
	return r, nil
}

// catalogResolver maps device names reported by vendor tools to catalog ids.
func catalogResolver(c *catalog.Catalog) func(string) string {
	return probe.Resolver(func(name string) (string, bool) {
		a, ok := c.Accelerator(name)
		if !ok {
			return "", false
		}
		return a.ID, true
	})
}

// interruptible cancels ctx on Ctrl-C or SIGTERM, so that the probe stops
// and removes its files.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
