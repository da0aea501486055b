package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

func newVersionCmd(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print gpupick's version and the date of its catalog",
		Example: "  gpupick version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.Stdout, "gpupick %s (%s)\ncatalog: %d accelerators, %d providers, %d offers; newest price %s\n",
				version(), runtime.Version(), len(c.Accelerators), len(c.Providers), len(c.Offers), c.Newest().Format("2006-01-02"))
			return err
		},
	}
}
