package perf

import (
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// pipeline is the balance of the stages that feed the GPUs (pitfall 3):
// storage reads and CPU preprocessing against what the GPUs consume.
type pipeline struct {
	utilization float64 // GPU busy fraction once the slowest feeding stage is counted
	stage       string  // the limiting stage when utilization < 1
	verdict     msg.Msg
	fix         msg.Msg
	storage     msg.Msg // the storage the job reads from
	storageGBps float64 // its throughput for the whole cluster
	needGBps    float64
}

// balance checks what the GPUs consume (samplesS samples per second, bytesS
// bytes per second for the whole cluster) against the cluster's storage and
// CPUs.
func balance(spec *workload.Spec, c Cluster, samplesS, bytesS float64) pipeline {
	p := pipeline{utilization: 1, needGBps: bytesS / 1e9}
	kind, perNode := storageFor(spec, c)
	p.storage = kind
	p.storageGBps = perNode * float64(c.Nodes)
	util := 1.0
	if bytesS > 0 && p.storageGBps > 0 {
		if u := p.storageGBps * 1e9 / bytesS; u < util {
			util = u
			p.stage = Storage
			p.verdict = msg.New("%s reads %.1f GB/s but the GPUs could consume %.1f GB/s: they wait for data %.0f%% of the time.",
				kind, p.storageGBps, bytesS/1e9, 100*(1-u))
			p.fix = storageFix(spec, c, bytesS)
		}
	}
	if ms := spec.Data.CPUMsPerSample; ms > 0 && c.VCPUsPerNode > 0 {
		// Keep a core per GPU for the training process itself.
		workers := float64(c.VCPUsPerNode-c.GPUsPerNode) * float64(c.Nodes)
		if workers < 1 {
			workers = 1
		}
		capacity := workers * 1000 / ms // samples per second
		if u := capacity / samplesS; u < util {
			util = u
			p.stage = CPU
			p.verdict = msg.New("CPU preprocessing (%.1f ms per sample on %d vCPUs) delivers %.0f samples/s against %.0f the GPUs could take.",
				ms, int(workers), capacity, samplesS)
			p.fix = msg.New("%d vCPUs per node (or GPU-side decoding such as DALI) would keep the GPUs busy", int(samplesS*ms/1000/float64(c.Nodes))+c.GPUsPerNode+1)
		}
	}
	p.utilization = util
	return p
}

// storageFor picks the storage the job reads from and its read throughput
// per node, GB/s.
func storageFor(spec *workload.Spec, c Cluster) (msg.Msg, float64) {
	if spec.Data.StorageGBps > 0 {
		return msg.New("%s storage (measured)", spec.Data.Storage), spec.Data.StorageGBps
	}
	object := min(defaultObjectGBps, c.NetworkGbps/8*0.6)
	switch spec.Data.Storage {
	case workload.StorageLocalNVMe:
		if c.NVMeReadGBps > 0 {
			return msg.New("local NVMe"), c.NVMeReadGBps
		}
		return msg.New("block storage (the offer has no local NVMe)"), c.BlockGBps
	case workload.StorageBlock:
		return msg.New("block storage"), c.BlockGBps
	case workload.StorageObject:
		return msg.New("object storage"), object
	}
	// auto: local NVMe when the dataset fits on it (staged once), else
	// streamed from object storage.
	if c.NVMeReadGBps > 0 && spec.Data.DatasetGB <= c.NVMeTB*1000*0.9*float64(c.Nodes) {
		return msg.New("local NVMe"), c.NVMeReadGBps
	}
	return msg.New("object storage"), object
}

func storageFix(spec *workload.Spec, c Cluster, bytesS float64) msg.Msg {
	need := bytesS / 1e9 / float64(c.Nodes)
	if c.NVMeReadGBps >= need {
		return msg.New("staging the dataset on local NVMe (%.1f GB/s per node) would keep the GPUs busy", c.NVMeReadGBps)
	}
	return msg.New("storage reading %.1f GB/s per node (local NVMe RAID, a parallel file system, or caching the dataset in RAM) would keep the GPUs busy", need)
}
