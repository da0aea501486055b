package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/compliance"
	message "github.com/gpupick/gpupick/internal/msg"
)

// TestTr: a fixed text is looked up whole; nothing else is translated.
func TestTr(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"glossary term", "memory-bandwidth", "显存带宽"},
		{"percent in a plain literal", "not set; GPU spot is typically 30-60% off on-demand", "未设置；GPU 竞价实例通常比按需便宜 30-60%"},
		{"a piece with its leading space", " memory-bandwidth", "显存带宽"},
		{"unknown text stays English", "something the catalog never saw", "something the catalog never saw"},
		{"a finished sentence is not parsed",
			fmt.Sprintf("compute-bound: the GPUs spend %.0f%% of each step computing; communication is mostly hidden.", 93.0),
			"compute-bound: the GPUs spend 93% of each step computing; communication is mostly hidden."},
		{"a format is not a text", "%s: %s", "%s: %s"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tr(Chinese, tt.in); got != tt.want {
				t.Errorf("Tr(zh, %q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if got := Tr(English, tt.in); got != tt.in {
				t.Errorf("Tr(en, %q) = %q, want it unchanged", tt.in, got)
			}
		})
	}
}

// renderCases are messages as the domain packages build them, with the
// Chinese each must render to: the sentences the reverse matcher used to
// recover from finished text, now rendered from their keys and arguments.
var renderCases = []struct {
	name string
	m    message.Msg
	want string
}{
	{"a number", message.New("compute-bound: the GPUs spend %.0f%% of each step computing; communication is mostly hidden.", 93.0),
		"计算受限：GPU 每步有 93% 的时间在计算；通信基本被掩盖。"},
	{"arguments reordered", message.New("%s local NVMe read speed unpublished: assumed %.1f GB/s for %.1f TB", "aws/p5.48xlarge", 45.6, 30.4),
		"aws/p5.48xlarge 未公布本地 NVMe 读取速度：假设 30.4 TB 的读取速度为 45.6 GB/s"},
	{"a string argument that is a term", message.New("spot: %.2g interruptions per instance-hour (%s); checkpoint every %.2f h (Young/Daly), %.2f h lost per interruption on average", 0.05, "AWS Spot Advisor", 0.4, 0.2),
		"竞价实例：每实例小时 0.05 次中断（AWS Spot Advisor）；每 0.40 小时保存一次检查点（Young/Daly 公式），每次中断平均损失 0.20 小时"},
	{"a nested message and named string types", message.New("preferred %s is %s: %s", "secure_boot", compliance.Unknown,
		message.New("The catalog has no row for %s, so secure boot is unknown; ask the provider.", "X Cloud")),
		"偏好要求 安全启动 未知：目录中没有 X Cloud 的记录，不知道是否支持安全启动；请咨询云厂商。"},
	{"optional parts holding the rest", message.New("data %d x tensor %d x pipeline %d%s", 8, 2, 4,
		message.New(" (%d chunks per stage, interleaved)%s", 2, message.New(", expert %d%s", 8,
			message.New(", micro-batch %d x %d accumulation steps, sharding %s, activation checkpointing %s", 1, 16, "zero1", "selective")))),
		"数据并行 8 × 张量并行 2 × 流水线并行 4（每阶段 2 块，交错调度），专家并行 8，微批 1 × 16 个累积步，分片 zero1，激活检查点 选择性"},
	{"hints joined with ; or", message.New("%s; or %s", message.New("QLoRA stores the frozen weights in 4 bits").Also(message.New("full activation checkpointing cuts activation memory to the layer inputs")), message.New("a GPU with more memory")),
		"QLoRA 以 4 比特存储冻结权重；完全激活检查点把激活显存降到只保存每层输入；或换用显存更大的 GPU"},
	{"a phrase made a sentence", message.New("a GPU with more memory").Stop(), "换用显存更大的 GPU。"},
	{"sentences in a row", message.New("With %d GPUs in one VM, CC runs in protected-PCIe (multi-GPU) mode, which needs an 8-GPU HGX system with all GPUs given to one confidential VM; mixed modes are unsupported.", 8).
		Then(message.New("Hopper CC needs driver R550 (550.54.15, CUDA 12.4) or later.")),
		"一台虚拟机有 8 块 GPU 时，CC 以受保护 PCIe（多 GPU）模式运行，需要一台 8 卡 HGX 系统且所有 GPU 分配给同一台机密虚拟机；不支持混合模式。Hopper CC 需要驱动 R550（550.54.15，CUDA 12.4）或更高版本。"},
	{"a quoted argument", message.New("stack.version %q allows no release the tables know; assumed %s", "==1.0", "2.4"),
		`stack.version "==1.0" 不包含效率表中的任何版本；按 2.4 估算`},
	{"a joiner with a term", message.New("%s: %s", "aws", "do not fit in memory"), "aws：显存放不下"},
	{"a data phrase as an argument", message.New("%s runs on %s through %s; cost: %s", "vLLM", "Inferentia2", "AWS Neuron (NxD Inference)", "models must be compiled for Neuron with fixed batch and sequence sizes"),
		"vLLM 通过 AWS Neuron（NxD Inference）在 Inferentia2 上运行；代价：模型必须按固定的批大小和序列长度为 Neuron 编译"},
	{"an abbreviation inside an argument", message.New("Region %s is in %s%s, outside the allowed %s; choose a region of %s in one of those.", "ny2", "New York, US", "", "EU", "DigitalOcean (incl. Paperspace)"),
		"区域 ny2 位于 New York, US，不在允许的 EU 之内；请选择 DigitalOcean (incl. Paperspace) 在这些地区的区域。"},
	{"a default keeps the field's value as written (%#s)", message.New("%s = %s: %s", "inference.batching", "continuous", "not set; continuous (in-flight) batching, as every current serving engine does"),
		"inference.batching = continuous：未设置；连续（in-flight）批处理，当前所有推理引擎都如此"},
	{"a key the catalog lacks keeps its English frame", message.New("%s never seen: %d", "memory-bandwidth", 3), "显存带宽 never seen: 3"},
	{"the empty message", message.Msg{}, ""},
}

func TestRender(t *testing.T) {
	for _, tt := range renderCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render(Chinese, tt.m); got != tt.want {
				t.Errorf("Render(zh, %q)\n got %q\nwant %q", tt.m.String(), got, tt.want)
			}
			if got := Render(English, tt.m); got != tt.m.String() {
				t.Errorf("Render(en) = %q, want the English %q", got, tt.m.String())
			}
		})
	}
}

// trJoined is an exclusion's reason as app builds it: the failed
// requirements, each "NAME VERDICT: REASON", as sentences in a row.
var trJoined = message.Join(message.Sentences, []message.Msg{
	message.New("%s %s: %s", "residency", compliance.Fail, message.New("Region %s is in %s%s, outside the allowed %s; choose a region of %s in one of those.", "cn-beijing", "Beijing, CN", "", "DE, FR", "Alibaba Cloud")),
	message.New("%s %s: %s", compliance.NameMsg("certification:C5"), compliance.Unknown, message.New("The catalog does not list %s for %s: it may hold it without our knowing. Ask the provider for the %s certificate and its scope (services and regions), then add it to providers.yaml with its source.", "C5", "Alibaba Cloud", "C5")),
	message.New("%s %s: %s", "customer_managed_keys", compliance.Unknown, message.New("The catalog does not know whether %s offers customer-managed keys; ask the provider for CMEK/BYOK on GPU instance disks, or encrypt the data yourself.", "Alibaba Cloud")),
})

func TestRenderJoined(t *testing.T) {
	want := "数据驻留 不满足：区域 cn-beijing 位于 Beijing, CN，不在允许的 DE, FR 之内；请选择 Alibaba Cloud 在这些地区的区域。" +
		"认证 C5 未知：目录中没有记录 Alibaba Cloud 持有 C5：它可能持有而我们不知道。请向云厂商索取 C5 证书及其适用范围（服务和区域），再连同来源加入 providers.yaml。" +
		"客户管理密钥 未知：目录不知道 Alibaba Cloud 是否支持客户管理密钥；请向云厂商确认 GPU 实例磁盘是否支持 CMEK/BYOK，或自行加密数据。"
	if got := Render(Chinese, trJoined); got != want {
		t.Errorf("Render(zh, joined)\n got %q\nwant %q", got, want)
	}
}

// TestRenderEveryEntry renders every sentence of the catalog with sample
// arguments: none writes a bad verb, and none is left in English.
func TestRenderEveryEntry(t *testing.T) {
	n := 0
	for _, e := range zhEntries {
		if e.Ctx != "" {
			continue
		}
		args := phraseArgs(e.ID)
		m := message.New(e.ID, args...)
		zh := Render(Chinese, m)
		if strings.Contains(zh, "%!") || strings.Contains(m.String(), "%!") {
			t.Errorf("locales/zh.po:%d: %q renders %q", e.Line, e.ID, zh)
		}
		if zh == m.String() && strings.ContainsFunc(e.Str, isHan) {
			t.Errorf("locales/zh.po:%d: %q stays English", e.Line, e.ID)
		}
		n++
	}
	if n < 1000 {
		t.Errorf("only %d sentences in the catalog", n)
	}
}

func isHan(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }

// BenchmarkRender is a response's sentences rendered in Chinese: a short
// one, one with a nested message, and the long joined reason.
func BenchmarkRender(b *testing.B) {
	ms := []message.Msg{renderCases[0].m, renderCases[3].m, renderCases[4].m, trJoined}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Render(Chinese, ms[i%len(ms)])
	}
}

// FuzzTr: Tr takes whatever a domain package or a user's file puts in a
// text; it must not panic, must leave English alone, and must keep a text
// the catalog does not have whole as it is.
func FuzzTr(f *testing.F) {
	f.Add("memory-bandwidth")
	f.Add(trJoined.String())
	f.Add("%s: %s. . .: ;; (( ))")
	f.Add(`stack.version "\"" allows no release the tables know; assumed 2.4`)
	f.Fuzz(func(t *testing.T, s string) {
		zh := Tr(Chinese, s)
		if Tr(English, s) != s {
			t.Fatalf("Tr(en, %q) changed it", s)
		}
		if zh != s && !Translated(s) && !Translated(strings.TrimSpace(s)) {
			t.Fatalf("Tr(zh, %q) = %q, though the catalog does not have it", s, zh)
		}
	})
}

// TestGroupedPreferenceNamesItsRequirement: a preference the catalog
// cannot judge on several offers is one line that names the requirement
// in the reader's language (not its key, "confidential_computing").
func TestGroupedPreferenceNamesItsRequirement(t *testing.T) {
	pref := func(offer string) advisor.Warning {
		return advisor.Warning{Code: advisor.WarnPreferred, Args: []any{message.New("preferred %s is %s: %s",
			compliance.NameMsg("confidential_computing"), compliance.Unknown,
			message.New("The catalog does not know whether %s is sold as a confidential GPU VM; ask the provider for a confidential GPU VM with attestation before counting on it.", offer))}}
	}
	rows := []shownRow{
		{c: &advisor.Candidate{Rank: 1, Warnings: []advisor.Warning{pref("a/x")}}},
		{c: &advisor.Candidate{Rank: 2, Warnings: []advisor.Warning{pref("b/y")}}},
	}
	for l, want := range map[Lang]string{Chinese: "偏好要求 机密计算 未知", English: "preferred confidential_computing is unknown"} {
		g := groupWarnings(rows, l)
		if len(g) != 1 || !strings.Contains(g[0].text, want) || len(g[0].ranks) != 2 {
			t.Errorf("%v: %+v, want one line saying %q for #1 and #2", l, g, want)
		}
	}
}

// TestVerdictTextOfAnUnknownSentence: a verdict the catalog does not have
// (a fixed text without arguments, or a finished text) keeps its English
// after the bottleneck's Chinese name, and never breaks the rendering.
func TestVerdictTextOfAnUnknownSentence(t *testing.T) {
	for _, m := range []message.Msg{message.New("a verdict the catalog never saw."), message.Text("a finished verdict never seen.")} {
		got := VerdictText(Chinese, "compute", m)
		if !strings.Contains(got, m.String()) || !strings.ContainsFunc(got, isHan) {
			t.Errorf("VerdictText(zh, %q) = %q: want the bottleneck in Chinese and the sentence kept", m.String(), got)
		}
	}
}
