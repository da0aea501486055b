package report

import (
	_ "embed"
	"fmt"
	"strings"
)

// The translation catalog is data: locales/zh.po, keyed by the English
// format string of a message exactly as a domain package writes it in
// msg.New (the coverage test, TestCatalogCoversDomainStrings, reads the
// source and fails on a key missing there), or by a fixed text whole.
// Values are Chinese templates whose verbs stand for the English's
// arguments in order, or by explicit index (%[2]s) where Chinese needs
// another order (see msg.Msg.Render); message.CheckTranslation holds
// every entry to that. A string argument is looked up whole in turn: a
// glossary term (msgctxt "term") or a fixed phrase is translated, an id
// is kept.
//
// Terms follow docs/glossary-zh.md: 显存 for GPU memory, 吞吐, 张量并行,
// 流水线并行, 竞价实例, 按需, 预留, 首 token 延迟, 副本 (never 节点数 for
// replicas), 小时 and 美元 in sentences; GB, TFLOPS, token, vCPU stay.

//go:embed locales/zh.po
var zhPO []byte

// zhEntries are the messages of locales/zh.po.
var zhEntries = mustParsePO(zhPO)

func mustParsePO(po []byte) []poEntry {
	entries, err := parsePO(po)
	if err != nil {
		// The catalog is embedded: a bad entry is a bug, caught by the
		// tests before it ships.
		panic(fmt.Sprintf("locales/zh.po: %v", err))
	}
	return entries
}

// trGlossary holds the terms (msgctxt "term"), trSentences the sentences
// (no msgctxt) of locales/zh.po, and trMessages the keys only messages
// use (msgctxt "msg": joiners such as "%s %s", never a text of their own).
var trGlossary, trSentences, trMessages = loadCatalog(zhEntries)

func loadCatalog(entries []poEntry) (terms, sentences, messages map[string]string) {
	terms, sentences, messages = map[string]string{}, map[string]string{}, map[string]string{}
	for _, e := range entries {
		switch e.Ctx {
		case "term":
			terms[e.ID] = e.Str
		case "":
			sentences[e.ID] = e.Str
		case "msg":
			messages[e.ID] = e.Str
		}
	}
	return terms, sentences, messages
}

// keyed is a table of fixed phrases, by key: the entries of locales/zh.po
// whose msgctxt is "TABLE:KEY", each its English (msgid) and Chinese
// (msgstr).
func keyed(table string) map[string][2]string {
	out := map[string][2]string{}
	for _, e := range zhEntries {
		if key, ok := strings.CutPrefix(e.Ctx, table+":"); ok {
			out[key] = [2]string{e.ID, e.Str}
		}
	}
	return out
}
