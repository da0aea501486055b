// Package advisor evaluates every offer for a workload: it enumerates cluster
// shapes and pricing modes, predicts each with perf, prices it with cost,
// drops what cannot run or breaks a constraint (keeping the reason), ranks
// the rest by the workload's objective and marks the Pareto front of cost
// and time. It does no I/O.
package advisor

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// DefaultMaxGPUs bounds the cluster when the workload sets no max_gpus.
const DefaultMaxGPUs = 64

// LowUtilization is the GPU busy share below which a candidate is warned about.
const LowUtilization = 0.7

// Reason codes of excluded candidates (stable: part of `-o json`).
const (
	ReasonNoFit        = "does_not_fit"
	ReasonDeadline     = "misses_deadline"
	ReasonSpotRisk     = "spot_deadline_risk"
	ReasonBudget       = "over_budget"
	ReasonNoPrice      = "no_price_in_mode"
	ReasonProvider     = "provider_not_allowed"
	ReasonVendor       = "vendor_not_allowed"
	ReasonNoFabric     = "cannot_cluster"
	ReasonUnsustained  = "cannot_serve_load"
	ReasonIncompatible = "incompatible"
	ReasonNonCompliant = "non_compliant"
	// ReasonOperator: the machine is run by a kind of operator the
	// workload does not accept (compliance.operators): an independent host
	// of a marketplace or community cloud, by default for a workload with
	// compliance requirements or a production service.
	ReasonOperator = "operator_not_allowed"
	// ReasonMaxGPUs: one instance of the offer has more GPUs than
	// constraints.max_gpus allows (it was not predicted).
	ReasonMaxGPUs = "exceeds_max_gpus"
)

// Request is one recommendation to compute.
type Request struct {
	Spec      *workload.Spec
	Catalog   *catalog.Catalog
	Objective workload.Objective // overrides the spec's when set
	Modes     []catalog.Mode     // overrides constraints.pricing when set
	Now       time.Time
	// Checks judge an offer beyond performance and price (stack
	// compatibility, compliance); nil = none.
	Checks []Check
	// Workers evaluates in parallel; 0 = GOMAXPROCS.
	Workers int
	// Detail keeps a sentence per cost line on every candidate (for
	// --explain and cost); ranking alone does without.
	Detail bool
	// Tune, when set, adjusts the cluster of an offer before prediction
	// (measured figures from gpupick probe).
	Tune func(o *catalog.Offer, c *perf.Cluster)
	// TuneNote says what Tune does (which probe, on which hardware); every
	// output of the result carries it as a note.
	TuneNote msg.Msg
	// Predictions, when set, keeps predictions across requests (a server
	// answering the same workload again); nil keeps them for this call.
	Predictions *PredictionCache
	// CheckPlans replays the day of a service's pick through the simulator
	// and grows its plan until it meets the SLO (see CheckPlan); Context,
	// when set, stops the replays.
	CheckPlans bool
	Context    context.Context
}

// PredictionCache remembers predictions per workload and hardware across
// Recommend calls. Predictions are pure functions of the workload and the
// offer's hardware, and the catalog does not change while a cache lives.
// It is safe for concurrent use and bounded by bytes: the predictions it
// holds are counted by their approximate size, and past MaxBytes (or
// maxCachedWorkloads workloads) it forgets the workloads asked longest ago.
type PredictionCache struct {
	// MaxBytes bounds what the cache holds; 0 means DefaultCacheBytes.
	MaxBytes int64
	mu       sync.Mutex
	tables   map[string]*predTable
	order    []string // table keys, oldest first
	total    atomic.Int64
}

// DefaultCacheBytes is a PredictionCache's bound when MaxBytes is 0: about
// six distinct workloads' predictions over the whole catalog.
const DefaultCacheBytes = 64 << 20

// maxCachedWorkloads bounds a PredictionCache's workloads whatever their size.
const maxCachedWorkloads = 256

// predTable is the predictions of one workload, and their approximate size.
type predTable struct {
	m     sync.Map // predictKey -> *predicted
	bytes atomic.Int64
	key   string
}

// Bytes is what the cache holds now, approximately.
func (pc *PredictionCache) Bytes() int64 { return pc.total.Load() }

func (pc *PredictionCache) limit() int64 {
	if pc.MaxBytes > 0 {
		return pc.MaxBytes
	}
	return DefaultCacheBytes
}

// table returns the predictions of one workload, making room for it.
func (pc *PredictionCache) table(spec *workload.Spec) *predTable {
	key, err := json.Marshal(spec)
	if err != nil {
		return &predTable{}
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.tables == nil {
		pc.tables = map[string]*predTable{}
	}
	t, ok := pc.tables[string(key)]
	if !ok {
		for len(pc.tables) >= maxCachedWorkloads {
			pc.evictLocked("")
		}
		t = &predTable{key: string(key)}
		pc.tables[string(key)] = t
		pc.order = append(pc.order, t.key)
	}
	return t
}

// added counts n bytes more in t, and forgets the oldest other workloads
// while the cache holds more than its bound. A table already forgotten
// (a request still filling it) counts nothing: its bytes go with it.
func (pc *PredictionCache) added(t *predTable, n int64) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.tables[t.key] != t {
		return
	}
	t.bytes.Add(n)
	pc.total.Add(n)
	for pc.total.Load() > pc.limit() && pc.evictLocked(t.key) {
	}
}

// evictLocked forgets the oldest workload other than keep; false when
// there is none.
func (pc *PredictionCache) evictLocked(keep string) bool {
	for i, k := range pc.order {
		if k == keep {
			continue
		}
		if t, ok := pc.tables[k]; ok {
			pc.total.Add(-t.bytes.Load())
			delete(pc.tables, k)
		}
		pc.order = slices.Delete(pc.order, i, i+1)
		return true
	}
	return false
}

// predictionBytes is the approximate memory one cached prediction holds:
// the struct, its pointed-to numbers and its strings.
func predictionBytes(p *perf.Prediction) int64 {
	n := int64(unsafe.Sizeof(*p)) + 256 // the map entry, the key, the pointers' targets
	n += int64(len(p.Kind) + len(p.GPU) + len(p.Offer) + p.Reason.Bytes() + len(p.Bottleneck) + p.Verdict.Bytes() + p.Fix.Bytes() + len(p.Confidence))
	for _, a := range p.Assumptions {
		n += int64(a.Bytes()) + 16
	}
	if p.Serving != nil {
		n += int64(unsafe.Sizeof(*p.Serving))
	}
	if p.Interval != nil {
		n += int64(unsafe.Sizeof(*p.Interval)) + int64(p.Interval.Basis.Bytes()+len(p.Interval.Regime))
	}
	return n
}

// Check judges one offer for a workload. A non-empty exclude code drops it
// with the reason; warnings are kept on the candidate.
type Check func(spec *workload.Spec, o *catalog.Offer) (excludeCode string, reason msg.Msg, warnings []CheckWarning)

// Candidate is one offer, cluster shape and pricing mode that can run the job.
type Candidate struct {
	Rank      int
	Offer     *catalog.Offer
	Instances int
	GPUs      int
	Pred      *perf.Prediction
	Cost      cost.Estimate
	// DurationHours is the wall-clock time to finish (0 for a service);
	// P10 and P90 bound it with 80% confidence (0 when unknown).
	DurationHours                      float64
	DurationHoursP10, DurationHoursP90 float64
	// CostP10 and CostP90 bound the total cost (a service's month) with
	// 80% confidence, USD; 0 when the price or the interval is unknown.
	CostP10, CostP90 float64
	// PriceLow and PriceHigh are how far the price may be from what a
	// buyer pays, as factors (a spot range, a point price, an old price):
	// they widen the cost range; PriceSpread says why ("" = a current
	// list price, both 1).
	PriceLow, PriceHigh float64
	PriceSpread         string
	// PMissDeadline is the chance, 0 to 1, that a job finishes after
	// constraints.deadline_hours: its speed range and, on spot,
	// interruptions (see missDeadline). 0 for a service or without a
	// deadline.
	PMissDeadline float64
	// UnitCost is USD per unit of work: per million tokens (trained or
	// generated), per thousand images, per thousand items.
	UnitCost     float64
	UnitCostUnit string
	TokensPerUSD float64
	// Plan is the fleet this candidate prices: the one description every
	// command and page renders (a service's model copies are Plan.Replicas).
	Plan Plan
	// Service figures (llm-inference or image-generation at a request
	// rate; see IsService).
	PerHourUSD  float64
	PerMonthUSD float64
	Pareto      bool
	Warnings    []Warning
	// Evidence is the published measurements nearest to this candidate's
	// job, nearest first: set for #1 and the runner-up (the best candidate
	// of another instance type) only.
	Evidence []perf.Evidence
	// EvidenceDistance is how far the nearest published measurement is
	// from this candidate's job (see perf.EvidenceDistance); beyond
	// perf.EvidenceNear its prediction rests on the model alone, and the
	// confidence widens its range (EvidenceFarWiden).
	EvidenceDistance float64
}

// Plan is what a candidate deploys and pays for: whole instances, the
// model copies on them and the layout of each copy. The advisor decides
// it; recommend, cost, predict, simulate and export render it.
type Plan struct {
	// Instances are billed whole: GPUs = Instances x GPUsPerInstance.
	Instances       int
	GPUsPerInstance int
	// GPUFraction is the share of one GPU of a sliced offer (0: whole).
	GPUFraction float64
	GPUs        int
	// Replicas are the model copies (a service), or 1 (a job). Each copy
	// spans GPUsPerReplica GPUs laid out as Tensor x Pipeline (x Data for
	// a training job); a service's copies sit ReplicasPerInstance to an
	// instance.
	Replicas            int
	ReplicasPerInstance int
	GPUsPerReplica      int
	// InstancesPerReplica is the instances one copy spans when it does
	// not fit one (0: it fits): tensor parallel inside each instance (or
	// its NVLink domain) and pipeline stages or experts over the fabric.
	InstancesPerReplica int
	// Link joins a spanning replica's instances: the offer's fabric
	// (infiniband, efa, ...), or "" inside one NVLink domain.
	Link string
	// PrefillGPUs are the GPUs that only prefill when prefill and decode
	// run on separate pools (parallelism.prefill_gpus); the replicas
	// above are then the decode pool's.
	PrefillGPUs      int
	Data, Tensor     int
	Pipeline, Expert int
	// Batch is a serving copy's operating batch (sequences in flight);
	// RequestsPerSPerReplica its share of the load.
	Batch                  int
	RequestsPerSPerReplica float64
	// Pricing is the mode the fleet is paid in; PerHourUSD what it costs.
	Pricing    catalog.Mode
	PerHourUSD float64
	// Slice is set when each replica runs on part of a GPU: a MIG profile
	// (Replicas sit Slice.PerGPU to a GPU) or a fractional offer.
	Slice *Slice
	// Scaling is a service's day: the base that runs at all times, the
	// burst for the busy hours, what it survives and how each part is
	// paid for (nil for a job, a serverless platform or a shared pool).
	// Instances and Replicas above are the fleet at the peak.
	Scaling *Scaling
}

// planOf is the plan of a priced candidate.
func planOf(spec *workload.Spec, o *catalog.Offer, instances, replicas int, p *perf.Prediction, m catalog.Mode, perHour float64) Plan {
	pl := Plan{Instances: instances, GPUsPerInstance: o.GPUCount, GPUs: instances * o.GPUCount, GPUFraction: o.GPUFraction,
		Tensor: max(1, p.Parallelism.Tensor), Pipeline: max(1, p.Parallelism.Pipeline),
		Pricing: m, PerHourUSD: perHour}
	if p.Parallelism.Expert > 1 {
		pl.Expert = p.Parallelism.Expert
	}
	if p.Serving != nil && replicas > 0 {
		pl.Replicas = replicas
		pl.ReplicasPerInstance = max(1, replicas/max(1, instances))
		pl.GPUsPerReplica = pl.Tensor * pl.Pipeline
		if n := p.Parallelism.NodesPerReplica; n > 1 {
			pl.InstancesPerReplica = n
			if l, ok := strings.CutPrefix(p.Breakdown.CommLink, "inter-node "); ok {
				pl.Link = l
			}
		}
		pl.Data = 1
		pl.Batch = p.Serving.Batch
		if rps, ok := serviceRate(spec); ok {
			pl.RequestsPerSPerReplica = rps / float64(replicas)
		}
		return pl
	}
	// A job: one copy over the whole cluster (data parallel inside it), or
	// for offline inference the copies the cluster holds.
	pl.Data = max(1, p.Parallelism.Data)
	pl.Replicas = 1
	pl.GPUsPerReplica = p.GPUs
	if p.Serving != nil {
		pl.Replicas = max(1, p.Parallelism.Replicas)
		pl.GPUsPerReplica = pl.Tensor * pl.Pipeline
		pl.ReplicasPerInstance = max(1, pl.Replicas/max(1, instances))
		pl.Batch = p.Serving.Batch
		pl.PrefillGPUs = p.Parallelism.PrefillGPUs
		if n := p.Parallelism.NodesPerReplica; n > 1 {
			pl.InstancesPerReplica, pl.ReplicasPerInstance = n, 0
			if l, ok := strings.CutPrefix(p.Breakdown.CommLink, "inter-node "); ok {
				pl.Link = l
			}
		}
	}
	return pl
}

// setEvidenceDistance sets every candidate's distance to its nearest
// published measurement, once per accelerator and GPU count.
func setEvidenceDistance(req Request, spec *workload.Spec, cands []*Candidate) {
	type key struct {
		gpu  string
		gpus int
	}
	seen := map[key]float64{}
	for _, c := range cands {
		k := key{c.Offer.GPU, c.GPUs}
		d, ok := seen[k]
		if !ok {
			d = math.Inf(1)
			if a, found := req.Catalog.Accelerator(c.Offer.GPU); found {
				d = perf.NearestDistance(perf.QueryOf(spec, a, c.GPUs), perf.EvidenceRows())
			}
			seen[k] = d
		}
		c.EvidenceDistance = d
	}
}

// EvidenceShown is how many published measurements an answer shows
// beside a prediction.
const EvidenceShown = 3

// Warning is a caveat on a candidate: a code with its arguments, rendered
// in the reader's language by the report package.
type Warning struct {
	Code string `json:"code"`
	Args []any  `json:"args,omitempty"`
}

// Warning codes (stable: part of `-o json`).
const (
	WarnStale          = "stale_price"        // args: date
	WarnLowUtil        = "low_utilization"    // args: percent busy, bottleneck
	WarnSpotRisk       = "spot_deadline_risk" // args: percent chance of missing the deadline
	WarnSpot           = "spot_interruptions" // args: expected interruptions, checkpoint interval h
	WarnReserved       = "reserved_underused" // args: mode, break-even percent, utilisation percent
	WarnLowConfidence  = "low_confidence"
	WarnPriceUnknown   = "price_unknown"
	WarnNote           = "note"              // args: an English sentence from a check
	WarnNeedsWork      = "stack_needs_work"  // args: the compatibility reason and its fix
	WarnPreferred      = "preferred_not_met" // args: the compliance reason
	WarnRegionInferred = "region_inferred"   // args: region
	// WarnSpotUnheld: a spot job unlikely to keep its instances for its
	// length, ranked at its expected cost. args: instances, percent chance
	// of holding them throughout, expected interruptions, hours waited for
	// capacity in all.
	WarnSpotUnheld = "spot_unheld"
	// WarnSpotService: a service on spot. args: interruptions a month over
	// the fleet, percent of time a replica is away, hours it waits for
	// capacity each time.
	WarnSpotService = "spot_service"
	// WarnSpotPoint: the spot price is one zone's or listing's moment.
	// args: low and high factor of the range assumed.
	WarnSpotPoint = "spot_point_price"
	// WarnEgressUnknown: the provider's egress price is unknown and a
	// default was assumed. args: provider, GB, assumed USD per GB.
	WarnEgressUnknown = "egress_unknown"
	// WarnOldPrice: the price is more than a year old. args: date, age in
	// years.
	WarnOldPrice = "old_price"
	// WarnSharedPool: a fleet priced per slice on a shared pool
	// (constraints.shared_gpus) leaves slices of its instances idle, which
	// only the pool's other workloads pay for. args: idle slices, slices
	// in all, instances, USD its slices cost (a month for a service),
	// USD the whole instances cost.
	WarnSharedPool = "shared_pool"
)

// CheckWarning is a warning from a Check: its code and sentence, and for
// a needs-work stack the work it asks for: its kind (Work), engineer-days
// and the calendar days it delays the start (all zero otherwise).
type CheckWarning struct {
	Code                    string
	Text                    msg.Msg
	Work                    string
	EngineerDays, DelayDays float64
}

// portingOf sums the work the checks' warnings ask for on one offer,
// priced at the spec's constraints.engineer_day_usd (the default when the
// spec was not parsed); nil when none asks for any.
func portingOf(spec *workload.Spec, ws []CheckWarning) *cost.Porting {
	var p *cost.Porting
	for _, w := range ws {
		if w.EngineerDays <= 0 && w.DelayDays <= 0 {
			continue
		}
		if p == nil {
			rate := workload.DefaultEngineerDayUSD
			if r := spec.Constraints.EngineerDayUSD; r != nil {
				rate = *r
			}
			p = &cost.Porting{EngineerDayUSD: rate}
		}
		p.EngineerDays += w.EngineerDays
		p.DelayDays += w.DelayDays
		if w.Work != "" && !slices.Contains(p.Kinds, w.Work) {
			p.Kinds = append(p.Kinds, w.Work)
		}
	}
	if p != nil {
		p.USD = p.EngineerDays * p.EngineerDayUSD
	}
	return p
}

// Excluded is a candidate that was dropped, and why.
type Excluded struct {
	Offer      string
	Region     string
	GPUs       int
	Pricing    string
	ReasonCode string
	Reason     msg.Msg
	// Relax names the one constraint that, relaxed to Needed, would admit
	// this candidate: it breaks no other constraint the advisor checks.
	// RelaxNone when it breaks more than one, or none that can be relaxed.
	// Needed is in the constraint's unit (hours, USD, GPUs). DurationHours
	// and TotalUSD are the excluded candidate's predicted time and cost,
	// when it was priced before it was dropped (0 if not). Kept small: a
	// result holds thousands of exclusions.
	Relax                           Relax
	Needed, DurationHours, TotalUSD float32
}

// Relax is a constraint a near-miss can relax.
type Relax uint8

// The constraints a near-miss can relax.
const (
	RelaxNone Relax = iota
	RelaxDeadline
	RelaxBudget
	RelaxMaxGPUs
)

// Field is the workload field path of the constraint:
// "constraints.deadline_hours", "constraints.budget_usd",
// "constraints.max_gpus" ("" for RelaxNone).
func (r Relax) Field() string {
	switch r {
	case RelaxDeadline:
		return "constraints.deadline_hours"
	case RelaxBudget:
		return "constraints.budget_usd"
	case RelaxMaxGPUs:
		return "constraints.max_gpus"
	}
	return ""
}

// Result is a recommendation.
type Result struct {
	Objective  workload.Objective
	Candidates []*Candidate // ranked
	Excluded   []Excluded
	// Evaluated is len(Candidates) + len(Excluded): every offer, size and
	// pricing mode kept or excluded (an offer excluded whatever the mode,
	// as one that does not fit, counts once).
	Evaluated int
	Notes     []msg.Msg
	// ConfidenceVsNext is how sure the ranking is that #1 beats #2; nil
	// with fewer than two candidates or no intervals.
	ConfidenceVsNext *Confidence
	// DeadlineRisk is #1's chance of missing the deadline and the cheapest
	// candidate that meets it at p90, when #1's range crosses it; nil
	// otherwise.
	DeadlineRisk *DeadlineRisk
	// Now is the request's clock: prices are judged stale against it.
	Now time.Time
	// Spec is the workload that was evaluated (read-only): its
	// constraints and SLO are what the answer measures the pick against.
	Spec *workload.Spec
	// OtherModes, set only when no candidate qualifies with a known
	// price, are the best
	// candidates (one per instance type, cheapest first, at most
	// maxOtherModes) in pricing modes the request did not ask for: what
	// relaxing constraints.pricing would admit.
	OtherModes []*Candidate
	// NearMisses are the exclusions one relaxed constraint would admit,
	// each checked by evaluating it again with that constraint set to its
	// Needed (see nearMisses): per constraint (Relaxes), nearest first, at
	// most MaxNearMisses.
	NearMisses []Excluded
	// Terms compares the ways to pay for #1's fleet (on demand, 1- and
	// 3-year terms, spot); nil when #1 has no price.
	Terms *Terms
	// Operator is who runs #1's machines, and the provider that sells
	// them; nil when nothing qualifies.
	Operator *catalog.Operator
	// DueDiligence is what to read or request before signing for #1 (see
	// compliance.DueDiligence); nil when nothing qualifies.
	DueDiligence []compliance.Diligence
}

// maxOtherModes bounds Result.OtherModes.
const maxOtherModes = 3

// Freshness is how fresh the prices of the first top candidates (0 = all)
// are: each offer counted once, however many cluster sizes and pricing
// modes it appears with. Every renderer shows this one line instead of a
// stale-price warning per candidate.
func (r *Result) Freshness(top int) catalog.PriceStats {
	seen := map[string]bool{}
	var offers []*catalog.Offer
	for i, c := range r.Candidates {
		if top > 0 && i >= top {
			break
		}
		if k := c.Offer.Key(); !seen[k] {
			seen[k] = true
			offers = append(offers, c.Offer)
		}
	}
	return catalog.Stats(offers, r.Now)
}

// RunnerUp is the best candidate on another instance type than #1's (nil
// when there is none): the one the answer compares #1 with.
func (r *Result) RunnerUp() *Candidate {
	if len(r.Candidates) == 0 {
		return nil
	}
	p := r.Candidates[0].Offer
	for _, c := range r.Candidates[1:] {
		if c.Offer.Provider != p.Provider || c.Offer.InstanceType != p.InstanceType {
			return c
		}
	}
	return nil
}

// Summary counts exclusions by reason: "212 candidates excluded: 150 do
// not fit in memory, ...".
func (r *Result) Summary() msg.Msg {
	if len(r.Excluded) == 0 {
		return msg.New("%d candidates evaluated, none excluded", r.Evaluated)
	}
	count := map[string]int{}
	for _, x := range r.Excluded {
		count[x.ReasonCode]++
	}
	codes := make([]string, 0, len(count))
	for c := range count {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
	parts := make([]msg.Msg, len(codes))
	for i, c := range codes {
		parts[i] = msg.New("%d %s", count[c], ReasonText(c))
	}
	return msg.New("%d candidates evaluated, %d excluded: %s", r.Evaluated, len(r.Excluded), msg.Join("%s, %s", parts))
}

// ReasonText is the phrase for a reason code, in English.
func ReasonText(code string) string {
	switch code {
	case ReasonNoFit:
		return "do not fit in memory"
	case ReasonDeadline:
		return "miss the deadline"
	case ReasonSpotRisk:
		return "risk missing the deadline on spot (under 90% on time)"
	case ReasonBudget:
		return "exceed the budget"
	case ReasonNoPrice:
		return "have no price in that pricing mode"
	case ReasonProvider:
		return "are from providers not allowed"
	case ReasonVendor:
		return "use accelerator vendors not accepted"
	case ReasonNoFabric:
		return "cannot span nodes (no fabric)"
	case ReasonUnsustained:
		return "cannot serve the load within the GPU limit"
	case ReasonIncompatible:
		return "are incompatible with the software stack"
	case ReasonNonCompliant:
		return "fail a compliance requirement"
	case ReasonOperator:
		return "are run by independent hosts the workload does not accept"
	case ReasonMaxGPUs:
		return "have more GPUs per instance than constraints.max_gpus"
	}
	return code
}

// shape is a cluster to evaluate on one offer.
type shape struct {
	instances int
	gpus      int
}

// task is one offer and shape; modes are priced from one prediction.
type task struct {
	offer    *catalog.Offer
	shape    shape
	warnings []Warning // from the request's checks, made once per offer
	// porting is the work the checks ask for on the offer (nil: none).
	porting *cost.Porting
	// slice, when set, serves the load with replicas on a MIG profile of
	// the offer's GPUs or time-sliced on them: an alternative to whole
	// GPUs, kept only when cheaper (see keepSlices).
	slice sliceOn
}

// Recommend evaluates every offer in the catalog for the request.
func Recommend(req Request) (*Result, error) {
	spec := req.Spec
	if spec.Parallelism.PrefillGPUs > 0 && IsService(spec) {
		// A service is sized in replicas and replayed by the fleet
		// simulator, both of replicas that prefill and decode; a batch
		// job with prefill and decode pools is ranked on clusters that
		// hold both.
		return nil, apperr.Invalidf("parallelism.prefill_gpus", "a service's fleet is sized and replayed in replicas that both prefill and decode: leave it out to plan the service, or predict the split on a chosen cluster with gpupick predict --gpu ID --gpus N")
	}
	res := &Result{Objective: spec.Objective, Now: req.Now, Spec: spec}
	if req.Objective != "" {
		res.Objective = req.Objective
	}
	modes := req.Modes
	if len(modes) == 0 {
		for _, m := range spec.Constraints.Pricing {
			if cm, ok := catalog.ParseMode(string(m)); ok {
				modes = append(modes, cm)
			}
		}
	}
	if len(modes) == 0 {
		modes = []catalog.Mode{catalog.OnDemand}
	}
	maxGPUs := spec.Constraints.MaxGPUs
	if maxGPUs == 0 {
		maxGPUs = DefaultMaxGPUs
		res.Notes = append(res.Notes, msg.New("constraints.max_gpus not set: clusters up to %d GPUs considered", maxGPUs))
	}
	if !req.TuneNote.IsZero() {
		res.Notes = append(res.Notes, req.TuneNote)
	}
	providers := map[string]bool{}
	for _, p := range spec.Constraints.Providers {
		providers[strings.ToLower(p)] = true
	}
	vendors := map[string]bool{}
	for _, v := range spec.Stack.Vendors {
		vendors[string(v)] = true
	}
	tasks := make([]task, 0, len(req.Catalog.Offers)*2)
	// An offer's name is shared by its neighbours in the catalog (the
	// regions of an instance type), a vendor's sentence by its accelerator.
	var lastID string
	var lastIDOffer *catalog.Offer
	offerID := func(o *catalog.Offer) string {
		if lastIDOffer == nil || o.Provider != lastIDOffer.Provider || o.InstanceType != lastIDOffer.InstanceType {
			lastID, lastIDOffer = o.ID(), o
		}
		return lastID
	}
	exclude := func(o *catalog.Offer, gpus int, mode, code string, reason msg.Msg) {
		res.Excluded = append(res.Excluded, Excluded{Offer: offerID(o), Region: o.Region, GPUs: gpus, Pricing: mode, ReasonCode: code, Reason: reason})
	}
	type vendorKey struct{ id, vendor string }
	vendorReason := map[vendorKey]msg.Msg{}
	var sh []shape
	slicing := sliceService(spec)
	for _, o := range req.Catalog.Offers {
		switch {
		case len(providers) > 0 && !providers[o.Provider]:
			exclude(o, o.GPUCount, "", ReasonProvider, msg.New("%s is not in constraints.providers", o.Provider))
			continue
		case len(vendors) > 0:
			a, _ := req.Catalog.OfferAccelerator(o)
			if vendors[a.Vendor] {
				break
			}
			k := vendorKey{a.ID, a.Vendor}
			why, ok := vendorReason[k]
			if !ok {
				why = msg.New("%s is made by %s, not in stack.vendors", a.ID, a.Vendor)
				vendorReason[k] = why
			}
			exclude(o, o.GPUCount, "", ReasonVendor, why)
			continue
		}
		skip := false
		var warnings []CheckWarning
		for _, chk := range req.Checks {
			code, why, ws := chk(spec, o)
			if code != "" {
				exclude(o, o.GPUCount, "", code, why)
				skip = true
				break
			}
			warnings = append(warnings, ws...)
		}
		if skip {
			continue
		}
		ws, port := checkWarnings(warnings), portingOf(spec, warnings)
		sh = shapes(sh[:0], spec, o, maxGPUs)
		for _, s := range sh {
			tasks = append(tasks, task{offer: o, shape: s, warnings: ws, porting: port})
		}
		if slicing && o.GPUCount <= maxGPUs {
			for _, mp := range migProfiles(req.Catalog, o) {
				tasks = append(tasks, task{offer: o, shape: shape{1, o.GPUCount}, warnings: ws, porting: port, slice: sliceOn{mig: mp}})
			}
			if spec.Constraints.SharedGPUs {
				for _, k := range timeSliceWays(req.Catalog, o) {
					tasks = append(tasks, task{offer: o, shape: shape{1, o.GPUCount}, warnings: ws, porting: port, slice: sliceOn{k: k}})
				}
			}
		}
		if o.GPUCount > maxGPUs {
			exclude(o, o.GPUCount, "", ReasonMaxGPUs, msg.New("one instance has %d GPUs, more than constraints.max_gpus %d", o.GPUCount, maxGPUs))
			x := &res.Excluded[len(res.Excluded)-1]
			x.Relax, x.Needed = RelaxMaxGPUs, float32(o.GPUCount)
		}
	}
	results := evaluate(req, tasks, modes)
	nx, nc := len(res.Excluded), 0
	for _, r := range results {
		nx += len(r.excluded)
		nc += len(r.candidates)
	}
	res.Excluded = slices.Grow(res.Excluded, nx-len(res.Excluded))
	res.Candidates = make([]*Candidate, 0, nc)
	var sliced []*Candidate
	for i, r := range results {
		if tasks[i].slice.on() {
			// An alternative way to serve on an offer evaluated whole:
			// its failures are not the offer's.
			sliced = append(sliced, r.candidates...)
			continue
		}
		res.Excluded = append(res.Excluded, r.excluded...)
		res.Candidates = append(res.Candidates, r.candidates...)
	}
	res.Candidates = keepSlices(res.Candidates, sliced)
	res.Evaluated = len(res.Candidates) + len(res.Excluded)
	// A service keeps only the smallest fleet per offer and mode that
	// serves the load; a batch job keeps every shape (they trade cost for
	// time on the Pareto front).
	rank(res)
	markPareto(res.Candidates)
	if !slices.ContainsFunc(res.Candidates, func(c *Candidate) bool { return c.Cost.PriceKnown }) {
		res.OtherModes = otherModes(req, tasks, modes)
	}
	if req.CheckPlans {
		if err := checkPlans(req, res); err != nil {
			return nil, err
		}
	}
	res.NearMisses = nearMisses(req, res, modes)
	if len(res.Candidates) > 0 {
		setEvidenceDistance(req, spec, res.Candidates)
		for _, c := range []*Candidate{res.Candidates[0], res.RunnerUp()} {
			if c != nil {
				a, _ := req.Catalog.Accelerator(c.Offer.GPU)
				c.Evidence = perf.NearestEvidence(perf.QueryOf(spec, a, c.GPUs), perf.EvidenceRows(), EvidenceShown)
			}
		}
		res.Terms = TermsOf(req, res.Candidates[0])
		op := req.Catalog.OfferOperator(res.Candidates[0].Offer)
		res.Operator = &op
		f := compliance.FactsFor(req.Catalog, res.Candidates[0].Offer, res.Candidates[0].GPUs)
		res.DueDiligence = compliance.DueDiligence(spec.Compliance, f, compliance.Check(spec.Compliance, f))
	}
	res.ConfidenceVsNext = confidenceVsNext(res, func(gpu string) string {
		if a, ok := req.Catalog.Accelerator(gpu); ok {
			return a.Architecture
		}
		return gpu
	})
	res.DeadlineRisk = deadlineRiskOf(res, spec.Constraints.DeadlineHours)
	return res, nil
}

// otherModes evaluates the tasks again in the pricing modes not asked
// for, and keeps the cheapest priced candidate of each of the first
// maxOtherModes instance types. It runs only when no candidate qualifies
// with a price, so that the answer can say whether another pricing mode
// would help.
func otherModes(req Request, tasks []task, asked []catalog.Mode) []*Candidate {
	var modes []catalog.Mode
	for m := catalog.Mode(0); m < catalog.NumModes; m++ {
		if !slices.Contains(asked, m) {
			modes = append(modes, m)
		}
	}
	if len(modes) == 0 || len(tasks) == 0 {
		return nil
	}
	var cs []*Candidate
	for _, r := range evaluate(req, tasks, modes) {
		for _, c := range r.candidates {
			if c.Cost.PriceKnown {
				cs = append(cs, c)
			}
		}
	}
	slices.SortFunc(cs, func(a, b *Candidate) int {
		return cmp.Or(cmp.Compare(a.Cost.Cost.Total, b.Cost.Cost.Total), compareKeys(a.Offer, b.Offer), cmp.Compare(a.Cost.Mode, b.Cost.Mode))
	})
	var out []*Candidate
	seen := map[string]bool{}
	tries := 0
	for _, c := range cs {
		id := c.Offer.ID()
		if seen[id] || len(out) == maxOtherModes || tries == 2*maxOtherModes {
			continue
		}
		// A service's plan in the other mode is sized and replayed, as it
		// would be were the mode asked for: a near-miss must hold.
		if req.CheckPlans && c.Plan.Scaling != nil {
			tries++
			if err := CheckCandidate(req.Context, req, c); err != nil || c.Plan.Scaling.Check != nil && !c.Plan.Scaling.Check.Met {
				continue
			}
			if b := req.Spec.Constraints.BudgetUSD; b > 0 && c.Cost.Cost.Total > b {
				continue
			}
		}
		seen[id] = true
		out = append(out, c)
	}
	return out
}

// EvaluateOffer prices one offer at one size (instances, 0 = one) in the
// request's pricing modes: the candidates it gives and the reasons it was
// excluded, if it was. It skips the provider, vendor and checks filters of
// Recommend: the caller named the offer.
func EvaluateOffer(req Request, o *catalog.Offer, instances int, modes []catalog.Mode) ([]*Candidate, []Excluded) {
	if instances < 1 {
		instances = 1
	}
	t := task{offer: o, shape: shape{instances, instances * o.GPUCount}}
	var warnings []CheckWarning
	for _, chk := range req.Checks {
		code, why, ws := chk(req.Spec, o)
		if code != "" {
			return nil, []Excluded{{Offer: o.ID(), Region: o.Region, GPUs: instances * o.GPUCount, ReasonCode: code, Reason: why}}
		}
		warnings = append(warnings, ws...)
	}
	t.warnings, t.porting = checkWarnings(warnings), portingOf(req.Spec, warnings)
	ev := newEvaluator(&req, modes, nil)
	ev.startGroup(o)
	r := ev.task(&t)
	return r.candidates, r.excluded
}

// shapes appends to out the clusters to try on an offer: one instance, then whole
// instances in powers of two up to max_gpus where the offer has a fabric.
// Inference replicas need no fabric: they are sized by the load instead.
func shapes(out []shape, spec *workload.Spec, o *catalog.Offer, maxGPUs int) []shape {
	if o.GPUCount > maxGPUs {
		return out
	}
	if pg := spec.Parallelism.PrefillGPUs; pg > 0 {
		return poolShapes(out, pg, o, maxGPUs)
	}
	out = append(out, shape{1, o.GPUCount})
	if spec.Kind == workload.KindLLMInference {
		return spanShapes(out, spec, o, maxGPUs)
	}
	if spec.Kind == workload.KindGeneric || IsService(spec) {
		return out // replicas are independent: sized after prediction
	}
	if o.FabricKind == "" {
		return out
	}
	for n := 2; n*o.GPUCount <= maxGPUs; n *= 2 {
		out = append(out, shape{n, n * o.GPUCount})
	}
	if last := out[len(out)-1]; last.gpus < maxGPUs && maxGPUs/o.GPUCount > last.instances {
		n := maxGPUs / o.GPUCount
		out = append(out, shape{n, n * o.GPUCount})
	}
	return out
}

// poolShapes appends the clusters of o that hold a prefill pool of
// prefill GPUs and a decode pool beside it: the fewest whole instances
// with a GPU left to decode, then twice and four times as many, within
// max_gpus; more than one instance needs a fabric or one NVLink domain.
func poolShapes(out []shape, prefill int, o *catalog.Offer, maxGPUs int) []shape {
	if o.GPUCount < 1 || o.Sliced() {
		return out
	}
	first := prefill/o.GPUCount + 1
	for _, n := range []int{first, 2 * first, 4 * first} {
		if n*o.GPUCount > maxGPUs || n > 1 && o.FabricKind == "" && o.FabricGbps <= 0 {
			break
		}
		out = append(out, shape{n, n * o.GPUCount})
	}
	return out
}

// spanShapes appends the shapes of one language-model replica over
// several instances of o (2, 4, then 8), when its weights alone would take
// most of one instance's memory and the instances are joined by a fabric
// or one NVLink domain. The evaluation keeps a shape only when the
// prediction spans exactly its instances: a model that fits one instance
// is served by replicas of one, sized after prediction.
func spanShapes(out []shape, spec *workload.Spec, o *catalog.Offer, maxGPUs int) []shape {
	m, inf := spec.Model, spec.Inference
	if m == nil || inf == nil || o.GPUCount < 1 || o.Sliced() || (o.FabricKind == "" && o.FabricGbps <= 0) {
		return out
	}
	weightsGB := m.CheckpointBytes(inf.WeightPrecision) / 1e9
	if weightsGB <= 0.8*float64(o.GPUCount)*o.GPUMemGiB*1.073741824 {
		return out
	}
	for k := 2; k <= 8 && k*o.GPUCount <= maxGPUs; k *= 2 {
		out = append(out, shape{k, k * o.GPUCount})
	}
	return out
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// workDone is the job's work for unit costs: tokens, images or items, the
// unit label, and the scale of the unit (1e6 per million tokens).
func workDone(spec *workload.Spec, p *perf.Prediction, service bool) (float64, string, float64) {
	switch spec.Kind {
	case workload.KindLLMTrain, workload.KindLLMFinetune:
		return spec.Training.Tokens, "USD per million tokens trained", 1e6
	case workload.KindCNNTrain:
		return spec.Training.Samples, "USD per thousand images", 1e3
	case workload.KindImageGeneration:
		if spec.Image != nil && spec.Image.Images > 0 {
			return spec.Image.Images, imageUnitCost(spec), 1e3
		}
		if rps, ok := serviceRate(spec); ok && service {
			// One month of the offered load.
			return rps * catalog.HoursPerMonth * 3600, imageUnitCost(spec), 1e3
		}
	case workload.KindGeneric:
		if spec.Generic != nil {
			return spec.Generic.Items, "USD per thousand items", 1e3
		}
	case workload.KindLLMInference:
		// A job that generates nothing (embedding, scoring) is counted in
		// the prompt tokens it reads, as its throughput is.
		unit, perRequest := "USD per million output tokens", float64(spec.Inference.OutputTokens)
		if spec.Inference.OutputTokens == 0 {
			unit, perRequest = "USD per million input tokens", float64(spec.Inference.PromptTokens)
		}
		if rps, ok := serviceRate(spec); ok && service {
			// One month of the offered load: the day's mean.
			return rps * perRequest * catalog.HoursPerMonth * 3600, unit, 1e6
		}
		if spec.Inference.Requests > 0 {
			return spec.Inference.Requests * perRequest, unit, 1e6
		}
	}
	return 0, "", 1
}

// imageUnitCost is the unit cost label of an image-generation workload:
// per thousand images, or clips for a video model.
func imageUnitCost(spec *workload.Spec) string {
	if spec.Model != nil && spec.Model.TemporalFactor > 1 && spec.Image != nil && spec.Image.Frames > 1 {
		return "USD per thousand videos"
	}
	return "USD per thousand images"
}

// IsService reports whether spec is a service sized to a request rate: an
// llm-inference workload with inference.requests_per_second, or an
// image-generation workload with image.requests_per_second. A service is
// priced per month and its fleet is the fewest replicas that keep up within
// the SLO.
func IsService(spec *workload.Spec) bool { return spec.IsService() }

// serviceRate is a service's offered load, requests per second: the
// day's mean for the spec the file gave, the peak for the spec a fleet is
// sized with (evaluator.sized).
func serviceRate(spec *workload.Spec) (float64, bool) { return spec.MeanRequestsPerSecond() }

// checkpointGB is what the job keeps in storage: training state (the
// weights and the optimizer state, Training.StateBytes: 14 bytes per
// parameter in mixed precision) or adapter checkpoints plus the base
// weights, or the served weights.
func checkpointGB(spec *workload.Spec) float64 {
	if spec.Model == nil || spec.Model.ParamsB == 0 {
		return 0
	}
	n := spec.Model.ParamsB * 1e9
	switch spec.Kind {
	case workload.KindLLMTrain, workload.KindLLMFinetune, workload.KindCNNTrain:
		var t workload.Training // mixed precision when the spec gives no training block
		if spec.Training != nil {
			t = *spec.Training
		}
		if t.Method != workload.MethodFull && t.Method != "" {
			return n * 2 / 1e9 // frozen base weights; adapters are small
		}
		w, _, o := t.StateBytes()
		return n * (w + o) / 1e9
	case workload.KindLLMInference:
		return spec.Model.CheckpointBytes(spec.Inference.WeightPrecision) / 1e9
	}
	return 0
}
