package cli

import (
	"log/slog"
	"net/netip"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/server"
)

func newServeCmd(e *Env) *cobra.Command {
	var addr string
	var public bool
	var cors []string
	var rate float64
	var proxies []string
	var hosts []string
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--public] [--cors ORIGIN] [--allowed-host NAME] [--trusted-proxy CIDR]",
		Short: "Serve the JSON API, its OpenAPI document and the web page over HTTP",
		Long: `Serve gpupick over HTTP: JSON endpoints for everything the CLI does, an OpenAPI
document at /openapi.json with a docs page at /docs, the web page at /, and
/healthz, /readyz and /metrics, and the MCP tools of gpupick mcp at /mcp
(streamable HTTP, for AI assistants). Reads are open; saving and deleting workloads
and reports need an API token (gpupick token create). Requests must be sent
to a loopback name (or, with --public, an IP address) or a name given with
--allowed-host; a write or a simulation from another site's page is refused
unless --cors names that site. Logs are JSON lines on stderr. Ctrl-C or
SIGTERM stops accepting connections and finishes the requests in flight.`,
		Example: `  gpupick serve
  gpupick serve --addr 0.0.0.0:8080 --public --allowed-host gpupick.corp.example --db postgres://gpupick@db/gpupick --trusted-proxy 10.0.0.0/8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			trusted, err := parsePrefixes(proxies)
			if err != nil {
				return err
			}
			c, m, err := e.catalogAndCompat()
			if err != nil {
				return err
			}
			dsn, err := e.storeDSN(e.dbFlag)
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			log := slog.New(slog.NewJSONHandler(e.Stderr, nil))
			s, err := server.New(server.Config{Addr: addr, DB: dsn, Public: public, CORSOrigins: cors, AllowedHosts: hosts, RateLimit: rate, TrustedProxies: trusted,
				Logger: log, Now: e.Now, Catalog: c, Compat: m,
				Reload: func() (*catalog.Catalog, error) { e.cat = nil; return e.Catalog() }})
			if err != nil {
				return err
			}
			defer s.Close()
			server.Version = version()
			log.Info("runtime", "memory", server.TuneRuntime())
			return s.ListenAndServe(ctx)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen on `HOST:PORT`")
	cmd.Flags().BoolVar(&public, "public", false, "allow a non-loopback address (refused unless an API token exists)")
	cmd.Flags().StringSliceVar(&cors, "cors", nil, "allow browsers from these `ORIGINS` (comma-separated; default: CORS off)")
	cmd.Flags().StringSliceVar(&hosts, "allowed-host", nil, "also answer requests whose Host is one of these `NAMES` (NAME or NAME:PORT, comma-separated; * for any): a proxy's or a public server's DNS name")
	cmd.Flags().Float64Var(&rate, "rate-limit", 20, "requests per second allowed per client address, bursts of twice that (0 = no limit)")
	cmd.Flags().StringSliceVar(&proxies, "trusted-proxy", nil, "load balancers (`CIDR` or address, comma-separated) whose X-Forwarded-For names the client")
	return cmd
}

// parsePrefixes reads --trusted-proxy: CIDR prefixes or single addresses.
func parsePrefixes(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range list {
		v = strings.TrimSpace(v)
		if p, err := netip.ParsePrefix(v); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(v)
		if err != nil {
			return nil, apperr.Invalidf("--trusted-proxy", "want a CIDR prefix (10.0.0.0/8) or an address, got %q", v)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
