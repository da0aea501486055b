// Package compat judges whether a workload's software stack runs on an
// accelerator. It holds a matrix, parsed from data (data/compat.yaml), of
// CUDA toolkits and drivers, ROCm targets, framework releases and their
// builds per backend, and the hardware behind kernels and features
// (FlashAttention, FP8, FP4, Triton, bitsandbytes, MIG, ...). Check turns a
// workload.Stack, a catalog.Accelerator and an offer's driver into a verdict
// (compatible, needs-work, incompatible) whose every reason says what to do
// and cites the source of the fact, plus the lowest versions that work, the
// vendor's lock-in note and a proof-of-concept checklist. It does no I/O.
package compat

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/workload"
)

// Verdict is the outcome of a compatibility check.
type Verdict string

// Verdicts, from best to worst. NeedsWork runs after a port or a known
// workaround, with a cost; Incompatible does not run.
const (
	Compatible   Verdict = "compatible"
	NeedsWork    Verdict = "needs-work"
	Incompatible Verdict = "incompatible"
)

func (v Verdict) valid() bool { return v == Compatible || v == NeedsWork || v == Incompatible }

func (v Verdict) rank() int {
	switch v {
	case NeedsWork:
		return 1
	case Incompatible:
		return 2
	}
	return 0
}

// Worse returns the worse of v and w.
func (v Verdict) Worse(w Verdict) Verdict {
	if w.rank() > v.rank() {
		return w
	}
	return v
}

// Reason is one finding: its verdict, what it means (Text), what to do
// about it (Fix, empty when nothing needs doing) and the source of the fact
// behind it. Text and Source are never empty.
type Reason struct {
	Verdict Verdict `json:"verdict"`
	Text    msg.Msg `json:"text"`
	Fix     msg.Msg `json:"fix,omitzero"`
	Source  string  `json:"source"`
	// Porting is the work a needs-work reason asks for; nil for the
	// other verdicts, and for a reason that says gpupick cannot judge
	// (an unknown need, framework, version or accelerator): that is
	// uncertainty to verify, the same on every offer, not work the offer
	// causes.
	Porting *Porting `json:"porting,omitempty"`
}

// Porting is the engineering one needs-work reason asks for before the
// stack runs: its kind of work (Kind, a key of Matrix.WorkKinds; Name, in
// words), the engineer-days it takes and the calendar days it delays the
// start, with the source of the figures.
type Porting struct {
	Kind         string  `json:"kind"`
	Name         string  `json:"name"`
	EngineerDays float64 `json:"engineer_days"`
	DelayDays    float64 `json:"delay_days"`
	Source       string  `json:"source"`
}

// Porting sums the work of r's needs-work reasons: engineer-days, delay
// in calendar days (the works done one after another) and the kinds of
// work, each once, in the order met. All zero when nothing needs work.
func (r Result) Porting() (engineerDays, delayDays float64, kinds []string) {
	for _, x := range r.Reasons {
		if x.Porting == nil {
			continue
		}
		engineerDays += x.Porting.EngineerDays
		delayDays += x.Porting.DelayDays
		if !slices.Contains(kinds, x.Porting.Kind) {
			kinds = append(kinds, x.Porting.Kind)
		}
	}
	return engineerDays, delayDays, kinds
}

// Result is the verdict for one stack on one accelerator.
type Result struct {
	// Verdict is the worst of the reasons; compatible when there is none.
	Verdict Verdict  `json:"verdict"`
	Reasons []Reason `json:"reasons"`
	// MinVersions are the lowest versions that run this stack on the
	// accelerator: the framework id (e.g. "pytorch": "2.7"), the build's
	// toolkit ("cuda": "12.8", "rocm", "cann", "gaudi") and, on NVIDIA, the
	// Linux driver ("driver": "570.26"). Within the stack's version
	// constraint when some allowed version works, otherwise the fix.
	MinVersions map[string]string `json:"min_versions"`
	// LockIn is one sentence on the accelerator vendor's ecosystem.
	LockIn msg.Msg `json:"lock_in"`
	// Checklist is 4-7 steps to run on a trial instance before committing.
	Checklist []msg.Msg `json:"poc_checklist"`
}

const matrixSource = "gpupick compatibility matrix (data/compat.yaml)"

type checker struct {
	m      *Matrix
	st     workload.Stack
	a      *catalog.Accelerator
	driver string
	vendor *Vendor
	res    Result
	// needDriver is the lowest driver a working build of the stack needs,
	// with that build's CUDA toolkit; empty when not known.
	needDriver, needCUDA string
	deviceCheck          string
	fwName               string  // the framework's display name
	cc                   Version // the accelerator's compute capability; nil when unknown or not NVIDIA's form
}

// Check judges st on accelerator a. driver is the offer's NVIDIA driver as
// the catalog states it (free text such as "535.104" or "Tesla 470/CUDA 11.4
// default; 550 selectable"); empty when unknown. An empty framework counts
// as pytorch; "other" is not judged. A nil accelerator is needs-work.
func (m *Matrix) Check(st workload.Stack, a *catalog.Accelerator, driver string) Result {
	c := &checker{m: m, st: st, a: a, driver: driver, res: Result{Verdict: Compatible, MinVersions: map[string]string{}}}
	if a == nil {
		c.add(Reason{Verdict: NeedsWork, Text: msg.New("the accelerator is not in the catalog, so its software support cannot be judged"),
			Fix: msg.New("verify the stack on a trial instance"), Source: matrixSource})
		c.res.Checklist = []msg.Msg{throughputStep("")}
		return c.res
	}
	c.cc, _ = ParseVersion(a.ComputeCapability)
	c.vendor = m.Vendors[a.Vendor]
	if c.vendor == nil {
		c.add(Reason{Verdict: NeedsWork, Text: msg.New("gpupick knows no software stack for vendor %q of %s", a.Vendor, a.Name),
			Fix: msg.New("verify the stack on a trial instance"), Source: matrixSource})
		c.res.Checklist = []msg.Msg{throughputStep(a.ID)}
		return c.res
	}
	c.res.LockIn = msg.Text(c.vendor.LockIn)
	fw := st.Framework
	c.fwName = "PyTorch"
	if f := m.Frameworks[string(fw)]; f != nil {
		c.fwName = f.Name
	} else if fw == workload.FrameworkOther {
		c.fwName = "your code"
	}
	if fw == "" {
		fw = workload.FrameworkPyTorch
	}
	if fw == workload.FrameworkOther {
		c.add(Reason{Verdict: Compatible, Text: msg.New("framework other (custom code) is not judged; only the needs are checked"),
			Source: matrixSource})
	} else {
		c.framework(string(fw))
	}
	for _, n := range st.Needs {
		c.need(strings.ToLower(strings.TrimSpace(n)))
	}
	c.checkDriver()
	c.res.Checklist = c.checklist()
	return c.res
}

func (c *checker) add(r Reason) {
	if r.Source == "" {
		r.Source = matrixSource
	}
	if r.Verdict != NeedsWork {
		r.Porting = nil
	}
	c.res.Reasons = append(c.res.Reasons, r)
	c.res.Verdict = c.res.Verdict.Worse(r.Verdict)
}

// gpu is the accelerator's short name: its first alias (B200, H100,
// MI300X), else its name, else its id.
func (c *checker) gpu() string {
	if len(c.a.Aliases) > 0 && c.a.Aliases[0] != "" {
		return c.a.Aliases[0]
	}
	if c.a.Name != "" {
		return c.a.Name
	}
	return c.a.ID
}

func (c *checker) framework(id string) {
	fw := c.m.Frameworks[id]
	if fw == nil {
		c.add(Reason{Verdict: NeedsWork, Text: msg.New("gpupick's matrix has no entry for framework %s", id),
			Fix: msg.New("verify the framework on a trial instance"), Source: matrixSource})
		return
	}
	cons, err := ParseConstraint(c.st.Version)
	if err != nil {
		c.add(Reason{Verdict: NeedsWork, Text: msg.New("cannot read the version constraint %q: %v", c.st.Version, err),
			Fix: msg.New("write it as e.g. \">=2.4\" or \">=0.6, <0.8\""), Source: matrixSource})
		cons = Constraint{}
	}
	backend := c.vendor.Backend
	pl := fw.Platforms[backend]
	if pl == nil {
		c.add(Reason{Verdict: NeedsWork, Text: msg.New("gpupick's matrix does not say whether %s runs on %s", fw.Name, backend),
			Fix: msg.New("verify on a trial instance"), Source: matrixSource})
		return
	}
	if pl.DeviceCheck != "" {
		c.deviceCheck = pl.DeviceCheck
	}
	switch pl.Support {
	case None:
		c.add(Reason{Verdict: Incompatible, Text: msg.New("%s on %s: %s", fw.Name, c.gpu(), pl.Text), Fix: msg.Text(pl.Fix), Source: pl.Source})
		return
	case Port:
		c.add(Reason{Verdict: NeedsWork,
			Text: msg.New("%s runs on %s through %s; cost: %s", fw.Name, c.gpu(), pl.Via, pl.Cost),
			Fix:  msg.Text(pl.Fix), Source: pl.Source, Porting: c.m.porting(pl.Work)})
	}
	if pl.MinCC != "" && c.a.ComputeCapability != "" {
		if cc := c.cc; cc != nil && cc.Compare(mustVersion(pl.MinCC)) < 0 {
			c.add(Reason{Verdict: Incompatible,
				Text: msg.New("%s needs compute capability %s or newer; %s is %s", fw.Name, pl.MinCC, c.gpu(), c.a.ComputeCapability),
				Fix:  msg.New("choose a newer GPU"), Source: pl.Source})
			return
		}
	}
	if fw.Requires != "" {
		base := c.m.Frameworks[fw.Requires]
		if base != nil {
			// The constraint is on fw's own versions; any base release will do.
			c.releases(fw.Requires, base, Constraint{Local: cons.Local}, fw.Name)
		}
		return
	}
	if len(fw.Releases) > 0 {
		c.releases(id, fw, cons, "")
	}
}

// build is one (release, toolkit) pair judged on the accelerator.
type build struct {
	rel     *Release
	toolkit string // CUDA toolkit, ROCm, CANN or Gaudi software version
	ok      bool
	why     msg.Msg // why not, when !ok
	driver  string  // minimum NVIDIA driver, CUDA only
	exp     bool
}

func backendLabel(b string) string {
	switch b {
	case "cuda":
		return "CUDA"
	case "rocm":
		return "ROCm"
	case "cann":
		return "CANN"
	case "gaudi":
		return "Intel Gaudi software"
	}
	return b
}

// builds judges every build of r for the accelerator's backend; nil when r
// lists none for it.
func (c *checker) builds(r *Release) []build {
	var out []build
	switch c.vendor.Backend {
	case "cuda":
		for i := range r.CUDA {
			b := &r.CUDA[i]
			tk := c.m.toolkit(b.Toolkit)
			ok, why := c.cudaSupports(r, b, tk)
			d := ""
			if tk != nil {
				d = tk.MinDriverLinux
			}
			out = append(out, build{rel: r, toolkit: b.Toolkit, ok: ok, why: why, driver: d, exp: b.Experimental})
		}
	case "rocm":
		for _, v := range r.ROCm {
			ok, why := c.rocmSupports(v)
			out = append(out, build{rel: r, toolkit: v, ok: ok, why: why})
		}
	case "cann":
		for _, v := range r.CANN {
			out = append(out, build{rel: r, toolkit: v, ok: true})
		}
	case "gaudi":
		for _, v := range r.Gaudi {
			out = append(out, build{rel: r, toolkit: v, ok: true})
		}
	}
	return out
}

// cudaSupports says whether build b of release r runs on the accelerator;
// tk is b's toolkit in the matrix (nil: not in it).
func (c *checker) cudaSupports(r *Release, b *CUDABuild, tk *CUDAToolkit) (bool, msg.Msg) {
	cc := c.cc
	if len(cc) == 0 {
		return true, msg.Msg{} // unknown capability: cannot tell, do not block
	}
	if tk == nil {
		return false, msg.New("CUDA %s is not in the matrix", b.Toolkit)
	}
	if cc.Compare(parsed(tk.minCC, tk.MinCC)) < 0 {
		return false, msg.New("CUDA %s cannot target compute capability %s (its floor is %s%s)", b.Toolkit, c.a.ComputeCapability, tk.MinCC, noteSuffix(tk.Note))
	}
	if r.MinCC != "" && cc.Compare(parsed(r.minCC, r.MinCC)) < 0 {
		return false, msg.New("the release needs compute capability %s or newer", r.MinCC)
	}
	archs := b.archList()
	if len(archs) == 0 {
		if cc[0] > part(parsed(tk.maxCC, tk.MaxCC), 0) {
			return false, msg.New("CUDA %s predates compute capability %s (it targets up to %s)", b.Toolkit, c.a.ComputeCapability, tk.MaxCC)
		}
		return true, msg.Msg{}
	}
	for _, a := range archs {
		if a.cc[0] == cc[0] && part(a.cc, 1) <= part(cc, 1) || a.ptx && a.cc.Compare(cc) <= 0 {
			return true, msg.Msg{}
		}
	}
	list := make([]string, len(archs)) // only a refusal names them
	for i, a := range archs {
		list[i] = "sm_" + strings.ReplaceAll(a.cc.String(), ".", "") + map[bool]string{true: "+PTX"}[a.ptx]
	}
	return false, msg.New("its CUDA %s wheels are built for %s, which does not include sm_%s", b.Toolkit, strings.Join(list, ", "), strings.ReplaceAll(c.a.ComputeCapability, ".", ""))
}

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return "; " + n
}

func (c *checker) rocmSupports(rocm string) (bool, msg.Msg) {
	if c.a.GFXTarget == "" {
		return true, msg.Msg{}
	}
	for _, t := range c.m.ROCmTargets {
		if t.GFX == c.a.GFXTarget {
			have, err := ParseVersion(rocm)
			if err != nil {
				return false, msg.New("ROCm %q is not a version", rocm)
			}
			if have.Compare(mustVersion(t.MinROCm)) < 0 {
				return false, msg.New("ROCm %s predates %s (%s needs ROCm %s+)", rocm, c.a.GFXTarget, c.gpu(), t.MinROCm)
			}
			return true, msg.Msg{}
		}
	}
	return false, msg.New("gpupick's matrix does not know which ROCm supports %s", c.a.GFXTarget)
}

// releases checks fw's releases against the constraint and records the
// lowest working versions. label, when set, names the framework the user
// chose (deepspeed) when the builds are its base's (pytorch).
func (c *checker) releases(id string, fw *Framework, cons Constraint, label string) {
	backend := c.vendor.Backend
	pinBackend, pinToolkit, pinned := pin(cons.Local)
	if cons.Local != "" && !pinned {
		c.add(Reason{Verdict: NeedsWork, Text: msg.New("gpupick does not know the build +%s", cons.Local),
			Fix: msg.New("verify the build on a trial instance"), Source: matrixSource})
	}
	if pinned && pinBackend == "cpu" {
		c.add(Reason{Verdict: Incompatible, Text: msg.New("the +cpu build of %s cannot use %s", fw.Name, c.gpu()),
			Fix: msg.New("install a %s build", backendLabel(backend)), Source: matrixSource})
		return
	}
	if pinned && pinBackend != backend {
		c.add(Reason{Verdict: Incompatible,
			Text: msg.New("+%s is a %s build of %s; %s needs a %s build", cons.Local, backendLabel(pinBackend), fw.Name, c.gpu(), backendLabel(backend)),
			Fix:  msg.New("drop the +%s pin or use a %s build", cons.Local, backendLabel(backend)), Source: fw.Releases[0].Source})
		return
	}
	lastWithBackend := -1
	for i, r := range fw.Releases {
		if len(c.builds(r)) > 0 {
			lastWithBackend = i
		}
	}
	if lastWithBackend < 0 {
		return // the matrix keeps no per-release builds for this backend
	}
	pinOK := func(b build) bool {
		if !pinned {
			return true
		}
		want, err1 := ParseVersion(pinToolkit)
		have, err2 := ParseVersion(b.toolkit)
		return err1 == nil && err2 == nil && want.Compare(have) == 0
	}
	var (
		allowedAny, beyond          bool
		firstAllowed, firstUnpinned *build // lowest working allowed build, with and without the pin
		firstOverall                *build
		failures                    []build // allowed builds that do not work
		minAllowedDriver            *build
	)
	for i, r := range fw.Releases {
		allowed := cons.AllowsSeries(r.ver())
		if allowed {
			allowedAny = true
			if i > lastWithBackend {
				beyond = true
			}
		}
		bs := c.builds(r)
		for j := range bs {
			b := bs[j]
			if b.ok && firstOverall == nil {
				firstOverall = &bs[j]
			}
			if !allowed {
				continue
			}
			if b.ok && firstUnpinned == nil {
				firstUnpinned = &bs[j]
			}
			if !pinOK(b) {
				continue
			}
			if !b.ok {
				failures = append(failures, b)
				continue
			}
			if firstAllowed == nil {
				firstAllowed = &bs[j]
			}
			if b.driver != "" && (minAllowedDriver == nil || mustVersion(b.driver).Compare(mustVersion(minAllowedDriver.driver)) < 0) {
				minAllowedDriver = &bs[j]
			}
		}
	}
	name := msg.Text(fw.Name)
	if label != "" {
		name = msg.New("%s (on %s)", label, fw.Name)
	}
	record := func(b *build) {
		c.res.MinVersions[id] = b.rel.Version
		c.res.MinVersions[backend] = b.toolkit
		if b.driver != "" {
			c.res.MinVersions["driver"] = b.driver
		}
	}
	switch {
	case firstAllowed != nil:
		record(firstAllowed)
		if minAllowedDriver != nil {
			c.needDriver, c.needCUDA = minAllowedDriver.driver, minAllowedDriver.toolkit
		}
		tag := ""
		if firstAllowed.exp {
			tag = " (experimental wheels)"
		}
		text := msg.New("%s runs %s %s with %s %s builds%s", c.gpu(), fw.Name, firstAllowed.rel.Version, backendLabel(backend), firstAllowed.toolkit, tag)
		if label != "" {
			text = msg.New("%s runs %s on %s %s with %s %s builds%s", c.gpu(), label, fw.Name, firstAllowed.rel.Version, backendLabel(backend), firstAllowed.toolkit, tag)
		}
		c.add(Reason{Verdict: Compatible,
			Text:   text,
			Source: firstAllowed.rel.Source})
	case !allowedAny:
		text := msg.New("gpupick's matrix lists no %s release matching %q", fw.Name, cons.String())
		if firstOverall != nil {
			record(firstOverall)
		}
		c.add(Reason{Verdict: NeedsWork, Text: text, Fix: msg.New("verify the version on a trial instance (the matrix may predate it)"), Source: matrixSource})
	case beyond && len(failures) == 0:
		if firstOverall != nil {
			record(firstOverall)
		}
		c.add(Reason{Verdict: NeedsWork,
			Text: msg.New("gpupick's matrix lists %s builds of %s only up to %s; newer releases are not judged", backendLabel(backend), fw.Name, fw.Releases[lastWithBackend].Version),
			Fix:  msg.New("verify the build on a trial instance"), Source: fw.Releases[lastWithBackend].Source})
	default:
		var why msg.Msg
		src := fw.Releases[0].Source
		if len(failures) > 0 {
			f := failures[0]
			why = msg.New("%s %s: %s", fw.Name, f.rel.Version, f.why)
			if f.why.IsZero() {
				why = msg.New("%s %s has no %s build for it", fw.Name, f.rel.Version, backendLabel(backend))
			}
			src = f.rel.Source
		} else {
			why = msg.New("no %s release in %q has a %s build", fw.Name, cons.String(), backendLabel(backend))
		}
		switch {
		case pinned && firstUnpinned != nil:
			record(firstUnpinned)
			c.add(Reason{Verdict: Incompatible,
				Text:   msg.New("the +%s build of %s does not run on %s (%s)", cons.Local, name, c.gpu(), why),
				Fix:    msg.New("use the %s %s build of %s %s instead", backendLabel(backend), firstUnpinned.toolkit, fw.Name, firstUnpinned.rel.Version),
				Source: src})
		case firstOverall != nil:
			record(firstOverall)
			c.add(Reason{Verdict: Incompatible,
				Text:   msg.New("%s needs %s >= %s with %s %s builds; %s", c.gpu(), fw.Name, firstOverall.rel.Version, backendLabel(backend), firstOverall.toolkit, why),
				Fix:    msg.New("allow %s >= %s (%s %s build)", fw.Name, firstOverall.rel.Version, backendLabel(backend), firstOverall.toolkit),
				Source: firstOverall.rel.Source + "; " + src})
		default:
			c.add(Reason{Verdict: Incompatible,
				Text: msg.New("no %s release in gpupick's matrix has a %s build for %s; %s", fw.Name, backendLabel(backend), c.gpu(), why),
				Fix:  msg.New("choose another accelerator or framework"), Source: src})
		}
	}
}

// driverVersion is a driver version and its text as written (535.104.05
// keeps its leading zero).
type driverVersion struct {
	v   Version
	raw string
}

var driverRe = regexp.MustCompile(`(?:^|[^0-9.])([3-9][0-9]{2}(?:\.[0-9]{1,3}){0,2})(\+?)`)

// parseDriver extracts NVIDIA driver versions (3xx-9xx, with optional
// minor/patch) from free text. open reports a "450+"-style entry, meaning the
// user may install any newer driver. The first version is the default.
func parseDriver(s string) (vs []driverVersion, open bool) {
	for _, m := range driverRe.FindAllStringSubmatch(s, 16) {
		v, err := ParseVersion(m[1])
		if err != nil {
			continue
		}
		vs = append(vs, driverVersion{v: v, raw: m[1]})
		if m[2] == "+" {
			open = true
		}
	}
	return vs, open
}

func (c *checker) checkDriver() {
	if c.driver == "" || c.needDriver == "" || c.vendor == nil || c.vendor.Backend != "cuda" {
		return
	}
	vs, open := parseDriver(c.driver)
	if len(vs) == 0 {
		return
	}
	need := mustVersion(c.needDriver)
	best, def := vs[0], vs[0]
	for _, v := range vs[1:] {
		if v.v.Compare(best.v) > 0 {
			best = v
		}
	}
	src := "NVIDIA CUDA Toolkit Release Notes, Table 3 (https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html)"
	if tk := c.m.toolkit(c.needCUDA); tk != nil {
		src = tk.Source
	}
	switch {
	case best.v.Compare(need) >= 0 && def.v.Compare(need) < 0:
		c.add(Reason{Verdict: Compatible,
			Text:   msg.New("the offer's default driver %s is older than the %s that CUDA %s builds need, but %s is selectable", def.raw, c.needDriver, c.needCUDA, best.raw),
			Fix:    msg.New("select the image with driver %s", best.raw),
			Source: src})
	case best.v.Compare(need) < 0:
		text := msg.New("the offer's driver %s is older than %s, which CUDA %s builds need", best.raw, c.needDriver, c.needCUDA)
		if best.v[0] >= 525 && part(mustVersion(c.needCUDA), 0) == 12 {
			text = msg.New("%s (CUDA 12 minor-version compatibility may let it run, without newer-driver features)", text)
		}
		fix := msg.New("upgrade the driver or use an image with driver >= %s", c.needDriver)
		if open {
			fix = msg.New("install driver >= %s on the instance (the offer lets you choose the driver)", c.needDriver)
		}
		c.add(Reason{Verdict: NeedsWork, Text: text, Fix: fix, Source: src, Porting: c.m.porting(&Work{Kind: WorkVersionUpgrade})})
	}
}

func (c *checker) need(id string) {
	if id == "" {
		return
	}
	f := c.m.Features[id]
	if f == nil {
		c.add(Reason{Verdict: NeedsWork,
			Text: msg.New("gpupick does not know the need %q, so it cannot judge it on %s", id, c.gpu()),
			Fix:  msg.New("verify it on a trial instance"), Source: matrixSource + ": no entry for " + id})
		return
	}
	o := f.Otherwise
	for _, r := range f.Rules {
		if c.matches(r) {
			o = r.Outcome
			break
		}
	}
	text := withGPU(o.Text, c.gpu())
	if o.Cost != "" {
		text = msg.New("%s; cost: %s", text, o.Cost)
	}
	v := o.Verdict
	if v == "" {
		v = Compatible
	}
	c.add(Reason{Verdict: v, Text: msg.New("%s: %s", f.Name, text), Fix: withGPU(o.Fix, c.gpu()), Source: o.Source, Porting: c.m.porting(o.Work)})
}

// withGPU is a matrix sentence whose {gpu} placeholders name gpu: the
// message's key is the sentence with %s in their place (the catalog's
// entry for it).
func withGPU(t, gpu string) msg.Msg {
	n := strings.Count(t, "{gpu}")
	if n == 0 {
		return msg.Text(t)
	}
	args := make([]any, n)
	for i := range args {
		args[i] = gpu
	}
	return msg.New(strings.ReplaceAll(strings.ReplaceAll(t, "%", "%%"), "{gpu}", "%s"), args...)
}

// porting is the work w asks for, with its kind's figures where w states
// none; nil when w is nil or names no kind the matrix has (Parse refuses
// both for a needs-work entry).
func (m *Matrix) porting(w *Work) *Porting {
	if w == nil {
		return nil
	}
	k := m.WorkKinds[w.Kind]
	if k == nil {
		return nil
	}
	p := &Porting{Kind: w.Kind, Name: k.Name, EngineerDays: k.EngineerDays, DelayDays: k.DelayDays, Source: k.Source}
	if w.EngineerDays > 0 {
		p.EngineerDays = w.EngineerDays
	}
	if w.DelayDays > 0 {
		p.DelayDays = w.DelayDays
	}
	return p
}

func (c *checker) matches(r Rule) bool {
	a := c.a
	if r.Vendor != "" && r.Vendor != a.Vendor {
		return false
	}
	if r.MinCC != "" || r.MaxCC != "" {
		cc := c.cc
		if cc == nil {
			return false
		}
		if r.MinCC != "" && cc.Compare(mustVersion(r.MinCC)) < 0 {
			return false
		}
		if r.MaxCC != "" && cc.Compare(mustVersion(r.MaxCC)) > 0 {
			return false
		}
	}
	if len(r.GFX) > 0 && !contains(r.GFX, a.GFXTarget) {
		return false
	}
	if len(r.IDs) > 0 && !contains(r.IDs, a.ID) {
		return false
	}
	if r.Peak != "" {
		dt, _ := parseDataType(r.Peak)
		if _, ok := a.TFLOPS(dt); !ok {
			return false
		}
	}
	if r.MIG && !a.MIG {
		return false
	}
	return true
}

func parseDataType(s string) (catalog.DataType, bool) { return catalog.ParseDataType(s) }
