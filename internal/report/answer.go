package report

import (
	"github.com/gpupick/gpupick/internal/perf"
)

// AnswerJSON is the answer a reader needs before the ranking: which offer,
// why it beats the runner-up, what it costs, how long (or, for a service,
// how many replicas at what latency), how sure, and what could go wrong.
// It is built once from the advisor's result (BuildAnswer) and every
// surface renders it: the text of recommend, the Markdown and HTML reports,
// the page (from the API's "answer") and -o json. Sentences are in the
// requested language; codes and numbers are stable.
type AnswerJSON struct {
	// Headline is one sentence: the pick, its fleet, time and cost; or why
	// nothing qualifies.
	Headline string `json:"headline"`
	// Qualifies is false when no candidate qualifies (NearMisses then says
	// what would, with one constraint relaxed).
	Qualifies bool `json:"qualifies"`
	// Service is true for a service sized to a request rate: costs are per
	// month and Service holds replicas, $/hour, $/month, $/million tokens
	// and latency against the SLO.
	Service bool `json:"service"`
	// Objective is the ranking objective used (cost, time, ...);
	// ObjectiveSentence says it in words ("ranked by total cost").
	Objective         string `json:"objective"`
	ObjectiveSentence string `json:"objective_sentence"`
	// Pick is the #1 candidate (rank 1 of "candidates"); nil when nothing
	// qualifies.
	Pick *AnswerPickJSON `json:"pick"`
	// RunnerUp is the best candidate on another instance type (nil when
	// there is none); Factors compares the two with numbers, the decisive
	// factor first.
	RunnerUp *AnswerPickJSON `json:"runner_up"`
	Factors  []FactorJSON    `json:"factors"`
	// Cost is the pick's cost broken down (USD; USD/month for a service).
	Cost *AnswerCostJSON `json:"cost"`
	// Duration is the pick's wall-clock time with its 80% interval (nil for
	// a service).
	Duration *RangeJSON `json:"duration_hours"`
	// ServiceFigures is set for a service.
	ServiceFigures *ServiceAnswerJSON `json:"service_figures,omitempty"`
	// Confidence is the probability that #1 really beats #2, where the
	// model provides it, and against real alternatives (its
	// alternatives: the best candidate of another instance type, and of
	// another accelerator within 20%); its sentence speaks of those when
	// there are any.
	Confidence *ConfidenceJSON `json:"confidence_vs_next"`
	// DeadlineRisk is the pick's chance of missing the deadline and the
	// cheapest candidate that meets it at p90, when the pick's 80% range
	// of time crosses the deadline; absent otherwise. Its sentence is also
	// the "deadline" risk's.
	DeadlineRisk *DeadlineRiskJSON `json:"deadline_risk,omitempty"`
	// Risks is what could go wrong with the pick: spot interruptions,
	// missing the deadline, reserved capacity left idle, the software stack,
	// compliance, stale prices. Most serious first.
	Risks []RiskJSON `json:"risks"`
	// NearMisses are excluded candidates that one relaxed constraint
	// would admit (the cheapest or fastest per constraint).
	NearMisses []NearMissJSON `json:"near_misses"`
	// Terms compares the ways to pay for the pick's fleet (on demand, 1-
	// and 3-year terms, spot) and says which wins and why; nil when the
	// pick has no price.
	Terms *TermsJSON `json:"terms,omitempty"`
	// Day is a service's plan over its day: the base, the peak, the loss
	// of an instance and of a zone, and the simulated day (nil for a job).
	Day *DayJSON `json:"day,omitempty"`
	// Operator says who runs the pick's machines, where it matters: the
	// workload has compliance requirements or is a production service.
	// nil otherwise, and when nothing qualifies.
	Operator *OperatorAnswerJSON `json:"operator,omitempty"`
	// Porting says what porting is priced at, where it matters: the pick
	// needs work on its stack, or a candidate ranked below it would have
	// come first with its porting unpriced. nil otherwise.
	Porting *PortingAnswerJSON `json:"porting,omitempty"`
	// DueDiligence is what to read or request before signing for #1: the
	// same list as check -o json's due_diligence, in the answer's
	// language.
	DueDiligence []DiligenceJSON `json:"due_diligence,omitempty"`
}

// PortingAnswerJSON is the porting of one candidate (the pick, or the one
// its porting moved below the pick): the kinds of work, the engineer-days
// priced at constraints.engineer_day_usd, and the days it delays the start.
type PortingAnswerJSON struct {
	Offer          string   `json:"offer"`
	Region         string   `json:"region"`
	Rank           int      `json:"rank"`
	Kinds          []string `json:"kinds"`
	EngineerDays   float64  `json:"engineer_days"`
	EngineerDayUSD float64  `json:"engineer_day_usd"`
	USD            float64  `json:"usd"`
	DelayDays      float64  `json:"delay_days"`
	// WithoutUSD is the candidate's total without its porting, when that
	// is below the pick's total (it lost the first place to its porting).
	WithoutUSD *float64 `json:"without_usd,omitempty"`
	Sentence   string   `json:"sentence"`
}

// OperatorAnswerJSON is who runs the pick's machines and the provider
// that sells them.
type OperatorAnswerJSON struct {
	// Kind is provider, partner, marketplace or community; "" when the
	// catalog does not classify the provider.
	Kind      string `json:"kind"`
	Provider  string `json:"provider"`   // the provider's id
	HQCountry string `json:"hq_country"` // ISO 3166 alpha-2 of its headquarters ("" = not recorded)
	CloudAct  bool   `json:"cloud_act"`  // US CLOUD Act reach
	Source    string `json:"source"`     // of the classification
	AsOf      string `json:"as_of"`
	Sentence  string `json:"sentence"`
}

// TermsJSON is the pick's fleet priced in every pricing mode its offer
// publishes. Costs are USD for the job, USD per month for a service.
type TermsJSON struct {
	Unit     string     `json:"unit"`
	Options  []TermJSON `json:"options"`
	Best     string     `json:"best"`     // the cheapest pricing mode
	Held     string     `json:"held"`     // the cheapest whose capacity is not reclaimed ("" = none priced)
	Sentence string     `json:"sentence"` // which term wins and why
}

// TermJSON is one pricing mode of the pick's fleet.
type TermJSON struct {
	Pricing    string   `json:"pricing"`
	Known      bool     `json:"known"`
	CostUSD    *float64 `json:"cost_usd"`
	PerHourUSD *float64 `json:"per_hour_usd"`
	// VsOnDemand is the cost over on-demand's (nil without an on-demand
	// price).
	VsOnDemand *float64 `json:"vs_on_demand"`
	// BreakEvenUse is, for a commitment, the share of the term the
	// capacity must be busy to beat on-demand; Use the share this job or
	// service uses.
	BreakEvenUse *float64 `json:"break_even_use,omitempty"`
	Use          *float64 `json:"use,omitempty"`
	// AllUpfrontPerHourUSD is the same term paid wholly upfront, effective
	// per fleet-hour, where sold.
	AllUpfrontPerHourUSD *float64 `json:"all_upfront_per_hour_usd,omitempty"`
	// ExpectedInterruptions and HoldProbability are a spot term's risk.
	ExpectedInterruptions *float64 `json:"expected_interruptions,omitempty"`
	HoldProbability       *float64 `json:"p_hold,omitempty"`
	Sentence              string   `json:"sentence"`
}

// AnswerPickJSON names one candidate of the answer.
type AnswerPickJSON struct {
	Rank     int      `json:"rank"`
	Offer    string   `json:"offer"`
	Region   string   `json:"region"`
	GPU      string   `json:"gpu"`
	GPUs     int      `json:"gpus"`
	Pricing  string   `json:"pricing"`
	Plan     string   `json:"plan"` // the plan sentence
	TotalUSD *float64 `json:"total_usd"`
	// Evidence is the published measurements nearest to this job, nearest
	// first (see perf.Evidence: source, url, date, measured, predicted,
	// unit, ratio, distance); units are in the answer's language.
	Evidence []perf.Evidence `json:"evidence,omitempty"`
	// EvidenceNote says, when no published measurement is near this job,
	// that the prediction rests on the model alone.
	EvidenceNote string `json:"evidence_note,omitempty"`
}

// FactorJSON is one factor that separates the pick from the runner-up.
type FactorJSON struct {
	Code     string   `json:"code"` // total_cost, duration, price_per_hour, throughput, ttft, ...
	Pick     *float64 `json:"pick"`
	RunnerUp *float64 `json:"runner_up"`
	Unit     string   `json:"unit"`
	// PickBetter is true when the pick is better on this factor (lower
	// cost or time, higher throughput).
	PickBetter bool   `json:"pick_better"`
	Sentence   string `json:"sentence"`
}

// AnswerCostJSON is the pick's cost by part.
type AnswerCostJSON struct {
	Unit         string   `json:"unit"` // USD or USD/month
	Compute      float64  `json:"compute"`
	Storage      float64  `json:"storage"`
	Egress       float64  `json:"egress"`
	Setup        float64  `json:"setup"`
	SpotOverhead float64  `json:"spot_overhead"`
	Porting      float64  `json:"porting,omitempty"`
	Total        float64  `json:"total"`
	P10          *float64 `json:"p10,omitempty"`
	P90          *float64 `json:"p90,omitempty"`
}

// RangeJSON is a value with its 80% interval.
type RangeJSON struct {
	Value float64  `json:"value"`
	P10   *float64 `json:"p10,omitempty"`
	P90   *float64 `json:"p90,omitempty"`
}

// ServiceAnswerJSON is a service's figures.
type ServiceAnswerJSON struct {
	Replicas            int      `json:"replicas"`
	PerHourUSD          *float64 `json:"per_hour_usd"`
	PerMonthUSD         *float64 `json:"per_month_usd"`
	PerMillionTokensUSD *float64 `json:"per_million_tokens_usd"`
	TTFTMs              *float64 `json:"ttft_ms"`
	TPOTMs              *float64 `json:"tpot_ms"`
	SLOTTFTMs           *float64 `json:"slo_ttft_ms,omitempty"`
	SLOTPOTMs           *float64 `json:"slo_tpot_ms,omitempty"`
	// An image-generation service's figures: the wall time of one
	// pipeline call of Batch images, s, its SLO and the SLO's percentile,
	// and USD per thousand images at the offered load.
	LatencyS             *float64 `json:"latency_s,omitempty"`
	Batch                int      `json:"batch,omitempty"`
	SLOLatencyS          *float64 `json:"slo_latency_s,omitempty"`
	SLOPercentile        *float64 `json:"slo_percentile,omitempty"`
	PerThousandImagesUSD *float64 `json:"per_thousand_images_usd,omitempty"`
}

// RiskJSON is one thing that could go wrong.
type RiskJSON struct {
	Code     string `json:"code"`  // spot_interruptions, deadline, reserved_underused, stack, compliance, stale_price, low_confidence, ...
	Level    string `json:"level"` // high, medium, low
	Sentence string `json:"sentence"`
}

// NearMissJSON is an excluded candidate one relaxed constraint would admit.
type NearMissJSON struct {
	Constraint string   `json:"constraint"` // e.g. constraints.deadline_hours
	Needed     *float64 `json:"needed"`     // the value that would admit it (null for constraints.pricing)
	// Pricing is the candidate's pricing mode (for constraints.pricing,
	// the mode to add).
	Pricing  string `json:"pricing,omitempty"`
	Offer    string `json:"offer"`
	Region   string `json:"region"`
	Sentence string `json:"sentence"`
}
