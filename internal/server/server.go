// Package server is gpupick's HTTP service: JSON over HTTP for everything the
// CLI does (listings, predict, recommend, check, cost, exports, simulations
// as jobs, catalog history), saved workloads and reports, an OpenAPI 3
// document generated from the handlers' own types, and the embedded web
// page. It is an edge: it parses requests, calls the domain packages and
// writes their results; it computes nothing itself.
//
// Reads are open; writes (saving and deleting documents) need an API token
// (Authorization: Bearer), recorded hashed in the store. Bodies are JSON
// and capped at 1 MiB, clients are rate-limited, panics become 500
// internal without a trace, and CORS is off unless origins are configured.
// Against a browser turned on the server (guard.go): a Host the server
// does not answer to is refused, a write or job start from another
// origin's page is refused, and every response carries a content security
// policy. Recommendations evaluate one per core; the rest wait their turn
// in arrival order.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/store"
)

// MaxBodyBytes caps every request body.
const MaxBodyBytes = 1 << 20

// Config is what a Server is built from. Catalog and Compat are required.
type Config struct {
	// Addr is the listening address, host:port (default 127.0.0.1:8080).
	Addr string
	// DB is a store data source (SQLite file or postgres:// URL) opened
	// by New when Store is nil; empty means no store: the saved-document
	// and catalog-history endpoints answer 404.
	DB string
	// Store, when set, is used instead of opening DB; the caller closes it.
	Store store.Store
	// Public allows a non-loopback Addr; ListenAndServe then refuses to
	// start unless the store holds at least one API token.
	Public bool
	// CORSOrigins are the origins (scheme://host[:port]) allowed to call
	// the API from a browser, writes and job starts included; empty means
	// no CORS headers at all, and a write from a page of another origin is
	// refused. "*" allows any origin.
	CORSOrigins []string
	// AllowedHosts are the names, NAME or NAME:PORT, that requests may
	// carry in their Host header besides the loopback names with the
	// listening port (and, on a non-loopback Addr, IP addresses): the
	// names a proxy or a tunnel forwards, or a public server's DNS name.
	// "*" allows any Host (no DNS rebinding guard).
	AllowedHosts []string
	// RateLimit is the sustained requests per second allowed per client
	// address, with bursts of twice that; 0 means no limit.
	RateLimit float64
	// TrustedProxies are the load balancers in front of the service: a
	// request from one of them is counted (rate limit, logs) against the
	// client its X-Forwarded-For names, the nearest address there that is
	// not itself a trusted proxy. Empty: the header is ignored, as anyone
	// can send it.
	TrustedProxies []netip.Prefix
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
	// Now is the clock (tests fix it); nil means time.Now.
	Now func() time.Time
	// Catalog is the catalog every request judges against.
	Catalog *catalog.Catalog
	// Reload, when set, rebuilds the catalog after the store changed (a
	// price import through the API); nil keeps Catalog until restart.
	Reload func() (*catalog.Catalog, error)
	// Compat is the software-stack compatibility matrix.
	Compat *compat.Matrix
	// MaxJobs bounds simulations running at once (default 4); MaxKeptJobs
	// bounds the finished ones kept for polling (default 100).
	MaxJobs, MaxKeptJobs int
}

// Server is the HTTP service. Build it with New.
type Server struct {
	cfg       Config
	state     atomic.Pointer[state] // swapped whole when prices change
	base      atomic.Pointer[catalog.Catalog]
	overlay   atomic.Pointer[catalog.Overlay]
	matrix    *compat.Matrix
	store     store.Store
	ownsStore bool
	log       *slog.Logger
	now       func() time.Time
	handler   http.Handler
	metrics   *metrics
	limiter   *limiter
	refused   *refusals
	jobs      *jobs
	routes    []*route
	mux       *http.ServeMux
	hosts     *hostCheck
	origins   *http.CrossOriginProtection // nil: any origin may write
	gate      chan struct{}               // a slot per recommend evaluating now
}

// state is what requests judge against: the catalog, and the caches that
// are only valid for it (stack verdicts, predictions). Requests take one
// state at their start, so a price import never mixes two catalogs.
type state struct {
	cat         *catalog.Catalog
	checker     *app.Checker
	predictions *advisor.PredictionCache
	answers     *answerCache                       // recommend answers, encoded
	sells       map[string]*[catalog.NumModes]bool // pricing modes each provider sells
}

func (s *Server) st() *state { return s.state.Load() }

// setCatalog makes c the catalog of every new request.
func (s *Server) setCatalog(c *catalog.Catalog) {
	s.state.Store(&state{cat: c, checker: app.NewChecker(s.matrix, c), predictions: &advisor.PredictionCache{},
		answers: newAnswerCache(answerCacheBytes), sells: sells(c)})
}

// New checks cfg, opens the store when cfg.DB names one, and builds the
// routes.
func New(cfg Config) (*Server, error) {
	if cfg.Catalog == nil || cfg.Compat == nil {
		return nil, apperr.Invalidf("", "server: a catalog and a compatibility matrix are required")
	}
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:8080"
	}
	if cfg.RateLimit < 0 {
		return nil, apperr.Invalidf("rate_limit", "must be >= 0")
	}
	hosts, err := newHostCheck(cfg.Addr, cfg.AllowedHosts)
	if err != nil {
		return nil, err
	}
	origins, err := newOriginCheck(cfg.CORSOrigins)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, matrix: cfg.Compat, store: cfg.Store, log: cfg.Logger, now: cfg.Now, hosts: hosts, origins: origins}
	s.base.Store(cfg.Catalog)
	s.setCatalog(cfg.Catalog)
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.store == nil && cfg.DB != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		st, err := store.Open(ctx, cfg.DB, store.WithClock(s.now))
		if err != nil {
			return nil, err
		}
		s.store, s.ownsStore = st, true
	}
	s.metrics = newMetrics()
	if cfg.RateLimit > 0 {
		s.limiter = newLimiter(cfg.RateLimit, 2*cfg.RateLimit, s.now)
	}
	s.refused = &refusals{clients: map[string]int{}, now: s.now, every: refusalEvery,
		emit: func(n int, since time.Time, clients int, top string, topN int) {
			s.log.Warn("requests refused for their rate", "status", http.StatusTooManyRequests, "count", n,
				"since", since.UTC().Format(time.RFC3339), "clients", clients, "top_client", top, "top_client_count", topN)
		}}
	// Recommendations evaluate one to a core, each on one core: the rest
	// (/healthz, the page, the offers listing) needs no reserved core, as
	// the Go scheduler preempts a running evaluation every 10 ms. (Measured
	// on 2 cores with distinct 70B pre-training workloads: one on each
	// core served 90 requests/s at p99 0.85 s with /healthz under 85 ms;
	// one slot and a core left free served 54 at p99 1.3 s; two at a time
	// on two cores each served 17; BENCHMARKS.md.)
	s.gate = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	shared, _ := s.store.(store.Jobs)
	s.jobs = newJobs(max(1, orDefault(cfg.MaxJobs, 4)), max(1, orDefault(cfg.MaxKeptJobs, 100)), s.now, shared, s.log)
	s.handler = s.buildHandler()
	// Negotiated prices stored by an earlier run or another replica.
	if err := s.syncPrices(context.Background()); err != nil {
		s.log.Warn("reading the stored prices", "err", err.Error())
	}
	return s, nil
}

// admit waits for an evaluation slot, first come first served, and returns
// the function that frees it. There is one slot per core, so a few at a
// time finish sooner than fifty sharing the cores: under load each
// request waits in line instead of being slowed by all the others, which
// keeps the slowest answers close to the typical one. A client that gives
// up while waiting frees its place.
func (s *Server) admit(ctx context.Context) (func(), error) {
	select {
	case s.gate <- struct{}{}:
		return func() { <-s.gate }, nil
	case <-ctx.Done():
		return nil, apperr.Wrap(apperr.Unavailable, "waiting to evaluate", ctx.Err())
	}
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// Handler returns the service's handler, middleware included.
func (s *Server) Handler() http.Handler { return s.handler }

// Close cancels running simulations and closes a store New opened.
func (s *Server) Close() error {
	s.jobs.cancelAll()
	if s.ownsStore {
		return s.store.Close()
	}
	return nil
}

// CheckPublic refuses a non-loopback address unless Public is set and the
// store holds at least one API token.
func (s *Server) CheckPublic(ctx context.Context) error {
	host, _, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return apperr.Invalidf("--addr", "want host:port, got %q", s.cfg.Addr)
	}
	if isLoopback(host) {
		return nil
	}
	if !s.cfg.Public {
		return apperr.Invalidf("--addr", "%s is not a loopback address: give --public (and create a token with gpupick token create) to serve it", host)
	}
	tk, ok := s.store.(store.Tokens)
	if s.store == nil || !ok {
		return apperr.Invalidf("--public", "a public server needs API tokens, and there is no store to hold them (give --db)")
	}
	n, err := tk.CountTokens(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.Invalidf("--public", "no API token configured: create one with gpupick token create")
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ListenAndServe serves until ctx is cancelled, then stops accepting
// connections and waits up to 30 s for the requests in flight.
func (s *Server) ListenAndServe(ctx context.Context) error {
	if err := s.CheckPublic(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "listen on "+s.cfg.Addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve is ListenAndServe on a listener the caller opened.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	s.log.Info("serving", "addr", ln.Addr().String(), "public", s.cfg.Public, "store", s.store != nil)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return apperr.Wrap(apperr.Unavailable, "serve", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	s.jobs.cancelAll()
	if e := <-done; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "shutdown", err)
	}
	s.refused.tick(true)
	s.log.Info("stopped")
	return nil
}

// buildHandler registers the routes and wraps them in the middleware, the
// outermost first: security headers, recover, log and measure, rate limit,
// Host, Origin of writes, CORS, compression.
func (s *Server) buildHandler() http.Handler {
	mux := http.NewServeMux()
	s.mux = mux
	s.routes = s.apiRoutes()
	for _, rt := range s.routes {
		mux.Handle(rt.method+" "+rt.path, s.endpoint(rt))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		s.writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.HandleFunc("GET /metrics", s.metrics.serve)
	mux.HandleFunc("GET /openapi.json", s.openAPI)
	mux.HandleFunc("GET /api/v1/openapi.json", s.openAPI) // the same, beside the API it describes
	mux.HandleFunc("GET /docs", docsFile("docs.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /docs.js", docsFile("docs.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /docs.css", docsFile("docs.css", "text/css; charset=utf-8"))
	// MCP over streamable HTTP, stateless: each request's caller (its
	// address, its token) is the one its tools act for.
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		return s.MCP(Caller{RemoteAddr: s.clientIP(r), Header: r.Header})
	}, &mcp.StreamableHTTPOptions{Stateless: true, Logger: s.log}))
	mux.Handle("/", s.webPage())         // also answers unknown paths and wrong methods, in JSON
	var h http.Handler = s.compress(mux) // innermost: what a handler writes, not the guards' short refusals
	h = s.cors(h)
	h = s.checkOrigin(h)
	h = s.checkHost(h)
	h = s.rateLimit(h)
	h = s.observe(h)
	h = s.recoverPanics(h)
	h = securityHeaders(h)
	return h
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.store != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if _, err := s.store.ListReports(ctx); err != nil {
			s.writeError(w, r, apperr.Wrap(apperr.Unavailable, "store not reachable", err))
			return
		}
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"status": "ready", "store": s.store != nil})
}

// recoverPanics turns a panic into 500 internal: logged with its value,
// never a stack trace in the response.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
				s.writeError(w, r, errors.New("panic"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe logs each request as one JSON line and counts it per route: the
// pattern the mux matched, or for a request answered before it (rate
// limited, a refused Host or Origin, a CORS preflight) the pattern it
// would have matched.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if sw.status == 0 {
				sw.status = http.StatusOK
			}
			d := time.Since(start)
			route := r.Pattern // set by the mux on this request
			if route == "" {
				_, route = s.mux.Handler(r)
			}
			if route == "" {
				route = "unmatched"
			}
			s.metrics.observe(route, sw.status, d)
			if sw.status == http.StatusTooManyRequests {
				// Counted, and logged once an interval: a flood of refusals
				// must not fill the disk.
				s.refused.add(s.clientIP(r))
				return
			}
			s.refused.tick(false)
			s.log.InfoContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "route", route,
				"status", sw.status, "duration_ms", float64(d.Microseconds())/1000, "client", s.clientIP(r))
		}()
		next.ServeHTTP(sw, r)
	})
}

// cors answers browsers only for the configured origins.
func (s *Server) cors(next http.Handler) http.Handler {
	if len(s.cfg.CORSOrigins) == 0 {
		return next
	}
	allowed := map[string]bool{}
	for _, o := range s.cfg.CORSOrigins {
		allowed[strings.TrimSuffix(o, "/")] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && (allowed[origin] || allowed["*"]) {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Cancel-Key")
			h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS")
			h.Set("Access-Control-Max-Age", "600")
			if r.Method == http.MethodOptions {
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// rateLimit refuses clients over their budget with 429.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !probe(r.URL.Path) && !s.limiter.allow(s.clientIP(r)) {
			w.Header().Set("Retry-After", "1")
			s.writeError(w, r, &httpError{http.StatusTooManyRequests, ErrorBody{Code: codeRateLimited,
				Message: fmt.Sprintf("more than %g requests per second from this client: slow down", s.cfg.RateLimit)}})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// clientIP is the address a request is counted against: the peer without
// its port, or, when the peer is a trusted proxy, the client X-Forwarded-For
// names. Proxies append the peer they saw, so the header is read from the
// right, skipping trusted proxies: entries further left were written by
// the client and could be forged. A hop that is not an address (with or
// without a port) ends the walk, and the request counts against the last
// proxy that wrote a good one.
func (s *Server) clientIP(r *http.Request) string {
	peer, ok := parseHop(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !s.trusted(peer) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		if strings.TrimSpace(hops[i]) == "" {
			continue
		}
		hop, ok := parseHop(hops[i])
		if !ok {
			break
		}
		peer = hop
		if !s.trusted(hop) {
			break
		}
	}
	return peer.String()
}

// parseHop reads an address, with or without a port (1.2.3.4, 1.2.3.4:80,
// 2001:db8::1, [2001:db8::1]:80).
func parseHop(v string) (netip.Addr, bool) {
	v = strings.TrimSpace(v)
	if ap, err := netip.ParseAddrPort(v); err == nil {
		return ap.Addr().Unmap(), true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"))
	return a.Unmap(), err == nil
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// TuneRuntime sets the garbage collector for a server process: a
// recommendation allocates a few megabytes and throws them away, and the
// default GOGC of 100 spends a quarter of the CPU collecting them. Unless
// GOGC is set, the collector runs at 400% heap growth instead, trading some
// tens of megabytes of memory for throughput.
//
// Unless GOMEMLIMIT is set, the Go memory limit is set to 85% of the
// container's memory limit (cgroup v2 memory.max, or v1
// memory.limit_in_bytes) when there is one, so that the collector works
// harder as the process nears it instead of the container being killed. It
// returns what it did, for the log.
func TuneRuntime() string {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return "GOMEMLIMIT from the environment"
	}
	limit, ok := ContainerMemoryLimit(os.ReadFile)
	if !ok {
		return "no container memory limit found: no Go memory limit"
	}
	soft := limit / 100 * 85
	debug.SetMemoryLimit(soft)
	return fmt.Sprintf("Go memory limit %d MiB, 85%% of the container's %d MiB", soft>>20, limit>>20)
}

// ContainerMemoryLimit reads the memory limit of the process's cgroup:
// cgroup v2's memory.max, else v1's memory.limit_in_bytes; false when
// neither gives a limit ("max", or v1's near-2^63 "unlimited").
func ContainerMemoryLimit(read func(string) ([]byte, error)) (int64, bool) {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := read(f)
		if err != nil {
			continue
		}
		v := strings.TrimSpace(string(b))
		if v == "max" {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 || n >= 1<<50 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}
