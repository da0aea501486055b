package workload

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

const minimalFinetune = `kind: llm-finetune
model:
  preset: llama-3-8b
training:
  tokens: 1e9
`

func mustParse(t *testing.T, in string) *Spec {
	t.Helper()
	s, err := Parse([]byte(in), "test.yaml")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func TestParseExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 7 {
		t.Fatalf("found %d example files, want at least 7", len(files))
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "service-") {
			continue // service files for gpupick simulate, not workloads
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data, f)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if want := strings.TrimSuffix(filepath.Base(f), ".yaml"); s.Name != want {
				t.Errorf("name = %q, want the file name %q", s.Name, want)
			}
			if !s.Kind.Valid() || !s.Objective.Valid() || !s.Stack.Framework.Valid() {
				t.Errorf("unresolved enums: kind %q objective %q framework %q", s.Kind, s.Objective, s.Stack.Framework)
			}
			if _, err := json.Marshal(s); err != nil {
				t.Errorf("json: %v", err)
			}
		})
	}
}

func TestPresetDerivedParams(t *testing.T) {
	for _, p := range Presets() {
		if p.Model.Arch.IsVision() || p.Model.Arch.IsDiffusion() {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			got, want := p.Model.DerivedParamsB(), p.Model.ParamsB
			if math.Abs(got-want)/want > 0.05 {
				t.Errorf("derived %.3fB params, published %.3fB: off by more than 5%%", got, want)
			}
		})
	}
}

func TestPresetsComplete(t *testing.T) {
	required := []string{"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-405b",
		"mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "deepseek-v3", "mpt-7b", "mpt-30b", "gpt-j-6b",
		"gpt-3-175b", "bert-large", "resnet-50", "resnet-152", "vit-b-16", "efficientnet-b0"}
	for _, name := range required {
		p, ok := LookupPreset(name)
		if !ok {
			t.Errorf("preset %s missing", name)
			continue
		}
		if p.Source == "" || p.Model.ParamsB <= 0 || p.Model.Preset != p.Name {
			t.Errorf("preset %s incomplete: %+v", name, p)
		}
		m := p.Model
		if m.Arch.IsVision() {
			if m.ForwardGMACsPerSample <= 0 || m.ImagePx <= 0 {
				t.Errorf("%s: vision preset without GMACs or resolution", name)
			}
			continue
		}
		if m.Layers <= 0 || m.Hidden <= 0 || m.Heads <= 0 || m.KVHeads <= 0 || m.FFNHidden <= 0 || m.Vocab <= 0 || m.ContextLen <= 0 {
			t.Errorf("%s: incomplete architecture %+v", name, m)
		}
		if m.Heads%m.KVHeads != 0 {
			t.Errorf("%s: heads %d not divisible by kv_heads %d", name, m.Heads, m.KVHeads)
		}
	}
}

func TestActiveParams(t *testing.T) {
	tests := []struct {
		preset string
		want   float64 // published active parameters, billions
	}{
		{"mixtral-8x7b", 12.9},
		{"deepseek-v3", 37},
		{"llama-3-8b", 8.03},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			p, _ := LookupPreset(tt.preset)
			if got := p.Model.ActiveParamsB(); math.Abs(got-tt.want)/tt.want > 0.03 {
				t.Errorf("ActiveParamsB = %.2f, want %.2f ± 3%%", got, tt.want)
			}
		})
	}
}

func TestKVElemsPerToken(t *testing.T) {
	tests := []struct {
		preset string
		want   int
	}{
		{"llama-3-8b", 32 * 2 * 8 * 128},
		{"llama-2-7b", 32 * 2 * 32 * 128},
		{"deepseek-v3", 61 * (512 + 64)}, // MLA caches the latent and the rotary key
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			p, _ := LookupPreset(tt.preset)
			if got := p.Model.KVElemsPerToken(); got != tt.want {
				t.Errorf("KVElemsPerToken = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestTrainFLOPs(t *testing.T) {
	p, _ := LookupPreset("resnet-50")
	if got, want := p.Model.TrainFLOPsPerSample(), 3*2*4.09e9; math.Abs(got-want) > 1 {
		t.Errorf("TrainFLOPsPerSample = %g, want %g", got, want)
	}
}

func TestLookupPreset(t *testing.T) {
	tests := []struct{ in, want string }{
		{"llama-3-8b", "llama-3-8b"},
		{"Llama-3-8B", "llama-3-8b"},
		{"llama3-8b", "llama-3-8b"},
		{"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"},
		{"Llama-2-7b-chat-hf", "llama-2-7b"},
		{"Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"},
		{"Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"},
		{"ResNet50", "resnet-50"},
		{"vit-b/16", "vit-b-16"},
		{"gpt3", "gpt-3-175b"},
		{"llama-9", ""},
		{"", ""},
		{"/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, ok := LookupPreset(tt.in)
			if ok != (tt.want != "") || p.Name != tt.want {
				t.Errorf("LookupPreset(%q) = %q, %v; want %q", tt.in, p.Name, ok, tt.want)
			}
		})
	}
}

func TestPresetsAreCopies(t *testing.T) {
	ps := Presets()
	*ps[0].Model.GatedMLP = false
	ps[0].Model.Layers = 1
	if p, _ := LookupPreset(ps[0].Name); p.Model.Layers == 1 || !*p.Model.GatedMLP {
		t.Error("changing the result of Presets changed the preset")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		field string // the field of one of the errors
		line  int
		msg   string // substring of that error's message
	}{
		{"unknown key", "kind: llm-finetune\nmodel:\n  preset: llama-3-8b\ntraining:\n  tokens: 1e9\n  seq_lne: 4\n",
			"training.seq_lne", 6, `unknown key (did you mean "seq_len"?)`},
		{"wrong type", "kind: llm-finetune\nmodel:\n  preset: llama-3-8b\ntraining:\n  tokens: 1e9\n  seq_len: long\n",
			"training.seq_len", 6, "want a whole number"},
		{"bad kind", "name: x\nkind: llm-tran\n", "kind", 2,
			`unknown kind "llm-tran" (want one of llm-train, llm-finetune, llm-inference, cnn-train, generic, image-generation)`},
		{"missing kind", "name: x\n", "kind", 0, "required"},
		{"unknown preset", "kind: llm-inference\nmodel:\n  preset: llama-9\ninference: {}\n", "model.preset", 3,
			`unknown preset "llama-9" (known: llama-2-7b`},
		{"bad precision", minimalFinetune + "  precision: bf17\n", "training.precision", 6, `unknown precision "bf17"`},
		{"inference precision for training", minimalFinetune + "  precision: int4\n", "training.precision", 6, "not a training precision"},
		{"shared pool for training", minimalFinetune + "constraints:\n  shared_gpus: true\n", "constraints.shared_gpus", 7, "a training job, which needs whole GPUs"},
		{"negative engineer day", minimalFinetune + "constraints:\n  engineer_day_usd: -5\n", "constraints.engineer_day_usd", 7, "must be >= 0"},
		{"absurd engineer day", minimalFinetune + "constraints:\n  engineer_day_usd: 1e9\n", "constraints.engineer_day_usd", 7, "must be at most 100000"},
		{"bad checkpointing", minimalFinetune + "  activation_checkpointing: some\n", "training.activation_checkpointing", 6, `unknown activation checkpointing "some"`},
		{"fp16 optimizer state", minimalFinetune + "  optimizer_precision: fp16\n", "training.optimizer_precision", 6, "not an optimizer state precision (want fp32 or bf16)"},
		{"bf16 state under fp32 training", minimalFinetune + "  precision: fp32\n  optimizer_precision: bf16\n", "training.optimizer_precision", 7, "needs 16-bit or fp8 training"},
		{"optimizer state of a cnn", "kind: cnn-train\nmodel: {preset: resnet-50}\ntraining: {samples: 1e6, optimizer_precision: bf16}\n", "training.optimizer_precision", 3, "not used by kind cnn-train"},
		{"burst without requests", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference:\n  batching: burst\n", "inference.requests", 3, "required for batching burst"},
		{"burst with a rate", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference:\n  batching: burst\n  requests_per_second: 3\n", "inference.batching", 4, "cannot have requests_per_second"},
		{"bad batching", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference:\n  batching: eager\n", "inference.batching", 4, `unknown batching "eager"`},
		{"negative cv", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference:\n  output_tokens_cv: -1\n", "inference.output_tokens_cv", 4, "must be in [0, 10]"},
		{"virtual pipeline alone", minimalFinetune + "parallelism: {virtual_pipeline: 2}\n", "parallelism.virtual_pipeline", 6, "need parallelism.pipeline of 2 or more"},
		{"bad schedule", minimalFinetune + "parallelism: {pipeline: 2, schedule: gpipe}\n", "parallelism.schedule", 6, `unknown schedule "gpipe" (want one of 1f1b, dualpipe)`},
		{"dualpipe without a pipeline", minimalFinetune + "parallelism: {schedule: dualpipe}\n", "parallelism.schedule", 6, "an even number of 2 or more"},
		{"dualpipe over an odd pipeline", minimalFinetune + "parallelism: {pipeline: 3, schedule: DualPipe}\n", "parallelism.schedule", 6, "an even number of 2 or more"},
		{"dualpipe with virtual stages", minimalFinetune + "parallelism: {pipeline: 4, virtual_pipeline: 2, schedule: dualpipe}\n", "parallelism.schedule", 6, "leave parallelism.virtual_pipeline unset or 1"},
		{"schedule for serving", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {}\nparallelism: {pipeline: 2, schedule: 1f1b}\n", "parallelism.schedule", 4, "for training and fine-tuning"},
		{"expert groups of a dense model", "kind: llm-inference\nmodel: {preset: llama-3-8b, expert_groups: 8, routed_groups: 4}\ninference: {}\n", "model.expert_groups", 2, "needs model.experts"},
		{"expert groups not dividing", "kind: llm-inference\nmodel: {preset: deepseek-v3, expert_groups: 7}\ninference: {}\n", "model.expert_groups", 2, "does not divide model.experts 256"},
		{"routed groups beyond the groups", "kind: llm-inference\nmodel: {preset: deepseek-v3, routed_groups: 9}\ninference: {}\n", "model.routed_groups", 2, "more than model.expert_groups 8"},
		{"routed groups without groups", "kind: llm-inference\nmodel: {preset: qwen3-30b-a3b, routed_groups: 2}\ninference: {}\n", "model.routed_groups", 2, "needs model.expert_groups"},
		{"bad sharding", minimalFinetune + "parallelism: {sharding: zero4}\n", "parallelism.sharding", 6, `unknown sharding "zero4" (want one of none, zero1, zero2, fsdp, hsdp)`},
		{"sharding for serving", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {}\nparallelism: {sharding: fsdp}\n", "parallelism.sharding", 4, "for training and fine-tuning"},
		{"micro batch not dividing", minimalFinetune + "  global_batch: 10\nparallelism: {data: 4, micro_batch: 2}\n", "training.global_batch", 6, "not a multiple of parallelism.data"},
		{"micro batch for serving", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {}\nparallelism: {micro_batch: 2}\n", "parallelism.micro_batch", 4, "a serving batch is inference.max_batch"},
		{"bad build", minimalFinetune + "stack: {build: homebrew}\n", "stack.build", 6, `unknown build "homebrew"`},
		{"negative seq_len", minimalFinetune + "  seq_len: -5\n", "training.seq_len", 6, "must be >= 0"},
		{"zero seq_len", minimalFinetune + "  seq_len: 0\n", "training.seq_len", 6, "must be > 0"},
		{"missing tokens", "kind: llm-finetune\nmodel:\n  preset: llama-3-8b\ntraining:\n  seq_len: 2048\n", "training.tokens", 4, "must be > 0"},
		{"nan tokens", "kind: llm-finetune\nmodel:\n  preset: llama-3-8b\ntraining:\n  tokens: .nan\n", "training.tokens", 5, "finite"},
		{"missing training block", "kind: llm-finetune\nmodel:\n  preset: llama-3-8b\n", "training", 1, "required for kind llm-finetune"},
		{"missing inference block", "kind: llm-inference\nmodel:\n  preset: llama-3-8b\n", "inference", 1, "required for kind llm-inference"},
		{"missing model block", "kind: llm-train\ntraining:\n  tokens: 1e9\n", "model", 1, "required for kind llm-train"},
		{"missing generic block", "kind: generic\n", "generic", 1, "required for kind generic"},
		{"empty block", "kind: llm-finetune\nmodel:\n  preset: llama-3-8b\ntraining:\n", "training.tokens", 4, "must be > 0"},
		{"block of another kind", minimalFinetune + "inference:\n  prompt_tokens: 5\n", "inference", 6, "not used by kind llm-finetune"},
		{"heads not divisible", "kind: llm-inference\nmodel:\n  layers: 2\n  hidden: 64\n  heads: 8\n  kv_heads: 3\n  ffn_hidden: 128\n  vocab: 100\ninference: {}\n",
			"model.kv_heads", 6, "not divisible by kv_heads 3"},
		{"explicit model incomplete", "kind: llm-inference\nmodel:\n  layers: 2\ninference: {}\n", "model.hidden", 2, "required when model.preset is not given"},
		{"active > experts", "kind: llm-inference\nmodel:\n  preset: mixtral-8x7b\n  active_experts: 9\ninference: {}\n",
			"model.active_experts", 4, "more than model.experts 8"},
		{"image model for llm", "kind: llm-inference\nmodel:\n  preset: resnet-50\ninference: {}\n", "model.preset", 3, "image model"},
		{"llm for cnn", "kind: cnn-train\nmodel:\n  preset: llama-3-8b\ntraining:\n  samples: 1e6\n", "model.preset", 3, "language model"},
		{"lora for pretraining", "kind: llm-train\nmodel:\n  preset: llama-3-8b\ntraining:\n  tokens: 1e9\n  method: lora\n",
			"training.method", 6, "fine-tuning method"},
		{"bad objective", minimalFinetune + "objective: cheap\n", "objective", 6, `unknown objective "cheap"`},
		{"bad pricing", minimalFinetune + "constraints:\n  pricing: [spot, hourly]\n", "constraints.pricing[1]", 7, `unknown pricing "hourly"`},
		{"bad requirement", minimalFinetune + "compliance:\n  confidential_computing: maybe\n", "compliance.confidential_computing", 7, "unknown requirement"},
		{"bad country", minimalFinetune + "compliance:\n  countries: [DE, Germany]\n", "compliance.countries[1]", 7, "ISO 3166-1"},
		{"bad certification", minimalFinetune + "compliance:\n  certifications: [ISO9001]\n", "compliance.certifications[0]", 7, "unknown certification"},
		{"bad operator", minimalFinetune + "compliance:\n  operators: [provider, reseller]\n", "compliance.operators[1]", 7, `unknown operator "reseller" (want one of provider, partner, marketplace, community)`},
		{"mlps level too high", minimalFinetune + "compliance:\n  mlps_level: 6\n", "compliance.mlps_level", 7, "want an MLPS 2.0 level from 1 to 5"},
		{"mlps level not a number", minimalFinetune + "compliance:\n  mlps_level: three\n", "compliance.mlps_level", 7, "want a whole number"},
		{"availability of a job", minimalFinetune + "service: {availability: production}\n", "service", 6, "only by a service"},
		{"bad availability", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\nservice: {availability: always}\n", "service.availability", 4, `unknown availability "always"`},
		{"bad vendor", minimalFinetune + "stack:\n  vendors: [nvidia, acme]\n", "stack.vendors[1]", 7, `unknown vendor "acme"`},
		{"serving framework for training", minimalFinetune + "stack:\n  framework: vllm\n", "stack.framework", 7, "serving engine"},
		{"bad version", minimalFinetune + "stack:\n  version: latest please\n", "stack.version", 7, "not a version constraint"},
		{"negative deadline", minimalFinetune + "constraints:\n  deadline_hours: -1\n", "constraints.deadline_hours", 7, "must be >= 0"},
		{"tensor does not divide heads", minimalFinetune + "parallelism:\n  tensor: 3\n", "parallelism.tensor", 7, "does not divide model.heads 32"},
		{"batch vs data parallel", minimalFinetune + "  global_batch: 10\nparallelism:\n  data: 4\n", "training.global_batch", 6, "not a multiple of parallelism.data 4"},
		{"too many gpus", minimalFinetune + "parallelism:\n  data: 16\n  tensor: 8\nconstraints:\n  max_gpus: 64\n", "parallelism", 6, "more than constraints.max_gpus 64"},
		{"zero gpus", minimalFinetune + "constraints:\n  max_gpus: 0\n", "constraints.max_gpus", 7, "0 GPUs is no cluster"},
		{"prefill pool on training", minimalFinetune + "parallelism:\n  prefill_gpus: 8\n", "parallelism.prefill_gpus", 7, "for llm-inference"},
		{"expert balancing on training", minimalFinetune + "parallelism:\n  expert_balancing: true\n", "parallelism.expert_balancing", 7, "for llm-inference"},
		{"expert overlap on training", minimalFinetune + "parallelism:\n  expert_overlap: none\n", "parallelism.expert_overlap", 7, "for llm-inference"},
		{"unknown expert overlap", "kind: llm-inference\nmodel:\n  preset: deepseek-v3\nparallelism:\n  expert: 8\n  expert_overlap: three_batch\n",
			"parallelism.expert_overlap", 6, "want one of none, single_batch, two_batch"},
		{"fp8 attention over a bf16 cache", "kind: llm-inference\nmodel:\n  preset: llama-3-8b\ninference:\n  weight_precision: fp8\n  attention_precision: fp8\nstack: {framework: vllm}\n",
			"inference.attention_precision", 6, "kv_precision is bf16: set it to fp8"},
		{"int8 attention", "kind: llm-inference\nmodel:\n  preset: llama-3-8b\ninference:\n  kv_precision: fp8\n  attention_precision: int8\n",
			"inference.attention_precision", 6, "bf16, fp16 or fp8"},
		{"zero rps", "kind: llm-inference\nmodel:\n  preset: llama-3-8b\ninference:\n  requests_per_second: 0\n", "inference.requests_per_second", 5, "must be a number > 0"},
		{"percentile out of range", "kind: llm-inference\nmodel:\n  preset: llama-3-8b\ninference:\n  slo: {ttft_ms: 200, percentile: 150}\n",
			"inference.slo.percentile", 5, "must be in (0, 100]"},
		{"context exceeded", "kind: llm-inference\nmodel:\n  preset: llama-2-7b\ninference:\n  prompt_tokens: 4000\n  output_tokens: 500\n",
			"inference.prompt_tokens", 5, "exceeds the model's context of 4096"},
		{"encoder generates", "kind: llm-inference\nmodel:\n  preset: bert-large\ninference:\n  output_tokens: 10\n", "inference.output_tokens", 5, "encoder"},
		{"region without provider", minimalFinetune + "data:\n  location: {region: us-east-1}\n", "data.location.provider", 7, "required when"},
		{"generic without work", "kind: generic\ngeneric:\n  items: 10\n", "generic.flops_per_item", 2, "give flops_per_item"},
		{"generic bad measured", "kind: generic\ngeneric:\n  items: 10\n  measured: {gpu: a100-80gb, items_per_s: -1}\n", "generic.measured.items_per_s", 4, "must be a number > 0"},
		{"json unknown key", `{"kind": "llm-finetune",
 "model": {"preset": "llama-3-8b"},
 "training": {"tokens": 1e9, "epoch": 2}}`, "training.epoch", 3, "unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in), "w.yaml")
			if err == nil {
				t.Fatalf("Parse succeeded (%+v), want an error on %s", s, tt.field)
			}
			if s != nil {
				t.Error("Parse returned a spec with an error")
			}
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("code = %s, want invalid", apperr.CodeOf(err))
			}
			var list apperr.List
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an apperr.List", err)
			}
			for _, e := range list {
				if e.File != "w.yaml" || e.Field == "" {
					t.Errorf("error without file or field: %#v", e)
				}
			}
			for _, e := range list {
				if e.Field == tt.field && e.Line == tt.line && strings.Contains(e.Text(), tt.msg) {
					want := "w.yaml"
					if tt.line > 0 {
						want += ":" + strconv.Itoa(tt.line)
					}
					if !strings.HasPrefix(e.Error(), want+": "+tt.field+": ") {
						t.Errorf("error text %q does not start with %q", e.Error(), want+": "+tt.field+": ")
					}
					return
				}
			}
			t.Errorf("no error on %s at line %d containing %q; got:\n%v", tt.field, tt.line, tt.msg, err)
		})
	}
}

func TestParseReportsEveryProblem(t *testing.T) {
	in := minimalFinetune + "  seq_len: -1\nobjective: cheap\nconstraints:\n  max_gpus: -2\n"
	_, err := Parse([]byte(in), "w.yaml")
	var list apperr.List
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("want 3 problems, got %v", err)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Line < list[i-1].Line {
			t.Errorf("problems not in line order: %v", err)
		}
	}
}

func findDefault(s *Spec, field string) (Default, bool) {
	for _, d := range s.Defaults {
		if d.Field == field {
			return d, true
		}
	}
	return Default{}, false
}

func TestDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string // field -> value; "" = must not be reported
	}{
		{"finetune", minimalFinetune, map[string]string{
			"name": "test", "training.method": "lora", "training.precision": "bf16", "training.seq_len": "4096",
			"training.global_batch": "64", "training.lora_rank": "16", "stack.framework": "pytorch",
			"objective": "cost", "constraints.pricing": "on-demand", "data.bytes_per_sample": "16384",
			"model.params_b": "", "constraints.engineer_day_usd": "800", "stack.needs": "",
			"training.optimizer_precision": "fp32",
		}},
		{"bf16 optimizer state", minimalFinetune + "  optimizer_precision: BF16\n", map[string]string{
			"training.optimizer_precision": "",
		}},
		{"qlora needs bitsandbytes", minimalFinetune + "  method: qlora\n", map[string]string{
			"stack.needs": "bitsandbytes",
		}},
		{"qlora that names bitsandbytes", minimalFinetune + "  method: qlora\nstack: {needs: [bitsandbytes]}\n", map[string]string{
			"stack.needs": "",
		}},
		{"engineer day set to zero", minimalFinetune + "constraints: {engineer_day_usd: 0}\n", map[string]string{
			"constraints.engineer_day_usd": "",
		}},
		{"pretrain", "kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9, seq_len: 8192}\n", map[string]string{
			"training.method": "full", "training.global_batch": "512", "training.seq_len": "", "training.lora_rank": "",
		}},
		{"short context preset", "kind: llm-train\nmodel: {preset: mpt-7b}\ntraining: {tokens: 1e9}\n", map[string]string{
			"training.seq_len": "2048",
		}},
		{"inference", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {weight_precision: int4, slo: {tpot_ms: 40}}\n", map[string]string{
			"stack.framework": "vllm", "inference.kv_precision": "fp16", "inference.max_batch": "0",
			"inference.prompt_tokens": "1024", "inference.output_tokens": "256", "inference.slo.percentile": "99",
			"inference.weight_precision": "",
		}},
		{"encoder", "kind: llm-inference\nmodel: {preset: bert-large}\ninference: {}\n", map[string]string{
			"inference.output_tokens": "0", "inference.prompt_tokens": "512", "inference.slo.percentile": "",
		}},
		{"cnn", "kind: cnn-train\nmodel: {preset: resnet-50, image_px: 448}\ntraining: {samples: 1e6}\n", map[string]string{
			"training.global_batch": "1024", "data.bytes_per_sample": "110000", "model.forward_gmacs_per_sample": "16.36",
		}},
		{"explicit model", "kind: llm-train\nmodel: {layers: 32, hidden: 4096, heads: 32, ffn_hidden: 11008, vocab: 32000}\ntraining: {tokens: 1e9}\n", map[string]string{
			"model.params_b": "6.738", "model.kv_heads": "32", "model.gated_mlp": "true", "model.arch": "decoder",
		}},
		{"generic", "kind: generic\ngeneric: {items: 10, flops_per_item: 1e12}\n", map[string]string{
			"generic.precision": "fp32", "stack.framework": "other", "compliance.operators": "", "availability": "",
		}},
		{"compliance block", minimalFinetune + "compliance: {countries: [DE]}\n", map[string]string{
			"compliance.operators": "provider, partner", "availability": "",
		}},
		{"production service", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\n", map[string]string{
			"service.availability": "production", "compliance.operators": "provider, partner",
		}},
		{"best-effort service", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\nservice: {availability: best-effort}\n", map[string]string{
			"service.availability": "", "compliance.operators": "",
		}},
		{"operators allowed", "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\ncompliance: {operators: [provider, marketplace]}\n", map[string]string{
			"compliance.operators": "",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.in)
			for field, want := range tt.want {
				d, ok := findDefault(s, field)
				switch {
				case want == "" && ok:
					t.Errorf("%s reported as a default (%q), but the file sets it", field, d.Value)
				case want != "" && !ok:
					t.Errorf("%s not reported; defaults: %+v", field, s.Defaults)
				case want != "" && d.Value != want:
					t.Errorf("%s = %q, want %q", field, d.Value, want)
				case ok && d.Why == "":
					t.Errorf("%s has no reason", field)
				}
			}
		})
	}
}

func TestKVPrecisionAuto(t *testing.T) {
	// An unset (or auto) cache format is what the engine stores when it is
	// not told: vLLM, SGLang, TGI and LMDeploy keep the model's 16-bit
	// dtype under fp8 and fp4 weights; TensorRT-LLM and the others follow
	// the weights; integer weights keep 16 bits everywhere.
	tests := []struct {
		framework         Framework
		weights, kv, want Precision
	}{
		{"", "bf16", "", BF16},
		{"", "fp8", "auto", BF16},
		{"vllm", "fp4", "", BF16},
		{"sglang", "fp8", "", BF16},
		{"tgi", "fp8", "", BF16},
		{"lmdeploy", "fp8", "auto", BF16},
		{"vllm", "fp16", "", FP16},
		{"tensorrt-llm", "fp8", "auto", FP8},
		{"tensorrt-llm", "fp4", "", FP8},
		{"optimum-habana", "fp8", "", FP8},
		{"", "int8", "auto", FP16},
		{"tensorrt-llm", "int4", "", FP16},
		{"", "fp8", "fp8", FP8},
		{"tensorrt-llm", "fp8", "fp16", FP16},
		{"", "AWQ", "", FP16},
	}
	for _, tt := range tests {
		t.Run(string(tt.framework)+"/"+string(tt.weights)+"/"+string(tt.kv), func(t *testing.T) {
			in := "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference:\n  weight_precision: " + string(tt.weights) + "\n"
			if tt.kv != "" {
				in += "  kv_precision: " + string(tt.kv) + "\n"
			}
			if tt.framework != "" {
				in += "stack: {framework: " + string(tt.framework) + "}\n"
			}
			s := mustParse(t, in)
			if s.Inference.KVPrecision != tt.want {
				t.Errorf("kv_precision = %s, want %s", s.Inference.KVPrecision, tt.want)
			}
		})
	}
}

func TestExplicitFieldsOverridePreset(t *testing.T) {
	s := mustParse(t, "kind: llm-train\nmodel:\n  preset: Llama3-8B\n  layers: 16\n  context_len: 32768\ntraining: {tokens: 1e9}\n")
	m := s.Model
	if m.Preset != "llama-3-8b" || m.Layers != 16 || m.Hidden != 4096 || m.KVHeads != 8 || m.ContextLen != 32768 {
		t.Errorf("merged model = %+v", m)
	}
	// Changing the shape without a new params_b re-derives it.
	if want := m.DerivedParamsB(); math.Abs(m.ParamsB-want) > 1e-9 || m.ParamsB > 5 {
		t.Errorf("params_b = %g, want the derived %g", m.ParamsB, want)
	}
	if _, ok := findDefault(s, "model.params_b"); !ok {
		t.Error("re-derived params_b not reported")
	}

	s = mustParse(t, "kind: llm-train\nmodel:\n  preset: llama-3-8b\n  params_b: 9\ntraining: {tokens: 1e9}\n")
	if s.Model.ParamsB != 9 || s.Model.Layers != 32 {
		t.Errorf("explicit params_b: %+v", s.Model)
	}
	if _, ok := findDefault(s, "model.params_b"); ok {
		t.Error("explicit params_b reported as a default")
	}
}

func TestJSONInput(t *testing.T) {
	yamlIn := "name: j\nkind: llm-inference\nmodel:\n  preset: llama-3-70b\ninference:\n  requests_per_second: 12.5\n  slo: {ttft_ms: 500}\ncompliance:\n  countries: [de]\n"
	jsonIn := `{"name": "j", "kind": "llm-inference", "model": {"preset": "llama-3-70b"},
  "inference": {"requests_per_second": 12.5, "slo": {"ttft_ms": 500}}, "compliance": {"countries": ["de"]}}`
	a, b := mustParse(t, yamlIn), mustParse(t, jsonIn)
	if !reflect.DeepEqual(a, b) {
		ja, _ := json.MarshalIndent(a, "", " ")
		jb, _ := json.MarshalIndent(b, "", " ")
		t.Errorf("YAML and JSON differ:\n%s\n%s", ja, jb)
	}
	if *b.Inference.RequestsPerSecond != 12.5 || b.Compliance.Countries[0] != "DE" {
		t.Errorf("json spec = %+v", b.Inference)
	}
}

func TestOfflineInference(t *testing.T) {
	s := mustParse(t, "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {output_tokens: 0}\n")
	if s.Inference.RequestsPerSecond != nil {
		t.Error("absent requests_per_second must stay nil (offline)")
	}
	if s.Inference.OutputTokens != 0 {
		t.Errorf("explicit output_tokens 0 became %d", s.Inference.OutputTokens)
	}
}

func TestEnums(t *testing.T) {
	if k, err := ParseKind("LLM-Train"); err != nil || k != KindLLMTrain {
		t.Errorf("ParseKind = %q, %v", k, err)
	}
	if f, err := ParseFramework("NeMo"); err != nil || f != FrameworkMegatron {
		t.Errorf("ParseFramework = %q, %v", f, err)
	}
	if p, err := ParsePrecision("bfloat16"); err != nil || p != BF16 || p.Bytes() != 2 {
		t.Errorf("ParsePrecision = %q, %v", p, err)
	}
	if _, err := ParseStorage("tape"); err == nil || !strings.Contains(err.Error(), "local-nvme") {
		t.Errorf("ParseStorage error = %v", err)
	}
	for _, k := range Kinds() {
		if !k.Valid() {
			t.Errorf("%s not valid", k)
		}
	}
	if Kind("x").Valid() || PrecisionAuto.Valid() {
		t.Error("invalid enums reported valid")
	}
	if c, ok := CanonicalCertification("ISO/IEC 27001"); !ok || c != "ISO27001" {
		t.Errorf("lookupCertification = %q, %v", c, ok)
	}
	if c, ok := CanonicalCertification("soc 2 type ii"); !ok || c != "SOC2" {
		t.Errorf("lookupCertification = %q, %v", c, ok)
	}
}

func TestEmptyInferenceBlock(t *testing.T) {
	s := mustParse(t, "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference:\n")
	if s.Inference == nil || s.Inference.PromptTokens != 1024 {
		t.Errorf("inference = %+v", s.Inference)
	}
}

// TestDocs checks that the package has a comment and that every exported
// identifier has a doc comment (a group comment covers a const block).
func TestDocs(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	pkgDoc := false
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if af.Doc != nil {
			pkgDoc = true
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Doc == nil {
					t.Errorf("%s: func %s has no doc comment", fset.Position(d.Pos()), d.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						if sp.Name.IsExported() && d.Doc == nil && sp.Doc == nil {
							t.Errorf("%s: type %s has no doc comment", fset.Position(sp.Pos()), sp.Name)
						}
						if st, ok := sp.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									if n.IsExported() && fl.Doc == nil && fl.Comment == nil && sp.Name.Name != "Default" {
										t.Errorf("%s: field %s.%s has no doc comment", fset.Position(n.Pos()), sp.Name, n)
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							if n.IsExported() && d.Doc == nil && sp.Doc == nil && sp.Comment == nil {
								t.Errorf("%s: %s has no doc comment", fset.Position(n.Pos()), n)
							}
						}
					}
				}
			}
		}
	}
	if !pkgDoc {
		t.Error("no package comment")
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{minimalFinetune, "kind: generic\ngeneric: {items: 1, flops_per_item: 1}\n",
		"kind: llm-inference\nmodel: {preset: deepseek-v3}\ninference: {requests_per_second: 1}\n",
		"kind: cnn-train\nmodel: {preset: resnet-50}\ntraining: {samples: 1}\n",
		"kind: image-generation\nmodel: {preset: cogvideox-5b}\nimage: {frames: 50, width: 1000, precision: fp4, images: 1, requests_per_second: 0}\nstack: {framework: openvino}\n",
		"kind: image-generation\nmodel: {arch: dit, params_b: 1, layers: 2, hidden: 8, patch_size: 0, image_px: 64}\nimage: {requests_per_second: 1, slo: {latency_s: 1, percentile: 0}}\n",
		"kind: llm-train\nmodel: {layers: 1, hidden: 3, heads: 2, ffn_hidden: 1, vocab: 1, experts: 2}\ntraining: {tokens: 1}\nparallelism: {tensor: 0, expert: 3}\n",
		`{"kind": "llm-finetune", "model": {"preset": "x"}}`, "&a x: *a", "", "[1, 2]",
		"kind: llm-inference\nmodel: {preset: bert-large}\ninference: {output_tokens: 3, slo: {tpot_ms: 1, percentile: 101}}\n" +
			"compliance: {countries: [de, x], certifications: [soc 2], secure_boot: yes}\nstack: {framework: nemo, version: '>=1', vendors: [tpu]}\n",
		"kind: image-generation\nmodel: {preset: sdxl}\nimage: {requests_per_second: 1}\navailability: Best_Effort\n" +
			"compliance: {operators: [Marketplace, marketplace, x], mlps_level: -1}\n",
		"kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9}\nservice: {availability: production}\ncompliance: {mlps_level: 3, operators: []}\n"}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse([]byte(in), "fuzz.yaml")
		if (s == nil) == (err == nil) {
			t.Fatalf("Parse returned spec %v and error %v", s != nil, err)
		}
		if err != nil && apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("error code %s: %v", apperr.CodeOf(err), err)
		}
	})
}

// TestProductionService: every service is production unless it says
// best-effort; a job that ends is no service at all.
func TestProductionService(t *testing.T) {
	for _, tc := range []struct {
		in               string
		service, product bool
	}{
		{"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\n", true, true},
		{"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\nservice: {availability: best-effort}\n", true, false},
		{"kind: image-generation\nmodel: {preset: sdxl}\nimage: {requests_per_second: 1}\nservice: {availability: production}\n", true, true},
		{"kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {}\n", false, false},
		{minimalFinetune, false, false},
	} {
		s := mustParse(t, tc.in)
		if s.IsService() != tc.service || s.Production() != tc.product {
			t.Errorf("%q: service %v, production %v; want %v, %v", tc.in, s.IsService(), s.Production(), tc.service, tc.product)
		}
	}
	var none *Spec
	if none.Production() {
		t.Error("a nil spec is a production service")
	}
}

// TestOperatorsAllowed: an empty list accepts every operator, a list only
// its own; only a list that leaves someone out restricts.
func TestOperatorsAllowed(t *testing.T) {
	all := Compliance{Operators: Operators()}
	if all.RestrictsOperators() || (Compliance{}).RestrictsOperators() || !(Compliance{}).AllowsOperator(OperatorMarketplace) {
		t.Error("every operator listed, or none, must restrict nothing")
	}
	c := Compliance{Operators: AccountableOperators()}
	if !c.RestrictsOperators() || c.AllowsOperator(OperatorMarketplace) || !c.AllowsOperator(OperatorPartner) || !c.Asks() {
		t.Errorf("%v: want provider and partner allowed, hosts refused, and a requirement", c.Operators)
	}
}

func TestCheckpointingAcceptsBooleans(t *testing.T) {
	for in, want := range map[string]Checkpointing{"true": CheckpointFull, "false": CheckpointNone, "Selective": CheckpointSelective, "full": CheckpointFull} {
		s, err := Parse([]byte(minimalFinetune+"  activation_checkpointing: "+in+"\n"), "w.yaml")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := s.Training.ActivationCheckpointing; got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
	s, err := Parse([]byte(minimalFinetune), "w.yaml")
	if err != nil || s.Training.ActivationCheckpointing != "" {
		t.Errorf("absent: %q, %v (the model decides)", s.Training.ActivationCheckpointing, err)
	}
}

// TestCheckpointBytes: a checkpoint's stored size as quantisation tools
// write it. Published sizes: Llama 3 8B in AWQ int4 is about 5.7 GB (its
// 128k-token embedding and head stay in 16 bits, 2.1 GB of it), Mistral 7B
// in int4 about 4.2 GB; bf16 checkpoints are two bytes a parameter; an FP4
// DeepSeek-V3 keeps its MLA query and latent projections in FP8.
func TestCheckpointBytes(t *testing.T) {
	gb := func(name string, p Precision) float64 {
		pr, ok := LookupPreset(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		return pr.Model.CheckpointBytes(p) / 1e9
	}
	for _, c := range []struct {
		name     string
		p        Precision
		lo, high float64
	}{
		{"llama-3-8b", INT4, 5.4, 6.0},
		{"mistral-7b", INT4, 3.9, 4.5},
		{"llama-3-8b", BF16, 15.9, 16.2},
		{"llama-3.1-8b", FP8, 8.9, 9.3},
	} {
		if v := gb(c.name, c.p); v < c.lo || v > c.high {
			t.Errorf("%s in %s: %.2f GB, want %.1f-%.1f", c.name, c.p, v, c.lo, c.high)
		}
	}
	dp, _ := LookupPreset("deepseek-v3")
	ds := dp.Model
	naive := ds.ParamsB * 1e9 * FP4.StoredBytes() / 1e9
	latentGB := ds.LatentProjParams() * float64(ds.Layers) / 1e9
	if v := gb("deepseek-v3", FP4); v-naive < latentGB*(1-FP4.StoredBytes()) {
		t.Errorf("DeepSeek-V3 in FP4: %.1f GB, want its %.1f GB of latent projections in FP8 above the naive %.1f GB", v, latentGB, naive)
	}
}

// TestStateBytes: what training keeps per trained parameter: 16 bytes in
// mixed precision (ZeRO's accounting), 16 in fp32 with no master copy, 8
// with a bf16 optimizer state.
func TestStateBytes(t *testing.T) {
	for _, tt := range []struct {
		prec, opt Precision
		want      [3]float64
	}{
		{BF16, "", [3]float64{2, 2, 12}},
		{BF16, FP32, [3]float64{2, 2, 12}},
		{FP8, FP32, [3]float64{2, 2, 12}},
		{BF16, BF16, [3]float64{2, 2, 4}},
		{FP32, FP32, [3]float64{4, 4, 8}},
		{TF32, "", [3]float64{4, 4, 8}},
	} {
		tr := Training{Precision: tt.prec, OptimizerPrecision: tt.opt}
		w, g, o := tr.StateBytes()
		if got := [3]float64{w, g, o}; got != tt.want {
			t.Errorf("%s training, %q optimizer state: %v bytes per parameter, want %v", tt.prec, tt.opt, got, tt.want)
		}
	}
}
