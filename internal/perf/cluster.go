// Package perf predicts how a workload runs on a cluster of accelerators:
// whether it fits in memory, how fast it goes, how busy the GPUs are once
// storage, CPUs and networks are counted, and which stage limits it. It
// works from physics (FLOPs, bytes moved, link bandwidths) and a few
// calibrated efficiency factors per architecture and software stack (see
// efficiency.go); docs/accuracy.md measures it against published results.
// It does no I/O.
package perf

import (
	"github.com/gpupick/gpupick/internal/msg"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// Cluster is the hardware a prediction runs on: accelerators, how they are
// spread over nodes, and what each node has for storage, CPUs and networks.
// Bandwidths are per node unless a name says otherwise.
type Cluster struct {
	GPU          *catalog.Accelerator
	GPUs         int // accelerators in total
	Nodes        int
	GPUsPerNode  int
	VCPUsPerNode int
	// LinkGBps is the GPU-to-GPU bandwidth inside a node, per GPU, both
	// directions added (as vendors publish it).
	LinkGBps float64
	LinkKind string
	// FabricGbps is the inter-node fabric per node in Gbit/s; 0 = none.
	FabricGbps float64
	FabricKind string
	// NetworkGbps is the front-end network per node (object storage, data
	// transfer), Gbit/s.
	NetworkGbps float64
	// Storage read throughput per node, GB/s; 0 = none.
	NVMeReadGBps float64
	NVMeTB       float64
	BlockGBps    float64
	// Offer is the offer id the cluster is made of ("" = a generic server).
	Offer string
	// GPUFraction is the share of one GPU a sliced offer holds (0: whole
	// GPUs); GPU is then already that share of the accelerator.
	GPUFraction float64
	// Brief skips what only a reader of one prediction needs: the search
	// for a larger cluster that would fit a job that does not (Fix). The
	// advisor, ranking thousands of offers, sets it; its exclusions give
	// the reason, not the hint.
	Brief bool
	// Assumed lists what was assumed because the catalog did not say.
	Assumed []msg.Msg
	// Lookup resolves accelerator ids (for generic jobs measured on another
	// accelerator); nil when not needed.
	Lookup func(id string) *catalog.Accelerator
	// EffScale multiplies the model's compute efficiency for this cluster,
	// from a measurement (gpupick probe); 0 means 1, as modelled.
	EffScale float64
}

// factors are the efficiency factors of the cluster's accelerator, scaled
// by a measurement when there is one.
func (c Cluster) factors(m *Params) archFactors {
	f := m.archFor(c.GPU.Architecture)
	if c.EffScale > 0 {
		f.Matmul *= c.EffScale
		f.Attn *= c.EffScale
	}
	return f
}

// Defaults for a cluster without an offer, or an offer whose row leaves a
// figure out. They are stated in every prediction that uses them.
const (
	defaultVCPUsPerGPU      = 12
	defaultNVMeGBpsPerTB    = 1.5 // a datacenter NVMe drive reads ~1.5-3 GB/s per TB-class drive
	defaultBlockGBps        = 1.0
	defaultObjectGBps       = 1.25 // one node streaming from an object store, ~10 Gbit/s sustained
	defaultFabricGbpsPerGPU = 400  // HGX-class nodes carry one 400 Gbit/s NIC per GPU
	defaultEthernetGbps     = 100
)

// NewCluster builds a cluster of gpus accelerators of kind a over nodes
// nodes (0 = as few as the usual server allows). With an offer, node
// resources come from it and the node size is its GPU count.
func NewCluster(a *catalog.Accelerator, gpus, nodes int, o *catalog.Offer) (Cluster, error) {
	if gpus < 1 {
		return Cluster{}, apperr.Invalidf("--gpus", "must be >= 1, got %d", gpus)
	}
	perServer := a.GPUsPerServer
	if o != nil {
		perServer = o.GPUCount
	}
	if perServer < 1 {
		perServer = 8
	}
	if nodes <= 0 {
		nodes = (gpus + perServer - 1) / perServer
	}
	if gpus%nodes != 0 {
		return Cluster{}, apperr.Invalidf("--nodes", "%d GPUs do not spread evenly over %d nodes", gpus, nodes)
	}
	per := gpus / nodes
	if per > perServer {
		return Cluster{}, apperr.Invalidf("--nodes", "%d GPUs per node, but a %s server holds %d", per, serverName(a, o), perServer)
	}
	c := Cluster{GPU: a, GPUs: gpus, Nodes: nodes, GPUsPerNode: per, LinkGBps: a.LinkGBps, LinkKind: a.LinkKind}
	if o == nil {
		c.VCPUsPerNode = defaultVCPUsPerGPU * per
		c.NVMeTB = 3.84 * float64(per) / 2
		c.NVMeReadGBps = defaultNVMeGBpsPerTB * c.NVMeTB
		c.BlockGBps = defaultBlockGBps
		c.NetworkGbps = defaultEthernetGbps
		c.Assumed = append(c.Assumed, msg.New("no offer given: a generic %d-GPU %s server with %d vCPUs, %.1f TB local NVMe reading %.1f GB/s, %g Gbit/s network",
			per, a.ID, c.VCPUsPerNode, c.NVMeTB, c.NVMeReadGBps, c.NetworkGbps))
		if nodes > 1 {
			c.FabricGbps, c.FabricKind = fabricGuess(a, per)
			c.Assumed = append(c.Assumed, msg.New("inter-node fabric assumed: %s at %g Gbit/s per node", c.FabricKind, c.FabricGbps))
		}
		return c, nil
	}
	c.Offer = o.ID()
	if o.Sliced() {
		c.GPUFraction = o.GPUFraction
	}
	if o.InterconnectGBps > 0 {
		c.LinkGBps, c.LinkKind = o.InterconnectGBps, o.InterconnectKind
	}
	c.VCPUsPerNode = o.VCPUs
	if c.VCPUsPerNode == 0 {
		c.VCPUsPerNode = defaultVCPUsPerGPU * o.GPUCount
		c.Assumed = append(c.Assumed, msg.New("%s publishes no vCPU count: assumed %d", o.ID(), c.VCPUsPerNode))
	}
	c.NetworkGbps = o.NetworkGbps
	if c.NetworkGbps == 0 {
		c.NetworkGbps = 25
		c.Assumed = append(c.Assumed, msg.New("%s publishes no network bandwidth: assumed 25 Gbit/s", o.ID()))
	}
	c.NVMeTB, c.NVMeReadGBps, c.BlockGBps = o.NVMeTB, o.NVMeReadGBps, o.BlockGBps
	if c.NVMeTB > 0 && c.NVMeReadGBps == 0 {
		c.NVMeReadGBps = defaultNVMeGBpsPerTB * c.NVMeTB
		c.Assumed = append(c.Assumed, msg.New("%s local NVMe read speed unpublished: assumed %.1f GB/s for %.1f TB", o.ID(), c.NVMeReadGBps, c.NVMeTB))
	}
	if c.BlockGBps == 0 {
		c.BlockGBps = defaultBlockGBps
	}
	if per < o.GPUCount {
		// Part of an instance: its resources are shared pro rata.
		f := float64(per) / float64(o.GPUCount)
		c.VCPUsPerNode = max(1, int(float64(c.VCPUsPerNode)*f))
	}
	if nodes > 1 {
		if o.FabricKind == "" {
			return Cluster{}, apperr.Invalidf("--nodes", "%s has %d GPU(s) per instance and no inter-node fabric in the catalog: %d GPUs would take %d instances, and it cannot be clustered", o.ID(), o.GPUCount, gpus, nodes)
		}
		c.FabricGbps, c.FabricKind = o.FabricGbps, o.FabricKind
	}
	return c, nil
}

func serverName(a *catalog.Accelerator, o *catalog.Offer) string {
	if o != nil {
		return o.ID()
	}
	return a.ID
}

func fabricGuess(a *catalog.Accelerator, per int) (float64, string) {
	if a.NVLinkDomain > 1 || a.LinkKind == "nvswitch" || a.LinkKind == "nvlink" || a.LinkKind == "infinity-fabric" {
		return defaultFabricGbpsPerGPU * float64(per), "infiniband"
	}
	return defaultEthernetGbps, "ethernet"
}

// fastDomain is how many GPUs share the fast GPU link without going through
// a NIC: one node, or a whole NVLink domain that spans nodes (GB200 NVL72).
func (c Cluster) fastDomain() int {
	if d := c.GPU.NVLinkDomain; d > c.GPUsPerNode && (c.LinkKind == "nvlink" || c.LinkKind == "nvswitch") {
		return min(d, c.GPUs)
	}
	return c.GPUsPerNode
}

// intraGBps is the achievable one-direction bandwidth between GPUs of one
// node for collectives, GB/s per GPU.
func (c Cluster) intraGBps() float64 {
	eff := 0.8 // NCCL bus bandwidth on NVLink/NVSwitch reaches ~80% of one direction
	switch c.LinkKind {
	case "pcie":
		eff = 0.6 // peer traffic through PCIe switches or the host
	case "infinity-fabric", "hccs", "roce":
		eff = 0.7
	}
	bw := c.LinkGBps / 2 * eff
	if bw <= 0 {
		bw = 10
	}
	return bw
}

// interGBps is the achievable inter-node bandwidth per GPU for collectives,
// GB/s: the node's fabric shared by its GPUs.
func (c Cluster) interGBps() float64 {
	eff := 0.8
	switch c.FabricKind {
	case "ethernet", "gpudirect-tcpx":
		eff = 0.6
	}
	if c.FabricGbps <= 0 {
		return 1
	}
	return c.FabricGbps / 8 * eff / float64(c.GPUsPerNode)
}
