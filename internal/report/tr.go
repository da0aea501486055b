package report

import (
	"strings"

	message "github.com/gpupick/gpupick/internal/msg"
)

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
		// A sentence that ends a phrase already ending in a full stop
		// ends once.
		return strings.ReplaceAll(tidySpaces(m.Render(zhCatalog{})), "。。", "。")
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

// Localize is m rendered in l, kept as a message: a JSON view's sentence
// put in the reader's language (it marshals as that text).
func Localize(l Lang, m message.Msg) message.Msg {
	if l == English || m.IsZero() {
		return m
	}
	return message.Text(Render(l, m))
}

// LocalizeAll is Localize of each message.
func LocalizeAll(l Lang, ms []message.Msg) []message.Msg {
	if l == English || ms == nil {
		return ms
	}
	out := make([]message.Msg, len(ms))
	for i, m := range ms {
		out[i] = Localize(l, m)
	}
	return out
}

// translated reports whether the catalog has m's key and the keys of the
// messages among its arguments: whether Render(Chinese, m) is Chinese
// throughout.
func translated(m message.Msg) bool {
	if _, ok := (zhCatalog{}).Lookup(m.Format()); !ok {
		if _, ok := m.Args()[0].(string); m.Format() == "%s" && len(m.Args()) == 1 && ok {
			return Translated(m.Args()[0].(string))
		}
		return false
	}
	for _, a := range m.Args() {
		if n, ok := a.(message.Msg); ok && !translated(n) {
			return false
		}
	}
	return true
}

// argIn is an argument of a sentence in l: a message rendered, a string
// (a term, a fixed phrase) translated, anything else as it is.
func argIn(l Lang, a any) any {
	switch v := a.(type) {
	case message.Msg:
		return Render(l, v)
	case string:
		return Tr(l, v)
	}
	return a
}

func isMsg(a any) bool {
	_, ok := a.(message.Msg)
	return ok
}
