package autoscale

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/schema"
)

//go:generate go test . -run TestSchemaDocs -update

// SchemaID is the $id of the service file's JSON Schema.
const SchemaID = "https://github.com/gpupick/gpupick/schemas/service.schema.json"

// FieldRange is the interval a number of a service file must lie in:
// from Min (excluded when Open) to Max. ParseSpec enforces it; the schema
// states it, and a test keeps the two equal.
type FieldRange struct {
	Min  float64
	Open bool
	Max  float64
}

// FieldRanges are the ranges of a service file's numbers, by field path.
var FieldRanges = map[string]FieldRange{
	"traffic.rate_per_s":       {0, false, MaxRatePerS},
	"traffic.duration_s":       {0, false, MaxHorizonS},
	"traffic.prompt_tokens":    {0, false, MaxTokens},
	"traffic.output_tokens":    {0, false, MaxTokens},
	"traffic.token_cv":         {0, true, MaxCV},
	"traffic.peak_hour":        {0, false, 24},
	"traffic.amplitude":        {0, false, 1},
	"traffic.start_hour":       {0, false, 24},
	"traffic.burst_multiplier": {1, false, 1000},
	"traffic.burst_mean_s":     {0.01, false, MaxHorizonS},
	"traffic.calm_mean_s":      {0.01, false, MaxHorizonS},
	"traffic.spike_every_s":    {0.01, false, MaxHorizonS},
	"traffic.spike_duration_s": {0, true, MaxHorizonS},
	"traffic.spike_rate_per_s": {0, false, MaxRatePerS},
	"traffic.time_scale":       {MinTimeScale, false, MaxTimeScale},

	"service.mean_s":                {0, true, MaxDayS},
	"service.cv":                    {0, true, MaxCV},
	"service.concurrency":           {1, false, MaxConcurrency},
	"service.cold_start_s":          {0, false, MaxDayS},
	"service.provisioning_s":        {0, false, MaxDayS},
	"service.image_pull_s":          {0, false, MaxDayS},
	"service.model_gb":              {0, false, MaxModelGB},
	"service.storage_gbps":          {0, true, MaxStorageGBps},
	"service.gpus_per_replica":      {0, false, 1024},
	"service.max_queue":             {0, false, 1 << 26},
	"service.timeout_s":             {0, false, MaxDayS},
	"service.replicas_per_instance": {1, false, MaxReplicasPerInstance},
	"service.tensor_parallel":       {1, false, MaxParallel},
	"service.pipeline_parallel":     {1, false, MaxParallel},
	"service.expert_parallel":       {1, false, MaxParallel},
	"policy.fallback.mean_s":        {0, true, MaxDayS},

	"policy.replicas":                    {1, false, maxFleet},
	"policy.target":                      {0, true, MaxConcurrency},
	"policy.polling_interval_s":          {0.1, false, 3600},
	"policy.scale_up_stabilization_s":    {0, false, 3600},
	"policy.scale_down_stabilization_s":  {0, false, 3600},
	"policy.cooldown_s":                  {0, false, MaxDayS},
	"policy.tolerance":                   {0, false, 1},
	"policy.min_replicas":                {0, false, maxFleet},
	"policy.max_replicas":                {1, false, maxFleet},
	"policy.initial_replicas":            {0, false, maxFleet},
	"policy.target_concurrency":          {0, true, MaxConcurrency},
	"policy.target_utilization":          {0, true, 1},
	"policy.stable_window_s":             {6, false, 3600},
	"policy.panic_window_pct":            {1, false, 100},
	"policy.panic_threshold_pct":         {110, false, 1000},
	"policy.max_scale_up_rate":           {1, true, maxFleet},
	"policy.max_scale_down_rate":         {1, true, maxFleet},
	"policy.scale_to_zero_grace_s":       {0, false, MaxDayS},
	"policy.tick_s":                      {0.1, false, 60},
	"policy.min_workers":                 {0, false, maxFleet},
	"policy.max_workers":                 {1, false, maxFleet},
	"policy.idle_timeout_s":              {0, false, MaxDayS},
	"policy.requests_per_worker":         {0, false, MaxConcurrency},
	"policy.on_demand.replicas":          {0, false, maxFleet},
	"policy.spot.max_replicas":           {0, false, maxFleet},
	"policy.spot.min_replicas":           {0, false, maxFleet},
	"policy.spot.interruptions_per_hour": {0, false, 3600},
	"policy.spot.notice_s":               {0, false, MaxDayS},
	"policy.spot.cold_start_s":           {0, false, MaxDayS},
	"policy.fallback.replicas":           {1, false, maxFleet},
	"policy.fallback.speed":              {0, true, 1},
	"policy.fallback.below_rps":          {0, true, MaxRatePerS},
	"policy.fallback.window_s":           {0, true, MaxDayS},
	"policy.fallback.cold_start_s":       {0, false, MaxDayS},

	"slo.latency_s": {0, false, MaxDayS},
	"slo.ttft_s":    {0, false, MaxDayS},
	"slo.target":    {0, true, 1},

	"pricing.per_hour_usd":          {0, false, MaxPricePerHourUSD},
	"pricing.spot_per_hour_usd":     {0, false, MaxPricePerHourUSD},
	"pricing.fallback_per_hour_usd": {0, false, MaxPricePerHourUSD},
	"pricing.billing_granularity_s": {0, false, MaxBillingGranularityS},
	"pricing.reserved_per_hour_usd": {0, true, MaxPricePerHourUSD},
}

// FieldEnums are the values of a service file's named choices, by field
// path. ParseSpec takes exactly these (case matters).
var FieldEnums = map[string][]string{
	"traffic.kind":         {TrafficConstant, TrafficPoisson, TrafficDiurnal, TrafficBursty, TrafficSpikes, TrafficTrace},
	"traffic.token_dist":   {"fixed", "exponential", "lognormal"},
	"traffic.format":       {FormatAzure, FormatBurstGPT, FormatPlain},
	"service.kind":         {ServiceModel, ServiceDistribution},
	"service.distribution": {"exponential", "deterministic", "lognormal"},
	"policy.kind":          {PolicyFixed, PolicyTarget, PolicyKnative, PolicyServerless, PolicyMixed},
	"policy.metric":        {"in_flight", "queue"},
}

// JSONSchema is the JSON Schema (draft 2020-12) of a service file
// (SERVICE.yaml), generated from Spec: every key ParseSpec accepts with
// its type, its comment, its values (FieldEnums), its range (FieldRanges)
// and, for traffic and policy keys, the kinds that use it. Each call
// returns a new document.
func JSONSchema() schema.Node {
	b := &schema.Builder{Docs: specDocs, Hint: serviceHint}
	root := b.Object(reflect.TypeFor[Spec](), "")
	root["required"] = []string{"traffic", "service", "policy"}
	root["description"] = "A gpupick service file: the traffic a service receives, how one replica serves it, the scaling policy, " +
		"the SLO and the prices, for gpupick simulate. Unknown keys are errors, and so are keys the chosen traffic or policy kind " +
		"does not use; every value left out is filled with a default the result lists."
	props := root["properties"].(schema.Node)
	for _, block := range []string{"traffic", "service", "policy"} {
		n := props[block].(schema.Node)
		n["type"] = "object" // required, and not empty
		n["required"] = []string{"kind"}
	}
	return schema.Document(SchemaID, "gpupick service", root)
}

func serviceHint(path string, n schema.Node) {
	// A compare variant's blocks are the file's own: the same values,
	// bounds and kinds apply.
	path = strings.TrimPrefix(path, "compare[].")
	if vals, ok := FieldEnums[path]; ok {
		schema.Enum(n, vals...)
	}
	if r, ok := FieldRanges[path]; ok {
		schema.Range(n, r.Min, r.Open, r.Max)
	}
	block, key, ok := strings.Cut(path, ".")
	if !ok || key == "kind" {
		return
	}
	key, _, _ = strings.Cut(key, ".")
	var used map[string][]string
	switch block {
	case "traffic":
		if slices.Contains(commonTrafficKeys, key) {
			return
		}
		used = keysByTraffic
	case "policy":
		used = keysByPolicy
	default:
		return
	}
	var kinds []string
	for k, keys := range used {
		if slices.Contains(keys, key) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return
	}
	slices.Sort(kinds)
	d, _ := n["description"].(string)
	if d != "" && !strings.HasSuffix(d, ".") {
		d += "."
	}
	n["description"] = strings.TrimSpace(fmt.Sprintf("%s Used by %s kind %s.", d, block, strings.Join(kinds, ", ")))
}
