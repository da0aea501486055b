package catalog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
)

// table reads one CSV file row by row and records every problem with the
// file, line and column it concerns.
type table struct {
	file string
	cols map[string]int
	rec  []string
	line int
	errs *apperr.List
}

// readTable parses CSV data whose header must use only known columns and
// contain every required one, and calls row for each record. Problems are
// appended to errs.
func readTable(file string, data []byte, known, required []string, errs *apperr.List, row func(t *table)) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.ReuseRecord = true // row reads the record before the next Read
	t := &table{file: file, errs: errs, cols: map[string]int{}}
	header, err := r.Read()
	if err != nil {
		t.fail(1, "", "cannot read the header: %v", err)
		return
	}
	knownSet := map[string]bool{}
	for _, k := range known {
		knownSet[k] = true
	}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !knownSet[h] {
			t.fail(1, h, "unknown column (known: %s)", strings.Join(known, ", "))
			continue
		}
		if _, dup := t.cols[h]; dup {
			t.fail(1, h, "column appears twice")
		}
		t.cols[h] = i
	}
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			t.fail(1, c, "required column is missing")
		}
	}
	if len(*errs) > 0 {
		return
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			// FieldPos is only defined for a record read without error.
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			t.fail(line, "", "malformed CSV: %v", err)
			continue // the reader resumes after the bad record: report the rest too
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		if len(rec) != len(header) {
			t.fail(line, "", "has %d fields, the header has %d", len(rec), len(header))
			continue
		}
		t.rec, t.line = rec, line
		row(t)
	}
}

func (t *table) fail(line int, col, format string, args ...any) {
	e := apperr.Invalidf(col, format, args...)
	e.File, e.Line = t.file, line
	*t.errs = append(*t.errs, e)
}

// str returns the trimmed cell of col ("" when the column is absent).
func (t *table) str(col string) string {
	i, ok := t.cols[col]
	if !ok {
		return ""
	}
	return strings.TrimSpace(t.rec[i])
}

// req returns the cell and records an error when it is empty.
func (t *table) req(col string) string {
	s := t.str(col)
	if s == "" {
		t.fail(t.line, col, "required, got an empty cell")
	}
	return s
}

// num parses a non-negative number; an empty cell is 0 (unknown).
func (t *table) num(col string) float64 {
	s := t.str(col)
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != v {
		t.fail(t.line, col, "want a number, got %q", s)
		return 0
	}
	if v < 0 {
		t.fail(t.line, col, "must be >= 0, got %s", s)
		return 0
	}
	return v
}

// pos parses a number that must be > 0 when present: an empty cell is
// unknown, a 0 is a mistake (unknown values are left empty, never 0).
func (t *table) pos(col string) float64 {
	s := t.str(col)
	v := t.num(col)
	if s != "" && v == 0 {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
			t.fail(t.line, col, "must be > 0; leave the cell empty when the value is unknown")
		}
	}
	return v
}

// integer parses a non-negative whole number; empty is 0.
func (t *table) integer(col string) int {
	s := t.str(col)
	if s == "" {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		t.fail(t.line, col, "want a whole number >= 0, got %q", s)
		return 0
	}
	return v
}

func (t *table) tri(col string) Tri {
	v, ok := ParseTri(t.str(col))
	if !ok {
		t.fail(t.line, col, "want yes, no or empty (unknown), got %q", t.str(col))
	}
	return v
}

func (t *table) boolean(col string) bool {
	v := t.tri(col)
	if v == Unknown && t.str(col) != "" {
		return false
	}
	return v == Yes
}

// fact reads the required source and as_of columns.
func (t *table) fact() Fact {
	f := Fact{Source: t.req("source")}
	f.AsOf = parseDate(t, t.req("as_of"))
	return f
}

func parseDate(t *table, s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.fail(t.line, "as_of", "want a date YYYY-MM-DD, got %q", s)
	}
	return d
}

func list(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(s, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
