package report

import (
	"strings"

	message "github.com/gpupick/gpupick/internal/msg"
)

// Tr returns s, a fixed text (a glossary term, a phrase or sentence
// without arguments: a bottleneck's name, a matrix sentence, a provider's
// data-centre model), in language l: the catalog's entry for it, looked
// up whole. A sentence with arguments is a message (see Render); nothing
// here parses finished text. A text the catalog does not know is returned
// unchanged, in English.
func Tr(l Lang, s string) string {
	if l != Chinese || s == "" {
		return s
	}
	if z, ok := lookupText(s); ok {
		return z
	}
	if t := strings.TrimSpace(s); t != s && t != "" {
		if z, ok := lookupText(t); ok {
			return z // a piece written with its leading space: Chinese needs none
		}
	}
	return s
}

// Translated reports whether the catalog has s whole: tests and the API
// use it to find texts the catalog does not cover.
func Translated(s string) bool {
	_, ok := lookupText(s)
	return ok
}

// lookupText is the Chinese of a fixed text.
func lookupText(s string) (string, bool) { return message.LookupText(zhCatalog{}, s) }

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
		// A finished text (msg.Text) is translated when the catalog has it whole.
		if args := m.Args(); m.Format() == "%s" && len(args) == 1 {
			if s, ok := args[0].(string); ok {
				return Translated(s)
			}
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

// tidySpaces drops the spaces that English put next to what is now
// full-width punctuation: "（NxD Inference） 在" reads "（NxD Inference）在".
func tidySpaces(s string) string {
	if !strings.Contains(s, " ") {
		return s
	}
	const fullWidth = "，。；：（）、！？"
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(0)
	rs := []rune(s)
	for i, r := range rs {
		if r == ' ' {
			next := rune(0)
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			if strings.ContainsRune(fullWidth, prev) || strings.ContainsRune(fullWidth, next) {
				continue
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}
