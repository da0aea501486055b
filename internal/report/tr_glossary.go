package report

// trGlossary holds the terms the domain returns as values rather than
// sentences (bottlenecks, pricing modes, verdicts, units, confidence
// levels, requirement names), and that appear inside sentences as captured
// arguments. docs/glossary-zh.md lists the same terms for people; the CLI
// and the page both translate through this one table, so a term reads the
// same on every surface.
var trGlossary = map[string]string{
	// what a due-diligence document serves besides a requirement (compliance.Diligence.Serves)
	"security":        "安全",
	"data_protection": "数据保护",
	"stack":           "软件栈",
	"export_control":  "出口管制",
	// data-centre models (catalog.Datacenters.Model)
	"owned": "自有", "leased": "租用", "mixed": "自有加租用", "partners": "合作方",
	// bottlenecks (perf.Prediction.Bottleneck)
	"compute":          "计算",
	"memory-bandwidth": "显存带宽",
	"interconnect":     "GPU 互连",
	"network":          "节点间网络",
	"storage":          "存储",
	"cpu":              "CPU 预处理",
	"memory-capacity":  "显存容量",
	// pricing modes
	"on-demand":   "按需",
	"spot":        "竞价",
	"monthly":     "包月",
	"reserved-1y": "预留 1 年",
	"reserved-3y": "预留 3 年",
	// objectives
	"tokens-per-dollar": "每美元 token 数",
	"balanced":          "均衡",
	// confidence levels
	"high":   "高",
	"medium": "中",
	"low":    "低",
	// compliance verdicts and requirement names
	"pass":                   "满足",
	"fail":                   "不满足",
	"unknown":                "未知",
	"residency":              "数据驻留",
	"jurisdiction":           "司法管辖",
	"accelerator_origin":     "加速卡来源",
	"confidential_computing": "机密计算",
	"customer_managed_keys":  "客户管理密钥",
	"secure_boot":            "安全启动",
	"data_localisation_cn":   "中国数据本地化",
	"mlps":                   "等保 2.0 级别",
	"operator":               "运营方",
	// who runs the machine (compliance.operators, catalog operator kinds)
	"provider":    "云厂商自营",
	"partner":     "签约合作方",
	"marketplace": "市场主机方",
	"community":   "社区主机方",
	// compat verdicts
	"compatible":   "兼容",
	"needs-work":   "需要适配",
	"incompatible": "不兼容",
	// batching modes
	"continuous": "连续",
	"static":     "静态",
	"burst":      "突发",
	// builds, and the framework of custom code
	"upstream":  "上游",
	"vendor":    "厂商",
	"your code": "您的代码",
	"driver":    "驱动",
	// units
	"tokens/s":                       "token/秒",
	"prompt tokens/s":                "提示 token/秒",
	"images/s":                       "张图片/秒",
	"items/s":                        "个条目/秒",
	"requests/s":                     "请求/秒",
	"hours":                          "小时",
	"h":                              "小时",
	"s":                              "秒",
	"ms":                             "毫秒",
	"USD":                            "美元",
	"%% of dense peak":               "%% 稠密峰值",
	"%% (after data pipeline)":       "%%（计入数据管道后）",
	"USD per million tokens trained": "美元/百万训练 token",
	"USD per million output tokens":  "美元/百万输出 token",
	"USD per million input tokens":   "美元/百万输入 token",
	"USD per thousand images":        "美元/千张图片",
	"USD per thousand items":         "美元/千个条目",
	// storage kinds that the pipeline names
	"local NVMe": "本地 NVMe",
	"block":      "块存储",
	"object":     "对象存储",
	// training methods, sharding and checkpointing modes as printed in
	// layouts
	"full":      "完全",
	"selective": "选择性",
	"none":      "无",
}
