package cli

import (
	"io"
	"log/slog"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/server"
)

func newMCPCmd(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve gpupick to AI assistants: the Model Context Protocol over stdio",
		Long: `Serve gpupick's tools to an AI assistant or editor over the Model Context
Protocol, on stdin and stdout: recommend, predict, check, cost, explain, offers,
gpus and simulate, each the API's operation with the API's JSON as its result and
a short summary in the language asked (lang: en or zh); the example workloads and
the workload and service schemas are resources. Register it with the assistant as
a command ("gpupick mcp", with --catalog DIR if you use one). Logs go to stderr.
gpupick serve offers the same tools over HTTP at /mcp.`,
		Example: `  gpupick mcp
  gpupick mcp --catalog ./my-catalog`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, m, err := e.catalogAndCompat()
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			log := slog.New(slog.NewJSONHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			s, err := server.New(server.Config{Logger: log, Now: e.Now, Catalog: c, Compat: m})
			if err != nil {
				return err
			}
			defer s.Close()
			server.Version = version()
			t := &mcp.IOTransport{Reader: os.Stdin, Writer: nopWriteCloser{e.Stdout}}
			if err := s.MCP(server.LocalCaller).Run(ctx, t); err != nil && ctx.Err() == nil {
				return apperr.Wrap(apperr.Unavailable, "mcp", err)
			}
			return nil
		},
	}
}

// nopWriteCloser is a writer the transport may close: the command's
// stdout stays open for the process.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
