package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// TestFilesSelfContained checks that the page loads nothing from another
// host: no external fonts, scripts, styles or images.
func TestFilesSelfContained(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	for _, name := range []string{"index.html", "app.js", "app.css"} {
		b, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatalf("%s not embedded: %v", name, err)
		}
		for _, m := range external.FindAllString(string(b), -1) {
			if m == "http://www.w3.org" { // the SVG namespace, not a fetch
				continue
			}
			t.Errorf("%s refers to another host: %s", name, m)
		}
	}
}

// TestStringsTranslated checks that every string key exists in English and
// Chinese, and that every data-i18n key of index.html has a string.
func TestStringsTranslated(t *testing.T) {
	js, err := fs.ReadFile(FS, "app.js")
	if err != nil {
		t.Fatal(err)
	}
	src := string(js)
	en, zh := strings.Index(src, "\n    en: {"), strings.Index(src, "\n    zh: {")
	end := strings.Index(src, "\n  };")
	if en < 0 || zh < en || end < zh {
		t.Fatal("cannot find the en and zh string tables in app.js")
	}
	key := regexp.MustCompile(`(?m)(?:^\s*|[{,]\s*)"?([a-z][a-z0-9_-]*)"?:\s*"`)
	keys := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, m := range key.FindAllStringSubmatch(s, -1) {
			out[m[1]] = true
		}
		return out
	}
	enKeys, zhKeys := keys(src[en+len("\n    en: {"):zh]), keys(src[zh+len("\n    zh: {"):end])
	if len(enKeys) < 50 {
		t.Fatalf("found only %d English keys; the pattern is out of date", len(enKeys))
	}
	for k := range enKeys {
		if !zhKeys[k] {
			t.Errorf("string %q has no Chinese text", k)
		}
	}
	for k := range zhKeys {
		if !enKeys[k] {
			t.Errorf("string %q has Chinese text but no English", k)
		}
	}
	html, err := fs.ReadFile(FS, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`data-i18n="([^"]+)"`).FindAllStringSubmatch(string(html), -1) {
		if !enKeys[m[1]] {
			t.Errorf("index.html uses string %q, which app.js lacks", m[1])
		}
	}
}
