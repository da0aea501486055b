package workload

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// Parse decodes a workload file (YAML, or JSON, which YAML contains),
// applies the model preset (explicit fields win), fills defaults (each one
// recorded in Spec.Defaults) and validates the result.
//
// filename is used only in error messages. On failure Parse returns a nil
// Spec and an apperr.List of Invalid errors, each naming the field path and,
// where the file has it, the line: every problem found, not just the first.
func Parse(data []byte, filename string) (*Spec, error) {
	var s Spec
	if err := strictyaml.Decode(data, &s); err != nil {
		return nil, apperr.InFile(err, filename)
	}
	p := &checker{s: &s, lines: strictyaml.IndexLines(data)}
	p.complete(filename)
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		return nil, apperr.InFile(p.errs, filename)
	}
	return &s, nil
}

// checker holds the state of one Parse after decoding: the spec being
// completed, where each key is in the file, and the problems found so far.
type checker struct {
	s     *Spec
	lines strictyaml.Lines
	errs  apperr.List
	// preset is the model preset the file names, once model() found it.
	preset *Preset
}

func (p *checker) errorf(field, format string, args ...any) {
	e := apperr.Invalidf(field, format, args...)
	e.Line = p.lines.Line(field)
	p.errs = append(p.errs, e)
}

// def records a filled default.
func (p *checker) def(field, value, why string) {
	p.s.Defaults = append(p.s.Defaults, Default{Field: field, Value: value, Why: why})
}

func (p *checker) complete(filename string) {
	s := p.s
	kindOK := p.kind()
	if s.Name == "" {
		name, why := fileStem(filename), "not set; taken from the file name"
		if name == "" {
			name, why = string(s.Kind), "not set; taken from the kind"
			if s.Model != nil && s.Model.Preset != "" {
				name, why = s.Model.Preset+"-"+string(s.Kind), "not set; taken from the preset and the kind"
			}
		}
		s.Name = name
		p.def("name", name, why)
	}
	if kindOK {
		p.blocks()
		if s.Model != nil {
			p.model()
		}
		switch {
		case s.Kind.IsTraining() && s.Training != nil:
			p.training()
		case s.Kind == KindLLMInference && s.Inference != nil:
			p.inference()
		case s.Kind == KindGeneric && s.Generic != nil:
			p.generic()
		case s.Kind == KindImageGeneration && s.Image != nil:
			p.image()
		}
	}
	if kindOK {
		p.service()
	}
	p.parallelism(kindOK)
	p.data(kindOK)
	p.stack(kindOK)
	if kindOK {
		p.imageEngine()
		p.kvAuto()
		p.attentionPrecision()
	}
	p.constraints()
	p.compliance()
	if s.Objective == "" {
		s.Objective = ObjectiveCost
		p.def("objective", string(ObjectiveCost), "not set; rank by lowest total cost")
	} else if o, err := ParseObjective(string(s.Objective)); err != nil {
		p.errorf("objective", "%v", err)
	} else {
		s.Objective = o
	}
}

// kvAuto resolves inference.kv_precision auto (or unset) from the weights
// and the serving engine: what the engine stores when it is not told.
// vLLM, SGLang, TGI and LMDeploy keep the model's own 16-bit dtype
// (--kv-cache-dtype auto; an fp8 or fp4 checkpoint's dtype is bf16) until
// the cache is quantised explicitly. TensorRT-LLM takes the cache format
// of the checkpoint, and NVIDIA's ModelOpt fp8 and fp4 checkpoints mostly
// carry an fp8 one (kv_cache_quant_algo; DeepSeek-R1-FP4 does not, and
// TensorRT-LLM's own DeepSeek guide sets fp8 explicitly). Optimum
// Habana's fp8 path (Intel Neural Compressor) quantises the KV cache with
// the weights; the others are assumed to follow the weights too. Integer
// weights keep a 16-bit cache everywhere.
func (p *checker) kvAuto() {
	in := p.s.Inference
	if p.s.Kind != KindLLMInference || in == nil || in.KVPrecision != "" || !in.WeightPrecision.Valid() {
		return
	}
	kv, why := in.WeightPrecision, "auto: follows the weights (fp16 under int8/int4 weights, fp8 under fp4)"
	switch kv {
	case INT8, INT4:
		kv = FP16
	case FP4:
		kv = FP8
	}
	switch p.s.Stack.Framework {
	case FrameworkVLLM, FrameworkSGLang, FrameworkTGI, FrameworkLMDeploy:
		if kv == FP8 {
			kv = BF16
			why = "auto: vLLM, SGLang, TGI and LMDeploy keep the KV cache in the model's 16-bit dtype (--kv-cache-dtype auto) whatever the weights; say fp8 where the deployment quantises it"
		}
	case FrameworkTensorRTLLM:
		why = "auto: follows the weights; TensorRT-LLM takes the checkpoint's cache format, usually fp8 in NVIDIA's fp8 and fp4 checkpoints (fp16 under int8/int4 weights)"
	}
	in.KVPrecision = kv
	p.def("inference.kv_precision", string(kv), why)
}

// attentionPrecision checks inference.attention_precision once the KV
// cache's format is known: fp8 maths read an fp8 (or narrower) cache.
func (p *checker) attentionPrecision() {
	in := p.s.Inference
	if p.s.Kind != KindLLMInference || in == nil || in.AttentionPrecision == "" {
		return
	}
	if strings.EqualFold(string(in.AttentionPrecision), string(PrecisionAuto)) {
		in.AttentionPrecision = ""
		return
	}
	pr, err := ParsePrecision(string(in.AttentionPrecision))
	switch {
	case err != nil:
		p.errorf("inference.attention_precision", "%v", err)
	case pr != BF16 && pr != FP16 && pr != FP8:
		p.errorf("inference.attention_precision", "%s: decode attention runs its maths in bf16, fp16 or fp8", pr)
	case pr == FP8 && in.KVPrecision.Bytes() > 1:
		p.errorf("inference.attention_precision", "fp8 attention reads an fp8 KV cache, but inference.kv_precision is %s: set it to fp8", in.KVPrecision)
	default:
		in.AttentionPrecision = pr
	}
}

func (p *checker) kind() bool {
	s := p.s
	if s.Kind == "" {
		p.errorf("kind", "required (want one of %s)", joinEnum(Kinds()))
		return false
	}
	k, err := ParseKind(string(s.Kind))
	if err != nil {
		p.errorf("kind", "%v", err)
		return false
	}
	s.Kind = k
	return true
}

// blocks checks that the blocks the kind needs are present and that no
// block meant for another kind is.
func (p *checker) blocks() {
	s := p.s
	k := s.Kind
	// A block written with no content ("inference:") is present, all defaults.
	if p.lines.Has("model") && s.Model == nil && k != KindGeneric {
		s.Model = &Model{}
	}
	if p.lines.Has("training") && s.Training == nil && k.IsTraining() {
		s.Training = &Training{}
	}
	if p.lines.Has("inference") && s.Inference == nil && k == KindLLMInference {
		s.Inference = &Inference{}
	}
	if p.lines.Has("generic") && s.Generic == nil && k == KindGeneric {
		s.Generic = &Generic{}
	}
	if p.lines.Has("image") && s.Image == nil && k == KindImageGeneration {
		s.Image = &Image{}
	}
	need := func(field string, present bool, what string) {
		if !present {
			// The block is absent: point at the kind that needs it.
			e := apperr.Invalidf(field, "required for kind %s (%s)", k, what)
			e.Line = p.lines.Line("kind")
			p.errs = append(p.errs, e)
		}
	}
	unused := func(field string, present bool, hint string) {
		if present {
			p.errorf(field, "not used by kind %s%s", k, hint)
		}
	}
	switch {
	case k.IsLLM():
		need("model", s.Model != nil, "a preset such as llama-3-8b, or layers, hidden, heads, ffn_hidden and vocab")
	case k == KindCNNTrain:
		need("model", s.Model != nil, "a preset such as resnet-50, or params_b and forward_gmacs_per_sample")
	case k == KindGeneric:
		unused("model", s.Model != nil, "; describe the work per item in the generic block")
	case k == KindImageGeneration:
		need("model", s.Model != nil, "a preset such as sdxl or flux.1-dev, or arch unet or dit with params_b and forward_gmacs_per_sample")
	}
	if k == KindImageGeneration {
		need("image", s.Image != nil, "width, height, steps, batch, and images or requests_per_second")
	} else {
		unused("image", s.Image != nil, "")
	}
	if k.IsTraining() {
		need("training", s.Training != nil, "tokens or samples to process, and how")
	} else {
		unused("training", s.Training != nil, "")
	}
	if k == KindLLMInference {
		need("inference", s.Inference != nil, "prompt and output lengths, load and latency targets")
	} else {
		unused("inference", s.Inference != nil, "")
	}
	if k == KindGeneric {
		need("generic", s.Generic != nil, "items and flops_per_item or bytes_per_item")
	} else {
		unused("generic", s.Generic != nil, "")
	}
}

func (p *checker) model() {
	s, m := p.s, p.s.Model
	var preset *Preset
	if m.Preset != "" {
		pr, ok := LookupPreset(m.Preset)
		if !ok {
			p.errorf("model.preset", "unknown preset %q (known: %s)", m.Preset, strings.Join(PresetNamesFor(s.Kind), ", "))
			return
		}
		preset = &pr
		m.Preset = pr.Name
		p.preset = preset
	}
	if m.Arch != "" {
		a, err := ParseArch(string(m.Arch))
		if err != nil {
			p.errorf("model.arch", "%v", err)
			return
		}
		m.Arch = a
	}
	if preset != nil {
		p.applyPreset(m, preset.Model)
	}
	if m.Arch == "" && s.Kind == KindImageGeneration {
		p.errorf("model.arch", "required when model.preset is not given (unet or dit)")
		return
	}
	if s.Kind == KindImageGeneration && !m.Arch.IsDiffusion() {
		p.errorf(p.modelField(), "%s is not a diffusion model; kind image-generation needs one (e.g. sdxl, flux.1-dev, or arch unet or dit)", p.modelName())
		return
	}
	if s.Kind != KindImageGeneration && m.Arch.IsDiffusion() {
		p.errorf(p.modelField(), "%s is a diffusion model; use kind image-generation", p.modelName())
		return
	}
	if m.Arch.IsDiffusion() {
		p.diffusionModel(preset)
		return
	}
	if m.Arch == "" {
		a := ArchDecoder
		if s.Kind == KindCNNTrain {
			a = ArchCNN
		}
		m.Arch = a
		p.def("model.arch", string(a), "not set and no preset; assumed from the kind")
	}
	if s.Kind.IsLLM() && m.Arch.IsVision() {
		p.errorf(p.modelField(), "%s is an image model; kind %s needs a language model (e.g. llama-3-8b)", p.modelName(), s.Kind)
		return
	}
	if s.Kind == KindCNNTrain && !m.Arch.IsVision() {
		p.errorf(p.modelField(), "%s is a language model; kind cnn-train needs an image model (e.g. resnet-50, vit-b-16)", p.modelName())
		return
	}
	if m.Arch.IsVision() {
		p.visionModel(preset)
	} else {
		p.transformerModel(preset)
	}
}

// modelField is the field to blame for a model/kind mismatch.
func (p *checker) modelField() string {
	if p.s.Model.Preset != "" {
		return "model.preset"
	}
	return "model.arch"
}

func (p *checker) modelName() string {
	if p.s.Model.Preset != "" {
		return p.s.Model.Preset
	}
	return "model.arch " + string(p.s.Model.Arch)
}

// applyPreset fills every field of m the file left zero from the preset.
func (p *checker) applyPreset(m *Model, pr Model) {
	fill(&m.Arch, pr.Arch)
	fill(&m.ParamsB, pr.ParamsB)
	fill(&m.Layers, pr.Layers)
	fill(&m.Hidden, pr.Hidden)
	fill(&m.Heads, pr.Heads)
	fill(&m.KVHeads, pr.KVHeads)
	fill(&m.FFNHidden, pr.FFNHidden)
	fill(&m.Vocab, pr.Vocab)
	fill(&m.ContextLen, pr.ContextLen)
	fill(&m.Experts, pr.Experts)
	fill(&m.ActiveExperts, pr.ActiveExperts)
	fill(&m.SharedExperts, pr.SharedExperts)
	fill(&m.ExpertGroups, pr.ExpertGroups)
	fill(&m.RoutedGroups, pr.RoutedGroups)
	fill(&m.DenseLayers, pr.DenseLayers)
	fill(&m.DenseFFNHidden, pr.DenseFFNHidden)
	fill(&m.KVLoRARank, pr.KVLoRARank)
	fill(&m.QLoRARank, pr.QLoRARank)
	fill(&m.RopeHeadDim, pr.RopeHeadDim)
	fill(&m.ImagePx, pr.ImagePx)
	fill(&m.LatentChannels, pr.LatentChannels)
	fill(&m.LatentFactor, pr.LatentFactor)
	fill(&m.TemporalFactor, pr.TemporalFactor)
	fill(&m.PatchSize, pr.PatchSize)
	fill(&m.TextEncoderParamsB, pr.TextEncoderParamsB)
	fill(&m.TextTokens, pr.TextTokens)
	fill(&m.VAEParamsB, pr.VAEParamsB)
	fill(&m.VAEDecoderGMACsPerMpx, pr.VAEDecoderGMACsPerMpx)
	fill(&m.VAEPrecision, pr.VAEPrecision)
	if pr.Arch.IsDiffusion() {
		fill(&m.HeadDim, pr.HeadDim)
		// The preset's work is given at its reference tokens; a file that
		// changes the work gives its own reference.
		if m.ForwardGMACsPerSample == 0 && m.AttentionGMACsPerSample == 0 && m.ReferenceTokens == 0 {
			m.ForwardGMACsPerSample, m.AttentionGMACsPerSample, m.ReferenceTokens = pr.ForwardGMACsPerSample, pr.AttentionGMACsPerSample, pr.ReferenceTokens
		}
		return
	}
	if m.GatedMLP == nil && pr.GatedMLP != nil {
		m.GatedMLP = ptr(*pr.GatedMLP)
	}
	if m.TiedEmbeddings == nil && pr.TiedEmbeddings != nil {
		m.TiedEmbeddings = ptr(*pr.TiedEmbeddings)
	}
	// The preset's head_dim is Hidden/Heads unless the model says otherwise
	// (DeepSeek); when the file changes hidden or heads, follow them.
	if m.HeadDim == 0 && pr.HeadDim != 0 && pr.Heads > 0 && pr.HeadDim != pr.Hidden/pr.Heads {
		m.HeadDim = pr.HeadDim
	}
	// An image model's work and activations grow with its pixel count.
	if m.ForwardActivationsM == 0 && pr.ForwardActivationsM > 0 {
		m.ForwardActivationsM = pr.ForwardActivationsM
		if m.ImagePx > 0 && pr.ImagePx > 0 && m.ImagePx != pr.ImagePx {
			r := float64(m.ImagePx) / float64(pr.ImagePx)
			m.ForwardActivationsM *= r * r
		}
	}
	if m.ForwardGMACsPerSample == 0 && pr.ForwardGMACsPerSample > 0 {
		m.ForwardGMACsPerSample = pr.ForwardGMACsPerSample
		if m.ImagePx > 0 && pr.ImagePx > 0 && m.ImagePx != pr.ImagePx {
			r := float64(m.ImagePx) / float64(pr.ImagePx)
			m.ForwardGMACsPerSample *= r * r
			p.def("model.forward_gmacs_per_sample", fmtFloat(m.ForwardGMACsPerSample),
				fmt.Sprintf("scaled from the preset's %s GMAC at %d px by (%d/%d)²", fmtFloat(pr.ForwardGMACsPerSample), pr.ImagePx, m.ImagePx, pr.ImagePx))
		}
	}
}

func fill[T comparable](dst *T, src T) {
	var zero T
	if *dst == zero {
		*dst = src
	}
}

var archFields = []string{"layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden", "gated_mlp",
	"tied_embeddings", "vocab", "experts", "active_experts", "shared_experts", "dense_layers",
	"dense_ffn_hidden", "kv_lora_rank", "q_lora_rank"}

func (p *checker) transformerModel(preset *Preset) {
	m := p.s.Model
	p.nonNegInts(map[string]int{
		"model.layers": m.Layers, "model.hidden": m.Hidden, "model.heads": m.Heads, "model.kv_heads": m.KVHeads,
		"model.head_dim": m.HeadDim, "model.ffn_hidden": m.FFNHidden, "model.vocab": m.Vocab,
		"model.context_len": m.ContextLen, "model.experts": m.Experts, "model.active_experts": m.ActiveExperts,
		"model.shared_experts": m.SharedExperts, "model.dense_layers": m.DenseLayers,
		"model.dense_ffn_hidden": m.DenseFFNHidden, "model.kv_lora_rank": m.KVLoRARank,
		"model.q_lora_rank": m.QLoRARank, "model.rope_head_dim": m.RopeHeadDim,
		"model.expert_groups": m.ExpertGroups, "model.routed_groups": m.RoutedGroups,
	})
	p.nonNeg("model.params_b", m.ParamsB)
	if preset == nil {
		for _, f := range []struct {
			name string
			v    int
		}{{"layers", m.Layers}, {"hidden", m.Hidden}, {"heads", m.Heads}, {"ffn_hidden", m.FFNHidden}, {"vocab", m.Vocab}} {
			if f.v == 0 && !p.lines.Has("model."+f.name) {
				p.errorf("model."+f.name, "required when model.preset is not given")
			}
		}
		if m.GatedMLP == nil {
			m.GatedMLP = ptr(true)
			p.def("model.gated_mlp", "true", "not set and no preset; modern decoders use a gated (SwiGLU) MLP")
		}
		if m.TiedEmbeddings == nil {
			m.TiedEmbeddings = ptr(false)
			p.def("model.tied_embeddings", "false", "not set and no preset; separate input and output embeddings assumed")
		}
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"layers", m.Layers}, {"hidden", m.Hidden}, {"heads", m.Heads}, {"ffn_hidden", m.FFNHidden}, {"vocab", m.Vocab}} {
		if f.v == 0 && p.lines.Has("model."+f.name) {
			p.errorf("model."+f.name, "must be > 0")
		}
	}
	if m.KVHeads == 0 && m.Heads > 0 {
		m.KVHeads = m.Heads
		p.def("model.kv_heads", strconv.Itoa(m.Heads), "not set; equal to heads (multi-head attention)")
	}
	if m.Heads > 0 && m.KVHeads > 0 {
		if m.KVHeads > m.Heads {
			p.errorf("model.kv_heads", "%d is more than model.heads %d", m.KVHeads, m.Heads)
		} else if m.Heads%m.KVHeads != 0 {
			p.errorf("model.kv_heads", "model.heads %d is not divisible by kv_heads %d", m.Heads, m.KVHeads)
		}
	}
	if m.HeadDim == 0 && m.Heads > 0 && m.Hidden > 0 {
		if m.Hidden%m.Heads != 0 {
			p.errorf("model.head_dim", "required: model.hidden %d is not divisible by model.heads %d", m.Hidden, m.Heads)
		} else {
			m.HeadDim = m.Hidden / m.Heads
		}
	}
	if m.Experts > 0 {
		switch {
		case m.ActiveExperts == 0:
			p.errorf("model.active_experts", "required when model.experts is set (experts used per token)")
		case m.ActiveExperts > m.Experts:
			p.errorf("model.active_experts", "%d is more than model.experts %d", m.ActiveExperts, m.Experts)
		}
		if m.Layers > 0 && m.DenseLayers >= m.Layers {
			p.errorf("model.dense_layers", "%d leaves no MoE layer of model.layers %d", m.DenseLayers, m.Layers)
		}
		switch {
		case m.ExpertGroups > 0 && m.Experts%m.ExpertGroups != 0:
			p.errorf("model.expert_groups", "%d does not divide model.experts %d into equal groups", m.ExpertGroups, m.Experts)
		case m.ExpertGroups > 0 && m.RoutedGroups == 0:
			p.errorf("model.routed_groups", "required with model.expert_groups (how many groups a token's experts may come from)")
		case m.RoutedGroups > 0 && m.ExpertGroups == 0:
			p.errorf("model.routed_groups", "needs model.expert_groups (the groups it chooses from)")
		case m.RoutedGroups > m.ExpertGroups:
			p.errorf("model.routed_groups", "%d is more than model.expert_groups %d", m.RoutedGroups, m.ExpertGroups)
		}
	} else {
		for _, f := range []struct {
			name string
			v    int
		}{{"active_experts", m.ActiveExperts}, {"shared_experts", m.SharedExperts}, {"dense_layers", m.DenseLayers},
			{"expert_groups", m.ExpertGroups}, {"routed_groups", m.RoutedGroups}} {
			if f.v > 0 {
				p.errorf("model."+f.name, "needs model.experts (a mixture-of-experts model)")
			}
		}
	}
	if m.KVLoRARank == 0 && (m.QLoRARank > 0 || m.RopeHeadDim > 0) {
		p.errorf("model.kv_lora_rank", "required with q_lora_rank or rope_head_dim (multi-head latent attention)")
	}
	if m.Arch == ArchEncoder && p.s.Kind == KindLLMInference && m.Experts > 0 {
		p.errorf("model.experts", "an encoder model with experts is not supported")
	}
	// params_b: the published figure from the preset, unless the file changed
	// the architecture without giving a new count; then derive it.
	changed := false
	if preset != nil {
		for _, f := range archFields {
			if p.lines.Has("model." + f) {
				changed = true
			}
		}
	}
	if !p.lines.Has("model.params_b") && (m.ParamsB == 0 || changed) {
		if d := m.DerivedParamsB(); d > 0 {
			why := "not set; derived from the architecture"
			if changed {
				why = "derived from the architecture, because the file changes the preset's shape"
			}
			m.ParamsB = d
			p.def("model.params_b", fmtFloat(round(d, 3)), why)
		}
	} else if p.lines.Has("model.params_b") && m.ParamsB == 0 {
		p.errorf("model.params_b", "must be > 0")
	}
}

func (p *checker) visionModel(preset *Preset) {
	m := p.s.Model
	p.nonNeg("model.params_b", m.ParamsB)
	p.nonNeg("model.forward_gmacs_per_sample", m.ForwardGMACsPerSample)
	p.nonNegInts(map[string]int{"model.image_px": m.ImagePx})
	if m.ParamsB == 0 {
		p.errorf("model.params_b", "required for an image model without a preset (parameters in billions, e.g. 0.0256 for ResNet-50)")
	}
	if m.ForwardGMACsPerSample == 0 {
		p.errorf("model.forward_gmacs_per_sample", "required for an image model without a preset (forward multiply-accumulates per image in billions, e.g. 4.09 for ResNet-50)")
	}
	if m.ImagePx == 0 {
		m.ImagePx = 224
		p.def("model.image_px", "224", "not set; the usual ImageNet training resolution")
	}
	p.nonNeg("model.forward_activations_m", m.ForwardActivationsM)
	if m.ForwardActivationsM == 0 && m.ForwardGMACsPerSample > 0 {
		m.ForwardActivationsM = round(m.ForwardGMACsPerSample*ResNetActivationsPerGMAC, 2)
		p.def("model.forward_activations_m", fmtFloat(m.ForwardActivationsM),
			"not set; ResNet-50's ratio of 2.77 million activation values per forward GMAC (a depthwise network moves more)")
	}
}

func (p *checker) training() {
	s, t := p.s, p.s.Training
	llm := s.Kind.IsLLM()
	if t.Method == "" {
		t.Method = MethodFull
		why := "not set; every weight is trained"
		if s.Kind == KindLLMFinetune {
			t.Method = MethodLoRA
			why = "not set; LoRA is the most common fine-tuning method (set full to train every weight)"
		}
		p.def("training.method", string(t.Method), why)
	} else if m, err := ParseMethod(string(t.Method)); err != nil {
		p.errorf("training.method", "%v", err)
	} else {
		t.Method = m
		if m != MethodFull && s.Kind != KindLLMFinetune {
			p.errorf("training.method", "%s is a fine-tuning method; use kind llm-finetune, or method full", m)
		}
	}
	if t.Precision == "" {
		t.Precision = BF16
		p.def("training.precision", string(BF16), "not set; bf16 is the usual training precision")
	} else if pr, err := ParsePrecision(string(t.Precision)); err != nil {
		p.errorf("training.precision", "%v", err)
	} else if !contains(TrainingPrecisions(), pr) {
		p.errorf("training.precision", "%s is not a training precision (want one of %s)", pr, joinEnum(TrainingPrecisions()))
	} else {
		t.Precision = pr
	}
	p.nonNeg("training.tokens", t.Tokens)
	p.nonNeg("training.samples", t.Samples)
	p.nonNeg("training.epochs", t.Epochs)
	p.nonNegInts(map[string]int{"training.seq_len": t.SeqLen, "training.global_batch": t.GlobalBatch, "training.lora_rank": t.LoRARank})
	if llm {
		if t.Tokens == 0 && finite(t.Tokens) {
			p.errorf("training.tokens", "must be > 0 (tokens to process in total, e.g. 2e9)")
		}
		if t.Samples != 0 {
			p.errorf("training.samples", "not used by kind %s; give training.tokens", s.Kind)
		}
		if t.SeqLen == 0 {
			if p.lines.Has("training.seq_len") {
				p.errorf("training.seq_len", "must be > 0")
			} else {
				seq, why := 4096, "not set; a common training sequence length"
				if m := s.Model; m != nil && m.ContextLen > 0 && m.ContextLen < seq {
					seq, why = m.ContextLen, "not set; the model's context length"
				}
				t.SeqLen = seq
				p.def("training.seq_len", strconv.Itoa(seq), why)
			}
		}
	} else { // cnn-train
		if t.Samples == 0 && finite(t.Samples) {
			p.errorf("training.samples", "must be > 0 (images to process in total, all epochs, e.g. 1.28e6 × 90)")
		}
		if t.Tokens != 0 {
			p.errorf("training.tokens", "not used by kind %s; give training.samples", s.Kind)
		}
		if t.SeqLen != 0 {
			p.errorf("training.seq_len", "not used by kind %s", s.Kind)
		}
	}
	if t.GlobalBatch == 0 {
		if p.lines.Has("training.global_batch") {
			p.errorf("training.global_batch", "must be > 0")
		} else if t.SeqLen > 0 || !llm {
			var gb int
			var why string
			switch s.Kind {
			case KindLLMTrain:
				gb = max(1, int(math.Round(4*1024*1024/float64(t.SeqLen))))
				why = "not set; about 4M tokens per optimizer step, as large pre-training runs use"
			case KindLLMFinetune:
				gb, why = 64, "not set; a common fine-tuning batch"
			default:
				gb, why = 1024, "not set; a common ImageNet-scale batch (Goyal et al. 2017)"
			}
			t.GlobalBatch = gb
			p.def("training.global_batch", strconv.Itoa(gb), why)
		}
	}
	if t.ActivationCheckpointing != "" {
		if c, err := ParseCheckpointing(string(t.ActivationCheckpointing)); err != nil {
			p.errorf("training.activation_checkpointing", "%v", err)
		} else {
			t.ActivationCheckpointing = c
		}
	}
	p.optimizerPrecision(llm)
	if t.Method == MethodLoRA || t.Method == MethodQLoRA {
		if t.LoRARank == 0 && !p.lines.Has("training.lora_rank") {
			t.LoRARank = 16
			p.def("training.lora_rank", "16", "not set; a common adapter rank")
		} else if t.LoRARank == 0 {
			p.errorf("training.lora_rank", "must be > 0")
		}
	} else if t.LoRARank != 0 {
		p.errorf("training.lora_rank", "only for method lora or qlora")
	}
}

// optimizerPrecision checks training.optimizer_precision: fp32 (the
// default, listed for language-model training) or bf16, which needs
// 16-bit or fp8 training; the image-model training of cnn-train keeps
// its own state and takes none.
func (p *checker) optimizerPrecision(llm bool) {
	t := p.s.Training
	const field = "training.optimizer_precision"
	if t.OptimizerPrecision == "" {
		if llm {
			t.OptimizerPrecision = FP32
			p.def(field, string(FP32), "not set; fp32 master weights and Adam moments, as mixed precision keeps them")
		}
		return
	}
	pr, err := ParsePrecision(string(t.OptimizerPrecision))
	switch {
	case !llm:
		p.errorf(field, "not used by kind %s", p.s.Kind)
	case err != nil:
		p.errorf(field, "%v", err)
	case pr != FP32 && pr != BF16:
		p.errorf(field, "%s is not an optimizer state precision (want fp32 or bf16)", pr)
	case pr == BF16 && (t.Precision == FP32 || t.Precision == TF32):
		p.errorf(field, "bf16 optimizer state needs 16-bit or fp8 training, not training.precision %s", t.Precision)
	default:
		t.OptimizerPrecision = pr
	}
}

func (p *checker) inference() {
	s, in := p.s, p.s.Inference
	m := s.Model
	encoder := m != nil && m.Arch == ArchEncoder
	ctx := 0
	if m != nil {
		ctx = m.ContextLen
	}
	p.nonNegInts(map[string]int{"inference.prompt_tokens": in.PromptTokens, "inference.output_tokens": in.OutputTokens, "inference.max_batch": in.MaxBatch})
	p.nonNeg("inference.requests", in.Requests)
	if in.PromptTokens == 0 {
		if p.lines.Has("inference.prompt_tokens") {
			p.errorf("inference.prompt_tokens", "must be > 0")
		} else {
			n, why := 1024, "not set; a typical chat prompt"
			if ctx > 0 && ctx < 2048 {
				n, why = ctx, "not set; the model's context length"
			}
			in.PromptTokens = n
			p.def("inference.prompt_tokens", strconv.Itoa(n), why)
		}
	}
	if encoder && in.OutputTokens > 0 {
		p.errorf("inference.output_tokens", "%s is an encoder: it does not generate tokens (use 0)", p.modelName())
	}
	if !p.lines.Has("inference.output_tokens") {
		if encoder {
			p.def("inference.output_tokens", "0", "not set; an encoder only reads its input (embedding, classification)")
		} else {
			in.OutputTokens = 256
			p.def("inference.output_tokens", "256", "not set; a typical chat answer")
		}
	}
	if ctx > 0 && in.PromptTokens+in.OutputTokens > ctx {
		p.errorf("inference.prompt_tokens", "prompt_tokens + output_tokens = %d exceeds the model's context of %d tokens (set model.context_len if it was extended)",
			in.PromptTokens+in.OutputTokens, ctx)
	}
	if in.RequestsPerSecond != nil {
		if r := *in.RequestsPerSecond; !finite(r) || r <= 0 {
			p.errorf("inference.requests_per_second", "must be a number > 0 (leave it out for an offline job)")
		} else if r > FieldRanges["inference.requests_per_second"].Max {
			p.inRange("inference.requests_per_second", r)
		} else if in.Requests > 0 {
			p.errorf("inference.requests", "only for an offline job (without requests_per_second)")
		}
	}
	if !p.lines.Has("inference.max_batch") {
		p.def("inference.max_batch", "0", "not set; as many sequences in flight as memory allows")
	}
	if in.WeightPrecision == "" {
		in.WeightPrecision = BF16
		p.def("inference.weight_precision", string(BF16), "not set; weights served as published, in bf16")
	} else if pr, err := ParsePrecision(string(in.WeightPrecision)); err != nil {
		p.errorf("inference.weight_precision", "%v", err)
	} else if !contains(WeightPrecisions(), pr) {
		p.errorf("inference.weight_precision", "%s is not a storage format for weights (want one of %s)", pr, joinEnum(WeightPrecisions()))
	} else {
		in.WeightPrecision = pr
	}
	if in.KVPrecision == "" || strings.EqualFold(string(in.KVPrecision), string(PrecisionAuto)) {
		// Resolved once the serving engine is known (kvAuto, after stack).
		in.KVPrecision = ""
	} else if pr, err := ParsePrecision(string(in.KVPrecision)); err != nil {
		p.errorf("inference.kv_precision", "%v", err)
	} else if pr == TF32 {
		p.errorf("inference.kv_precision", "tf32 is a compute mode, not a storage format")
	} else {
		in.KVPrecision = pr
	}
	if in.Batching == "" {
		in.Batching = BatchingContinuous
		p.def("inference.batching", string(BatchingContinuous), "not set; continuous (in-flight) batching, as every current serving engine does")
	} else if b, err := ParseBatching(string(in.Batching)); err != nil {
		p.errorf("inference.batching", "%v", err)
	} else {
		in.Batching = b
		switch {
		case b == BatchingBurst && in.RequestsPerSecond != nil:
			p.errorf("inference.batching", "burst submits inference.requests at once; it cannot have requests_per_second")
		case b == BatchingBurst && in.Requests == 0:
			p.errorf("inference.requests", "required for batching burst: how many requests arrive at once (e.g. 1000)")
		case b == BatchingStatic && in.RequestsPerSecond != nil:
			p.errorf("inference.batching", "static batches are an offline measurement; a service at requests_per_second batches continuously")
		}
	}
	if cv := in.OutputTokensCV; !finite(cv) || cv < 0 || cv > 10 {
		p.errorf("inference.output_tokens_cv", "must be in [0, 10] (standard deviation over mean of the output length), got %s", fmtFloat(cv))
	}
	p.nonNeg("inference.offload_gb", in.OffloadGB)
	if k := in.AdmissionWaitSteps; k < 0 || k > 1000 {
		p.errorf("inference.admission_wait_steps", "must be in [0, 1000] decode steps, got %d", k)
	}
	if k := in.SpeculativeTokens; k < 0 || k > 16 {
		p.errorf("inference.speculative_tokens", "must be in [0, 16] draft tokens per step, got %d", k)
	}
	switch a := in.SpeculativeAcceptance; {
	case !finite(a) || a < 0 || a > 0.99:
		p.errorf("inference.speculative_acceptance", "must be in (0, 0.99]: the chance a draft token is accepted, got %s", fmtFloat(a))
	case a > 0 && in.SpeculativeTokens == 0:
		p.errorf("inference.speculative_acceptance", "set, but speculative_tokens is 0: nothing is drafted")
	case a == 0 && in.SpeculativeTokens > 0:
		in.SpeculativeAcceptance = 0.8
		p.def("inference.speculative_acceptance", "0.8", "not set; DeepSeek-V3 reports 85-90% acceptance of its MTP head's second token (technical report, arXiv 2412.19437), a draft model on chat about 60-80%")
	}
	p.nonNeg("inference.slo.ttft_ms", in.SLO.TTFTMs)
	p.nonNeg("inference.slo.tpot_ms", in.SLO.TPOTMs)
	p.nonNeg("inference.slo.percentile", in.SLO.Percentile)
	if pc := in.SLO.Percentile; pc > 100 || (pc == 0 && p.lines.Has("inference.slo.percentile")) {
		p.errorf("inference.slo.percentile", "must be in (0, 100] percent, got %s", fmtFloat(pc))
	}
	if in.SLO.Percentile == 0 && (in.SLO.TTFTMs > 0 || in.SLO.TPOTMs > 0) {
		in.SLO.Percentile = 99
		p.def("inference.slo.percentile", "99", "not set; latency targets are met by 99% of requests (as MLPerf's server scenario)")
	}
	if in.SLO.TPOTMs > 0 && in.OutputTokens == 0 {
		p.errorf("inference.slo.tpot_ms", "set, but output_tokens is 0: nothing is generated")
	}
}

func (p *checker) generic() {
	g := p.s.Generic
	p.nonNegFloats(map[string]float64{"generic.items": g.Items, "generic.flops_per_item": g.FLOPsPerItem,
		"generic.bytes_per_item": g.BytesPerItem, "generic.memory_gb": g.MemoryGB})
	if g.Items == 0 {
		p.errorf("generic.items", "must be > 0 (items to process in total)")
	}
	if g.FLOPsPerItem == 0 && g.BytesPerItem == 0 && g.Measured == nil {
		p.errorf("generic.flops_per_item", "give flops_per_item or bytes_per_item (or a measured throughput)")
	}
	if ms := g.Measured; ms != nil {
		ms.GPU = strings.ToLower(strings.TrimSpace(ms.GPU))
		if ms.GPU == "" {
			p.errorf("generic.measured.gpu", "required: the accelerator id the throughput was measured on (e.g. a100-80gb)")
		}
		if !finite(ms.ItemsPerS) || ms.ItemsPerS <= 0 {
			p.errorf("generic.measured.items_per_s", "must be a number > 0 (items per second on one accelerator)")
		} else {
			p.inRange("generic.measured.items_per_s", ms.ItemsPerS)
		}
	}
	if g.Precision == "" {
		g.Precision = FP32
		p.def("generic.precision", string(FP32), "not set; fp32 is the usual precision of non-ML GPU code")
	} else if pr, err := ParsePrecision(string(g.Precision)); err != nil {
		p.errorf("generic.precision", "%v", err)
	} else {
		g.Precision = pr
	}
}

func (p *checker) parallelism(kindOK bool) {
	s, par := p.s, p.s.Parallelism
	p.nonNegInts(map[string]int{"parallelism.data": par.Data, "parallelism.tensor": par.Tensor,
		"parallelism.pipeline": par.Pipeline, "parallelism.expert": par.Expert, "parallelism.context": par.Context,
		"parallelism.micro_batch": par.MicroBatch, "parallelism.virtual_pipeline": par.VirtualPipeline,
		"parallelism.prefill_gpus": par.PrefillGPUs})
	if kindOK && par.PrefillGPUs > 0 && s.Kind != KindLLMInference {
		p.errorf("parallelism.prefill_gpus", "for llm-inference: it splits a service's GPUs into a prefill pool and a decode pool")
	}
	if kindOK && par.ExpertBalancing && s.Kind != KindLLMInference {
		p.errorf("parallelism.expert_balancing", "for llm-inference: it says the serving engine rebalances the experts over the expert-parallel GPUs")
	}
	if par.ExpertOverlap != "" {
		switch o, err := ParseExpertOverlap(string(par.ExpertOverlap)); {
		case err != nil:
			p.errorf("parallelism.expert_overlap", "%v", err)
		case kindOK && s.Kind != KindLLMInference:
			p.errorf("parallelism.expert_overlap", "for llm-inference: it says whether the serving engine hides the expert all-to-all under a decode step's compute (training overlap follows parallelism.schedule)")
		default:
			s.Parallelism.ExpertOverlap = o
		}
	}
	if par.VirtualPipeline > 1 && par.Pipeline < 2 {
		p.errorf("parallelism.virtual_pipeline", "%d chunks per stage need parallelism.pipeline of 2 or more", par.VirtualPipeline)
	}
	// The embedding and the loss may each take a chunk of their own
	// (Megatron's account_for_embedding/loss_in_pipeline_split).
	if m := s.Model; m != nil && par.VirtualPipeline > 1 && par.Pipeline > 1 && m.Layers > 0 && par.Pipeline*par.VirtualPipeline > m.Layers+2 {
		p.errorf("parallelism.virtual_pipeline", "pipeline %d × virtual_pipeline %d chunks is more than model.layers %d plus the embedding and loss", par.Pipeline, par.VirtualPipeline, m.Layers)
	}
	if t := s.Training; kindOK && t != nil && par.MicroBatch > 0 && t.GlobalBatch > 0 {
		if par.MicroBatch > t.GlobalBatch {
			p.errorf("parallelism.micro_batch", "%d is more than training.global_batch %d", par.MicroBatch, t.GlobalBatch)
		} else if par.Data > 0 && t.GlobalBatch%(par.Data*par.MicroBatch) != 0 {
			p.errorf("parallelism.micro_batch", "training.global_batch %d is not a multiple of data %d × micro_batch %d", t.GlobalBatch, par.Data, par.MicroBatch)
		}
	}
	if par.Sharding != "" {
		switch sh, err := ParseSharding(string(par.Sharding)); {
		case err != nil:
			p.errorf("parallelism.sharding", "%v", err)
		case kindOK && s.Training == nil:
			p.errorf("parallelism.sharding", "for training and fine-tuning: it splits training state over the data-parallel ranks")
		default:
			s.Parallelism.Sharding = sh
		}
	}
	if par.Schedule != "" {
		switch sc, err := ParseSchedule(string(par.Schedule)); {
		case err != nil:
			p.errorf("parallelism.schedule", "%v", err)
		case kindOK && s.Training == nil:
			p.errorf("parallelism.schedule", "for training and fine-tuning: it orders the pipeline stages' micro-batches")
		case sc == ScheduleDualPipe && (par.Pipeline < 2 || par.Pipeline%2 != 0):
			p.errorf("parallelism.schedule", "dualpipe feeds the pipeline from both ends: it needs parallelism.pipeline, an even number of 2 or more")
		case sc == ScheduleDualPipe && par.VirtualPipeline > 1:
			p.errorf("parallelism.schedule", "dualpipe places two chunks on each stage itself: leave parallelism.virtual_pipeline unset or 1")
		default:
			s.Parallelism.Schedule = sc
		}
	}
	if kindOK && par.MicroBatch > 0 && s.Kind == KindImageGeneration {
		p.errorf("parallelism.micro_batch", "for training; an image pipeline's batch is image.batch")
	}
	if kindOK && s.Kind == KindImageGeneration {
		for _, f := range []struct {
			name string
			v    int
		}{{"tensor", par.Tensor}, {"pipeline", par.Pipeline}, {"expert", par.Expert}} {
			if f.v > 1 {
				p.errorf("parallelism."+f.name, "not used by kind image-generation: each GPU runs whole pipelines (data), or parallelism.context GPUs split one image (patch or sequence parallel)")
			}
		}
	}
	if kindOK && par.MicroBatch > 0 && s.Kind == KindLLMInference {
		p.errorf("parallelism.micro_batch", "for training; a serving batch is inference.max_batch")
	}
	if m := s.Model; kindOK && m != nil && !m.Arch.IsVision() {
		if par.Tensor > 0 && m.Heads > 0 && m.Heads%par.Tensor != 0 {
			p.errorf("parallelism.tensor", "%d does not divide model.heads %d", par.Tensor, m.Heads)
		}
		if par.Pipeline > 0 && m.Layers > 0 && par.Pipeline > m.Layers {
			p.errorf("parallelism.pipeline", "%d stages is more than model.layers %d", par.Pipeline, m.Layers)
		}
		if par.Expert > 0 {
			if m.Experts == 0 {
				p.errorf("parallelism.expert", "the model has no experts")
			} else if par.Expert > m.Experts {
				p.errorf("parallelism.expert", "%d is more than model.experts %d", par.Expert, m.Experts)
			}
		}
	}
	if t := s.Training; kindOK && t != nil && par.Data > 0 && t.GlobalBatch > 0 && t.GlobalBatch%par.Data != 0 {
		p.errorf("training.global_batch", "%d is not a multiple of parallelism.data %d", t.GlobalBatch, par.Data)
	}
	gpus := 1.0
	for _, d := range []int{par.Data, par.Tensor, par.Pipeline, par.Context} {
		if d > 0 {
			gpus *= float64(d)
		}
	}
	if mg := s.Constraints.MaxGPUs; mg > 0 && gpus > float64(mg) {
		p.errorf("parallelism", "data × tensor × pipeline × context = %s GPUs, more than constraints.max_gpus %d", fmtFloat(gpus), mg)
	}
}

var slugRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._+-]*$`)

func (p *checker) data(kindOK bool) {
	s, d := p.s, &p.s.Data
	p.nonNegFloats(map[string]float64{"data.dataset_gb": d.DatasetGB, "data.storage_gb_s": d.StorageGBps,
		"data.bytes_per_sample": d.BytesPerSample, "data.cpu_ms_per_sample": d.CPUMsPerSample, "data.outputs_gb": d.OutputsGB})
	loc := &d.Location
	loc.Provider = strings.ToLower(strings.TrimSpace(loc.Provider))
	loc.Region = strings.TrimSpace(loc.Region)
	if loc.Provider != "" && !slugRe.MatchString(loc.Provider) {
		p.errorf("data.location.provider", "%q is not a provider id (lowercase, e.g. aws, gcp, alibaba)", loc.Provider)
	}
	if loc.Region != "" && loc.Provider == "" {
		p.errorf("data.location.provider", "required when data.location.region is set")
	}
	if d.Storage == "" {
		d.Storage = StorageAuto
		p.def("data.storage", string(StorageAuto), "not set; the cheapest storage that keeps the GPUs fed is chosen")
	} else if st, err := ParseStorage(string(d.Storage)); err != nil {
		p.errorf("data.storage", "%v", err)
	} else {
		d.Storage = st
	}
	if d.BytesPerSample != 0 || !kindOK {
		return
	}
	switch t := s.Training; {
	case s.Kind.IsLLM() && t != nil && t.SeqLen > 0:
		d.BytesPerSample = 4 * float64(t.SeqLen)
		p.def("data.bytes_per_sample", fmtFloat(d.BytesPerSample), "not set; 4 bytes per token (pre-tokenised int32, or about 4 bytes of UTF-8 text per token) × seq_len")
	case s.Kind == KindCNNTrain && t != nil && d.DatasetGB > 0 && t.Epochs > 0 && t.Samples > 0:
		d.BytesPerSample = d.DatasetGB * 1e9 / (t.Samples / t.Epochs)
		p.def("data.bytes_per_sample", fmtFloat(math.Round(d.BytesPerSample)), "not set; dataset_gb over the images per epoch (samples / epochs)")
	case s.Kind == KindCNNTrain:
		d.BytesPerSample = 110e3
		p.def("data.bytes_per_sample", "110000", "not set; the mean size of an ImageNet JPEG (about 110 kB)")
	}
}

var versionRe = regexp.MustCompile(`^(>=|<=|==|!=|~=|>|<|=|\^|~)?\s*v?\d+(\.(\d+|\*|x))*([-+][0-9A-Za-z.]+)?$`)

func (p *checker) stack(kindOK bool) {
	s, st := p.s, &p.s.Stack
	if st.Framework == "" {
		if kindOK {
			fw, why := FrameworkPyTorch, "not set; a mainstream tuned open stack (PyTorch FSDP / torchtitan) is assumed"
			switch s.Kind {
			case KindLLMInference:
				fw, why = FrameworkVLLM, "not set; vLLM, the mainstream open serving engine, is assumed"
			case KindGeneric:
				fw, why = FrameworkOther, "not set; custom code, so no framework compatibility is checked"
			case KindImageGeneration:
				fw, why = FrameworkDiffusers, "not set; Hugging Face diffusers on eager PyTorch, the mainstream open pipeline, is assumed"
			}
			st.Framework = fw
			p.def("stack.framework", string(fw), why)
		}
	} else if fw, err := ParseFramework(string(st.Framework)); err != nil {
		p.errorf("stack.framework", "%v", err)
	} else {
		st.Framework = fw
		if kindOK && s.Kind.IsTraining() && fw.ServingOnly() {
			p.errorf("stack.framework", "%s is a serving engine; kind %s needs a training framework (pytorch, torchtitan, megatron, deepspeed, llm-foundry, jax)", fw, s.Kind)
		}
		if kindOK && s.Kind == KindImageGeneration && !contains(DiffusionEngines(), fw) {
			p.errorf("stack.framework", "%s does not run diffusion pipelines; kind image-generation needs one of %s", fw, joinEnum(DiffusionEngines()))
		}
		if kindOK && s.Kind != KindImageGeneration && fw.DiffusionOnly() {
			p.errorf("stack.framework", "%s runs diffusion pipelines; use kind image-generation, or a framework for kind %s", fw, s.Kind)
		}
		if kindOK && s.Kind == KindLLMInference && fw.TrainingOnly() {
			p.errorf("stack.framework", "%s is a training framework; kind llm-inference needs a serving engine (vllm, tensorrt-llm, sglang, tgi, lmdeploy, mindie, optimum-habana)", fw)
		}
	}
	if v := strings.TrimSpace(st.Version); v != "" {
		st.Version = v
		for _, part := range strings.Split(v, ",") {
			if !versionRe.MatchString(strings.TrimSpace(part)) {
				p.errorf("stack.version", "%q is not a version constraint (want e.g. \">=2.4\" or \">=0.6, <0.8\")", v)
				break
			}
		}
	}
	if st.Build == "" {
		st.Build = BuildUpstream
	} else if b, err := ParseBuild(string(st.Build)); err != nil {
		p.errorf("stack.build", "%v", err)
	} else {
		st.Build = b
	}
	for i, n := range st.Needs {
		n = strings.ToLower(strings.TrimSpace(n))
		st.Needs[i] = n
		if !slugRe.MatchString(n) {
			p.errorf(fmt.Sprintf("stack.needs[%d]", i), "%q is not a feature id (lowercase, e.g. flash-attention-3, fp8)", n)
		}
	}
	st.Needs = dedupe(st.Needs)
	if t := s.Training; kindOK && t != nil && t.Method == MethodQLoRA && !slices.Contains(st.Needs, NeedBitsandbytes) {
		st.Needs = append(st.Needs, NeedBitsandbytes)
		p.def("stack.needs", NeedBitsandbytes, "training.method is qlora: QLoRA keeps the frozen weights in 4-bit NF4 with bitsandbytes (Dettmers et al. 2023, arXiv:2305.14314), so the stack needs it")
	}
	st.Vendors = enumList(p, "stack.vendors", st.Vendors, ParseVendor)
}

// enumList reads every value of the list at field with parse, naming a bad
// one by its index, and drops repeats.
func enumList[T ~string](p *checker, field string, list []T, parse func(string) (T, error)) []T {
	for i, v := range list {
		if x, err := parse(string(v)); err != nil {
			p.errorf(fmt.Sprintf("%s[%d]", field, i), "%v", err)
		} else {
			list[i] = x
		}
	}
	return dedupe(list)
}

// service checks the service block, which only a service has, and fills
// its defaults: production availability, a constant day.
func (p *checker) service() {
	s := p.s
	mean, isService := s.MeanRequestsPerSecond()
	if !isService {
		if s.Service != nil || p.lines.Has("service") {
			p.errorf("service", "used only by a service (a workload with requests_per_second)")
		}
		s.Service = nil
		return
	}
	if s.Service == nil {
		s.Service = &Service{}
	}
	sv := s.Service
	if sv.Availability == "" {
		sv.Availability = AvailabilityProduction
		p.def("service.availability", string(AvailabilityProduction), "not set; a spare instance at every hour, the fleet spread over the region's zones (zone-redundant to keep serving through a zone's loss, best-effort for development)")
	} else if a, err := ParseAvailability(string(sv.Availability)); err != nil {
		p.errorf("service.availability", "%v", err)
	} else {
		sv.Availability = a
	}
	p.nonNeg("service.peak_requests_per_second", sv.PeakRequestsPerSecond)
	if sv.Traffic == "" {
		if sv.PeakRequestsPerSecond > 0 {
			sv.Traffic = TrafficDiurnal
			p.def("service.traffic", string(TrafficDiurnal), "not set; a peak rate is given")
		} else {
			sv.Traffic = TrafficConstant
			p.def("service.traffic", string(TrafficConstant), "not set; the same rate all day (set diurnal and peak_requests_per_second for a load that follows the day)")
		}
	} else if t, err := ParseTraffic(string(sv.Traffic)); err != nil {
		p.errorf("service.traffic", "%v", err)
	} else {
		sv.Traffic = t
	}
	peak := sv.PeakRequestsPerSecond
	switch {
	case sv.Traffic == TrafficConstant && peak > 0 && peak != mean:
		p.errorf("service.peak_requests_per_second", "a constant day has no peak above its mean of %s requests/s: set service.traffic to diurnal, or leave this out", fmtFloat(mean))
	case sv.Traffic == TrafficDiurnal && peak == 0:
		p.errorf("service.peak_requests_per_second", "required for a diurnal day: the busiest hour's rate, requests/s (the mean is requests_per_second, %s)", fmtFloat(mean))
	case sv.Traffic == TrafficDiurnal && peak < mean:
		p.errorf("service.peak_requests_per_second", "must be at least requests_per_second, the day's mean (%s requests/s), got %s", fmtFloat(mean), fmtFloat(peak))
	case sv.Traffic == TrafficDiurnal && peak > 2*mean:
		p.errorf("service.peak_requests_per_second", "must be at most twice the day's mean (%s requests/s), got %s: a diurnal day swings from a trough of 0 at most; for a spikier load raise requests_per_second to the busy hours' mean",
			fmtFloat(2*mean), fmtFloat(peak))
	}
	if sv.PeakHour != nil {
		p.nonNegInts(map[string]int{"service.peak_hour": *sv.PeakHour})
	} else if sv.Traffic == TrafficDiurnal {
		h := DefaultPeakHour
		sv.PeakHour = &h
		p.def("service.peak_hour", strconv.Itoa(h), "not set; the peak of a diurnal day in the early afternoon")
	}
}

func (p *checker) constraints() {
	c := &p.s.Constraints
	p.nonNeg("constraints.deadline_hours", c.DeadlineHours)
	p.nonNeg("constraints.budget_usd", c.BudgetUSD)
	p.nonNegInts(map[string]int{"constraints.max_gpus": c.MaxGPUs})
	if c.MaxGPUs == 0 && p.lines.Has("constraints.max_gpus") {
		p.errorf("constraints.max_gpus", "0 GPUs is no cluster: leave the field out for no limit of your own (recommend then considers clusters of up to 64 GPUs), or give at least 1")
	}
	if u := c.ReservedUtilization; u < 0 || u > 1 {
		p.errorf("constraints.reserved_utilization", "must be in (0, 1], got %s", fmtFloat(u))
	}
	if c.SharedGPUs && p.s.Kind.IsTraining() {
		p.errorf("constraints.shared_gpus", "a shared GPU pool prices a service's replicas per slice; %s is a training job, which needs whole GPUs", p.s.Kind)
	}
	if len(c.Pricing) == 0 {
		if p.s.IsService() {
			c.Pricing = []PricingMode{PricingOnDemand, PricingServerless}
			p.def("constraints.pricing", "on-demand, serverless", "not set; on-demand, and serverless platforms for a service (list spot, monthly, reserved-1y or reserved-3y to compare them)")
		} else {
			c.Pricing = []PricingMode{PricingOnDemand}
			p.def("constraints.pricing", string(PricingOnDemand), "not set; on-demand only (list spot, monthly, reserved-1y, reserved-3y or serverless to compare them)")
		}
	}
	c.Pricing = enumList(p, "constraints.pricing", c.Pricing, ParsePricingMode)
	if c.EngineerDayUSD == nil {
		v := DefaultEngineerDayUSD
		c.EngineerDayUSD = &v
		p.def("constraints.engineer_day_usd", fmtFloat(v), EngineerDayWhy)
	} else {
		p.nonNeg("constraints.engineer_day_usd", *c.EngineerDayUSD)
	}
	for i, pr := range c.Providers {
		pr = strings.ToLower(strings.TrimSpace(pr))
		c.Providers[i] = pr
		if !slugRe.MatchString(pr) {
			p.errorf(fmt.Sprintf("constraints.providers[%d]", i), "%q is not a provider id (lowercase, e.g. aws, gcp, alibaba)", pr)
		}
	}
	c.Providers = dedupe(c.Providers)
}

var countryRe = regexp.MustCompile(`^[A-Z]{2}$`)

func (p *checker) compliance() {
	c := &p.s.Compliance
	codes := func(field string, list []string) []string {
		for i, code := range list {
			code = strings.ToUpper(strings.TrimSpace(code))
			list[i] = code
			if !countryRe.MatchString(code) {
				p.errorf(fmt.Sprintf("%s[%d]", field, i), "%q is not an ISO 3166-1 alpha-2 country code (e.g. DE, US, CN)", code)
			}
		}
		return dedupe(list)
	}
	c.Countries = codes("compliance.countries", c.Countries)
	c.ExcludeJurisdictions = codes("compliance.exclude_jurisdictions", c.ExcludeJurisdictions)
	c.AcceleratorOrigins = codes("compliance.accelerator_origins", c.AcceleratorOrigins)
	for i, cert := range c.Certifications {
		if canon, ok := CanonicalCertification(cert); ok {
			c.Certifications[i] = canon
		} else {
			p.errorf(fmt.Sprintf("compliance.certifications[%d]", i), "unknown certification %q (known: %s)", cert, strings.Join(Certifications(), ", "))
		}
	}
	c.Certifications = dedupe(c.Certifications)
	for _, r := range []struct {
		field string
		v     *Requirement
	}{{"compliance.confidential_computing", &c.ConfidentialComputing}, {"compliance.customer_managed_keys", &c.CustomerManagedKeys}, {"compliance.secure_boot", &c.SecureBoot}} {
		if *r.v == "" {
			*r.v = NotNeeded
			p.def(r.field, string(NotNeeded), "not set; not required")
		} else if req, err := ParseRequirement(string(*r.v)); err != nil {
			p.errorf(r.field, "%v", err)
		} else {
			*r.v = req
		}
	}
	if c.MLPSLevel < 0 || c.MLPSLevel > 5 {
		p.errorf("compliance.mlps_level", "want an MLPS 2.0 level from 1 to 5 (0 or absent: none asked), got %d", c.MLPSLevel)
	}
	c.Operators = enumList(p, "compliance.operators", c.Operators, ParseOperator)
	if len(c.Operators) == 0 {
		// Who runs the machine matters as soon as the data or the users
		// do: an independent host answers to no one the workload
		// contracts.
		why := ""
		switch {
		case c.Asks():
			why = "not set; with compliance requirements, only machines that the provider or a partner it contracts runs (list marketplace or community to accept independent hosts)"
		case p.s.Production():
			why = "not set; a production service runs only on machines that the provider or a partner it contracts runs (list marketplace or community to accept independent hosts, or set service.availability: best-effort)"
		}
		if why != "" {
			c.Operators = AccountableOperators()
			p.def("compliance.operators", joinEnum(c.Operators), why)
		}
	}
}

// certifications are the canonical names compliance.certifications accepts.
var certifications = []string{"ISO27001", "ISO27017", "ISO27018", "ISO27701", "SOC1", "SOC2", "SOC3",
	"PCI-DSS", "HIPAA", "HITRUST", "FedRAMP", "FedRAMP-High", "C5", "HDS", "ENS", "TISAX", "IRAP",
	"ISMAP", "CSA-STAR", "MLPS-L2", "MLPS-L3", "MLPS-L4", "MTCS", "K-ISMS", "ISO42001", "TRUCS"}

var certificationAliases = map[string]string{
	"MLPS3": "MLPS-L3", "MLPSLEVEL3": "MLPS-L3", "DENGBAO3": "MLPS-L3", "BSIC5": "C5",
	"MLPS2": "MLPS-L2", "MLPSLEVEL2": "MLPS-L2", "DENGBAO2": "MLPS-L2", "MLPS4": "MLPS-L4", "MLPSLEVEL4": "MLPS-L4", "DENGBAO4": "MLPS-L4",
	"SOC2TYPEII": "SOC2", "SOC2TYPE2": "SOC2", "FEDRAMPMODERATE": "FedRAMP", "ENSHIGH": "ENS",
	"CSASTARLEVEL2": "CSA-STAR", "CSASTARGOLD": "CSA-STAR", "PCI": "PCI-DSS", "KISMSP": "K-ISMS",
	"TRUSTEDCLOUD": "TRUCS", "KEXINYUN": "TRUCS",
}

// certificationNames are names of certifications written in a script that
// certKey drops.
var certificationNames = map[string]string{"可信云": "TRUCS", "等保二级": "MLPS-L2", "等保三级": "MLPS-L3", "等保四级": "MLPS-L4"}

// Certifications lists the canonical names of the certifications that
// compliance.certifications accepts (matched ignoring case and separators,
// with aliases such as "ISO/IEC 27001", "SOC 2 Type II", "MLPS3").
func Certifications() []string { return append([]string(nil), certifications...) }

func certKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return strings.Replace(b.String(), "ISOIEC", "ISO", 1)
}

// CanonicalCertification returns the canonical name of a certification
// written any common way ("ISO/IEC 27001", "SOC 2 Type II", "BSI C5",
// "MLPS3"), and whether it is one gpupick knows.
func CanonicalCertification(s string) (string, bool) {
	if c, ok := certificationNames[strings.TrimSpace(s)]; ok {
		return c, true
	}
	k := certKey(s)
	if k == "" {
		return "", false
	}
	for _, c := range certifications {
		if certKey(c) == k {
			return c, true
		}
	}
	c, ok := certificationAliases[k]
	return c, ok
}

// nonNeg reports a NaN, an infinity or a negative number at field.
func (p *checker) nonNeg(field string, v float64) {
	switch {
	case !finite(v):
		p.errorf(field, "must be a finite number, got %v", v)
	case v < 0:
		p.errorf(field, "must be >= 0, got %s", fmtFloat(v))
	default:
		p.inRange(field, v)
	}
}

// nonNegFloats calls nonNeg for every field, in field order.
func (p *checker) nonNegFloats(fields map[string]float64) {
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		p.nonNeg(f, fields[f])
	}
}

// nonNegInts reports every negative value, in field order.
func (p *checker) nonNegInts(fields map[string]int) {
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		if v := fields[f]; v < 0 {
			p.errorf(f, "must be >= 0, got %d", v)
		} else {
			p.inRange(f, float64(v))
		}
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func round(v float64, digits int) float64 {
	f := math.Pow(10, float64(digits))
	return math.Round(v*f) / f
}

func joinEnum[T ~string](list []T) string {
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

func dedupe[T comparable](list []T) []T {
	if len(list) < 2 {
		return list
	}
	seen := make(map[T]bool, len(list))
	out := list[:0]
	for _, v := range list {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// fileStem is the base name of a path without its extension ("" for "").
func fileStem(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.LastIndex(name, "."); i > 0 {
		name = name[:i]
	}
	return name
}
