package report

import "fmt"

// cliMessages holds the fixed phrases of every command other than
// recommend (gpus, offers, providers, predict, simulate, cost, check), in
// English and Chinese. Data strings from the domain packages go through Tr
// instead.
var cliMessages = map[string][2]string{
	// words
	"yes":          {"yes", "是"},
	"no":           {"no", "否"},
	"unknown":      {"unknown", "未知"},
	"stale_suffix": {" (stale)", "（过期）"},

	// column headers
	"col.id":           {"ID", "ID"},
	"col.name":         {"NAME", "名称"},
	"col.vendor":       {"VENDOR", "厂商"},
	"col.arch":         {"ARCH", "架构"},
	"col.mem_gib":      {"MEM GiB", "显存 GiB"},
	"col.bw":           {"BW GB/s", "带宽 GB/s"},
	"col.fp16":         {"FP16 TFLOPS", "FP16 TFLOPS"},
	"col.bf16":         {"BF16 TFLOPS", "BF16 TFLOPS"},
	"col.fp8":          {"FP8 TFLOPS", "FP8 TFLOPS"},
	"col.fp4":          {"FP4 TFLOPS", "FP4 TFLOPS"},
	"col.link":         {"LINK GB/s", "互连 GB/s"},
	"col.tdp":          {"TDP W", "功耗 W"},
	"col.as_of":        {"AS OF", "数据日期"},
	"col.offer":        {"OFFER", "实例"},
	"col.region":       {"REGION", "区域"},
	"col.cc":           {"CC", "国家"},
	"col.gpu":          {"GPU", "GPU"},
	"col.n":            {"N", "GPU数"},
	"col.vcpu":         {"vCPU", "vCPU"},
	"col.ram_gib":      {"RAM GiB", "内存 GiB"},
	"col.price_h":      {"%s $/h", "%s 美元/小时"},
	"col.price_gpu_h":  {"$/GPU-h", "美元/GPU·小时"},
	"col.your_h":       {"YOUR $/h", "您的价格 美元/小时"},
	"col.your_gpu_h":   {"YOUR $/GPU-h", "您的价格 美元/GPU·小时"},
	"col.fabric":       {"FABRIC Gb/s", "组网 Gb/s"},
	"col.stale":        {"STALE", "过期"},
	"col.provider":     {"PROVIDER", "云厂商"},
	"col.hq":           {"HQ", "总部"},
	"col.cloud_act":    {"CLOUD ACT", "CLOUD法案"},
	"col.certs":        {"CERTIFICATIONS", "认证"},
	"col.cmk":          {"CMK", "客户管理密钥"},
	"col.cc_gpu":       {"CC GPU", "机密计算GPU"},
	"col.egress":       {"EGRESS $/GB", "出网 美元/GB"},
	"col.offers":       {"OFFERS", "报价数"},
	"col.prices_as_of": {"PRICES AS OF", "价格日期"},

	// gpus, offers, providers
	"gpus.note":       {"TFLOPS are dense peaks (no sparsity); - = the hardware has no such path; LINK = GPU-to-GPU, both directions.", "TFLOPS 为稠密峰值（不含稀疏）；- 表示硬件不支持该数据类型；互连 = GPU 之间，双向合计。"},
	"offers.note":     {"%d offers; prices in USD per instance-hour (CNY converted at the rate in fx.csv).", "共 %d 条报价；价格为每实例小时美元（人民币按 fx.csv 中的汇率换算）。"},
	"offers.stale":    {"STALE yes = the price is older than 90 days: check the source before you sign.", "过期 = 是：价格超过 90 天，签约前请核对来源。"},
	"offers.unknown":  {"%d offers have no published %s price (shown as unknown, never as 0).", "%d 条报价没有公开的%s价格（显示为未知，从不当作 0）。"},
	"offers.fabric":   {"FABRIC - = no multi-node fabric published for the instance.", "组网 - 表示该实例没有公开的多节点组网。"},
	"providers.note1": {"CLOUD ACT yes = a US-headquartered company or parent: US authorities can compel access to data in any region.", "CLOUD法案 = 是：总部或母公司在美国，美国当局可要求调取任何区域的数据。"},
	"providers.note2": {"EGRESS = first internet-egress tier; see -o json for every tier and the scope of each certification.", "出网 = 第一档互联网出网价格；各档价格和每项认证的范围见 -o json。"},
}

// tc renders the CLI phrase key in l, formatted with args.
func tc(l Lang, key string, args ...any) string {
	m, ok := cliMessages[key]
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

// CLIText is a fixed phrase of the commands (a note on stderr, a message)
// in l, for the cli package.
func CLIText(l Lang, key string, args ...any) string { return tc(l, key, args...) }

// modeText names a pricing mode in l.
func modeText(l Lang, mode string) string {
	if l == Chinese {
		if z, ok := modeZh[mode]; ok {
			return z
		}
	}
	return mode
}
