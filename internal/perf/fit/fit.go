package fit

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/parallel"
	"github.com/gpupick/gpupick/internal/perf"
)

// Row is a scored case: its prediction under some parameters and the error.
type Row struct {
	Case      *Case
	Predicted float64
	// Err is ln(predicted / measured).
	Err float64
	// Speed is ln(measured speed / predicted speed): Err with the sign
	// turned for throughput metrics, so that a positive value always means
	// the system was faster than predicted.
	Speed float64
	Fits  bool
	Note  string
}

// Evaluator predicts cases under candidate parameters. It parses each case
// and builds its cluster once.
type Evaluator struct {
	cases    []*Case
	clusters []perf.Cluster
	peaks    []float64
}

// NewEvaluator prepares the scorable cases.
func NewEvaluator(cat *catalog.Catalog, cases []Case) (*Evaluator, error) {
	ev := &Evaluator{}
	for i := range cases {
		c := &cases[i]
		if c.NotScored != "" {
			continue
		}
		cl, err := c.Cluster(cat)
		if err != nil {
			return nil, err
		}
		ev.cases = append(ev.cases, c)
		ev.clusters = append(ev.clusters, cl)
		peak := 0.0
		if t := c.Spec.Training; t != nil {
			peak = perf.PeakTFLOPS(cl.GPU, t.Precision)
		}
		ev.peaks = append(ev.peaks, peak)
	}
	return ev, nil
}

// Eval predicts case i under p.
func (ev *Evaluator) Eval(p *perf.Params, i int) Row {
	c := ev.cases[i]
	r := Row{Case: c}
	pred, err := perf.PredictWith(p, c.Spec, ev.clusters[i])
	if err != nil {
		r.Note = err.Error()
		r.Err, r.Speed = math.Inf(1), math.Inf(-1)
		return r
	}
	if !pred.Fits {
		r.Note = "predicted not to fit: " + pred.Reason.String()
		r.Err, r.Speed = math.Inf(1), math.Inf(-1)
		return r
	}
	v, ok := metrics[c.Metric](pred, ev.peaks[i])
	if !ok || !(v > 0) {
		r.Note = "the prediction has no " + c.Metric
		r.Err, r.Speed = math.Inf(1), math.Inf(-1)
		return r
	}
	r.Fits = true
	r.Predicted = v
	r.Err = math.Log(v / c.Value)
	r.Speed = -r.Err
	if !higherIsFaster(c.Metric) {
		r.Speed = r.Err
	}
	return r
}

// EvalAll predicts every case under p, in parallel.
func (ev *Evaluator) EvalAll(p *perf.Params) []Row {
	rows := make([]Row, len(ev.cases))
	parallel.For(len(ev.cases), func(i int) { rows[i] = ev.Eval(p, i) })
	return rows
}

// Options tune the fit.
type Options struct {
	// PriorSigma scales every factor's Spread: moving a factor by
	// PriorSigma·Spread (ln units) costs as much as one row off by Delta.
	PriorSigma float64
	// Delta is the pseudo-Huber scale of a row's error: errors beyond it
	// count linearly, so one odd row cannot drag the fit.
	Delta float64
	// Sweeps is the number of coordinate-descent passes.
	Sweeps int
}

// DefaultOptions are the settings `cmd/perffit` uses.
var DefaultOptions = Options{PriorSigma: 1, Delta: 0.25, Sweeps: 3}

// Fit fits the model's fitted factors on the rows of ev whose index keep
// allows, starting from start, by coordinate descent in log space on a
// robust loss plus a pull towards each factor's prior. It is deterministic.
func Fit(ev *Evaluator, start *perf.Params, keep func(i int) bool, o Options) *perf.Params {
	p := start.Clone()
	var idx []int
	groupN := map[string]int{}
	for i, c := range ev.cases {
		if keep(i) {
			idx = append(idx, i)
			groupN[c.Group]++
		}
	}
	weight := make([]float64, len(ev.cases))
	for _, i := range idx {
		c := ev.cases[i]
		w := 1 / math.Sqrt(float64(groupN[c.Group]))
		if c.Assumed {
			w /= 2
		}
		weight[i] = w
	}
	errs := make([]float64, len(ev.cases))
	for _, i := range idx {
		errs[i] = ev.Eval(p, i).Err
	}
	rowLoss := func(e float64) float64 {
		if math.IsInf(e, 0) || math.IsNaN(e) {
			return 10
		}
		d := o.Delta
		return d * d * (math.Sqrt(1+(e/d)*(e/d)) - 1)
	}
	factors := perf.Factors()
	var fitted []perf.Factor
	for _, f := range factors {
		if f.Fit {
			fitted = append(fitted, f)
		}
	}
	// Which rows each factor moves: perturb it once and look.
	affects := make([][]int, len(fitted))
	for k, f := range fitted {
		q := p.Clone()
		f.Set(q, f.Get(p)*1.05)
		var moved []int
		rows := make([]float64, len(idx))
		parallel.For(len(idx), func(x int) { rows[x] = ev.Eval(q, idx[x]).Err })
		for x, i := range idx {
			// The image-generation model's factors are fitted on the
			// image rows alone, and the shared factors (architectures,
			// fp8, elementwise fusion, all-to-all) on the other rows
			// alone: a few dozen diffusion rows with partly unstated
			// set-ups should not move what hundreds of GEMM-dominated
			// language-model rows pin down, and the image model then uses
			// those shared factors as measured elsewhere.
			if f.Image != (ev.cases[i].Kind == ImageKind) {
				continue
			}
			if math.Abs(rows[x]-errs[i]) > 1e-9 || math.IsInf(rows[x], 0) != math.IsInf(errs[i], 0) {
				moved = append(moved, i)
			}
		}
		affects[k] = moved
	}
	priorLoss := func(f perf.Factor, v float64) float64 {
		z := math.Log(v/f.Prior) / (o.PriorSigma * f.Spread)
		return o.Delta * o.Delta * z * z / 2
	}
	for range o.Sweeps {
		for k, f := range fitted {
			rows := affects[k]
			if len(rows) == 0 {
				continue
			}
			cur := f.Get(p)
			base := 0.0
			for _, i := range rows {
				base += weight[i] * rowLoss(errs[i])
			}
			loss := func(v float64) (float64, []float64) {
				q := p.Clone()
				f.Set(q, v)
				e := make([]float64, len(rows))
				parallel.For(len(rows), func(x int) { e[x] = ev.Eval(q, rows[x]).Err })
				l := priorLoss(f, v)
				for x, i := range rows {
					l += weight[i] * rowLoss(e[x])
				}
				return l, e
			}
			lo, hi := math.Log(f.Lo), math.Log(f.Hi)
			best, bestE := priorLoss(f, cur)+base, []float64(nil)
			bestV := cur
			// Golden-section search on ln(v) over the factor's bounds.
			const g = 0.6180339887498949
			a, b := lo, hi
			x1, x2 := b-g*(b-a), a+g*(b-a)
			f1, e1 := loss(math.Exp(x1))
			f2, e2 := loss(math.Exp(x2))
			for range 14 {
				if f1 < f2 {
					b, x2, f2, e2 = x2, x1, f1, e1
					x1 = b - g*(b-a)
					f1, e1 = loss(math.Exp(x1))
				} else {
					a, x1, f1, e1 = x1, x2, f2, e2
					x2 = a + g*(b-a)
					f2, e2 = loss(math.Exp(x2))
				}
			}
			for _, c := range []struct {
				l float64
				e []float64
				x float64
			}{{f1, e1, x1}, {f2, e2, x2}} {
				if c.l < best {
					best, bestE, bestV = c.l, c.e, math.Exp(c.x)
				}
			}
			if bestE != nil {
				f.Set(p, roundSig(bestV, 4))
				for x, i := range rows {
					errs[i] = bestE[x]
				}
				// Rounding moved the value a little: re-evaluate exactly.
				for _, i := range rows {
					errs[i] = ev.Eval(p, i).Err
				}
			}
		}
	}
	return p
}

func roundSig(v float64, digits int) float64 {
	if v == 0 {
		return 0
	}
	e := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*e) / e
}

// Validation is the outcome of fitting on all rows and of leaving each
// source out in turn.
type Validation struct {
	Params   *perf.Params
	InSample []Row // every row under the full fit
	HeldOut  []Row // every row under the fit that left its group out
	Groups   []string
}

// LeaveOneSourceOut fits on all rows, then for each group fits on the
// others (starting from the priors, as the full fit does) and scores the
// group's rows.
func LeaveOneSourceOut(ev *Evaluator, o Options) Validation {
	prior := perf.PriorParams()
	all := Fit(ev, prior, func(int) bool { return true }, o)
	v := Validation{Params: all, InSample: ev.EvalAll(all)}
	groups := map[string]bool{}
	for _, c := range ev.cases {
		groups[c.Group] = true
	}
	for g := range groups {
		v.Groups = append(v.Groups, g)
	}
	sort.Strings(v.Groups)
	v.HeldOut = make([]Row, len(ev.cases))
	for _, g := range v.Groups {
		p := Fit(ev, prior, func(i int) bool { return ev.cases[i].Group != g }, o)
		for i, c := range ev.cases {
			if c.Group == g {
				v.HeldOut[i] = ev.Eval(p, i)
			}
		}
	}
	return v
}

// ValidationSet keeps the rows of the project's language- and image-model
// validation set (not the extra rows gathered beyond it, nor the
// image-generation rows, which ImageRows reports on their own).
func ValidationSet(rows []Row) []Row {
	var out []Row
	for _, r := range rows {
		if !r.Case.Extra && r.Case.Kind != ImageKind {
			out = append(out, r)
		}
	}
	return out
}

// FirstFile is the file of the validation set and of the first rows
// gathered beyond it; later gatherings are files of their own.
const FirstFile = "published.yaml"

// Gathered returns the rows of later gatherings (files other than
// FirstFile), each file's: sources the model was first scored on after
// they were added, so their error is what a user should expect on a job
// unlike the first rows.
func Gathered(rows []Row) map[string][]Row {
	out := map[string][]Row{}
	for _, r := range rows {
		if f := r.Case.File; f != "" && f != FirstFile {
			out[f] = append(out[f], r)
		}
	}
	return out
}

// FirstRows returns the rows of FirstFile.
func FirstRows(rows []Row) []Row {
	var out []Row
	for _, r := range rows {
		if r.Case.File == "" || r.Case.File == FirstFile {
			out = append(out, r)
		}
	}
	return out
}

// ImageKind is the case kind of the image-generation rows.
const ImageKind = "image_gen"

// ImageRows keeps the image-generation rows.
func ImageRows(rows []Row) []Row {
	var out []Row
	for _, r := range rows {
		if r.Case.Kind == ImageKind {
			out = append(out, r)
		}
	}
	return out
}

// Summary is the median and 90th percentile of |error| over some rows.
type Summary struct {
	N           int
	Median, P90 float64
}

// Summarise returns the summary of rows, overall and per case kind.
func Summarise(rows []Row) (all Summary, byKind map[string]Summary) {
	byKind = map[string]Summary{}
	kinds := map[string][]float64{}
	var errs []float64
	for _, r := range rows {
		e := math.Abs(r.Err)
		if math.IsInf(e, 0) {
			e = 5
		}
		errs = append(errs, e)
		kinds[r.Case.Kind] = append(kinds[r.Case.Kind], e)
	}
	for k, v := range kinds {
		byKind[k] = Summary{len(v), Quantile(v, 0.5), Quantile(v, 0.9)}
	}
	return Summary{len(errs), Quantile(errs, 0.5), Quantile(errs, 0.9)}, byKind
}

// Quantile is the q-quantile of v with linear interpolation.
func Quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	pos := q * float64(len(s)-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

// Intervals computes, from held-out rows, the 10th and 90th percentiles of
// the speed residual ln(measured / predicted speed) per regime, with every
// source weighing the same (each of its rows 1 / its rows in the regime):
// the spread between sources, which is what a user whose job comes from no
// source the model has seen meets, not the spread within one source, which
// a source with many rows would otherwise set. A regime with rows from
// fewer than minSources sources takes the pooled quantiles of every row;
// each interval is at least ±minHalf wide, since a handful of sources
// cannot show a narrower spread. The quantile levels are moved out by
// widen[regime] sources on each side (widen / sources; widen["pooled"] for
// the pooled quantiles): from k sources the 10th and 90th percentiles of
// the next, unseen one lie a little further out than those of the k seen,
// how much further depending on how alike the regime's sources are;
// Calibrate chooses how far.
func Intervals(rows []Row, widen Widening) map[string][2]float64 {
	const minSources, minHalf = 4, 0.10
	type sample struct {
		v     float64
		group string
	}
	by := map[string][]sample{}
	var pooled []sample
	for _, r := range rows {
		if math.IsInf(r.Speed, 0) {
			continue
		}
		reg := perf.RegimeOf(r.Case.Spec)
		x := sample{r.Speed, r.Case.Group}
		by[reg] = append(by[reg], x)
		pooled = append(pooled, x)
	}
	q := func(s []sample, widen float64) ([2]float64, int) {
		n := map[string]int{}
		for _, x := range s {
			n[x.group]++
		}
		v, w := make([]float64, len(s)), make([]float64, len(s))
		for i, x := range s {
			v[i], w[i] = x.v, 1/float64(n[x.group])
		}
		d := widen / float64(len(n))
		lo := math.Min(weightedQuantile(v, w, math.Max(0, 0.1-d)), -minHalf)
		hi := math.Max(weightedQuantile(v, w, math.Min(1, 0.9+d)), minHalf)
		return [2]float64{roundSig(lo, 3), roundSig(hi, 3)}, len(n)
	}
	iv := map[string][2]float64{}
	iv["pooled"], _ = q(pooled, widen["pooled"])
	for _, reg := range perf.Regimes() {
		if x, sources := q(by[reg], widen[reg]); sources >= minSources {
			iv[reg] = x
		} else {
			iv[reg] = iv["pooled"]
		}
	}
	return iv
}

// weightedQuantile is the q-quantile of v with weights w (each value
// standing for its weight's share of the whole), interpolated between
// the midpoints of the sorted values' weights.
func weightedQuantile(v, w []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	total := 0.0
	for _, x := range w {
		total += x
	}
	// The midpoint of each value's weight, as a share of the total.
	mid := make([]float64, len(idx))
	acc := 0.0
	for k, i := range idx {
		mid[k] = (acc + w[i]/2) / total
		acc += w[i]
	}
	switch {
	case q <= mid[0]:
		return v[idx[0]]
	case q >= mid[len(mid)-1]:
		return v[idx[len(idx)-1]]
	}
	k := sort.SearchFloat64s(mid, q)
	a, b := idx[k-1], idx[k]
	f := (q - mid[k-1]) / (mid[k] - mid[k-1])
	return v[a] + (v[b]-v[a])*f
}

// Widenings are the widenings of the quantile levels Calibrate chooses
// from, in sources: none, a quarter, half, three quarters or one.
var Widenings = []float64{0, 0.25, 0.5, 0.75, 1}

// Widening maps a regime, and "pooled", to how far Intervals moves its
// quantile levels out, in sources; one it lacks is not moved.
type Widening map[string]float64

// Uniform is the widening x for every regime and the pooled quantiles.
func Uniform(x float64) Widening {
	w := Widening{"pooled": x}
	for _, reg := range perf.Regimes() {
		w[reg] = x
	}
	return w
}

// Calibrate chooses the widenings. The pooled quantiles, which regimes of
// few sources take, get the one of Widenings whose nested coverage of all
// rows is nearest the intervals' nominal 80% (the smaller on a tie). Then
// each regime gets the one nearest 80% on its own rows, the pooled
// quantiles held at theirs (a row whose regime falls back on them, once
// its source is left out, must not credit its regime's widening). How far
// beyond the seen sources the next one falls depends on how alike they
// are, which each regime's rows measure: the vendors' offline throughput
// tables disagree more among themselves than the training recipes do, and
// one widening for all covered 55% of the first and 79% of the second
// (2026-12-07). It returns the choice with the coverage of all rows at
// each widening applied to every regime.
func Calibrate(rows []Row) (Widening, []float64) {
	var coverage []float64
	pooled, best := 0.0, math.Inf(1)
	for _, x := range Widenings {
		all, _ := Coverage(rows, Uniform(x))
		coverage = append(coverage, all)
		if d := math.Abs(all - 0.8); d < best-1e-9 {
			best, pooled = d, x
		}
	}
	choice, bestOf := Widening{"pooled": pooled}, map[string]float64{}
	for _, x := range Widenings {
		w := Uniform(x)
		w["pooled"] = pooled
		_, by := Coverage(rows, w)
		for reg, n := range by {
			d := math.Abs(float64(n[0])/float64(n[1]) - 0.8)
			if b, ok := bestOf[reg]; !ok || d < b-1e-9 {
				bestOf[reg], choice[reg] = d, x
			}
		}
	}
	return choice, coverage
}

// Coverage is the share of held-out rows whose measured value lies in the
// 80% interval built without their own group (nested: the interval of a
// row never sees that row's source), overall and per regime.
func Coverage(rows []Row, widen Widening) (all float64, byRegime map[string][2]int) {
	byRegime = map[string][2]int{}
	in, n := 0, 0
	for _, r := range rows {
		if math.IsInf(r.Speed, 0) {
			continue
		}
		var others []Row
		for _, o := range rows {
			if o.Case.Group != r.Case.Group {
				others = append(others, o)
			}
		}
		reg := perf.RegimeOf(r.Case.Spec)
		q := Intervals(others, widen)[reg]
		hit := r.Speed >= q[0] && r.Speed <= q[1]
		c := byRegime[reg]
		c[1]++
		n++
		if hit {
			c[0]++
			in++
		}
		byRegime[reg] = c
	}
	if n == 0 {
		return 0, byRegime
	}
	return float64(in) / float64(n), byRegime
}
