package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
	message "github.com/gpupick/gpupick/internal/msg"
)

// Lang is an output language.
type Lang string

// Languages: English and Simplified Chinese.
const (
	English Lang = "en"
	Chinese Lang = "zh"
)

// ParseLang checks --lang; empty falls back to the environment's LANG
// (zh_* means Chinese).
func ParseLang(flag, envLang string) (Lang, error) {
	switch strings.ToLower(flag) {
	case "en":
		return English, nil
	case "zh", "zh-cn", "cn":
		return Chinese, nil
	case "":
		if strings.HasPrefix(strings.ToLower(envLang), "zh") {
			return Chinese, nil
		}
		return English, nil
	}
	return "", invalid("--lang", "want en or zh, got %q", flag)
}

// messages holds every fixed phrase of the recommendation in both
// languages: locales/zh.po, msgctxt "report:KEY".
var messages = keyed("report")

var warnTemplates = map[string][2]string{
	advisor.WarnStale:         {"stale price: published %v, more than 90 days ago", "价格过期：发布于 %v，已超过 90 天"},
	advisor.WarnLowUtil:       {"low utilisation: GPUs busy %v%% of the time (%v)", "利用率低：GPU 仅 %v%% 的时间在工作（%v）"},
	advisor.WarnSpotRisk:      {"spot risk: %v%% chance of missing the deadline", "竞价风险：有 %v%% 的概率错过截止时间"},
	advisor.WarnSpot:          {"spot: about %v interruptions expected; checkpoint every %v h", "竞价实例：预计约 %v 次中断；每 %v 小时保存一次检查点"},
	advisor.WarnSpotUnheld:    {"spot unlikely to hold: %v instance(s) kept for the whole job with probability %v%%; about %v interruptions and %v h waiting for capacity expected; priced at that", "竞价难以保持：%v 台实例在整个任务期间不被回收的概率为 %v%%；预计约 %v 次中断、等待容量约 %v 小时；已按此计价"},
	advisor.WarnSpotService:   {"spot service: about %v interruptions a month; a replica is away %v%% of the time (%v h waiting for capacity each time): keep spares or an on-demand fallback", "竞价服务：每月约 %v 次中断；副本约 %v%% 的时间不可用（每次等待容量约 %v 小时）：请保留备用副本或按需后备"},
	advisor.WarnSpotPoint:     {"spot price of one zone or listing at one moment: you may pay %v-%v times it", "竞价价格来自某一可用区或挂单的某一时刻：实际可能是它的 %v-%v 倍"},
	advisor.WarnSharedPool:    {"shared pool: %[4]v assumes other workloads use %[1]v idle slice(s) of the %[2]v on %[3]v instance(s); %[5]v if they do not", "共享 GPU 池：%[4]v 的前提是其他工作负载使用 %[3]v 台实例共 %[2]v 个切片中空闲的 %[1]v 个；若无人使用则为 %[5]v"},
	advisor.WarnEgressUnknown: {"egress price of %v unknown: %v GB priced at an assumed $%v/GB", "%v 的出网价格未知：%v GB 按假定的 %v 美元/GB 计价"},
	advisor.WarnOldPrice:      {"old price: published %v, %v years ago; the cost range is widened", "价格陈旧：发布于 %v，已有 %v 年；成本区间已放宽"},
	advisor.WarnReserved:      {"%v pays off only above %v%% utilisation of the term; this job uses %v%%", "%v 仅在利用率高于 %v%% 时划算；本任务仅使用 %v%%"},
	advisor.WarnLowConfidence: {"low-confidence prediction: this accelerator's efficiency is not calibrated on published results", "低置信度预测：该加速卡的效率未经公开结果校准"},
	advisor.WarnPriceUnknown:  {"price unknown: no published price in the catalog; not ranked by cost", "价格未知：目录中没有公开价格，不参与成本排名"},
	advisor.WarnNote:          {"%v", "%v"},
	advisor.WarnNeedsWork:     {"needs work: %v", "需要适配：%v"},
	advisor.WarnPreferred:     {"%v", "偏好要求未满足或未知：%v"},
	advisor.WarnRegionInferred: {"region %v inferred: the price source lists this type for the provider, not for this region; check that it is sold there",
		"区域 %v 为推断：价格来源只列出该机型属于此提供商，并未列出此区域；请确认该区域确有售卖"},
}

var verdictZh = map[string]string{
	"compute":          "计算受限：GPU 的时间主要花在计算上，通信和数据读取基本被掩盖。",
	"memory-bandwidth": "显存带宽受限：每一步都要从显存读取权重（和 KV 缓存），算力没有用满。",
	"interconnect":     "GPU 互连受限：GPU 之间的通信占用了每一步的相当一部分时间。",
	"network":          "节点间网络受限：跨节点通信或流水线气泡占用了每一步的相当一部分时间。",
	"storage":          "存储受限：数据读取速度跟不上 GPU，GPU 有一部分时间在等待数据。",
	"cpu":              "CPU 预处理受限：CPU 解码和数据增强跟不上 GPU。",
	"memory-capacity":  "显存容量受限：显存装不下，或限制了批大小和吞吐。",
}

// VerdictText is a prediction's verdict in l: the model's sentence in
// English; in Chinese its translation, or a sentence per bottleneck
// followed by the English details when the catalog lacks it.
func VerdictText(l Lang, bottleneck string, verdict message.Msg) string {
	if l == Chinese {
		if translated(verdict) {
			return Render(l, verdict)
		}
		if z, ok := verdictZh[bottleneck]; ok {
			return z + "（" + verdict.String() + "）"
		}
	}
	return verdict.String()
}

// modeZh names the pricing modes in Chinese, as the page does.
var modeZh = map[string]string{"on-demand": "按需", "spot": "抢占式", "monthly": "包月", "reserved-1y": "预留 1 年", "reserved-3y": "预留 3 年", "serverless": "无服务器", "reserved": "预留"}

var objectiveZh = map[string]string{"cost": "成本", "time": "时间", "tokens-per-dollar": "每美元token数", "balanced": "均衡"}

var unitZh = map[string]string{
	"USD per million tokens trained": "美元/百万训练token", "USD per million output tokens": "美元/百万输出token", "USD per million input tokens": "美元/百万输入token",
	"USD per thousand images": "美元/千张图片", "USD per thousand videos": "美元/千段视频", "USD per thousand items": "美元/千个条目",
}

func objectiveText(l Lang, o string) string {
	if l == Chinese {
		if z, ok := objectiveZh[o]; ok {
			return z
		}
	}
	return o
}

func unitText(l Lang, u string) string {
	if l == Chinese {
		if z, ok := unitZh[u]; ok {
			return z
		}
	}
	return u
}

var bottleneckZh = map[string]string{
	"compute": "计算", "memory-bandwidth": "显存带宽", "interconnect": "GPU 互连", "network": "节点间网络",
	"storage": "存储", "cpu": "CPU 预处理", "memory-capacity": "显存容量",
}

var reasonZh = map[string]string{
	advisor.ReasonNoFit: "显存放不下", advisor.ReasonDeadline: "超过截止时间", advisor.ReasonSpotRisk: "竞价实例有错过截止时间的风险（准时率低于 90%）",
	advisor.ReasonBudget: "超出预算", advisor.ReasonNoPrice: "该计费方式无价格", advisor.ReasonProvider: "云厂商不在允许范围",
	advisor.ReasonVendor: "加速卡厂商不被接受", advisor.ReasonNoFabric: "无法跨节点组网", advisor.ReasonUnsustained: "在 GPU 上限内无法承载负载",
	advisor.ReasonIncompatible: "与软件栈不兼容", advisor.ReasonNonCompliant: "不满足合规要求",
	advisor.ReasonOperator: "由工作负载不接受的独立主机方运营",
}

func msg(l Lang, key string, args ...any) string { return phrase(messages, l, key, args...) }

// phrase renders key from table (English and Chinese) in l, formatted with
// args when there are any; a key the table lacks is returned as it is.
func phrase(table map[string][2]string, l Lang, key string, args ...any) string {
	m, ok := table[key]
	if !ok {
		return key
	}
	s := m[0]
	if l == Chinese {
		s = m[1]
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// WarningText renders a warning in l; in Chinese its sentence arguments
// (a check's reason, a fix) are translated too.
func WarningText(l Lang, w advisor.Warning) string {
	t, ok := warnTemplates[w.Code]
	if !ok {
		// A check's own code (an exclusion demoted to a warning, as cost
		// does) comes with its sentence.
		if len(w.Args) == 1 {
			return fmt.Sprint(argIn(l, w.Args[0]))
		}
		return w.Code
	}
	if w.Code == advisor.WarnSharedPool && len(w.Args) == 5 {
		args := slices.Clone(w.Args)
		for _, i := range []int{3, 4} {
			if f, ok := args[i].(float64); ok {
				args[i] = usd(f)
			}
		}
		w.Args = args
	}
	if l != Chinese {
		return fmt.Sprintf(t[0], w.Args...)
	}
	if (w.Code == advisor.WarnPreferred || w.Code == advisor.WarnNote) && len(w.Args) == 1 {
		if m, ok := w.Args[0].(message.Msg); ok && translated(m) {
			return Render(l, m) // a whole sentence already
		}
		if s, ok := w.Args[0].(string); ok && Translated(s) {
			return Tr(l, s) // a whole sentence already
		}
	}
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		args[i] = argIn(l, a)
	}
	return fmt.Sprintf(t[1], args...)
}

func bottleneckText(l Lang, b string) string {
	if l == Chinese {
		if z, ok := bottleneckZh[b]; ok {
			return z
		}
	}
	return b
}

func reasonText(l Lang, code string) string {
	if l == Chinese {
		if z, ok := reasonZh[code]; ok {
			return z
		}
	}
	return advisor.ReasonText(code)
}
