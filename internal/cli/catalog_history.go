package cli

// catalog history, diff and snapshots: what the store remembers of prices
// over time, as tables and charts.

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

// HistoryJSON is the JSON output of catalog history.
type HistoryJSON struct {
	Offer  string             `json:"offer"`
	Region string             `json:"region,omitempty"`
	Mode   catalog.Mode       `json:"mode"`
	Points []store.PricePoint `json:"points"`
}

func newCatalogHistoryCmd(e *Env, db *string) *cobra.Command {
	var mode, region, from, to, out, chart string
	cmd := &cobra.Command{
		Use:   "history OFFER",
		Short: "Show an offer's list price over time, from the store's snapshots",
		Long: `Show an offer's list price (USD per instance-hour) in one pricing mode over the
snapshots in the store. OFFER is provider/instance-type, optionally @region;
without a region every region is shown.`,
		Example: `  gpupick catalog history aws/p5.48xlarge@us-east-1 --mode spot
  gpupick catalog history azure/Standard_ND96isr_H100_v5 --chart h100.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			m, ok := catalog.ParseMode(mode)
			if !ok {
				return apperr.Invalidf("--mode", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), mode)
			}
			q := store.HistoryQuery{Offer: args[0], Region: region, Mode: m}
			if o, r, ok := strings.Cut(q.Offer, "@"); ok {
				if region != "" && region != r {
					return apperr.Invalidf("--region", "%s names region %s already", args[0], r)
				}
				q.Offer, q.Region = o, r
			}
			if !strings.Contains(q.Offer, "/") {
				return apperr.Invalidf("OFFER", "want provider/instance-type (optionally @region), got %q", args[0])
			}
			if q.From, err = parseDay("--from", from, false); err != nil {
				return err
			}
			if q.To, err = parseDay("--to", to, true); err != nil {
				return err
			}
			chartFormat, err := chartFormatOf(chart)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, _, err := e.openExistingStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			pts, err := s.History(ctx, q)
			if err != nil {
				return err
			}
			if pts == nil {
				pts = []store.PricePoint{}
			}
			if chart != "" {
				title := fmt.Sprintf("%s %s, USD per instance-hour", q.Offer, m)
				if err := writeFileAtomic(chart, func(w io.Writer) error { return historyChart(w, chartFormat, title, pts) }); err != nil {
					return err
				}
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, HistoryJSON{Offer: q.Offer, Region: q.Region, Mode: m, Points: pts})
			}
			var b strings.Builder
			where := q.Offer
			if q.Region != "" {
				where += " in " + q.Region
			}
			fmt.Fprintf(&b, "%s, %s list price, USD per instance-hour (%d snapshots)\n\n", where, m, len(pts))
			if len(pts) == 0 {
				fmt.Fprintf(&b, "No %s price in the selected snapshots.\n", m)
				if chart != "" {
					fmt.Fprintf(&b, "Chart written to %s.\n", chart)
				}
				_, err := io.WriteString(e.Stdout, b.String())
				return err
			}
			t := &report.Table{Columns: []report.Column{{Header: "DATE", Key: "date"}, {Header: "REGION", Key: "region"},
				{Header: "SNAPSHOT", Key: "snapshot", Right: true}, {Header: "$/H", Key: "usd_per_hour", Right: true},
				{Header: "CHANGE", Key: "change_percent", Right: true}}}
			prev := map[string]float64{}
			for _, p := range pts {
				change := ""
				if old, ok := prev[p.Region]; ok && old != p.USDPerHour {
					change = fmt.Sprintf("%+.1f%%", (p.USDPerHour-old)/old*100)
				}
				prev[p.Region] = p.USDPerHour
				t.Add(p.At.Format(time.DateOnly), p.Region, "#"+strconv.FormatInt(p.SnapshotID, 10), fmt.Sprintf("%.4f", p.USDPerHour), change)
			}
			if chart != "" {
				t.Notes = append(t.Notes, "Chart written to "+chart+".")
			}
			if err := t.WriteText(&b); err != nil {
				return err
			}
			_, err = io.WriteString(e.Stdout, b.String())
			return err
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "on-demand", "pricing mode: "+strings.Join(catalog.ModeNames(), ", "))
	cmd.Flags().StringVar(&region, "region", "", "only this `REGION`")
	cmd.Flags().StringVar(&from, "from", "", "first `DATE` (YYYY-MM-DD) to show")
	cmd.Flags().StringVar(&to, "to", "", "last `DATE` (YYYY-MM-DD) to show")
	cmd.Flags().StringVar(&chart, "chart", "", "also draw the history to `FILE` (.svg or .png)")
	outputFlag(cmd, &out, "table|json")
	return cmd
}

// parseDay reads YYYY-MM-DD; endOfDay moves it to the last millisecond of
// that day, so that --to includes the day.
func parseDay(flag, s string, endOfDay bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, apperr.Invalidf(flag, "want a date YYYY-MM-DD, got %q", s)
	}
	if endOfDay {
		t = t.Add(24*time.Hour - time.Millisecond)
	}
	return t, nil
}

// historyChart draws one line per region: price against date.
func historyChart(w io.Writer, format, title string, pts []store.PricePoint) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "date"
	p.Y.Label.Text = "USD per instance-hour"
	p.X.Tick.Marker = plot.TimeTicks{Format: time.DateOnly}
	p.Add(plotter.NewGrid())
	byRegion := map[string]plotter.XYs{}
	var regions []string
	for _, pt := range pts {
		if _, ok := byRegion[pt.Region]; !ok {
			regions = append(regions, pt.Region)
		}
		byRegion[pt.Region] = append(byRegion[pt.Region], plotter.XY{X: float64(pt.At.Unix()), Y: pt.USDPerHour})
	}
	for i, r := range regions {
		line, points, err := plotter.NewLinePoints(byRegion[r])
		if err != nil {
			return apperr.Wrap(apperr.Internal, "chart", err)
		}
		line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
		points.Shape = draw.CircleGlyph{}
		points.Radius = vg.Points(1.5)
		p.Add(line, points)
		p.Legend.Add(r, line)
	}
	p.Legend.Top = true
	width, height := 8*vg.Inch, 4*vg.Inch
	switch format {
	case "svg":
		c := vgsvg.New(width, height)
		p.Draw(draw.New(c))
		_, err := c.WriteTo(w)
		return err
	case "png":
		c := vgimg.New(width, height)
		p.Draw(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	return apperr.Invalidf("--chart", "want a file ending in .svg or .png, got format %q", format)
}

func newCatalogDiffCmd(e *Env, db *string) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "diff [FROM] [TO]",
		Short: "Show what changed between two snapshots: new and removed offers, price moves",
		Long: `Compare the catalog as it stood after snapshot FROM with the catalog after
snapshot TO (each provider as of its last snapshot up to that point). FROM and
TO are snapshot numbers (see gpupick catalog snapshots) or dates (YYYY-MM-DD:
the last snapshot fetched on or before that day). Without TO, the latest
snapshot; without either, the latest against the one before it.`,
		Example: `  gpupick catalog diff
  gpupick catalog diff 3 7 -o json`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, _, err := e.openExistingStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			snaps, err := s.Snapshots(ctx)
			if err != nil {
				return err
			}
			if len(snaps) == 0 {
				return apperr.Emptyf("the store holds no snapshots yet (gpupick catalog import or update)")
			}
			to := snaps[len(snaps)-1].ID
			if len(args) == 2 {
				if to, err = store.ResolveSnapshot(snaps, "TO", args[1]); err != nil {
					return err
				}
			}
			var from int64
			if len(args) >= 1 {
				if from, err = store.ResolveSnapshot(snaps, "FROM", args[0]); err != nil {
					return err
				}
			} else {
				from = 0
				for _, sn := range snaps {
					if sn.ID < to {
						from = sn.ID
					}
				}
				if from == 0 {
					return apperr.Emptyf("only one snapshot (#%d): nothing to compare it with", to)
				}
			}
			d, err := s.Diff(ctx, from, to)
			if err != nil {
				return err
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, d)
			}
			return writeDiff(e.Stdout, d)
		},
	}
	outputFlag(cmd, &out, "table|json")
	return cmd
}

func snapshotLabel(i store.SnapshotInfo) string {
	return fmt.Sprintf("#%d (%s, %s, %s)", i.ID, i.Source, strings.Join(i.Providers, ", "), i.FetchedAt.Format(time.DateOnly))
}

func writeDiff(w io.Writer, d *store.Diff) error {
	var b strings.Builder
	fmt.Fprintf(&b, "From snapshot %s to %s: %d added, %d removed, %d price moves\n",
		snapshotLabel(d.From), snapshotLabel(d.To), len(d.Added), len(d.Removed), len(d.Moved))
	if len(d.Added)+len(d.Removed)+len(d.Moved) > 0 {
		b.WriteString("\n")
		t := &report.Table{Columns: []report.Column{{Header: "CHANGE", Key: "change"}, {Header: "OFFER", Key: "offer"},
			{Header: "MODE", Key: "mode"}, {Header: "FROM $/H", Key: "from_usd_per_hour", Right: true},
			{Header: "TO $/H", Key: "to_usd_per_hour", Right: true}, {Header: "MOVE", Key: "percent", Right: true}}}
		for _, k := range d.Added {
			t.Add("added", k, "", "", "", "")
		}
		for _, k := range d.Removed {
			t.Add("removed", k, "", "", "", "")
		}
		for _, m := range d.Moved {
			t.Add("price", m.Key, m.Mode.String(), fmt.Sprintf("%.4f", m.From), fmt.Sprintf("%.4f", m.To), fmt.Sprintf("%+.1f%%", m.Percent))
		}
		if err := t.WriteText(&b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SnapshotJSON is one line of catalog snapshots -o json.
type SnapshotJSON struct {
	store.SnapshotInfo
	// CurrentFor lists the providers whose offers in force come from it.
	CurrentFor []string `json:"current_for"`
}

func newCatalogSnapshotsCmd(e *Env, db *string) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "snapshots",
		Short:   "List the snapshots in the catalog store, oldest first",
		Example: `  gpupick catalog snapshots -o json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := report.ParseFormat(out, report.Text, report.JSONFmt)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, _, err := e.openExistingStore(ctx, *db)
			if err != nil {
				return err
			}
			defer s.Close()
			snaps, err := s.Snapshots(ctx)
			if err != nil {
				return err
			}
			_, current, err := s.CurrentOffers(ctx)
			if err != nil {
				return err
			}
			views := make([]SnapshotJSON, len(snaps))
			for i, sn := range snaps {
				views[i] = SnapshotJSON{SnapshotInfo: sn, CurrentFor: []string{}}
				for p, c := range current {
					if c.ID == sn.ID {
						views[i].CurrentFor = append(views[i].CurrentFor, p)
					}
				}
				sort.Strings(views[i].CurrentFor)
			}
			if format == report.JSONFmt {
				return report.WriteJSON(e.Stdout, views)
			}
			t := &report.Table{Columns: []report.Column{{Header: "ID", Key: "id", Right: true}, {Header: "FETCHED (UTC)", Key: "fetched_at"},
				{Header: "SOURCE", Key: "source"}, {Header: "PROVIDERS", Key: "providers"}, {Header: "OFFERS", Key: "rows", Right: true},
				{Header: "CHECKSUM", Key: "checksum"}, {Header: "IN FORCE FOR", Key: "current_for"}}}
			for _, v := range views {
				sum := strings.TrimPrefix(v.Checksum, "sha256:")
				if len(sum) > 12 {
					sum = sum[:12]
				}
				t.Add(strconv.FormatInt(v.ID, 10), v.FetchedAt.Format("2006-01-02 15:04"), v.Source, strings.Join(v.Providers, ","),
					strconv.Itoa(v.Rows), sum, strings.Join(v.CurrentFor, ","))
			}
			if len(views) == 0 {
				t.Notes = append(t.Notes, "No snapshots yet (gpupick catalog import or update adds them).")
			}
			return t.WriteText(e.Stdout)
		},
	}
	outputFlag(cmd, &out, "table|json")
	return cmd
}
