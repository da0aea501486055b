package report

// The translation catalog: one map per domain package, keyed by the English
// format string exactly as it is written in the package's source (the
// coverage test, TestCatalogCoversDomainStrings, reads the source and
// fails on a string missing here). Values are Chinese templates: the same
// verbs in the same order, or explicit indexes (%[2]s) where Chinese needs
// another order. Captured arguments that are themselves catalog sentences
// or glossary terms are translated in turn.
//
// Terms follow docs/glossary-zh.md: 显存 for GPU memory, 吞吐, 张量并行,
// 流水线并行, 竞价实例, 按需, 预留, 首 token 延迟, 副本 (never 节点数 for
// replicas), 小时 and 美元 in sentences; GB, TFLOPS, token, vCPU stay.
func trCatalogs() []map[string]string {
	return []map[string]string{trGlossary, trPerf, trAdvisor, trCompat, trCompliance, trCost, trWorkload, trAutoscale, trCompatData, trApp, trCLIMessages, trStrictYAML, trSlicing, trImageGen, trCompatImageGen, trImageService, trExport}
}
