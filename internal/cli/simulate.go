package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/strictyaml"
	"github.com/gpupick/gpupick/internal/workload"
)

// simulateOpts are simulate's flags.
type simulateOpts struct {
	file, trace, out, chart, lang     string
	search, force, compare            bool
	top, shards, shard                int
	searchID, searchResults, savePlan string
	targetWall                        time.Duration
}

func newSimulateCmd(e *Env) *cobra.Command {
	var o simulateOpts
	cmd := &cobra.Command{
		Use:   "simulate -f SERVICE.yaml [--trace FILE] [--chart out.svg|out.png] [--search [--shards N --shard I]] [--force] | simulate -f WORKLOAD.yaml [--save-plan FILE] | simulate --search-results ID",
		Short: "Replay traffic against an autoscaling policy or serverless platform: cost, latency and SLO violations",
		Long: `Replay traffic against an autoscaling policy or serverless platform: cost, latency and SLO violations.

Given a service workload (the file recommend reads: kind llm-inference or image-generation
with a service block), simulate replays the plan recommend ranks first: the same offer, the
same fleet between its base and its peak, the same day of traffic and the same numbers as the
check recommend quotes (one plan). --save-plan FILE writes that plan as a service file, to
change and replay it, search its policy or compare it.

Before it starts, simulate estimates the work (requests over the horizon, policy ticks,
cold starts, and for --search the runs) and refuses more than 10^10 events (some 20 minutes)
or a year of simulated traffic, saying the estimate and the limit; --force runs it anyway.
A search also says, on stderr, how long it should take and how many shards would bring it
under --target-wall.

A search can be split into shards, each run as its own process (a pod of a Kubernetes Indexed
Job: gpupick export search-job): --shards N --shard I searches every N-th candidate offer from
the I-th (I from $JOB_COMPLETION_INDEX when --shard is not given) and stores each offer's
results in the database (--db, else $GPUPICK_DB, as serve) under one search id (--search-id,
else a digest of the inputs). A shard run again skips the offers it stored; a shard done is not
redone. --search-results ID merges them into the table --search prints, or says which shards
are not done.`,
		Example: `  gpupick simulate -f examples/llama3-70b-chat.yaml --save-plan chat-plan.yaml
  gpupick simulate -f examples/service-target.yaml
  gpupick simulate -f examples/service-model.yaml --trace examples/traces/sample-azure-synthetic.csv --chart day.svg
  gpupick simulate -f examples/service-model.yaml --search
  gpupick simulate -f examples/service-model.yaml --search --shards 2 --shard 0 --db search.db
  gpupick simulate --search-results 3f1c0a9b2e7d --db search.db
  gpupick simulate -f examples/service-image-api.yaml --compare --chart compare.svg`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return e.simulate(cmd, &o) },
	}
	cmd.Flags().StringVarP(&o.file, "file", "f", "", "service `FILE` (traffic, service, policy, slo; see examples/service-*.yaml)")
	cmd.Flags().StringVar(&o.trace, "trace", "", "replay a trace `FILE` (Azure LLM trace CSV, BurstGPT CSV or plain timestamps; format from traffic.format)")
	cmd.Flags().StringVar(&o.chart, "chart", "", "also draw traffic, replicas and latency over time into `FILE` (.svg or .png)")
	cmd.Flags().BoolVar(&o.search, "search", false, "search for the cheapest policy (and offer, for a model service) that meets the SLO")
	cmd.Flags().BoolVar(&o.compare, "compare", false, "simulate the variants of the file's compare block over the same traffic, side by side (cost, p95/p99 latency, SLO)")
	cmd.Flags().BoolVar(&o.force, "force", false, "run even when the estimated work is over the limit (10^10 events, a year of traffic)")
	cmd.Flags().IntVar(&o.shards, "shards", 1, "with --search, split the search into `N` shards (one process each; results go to the database)")
	cmd.Flags().IntVar(&o.shard, "shard", 0, "with --shards, run shard `I` (0 to N-1; default: $JOB_COMPLETION_INDEX)")
	cmd.Flags().StringVar(&o.searchID, "search-id", "", "with --shards, store the results under `ID` (default: a digest of the service file, trace, offers and gpupick version)")
	cmd.Flags().StringVar(&o.searchResults, "search-results", "", "merge the stored shards of search `ID` into the search's table (with --db)")
	cmd.Flags().DurationVar(&o.targetWall, "target-wall", 10*time.Minute, "with --search, say how many shards would finish it within `DURATION`")
	cmd.Flags().StringVar(&o.savePlan, "save-plan", "", "with a workload file, also write the plan it replays as a service `FILE`")
	cmd.Flags().IntVar(&o.top, "offers", 4, "with --search on a model service, also try the `N` best other offers for the workload")
	langFlag(cmd, &o.lang)
	outputFlag(cmd, &o.out, "table|json")
	return cmd
}

// simulate runs simulate: the merge of a stored sharded search, the plan
// of a workload file, or a service file (a run, a comparison or a search).
func (e *Env) simulate(cmd *cobra.Command, o *simulateOpts) error {
	format, err := report.ParseFormat(o.out, report.Text, report.JSONFmt)
	if err != nil {
		return err
	}
	l, err := e.lang(o.lang)
	if err != nil {
		return err
	}
	chartFormat, err := chartFormatOf(o.chart)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if o.searchResults != "" {
		if o.file != "" || o.search || o.compare {
			return apperr.Invalidf("--search-results", "give --search-results ID alone (with --db): it merges a sharded search that is already stored")
		}
		res, err := e.mergeSearch(ctx, o.searchResults)
		if err != nil {
			return err
		}
		if format == report.JSONFmt {
			return report.WriteJSON(e.Stdout, res)
		}
		return report.WriteSearch(e.Stdout, res, l)
	}
	sharded := cmd.Flags().Changed("shards") || cmd.Flags().Changed("shard") || o.searchID != ""
	var sh autoscale.Shard
	if sharded {
		if !o.search {
			return apperr.Invalidf("--shards", "--shards, --shard and --search-id go with --search")
		}
		if sh, err = e.shardOf(o.shards, o.shard, cmd.Flags().Changed("shard")); err != nil {
			return err
		}
	}
	if b, ok := workloadFile(e, o.file); ok {
		if o.search || o.compare || sharded || o.trace != "" {
			return apperr.Invalidf("-f", "%s is a workload file: simulate replays the plan recommend picks for it; --search, --compare, --trace and --shards take a service file (write one with --save-plan)", o.file)
		}
		return e.simulatePlan(ctx, o.file, b, o.savePlan, o.chart, chartFormat, format, l)
	}
	if o.savePlan != "" {
		return apperr.Invalidf("--save-plan", "--save-plan goes with a workload file (-f WORKLOAD.yaml): it writes the service file of the plan recommend picks")
	}
	s, err := e.prepareSimulation(o)
	if err != nil {
		return err
	}
	if err := s.checkWork(e, o, sh); err != nil {
		return err
	}
	switch {
	case o.compare:
		return e.runComparison(ctx, o, s, chartFormat, format, l)
	case o.search && sharded:
		return e.runSearchShard(ctx, o, s, sh)
	case o.search:
		res, err := autoscale.Search(s.spec, s.candidates, s.next, autoscale.Options{Context: ctx})
		if err != nil {
			return err
		}
		if format == report.JSONFmt {
			return report.WriteJSON(e.Stdout, res)
		}
		return report.WriteSearch(e.Stdout, res, l)
	}
	return e.runSimulation(ctx, o, s, chartFormat, format, l)
}

// simulation is a service file made ready to run: the spec and its
// compare variants with their batching models, the traffic (read once, so
// that a bad row fails before any run), and a search's candidates.
type simulation struct {
	spec     *autoscale.Spec
	variants []*autoscale.Spec
	model    *autoscale.BatchModel   // the file's, for a model service
	models   []*autoscale.BatchModel // each variant's, with --compare
	// source reads the trace afresh (nil traffic when synthetic); src is
	// the first reading, stats what the whole trace holds.
	source     func() (autoscale.Source, error)
	src        autoscale.Source
	tracePath  string
	stats      *autoscale.TraceStats
	candidates []autoscale.Candidate
}

// next reads the trace again (read without error before).
func (s *simulation) next() autoscale.Source {
	src, _ := s.source()
	return src
}

func (e *Env) prepareSimulation(o *simulateOpts) (*simulation, error) {
	spec, err := e.loadService(o.file)
	if err != nil {
		return nil, err
	}
	cpus, err := autoscale.ParseCPUInstances(data.CPUInstances)
	if err != nil {
		return nil, apperr.Wrap(apperr.Internal, "cpu-instances.csv", err)
	}
	if err := autoscale.ApplyCPUInstances(spec, cpus); err != nil {
		return nil, apperr.InFile(err, o.file)
	}
	s := &simulation{spec: spec, source: func() (autoscale.Source, error) { return nil, nil }}
	if o.compare {
		if o.search {
			return nil, apperr.Invalidf("--compare", "give --compare or --search, not both")
		}
		if len(spec.Compare) == 0 {
			return nil, apperr.InFile(apperr.Invalidf("compare", "a service file with a compare block is needed for --compare (see examples/service-image-api.yaml)"), o.file)
		}
		b, err := e.ReadFile(o.file)
		if err != nil {
			return nil, &apperr.Error{Code: apperr.Invalid, Field: "-f", Msg: "cannot read", Err: err}
		}
		if s.variants, err = autoscale.Variants(b, spec); err != nil {
			return nil, apperr.InFile(err, o.file)
		}
		for _, v := range s.variants {
			if err := autoscale.ApplyCPUInstances(v, cpus); err != nil {
				return nil, apperr.InFile(err, o.file)
			}
		}
	}
	dir := filepath.Dir(o.file)
	if spec.Traffic.Kind == autoscale.TrafficTrace || o.trace != "" {
		path := o.trace
		if path == "" {
			path = filepath.Join(dir, spec.Traffic.File)
		}
		s.tracePath = path
		s.source = func() (autoscale.Source, error) {
			b, err := e.ReadFile(path)
			if err != nil {
				return nil, &apperr.Error{Code: apperr.Invalid, Field: "--trace", Msg: "cannot read", Err: err}
			}
			return app.ReadTrace(spec, bytes.NewReader(b), path)
		}
	}
	if spec.Service.Kind == autoscale.ServiceModel {
		c, err := e.Catalog()
		if err != nil {
			return nil, err
		}
		var ws *workload.Spec
		var offer *catalog.Offer
		if s.model, ws, offer, err = e.serviceModel(spec, c, dir, o.file); err != nil {
			return nil, err
		}
		if o.search {
			m, err := e.Compat()
			if err != nil {
				return nil, err
			}
			s.candidates = app.SearchCandidates(spec, ws, c, e.checker(m, c).Checks(), offer, s.model, o.top, e.Now())
		}
	} else {
		s.candidates = []autoscale.Candidate{{Name: spec.Name, PricePerHourUSD: spec.Pricing.PerHourUSD}}
	}
	// Read the trace once here, whole, so that a bad row or an empty
	// trace fails before any run, and its length is known.
	if s.src, err = s.source(); err != nil {
		return nil, err
	}
	if s.src != nil {
		st, err := autoscale.ScanTrace(s.src, spec.Traffic.DurationS)
		if err != nil {
			return nil, err
		}
		s.stats = &st
		if s.src, err = s.source(); err != nil {
			return nil, err
		}
	}
	// Each variant's own batching model: its offer, slice and fallback
	// tier may differ from the file's.
	for _, v := range s.variants {
		var m *autoscale.BatchModel
		if v.Service.Kind == autoscale.ServiceModel {
			c, err := e.Catalog()
			if err != nil {
				return nil, err
			}
			if m, _, _, err = e.serviceModel(v, c, dir, o.file); err != nil {
				return nil, err
			}
		}
		s.models = append(s.models, m)
	}
	return s, nil
}

// checkWork refuses a run, comparison or search whose estimated work is
// over the limits (unless --force), and says how long a search should take.
func (s *simulation) checkWork(e *Env, o *simulateOpts, sh autoscale.Shard) error {
	est := autoscale.EstimateRun(s.spec, s.stats, s.model)
	if o.compare {
		est = autoscale.EstimateRun(s.variants[0], s.stats, s.models[0])
	}
	if o.search {
		est = autoscale.EstimateSearch(s.spec, s.stats, s.candidates)
	}
	if err := est.Check(autoscale.DefaultLimits); err != nil && !o.force {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			ae.Extend("%s; or give --force to run it anyway")
		}
		return apperr.InFile(err, o.file)
	}
	if o.search {
		fmt.Fprintln(e.Stderr, searchPlan(est, o.targetWall, sh.Count))
	}
	if o.compare {
		for i, v := range s.variants[1:] {
			if err := autoscale.EstimateRun(v, s.stats, s.models[i+1]).Check(autoscale.DefaultLimits); err != nil && !o.force {
				return apperr.InFile(err, o.file)
			}
		}
	}
	return nil
}

// runComparison simulates the compare block's variants over the same
// traffic, side by side.
func (e *Env) runComparison(ctx context.Context, o *simulateOpts, s *simulation, chartFormat string, format report.Format, l report.Lang) error {
	var next func() autoscale.Source
	if s.src != nil {
		first := true
		next = func() autoscale.Source {
			if first {
				first = false
				return s.src
			}
			return s.next()
		}
	}
	res, err := autoscale.Compare(s.spec.Name, s.variants, s.models, next, autoscale.Options{Context: ctx})
	if err != nil {
		return err
	}
	if o.chart != "" {
		if err := writeFileAtomic(o.chart, func(w io.Writer) error { return report.ComparisonChart(w, chartFormat, res, l) }); err != nil {
			return err
		}
		fmt.Fprintln(e.Stderr, report.CLIText(l, "cmp.wrote", o.chart))
	}
	if format == report.JSONFmt {
		return report.WriteJSON(e.Stdout, res)
	}
	return report.WriteComparison(e.Stdout, res, l)
}

// runSearchShard runs one shard of a search, its results stored under the
// search's id.
func (e *Env) runSearchShard(ctx context.Context, o *simulateOpts, s *simulation, sh autoscale.Shard) error {
	svc, err := e.ReadFile(o.file)
	if err != nil {
		return &apperr.Error{Code: apperr.Invalid, Field: "-f", Msg: "cannot read", Err: err}
	}
	var tr []byte
	if s.tracePath != "" {
		if tr, err = e.ReadFile(s.tracePath); err != nil {
			return &apperr.Error{Code: apperr.Invalid, Field: "--trace", Msg: "cannot read", Err: err}
		}
	}
	fp := searchFingerprint(svc, tr, s.candidates)
	id := o.searchID
	if id == "" {
		id = fp[:16]
	}
	return e.runShard(ctx, shardRun{Shard: sh, SearchID: id, Fingerprint: fp, Spec: s.spec, Candidates: s.candidates,
		Trace: s.next, Options: autoscale.Options{Context: ctx}})
}

// runSimulation replays the traffic once against the file's policy.
func (e *Env) runSimulation(ctx context.Context, o *simulateOpts, s *simulation, chartFormat string, format report.Format, l report.Lang) error {
	opts := autoscale.Options{Context: ctx}
	if bar := e.progress(s.spec); bar != nil {
		opts.Progress = func(done, total float64) {
			if total > 0 {
				_ = bar.Set64(int64(done / total * 1000))
			}
		}
		defer bar.Finish()
	}
	res, err := autoscale.Simulate(s.spec, s.src, s.model, opts)
	if err != nil {
		return err
	}
	if o.chart != "" {
		if err := writeFileAtomic(o.chart, func(w io.Writer) error { return report.SimulationChart(w, chartFormat, res, s.spec.SLO, l) }); err != nil {
			return err
		}
		fmt.Fprintln(e.Stderr, report.CLIText(l, "chart.wrote", o.chart))
	}
	if format == report.JSONFmt {
		return report.WriteJSON(e.Stdout, report.SimulationIn(res, l))
	}
	return report.WriteSimulation(e.Stdout, res, l)
}

// workloadFile returns the contents of file when it is a workload file
// rather than a service file: a workload states its kind, a service file
// has no such key. An unreadable file is left to the service file's
// reader to report.
func workloadFile(e *Env, file string) ([]byte, bool) {
	if file == "" {
		return nil, false
	}
	b, err := e.ReadFile(file)
	if err != nil || !strictyaml.IndexLines(b).Has("kind") {
		return nil, false
	}
	return b, true
}

// simulatePlan replays the plan recommend picks for the service workload
// b read from file (app.ReplayRecommended): it says which plan it
// replays, then the simulation as for a service file; savePlan, when
// given, receives the plan's service file, whose workload path is
// relative to it.
func (e *Env) simulatePlan(ctx context.Context, file string, b []byte, savePlan, chart, chartFormat string, format report.Format, l report.Lang) error {
	spec, err := workload.Parse(b, file)
	if err != nil {
		return err
	}
	c, m, err := e.catalogAndCompat()
	if err != nil {
		return err
	}
	name := filepath.Base(file)
	if savePlan != "" {
		abs, err1 := filepath.Abs(file)
		dir, err2 := filepath.Abs(filepath.Dir(savePlan))
		if err1 == nil && err2 == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil {
				name = filepath.ToSlash(rel)
			}
		}
	}
	p, err := app.ReplayRecommended(ctx, spec, c, e.checker(m, c), e.Now(), name)
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Field != "" && ae.Line == 0 {
			ae.Line = strictyaml.IndexLines(b).Line(ae.Field)
		}
		return apperr.InFile(err, file)
	}
	if savePlan != "" {
		if err := writeFileAtomic(savePlan, func(w io.Writer) error { _, err := w.Write(p.File); return err }); err != nil {
			return err
		}
		fmt.Fprintln(e.Stderr, report.CLIText(l, "sim.plan_saved", savePlan))
	}
	if chart != "" {
		if err := writeFileAtomic(chart, func(w io.Writer) error { return report.SimulationChart(w, chartFormat, p.Result, p.Service.SLO, l) }); err != nil {
			return err
		}
		fmt.Fprintln(e.Stderr, report.CLIText(l, "chart.wrote", chart))
	}
	if format == report.JSONFmt {
		return report.WriteJSON(e.Stdout, report.PlanReplayView(p.Candidate, p.Result))
	}
	return report.WritePlanReplay(e.Stdout, p.Candidate, p.Result, l)
}

// serviceModel builds the batching model of a model service (spec, read
// from file in dir): its workload file, its offer in the region the
// workload's compliance allows (as recommend picks it), its slice, and
// the speed of its fallback tier. Errors about the spec's fields name
// their line in file.
func (e *Env) serviceModel(spec *autoscale.Spec, c *catalog.Catalog, dir, file string) (*autoscale.BatchModel, *workload.Spec, *catalog.Offer, error) {
	ws, err := e.loadWorkload(filepath.Join(dir, spec.Service.Workload))
	if err != nil {
		return nil, nil, nil, err
	}
	fields := app.Fields{Offer: "service.offer", Region: "service.region"}
	o, err := app.FindOffer(c, fields, spec.Service.Offer)
	if err != nil {
		return nil, nil, nil, apperr.InFile(apperr.Wrap(apperr.Invalid, "service.offer", err), file)
	}
	var allowed bool
	if o, allowed, err = app.PickRegion(c, fields, o, spec.Service.Region, ws.Compliance, catalog.OnDemand); err != nil {
		return nil, nil, nil, apperr.InFile(apperr.Wrap(apperr.Invalid, fields.Region, err), file)
	}
	if !allowed {
		if spec.Service.Region != "" {
			return nil, nil, nil, apperr.InFile(apperr.Invalidf("service.region", "%s in %s does not meet the compliance block of %s", o.ID(), o.Region, ws.Name), file)
		}
		return nil, nil, nil, apperr.InFile(apperr.Invalidf("service.offer", "no region of %s meets the compliance block of %s", o.ID(), ws.Name), file)
	}
	model, err := advisor.ServiceModel(spec, advisor.ServiceLayout(spec, ws), c, o)
	if err != nil {
		return nil, nil, nil, apperr.InFile(err, file)
	}
	advisor.ApplyPrices(spec, o, model)
	if err := app.ApplyFallback(spec, ws, model); err != nil {
		return nil, nil, nil, apperr.InFile(err, file)
	}
	return model, ws, o, nil
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
