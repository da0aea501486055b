package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/server"
	"github.com/gpupick/gpupick/internal/store"
)

func newTokenCmd(e *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Manage the API tokens of gpupick serve",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newTokenCreateCmd(e), newTokenListCmd(e), newTokenRevokeCmd(e))
	return cmd
}

// tokenStore opens the store (creating it when create is set) and returns
// its tokens.
func (e *Env) tokenStore(ctx context.Context, create bool) (store.Store, store.Tokens, error) {
	var s store.Store
	var err error
	if create {
		s, err = e.openStore(ctx, e.dbFlag)
	} else {
		s, _, err = e.openExistingStore(ctx, e.dbFlag)
	}
	if err != nil {
		return nil, nil, err
	}
	tk, ok := s.(store.Tokens)
	if !ok {
		s.Close()
		return nil, nil, apperr.Wrap(apperr.Internal, "tokens", fmt.Errorf("store %T keeps no tokens", s))
	}
	return s, tk, nil
}

func newTokenCreateCmd(e *Env) *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "create [--name NAME]",
		Short: "Create an API token for writes to gpupick serve; it is shown once and stored hashed",
		Example: `  gpupick token create --name ci
  gpupick token create --db postgres://gpupick@db/gpupick`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkTokenName(name); err != nil {
				return err
			}
			token, hash, err := server.NewToken()
			if err != nil {
				return err
			}
			s, tk, err := e.tokenStore(cmd.Context(), true)
			if err != nil {
				return err
			}
			defer s.Close()
			id, err := tk.CreateToken(cmd.Context(), name, hash)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.Stderr, "gpupick: token #%d %q created; it is shown once, only its hash is stored\n", id, name)
			_, err = fmt.Fprintln(e.Stdout, token)
			return err
		},
	}
	cmd.Flags().StringVar(&name, "name", "default", "a `NAME` to remember the token by")
	return cmd
}

func newTokenListCmd(e *Env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the API tokens: id, name, when created and last used (never the token)",
		Example: `  gpupick token list -o json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			s, tk, err := e.tokenStore(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer s.Close()
			list, err := tk.ListTokens(cmd.Context())
			if err != nil {
				return err
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, list)
			}
			t := &report.Table{Columns: []report.Column{{Header: "ID", Key: "id", Right: true}, {Header: "NAME", Key: "name"},
				{Header: "CREATED (UTC)", Key: "created"}, {Header: "LAST USED (UTC)", Key: "last_used"}}}
			for _, tok := range list {
				used := "never"
				if !tok.LastUsed.IsZero() {
					used = tok.LastUsed.Format("2006-01-02 15:04")
				}
				t.Add(strconv.FormatInt(tok.ID, 10), tok.Name, tok.Created.Format("2006-01-02 15:04"), used)
			}
			if len(list) == 0 {
				t.Notes = append(t.Notes, "No tokens (gpupick token create makes one).")
			}
			return t.WriteText(e.Stdout)
		},
	}
	outputFlag(cmd, &out, "table|json")
	return cmd
}

func newTokenRevokeCmd(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke NAME|#ID",
		Short: "Revoke an API token: gpupick serve refuses it from the next request on",
		Long: `Revoke an API token by its name, or by its id (#3, as gpupick token list shows)
when several tokens share a name. Every replica sharing the database refuses
it from its next request on.`,
		Example: `  gpupick token revoke ci`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, tk, err := e.tokenStore(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer s.Close()
			tok, err := tk.RevokeToken(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.Stdout, "token #%d %q revoked (created %s)\n", tok.ID, tok.Name, tok.Created.Format(time.DateOnly))
			return err
		},
	}
}

// checkTokenName refuses a token name that token list could not show
// faithfully or token revoke could not find: blank, over 64 characters,
// with control characters, or starting with '#' (revoke reads #3 as an id).
func checkTokenName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return apperr.Invalidf("--name", "must not be blank")
	case utf8.RuneCountInString(name) > 64:
		return apperr.Invalidf("--name", "must be at most 64 characters, got %d", utf8.RuneCountInString(name))
	case strings.HasPrefix(name, "#"):
		return apperr.Invalidf("--name", "must not start with # (token revoke reads #ID as a token's id)")
	case strings.IndexFunc(name, unicode.IsControl) >= 0 || !utf8.ValidString(name):
		return apperr.Invalidf("--name", "must be printable text, got %q", name)
	}
	return nil
}
