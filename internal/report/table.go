// Package report renders gpupick's results for people (aligned text tables
// with units) and for machines (JSON and CSV with stable field names). It
// holds the JSON views that form the documented output contract.
package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpupick/gpupick/internal/apperr"
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
type Table struct {
	Columns []Column
	Rows    [][]string
	Notes   []string
}

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
	keys := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		keys[i] = c.Key
	}
	if err := cw.Write(keys); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
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
