package cli

import (
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/probe"
)

// calibrate applies what a probe measured to a cluster: the compute
// efficiency scale, the storage read speed and the network throughput, and
// says so in the cluster's assumptions.
func calibrate(r *probe.Report, cl *perf.Cluster, o *catalog.Offer) {
	cal := r.Calibration(cl.GPU, o)
	if cal.MatmulEffScale > 0 {
		cl.EffScale = cal.MatmulEffScale
	}
	if cal.StorageGBps > 0 {
		cl.NVMeReadGBps, cl.BlockGBps = cal.StorageGBps, cal.StorageGBps
	}
	if cal.NetworkGbps > 0 {
		cl.NetworkGbps = cal.NetworkGbps
	}
	cl.Assumed = append(cl.Assumed, cal.Notes...)
}

// probedShape reports whether offer o has the hardware the probe measured:
// the same accelerator and the same number of them.
func probedShape(r *probe.Report, o *catalog.Offer) bool {
	if len(r.GPUs) == 0 {
		return false
	}
	return r.GPUs[0].CatalogID == o.GPU && len(r.GPUs) == o.GPUCount
}
