package workload

import (
	"reflect"
	"strings"

	"github.com/gpupick/gpupick/internal/schema"
)

//go:generate go test . -run TestSchemaDocs -update

// SchemaID is the $id of the workload file's JSON Schema.
const SchemaID = "https://github.com/gpupick/gpupick/schemas/workload.schema.json"

// JSONSchema is the JSON Schema (draft 2020-12) of a workload file,
// generated from Spec: every key the parser accepts with its type, the
// description from its doc comment, its values (canonical names; the
// parser also takes them in any case and some aliases) and its range
// (FieldRanges). Each call returns a new document.
func JSONSchema() schema.Node {
	b := &schema.Builder{Docs: specDocs, Hint: workloadHint}
	root := b.Object(reflect.TypeFor[Spec](), "")
	root["required"] = []string{"kind"}
	root["allOf"] = kindRules()
	root["description"] = "A gpupick workload file: one job (training, fine-tuning, inference, an image model or a generic GPU job), " +
		"its data, software stack, constraints, compliance needs and objective. Unknown keys are errors; every value left out " +
		"is filled with a default that the prediction lists. Enumerated values are matched ignoring case."
	return schema.Document(SchemaID, "gpupick workload", root)
}

// kindRules say, per kind, which blocks the file must have and which it
// must not (Parse's blocks: a block not needed is not used).
func kindRules() []any {
	var rules []any
	for _, k := range Kinds() {
		need := map[string]bool{
			"model":     k.IsLLM() || k == KindCNNTrain,
			"training":  k.IsTraining(),
			"inference": k == KindLLMInference,
			"generic":   k == KindGeneric,
			"image":     k == KindImageGeneration,
		}
		if k == KindImageGeneration {
			need["model"] = true
		}
		required, props := []string{}, schema.Node{}
		for _, b := range []string{"model", "training", "inference", "generic", "image"} {
			if need[b] {
				required = append(required, b)
			} else {
				props[b] = false
			}
		}
		rules = append(rules, schema.Node{
			"if":   schema.Node{"properties": schema.Node{"kind": schema.Node{"const": string(k)}}, "required": []string{"kind"}},
			"then": schema.Node{"required": required, "properties": props},
		})
	}
	return rules
}

// bothBool are the string fields that also take true or false.
var bothBool = map[string]string{
	"training.activation_checkpointing": "full",
	"compliance.confidential_computing": "required",
	"compliance.customer_managed_keys":  "required",
	"compliance.secure_boot":            "required",
}

// workloadHint adds to each field what its Go type cannot say.
func workloadHint(path string, n schema.Node) {
	switch path {
	case "kind":
		schema.Enum(n, Kinds()...)
	case "objective":
		schema.Enum(n, Objectives()...)
	case "model.preset":
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
			names = append(names, p.Aliases...)
		}
		n["examples"] = names
	case "model.arch":
		schema.Enum(n, Archs()...)
	case "training.method":
		schema.Enum(n, Methods()...)
	case "training.precision":
		schema.Enum(n, TrainingPrecisions()...)
	case "training.activation_checkpointing":
		schema.Enum(n, Checkpointings()...)
	case "training.optimizer_precision":
		schema.Enum(n, FP32, BF16)
	case "inference.weight_precision":
		schema.Enum(n, WeightPrecisions()...)
	case "inference.kv_precision":
		kv := []Precision{PrecisionAuto}
		for _, p := range Precisions() {
			if p != TF32 { // a compute mode, not a storage format
				kv = append(kv, p)
			}
		}
		schema.Enum(n, kv...)
	case "inference.attention_precision":
		schema.Enum(n, PrecisionAuto, BF16, FP16, FP8)
	case "generic.precision", "image.precision", "model.vae_precision":
		schema.Enum(n, Precisions()...)
	case "inference.batching":
		schema.Enum(n, Batchings()...)
	case "parallelism.sharding":
		schema.Enum(n, append(Shardings(), "zero3")...) // zero3 is fsdp's other name
	case "parallelism.expert_overlap":
		schema.Enum(n, ExpertOverlaps()...)
	case "parallelism.schedule":
		schema.Enum(n, Schedules()...)
	case "data.storage":
		schema.Enum(n, Storages()...)
	case "stack.framework":
		schema.Enum(n, Frameworks()...)
	case "stack.vendors[]":
		schema.Enum(n, Vendors()...)
	case "stack.build":
		schema.Enum(n, Builds()...)
	case "stack.version":
		n["type"] = []string{"string", "number"} // 2.4 is read as ">=2.4"
	case "constraints.pricing[]":
		schema.Enum(n, PricingModes()...)
	case "constraints.providers[]", "data.location.provider":
		n["pattern"] = slugRe.String()
	case "compliance.countries[]", "compliance.exclude_jurisdictions[]":
		n["pattern"] = "^[A-Za-z]{2}$"
	case "compliance.certifications[]":
		n["examples"] = Certifications()
	case "compliance.confidential_computing", "compliance.customer_managed_keys", "compliance.secure_boot":
		schema.Enum(n, Requirements()...)
	case "service.availability":
		schema.Enum(n, Availabilities()...)
	case "service.traffic":
		schema.Enum(n, Traffics()...)
	case "compliance.operators[]":
		schema.Enum(n, Operators()...)
	}
	if t, ok := bothBool[path]; ok {
		n["type"] = []string{"string", "boolean"}
		n["enum"] = append(n["enum"].([]string), "true", "false")
		n["description"] = strings.TrimSpace(n["description"].(string) + " true means " + t + ", false no.")
		// JSON Schema enums compare with type: the booleans are their own values.
		vals := []any{}
		for _, v := range n["enum"].([]string) {
			switch v {
			case "true":
				vals = append(vals, true)
			case "false":
				vals = append(vals, false)
			default:
				vals = append(vals, v)
			}
		}
		n["enum"] = vals
	}
	if n["type"] == "number" || n["type"] == "integer" {
		r, ok := FieldRanges[path]
		if !ok {
			r = extraRanges[path]
		}
		schema.Range(n, 0, openBelow[path], r.Max)
	}
}

// extraRanges are the bounds of numeric fields FieldRanges leaves out
// because the parser checks them with their own message.
var extraRanges = map[string]FieldRange{
	"inference.output_tokens_cv":       {10, "standard deviation over mean of the output length"},
	"constraints.reserved_utilization": {1, "share of the term"},
	"service.peak_requests_per_second": {2e7, "requests/s: at most twice the mean, itself at most 1e7"},
	"compliance.mlps_level":            {5, "MLPS 2.0 levels run from 1 to 5"},
	"inference.speculative_tokens":     {16, "draft tokens per step; published drafts propose 1-8"},
	"inference.admission_wait_steps":   {1000, "decode steps; published balancing waits 3-9"},
	"inference.speculative_acceptance": {0.99, "chance a draft token is accepted"},
}

// openBelow are the fields that, when given, must be above 0.
var openBelow = map[string]bool{
	"inference.slo.percentile": true,
	"image.slo.percentile":     true,
}
