package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// MIGProfilesFile lists the Multi-Instance GPU profiles of the accelerators
// that have them.
const MIGProfilesFile = "mig-profiles.csv"

// MIGComputeSlices and MIGMemorySlices are the parts a MIG-capable GPU is
// cut into: seven compute slices (fractions of its SMs) and eight memory
// slices (fractions of its memory, L2 and bandwidth), as NVIDIA's MIG user
// guide gives them.
const (
	MIGComputeSlices = 7
	MIGMemorySlices  = 8
)

var migColumns = []string{"gpu", "profile", "compute_slices", "memory_slices", "memory_gb", "max_instances", "source", "as_of", "notes"}

// MIGProfile is one Multi-Instance GPU profile of an accelerator, such as
// 1g.10gb of an H100 80GB: a hardware partition with its own SMs, memory,
// L2 and bandwidth. Invariants (checked by the data tests):
// ComputeSlices x MaxInstances <= 7, MemorySlices x MaxInstances <= 8 and
// MemGB <= the GPU's memory.
type MIGProfile struct {
	GPU     string `json:"gpu"`     // accelerator id
	Profile string `json:"profile"` // e.g. "1g.10gb"
	// ComputeSlices of MIGComputeSlices: the guide's fraction of SMs.
	ComputeSlices int `json:"compute_slices"`
	// MemorySlices of MIGMemorySlices: the guide's fraction of memory,
	// which sets the share of L2 and memory bandwidth too.
	MemorySlices int `json:"memory_slices"`
	// MemGB is the profile's memory as its name gives it, GB.
	MemGB float64 `json:"memory_gb"`
	// MaxInstances is how many instances of this profile one GPU holds.
	MaxInstances int    `json:"max_instances"`
	Notes        string `json:"notes,omitempty"`
	Fact
}

// ResourceName is the Kubernetes extended resource the NVIDIA device
// plugin advertises for the profile under the mixed MIG strategy, e.g.
// nvidia.com/mig-1g.10gb.
func (p *MIGProfile) ResourceName() string { return "nvidia.com/mig-" + p.Profile }

// ComputeShare is the profile's share of the GPU's SMs: ComputeSlices/7.
// The guide's own fraction; the SM count of a 1g slice is a little under
// it on parts whose SMs do not divide by seven (16 of 132 on H100 SXM).
func (p *MIGProfile) ComputeShare() float64 {
	return float64(p.ComputeSlices) / MIGComputeSlices
}

// MemoryShare is the profile's share of memory bandwidth and L2:
// MemorySlices/8.
func (p *MIGProfile) MemoryShare() float64 {
	return float64(p.MemorySlices) / MIGMemorySlices
}

func parseMIGProfiles(file string, data []byte, errs *apperr.List) []*MIGProfile {
	var out []*MIGProfile
	readTable(file, data, migColumns, []string{"gpu", "profile", "compute_slices", "memory_slices", "memory_gb", "max_instances", "source", "as_of"},
		errs, func(t *table) {
			p := &MIGProfile{
				GPU:           strings.ToLower(t.req("gpu")),
				Profile:       strings.ToLower(t.req("profile")),
				ComputeSlices: t.integer("compute_slices"),
				MemorySlices:  t.integer("memory_slices"),
				MemGB:         t.pos("memory_gb"),
				MaxInstances:  t.integer("max_instances"),
				Notes:         t.str("notes"),
				Fact:          t.fact(),
			}
			switch {
			case p.ComputeSlices < 1 || p.ComputeSlices > MIGComputeSlices:
				t.fail(t.line, "compute_slices", "must be 1 to %d, got %d", MIGComputeSlices, p.ComputeSlices)
			case p.MemorySlices < 1 || p.MemorySlices > MIGMemorySlices:
				t.fail(t.line, "memory_slices", "must be 1 to %d, got %d", MIGMemorySlices, p.MemorySlices)
			case p.MaxInstances < 1 || p.MaxInstances*p.ComputeSlices > MIGComputeSlices || p.MaxInstances*p.MemorySlices > MIGMemorySlices:
				t.fail(t.line, "max_instances", "%d instances of %d compute and %d memory slices do not fit in one GPU (%d and %d)",
					p.MaxInstances, p.ComputeSlices, p.MemorySlices, MIGComputeSlices, MIGMemorySlices)
			case p.MemGB <= 0:
				t.fail(t.line, "memory_gb", "required, got an empty cell")
			}
			out = append(out, p)
		})
	return out
}

// resolveMIG checks the profiles against the accelerators and indexes them
// by accelerator id, each GPU's profiles from the most instances down.
func (c *Catalog) resolveMIG(profiles []*MIGProfile, errs *apperr.List) {
	c.mig = map[string][]*MIGProfile{}
	seen := map[string]bool{}
	for _, p := range profiles {
		bad := func(field, format string, args ...any) {
			*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: MIGProfilesFile, Field: field,
				Msg: p.GPU + " " + p.Profile + ": " + fmt.Sprintf(format, args...)})
		}
		a, ok := c.Accelerator(p.GPU)
		switch {
		case !ok:
			bad("gpu", "unknown accelerator %q (not an id or alias in %s)", p.GPU, AcceleratorsFile)
			continue
		case !a.MIG:
			bad("gpu", "%s has no MIG (mig is not yes in %s)", a.ID, AcceleratorsFile)
			continue
		case p.MemGB > a.MemGiB*1.075: // GB against GiB
			bad("memory_gb", "%g GB is more than %s's %g GiB", p.MemGB, a.ID, a.MemGiB)
			continue
		case seen[a.ID+"/"+p.Profile]:
			bad("profile", "listed twice")
			continue
		}
		seen[a.ID+"/"+p.Profile] = true
		cp := *p
		cp.GPU = a.ID
		c.mig[a.ID] = append(c.mig[a.ID], &cp)
	}
	for id, ps := range c.mig {
		sort.SliceStable(ps, func(i, j int) bool {
			if ps[i].MaxInstances != ps[j].MaxInstances {
				return ps[i].MaxInstances > ps[j].MaxInstances
			}
			return ps[i].MemGB < ps[j].MemGB
		})
		c.mig[id] = ps
		for _, p := range ps {
			c.MIGProfiles = append(c.MIGProfiles, p)
		}
	}
	sort.SliceStable(c.MIGProfiles, func(i, j int) bool { return c.MIGProfiles[i].GPU < c.MIGProfiles[j].GPU })
}

// MIGProfilesOf lists the MIG profiles of an accelerator (id or alias),
// the smallest slices first; nil when it has none in the catalog.
func (c *Catalog) MIGProfilesOf(gpu string) []*MIGProfile {
	a, ok := c.Accelerator(gpu)
	if !ok {
		return nil
	}
	return c.mig[a.ID]
}

// MIGProfileOf finds one profile of an accelerator by name ("1g.10gb",
// with or without a "mig-" prefix), case-insensitively.
func (c *Catalog) MIGProfileOf(gpu, profile string) (*MIGProfile, bool) {
	name := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(profile)), "mig-")
	for _, p := range c.MIGProfilesOf(gpu) {
		if p.Profile == name {
			return p, true
		}
	}
	return nil, false
}

// MIGAccelerator is what one MIG instance of profile p gives its user: the
// accelerator a with ComputeShare of every peak, MemoryShare of its
// bandwidth and the profile's memory. Like a fractional slice it has no
// GPU-to-GPU link and no MIG of its own. a must be p's accelerator.
func MIGAccelerator(a *Accelerator, p *MIGProfile) *Accelerator {
	f := p.ComputeShare()
	s := partOf(a, a.Name+" MIG "+p.Profile, p.MemGB, p.MemoryShare(), f)
	s.L2MiB *= f
	return s
}
