package report

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The translation matcher. Domain packages build their sentences with
// fmt.Sprintf from English format strings; the catalog (locales/zh.po) maps each
// such format string to a Chinese template. Each English format becomes a
// pattern of literal pieces and verbs; matching a sentence captures the text
// of each verb (a number for %d and %f, a quoted string for %q, the
// shortest text that lets the rest match for %s and %v). The Chinese
// template names the captures with the same verbs, in order, or with
// explicit indexes (%[2]s) where Chinese wants another order.
//
// Speed: Tr runs on every sentence of every response, so a sentence is not
// tried against every template. Each template is filed under its rarest
// whole literal word; a sentence is tried only against the templates filed
// under one of its own words, cheapest checks (length, literal prefix and
// suffix, the literal pieces in order) first; the matcher itself is a
// small backtracking scan with strings.Index, with no regular expressions.
// Sentences without verbs are a map lookup.

// trTemplate is one compiled catalog entry.
type trTemplate struct {
	english string    // the English format string, the catalog key
	segs    []trSeg   // the pattern: literal pieces and verbs
	nargs   int       // verbs
	prefix  string    // literal text before the first verb
	suffix  string    // literal text after the last verb
	middle  []string  // literal text between verbs, in order, non-empty
	litLen  int       // bytes of literal text: more means more specific
	zh      []trPiece // the Chinese template
	// verbatim: arguments the Chinese template writes with %#s, as they
	// are (a field\'s value: "inference.batching = continuous").
	verbatim []bool
	// splitter: the literal text has no word but connectives ("%s: %s",
	// "%s or %s"); it counts as a translation only if one of its captures
	// translates.
	splitter bool
}

// trSeg is a literal piece of a pattern or, when verb != 0, a verb.
type trSeg struct {
	lit  string
	verb byte
	arg  int // the verb's capture index
}

// trPiece is literal Chinese text or, when arg >= 0, the arg'th capture.
type trPiece struct {
	text string
	arg  int
}

// trMatcher is the compiled catalog.
type trMatcher struct {
	exact     map[string]string        // entries without verbs, and the glossary
	byWord    map[string][]*trTemplate // rarest whole literal word -> templates
	fallback  []*trTemplate            // templates with no whole literal word
	spaceless []*trTemplate            // templates whose literal text has no space
	templates map[string]*trTemplate   // by English format
	cache     sync.Map                 // text -> Chinese, for texts costly to search
	cached    atomic.Int64             // entries in cache, about
}

var (
	trOnce sync.Once
	trM    *trMatcher
	trErr  error
)

// matcher compiles the catalog once, on the first Chinese sentence.
func matcher() *trMatcher {
	trOnce.Do(func() {
		trM, trErr = compileCatalog(trCatalogEntries())
		if trErr != nil {
			// The catalog is code: a bad entry is a bug, caught by the
			// tests (TestCatalogCompiles) before it ships.
			panic(trErr)
		}
	})
	return trM
}

// trCatalogEntries joins the glossary and the sentence catalog.
func trCatalogEntries() map[string]string {
	all := map[string]string{}
	for _, c := range trCatalogs() {
		for en, zh := range c {
			all[en] = zh
		}
	}
	return all
}

// fmtVerb is one verb in a format string.
type fmtVerb struct {
	start, end int  // byte span in the format
	index      int  // explicit %[n] index, 1-based; 0 when implicit
	verb       byte // the verb letter
	sharp      bool // the # flag: in a Chinese template, the argument as it is
}

// parseFormat splits a format string into verbs; %% is not a verb.
func parseFormat(f string) ([]fmtVerb, error) {
	var verbs []fmtVerb
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		v := fmtVerb{start: start}
		for i < len(f) && strings.IndexByte("+-# 0", f[i]) >= 0 {
			v.sharp = v.sharp || f[i] == '#'
			i++
		}
		if i < len(f) && f[i] == '[' {
			j := strings.IndexByte(f[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("%q: unterminated %%[", f)
			}
			n, err := strconv.Atoi(f[i+1 : i+j])
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%q: bad index %q", f, f[i:i+j+1])
			}
			v.index = n
			i += j + 1
		}
		for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '.') {
			i++
		}
		if i >= len(f) {
			return nil, fmt.Errorf("%q: verb cut short", f)
		}
		v.verb = f[i]
		v.end = i + 1
		verbs = append(verbs, v)
	}
	return verbs, nil
}

// unescape turns %% into % in literal text.
func unescape(s string) string { return strings.ReplaceAll(s, "%%", "%") }

// verbKnown reports whether the matcher can capture what verb v prints.
func verbKnown(v byte) bool { return strings.IndexByte("dfgeFGEsvqxX", v) >= 0 }

func compileCatalog(entries map[string]string) (*trMatcher, error) {
	m := &trMatcher{exact: map[string]string{}, byWord: map[string][]*trTemplate{}, templates: map[string]*trTemplate{}}
	var ts []*trTemplate
	for en, zh := range entries {
		verbs, err := parseFormat(en)
		if err != nil {
			return nil, err
		}
		if len(verbs) == 0 {
			zhVerbs, err := parseFormat(zh)
			if err != nil {
				return nil, err
			}
			if len(zhVerbs) > 0 {
				return nil, fmt.Errorf("%q has no verb, but its Chinese %q has", en, zh)
			}
			m.exact[unescape(en)] = unescape(zh)
			// Appended pieces start with a space (" Hopper CC needs
			// ..."); when a text is cut into sentences they come trimmed.
			if t := strings.TrimSpace(en); t != en {
				if _, ok := entries[t]; !ok {
					m.exact[unescape(t)] = strings.TrimSpace(unescape(zh))
				}
			}
			continue
		}
		// Pieces that the domain appends start or end with a space;
		// sentences are matched trimmed.
		trimmed := strings.TrimSpace(en)
		if trimmed != en {
			if verbs, err = parseFormat(trimmed); err != nil {
				return nil, err
			}
		}
		t, err := compileTemplate(trimmed, verbs, strings.TrimSpace(zh))
		if err != nil {
			return nil, fmt.Errorf("%q: %v", en, err)
		}
		ts = append(ts, t)
		m.templates[en] = t
		if !strings.Contains(unescape(trimmed), " ") {
			m.spaceless = append(m.spaceless, t)
		}
	}
	// File each template under its rarest whole literal word.
	words := make([][]string, len(ts))
	freq := map[string]int{}
	for i, t := range ts {
		words[i] = wholeWords(t.english)
		seen := map[string]bool{}
		for _, w := range words[i] {
			if !seen[w] {
				seen[w] = true
				freq[w]++
			}
		}
	}
	for i, t := range ts {
		best := ""
		for _, w := range words[i] {
			if best == "" || freq[w] < freq[best] || freq[w] == freq[best] && len(w) > len(best) {
				best = w
			}
		}
		if best == "" {
			m.fallback = append(m.fallback, t)
			continue
		}
		m.byWord[best] = append(m.byWord[best], t)
	}
	return m, nil
}

func compileTemplate(en string, verbs []fmtVerb, zh string) (*trTemplate, error) {
	t := &trTemplate{english: en, nargs: len(verbs)}
	last := 0
	letters := false
	for i, v := range verbs {
		if v.index != 0 {
			return nil, fmt.Errorf("%q: explicit indexes belong in the Chinese template only", en)
		}
		lit := unescape(en[last:v.start])
		if i == 0 {
			t.prefix = lit
		} else if lit != "" {
			t.middle = append(t.middle, lit)
		}
		t.litLen += len(lit)
		letters = letters || hasWord(lit)
		if lit != "" {
			t.segs = append(t.segs, trSeg{lit: lit})
		}
		if !verbKnown(v.verb) {
			return nil, fmt.Errorf("%q: verb %%%c is not supported", en, v.verb)
		}
		t.segs = append(t.segs, trSeg{verb: v.verb, arg: i})
		last = v.end
	}
	t.suffix = unescape(en[last:])
	t.litLen += len(t.suffix)
	letters = letters || hasWord(t.suffix)
	t.splitter = !letters
	if t.suffix != "" {
		t.segs = append(t.segs, trSeg{lit: t.suffix})
	}
	// The Chinese template: verbs refer to captures in order, or by index.
	zhVerbs, err := parseFormat(zh)
	if err != nil {
		return nil, err
	}
	last, next := 0, 0
	used := make([]bool, len(verbs))
	for _, v := range zhVerbs {
		if v.start > last {
			t.zh = append(t.zh, trPiece{text: unescape(zh[last:v.start]), arg: -1})
		}
		n := next
		if v.index != 0 {
			n = v.index - 1
		}
		if n >= len(verbs) {
			return nil, fmt.Errorf("%q: Chinese %q refers to argument %d of %d", en, zh, n+1, len(verbs))
		}
		used[n] = true
		if v.sharp {
			if t.verbatim == nil {
				t.verbatim = make([]bool, len(verbs))
			}
			t.verbatim[n] = true
		}
		t.zh = append(t.zh, trPiece{arg: n})
		next = n + 1
		last = v.end
	}
	if last < len(zh) {
		t.zh = append(t.zh, trPiece{text: unescape(zh[last:]), arg: -1})
	}
	for i, u := range used {
		if !u {
			return nil, fmt.Errorf("%q: Chinese %q drops argument %d", en, zh, i+1)
		}
	}
	return t, nil
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
}

// connectives join phrases without saying anything of their own: a
// template whose literal text holds only these ("%s or %s") is a splitter.
var connectives = map[string]bool{"or": true, "and": true, "on": true, "in": true, "of": true, "with": true}

// hasWord reports whether literal text has a word other than a connective.
func hasWord(s string) bool {
	for i := 0; i < len(s); {
		if !isLetter(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		if !connectives[s[i:j]] {
			return true
		}
		i = j
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// wholeWords lists the runs of letters in a format's literal text that are
// not glued to a verb: a sentence made from the format contains each of
// them as a run of letters of its own, whatever the arguments.
func wholeWords(f string) []string {
	var out []string
	for i := 0; i < len(f); {
		if !isLetter(f[i]) {
			i++
			continue
		}
		j := i
		for j < len(f) && isLetter(f[j]) {
			j++
		}
		// Glued to a verb before it: "%sx"; the letters are the verb's own
		// when preceded by '%' or a verb's width ("%.1f" ends in f).
		glued := false
		if i > 0 && (f[i-1] == '%' || isVerbEnd(f, i)) {
			glued = true
		}
		if j < len(f) && f[j] == '%' && !(j+1 < len(f) && f[j+1] == '%') {
			glued = true
		}
		if !glued {
			out = append(out, f[i:j])
		}
		i = j
	}
	return out
}

// isVerbEnd reports whether the letter at f[i] is a verb: f[i-1] is part of
// "%", "%.1", "%[2]", and so on.
func isVerbEnd(f string, i int) bool {
	k := i - 1
	for k >= 0 && strings.IndexByte("0123456789.+-# []", f[k]) >= 0 {
		k--
	}
	if k < 0 || f[k] != '%' {
		return false
	}
	// Count the run of '%' before: an odd count opens a verb.
	n := 0
	for k >= 0 && f[k] == '%' {
		n++
		k--
	}
	return n%2 == 1
}

// literalsInOrder is a cheap necessary condition for a match: the
// template's literal pieces occur in s in order, without overlapping.
func (t *trTemplate) literalsInOrder(s string) bool {
	at := len(t.prefix)
	end := len(s) - len(t.suffix)
	for _, lit := range t.middle {
		j := strings.Index(s[at:end], lit)
		if j < 0 {
			return false
		}
		at += j + len(lit)
	}
	return at <= end
}

// match reports whether s[pos:] matches the pattern from segment i on,
// recording each verb's span in caps (start, end per verb). Text verbs
// take the shortest span that lets the rest match.
func (t *trTemplate) match(s string, i, pos int, caps []int) bool {
	if i == len(t.segs) {
		return pos == len(s)
	}
	g := t.segs[i]
	if g.verb == 0 {
		return strings.HasPrefix(s[pos:], g.lit) && t.match(s, i+1, pos+len(g.lit), caps)
	}
	try := func(end int) bool {
		caps[2*g.arg], caps[2*g.arg+1] = pos, end
		return t.match(s, i+1, end, caps)
	}
	switch g.verb {
	case 's', 'v':
		// A capture does not run on past the end of a sentence ("... on
		// H100. Fix: ..."), unless it starts a sentence itself, as the
		// reasons after "...: " and "... TEE. " do.
		limit := len(s)
		if !sentenceStart(s, pos) {
			if k := sentenceEnd(s, pos); k >= 0 {
				limit = k
			}
		}
		if i+1 == len(t.segs) {
			return limit == len(s) && try(len(s))
		}
		if next := t.segs[i+1]; next.verb == 0 {
			for off := pos; off <= limit; {
				j := strings.Index(s[off:], next.lit)
				if j < 0 || off+j > limit {
					return false
				}
				if try(off + j) {
					return true
				}
				off += j + 1
			}
			return false
		}
		for end := pos; end <= limit; end++ {
			if try(end) {
				return true
			}
		}
		return false
	case 'q':
		end := quotedEnd(s, pos)
		return end > pos && try(end)
	case 'x', 'X':
		end := pos
		for end < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[end]) >= 0 {
			end++
		}
		return end > pos && try(end)
	}
	// A number: an integer for %d; a decimal, maybe with an exponent,
	// for the others. The longer reading is tried first.
	whole, exp := numberEnds(s, pos, g.verb != 'd')
	if exp > whole && try(exp) {
		return true
	}
	return whole > pos && try(whole)
}

// sentenceStart reports whether a sentence may start at s[pos]: at the
// beginning, or after ". ", ": " or "; ".
func sentenceStart(s string, pos int) bool {
	if pos == 0 {
		return true
	}
	return pos >= 2 && s[pos-1] == ' ' && strings.IndexByte(".:;", s[pos-2]) >= 0
}

// sentenceEnd returns the index just after the first full stop followed
// by a space at or after pos, or -1. Sentences the domain joins may start
// in lower case ("... those. jurisdiction fail: ...").
func sentenceEnd(s string, pos int) int {
	for {
		j := strings.Index(s[pos:], ". ")
		if j < 0 {
			return -1
		}
		if k := pos + j; !abbreviation(s, k) {
			return k + 1
		}
		pos += j + 2
	}
}

// abbreviations end in a full stop that ends no sentence.
var abbreviations = map[string]bool{"incl": true, "e.g": true, "i.e": true, "etc": true, "vs": true,
	"approx": true, "Inc": true, "Ltd": true, "Co": true, "St": true, "No": true, "Art": true, "Arts": true, "U.S": true}

// abbreviation reports whether the full stop at s[k] ends an abbreviation
// or an initial ("incl. Paperspace", "N. Virginia", "e.g. DE").
func abbreviation(s string, k int) bool {
	i := k
	for i > 0 && (isLetter(s[i-1]) || s[i-1] == '.') {
		i--
	}
	w := s[i:k]
	return len(w) == 1 || abbreviations[w]
}

// numberEnds scans a number at s[pos:]: the end of its digits (and
// decimals, when decimal) and, when an exponent follows, the end of that.
func numberEnds(s string, pos int, decimal bool) (whole, exp int) {
	i := pos
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if decimal && strings.HasPrefix(s[i:], "Inf") {
		return i + 3, i + 3
	}
	if decimal && strings.HasPrefix(s[i:], "NaN") {
		return i + 3, i + 3
	}
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || decimal && s[i] == '.') {
		if s[i] != '.' {
			digits++
		}
		i++
	}
	if digits == 0 {
		return pos, pos
	}
	whole, exp = i, i
	if decimal && i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if s[j] == '-' || s[j] == '+' {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			exp = k
		}
	}
	return whole, exp
}

// quotedEnd returns the end of a %q string at s[pos:], or -1.
func quotedEnd(s string, pos int) int {
	if pos >= len(s) {
		return -1
	}
	switch s[pos] {
	case '`':
		if j := strings.IndexByte(s[pos+1:], '`'); j >= 0 {
			return pos + j + 2
		}
	case '"':
		for i := pos + 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
	}
	return -1
}

// isProse reports whether s reads as English words rather than names,
// ids, numbers or field paths: it has several words, one of them a plain
// lower-case word ("Alibaba Cloud" and "Beijing, CN" are names; "C5
// unknown" is prose).
func isProse(s string) bool {
	if strings.IndexByte(s, ' ') < 0 {
		return false
	}
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, ",;:()[].\"'")
		if len(w) < 2 || abbreviations[w] {
			continue // "DigitalOcean (incl. Paperspace)" is a name
		}
		lower := true
		for i := 0; i < len(w); i++ {
			if w[i] < 'a' || w[i] > 'z' {
				lower = false
				break
			}
		}
		if lower {
			return true
		}
	}
	return false
}

// maxTrDepth bounds the recursion into captured sub-phrases.
const maxTrDepth = 8

// translate returns s in Chinese and whether anything was translated.
func (m *trMatcher) translate(s string, depth int) (string, bool) {
	c := trCall{m: m, budget: trBudget}
	out, ok, _ := c.translateLeft(s, depth)
	return out, ok
}

// translateCached is translate for Tr: a text that took the search of its
// parts (joined reasons, tens of microseconds to a few hundred) is
// remembered, since a response repeats it on many rows. The cache holds
// at most trCacheSize texts and starts afresh when full.
func (m *trMatcher) translateCached(s string) string {
	if v, ok := m.cache.Load(s); ok {
		return v.(string)
	}
	c := trCall{m: m, budget: trBudget}
	out, ok, _ := c.translateLeft(s, 0)
	if ok {
		out = tidySpaces(out)
	}
	if trBudget-c.budget > 4 {
		if m.cached.Add(1) > trCacheSize {
			m.cache.Clear()
			m.cached.Store(0)
		}
		m.cache.Store(s, out)
	}
	return out
}

const trCacheSize = 4096

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

// trBudget bounds the sub-phrases one sentence may try: joined texts can
// be cut in many ways, and Tr must stay fast whatever it is given.
const trBudget = 400

// trCall is one translation: the sub-phrases already translated (a
// joined text is cut in several ways that share pieces) and the work left.
type trCall struct {
	m      *trMatcher
	memo   map[string]trResult
	budget int
}

type trResult struct {
	out  string
	ok   bool
	left int
}

// translateLeft is translate that also counts the pieces of prose left in
// English inside the result (0: all of it is Chinese).
func (c *trCall) translateLeft(s string, depth int) (string, bool, int) {
	m := c.m
	if zh, ok := m.exact[s]; ok {
		return zh, true, 0
	}
	if t := strings.TrimSpace(s); t != s {
		// A piece appended with its leading space: Chinese needs none.
		return c.translateLeft(t, depth)
	}
	if depth > maxTrDepth || !hasLetter(s) || c.budget <= 0 {
		return s, false, 0
	}
	if r, ok := c.memo[s]; ok {
		return r.out, r.ok, r.left
	}
	c.budget--
	out, ok, left := c.search(s, depth)
	// Only phrases (with spaces) are worth remembering: they are what
	// joined texts share; a map for every id would cost more than it saves.
	if depth > 0 && strings.IndexByte(s, ' ') >= 0 {
		if c.memo == nil {
			c.memo = map[string]trResult{}
		}
		c.memo[s] = trResult{out, ok, left}
	}
	return out, ok, left
}

// search tries the templates filed under the words of s.
func (c *trCall) search(s string, depth int) (string, bool, int) {
	m := c.m
	var best *trTemplate
	var caps, bestCaps [2 * 16]int
	var splitBuf, otherBuf [8]*trTemplate
	splitters, others := splitBuf[:0], otherBuf[:0]
	try := func(t *trTemplate) {
		if t.litLen > len(s) || !strings.HasPrefix(s, t.prefix) || !strings.HasSuffix(s, t.suffix) {
			return
		}
		if !t.literalsInOrder(s) {
			return
		}
		if t.nargs <= len(caps)/2 && t.match(s, 0, 0, caps[:]) {
			switch {
			case t.splitter:
				if len(splitters) < cap(splitters) {
					splitters = append(splitters, t)
				}
			case best == nil || t.litLen > best.litLen:
				if best != nil && len(others) < cap(others) {
					others = append(others, best)
				}
				best, bestCaps = t, caps
			default:
				if len(others) < cap(others) {
					others = append(others, t)
				}
			}
		}
	}
	if strings.IndexByte(s, ' ') < 0 {
		// One token (an id, a field path, a number with its unit): only a
		// template without spaces can match it.
		for _, t := range m.spaceless {
			try(t)
		}
		if best != nil {
			out, left, _ := c.renderCounting(best, s, bestCaps[:2*best.nargs], depth)
			return out, true, left
		}
		return s, false, 0
	}
	var seen [48]string
	nseen := 0
	for i := 0; i < len(s); {
		if !isLetter(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		w := s[i:j]
		i = j
		bucket, ok := m.byWord[w]
		if !ok {
			continue
		}
		dup := false
		for _, x := range seen[:nseen] {
			if x == w {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		if nseen < len(seen) {
			seen[nseen] = w
			nseen++
		}
		for _, t := range bucket {
			try(t)
		}
	}
	for _, t := range m.fallback {
		try(t)
	}
	// The most specific template usually says it all.
	out, left, found := s, 0, false
	if best != nil {
		out, left, _ = c.renderCounting(best, s, bestCaps[:2*best.nargs], depth)
		found = true
		if left == 0 {
			return out, true, 0
		}
	}
	// A text of several sentences is most likely sentences joined: cut it
	// into runs of sentences that translate.
	if zh, ok, l := c.splitSentences(s, depth); ok && (!found || l < left) {
		// A long join keeps this cut: what English is left is in its
		// arguments (a provider's scope, as the catalog has it), and
		// trying every other cut of a long text costs milliseconds. A
		// short one may still be one template's two sentences.
		if l == 0 || len(sentenceCuts(s)) > 2 {
			return zh, true, l
		}
		out, left, found = zh, l, true
	}
	// Otherwise the cut that leaves the least English: another template
	// ("serving engine %s" around "%s %s (%s build) on %s: ..."), or a
	// splitter ("%s: %s", "%s %s: %s"), the more specific first.
	for i := 1; i < len(splitters); i++ {
		for j := i; j > 0 && splitters[j].litLen > splitters[j-1].litLen; j-- {
			splitters[j], splitters[j-1] = splitters[j-1], splitters[j]
		}
	}
	for _, t := range append(others, splitters...) {
		if found && left == 0 {
			break
		}
		t.match(s, 0, 0, caps[:])
		zh, l, translated := c.renderCounting(t, s, caps[:2*t.nargs], depth)
		if t.splitter && translated == 0 {
			continue
		}
		if !found || l < left {
			out, left, found = zh, l, true
		}
	}
	if found {
		return out, true, left
	}
	return s, false, 0
}

// renderCounting fills the Chinese template with the captures, each
// translated in turn when it is itself a catalog sentence or glossary term,
// and counts the captures translated and
// those left in English (words, not an id, with no entry).
func (c *trCall) renderCounting(t *trTemplate, s string, caps []int, depth int) (out string, left, translated int) {
	n := t.nargs
	args := make([]string, n)
	for i := 0; i < n; i++ {
		a := s[caps[2*i]:caps[2*i+1]]
		if t.verbatim != nil && t.verbatim[i] {
			args[i] = a
			continue
		}
		if zh, ok, l := c.translateLeft(a, depth+1); ok {
			a = zh
			translated++
			left += l
		} else if isProse(a) {
			left++
		}
		args[i] = a
	}
	var b strings.Builder
	b.Grow(len(s) * 2)
	for _, p := range t.zh {
		if p.arg >= 0 {
			b.WriteString(args[p.arg])
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String(), left, translated
}

// splitSentences translates a text that no template matches whole: the
// domain sometimes joins fixed sentences ("... or later. In CC mode ..."),
// or joins reasons with a space ("... one of those. jurisdiction fail:
// ..."), and renderers end a phrase with a full stop. The text is cut at
// full stops into runs of sentences (a template may hold several) so
// that the least English is left; it counts as translated when one run
// is, and says how much English is left.
func (c *trCall) splitSentences(s string, depth int) (string, bool, int) {
	if depth > maxTrDepth {
		return s, false, 0
	}
	if cuts := sentenceCuts(s); len(cuts) > 0 && len(cuts) <= 32 {
		// Runs of up to maxRun sentences (the longest template has three);
		// cost[i] is the English left in the best Chinese of s[:bounds[i]].
		const maxRun = 3
		bounds := append(append([]int{0}, cuts...), len(s))
		n := len(bounds) - 1
		done := make([]string, n+1)
		cost := make([]int, n+1)
		some := make([]bool, n+1)
		for i := 1; i <= n; i++ {
			cost[i] = -1
			for j := i - 1; j >= 0 && j >= i-maxRun; j-- {
				if j == 0 && i == n {
					continue // the whole text was tried already
				}
				run := strings.TrimSpace(s[bounds[j]:bounds[i]])
				zh, ok, left := c.translateLeft(run, depth+1)
				if !ok && isProse(run) {
					left = 1
				}
				if cost[i] < 0 || cost[j]+left < cost[i] {
					done[i], cost[i], some[i] = done[j]+zh, cost[j]+left, some[j] || ok
				}
				if left == 0 {
					break // the shortest run that says it all
				}
			}
		}
		if some[n] {
			return done[n], true, cost[n]
		}
	}
	// A phrase with a full stop added: "a GPU with more memory."
	if t, ok := strings.CutSuffix(s, "."); ok && !strings.HasSuffix(t, ".") {
		if zh, ok, left := c.translateLeft(t, depth+1); ok {
			return strings.TrimRight(zh, "。") + "。", true, left
		}
	}
	return s, false, 0
}

// sentenceCuts lists the places after each ". " followed by a letter,
// where a joined sentence may start.
func sentenceCuts(s string) []int {
	var cuts []int
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && isLetter(s[i+2]) && !abbreviation(s, i) {
			cuts = append(cuts, i+1)
		}
	}
	return cuts
}
