package app

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/workload"
)

func matrix(t *testing.T) *compat.Matrix {
	t.Helper()
	b, err := os.ReadFile("../../data/compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFieldsNameTheCallersInputs(t *testing.T) {
	c := catalogtest.Embedded(t)
	if _, err := FindOffer(c, Flags, "aws/p9.huge"); err == nil || !strings.HasPrefix(err.Error(), "--offer: ") {
		t.Errorf("flags: %v", err)
	}
	if _, err := FindOffer(c, JSON, "aws/p9.huge"); err == nil || !strings.HasPrefix(err.Error(), "offer: ") {
		t.Errorf("json: %v", err)
	}
	if _, err := Cluster(c, JSON, "h999", "", 8, 0); err == nil || !strings.HasPrefix(err.Error(), "gpu: ") {
		t.Errorf("unknown gpu: %v", err)
	}
	cl, err := Cluster(c, Flags, "", "aws/p5.48xlarge", 0, 0)
	if err != nil || cl.GPUs != 8 || cl.GPU.ID != "h100-sxm" {
		t.Errorf("an offer alone gives one instance: %+v, %v", cl, err)
	}
}

// TestCheckerCacheAgreesWithTheMatrix: cached verdicts equal fresh ones,
// also under concurrent use.
func TestCheckerCacheAgreesWithTheMatrix(t *testing.T) {
	c, m := catalogtest.Embedded(t), matrix(t)
	k := NewChecker(m, c)
	spec := &workload.Spec{Stack: workload.Stack{Framework: workload.FrameworkTensorRTLLM}}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, o := range c.Offers {
				got := k.Stack(spec, o)
				a, _ := c.Accelerator(o.GPU)
				if want := m.Check(spec.Stack, a, o.Driver); got.Verdict != want.Verdict {
					t.Errorf("%s: cached %s, fresh %s", o.Key(), got.Verdict, want.Verdict)
					return
				}
			}
		}()
	}
	wg.Wait()
	incompatible := 0
	checks := k.Checks()
	for _, o := range c.Offers {
		if code, _, _ := checks[0](spec, o); code != "" {
			incompatible++
		}
	}
	if incompatible == 0 {
		t.Error("TensorRT-LLM excludes no offer: the non-NVIDIA ones should be")
	}
	if code, _, ws := Demote(checks[0])(spec, c.Offers[0]); code != "" && len(ws) == 0 {
		t.Error("Demote must keep the verdict as a warning")
	}
	// The checks of one call are used from several goroutines at once,
	// each with its own copy of the workload (the near-misses relax one
	// constraint each): the same verdicts, and no concurrent map write.
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, o := range c.Offers {
				cp := *spec
				for _, chk := range checks {
					chk(&cp, o)
				}
				code, _, _ := checks[0](&cp, o)
				if want, _, _ := checks[0](spec, o); code != want {
					t.Errorf("%s: %q from a copy, %q from the workload", o.Key(), code, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestExportPolicy(t *testing.T) {
	tests := []struct {
		in   autoscale.Policy
		want export.Policy
	}{
		{autoscale.Policy{Kind: autoscale.PolicyFixed, Replicas: 3}, export.Policy{Kind: "fixed", MinReplicas: 3, MaxReplicas: 3, Metric: export.MetricInFlight}},
		{autoscale.Policy{Kind: autoscale.PolicyTarget, Metric: "queue", Target: 4, MinReplicas: 0, MaxReplicas: 9, CooldownS: 120},
			export.Policy{Kind: "target", MaxReplicas: 9, Metric: export.MetricQueueLength, Target: 4, CooldownS: 120}},
		{autoscale.Policy{Kind: autoscale.PolicyServerless, MinWorkers: 0, MaxWorkers: 5, RequestsPerWorker: 2, IdleTimeoutS: 30},
			export.Policy{Kind: "serverless", MaxReplicas: 5, Metric: export.MetricInFlight, Target: 2, CooldownS: 30}},
	}
	for _, tt := range tests {
		if got := ExportPolicy(tt.in); got != tt.want {
			t.Errorf("ExportPolicy(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestSearchCandidatesKeepCompliance: a policy search for an EU-only
// service tries offers in EU regions only, named with their region, and
// starts from the chosen offer in a region its compliance allows.
func TestSearchCandidatesKeepCompliance(t *testing.T) {
	c := catalogtest.Embedded(t)
	b, err := os.ReadFile("../../examples/llama3-70b-chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workload.Parse(b, "llama3-70b-chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.ReadFile("../../examples/service-model.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := autoscale.ParseSpec(sb)
	if err != nil {
		t.Fatal(err)
	}
	o, err := FindOffer(c, Flags, "nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb")
	if err != nil {
		t.Fatal(err)
	}
	if o, _, err = PickRegion(c, Flags, o, "", ws.Compliance, catalog.OnDemand); err != nil {
		t.Fatal(err)
	}
	model, err := advisor.ServiceModel(spec, ws, c, o)
	if err != nil {
		t.Fatal(err)
	}
	k := NewChecker(matrix(t), c)
	cands := SearchCandidates(spec, ws, c, k.Checks(), o, model, 6, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	if len(cands) < 3 {
		t.Fatalf("only %d candidates", len(cands))
	}
	for _, cand := range cands {
		r, ok := c.Region(strings.SplitN(cand.Name, "/", 2)[0], cand.Region)
		if !ok || !r.EUEEA {
			t.Errorf("%s in %q: not an EU/EEA region, yet the workload allows only the EU", cand.Name, cand.Region)
		}
	}
}
