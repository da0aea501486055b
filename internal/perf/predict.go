package perf

import (
	"fmt"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Bottlenecks: the stage that limits a prediction.
const (
	Compute         = "compute"
	MemoryBandwidth = "memory-bandwidth"
	Interconnect    = "interconnect"
	Network         = "network"
	Storage         = "storage"
	CPU             = "cpu"
	MemoryCapacity  = "memory-capacity"
)

// Quantity is a number with its unit and, for a prediction, its 80%
// interval (P10-P90).
type Quantity struct {
	Value float64  `json:"value"`
	Unit  string   `json:"unit"`
	P10   *float64 `json:"p10,omitempty"`
	P90   *float64 `json:"p90,omitempty"`
}

// Parallelism is the layout a prediction assumed.
type Parallelism struct {
	Data             int    `json:"data"`
	Tensor           int    `json:"tensor"`
	Pipeline         int    `json:"pipeline"`
	Context          int    `json:"context,omitempty"`
	Expert           int    `json:"expert,omitempty"`
	ShardedOptimizer bool   `json:"sharded_optimizer"`
	Sharding         string `json:"sharding,omitempty"` // none, zero1, zero2, fsdp (ZeRO-3) or hsdp
	MicroBatch       int    `json:"micro_batch,omitempty"`
	GradAccumulation int    `json:"grad_accumulation,omitempty"`
	// GlobalBatch is the sequences a step runs when it is not the
	// workload's global batch (a data-parallel degree that does not divide it).
	GlobalBatch int    `json:"global_batch,omitempty"`
	Recompute   string `json:"activation_checkpointing,omitempty"` // none, selective, full
	Replicas    int    `json:"replicas,omitempty"`                 // inference
	// NodesPerReplica is the nodes one serving replica spans (0 or 1: it
	// fits one node).
	NodesPerReplica int    `json:"nodes_per_replica,omitempty"`
	VirtualPipeline int    `json:"virtual_pipeline,omitempty"` // model chunks per pipeline stage (interleaved)
	Schedule        string `json:"schedule,omitempty"`         // dualpipe when DeepSeek-V3's DualPipe orders the pipeline
	// PrefillGPUs is, for disaggregated serving, the GPUs that only
	// prefill; the other fields describe the decode pool.
	// PrefillReplicaGPUs is the GPUs of one prefill replica.
	PrefillGPUs        int `json:"prefill_gpus,omitempty"`
	PrefillReplicaGPUs int `json:"prefill_replica_gpus,omitempty"`
}

// Breakdown splits one training step (or one decode step) into its parts,
// in seconds. Exposed communication is what compute does not hide.
type Breakdown struct {
	ComputeS     float64 `json:"compute_s"`
	MemoryS      float64 `json:"memory_s,omitempty"`
	CommExposedS float64 `json:"comm_exposed_s"`
	CommTotalS   float64 `json:"comm_total_s"`
	BubbleS      float64 `json:"bubble_s"`
	DataStallS   float64 `json:"data_stall_s"`
	OverheadS    float64 `json:"overhead_s,omitempty"`
	CommLink     string  `json:"comm_link,omitempty"` // the slowest link communication uses
}

// Memory is the predicted memory per GPU in GB (1e9 bytes).
type Memory struct {
	WeightsGB     float64 `json:"weights_gb"`
	GradientsGB   float64 `json:"gradients_gb,omitempty"`
	OptimizerGB   float64 `json:"optimizer_gb,omitempty"`
	ActivationsGB float64 `json:"activations_gb,omitempty"`
	KVCacheGB     float64 `json:"kv_cache_gb,omitempty"`
	OverheadGB    float64 `json:"overhead_gb"`
	TotalGB       float64 `json:"total_gb"`
	CapacityGB    float64 `json:"capacity_gb"`
}

// Serving is what an inference prediction adds.
type Serving struct {
	Batch          int     `json:"batch"`            // sequences in flight per replica at the operating point
	MaxBatchMemory int     `json:"max_batch_memory"` // the most the KV cache holds
	MaxBatchSLO    int     `json:"max_batch_slo"`    // the largest batch meeting the SLO (0 = none meets it)
	OfflineTokensS float64 `json:"offline_tokens_per_s"`
	Load           float64 `json:"load,omitempty"` // offered / sustainable throughput
	Sustainable    *bool   `json:"sustainable,omitempty"`
	ReplicasNeeded int     `json:"replicas_needed,omitempty"` // to serve the load within the SLO, with this layout
	PrefillMs      float64 `json:"prefill_ms"`
	RequestsPerS   float64 `json:"max_requests_per_s"` // the cluster's sustainable request rate
	Batching       string  `json:"batching"`           // continuous, static or burst
	Engine         string  `json:"engine"`             // the serving engine and release the prediction assumes
	MakespanS      float64 `json:"makespan_s,omitempty"`
	// For disaggregated serving: what the decode pool can produce (output
	// tokens/s) and the prefill pool take (prompt tokens/s), and the time
	// to move one request's KV cache between them.
	DecodeTokensS  float64 `json:"decode_tokens_per_s,omitempty"`
	PrefillTokensS float64 `json:"prefill_tokens_per_s,omitempty"`
	KVTransferMs   float64 `json:"kv_transfer_ms,omitempty"`
}

// Prediction is the result of Predict. Its JSON form is the output of
// `gpupick predict -o json`, a contract other tools rely on (DESIGN.md):
// fields are added, never renamed or removed.
type Prediction struct {
	Kind string `json:"kind"`
	GPU  string `json:"gpu"`
	GPUs int    `json:"gpus"`
	// GPUFraction is the share of one GPU of a sliced offer (absent for
	// whole GPUs): gpus is then 1, and the rest is that slice's.
	GPUFraction    float64     `json:"gpu_fraction,omitempty"`
	Nodes          int         `json:"nodes"`
	Offer          string      `json:"offer,omitempty"`
	Fits           bool        `json:"fits"`
	Reason         msg.Msg     `json:"reason,omitzero"`
	MemoryPerGPUGB float64     `json:"memory_per_gpu_gb"`
	Parallelism    Parallelism `json:"parallelism"`
	Throughput     Quantity    `json:"throughput"`
	MFU            float64     `json:"mfu"`
	StepTimeS      float64     `json:"step_time_s"`
	// DurationHours is the time to process the whole job; nil for a
	// service without an end (inference at a request rate).
	DurationHours *float64 `json:"duration_hours"`
	// DurationHoursP10 and P90 bound DurationHours with 80% confidence.
	DurationHoursP10 *float64 `json:"duration_hours_p10,omitempty"`
	DurationHoursP90 *float64 `json:"duration_hours_p90,omitempty"`
	Utilization      float64  `json:"utilization"`
	Bottleneck       string   `json:"bottleneck"`
	TTFTMs           *float64 `json:"ttft_ms"`
	TTFTMsP10        *float64 `json:"ttft_ms_p10,omitempty"`
	TTFTMsP90        *float64 `json:"ttft_ms_p90,omitempty"`
	TPOTMs           *float64 `json:"tpot_ms"`
	TPOTMsP10        *float64 `json:"tpot_ms_p10,omitempty"`
	TPOTMsP90        *float64 `json:"tpot_ms_p90,omitempty"`
	// LatencyS is, for image generation, the wall time of one pipeline
	// call at image.batch (text encoding and VAE decode included), s;
	// absent for the other kinds. P10 and P90 bound it as for ttft_ms.
	LatencyS    *float64 `json:"latency_s,omitempty"`
	LatencySP10 *float64 `json:"latency_s_p10,omitempty"`
	LatencySP90 *float64 `json:"latency_s_p90,omitempty"`
	// SecondsPerImage is, for image generation, the cluster's seconds per
	// image (or clip) at full speed: 1 / throughput.
	SecondsPerImage *float64 `json:"seconds_per_image,omitempty"`
	// Interval says where the p10/p90 fields come from.
	Interval  *Interval `json:"interval,omitempty"`
	Serving   *Serving  `json:"serving,omitempty"`
	Breakdown Breakdown `json:"breakdown"`
	Memory    Memory    `json:"memory"`
	// Efficiency is the share of peak FLOPS the compute part runs at.
	Efficiency float64 `json:"efficiency"`
	// Verdict is one sentence on the bottleneck (or on why it does not
	// fit); Fix says what would change it.
	Verdict     msg.Msg   `json:"verdict"`
	Fix         msg.Msg   `json:"fix,omitzero"`
	Confidence  string    `json:"confidence"`
	Assumptions []msg.Msg `json:"assumptions"`
	// Evidence is the published measurements nearest to this job (see
	// NearestEvidence); predict fills it, the ranking's predictions leave
	// it empty (recommend's answer carries it for #1 and the runner-up).
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Predict runs the model, with the embedded fitted parameters, for spec on
// cluster. A workload that does not fit is a Prediction with Fits false and
// a Reason, not an error; errors are reserved for requests the model cannot
// evaluate at all.
func Predict(spec *workload.Spec, c Cluster) (Prediction, error) {
	return PredictWith(defaultParams, spec, c)
}

// PredictWith is Predict with the given parameters (the fit program
// evaluates candidate parameters this way). m is not modified.
func PredictWith(m *Params, spec *workload.Spec, c Cluster) (Prediction, error) {
	p := Prediction{Kind: string(spec.Kind), GPU: c.GPU.ID, GPUs: c.GPUs, GPUFraction: c.GPUFraction, Nodes: c.Nodes, Offer: c.Offer,
		Confidence: m.archFor(c.GPU.Architecture).Confidence}
	p.Assumptions = append(p.Assumptions, c.Assumed...)
	for _, d := range spec.Defaults {
		if performanceField(d.Field) {
			p.Assumptions = append(p.Assumptions, msg.New("%s = %s: %s", d.Field, d.Value, d.Why))
		}
	}
	if peakNominal(c.GPU, catalog.FP32) == 0 && peakNominal(c.GPU, catalog.BF16) == 0 && peakNominal(c.GPU, catalog.FP16) == 0 {
		p.Fits = false
		p.Bottleneck = Compute
		p.Reason = msg.New("the catalog has no compute rates for %s, so no prediction can be made", c.GPU.ID)
		p.Verdict = p.Reason.Stop()
		p.Fix = msg.New("add its dense TFLOPS to accelerators.csv (--catalog DIR), or measure it with gpupick probe")
		p.Assumptions = []msg.Msg{}
		return p, nil
	}
	var err error
	switch spec.Kind {
	case workload.KindLLMTrain, workload.KindLLMFinetune:
		err = predictTraining(m, spec, c, &p)
	case workload.KindLLMInference:
		err = predictInference(m, spec, c, &p)
	case workload.KindCNNTrain:
		err = predictCNN(m, spec, c, &p)
	case workload.KindGeneric:
		err = predictGeneric(m, spec, c, &p)
	case workload.KindImageGeneration:
		err = predictImage(m, spec, c, &p)
	default:
		return p, fmt.Errorf("perf: kind %q has no model", spec.Kind)
	}
	if err == nil {
		p.Throughput.Value = round(p.Throughput.Value, throughputDigits(spec))
		applyInterval(m, spec, &p)
	}
	if p.Assumptions == nil {
		p.Assumptions = []msg.Msg{}
	}
	return p, err
}

func ptr(v float64) *float64 { return &v }

// throughputDigits is how many decimals a throughput keeps: images and
// clips per second are small numbers.
func throughputDigits(spec *workload.Spec) int {
	if spec.Kind == workload.KindImageGeneration {
		return 4
	}
	return 1
}

// performanceField reports whether a defaulted workload field can change a
// prediction (compliance and pricing defaults cannot).
func performanceField(field string) bool {
	for _, p := range []string{"model.", "training.", "inference.", "generic.", "image.", "data.", "stack.", "parallelism."} {
		if strings.HasPrefix(field, p) {
			return true
		}
	}
	return false
}

// RegimeOf names the class of prediction a workload falls in: predictions
// of one regime share their structure and so their errors, and each regime
// has its own prediction interval.
func RegimeOf(spec *workload.Spec) string {
	moe := spec.Model != nil && spec.Model.IsMoE()
	switch spec.Kind {
	case workload.KindLLMTrain, workload.KindLLMFinetune:
		switch {
		case spec.Training != nil && spec.Training.Method != workload.MethodFull:
			return "finetune-adapter"
		case moe:
			return "train-moe"
		}
		return "train-dense"
	case workload.KindLLMInference:
		in := spec.Inference
		switch {
		case in == nil:
		case in.MaxBatch == 1:
			return "infer-latency"
		case in.RequestsPerSecond != nil:
			return "infer-service"
		case in.Batching == workload.BatchingStatic:
			return "infer-static"
		case in.Batching == workload.BatchingBurst:
			return "infer-burst"
		case moe:
			return "infer-moe"
		}
		return "infer-offline"
	case workload.KindCNNTrain:
		return "cnn-train"
	case workload.KindImageGeneration:
		return "imagegen"
	}
	return "generic"
}

// Regimes lists every regime RegimeOf returns.
func Regimes() []string {
	return []string{"train-dense", "train-moe", "finetune-adapter", "cnn-train", "infer-offline", "infer-moe",
		"infer-static", "infer-burst", "infer-latency", "infer-service", "generic", "imagegen"}
}
