// Package cost turns a prediction into money: compute in each pricing mode
// (on-demand, spot with interruption risk, monthly subscriptions, reserved
// terms), storage, data transfer and setup, each a line a person can check.
// It does no I/O; every default it uses is named in the estimate's notes.
package cost

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

// Defaults used when the catalog or the workload does not say. Each use is
// recorded in Estimate.Notes.
const (
	ProvisionHours      = 0.25 // request to a booted instance with drivers
	ImagePullHours      = 0.1  // a ~15 GB training or serving image
	CheckpointWriteGBps = 2.0  // per node, to block or object storage
	// WeightsReadGBps is how fast a replica that starts reads its model's
	// weights from where they are kept (object or block storage).
	WeightsReadGBps = 1.0
	// WeightsNetworkShare is the share of an instance's network line rate
	// a replica that starts keeps while it downloads its weights from
	// object storage (parallel ranged reads).
	WeightsNetworkShare    = 0.5
	InterRegionUSDPerGB    = 0.02 // transfer between regions of one provider
	TransferGbps           = 10.0 // sustained rate of a bulk copy between clouds
	DefaultBlockUSDPerGBMo = 0.08 // when the provider's block-storage price is unknown
	DefaultEgressUSDPerGB  = 0.09 // when the provider's egress price is unknown
	HoursPerYear           = 8760.0
)

// Breakdown is a total and its parts, in USD. Nil-free: unknown totals are
// signalled by Estimate.PriceKnown.
type Breakdown struct {
	Compute      float64 `json:"compute"`
	Storage      float64 `json:"storage"`
	Egress       float64 `json:"egress"`
	Setup        float64 `json:"setup"`
	SpotOverhead float64 `json:"spot_overhead"`
	// Porting is the engineering a needs-work stack asks for, priced once
	// (see Porting); absent when there is none or it is unpriced.
	Porting float64 `json:"porting,omitempty"`
	Total   float64 `json:"total"`
}

// Porting is the engineering a candidate's software stack needs before it
// runs on the offer (a needs-work verdict): engineer-days at a day rate,
// paid once, and the calendar days it delays the start.
type Porting struct {
	// Kinds are the kinds of work, each once, in the order met
	// (kernel-swap, serving-engine, framework-port, ...).
	Kinds          []string `json:"kinds"`
	EngineerDays   float64  `json:"engineer_days"`
	EngineerDayUSD float64  `json:"engineer_day_usd"`
	// DelayDays are calendar days before the job or service can start.
	DelayDays float64 `json:"delay_days"`
	// USD is EngineerDays x EngineerDayUSD.
	USD float64 `json:"usd"`
}

// AddPorting adds p to e: its price as the Porting line of the breakdown,
// counted in the total (once, also for a service's month), and for a job
// its delay to the wall-clock time, which the deadline bounds. A nil p, or
// one with neither days nor delay, leaves e as it was.
func AddPorting(e *Estimate, p *Porting, service bool) {
	if p == nil || p.EngineerDays <= 0 && p.DelayDays <= 0 {
		return
	}
	e.Porting = p
	if e.PriceKnown && p.USD > 0 {
		e.Cost.Porting = p.USD
		e.Cost.Total += p.USD
	}
	if !service {
		e.WallHours += p.DelayDays * 24
	}
}

// Job is what is being paid for.
type Job struct {
	Offer     *catalog.Offer
	Provider  *catalog.Provider
	Instances int
	Mode      catalog.Mode
	// ProductiveHours is the compute time the prediction gives (0 for a
	// service, which is priced per month).
	ProductiveHours float64
	Service         bool // priced per month of 730 h
	// DatasetGB is read by the job; StagingGBps is how fast one node copies
	// it to local storage (0 = streamed, no staging).
	DatasetGB   float64
	StagingGBps float64
	// CheckpointGB is one checkpoint (training state) or the model weights
	// kept in storage (inference).
	CheckpointGB float64
	// OutputsGB leave the provider at the end.
	OutputsGB float64
	// DataFrom is where the dataset lives: empty = already here.
	DataFrom     *catalog.Provider
	DataFromSame bool // same provider, other region
	DataOnPrem   bool
	// DeadlineHours bounds the wall-clock time (0 = none).
	DeadlineHours float64
	// ReservedUtilization is the expected busy share of a reserved term
	// (0 = the job pays for the whole term, unless Service).
	ReservedUtilization float64
	// Detail fills Estimate.Notes with a sentence per cost line; ranking
	// thousands of candidates skips it.
	Detail bool
	// Share is the part (0-1] of the instances' price the job pays: the
	// slices its replicas hold when the instances are a shared pool whose
	// other slices serve other workloads. 0 means 1 (whole instances).
	Share float64
	// SpotRisk is what is published or measured about how often the
	// offer's spot capacity is reclaimed; nil = nothing (a stated default).
	SpotRisk *catalog.SpotRisk
	// WeightsGB is what a service replica reads before it serves (its
	// model weights); it makes a spot restart's or a serverless worker's
	// cold start.
	WeightsGB float64
	// UpFraction is, for a service, the share of the month its instances
	// run: the burst above a fleet's always-on base, started for the busy
	// hours and stopped after them. 0 means always (1).
	UpFraction float64
	// StartsPerMonth is how many times each instance of a service starts
	// in a month (a burst instance: once a day), each start billed its
	// setup. 0 means once.
	StartsPerMonth float64
	// RequestsPerSecond and RequestSeconds are a service's offered load
	// and how long one request keeps a worker busy (its latency): a
	// serverless worker that sees no request for its idle timeout scales
	// to zero and is not billed.
	RequestsPerSecond, RequestSeconds float64
}

// Serverless is how a serverless platform bills a plan: the share of the
// month its workers are up (and billed), the cold starts that scaling from
// zero costs, and the share of requests that wait for one.
type Serverless struct {
	// BilledWorkers is the mean number of workers up and billed.
	BilledWorkers float64 `json:"billed_workers"`
	// ColdStartS is one worker's cold start: the platform's own and the
	// weights' load; ColdStartsPerHour how often the fleet pays one.
	ColdStartS        float64 `json:"cold_start_s"`
	ColdStartsPerHour float64 `json:"cold_starts_per_hour"`
	// ColdRequestShare is the share of requests that find no warm worker
	// and wait ColdStartS more.
	ColdRequestShare float64 `json:"cold_request_share"`
	IdleTimeoutS     float64 `json:"idle_timeout_s"`
	// Stated is false when the platform states no cold start (a default
	// was assumed).
	Stated bool `json:"stated"`
}

// Serverless defaults, used when a platform does not state its own.
const (
	// DefaultServerlessColdStartS is a worker's start before the model
	// loads: a container on a warm host (Cloud Run states 5 s for an L4;
	// Modal about 1 s; RunPod and others state none).
	DefaultServerlessColdStartS = 30.0
	// DefaultServerlessIdleS is how long an idle worker is kept: Modal's
	// and Cerebrium's default 60 s.
	DefaultServerlessIdleS = 60.0
)

// Spot is the risk model of one spot candidate: how often its capacity is
// reclaimed (from what the provider publishes or a trace measured), how
// long it waits to get its instances back, and what each loss costs: for a
// job, Young/Daly checkpointing; for a service, a replica's cold start.
type Spot struct {
	HazardPerHour float64 `json:"interruptions_per_instance_hour"`
	// HazardSource says where the rate comes from: the provider's
	// published frequency for the type and region, a measured trace, or
	// the default for a provider that publishes none.
	HazardSource msg.Msg `json:"hazard_source"`
	HazardAsOf   string  `json:"hazard_as_of,omitempty"`
	MTBFHours    float64 `json:"mtbf_hours"` // of the whole job (all instances)
	// Availability is the share of time all the instances can be had at
	// once; WaitHours the expected wait for them at each (re)start.
	Availability float64 `json:"availability"`
	WaitHours    float64 `json:"wait_hours"`
	// WaitedHours is a job's expected time waiting for capacity in all:
	// at the start and after each interruption. It delays the job and
	// costs nothing.
	WaitedHours        float64 `json:"waited_hours,omitempty"`
	CheckpointHours    float64 `json:"checkpoint_write_hours"`
	CheckpointInterval float64 `json:"checkpoint_interval_hours,omitempty"` // 0 for a service: it keeps no state
	RestartHours       float64 `json:"restart_hours"`
	// OverheadFraction is the billed time lost to interruptions, a share
	// of the productive time.
	OverheadFraction   float64 `json:"overhead_fraction"`
	ExpectedInterrupts float64 `json:"expected_interruptions"`
	// HoldProbability is the chance of keeping every instance for the
	// job's length without an interruption (a service: for a month).
	HoldProbability     float64 `json:"p_hold"`
	ProbMissingDeadline float64 `json:"p_miss_deadline"`
	// DowntimeFraction is, for a service, the share of time a replica is
	// away (waiting for capacity and starting again): what spare replicas
	// or an on-demand fallback must cover to hold the SLO.
	DowntimeFraction float64 `json:"downtime_fraction,omitempty"`
}

// Reserved is the commitment view of a reserved or monthly candidate.
type Reserved struct {
	TermHours             float64 `json:"term_hours"`
	Utilization           float64 `json:"utilization"`
	BreakEvenUtilization  float64 `json:"break_even_utilization"` // reserved price / on-demand price
	CommitmentUSD         float64 `json:"commitment_usd"`         // the whole term, all instances
	CheaperThanOnDemandAt bool    `json:"cheaper_than_on_demand"`
}

// Estimate is the cost of one job in one pricing mode.
type Estimate struct {
	Mode            catalog.Mode `json:"pricing"`
	PriceKnown      bool         `json:"price_known"`
	PricePerHourUSD float64      `json:"price_per_hour_usd"` // per instance, your price
	ListPerHourUSD  float64      `json:"list_price_per_hour_usd"`
	PriceRule       string       `json:"price_rule,omitempty"`
	Instances       int          `json:"instances"`
	ProductiveHours float64      `json:"productive_hours"`
	SetupHours      float64      `json:"setup_hours"`
	TransferHours   float64      `json:"transfer_hours"`
	WallHours       float64      `json:"wall_hours"` // transfer + setup + productive + spot losses + a job's porting delay
	BilledHours     float64      `json:"billed_hours"`
	Cost            Breakdown    `json:"cost_usd"`
	PerHourUSD      float64      `json:"per_hour_usd"` // all instances
	Spot            *Spot        `json:"spot,omitempty"`
	Serverless      *Serverless  `json:"serverless,omitempty"`
	Reserved        *Reserved    `json:"reserved,omitempty"`
	// EgressAssumedGB is the data priced at DefaultEgressUSDPerGB because
	// the egress price of EgressAssumedProvider is unknown (0: none).
	EgressAssumedGB       float64 `json:"egress_assumed_gb,omitempty"`
	EgressAssumedProvider string  `json:"egress_assumed_provider,omitempty"`
	// Porting is the engineering the stack needs on this offer (nil:
	// none); its price is Cost.Porting.
	Porting *Porting  `json:"porting,omitempty"`
	Notes   []msg.Msg `json:"notes"` // messages: English in JSON, the reader's language in text
}

// Price estimates j. A mode without a known price gives PriceKnown false
// and zero money, never a guess.
func Price(j Job) Estimate {
	var e Estimate
	PriceTo(&e, &j, nil, nil)
	return e
}

// PriceTo is Price writing the estimate into e. The spot and reserved
// figures are kept in spot and res when they are not nil (else in new
// ones): a caller pricing thousands of candidates keeps them in its own
// storage.
func PriceTo(e *Estimate, j *Job, spot *Spot, res *Reserved) {
	*e = Estimate{Mode: j.Mode, Instances: j.Instances, ProductiveHours: j.ProductiveHours}
	price, ok := j.Offer.YourPrices.Get(j.Mode)
	e.ListPerHourUSD = j.Offer.ListPrices[j.Mode]
	e.PriceRule = j.Offer.PriceRules[j.Mode]
	if !ok {
		// Time does not depend on the price: report it, and no money.
		if j.Detail {
			e.note("%s publishes no %s price for %s", j.Offer.Provider, msg.Term(j.Mode.String()), j.Offer.InstanceType)
		}
		e.SetupHours, e.TransferHours = timing(j)
		e.WallHours = e.TransferHours + e.SetupHours + j.ProductiveHours
		return
	}
	e.PriceKnown = true
	e.PricePerHourUSD = price
	n := float64(j.Instances)
	e.PerHourUSD = price * n
	if j.Share > 0 && j.Share < 1 {
		e.PerHourUSD *= j.Share
		if j.Detail {
			e.note("a shared GPU pool: the replicas pay for %.3g of the instances' price, the slices they hold", j.Share)
		}
	}
	hours := j.ProductiveHours
	if j.Service {
		hours = catalog.HoursPerMonth
		if up := j.UpFraction; up > 0 && up < 1 {
			hours *= up
			if j.Detail {
				e.note("a service's burst: %d instance(s) up %.0f%% of the month (%.0f instance-hours), started %.0f times each", j.Instances, 100*up, hours*float64(j.Instances), max(1, j.StartsPerMonth))
			}
		} else if j.Detail {
			e.note("a service: every total is for one month (730 h) of continuous running")
		}
	}

	// Setup: provisioning, image pull and staging are billed but do no work.
	e.SetupHours, e.TransferHours = timing(j)
	if j.Service && j.StartsPerMonth > 1 {
		e.SetupHours *= j.StartsPerMonth
	}
	if j.StagingGBps > 0 && j.DatasetGB > 0 && j.Detail {
		switch s := j.DatasetGB / j.StagingGBps; {
		case s < 60:
			e.note("staging %.0f GB to local disks at %.1f GB/s takes %.0f s", j.DatasetGB, j.StagingGBps, s)
		case s < 3600:
			e.note("staging %.0f GB to local disks at %.1f GB/s takes %.0f min", j.DatasetGB, j.StagingGBps, s/60)
		default:
			e.note("staging %.0f GB to local disks at %.1f GB/s takes %.2f h", j.DatasetGB, j.StagingGBps, s/3600)
		}
	}
	if j.Detail {
		e.note("setup billed but not productive: %.2f h (provisioning %.2f h, image pull %.2f h, staging)", e.SetupHours, ProvisionHours, ImagePullHours)
	}

	// Data gravity: moving the dataset here costs egress at its source and
	// time before the job can start.
	if j.DatasetGB > 0 && (j.DataFrom != nil || j.DataOnPrem) {
		switch {
		case j.DataOnPrem:
			if j.Detail {
				e.note("uploading %.0f GB from your own site: ingress is free", j.DatasetGB)
				e.transferNote(j.DatasetGB)
			}
		case j.DataFromSame:
			e.Cost.Egress += j.DatasetGB * InterRegionUSDPerGB
			if j.Detail {
				e.note("copying %.0f GB between %s regions: $%.2f/GB (typical inter-region rate), %.1f h", j.DatasetGB, j.DataFrom.ID, InterRegionUSDPerGB, e.TransferHours)
			}
		default:
			usd := EgressUSD(j.DataFrom, j.DatasetGB)
			e.Cost.Egress += usd
			if len(j.DataFrom.EgressTiers) == 0 {
				e.EgressAssumedGB += j.DatasetGB
				e.EgressAssumedProvider = j.DataFrom.ID
			}
			if j.Detail {
				// Cents, so the sentence agrees with the egress line of the
				// breakdown even for a few GB.
				e.note("moving %.0f GB out of %s costs $%.2f in egress (%s)", j.DatasetGB, j.DataFrom.ID, usd, EgressBasis(j.DataFrom))
				e.transferNote(j.DatasetGB)
			}
		}
	}
	if j.OutputsGB > 0 {
		usd := offerEgress(j)
		e.Cost.Egress += usd
		if j.Offer.EgressUSDPerGB == 0 && (j.Provider == nil || len(j.Provider.EgressTiers) == 0) {
			e.EgressAssumedGB += j.OutputsGB
			e.EgressAssumedProvider = j.Offer.Provider
		}
		if j.Detail {
			e.note("%.0f GB of outputs leave %s: $%.2f (%s)", j.OutputsGB, j.Offer.Provider, usd, offerEgressBasis(j))
		}
	}

	// Compute in the pricing mode. Billed time is productive time, setup
	// and (on spot) the work lost to interruptions, rounded to the
	// provider's billing unit; the rounding is charged to setup.
	var lost float64
	switch j.Mode {
	case catalog.Spot:
		if spot == nil {
			spot = new(Spot)
		}
		*spot = spotRisk(j, hours, e)
		e.Spot = spot
		lost = hours * spot.OverheadFraction
	case catalog.Reserved1y, catalog.Reserved3y, catalog.Monthly:
		if res == nil {
			res = new(Reserved)
		}
		*res = reserved(j, hours+e.SetupHours, e)
		e.Reserved = res
	case catalog.Serverless:
		sv := serverless(j, e)
		e.Serverless = &sv
		// No machine to provision: a worker's cold start instead, once for
		// a job, as often as the fleet scales from zero for a service.
		e.SetupHours = sv.ColdStartS / 3600
		if j.Service {
			e.SetupHours = sv.ColdStartsPerHour * sv.ColdStartS / 3600 * hours
			// Only the workers up are billed: hours stands for the
			// month's worker-hours over the plan's instances.
			hours *= sv.BilledWorkers / float64(max(1, j.Instances))
		}
	}
	e.WallHours = e.TransferHours + e.SetupHours + hours + lost
	if e.Spot != nil {
		e.WallHours += e.Spot.WaitedHours
	}
	e.BilledHours = granular(hours+e.SetupHours+lost, j.Provider)
	if e.Reserved == nil {
		e.Cost.Compute = hours * e.PerHourUSD
		e.Cost.SpotOverhead = lost * e.PerHourUSD
		e.Cost.Setup = (e.BilledHours - hours - lost) * e.PerHourUSD
	}

	// Storage for the job's duration: the dataset (when staged or held in
	// block storage) and two checkpoints.
	months := e.WallHours / catalog.HoursPerMonth
	if j.Service {
		months = 1
	}
	blockPrice := j.Offer.BlockUSDPerGBMonth
	if blockPrice == 0 && j.Provider != nil {
		blockPrice = j.Provider.BlockUSDPerGBMonth
	}
	if blockPrice == 0 {
		blockPrice = DefaultBlockUSDPerGBMo
		if j.Detail {
			e.note("block-storage price unknown for %s: assumed $%.2f/GB-month", j.Offer.Provider, blockPrice)
		}
	}
	storedGB := j.DatasetGB + 2*j.CheckpointGB
	e.Cost.Storage = storedGB * blockPrice * months
	if storedGB > 0 && j.Detail {
		e.storageNote(j, storedGB, blockPrice)
	}
	e.Cost.Total = e.Cost.Compute + e.Cost.Storage + e.Cost.Egress + e.Cost.Setup + e.Cost.SpotOverhead
}

// serverless is what scaling to zero does to a plan of j.Instances
// workers. A job keeps its workers busy: they are billed while it runs,
// after one cold start. A service's workers are all up while the load
// needs them; a lone worker, though, sees a request every 1/rate seconds,
// holds each for RequestSeconds and stays RequestSeconds + idle timeout
// after it: with Poisson arrivals it is up 1 - exp(-rate (S + idle)) of
// the time, and the arrivals that find it down (exp(-rate (S + idle)) of
// them) wait for a cold start, which is billed.
func serverless(j *Job, e *Estimate) Serverless {
	o := j.Offer
	sv := Serverless{ColdStartS: o.ColdStartS, IdleTimeoutS: o.IdleTimeoutS, Stated: o.ColdStartS > 0}
	if sv.ColdStartS == 0 {
		sv.ColdStartS = DefaultServerlessColdStartS
	}
	if sv.IdleTimeoutS == 0 {
		sv.IdleTimeoutS = DefaultServerlessIdleS
	}
	sv.ColdStartS += j.WeightsGB / WeightsReadGBps
	n := float64(max(1, j.Instances))
	sv.BilledWorkers = n
	if j.Service && j.Instances <= 1 && j.RequestsPerSecond > 0 {
		cold := math.Exp(-j.RequestsPerSecond * (j.RequestSeconds + sv.IdleTimeoutS))
		sv.BilledWorkers = 1 - cold
		sv.ColdRequestShare = cold
		sv.ColdStartsPerHour = 3600 * j.RequestsPerSecond * cold
	}
	if j.Detail {
		basis := msg.New("as the platform states")
		if !sv.Stated {
			basis = msg.New("%.0f s assumed: the platform states none", DefaultServerlessColdStartS)
		}
		e.note("serverless: %.2f worker(s) up on average, %.1f cold starts an hour of %.0f s each (%s, with %.0f GB of weights at %.1f GB/s); %.1f%% of requests wait for one; idle workers stop after %.0f s",
			sv.BilledWorkers, sv.ColdStartsPerHour, sv.ColdStartS, basis, j.WeightsGB, WeightsReadGBps, 100*sv.ColdRequestShare, sv.IdleTimeoutS)
	}
	return sv
}

// timing is the time a job spends before it computes: setup billed on the
// instances (provisioning, image pull, staging to local disks) and the
// transfer of the dataset from where it lives, which delays the start.
func timing(j *Job) (setupHours, transferHours float64) {
	setupHours = ProvisionHours + ImagePullHours
	if j.StagingGBps > 0 && j.DatasetGB > 0 {
		setupHours += j.DatasetGB / j.StagingGBps / 3600
	}
	if j.DatasetGB > 0 && (j.DataFrom != nil || j.DataOnPrem) {
		transferHours = j.DatasetGB * 8 / TransferGbps / 3600
	}
	return setupHours, transferHours
}

// storageNote says what is stored, and for how long in the unit that reads
// best: hours under two days, days under a month, else months. A service
// keeps its model weights (CheckpointGB), a job its checkpoints.
func (e *Estimate) storageNote(j *Job, storedGB, blockPrice float64) {
	switch {
	case j.Service && j.DatasetGB == 0:
		e.note("storage: %.0f GB (two copies of the %.0f GB model weights) for one month at $%.3f/GB-month", storedGB, j.CheckpointGB, blockPrice)
		return
	case j.Service:
		e.note("storage: %.0f GB (dataset and two copies of the %.0f GB model weights) for one month at $%.3f/GB-month", storedGB, j.CheckpointGB, blockPrice)
		return
	}
	switch h := e.WallHours; {
	case h < 48:
		e.note("storage: %.0f GB (dataset and two checkpoints of %.1f GB) for %.1f hours at $%.3f/GB-month", storedGB, j.CheckpointGB, h, blockPrice)
	case h < catalog.HoursPerMonth:
		e.note("storage: %.0f GB (dataset and two checkpoints of %.1f GB) for %.1f days at $%.3f/GB-month", storedGB, j.CheckpointGB, h/24, blockPrice)
	default:
		e.note("storage: %.0f GB (dataset and two checkpoints of %.1f GB) for %.1f months at $%.3f/GB-month", storedGB, j.CheckpointGB, h/catalog.HoursPerMonth, blockPrice)
	}
}

// transferNote says how long copying gb from elsewhere delays the start,
// in seconds, minutes or hours.
func (e *Estimate) transferNote(gb float64) {
	switch s := e.TransferHours * 3600; {
	case s < 60:
		e.note("copying %.0f GB at %.0f Gbit/s delays the start by %.0f s", gb, TransferGbps, s)
	case s < 3600:
		e.note("copying %.0f GB at %.0f Gbit/s delays the start by %.0f min", gb, TransferGbps, s/60)
	default:
		e.note("copying %.0f GB at %.0f Gbit/s delays the start by %.1f h", gb, TransferGbps, e.TransferHours)
	}
}

// note records a sentence about the estimate. Callers call it only when
// Job.Detail is set: the arguments are not even boxed otherwise.
func (e *Estimate) note(format string, args ...any) {
	e.Notes = append(e.Notes, msg.New(format, args...))
}

// granular rounds billed hours up to the provider's billing unit and
// minimum.
func granular(hours float64, p *catalog.Provider) float64 {
	if p == nil {
		return hours
	}
	if g := p.BillingGranularity.Hours(); g > 0 {
		hours = math.Ceil(hours/g-1e-9) * g
	}
	if m := p.MinimumBilling.Hours(); hours < m {
		hours = m
	}
	return hours
}

// EgressUSD prices gb of internet egress from p through its tiers (the
// first tier when it has only one); unknown tiers use a stated default,
// which EgressBasis says.
func EgressUSD(p *catalog.Provider, gb float64) float64 {
	if p == nil || len(p.EgressTiers) == 0 {
		return gb * DefaultEgressUSDPerGB
	}
	left, total, prevTB := gb, 0.0, 0.0
	for _, t := range p.EgressTiers {
		span := math.Inf(1)
		if t.UpToTB > 0 {
			span = (t.UpToTB - prevTB) * 1000
			prevTB = t.UpToTB
		}
		use := math.Min(left, span)
		total += use * t.USDPerGB
		left -= use
		if left <= 0 {
			break
		}
	}
	return total
}

// EgressBasis says which egress prices EgressUSD used for p.
func EgressBasis(p *catalog.Provider) msg.Msg {
	if p == nil || len(p.EgressTiers) == 0 {
		return msg.New("egress price unknown: assumed $%.2f/GB", DefaultEgressUSDPerGB)
	}
	if free := !slices.ContainsFunc(p.EgressTiers, func(t catalog.EgressTier) bool { return t.USDPerGB > 0 }); free {
		return msg.New("%s charges no egress", p.ID)
	}
	return msg.New("%s egress tiers, first $%.3f/GB", p.ID, p.EgressTiers[0].USDPerGB)
}

// offerEgress prices the job's outputs leaving the offer's provider: the
// offer's own rate when it has one, else the provider's tiers.
func offerEgress(j *Job) float64 {
	if j.Offer.EgressUSDPerGB > 0 {
		return j.OutputsGB * j.Offer.EgressUSDPerGB
	}
	return EgressUSD(j.Provider, j.OutputsGB)
}

func offerEgressBasis(j *Job) msg.Msg {
	if j.Offer.EgressUSDPerGB > 0 {
		return msg.New("$%.3f/GB for this offer", j.Offer.EgressUSDPerGB)
	}
	return EgressBasis(j.Provider)
}

// Spot capacity. A published frequency of interruption (AWS's Spot
// Instance Advisor: the share of instances reclaimed over the trailing
// month, in buckets) becomes a rate per instance-hour as -ln(1-p)/window.
// The window is the one fitted factor: with the ">20%" bucket taken as
// p = 0.5 it gives 0.060 instances lost per instance-hour, the lowest rate
// measured on a GPU spot fleet of that bucket (4 p3.2xlarge in us-east-2a
// over 17.8 days of 2023, skypilot-org/spot-traces preemption/4-node; the
// other zones of that trace and Bamboo's 2021 traces lost 0.24-0.61). So
// <5% is 0.0022 per instance-hour, 5-10% 0.0067, 10-15% 0.0116, 15-20%
// 0.0166. Once lost, a zone's capacity for the type stays away for
// SpotCapacityGapHours on average, and K instances are there at once a
// little less often than one (SpotGangExponent): capacity comes and goes
// for a zone as a whole.
const (
	SpotBucketWindowHours = 11.55
	// SpotCapacityGapHours: the median over 9 zones of the mean time
	// p3.2xlarge spot capacity stayed away (0.72-10.4 h), 45 days of 2023
	// (skypilot-org/spot-traces availability/1-node/aws-02-15-2023).
	SpotCapacityGapHours = 4.26
	// SpotGangExponent: K instances are all there K^-0.05 as often as one
	// is (16 p3.2xlarge in one zone: 0.73-0.94 of the time, 2023,
	// spot-traces availability/16-node).
	SpotGangExponent = 0.05
)

// spotBucketShare is the share of instances reclaimed a month taken for
// each bucket: the middle of its range, and 0.5 for ">20%".
var spotBucketShare = [len(catalog.SpotBuckets)]float64{0.025, 0.075, 0.125, 0.175, 0.5}

// DefaultSpotBucket is the bucket assumed for an offer of a provider that
// publishes nothing: the worst, as GPU spot capacity of unknown providers
// is no safer than the worst published.
const DefaultSpotBucket = len(catalog.SpotBuckets) - 1

// SpotHazard is the rate at which an instance's spot capacity is
// reclaimed, per instance-hour, and where that comes from.
func SpotHazard(r *catalog.SpotRisk) (perHour float64, source msg.Msg) {
	switch {
	case r == nil:
		return bucketHazard(DefaultSpotBucket), msg.New("no published rate: assumed as the %s bucket of AWS's Spot Instance Advisor", catalog.SpotBuckets[DefaultSpotBucket])
	case r.Bucket >= 0 && strings.HasPrefix(r.Notes, "[estimated]"):
		return bucketHazard(r.Bucket), msg.New("%s Spot Instance Advisor: %s of instances reclaimed a month, estimated from similar types", r.Provider, catalog.SpotBuckets[r.Bucket])
	case r.Bucket >= 0:
		return bucketHazard(r.Bucket), msg.New("%s Spot Instance Advisor: %s of instances reclaimed a month", r.Provider, catalog.SpotBuckets[r.Bucket])
	case strings.HasPrefix(r.Notes, "[assumed]"):
		return r.PerHour, msg.New("assumed from a trace of another GPU: %.3g instances lost per instance-hour", r.PerHour)
	default:
		return r.PerHour, msg.New("measured in a published trace: %.3g instances lost per instance-hour", r.PerHour)
	}
}

func bucketHazard(b int) float64 {
	return -math.Log(1-spotBucketShare[b]) / SpotBucketWindowHours
}

// SpotAvailability is the share of time n instances can be had at once
// when each is reclaimed at lambda per hour: the zone's capacity comes
// for 1/lambda and goes for SpotCapacityGapHours on average, and n at once
// are there n^-SpotGangExponent as often as one.
func SpotAvailability(lambda float64, n int) float64 {
	up := 1 / lambda
	return up / (up + SpotCapacityGapHours) * math.Pow(float64(max(1, n)), -SpotGangExponent)
}

// spotRisk prices the interruptions of a spot plan. A job checkpoints
// (Young/Daly: every sqrt(2CM) - C hours; the expected overhead is C/T +
// (T/2 + R)/M of the productive time) and restarts after waiting for its
// instances; the wait is time, not money. A service keeps no state: each
// loss costs the replica a cold start (billed) after a wait (unbilled), and
// the fleet must cover the replica while it is away.
func spotRisk(j *Job, hours float64, e *Estimate) Spot {
	var s Spot
	s.HazardPerHour, s.HazardSource = SpotHazard(j.SpotRisk)
	switch {
	case j.SpotRisk != nil:
		s.HazardAsOf = j.SpotRisk.AsOf.Format("2006-01-02")
	case j.Provider != nil && j.Provider.SpotInterruptionPerHour > 0:
		s.HazardPerHour, s.HazardSource = j.Provider.SpotInterruptionPerHour, msg.New("%s published rate", j.Provider.ID)
	}
	n := float64(max(1, j.Instances))
	lambda := s.HazardPerHour * n // any instance lost stops a job
	if j.Service {
		lambda = s.HazardPerHour // replicas come and go on their own
		s.Availability = SpotAvailability(s.HazardPerHour, 1)
	} else {
		s.Availability = SpotAvailability(s.HazardPerHour, j.Instances)
	}
	s.MTBFHours = 1 / lambda
	s.WaitHours = (1 - s.Availability) * SpotCapacityGapHours
	relaunch := ProvisionHours + ImagePullHours
	if j.Service {
		load := WeightsLoadGBps(j.Offer)
		cold := relaunch + j.WeightsGB/load/3600
		s.RestartHours = s.WaitHours + cold
		s.OverheadFraction = s.HazardPerHour * cold
		s.DowntimeFraction = math.Min(1, s.HazardPerHour*s.RestartHours)
		s.ExpectedInterrupts = s.HazardPerHour * n * hours
		s.HoldProbability = math.Exp(-s.HazardPerHour * hours) // one replica through the month
		if j.Detail {
			e.note("spot: %.2g interruptions per instance-hour (%s); a replica lost waits %.1f h for capacity on average and restarts in %.2f h (%.0f GB of weights at %.1f GB/s): away %.1f%% of the time",
				s.HazardPerHour, s.HazardSource, s.WaitHours, cold, j.WeightsGB, load, 100*s.DowntimeFraction)
		}
		return s
	}
	perNodeGB := j.CheckpointGB / n
	s.CheckpointHours = perNodeGB / CheckpointWriteGBps / 3600
	C, M := math.Max(s.CheckpointHours, 1e-4), s.MTBFHours
	// A restart waits for the instances, relaunches and reads the last
	// checkpoint back.
	s.RestartHours = s.WaitHours + relaunch + C
	T := math.Sqrt(2*C*M) - C
	if C >= 2*M || T <= 0 {
		T = M
	}
	s.CheckpointInterval = T
	wallOverhead := C/T + (T/2+s.RestartHours)/M
	s.OverheadFraction = C/T + (T/2+s.RestartHours-s.WaitHours)/M // the waits are not billed
	wall := hours * (1 + wallOverhead)
	s.ExpectedInterrupts = lambda * wall
	s.WaitedHours = s.WaitHours * (1 + hours/M)
	s.HoldProbability = math.Exp(-lambda * hours)
	if j.DeadlineHours > 0 {
		// Interruptions arrive as a Poisson process; each costs T/2 + R on
		// average. The deadline is missed when more than k happen.
		base := e.TransferHours + e.SetupHours + s.WaitHours + hours*(1+C/T)
		slack := j.DeadlineHours - base
		if slack < 0 {
			s.ProbMissingDeadline = 1
		} else {
			k := math.Floor(slack / (T/2 + s.RestartHours))
			s.ProbMissingDeadline = 1 - poissonCDF(k, lambda*wall)
		}
	}
	if j.Detail {
		e.note("spot: %.2g interruptions per instance-hour (%s); %d instance(s) at once are there %.0f%% of the time (a wait of %.1f h at each start); checkpoint every %.2f h (Young/Daly), %.2f h lost per interruption on average; %.1f interruptions expected, all %d instance(s) kept for the whole job with probability %.0f%%",
			s.HazardPerHour, s.HazardSource, j.Instances, 100*s.Availability, s.WaitHours, s.CheckpointInterval, s.CheckpointInterval/2+s.RestartHours,
			s.ExpectedInterrupts, j.Instances, 100*s.HoldProbability)
	}
	return s
}

func poissonCDF(k, mean float64) float64 {
	if k < 0 {
		return 0
	}
	sum, term := 0.0, math.Exp(-mean)
	for i := 0.0; i <= k; i++ {
		if i > 0 {
			term *= mean / i
		}
		sum += term
		if i > mean+50*math.Sqrt(mean+1) {
			break
		}
	}
	return math.Min(1, sum)
}

// reserved prices a commitment: the job pays its share of the term at the
// expected utilisation (the whole term for a one-off job).
func reserved(j *Job, billed float64, e *Estimate) Reserved {
	term := HoursPerYear
	switch j.Mode {
	case catalog.Reserved3y:
		term = 3 * HoursPerYear
	case catalog.Monthly:
		term = catalog.HoursPerMonth
	}
	r := Reserved{TermHours: term}
	if od, ok := j.Offer.YourPrices.Get(catalog.OnDemand); ok {
		r.BreakEvenUtilization = e.PricePerHourUSD / od
	}
	u := j.ReservedUtilization
	switch {
	case u > 0:
	case j.Service:
		u = 1
	case j.Mode == catalog.Monthly:
		// Subscriptions are bought in whole months.
		months := math.Ceil(billed/catalog.HoursPerMonth - 1e-9)
		u = billed / (months * catalog.HoursPerMonth)
	default:
		u = math.Min(1, billed/term)
	}
	r.Utilization = u
	r.CommitmentUSD = e.PerHourUSD * term
	if j.Mode == catalog.Monthly && !j.Service {
		r.CommitmentUSD = e.PerHourUSD * catalog.HoursPerMonth * math.Ceil(billed/catalog.HoursPerMonth-1e-9)
	}
	r.CheaperThanOnDemandAt = r.BreakEvenUtilization > 0 && u >= r.BreakEvenUtilization
	eff := e.PerHourUSD / u
	e.Cost.Compute = j.ProductiveHours * eff
	if j.Service {
		e.Cost.Compute = catalog.HoursPerMonth * eff
	}
	e.Cost.Setup = e.SetupHours * eff
	if j.Detail {
		e.note("%s: a %.0f h term; at %.0f%% expected utilisation each used hour costs $%.2f per instance (break-even against on-demand at %.0f%%)",
			j.Mode, term, u*100, e.PricePerHourUSD/u, r.BreakEvenUtilization*100)
	}
	return r
}

// How far a price may be from what a buyer pays, beyond the model's speed
// error. A spot price made of one zone's or listing's moment is spread like
// one zone of a region against the region's mean: in the 2026 AWS file's
// regions of two or more zones (2,282 zone prices), a zone's price is
// 0.74-1.23 of its region's mean at p10-p90, so the mean is 0.81-1.35 of a
// zone's. A price older than StaleAfter drifts by PriceDriftPerYear of its
// age, both ways (GPU list prices have moved by 45% in one step: AWS P5,
// 2025-06).
const (
	PointSpotLow      = 0.81
	PointSpotHigh     = 1.35
	PriceDriftPerYear = 0.25
)

// PriceSpread is the range, as factors of the price, that o's price in m
// may really be at now: the spot range the source gives (or a point
// price's spread), widened by the price's age. basis says why, "" when the
// price is a current list price.
func PriceSpread(o *catalog.Offer, m catalog.Mode, now time.Time) (lo, hi float64, basis string) {
	lo, hi = 1, 1
	if m == catalog.Spot {
		if l, h, ok := o.SpotRange(); ok {
			lo, hi, basis = l, h, fmt.Sprintf("the spot range of a %s price", o.SpotBasis)
		} else if o.SpotBasis == catalog.SpotPoint || o.SpotBasis == catalog.SpotBasisUnstated {
			lo, hi, basis = PointSpotLow, PointSpotHigh, "a point spot price"
		}
	}
	f := o.PriceFact(m)
	if age := now.Sub(f.AsOf); !f.AsOf.IsZero() && age > catalog.StaleAfter {
		years := age.Hours() / HoursPerYear
		d := 1 + PriceDriftPerYear*years
		lo, hi = lo/d, hi*d
		if basis != "" {
			basis += ", "
		}
		basis += fmt.Sprintf("a price %.1f years old", years)
	}
	return lo, hi, basis
}

// WeightsLoadGBps is how fast a replica that starts on o reads its model's
// weights: from object storage over the instance's network, at
// WeightsNetworkShare of its line rate, or from its local or block disk
// when that is slower; WeightsReadGBps when the catalog knows neither.
func WeightsLoadGBps(o *catalog.Offer) float64 {
	r := 0.0
	if o != nil && o.NetworkGbps > 0 {
		r = o.NetworkGbps / 8 * WeightsNetworkShare
	}
	if o != nil {
		disk := o.NVMeReadGBps
		if disk == 0 {
			disk = o.BlockGBps
		}
		if disk > 0 && (r == 0 || disk < r) {
			r = disk
		}
	}
	if r <= 0 {
		return WeightsReadGBps
	}
	return r
}
