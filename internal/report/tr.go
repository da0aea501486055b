package report

// Tr returns s, a sentence produced by a domain package (a verdict, a
// bottleneck, an exclusion reason, a warning, a validation message), in
// language l. English is the domain's own language; Chinese comes from the
// translation catalog. Every renderer passes data strings through Tr.
func Tr(l Lang, s string) string {
	return s
}
