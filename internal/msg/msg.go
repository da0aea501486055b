// Package msg holds the sentences gpupick shows people as values: the
// English format string, which is the message's key in every language's
// catalog, and its arguments. Domain packages build messages and stay free
// of any language choice; the renderers at the edge (report, the server,
// the CLI) render them in the reader's language by looking the key up in a
// catalog, without parsing finished text.
//
// Arguments are rendered in turn: a Msg argument in the same language, a
// Term through the catalog's glossary, anything else as fmt prints it.
package msg

import "fmt"

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

// Term is an argument that is a term of the glossary (a requirement's
// name, a verdict, a pricing mode): a catalog translates it as a whole.
type Term string

// Catalog is one language's translations: Lookup returns the translation
// of an English format or term, and false when it has none (the English is
// then kept).
type Catalog interface {
	Lookup(english string) (string, bool)
}

// Render writes m in the language of c (English when c is nil or lacks
// the key): the translated format filled with the arguments, each Msg and
// Term argument rendered through c as well.
func (m Msg) Render(c Catalog) string {
	if m.IsZero() {
		return ""
	}
	f := m.format
	if c != nil {
		if t, ok := c.Lookup(f); ok {
			f = t
		}
	}
	if len(m.args) == 0 {
		return f
	}
	args := make([]any, len(m.args))
	for i, a := range m.args {
		switch v := a.(type) {
		case Msg:
			args[i] = v.Render(c)
		case Term:
			s := string(v)
			if c != nil {
				if t, ok := c.Lookup(s); ok {
					s = t
				}
			}
			args[i] = s
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(f, args...)
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
