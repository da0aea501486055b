package autoscale

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// Spec is a SERVICE.yaml file: the traffic a service receives, how its
// replicas serve it, the scaling policy, the SLO and the prices. ParseSpec
// fills every default and records it in Defaults.
type Spec struct {
	Name    string  `yaml:"name" json:"name"` // labels the service in results
	Traffic Traffic `yaml:"traffic" json:"traffic"`
	Service Service `yaml:"service" json:"service"`
	Policy  Policy  `yaml:"policy" json:"policy"`
	SLO     SLO     `yaml:"slo" json:"slo"`
	Pricing Pricing `yaml:"pricing" json:"pricing"`
	// Compare lists variants of this service to simulate side by side
	// (simulate --compare): each replaces the policy and overrides keys of
	// the service and the pricing; see Variants.
	Compare []Variant `yaml:"compare" json:"-"`
	// Defaults lists each value ParseSpec filled in, as "field = value (why)".
	Defaults []string `yaml:"-" json:"defaults,omitempty"`
	// at locates a field in the file the spec was read from (see Errorf).
	at func(field string) (string, int)
}

// Errorf is an Invalid error on field of the file the spec was read
// from, with the field's line there: for a variant of a compare block,
// compare[i].field when the entry gives it, else the file's own field.
func (s *Spec) Errorf(field, format string, args ...any) *apperr.Error {
	e := invalidf(field, format, args...)
	if s.at != nil {
		e.Field, e.Line = s.at(field)
	}
	return e
}

// Traffic kinds.
const (
	TrafficConstant = "constant" // evenly spaced arrivals at rate_per_s
	TrafficPoisson  = "poisson"  // Poisson arrivals at rate_per_s
	TrafficDiurnal  = "diurnal"  // Poisson with a sinusoidal daily rate peaking at peak_hour (and optional bursts, as bursty)
	TrafficBursty   = "bursty"   // two-state Markov-modulated Poisson (calm and burst)
	TrafficSpikes   = "spikes"   // Poisson at rate_per_s with periodic spikes at spike_rate_per_s
	TrafficTrace    = "trace"    // replay of a trace file (format)
)

// Traffic describes the arriving requests. Rates are requests per second,
// durations seconds, token counts tokens.
type Traffic struct {
	Kind      string  `yaml:"kind" json:"kind"`             // constant, poisson, diurnal, bursty, spikes or trace (a replay)
	RatePerS  float64 `yaml:"rate_per_s" json:"rate_per_s"` // mean (diurnal), calm (bursty) or base (spikes) rate, >= 0
	DurationS float64 `yaml:"duration_s" json:"duration_s"` // simulated horizon; for a trace 0 = the whole trace
	Seed      uint64  `yaml:"seed" json:"seed"`             // seed of the generator (and of the simulation's own draws)
	// Token lengths of synthetic requests, and of trace rows that lack them.
	PromptTokens int     `yaml:"prompt_tokens" json:"prompt_tokens"` // mean prompt length
	OutputTokens int     `yaml:"output_tokens" json:"output_tokens"` // mean generated length
	TokenDist    string  `yaml:"token_dist" json:"token_dist"`       // fixed | exponential | lognormal
	TokenCV      float64 `yaml:"token_cv" json:"token_cv"`           // coefficient of variation for lognormal
	// diurnal
	PeakHour  float64 `yaml:"peak_hour" json:"peak_hour,omitempty"`   // hour of day [0, 24) of the peak
	Amplitude float64 `yaml:"amplitude" json:"amplitude,omitempty"`   // [0, 1]: the rate swings by ±amplitude×mean
	StartHour float64 `yaml:"start_hour" json:"start_hour,omitempty"` // hour of day at t = 0
	// bursty
	BurstMultiplier float64 `yaml:"burst_multiplier" json:"burst_multiplier,omitempty"` // burst rate / calm rate, >= 1
	BurstMeanS      float64 `yaml:"burst_mean_s" json:"burst_mean_s,omitempty"`         // mean length of a burst
	CalmMeanS       float64 `yaml:"calm_mean_s" json:"calm_mean_s,omitempty"`           // mean time between bursts
	// spikes
	SpikeEveryS    float64 `yaml:"spike_every_s" json:"spike_every_s,omitempty"`       // period; a spike ends each period
	SpikeDurationS float64 `yaml:"spike_duration_s" json:"spike_duration_s,omitempty"` // length of each spike, < spike_every_s
	SpikeRatePerS  float64 `yaml:"spike_rate_per_s" json:"spike_rate_per_s,omitempty"` // rate during a spike
	// trace
	Format    string  `yaml:"format" json:"format,omitempty"`         // azure | burstgpt | plain
	File      string  `yaml:"file" json:"file,omitempty"`             // path of the trace, opened by the caller
	TimeScale float64 `yaml:"time_scale" json:"time_scale,omitempty"` // > 0; 2 replays twice as fast (twice the rate)
}

// Service kinds.
const (
	ServiceModel        = "model"        // continuous batching, from the performance model (BatchModel)
	ServiceDistribution = "distribution" // a service-time distribution, for what-if studies
)

// Service describes how one replica serves requests, and how long a new
// replica takes to become ready. Times are seconds.
type Service struct {
	Kind     string `yaml:"kind" json:"kind"`                   // model (the performance model of a workload on an offer) or distribution
	Workload string `yaml:"workload" json:"workload,omitempty"` // model: path of the workload file
	Offer    string `yaml:"offer" json:"offer,omitempty"`       // model: provider/instance-type
	// Slice (model services) runs each replica on a MIG instance of the
	// offer's GPUs instead of a whole GPU: the replica's speed is the
	// performance model's on that slice, its price the instance's over
	// the slices one instance holds (GPUs × the profile's instances per
	// GPU), and the fleet pays for whole instances.
	Slice string `yaml:"slice" json:"slice,omitempty"` // model: a MIG profile of the offer's GPU (e.g. 1g.10gb); replicas are slices
	// Region (model services) is the offer's region; without it, the
	// cheapest region the workload's compliance block allows.
	Region string `yaml:"region" json:"region,omitempty"` // model: the offer's region (default: the cheapest the workload's compliance allows)
	// TensorParallel, PipelineParallel and ExpertParallel (model services)
	// fix one replica's layout, as the workload's parallelism block would:
	// the layout a recommended plan was priced with. 0 leaves it to the
	// performance model.
	TensorParallel   int `yaml:"tensor_parallel" json:"tensor_parallel,omitempty"`     // model: GPUs a replica's layers are split over (0 = the model's choice)
	PipelineParallel int `yaml:"pipeline_parallel" json:"pipeline_parallel,omitempty"` // model: pipeline stages of a replica, over instances (0 = the model's choice)
	ExpertParallel   int `yaml:"expert_parallel" json:"expert_parallel,omitempty"`     // model: the expert-parallel degree of a replica (0 = the model's choice)
	// distribution
	Distribution string  `yaml:"distribution" json:"distribution,omitempty"` // exponential | deterministic | lognormal
	MeanS        float64 `yaml:"mean_s" json:"mean_s,omitempty"`             // mean service time of one request
	CV           float64 `yaml:"cv" json:"cv,omitempty"`                     // lognormal coefficient of variation
	Concurrency  int     `yaml:"concurrency" json:"concurrency,omitempty"`   // requests one replica serves at once, each at full speed
	// Cold start = provisioning + image pull + model_gb / storage_gbps, unless cold_start_s is given.
	ColdStartS     float64 `yaml:"cold_start_s" json:"cold_start_s"`
	ProvisioningS  float64 `yaml:"provisioning_s" json:"provisioning_s,omitempty"` // a new node or container starting
	ImagePullS     float64 `yaml:"image_pull_s" json:"image_pull_s,omitempty"`     // pulling the serving image
	ModelGB        float64 `yaml:"model_gb" json:"model_gb,omitempty"`             // weights to load, GB
	StorageGBps    float64 `yaml:"storage_gbps" json:"storage_gbps,omitempty"`     // read rate of the weights, GB/s
	GPUsPerReplica int     `yaml:"gpus_per_replica" json:"gpus_per_replica"`       // for GPU-hours
	MaxQueue       int     `yaml:"max_queue" json:"max_queue"`                     // waiting requests beyond this are dropped
	// ReplicasPerInstance (distribution services) packs several replicas on one billed instance
	// (MIG slices of one GPU, or time-sliced replicas): the fleet pays for
	// ceil(replicas / this) instances at this × pricing.per_hour_usd each,
	// so per_hour_usd is the price of one replica (the instance's divided by
	// this) and mean_s the service time on one slice. 1 = a replica per
	// instance.
	ReplicasPerInstance int     `yaml:"replicas_per_instance" json:"replicas_per_instance,omitempty"` // replicas per billed instance (MIG slices of one GPU); per_hour_usd is per replica
	TimeoutS            float64 `yaml:"timeout_s" json:"timeout_s"`                                   // a request waiting longer gives up; 0 = never
}

// Policy kinds.
const (
	PolicyFixed      = "fixed"      // a constant number of replicas
	PolicyTarget     = "target"     // HPA/KEDA target tracking
	PolicyKnative    = "knative"    // Knative KPA: stable and panic windows
	PolicyServerless = "serverless" // a serverless platform: a worker per need, idle timeout, max workers
	PolicyMixed      = "mixed"      // on-demand floor + spot burst (target tracking) + fallback tier
)

// Fallback tier modes.
const (
	FallbackReplace = "replace" // serves instead of the GPU tiers while the arrival rate is low
	FallbackDrain   = "drain"   // serves beside them, taking waiting requests while the burst tier is scaled in
)

// Policy is the scaling policy; which fields apply depends on Kind (ParseSpec
// rejects the others). Times are seconds.
type Policy struct {
	Kind     string `yaml:"kind" json:"kind"`                   // fixed, target, knative, serverless or mixed
	Replicas int    `yaml:"replicas" json:"replicas,omitempty"` // fixed
	// target and mixed (HPA/KEDA)
	Metric                  string  `yaml:"metric" json:"metric,omitempty"` // in_flight (queued + running) | queue (waiting)
	Target                  float64 `yaml:"target" json:"target,omitempty"` // metric per replica
	PollingIntervalS        float64 `yaml:"polling_interval_s" json:"polling_interval_s,omitempty"`
	ScaleUpStabilizationS   float64 `yaml:"scale_up_stabilization_s" json:"scale_up_stabilization_s,omitempty"`
	ScaleDownStabilizationS float64 `yaml:"scale_down_stabilization_s" json:"scale_down_stabilization_s,omitempty"`
	CooldownS               float64 `yaml:"cooldown_s" json:"cooldown_s,omitempty"` // idle time before the last replica goes (1 -> 0)
	Tolerance               float64 `yaml:"tolerance" json:"tolerance,omitempty"`   // no change while |ratio - 1| <= tolerance
	// target and knative
	MinReplicas     int `yaml:"min_replicas" json:"min_replicas,omitempty"`
	MaxReplicas     int `yaml:"max_replicas" json:"max_replicas,omitempty"`
	InitialReplicas int `yaml:"initial_replicas" json:"initial_replicas,omitempty"` // ready at t = 0
	// knative
	TargetConcurrency float64 `yaml:"target_concurrency" json:"target_concurrency,omitempty"` // requests in flight per replica
	TargetUtilization float64 `yaml:"target_utilization" json:"target_utilization,omitempty"` // (0, 1]
	StableWindowS     float64 `yaml:"stable_window_s" json:"stable_window_s,omitempty"`
	PanicWindowPct    float64 `yaml:"panic_window_pct" json:"panic_window_pct,omitempty"`       // of the stable window
	PanicThresholdPct float64 `yaml:"panic_threshold_pct" json:"panic_threshold_pct,omitempty"` // panic when wanted/ready >= this
	MaxScaleUpRate    float64 `yaml:"max_scale_up_rate" json:"max_scale_up_rate,omitempty"`     // per tick, × ready
	MaxScaleDownRate  float64 `yaml:"max_scale_down_rate" json:"max_scale_down_rate,omitempty"` // per tick, ÷ ready
	ScaleToZeroGraceS float64 `yaml:"scale_to_zero_grace_s" json:"scale_to_zero_grace_s,omitempty"`
	TickS             float64 `yaml:"tick_s" json:"tick_s,omitempty"` // autoscaler evaluation period
	// serverless
	MinWorkers        int     `yaml:"min_workers" json:"min_workers,omitempty"` // always on, billed 24×7
	MaxWorkers        int     `yaml:"max_workers" json:"max_workers,omitempty"`
	IdleTimeoutS      float64 `yaml:"idle_timeout_s" json:"idle_timeout_s,omitempty"`
	RequestsPerWorker int     `yaml:"requests_per_worker" json:"requests_per_worker,omitempty"` // in flight per worker before another starts
	// mixed
	OnDemand *OnDemandTier `yaml:"on_demand" json:"on_demand,omitempty"`
	Spot     *SpotTier     `yaml:"spot" json:"spot,omitempty"`
	Fallback *FallbackTier `yaml:"fallback" json:"fallback,omitempty"`
}

// OnDemandTier is the always-on floor of a mixed fleet.
type OnDemandTier struct {
	Replicas int `yaml:"replicas" json:"replicas"`
}

// SpotTier is the burst capacity of a mixed fleet: interruptible replicas
// that the target-tracking controller adds above the floor.
type SpotTier struct {
	MaxReplicas int `yaml:"max_replicas" json:"max_replicas"`
	// MinReplicas are spot replicas kept at all times (a spare on spot
	// above the on-demand floor), at most MaxReplicas; 0 = none.
	MinReplicas          int     `yaml:"min_replicas" json:"min_replicas,omitempty"`
	InterruptionsPerHour float64 `yaml:"interruptions_per_hour" json:"interruptions_per_hour"` // hazard per replica
	NoticeS              float64 `yaml:"notice_s" json:"notice_s"`                             // warning before reclaim; in-flight work left at reclaim is re-queued
	ColdStartS           float64 `yaml:"cold_start_s" json:"cold_start_s"`
}

// FallbackTier is a cheaper or more available, slower tier (a smaller GPU
// or a CPU instance). In mode replace it replaces the floor while traffic is
// low; in mode drain it runs beside the GPU tiers and takes waiting requests
// while the burst tier has no ready replica (scaled in, or still starting).
type FallbackTier struct {
	Mode     string  `yaml:"mode" json:"mode"` // replace (serves instead of the GPUs at low traffic) or drain (drains the queue while the burst tier is scaled in)
	Replicas int     `yaml:"replicas" json:"replicas"`
	Speed    float64 `yaml:"speed" json:"speed"`                   // service speed relative to the main tier, (0, 1]
	MeanS    float64 `yaml:"mean_s" json:"mean_s,omitempty"`       // instead of speed: mean service time of one request on this tier, s (speed = service.mean_s / this)
	Instance string  `yaml:"instance" json:"instance,omitempty"`   // a CPU instance of the built-in table (provider/instance-type, e.g. aws/c7i.8xlarge) whose on-demand price is the tier's price
	BelowRPS float64 `yaml:"below_rps" json:"below_rps,omitempty"` // replace: used while the arrival rate is below this
	WindowS  float64 `yaml:"window_s" json:"window_s"`             // replace: over which the arrival rate is measured; drain: how long the tier stays after the queue empties
	// ColdStartS is the time from launch to ready of a fallback replica, s.
	ColdStartS float64 `yaml:"cold_start_s" json:"cold_start_s"`
	// PriceSource says where the tier's price came from when Instance
	// named a CPU instance (filled by ApplyCPUInstances; not read from
	// the file).
	PriceSource string `yaml:"-" json:"price_source,omitempty"`
	// CPU is the row of the CPU instance table that Instance named (filled
	// by ApplyCPUInstances), from which a model service's image workload
	// gets the tier's speed (app.ApplyFallback).
	CPU CPUInstance `yaml:"-" json:"-"`
	// SpeedSource says how the tier's speed was derived from the
	// performance model (filled by app.ApplyFallback; not read from the
	// file).
	SpeedSource string `yaml:"-" json:"speed_source,omitempty"`
}

// SLO is the service-level objective: a request violates it when its time to
// first token exceeds TTFTS or its end-to-end latency exceeds LatencyS (a
// zero bound is not checked), or when it is dropped or times out. The SLO is
// met when at most 1 - Target of the requests violate it.
type SLO struct {
	LatencyS float64 `yaml:"latency_s" json:"latency_s,omitempty"` // end-to-end bound, s; 0 = none
	TTFTS    float64 `yaml:"ttft_s" json:"ttft_s,omitempty"`       // time-to-first-token bound, s; 0 = none
	Target   float64 `yaml:"target" json:"target"`                 // fraction of requests that must meet the bounds, (0, 1]
}

// Pricing holds the price of one replica-hour in USD for each tier. For a
// model service the on-demand price comes from the offer (BatchModel).
type Pricing struct {
	PerHourUSD          float64 `yaml:"per_hour_usd" json:"per_hour_usd"`                             // on-demand, fixed, or serverless worker
	SpotPerHourUSD      float64 `yaml:"spot_per_hour_usd" json:"spot_per_hour_usd,omitempty"`         // mixed: a spot replica
	FallbackPerHourUSD  float64 `yaml:"fallback_per_hour_usd" json:"fallback_per_hour_usd,omitempty"` // mixed: a fallback replica
	BillingGranularityS float64 `yaml:"billing_granularity_s" json:"billing_granularity_s"`           // each replica's lifetime is rounded up to this
	ReservedPerHourUSD  float64 `yaml:"reserved_per_hour_usd" json:"reserved_per_hour_usd,omitempty"` // a reserved or committed price of one replica-hour: the result also prices the on-demand replicas as a committed base plus on-demand above it
	// Commitments are the committed prices the result prices the on-demand
	// replicas' base at: reserved_per_hour_usd as "reserved" or, for a
	// model service whose file gives none, the offer's reserved and
	// committed prices (filled by advisor.ApplyPrices; not read from the file).
	Commitments []Commitment `yaml:"-" json:"commitments,omitempty"`
}

// Commitment is a reserved or committed price: Term names it (reserved,
// reserved-1y, reserved-3y, monthly), PerHourUSD is one replica-hour's
// effective price, paid for every hour of the term whether used or not.
type Commitment struct {
	Term       string  `json:"term"`
	PerHourUSD float64 `json:"per_hour_usd"`
}

// keysByPolicy lists the policy keys each kind accepts (besides kind).
var keysByPolicy = map[string][]string{
	PolicyFixed:      {"replicas"},
	PolicyTarget:     {"metric", "target", "min_replicas", "max_replicas", "initial_replicas", "polling_interval_s", "scale_up_stabilization_s", "scale_down_stabilization_s", "cooldown_s", "tolerance"},
	PolicyKnative:    {"target_concurrency", "target_utilization", "stable_window_s", "panic_window_pct", "panic_threshold_pct", "max_scale_up_rate", "max_scale_down_rate", "scale_to_zero_grace_s", "tick_s", "min_replicas", "max_replicas", "initial_replicas"},
	PolicyServerless: {"min_workers", "max_workers", "idle_timeout_s", "requests_per_worker"},
	PolicyMixed:      {"metric", "target", "polling_interval_s", "scale_up_stabilization_s", "scale_down_stabilization_s", "cooldown_s", "tolerance", "on_demand", "spot", "fallback"},
}

// keysByTraffic lists the traffic keys each kind accepts besides the common ones.
var keysByTraffic = map[string][]string{
	TrafficConstant: {},
	TrafficPoisson:  {},
	TrafficDiurnal:  {"peak_hour", "amplitude", "start_hour", "burst_multiplier", "burst_mean_s", "calm_mean_s"},
	TrafficBursty:   {"burst_multiplier", "burst_mean_s", "calm_mean_s"},
	TrafficSpikes:   {"spike_every_s", "spike_duration_s", "spike_rate_per_s"},
	TrafficTrace:    {"format", "file", "time_scale"},
}

var commonTrafficKeys = []string{"kind", "rate_per_s", "duration_s", "seed", "prompt_tokens", "output_tokens", "token_dist", "token_cv"}

// ParseSpec decodes a SERVICE.yaml file (YAML or JSON), fills defaults (each
// recorded in Spec.Defaults) and validates it. On failure it returns an
// apperr.List of Invalid errors, each naming the field path and its line.
func ParseSpec(data []byte) (*Spec, error) {
	var s Spec
	if err := strictyaml.Decode(data, &s); err != nil {
		return nil, err
	}
	c := &checker{s: &s, lines: strictyaml.IndexLines(data)}
	s.at = func(field string) (string, int) { return field, c.lines.Line(field) }
	c.check()
	if len(c.errs) > 0 {
		sort.SliceStable(c.errs, func(i, j int) bool { return c.errs[i].Line < c.errs[j].Line })
		return nil, c.errs
	}
	return &s, nil
}

func invalidf(field, format string, args ...any) *apperr.Error {
	return apperr.Invalidf(field, format, args...)
}

type checker struct {
	s     *Spec
	lines strictyaml.Lines
	errs  apperr.List
}

func (c *checker) errorf(field, format string, args ...any) {
	e := apperr.Invalidf(field, format, args...)
	e.Line = c.lines.Line(field)
	c.errs = append(c.errs, e)
}

// def fills *v with value when field is absent from the file.
func def[T int | float64 | string | uint64](c *checker, field string, v *T, value T, why string) {
	if c.lines.Has(field) {
		return
	}
	*v = value
	c.s.Defaults = append(c.s.Defaults, fmt.Sprintf("%s = %v (%s)", field, value, why))
}

func (c *checker) oneOf(field, v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	if v == "" {
		c.errorf(field, "required (want one of %s)", strings.Join(allowed, ", "))
	} else {
		c.errorf(field, "unknown value %q (want one of %s)", v, strings.Join(allowed, ", "))
	}
	return false
}

func (c *checker) positive(field string, v float64) {
	if !(v > 0) || math.IsInf(v, 0) {
		c.errorf(field, "must be > 0, got %v", v)
	}
}

func (c *checker) between(field string, v, lo, hi float64) {
	if !(v >= lo && v <= hi) {
		c.errorf(field, "must be between %v and %v, got %v", lo, hi, v)
	}
}

// upTo checks 0 <= v <= hi (0 < v <= hi when positive), naming the unit
// of the bound: "must be >= 0 and at most 86400 s (a day), got 1e+15".
func (c *checker) upTo(field string, v, hi float64, positive bool, unit string) {
	lo, bad := ">=", !(v >= 0)
	if positive {
		lo, bad = ">", !(v > 0)
	}
	if unit != "" {
		unit = " " + unit
	}
	if bad || !(v <= hi) {
		c.errorf(field, "must be %s 0 and at most %v%s, got %v", lo, hi, unit, v)
	}
}

// upToInt checks lo <= v <= hi for a count.
func (c *checker) upToInt(field string, v, lo, hi int) {
	if v < lo || v > hi {
		c.errorf(field, "must be between %d and %d, got %d", lo, hi, v)
	}
}

// only reports keys of block that the kind does not use.
func (c *checker) only(block, kind string, allowed []string) {
	ok := map[string]bool{"kind": true}
	for _, k := range allowed {
		ok[k] = true
	}
	for _, k := range c.lines.Children(block) {
		if !ok[k] {
			c.errorf(block+"."+k, "not used by %s %q", block, kind)
		}
	}
}

func (c *checker) check() {
	s := c.s
	def(c, "name", &s.Name, "service", "not set")
	if c.traffic() {
		c.service()
		c.policy()
	}
	c.slo()
	c.pricing()
}

// bursts defaults and bounds t's bursts: the rate is multiplied by
// burst_multiplier during bursts of mean burst_mean_s s, calm_mean_s s
// apart on average.
func (c *checker) bursts(t *Traffic) {
	def(c, "traffic.burst_multiplier", &t.BurstMultiplier, 5, "not set")
	def(c, "traffic.burst_mean_s", &t.BurstMeanS, 60, "not set")
	def(c, "traffic.calm_mean_s", &t.CalmMeanS, 600, "not set")
	c.between("traffic.burst_multiplier", t.BurstMultiplier, 1, 1000)
	c.between("traffic.burst_mean_s", t.BurstMeanS, 0.01, MaxHorizonS)
	c.between("traffic.calm_mean_s", t.CalmMeanS, 0.01, MaxHorizonS)
}

func (c *checker) traffic() bool {
	t := &c.s.Traffic
	kinds := []string{TrafficConstant, TrafficPoisson, TrafficDiurnal, TrafficBursty, TrafficSpikes, TrafficTrace}
	if !c.oneOf("traffic.kind", t.Kind, kinds...) {
		return false
	}
	c.only("traffic", t.Kind, append(append([]string{}, commonTrafficKeys...), keysByTraffic[t.Kind]...))
	def(c, "traffic.seed", &t.Seed, 1, "not set; runs repeat exactly")
	def(c, "traffic.prompt_tokens", &t.PromptTokens, 1024, "not set; a typical chat prompt")
	def(c, "traffic.output_tokens", &t.OutputTokens, 256, "not set; a typical chat answer")
	def(c, "traffic.token_dist", &t.TokenDist, "fixed", "not set; every request has the mean lengths")
	c.oneOf("traffic.token_dist", t.TokenDist, "fixed", "exponential", "lognormal")
	if t.TokenDist == "lognormal" {
		def(c, "traffic.token_cv", &t.TokenCV, 1, "not set")
		c.upTo("traffic.token_cv", t.TokenCV, MaxCV, true, "")
	}
	c.upToInt("traffic.prompt_tokens", t.PromptTokens, 0, MaxTokens)
	c.upToInt("traffic.output_tokens", t.OutputTokens, 0, MaxTokens)
	if t.Kind == TrafficTrace {
		c.oneOf("traffic.format", t.Format, FormatAzure, FormatBurstGPT, FormatPlain)
		def(c, "traffic.time_scale", &t.TimeScale, 1, "not set; replay at the recorded speed")
		c.between("traffic.time_scale", t.TimeScale, MinTimeScale, MaxTimeScale)
		c.upTo("traffic.duration_s", t.DurationS, MaxHorizonS, false, "s (a year)")
		return true
	}
	if !c.lines.Has("traffic.rate_per_s") {
		c.errorf("traffic.rate_per_s", "required for traffic kind %q", t.Kind)
	} else {
		c.upTo("traffic.rate_per_s", t.RatePerS, MaxRatePerS, t.Kind != TrafficSpikes, "requests/s")
	}
	def(c, "traffic.duration_s", &t.DurationS, 3600, "not set; one hour")
	c.upTo("traffic.duration_s", t.DurationS, MaxHorizonS, true, "s (a year)")
	switch t.Kind {
	case TrafficDiurnal:
		def(c, "traffic.peak_hour", &t.PeakHour, 14, "not set; mid-afternoon")
		def(c, "traffic.amplitude", &t.Amplitude, 0.8, "not set; night traffic at a ninth of the peak")
		c.between("traffic.peak_hour", t.PeakHour, 0, 24)
		c.between("traffic.start_hour", t.StartHour, 0, 24)
		c.between("traffic.amplitude", t.Amplitude, 0, 1)
		// Optional bursts on top of the daily curve: the rate is
		// multiplied by burst_multiplier during bursts.
		if c.lines.Has("traffic.burst_multiplier") || c.lines.Has("traffic.burst_mean_s") || c.lines.Has("traffic.calm_mean_s") {
			c.bursts(t)
		}
	case TrafficBursty:
		c.bursts(t)
	case TrafficSpikes:
		def(c, "traffic.spike_every_s", &t.SpikeEveryS, 3600, "not set; one spike an hour")
		def(c, "traffic.spike_duration_s", &t.SpikeDurationS, 60, "not set")
		def(c, "traffic.spike_rate_per_s", &t.SpikeRatePerS, 10*t.RatePerS, "not set; ten times the base rate")
		c.between("traffic.spike_every_s", t.SpikeEveryS, 0.01, MaxHorizonS)
		c.positive("traffic.spike_duration_s", t.SpikeDurationS)
		c.upTo("traffic.spike_rate_per_s", t.SpikeRatePerS, MaxRatePerS, false, "requests/s")
		if t.SpikeDurationS >= t.SpikeEveryS {
			c.errorf("traffic.spike_duration_s", "must be shorter than spike_every_s (%v), got %v", t.SpikeEveryS, t.SpikeDurationS)
		}
		if t.RatePerS == 0 && t.SpikeRatePerS == 0 {
			c.errorf("traffic.spike_rate_per_s", "with rate_per_s 0, must be > 0")
		}
	}
	return true
}

// maxFleet bounds every replica count: the simulator scans the fleet on
// fleet events, which is cheap for thousands of replicas, not millions.
const maxFleet = 10000

// Documented ranges of a SERVICE.yaml's numbers (README, "Elastic
// serving"). They bound what a real service could be, not what it costs to
// simulate: Estimate and Limits judge that.
const (
	// MaxHorizonS bounds duration_s (and, in DefaultLimits, a trace's
	// span): policies tick every few seconds whether or not requests
	// arrive. A year, 366 days, in seconds.
	MaxHorizonS = 366 * 86400
	// MaxRatePerS bounds every arrival rate (rate_per_s, spike_rate_per_s,
	// a burst's rate, below_rps): a million requests per second.
	MaxRatePerS = 1e6
	// MaxDayS bounds durations that belong to one request or one replica:
	// cold starts and their parts, service times, timeouts, idle and
	// cooldown windows, SLO bounds. A day in seconds.
	MaxDayS = 86400
	// MaxModelGB bounds model_gb (100 TB of weights); MaxStorageGBps
	// bounds storage_gbps.
	MaxModelGB     = 1e5
	MaxStorageGBps = 1e4
	// MaxTokens bounds the mean prompt and output lengths.
	MaxTokens = 10_000_000
	// MaxPricePerHourUSD bounds every price of a replica-hour.
	MaxPricePerHourUSD = 1e6
	// MaxCV bounds coefficients of variation (service times, token lengths).
	MaxCV = 100
	// MaxConcurrency bounds service.concurrency, target, target_concurrency
	// and requests_per_worker (requests per replica).
	MaxConcurrency = 100000
	// MinTimeScale and MaxTimeScale bound a trace's time_scale.
	MinTimeScale, MaxTimeScale = 0.001, 1e6
	// MaxReplicasPerInstance bounds service.replicas_per_instance: seven
	// MIG slices on each of eight GPUs.
	MaxReplicasPerInstance = 56
	// MaxParallel bounds a replica's parallel degrees (service.tensor_parallel
	// and the others): a GB200 NVL72 domain's 72 GPUs times the instances a
	// replica may span, with room to spare.
	MaxParallel = 1024
	// MaxBillingGranularityS bounds billing_granularity_s: 31 days.
	MaxBillingGranularityS = 31 * 86400
)

func (c *checker) service() {
	sv := &c.s.Service
	if !c.oneOf("service.kind", sv.Kind, ServiceModel, ServiceDistribution) {
		return
	}
	common := []string{"cold_start_s", "provisioning_s", "image_pull_s", "model_gb", "storage_gbps", "gpus_per_replica", "max_queue", "timeout_s"}
	if sv.Kind == ServiceDistribution {
		common = append(common, "replicas_per_instance")
		if c.lines.Has("service.replicas_per_instance") {
			c.upToInt("service.replicas_per_instance", sv.ReplicasPerInstance, 1, MaxReplicasPerInstance)
		}
	}
	if sv.Kind == ServiceModel {
		c.only("service", sv.Kind, append(common, "workload", "offer", "slice", "region", "tensor_parallel", "pipeline_parallel", "expert_parallel"))
		for _, f := range []struct {
			path string
			v    int
		}{{"service.tensor_parallel", sv.TensorParallel}, {"service.pipeline_parallel", sv.PipelineParallel}, {"service.expert_parallel", sv.ExpertParallel}} {
			if c.lines.Has(f.path) {
				c.upToInt(f.path, f.v, 1, MaxParallel)
			}
		}
		if sv.Workload == "" {
			c.errorf("service.workload", "required for service kind model (path of a workload file)")
		}
		if sv.Offer == "" {
			c.errorf("service.offer", "required for service kind model (provider/instance-type)")
		} else if !strings.Contains(sv.Offer, "/") {
			c.errorf("service.offer", "want provider/instance-type, got %q", sv.Offer)
		}
		if c.lines.Has("service.slice") && !migProfileName(sv.Slice) {
			c.errorf("service.slice", "want a MIG profile such as 1g.10gb (compute slices g, memory GB), got %q", sv.Slice)
		}
	} else {
		c.only("service", sv.Kind, append(common, "distribution", "mean_s", "cv", "concurrency"))
		def(c, "service.distribution", &sv.Distribution, "exponential", "not set")
		c.oneOf("service.distribution", sv.Distribution, "exponential", "deterministic", "lognormal")
		if !c.lines.Has("service.mean_s") {
			c.errorf("service.mean_s", "required for service kind distribution")
		} else {
			c.upTo("service.mean_s", sv.MeanS, MaxDayS, true, "s (a day)")
		}
		if sv.Distribution == "lognormal" {
			def(c, "service.cv", &sv.CV, 1, "not set")
			c.upTo("service.cv", sv.CV, MaxCV, true, "")
		} else if c.lines.Has("service.cv") {
			c.errorf("service.cv", "used only by the lognormal distribution")
		}
		def(c, "service.concurrency", &sv.Concurrency, 1, "not set; one request at a time per replica")
		c.upToInt("service.concurrency", sv.Concurrency, 1, MaxConcurrency)
	}
	serverless := c.s.Policy.Kind == PolicyServerless
	if c.lines.Has("service.cold_start_s") {
		c.upTo("service.cold_start_s", sv.ColdStartS, MaxDayS, false, "s (a day)")
		for _, k := range []string{"provisioning_s", "image_pull_s", "model_gb", "storage_gbps"} {
			if c.lines.Has("service." + k) {
				c.errorf("service."+k, "give either cold_start_s or its parts, not both")
			}
		}
	} else {
		if serverless {
			def(c, "service.provisioning_s", &sv.ProvisioningS, 5, "not set; a serverless GPU container starts in about 5 s (Cloud Run L4)")
			def(c, "service.image_pull_s", &sv.ImagePullS, 0, "not set; serverless platforms cache the image")
		} else {
			def(c, "service.provisioning_s", &sv.ProvisioningS, 120, "not set; a new GPU node takes 2-5 min")
			def(c, "service.image_pull_s", &sv.ImagePullS, 30, "not set; a serving image of a few GB")
		}
		def(c, "service.storage_gbps", &sv.StorageGBps, 1, "not set; weights read at 1 GB/s")
		n := len(c.errs)
		c.upTo("service.provisioning_s", sv.ProvisioningS, MaxDayS, false, "s (a day)")
		c.upTo("service.image_pull_s", sv.ImagePullS, MaxDayS, false, "s (a day)")
		c.upTo("service.model_gb", sv.ModelGB, MaxModelGB, false, "GB")
		c.upTo("service.storage_gbps", sv.StorageGBps, MaxStorageGBps, true, "GB/s")
		if len(c.errs) == n {
			sv.ColdStartS = sv.ProvisioningS + sv.ImagePullS + sv.ModelGB/sv.StorageGBps
			if sv.ColdStartS > MaxDayS {
				field := "service.model_gb"
				if sv.ModelGB == 0 {
					field = "service.provisioning_s"
				}
				c.errorf(field, "the cold start (provisioning_s + image_pull_s + model_gb / storage_gbps) must be at most %d s (a day), got %.0f s", MaxDayS, sv.ColdStartS)
			}
		}
	}
	def(c, "service.gpus_per_replica", &sv.GPUsPerReplica, 1, "not set")
	c.upToInt("service.gpus_per_replica", sv.GPUsPerReplica, 0, 1024)
	def(c, "service.max_queue", &sv.MaxQueue, 100000, "not set; requests beyond are dropped, which keeps memory bounded")
	c.upToInt("service.max_queue", sv.MaxQueue, 0, 1<<26)
	c.upTo("service.timeout_s", sv.TimeoutS, MaxDayS, false, "s (a day)")
}

func (c *checker) policy() {
	p := &c.s.Policy
	if !c.oneOf("policy.kind", p.Kind, PolicyFixed, PolicyTarget, PolicyKnative, PolicyServerless, PolicyMixed) {
		return
	}
	c.only("policy", p.Kind, keysByPolicy[p.Kind])
	count := func(field string, v, lo int) {
		if v < lo || v > maxFleet {
			c.errorf(field, "must be between %d and %d, got %d", lo, maxFleet, v)
		}
	}
	switch p.Kind {
	case PolicyFixed:
		if !c.lines.Has("policy.replicas") {
			c.errorf("policy.replicas", "required for policy kind fixed")
		}
		count("policy.replicas", p.Replicas, 1)
	case PolicyTarget, PolicyMixed:
		def(c, "policy.metric", &p.Metric, "in_flight", "not set; requests queued or running per replica, as Ray Serve and the KEDA HTTP add-on scale")
		c.oneOf("policy.metric", p.Metric, "in_flight", "queue")
		def(c, "policy.target", &p.Target, 2, "not set; Ray Serve target_ongoing_requests")
		c.upTo("policy.target", p.Target, MaxConcurrency, true, "requests per replica")
		def(c, "policy.polling_interval_s", &p.PollingIntervalS, 15, "not set; Kubernetes HPA sync period")
		c.between("policy.polling_interval_s", p.PollingIntervalS, 0.1, 3600)
		def(c, "policy.scale_up_stabilization_s", &p.ScaleUpStabilizationS, 0, "not set; HPA default")
		def(c, "policy.scale_down_stabilization_s", &p.ScaleDownStabilizationS, 300, "not set; HPA default")
		def(c, "policy.cooldown_s", &p.CooldownS, 300, "not set; KEDA cooldownPeriod (governs 1 -> 0)")
		def(c, "policy.tolerance", &p.Tolerance, 0.1, "not set; HPA default")
		c.between("policy.scale_up_stabilization_s", p.ScaleUpStabilizationS, 0, 3600)
		c.between("policy.scale_down_stabilization_s", p.ScaleDownStabilizationS, 0, 3600)
		c.upTo("policy.cooldown_s", p.CooldownS, MaxDayS, false, "s (a day)")
		c.between("policy.tolerance", p.Tolerance, 0, 1)
		if p.Kind == PolicyTarget {
			def(c, "policy.min_replicas", &p.MinReplicas, 0, "not set; KEDA minReplicaCount")
			def(c, "policy.max_replicas", &p.MaxReplicas, 100, "not set; KEDA maxReplicaCount")
			def(c, "policy.initial_replicas", &p.InitialReplicas, p.MinReplicas, "not set; the minimum")
			c.minMax()
		} else {
			c.mixed()
		}
	case PolicyKnative:
		def(c, "policy.target_concurrency", &p.TargetConcurrency, 100, "not set; Knative container-concurrency-target-default")
		def(c, "policy.target_utilization", &p.TargetUtilization, 0.7, "not set; Knative default")
		def(c, "policy.stable_window_s", &p.StableWindowS, 60, "not set; Knative default")
		def(c, "policy.panic_window_pct", &p.PanicWindowPct, 10, "not set; Knative default")
		def(c, "policy.panic_threshold_pct", &p.PanicThresholdPct, 200, "not set; Knative default")
		def(c, "policy.max_scale_up_rate", &p.MaxScaleUpRate, 1000, "not set; Knative default")
		def(c, "policy.max_scale_down_rate", &p.MaxScaleDownRate, 2, "not set; Knative default")
		def(c, "policy.scale_to_zero_grace_s", &p.ScaleToZeroGraceS, 30, "not set; Knative default")
		def(c, "policy.tick_s", &p.TickS, 2, "not set; the Knative autoscaler's tick")
		def(c, "policy.min_replicas", &p.MinReplicas, 0, "not set; Knative scales to zero")
		def(c, "policy.max_replicas", &p.MaxReplicas, 1000, "not set; Knative has no cap, this bounds the run")
		def(c, "policy.initial_replicas", &p.InitialReplicas, max(1, p.MinReplicas), "not set; Knative initial-scale")
		c.upTo("policy.target_concurrency", p.TargetConcurrency, MaxConcurrency, true, "requests per replica")
		if !(p.TargetUtilization > 0 && p.TargetUtilization <= 1) {
			c.errorf("policy.target_utilization", "must be in (0, 1], got %v", p.TargetUtilization)
		}
		c.between("policy.stable_window_s", p.StableWindowS, 6, 3600)
		c.between("policy.panic_window_pct", p.PanicWindowPct, 1, 100)
		c.between("policy.panic_threshold_pct", p.PanicThresholdPct, 110, 1000)
		if !(p.MaxScaleUpRate > 1 && p.MaxScaleUpRate <= maxFleet) {
			c.errorf("policy.max_scale_up_rate", "must be > 1 and at most %d, got %v", maxFleet, p.MaxScaleUpRate)
		}
		if !(p.MaxScaleDownRate > 1 && p.MaxScaleDownRate <= maxFleet) {
			c.errorf("policy.max_scale_down_rate", "must be > 1 and at most %d, got %v", maxFleet, p.MaxScaleDownRate)
		}
		c.upTo("policy.scale_to_zero_grace_s", p.ScaleToZeroGraceS, MaxDayS, false, "s (a day)")
		c.between("policy.tick_s", p.TickS, 0.1, 60)
		c.minMax()
	case PolicyServerless:
		def(c, "policy.min_workers", &p.MinWorkers, 0, "not set; serverless scales to zero")
		def(c, "policy.max_workers", &p.MaxWorkers, 3, "not set; RunPod's default")
		def(c, "policy.idle_timeout_s", &p.IdleTimeoutS, 5, "not set; RunPod's default")
		reqs := 1
		if c.s.Service.Kind == ServiceDistribution {
			reqs = c.s.Service.Concurrency
		}
		if c.s.Service.Kind == ServiceModel {
			reqs = 0 // the model's max batch, filled by Simulate
		}
		def(c, "policy.requests_per_worker", &p.RequestsPerWorker, reqs, "not set; what one worker serves at once (0 = the model's max batch)")
		count("policy.min_workers", p.MinWorkers, 0)
		count("policy.max_workers", p.MaxWorkers, 1)
		if p.MinWorkers > p.MaxWorkers {
			c.errorf("policy.min_workers", "must be <= max_workers (%d), got %d", p.MaxWorkers, p.MinWorkers)
		}
		c.upTo("policy.idle_timeout_s", p.IdleTimeoutS, MaxDayS, false, "s (a day)")
		c.upToInt("policy.requests_per_worker", p.RequestsPerWorker, 0, MaxConcurrency)
	}
}

func (c *checker) minMax() {
	p := &c.s.Policy
	if p.MinReplicas < 0 {
		c.errorf("policy.min_replicas", "must be >= 0, got %d", p.MinReplicas)
	}
	if p.MaxReplicas < 1 || p.MaxReplicas > maxFleet {
		c.errorf("policy.max_replicas", "must be between 1 and %d, got %d", maxFleet, p.MaxReplicas)
	}
	if p.MinReplicas > p.MaxReplicas {
		c.errorf("policy.min_replicas", "must be <= max_replicas (%d), got %d", p.MaxReplicas, p.MinReplicas)
	}
	if p.InitialReplicas < p.MinReplicas || p.InitialReplicas > p.MaxReplicas {
		c.errorf("policy.initial_replicas", "must be between min_replicas and max_replicas, got %d", p.InitialReplicas)
	}
}

func (c *checker) mixed() {
	p := &c.s.Policy
	cold := c.s.Service.ColdStartS
	if p.OnDemand == nil {
		p.OnDemand = &OnDemandTier{}
	}
	def(c, "policy.on_demand.replicas", &p.OnDemand.Replicas, 1, "not set; one always-on replica")
	if p.OnDemand.Replicas < 0 || p.OnDemand.Replicas > maxFleet {
		c.errorf("policy.on_demand.replicas", "must be between 0 and %d, got %d", maxFleet, p.OnDemand.Replicas)
	}
	if p.Spot == nil {
		p.Spot = &SpotTier{}
	}
	def(c, "policy.spot.max_replicas", &p.Spot.MaxReplicas, 10, "not set")
	def(c, "policy.spot.interruptions_per_hour", &p.Spot.InterruptionsPerHour, 1.1e-4, "not set; AWS Spot Advisor bucket 5-10% a month")
	def(c, "policy.spot.notice_s", &p.Spot.NoticeS, 120, "not set; AWS spot notice")
	def(c, "policy.spot.cold_start_s", &p.Spot.ColdStartS, cold, "not set; the service's cold start")
	if p.Spot.MaxReplicas < 0 || p.Spot.MaxReplicas > maxFleet {
		c.errorf("policy.spot.max_replicas", "must be between 0 and %d, got %d", maxFleet, p.Spot.MaxReplicas)
	}
	c.upTo("policy.spot.interruptions_per_hour", p.Spot.InterruptionsPerHour, 3600, false, "per replica-hour")
	c.upTo("policy.spot.notice_s", p.Spot.NoticeS, MaxDayS, false, "s (a day)")
	c.upTo("policy.spot.cold_start_s", p.Spot.ColdStartS, MaxDayS, false, "s (a day)")
	if p.Spot.MinReplicas < 0 || p.Spot.MinReplicas > p.Spot.MaxReplicas {
		c.errorf("policy.spot.min_replicas", "must be between 0 and policy.spot.max_replicas (%d), got %d", p.Spot.MaxReplicas, p.Spot.MinReplicas)
	}
	if p.OnDemand.Replicas+p.Spot.MaxReplicas < 1 {
		c.errorf("policy.spot.max_replicas", "the fleet needs at least one replica (on_demand.replicas + spot.max_replicas)")
	}
	if f := p.Fallback; f != nil {
		def(c, "policy.fallback.mode", &f.Mode, FallbackReplace, "not set; the fallback tier replaces the GPUs at low traffic")
		c.oneOf("policy.fallback.mode", f.Mode, FallbackReplace, FallbackDrain)
		def(c, "policy.fallback.replicas", &f.Replicas, 1, "not set")
		def(c, "policy.fallback.window_s", &f.WindowS, 300, "not set")
		def(c, "policy.fallback.cold_start_s", &f.ColdStartS, cold, "not set; the service's cold start")
		if f.Replicas < 1 || f.Replicas > maxFleet {
			c.errorf("policy.fallback.replicas", "must be between 1 and %d, got %d", maxFleet, f.Replicas)
		}
		switch {
		case c.lines.Has("policy.fallback.speed") && c.lines.Has("policy.fallback.mean_s"):
			c.errorf("policy.fallback.mean_s", "give either speed or mean_s, not both")
		case c.lines.Has("policy.fallback.mean_s"):
			n := len(c.errs)
			if c.upTo("policy.fallback.mean_s", f.MeanS, MaxDayS, true, "s (a day)"); len(c.errs) == n {
				if c.s.Service.Kind != ServiceDistribution {
					// A model service: the speed is service time on the main
					// tier (from the performance model) over mean_s, set
					// when the model is built (app.ApplyFallback).
				} else if sv := c.s.Service.MeanS; sv > 0 {
					if f.MeanS < sv {
						c.errorf("policy.fallback.mean_s", "the fallback tier must not be faster than the main one (service.mean_s = %v s), got %v s", sv, f.MeanS)
					} else {
						f.Speed = sv / f.MeanS
					}
				}
			}
		case !c.lines.Has("policy.fallback.speed") && c.s.Service.Kind == ServiceModel && f.Instance != "":
			// Derived from the CPU instance when the model is built
			// (app.ApplyFallback: an image-generation workload on the CPU).
		case !c.lines.Has("policy.fallback.speed"):
			c.errorf("policy.fallback.speed", "required: service speed of the fallback tier relative to the main one (or mean_s, its service time)")
		case !(f.Speed > 0 && f.Speed <= 1):
			c.errorf("policy.fallback.speed", "must be in (0, 1], got %v", f.Speed)
		}
		if f.Mode == FallbackReplace {
			if !c.lines.Has("policy.fallback.below_rps") {
				c.errorf("policy.fallback.below_rps", "required: the arrival rate below which the fallback tier serves")
			} else {
				c.upTo("policy.fallback.below_rps", f.BelowRPS, MaxRatePerS, true, "requests/s")
			}
		} else if c.lines.Has("policy.fallback.below_rps") {
			c.errorf("policy.fallback.below_rps", "used only in mode replace; in mode drain the tier serves while requests wait and the burst tier is scaled in")
		}
		if f.Instance != "" && !strings.Contains(f.Instance, "/") {
			c.errorf("policy.fallback.instance", "want provider/instance-type, got %q", f.Instance)
		}
		c.upTo("policy.fallback.window_s", f.WindowS, MaxDayS, true, "s (a day)")
		c.upTo("policy.fallback.cold_start_s", f.ColdStartS, MaxDayS, false, "s (a day)")
	}
}

// migProfileName reports whether p reads as a MIG profile: "<n>g.<m>gb",
// optionally with a "mig-" prefix and a "+me" suffix (1g.10gb, 3g.40gb,
// 1g.10gb+me); whether the offer's GPU has it is checked against the
// catalog when the model is built.
func migProfileName(p string) bool {
	p = strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(p)), "mig-"), "+me")
	g, mem, ok := strings.Cut(p, "g.")
	if !ok || g == "" || !strings.HasSuffix(mem, "gb") || len(mem) == 2 || len(g) > 2 {
		return false
	}
	for _, r := range g + strings.TrimSuffix(mem, "gb") {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}

func (c *checker) slo() {
	o := &c.s.SLO
	c.upTo("slo.latency_s", o.LatencyS, MaxDayS, false, "s (a day)")
	c.upTo("slo.ttft_s", o.TTFTS, MaxDayS, false, "s (a day)")
	def(c, "slo.target", &o.Target, 0.99, "not set; 99% of requests within the bounds")
	if !(o.Target > 0 && o.Target <= 1) {
		c.errorf("slo.target", "must be in (0, 1], got %v", o.Target)
	}
}

func (c *checker) pricing() {
	pr := &c.s.Pricing
	model := c.s.Service.Kind == ServiceModel
	if !model && !c.lines.Has("pricing.per_hour_usd") {
		c.errorf("pricing.per_hour_usd", "required: price of one replica-hour in USD")
	}
	c.upTo("pricing.per_hour_usd", pr.PerHourUSD, MaxPricePerHourUSD, false, "USD")
	p := &c.s.Policy
	if p.Kind == PolicyMixed && p.Spot != nil && p.Spot.MaxReplicas > 0 {
		// For a model service with no price here, Simulate takes half the
		// offer's price (or the caller fills the offer's spot price).
		if !c.lines.Has("pricing.spot_per_hour_usd") && !(model && pr.PerHourUSD == 0) {
			def(c, "pricing.spot_per_hour_usd", &pr.SpotPerHourUSD, pr.PerHourUSD/2, "not set; GPU spot is typically 30-60% off on-demand")
		}
		c.upTo("pricing.spot_per_hour_usd", pr.SpotPerHourUSD, MaxPricePerHourUSD, false, "USD")
	} else if c.lines.Has("pricing.spot_per_hour_usd") {
		c.errorf("pricing.spot_per_hour_usd", "used only by a mixed policy with spot replicas")
	}
	if p.Kind == PolicyMixed && p.Fallback != nil {
		if p.Fallback.Instance != "" && c.lines.Has("pricing.fallback_per_hour_usd") {
			c.errorf("pricing.fallback_per_hour_usd", "give either this or policy.fallback.instance (whose price is used), not both")
		} else if p.Fallback.Instance == "" && !c.lines.Has("pricing.fallback_per_hour_usd") {
			c.errorf("pricing.fallback_per_hour_usd", "required with a fallback tier (or policy.fallback.instance, a CPU instance whose price is used)")
		}
		c.upTo("pricing.fallback_per_hour_usd", pr.FallbackPerHourUSD, MaxPricePerHourUSD, false, "USD")
	} else if c.lines.Has("pricing.fallback_per_hour_usd") {
		c.errorf("pricing.fallback_per_hour_usd", "used only by a mixed policy with a fallback tier")
	}
	def(c, "pricing.billing_granularity_s", &pr.BillingGranularityS, 1, "not set; per-second billing")
	c.upTo("pricing.billing_granularity_s", pr.BillingGranularityS, MaxBillingGranularityS, false, "s (31 days)")
	if c.lines.Has("pricing.reserved_per_hour_usd") {
		// A commitment holds the on-demand replicas' base; a serverless
		// platform bills per worker and sells none.
		if p.Kind == PolicyServerless {
			c.errorf("pricing.reserved_per_hour_usd", "not used by policy %q (a serverless worker is billed only while it runs)", p.Kind)
		} else {
			c.upTo("pricing.reserved_per_hour_usd", pr.ReservedPerHourUSD, MaxPricePerHourUSD, true, "USD")
			pr.Commitments = []Commitment{{Term: "reserved", PerHourUSD: pr.ReservedPerHourUSD}}
		}
	}
}
