package perf

import (
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/workload"
)

var writeAccuracy = flag.String("accuracy-doc", "", "write the accuracy table (markdown) to this file")

// accCase describes the workload and hardware of one published measurement.
// It never holds the measured value: that is read from the CSV by id.
type accCase struct {
	id     string
	yaml   string
	gpu    string
	gpus   int
	nodes  int
	fabric float64 // Gbit/s per node; 0 = single node
	memGiB float64 // override the accelerator's memory (non-standard parts)
	metric func(p Prediction) float64
	what   string // what is compared
}

func perGPU(p Prediction) float64 { return p.Throughput.Value / float64(p.GPUs) }
func total(p Prediction) float64  { return p.Throughput.Value }
func mfuPct(p Prediction) float64 { return p.MFU * 100 }

const mpt70b = `model: {params_b: 64.86, layers: 80, hidden: 8192, heads: 64, kv_heads: 64, ffn_hidden: 32768, gated_mlp: false, vocab: 50432}`
const gpt1t = `model: {layers: 128, hidden: 25600, heads: 160, ffn_hidden: 102400, gated_mlp: false, vocab: 51200}`

func train(model, extra string) string {
	return "kind: llm-train\n" + model + "\ntraining:\n" + extra + "\n"
}

var accCases = []accCase{
	{id: "LF-01", yaml: train(mpt70b, "  {seq_len: 2048, global_batch: 4096, tokens: 1e9, precision: bf16, activation_checkpointing: true}\nstack: {framework: llm-foundry}"),
		gpu: "h100-sxm", gpus: 512, nodes: 64, fabric: 3200, metric: perGPU, what: "tokens/s/GPU"},
	{id: "LF-02", yaml: train("model: {preset: mpt-7b}", "  {seq_len: 2048, global_batch: 48, tokens: 1e9, precision: bf16, activation_checkpointing: false}\nstack: {framework: llm-foundry}"),
		gpu: "h100-sxm", gpus: 8, metric: perGPU, what: "tokens/s/GPU"},
	{id: "LF-05", yaml: train(mpt70b, "  {seq_len: 2048, global_batch: 2048, tokens: 1e9, precision: bf16, activation_checkpointing: true}\nstack: {framework: llm-foundry}"),
		gpu: "a100-80gb", gpus: 64, nodes: 8, fabric: 1600, metric: perGPU, what: "tokens/s/GPU"},
	{id: "LF-06", yaml: train("model: {preset: mpt-7b}", "  {seq_len: 2048, global_batch: 96, tokens: 1e9, precision: bf16, activation_checkpointing: false}\nstack: {framework: llm-foundry}"),
		gpu: "a100-80gb", gpus: 8, metric: perGPU, what: "tokens/s/GPU"},
	{id: "LF-07", yaml: train("model: {preset: mpt-7b}", "  {seq_len: 2048, global_batch: 384, tokens: 1e9, precision: bf16, activation_checkpointing: true}\nstack: {framework: llm-foundry}"),
		gpu: "a100-40gb", gpus: 8, metric: perGPU, what: "tokens/s/GPU"},
	{id: "TT-01", yaml: train("model: {preset: llama-3.1-8b}", "  {seq_len: 8192, global_batch: 16, tokens: 1e9, precision: bf16}\nstack: {framework: torchtitan}"),
		gpu: "h100-sxm", gpus: 8, memGiB: 96, metric: perGPU, what: "tokens/s/GPU"},
	{id: "TT-02", yaml: train("model: {preset: llama-3.1-8b}", "  {seq_len: 8192, global_batch: 16, tokens: 1e9, precision: fp8}\nstack: {framework: torchtitan}"),
		gpu: "h100-sxm", gpus: 8, memGiB: 96, metric: perGPU, what: "tokens/s/GPU"},
	{id: "TT-04", yaml: train("model: {preset: llama-3.1-70b}", "  {seq_len: 8192, global_batch: 512, tokens: 1e9, precision: bf16, activation_checkpointing: true}\nparallelism: {tensor: 8, data: 32}\nstack: {framework: torchtitan}"),
		gpu: "h100-sxm", gpus: 256, nodes: 32, fabric: 3200, memGiB: 96, metric: perGPU, what: "tokens/s/GPU"},
	{id: "MG-01", yaml: train(gpt1t, "  {seq_len: 2048, global_batch: 3072, tokens: 1e9, precision: fp16}\nstack: {framework: megatron}"),
		gpu: "a100-80gb", gpus: 3072, nodes: 384, fabric: 1600, metric: func(p Prediction) float64 { return p.MFU * 312 * float64(p.GPUs) / 1000 }, what: "PFLOP/s"},
	{id: "MG-02", yaml: train(`model: {layers: 105, hidden: 20480, heads: 128, ffn_hidden: 81920, gated_mlp: false, vocab: 51200}`, "  {seq_len: 2048, global_batch: 1920, tokens: 1e9, precision: fp16}\nstack: {framework: megatron}"),
		gpu: "a100-80gb", gpus: 2240, nodes: 280, fabric: 1600, metric: mfuPct, what: "MFU %"},
	{id: "MG-03", yaml: train(`model: {preset: gpt-3-175b}`, "  {seq_len: 2048, global_batch: 64, tokens: 1e9, precision: fp16}\nparallelism: {tensor: 8, pipeline: 8, data: 1}\nstack: {framework: megatron}"),
		gpu: "a100-80gb", gpus: 64, nodes: 8, fabric: 1600, metric: func(p Prediction) float64 { return p.StepTimeS }, what: "s per iteration"},
	{id: "MG-07", yaml: train(`model: {preset: gpt-3-175b, vocab: 131072}`, "  {seq_len: 4096, global_batch: 1152, tokens: 1e9, precision: bf16}\nstack: {framework: megatron}"),
		gpu: "h100-sxm", gpus: 4608, nodes: 576, fabric: 3200, metric: mfuPct, what: "MFU %"},
	{id: "MG-08", yaml: train(gpt1t, "  {seq_len: 2048, global_batch: 512, tokens: 1e9, precision: fp16}\nparallelism: {tensor: 8, pipeline: 64, data: 1}\nstack: {framework: megatron}"),
		gpu: "a100-80gb", gpus: 512, nodes: 64, fabric: 1600, metric: mfuPct, what: "MFU %"},
	{id: "MG-09", yaml: train(`model: {preset: llama-3.1-405b}`, "  {seq_len: 8192, global_batch: 2048, tokens: 1e9, precision: bf16}\nparallelism: {tensor: 8, pipeline: 16}\nstack: {framework: megatron}"),
		gpu: "h100-sxm", gpus: 16384, nodes: 2048, fabric: 3200, metric: func(p Prediction) float64 { return p.MFU * 989.4 }, what: "TFLOP/s/GPU"},
	{id: "DL-01", yaml: "kind: cnn-train\nmodel: {preset: resnet-50}\ntraining: {samples: 1e7, global_batch: 256, precision: fp16}\nstack: {framework: pytorch}\n",
		gpu: "a100-80gb", gpus: 1, metric: total, what: "images/s"},
	{id: "DL-03", yaml: "kind: cnn-train\nmodel: {preset: resnet-50}\ntraining: {samples: 1e7, global_batch: 256, precision: fp16}\nstack: {framework: pytorch}\n",
		gpu: "v100-16gb", gpus: 1, metric: total, what: "images/s"},
	{id: "MI-01", yaml: "kind: llm-inference\nmodel: {preset: llama-2-70b}\ninference: {prompt_tokens: 300, output_tokens: 290, weight_precision: fp8}\nstack: {framework: tensorrt-llm}\n",
		gpu: "h200", gpus: 8, metric: total, what: "output tokens/s"},
	{id: "MI-03", yaml: "kind: llm-inference\nmodel: {preset: llama-2-70b}\ninference: {prompt_tokens: 300, output_tokens: 290, weight_precision: fp8}\nstack: {framework: tensorrt-llm}\n",
		gpu: "h100-sxm", gpus: 8, metric: total, what: "output tokens/s"},
	{id: "TR-01", yaml: "kind: llm-inference\nmodel: {preset: llama-3.1-8b}\ninference: {prompt_tokens: 1000, output_tokens: 1000, weight_precision: fp8}\nstack: {framework: tensorrt-llm}\n",
		gpu: "h100-sxm", gpus: 1, metric: total, what: "output tokens/s"},
	{id: "TR-06", yaml: "kind: llm-inference\nmodel: {preset: llama-2-7b}\ninference: {prompt_tokens: 128, output_tokens: 128, weight_precision: fp16, max_batch: 384}\nstack: {framework: tensorrt-llm}\n",
		gpu: "a100-80gb", gpus: 1, metric: total, what: "output tokens/s"},
	{id: "TR-07", yaml: "kind: llm-inference\nmodel: {preset: llama-2-7b}\ninference: {prompt_tokens: 128, output_tokens: 128, weight_precision: fp8, max_batch: 64}\nstack: {framework: tensorrt-llm}\n",
		gpu: "l40s", gpus: 1, metric: total, what: "output tokens/s"},
	{id: "TR-08", yaml: "kind: llm-inference\nmodel: {preset: llama-2-70b}\ninference: {prompt_tokens: 2048, output_tokens: 1, weight_precision: fp16, max_batch: 1}\nparallelism: {tensor: 4}\nstack: {framework: tensorrt-llm}\n",
		gpu: "a100-80gb", gpus: 4, metric: func(p Prediction) float64 { return *p.TTFTMs }, what: "TTFT ms"},
	{id: "KP-01", yaml: "kind: llm-inference\nmodel: {layers: 40, hidden: 5120, heads: 40, ffn_hidden: 20480, gated_mlp: false, vocab: 50257}\ninference: {prompt_tokens: 512, output_tokens: 10, weight_precision: fp16, max_batch: 1}\nstack: {framework: tensorrt-llm}\n",
		gpu: "a100-40gb", gpus: 1, metric: func(p Prediction) float64 { return *p.TTFTMs }, what: "prefill ms"},
	{id: "KP-02", yaml: "kind: llm-inference\nmodel: {layers: 40, hidden: 5120, heads: 40, ffn_hidden: 20480, gated_mlp: false, vocab: 50257}\ninference: {prompt_tokens: 512, output_tokens: 10, weight_precision: fp16, max_batch: 1}\nstack: {framework: tensorrt-llm}\n",
		gpu: "a100-40gb", gpus: 1, metric: func(p Prediction) float64 { return *p.TPOTMs }, what: "decode ms/token"},
}

// notComparable lists rows the model cannot be scored on, with the reason.
var notComparable = map[string]string{
	"TT-03":  "memory row: checked by TestPublishedMemory with the layout it states",
	"MG-05":  "activation memory without sequence parallelism or fused attention (2022 Megatron); checked by TestPublishedMemory in the form the model predicts",
	"TPU-01": "the model's architecture, sequence length and batch are not stated",
	"MT-01":  "time to train to a target accuracy: depends on the convergence budget",
	"MT-03":  "time to train to a target accuracy: depends on the convergence budget",
	"MT-04":  "time to train to a target accuracy from a checkpoint: depends on the convergence budget",
	"DL-04":  "CNN inference: gpupick models CNN training only",
}

type published struct {
	id, kind, unit, source string
	value                  float64
}

func readPublished(t *testing.T) map[string]published {
	t.Helper()
	f, err := os.Open("testdata/published-results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	out := map[string]published{}
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[col["value"]], 64)
		if err != nil {
			t.Fatalf("%s: value %q", r[0], r[col["value"]])
		}
		out[r[0]] = published{id: r[0], kind: r[col["workload_kind"]], unit: r[col["unit"]], source: r[col["source_url_or_repo_path"]], value: v}
	}
	return out
}

func embedded(t testing.TB) *catalog.Catalog { return catalogtest.Embedded(t) }

func clusterFor(t testing.TB, cat *catalog.Catalog, tc accCase) Cluster {
	t.Helper()
	a, ok := cat.Accelerator(tc.gpu)
	if !ok {
		t.Fatalf("%s: accelerator %s", tc.id, tc.gpu)
	}
	if tc.memGiB > 0 {
		cp := *a
		cp.MemGiB = tc.memGiB
		a = &cp
	}
	c, err := NewCluster(a, tc.gpus, tc.nodes, nil)
	if err != nil {
		t.Fatalf("%s: %v", tc.id, err)
	}
	if tc.fabric > 0 {
		c.FabricGbps, c.FabricKind = tc.fabric, "infiniband"
	}
	return c
}

type scored struct {
	id, kind, what string
	pred, meas     float64
	err            float64
}

func TestPublishedAccuracy(t *testing.T) {
	pub := readPublished(t)
	cat := embedded(t)
	var rows []scored
	seen := map[string]bool{}
	for _, tc := range accCases {
		seen[tc.id] = true
		m, ok := pub[tc.id]
		if !ok {
			t.Fatalf("%s not in published-results.csv", tc.id)
		}
		spec, err := workload.Parse([]byte(tc.yaml), tc.id+".yaml")
		if err != nil {
			t.Fatalf("%s: %v", tc.id, err)
		}
		p, err := Predict(spec, clusterFor(t, cat, tc))
		if err != nil {
			t.Fatalf("%s: %v", tc.id, err)
		}
		if !p.Fits {
			t.Errorf("%s: predicted not to fit: %s", tc.id, p.Reason)
			continue
		}
		got := tc.metric(p)
		e := math.Abs(math.Log(got / m.value))
		rows = append(rows, scored{tc.id, m.kind, tc.what, got, m.value, e})
		t.Logf("%-6s %-13s predicted %10.4g measured %10.4g  |ln| %.3f  (%s)", tc.id, tc.what, got, m.value, e, describe(p))
	}
	for id := range pub {
		if !seen[id] && notComparable[id] == "" {
			t.Errorf("%s is neither scored nor listed as not comparable", id)
		}
	}
	errs := make([]float64, len(rows))
	for i, r := range rows {
		errs[i] = r.err
	}
	med, p90 := quantile(errs, 0.5), quantile(errs, 0.9)
	t.Logf("all %d rows: median |ln| %.3f, p90 %.3f", len(rows), med, p90)
	if med > 0.15 {
		t.Errorf("median |ln(predicted/measured)| = %.3f, want <= 0.15", med)
	}
	if p90 > 0.35 {
		t.Errorf("90th percentile |ln(predicted/measured)| = %.3f, want <= 0.35", p90)
	}
	if *writeAccuracy != "" {
		if err := os.WriteFile(*writeAccuracy, []byte(accuracyDoc(rows, pub)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func describe(p Prediction) string {
	pl := p.Parallelism
	return fmt.Sprintf("dp%d tp%d pp%d mb%d %s %s, mfu %.2f, %s", pl.Data, pl.Tensor, pl.Pipeline, pl.MicroBatch, pl.Sharding, pl.Recompute, p.MFU, p.Bottleneck)
}

func quantile(v []float64, q float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

func accuracyDoc(rows []scored, pub map[string]published) string {
	var b strings.Builder
	b.WriteString("# Accuracy of the performance model\n\n")
	b.WriteString("Generated by `go test ./internal/perf -run TestPublishedAccuracy -accuracy-doc ../../docs/accuracy.md`.\n")
	b.WriteString("Each row is a published measurement (`internal/perf/testdata/published-results.csv`, with its source);\n")
	b.WriteString("the error is |ln(predicted / measured)|. The model is physics plus a few efficiency factors per\n")
	b.WriteString("architecture and software stack (`internal/perf/efficiency.go`); nothing is keyed on these rows.\n\n")
	b.WriteString("| id | kind | quantity | predicted | measured | error |\n|---|---|---|---:|---:|---:|\n")
	byKind := map[string][]float64{}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %.4g | %.4g | %.3f |\n", r.id, r.kind, r.what, r.pred, r.meas, r.err)
		byKind[r.kind] = append(byKind[r.kind], r.err)
	}
	b.WriteString("\n| kind | rows | median error | 90th percentile |\n|---|---:|---:|---:|\n")
	kinds := make([]string, 0, len(byKind))
	var all []float64
	for k, v := range byKind {
		kinds = append(kinds, k)
		all = append(all, v...)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f |\n", k, len(byKind[k]), quantile(byKind[k], 0.5), quantile(byKind[k], 0.9))
	}
	fmt.Fprintf(&b, "| all | %d | %.3f | %.3f |\n", len(all), quantile(all, 0.5), quantile(all, 0.9))
	b.WriteString("\nCaveats: TT-01/02/04 ran on 96 GiB H100s capped at 500 W, predicted as h100-sxm with 96 GiB\n")
	b.WriteString("(the model does not know the power cap); MI-01/03 assume a mean prompt of 300 tokens for the\n")
	b.WriteString("MLPerf OpenOrca set (the logs give only the output length, about 290 tokens).\n")
	b.WriteString("Memory rows (TT-03 peak memory, MG-05 activations and model state) are checked within 15% by\n")
	b.WriteString("`TestPublishedMemory` with the layouts they state.\n")
	b.WriteString("\nRows not scored, and why:\n\n")
	ids := make([]string, 0, len(notComparable))
	for id := range notComparable {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "- %s: %s\n", id, notComparable[id])
	}
	return b.String()
}
