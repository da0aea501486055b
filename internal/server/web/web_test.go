package web

import (
	"io/fs"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFilesSelfContained checks that the page loads nothing from another
// host: no external fonts, scripts, styles or images.
func TestFilesSelfContained(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	for _, name := range []string{"index.html", "app.js", "app.css", "404.html", "favicon.svg"} {
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
	keys := func(lang, s string) map[string]bool {
		out := map[string]bool{}
		for _, m := range key.FindAllStringSubmatch(s, -1) {
			if out[m[1]] {
				// A later key silently replaces the earlier one's text.
				t.Errorf("%s string %q is defined twice", lang, m[1])
			}
			out[m[1]] = true
		}
		return out
	}
	enKeys, zhKeys := keys("en", src[en+len("\n    en: {"):zh]), keys("zh", src[zh+len("\n    zh: {"):end])
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

// TestHandler: the page, its icon (also as /favicon.ico), the examples,
// and a proper 404 page for anything else, directories included.
func TestHandler(t *testing.T) {
	h := Handler()
	for _, tc := range []struct {
		path, status, typ, has string
	}{
		{"/", "200", "text/html", `<script src="app.js"></script>`},
		{"/app.js", "200", "javascript", "I18N"},
		{"/favicon.svg", "200", "image/svg+xml", "<svg"},
		{"/favicon.ico", "200", "image/svg+xml", "<svg"},
		{"/examples/llama3-8b-lora.yaml", "200", "", "name: llama3-8b-lora"},
		{"/examples/traces/sample-azure-synthetic.csv", "200", "", ","},
		{"/examples/", "404", "text/html", "Page not found"},
		{"/examples", "404", "text/html", "Page not found"},
		{"/no/such/page", "404", "text/html", "页面不存在"},
		{"/404.html", "404", "text/html", "Page not found"},
		{"/../go.mod", "404", "text/html", "Page not found"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
		if got := strconv.Itoa(rec.Code); got != tc.status || !strings.Contains(rec.Header().Get("Content-Type"), tc.typ) || !strings.Contains(rec.Body.String(), tc.has) {
			t.Errorf("GET %s: %s %q, want %s %s with %q", tc.path, got, rec.Header().Get("Content-Type"), tc.status, tc.typ, tc.has)
		}
	}
}

// TestExampleLists: the page's example pickers list every example file
// the repository has, and nothing else.
func TestExampleLists(t *testing.T) {
	js, err := fs.ReadFile(FS, "app.js")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, name := range []string{"WORKLOAD_EXAMPLES", "SERVICE_EXAMPLES"} {
		m := regexp.MustCompile(`(?s)var ` + name + ` = \[(.*?)\];`).FindSubmatch(js)
		if m == nil {
			t.Fatalf("no %s in app.js", name)
		}
		for _, f := range regexp.MustCompile(`"([^"]+)"`).FindAllSubmatch(m[1], -1) {
			listed[string(f[1])] = true
			if _, err := fs.Stat(FS, "examples/"+string(f[1])); err != nil {
				t.Errorf("%s lists %s, which is not an example", name, f[1])
			}
		}
	}
	files, err := fs.Glob(FS, "examples/*.yaml")
	if err != nil || len(files) < 10 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		if !listed[strings.TrimPrefix(f, "examples/")] {
			t.Errorf("%s is in no example picker", f)
		}
	}
}
