package compat

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/strictyaml"
	"github.com/gpupick/gpupick/internal/workload"
)

// Fact is where an entry of the matrix comes from. Source is a URL or
// repo@commit path; AsOf is the date (YYYY-MM-DD) the source stated it, or
// the date it was read when the source is undated. Note keeps caveats
// ("[unverified]" marks general knowledge not found in a source).
type Fact struct {
	Source string `yaml:"source" json:"source"`
	AsOf   string `yaml:"as_of" json:"as_of"`
	Note   string `yaml:"note,omitempty" json:"note,omitempty"`
}

// Matrix is the software-compatibility matrix: CUDA toolkits, ROCm targets,
// vendors, frameworks and features. Build one with Parse; a parsed Matrix is
// read-only and safe for concurrent use.
type Matrix struct {
	// CUDA lists toolkits in ascending version order.
	CUDA []CUDAToolkit `yaml:"cuda"`
	// ROCmTargets lists, per AMD LLVM target, the first ROCm that supports it.
	ROCmTargets []ROCmTarget `yaml:"rocm_targets"`
	// Vendors maps a catalog vendor id (nvidia, amd, intel, google, aws,
	// huawei) to its backend and notes.
	Vendors map[string]*Vendor `yaml:"vendors"`
	// Frameworks maps a workload framework id (pytorch, vllm, ...) to what
	// it runs on.
	Frameworks map[string]*Framework `yaml:"frameworks"`
	// Features maps a need id (flash-attention-3, fp8, mig, ...) to the
	// hardware that has it.
	Features map[string]*Feature `yaml:"features"`
	// WorkKinds maps a kind of engineering work (kernel-swap,
	// framework-port, ...) to what it takes: every port and every
	// needs-work outcome names one.
	WorkKinds map[string]*WorkKind `yaml:"work_kinds"`
}

// WorkKind is a kind of engineering work a needs-work verdict asks for:
// the engineer-days it takes and the calendar days it delays the start
// (both > 0), with the source of the figures ("[estimate]" in Note when
// no source gives a number).
type WorkKind struct {
	Name         string  `yaml:"name"`
	EngineerDays float64 `yaml:"engineer_days"`
	DelayDays    float64 `yaml:"delay_days"`
	Fact         `yaml:",inline"`
}

// Work is the engineering one port or needs-work outcome asks for: a kind
// of WorkKinds and, where the entry knows better than the kind, its own
// engineer-days and delay (0 = the kind's).
type Work struct {
	Kind         string  `yaml:"kind"`
	EngineerDays float64 `yaml:"engineer_days,omitempty"`
	DelayDays    float64 `yaml:"delay_days,omitempty"`
}

// WorkVersionUpgrade is the kind of work the checker itself assigns to an
// offer whose driver is older than the stack needs.
const WorkVersionUpgrade = "version-upgrade"

// CUDAToolkit is one CUDA release: the oldest Linux driver it needs and the
// range of compute capabilities it can compile for (MaxCC's major bounds
// what runs: a 10.0 cubin also serves 10.3).
type CUDAToolkit struct {
	Version        string `yaml:"version"`
	MinDriverLinux string `yaml:"min_driver_linux"`
	MinCC          string `yaml:"min_cc"`
	MaxCC          string `yaml:"max_cc"`
	Fact           `yaml:",inline"`

	// The versions parsed once by Parse (nil in a matrix made by hand).
	version, minCC, maxCC Version
}

// ROCmTarget is an AMD LLVM target (gfx942) and the first ROCm version that
// supports it.
type ROCmTarget struct {
	GFX     string `yaml:"gfx"`
	MinROCm string `yaml:"min_rocm"`
	Fact    `yaml:",inline"`
}

// Vendor is what holds for every accelerator of one vendor: the software
// backend (cuda, rocm, tpu, neuron, gaudi, cann), the ecosystem lock-in
// note, and the proof-of-concept commands.
type Vendor struct {
	Backend         string `yaml:"backend"`
	LockIn          string `yaml:"lock_in"`
	ToolCheck       string `yaml:"tool_check"`
	DeviceCheck     string `yaml:"device_check"`
	CollectiveCheck string `yaml:"collective_check"`
	Fact            `yaml:",inline"`
}

// Framework is one framework of workload.Frameworks: the backends it runs on
// and, optionally, its releases with their builds. A framework with Requires
// set (e.g. deepspeed requires pytorch) takes its builds from that one.
type Framework struct {
	Name      string               `yaml:"name"`
	Requires  string               `yaml:"requires,omitempty"`
	Platforms map[string]*Platform `yaml:"platforms"`
	// Releases are in ascending version order.
	Releases []*Release `yaml:"releases,omitempty"`
}

// Support says how a framework runs on a backend.
type Support string

// Support levels: Native builds from the project; Port through a plugin,
// bridge or fork with a cost; None has no build at all.
const (
	Native Support = "native"
	Port   Support = "port"
	None   Support = "none"
)

// Platform is a framework on one backend. Via, Fix and Cost describe a port;
// Text and Fix explain None. MinCC bounds NVIDIA compute capability.
type Platform struct {
	Support     Support `yaml:"support"`
	Via         string  `yaml:"via,omitempty"`
	Text        string  `yaml:"text,omitempty"`
	Fix         string  `yaml:"fix,omitempty"`
	Cost        string  `yaml:"cost,omitempty"`
	MinCC       string  `yaml:"min_cc,omitempty"`
	DeviceCheck string  `yaml:"device_check,omitempty"`
	// Work is what a port takes (required for support port).
	Work *Work `yaml:"work,omitempty"`
	Fact `yaml:",inline"`
}

// Release is one release series of a framework (Version "2.7" = 2.7.x) and
// the builds published for it: CUDA toolkits (with compiled arch lists when
// known), ROCm, CANN and Intel Gaudi software versions.
type Release struct {
	Version string      `yaml:"version"`
	CUDA    []CUDABuild `yaml:"cuda,omitempty"`
	ROCm    []string    `yaml:"rocm,omitempty"`
	CANN    []string    `yaml:"cann,omitempty"`
	Gaudi   []string    `yaml:"gaudi,omitempty"`
	// MinCC is the lowest NVIDIA compute capability the release supports.
	MinCC string `yaml:"min_cc,omitempty"`
	Fact  `yaml:",inline"`

	// The versions parsed once by Parse (nil in a matrix made by hand).
	version, minCC Version
}

func (r *Release) ver() Version { return parsed(r.version, r.Version) }

// parsed is a version Parse kept, or s parsed now where it kept none (a
// matrix made by hand): a check never writes to the shared matrix.
func parsed(v Version, s string) Version {
	if v != nil || s == "" {
		return v
	}
	return mustVersion(s)
}

// CUDABuild is one CUDA variant of a release. Archs is the compiled arch
// list ("7.5;8.0;9.0;12.0+PTX"); empty means "what the toolkit targets".
type CUDABuild struct {
	Toolkit      string `yaml:"toolkit"`
	Archs        string `yaml:"archs,omitempty"`
	Experimental bool   `yaml:"experimental,omitempty"`

	// archs is Archs parsed once by Parse (nil in a matrix made by hand).
	archs []arch
}

// archList is the build's compiled arch list.
func (b *CUDABuild) archList() []arch {
	if b.archs != nil || b.Archs == "" {
		return b.archs
	}
	a, _ := parseArchs(b.Archs)
	return a
}

// Feature is a need id's hardware requirement: Rules are tried in order and
// the first that matches gives the outcome; Otherwise applies when none
// does. Check maps a vendor (or "default") to the command that proves the
// feature on a trial instance.
type Feature struct {
	Name      string            `yaml:"name"`
	Check     map[string]string `yaml:"check,omitempty"`
	Rules     []Rule            `yaml:"rules"`
	Otherwise Outcome           `yaml:"otherwise"`
}

// Rule matches accelerators: every condition set must hold. Vendor is a
// catalog vendor; MinCC/MaxCC bound the NVIDIA compute capability
// (inclusive); GFX and IDs list AMD targets and accelerator ids; Peak names a
// data type the catalog must list a non-zero peak for; MIG requires the
// catalog's partitioning flag.
type Rule struct {
	Vendor  string   `yaml:"vendor,omitempty"`
	MinCC   string   `yaml:"min_cc,omitempty"`
	MaxCC   string   `yaml:"max_cc,omitempty"`
	GFX     []string `yaml:"gfx,omitempty"`
	IDs     []string `yaml:"ids,omitempty"`
	Peak    string   `yaml:"peak,omitempty"`
	MIG     bool     `yaml:"mig,omitempty"`
	Outcome `yaml:",inline"`
}

// Outcome is a verdict with its explanation. Verdict defaults to
// compatible; Text and Fix may use {gpu} for the accelerator's name.
type Outcome struct {
	Verdict Verdict `yaml:"verdict,omitempty"`
	Text    string  `yaml:"text"`
	Fix     string  `yaml:"fix,omitempty"`
	Cost    string  `yaml:"cost,omitempty"`
	// Work is what a needs-work outcome takes (required for needs-work).
	Work *Work `yaml:"work,omitempty"`
	Fact `yaml:",inline"`
}

// Backends lists the software backends a vendor may map to.
var Backends = []string{"cuda", "rocm", "tpu", "neuron", "gaudi", "cann"}

var idRe = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)

// Parse decodes and checks a compatibility matrix (data/compat.yaml). Unknown
// keys, wrong types, missing sources or dates, bad versions, unknown
// backends, frameworks or verdicts are errors: an apperr.List of Invalid
// errors with the field path and line. The file name is left to the caller
// (apperr.InFile).
func Parse(data []byte) (*Matrix, error) {
	var m Matrix
	if err := strictyaml.Decode(data, &m); err != nil {
		return nil, err
	}
	v := validator{line: strictyaml.LineOf(data)}
	v.matrix(&m)
	if len(v.errs) > 0 {
		return nil, v.errs
	}
	return &m, nil
}

type validator struct {
	errs apperr.List
	line func(path string) int // indexes the file at the first error: a valid matrix needs none
}

func (v *validator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, &apperr.Error{Code: apperr.Invalid, Line: v.line(path), Field: path, Message: msg.New(format, args...)})
}

func (v *validator) fact(path string, f Fact) {
	if strings.TrimSpace(f.Source) == "" {
		v.errorf(path+".source", "every entry needs a source (URL or repo@commit path)")
	}
	if f.AsOf == "" {
		v.errorf(path+".as_of", "every entry needs an as_of date (YYYY-MM-DD)")
	} else if _, err := time.Parse(time.DateOnly, f.AsOf); err != nil {
		v.errorf(path+".as_of", "%q is not a date (want YYYY-MM-DD)", f.AsOf)
	}
}

func (v *validator) version(path, s string, required bool) Version {
	if s == "" {
		if required {
			v.errorf(path, "missing version")
		}
		return nil
	}
	ver, err := ParseVersion(s)
	if err != nil {
		v.errorf(path, "%v", err)
	}
	return ver
}

func (v *validator) matrix(m *Matrix) {
	if len(m.CUDA) == 0 {
		v.errorf("cuda", "no CUDA toolkits")
	}
	for i := range m.CUDA {
		t, p := &m.CUDA[i], fmt.Sprintf("cuda[%d]", i)
		t.version = v.version(p+".version", t.Version, true)
		v.version(p+".min_driver_linux", t.MinDriverLinux, true)
		t.minCC = v.version(p+".min_cc", t.MinCC, true)
		t.maxCC = v.version(p+".max_cc", t.MaxCC, true)
		v.fact(p, t.Fact)
		if i > 0 && t.version != nil {
			if prev := m.CUDA[i-1].version; prev != nil && prev.Compare(t.version) >= 0 {
				v.errorf(p+".version", "toolkits must be in ascending order (%s after %s)", t.Version, m.CUDA[i-1].Version)
			}
		}
	}
	for i := range m.ROCmTargets {
		t, p := &m.ROCmTargets[i], fmt.Sprintf("rocm_targets[%d]", i)
		if !strings.HasPrefix(t.GFX, "gfx") {
			v.errorf(p+".gfx", "%q is not an AMD target (gfx...)", t.GFX)
		}
		v.version(p+".min_rocm", t.MinROCm, true)
		v.fact(p, t.Fact)
	}
	for _, id := range slices.Sorted(maps.Keys(m.Vendors)) {
		ve, p := m.Vendors[id], "vendors."+id
		if ve == nil {
			v.errorf(p, "empty vendor")
			continue
		}
		if !contains(Backends, ve.Backend) {
			v.errorf(p+".backend", "%q is not a backend (%s)", ve.Backend, strings.Join(Backends, ", "))
		}
		if ve.LockIn == "" || ve.ToolCheck == "" || ve.DeviceCheck == "" || ve.CollectiveCheck == "" {
			v.errorf(p, "lock_in, tool_check, device_check and collective_check are required")
		}
		v.fact(p, ve.Fact)
	}
	for _, w := range workload.Vendors() {
		if m.Vendors[string(w)] == nil {
			v.errorf("vendors", "vendor %s is missing", w)
		}
	}
	v.workKinds(m)
	for _, id := range slices.Sorted(maps.Keys(m.Frameworks)) {
		v.framework(m, id)
	}
	for _, f := range workload.Frameworks() {
		if f != workload.FrameworkOther && m.Frameworks[string(f)] == nil {
			v.errorf("frameworks", "framework %s is missing", f)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(m.Features)) {
		v.feature(m, id)
	}
}

func (v *validator) framework(m *Matrix, id string) {
	f, p := m.Frameworks[id], "frameworks."+id
	if f == nil {
		v.errorf(p, "empty framework")
		return
	}
	if fw, err := workload.ParseFramework(id); err != nil || string(fw) != id || fw == workload.FrameworkOther {
		v.errorf(p, "%q is not a framework id (%v)", id, workload.Frameworks())
	}
	if f.Name == "" {
		v.errorf(p+".name", "missing name")
	}
	if f.Requires != "" {
		if r := m.Frameworks[f.Requires]; r == nil || r.Requires != "" || len(r.Releases) == 0 {
			v.errorf(p+".requires", "%q must name a framework with releases of its own", f.Requires)
		}
		if len(f.Releases) > 0 {
			v.errorf(p+".releases", "a framework that requires another takes its builds from it; list no releases")
		}
	}
	for _, b := range Backends {
		pl, pp := f.Platforms[b], p+".platforms."+b
		if pl == nil {
			v.errorf(p+".platforms", "backend %s is missing (say native, port or none)", b)
			continue
		}
		switch pl.Support {
		case Native:
		case Port:
			if pl.Via == "" || pl.Fix == "" || pl.Cost == "" {
				v.errorf(pp, "a port needs via, fix and cost")
			}
		case None:
			if pl.Text == "" || pl.Fix == "" {
				v.errorf(pp, "support none needs text and fix")
			}
		default:
			v.errorf(pp+".support", "%q is not native, port or none", pl.Support)
		}
		v.work(m, pp+".work", pl.Work, pl.Support == Port)
		v.version(pp+".min_cc", pl.MinCC, false)
		v.fact(pp, pl.Fact)
	}
	for b := range f.Platforms {
		if !contains(Backends, b) {
			v.errorf(p+".platforms."+b, "%q is not a backend (%s)", b, strings.Join(Backends, ", "))
		}
	}
	var prev Version
	for i, r := range f.Releases {
		rp := fmt.Sprintf("%s.releases[%d]", p, i)
		if r == nil {
			v.errorf(rp, "empty release")
			continue
		}
		r.version = v.version(rp+".version", r.Version, true)
		if r.version != nil && prev != nil && prev.Compare(r.version) >= 0 {
			v.errorf(rp+".version", "releases must be in ascending order (%s after %s)", r.Version, prev)
		}
		if r.version != nil {
			prev = r.version
		}
		r.minCC = v.version(rp+".min_cc", r.MinCC, false)
		for j := range r.CUDA {
			b, bp := &r.CUDA[j], fmt.Sprintf("%s.cuda[%d]", rp, j)
			if m.toolkit(b.Toolkit) == nil {
				v.errorf(bp+".toolkit", "CUDA %q is not in the cuda section", b.Toolkit)
			}
			var err error
			if b.archs, err = parseArchs(b.Archs); err != nil {
				v.errorf(bp+".archs", "%v", err)
			}
		}
		for j, s := range r.ROCm {
			v.version(fmt.Sprintf("%s.rocm[%d]", rp, j), s, true)
		}
		v.fact(rp, r.Fact)
	}
}

func (v *validator) feature(m *Matrix, id string) {
	f, p := m.Features[id], "features."+id
	if f == nil {
		v.errorf(p, "empty feature")
		return
	}
	if !idRe.MatchString(id) {
		v.errorf(p, "%q is not a feature id (lowercase, e.g. flash-attention-3)", id)
	}
	if f.Name == "" {
		v.errorf(p+".name", "missing name")
	}
	for k := range f.Check {
		if k != "default" && m.Vendors[k] == nil {
			v.errorf(p+".check."+k, "%q is not a vendor or default", k)
		}
	}
	for i := range f.Rules {
		r, rp := &f.Rules[i], fmt.Sprintf("%s.rules[%d]", p, i)
		if r.Vendor != "" && m.Vendors[r.Vendor] == nil {
			v.errorf(rp+".vendor", "%q is not a vendor", r.Vendor)
		}
		v.version(rp+".min_cc", r.MinCC, false)
		v.version(rp+".max_cc", r.MaxCC, false)
		if r.Peak != "" {
			if _, ok := parseDataType(r.Peak); !ok {
				v.errorf(rp+".peak", "%q is not a data type", r.Peak)
			}
		}
		v.outcome(m, rp, &r.Outcome)
	}
	v.outcome(m, p+".otherwise", &f.Otherwise)
}

// workKinds checks the kinds of work: positive days, a name, a source,
// and the kinds the checker assigns itself.
func (v *validator) workKinds(m *Matrix) {
	for _, id := range slices.Sorted(maps.Keys(m.WorkKinds)) {
		k, p := m.WorkKinds[id], "work_kinds."+id
		if k == nil {
			v.errorf(p, "empty kind of work")
			continue
		}
		if !idRe.MatchString(id) {
			v.errorf(p, "%q is not a kind id (lowercase, e.g. kernel-swap)", id)
		}
		if k.Name == "" {
			v.errorf(p+".name", "missing name")
		}
		if !(k.EngineerDays > 0) {
			v.errorf(p+".engineer_days", "must be > 0, got %g", k.EngineerDays)
		}
		if !(k.DelayDays > 0) {
			v.errorf(p+".delay_days", "must be > 0, got %g", k.DelayDays)
		}
		v.fact(p, k.Fact)
	}
	if m.WorkKinds[WorkVersionUpgrade] == nil {
		v.errorf("work_kinds", "kind %s is missing (the checker assigns it)", WorkVersionUpgrade)
	}
}

// work checks an entry's work: required where the entry needs work,
// refused where it does not.
func (v *validator) work(m *Matrix, p string, w *Work, needed bool) {
	switch {
	case w == nil && needed:
		v.errorf(p, "a port or needs-work outcome needs the work it takes (work: {kind: ...}, one of work_kinds)")
	case w == nil:
	case !needed:
		v.errorf(p, "only a port or a needs-work outcome takes work")
	case m.WorkKinds[w.Kind] == nil:
		v.errorf(p+".kind", "%q is not a kind of work_kinds (%s)", w.Kind, strings.Join(slices.Sorted(maps.Keys(m.WorkKinds)), ", "))
	default:
		if w.EngineerDays < 0 {
			v.errorf(p+".engineer_days", "must be >= 0, got %g", w.EngineerDays)
		}
		if w.DelayDays < 0 {
			v.errorf(p+".delay_days", "must be >= 0, got %g", w.DelayDays)
		}
	}
}

func (v *validator) outcome(m *Matrix, p string, o *Outcome) {
	if o.Verdict == "" {
		o.Verdict = Compatible
	}
	if !o.Verdict.valid() {
		v.errorf(p+".verdict", "%q is not compatible, needs-work or incompatible", o.Verdict)
	}
	if o.Text == "" {
		v.errorf(p+".text", "missing text")
	}
	if o.Verdict != Compatible && o.Fix == "" {
		v.errorf(p+".fix", "a %s outcome needs a fix a person can act on", o.Verdict)
	}
	v.work(m, p+".work", o.Work, o.Verdict == NeedsWork)
	v.fact(p, o.Fact)
}

func (m *Matrix) toolkit(version string) *CUDAToolkit {
	want, err := ParseVersion(version)
	if err != nil {
		return nil
	}
	for i := range m.CUDA {
		if v := parsed(m.CUDA[i].version, m.CUDA[i].Version); v != nil && v.Compare(want) == 0 {
			return &m.CUDA[i]
		}
	}
	return nil
}

// arch is one entry of a compiled arch list: a compute capability and
// whether PTX is embedded for it.
type arch struct {
	cc  Version
	ptx bool
}

func parseArchs(s string) ([]arch, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []arch
	for _, p := range strings.Split(s, ";") {
		p = strings.TrimSpace(p)
		a := arch{}
		if strings.HasSuffix(p, "+PTX") {
			a.ptx, p = true, strings.TrimSuffix(p, "+PTX")
		}
		v, err := ParseVersion(p)
		if err != nil || len(v) != 2 {
			return nil, fmt.Errorf("%q is not a compute capability list (want e.g. 8.0;9.0+PTX)", s)
		}
		a.cc = v
		out = append(out, a)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
