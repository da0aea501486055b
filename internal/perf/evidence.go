package perf

import (
	_ "embed"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// EvidenceRow is one published measurement of the validation set as the
// project ships it (evidence.json, written by cmd/perffit with model.json):
// what ran, where it was read, what it measured and what the shipped model
// predicts for the same case.
type EvidenceRow struct {
	ID        string  `json:"id"`
	Group     string  `json:"group"`  // publisher and document
	Source    string  `json:"source"` // where the number was read
	Date      string  `json:"date"`
	Summary   string  `json:"summary"`
	Kind      string  `json:"kind"` // the workload kind
	Model     string  `json:"model"`
	ParamsB   float64 `json:"params_b"`
	GPU       string  `json:"gpu"`
	Arch      string  `json:"arch"` // the accelerator's architecture
	Vendor    string  `json:"vendor"`
	GPUs      int     `json:"gpus"`
	Framework string  `json:"framework"`
	Precision string  `json:"precision"`
	Method    string  `json:"method,omitempty"` // full, lora or qlora, for training kinds
	Measured  float64 `json:"measured"`
	Predicted float64 `json:"predicted"`
	Unit      string  `json:"unit"`
}

// Evidence is a published measurement near a prediction: the row, how far
// its job is from the one predicted (Distance, see EvidenceDistance) and
// the ratio of what the model predicts for the row to what was measured.
type Evidence struct {
	Source      string  `json:"source"`
	URL         string  `json:"url"`
	Date        string  `json:"date"`
	Summary     string  `json:"summary"`
	Accelerator string  `json:"accelerator"`
	GPUs        int     `json:"gpus"`
	Measured    float64 `json:"measured"`
	Predicted   float64 `json:"predicted"`
	Unit        string  `json:"unit"`
	// Ratio is predicted / measured for the published case: how far the
	// model was off there.
	Ratio    float64 `json:"ratio"`
	Distance float64 `json:"distance"`
	ID       string  `json:"id"`
	// The published job, as EvidenceRow gives it.
	Kind      string  `json:"kind"`
	Model     string  `json:"model"`
	ParamsB   float64 `json:"params_b"`
	Framework string  `json:"framework"`
	Precision string  `json:"precision"`
}

// Evidence weights: each is what one unit of difference adds to the
// distance. A factor e (2.7x) in model size or GPU count, another
// accelerator of the same architecture, or another framework count about
// the same; another kind of job counts as much as all of them.
const (
	EvidenceKindWeight      = 4.0
	EvidenceSizeWeight      = 1.0 // per unit of |ln(params ratio)|
	EvidenceScaleWeight     = 0.5 // per unit of |ln(GPU count ratio)|
	EvidenceSameArch        = 0.5 // another accelerator of the same architecture
	EvidenceSameVendor      = 1.0 // another architecture of the same vendor
	EvidenceOtherVendor     = 1.5
	EvidenceFrameworkWeight = 0.5
	EvidencePrecisionWeight = 0.3
	EvidenceMethodWeight    = 0.5 // full training against adapters
	// EvidenceListed is how many measurements predict lists.
	EvidenceListed = 5
	// EvidenceNear is the distance within which a measurement is called
	// near; beyond it the prediction rests on the model alone.
	EvidenceNear = 2.0
)

//go:embed evidence.json
var evidenceJSON []byte

var evidenceRows = sync.OnceValues(func() ([]EvidenceRow, error) {
	var rows []EvidenceRow
	err := json.Unmarshal(evidenceJSON, &rows)
	return rows, err
})

// EvidenceRows are the shipped published measurements.
func EvidenceRows() []EvidenceRow {
	rows, err := evidenceRows()
	if err != nil {
		panic("perf: evidence.json: " + err.Error()) // the build's own file; a test reads it
	}
	return rows
}

// EvidenceQuery is what a prediction is compared on.
type EvidenceQuery struct {
	Kind      string
	ParamsB   float64
	GPU       string
	Arch      string
	Vendor    string
	GPUs      int
	Framework string
	Precision string
	Method    string
}

// QueryOf is the query of a prediction of spec on accelerator a with gpus
// GPUs.
func QueryOf(spec *workload.Spec, a *catalog.Accelerator, gpus int) EvidenceQuery {
	q := EvidenceQuery{Kind: string(spec.Kind), GPUs: gpus,
		Framework: string(spec.Stack.Framework), Precision: string(PrecisionOf(spec)), Method: MethodOf(spec)}
	if spec.Model != nil {
		q.ParamsB = spec.Model.ParamsB
	}
	if a != nil {
		q.GPU, q.Arch, q.Vendor = a.ID, a.Architecture, a.Vendor
	}
	return q
}

// MethodOf is a training workload's method (full, lora, qlora); "" for
// the other kinds.
func MethodOf(spec *workload.Spec) string {
	if spec.Training == nil {
		return ""
	}
	return string(spec.Training.Method)
}

// PrecisionOf is the precision a workload computes in: its training's, its
// weights' when served, its denoiser's.
func PrecisionOf(spec *workload.Spec) workload.Precision {
	switch {
	case spec.Training != nil && spec.Training.Precision != "":
		return spec.Training.Precision
	case spec.Inference != nil && spec.Inference.WeightPrecision != "":
		return spec.Inference.WeightPrecision
	case spec.Image != nil && spec.Image.Precision != "":
		return spec.Image.Precision
	}
	return ""
}

// EvidenceDistance is how far a published row is from the query: the sum
// of the weighted differences above (0 for the same job on the same
// hardware at the same scale).
func EvidenceDistance(q EvidenceQuery, r *EvidenceRow) float64 {
	d := 0.0
	if q.Kind != r.Kind {
		d += EvidenceKindWeight
	}
	if q.ParamsB > 0 && r.ParamsB > 0 {
		d += EvidenceSizeWeight * math.Abs(math.Log(q.ParamsB/r.ParamsB))
	} else if (q.ParamsB > 0) != (r.ParamsB > 0) {
		d += EvidenceSizeWeight
	}
	switch {
	case q.GPU == r.GPU:
	case q.Arch != "" && q.Arch == r.Arch:
		d += EvidenceSameArch
	case q.Vendor != "" && q.Vendor == r.Vendor:
		d += EvidenceSameVendor
	default:
		d += EvidenceOtherVendor
	}
	if q.GPUs > 0 && r.GPUs > 0 {
		d += EvidenceScaleWeight * math.Abs(math.Log(float64(q.GPUs)/float64(r.GPUs)))
	}
	if !strings.EqualFold(q.Framework, r.Framework) {
		d += EvidenceFrameworkWeight
	}
	if !strings.EqualFold(q.Precision, r.Precision) {
		d += EvidencePrecisionWeight
	}
	if q.Method != r.Method {
		d += EvidenceMethodWeight
	}
	return d
}

// NearestDistance is the distance of the nearest of rows to q, as
// NearestEvidence states it (+Inf without rows): what a ranking needs to
// know of every candidate, without sorting or copying rows.
func NearestDistance(q EvidenceQuery, rows []EvidenceRow) float64 {
	d := math.Inf(1)
	for i := range rows {
		d = min(d, EvidenceDistance(q, &rows[i]))
	}
	return roundDistance(d)
}

// roundDistance is a distance as evidence states it: to 0.01.
func roundDistance(d float64) float64 { return math.Round(d*100) / 100 }

// NearestEvidence returns the k published measurements nearest to q,
// nearest first (ties: the newer, then by id), each with its distance.
func NearestEvidence(q EvidenceQuery, rows []EvidenceRow, k int) []Evidence {
	type scored struct {
		d float64
		r *EvidenceRow
	}
	all := make([]scored, len(rows))
	for i := range rows {
		all[i] = scored{EvidenceDistance(q, &rows[i]), &rows[i]}
	}
	slices.SortFunc(all, func(a, b scored) int {
		switch {
		case a.d < b.d:
			return -1
		case a.d > b.d:
			return 1
		case a.r.Date != b.r.Date:
			return -strings.Compare(a.r.Date, b.r.Date)
		}
		return strings.Compare(a.r.ID, b.r.ID)
	})
	out := make([]Evidence, 0, k)
	for _, s := range all[:min(k, len(all))] {
		r := s.r
		e := Evidence{Source: r.Group, URL: r.Source, Date: r.Date, Summary: r.Summary, Accelerator: r.GPU, GPUs: r.GPUs,
			Measured: r.Measured, Predicted: r.Predicted, Unit: r.Unit, Distance: roundDistance(s.d), ID: r.ID,
			Kind: r.Kind, Model: r.Model, ParamsB: r.ParamsB, Framework: r.Framework, Precision: r.Precision}
		if r.Measured > 0 {
			e.Ratio = math.Round(r.Predicted/r.Measured*1000) / 1000
		}
		out = append(out, e)
	}
	return out
}
