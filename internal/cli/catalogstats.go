package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
)

// newCatalogStatsCmd is `gpupick catalog stats`: how many offers each
// provider has, how many are priced, and how old those prices are, on the
// catalog every other command reads (embedded, store, --catalog, --prices).
func newCatalogStatsCmd(e *Env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Per provider: offers, priced offers, oldest / median / newest price date, stale prices and source",
		Example: `  gpupick catalog stats
  gpupick --catalog ./my-catalog catalog stats -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			now := e.Now()
			j, t := report.CatalogStats(catalog.StatsByProvider(c.Offers, now), catalog.Stats(c.Offers, now), now)
			return write(e, format, j, t)
		},
	}
	outputFlag(cmd, &out, "table|json")
	return cmd
}
