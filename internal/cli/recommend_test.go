package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRecommendGolden(t *testing.T) {
	lora := "../../examples/llama3-8b-lora.yaml"
	chat70 := "../../examples/llama3-70b-chat.yaml"
	tests := []struct {
		name string
		args []string
	}{
		{"recommend.txt", []string{"recommend", "-f", lora}},
		{"recommend-zh.txt", []string{"recommend", "-f", lora, "--lang", "zh"}},
		{"recommend.json", []string{"recommend", "-f", lora, "-o", "json"}},
		{"recommend.csv", []string{"recommend", "-f", lora, "-o", "csv"}},
		{"recommend.md", []string{"recommend", "-f", lora, "-o", "markdown"}},
		{"recommend-zh.md", []string{"recommend", "-f", lora, "-o", "markdown", "--lang", "zh"}},
		{"recommend.html", []string{"recommend", "-f", lora, "-o", "html"}},
		{"recommend-zh.html", []string{"recommend", "-f", lora, "-o", "html", "--lang", "zh"}},
		{"recommend-time-spot.txt", []string{"recommend", "-f", lora, "--objective", "time", "--pricing", "spot,on-demand"}},
		{"recommend-prices.txt", []string{"recommend", "-f", lora, "--prices", "testdata/prices.yaml"}},
		{"recommend-chat.txt", []string{"recommend", "-f", "testdata/chat-8b.yaml", "--top", "0"}},
		{"recommend-flux-service.txt", []string{"recommend", "-f", "../../examples/flux-image-api.yaml", "--top", "8"}},
		{"recommend-chat.json", []string{"recommend", "-f", "testdata/chat-8b.yaml", "-o", "json"}},
		{"recommend-explain.txt", []string{"recommend", "-f", lora, "--explain", "tencent/GN7.20XLARGE320"}},
		{"recommend-all-regions.txt", []string{"recommend", "-f", lora, "--all-regions"}},
		{"recommend-svc.txt", []string{"recommend", "-f", chat70, "--top", "0"}},
		{"recommend-svc.md", []string{"recommend", "-f", chat70, "-o", "markdown"}},
		{"recommend-svc-zh.md", []string{"recommend", "-f", chat70, "-o", "markdown", "--lang", "zh"}},
		{"recommend-svc.html", []string{"recommend", "-f", chat70, "-o", "html"}},
		{"recommend-svc-zh.html", []string{"recommend", "-f", chat70, "-o", "html", "--lang", "zh"}},
		{"recommend-svc.json", []string{"recommend", "-f", chat70, "-o", "json"}},
		// simulate on the service workload: recommend's #1 replayed.
		{"simulate-plan.txt", []string{"simulate", "-f", chat70}},
		{"simulate-plan-zh.txt", []string{"simulate", "-f", chat70, "--lang", "zh"}},
		// #1's range of time crosses the deadline: the chance of a miss and
		// the cheapest candidate that meets it at p90.
		{"recommend-deadline.txt", []string{"recommend", "-f", "testdata/resnet-deadline.yaml", "--top", "5"}},
		{"recommend-deadline-zh.txt", []string{"recommend", "-f", "testdata/resnet-deadline.yaml", "--top", "5", "--lang", "zh"}},
		{"recommend-deadline.json", []string{"recommend", "-f", "testdata/resnet-deadline.yaml", "--top", "3", "-o", "json"}},
		{"cost.txt", []string{"cost", "-f", lora, "--offer", "aws/p5.48xlarge", "--pricing", "spot"}},
		{"cost-zh.txt", []string{"cost", "-f", lora, "--offer", "aws/p5.48xlarge", "--lang", "zh"}},
		{"cost.json", []string{"cost", "-f", "../../examples/resnet50-imagenet.yaml", "--offer", "aws/p5.48xlarge", "--gpus", "16", "-o", "json"}},
		// Porting priced: vLLM on a TPU v6e loses first place by its porting.
		{"recommend-porting.txt", []string{"--catalog", families, "recommend", "-f", tpuChat}},
		{"recommend-porting-zh.txt", []string{"--catalog", families, "recommend", "-f", tpuChat, "--lang", "zh"}},
		{"recommend-porting.json", []string{"--catalog", families, "recommend", "-f", tpuChat, "-o", "json"}},
		{"cost-porting.txt", []string{"--catalog", families, "cost", "-f", tpuChat, "--offer", "gcp/tpu-v6e-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// tpuChat is the example whose TPU candidate needs porting, on families,
// a fixture catalog of TPU and GPU offers on gcp.
const (
	tpuChat  = "../../examples/llama3-8b-chat-tpu.yaml"
	families = "testdata/families-catalog"
)

func TestRecommendJSONContract(t *testing.T) {
	out, errOut, code := run(t, "recommend", "-f", "../../examples/llama3-8b-lora.yaml", "-o", "json", "--pricing", "on-demand,spot")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Candidates []map[string]any `json:"candidates"`
		Excluded   []map[string]any `json:"excluded"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Candidates) == 0 {
		t.Fatal("no candidates")
	}
	for i, c := range doc.Candidates {
		for _, k := range []string{"rank", "offer", "provider", "region", "country", "gpu", "gpus", "nodes", "pricing",
			"duration_hours", "cost_usd", "unit_cost", "utilization", "bottleneck", "pareto", "warnings"} {
			if _, ok := c[k]; !ok {
				t.Errorf("candidate %d lacks %q", i, k)
			}
		}
		if int(c["rank"].(float64)) != i+1 {
			t.Errorf("candidate %d has rank %v", i, c["rank"])
		}
		if cu, ok := c["cost_usd"].(map[string]any); ok {
			for _, k := range []string{"compute", "storage", "egress", "setup", "spot_overhead", "total"} {
				if _, ok := cu[k]; !ok {
					t.Errorf("cost_usd lacks %q", k)
				}
			}
		}
	}
	for _, x := range doc.Excluded {
		for _, k := range []string{"offer", "reason_code", "reason"} {
			if x[k] == "" || x[k] == nil {
				t.Errorf("excluded entry lacks %q: %v", k, x)
			}
		}
	}
}

func TestRecommendHTMLIsSelfContained(t *testing.T) {
	out, _, code := run(t, "recommend", "-f", "../../examples/llama3-8b-lora.yaml", "-o", "html")
	if code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(out, "<svg") || !strings.Contains(out, "<table>") {
		t.Error("the HTML report needs the chart and the table")
	}
	// #1's documents to read before signing, as a checklist.
	if i := strings.Index(out, `<ul class="diligence">`); i < 0 || strings.Count(out[i:strings.Index(out[i:], "</ul>")+i], "<li>") < 5 {
		t.Error("the HTML report needs the due-diligence checklist of #1 (at least five documents)")
	}
	// What would load: an attribute that fetches, a stylesheet import or a
	// CSS url(). The documents to read before signing are printed as text
	// (their addresses are for the reader to open), which loads nothing.
	urls := regexp.MustCompile(`(?i)\b(src|href|srcset|action|data)\s*=|url\(|@import`).FindAllString(out, -1)
	if len(urls) > 0 {
		t.Errorf("the HTML report must not load anything from the network: %v", urls)
	}
}

func TestRecommendErrorsAndChinese(t *testing.T) {
	_, errOut, code := run(t, "recommend", "-f", "../../examples/llama3-8b-lora.yaml", "--lang", "fr")
	if code != 2 || !strings.Contains(errOut, "--lang: want en or zh") {
		t.Errorf("bad --lang: exit %d, %q", code, errOut)
	}
	_, errOut, code = run(t, "recommend", "-f", "../../examples/llama3-8b-lora.yaml", "--objective", "fastest")
	if code != 2 || !strings.Contains(errOut, "--objective") {
		t.Errorf("bad --objective: exit %d, %q", code, errOut)
	}
	_, errOut, code = run(t, "recommend", "-f", "testdata/impossible.yaml")
	if code != 1 || !strings.Contains(errOut, "nothing qualifies") {
		t.Errorf("an impossible job: exit %d, %q", code, errOut)
	}
	// A Chinese LANG switches the language without --lang.
	out, _, code := runEnv(t, map[string]string{"LANG": "zh_CN.UTF-8"}, "recommend", "-f", "../../examples/llama3-8b-lora.yaml")
	if code != 0 || !strings.Contains(out, "的推荐") {
		t.Errorf("LANG=zh_CN should give Chinese output: exit %d\n%s", code, out)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"compatible, no compliance block", []string{"check", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "h100-sxm"}, 0, "Software stack: compatible"},
		{"offer fails EU residency", []string{"check", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "--region", "us-east-1"}, 1, "residency (required): fail"},
		{"offer passes in the EU region", []string{"check", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge"}, 0, "in eu-central-1"},
		{"TensorRT-LLM on a GPU older than Ampere", []string{"check", "-f", "testdata/trtllm.yaml", "--gpu", "h100-sxm"}, 0, "Software stack: compatible"},
		{"unknown region", []string{"check", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "--region", "mars-1"}, 2, `--region: aws/p5.48xlarge is not offered in "mars-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(out+errOut, tt.contains) {
				t.Errorf("exit %d (want %d); output does not contain %q:\n%s%s", code, tt.code, tt.contains, out, errOut)
			}
		})
	}
	out, _, _ := run(t, "check", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "--region", "us-east-1", "-o", "json")
	var doc struct {
		Compat struct {
			Verdict     string            `json:"verdict"`
			Reasons     []map[string]any  `json:"reasons"`
			MinVersions map[string]string `json:"min_versions"`
		} `json:"compat"`
		Compliance struct {
			Verdict      string `json:"verdict"`
			Requirements []struct {
				Name, Verdict, Reason, Source string
			} `json:"requirements"`
		} `json:"compliance"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Compat.Verdict == "" || doc.Compliance.Verdict != "fail" || len(doc.Compliance.Requirements) == 0 {
		t.Errorf("check -o json: %+v", doc)
	}
	for _, q := range doc.Compliance.Requirements {
		if q.Verdict == "pass" && q.Source == "" {
			t.Errorf("a pass without a source: %+v", q)
		}
	}
	golden(t, "check-eu.json", out)
	out, _, _ = run(t, "check", "-f", "testdata/eu-chat.yaml", "--offer", "aws/p5.48xlarge", "--region", "us-east-1", "--lang", "zh")
	golden(t, "check-eu-zh.txt", out)
}

func TestRecommendExcludesIncompatibleAndNonCompliant(t *testing.T) {
	out, _, code := run(t, "recommend", "-f", "testdata/eu-chat.yaml", "-o", "json")
	var doc struct {
		Candidates []struct{ Offer, Region, Country string } `json:"candidates"`
		Excluded   []struct {
			Offer      string `json:"offer"`
			ReasonCode string `json:"reason_code"`
		} `json:"excluded"`
	}
	_ = json.Unmarshal([]byte(out), &doc)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range doc.Candidates {
		if c.Country != "DE" {
			t.Errorf("%s in %s (%s) passed an EU-only requirement", c.Offer, c.Region, c.Country)
		}
	}
	if !strings.Contains(out, `"reason_code": "non_compliant"`) {
		t.Error("no offer excluded as non-compliant")
	}
	// On the real catalog, TensorRT-LLM rules out every non-NVIDIA offer.
	var buf, errb strings.Builder
	e := NewEnv(&buf, &errb)
	e.Now = func() time.Time { return fixedNow }
	e.Getenv = noStore(t)
	Execute(e, []string{"recommend", "-f", "testdata/trtllm.yaml", "-o", "json", "--top", "0"})
	var real struct {
		Candidates []struct{ GPU string } `json:"candidates"`
		Excluded   []struct {
			Offer      string `json:"offer"`
			ReasonCode string `json:"reason_code"`
			Reason     string `json:"reason"`
		} `json:"excluded"`
	}
	if err := json.Unmarshal([]byte(buf.String()), &real); err != nil {
		t.Fatal(err)
	}
	incompatible := 0
	for _, x := range real.Excluded {
		if x.ReasonCode == "incompatible" {
			incompatible++
		}
	}
	if incompatible == 0 {
		t.Error("TensorRT-LLM should make non-NVIDIA offers incompatible")
	}
	for _, c := range real.Candidates {
		if strings.HasPrefix(c.GPU, "mi") || strings.HasPrefix(c.GPU, "gaudi") || strings.HasPrefix(c.GPU, "tpu") {
			t.Errorf("%s offered for TensorRT-LLM", c.GPU)
		}
	}
}

// TestRecommendNothingQualifies pins the reports of a job nothing can run:
// the message once, on its own line, with the near-misses; exit 1; the
// status line on stderr does not repeat the report.
func TestRecommendNothingQualifies(t *testing.T) {
	for _, tt := range []struct{ name, format, lang string }{
		{"recommend-none.txt", "table", "en"}, {"recommend-none-zh.txt", "table", "zh"},
		{"recommend-none.md", "markdown", "en"}, {"recommend-none-zh.md", "markdown", "zh"},
		{"recommend-none.html", "html", "en"}, {"recommend-none-zh.html", "html", "zh"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "recommend", "-f", "testdata/none-near.yaml", "-o", tt.format, "--lang", tt.lang)
			if code != 1 {
				t.Fatalf("exit %d, want 1: %s", code, errOut)
			}
			// The status line is in the language asked for, like the report.
			want := "gpupick: nothing qualifies (see the report above)\n"
			if tt.lang == "zh" {
				want = "gpupick: 没有符合条件的候选（见上方报告）\n"
			}
			if errOut != want {
				t.Errorf("stderr %q, want %q", errOut, want)
			}
			none := "Nothing qualifies"
			if tt.lang == "zh" {
				none = "没有符合条件的候选"
			}
			if n := strings.Count(out, none); n != 1 {
				t.Errorf("%q said %d times", none, n)
			}
			for _, line := range strings.Split(out, "\n") {
				if i := strings.Index(line, none); i > 0 && !strings.HasSuffix(strings.TrimSpace(line[:i]), ">") &&
					!strings.HasSuffix(strings.TrimSpace(line[:i]), "**") && !strings.HasSuffix(strings.TrimSpace(line[:i]), "：") && !strings.HasSuffix(strings.TrimSpace(line[:i]), ":") {
					t.Errorf("the message is glued to other text: %q", line)
				}
			}
			near := "would qualify with a deadline of"
			if tt.lang == "zh" {
				near = "在截止时间放宽到"
			}
			if !strings.Contains(out, near) {
				t.Errorf("no deadline near-miss in the report:\n%s", out)
			}
			golden(t, tt.name, out)
		})
	}
	// JSON keeps the full reason on stderr: nothing else says it.
	out, errOut, code := run(t, "recommend", "-f", "testdata/impossible.yaml", "-o", "json")
	if code != 1 || !strings.Contains(errOut, "nothing qualifies: ") || !strings.Contains(out, `"qualifies": false`) {
		t.Errorf("json: exit %d, %q", code, errOut)
	}
}

// TestRecommendCompareTo checks --compare-to against a saved run: the
// changes in text, Markdown and JSON, and a bad file is exit 2 naming it.
func TestRecommendCompareTo(t *testing.T) {
	lora := "../../examples/llama3-8b-lora.yaml"
	dir := t.TempDir()
	// The saved run: time-ranked, so #1 and the ranking differ from now.
	saved, _, code := run(t, "recommend", "-f", lora, "-o", "json", "--objective", "time", "--pricing", "on-demand")
	if code != 0 {
		t.Fatal(code)
	}
	prev := filepath.Join(dir, "previous.json")
	if err := os.WriteFile(prev, []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "recommend", "-f", lora, "--compare-to", prev, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Candidates []struct {
			Offer, Region, Pricing string
			GPUs                   int
		} `json:"candidates"`
		Changes struct {
			Since        string   `json:"since"`
			Pick         string   `json:"pick"`
			PreviousPick string   `json:"previous_pick"`
			PickChanged  bool     `json:"pick_changed"`
			Appeared     []string `json:"appeared"`
			Disappeared  []string `json:"disappeared"`
			CostUSD      *struct {
				Now, Before, Change float64
			} `json:"cost_usd"`
			Sentences []string `json:"sentences"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	ch := doc.Changes
	if ch.Since != prev || !ch.PickChanged || ch.Pick == ch.PreviousPick || !strings.HasPrefix(ch.Pick, doc.Candidates[0].Offer+" in ") {
		t.Errorf("changes: %+v", ch)
	}
	if ch.CostUSD == nil || ch.CostUSD.Change >= 0 || len(ch.Appeared) == 0 || len(ch.Sentences) == 0 {
		t.Errorf("the spot pick is cheaper than the on-demand one and new: %+v", ch)
	}
	// The same run compared with itself: nothing changed.
	same, _, _ := run(t, "recommend", "-f", lora, "-o", "json")
	if err := os.WriteFile(prev, []byte(same), 0o644); err != nil {
		t.Fatal(err)
	}
	txt, _, code := run(t, "recommend", "-f", lora, "--compare-to", prev)
	if code != 0 || !strings.Contains(txt, "Changes since "+prev) || !strings.Contains(txt, "No change in the candidates shown.") {
		t.Errorf("unchanged: exit %d\n%s", code, txt)
	}
	md, _, _ := run(t, "recommend", "-f", lora, "--compare-to", prev, "-o", "markdown", "--lang", "zh")
	if !strings.Contains(md, "与 "+mdEsc(prev)+" 相比的变化") {
		t.Errorf("markdown in Chinese lacks the changes:\n%s", md)
	}
	// Bad files: exit 2, the flag and the file named.
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte("{\n  \"workload\": \"x\",\n  \"candidates\": [,]\n}\n"), 0o644)
	other := filepath.Join(dir, "other.json")
	_ = os.WriteFile(other, []byte(`{"gpus": []}`), 0o644)
	for _, tc := range []struct{ file, want string }{
		{bad, bad + ":3"}, {other, other}, {filepath.Join(dir, "missing.json"), "missing.json"},
	} {
		_, errOut, code := run(t, "recommend", "-f", lora, "--compare-to", tc.file)
		if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "--compare-to") {
			t.Errorf("%s: exit %d, %q", tc.file, code, errOut)
		}
	}
}

// mdEsc is the Markdown escaping of a path (underscores).
func mdEsc(s string) string { return strings.ReplaceAll(s, "_", `\_`) }

// TestRecommendFoldsRegions checks that an instance type offered in
// several regions is one row by default and every region with
// --all-regions.
func TestRecommendFoldsRegions(t *testing.T) {
	lora := "../../examples/llama3-8b-lora.yaml"
	folded, _, _ := run(t, "recommend", "-f", lora, "-o", "csv", "--top", "0")
	all, _, _ := run(t, "recommend", "-f", lora, "--all-regions")
	text, _, _ := run(t, "recommend", "-f", lora)
	if !strings.Contains(text, "(+1)") || !strings.Contains(text, "--all-regions shows every region") {
		t.Errorf("folded rows say nothing of the other regions:\n%s", text)
	}
	if strings.Contains(all, "(+1)") || strings.Count(all, "aws/p5.48xlarge") <= strings.Count(text, "aws/p5.48xlarge") {
		t.Errorf("--all-regions should show every region:\n%s", all)
	}
	// CSV has every region, with plain values.
	if !strings.Contains(folded, "eu-central-1") || strings.Contains(folded, " x ") || strings.Contains(folded, "%") {
		t.Errorf("csv:\n%s", folded)
	}
}

// TestRecommendHTMLWithoutPrices: when no candidate has a published price
// (a 64-GPU fine-tune in mainland China), the page says there is nothing
// to plot where the chart would be, in the reader's language, instead of
// an empty chart.
func TestRecommendHTMLWithoutPrices(t *testing.T) {
	for _, tt := range []struct{ lang, want string }{
		{"en", "No candidate has a published price, so there is no cost to plot against time."},
		{"zh", "没有候选有公开价格，因此无法绘制成本与时间的关系图。"},
	} {
		out, stderr, code := runOnEmbedded(t, "recommend", "-f", "../../examples/lin-70b-finetune.yaml", "--lang", tt.lang, "-o", "html")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.lang, code, stderr)
		}
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s: the page does not say %q", tt.lang, tt.want)
		}
		if strings.Contains(out, "<figure>") {
			t.Errorf("%s: an empty chart is drawn although no candidate is priced", tt.lang)
		}
	}
}
