package catalog

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// GPURequest is the --gpu ID[:COUNT] flag: an accelerator and, optionally,
// the exact number of them in the instance.
type GPURequest struct {
	Name  string // id or alias as written
	Count int    // 0 = any
}

// ParseGPURequest parses "h100-sxm", "H100:8" or "a100-80gb:4". It checks the
// syntax only; the name is resolved against a catalog by the caller.
func ParseGPURequest(s string) (GPURequest, error) {
	s = strings.TrimSpace(s)
	name, count, hasCount := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return GPURequest{}, apperr.Invalidf("--gpu", "want ID or ID:COUNT such as h100-sxm:8, got %q", s)
	}
	r := GPURequest{Name: name}
	if hasCount {
		n, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil || n < 1 || n > 1024 {
			return GPURequest{}, apperr.Invalidf("--gpu", "the count after ':' must be a whole number from 1 to 1024, got %q", count)
		}
		r.Count = n
	}
	return r, nil
}

// Filter selects offers. Zero fields do not filter.
type Filter struct {
	GPU       string   // accelerator id (resolved)
	GPUCount  int      // exact accelerators per instance
	MinGPUs   int      // at least this many per instance
	Providers []string // provider ids
	Region    string
	Country   string  // ISO alpha-2
	MaxPrice  float64 // USD per instance-hour in Mode (your price)
	Mode      Mode    // the pricing mode that must be known (and MaxPrice applies to)
	NeedMode  bool    // require a known price in Mode
	MinMemGiB float64 // per accelerator
}

// Stage names one filter, for the report of what removed what.
type Stage struct {
	Name    string // e.g. "--gpu h100-sxm"
	Removed int
}

// Selection is the result of Select: the offers kept and, per filter in the
// order applied, how many it removed.
type Selection struct {
	Offers []*Offer
	Stages []Stage
	Total  int
}

// Explain says which filter removed what, for the "nothing qualifies" message.
func (s Selection) Explain() string {
	var parts []string
	for _, st := range s.Stages {
		if st.Removed > 0 {
			parts = append(parts, fmt.Sprintf("%s removed %d", st.Name, st.Removed))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d offers in the catalog", s.Total)
	}
	return fmt.Sprintf("of %d offers, %s", s.Total, strings.Join(parts, ", "))
}

type stageFn struct {
	name string
	keep func(*Offer) bool
}

func (f Filter) stages(c *Catalog) []stageFn {
	var st []stageFn
	if f.GPU != "" {
		st = append(st, stageFn{"--gpu " + f.GPU, func(o *Offer) bool { return o.GPU == f.GPU }})
	}
	if f.GPUCount > 0 {
		st = append(st, stageFn{fmt.Sprintf("count %d", f.GPUCount), func(o *Offer) bool { return o.GPUCount == f.GPUCount }})
	}
	if f.MinGPUs > 0 {
		st = append(st, stageFn{fmt.Sprintf("--min-gpus %d", f.MinGPUs), func(o *Offer) bool { return o.GPUCount >= f.MinGPUs }})
	}
	if f.MinMemGiB > 0 {
		st = append(st, stageFn{fmt.Sprintf("--min-memory-gb %g", f.MinMemGiB), func(o *Offer) bool { return o.GPUMemGiB >= f.MinMemGiB }})
	}
	if len(f.Providers) > 0 {
		set := map[string]bool{}
		for _, p := range f.Providers {
			set[strings.ToLower(p)] = true
		}
		st = append(st, stageFn{"--provider " + strings.Join(f.Providers, ","), func(o *Offer) bool { return set[o.Provider] }})
	}
	if f.Region != "" {
		st = append(st, stageFn{"--region " + f.Region, func(o *Offer) bool { return strings.EqualFold(o.Region, f.Region) }})
	}
	if f.Country != "" {
		st = append(st, stageFn{"--country " + f.Country, func(o *Offer) bool { return strings.EqualFold(o.Country, f.Country) }})
	}
	if f.NeedMode || f.MaxPrice > 0 {
		m := f.Mode
		st = append(st, stageFn{"no " + m.String() + " price", func(o *Offer) bool { _, ok := o.YourPrices.Get(m); return ok }})
	}
	if f.MaxPrice > 0 {
		m := f.Mode
		st = append(st, stageFn{fmt.Sprintf("--max-price %g", f.MaxPrice), func(o *Offer) bool { return o.YourPrices[m] <= f.MaxPrice }})
	}
	return st
}

// Select returns the offers matching f, in catalog order.
func (c *Catalog) Select(f Filter) Selection {
	return SelectFrom(c.Offers, f, c)
}

// SelectFrom filters any slice of offers (used by benchmarks on synthetic
// offers). c may be nil.
func SelectFrom(offers []*Offer, f Filter, c *Catalog) Selection {
	st := f.stages(c)
	sel := Selection{Total: len(offers), Stages: make([]Stage, len(st))}
	for i, s := range st {
		sel.Stages[i].Name = s.name
	}
	sel.Offers = make([]*Offer, 0, len(offers)/4)
next:
	for _, o := range offers {
		for i := range st {
			if !st[i].keep(o) {
				sel.Stages[i].Removed++
				continue next
			}
		}
		sel.Offers = append(sel.Offers, o)
	}
	return sel
}

// SortKey orders offers.
type SortKey string

// Sort keys for Sort.
const (
	ByPrice       SortKey = "price"
	ByPricePerGPU SortKey = "price-per-gpu"
	ByMemory      SortKey = "memory"
)

// ParseSortKey checks a --sort value.
func ParseSortKey(s string) (SortKey, error) {
	switch k := SortKey(s); k {
	case ByPrice, ByPricePerGPU, ByMemory:
		return k, nil
	}
	return "", apperr.Invalidf("--sort", "want price, price-per-gpu or memory, got %q", s)
}

// Sort orders offers by key in mode m; unknown prices sort last, ties by key.
func Sort(offers []*Offer, key SortKey, m Mode) {
	val := func(o *Offer) float64 {
		switch key {
		case ByMemory:
			return -o.GPUMemGiB * float64(o.GPUCount)
		case ByPricePerGPU:
			if p, ok := o.YourPrices.Get(m); ok {
				return p / o.GPUs()
			}
		default:
			if p, ok := o.YourPrices.Get(m); ok {
				return p
			}
		}
		return math.Inf(1)
	}
	type item struct {
		v float64
		o *Offer
	}
	items := make([]item, len(offers))
	for i, o := range offers {
		items[i] = item{val(o), o}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := cmp.Compare(a.v, b.v); c != 0 {
			return c
		}
		if c := cmp.Compare(a.o.Provider, b.o.Provider); c != 0 {
			return c
		}
		if c := cmp.Compare(a.o.InstanceType, b.o.InstanceType); c != 0 {
			return c
		}
		return cmp.Compare(a.o.Region, b.o.Region)
	})
	for i := range items {
		offers[i] = items[i].o
	}
}
