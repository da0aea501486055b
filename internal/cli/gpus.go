package cli

import (
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
)

func newGPUsCmd(e *Env) *cobra.Command {
	var vendor, out, lang string
	var minMem float64
	cmd := &cobra.Command{
		Use:   "gpus",
		Short: "List the accelerators gpupick knows, with dense peak rates and sources",
		Example: `  gpupick gpus
  gpupick gpus --vendor nvidia --min-memory-gb 80 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt, report.CSVFmt)
			if err != nil {
				return err
			}
			l, err := e.lang(lang)
			if err != nil {
				return err
			}
			if minMem < 0 {
				return apperr.Invalidf("--min-memory-gb", "must be >= 0")
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			var keep []*catalog.Accelerator
			vendors := map[string]bool{}
			for _, a := range c.Accelerators {
				vendors[a.Vendor] = true
				if vendor != "" && !strings.EqualFold(a.Vendor, vendor) {
					continue
				}
				if a.MemGiB < minMem {
					continue
				}
				keep = append(keep, a)
			}
			if vendor != "" && !vendors[strings.ToLower(vendor)] {
				return apperr.Invalidf("--vendor", "unknown vendor %q (known: %s)", vendor, strings.Join(slices.Sorted(maps.Keys(vendors)), ", "))
			}
			if len(keep) == 0 {
				return apperr.Emptyf("no accelerator has %g GiB or more from vendor %q", minMem, vendor)
			}
			j, t := report.AcceleratorsIn(keep, e.Now(), l)
			return write(e, format, j, t)
		},
	}
	cmd.Flags().StringVar(&vendor, "vendor", "", "only accelerators of `VENDOR` (nvidia, amd, intel, google, aws, huawei)")
	cmd.Flags().Float64Var(&minMem, "min-memory-gb", 0, "only accelerators with at least `N` GiB of memory")
	langFlag(cmd, &lang)
	outputFlag(cmd, &out, "table|json|csv")
	return cmd
}

// write renders a listing in the chosen format.
func write(e *Env, f report.Format, v any, t *report.Table) error {
	switch f {
	case report.JSONFmt:
		return report.WriteJSON(e.Stdout, v)
	case report.CSVFmt:
		return t.WriteCSV(e.Stdout)
	default:
		return t.WriteText(e.Stdout)
	}
}
