package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/probe"
)

// WriteProbe writes a probe report for people: one row per part, skipped parts below.
func WriteProbe(w io.Writer, r *probe.Report) error {
	t := Table{Columns: []Column{{Header: "PART", Key: "part"}, {Header: "FOUND", Key: "found"}}}
	h := r.Host
	host := fmt.Sprintf("%s, %s, kernel %s", h.Hostname, h.OS, h.Kernel)
	if h.Product != "" {
		host += ", product " + h.Product
	}
	t.Add("host", host)
	t.Add("cpu", fmt.Sprintf("%s, %d cores / %d threads, %d NUMA node(s)", probeOrUnknown(r.CPU.Model), r.CPU.Cores, r.CPU.Threads, r.CPU.NUMANodes))
	t.Add("memory", fmt.Sprintf("%.0f GiB", r.MemoryGiB))
	for _, g := range r.GPUs {
		t.Add(fmt.Sprintf("gpu %d", g.Index), probeGPULine(g))
	}
	if r.Topology != nil {
		t.Add("topology", r.Topology.Summary)
	}
	if s := r.Stack; s != nil {
		t.Add("stack", probeStackLine(s))
	}
	if b := r.Bench; b != nil {
		var parts []string
		for _, n := range probe.BenchTypes {
			if v, ok := b.TFLOPS[n]; ok {
				parts = append(parts, fmt.Sprintf("%s %.0f TFLOPS", n, v))
			}
		}
		if b.CopyGBps > 0 {
			parts = append(parts, fmt.Sprintf("copy %.0f GB/s", b.CopyGBps))
		}
		for _, n := range slices.Sorted(maps.Keys(b.Errors)) {
			parts = append(parts, fmt.Sprintf("%s failed (%s)", n, b.Errors[n]))
		}
		t.Add("bench", strings.Join(parts, ", "))
	}
	if s := r.Storage; s != nil {
		how := "direct I/O"
		if !s.Direct {
			how = "page cache"
		}
		t.Add("storage", fmt.Sprintf("%s: read %.2f GB/s, write %.2f GB/s, 4 KiB random read %.0f IOPS (%d threads), %.0f GB free, %.2f GiB file, %s",
			s.Path, s.SeqReadGBps, s.SeqWriteGBps, s.RandReadIOPS, s.Threads, s.FreeGB, float64(s.FileBytes)/(1<<30), how))
		if s.Note != "" {
			t.Notes = append(t.Notes, "storage: "+s.Note)
		}
	}
	if n := r.Network; n != nil {
		t.Add("network", probeNetworkLine(n))
	}
	for _, s := range r.Skipped {
		t.Notes = append(t.Notes, fmt.Sprintf("skipped %s: %s", s.Part, s.Reason))
	}
	return t.WriteText(w)
}

func probeGPULine(g probe.GPU) string {
	name := probeOrUnknown(g.Name)
	if g.CatalogID != "" {
		name += " (" + g.CatalogID + ")"
	}
	parts := []string{name}
	if g.MemoryMiB > 0 {
		parts = append(parts, fmt.Sprintf("%d MiB", g.MemoryMiB))
	}
	if g.Driver != "" {
		d := "driver " + g.Driver
		if g.CUDADriver != "" {
			d += " (CUDA " + g.CUDADriver + ")"
		}
		parts = append(parts, d)
	}
	if g.GFXTarget != "" {
		parts = append(parts, g.GFXTarget)
	}
	if g.ClockSMMHz > 0 {
		parts = append(parts, fmt.Sprintf("SM %d MHz, memory %d MHz", g.ClockSMMHz, g.ClockMemMHz))
	}
	if g.PowerLimitW > 0 {
		parts = append(parts, fmt.Sprintf("%.0f W limit", g.PowerLimitW))
	}
	if g.ECC != "" {
		parts = append(parts, "ECC "+g.ECC)
	}
	if g.MIG != "" {
		parts = append(parts, "MIG "+g.MIG)
	}
	return strings.Join(parts, ", ")
}

func probeStackLine(s *probe.Stack) string {
	parts := []string{"Python " + probeOrUnknown(s.Python)}
	switch {
	case s.Torch != "":
		t := "torch " + s.Torch
		var build []string
		if s.TorchCUDA != "" {
			build = append(build, "CUDA "+s.TorchCUDA)
		}
		if s.TorchHIP != "" {
			build = append(build, "HIP "+s.TorchHIP)
		}
		if len(s.ArchList) > 0 {
			build = append(build, strings.Join(s.ArchList, " "))
		}
		if len(build) > 0 {
			t += " (" + strings.Join(build, ", ") + ")"
		}
		if s.CUDAAvailable {
			t += fmt.Sprintf(", sees %d GPU(s)", s.DeviceCount)
		} else {
			t += ", sees no GPU"
		}
		parts = append(parts, t)
	case s.TorchError != "":
		parts = append(parts, "torch not importable: "+s.TorchError)
	default:
		parts = append(parts, "no torch")
	}
	if s.JAX != "" {
		parts = append(parts, "jax "+s.JAX)
	}
	if s.VLLM != "" {
		parts = append(parts, "vllm "+s.VLLM)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Packages)) {
		parts = append(parts, k+" "+s.Packages[k])
	}
	return strings.Join(parts, ", ")
}

// WriteProbeFindings writes the findings of probe.Compare for people, in their order.
func WriteProbeFindings(w io.Writer, fs []probe.Finding) error {
	t := Table{Columns: []Column{{Header: "SEVERITY", Key: "severity"}, {Header: "PART", Key: "part"}, {Header: "FINDING", Key: "finding"}}}
	for _, f := range fs {
		t.Add(string(f.Severity), f.Part, f.Sentence)
	}
	if len(fs) == 0 {
		t.Notes = append(t.Notes, "nothing to compare: the report and the offer share no measured part")
	}
	return t.WriteText(w)
}

func probeOrUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func probeNetworkLine(n *probe.Network) string {
	return fmt.Sprintf("%s: %.2f Gbit/s over %d stream(s) in %.1f s, RTT p50 %.3f ms, p99 %.3f ms (%d pings)",
		n.Peer, n.ThroughputGbps, n.Streams, n.Seconds, n.RTTP50Ms, n.RTTP99Ms, n.Pings)
}

// WriteProbeNetwork writes a network measurement for people, on one line.
func WriteProbeNetwork(w io.Writer, n *probe.Network) error {
	_, err := fmt.Fprintln(w, probeNetworkLine(n))
	return err
}
