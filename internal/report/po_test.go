package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	message "github.com/gpupick/gpupick/internal/msg"
)

func TestParsePO(t *testing.T) {
	good := "# a comment\nmsgid \"\"\nmsgstr \"\"\n\"Language: zh\\n\"\n\n#. a note\nmsgctxt \"term\"\nmsgid \"compute\"\nmsgstr \"计算\"\n\nmsgid \"%s holds \"\n\"%s.\"\nmsgstr \"%s 持有 %s。\"\n"
	es, err := parsePO([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0] != (poEntry{Ctx: "term", ID: "compute", Str: "计算", Line: 8}) || es[1].ID != "%s holds %s." || es[1].Line != 11 {
		t.Errorf("entries %+v", es)
	}
	for in, want := range map[string]string{
		"msgid \"a\"\n": "line 1: msgid \"a\" has no msgstr",
		"msgid \"a\"\nmsgstr \"b\"\n\nmsgid \"a\"\nmsgstr \"c\"\n": "line 4: msgid \"a\" is already at line 1",
		"msgid \"a\"\nmsgid \"b\"\n":                               "line 2: a second msgid",
		"msgid a\n":                                                "line 1: msgid takes a quoted string",
		"\"orphan\"\n":                                             "line 1: a string outside",
		"msgfoo \"a\"\n":                                           "line 1: want msgctxt, msgid or msgstr",
		"msgstr \"b\"\n":                                           "an entry without msgid",
		"msgid \"a\"\nmsgstr \"b\"\nmsgctxt \"term\"\n":            "line 3: msgctxt must come before",
	} {
		if _, err := parsePO([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parsePO(%q) = %v, want %q", in, err, want)
		}
	}
}

// TestCatalogIsWellFormed: the embedded catalog parses, every entry has a
// translation, and a translation names no argument its English lacks (the
// verbs are checked below with msg.CheckTranslation).
func TestCatalogIsWellFormed(t *testing.T) {
	es, err := parsePO(zhPO)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) < 1000 {
		t.Errorf("%d entries: the catalog lost most of its sentences", len(es))
	}
	for _, e := range es {
		if strings.TrimSpace(e.Str) == "" && strings.TrimSpace(e.ID) != "" {
			t.Errorf("locales/zh.po:%d: %q has an empty msgstr", e.Line, e.ID)
		}
		table, _, keyedPhrase := strings.Cut(e.Ctx, ":")
		if e.Ctx != "" && e.Ctx != "term" && e.Ctx != "msg" && (!keyedPhrase || (table != "report" && table != "answer" && table != "cli")) {
			t.Errorf("locales/zh.po:%d: msgctxt %q: want none, \"term\", \"msg\" or report:KEY, answer:KEY, cli:KEY", e.Line, e.Ctx)
		}
		// A phrase's Chinese formats the arguments its English takes:
		// given the English's arguments, neither reports a bad verb.
		if args := phraseArgs(e.ID); keyedPhrase && len(args) > 0 && !strings.Contains(fmt.Sprintf(e.ID, args...), "%!") {
			if out := fmt.Sprintf(e.Str, args...); strings.Contains(out, "%!") {
				t.Errorf("locales/zh.po:%d: %s: the Chinese does not fit the English's arguments: %s", e.Line, e.Ctx, out)
			}
		}
	}
	// A sentence's or a message's Chinese says the English's arguments,
	// each at least once, and no other (as msg.Render reads it).
	for _, e := range zhEntries {
		if e.Ctx == "" || e.Ctx == "msg" {
			if err := message.CheckTranslation(e.ID, e.Str); err != nil {
				t.Errorf("locales/zh.po:%d: %v", e.Line, err)
			}
			if strings.TrimSpace(e.Str) == "" {
				t.Errorf("locales/zh.po:%d: %q has no Chinese", e.Line, e.ID)
			}
		}
	}
}

// phraseArgs are sample arguments of the types a phrase's verbs take
// (nil when it has none, or when it is not a format at all).
func phraseArgs(f string) []any {
	var args []any
	next := 0
	for _, v := range fmtVerbRe.FindAllStringSubmatch(strings.ReplaceAll(f, "%%", ""), -1) {
		i := next
		if v[1] != "" {
			n, _ := strconv.Atoi(v[1])
			i = n - 1
		}
		if i < 0 || i > 64 {
			return nil
		}
		next = i + 1
		for len(args) <= i {
			args = append(args, "x")
		}
		switch v[2] {
		case "d":
			args[i] = 7
		case "f", "g", "e":
			args[i] = 1.5
		}
	}
	return args
}

// fmtVerbRe is one verb of a format: its explicit index, its letter.
var fmtVerbRe = regexp.MustCompile(`%[-+# 0]*[0-9.]*(?:\[([0-9]+)\])?[-+# 0]*[0-9.]*([a-zA-Z])`)

func FuzzParsePO(f *testing.F) {
	f.Add(string(zhPO[:2000]))
	f.Add("msgid \"a\"\nmsgstr \"b\"\n")
	f.Add("msgctxt \"term\"\nmsgid \"\\u00e9\"\n\"x\"\nmsgstr \"\"\n")
	f.Fuzz(func(t *testing.T, s string) {
		es, err := parsePO([]byte(s))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range es {
			k := e.Ctx + "\x04" + e.ID
			if e.ID == "" || seen[k] || e.Line < 1 {
				t.Fatalf("accepted %+v (duplicate or empty)", e)
			}
			seen[k] = true
		}
	})
}

// BenchmarkLoadCatalog is what every command pays at start for the
// translations: parse locales/zh.po and build the sentence, term and
// keyed-phrase tables.
func BenchmarkLoadCatalog(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		loadCatalog(mustParsePO(zhPO))
		for _, t := range []string{"report", "answer", "cli"} {
			keyed(t)
		}
	}
}
