package report

import (
	"fmt"
	"strings"
	"testing"
)

func TestTr(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"glossary term", "memory-bandwidth", "显存带宽"},
		{"sentence with a number",
			fmt.Sprintf("compute-bound: the GPUs spend %.0f%% of each step computing; communication is mostly hidden.", 93.0),
			"计算受限：GPU 每步有 93% 的时间在计算；通信基本被掩盖。"},
		{"arguments reordered",
			fmt.Sprintf("%s local NVMe read speed unpublished: assumed %.1f GB/s for %.1f TB", "aws/p5.48xlarge", 45.6, 30.4),
			"aws/p5.48xlarge 未公布本地 NVMe 读取速度：假设 30.4 TB 的读取速度为 45.6 GB/s"},
		{"a captured term is translated",
			fmt.Sprintf("spot: %.2g interruptions per instance-hour (%s); checkpoint every %.2f h (Young/Daly), %.2f h lost per interruption on average", 0.05, "AWS Spot Advisor", 0.4, 0.2),
			"竞价实例：每实例小时 0.05 次中断（AWS Spot Advisor）；每 0.40 小时保存一次检查点（Young/Daly 公式），每次中断平均损失 0.20 小时"},
		{"a captured sentence is translated",
			"preferred secure_boot is unknown: The catalog has no row for X Cloud, so secure boot is unknown; ask the provider.",
			"偏好要求 安全启动 未知：目录中没有 X Cloud 的记录，不知道是否支持安全启动；请咨询云厂商。"},
		{"pieces appended to a layout",
			"data 8 x tensor 2 x pipeline 4 (2 chunks per stage, interleaved), expert 8, micro-batch 1 x 16 accumulation steps, sharding zero1, activation checkpointing selective",
			"数据并行 8 × 张量并行 2 × 流水线并行 4（每阶段 2 块，交错调度），专家并行 8，微批 1 × 16 个累积步，分片 zero1，激活检查点 选择性"},
		{"fit hints joined with ; or",
			"QLoRA stores the frozen weights in 4 bits; full activation checkpointing cuts activation memory to the layer inputs; or a GPU with more memory",
			"QLoRA 以 4 比特存储冻结权重；完全激活检查点把激活显存降到只保存每层输入；或换用显存更大的 GPU"},
		{"sentences appended to one another",
			"With 8 GPUs in one VM, CC runs in protected-PCIe (multi-GPU) mode, which needs an 8-GPU HGX system with all GPUs given to one confidential VM; mixed modes are unsupported. Hopper CC needs driver R550 (550.54.15, CUDA 12.4) or later.",
			"一台虚拟机有 8 块 GPU 时，CC 以受保护 PCIe（多 GPU）模式运行，需要一台 8 卡 HGX 系统且所有 GPU 分配给同一台机密虚拟机；不支持混合模式。Hopper CC 需要驱动 R550（550.54.15，CUDA 12.4）或更高版本。"},
		{"a quoted argument", `stack.version "==1.0" allows no release the tables know; assumed 2.4`,
			`stack.version "==1.0" 不包含效率表中的任何版本；按 2.4 估算`},
		{"percent in a plain literal", "not set; GPU spot is typically 30-60% off on-demand", "未设置；GPU 竞价实例通常比按需便宜 30-60%"},
		{"unknown sentence stays English", "something the catalog never saw", "something the catalog never saw"},
		{"a splitter alone does not translate", "foo: bar", "foo: bar"},
		{"a splitter with a known part", "aws: do not fit in memory", "aws：显存放不下"},
		{"the cut that leaves the least English", "parallel layout chosen from 12 evaluated: data 8 x tensor 1 x pipeline 1, micro-batch 8 x 1 accumulation steps, sharding fsdp, activation checkpointing full",
			"从 12 种候选中选出的并行布局：数据并行 8 × 张量并行 1 × 流水线并行 1，微批 8 × 1 个累积步，分片 fsdp，激活检查点 完全"},
		{"no space beside full-width punctuation", "vLLM runs on Inferentia2 through AWS Neuron (NxD Inference); cost: models must be compiled for Neuron with fixed batch and sequence sizes",
			"vLLM 通过 AWS Neuron（NxD Inference）在 Inferentia2 上运行；代价：模型必须按固定的批大小和序列长度为 Neuron 编译"},
		{"an abbreviation inside a capture", "Region ny2 is in New York, US, outside the allowed EU; choose a region of DigitalOcean (incl. Paperspace) in one of those.",
			"区域 ny2 位于 New York, US，不在允许的 EU 之内；请选择 DigitalOcean (incl. Paperspace) 在这些地区的区域。"},
		{"a default keeps the field's value as written", "inference.batching = continuous: not set; continuous (in-flight) batching, as every current serving engine does",
			"inference.batching = continuous：未设置；连续（in-flight）批处理，当前所有推理引擎都如此"},
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

// TestCatalogCompiles checks every entry: its verbs are ones the matcher
// knows, and the Chinese uses each argument of the English exactly as
// the catalog promises (none dropped, none out of range).
func TestCatalogCompiles(t *testing.T) {
	for i, c := range trCatalogs() {
		for en, zh := range c {
			if _, err := compileCatalog(map[string]string{en: zh}); err != nil {
				t.Errorf("catalog %d: %v", i, err)
			}
			if strings.TrimSpace(zh) == "" {
				t.Errorf("catalog %d: %q has no Chinese", i, en)
			}
		}
	}
}

// TestCatalogKeysUnique: the same English in two maps would make one of
// them dead, and which one wins would depend on the order of the maps.
func TestCatalogKeysUnique(t *testing.T) {
	seen := map[string]int{}
	for i, c := range trCatalogs() {
		for en, zh := range c {
			if j, ok := seen[en]; ok {
				t.Errorf("%q is in catalogs %d and %d (%q)", en, j, i, zh)
			}
			seen[en] = i
		}
	}
}

// TestTrRoundTrip formats every template with sample arguments and checks
// that Tr finds it: a template the matcher cannot match (its index word
// wrongly chosen, a verb pattern too narrow) shows up here.
func TestTrRoundTrip(t *testing.T) {
	m := matcher()
	for en, tpl := range m.templates {
		verbs, _ := parseFormat(en)
		args := make([]any, len(verbs))
		for i, v := range verbs {
			switch v.verb {
			case 'd':
				args[i] = 7
			case 'f', 'g', 'e':
				args[i] = 2.5
			case 'q':
				args[i] = "x1"
			default:
				args[i] = "zq" + fmt.Sprint(i)
			}
		}
		s := fmt.Sprintf(en, args...)
		if tpl.splitter {
			continue
		}
		if _, ok := m.translate(s, 0); !ok {
			t.Errorf("%q formatted as %q is not found", en, s)
		}
	}
}

// trBenchSentences are sentences of a recommendation's response, the short
// and the long, one unknown to the catalog.
var trBenchSentences = []string{
	"compute-bound: the GPUs spend 93% of each step computing; communication is mostly hidden.",
	"aws/p5.48xlarge local NVMe read speed unpublished: assumed 45.6 GB/s for 30.4 TB",
	"data.bytes_per_sample = 16384: not set; 4 bytes per token (pre-tokenised int32, or about 4 bytes of UTF-8 text per token) × seq_len",
	"preferred confidential_computing is unknown: The catalog does not know whether lambda/gpu_2x_b200_sxm6 is sold as a confidential GPU VM; ask the provider for a confidential GPU VM with attestation before counting on it.",
	"4351 candidates evaluated, 4351 excluded: 3048 fail a compliance requirement, 994 use accelerator vendors not accepted, 309 are incompatible with the software stack",
	"memory-bandwidth",
	"something the catalog never saw, in English",
}

// trJoined is an exclusion's reason as app builds it: four requirements'
// reasons joined with spaces, one of them two sentences long.
const trJoined = "residency fail: Region cn-beijing is in Beijing, CN, outside the allowed DE, FR; choose a region of Alibaba Cloud in one of those. certification:C5 unknown: The catalog does not list C5 for Alibaba Cloud: it may hold it without our knowing. Ask the provider for the C5 certificate and its scope (services and regions), then add it to providers.yaml with its source. customer_managed_keys unknown: The catalog does not know whether Alibaba Cloud offers customer-managed keys; ask the provider for CMEK/BYOK on GPU instance disks, or encrypt the data yourself."

func TestTrJoined(t *testing.T) {
	want := "数据驻留 不满足：区域 cn-beijing 位于 Beijing, CN，不在允许的 DE, FR 之内；请选择 Alibaba Cloud 在这些地区的区域。" +
		"认证 C5 未知：目录中没有记录 Alibaba Cloud 持有 C5：它可能持有而我们不知道。请向云厂商索取 C5 证书及其适用范围（服务和区域），再连同来源加入 providers.yaml。" +
		"客户管理密钥 未知：目录不知道 Alibaba Cloud 是否支持客户管理密钥；请向云厂商确认 GPU 实例磁盘是否支持 CMEK/BYOK，或自行加密数据。"
	for i := 0; i < 2; i++ { // the second from the cache
		if got := Tr(Chinese, trJoined); got != want {
			t.Errorf("Tr(zh, joined) #%d\n got %q\nwant %q", i, got, want)
		}
	}
}

// BenchmarkTr is Tr as responses call it: sentences repeat, and the few
// that cost a search of their parts are cached.
func BenchmarkTr(b *testing.B) {
	Tr(Chinese, trBenchSentences[0]) // compile the catalog outside the timing
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Tr(Chinese, trBenchSentences[i%len(trBenchSentences)])
	}
}

// BenchmarkTrUncached is the matcher alone, every sentence searched anew.
func BenchmarkTrUncached(b *testing.B) {
	m := matcher()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.translate(trBenchSentences[i%len(trBenchSentences)], 0)
	}
}

// BenchmarkTrJoinedUncached is the worst case seen in the examples: a long
// joined reason searched anew.
func BenchmarkTrJoinedUncached(b *testing.B) {
	m := matcher()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.translate(trJoined, 0)
	}
}

// FuzzTr: Tr takes whatever a domain package or a user's file puts in a
// sentence; it must not panic, must leave English alone, and must keep a
// text without letters as it is.
func FuzzTr(f *testing.F) {
	for _, s := range trBenchSentences {
		f.Add(s)
	}
	f.Add(trJoined)
	f.Add("%s: %s. . .: ;; (( ))")
	f.Add(`stack.version "\"" allows no release the tables know; assumed 2.4`)
	f.Fuzz(func(t *testing.T, s string) {
		zh := Tr(Chinese, s)
		if Tr(English, s) != s {
			t.Fatalf("Tr(en, %q) changed it", s)
		}
		if !hasLetter(s) && strings.TrimSpace(s) == s && zh != s {
			t.Fatalf("Tr(zh, %q) = %q: a text without letters changed", s, zh)
		}
	})
}
