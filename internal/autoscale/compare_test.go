package autoscale_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
)

// TestCompareImageAPI (the example's physics relations) is in
// internal/app: its variants are model services, whose batching models
// app builds from the performance model and the catalog.

// TestDrainTier: a CPU tier that drains the queue while one GPU is all the
// fleet has cuts the waits of a burst, and costs more than no tier.
func TestDrainTier(t *testing.T) {
	base := `
traffic: {kind: constant, rate_per_s: 0.5, duration_s: 3600, seed: 1}
service: {kind: distribution, distribution: deterministic, mean_s: 4, cold_start_s: 600}
slo: {latency_s: 60, target: 0.95}
pricing: {per_hour_usd: 1%s}
policy:
  kind: mixed
  on_demand: {replicas: 1}
  spot: {max_replicas: 0}
`
	run := func(extra, fallback string) *autoscale.Result {
		spec, err := autoscale.ParseSpec([]byte(strings.Replace(base, "%s", extra, 1) + fallback))
		if err != nil {
			t.Fatal(err)
		}
		r, err := autoscale.Simulate(spec, nil, nil, autoscale.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	alone := run("", "")
	withTier := run(", fallback_per_hour_usd: 1.428", "  fallback: {mode: drain, mean_s: 8, replicas: 2, cold_start_s: 60}\n")
	if !(withTier.Latency.P95S < alone.Latency.P95S) {
		t.Errorf("p95 with a draining CPU tier %v s, without %v s: want lower", withTier.Latency.P95S, alone.Latency.P95S)
	}
	if !(withTier.CostUSD > alone.CostUSD) {
		t.Errorf("cost with the tier $%v, without $%v: want more", withTier.CostUSD, alone.CostUSD)
	}
	if len(withTier.Tiers) != 3 || withTier.Tiers[2].ReplicaHours <= 0 {
		t.Errorf("the fallback tier never ran: %+v", withTier.Tiers)
	}
}

func TestParseCPUInstances(t *testing.T) {
	rows, err := autoscale.ParseCPUInstances(data.CPUInstances)
	if err != nil {
		t.Fatal(err)
	}
	families := map[string]bool{}
	for _, r := range rows {
		families[r.Provider] = true
		if r.PricePerHourUSD/float64(r.VCPUs) > 0.1 || r.PricePerHourUSD/float64(r.VCPUs) < 0.02 {
			t.Errorf("%s: $%v/h for %d vCPU is outside 2-10 cents per vCPU-hour", r.ID(), r.PricePerHourUSD, r.VCPUs)
		}
	}
	for _, p := range []string{"aws", "gcp", "azure"} {
		if !families[p] {
			t.Errorf("no %s CPU instance", p)
		}
	}
	head := "provider,instance_type,region,cpu,vcpus,ram_gib,amx,price_on_demand,currency,source,as_of\n"
	for _, tc := range []struct{ row, field string }{
		{"aws,c7i.8xlarge,us-east-1,x,0,64,true,1.4,USD,src,2026-11-30", "vcpus"},
		{"aws,c7i.8xlarge,us-east-1,x,32,64,true,,USD,src,2026-11-30", "price_on_demand"},
		{"aws,c7i.8xlarge,us-east-1,x,32,64,true,1.4,USD,,2026-11-30", "source"},
		{"aws,c7i.8xlarge,us-east-1,x,32,64,true,1.4,USD,src,30.11.2026", "as_of"},
	} {
		_, err := autoscale.ParseCPUInstances([]byte(head + tc.row + "\n"))
		var e *apperr.Error
		if !errors.As(err, &e) || e.Field != tc.field || e.Line != 2 {
			t.Errorf("%s: got %v, want an error on %s line 2", tc.row, err, tc.field)
		}
	}
	spec, err := autoscale.ParseSpec([]byte("traffic: {kind: poisson, rate_per_s: 1}\nservice: {kind: distribution, mean_s: 1}\npolicy:\n  kind: mixed\n  fallback: {mode: drain, speed: 0.5, instance: aws/nope}\nslo: {latency_s: 5}\npricing: {per_hour_usd: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = autoscale.ApplyCPUInstances(spec, rows)
	var e *apperr.Error
	if !errors.As(err, &e) || e.Field != "policy.fallback.instance" || e.Line != 5 {
		t.Errorf("unknown instance: got %v, want an error on policy.fallback.instance line 5", err)
	}
}

func TestVariantsErrorsLocated(t *testing.T) {
	b := []byte(`name: x
traffic: {kind: poisson, rate_per_s: 1}
service: {kind: distribution, mean_s: 1}
policy: {kind: fixed, replicas: 1}
slo: {latency_s: 5}
pricing: {per_hour_usd: 1}
compare:
  - name: a
    policy: {kind: fixed, replicas: 2}
  - name: b
    policy:
      kind: fixed
      replicas: 0
  - name: a
`)
	spec, err := autoscale.ParseSpec(b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = autoscale.Variants(b, spec)
	var l apperr.List
	if !errors.As(err, &l) || len(l) != 2 {
		t.Fatalf("got %v, want two errors", err)
	}
	if l[0].Field != "compare[1].policy.replicas" || l[0].Line != 13 {
		t.Errorf("got %s line %d, want compare[1].policy.replicas line 13", l[0].Field, l[0].Line)
	}
	if l[1].Field != "compare[2].name" || l[1].Line != 14 {
		t.Errorf("got %s line %d, want compare[2].name line 14", l[1].Field, l[1].Line)
	}
}
