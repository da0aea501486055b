package app

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/workload"
)

// tpuChat is a vLLM service whose best offer on the embedded catalog is a
// TPU with GPUs ranked among its next (europe-west4 alone keeps the regions
// of one type from filling the list): the examples alone may have no TPU
// among their candidates. Its porting (vLLM's TPU plugin) is left unpriced
// (engineer_day_usd 0): priced, a GPU comes first.
const tpuChat = `name: tpu-chat
kind: llm-inference
model: {preset: llama-3-8b}
inference: {prompt_tokens: 1024, output_tokens: 256, requests_per_second: 20, weight_precision: bf16}
stack: {framework: vllm}
constraints: {providers: [gcp], pricing: [on-demand], engineer_day_usd: 0}
compliance: {countries: [NL]}
objective: cost
`

// TestExportOneFamilyPerList is the one-family rule as a property, for
// every example workload and a TPU service, on the embedded catalog: the
// export's failover candidates (the chosen offer and the next best
// distinct ones) are split into inputs of one software family each, every
// candidate in exactly one; every SkyPilot task written lists offers of
// one family, every candidate is in exactly one task's list or named
// where it was left out; the NodePool's and the Deployment's instance
// types are the chosen family's.
func TestExportOneFamilyPerList(t *testing.T) {
	c, m := catalogtest.Embedded(t), matrix(t)
	k := NewChecker(m, c)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	workloads := map[string][]byte{"tpu-chat": []byte(tpuChat)}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "service-") {
			continue // simulate's service files
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		workloads[strings.TrimSuffix(filepath.Base(f), ".yaml")] = b
	}
	mixed := 0
	for name, b := range workloads {
		t.Run(name, func(t *testing.T) {
			spec, err := workload.Parse(b, name+".yaml")
			if err != nil {
				t.Fatal(err)
			}
			in, err := ExportInput(spec, c, k, now, Flags, "")
			if apperr.CodeOf(err) == apperr.Empty {
				t.Skipf("nothing qualifies: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			top := topCandidates(t, spec, c, k, now)
			if len(in.Others) > 0 {
				mixed++
			}
			checkFamilies(t, c, in, top)
			if name == "tpu-chat" && (export.AcceleratorFamily(in.GPU) != export.FamilyTPU || len(in.Others) == 0) {
				t.Errorf("tpu-chat: chosen %s (%s) with %d other families; the test wants a TPU first and GPUs after it",
					in.Offers[0].ID(), export.AcceleratorFamily(in.GPU), len(in.Others))
			}
			sky, err := export.Files("skypilot", in)
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Field == "image" {
				// No default image for the chosen family: given one, as
				// the refusal asks, the export runs.
				in.Image = "registry.example.com/team/server:1"
				sky, err = export.Files("skypilot", in)
			}
			if apperr.CodeOf(err) == apperr.Invalid {
				t.Skipf("no SkyPilot task: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkSkyPilotTasks(t, c, sky, top)
			all, err := export.Files("all", in)
			if err != nil {
				t.Fatal(err)
			}
			checkKubernetesTypes(t, c, in, all)
		})
	}
	if mixed == 0 {
		t.Error("no workload had candidates of two families: the property was not exercised")
	}
}

// topCandidates are the export's failover candidates by definition: the
// top recommendation and the next best distinct offers, exportCandidates
// in all.
func topCandidates(t *testing.T, spec *workload.Spec, c *catalog.Catalog, k *Checker, now time.Time) []*catalog.Offer {
	t.Helper()
	res, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: c, Now: now, Checks: k.Checks(), CheckPlans: true})
	if err != nil {
		t.Fatal(err)
	}
	var top []*catalog.Offer
	for _, cand := range res.Candidates {
		if len(top) < exportCandidates && !slices.ContainsFunc(top, func(o *catalog.Offer) bool { return o.Key() == cand.Offer.Key() }) {
			top = append(top, cand.Offer)
		}
	}
	return top
}

func familyOf(t *testing.T, c *catalog.Catalog, o *catalog.Offer) export.Family {
	t.Helper()
	a, ok := c.OfferAccelerator(o)
	if !ok {
		t.Fatalf("%s: no accelerator %s", o.Key(), o.GPU)
	}
	return export.AcceleratorFamily(a)
}

// checkFamilies: each input holds one family, its GPU's; no two inputs
// share a family; every candidate is in exactly one input, in rank order.
func checkFamilies(t *testing.T, c *catalog.Catalog, in export.Input, top []*catalog.Offer) {
	t.Helper()
	count := map[string]int{}
	var fams []export.Family
	for i, x := range append([]export.Input{in}, in.Others...) {
		if i > 0 && len(x.Others) > 0 {
			t.Errorf("input %d has Others of its own", i)
		}
		fam := export.AcceleratorFamily(x.GPU)
		if slices.Contains(fams, fam) {
			t.Errorf("family %s has two inputs", fam)
		}
		fams = append(fams, fam)
		last := -1
		for _, o := range x.Offers {
			if f := familyOf(t, c, o); f != fam {
				t.Errorf("input %d (%s) holds %s of family %s", i, fam, o.Key(), f)
			}
			count[o.Key()]++
			r := slices.IndexFunc(top, func(p *catalog.Offer) bool { return p.Key() == o.Key() })
			if r < 0 {
				t.Errorf("%s is not a candidate", o.Key())
			} else if r < last {
				t.Errorf("input %d lists %s out of rank order", i, o.Key())
			}
			last = r
		}
	}
	if in.Offers[0].Key() != top[0].Key() {
		t.Errorf("the chosen offer is %s, the top candidate %s", in.Offers[0].Key(), top[0].Key())
	}
	for _, o := range top {
		if count[o.Key()] != 1 {
			t.Errorf("candidate %s is in %d inputs, want 1", o.Key(), count[o.Key()])
		}
	}
}

// skyDoc is the part of a SkyPilot task the property reads.
type skyDoc struct {
	Resources struct {
		Ordered []struct {
			InstanceType string `yaml:"instance_type"`
			Region       string `yaml:"region"`
			Accelerators string `yaml:"accelerators"`
		} `yaml:"ordered"`
	} `yaml:"resources"`
}

// checkSkyPilotTasks: each task's list holds one family; each candidate is
// listed by exactly one task or, not listed, named in a comment as left
// out (no SkyPilot cloud, too small, or a family without a task).
func checkSkyPilotTasks(t *testing.T, c *catalog.Catalog, files map[string][]byte, top []*catalog.Offer) {
	t.Helper()
	listed := map[string][]string{}
	for name, b := range files {
		var d skyDoc
		if err := yaml.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fams := map[export.Family]bool{}
		for _, e := range d.Resources.Ordered {
			id := e.InstanceType
			if id == "" {
				id = e.Accelerators // a TPU slice
			}
			var match []*catalog.Offer
			for _, o := range top {
				if o.InstanceType == id && (e.Region == "" || o.Region == e.Region) {
					match = append(match, o)
				}
			}
			if len(match) == 0 {
				t.Errorf("%s lists %s in %s, which is no candidate", name, id, e.Region)
			}
			for _, o := range match {
				fams[familyOf(t, c, o)] = true
				if !slices.Contains(listed[o.Key()], name) {
					listed[o.Key()] = append(listed[o.Key()], name)
				}
			}
		}
		if len(fams) != 1 {
			t.Errorf("%s lists %d software families, want 1", name, len(fams))
		}
	}
	for _, o := range top {
		switch n := len(listed[o.Key()]); {
		case n > 1:
			t.Errorf("%s is in %d tasks: %v", o.Key(), n, listed[o.Key()])
		case n == 0 && !leftOutSaid(files, o):
			t.Errorf("%s is in no task and no comment says why", o.Key())
		}
	}
}

// leftOutSaid: a task's comments name o as left out.
func leftOutSaid(files map[string][]byte, o *catalog.Offer) bool {
	for _, b := range files {
		for _, l := range strings.Split(string(b), "\n") {
			switch {
			case !strings.HasPrefix(l, "# "):
			case strings.HasPrefix(l, "# Left out, no SkyPilot cloud:") && strings.Contains(l, o.Provider),
				strings.HasPrefix(l, "# Left out, fewer than") && strings.Contains(l, o.Key()),
				strings.Contains(l, "have no SkyPilot task") && strings.Contains(l, o.Key()):
				return true
			}
		}
	}
	return false
}

// checkKubernetesTypes: the instance types the NodePool allows and the
// Deployment or Job prefers are the chosen family's candidates.
func checkKubernetesTypes(t *testing.T, c *catalog.Catalog, in export.Input, files map[string][]byte) {
	t.Helper()
	fam := export.AcceleratorFamily(in.GPU)
	for name, b := range files {
		if !strings.HasSuffix(name, ".yaml") || strings.HasPrefix(name, "skypilot") {
			continue
		}
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if !strings.Contains(l, "node.kubernetes.io/instance-type") {
				continue
			}
			// The values follow the key: "values:" and "- type" lines.
			for _, v := range lines[i+1:] {
				v = strings.TrimSpace(v)
				if v == "operator: In" || v == "values:" {
					continue
				}
				typ, ok := strings.CutPrefix(v, "- ")
				if !ok {
					break
				}
				for _, o := range c.Offers {
					if o.Provider == in.Offers[0].Provider && o.InstanceType == typ && familyOf(t, c, o) != fam {
						t.Errorf("%s allows %s of family %s; the chosen family is %s", name, typ, familyOf(t, c, o), fam)
						break
					}
				}
			}
		}
	}
}
