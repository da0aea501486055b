package app

import (
	"errors"
	"math"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/examples"
	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// serviceModels builds each spec's batching model as simulate does: the
// workload file next to the example, the offer in its allowed region,
// the prices and the fallback tier's speed.
func serviceModels(t *testing.T, c *catalog.Catalog, specs []*autoscale.Spec) []*autoscale.BatchModel {
	t.Helper()
	var out []*autoscale.BatchModel
	for _, sp := range specs {
		b, err := examples.FS.ReadFile(path.Clean(sp.Service.Workload))
		if err != nil {
			t.Fatal(err)
		}
		ws, err := workload.Parse(b, sp.Service.Workload)
		if err != nil {
			t.Fatal(err)
		}
		o, err := FindOffer(c, Flags, sp.Service.Offer)
		if err != nil {
			t.Fatal(err)
		}
		if o, _, err = PickRegion(c, Flags, o, "", ws.Compliance, catalog.OnDemand); err != nil {
			t.Fatal(err)
		}
		m, err := advisor.ServiceModel(sp, ws, c, o)
		if err != nil {
			t.Fatal(err)
		}
		advisor.ApplyPrices(sp, o, m)
		if err := ApplyFallback(sp, ws, m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func imageAPIVariants(t *testing.T) ([]*autoscale.Spec, []*autoscale.BatchModel) {
	t.Helper()
	b, err := examples.FS.ReadFile("service-image-api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := autoscale.ParseSpec(b)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := autoscale.Variants(b, spec)
	if err != nil {
		t.Fatal(err)
	}
	cpus, err := autoscale.ParseCPUInstances(data.CPUInstances)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if err := autoscale.ApplyCPUInstances(v, cpus); err != nil {
			t.Fatal(err)
		}
	}
	return vs, serviceModels(t, catalogtest.Embedded(t), vs)
}

// TestCompareImageAPI checks relations that follow from the physics of the
// example, not its numbers: a fleet sized for the peak meets the SLO and
// costs the most of those that scale; scaling in at night costs less; a
// MIG slice is slower than the whole GPU and cheaper per replica; the CPU
// tier is slower than the L4; the flagged winner is the cheapest that
// meets the SLO.
func TestCompareImageAPI(t *testing.T) {
	vs, models := imageAPIVariants(t)
	byName := map[string]int{}
	for i, v := range vs {
		byName[v.Name] = i
	}
	l4, mig := models[byName["target"]], models[byName["mig-1g.10gb"]]
	if !(mig.StepS(1) > l4.StepS(1)) {
		t.Errorf("an SDXL image on a 1g.10gb slice of an A100 (%.2f s) is no slower than on an L4 (%.2f s)", mig.StepS(1), l4.StepS(1))
	}
	if !(mig.PricePerHourUSD < l4.PricePerHourUSD) || mig.ReplicasPerInstance != 7 {
		t.Errorf("a slice costs $%.4f/h (%d an instance), an L4 $%.4f/h", mig.PricePerHourUSD, mig.ReplicasPerInstance, l4.PricePerHourUSD)
	}
	if f := vs[byName["gpu+cpu"]].Policy.Fallback; !(f.Speed > 0 && f.Speed < 1) || f.SpeedSource == "" {
		t.Errorf("CPU tier speed %v (%s)", f.Speed, f.SpeedSource)
	}
	c, err := autoscale.Compare("sdxl-image-api", vs, models, nil, autoscale.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]autoscale.CompareRow{}
	for _, r := range c.Rows {
		rows[r.Name] = r
	}
	fixed := rows["fixed-peak"]
	if !fixed.SLOMet {
		t.Errorf("the fleet sized for the peak misses the SLO: %+v", fixed)
	}
	// Every variant saw the same requests.
	for _, r := range c.Rows {
		if r.Requests != fixed.Requests {
			t.Errorf("%s saw %d requests, fixed-peak %d", r.Name, r.Requests, fixed.Requests)
		}
	}
	for _, name := range []string{"target", "serverless", "gpu+cpu", "mig-1g.10gb"} {
		if rows[name].CostUSD >= fixed.CostUSD {
			t.Errorf("%s ($%.2f) costs no less than the fixed fleet sized for the peak ($%.2f)", name, rows[name].CostUSD, fixed.CostUSD)
		}
	}
	// A fixed fleet's mean is its size; an autoscaled one's is below its peak.
	n := float64(vs[byName["fixed-peak"]].Policy.Replicas)
	if math.Abs(fixed.MeanReplicas-n) > 0.01 {
		t.Errorf("fixed-peak mean replicas %v, want %v", fixed.MeanReplicas, n)
	}
	if r := rows["target"]; !(r.MeanReplicas < float64(r.PeakReplicas)) {
		t.Errorf("target tracking: mean %v replicas, peak %d", r.MeanReplicas, r.PeakReplicas)
	}
	// Scaling on waiting requests only scales the GPUs in while the CPUs
	// hold work: worse latency than scaling on requests in flight.
	if q, f := rows["gpu+cpu-queue"], rows["gpu+cpu"]; q.SLOViolationFraction <= f.SLOViolationFraction {
		t.Errorf("queue-only scaling violates %v, in-flight scaling %v; want more", q.SLOViolationFraction, f.SLOViolationFraction)
	}
	var best *autoscale.CompareRow
	for i, r := range c.Rows {
		if r.SLOMet && (best == nil || r.CostUSD < best.CostUSD) {
			best = &c.Rows[i]
		}
	}
	for _, r := range c.Rows {
		if r.Cheapest != (best != nil && r.Name == best.Name) {
			t.Errorf("%s flagged cheapest = %v", r.Name, r.Cheapest)
		}
	}
}

// TestCPUTierAnchor: the CPU tier's rate against the one published point
// it is calibrated on (amxSustained): SD 1.5, 512x512, 20 steps with
// guidance, OpenVINO bf16, static shapes, 64 vCPUs of a Xeon Gold 6455B
// (r7iz.metal-16xl): 4.7 s an image (huggingface.co/blog/
// stable-diffusion-inference-intel). Tolerance ±15%: the calibration
// rounds amxSustained to two digits (±4%); the rest is room for the
// preset's GMAC figures to be refined, not for a different model.
func TestCPUTierAnchor(t *testing.T) {
	ws, err := workload.Parse([]byte("name: anchor\nkind: image-generation\nmodel: {preset: sd-1.5}\nimage: {width: 512, height: 512, steps: 20, guidance: true, images: 1}\nstack: {framework: openvino}\n"), "anchor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	row := autoscale.CPUInstance{CPU: "Xeon Gold 6455B (Sapphire Rapids)", VCPUs: 64, AMX: true}
	clock, fpc, src, ok := CPURate(row)
	if !ok || !strings.Contains(src, "AMX") {
		t.Fatalf("no AMX rate for the anchor's CPU: %v %s", ok, src)
	}
	s, err := perf.ImageGenCPUSecondsPerImage(ws, row.VCPUs, clock, fpc)
	if err != nil {
		t.Fatal(err)
	}
	if r := s / 4.7; r < 0.85 || r > 1.15 {
		t.Errorf("SD 1.5 512x512 20 steps on 64 vCPUs of a Sapphire Rapids: %.2f s, published 4.7 s (ratio %.2f, want 0.85-1.15)", s, r)
	}
	// Every row of the CPU table has a known clock.
	cpus, err := autoscale.ParseCPUInstances(data.CPUInstances)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cpus {
		if _, f, _, ok := CPURate(c); !ok || (c.AMX && f <= avx512BF16FLOPPerCycle) {
			t.Errorf("%s (%s): no clock, or AMX at %v FLOP/cycle", c.ID(), c.CPU, f)
		}
	}
}

// TestSliceTheGPULacks: service.slice names a profile the offer's GPU does
// not have: an Invalid error (exit 2) at the field's line, and in a
// compare block at the variant's line.
func TestSliceTheGPULacks(t *testing.T) {
	c := catalogtest.Embedded(t)
	doc := `traffic: {kind: constant, rate_per_s: 0.1, duration_s: 600}
service:
  kind: model
  workload: sdxl-image-service.yaml
  offer: runpod/1x_A100-80GB_SECURE
  slice: 1g.18gb
policy: {kind: fixed, replicas: 1}
compare:
  - name: l4
    service: {offer: aws/g6.xlarge, slice: 1g.10gb}
`
	spec, err := autoscale.ParseSpec([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := examples.FS.ReadFile("sdxl-image-service.yaml")
	ws, err := workload.Parse(b, "sdxl-image-service.yaml")
	if err != nil {
		t.Fatal(err)
	}
	check := func(sp *autoscale.Spec, offer, field string, line int) {
		o, err := FindOffer(c, Flags, offer)
		if err != nil {
			t.Fatal(err)
		}
		_, err = advisor.ServiceModel(sp, ws, c, o)
		var e *apperr.Error
		if !errors.As(err, &e) || e.Code != apperr.Invalid || e.Field != field || e.Line != line {
			t.Errorf("%s: %#v, want Invalid at %s line %d", offer, err, field, line)
		}
	}
	check(spec, "runpod/1x_A100-80GB_SECURE", "service.slice", 6)
	vs, err := autoscale.Variants([]byte(doc), spec)
	if err != nil {
		t.Fatal(err)
	}
	check(vs[0], "aws/g6.xlarge", "compare[0].service.slice", 10)
	if _, err := autoscale.ParseSpec([]byte(strings.Replace(doc, "1g.18gb", "half", 1))); err == nil {
		t.Error("slice: half accepted")
	}
}

// TestImageBatchModel: a batch the engine forms serves more images a
// second than one at a time, and a lone image takes the batch-1 latency.
func TestImageBatchModel(t *testing.T) {
	c := catalogtest.Embedded(t)
	b, _ := examples.FS.ReadFile("sdxl-images.yaml") // batch 8
	ws, err := workload.Parse(b, "sdxl-images.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o, err := FindOffer(c, Flags, "aws/g6.xlarge")
	if err != nil {
		t.Fatal(err)
	}
	spec := &autoscale.Spec{Service: autoscale.Service{Kind: autoscale.ServiceModel}}
	m, err := advisor.ServiceModel(spec, ws, c, o)
	if err != nil {
		t.Fatal(err)
	}
	if m.MaxBatch != 8 || m.StepsPerRequest != 1 || m.PrefillSPerToken != 0 {
		t.Errorf("model %+v", m)
	}
	if one, full := 1/m.StepS(1), 8/m.StepS(8); !(full > one) {
		t.Errorf("batch 8 serves %.3f images/s, batch 1 %.3f", full, one)
	}
}

// A model service's commitments come from its offer's reserved and
// committed prices, per replica as the on-demand price, unless the file
// gives one; a serverless policy gets none.
func TestApplyPricesCommitments(t *testing.T) {
	o := &catalog.Offer{Provider: "aws", InstanceType: "p5.48xlarge", Region: "us-east-1"}
	o.YourPrices[catalog.OnDemand], o.YourPrices[catalog.Reserved1y], o.YourPrices[catalog.Reserved3y] = 80, 56, 36
	parse := func(extra string) *autoscale.Spec {
		sp, err := autoscale.ParseSpec([]byte("traffic: {kind: constant, rate_per_s: 1, duration_s: 60}\nservice: {kind: model, workload: w.yaml, offer: aws/p5.48xlarge}\nslo: {ttft_s: 5}\n" + extra))
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	sp := parse("policy: {kind: fixed, replicas: 2}")
	advisor.ApplyPrices(sp, o, &autoscale.BatchModel{PricePerHourUSD: 40, ReplicasPerInstance: 2})
	got := sp.Pricing.Commitments
	if len(got) != 2 || got[0] != (autoscale.Commitment{Term: "reserved-1y", PerHourUSD: 28}) || got[1] != (autoscale.Commitment{Term: "reserved-3y", PerHourUSD: 18}) {
		t.Errorf("commitments %+v, want reserved-1y 28 and reserved-3y 18 per replica", got)
	}
	if !slices.ContainsFunc(sp.Defaults, func(d string) bool { return strings.HasPrefix(d, "pricing.commitments: reserved-1y 28 ") }) {
		t.Errorf("the filled commitment is not among the defaults: %q", sp.Defaults)
	}

	sp = parse("policy: {kind: fixed, replicas: 2}\npricing: {reserved_per_hour_usd: 30}")
	advisor.ApplyPrices(sp, o, &autoscale.BatchModel{PricePerHourUSD: 40, ReplicasPerInstance: 2})
	if got := sp.Pricing.Commitments; len(got) != 1 || got[0].Term != "reserved" || got[0].PerHourUSD != 30 {
		t.Errorf("the file's reserved price was replaced: %+v", got)
	}

	sp = parse("policy: {kind: serverless, max_workers: 2}")
	advisor.ApplyPrices(sp, o, &autoscale.BatchModel{PricePerHourUSD: 40, ReplicasPerInstance: 2})
	if len(sp.Pricing.Commitments) != 0 {
		t.Errorf("a serverless policy got commitments %+v", sp.Pricing.Commitments)
	}
}
