package app

import (
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
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
// the offers with the hardware the probe measured and leaves the others;
// note says so, for every output.
func CalibrateProbed(r *probe.Report, c *catalog.Catalog) (tune func(*catalog.Offer, *perf.Cluster), note msg.Msg) {
	tune = func(o *catalog.Offer, cl *perf.Cluster) {
		if probedShape(r, o) {
			Calibrate(r, cl, o)
		}
	}
	return tune, calibrationNote(r, c)
}

// calibrationNote says which probe calibrates and how many of the
// catalog's offers have the hardware it measured.
func calibrationNote(r *probe.Report, c *catalog.Catalog) msg.Msg {
	g := r.GPUs[0]
	id := g.CatalogID
	if id == "" {
		id = g.Name
	}
	n := 0
	for _, o := range c.Offers {
		if probedShape(r, o) {
			n++
		}
	}
	what := msg.New("calibrated with the probe of %s on %s (%d x %s)", r.Host.Hostname, r.Time.Format(time.DateOnly), len(r.GPUs), id)
	if n == 0 {
		return msg.New("%s: no offer in the catalog has that hardware, so every prediction is the catalog's", what)
	}
	return msg.New("%s: its measured compute, storage and network replace the catalog's for the %d offers with %d x %s; other offers are predicted from the catalog",
		what, n, len(r.GPUs), id)
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

// CanCalibrate refuses a report that measured no GPU for calibration: what
// a machine without one measured says nothing about a GPU server.
func CanCalibrate(r *probe.Report, field string) error {
	if len(r.GPUs) == 0 {
		return apperr.Invalidf(field, "the probe of %s on %s measured no GPU: there is nothing to calibrate a GPU offer with; run gpupick probe --gpu-bench on the GPU server you rent",
			r.Host.Hostname, r.Time.Format(time.DateOnly))
	}
	return nil
}
