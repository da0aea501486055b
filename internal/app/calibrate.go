package app

import (
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/probe"
)

// Calibrate applies what a probe measured to a cluster: the compute
// efficiency scale, the storage read speed and the network throughput, and
// says so in the cluster's assumptions. o is the offer probed, nil when
// unknown.
func Calibrate(r *probe.Report, cl *perf.Cluster, o *catalog.Offer) {
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

// CalibrateProbed is recommend's Tune for a probe report: it calibrates
// the offers with the hardware the probe measured and leaves the others.
func CalibrateProbed(r *probe.Report) func(*catalog.Offer, *perf.Cluster) {
	return func(o *catalog.Offer, cl *perf.Cluster) {
		if probedShape(r, o) {
			Calibrate(r, cl, o)
		}
	}
}

// ReadProbeReport reads a probe report's JSON text; field names the
// caller's flag or key in errors.
func ReadProbeReport(b []byte, field string) (*probe.Report, error) {
	r, err := probe.ReadReport(b)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, Field: field, Err: err}
	}
	return r, nil
}
