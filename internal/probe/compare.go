package probe

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// Severity says how much a finding matters.
type Severity string

// Severities, from harmless to blocking. Critical means the server is not
// what the offer claims, or the workload will not run (or will starve) on it.
const (
	OK       Severity = "ok"
	Warning  Severity = "warning"
	Critical Severity = "critical"
)

// Finding is one measured fact set against the catalog's claim. Measured,
// Claimed and Ratio (Measured/Claimed) are zero for facts that are not
// numbers (a GPU model, a driver version); Sentence always says it in words.
type Finding struct {
	Part     string   `json:"part"` // gpu, gpu-memory, mig, power, topology, driver, stack, compute, copy, storage, network, cpu, ram
	Measured float64  `json:"measured,omitempty"`
	Claimed  float64  `json:"claimed,omitempty"`
	Unit     string   `json:"unit,omitempty"`
	Ratio    float64  `json:"ratio,omitempty"`
	Severity Severity `json:"severity"`
	Sentence string   `json:"sentence"`
}

// Compare sets report r against what offer o and its accelerator a claim,
// and, with a workload spec and the compat matrix m, against what the
// workload needs. Any of o, a, spec and m may be nil: the findings that
// need them are left out. Findings come in a fixed order of parts.
func Compare(r *Report, o *catalog.Offer, a *catalog.Accelerator, spec *workload.Spec, m *compat.Matrix) []Finding {
	c := comparer{r: r, o: o, a: a, spec: spec}
	c.gpus()
	if spec != nil && m != nil && a != nil {
		c.stack(m.Check(spec.Stack, a, c.driver()))
	}
	c.compute()
	c.storage()
	c.network()
	c.host()
	return c.out
}

type comparer struct {
	r    *Report
	o    *catalog.Offer
	a    *catalog.Accelerator
	spec *workload.Spec
	out  []Finding
}

func (c *comparer) add(f Finding) {
	if f.Claimed > 0 && f.Ratio == 0 {
		f.Ratio = f.Measured / f.Claimed
	}
	c.out = append(c.out, f)
}

func (c *comparer) driver() string {
	if len(c.r.GPUs) > 0 {
		return c.r.GPUs[0].Driver
	}
	return ""
}

func (c *comparer) skipReason(part string) string {
	for _, s := range c.r.Skipped {
		if s.Part == part {
			return s.Reason
		}
	}
	return "not measured"
}

func (c *comparer) gpus() {
	if c.a == nil {
		return
	}
	want := 0
	if c.o != nil {
		want = c.o.GPUCount
	}
	claim := c.a.ID
	if want > 0 {
		claim = fmt.Sprintf("%d × %s", want, c.a.ID)
	}
	g := c.r.GPUs
	if len(g) == 0 {
		c.add(Finding{Part: "gpu", Claimed: float64(want), Unit: "GPUs", Severity: Critical,
			Sentence: fmt.Sprintf("the probe found no accelerator (%s), against %s claimed", c.skipReason("gpu"), claim)})
		return
	}
	var wrong, unknown []string
	for _, x := range g {
		switch x.CatalogID {
		case c.a.ID:
		case "":
			unknown = appendOnce(unknown, x.Name)
		default:
			wrong = appendOnce(wrong, fmt.Sprintf("%s (%s)", x.Name, x.CatalogID))
		}
	}
	switch {
	case len(wrong) > 0:
		c.add(Finding{Part: "gpu", Severity: Critical,
			Sentence: fmt.Sprintf("the server has %s, not %s as claimed", strings.Join(wrong, " and "), c.a.ID)})
	case len(unknown) > 0:
		c.add(Finding{Part: "gpu", Severity: Warning,
			Sentence: fmt.Sprintf("gpupick does not recognise %s, so it cannot confirm the claimed %s", strings.Join(unknown, " and "), c.a.ID)})
	}
	if want > 0 && len(g) != want {
		c.add(Finding{Part: "gpu", Measured: float64(len(g)), Claimed: float64(want), Unit: "GPUs", Severity: Critical,
			Sentence: fmt.Sprintf("%d GPUs visible against %d claimed", len(g), want)})
	} else if len(wrong) == 0 && len(unknown) == 0 {
		c.add(Finding{Part: "gpu", Measured: float64(len(g)), Claimed: float64(max(want, len(g))), Unit: "GPUs", Severity: OK,
			Sentence: fmt.Sprintf("%d × %s as claimed", len(g), c.a.ID)})
	}

	claimedMem := c.a.MemGiB
	if c.o != nil && c.o.GPUMemGiB > 0 {
		claimedMem = c.o.GPUMemGiB
	}
	minMiB := g[0].MemoryMiB
	for _, x := range g {
		minMiB = min(minMiB, x.MemoryMiB)
	}
	if got := float64(minMiB) / 1024; minMiB > 0 && claimedMem > 0 {
		// Tools report the memory left after the driver's reserve and ECC:
		// a few percent under the datasheet is normal.
		sev, how := OK, "in line with"
		if got < 0.9*claimedMem {
			sev, how = Warning, "against"
		}
		c.add(Finding{Part: "gpu-memory", Measured: got, Claimed: claimedMem, Unit: "GiB", Severity: sev,
			Sentence: fmt.Sprintf("%.1f GiB of memory per GPU, %s the %g claimed", got, how, claimedMem)})
	}

	var mig, eccOff, lowPower []string
	for _, x := range g {
		id := strconv.Itoa(x.Index)
		if x.MIG == "enabled" {
			mig = append(mig, id)
		}
		if x.ECC == "disabled" {
			eccOff = append(eccOff, id)
		}
		if c.a.TDPWatts > 0 && x.PowerLimitW > 0 && x.PowerLimitW < 0.9*c.a.TDPWatts {
			lowPower = append(lowPower, fmt.Sprintf("%s (%.0f W)", id, x.PowerLimitW))
		}
	}
	if len(mig) > 0 {
		c.add(Finding{Part: "mig", Severity: Warning,
			Sentence: fmt.Sprintf("MIG is enabled on GPU %s: processes see slices, not whole GPUs (nvidia-smi -mig 0 turns it off, with root and a GPU reset)", strings.Join(mig, ", "))})
	}
	if len(eccOff) > 0 {
		c.add(Finding{Part: "ecc", Severity: Warning,
			Sentence: fmt.Sprintf("ECC is off on GPU %s: memory errors go undetected in long runs", strings.Join(eccOff, ", "))})
	}
	if len(lowPower) > 0 {
		c.add(Finding{Part: "power", Measured: g[0].PowerLimitW, Claimed: c.a.TDPWatts, Unit: "W", Severity: Warning,
			Sentence: fmt.Sprintf("power limit below the %.0f W TDP on GPU %s: clocks throttle under sustained load", c.a.TDPWatts, strings.Join(lowPower, ", "))})
	}

	if t := c.r.Topology; t != nil && len(t.Matrix) > 1 {
		kind := c.a.LinkKind
		if c.o != nil && c.o.InterconnectKind != "" {
			kind = c.o.InterconnectKind
		}
		kind = strings.ToLower(kind)
		anyNV := strings.Contains(t.Summary, "NV")
		switch {
		case kind == "nvswitch" && !t.NVLink, kind == "nvlink" && !anyNV:
			c.add(Finding{Part: "topology", Severity: Warning,
				Sentence: fmt.Sprintf("%s, not %s as claimed: collectives (all-reduce, tensor parallelism) run over PCIe, several times slower", t.Summary, kind)})
		case strings.HasPrefix(kind, "nv"):
			c.add(Finding{Part: "topology", Severity: OK, Sentence: t.Summary})
		}
	}
}

// distributions maps a workload framework to the Python distribution whose
// installed version the stack report carries.
var distributions = map[workload.Framework]string{
	workload.FrameworkPyTorch: "torch", workload.FrameworkVLLM: "vllm", workload.FrameworkJAX: "jax",
	workload.FrameworkDeepSpeed: "deepspeed", workload.FrameworkTensorRTLLM: "tensorrt-llm",
	workload.FrameworkSGLang: "sglang", workload.FrameworkMegatron: "megatron-core",
	workload.FrameworkTorchTitan: "torchtitan", workload.FrameworkTensorFlow: "tensorflow",
}

func (s *Stack) version(dist string) string {
	switch dist {
	case "torch":
		return s.Torch
	case "jax":
		return s.JAX
	case "vllm":
		return s.VLLM
	}
	return s.Packages[dist]
}

func (c *comparer) stack(res compat.Result) {
	for _, rs := range res.Reasons {
		if rs.Verdict == compat.Compatible || strings.Contains(rs.Text.String(), "driver") {
			continue // the driver is judged below, from the measured version
		}
		sev := Warning
		if rs.Verdict == compat.Incompatible {
			sev = Critical
		}
		s := rs.Text.String()
		if !rs.Fix.IsZero() {
			s += ": " + rs.Fix.String()
		}
		c.add(Finding{Part: "stack", Severity: sev, Sentence: s})
	}

	if need, have := res.MinVersions["driver"], c.driver(); need != "" && have != "" {
		if versionLess(have, need) {
			c.add(Finding{Part: "driver", Severity: Critical,
				Sentence: fmt.Sprintf("driver %s is older than %s, the lowest that runs this stack on %s: upgrade the driver or choose an image with a newer one", have, need, c.a.ID)})
		} else {
			c.add(Finding{Part: "driver", Severity: OK,
				Sentence: fmt.Sprintf("driver %s meets the %s this stack needs", have, need)})
		}
	}

	st := c.r.Stack
	fw := c.spec.Stack.Framework
	dist := distributions[fw]
	if st == nil {
		c.add(Finding{Part: "stack", Severity: Warning, Sentence: "the Python stack was not checked: " + c.skipReason("stack")})
		return
	}
	if dist != "" {
		have := st.version(dist)
		switch {
		case have == "":
			c.add(Finding{Part: "stack", Severity: Warning,
				Sentence: fmt.Sprintf("%s is not installed in this image's python3 (the workload uses %s)", dist, fw)})
		case !allows(c.spec.Stack.Version, have):
			c.add(Finding{Part: "stack", Severity: Critical,
				Sentence: fmt.Sprintf("%s %s is installed, but the workload asks for %s", dist, have, c.spec.Stack.Version)})
		case res.MinVersions[string(fw)] != "" && versionLess(have, res.MinVersions[string(fw)]):
			c.add(Finding{Part: "stack", Severity: Warning,
				Sentence: fmt.Sprintf("%s %s is installed, older than %s, the first release that supports this stack on %s", dist, have, res.MinVersions[string(fw)], c.a.ID)})
		default:
			c.add(Finding{Part: "stack", Severity: OK, Sentence: fmt.Sprintf("%s %s is installed", dist, have)})
		}
	}
	if need := res.MinVersions["cuda"]; need != "" && st.TorchCUDA != "" && versionLess(st.TorchCUDA, need) {
		c.add(Finding{Part: "stack", Severity: Warning,
			Sentence: fmt.Sprintf("torch is built with CUDA %s; this stack needs a CUDA %s build", st.TorchCUDA, need)})
	}
	if st.Torch != "" && len(c.r.GPUs) > 0 && !st.CUDAAvailable {
		why := "a CPU-only wheel, or a driver older than the wheel's CUDA " + st.TorchCUDA
		if st.TorchCUDA == "" && st.TorchHIP == "" {
			why = "the wheel is CPU-only"
		}
		c.add(Finding{Part: "stack", Severity: Critical,
			Sentence: fmt.Sprintf("torch.cuda.is_available() is False: PyTorch cannot use the GPUs (%s)", why)})
	}
	if arch := wheelArch(c.a); arch != "" && len(st.ArchList) > 0 && !slices.ContainsFunc(st.ArchList, func(s string) bool {
		return s == arch || s == strings.Replace(arch, "sm_", "compute_", 1)
	}) {
		c.add(Finding{Part: "stack", Severity: Warning,
			Sentence: fmt.Sprintf("the torch wheel is compiled for %s but not %s (%s): kernels fall back to slow JIT compilation or fail", strings.Join(st.ArchList, " "), arch, c.a.ID)})
	}
}

// wheelArch is the architecture name a PyTorch wheel lists for a: sm_90
// for compute capability 9.0, the gfx target on AMD.
func wheelArch(a *catalog.Accelerator) string {
	if a.ComputeCapability != "" {
		return "sm_" + strings.ReplaceAll(a.ComputeCapability, ".", "")
	}
	return a.GFXTarget
}

// BenchTypes are the data types the GPU benchmark measures, in the
// order reports list them.
var BenchTypes = []string{"bf16", "fp16", "tf32", "fp8"}

func (c *comparer) compute() {
	b := c.r.Bench
	if b == nil || c.a == nil || !c.sameGPU() {
		return
	}
	for _, name := range BenchTypes {
		got, ok := b.TFLOPS[name]
		dt, _ := catalog.ParseDataType(name)
		peak, has := c.a.TFLOPS(dt)
		if !ok || !has {
			continue
		}
		share := got / peak
		scale := share / perf.MatmulShare(c.a, dt)
		sev, tail := OK, "as the model assumes"
		if scale < 0.9 || scale > 1.1 {
			tail = fmt.Sprintf("expect the model's efficiency to be %.2fx", scale)
		}
		if scale < 0.8 {
			sev = Warning
		}
		c.add(Finding{Part: "compute", Measured: got, Claimed: peak, Unit: name + " TFLOPS", Ratio: share, Severity: sev,
			Sentence: fmt.Sprintf("%s matmul reaches %.0f TFLOPS, %.0f%% of the %.0f peak: %s", name, got, 100*share, peak, tail)})
	}
	if b.CopyGBps > 0 && c.a.MemBandwidthGBps > 0 {
		share := b.CopyGBps / c.a.MemBandwidthGBps
		sev := OK
		if share < 0.6 {
			sev = Warning
		}
		c.add(Finding{Part: "copy", Measured: b.CopyGBps, Claimed: c.a.MemBandwidthGBps, Unit: "GB/s", Ratio: share, Severity: sev,
			Sentence: fmt.Sprintf("device memory copies at %.0f GB/s, %.0f%% of the %g GB/s datasheet bandwidth (80-90%% is usual)", b.CopyGBps, 100*share, c.a.MemBandwidthGBps)})
	}
}

// sameGPU reports whether the measured GPUs are the claimed accelerator,
// so that their speed says something about it.
func (c *comparer) sameGPU() bool {
	return len(c.r.GPUs) > 0 && c.r.GPUs[0].CatalogID == c.a.ID
}

func (c *comparer) storage() {
	s := c.r.Storage
	if s == nil || c.o == nil {
		return
	}
	claimed, kind := c.o.NVMeReadGBps, "local NVMe"
	if claimed == 0 {
		claimed, kind = c.o.BlockGBps, "block storage"
	}
	cache := ""
	if !s.Direct {
		cache = " (through the page cache, so possibly inflated)"
	}
	if claimed == 0 {
		c.add(Finding{Part: "storage", Measured: s.SeqReadGBps, Unit: "GB/s", Severity: OK,
			Sentence: fmt.Sprintf("disk reads %.2f GB/s on %s%s; the catalog claims no figure for this offer", s.SeqReadGBps, s.Path, cache)})
		return
	}
	f := Finding{Part: "storage", Measured: s.SeqReadGBps, Claimed: claimed, Unit: "GB/s", Severity: OK}
	f.Sentence = fmt.Sprintf("disk reads %.1f GB/s on %s%s against %g claimed for %s", s.SeqReadGBps, s.Path, cache, claimed, kind)
	if s.SeqReadGBps < 0.5*claimed {
		f.Severity = Warning
	}
	if c.spec != nil && c.a != nil {
		if base, got, ok := starvation(c.spec, c.a, c.o, s.SeqReadGBps); ok {
			f.Severity = Critical
			f.Sentence = fmt.Sprintf("disk reads %.1f GB/s against %g claimed: the data stage will starve the GPUs for this workload (predicted utilisation %.0f%% instead of %.0f%%)",
				s.SeqReadGBps, claimed, 100*got, 100*base)
		} else if f.Severity != OK {
			f.Sentence += ", still enough for this workload"
		}
	}
	c.add(f)
}

// starvation predicts the workload on one server of the offer twice, with
// the catalog's storage and with the measured read speed; ok when the
// measured speed makes storage the bottleneck and costs utilisation.
func starvation(spec *workload.Spec, a *catalog.Accelerator, o *catalog.Offer, gbps float64) (base, got float64, ok bool) {
	cl, err := perf.NewCluster(a, max(1, o.GPUCount), 1, o)
	if err != nil {
		return 0, 0, false
	}
	p0, err := perf.Predict(spec, cl)
	if err != nil || !p0.Fits {
		return 0, 0, false
	}
	measured := *spec
	measured.Data.StorageGBps = gbps
	p1, err := perf.Predict(&measured, cl)
	if err != nil || !p1.Fits {
		return 0, 0, false
	}
	return p0.Utilization, p1.Utilization, p1.Bottleneck == perf.Storage && p1.Utilization < p0.Utilization-0.01
}

func (c *comparer) network() {
	n := c.r.Network
	if n == nil || c.o == nil {
		return
	}
	f := Finding{Part: "network", Measured: n.ThroughputGbps, Claimed: c.o.NetworkGbps, Unit: "Gbit/s", Severity: OK}
	if c.o.NetworkGbps > 0 {
		f.Sentence = fmt.Sprintf("TCP to %s carries %.1f Gbit/s over %d streams against %g claimed (RTT p50 %.2f ms, p99 %.2f ms)",
			n.Peer, n.ThroughputGbps, n.Streams, c.o.NetworkGbps, n.RTTP50Ms, n.RTTP99Ms)
		if n.ThroughputGbps < 0.5*c.o.NetworkGbps {
			f.Severity = Warning
		}
	} else {
		f.Sentence = fmt.Sprintf("TCP to %s carries %.1f Gbit/s (RTT p50 %.2f ms); the catalog claims no figure", n.Peer, n.ThroughputGbps, n.RTTP50Ms)
	}
	if c.o.FabricGbps > 0 {
		f.Sentence += fmt.Sprintf("; the %g Gbit/s %s fabric uses RDMA, which a TCP probe does not measure", c.o.FabricGbps, c.o.FabricKind)
	}
	c.add(f)
}

func (c *comparer) host() {
	if c.o == nil {
		return
	}
	if c.o.VCPUs > 0 {
		f := Finding{Part: "cpu", Measured: float64(c.r.CPU.Threads), Claimed: float64(c.o.VCPUs), Unit: "vCPUs", Severity: OK,
			Sentence: fmt.Sprintf("%d vCPUs (%s) as claimed", c.r.CPU.Threads, c.r.CPU.Model)}
		if c.r.CPU.Threads < c.o.VCPUs {
			f.Severity = Warning
			f.Sentence = fmt.Sprintf("%d vCPUs against %d claimed: data loading gets fewer workers", c.r.CPU.Threads, c.o.VCPUs)
		}
		c.add(f)
	}
	if c.o.RAMGiB > 0 && c.r.MemoryGiB > 0 {
		f := Finding{Part: "ram", Measured: c.r.MemoryGiB, Claimed: c.o.RAMGiB, Unit: "GiB", Severity: OK,
			Sentence: fmt.Sprintf("%.0f GiB of RAM, in line with the %g claimed", c.r.MemoryGiB, c.o.RAMGiB)}
		if c.r.MemoryGiB < 0.9*c.o.RAMGiB {
			f.Severity = Warning
			f.Sentence = fmt.Sprintf("%.0f GiB of RAM against %g claimed", c.r.MemoryGiB, c.o.RAMGiB)
		}
		c.add(f)
	}
}

// Worst returns the most severe severity among findings (OK for none).
func Worst(fs []Finding) Severity {
	w := OK
	for _, f := range fs {
		if f.Severity == Critical {
			return Critical
		}
		if f.Severity == Warning {
			w = Warning
		}
	}
	return w
}

// leadingVersion parses the numeric prefix of a version such as
// "2.5.1+cu124" or "0.6.3.post1" into its parts.
func leadingVersion(s string) []int {
	var v []int
	for _, p := range strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".") {
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		n, _ := strconv.Atoi(p[:end])
		v = append(v, n)
		if end < len(p) {
			break
		}
	}
	return v
}

// versionLess reports whether version a is below b, by numeric parts.
func versionLess(a, b string) bool {
	return slices.Compare(leadingVersion(a), leadingVersion(b)) < 0
}

// allows reports whether the installed version satisfies a workload's
// version constraint (true when either is unreadable: no false alarms).
func allows(constraint, installed string) bool {
	if strings.TrimSpace(constraint) == "" {
		return true
	}
	cons, err := compat.ParseConstraint(constraint)
	if err != nil {
		return true
	}
	v := leadingVersion(installed)
	if len(v) == 0 {
		return true
	}
	return cons.AllowsSeries(compat.Version(v))
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
