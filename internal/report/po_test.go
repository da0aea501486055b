package report

import (
	"fmt"
	"strings"
	"testing"
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
// matcher's compile checks the verbs themselves).
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
	if _, err := compileCatalog(trCatalogEntries()); err != nil {
		t.Error(err)
	}
}

// phraseArgs are sample arguments of the types a phrase's verbs take
// (nil when it has none, or when it is not a format at all).
func phraseArgs(f string) []any {
	verbs, err := parseFormat(f)
	if err != nil {
		return nil
	}
	var args []any
	next := 0
	for _, v := range verbs {
		i := next
		if v.index > 0 {
			i = v.index - 1
		}
		next = i + 1
		for len(args) <= i {
			args = append(args, "x")
		}
		switch v.verb {
		case 'd':
			args[i] = 7
		case 'f', 'g', 'e':
			args[i] = 1.5
		}
	}
	return args
}

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
