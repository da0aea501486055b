package autoscale

import (
	"errors"
	"flag"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/schema"
	"github.com/gpupick/gpupick/internal/schema/godoc"
)

var update = flag.Bool("update", false, "rewrite generated files")

// TestSchemaDocs keeps schema_docs.go, the comments the schema describes
// fields with, equal to the comments in spec.go (go generate rewrites it).
func TestSchemaDocs(t *testing.T) {
	if err := godoc.Sync("autoscale", "specDocs", "schema_docs.go", *update, "spec.go", "compare.go"); err != nil {
		t.Error(err)
	}
}

// serviceFor is a valid service file, as a map, in which path applies.
func serviceFor(path string) map[string]any {
	doc := map[string]any{
		"traffic": map[string]any{"kind": "poisson", "rate_per_s": 1},
		"service": map[string]any{"kind": "distribution", "mean_s": 1},
		"policy":  map[string]any{"kind": "fixed", "replicas": 1},
		"pricing": map[string]any{"per_hour_usd": 1},
	}
	block, key, _ := strings.Cut(path, ".")
	top, _, _ := strings.Cut(key, ".")
	set := func(b string, kv ...any) {
		m := doc[b].(map[string]any)
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
	}
	switch block {
	case "traffic":
		for k, keys := range keysByTraffic {
			if slices.Contains(keys, top) {
				doc["traffic"] = map[string]any{"kind": k, "rate_per_s": 1}
			}
		}
		if top == "time_scale" {
			doc["traffic"] = map[string]any{"kind": "trace", "format": "plain"}
		}
		if top == "token_cv" {
			set("traffic", "token_dist", "lognormal")
		}
	case "service":
		switch top {
		case "cv":
			set("service", "distribution", "lognormal")
		case "tensor_parallel", "pipeline_parallel", "expert_parallel":
			// a model service's keys: parsing does not read the workload
			doc["service"] = map[string]any{"kind": "model", "workload": "w.yaml", "offer": "aws/p5.48xlarge"}
		}
	case "policy":
		kinds := []string{PolicyFixed, PolicyTarget, PolicyKnative, PolicyServerless, PolicyMixed}
		for _, k := range kinds {
			if slices.Contains(keysByPolicy[k], top) {
				doc["policy"] = map[string]any{"kind": k}
				break
			}
		}
		if top == "fallback" {
			doc["policy"] = map[string]any{"kind": "mixed", "fallback": map[string]any{"speed": 0.5, "below_rps": 1}}
			set("pricing", "fallback_per_hour_usd", 1)
		}
	case "pricing":
		switch top {
		case "spot_per_hour_usd":
			doc["policy"] = map[string]any{"kind": "mixed"}
		case "fallback_per_hour_usd":
			doc["policy"] = map[string]any{"kind": "mixed", "fallback": map[string]any{"speed": 0.5, "below_rps": 1}}
		}
	}
	return doc
}

// withValue sets path in doc to v and writes the file.
func withValue(t *testing.T, doc map[string]any, path string, v any) []byte {
	t.Helper()
	parts := strings.Split(path, ".")
	m := doc
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = v
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// refuses reports whether ParseSpec refuses data at field.
func refuses(data []byte, field string) (bool, error) {
	_, err := ParseSpec(data)
	var l apperr.List
	if errors.As(err, &l) {
		for _, e := range l {
			if e.Field == field {
				return true, err
			}
		}
	}
	return false, err
}

// numeric is the value v for a field of schema type typ.
func numeric(typ any, v float64) any {
	if typ == "integer" {
		return int64(v)
	}
	return v
}

// TestFieldRanges: ParseSpec refuses a number just outside each range
// and takes the bounds themselves; the schema states every range, and
// every number of the schema has one.
func TestFieldRanges(t *testing.T) {
	// The bound itself breaks another rule with these files: a sum of
	// cold-start parts, min <= max, a spike shorter than its period; a
	// duration of 0 is a trace's whole length, a rate of 0 only for spikes.
	crossed := map[string]bool{
		"traffic.duration_s": true, "traffic.rate_per_s": true,
		"service.provisioning_s": true, "service.image_pull_s": true, "service.model_gb": true,
		"policy.min_replicas": true, "policy.initial_replicas": true, "policy.min_workers": true, "policy.spot.min_replicas": true,
		"traffic.spike_duration_s": true, "traffic.spike_every_s": true,
		"policy.fallback.mean_s": true, // with the test file's speed: one or the other
	}
	seen := map[string]bool{}
	nodes := map[string]schema.Node{}
	schema.Walk(JSONSchema(), func(path string, n schema.Node) { nodes[path] = n })
	schema.Walk(JSONSchema(), func(path string, n schema.Node) {
		typ := n["type"]
		if typ != "number" && typ != "integer" {
			return
		}
		// A compare variant's key is parsed as the file's own key is: its
		// schema states the same bounds, which the file's key proves below.
		if own, ok := strings.CutPrefix(path, "compare[]."); ok {
			for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
				if !reflect.DeepEqual(n[k], nodes[own][k]) {
					t.Errorf("%s: %s %v, but %v for %s", path, k, n[k], nodes[own][k], own)
				}
			}
			return
		}
		seen[path] = true
		r, ok := FieldRanges[path]
		if !ok {
			if path != "traffic.seed" {
				t.Errorf("%s: a number with no range in FieldRanges", path)
			}
			return
		}
		above := r.Max * 1.5
		if typ == "integer" {
			above = math.Floor(r.Max) + 1
		}
		if bad, err := refuses(withValue(t, serviceFor(path), path, numeric(typ, above)), path); !bad {
			t.Errorf("%s = %v: above the range's maximum %v, not refused (%v)", path, above, r.Max, err)
		}
		below := r.Min
		if !r.Open {
			below = r.Min - math.Max(1, r.Min)/2
			if typ == "integer" {
				below = r.Min - 1
			}
		}
		if bad, err := refuses(withValue(t, serviceFor(path), path, numeric(typ, below)), path); !bad {
			t.Errorf("%s = %v: below the range's minimum %v, not refused (%v)", path, below, r.Min, err)
		}
		if crossed[path] {
			return
		}
		if bad, err := refuses(withValue(t, serviceFor(path), path, numeric(typ, r.Max)), path); bad {
			t.Errorf("%s = %v (the maximum) refused: %v", path, r.Max, err)
		}
		if !r.Open {
			if bad, err := refuses(withValue(t, serviceFor(path), path, numeric(typ, r.Min)), path); bad {
				t.Errorf("%s = %v (the minimum) refused: %v", path, r.Min, err)
			}
		}
	})
	for path := range FieldRanges {
		if !seen[path] {
			t.Errorf("FieldRanges has %s, which is no number of the schema", path)
		}
	}
}

// TestFieldEnums: ParseSpec takes each value of an enum and refuses
// another.
func TestFieldEnums(t *testing.T) {
	for path, vals := range FieldEnums {
		for _, v := range vals {
			doc := serviceFor(path)
			switch {
			case path == "traffic.kind" && v == TrafficTrace:
				doc["traffic"] = map[string]any{"format": "plain"}
			case path == "service.kind" && v == ServiceModel:
				doc["service"] = map[string]any{"workload": "w.yaml", "offer": "aws/p5.48xlarge"}
			case path == "traffic.format":
				doc["traffic"] = map[string]any{"kind": "trace"}
			case path == "policy.kind" && v == PolicyFixed:
				doc["policy"] = map[string]any{"replicas": 1}
			case path == "policy.kind":
				doc["policy"] = map[string]any{}
			case path == "policy.metric":
				doc["policy"] = map[string]any{"kind": "target"}
			}
			if bad, err := refuses(withValue(t, doc, path, v), path); bad {
				t.Errorf("%s = %q is in FieldEnums but refused: %v", path, v, err)
			}
		}
		doc := serviceFor(path)
		if path == "traffic.format" {
			doc["traffic"] = map[string]any{"kind": "trace"}
		}
		if path == "policy.metric" {
			doc["policy"] = map[string]any{"kind": "target"}
		}
		if bad, _ := refuses(withValue(t, doc, path, "psychic"), path); !bad {
			t.Errorf("%s = psychic taken: FieldEnums does not list every check", path)
		}
	}
}

// TestSchemaDescribesEveryKey: every key of a service file has a
// description (a comment on its field in spec.go).
func TestSchemaDescribesEveryKey(t *testing.T) {
	schema.Walk(JSONSchema(), func(path string, n schema.Node) {
		if d, _ := n["description"].(string); d == "" {
			t.Errorf("%s: no description (comment the field in spec.go and run go generate)", path)
		}
	})
}
