package data_test

import (
	"path"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// Who runs the machines is a sourced, dated fact of every provider, and of
// every instance type a rule sets apart; the marketplaces named in issue 25
// are classified as such, machine by machine.
func TestOperatorClassified(t *testing.T) {
	c := load(t)
	for _, p := range c.Providers {
		if p.Operator.Kind == "" || strings.TrimSpace(p.Operator.Source) == "" || p.Operator.AsOf.IsZero() {
			t.Errorf("%s: operator %+v: every provider needs operator: {kind, source, as_of}", p.ID, p.Operator)
		}
		for _, r := range p.OperatorRules {
			if strings.TrimSpace(r.Source) == "" || r.AsOf.IsZero() {
				t.Errorf("%s: operator rule %q without source or as_of", p.ID, r.InstanceTypes)
			}
			matched := false
			for _, o := range c.Offers {
				if ok, _ := path.Match(r.InstanceTypes, o.InstanceType); ok && o.Provider == p.ID {
					matched = true
					break
				}
			}
			if !matched {
				t.Errorf("%s: operator rule %q matches no offer: a stale rule", p.ID, r.InstanceTypes)
			}
		}
	}
	want := map[string]catalog.OperatorKind{"vastai": catalog.OperatorMarketplace, "tensordock": catalog.OperatorMarketplace,
		"hyperbolic": catalog.OperatorMarketplace}
	count := map[catalog.OperatorKind]int{}
	for _, o := range c.Offers {
		count[o.Operator.Kind]++
		if o.Operator.Kind == "" || o.Operator.Source == "" {
			t.Errorf("%s: no operator", o.Key())
			continue
		}
		if k, ok := want[o.Provider]; ok && o.Operator.Kind != k {
			t.Errorf("%s: operator %s, want %s", o.Key(), o.Operator.Kind, k)
		}
		if o.Provider == "runpod" {
			switch {
			case strings.HasSuffix(o.InstanceType, "_COMMUNITY") && o.Operator.Kind != catalog.OperatorCommunity:
				t.Errorf("%s: RunPod Community Cloud is run by community hosts, got %s", o.Key(), o.Operator.Kind)
			case strings.HasSuffix(o.InstanceType, "_SECURE") && o.Operator.Kind != catalog.OperatorPartner:
				t.Errorf("%s: RunPod Secure Cloud runs in partner data centres, got %s", o.Key(), o.Operator.Kind)
			}
		}
	}
	if count[catalog.OperatorMarketplace] == 0 || count[catalog.OperatorCommunity] == 0 {
		t.Errorf("offers by operator %v: want marketplace and community offers", count)
	}
	t.Logf("offers by operator: %v", count)
}

// MLPS filings are levels with a scope, a source and a date, and a
// filing the catalog counts for GPU offers covers a provider with
// mainland-China regions.
func TestMLPSFilings(t *testing.T) {
	c := load(t)
	mainland := map[string]bool{}
	for _, r := range c.Regions {
		if r.MainlandChina {
			mainland[r.Provider] = true
		}
	}
	filed := 0
	for _, p := range c.Providers {
		for _, m := range p.MLPS {
			filed++
			if m.Level < 1 || m.Level > 5 || m.Source == "" || m.AsOf.IsZero() || m.Scope == "" {
				t.Errorf("%s: MLPS filing %+v: level 1-5, scope, source and as_of are required", p.ID, m)
			}
			if len(m.Regions) == 0 && m.Covers == catalog.MLPSPlatform && !mainland[p.ID] {
				t.Errorf("%s: a platform-wide MLPS filing, but no mainland-China region in regions.csv", p.ID)
			}
		}
	}
	if filed == 0 {
		t.Error("no MLPS filing in the catalog")
	}
}
