package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnePlanEverywhere: for each example workload, the fleet recommend
// ranks first is the fleet cost prices for that offer and region, and the
// fleet export writes its manifests for: one plan, stated the same way.
func TestOnePlanEverywhere(t *testing.T) {
	for _, ex := range []string{"llama3-70b-chat.yaml", "llama3-8b-lora.yaml", "embedding-batch.yaml", "sharegpt-burst.yaml"} {
		file := filepath.Join("..", "..", "examples", ex)
		if _, err := os.Stat(file); err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		out, errOut, code := run(t, "recommend", "-f", file, "-o", "json")
		if code != 0 {
			t.Fatalf("%s: recommend exit %d: %s", ex, code, errOut)
		}
		var rec struct {
			Candidates []struct {
				Offer, Region, Pricing string
				GPUs                   int `json:"gpus"`
				Plan                   struct {
					Sentence  string
					Instances int
					GPUs      int `json:"gpus"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil || len(rec.Candidates) == 0 {
			t.Fatalf("%s: %v (%d candidates)", ex, err, len(rec.Candidates))
		}
		top := rec.Candidates[0]
		if top.Plan.GPUs != top.GPUs || top.Plan.Sentence == "" {
			t.Errorf("%s: candidate %d GPUs, plan %+v", ex, top.GPUs, top.Plan)
		}
		// No region given: cost picks the region recommend ranked first
		// (the cheapest the workload's compliance allows).
		out, errOut, code = run(t, "cost", "-f", file, "--offer", top.Offer, "--pricing", top.Pricing,
			"--gpus", itoa(top.GPUs), "-o", "json")
		if code != 0 {
			t.Fatalf("%s: cost exit %d: %s", ex, code, errOut)
		}
		var cost struct {
			Region string
			Plan   struct{ Sentence string }
		}
		if err := json.Unmarshal([]byte(out), &cost); err != nil {
			t.Fatal(err)
		}
		if cost.Region != top.Region {
			t.Errorf("%s on %s: recommend ranks it in %s, cost prices it in %s", ex, top.Offer, top.Region, cost.Region)
		}
		if cost.Plan.Sentence != top.Plan.Sentence {
			t.Errorf("%s on %s: recommend plans %q, cost prices %q", ex, top.Offer, top.Plan.Sentence, cost.Plan.Sentence)
		}
		out, errOut, code = run(t, "export", "skypilot", "-f", file, "--offer", top.Offer)
		if code != 0 {
			t.Fatalf("%s: export exit %d: %s", ex, code, errOut)
		}
		if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(out, "#", "")), " "), "Priced plan: "+top.Plan.Sentence) {
			t.Errorf("%s: the export does not state the plan %q:\n%s", ex, top.Plan.Sentence, out)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestSimulateReplaysRecommendsPlan: simulate given a service workload
// replays the plan recommend ranks first (its offer, region and pricing),
// and its day is the day recommend's check quotes (the same requests, the
// same share within the SLO); the plan written by --save-plan, replayed
// as a service file, gives the same day again.
func TestSimulateReplaysRecommendsPlan(t *testing.T) {
	type runner func(t *testing.T, args ...string) (string, string, int)
	type example struct {
		file string
		run  runner
	}
	// The fixture catalog has one region per offer; the embedded one has
	// many, priced apart, and the multi-node and TPU services.
	examples := []example{{"llama3-70b-chat.yaml", run}, {"flux-image-api.yaml", run}, {"sdxl-image-service.yaml", run},
		{"llama3-70b-chat.yaml", runOnEmbedded}}
	if !testing.Short() {
		examples = append(examples, example{"deepseek-v3-chat.yaml", runOnEmbedded}, example{"llama3-8b-chat-tpu.yaml", runOnEmbedded})
	}
	type sim struct {
		Requests             int64   `json:"requests"`
		SLOViolationFraction float64 `json:"slo_violation_fraction"`
		CostUSD              float64 `json:"cost_usd"`
		PeakReplicas         int     `json:"peak_replicas"`
		ColdStarts           int64   `json:"cold_starts"`
	}
	for _, x := range examples {
		ex, run := x.file, x.run
		file := filepath.Join("..", "..", "examples", ex)
		out, errOut, code := run(t, "recommend", "-f", file, "-o", "json")
		if code != 0 {
			t.Errorf("%s: recommend exit %d: %s", ex, code, errOut)
			continue
		}
		var rec struct {
			Candidates []struct {
				Offer, Region, Pricing string
				Plan                   struct {
					Scaling *struct {
						Check *struct {
							SLOAttainment float64 `json:"slo_attainment"`
							Requests      int64   `json:"requests"`
							ReplicasMax   int     `json:"replicas_max"`
						} `json:"check"`
					} `json:"scaling"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil || len(rec.Candidates) == 0 {
			t.Fatalf("%s: %v", ex, err)
		}
		top := rec.Candidates[0]
		if top.Plan.Scaling == nil || top.Plan.Scaling.Check == nil {
			t.Errorf("%s: #1 %s has no checked plan", ex, top.Offer)
			continue
		}
		check := top.Plan.Scaling.Check
		saved := filepath.Join(t.TempDir(), "plan", "service.yaml")
		if err := os.MkdirAll(filepath.Dir(saved), 0o755); err != nil {
			t.Fatal(err)
		}
		out, errOut, code = run(t, "simulate", "-f", file, "--save-plan", saved, "-o", "json")
		if code != 0 {
			t.Errorf("%s: simulate exit %d: %s", ex, code, errOut)
			continue
		}
		var got struct {
			Offer, Region, Pricing string
			Simulation             sim
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Offer != top.Offer || got.Region != top.Region || got.Pricing != top.Pricing {
			t.Errorf("%s: simulate replays %s in %s (%s), recommend ranks first %s in %s (%s)", ex, got.Offer, got.Region, got.Pricing, top.Offer, top.Region, top.Pricing)
		}
		s := got.Simulation
		if s.Requests != check.Requests || math.Abs(1-s.SLOViolationFraction-check.SLOAttainment) > 1e-9 || s.PeakReplicas != check.ReplicasMax {
			t.Errorf("%s: simulate's day %+v, recommend's check %+v", ex, s, *check)
		}
		out, errOut, code = run(t, "simulate", "-f", saved, "-o", "json")
		if code != 0 {
			t.Errorf("%s: the saved plan: simulate exit %d: %s", ex, code, errOut)
			continue
		}
		var again sim
		if err := json.Unmarshal([]byte(out), &again); err != nil {
			t.Fatal(err)
		}
		if again != s {
			t.Errorf("%s: the saved plan replays %+v, the plan %+v", ex, again, s)
		}
	}
}
