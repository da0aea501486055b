package report

import (
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
		if strings.TrimSpace(e.Str) == "" {
			t.Errorf("locales/zh.po:%d: %q has an empty msgstr", e.Line, e.ID)
		}
	}
	if _, err := compileCatalog(trCatalogEntries()); err != nil {
		t.Error(err)
	}
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
