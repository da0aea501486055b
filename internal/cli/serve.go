package cli

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/server"
)

func newServeCmd(e *Env) *cobra.Command {
	var addr string
	var public bool
	var cors []string
	var rate float64
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--public] [--cors ORIGIN]",
		Short: "Serve the JSON API, its OpenAPI document and the web page over HTTP",
		Long: `Serve gpupick over HTTP: JSON endpoints for everything the CLI does, an OpenAPI
document at /openapi.json with a docs page at /docs, the web page at /, and
/healthz, /readyz and /metrics. Reads are open; saving and deleting workloads
and reports need an API token (gpupick token create). Logs are JSON lines on
stderr. Ctrl-C or SIGTERM stops accepting connections and finishes the
requests in flight.`,
		Example: `  gpupick serve
  gpupick serve --addr 0.0.0.0:8080 --public --db postgres://gpupick@db/gpupick`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			m, err := e.Compat()
			if err != nil {
				return err
			}
			dsn, err := e.storeDSN(e.dbFlag)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			s, err := server.New(server.Config{Addr: addr, DB: dsn, Public: public, CORSOrigins: cors, RateLimit: rate,
				Logger: slog.New(slog.NewJSONHandler(e.Stderr, nil)), Now: e.Now, Catalog: c, Compat: m,
				Reload: func() (*catalog.Catalog, error) { e.cat = nil; return e.Catalog() }})
			if err != nil {
				return err
			}
			defer s.Close()
			server.TuneRuntime()
			return s.ListenAndServe(ctx)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen on `HOST:PORT`")
	cmd.Flags().BoolVar(&public, "public", false, "allow a non-loopback address (refused unless an API token exists)")
	cmd.Flags().StringSliceVar(&cors, "cors", nil, "allow browsers from these `ORIGINS` (comma-separated; default: CORS off)")
	cmd.Flags().Float64Var(&rate, "rate-limit", 20, "requests per second allowed per client address, bursts of twice that (0 = no limit)")
	return cmd
}
