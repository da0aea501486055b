// Package msg holds the sentences gpupick shows people as values: the
// English format string, which is the message's key in every language's
// catalog, and its arguments. Domain packages build messages and stay free
// of any language choice; the renderers at the edge (report, the server,
// the CLI) render them in the reader's language by looking the key up in a
// catalog, without parsing finished text.
//
// Arguments are rendered in turn: a Msg argument in the same language, a
// string (or Term) looked up whole in the catalog, so a fixed phrase or a
// glossary term is translated and an id, which has no entry, is kept;
// anything else as fmt prints it.
package msg

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Msg is one user-visible sentence (or phrase): its English format and its
// arguments. The zero Msg is empty.
type Msg struct {
	format string
	args   []any
}

// New is the message of format (a fmt format, in English: the key) with
// args.
func New(format string, args ...any) Msg { return Msg{format: format, args: args} }

// Format is the message's key: its English format.
func (m Msg) Format() string { return m.format }

// Args are the message's arguments.
func (m Msg) Args() []any { return m.args }

// IsZero reports whether m is the empty message.
func (m Msg) IsZero() bool { return m.format == "" && len(m.args) == 0 }

// String is the message in English.
func (m Msg) String() string { return m.Render(nil) }

// MarshalText writes the message in English: a JSON field of type Msg is
// the English sentence, as it was when the field was a string.
func (m Msg) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a message written by MarshalText: the English
// sentence, kept as it is (a saved answer read back renders in English).
func (m *Msg) UnmarshalText(b []byte) error {
	*m = Msg{}
	if len(b) > 0 {
		*m = Text(string(b))
	}
	return nil
}

// Term is an argument that is a term of the glossary (a requirement's
// name, a verdict, a pricing mode): a catalog translates it as a whole,
// as it does any string argument; the type says so where it is built.
type Term string

// Catalog is one language's translations: Lookup returns the translation
// of an English format or term, and false when it has none (the English is
// then kept).
type Catalog interface {
	Lookup(english string) (string, bool)
}

// Render writes m in the language of c (English when c is nil or lacks
// the key). Each argument is first written as the English format's verb
// for it writes it (so numbers keep the precision the English gives
// them), a Msg argument rendered through c and a Term translated; the
// translation's verbs then stand for those texts: its n-th verb (or %[n]
// verb) is the text of the English's n-th verb, whatever its letter, and
// a verb with the # flag takes the English text as it is.
func (m Msg) Render(c Catalog) string {
	if m.IsZero() {
		return ""
	}
	var t string
	ok := false
	if c != nil {
		t, ok = c.Lookup(m.format)
	}
	if !ok {
		if len(m.args) == 0 {
			return strings.ReplaceAll(m.format, "%%", "%") // a format: %% is a percent sign
		}
		return fmt.Sprintf(m.format, m.argsIn(c)...)
	}
	en := verbs(m.format)
	if len(en) != len(m.args) {
		// A format whose verbs do not match its arguments (explicit
		// indexes, a mistake): no translation can be trusted.
		return fmt.Sprintf(m.format, m.argsIn(nil)...)
	}
	local, english := m.argsIn(c), m.argsIn(nil)
	texts := make([]string, len(en))
	plain := make([]string, len(en))
	for i, v := range en {
		a := i
		if v.index > 0 && v.index <= len(m.args) {
			a = v.index - 1
		}
		texts[i] = fmt.Sprintf(v.spec, local[a])
		plain[i] = fmt.Sprintf(v.spec, english[a])
	}
	var b strings.Builder
	last, next := 0, 0
	for _, v := range verbs(t) {
		b.WriteString(strings.ReplaceAll(t[last:v.start], "%%", "%"))
		n := next
		if v.index > 0 {
			n = v.index - 1
		}
		if n < 0 || n >= len(texts) {
			return fmt.Sprintf(m.format, english...)
		}
		if v.sharp {
			b.WriteString(plain[n])
		} else {
			b.WriteString(texts[n])
		}
		next, last = n+1, v.end
	}
	b.WriteString(strings.ReplaceAll(t[last:], "%%", "%"))
	return b.String()
}

// argsIn are m's arguments with each Msg rendered and each Term
// translated through c.
func (m Msg) argsIn(c Catalog) []any {
	args := make([]any, len(m.args))
	for i, a := range m.args {
		switch v := a.(type) {
		case Msg:
			args[i] = v.Render(c)
		case Messager:
			args[i] = v.AsMsg().Render(c)
		case Term:
			args[i] = lookup(c, string(v))
		case string:
			args[i] = lookup(c, v)
		default:
			args[i] = a
			if c != nil {
				// A named string type (a verdict, a framework, a mode) is
				// a term too.
				if rv := reflect.ValueOf(a); rv.Kind() == reflect.String {
					if _, ok := a.(fmt.Stringer); !ok {
						args[i] = lookup(c, rv.String())
					}
				}
			}
		}
	}
	return args
}

// lookup is s translated whole through c, or s when c has no entry.
func lookup(c Catalog, s string) string {
	if t, ok := LookupText(c, s); ok {
		return t
	}
	return s
}

// LookupText is the translation of s, a fixed text (not a format), in c.
// The catalog's keys are formats, so a text's percent sign is %% in its
// key, and a text with a percent sign is never read as a format.
func LookupText(c Catalog, s string) (string, bool) {
	if c == nil || s == "" {
		return "", false
	}
	if strings.IndexByte(s, '%') < 0 {
		return c.Lookup(s)
	}
	if t, ok := c.Lookup(strings.ReplaceAll(s, "%", "%%")); ok {
		return strings.ReplaceAll(t, "%%", "%"), true
	}
	return "", false
}

// verb is one verb of a format string: its span (the explicit index cut
// out, so the span formats one value alone), its explicit index (1-based,
// 0 when none) and whether it has the # flag.
type verb struct {
	start, end, index int
	sharp             bool
	spec              string // the verb without its explicit index
}

// verbs lists the verbs of f; %% is not one.
func verbs(f string) []verb {
	var out []verb
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			i++
			continue
		}
		v := verb{start: i}
		j := i + 1
		for j < len(f) && strings.IndexByte("+-# 0", f[j]) >= 0 {
			v.sharp = v.sharp || f[j] == '#'
			j++
		}
		for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
			j++
		}
		cut := ""
		if j < len(f) && f[j] == '[' {
			k := strings.IndexByte(f[j:], ']')
			if k < 0 {
				break
			}
			v.index, _ = strconv.Atoi(f[j+1 : j+k])
			cut = f[j : j+k+1]
			j += k + 1
		}
		for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
			j++
		}
		if j >= len(f) {
			break
		}
		v.end = j + 1
		v.spec = strings.Replace(f[v.start:v.end], cut, "", 1)
		out = append(out, v)
		i = j
	}
	return out
}

// Then is m followed by next, as a second sentence: "%s %s" in English,
// whose translation says how a language joins two sentences.
func (m Msg) Then(next Msg) Msg {
	if m.IsZero() {
		return next
	}
	return New(Sentences, m, next)
}

// Sentences is the key of two sentences in a row (see Then).
const Sentences = "%s %s"

// Stop is m as a sentence: a full stop after it ("%s." in English, whose
// translation says how a language ends a sentence).
func (m Msg) Stop() Msg { return New(Stop, m) }

// Stop is the key of a phrase made a sentence (see Msg.Stop).
const Stop = "%s."

// Also is m followed by next as a second clause ("%s; %s" in English);
// an empty m gives next alone.
func (m Msg) Also(next Msg) Msg {
	if m.IsZero() {
		return next
	}
	if next.IsZero() {
		return m
	}
	return New(Clauses, m, next)
}

// Clauses is the key of two clauses joined by a semicolon (see Also).
const Clauses = "%s; %s"

// Strings are ms in English, one string each.
func Strings(ms []Msg) []string {
	if ms == nil {
		return nil
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// Bytes is about the memory m holds (its format, its strings and nested
// messages), for caches that count bytes.
func (m Msg) Bytes() int {
	n := len(m.format) + 16*len(m.args)
	for _, a := range m.args {
		switch v := a.(type) {
		case string:
			n += len(v)
		case Term:
			n += len(v)
		case Msg:
			n += v.Bytes()
		}
	}
	return n
}

// Join is ms joined pairwise by key, a format of two verbs such as
// "%s, %s" (a list) or Clauses: its translation says how a language joins
// them. No messages give the empty message.
func Join(key string, ms []Msg) Msg {
	var out Msg
	for i, m := range ms {
		if i == 0 {
			out = m
			continue
		}
		out = New(key, out, m)
	}
	return out
}

// Text is a finished text as a message: a sentence already rendered in
// the reader's language, or read back from a saved answer. It renders as
// it is (unless a catalog has the whole text as an entry).
func Text(s string) Msg {
	if s == "" {
		return Msg{}
	}
	return New("%s", s)
}

// Messager is a value that says itself as a message (an error that
// carries one): as an argument it is rendered in the catalog's language.
type Messager interface {
	AsMsg() Msg
}

// CheckTranslation reports what is wrong with zh as the translation of
// the format en, as Render will use it: every verb of zh must stand for
// an argument en has (its n-th verb, or its %[n] verb), and every
// argument of en must be said at least once.
func CheckTranslation(en, zh string) error {
	ev, zv := verbs(en), verbs(zh)
	if n := strings.Count(en, "%") - 2*strings.Count(en, "%%"); n != len(ev) {
		return fmt.Errorf("%q: a verb the catalog cannot read", en)
	}
	if n := strings.Count(zh, "%") - 2*strings.Count(zh, "%%"); n != len(zv) {
		return fmt.Errorf("%q: its translation %q has a verb the catalog cannot read", en, zh)
	}
	used := make([]bool, len(ev))
	next := 0
	for _, v := range zv {
		n := next
		if v.index > 0 {
			n = v.index - 1
		}
		if n < 0 || n >= len(ev) {
			return fmt.Errorf("%q: its translation %q names argument %d; the English has %d", en, zh, n+1, len(ev))
		}
		used[n] = true
		next = n + 1
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("%q: its translation %q leaves out argument %d", en, zh, i+1)
		}
	}
	return nil
}
