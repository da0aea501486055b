package report

import (
	"strings"
	"testing"
)

func TestTableAlignsWideCharacters(t *testing.T) {
	tb := &Table{Columns: []Column{{"名称", "name", false}, {"N", "n", true}}}
	tb.Add("腾讯云", "1")
	tb.Add("aws", "12")
	var b strings.Builder
	if err := tb.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	// Every line has the same display width: CJK characters count as two.
	w := displayWidth(lines[0])
	for _, l := range lines[1:] {
		if displayWidth(l) != w {
			t.Errorf("misaligned:\n%s", b.String())
		}
	}
	if displayWidth("腾讯云") != 6 || displayWidth("abc") != 3 {
		t.Error("displayWidth")
	}
}

func TestCSVHasKeysNotHeaders(t *testing.T) {
	tb := &Table{Columns: []Column{{"PRICE $/h", "price_usd_per_hour", true}}, Notes: []string{"a note"}}
	tb.Add("1.5")
	var b strings.Builder
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != "price_usd_per_hour\n1.5\n" {
		t.Errorf("csv %q", b.String())
	}
}

func TestNumbersAndLanguages(t *testing.T) {
	for in, want := range map[float64]string{0: "", 1.23456: "1.235", 1000: "1000"} {
		if got := num(in, 3); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[float64]string{12.345: "12.35", 1234.5: "1235", 123456.7: "123457"} {
		if got := money(in); got != want {
			t.Errorf("money(%v) = %q, want %q", in, got, want)
		}
	}
	if l, _ := ParseLang("", "zh_CN.UTF-8"); l != Chinese {
		t.Error("a Chinese LANG gives Chinese")
	}
	if l, _ := ParseLang("en", "zh_CN.UTF-8"); l != English {
		t.Error("--lang wins over LANG")
	}
	if _, err := ParseLang("fr", ""); err == nil {
		t.Error("fr is not a supported language")
	}
	if _, err := ParseFormat("yaml", Text, JSONFmt); err == nil {
		t.Error("yaml is not an allowed format")
	}
	// Every warning code has both languages.
	for code, tmpl := range warnTemplates {
		if tmpl[0] == "" || tmpl[1] == "" {
			t.Errorf("warning %s lacks a translation", code)
		}
	}
}

// A workload's name and the catalog's strings are text in Markdown, not
// markup: no HTML survives, no emphasis, link, autolink, mention or cell
// starts.
func TestMarkdownEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"<script>alert(1)</script>": "&lt;script&gt;alert(1)&lt;/script&gt;",
		"a|b":                       `a\|b`,
		"*bold* [x](y)":             `\*bold\* \[x\](y)`,
		"plain name":                "plain name",
		"ping @org/team":            "ping &#64;org/team",
		"see https://x.example":     "see https&#58;//x.example",
		"llama3:70b":                "llama3:70b",
	} {
		if got := mdEscape(in); got != want {
			t.Errorf("mdEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
