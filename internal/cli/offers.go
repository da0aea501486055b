package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
)

func newOffersCmd(e *Env) *cobra.Command {
	var gpu, region, country, pricing, sortBy, out, lang string
	var providers []string
	var minGPUs int
	var maxPrice float64
	cmd := &cobra.Command{
		Use:   "offers",
		Short: "List GPU cloud offers with prices per instance-hour and per GPU-hour",
		Example: `  gpupick offers --gpu h100-sxm:8 --sort price-per-gpu
  gpupick offers --country DE --pricing spot --max-price 10
  gpupick offers --provider alibaba,tencent -o csv`,
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
			key, err := catalog.ParseSortKey(sortBy)
			if err != nil {
				return err
			}
			mode, ok := catalog.ParseMode(pricing)
			if !ok {
				return apperr.Invalidf("--pricing", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), pricing)
			}
			if minGPUs < 0 || maxPrice < 0 {
				return apperr.Invalidf("--min-gpus/--max-price", "must be >= 0")
			}
			c, err := e.Catalog()
			if err != nil {
				return err
			}
			if country != "" {
				known := false
				for _, r := range c.Regions {
					known = known || strings.EqualFold(r.Country, country)
				}
				if !known {
					return apperr.Invalidf("--country", "no region of the catalog is in %q: want an ISO 3166 alpha-2 code such as DE or US", country)
				}
			}
			f := catalog.Filter{MinGPUs: minGPUs, Region: region, Country: country, MaxPrice: maxPrice, Mode: mode,
				NeedMode: cmd.Flags().Changed("pricing")}
			if gpu != "" {
				req, err := catalog.ParseGPURequest(gpu)
				if err != nil {
					return err
				}
				a, ok := c.Accelerator(req.Name)
				if !ok {
					return apperr.NotFoundf("--gpu", "unknown accelerator %q (see gpupick gpus; known: %s)", req.Name, strings.Join(c.AcceleratorNames(), ", "))
				}
				f.GPU, f.GPUCount = a.ID, req.Count
			}
			for _, p := range providers {
				for _, id := range strings.Split(p, ",") {
					if id = strings.TrimSpace(id); id == "" {
						continue
					}
					if _, ok := c.Provider(id); !ok {
						return apperr.NotFoundf("--provider", "unknown provider %q (see gpupick providers)", id)
					}
					f.Providers = append(f.Providers, strings.ToLower(id))
				}
			}
			sel := c.Select(f)
			if len(sel.Offers) == 0 {
				return apperr.Emptyf("no offer qualifies: %s", sel.Explain())
			}
			catalog.Sort(sel.Offers, key, mode)
			yours := e.pricesFile != ""
			j, t := report.OffersIn(sel.Offers, mode, yours, e.Now(), l)
			return write(e, format, j, t)
		},
	}
	cmd.Flags().StringVar(&gpu, "gpu", "", "accelerator `ID[:COUNT]`, e.g. h100-sxm or h100-sxm:8 (COUNT = GPUs per instance)")
	cmd.Flags().IntVar(&minGPUs, "min-gpus", 0, "at least `N` GPUs per instance")
	cmd.Flags().StringSliceVar(&providers, "provider", nil, "only these provider `IDS` (comma-separated)")
	cmd.Flags().StringVar(&region, "region", "", "only `REGION` (as the provider names it)")
	cmd.Flags().StringVar(&country, "country", "", "only regions in country `CC` (ISO 3166 alpha-2)")
	cmd.Flags().Float64Var(&maxPrice, "max-price", 0, "at most `USD` per instance-hour (your price when --prices is given)")
	cmd.Flags().StringVar(&pricing, "pricing", "on-demand", "pricing `MODE` to show and filter: "+strings.Join(catalog.ModeNames(), ", "))
	cmd.Flags().StringVar(&sortBy, "sort", "price", "sort by price, price-per-gpu or memory")
	langFlag(cmd, &lang)
	outputFlag(cmd, &out, "table|json|csv")
	return cmd
}
