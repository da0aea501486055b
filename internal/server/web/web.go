// Package web holds gpupick's web page: static files embedded in the
// binary and served at / by the server, with no external fonts or scripts.
package web

import "embed"

// FS is the page's files: index.html is the entry point; it loads app.css
// and app.js (which holds the English and Chinese strings). Nothing else is
// fetched, so the page works with no network beyond the server itself.
//
//go:embed index.html app.js app.css
var FS embed.FS

// ContentSecurityPolicy is the policy the page is served with: scripts,
// styles and fetches from the page's own origin only (no inline script or
// style attribute: the page sets styles through the DOM), no plugins, and
// no framing by another page.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
