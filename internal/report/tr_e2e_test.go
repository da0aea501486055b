package report_test

import (
	"bytes"
	"encoding/json"
	"github.com/gpupick/gpupick/internal/perf"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/cli"
)

// The end-to-end check that Chinese is complete: every example in
// examples/ goes through recommend (text and markdown), predict, cost and
// check on its first candidate, and the service files through simulate,
// all with --lang zh and the embedded catalog, in process. The output may
// hold no English word but names: ids (offers, providers, regions, GPUs,
// fields, flags), units and product names (trZhAllowed).

// trZhAllowed are the words a Chinese output may keep: units, product and
// framework names (and the examples' stack.needs ids, dali and optix; the
// diffusion engines' names and ids, ONNX Runtime, Flax, Stable Diffusion
// and the sdxl preset; imagegen, the regime id the intervals name; the
// compliance.operators values a sentence tells the reader to list; Llama,
// a model family a published result names),
// proper nouns of the hardware and the law, and the command words of
// gpupick itself. Catalog names (providers, GPUs) are
// added from the catalog.
var trZhAllowed = strings.Fields(`
	token tokens vCPU vCPUs GB GiB TB MB kB TFLOPS PFLOPS FLOP FLOPS GFLOP GMAC MAC Gbit USD CNY
	gpupick recommend predict cost check probe simulate export calibrate explain
	vLLM vllm PyTorch pytorch CUDA ROCm TensorFlow JAX Megatron Core DeepSpeed SGLang TGI LMDeploy MindIE
	FlashAttention FlashInfer Triton TransformerEngine Transformer Engine NCCL RCCL HCCL XLA Pallas cuDNN cuBLAS
	Hopper Blackwell Ampere Ada Volta Turing Gaudi Ascend Neuron Trainium Inferentia Intel AMD NVIDIA Google Azure
	Nitro HGX TDX SEV SNP TPM TEE CC PCIe NVMe NVLink NVSwitch nvswitch nvlink InfiniBand RoCE EFA GPUDirect TCPX Ethernet Infinity Fabric Composable Kernel
	Hugging Face Trainer torchtune torchtitan FSDP ZeRO LoRA QLoRA MoE SwiGLU MLP ImageNet ResNet JPEG DALI
	Young Daly Little MLPerf Knative KEDA HPA Kubernetes Ray Serve RunPod Cloud Run SkyPilot Karpenter
	fp8 fp16 bf16 fp32 tf32 int8 int4 fp4 eager fsdp zero1 zero2 zero3 ddp hpu npu xla
	Spot Advisor Optimum Habana Neuron NxD DLC DLAMI JetStream MaxText MindSpeed torch_npu
	bitsandbytes Inference Graphs ms neuron cuda rocm cann gaudi tpu auto generic
	deepspeed megatron torchtitan sglang tgi lmdeploy mindie jax tensorflow
	dali optix
	Llama
	diffusers tensorrt onnxruntime openvino iree migraphx Runtime Flax Stable Diffusion sdxl imagegen
	marketplace community
	`)

// Every surface is strict: a renderer that prints a domain sentence
// without report.Tr fails here. trZhPending lists surfaces (by command,
// for every example) whose renderer is still being finished (issue 16);
// each logs its English words instead of failing, and leaves this list as
// soon as it is done.
var trZhPending = map[string]string{}

func TestChineseOutputsHaveNoEnglish(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example through the CLI")
	}
	allowed := trAllowedWords(t)

	examples, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, ex := range examples {
		name := strings.TrimSuffix(filepath.Base(ex), ".yaml")
		if strings.HasPrefix(name, "service-") {
			zhSurface(t, allowed, name+"/simulate", "simulate", "-f", ex, "--lang", "zh")
			continue
		}
		zhSurface(t, allowed, name+"/recommend", "recommend", "-f", ex, "--lang", "zh")
		zhSurface(t, allowed, name+"/recommend-md", "recommend", "-f", ex, "--lang", "zh", "-o", "markdown")
		offer := firstOffer(t, ex)
		if offer == "" {
			continue // nothing qualifies: the recommendation said why, in Chinese
		}
		zhSurface(t, allowed, name+"/recommend-html", "recommend", "-f", ex, "--lang", "zh", "-o", "html")
		zhSurface(t, allowed, name+"/explain", "recommend", "-f", ex, "--lang", "zh", "--explain", offer)
		zhSurface(t, allowed, name+"/predict", "predict", "-f", ex, "--offer", offer, "--lang", "zh")
		zhSurface(t, allowed, name+"/cost", "cost", "-f", ex, "--offer", offer, "--lang", "zh")
		zhSurface(t, allowed, name+"/check", "check", "-f", ex, "--offer", offer, "--lang", "zh")
	}
}

// TestChineseValidationMessages: a file with mistakes is answered in
// Chinese, its file, line and field kept.
func TestChineseValidationMessages(t *testing.T) {
	allowed := map[string]bool{}
	for _, w := range trZhAllowed {
		allowed[w] = true
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"bad-workload", []string{"predict", "-f", "../cli/testdata/bad-workload.yaml", "--gpu", "h100-sxm", "--lang", "zh"}},
		{"bad-service", []string{"simulate", "-f", "../cli/testdata/bad-service.yaml", "--lang", "zh"}},
		{"service-as-workload", []string{"recommend", "-f", "../../examples/service-model.yaml", "--lang", "zh"}},
		{"impossible", []string{"recommend", "-f", "../cli/testdata/impossible.yaml", "--lang", "zh"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tt.args...)
			if code == 0 {
				t.Fatalf("exit 0 for a bad file")
			}
			// Keys the user wrote (and the known keys offered) are ids.
			if words := englishWords(knownKeys.ReplaceAllString(errOut, ""), allowed); len(words) > 0 {
				t.Errorf("%d English words:\n%s", len(words), strings.Join(words, "\n"))
			}
		})
	}
}

// fieldValue is a field path set to a value, as a default is shown.
var fieldValue = regexp.MustCompile(`\b[a-z_]+(\.[a-z_\[\]0-9]+)+ = [\w.-]+`)

// knownKeys is the list of keys a message offers, and the key a line names.
var knownKeys = regexp.MustCompile(`已知的键：[^）]*|:\d+: [\w.\[\]]+:`)

// trAllowedWords are the words a Chinese answer may keep: trZhAllowed,
// and the names of the catalog (providers, GPUs, regions and cities,
// instance types).
func trAllowedWords(t *testing.T) map[string]bool {
	t.Helper()
	allowed := map[string]bool{}
	for _, w := range trZhAllowed {
		allowed[w] = true
	}
	cat := catalogtest.Embedded(t)
	letters := func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }
	for _, p := range cat.Providers {
		for _, w := range strings.FieldsFunc(p.ID+" "+p.Name, letters) {
			allowed[w] = true
		}
		// A certificate's scope is quoted as the provider states it.
		for _, c := range p.Certifications {
			for _, w := range strings.FieldsFunc(c.Scope, letters) {
				allowed[w] = true
			}
		}
	}
	// Published results name their models as their sources do.
	for _, r := range perf.EvidenceRows() {
		for _, w := range strings.FieldsFunc(r.Model, letters) {
			allowed[w] = true
		}
	}
	for _, a := range cat.Accelerators {
		for _, w := range strings.FieldsFunc(a.ID+" "+a.Name+" "+a.Vendor+" "+a.Architecture, letters) {
			allowed[w] = true
		}
	}
	// Place names are the catalog's, in English as the providers write
	// them; instance types are ids even when they have spaces.
	for _, r := range cat.Regions {
		for _, w := range strings.FieldsFunc(r.ID+" "+r.City, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
			allowed[w] = true
		}
	}
	for _, o := range cat.Offers {
		for _, w := range strings.FieldsFunc(o.InstanceType, func(r rune) bool { return !unicode.IsLetter(r) }) {
			allowed[w] = true
		}
	}

	return allowed
}

var fixedNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// runCLI runs one gpupick command in process with the embedded catalog,
// a fixed clock and no store.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := cli.NewEnv(&out, &errb)
	e.Now = func() time.Time { return fixedNow }
	db := filepath.Join(t.TempDir(), "no-store.db")
	e.Getenv = func(k string) string {
		if k == "GPUPICK_DB" {
			return db // never the user's own store
		}
		return ""
	}
	code = cli.Execute(e, args)
	return out.String(), errb.String(), code
}

// firstOffer is the top candidate's offer, from the JSON (which is in
// English by design).
func firstOffer(t *testing.T, file string) string {
	t.Helper()
	out, _, code := runCLI(t, "recommend", "-f", file, "-o", "json")
	if code != 0 {
		return ""
	}
	var doc struct {
		Candidates []struct {
			Offer string `json:"offer"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Candidates) == 0 {
		return ""
	}
	return doc.Candidates[0].Offer
}

// zhSurface runs a command and fails on each English word of its output
// (stdout and stderr) that is not allowed.
func zhSurface(t *testing.T, allowed map[string]bool, surface string, args ...string) {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != 0 && code != 1 {
		t.Errorf("%s: exit %d: %s", surface, code, errOut)
		return
	}
	words := englishWords(out+"\n"+errOut, allowed)
	if len(words) == 0 {
		return
	}
	report := t.Errorf
	if why, ok := trZhPending[surface[strings.LastIndex(surface, "/")+1:]]; ok {
		report = t.Logf
		t.Logf("%s is pending (%s)", surface, why)
	}
	report("%s: %d English words in --lang zh output:\n%s", surface, len(words), strings.Join(words, "\n"))
}

// englishWords lists, once each with the first line it is on, the words of
// s that read as English: a run of letters that is a plain lowercase word
// or a capitalised one ("the", "Fix"), not an id (with digits, dots,
// slashes, dashes, underscores), not an acronym (GPU, MFU, NVMe), not inside
// `code` or after "--", and not allowed.
func englishWords(s string, allowed map[string]bool) []string {
	s = styleScript.ReplaceAllString(s, "")
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, f := range strings.FieldsFunc(stripCode(line), func(r rune) bool {
			return unicode.IsSpace(r) || r > unicode.MaxASCII && !unicode.IsLetter(r) || unicode.Is(unicode.Han, r) ||
				strings.ContainsRune(`,;:()[]{}"'!?*|<>`, r)
		}) {
			w := strings.Trim(f, ".")
			if !proseWord(w) || allowed[w] || allowed[strings.ToLower(w)] || seen[w] {
				continue
			}
			seen[w] = true
			out = append(out, w+"\t"+strings.TrimSpace(line))
		}
	}
	sort.Strings(out)
	return out
}

// proseWord: letters only, at least two, lowercase after the first.
func proseWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i, r := range w {
		if r > unicode.MaxASCII || !unicode.IsLetter(r) {
			return false
		}
		if i > 0 && unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// styleScript is the CSS and script of an HTML report: code, not prose.
var styleScript = regexp.MustCompile(`(?s)<style.*?</style>|<script.*?</script>`)

// funcCall is a function named in prose: generate(), torch.compile().
var funcCall = regexp.MustCompile(`[\w.]+\(\)`)

// stripCode drops what is not prose: `code spans`, <tags>, URLs,
// "quoted" ids, commands ("python -c ..."), command-line flags with their
// values, and source citations (titles and paths of English documents,
// after 来源 or "source"), which are quoted as published.
func stripCode(line string) string {
	for _, cut := range []string{"来源", "source ", "python -c"} {
		if i := strings.Index(line, cut); i >= 0 {
			line = line[:i]
		}
	}
	line = funcCall.ReplaceAllString(line, "")
	// A field and the value it defaults to, as the file would spell it
	// ("inference.batching = continuous"): both are ids.
	line = fieldValue.ReplaceAllString(line, "")
	var b strings.Builder
	inCode, inTag, inQuote := false, false, false
	for _, r := range line {
		switch {
		case r == '`' && !inTag:
			inCode = !inCode
			continue
		case r == '<' && !inCode:
			inTag = true
			continue
		case r == '>' && inTag:
			inTag = false
			continue
		case r == '"' && !inCode && !inTag:
			inQuote = !inQuote
			continue
		}
		if !inCode && !inTag && !inQuote {
			b.WriteRune(r)
		}
	}
	fields := strings.Fields(b.String())
	for i, f := range fields {
		switch {
		case strings.Contains(f, "://"):
			fields[i] = ""
		case f == "-o" || f == "-f":
			fields[i] = ""
			if i+1 < len(fields) {
				fields[i+1] = ""
			}
		case strings.HasPrefix(f, "--") || strings.HasPrefix(f, "-") && len(f) == 2:
			fields[i] = ""
			if i+1 < len(fields) && strings.ToUpper(fields[i+1]) == fields[i+1] {
				fields[i+1] = "" // FILE, REPORT, DIR
			}
		}
	}
	return strings.Join(fields, " ")
}
