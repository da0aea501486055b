// Package fit calibrates the performance model on published measurements
// and scores it: the cases (testdata/published.yaml, every row of the
// project's validation set with its source), the evaluation of a case
// under given parameters, a regularised fit of the model's fitted factors,
// leave-one-source-out validation, prediction intervals from held-out
// residuals, and the accuracy report (docs/accuracy.md). It does no I/O:
// cmd/perffit reads and writes the files.
package fit

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// published holds the validation cases: testdata/published.yaml (the
// project's validation set and the first rows gathered beyond it) and one
// published-*.yaml file per later gathering, each a list of cases.
//
//go:embed testdata/published*.yaml
var published embed.FS

// Published returns the embedded validation cases, every file's in turn
// (published.yaml first, the others by name); an id may appear once in all.
func Published() ([]Case, error) {
	names, err := fs.Glob(published, "testdata/published*.yaml")
	if err != nil {
		return nil, err
	}
	first := func(n string) int { // published.yaml, then the others by name
		if path.Base(n) == "published.yaml" {
			return 0
		}
		return 1
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(first(a), first(b)), strings.Compare(a, b)) })
	var out []Case
	seen := map[string]string{}
	for _, name := range names {
		b, err := published.ReadFile(name)
		if err != nil {
			return nil, err
		}
		cs, err := ParseCases(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Base(name), err)
		}
		for i := range cs {
			c := &cs[i]
			if f, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("%s: case %s is also in %s", path.Base(name), c.ID, f)
			}
			seen[c.ID] = path.Base(name)
			c.File = path.Base(name)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// Case is one published measurement and how to predict it.
type Case struct {
	ID     string  `yaml:"id"`
	Group  string  `yaml:"group"`  // publisher and document: the unit left out in validation
	Source string  `yaml:"source"` // where the number was read
	Date   string  `yaml:"date"`
	Kind   string  `yaml:"kind"` // train, finetune_lora, finetune_qlora, cnn_train, infer_offline, infer_server, memory, cnn_infer, image_gen
	Value  float64 `yaml:"-"`
	Unit   string  `yaml:"unit"`
	Metric string  `yaml:"metric"`
	// NotScored says why the row cannot be compared with a prediction.
	NotScored string `yaml:"not_scored"`
	// Assumed marks a row whose set-up was partly inferred.
	Assumed bool `yaml:"assumed"`
	// Extra marks a row gathered beyond the project's validation set.
	Extra    bool     `yaml:"extra"`
	Hardware Hardware `yaml:"hardware"`
	Notes    string   `yaml:"notes"`
	// File is the testdata file the case was read from (published.yaml,
	// or a later gathering's published-*.yaml); set by Published.
	File string `yaml:"-"`

	Spec *workload.Spec `yaml:"-"`
}

// Hardware is where a case ran.
type Hardware struct {
	GPU        string  `yaml:"gpu"`
	GPUs       int     `yaml:"gpus"`
	Nodes      int     `yaml:"nodes"`
	FabricGbps float64 `yaml:"fabric_gbps"` // per node
	Fabric     string  `yaml:"fabric"`
}

// metrics maps a metric name to how a prediction is read.
var metrics = map[string]func(p perf.Prediction, peakTFLOPS float64) (float64, bool){
	"tokens_per_gpu": func(p perf.Prediction, _ float64) (float64, bool) { return p.Throughput.Value / float64(p.GPUs), true },
	"throughput":     func(p perf.Prediction, _ float64) (float64, bool) { return p.Throughput.Value, true },
	// The decode pool of a disaggregated service, per decode GPU, as fast
	// as it goes (runs that keep the decode pool saturated).
	"decode_tokens_per_gpu": func(p perf.Prediction, _ float64) (float64, bool) {
		if p.Serving == nil || p.Serving.DecodeTokensS == 0 {
			return 0, false
		}
		return p.Serving.DecodeTokensS / float64(p.GPUs-p.Parallelism.PrefillGPUs), true
	},
	"mfu_pct": func(p perf.Prediction, _ float64) (float64, bool) { return p.MFU * 100, true },
	"pflops": func(p perf.Prediction, peak float64) (float64, bool) {
		return p.MFU * peak * float64(p.GPUs) / 1000, true
	},
	"tflops_per_gpu": func(p perf.Prediction, peak float64) (float64, bool) { return p.MFU * peak, true },
	"step_time_s":    func(p perf.Prediction, _ float64) (float64, bool) { return p.StepTimeS, p.StepTimeS > 0 },
	"ttft_ms": func(p perf.Prediction, _ float64) (float64, bool) {
		if p.TTFTMs == nil {
			return 0, false
		}
		return *p.TTFTMs, true
	},
	"tpot_ms": func(p perf.Prediction, _ float64) (float64, bool) {
		if p.TPOTMs == nil {
			return 0, false
		}
		return *p.TPOTMs, true
	},
	"latency_s": func(p perf.Prediction, _ float64) (float64, bool) {
		if p.LatencyS == nil {
			return 0, false
		}
		return *p.LatencyS, true
	},
	"steps_per_s":           func(p perf.Prediction, _ float64) (float64, bool) { return 1 / p.StepTimeS, p.StepTimeS > 0 },
	"memory_gib":            func(p perf.Prediction, _ float64) (float64, bool) { return p.MemoryPerGPUGB / 1.073741824, true },
	"activation_memory_gib": func(p perf.Prediction, _ float64) (float64, bool) { return p.Memory.ActivationsGB / 1.073741824, true },
	"duration_min": func(p perf.Prediction, _ float64) (float64, bool) {
		if p.DurationHours == nil {
			return 0, false
		}
		return *p.DurationHours * 60, true
	},
}

// higherIsFaster reports whether a larger value of metric means a faster
// system (throughput) rather than a slower one (latency, time).
func higherIsFaster(metric string) bool {
	switch metric {
	case "step_time_s", "ttft_ms", "tpot_ms", "duration_min", "memory_gib", "activation_memory_gib", "latency_s":
		return false
	}
	return true
}

// ParseCases decodes a cases file. Each case's workload must parse as a
// gpupick workload file; errors name the case and the field.
func ParseCases(data []byte) ([]Case, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("cases: want a list of cases")
	}
	var out []Case
	seen := map[string]bool{}
	for i, n := range doc.Content[0].Content {
		var raw struct {
			Case     `yaml:",inline"`
			Value    *float64  `yaml:"value"`
			Workload yaml.Node `yaml:"workload"`
		}
		dec := n.Decode
		if err := dec(&raw); err != nil {
			return nil, fmt.Errorf("cases[%d] (line %d): %w", i, n.Line, err)
		}
		c := raw.Case
		where := fmt.Sprintf("cases[%d] %s (line %d)", i, c.ID, n.Line)
		switch {
		case c.ID == "":
			return nil, fmt.Errorf("%s: id is required", where)
		case seen[c.ID]:
			return nil, fmt.Errorf("%s: id appears twice", where)
		case c.Group == "" || c.Source == "":
			return nil, fmt.Errorf("%s: group and source are required", where)
		case raw.Value == nil || !(*raw.Value > 0) || math.IsInf(*raw.Value, 0):
			return nil, fmt.Errorf("%s: value must be a number > 0", where)
		case metrics[c.Metric] == nil:
			return nil, fmt.Errorf("%s: metric %q is not one of %s", where, c.Metric, strings.Join(metricNames(), ", "))
		case c.Hardware.GPU == "" || c.Hardware.GPUs < 1:
			return nil, fmt.Errorf("%s: hardware.gpu and hardware.gpus are required", where)
		case raw.Workload.Kind != yaml.MappingNode:
			return nil, fmt.Errorf("%s: workload must be a mapping (a gpupick workload file)", where)
		}
		seen[c.ID] = true
		c.Value = *raw.Value
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		if err := enc.Encode(&raw.Workload); err != nil {
			return nil, fmt.Errorf("%s: workload: %w", where, err)
		}
		spec, err := workload.Parse(buf.Bytes(), c.ID+".yaml")
		if err != nil {
			return nil, fmt.Errorf("%s: workload: %w", where, err)
		}
		c.Spec = spec
		out = append(out, c)
	}
	return out, nil
}

func metricNames() []string { return slices.Sorted(maps.Keys(metrics)) }

// Cluster builds the case's cluster from the catalog.
func (c Case) Cluster(cat *catalog.Catalog) (perf.Cluster, error) {
	a, ok := cat.Accelerator(c.Hardware.GPU)
	if !ok {
		return perf.Cluster{}, fmt.Errorf("%s: hardware.gpu %q is not in the catalog", c.ID, c.Hardware.GPU)
	}
	cl, err := perf.NewCluster(a, c.Hardware.GPUs, c.Hardware.Nodes, nil)
	if err != nil {
		return perf.Cluster{}, fmt.Errorf("%s: %w", c.ID, err)
	}
	if c.Hardware.FabricGbps > 0 && cl.Nodes > 1 {
		cl.FabricGbps, cl.FabricKind = c.Hardware.FabricGbps, c.Hardware.Fabric
		if cl.FabricKind == "" {
			cl.FabricKind = "infiniband"
		}
	}
	return cl, nil
}
