// Package web holds gpupick's web page: static files embedded in the
// binary and served at / by the server, with no external fonts or scripts.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/gpupick/gpupick/examples"
)

// files is the page itself: index.html is the entry point; it loads app.css
// and app.js (which holds the English and Chinese strings); favicon.svg is
// its icon and 404.html the page of a path that has none.
//
//go:embed index.html app.js app.css favicon.svg 404.html
var files embed.FS

// FS is what the page serves: its own files, and the repository's example
// files under examples/ (examples/llama3-8b-lora.yaml, ...), which the
// page's example pickers fetch. Nothing else is fetched, so the page works
// with no network beyond the server itself.
var FS fs.FS = pageFS{}

type pageFS struct{}

func (pageFS) Open(name string) (fs.File, error) {
	if name == "examples" {
		return examples.FS.Open(".")
	}
	if rest, ok := strings.CutPrefix(name, "examples/"); ok {
		return examples.FS.Open(rest)
	}
	return files.Open(name)
}

// ContentSecurityPolicy is the policy the page is served with: scripts,
// styles and fetches from the page's own origin only (no inline script or
// style attribute: the page sets styles through the DOM), no plugins, and
// no framing by another page. Downloads of a report are blob: URLs the
// page makes itself, which the policy need not name (a download is not a
// fetch).
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// modTime is the time the page's files are served as last modified: the
// embedded files have none, and a zero time would disable revalidation.
var modTime = time.Now()

// Handler serves FS: a file by its path, / as index.html, /favicon.ico as
// the SVG icon (browsers ask for it whatever the page links), and any
// other path as 404.html with status 404. Directories are not listed.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		switch name {
		case "":
			name = "index.html"
		case "favicon.ico":
			name = "favicon.svg"
		}
		b, err := fs.ReadFile(FS, name)
		if err != nil || name == "404.html" {
			NotFound(w, r)
			return
		}
		if name == "index.html" {
			w.Header().Set("Cache-Control", "no-cache")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=300")
		}
		w.Header().Set("ETag", contentTag(name, b))
		http.ServeContent(w, r, path.Base(name), modTime, bytes.NewReader(b))
	})
}

// etags caches contentTag by file name: the files never change.
var etags sync.Map

// contentTag is the ETag of a file: a hash of its content, the same on
// every replica and after a restart (unlike the modification time, which
// is the process's start), so a browser revalidates instead of
// downloading again.
func contentTag(name string, b []byte) string {
	if t, ok := etags.Load(name); ok {
		return t.(string)
	}
	sum := sha256.Sum256(b)
	t := `"` + hex.EncodeToString(sum[:12]) + `"`
	etags.Store(name, t)
	return t
}

// NotFound writes the page's 404.html with status 404.
func NotFound(w http.ResponseWriter, r *http.Request) {
	b, _ := fs.ReadFile(files, "404.html")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}
