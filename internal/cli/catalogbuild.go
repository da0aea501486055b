package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/rebuild"
)

func newCatalogBuildCmd(e *Env) *cobra.Command {
	var dir string
	var check bool
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Rebuild the catalog's offers and SOURCES.md from data/sources (public catalogs, hand-kept rows, instance specs)",
		Long: `Rebuild data/offers/*.csv and data/SOURCES.md from the dated sources in
data/sources: the public SkyPilot-format catalogs listed in sources.yaml, the
hand-kept rows in sources/manual and the instance specs in
sources/instance-specs.csv. The output is deterministic. A source file that
refuses more than 10% of its GPU rows, a region without a country, or a
hand-kept price far from its accelerator's median fails the build, and then
nothing in data/ is changed. The same command runs from go generate ./data.`,
		Example: `  gpupick catalog build              # in the repository root
  gpupick catalog build --data ./data --check`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			res, err := rebuild.Build(e.DirFS(dir))
			if err != nil {
				return inDir(err, dir)
			}
			if check {
				return checkBuilt(e, dir, res)
			}
			if err := writeBuilt(dir, res); err != nil {
				return err
			}
			for _, f := range res.Reports {
				fmt.Fprintf(e.Stdout, "%-10s %5d GPU rows, %5d accepted, %4d refused (%s), %4d offers  %s\n", f.Provider, f.Rows, f.Accepted,
					f.Rows-f.OutOfScope-f.Accepted, fmt.Sprintf("%.1f%%", 100*f.RejectRate()), f.Offers, f.File)
			}
			offerFiles := 0
			for name := range res.Files {
				if strings.HasPrefix(name, catalog.OffersDir+"/") {
					offerFiles++
				}
			}
			_, err = fmt.Fprintf(e.Stdout, "wrote %d offer files, %s (%d rows) and %s: %d offers\n", offerFiles,
				filepath.Join(dir, catalog.SpotRiskFile), res.SpotRisks, filepath.Join(dir, rebuild.SourcesDoc), len(res.Offers))
			return err
		},
	}
	cmd.Flags().StringVar(&dir, "data", "data", "the catalog `DIR` holding sources/")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; fail when the files in DIR differ from what the sources give")
	return cmd
}

// checkBuilt compares a build with the files in dir.
func checkBuilt(e *Env, dir string, res *rebuild.Result) error {
	var stale []string
	for _, name := range sortedNames(res.Files) {
		got, err := e.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != string(res.Files[name]) {
			stale = append(stale, name)
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, catalog.OffersDir, "*.csv"))
	for _, p := range old {
		if _, ok := res.Files[catalog.OffersDir+"/"+filepath.Base(p)]; !ok {
			stale = append(stale, catalog.OffersDir+"/"+filepath.Base(p)+" (no longer built)")
		}
	}
	if len(stale) > 0 {
		return apperr.Invalidf("data", "%s: %d files differ from what data/sources gives (%v): run gpupick catalog build", dir, len(stale), stale)
	}
	_, err := fmt.Fprintf(e.Stdout, "%s: offers and %s are current\n", dir, rebuild.SourcesDoc)
	return err
}

// writeBuilt replaces dir/offers and dir/SOURCES.md with a build: the new
// files are written beside them first and swapped in by renames, so a
// failure leaves the old files in place.
func writeBuilt(dir string, res *rebuild.Result) error {
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "catalog build", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, catalog.OffersDir), 0o755); err != nil {
		return apperr.Wrap(apperr.Unavailable, "catalog build", err)
	}
	for _, name := range sortedNames(res.Files) {
		if err := os.WriteFile(filepath.Join(tmp, name), res.Files[name], 0o644); err != nil {
			return apperr.Wrap(apperr.Unavailable, "catalog build", err)
		}
	}
	offers, old := filepath.Join(dir, catalog.OffersDir), filepath.Join(tmp, "old-offers")
	if _, err := os.Stat(offers); err == nil {
		if err := os.Rename(offers, old); err != nil {
			return apperr.Wrap(apperr.Unavailable, "catalog build", err)
		}
	}
	if err := os.Rename(filepath.Join(tmp, catalog.OffersDir), offers); err != nil {
		os.Rename(old, offers) // put the old files back
		return apperr.Wrap(apperr.Unavailable, "catalog build", err)
	}
	// The files beside offers/ (spot-risk.csv, then SOURCES.md last): the
	// old ones are kept aside until every new one is in place.
	var moved []string
	undo := func() {
		for _, name := range moved {
			os.Remove(filepath.Join(dir, name))
			os.Rename(filepath.Join(tmp, "old-"+name), filepath.Join(dir, name))
		}
		// The new offers without their SOURCES.md would be a half-written catalog.
		os.Rename(offers, filepath.Join(tmp, "new-offers"))
		os.Rename(old, offers)
	}
	var top []string
	for _, name := range sortedNames(res.Files) {
		if !strings.Contains(name, "/") && name != rebuild.SourcesDoc {
			top = append(top, name)
		}
	}
	for _, name := range append(top, rebuild.SourcesDoc) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			if err := os.Rename(filepath.Join(dir, name), filepath.Join(tmp, "old-"+name)); err != nil {
				undo()
				return apperr.Wrap(apperr.Unavailable, "catalog build", err)
			}
		}
		moved = append(moved, name)
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
			undo()
			return apperr.Wrap(apperr.Unavailable, "catalog build", err)
		}
	}
	return nil
}

func sortedNames(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
