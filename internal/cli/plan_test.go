package cli

import (
	"encoding/json"
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
