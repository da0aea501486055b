// Package report renders gpupick's results for people (aligned text tables
// with units) and for machines (JSON and CSV with stable field names). It
// holds the JSON views that form the documented output contract.
package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// Format is an output format.
type Format string

// Output formats.
const (
	Text     Format = "table"
	JSONFmt  Format = "json"
	CSVFmt   Format = "csv"
	Markdown Format = "markdown"
	HTML     Format = "html"
)

// ParseFormat checks -o against the formats a command supports.
func ParseFormat(s string, allowed ...Format) (Format, error) {
	names := make([]string, len(allowed))
	for i, f := range allowed {
		if string(f) == s {
			return f, nil
		}
		names[i] = string(f)
	}
	return "", apperr.Invalidf("-o", "want %s, got %q", strings.Join(names, ", "), s)
}

// Column is one column of a table: its header for people, its key for CSV
// (snake_case with the unit), and whether numbers align right.
type Column struct {
	Header string
	Key    string
	Right  bool
}

// Table is rows of cells under columns, with notes printed below it.
//
// A table whose cells are display strings ("1 x mi300x", "100%", "-") may
// carry a second, machine form for -o csv: CSVColumns (stable snake_case
// names with the unit, e.g. total_usd) and CSVRows of plain values (numbers
// without units or grouping, true/false, an empty cell for unknown). When
// CSVColumns is nil, WriteCSV writes the column keys and the display rows.
type Table struct {
	Columns    []Column
	Rows       [][]string
	Notes      []string
	CSVColumns []string
	CSVRows    [][]string
}

// AddCSV appends a row of plain values for -o csv; it must have one value
// per CSV column.
func (t *Table) AddCSV(values ...string) { t.CSVRows = append(t.CSVRows, values) }

// Add appends a row; it must have one cell per column.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// WriteText writes the table aligned for a terminal (East Asian wide
// characters count as two columns), then its notes.
func (t *Table) WriteText(w io.Writer) error {
	width := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		width[i] = displayWidth(c.Header)
	}
	for _, r := range t.Rows {
		for i, cell := range r {
			width[i] = max(width[i], displayWidth(cell))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		var lb strings.Builder
		for i, cell := range cells {
			pad := strings.Repeat(" ", width[i]-displayWidth(cell))
			if i > 0 {
				lb.WriteString("  ")
			}
			if t.Columns[i].Right {
				lb.WriteString(pad + cell)
			} else {
				lb.WriteString(cell + pad)
			}
		}
		b.WriteString(strings.TrimRight(lb.String(), " "))
		b.WriteByte('\n')
	}
	headers := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		headers[i] = c.Header
	}
	line(headers)
	for _, r := range t.Rows {
		line(r)
	}
	for _, n := range t.Notes {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the table with its column keys as the header; notes are
// left out.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	keys, rows := t.CSVColumns, t.CSVRows
	if keys == nil {
		keys = make([]string, len(t.Columns))
		for i, c := range t.Columns {
			keys[i] = c.Key
		}
		rows = t.Rows
	}
	if err := cw.Write(keys); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes v indented, with a final newline.
func WriteJSON(w io.Writer, v any) error {
	// Into a buffer first: a value JSON cannot carry (an infinite number)
	// is gpupick's fault, not the input's, and nothing half-written is left.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return &apperr.Error{Code: apperr.Internal, Msg: "the answer could not be written as JSON", Err: err}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// AlignDecimals formats the cells of column col with the same number of
// decimals, the fewest (at most prec) that show every value of the column
// rounded to prec. Empty cells, and cells that are not numbers ("unknown",
// "-"), stay as they are.
func (t *Table) AlignDecimals(col, prec int) {
	need := 0
	for _, r := range t.Rows {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			continue
		}
		s := strconv.FormatFloat(v, 'f', prec, 64)
		if i := strings.IndexByte(s, '.'); i >= 0 {
			d := len(strings.TrimRight(s[i+1:], "0"))
			need = max(need, d)
		}
	}
	for _, r := range t.Rows {
		if v, err := strconv.ParseFloat(r[col], 64); err == nil {
			r[col] = strconv.FormatFloat(v, 'f', need, 64)
		}
	}
}

// csvNum is a number for a CSV cell: plain digits rounded to prec decimals,
// no trailing zeros, no grouping; ok false (unknown) is an empty cell.
func csvNum(v float64, prec int, ok bool) string {
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(roundTo(v, prec), 'f', -1, 64)
}

// csvBool is a flag for a CSV cell.
func csvBool(b bool) string { return strconv.FormatBool(b) }

// csvTri is a yes/no/unknown fact for a CSV cell: true, false or empty.
func csvTri(t catalog.Tri) string {
	switch t {
	case catalog.Yes:
		return "true"
	case catalog.No:
		return "false"
	}
	return ""
}

// ShortText shortens s to at most n characters for a table cell, ending in
// "…" when cut (the full text is in -o json).
func ShortText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ;,") + "…"
}

// commitHash is a full Git commit id in a source ("repo@<40 hex> path").
var commitHash = regexp.MustCompile(`\b([0-9a-f]{7})[0-9a-f]{33}\b`)

// ShortSource shortens a source for a table cell: Git commit ids to their
// first 7 characters (as git log --oneline shows them), then the text to n
// characters (-o json has it whole).
func ShortSource(s string, n int) string {
	return ShortText(commitHash.ReplaceAllString(s, "$1"), n)
}

func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			n++
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Hiragana, r) ||
			unicode.Is(unicode.Katakana, r) || (r >= 0xFF01 && r <= 0xFF60) || (r >= 0x3000 && r <= 0x303F):
			n += 2
		default:
			n++
		}
	}
	return n
}

func invalid(field, format string, args ...any) error { return apperr.Invalidf(field, format, args...) }
