package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

func newCatalogCmd(e *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Check catalog files; import, update and compare price snapshots in the catalog store",
	}
	addStoreCmds(e, cmd)
	cmd.AddCommand(newCatalogStatsCmd(e), newCatalogBuildCmd(e))
	cmd.AddCommand(&cobra.Command{
		Use:   "validate DIR",
		Short: "Check a catalog directory (layout of data/) and report every problem with file, row and column",
		Example: `  gpupick catalog validate ./my-catalog
  gpupick --catalog ./my-catalog offers --provider mycloud`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			base, err := catalog.Parse(e.Embedded, true)
			if err != nil {
				return err
			}
			user, perr := e.userCatalog("DIR", dir)
			if user == nil {
				return perr
			}
			c, err := catalog.Build(base, user)
			if err := apperr.Join(perr, err); err != nil {
				return inDir(err, dir)
			}
			_, err = fmt.Fprintf(e.Stdout, "%s: ok (%d accelerators, %d providers, %d regions, %d offers in its files; %d offers after layering over the embedded catalog)\n",
				dir, len(user.Accelerators), len(user.Providers), len(user.Regions), len(user.Offers), len(c.Offers))
			return err
		},
	})
	return cmd
}
