package rebuild

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

// GPUHourFile holds per-GPU-hour prices read from providers' price pages
// (transcriptions with their read date), which price an accelerator the
// same in every region of the provider: each applies to the provider's
// offers of that accelerator (and count, and instance-name part) where it
// is newer than the price they have.
const GPUHourFile = "sources/gpu-hour.csv"

// gpuHourRow is one price of GPUHourFile.
type gpuHourRow struct {
	line          int
	provider, gpu string
	count         int    // 0 = any
	instance      string // a part of the instance type, "" = any
	mode          catalog.Mode
	usdPerGPUHour float64
	source, notes string
	asOf          time.Time
	applied       int
}

// readGPUHour reads GPUHourFile (absent = no rows), checking each row.
func readGPUHour(fsys fs.FS, cat *catalog.Catalog, errs *apperr.List) []*gpuHourRow {
	raw, err := fs.ReadFile(fsys, GPUHourFile)
	if err != nil {
		return nil
	}
	t, err := newTable(GPUHourFile, raw, []string{"provider", "gpu", "mode", "usd_per_gpu_hour", "source", "as_of"})
	if err != nil {
		*errs = append(*errs, err.(*apperr.Error))
		return nil
	}
	var out []*gpuHourRow
	for t.next() {
		bad := func(field, format string, args ...any) {
			*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: GPUHourFile, Line: t.line, Field: field, Message: msg.New(format, args...)})
		}
		r := &gpuHourRow{line: t.line, provider: strings.ToLower(t.get("provider")), gpu: strings.ToLower(t.get("gpu")),
			instance: t.get("instance_match"), source: t.get("source"), notes: t.get("notes")}
		if _, ok := cat.Provider(r.provider); !ok {
			bad("provider", "%q is not in %s", r.provider, catalog.ProvidersFile)
			continue
		}
		if a, ok := cat.Accelerator(r.gpu); ok {
			r.gpu = a.ID
		} else {
			bad("gpu", "unknown accelerator %q", r.gpu)
			continue
		}
		m, ok := catalog.ParseMode(t.get("mode"))
		if !ok {
			bad("mode", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), t.get("mode"))
			continue
		}
		r.mode = m
		var n int
		if s := t.get("gpu_count"); s != "" {
			if _, err := fmt.Sscan(s, &n); err != nil || n < 1 {
				bad("gpu_count", "want a whole number >= 1 or empty, got %q", s)
				continue
			}
		}
		r.count = n
		if _, err := fmt.Sscan(t.get("usd_per_gpu_hour"), &r.usdPerGPUHour); err != nil || !(r.usdPerGPUHour > 0 && r.usdPerGPUHour < 1000) {
			bad("usd_per_gpu_hour", "want a price > 0 and < 1000 USD, got %q", t.get("usd_per_gpu_hour"))
			continue
		}
		d, err := time.Parse(time.DateOnly, t.get("as_of"))
		if err != nil || r.source == "" {
			bad("as_of", "want a source and a date YYYY-MM-DD, got %q", t.get("as_of"))
			continue
		}
		r.asOf = d
		out = append(out, r)
	}
	if t.err != nil {
		*errs = append(*errs, t.err)
	}
	return out
}

// applyGPUHour prices each offer a row matches at the row's price per GPU
// times its GPUs, in the row's mode, where the row is newer than the
// offer's price in that mode (and the offer is priced in USD). dates are
// the offers' price dates per mode, as the layering of source files left
// them. It reports rows that priced no offer, which are errors: a row that
// matches nothing is a typo or a stale row.
func applyGPUHour(rows []*gpuHourRow, byProvider map[string][]*catalog.Offer, dates map[string]*[catalog.NumModes]time.Time, errs *apperr.List) {
	for _, r := range rows {
		for _, o := range byProvider[r.provider] {
			if o.GPU != r.gpu || (r.count > 0 && o.GPUCount != r.count) || (r.instance != "" && !strings.Contains(o.InstanceType, r.instance)) || o.Currency != "USD" {
				continue
			}
			d := dates[o.Key()]
			if d == nil {
				d = new([catalog.NumModes]time.Time)
				for m := range catalog.NumModes {
					if o.LocalPrices[m] > 0 {
						d[m] = o.PriceFact(m).AsOf
					}
				}
				dates[o.Key()] = d
			}
			if o.LocalPrices[r.mode] > 0 && !r.asOf.After(d[r.mode]) {
				continue
			}
			price := r.usdPerGPUHour * o.GPUs()
			o.LocalPrices[r.mode], o.ListPrices[r.mode], o.YourPrices[r.mode] = price, price, price
			fact := catalog.Fact{Source: r.source + " (per GPU-hour " + fmt.Sprint(r.usdPerGPUHour) + " USD)", AsOf: r.asOf}
			o.PriceFacts[r.mode] = fact
			if r.mode == catalog.Spot {
				o.SpotBasis, o.SpotMin, o.SpotMax, o.SpotZones = catalog.SpotPoint, 0, 0, 0
			}
			if r.notes != "" {
				o.Notes = joinNotes(o.Notes, r.mode.String()+": "+r.notes)
			}
			d[r.mode] = r.asOf
			r.applied++
		}
		if r.applied == 0 {
			*errs = append(*errs, &apperr.Error{Code: apperr.Invalid, File: GPUHourFile, Line: r.line, Field: "gpu",
				Message: msg.New("%s %s x%d %q prices no offer of the catalog: a typo, or a row the provider's files no longer need", r.provider, r.gpu, r.count, r.instance)})
		}
	}
}

// table reads a CSV file by column name, with the line of each record.
type table struct {
	file string
	r    *csv.Reader
	cols map[string]int
	rec  []string
	line int
	err  *apperr.Error
}

// newTable reads the header and checks the required columns.
func newTable(file string, data []byte, required []string) (*table, error) {
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, File: file, Line: 1, Msg: "cannot read the header", Err: err}
	}
	t := &table{file: file, r: r, cols: map[string]int{}}
	for i, h := range header {
		t.cols[strings.TrimSpace(h)] = i
	}
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			return nil, &apperr.Error{Code: apperr.Invalid, File: file, Line: 1, Field: c, Msg: "required column is missing"}
		}
	}
	return t, nil
}

// next reads the next record; false at the end or on a malformed record
// (t.err then says which).
func (t *table) next() bool {
	rec, err := t.r.Read()
	if errors.Is(err, io.EOF) {
		return false
	}
	if err != nil {
		t.err = &apperr.Error{Code: apperr.Invalid, File: t.file, Msg: "malformed CSV", Err: err}
		if pe := (*csv.ParseError)(nil); errors.As(err, &pe) {
			t.err.Line = pe.StartLine
		}
		return false
	}
	t.rec = rec
	t.line, _ = t.r.FieldPos(0)
	return true
}

// get is the trimmed cell of col ("" when absent).
func (t *table) get(col string) string {
	i, ok := t.cols[col]
	if !ok || i >= len(t.rec) {
		return ""
	}
	return strings.TrimSpace(t.rec[i])
}
