package autoscale

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// Variant is one entry of a service file's compare block: a name, and the
// parts of the service that differ from the file's own. Policy replaces the
// file's policy whole; Service and Pricing override the keys they give
// (a cold_start_s given here replaces the file's cold-start parts, and
// parts given here replace its cold_start_s). Traffic and SLO are shared,
// so that the variants face the same requests and the same bound.
type Variant struct {
	Name    string   `yaml:"name" json:"name"`                 // labels the variant in the comparison; unique in the file
	Service *Service `yaml:"service" json:"service,omitempty"` // keys that override the file's service block
	Policy  *Policy  `yaml:"policy" json:"policy,omitempty"`   // replaces the file's policy block
	Pricing *Pricing `yaml:"pricing" json:"pricing,omitempty"` // keys that override the file's pricing block
}

var coldParts = []string{"provisioning_s", "image_pull_s", "model_gb", "storage_gbps"}

// Variants builds the complete spec of each entry of the compare block of
// the service file data (whose ParseSpec is base), in order; each is
// parsed and completed as a file of its own would be, its Name the entry's.
// Errors are Invalid, name the field as compare[i].policy.replicas (or the
// file's own field when the entry inherits it) and its line in data.
func Variants(data []byte, base *Spec) ([]*Spec, error) {
	if len(base.Compare) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, invalidf("compare", "the file is not a mapping")
	}
	root := doc.Content[0]
	lines := strictyaml.IndexLines(data)
	var items *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "compare" {
			items = root.Content[i+1]
		}
	}
	if items == nil || items.Kind != yaml.SequenceNode || len(items.Content) != len(base.Compare) {
		return nil, invalidf("compare", "want a list of variants")
	}
	var errs apperr.List
	seen := map[string]bool{}
	var out []*Spec
	for i, item := range items.Content {
		prefix := fmt.Sprintf("compare[%d]", i)
		name := base.Compare[i].Name
		if name == "" {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, Field: prefix + ".name", Line: lines.Line(prefix), Msg: "required: a name for the variant"})
			continue
		}
		if seen[name] {
			errs = append(errs, &apperr.Error{Code: apperr.Invalid, Field: prefix + ".name", Line: lines.Line(prefix + ".name"), Message: msg.New("%q names another variant too", name)})
			continue
		}
		seen[name] = true
		merged := mergeVariant(root, item, name)
		b, err := yaml.Marshal(merged)
		if err != nil {
			return nil, err
		}
		spec, err := ParseSpec(b)
		if err != nil {
			errs = append(errs, relocate(err, prefix, item, lines)...)
			continue
		}
		spec.Compare = nil
		spec.at = func(field string) (string, int) {
			e := relocate(invalidf(field, ""), prefix, item, lines)[0]
			return e.Field, e.Line
		}
		out = append(out, spec)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// mergeVariant returns a copy of root (the file's mapping) with item's
// blocks applied and no compare block.
func mergeVariant(root, item *yaml.Node, name string) *yaml.Node {
	over := map[string]*yaml.Node{}
	for i := 0; i+1 < len(item.Content); i += 2 {
		over[item.Content[i].Value] = item.Content[i+1]
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, v)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case "compare":
			continue
		case "name":
			add(k, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name})
			continue
		}
		o, ok := over[k]
		switch {
		case !ok:
			add(k, v)
		case k == "policy" || v.Kind != yaml.MappingNode || o.Kind != yaml.MappingNode:
			add(k, o)
		default:
			add(k, mergeKeys(v, o, k == "service"))
		}
	}
	for _, k := range []string{"service", "policy", "pricing"} {
		if o, ok := over[k]; ok && !hasKey(root, k) {
			add(k, o)
		}
	}
	return m
}

// mergeKeys overrides the keys of base with those of o; for the service
// block, a cold start given one way drops the other way's keys.
func mergeKeys(base, o *yaml.Node, service bool) *yaml.Node {
	drop := map[string]bool{}
	for i := 0; i+1 < len(o.Content); i += 2 {
		k := o.Content[i].Value
		drop[k] = true
		if service && k == "cold_start_s" {
			for _, p := range coldParts {
				drop[p] = true
			}
		}
		if service && strings.Contains(strings.Join(coldParts, ","), k) {
			drop["cold_start_s"] = true
		}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(base.Content); i += 2 {
		if !drop[base.Content[i].Value] {
			m.Content = append(m.Content, base.Content[i], base.Content[i+1])
		}
	}
	m.Content = append(m.Content, o.Content...)
	return m
}

func hasKey(m *yaml.Node, k string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			return true
		}
	}
	return false
}

// relocate points the errors of a variant's merged spec at the file: a
// field the entry gives (or a block it replaces) becomes compare[i].field
// at its line there; an inherited one keeps its name and line.
func relocate(err error, prefix string, item *yaml.Node, lines strictyaml.Lines) apperr.List {
	var list apperr.List
	var one *apperr.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = apperr.List{one}
	default:
		return apperr.List{{Code: apperr.Invalid, Field: prefix, Line: lines.Line(prefix), Msg: err.Error()}}
	}
	out := make(apperr.List, 0, len(list))
	for _, e := range list {
		c := *e
		top, _, _ := strings.Cut(c.Field, ".")
		if lines.Has(prefix+"."+c.Field) || (top != "" && (top == "policy" && lines.Has(prefix+".policy") || lines.Has(prefix+"."+c.Field))) {
			c.Field = prefix + "." + c.Field
			c.Line = lines.Line(c.Field)
		} else if c.Field != "" && lines.Has(c.Field) {
			c.Line = lines.Line(c.Field)
		} else {
			// A key the entry's block left out but needs: point at the entry.
			if lines.Has(prefix + "." + top) {
				c.Field = prefix + "." + c.Field
			}
			c.Line = lines.Line(prefix + "." + c.Field)
			if c.Line == 0 {
				c.Line = lines.Line(prefix)
			}
		}
		out = append(out, &c)
	}
	return out
}

// Comparison is the result of simulating the variants of one service file
// over the same requests.
type Comparison struct {
	Name string `json:"name"`
	// SLO is the shared objective (latency bound and target fraction).
	SLO SLO `json:"slo"`
	// Rows, one per variant, in the file's order.
	Rows []CompareRow `json:"rows"`
	// Results are the variants' full runs, in the same order (for charts).
	Results []*Result `json:"-"`
}

// CompareRow is one variant's summary: money in USD, times in seconds.
type CompareRow struct {
	Name                 string  `json:"name"`
	Policy               string  `json:"policy"`
	CostUSD              float64 `json:"cost_usd"`
	CostPerKRequestsUSD  float64 `json:"cost_per_1k_requests_usd"` // over completed requests; 0 when none completed
	P50LatencyS          float64 `json:"p50_latency_s"`
	P95LatencyS          float64 `json:"p95_latency_s"`
	P99LatencyS          float64 `json:"p99_latency_s"`
	SLOViolationFraction float64 `json:"slo_violation_fraction"`
	SLOMet               bool    `json:"slo_met"`
	MeanReplicas         float64 `json:"mean_replicas"`
	PeakReplicas         int     `json:"peak_replicas"`
	ColdStarts           int64   `json:"cold_starts"`
	Requests             int64   `json:"requests"`
	Completed            int64   `json:"completed"`
	// Cheapest marks the cheapest variant that meets the SLO.
	Cheapest bool `json:"cheapest_meeting_slo"`
}

// Compare simulates each spec with its batching model (models[i]; nil
// for a distribution service, and models may be nil when every spec is
// one) over its own synthetic traffic, which is the same for all since
// they share the traffic block, or over the requests src returns for each
// run (nil: synthetic), and sums them up.
func Compare(name string, specs []*Spec, models []*BatchModel, src func() Source, opts Options) (*Comparison, error) {
	if len(specs) == 0 {
		return nil, invalidf("compare", "no variants to compare")
	}
	if models != nil && len(models) != len(specs) {
		return nil, invalidf("compare", "%d batching models for %d variants", len(models), len(specs))
	}
	c := &Comparison{Name: name, SLO: specs[0].SLO}
	best := -1
	for i, sp := range specs {
		var model *BatchModel
		if models != nil {
			model = models[i]
		}
		if sp.Service.Kind == ServiceModel && model == nil {
			return nil, invalidf("service.kind", "variant %q is a model service: compare needs its batching model", sp.Name)
		}
		if opts.Context != nil && opts.Context.Err() != nil {
			return nil, opts.Context.Err()
		}
		var s Source
		if src != nil {
			s = src()
		}
		r, err := Simulate(sp, s, model, opts)
		if err != nil {
			return nil, err // the variant is named by its spec (Name) in the error of Simulate
		}
		row := CompareRow{Name: sp.Name, Policy: sp.Policy.Kind, CostUSD: r.CostUSD,
			P50LatencyS: r.Latency.P50S, P95LatencyS: r.Latency.P95S, P99LatencyS: r.Latency.P99S,
			SLOViolationFraction: r.SLOViolationFraction, SLOMet: r.SLOMet, MeanReplicas: r.MeanReplicas,
			PeakReplicas: r.PeakReplicas, ColdStarts: r.ColdStarts, Requests: r.Requests, Completed: r.Completed}
		if r.Completed > 0 {
			row.CostPerKRequestsUSD = r.CostUSD / float64(r.Completed) * 1000
		}
		if row.SLOMet && (best < 0 || row.CostUSD < c.Rows[best].CostUSD) {
			best = i
		}
		c.Rows = append(c.Rows, row)
		c.Results = append(c.Results, r)
	}
	if best >= 0 {
		c.Rows[best].Cheapest = true
	}
	return c, nil
}
