package report

import (
	_ "embed"
	"fmt"
)

// The translation catalog is data: locales/zh.po, keyed by the English
// format string exactly as it is written in a domain package's source (the
// coverage test, TestCatalogCoversDomainStrings, reads the source and
// fails on a string missing there). Values are Chinese templates: the same
// verbs in the same order, or explicit indexes (%[2]s) where Chinese needs
// another order. Captured arguments that are themselves catalog sentences
// or glossary terms (msgctxt "term") are translated in turn.
//
// Terms follow docs/glossary-zh.md: 显存 for GPU memory, 吞吐, 张量并行,
// 流水线并行, 竞价实例, 按需, 预留, 首 token 延迟, 副本 (never 节点数 for
// replicas), 小时 and 美元 in sentences; GB, TFLOPS, token, vCPU stay.

//go:embed locales/zh.po
var zhPO []byte

// trGlossary holds the terms (msgctxt "term"), trSentences the sentences
// of locales/zh.po.
var trGlossary, trSentences = loadCatalog(zhPO)

func loadCatalog(po []byte) (terms, sentences map[string]string) {
	entries, err := parsePO(po)
	if err != nil {
		// The catalog is embedded: a bad entry is a bug, caught by the
		// tests before it ships.
		panic(fmt.Sprintf("locales/zh.po: %v", err))
	}
	terms, sentences = map[string]string{}, map[string]string{}
	for _, e := range entries {
		switch e.Ctx {
		case "term":
			terms[e.ID] = e.Str
		case "":
			sentences[e.ID] = e.Str
		default:
			panic(fmt.Sprintf("locales/zh.po:%d: unknown msgctxt %q", e.Line, e.Ctx))
		}
	}
	return terms, sentences
}

// trCatalogs are the glossary and the sentences; a sentence wins over a
// term of the same English.
func trCatalogs() []map[string]string { return []map[string]string{trGlossary, trSentences} }
