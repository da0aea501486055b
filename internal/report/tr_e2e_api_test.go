package report_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/catalogtest"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/server"
)

// trAPIPending lists the JSON fields of a Chinese API answer that still
// carry English (issue 16, in progress); each is logged, not failed, and
// leaves the list once the server puts it in the request's language.
var trAPIPending = map[string]string{
	"unit":                     "units of unit cost and factors are sent as English labels",
	"evidence.date":            "a published result's date as its source states it",
	"evidence.summary":         "a published result's summary is data, in the words of the project's validation rows (the answer's sentences say it in Chinese)",
	"price_freshness.sentence": "the price-freshness sentence is not localised",
	"spot.hazard_source":       "the spot hazard's source is sent in English (the catalog has it)",
}

// TestChineseAPIHasNoEnglish posts every example to POST /api/v1/recommend
// with "lang": "zh", as the page does, and fails on a sentence of the
// answer with English words outside names and units. Codes, ids, sources
// and the fields with no Chinese at all by design (codes, offers) are not
// sentences: a string is checked when it reads as prose (spaces and
// lower-case words) or holds Chinese.
func TestChineseAPIHasNoEnglish(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example through the API")
	}
	b, err := fs.ReadFile(data.FS, "compat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mx, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Catalog: catalogtest.Embedded(t), Compat: mx,
		Now: func() time.Time { return fixedNow }, DB: filepath.Join(t.TempDir(), "gpupick.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	allowed := trAllowedWords(t)
	han := regexp.MustCompile(`\p{Han}`)
	examples, _ := filepath.Glob("../../examples/*.yaml")
	for _, ex := range examples {
		if strings.HasPrefix(filepath.Base(ex), "service-") {
			continue
		}
		text, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"workload": string(text), "lang": "zh"})
		resp, err := http.Post(ts.URL+"/api/v1/recommend", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		found := map[string][]string{}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					// plan_service is a service file (YAML keys and values),
					// not a sentence.
					if k == "source" || k == "sources" || k == "code" || k == "offer" || k == "plan_service" || k == "url" {
						continue
					}
					walk(strings.TrimPrefix(path+"."+k, "."), x)
				}
			case []any:
				for _, x := range v {
					walk(path, x)
				}
			case string:
				if !han.MatchString(v) && !strings.Contains(v, " ") {
					return // an id, a code, a number
				}
				if w := englishWords(v, allowed); len(w) > 0 && len(found[path]) < 6 {
					found[path] = append(found[path], w...)
				}
			}
		}
		walk("", doc)
		paths := make([]string, 0, len(found))
		for p := range found {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			report := t.Errorf
			for suffix, why := range trAPIPending {
				if p == suffix || strings.HasSuffix(p, "."+suffix) {
					report = t.Logf
					t.Logf("%s is pending (%s)", p, why)
				}
			}
			report("%s: %s: English in a Chinese answer:\n%s", filepath.Base(ex), p, strings.Join(found[p], "\n"))
		}
	}
}
