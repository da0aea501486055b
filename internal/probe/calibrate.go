package probe

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/perf"
)

// Calibration is what a report tells the performance model about one
// server of an offer. A zero figure means "not measured: keep the catalog's".
type Calibration struct {
	// GPU is the catalog accelerator the report measured ("" = none found).
	GPU string `json:"gpu"`
	// DataType is the matmul type MatmulShare was measured in (bf16 first,
	// then fp16, tf32, fp8).
	DataType string `json:"data_type,omitempty"`
	// MatmulShare is the achieved share of the dense datasheet peak.
	MatmulShare float64 `json:"matmul_share,omitempty"`
	// MatmulEffScale multiplies the model's compute efficiency:
	// MatmulShare / perf.MatmulShare, kept within [0.25, 1.5]. It is 1
	// (as modelled) when nothing was measured or the report is of another
	// accelerator.
	MatmulEffScale float64 `json:"matmul_eff_scale"`
	// StorageGBps is the measured sequential read per node, 10^9 bytes/s.
	StorageGBps float64 `json:"storage_gb_s,omitempty"`
	// NetworkGbps is the measured TCP throughput per node, 10^9 bit/s.
	NetworkGbps float64 `json:"network_gbps,omitempty"`
	// Notes say, one sentence each, which measured figure replaces which
	// catalog figure; they belong in the prediction's assumptions.
	Notes []msg.Msg `json:"notes"`
}

// Calibration returns the measured figures of r that a prediction for
// accelerator a (on offer o, which may be nil) should use instead of the
// catalog's. Compute is calibrated only when r measured the same
// accelerator; storage and network are taken as measured on r's host.
func (r *Report) Calibration(a *catalog.Accelerator, o *catalog.Offer) Calibration {
	cal := Calibration{MatmulEffScale: 1, Notes: []msg.Msg{}}
	if len(r.GPUs) > 0 {
		cal.GPU = r.GPUs[0].CatalogID
	}
	from := fmt.Sprintf("probe of %s on %s", r.Host.Hostname, r.Time.Format("2006-01-02"))
	switch {
	case a == nil || r.Bench == nil:
	case cal.GPU != a.ID:
		cal.Notes = append(cal.Notes, msg.New("the %s measured %s, not %s: its compute figures are not used", from, orNone(cal.GPU), a.ID))
	default:
		for _, name := range BenchTypes {
			got, ok := r.Bench.TFLOPS[name]
			dt, _ := catalog.ParseDataType(name)
			peak, has := a.TFLOPS(dt)
			if !ok || !has || got <= 0 {
				continue
			}
			cal.DataType, cal.MatmulShare = name, got/peak
			expected := perf.MatmulShare(a, dt)
			cal.MatmulEffScale = min(1.5, max(0.25, cal.MatmulShare/expected))
			cal.Notes = append(cal.Notes, msg.New("compute efficiency x%.2f from the %s: %s matmul reached %.0f of %g peak TFLOPS (%.0f%%; the model assumes %.0f%%)",
				cal.MatmulEffScale, from, name, got, peak, 100*cal.MatmulShare, 100*expected))
			break
		}
	}
	if s := r.Storage; s != nil && s.SeqReadGBps > 0 {
		cal.StorageGBps = s.SeqReadGBps
		n := fmt.Sprintf("storage reads %.2f GB/s per node, measured on %s by the %s", s.SeqReadGBps, s.Path, from)
		if o != nil {
			switch {
			case o.NVMeReadGBps > 0:
				n += fmt.Sprintf(" (catalog: %g for local NVMe)", o.NVMeReadGBps)
			case o.BlockGBps > 0:
				n += fmt.Sprintf(" (catalog: %g for block storage)", o.BlockGBps)
			}
		}
		if !s.Direct {
			n += "; through the page cache, so it may be optimistic"
		}
		cal.Notes = append(cal.Notes, msg.Text(n))
	}
	if nw := r.Network; nw != nil && nw.ThroughputGbps > 0 {
		cal.NetworkGbps = nw.ThroughputGbps
		n := fmt.Sprintf("network carries %.1f Gbit/s per node, measured over TCP to %s by the %s", nw.ThroughputGbps, nw.Peer, from)
		if o != nil && o.NetworkGbps > 0 {
			n += fmt.Sprintf(" (catalog: %g)", o.NetworkGbps)
		}
		cal.Notes = append(cal.Notes, msg.Text(n))
	}
	return cal
}

func orNone(id string) string {
	if id == "" {
		return "no known accelerator"
	}
	return id
}
