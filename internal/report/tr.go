package report

import message "github.com/gpupick/gpupick/internal/msg"

// Tr returns s, a sentence produced by a domain package (a verdict, a
// bottleneck, an exclusion reason, a warning, a validation message), in
// language l. English is the domain's own language; Chinese comes from the
// translation catalog (locales/zh.po, keyed by the domain's English format
// strings) and the glossary (tr_glossary.go). A sentence the catalog does
// not know is returned unchanged, in English.
func Tr(l Lang, s string) string {
	if l != Chinese || s == "" {
		return s
	}
	return matcher().translateCached(s)
}

// Translated reports whether Tr(Chinese, s) changes s: tests and the API use
// it to find sentences the catalog does not cover.
func Translated(s string) bool {
	_, ok := matcher().translate(s, 0)
	return ok
}

// zhCatalog looks a message's key up among the sentences of
// locales/zh.po, then the message-only keys, then its terms.
type zhCatalog struct{}

func (zhCatalog) Lookup(en string) (string, bool) {
	if z, ok := trSentences[en]; ok {
		return z, true
	}
	if z, ok := trMessages[en]; ok {
		return z, true
	}
	z, ok := trGlossary[en]
	return z, ok
}

// Render writes a message in l: its key looked up in l's catalog, its
// arguments rendered in turn (no parsing of finished text).
func Render(l Lang, m message.Msg) string {
	if l == Chinese {
		return m.Render(zhCatalog{})
	}
	return m.String()
}

// RenderAll writes messages in l, one string each.
func RenderAll(l Lang, ms []message.Msg) []string {
	if ms == nil {
		return nil
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = Render(l, m)
	}
	return out
}
