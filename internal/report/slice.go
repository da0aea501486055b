package report

import (
	"math"

	"github.com/gpupick/gpupick/internal/advisor"
)

// GPU slicing as every surface shows it: the advisor decides a plan's
// slice (advisor.Plan.Slice, a MIG profile or a fractional offer); these
// helpers only say it, the same way in the plan sentence, the ranking
// table, the answer block and the JSON.

// SliceJSON is a plan's slice in `-o json` (plan.slice; absent for whole
// GPUs). Stable: the page and scripts read it.
type SliceJSON struct {
	// Kind is "mig" (a hardware partition), "time-sliced" (replicas that
	// take turns on one GPU) or "fraction" (an offer that rents part of
	// one GPU).
	Kind string `json:"kind"`
	// Profile is the MIG profile ("1g.10gb") or the fraction ("1/3"; for
	// time-slicing, one replica's turn of the GPU).
	Profile string `json:"profile"`
	// PerGPU is how many such slices one GPU holds.
	PerGPU int `json:"per_gpu"`
	// ComputeShare and MemoryShare are one slice's shares of the GPU's
	// compute and memory bandwidth (0-1], to 4 decimals.
	ComputeShare float64 `json:"compute_share"`
	MemoryShare  float64 `json:"memory_share"`
	// MemoryGB is one slice's memory, GB.
	MemoryGB float64 `json:"memory_gb"`
	// ReplicaPerHourUSD is the instance's price over the replicas it holds
	// (absent when the price is unknown).
	ReplicaPerHourUSD *float64 `json:"replica_per_hour_usd,omitempty"`
	// Shared is true when the plan is priced per slice on a shared pool
	// (constraints.shared_gpus): it pays replica_per_hour_usd x replicas.
	Shared bool `json:"shared,omitempty"`
}

// sliceView converts a plan's slice; nil for whole GPUs.
func sliceView(s *advisor.Slice) *SliceJSON {
	if s == nil {
		return nil
	}
	r4 := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	j := &SliceJSON{Kind: s.Kind, Profile: s.Profile, PerGPU: s.PerGPU, ComputeShare: r4(s.ComputeShare),
		MemoryShare: r4(s.MemoryShare), MemoryGB: math.Round(s.MemGB*10) / 10, Shared: s.Shared}
	if s.ReplicaPerHourUSD > 0 {
		j.ReplicaPerHourUSD = fp(math.Round(s.ReplicaPerHourUSD*1e4) / 1e4)
	}
	return j
}

// sliceMessages are the phrases that say a slice, in English and Chinese.
// MIG and profile ids stay as they are; a slice is 切片.
var sliceMessages = map[string][2]string{
	// The plan sentence: a MIG fleet, a fractional instance.
	"plan_mig":     {"%d replica(s) on MIG %s slice(s) of %s (%d to a GPU, %d instance(s) of %d GPU(s))", "%[1]d 个副本，运行在 %[3]s 的 MIG %[2]s 切片上（每块 GPU %[4]d 个，%[5]d 台实例，每台 %[6]d 块 GPU）"},
	"plan_mig_rps": {", %.3g requests/s each", "，每个 %.3g 请求/秒"},
	// A time-sliced fleet: k replicas take turns on one GPU.
	"plan_timesliced": {"%d replica(s) time-sliced %s of %s (%d to a GPU, %d instance(s) of %d GPU(s))", "%[1]d 个副本，以时间片方式共享 %[3]s，每个占 %[2]s（每块 GPU %[4]d 个，%[5]d 台实例，每台 %[6]d 块 GPU）"},
	// A sliced plan on a shared pool pays for its slices only.
	"plan_shared":         {"; priced per slice on a shared pool: $%.4g/h a replica", "；按切片计价（共享 GPU 池）：每个副本 $%.4g/小时"},
	"gpu_timesliced":      {"%s time-sliced %s × %d", "%s 时间片 %s × %d"},
	"replicas_timesliced": {"%d time-sliced %s replica(s)", "%d 个时间片 %s 副本"},
	"plan_fraction":       {"%d instance(s), %s of one %s per instance", "%d 台实例，每台 %s 块 %s"},
	// The GPU in a table cell or a headline: "h100-sxm MIG 1g.10gb × 7".
	"gpu_mig": {"%s MIG %s × %d", "%s MIG %s 切片 × %d"},
	// A fraction's count: "1/3 × a10", and the service table's fleet
	// cell "1 × 1/3 a10".
	"gpus_fraction":  {"%s × %s", "%s 块 %s"},
	"fleet_fraction": {"%d × %s %s", "%d 台 × %s 块 %s"},
	// The answer's headline: "7 MIG 1g.10gb replica(s)", "1 instance(s)
	// of 1/3 × a10".
	"replicas_mig":       {"%d MIG %s replica(s)", "%d 个 MIG %s 切片副本"},
	"instances_fraction": {"%d instance(s) of %s × %s", "%d 台实例（每台 %s 块 %s）"},
	// The heads of --explain and cost on a fraction: "1/2 x a10g".
	"ex_head_fraction":   {"%s in %s (%s): %s x %s on %d instance(s), %s", "%s（%s，%s）：%s 块 %s，%d 台实例，%s"},
	"cost_head_fraction": {"%s in %s (%s): %s x %s on %d instance(s), %s", "%s，区域 %s（%s）：%s 块 %s，%d 台实例，%s"},
}

// sm returns the slicing phrase key in l, formatted with args.
func sm(l Lang, key string, args ...any) string { return phrase(sliceMessages, l, key, args...) }

// sliceGPU is the GPU id a slice is part of, else gpu (the offer's).
func sliceGPU(s *advisor.Slice, gpu string) string {
	if s.GPU != "" {
		return s.GPU
	}
	if gpu == "" {
		return "GPU"
	}
	return gpu
}

// fleetCell is the service table's fleet cell: "2 × 8 h100-sxm", "1 × 8
// h100-sxm MIG 1g.10gb × 7", "1 × 1/3 a10".
func fleetCell(l Lang, p advisor.Plan, gpu string) string {
	switch s := p.Slice; {
	case s != nil && s.Kind == advisor.SliceMIG:
		return am(l, "fleet_cell", p.Instances, p.GPUsPerInstance, sm(l, "gpu_mig", sliceGPU(s, gpu), s.Profile, s.PerGPU))
	case s != nil && s.Kind == advisor.SliceTimeSliced:
		return am(l, "fleet_cell", p.Instances, p.GPUsPerInstance, sm(l, "gpu_timesliced", sliceGPU(s, gpu), s.Profile, s.PerGPU))
	case s != nil && s.Kind == advisor.SliceFraction:
		return sm(l, "fleet_fraction", p.Instances, s.Profile, sliceGPU(s, gpu))
	}
	return am(l, "fleet_cell", p.Instances, p.GPUsPerInstance, gpu)
}

// gpusCell is a job's GPUs: "8 × h100-sxm", or "1/3 × a10" on a fraction.
func gpusCell(l Lang, p advisor.Plan, gpus int, gpu string) string {
	if s := p.Slice; s != nil && s.Kind == advisor.SliceFraction {
		return sm(l, "gpus_fraction", s.Profile, sliceGPU(s, gpu))
	}
	return am(l, "gpus_n", gpus, gpu)
}

// replicasPhrase and instancesPhrase are the answer headline's fleet:
// "7 MIG 1g.10gb replica(s)" on "1 instance(s) of 8 × h100-sxm", or
// "1 replica(s)" on "1 instance(s) of 1/3 × a10".
func replicasPhrase(l Lang, p advisor.Plan) string {
	if s := p.Slice; s != nil && s.Kind == advisor.SliceMIG {
		return sm(l, "replicas_mig", p.Replicas, s.Profile)
	}
	if s := p.Slice; s != nil && s.Kind == advisor.SliceTimeSliced {
		return sm(l, "replicas_timesliced", p.Replicas, s.Profile)
	}
	return am(l, "replicas_n", p.Replicas)
}

func instancesPhrase(l Lang, p advisor.Plan, gpu string) string {
	if s := p.Slice; s != nil && s.Kind == advisor.SliceFraction {
		return sm(l, "instances_fraction", p.Instances, s.Profile, sliceGPU(s, gpu))
	}
	return am(l, "instances_n", p.Instances, p.GPUsPerInstance, gpu)
}
