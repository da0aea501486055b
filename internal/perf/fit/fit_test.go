package fit

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/perf"
)

var update = flag.Bool("update", false, "rewrite internal/perf/model.json and docs/accuracy.md (as go run ./cmd/perffit does)")

// The 71 rows of the project's validation set (published-results.csv and
// published-results-2.csv): every one must be a case, scored or with the
// reason it cannot be.
var validationIDs = strings.Fields(`LF-01 LF-02 LF-05 LF-06 LF-07 TT-01 TT-02 TT-03 TT-04 MG-01 MG-02 MG-03 MG-05 MG-07
	MG-08 MG-09 TPU-01 MT-01 MT-03 MT-04 DL-01 DL-03 DL-04 MI-01 MI-03 TR-01 TR-06 TR-07 TR-08 KP-01 KP-02
	MB2-01 MB2-02 MB2-03 MB2-04 MB2-05 MB2-06 MB2-07 MB2-08 MB2-09 MB2-10 LF2-01 LF2-02 LF2-03 LF2-04 LF2-05 LF2-06
	TT2-01 TT2-02 TT2-03 TTN-04 TTN-05 DL2-01 DL2-02 DL2-03 DL2-04 DL2-05 TR2-01 TR2-02 TR2-03 TR2-04 TR2-05 TR2-06
	TR2-07 TR2-08 TR2-09 TR2-10 TR2-11 TR2-12 TR2-13 TR2-14`)

func TestCasesCoverTheValidationSet(t *testing.T) {
	cases, err := Published()
	if err != nil {
		t.Fatal(err)
	}
	if len(validationIDs) != 71 {
		t.Fatalf("the list holds %d ids, want 71", len(validationIDs))
	}
	got := map[string]Case{}
	for _, c := range cases {
		got[c.ID] = c
	}
	for _, id := range validationIDs {
		c, ok := got[id]
		if !ok {
			t.Errorf("%s: not in testdata/published.yaml", id)
			continue
		}
		if c.Date == "" || !strings.Contains(c.Source, ":") {
			t.Errorf("%s: source %q and date %q must say where and when it was published", id, c.Source, c.Date)
		}
	}
	if len(cases) < len(validationIDs) {
		t.Errorf("%d cases, want at least the %d of the validation set", len(cases), len(validationIDs))
	}
	cat := catalogtest.Embedded(t)
	for _, c := range cases {
		if _, err := c.Cluster(cat); err != nil && c.NotScored == "" {
			t.Errorf("%s: %v", c.ID, err)
		}
	}
}

func TestParseCasesErrors(t *testing.T) {
	good := "- id: X-1\n  group: g\n  source: \"github:a/b README\"\n  date: \"2025\"\n  kind: train\n  value: 10\n  unit: tokens/s\n  metric: throughput\n  hardware: {gpu: h100-sxm, gpus: 8}\n  workload: {kind: llm-train, model: {preset: llama-3-8b}, training: {tokens: 1e9}}\n"
	if _, err := ParseCases([]byte(good)); err != nil {
		t.Fatalf("a good case: %v", err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"no value", "  value: 10\n", "", "value must be a number > 0"},
		{"zero value", "value: 10", "value: 0", "value must be a number > 0"},
		{"bad metric", "metric: throughput", "metric: speed", "metric \"speed\""},
		{"no group", "  group: g\n", "", "group and source are required"},
		{"bad workload", "preset: llama-3-8b", "preset: llama-3-8b, layers: -1", "workload"},
		{"no hardware", "gpus: 8", "gpus: 0", "hardware.gpu"},
		{"duplicate", "", "", "appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(good, tc.from, tc.to, 1)
			if tc.name == "duplicate" {
				doc = good + good
			}
			_, err := ParseCases([]byte(doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func FuzzParseCases(f *testing.F) {
	seed, err := published.ReadFile("testdata/published.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed[:min(len(seed), 4000)])
	f.Add([]byte("- id: a\n  value: 1\n"))
	f.Add([]byte("[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := ParseCases(data)
		if err != nil {
			return
		}
		for _, c := range cases {
			if c.ID == "" || !(c.Value > 0) || c.Spec == nil {
				t.Fatalf("accepted a bad case: %+v", c)
			}
		}
	})
}

// evaluator prepares the published cases on the embedded catalog.
func evaluator(tb testing.TB) (*Evaluator, []Case) {
	tb.Helper()
	cases, err := Published()
	if err != nil {
		tb.Fatal(err)
	}
	ev, err := NewEvaluator(catalogtest.Embedded(tb), cases)
	if err != nil {
		tb.Fatal(err)
	}
	return ev, cases
}

var (
	runOnce sync.Once
	runRes  Result
)

// fullRun fits and validates once per test binary (a few seconds).
func fullRun(t *testing.T) Result {
	t.Helper()
	runOnce.Do(func() {
		ev, cases := evaluator(t)
		runRes = Run(ev, cases, DefaultOptions)
	})
	return runRes
}

// TestModelAndReportAreCurrent reruns the fit and compares it with the
// committed model.json and docs/accuracy.md: the factors are reproducible
// from the data by the documented command.
func TestModelAndReportAreCurrent(t *testing.T) {
	r := fullRun(t)
	model, err := r.ModelJSON()
	if err != nil {
		t.Fatal(err)
	}
	evidence, err := r.EvidenceJSON(catalogtest.Embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{"../model.json", model}, {"../../../docs/accuracy.md", []byte(r.Markdown())}, {"../evidence.json", evidence}} {
		if *update {
			if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		// The files are generated on amd64, where Go never fuses
		// multiply-adds; elsewhere the last digits of a fit may differ, and
		// the factors are compared within a tolerance below.
		if runtime.GOARCH == "amd64" && !bytes.Equal(old, f.data) {
			t.Errorf("%s is stale: run %s (or go test ./internal/perf/fit -update)", f.path, Command)
		}
	}
	// What the package embeds is what the file says.
	p, err := perf.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, fc := range perf.Factors() {
		if got, want := fc.Get(perf.DefaultParams()), fc.Get(p); !*update && math.Abs(got-want) > 1e-3*math.Abs(want) {
			t.Errorf("%s: embedded %g, fitted %g", fc.Name, got, want)
		}
	}
	embedded := perf.DefaultParams().Intervals()
	for reg, q := range p.Intervals() {
		if e, ok := embedded[reg]; !*update && (!ok || math.Abs(e[0]-q[0]) > 1e-3 || math.Abs(e[1]-q[1]) > 1e-3) {
			t.Errorf("interval of %s: embedded %v, fitted %v", reg, e, q)
		}
	}
	// The README quotes the held-out accuracy: it must be the current one.
	out, _ := Summarise(ValidationSet(r.Validation.HeldOut))
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	if q := fmt.Sprintf("plus %d fitted factors", countFitted()); !strings.Contains(text, q) {
		t.Errorf("README.md does not say %q", q)
	}
	for _, v := range []float64{out.Median, out.P90} {
		if q := fmt.Sprintf("|ln| %.3f", v); !strings.Contains(text, q) {
			t.Errorf("README.md does not quote the held-out error %q", q)
		}
	}
}

// TestHeldOutTargets holds the model to the accuracy it must reach on rows
// from sources it was not fitted to, and to honest intervals.
func TestHeldOutTargets(t *testing.T) {
	r := fullRun(t)
	in, _ := Summarise(ValidationSet(r.Validation.InSample))
	out, _ := Summarise(ValidationSet(r.Validation.HeldOut))
	// The first file's language-model and CNN rows (the validation set and
	// the vendors' tables gathered with it) keep their bound; later
	// gatherings are reported apart (below).
	var llm []Row
	for _, row := range FirstRows(r.Validation.HeldOut) {
		if row.Case.Kind != ImageKind {
			llm = append(llm, row)
		}
	}
	all, _ := Summarise(llm)
	img, _ := Summarise(ImageRows(r.Validation.HeldOut))
	// The target for image rows is a held-out median of 0.20; the
	// model does not reach it yet (docs/accuracy.md says so). This bound
	// keeps it from getting worse.
	if img.N < 30 || img.Median > 0.35 || img.P90 > 0.75 {
		t.Errorf("image generation: %d rows, held-out median %.3f p90 %.3f, want at least 30 rows within 0.35 / 0.75", img.N, img.Median, img.P90)
	}
	t.Logf("validation set: in-sample median %.3f p90 %.3f; held-out median %.3f p90 %.3f; all rows held out %.3f / %.3f; coverage %.2f",
		in.Median, in.P90, out.Median, out.P90, all.Median, all.P90, r.Coverage)
	if all.Median > 0.15 || all.P90 > 0.45 {
		t.Errorf("with the extra rows, held-out median %.3f and p90 %.3f: the model got worse beyond the validation set", all.Median, all.P90)
	}
	if out.Median > 0.15 {
		t.Errorf("leave-one-source-out median |ln| %.3f, want <= 0.15", out.Median)
	}
	if out.P90 > 0.40 {
		t.Errorf("leave-one-source-out 90th percentile |ln| %.3f, want <= 0.40", out.P90)
	}
	// Later gatherings: sources found after the model was built, many of
	// them jobs it does not model well yet (wide expert-parallel serving,
	// TTFT under a server's load, serving under an interactivity bound).
	// The target for them is a held-out median of 0.12 and p90 of
	// 0.40, not met (docs/accuracy.md says so). When they were added they
	// scored 0.185 / 1.12 held out; following parallelism.sharding and
	// hierarchical collectives brought them to 0.144 / 0.69. This bound
	// keeps the model from going back.
	g := Gathered(r.Validation.HeldOut)
	if len(g) == 0 {
		t.Error("no later gathering of published rows")
	}
	var later []Row
	for _, rows := range g {
		later = append(later, rows...)
	}
	gs, _ := Summarise(later)
	t.Logf("later gatherings: %d rows from %d sources, held-out median %.3f p90 %.3f", gs.N, countGroups(later), gs.Median, gs.P90)
	if gs.N < 80 || countGroups(later) < 20 || gs.Median > 0.18 || gs.P90 > 0.85 {
		t.Errorf("later gatherings: %d rows from %d sources, held-out median %.3f p90 %.3f; want at least 80 rows from 20 sources within 0.18 / 0.85", gs.N, countGroups(later), gs.Median, gs.P90)
	}
	if r.Coverage < 0.75 || r.Coverage > 0.85 {
		t.Errorf("80%% intervals cover %.0f%% of held-out rows, want 75-85%%", 100*r.Coverage)
	}
	if out.N < 60 {
		t.Errorf("only %d rows scored", out.N)
	}
	// Held-out can never be better than in-sample by much; a big gap the
	// other way is overfitting, which the report must then say.
	if out.Median < in.Median-0.02 {
		t.Errorf("held-out median %.3f is well below in-sample %.3f: the validation leaks", out.Median, in.Median)
	}
}

// TestFitRecoversAFactor makes measurements with one factor moved, then
// fits from the priors: the fit must move that factor towards the truth and
// leave the rows' errors small. A fitter that does nothing fails.
func TestFitRecoversAFactor(t *testing.T) {
	cases, err := Published()
	if err != nil {
		t.Fatal(err)
	}
	var hopper []Case
	for _, c := range cases {
		if c.NotScored == "" && strings.HasPrefix(c.Hardware.GPU, "h100-sxm") && c.Hardware.GPUs <= 16 {
			hopper = append(hopper, c)
		}
	}
	ev, err := NewEvaluator(catalogtest.Embedded(t), hopper)
	if err != nil {
		t.Fatal(err)
	}
	truth := perf.PriorParams()
	var hm perf.Factor
	for _, f := range perf.Factors() {
		if f.Name == "hopper.matmul" {
			hm = f
		}
	}
	hm.Set(truth, hm.Prior*0.8)
	// A published run the model says cannot fit (a layout it does not
	// follow yet) gives no measurement to recover a factor from.
	kept := &Evaluator{}
	for i := range ev.cases {
		r := ev.Eval(truth, i)
		if !r.Fits {
			t.Logf("%s left out: %s", ev.cases[i].ID, r.Note)
			continue
		}
		ev.cases[i].Value = r.Predicted // a copy: the shared cases are not changed
		kept.cases = append(kept.cases, ev.cases[i])
		kept.clusters = append(kept.clusters, ev.clusters[i])
		kept.peaks = append(kept.peaks, ev.peaks[i])
	}
	if len(kept.cases) < 20 {
		t.Fatalf("only %d Hopper cases fit", len(kept.cases))
	}
	ev = kept
	got := Fit(ev, perf.PriorParams(), func(int) bool { return true }, Options{PriorSigma: 10, Delta: 0.25, Sweeps: 4})
	v := hm.Get(got)
	t.Logf("hopper.matmul: prior %.3f, truth %.3f, fitted %.3f", hm.Prior, hm.Prior*0.8, v)
	if math.Abs(math.Log(v/(hm.Prior*0.8))) > math.Abs(math.Log(hm.Prior/(hm.Prior*0.8)))/2 {
		t.Errorf("the fit moved hopper.matmul to %.3f: not even halfway from the prior %.3f to the truth %.3f", v, hm.Prior, hm.Prior*0.8)
	}
	rows := ev.EvalAll(got)
	all, _ := Summarise(rows)
	if all.Median > 0.05 {
		t.Errorf("after the fit the synthetic rows are off by a median %.3f", all.Median)
	}
}

func TestIntervalsAndCoverage(t *testing.T) {
	cases, err := Published()
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	seen := map[string]int{}   // rows of each source so far
	offset := map[string]int{} // where each source starts on the grid
	for i := range cases {
		c := &cases[i]
		if c.NotScored != "" {
			continue
		}
		// Residuals spread evenly over [-0.4, 0.4] within every source
		// (each source starting at another point of the nine-point grid),
		// so that weighing sources alike or rows alike spreads them alike.
		if _, ok := offset[c.Group]; !ok {
			offset[c.Group] = 4 * len(offset)
		}
		s := -0.4 + 0.8*float64((seen[c.Group]+offset[c.Group])%9)/8
		seen[c.Group]++
		rows = append(rows, Row{Case: c, Speed: s, Err: -s, Fits: true})
	}
	iv := Intervals(rows, Uniform(0.5))
	for _, reg := range perf.Regimes() {
		q, ok := iv[reg]
		if !ok || q[0] > -0.1 || q[1] < 0.1 || q[0] < -0.41 || q[1] > 0.41 {
			t.Errorf("%s: interval %v, want a band inside [-0.4, 0.4] around 0", reg, q)
		}
	}
	cov, _ := Coverage(rows, Uniform(0.5))
	if cov < 0.6 || cov > 0.95 {
		t.Errorf("coverage %.2f of evenly spread residuals, want about 0.8", cov)
	}
	// Calibrate: a wider level never covers less, and each regime's choice
	// (the pooled quantiles held at theirs) and the pooled one, over all
	// rows, are the widenings whose coverage of their rows is nearest the
	// nominal 80%.
	widen, covs := Calibrate(rows)
	if len(covs) != len(Widenings) {
		t.Fatalf("%d coverages for %d widenings", len(covs), len(Widenings))
	}
	share := func(c [2]int) float64 { return float64(c[0]) / float64(c[1]) }
	byWidening := make([]map[string][2]int, len(Widenings))
	for i, x := range Widenings {
		w := Uniform(x)
		w["pooled"] = widen["pooled"]
		_, byWidening[i] = Coverage(rows, w)
	}
	for i := range covs {
		if i > 0 && covs[i] < covs[i-1] {
			t.Errorf("coverage fell from %.3f to %.3f as the widening grew to %v", covs[i-1], covs[i], Widenings[i])
		}
		if j := slices.Index(Widenings, widen["pooled"]); math.Abs(covs[i]-0.8) < math.Abs(covs[j]-0.8)-1e-9 {
			t.Errorf("widening %v covers %.3f, nearer 80%% than the pooled choice %v's %.3f", Widenings[i], covs[i], widen["pooled"], covs[j])
		}
		for reg, c := range byWidening[i] {
			j := slices.Index(Widenings, widen[reg])
			if j < 0 {
				t.Fatalf("%s: widening %v is not one of %v", reg, widen[reg], Widenings)
			}
			if i > 0 && share(c) < share(byWidening[i-1][reg]) {
				t.Errorf("%s: coverage fell as the widening grew to %v", reg, Widenings[i])
			}
			if math.Abs(share(c)-0.8) < math.Abs(share(byWidening[j][reg])-0.8)-1e-9 {
				t.Errorf("%s: widening %v covers %.3f of its rows, nearer 80%% than the chosen %v's %.3f", reg, Widenings[i], share(c), widen[reg], share(byWidening[j][reg]))
			}
		}
	}
	if slices.Index(perf.Regimes(), "infer-burst") < 0 {
		t.Error("the burst regime must have an interval")
	}
}

// TestWeightedQuantile: equal weights interpolate between the values'
// midpoints; a heavy value pulls the quantiles to itself (one source of
// many rows weighs what one source of one row weighs when Intervals gives
// each row 1 / its source's rows).
func TestWeightedQuantile(t *testing.T) {
	v := []float64{4, 1, 3, 2}
	for _, tc := range []struct {
		w    []float64
		q    float64
		want float64
	}{
		{[]float64{1, 1, 1, 1}, 0.5, 2.5},
		{[]float64{1, 1, 1, 1}, 0.125, 1}, // the first value's midpoint
		{[]float64{1, 1, 1, 1}, 0.05, 1},  // below it: the smallest value
		{[]float64{1, 1, 1, 1}, 0.99, 4},  // above the last midpoint: the largest
		// 2 weighs 5 of 8: its midpoint is at 3.5/8, 3's at 6.5/8, so the
		// median lies a sixth of the way from 2 to 3 (equal weights: 2.5).
		{[]float64{1, 1, 1, 5}, 0.5, 2 + 1.0/6},
		// 4 weighs a quarter: its midpoint is at 3.125/3.25, 3's at
		// 2.5/3.25, so the 90th percentile is 0.68 of the way from 3 to 4
		// (equal weights: 4, the largest).
		{[]float64{0.25, 1, 1, 1}, 0.9, 3.68},
	} {
		if got := weightedQuantile(v, tc.w, tc.q); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("weights %v, q %.3f: %g, want %g", tc.w, tc.q, got, tc.want)
		}
	}
}
