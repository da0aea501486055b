package autoscale

import "context"

// BatchModel is one replica of a model served with continuous batching on
// one offer, as the performance model predicts it. A replica holds up to
// MaxBatch sequences; a new sequence first runs its prefill
// (PrefillSPerToken × prompt tokens), which stalls the batch and ends with
// its first token; then every decode step emits one token for each sequence
// in flight and takes StepBaseS + StepPerSeqS × batch seconds.
type BatchModel struct {
	MaxBatch         int     // sequences in flight per replica, >= 1
	PrefillSPerToken float64 // seconds of prefill per prompt token, >= 0
	StepBaseS        float64 // seconds of one decode step, fixed part, > 0
	StepPerSeqS      float64 // seconds of one decode step per sequence in flight, >= 0
	ColdStartS       float64 // seconds from launch to ready (provisioning + image pull + weight load); 0 = the spec's
	PricePerHourUSD  float64 // on-demand price of one replica-hour; 0 = the spec's pricing.per_hour_usd
	GPUs             int     // accelerators per replica; 0 = the spec's service.gpus_per_replica
	// ReplicasPerInstance is how many replicas share one instance (e.g.
	// four tensor-parallel-2 copies on an 8-GPU server). Instances are
	// billed whole: the fleet pays for ceil(replicas / this) instances at
	// this x PricePerHourUSD each. 0 or 1: one replica per instance.
	ReplicasPerInstance int
	// StepsPerRequest > 0 makes every request take this many steps
	// whatever its token counts, with no prefill: an image (or clip) of a
	// diffusion service is one pipeline call, StepS(n) the call's time
	// with n images batched. 0: a request takes its output tokens.
	StepsPerRequest int
}

// StepS is the duration in seconds of one decode step with batch sequences
// in flight.
func (m *BatchModel) StepS(batch int) float64 { return m.StepBaseS + m.StepPerSeqS*float64(batch) }

func (m *BatchModel) validate() error {
	switch {
	case m.MaxBatch < 1:
		return invalidf("model.max_batch", "must be >= 1, got %d", m.MaxBatch)
	case !(m.PrefillSPerToken >= 0):
		return invalidf("model.prefill_s_per_token", "must be >= 0, got %v", m.PrefillSPerToken)
	case !(m.StepBaseS > 0):
		return invalidf("model.step_base_s", "must be > 0, got %v", m.StepBaseS)
	case !(m.StepPerSeqS >= 0):
		return invalidf("model.step_per_seq_s", "must be >= 0, got %v", m.StepPerSeqS)
	case !(m.ColdStartS >= 0), !(m.PricePerHourUSD >= 0), m.GPUs < 0, m.ReplicasPerInstance < 0, m.StepsPerRequest < 0:
		return invalidf("model", "cold start, price and GPUs must be >= 0")
	}
	return nil
}

// Options tunes a run without changing what is simulated.
type Options struct {
	// Context, when set, stops a run (and a search) soon after it is
	// done: the simulator looks at it every 1,024 events, a few hundred
	// microseconds apart, and Simulate and Search then return its error
	// (context.Canceled, context.DeadlineExceeded) and no result.
	Context context.Context
	// Seed seeds the simulation's own draws (service times, interruptions)
	// and, when Simulate builds the source itself, the traffic. 0 = the
	// spec's traffic.seed.
	Seed uint64
	// Progress, when set, is called now and then (every 1/200 of the
	// horizon and every 65,536 events) with the simulated time done and
	// the horizon (seconds; totalS is 0 when unknown, as for a
	// trace without duration_s).
	Progress func(doneS, totalS float64)
	// SeriesStepS is the width of a time-series bucket in seconds; 0 = 60.
	SeriesStepS float64
	// MaxSeriesPoints bounds the series: when it fills, adjacent buckets
	// are merged and the step doubles. 0 = 2000; it is rounded up to even.
	MaxSeriesPoints int
}

// Result is what one simulated run measured. Durations are seconds; money
// is USD.
type Result struct {
	Name      string  `json:"name"`
	Policy    string  `json:"policy"`
	DurationS float64 `json:"duration_s"` // simulated horizon
	Requests  int64   `json:"requests"`   // arrived
	Completed int64   `json:"completed"`
	Dropped   int64   `json:"dropped"`   // turned away by a full queue
	TimedOut  int64   `json:"timed_out"` // gave up waiting (timeout_s), or still waiting at the end
	Requeued  int64   `json:"requeued"`  // restarted after a spot interruption
	// Wait is the time from arrival to the start of service (queueing);
	// TTFT the time to the first token (= Latency when the service is a
	// distribution, which does not stream); Latency the end-to-end time.
	// Only completed requests count.
	Wait                 Percentiles `json:"wait_s"`
	TTFT                 Percentiles `json:"ttft_s"`
	Latency              Percentiles `json:"latency_s"`
	SLOViolationFraction float64     `json:"slo_violation_fraction"` // of arrived requests, counting drops and timeouts
	SLOMet               bool        `json:"slo_met"`
	ReplicaHours         float64     `json:"replica_hours"` // launched replicas × time, from launch to stop
	GPUHours             float64     `json:"gpu_hours"`
	// InstanceHours are the whole instances billed × time, when replicas
	// share instances (ReplicasPerInstance > 1); CostUSD is then theirs.
	InstanceHours float64 `json:"instance_hours,omitempty"`
	CostUSD       float64 `json:"cost_usd"` // billed time (rounded up per replica) × price
	// Utilization is busy replica-time (at least one request in service)
	// over replica-time.
	Utilization   float64      `json:"utilization"`
	MeanReplicas  float64      `json:"mean_replicas"`
	PeakReplicas  int          `json:"peak_replicas"`
	ColdStarts    int64        `json:"cold_starts"`   // replicas launched after t = 0
	ScaleEvents   int64        `json:"scale_events"`  // policy decisions that changed the fleet
	Interruptions int64        `json:"interruptions"` // spot reclaims
	Tiers         []TierResult `json:"tiers"`
	// Commitments price the on-demand replicas as a committed base plus
	// on-demand above it, one per committed price the spec has.
	Commitments []CommitResult `json:"commitments,omitempty"`
	SeriesStepS float64        `json:"series_step_s"`
	Series      []SeriesPoint  `json:"series"`
	// Advice is what to change, decided from the numbers above.
	Advice *Advice `json:"advice,omitempty"`
	// events counts the simulator's events (loop turns): arrivals,
	// completions, ticks, fleet changes. Tests compare it with Estimate.
	events int64
}

// TierResult is the share of one tier of the fleet (on-demand, spot,
// fallback; a single-tier policy has one).
type TierResult struct {
	Name            string  `json:"name"`
	PricePerHourUSD float64 `json:"price_per_hour_usd"`
	ReplicaHours    float64 `json:"replica_hours"`
	CostUSD         float64 `json:"cost_usd"`
}

// SeriesPoint is one bucket of the time series, starting at TS and
// SeriesStepS wide.
type SeriesPoint struct {
	TS           float64 `json:"t_s"`
	ArrivalsPerS float64 `json:"arrivals_per_s"`
	Replicas     float64 `json:"replicas"`      // time-weighted mean of launched replicas
	InFlight     float64 `json:"in_flight"`     // time-weighted mean of requests waiting or in service
	P95LatencyS  float64 `json:"p95_latency_s"` // of requests completed in the bucket; merged buckets keep the larger
}
