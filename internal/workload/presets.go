package workload

import (
	"regexp"
	"strings"
)

var versionSuffixRe = regexp.MustCompile(`-v\d+(\.\d+)*$`)

// Preset is a published model architecture that a workload file can name in
// model.preset. Model holds the published figures; Source says where they
// come from (model card, config file or paper).
type Preset struct {
	// Name is the canonical, lowercase preset name (e.g. "llama-3-8b").
	Name string `json:"name"`
	// Aliases are other names accepted for it (matched like Name).
	Aliases []string `json:"aliases,omitempty"`
	// Model is the architecture; Model.Preset equals Name.
	Model Model `json:"model"`
	// Source cites the model card, configuration file or paper the numbers
	// were taken from.
	Source string `json:"source"`
	// Image holds a diffusion model's native request (resolution, frames,
	// recommended steps, whether it uses classifier-free guidance): the
	// defaults of a file's image block. Nil for other models.
	Image *Image `json:"image,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// The presets. Parameter counts are the published totals in billions
// (embeddings included); where a card gives only a rounded figure ("7B"),
// the exact count from the released checkpoint is used and the comment says so.
var presets = []Preset{
	// Llama 2: Touvron et al. 2023, "Llama 2" (arXiv 2307.09288), Table 1 and
	// the config.json of meta-llama/Llama-2-*-hf. 70B uses GQA with 8 KV heads.
	{Name: "llama-2-7b", Aliases: []string{"llama2-7b"}, Source: "arXiv 2307.09288; huggingface.co/meta-llama/Llama-2-7b-hf config.json (6.74B params)",
		Model: decoder(6.74, 32, 4096, 32, 32, 11008, 32000, 4096)},
	{Name: "llama-2-13b", Aliases: []string{"llama2-13b"}, Source: "arXiv 2307.09288; huggingface.co/meta-llama/Llama-2-13b-hf config.json (13.0B params)",
		Model: decoder(13.02, 40, 5120, 40, 40, 13824, 32000, 4096)},
	{Name: "llama-2-70b", Aliases: []string{"llama2-70b"}, Source: "arXiv 2307.09288; huggingface.co/meta-llama/Llama-2-70b-hf config.json (68.98B params in the checkpoint)",
		Model: decoder(68.98, 80, 8192, 64, 8, 28672, 32000, 4096)},
	// Llama 3 / 3.1: Meta model cards and Dubey et al. 2024, "The Llama 3
	// Herd of Models" (arXiv 2407.21783), Table 3. 3.1 differs from 3 only in
	// context length (RoPE scaling) for 8B and 70B.
	{Name: "llama-3-8b", Aliases: []string{"llama3-8b", "meta-llama-3-8b"}, Source: "huggingface.co/meta-llama/Meta-Llama-3-8B config.json (8.03B params); arXiv 2407.21783 Table 3",
		Model: decoder(8.03, 32, 4096, 32, 8, 14336, 128256, 8192)},
	{Name: "llama-3.1-8b", Aliases: []string{"llama3.1-8b", "meta-llama-3.1-8b"}, Source: "huggingface.co/meta-llama/Llama-3.1-8B config.json (8.03B params); arXiv 2407.21783 Table 3",
		Model: decoder(8.03, 32, 4096, 32, 8, 14336, 128256, 131072)},
	{Name: "llama-3-70b", Aliases: []string{"llama3-70b", "meta-llama-3-70b"}, Source: "huggingface.co/meta-llama/Meta-Llama-3-70B config.json (70.55B params); arXiv 2407.21783 Table 3",
		Model: decoder(70.55, 80, 8192, 64, 8, 28672, 128256, 8192)},
	{Name: "llama-3.1-70b", Aliases: []string{"llama3.1-70b", "meta-llama-3.1-70b", "llama-3.3-70b"}, Source: "huggingface.co/meta-llama/Llama-3.1-70B config.json (70.55B params); arXiv 2407.21783 Table 3",
		Model: decoder(70.55, 80, 8192, 64, 8, 28672, 128256, 131072)},
	{Name: "llama-3.1-405b", Aliases: []string{"llama3.1-405b", "meta-llama-3.1-405b", "llama-3-405b"}, Source: "huggingface.co/meta-llama/Llama-3.1-405B config.json (405.9B params); arXiv 2407.21783 Table 3",
		Model: decoder(405.85, 126, 16384, 128, 8, 53248, 128256, 131072)},
	// Mistral 7B: Jiang et al. 2023 (arXiv 2310.06825), Table 1: dim 4096,
	// 32 layers, head_dim 128, hidden_dim 14336, 32 heads, 8 KV heads,
	// window 4096, context 8192, vocab 32000. 7.24B params (v0.1 checkpoint).
	{Name: "mistral-7b", Aliases: []string{"mistral-7b-v0.1", "mistral-7b-v0.3"}, Source: "arXiv 2310.06825 Table 1; huggingface.co/mistralai/Mistral-7B-v0.1 (7.24B params)",
		Model: decoder(7.24, 32, 4096, 32, 8, 14336, 32000, 8192)},
	// Mixtral 8x7B: Jiang et al. 2024 (arXiv 2401.04088), Table 1: the
	// Mistral 7B block with 8 experts, top-2; 46.7B total, 12.9B active.
	{Name: "mixtral-8x7b", Aliases: []string{"mixtral", "mixtral-8x7b-v0.1"}, Source: "arXiv 2401.04088 Table 1 and §2.1 (46.7B total, 12.9B active)",
		Model: moe(decoder(46.7, 32, 4096, 32, 8, 14336, 32000, 32768), 8, 2)},
	// Qwen2.5: Qwen team 2024, "Qwen2.5 Technical Report" (arXiv 2412.15115),
	// Table 1, and the models' config.json. Native context 32K (128K with YaRN).
	{Name: "qwen2.5-7b", Aliases: []string{"qwen-2.5-7b", "qwen25-7b"}, Source: "arXiv 2412.15115 Table 1; huggingface.co/Qwen/Qwen2.5-7B config.json and card (7.61B params)",
		Model: decoder(7.61, 28, 3584, 28, 4, 18944, 152064, 32768)},
	{Name: "qwen2.5-72b", Aliases: []string{"qwen-2.5-72b", "qwen25-72b"}, Source: "arXiv 2412.15115 Table 1; huggingface.co/Qwen/Qwen2.5-72B config.json and card (72.7B params)",
		Model: decoder(72.7, 80, 8192, 64, 8, 29568, 152064, 32768)},
	// DeepSeek-V3: DeepSeek-AI 2024 (arXiv 2412.19437), §2 and §4.2, and
	// config.json: 61 layers, hidden 7168, 128 heads, MLA with KV latent 512,
	// query latent 1536, per-head qk 128 (+64 rotary) and v 128; the first 3
	// layers dense (MLP 18432), the rest MoE with 1 shared + 256 routed
	// experts of width 2048, 8 routed active; vocab 129280; 671B total, 37B
	// active (the 14B multi-token-prediction module is not counted). KVHeads
	// is 128 because MLA decompresses a K and V per head, but the cache holds
	// only the 512+64 latent per token and layer (see KVElemsPerToken).
	{Name: "deepseek-v3", Aliases: []string{"deepseek-v3-base", "deepseek-r1", "deepseek-v3-0324"}, Source: "arXiv 2412.19437 §2.1, §4.2; huggingface.co/deepseek-ai/DeepSeek-V3 config.json (671B total, 37B active)",
		Model: Model{Arch: ArchDecoder, ParamsB: 671, Layers: 61, Hidden: 7168, Heads: 128, KVHeads: 128, HeadDim: 128,
			FFNHidden: 2048, GatedMLP: ptr(true), TiedEmbeddings: ptr(false), Vocab: 129280, ContextLen: 131072,
			Experts: 256, ActiveExperts: 8, SharedExperts: 1, DenseLayers: 3, DenseFFNHidden: 18432,
			ExpertGroups: 8, RoutedGroups: 4, // node-limited routing: n_group 8, topk_group 4 (§2.1.2, config.json)
			KVLoRARank: 512, QLoRARank: 1536, RopeHeadDim: 64}},
	// MPT: MosaicML model cards. Plain GELU MLP with expansion 4, ALiBi (no
	// position embeddings), tied input/output embeddings, vocab 50432.
	{Name: "mpt-7b", Source: "huggingface.co/mosaicml/mpt-7b model card (6.7B params; d_model 4096, 32 layers, 32 heads, vocab 50432, seq 2048)",
		Model: plain(decoder(6.7, 32, 4096, 32, 32, 16384, 50432, 2048), true)},
	{Name: "mpt-30b", Source: "huggingface.co/mosaicml/mpt-30b model card (29.95B params; d_model 7168, 48 layers, 64 heads, vocab 50432, seq 8192)",
		Model: plain(decoder(29.95, 48, 7168, 64, 64, 28672, 50432, 8192), true)},
	// MPT sizes trained by LLM Foundry's benchmark table, from the model
	// configurations in mosaicml/llm-foundry scripts/train/yamls/pretrain
	// (d_model, n_layers, n_heads, expansion ratio 4, vocab 50368, tied
	// embeddings, max_seq_len 2048); parameter counts as the benchmark table
	// gives them.
	{Name: "mpt-1b", Source: "github:mosaicml/llm-foundry@8c8dd48f7 scripts/train/yamls/pretrain/mpt-1b.yaml (d_model 2048, 24 layers, 16 heads); 1.32B params per scripts/train/benchmarking/README.md",
		Model: plain(decoder(1.32, 24, 2048, 16, 16, 8192, 50368, 2048), true)},
	{Name: "mpt-3b", Source: "github:mosaicml/llm-foundry@8c8dd48f7 scripts/train/yamls/pretrain/mpt-3b.yaml (d_model 2560, 32 layers, 20 heads); 2.65B params per scripts/train/benchmarking/README.md",
		Model: plain(decoder(2.65, 32, 2560, 20, 20, 10240, 50368, 2048), true)},
	{Name: "mpt-13b", Source: "github:mosaicml/llm-foundry@8c8dd48f7 scripts/train/yamls/pretrain/mpt-13b.yaml (d_model 5120, 40 layers, 40 heads, vocab 50368); 12.86B params per scripts/train/benchmarking/README.md",
		Model: plain(decoder(12.86, 40, 5120, 40, 40, 20480, 50368, 2048), true)},
	{Name: "mpt-70b", Source: "github:mosaicml/llm-foundry@8c8dd48f7 scripts/train/yamls/pretrain/mpt-70b.yaml (d_model 8192, 80 layers, 64 heads); 64.86B params per scripts/train/benchmarking/README.md",
		Model: plain(decoder(64.86, 80, 8192, 64, 64, 32768, 50432, 2048), true)},
	// Qwen3 MoE: Qwen team 2025 (arXiv 2505.09388) and the models'
	// config.json: no shared expert, 128 routed experts, 8 active, head_dim
	// 128 (so the query width exceeds hidden on 30B-A3B), untied
	// embeddings, vocab 151936.
	{Name: "qwen3-30b-a3b", Aliases: []string{"qwen3-30b"}, Source: "arXiv 2505.09388; huggingface.co/Qwen/Qwen3-30B-A3B config.json (48 layers, hidden 2048, 32 heads, 4 KV heads, head_dim 128, moe_intermediate_size 768, 128 experts top-8; 30.5B total, 3.3B active)",
		Model: withHeadDim(moe(decoder(30.5, 48, 2048, 32, 4, 768, 151936, 40960), 128, 8), 128)},
	{Name: "qwen3-235b-a22b", Aliases: []string{"qwen3-235b"}, Source: "arXiv 2505.09388; huggingface.co/Qwen/Qwen3-235B-A22B config.json (94 layers, hidden 4096, 64 heads, 4 KV heads, head_dim 128, moe_intermediate_size 1536, 128 experts top-8; 235B total, 22B active)",
		Model: withHeadDim(moe(decoder(235, 94, 4096, 64, 4, 1536, 151936, 40960), 128, 8), 128)},
	// gpt-oss-120b: OpenAI 2025 model card (arXiv 2508.10925) and config.json.
	// Half its layers attend over a 128-token sliding window; the model here
	// treats every layer as full attention (an upper bound on attention work).
	{Name: "gpt-oss-120b", Aliases: []string{"gpt-oss"}, Source: "arXiv 2508.10925; huggingface.co/openai/gpt-oss-120b config.json (36 layers, hidden 2880, 64 heads, 8 KV heads, head_dim 64, 128 experts top-4 of width 2880, vocab 201088; 116.8B total, 5.1B active)",
		Model: withHeadDim(moe(decoder(116.8, 36, 2880, 64, 8, 2880, 201088, 131072), 128, 4), 64)},
	// Llama 4 Scout: Meta's model card and the text_config of
	// meta-llama/Llama-4-Scout-17B-16E: every layer MoE with 16 routed
	// experts (top-1) plus one shared expert, both 8192 wide. 109B total
	// (the vision encoder included), 17B active.
	{Name: "llama-4-scout", Aliases: []string{"llama-4-scout-17b-16e", "llama4-scout"}, Source: "huggingface.co/meta-llama/Llama-4-Scout-17B-16E config.json text_config (48 layers, hidden 5120, 40 heads, 8 KV heads, head_dim 128, 16 experts top-1 + 1 shared, intermediate 8192, vocab 202048); model card: 109B total, 17B active",
		Model: shared(withHeadDim(moe(decoder(109, 48, 5120, 40, 8, 8192, 202048, 10485760), 16, 1), 128), 1)},
	// GPT-J: EleutherAI model card: 28 layers, d_model 4096, 16 heads (head
	// dim 256), d_ff 16384, embedding matrix 50400, context 2048, untied.
	{Name: "gpt-j-6b", Aliases: []string{"gptj-6b", "gpt-j"}, Source: "huggingface.co/EleutherAI/gpt-j-6b model card (6,053,381,344 params)",
		Model: plain(decoder(6.05, 28, 4096, 16, 16, 16384, 50400, 2048), false)},
	// GPT-3 175B: Brown et al. 2020 (arXiv 2005.14165), Table 2.1: 96 layers,
	// d_model 12288, 96 heads, d_ff = 4·d_model, context 2048, BPE vocab 50257.
	{Name: "gpt-3-175b", Aliases: []string{"gpt-3", "gpt3", "gpt3-175b", "davinci"}, Source: "arXiv 2005.14165 Table 2.1",
		Model: plain(decoder(175, 96, 12288, 96, 96, 49152, 50257, 2048), true)},
	// BERT-large: Devlin et al. 2018 (arXiv 1810.04805) §3: L=24, H=1024,
	// A=16, 340M params, WordPiece vocab 30522, max 512 tokens.
	{Name: "bert-large", Aliases: []string{"bert-large-uncased", "bert-large-cased"}, Source: "arXiv 1810.04805 §3 (340M params)",
		Model: encoder(plain(decoder(0.34, 24, 1024, 16, 16, 4096, 30522, 512), true))},
	// Image models. ForwardGMACsPerSample is torchvision's "GFLOPS" column
	// (which counts multiply-accumulates) at 224 px; params from the same page.
	// ForwardActivationsM sums the output sizes of every convolution (or
	// linear layer) at 224 px from the published layer tables: ResNet-50
	// 11.31M (stem 0.80M, max-pool 0.20M, stages 4.42/3.11/2.16/0.63M);
	// ResNet-152 22.75M; EfficientNet-B0 15.3M counted in ResNet-equivalent
	// passes (6.74M convolution outputs: the 3.39M expansion outputs once,
	// the 2.31M depthwise outputs 4.8 times: 1.6 for their swish,
	// squeeze-excitation pooling and rescaling, times 3 because depthwise
	// kernels, above all their weight gradients, reach about a third of the
	// streaming bandwidth [unverified]; the 0.58M projections 0.6 times for
	// their lone batch norm); ViT-B/16 27.2M (197 tokens × (qkv, output, two MLP and two
	// norm outputs) × 12 layers, fused attention).
	{Name: "resnet-50", Aliases: []string{"resnet50"}, Source: "He et al. 2016 (arXiv 1512.03385); pytorch.org/vision/stable/models/generated/torchvision.models.resnet50 (25,557,032 params, 4.09 GFLOPS)",
		Model: vision(ArchCNN, 0.025557, 4.09, 11.31)},
	{Name: "resnet-152", Aliases: []string{"resnet152"}, Source: "He et al. 2016 (arXiv 1512.03385); pytorch.org/vision/stable/models/generated/torchvision.models.resnet152 (60,192,808 params, 11.51 GFLOPS)",
		Model: vision(ArchCNN, 0.060193, 11.51, 22.75)},
	{Name: "vit-b-16", Aliases: []string{"vit-b/16", "vit-base-16", "vit-base-patch16-224"}, Source: "Dosovitskiy et al. 2020 (arXiv 2010.11929); pytorch.org/vision/stable/models/generated/torchvision.models.vit_b_16 (86,567,656 params, 17.56 GFLOPS)",
		Model: vision(ArchViT, 0.086568, 17.56, 27.2)},
	{Name: "efficientnet-b0", Aliases: []string{"efficientnetb0"}, Source: "Tan & Le 2019 (arXiv 1905.11946); pytorch.org/vision/stable/models/generated/torchvision.models.efficientnet_b0 (5,288,548 params, 0.39 GFLOPS)",
		Model: vision(ArchCNN, 0.005289, 0.39, 15.3)},
}

func decoder(paramsB float64, layers, hidden, heads, kvHeads, ffn, vocab, ctx int) Model {
	return Model{Arch: ArchDecoder, ParamsB: paramsB, Layers: layers, Hidden: hidden, Heads: heads,
		KVHeads: kvHeads, HeadDim: hidden / heads, FFNHidden: ffn, GatedMLP: ptr(true),
		TiedEmbeddings: ptr(false), Vocab: vocab, ContextLen: ctx}
}

func moe(m Model, experts, active int) Model {
	m.Experts, m.ActiveExperts = experts, active
	return m
}

func withHeadDim(m Model, hd int) Model {
	m.HeadDim = hd
	return m
}

func shared(m Model, n int) Model {
	m.SharedExperts = n
	return m
}

// plain marks m as having a two-matrix GELU MLP, with tied embeddings or not.
func plain(m Model, tied bool) Model {
	m.GatedMLP, m.TiedEmbeddings = ptr(false), ptr(tied)
	return m
}

func encoder(m Model) Model {
	m.Arch = ArchEncoder
	return m
}

func vision(arch Arch, paramsB, gmacs, activationsM float64) Model {
	return Model{Arch: arch, ParamsB: paramsB, ForwardGMACsPerSample: gmacs, ForwardActivationsM: activationsM, ImagePx: 224}
}

// ResNetActivationsPerGMAC is ResNet-50's forward activation values (in
// millions) per forward GMAC (11.31 / 4.09): the default traffic of an image
// model that gives no activation count.
const ResNetActivationsPerGMAC = 2.765

func init() {
	for i := range presets {
		presets[i].Model.Preset = presets[i].Name
	}
}

// Presets returns every preset, in a stable order (language models first).
// The result is a copy; changing it does not change the presets.
func Presets() []Preset {
	out := make([]Preset, len(presets))
	for i, p := range presets {
		out[i] = p
		out[i].Aliases = append([]string(nil), p.Aliases...)
		out[i].Model = p.Model.clone()
	}
	return out
}

// PresetNames returns the canonical names of every preset.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// PresetNamesFor returns the canonical names of the presets a file of
// kind k can name: diffusion models for image-generation, image models
// (CNN, ViT) for cnn-train, language models for the LLM kinds, and every
// preset but the diffusion models for any other kind. Naming any other
// preset is an error, so an unknown-preset message lists only these.
func PresetNamesFor(k Kind) []string {
	fits := func(a Arch) bool { return !a.IsDiffusion() }
	switch {
	case k == KindImageGeneration:
		fits = Arch.IsDiffusion
	case k == KindCNNTrain:
		fits = Arch.IsVision
	case k.IsLLM():
		fits = func(a Arch) bool { return a == ArchDecoder || a == ArchEncoder }
	}
	var names []string
	for _, p := range presets {
		if fits(p.Model.Arch) {
			names = append(names, p.Name)
		}
	}
	return names
}

// LookupPreset finds a preset by name or alias, case-insensitively and
// ignoring separators ("Llama-3-8B", "llama3-8b", "meta-llama/Meta-Llama-3-8B",
// "Llama-2-7b-chat-hf" all work: an organisation prefix and suffixes such as
// -instruct, -chat and -hf are dropped, as they share the architecture).
func LookupPreset(name string) (Preset, bool) {
	key := presetKey(name)
	if key == "" {
		return Preset{}, false
	}
	try := []string{key}
	base := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndex(base, "/"); i >= 0 && i+1 < len(base) {
		base = base[i+1:]
		try = append(try, presetKey(base))
	}
	// Strip one suffix at a time, trying each shorter name in turn, so that
	// "deepseek-v3" matches before its "-v3" could be taken for a version.
	for changed := true; changed; {
		changed = false
		if m := versionSuffixRe.FindStringIndex(base); m != nil && m[0] > 0 {
			base, changed = base[:m[0]], true
		}
		for _, suf := range []string{"-hf", "-instruct", "-chat", "-base", "-it"} {
			if !changed && strings.HasSuffix(base, suf) && len(base) > len(suf) {
				base, changed = strings.TrimSuffix(base, suf), true
			}
		}
		if changed {
			try = append(try, presetKey(base))
		}
	}
	try = append(try, presetKey(strings.TrimPrefix(base, "meta-")))
	for _, k := range try {
		for _, p := range presets {
			if presetKey(p.Name) == k {
				return clonePreset(p), true
			}
			for _, a := range p.Aliases {
				if presetKey(a) == k {
					return clonePreset(p), true
				}
			}
		}
	}
	return Preset{}, false
}

func clonePreset(p Preset) Preset {
	p.Aliases = append([]string(nil), p.Aliases...)
	p.Model = p.Model.clone()
	return p
}

func (m Model) clone() Model {
	if m.GatedMLP != nil {
		m.GatedMLP = ptr(*m.GatedMLP)
	}
	if m.TiedEmbeddings != nil {
		m.TiedEmbeddings = ptr(*m.TiedEmbeddings)
	}
	return m
}

// presetKey folds case and drops every character but letters, digits and
// dots, so "Llama-3-8B" and "llama3_8b" compare equal.
func presetKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// IsMoE reports whether m is a mixture-of-experts model (Experts > 0).
func (m Model) IsMoE() bool { return m.Experts > 0 }

// EffectiveHeadDim is HeadDim, or Hidden/Heads when HeadDim is 0 (0 when
// Heads is 0).
func (m Model) EffectiveHeadDim() int {
	if m.HeadDim > 0 {
		return m.HeadDim
	}
	if m.Heads > 0 {
		return m.Hidden / m.Heads
	}
	return 0
}

// mlpMatrices is the number of h×ffn matrices in one MLP: 3 when gated
// (SwiGLU), 2 for a plain GELU MLP. Unset means gated.
func (m Model) mlpMatrices() float64 {
	if m.GatedMLP != nil && !*m.GatedMLP {
		return 2
	}
	return 3
}

// attentionParams is the parameter count of one attention block (biases and
// norms ignored: they are under 0.1% of any preset).
func (m Model) attentionParams() float64 {
	h, hd, heads := float64(m.Hidden), float64(m.EffectiveHeadDim()), float64(m.Heads)
	if m.KVLoRARank > 0 { // multi-head latent attention
		rope, kvr, qr := float64(m.RopeHeadDim), float64(m.KVLoRARank), float64(m.QLoRARank)
		var q float64
		if qr > 0 {
			q = h*qr + qr*heads*(hd+rope)
		} else {
			q = h * heads * (hd + rope)
		}
		kv := h*(kvr+rope) + kvr*heads*(hd+hd) // latent down-projection, then K (no rope part) and V per head
		o := heads * hd * h
		return q + kv + o
	}
	kvHeads := float64(m.KVHeads)
	if kvHeads == 0 {
		kvHeads = heads
	}
	// Q and O are heads·head_dim wide; K and V kv_heads·head_dim.
	return 2*h*heads*hd + 2*h*kvHeads*hd
}

// CheckpointBytes is the stored size of the model's weights quantised to
// p as quantisation tools write them: the embedding and the output head in
// p's HeadPrecision, and the FP8LatentParams in FP8.
func (m Model) CheckpointBytes(p Precision) float64 {
	emb, latent := m.embeddingParams(), m.FP8LatentParams(p)
	return (m.ParamsB*1e9-emb-latent)*p.StoredBytes() + latent*FP8.Bytes() + emb*p.HeadPrecision().Bytes()
}

// FP8LatentParams is the parameters, over all layers, that a checkpoint
// quantised to p keeps in FP8 rather than p: under FP4, the query and
// latent key/value projections of multi-head latent attention (NVIDIA's
// Model Optimizer DeepSeek recipe, examples/deepseek/ptq.py: *attn*
// disabled, the output projection wo to FP4 by default since September
// 2025); none otherwise.
func (m Model) FP8LatentParams(p Precision) float64 {
	if p != FP4 {
		return 0
	}
	return m.LatentProjParams() * float64(m.Layers)
}

// LatentProjParams is the parameter count of one multi-head latent
// attention block's query and latent key/value projections, its output
// projection excluded; zero for other attention.
func (m Model) LatentProjParams() float64 {
	if m.KVLoRARank == 0 {
		return 0
	}
	return m.attentionParams() - float64(m.Heads)*float64(m.EffectiveHeadDim())*float64(m.Hidden)
}

// expertParams is the parameter count of one MLP (one expert) of width ffn.
func (m Model) expertParams(ffn int) float64 {
	return m.mlpMatrices() * float64(m.Hidden) * float64(ffn)
}

// embeddingParams counts the input embedding and, unless tied, the output
// projection.
func (m Model) embeddingParams() float64 {
	e := float64(m.Vocab) * float64(m.Hidden)
	if m.TiedEmbeddings == nil || !*m.TiedEmbeddings {
		e *= 2
	}
	return e
}

// DerivedParamsB computes the total parameter count in billions from the
// transformer architecture: per layer, attention (Q and O of h×h, K and V of
// h×kv_heads·head_dim, or the MLA projections) plus the MLP (3·h·ffn gated,
// 2·h·ffn plain; every routed and shared expert of an MoE layer, plus its
// router), plus embeddings (vocab·h, twice when untied). Norms, biases and
// learned position embeddings are ignored. It returns 0 when Layers, Hidden
// or Heads is 0 (an image model, or an incomplete architecture).
func (m Model) DerivedParamsB() float64 {
	total, _ := m.derivedParams()
	return total / 1e9
}

func (m Model) derivedParams() (total, active float64) {
	if m.Layers <= 0 || m.Hidden <= 0 || m.Heads <= 0 {
		return 0, 0
	}
	layers := float64(m.Layers)
	attn := m.attentionParams() * layers
	emb := m.embeddingParams()
	if !m.IsMoE() {
		mlp := m.expertParams(m.FFNHidden) * layers
		return attn + mlp + emb, attn + mlp + emb
	}
	dense := float64(max(0, min(m.DenseLayers, m.Layers)))
	moeLayers := layers - dense
	denseFFN := m.DenseFFNHidden
	if denseFFN == 0 {
		denseFFN = m.FFNHidden
	}
	denseMLP := m.expertParams(denseFFN) * dense
	expert := m.expertParams(m.FFNHidden)
	router := float64(m.Hidden) * float64(m.Experts)
	shared := float64(m.SharedExperts)
	total = attn + emb + denseMLP + moeLayers*(expert*(float64(m.Experts)+shared)+router)
	active = attn + emb + denseMLP + moeLayers*(expert*(float64(m.ActiveExperts)+shared)+router)
	return total, active
}

// ActiveParamsB is the number of parameters, in billions, that one token
// passes through: ParamsB for a dense model; for an MoE, ParamsB less the
// experts a token does not use (derived from the architecture, so
// Mixtral-8x7B gives about 12.9 and DeepSeek-V3 about 37). Training and
// inference FLOPs per token scale with it.
func (m Model) ActiveParamsB() float64 {
	if !m.IsMoE() {
		return m.ParamsB
	}
	total, active := m.derivedParams()
	if total <= 0 {
		if m.Experts > 0 && m.ActiveExperts > 0 {
			return m.ParamsB * float64(m.ActiveExperts) / float64(m.Experts) // crude, without architecture
		}
		return m.ParamsB
	}
	// Keep the published total and subtract the idle experts as derived.
	return m.ParamsB - (total-active)/1e9
}

// KVElemsPerToken is the number of values the KV cache stores per token over
// all layers: 2·kv_heads·head_dim per layer, or kv_lora_rank+rope_head_dim
// per layer with multi-head latent attention. Multiply by
// Precision.Bytes for bytes per token. 0 for non-transformer models.
func (m Model) KVElemsPerToken() int {
	if m.Layers <= 0 {
		return 0
	}
	if m.KVLoRARank > 0 {
		return m.Layers * (m.KVLoRARank + m.RopeHeadDim)
	}
	kv := m.KVHeads
	if kv == 0 {
		kv = m.Heads
	}
	return m.Layers * 2 * kv * m.EffectiveHeadDim()
}

// ForwardFLOPsPerSample is the forward pass of one image in FLOP (2 per
// multiply-accumulate): 2e9·ForwardGMACsPerSample.
func (m Model) ForwardFLOPsPerSample() float64 { return 2e9 * m.ForwardGMACsPerSample }

// TrainFLOPsPerSample is one training step's work per image in FLOP: the
// forward pass plus a backward pass of twice its cost, 3·ForwardFLOPsPerSample.
func (m Model) TrainFLOPsPerSample() float64 { return 3 * m.ForwardFLOPsPerSample() }
