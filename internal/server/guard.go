package server

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/server/web"
)

// This file holds what the server checks before a request reaches an
// endpoint, to keep a browser from being turned against it: the Host it
// was sent to (DNS rebinding), the Origin of a write (cross-site request
// forgery), and the headers every response carries.

// securityHeaders sets on every response, before anything else runs, the
// headers that tell a browser how to treat it: no guessing of content
// types, no Referer sent on, and the page's content security policy (no
// inline script, no framing). A handler that serves another kind of
// document (the HTML report, the SVG chart) replaces the policy with a
// stricter one of its own.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", web.ContentSecurityPolicy)
		next.ServeHTTP(w, r)
	})
}

// svgPolicy is the content security policy of the Pareto chart: an image
// that needs nothing, opened on its own in a sandbox.
const svgPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox"

var styleElement = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

// documentPolicy is the content security policy of a standalone HTML
// document the server wrote (the recommendation report): no script at
// all, and only the style elements it holds, allowed by their hashes, so
// that nothing else inline applies even if a name in the report slipped
// past escaping.
func documentPolicy(doc []byte) string {
	var hashes []string
	for _, m := range styleElement.FindAllSubmatch(doc, -1) {
		sum := sha256.Sum256(m[1])
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	style := "'none'"
	if len(hashes) > 0 {
		style = strings.Join(hashes, " ")
	}
	return "default-src 'none'; style-src " + style + "; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
}

// hostCheck decides which Host headers the server answers, against DNS
// rebinding: a page on a name its attacker controls, re-pointed at this
// server's address, reaches the server with that name as its Host. Names
// the server answers: the loopback ones (localhost, 127.0.0.1, [::1], with
// the port it listens on), the names given with --allowed-host, and, on a
// non-loopback address, any IP address (a literal address has no DNS to
// rebind).
type hostCheck struct {
	public   bool            // listening on a non-loopback address
	port     string          // the configured port, when the connection does not tell
	anyHost  bool            // --allowed-host '*': the check is off
	anyPort  map[string]bool // allowed names without a port, lower case
	withPort map[string]bool // allowed host:port, lower case
}

// newHostCheck reads the listening address and --allowed-host entries
// (NAME, NAME:PORT, or * for any).
func newHostCheck(addr string, allowed []string) (*hostCheck, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, apperr.Invalidf("--addr", "want host:port, got %q", addr)
	}
	c := &hostCheck{public: !isLoopback(host), port: port, anyPort: map[string]bool{}, withPort: map[string]bool{}}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == "*":
			c.anyHost = true
			continue
		case a == "" || strings.ContainsAny(a, "/@?#* \t"):
			return nil, apperr.Invalidf("--allowed-host", "want a host name or name:port (no scheme or path), got %q", a)
		}
		name, p := splitHost(a)
		if p == "" {
			c.anyPort[name] = true
			continue
		}
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, apperr.Invalidf("--allowed-host", "bad port in %q", a)
		}
		c.withPort[net.JoinHostPort(name, p)] = true
	}
	return c, nil
}

// splitHost splits a Host header or an --allowed-host entry into its name
// (without IPv6 brackets) and its port ("" when it has none).
func splitHost(h string) (name, port string) {
	if n, p, err := net.SplitHostPort(h); err == nil {
		return n, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"), ""
}

// listenPort is the port the request came in on: the connection's, or the
// configured one for a request that did not come through a listener.
func (c *hostCheck) listenPort(r *http.Request) string {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if _, p, err := net.SplitHostPort(a.String()); err == nil {
			return p
		}
	}
	return c.port
}

// allows reports whether the server answers r's Host.
func (c *hostCheck) allows(r *http.Request) bool {
	if c.anyHost || r.Host == "" { // no Host (HTTP/1.0): not a browser
		return true
	}
	name, port := splitHost(strings.ToLower(r.Host))
	if port == "" {
		port = "80"
	}
	if c.anyPort[name] || c.withPort[net.JoinHostPort(name, port)] {
		return true
	}
	ip := net.ParseIP(name)
	if name == "localhost" || (ip != nil && ip.IsLoopback()) {
		return port == c.listenPort(r)
	}
	return ip != nil && c.public
}

// checkHost answers 421 to a request sent to a name the server does not
// answer to.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.hosts.allows(r) {
			next.ServeHTTP(w, r)
			return
		}
		p := s.hosts.listenPort(r)
		answers := fmt.Sprintf("localhost:%s, 127.0.0.1:%s and [::1]:%s", p, p, p)
		if s.hosts.public {
			answers = "its IP addresses and " + answers
		}
		s.writeError(w, r, &httpError{http.StatusMisdirectedRequest, ErrorBody{Code: codeMisdirected,
			Message: fmt.Sprintf("this server does not answer to the Host %q (a guard against DNS rebinding): it answers %s, "+
				"and the names given with --allowed-host (add %q there if this name is yours, as behind a proxy or a tunnel)",
				r.Host, answers, r.Host)}})
	})
}

// newOriginCheck builds the cross-site request forgery guard of writes and
// job starts: a POST, PUT, PATCH or DELETE that a browser sends from a page
// of another origin is refused, unless --cors allows that origin. It is
// nil, no check, when --cors allows any origin ("*"). Requests with no
// Origin and no Sec-Fetch-Site, as curl and the CLI send, pass.
func newOriginCheck(origins []string) (*http.CrossOriginProtection, error) {
	c := http.NewCrossOriginProtection()
	for _, o := range origins {
		o = strings.TrimSuffix(strings.TrimSpace(o), "/")
		if o == "*" {
			return nil, nil
		}
		if err := c.AddTrustedOrigin(o); err != nil {
			return nil, apperr.Invalidf("--cors", "want an origin such as https://app.example.com: %v", err)
		}
	}
	return c, nil
}

// checkOrigin answers 403 to a write or job start from another site's
// page.
func (s *Server) checkOrigin(next http.Handler) http.Handler {
	if s.origins == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.origins.Check(r); err != nil {
			from := "another site"
			if o := r.Header.Get("Origin"); o != "" {
				from = strconv.Quote(o)
			}
			s.writeError(w, r, &httpError{http.StatusForbidden, ErrorBody{Code: codeCrossOrigin,
				Message: fmt.Sprintf("cross-origin %s refused: a page from %s cannot write or start jobs on this server "+
					"(allow a trusted origin with --cors)", r.Method, from)}})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowedMethods lists the methods for which r's path has an endpoint of
// its own (not the page): empty when the path is unknown.
func (s *Server) allowedMethods(r *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := &http.Request{Method: m, URL: r.URL, Host: r.Host, Header: http.Header{}}
		if _, p := s.mux.Handler(probe); p != "" && p != "/" {
			out = append(out, m)
		}
	}
	return out
}

// pageHas reports whether the web page has a file at path.
func pageHas(path string) bool {
	if path == "/" {
		return true
	}
	_, err := fs.Stat(web.FS, strings.TrimPrefix(path, "/"))
	return err == nil
}

// methodNotAllowed is the 405 of a known path asked with another method;
// its Allow header lists the methods the path takes.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request, allow []string) {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	s.writeError(w, r, &httpError{http.StatusMethodNotAllowed, ErrorBody{Code: codeMethod,
		Message: fmt.Sprintf("%s is not a method of %s: it takes %s", r.Method, r.URL.Path, strings.Join(allow, ", "))}})
}
