package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/server"
	"github.com/gpupick/gpupick/internal/store"
)

func newTokenCmd(e *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Manage the API tokens of gpupick serve",
		Args:  cobra.NoArgs,
	}
	var name string
	create := &cobra.Command{
		Use:   "create [--name NAME]",
		Short: "Create an API token for writes to gpupick serve; it is shown once and stored hashed",
		Example: `  gpupick token create --name ci
  gpupick token create --db postgres://gpupick@db/gpupick`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if strings.TrimSpace(name) == "" {
				return apperr.Invalidf("--name", "must not be blank")
			}
			token, hash, err := server.NewToken()
			if err != nil {
				return err
			}
			s, err := e.openStore(cmd.Context(), e.dbFlag)
			if err != nil {
				return err
			}
			defer s.Close()
			tk, ok := s.(store.Tokens)
			if !ok {
				return apperr.Wrap(apperr.Internal, "token create", fmt.Errorf("store %T keeps no tokens", s))
			}
			id, err := tk.CreateToken(cmd.Context(), name, hash)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.Stderr, "gpupick: token #%d %q created; it is shown once, only its hash is stored\n", id, name)
			_, err = fmt.Fprintln(e.Stdout, token)
			return err
		},
	}
	create.Flags().StringVar(&name, "name", "default", "a `NAME` to remember the token by")
	cmd.AddCommand(create)
	return cmd
}
