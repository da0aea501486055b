package report

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
