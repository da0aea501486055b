package autoscale

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
)

// Trace formats.
const (
	// FormatAzure is the Azure LLM inference trace (2023 and 2024):
	// header TIMESTAMP,ContextTokens,GeneratedTokens; TIMESTAMP like
	// "2023-11-16 18:15:46.6805900", read as UTC.
	FormatAzure = "azure"
	// FormatBurstGPT is the BurstGPT trace: header
	// Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type;
	// Timestamp in seconds from the start of the trace.
	FormatBurstGPT = "burstgpt"
	// FormatPlain is a CSV of arrival times in seconds, optionally followed
	// by prompt and output token counts; an optional header names the
	// columns; lines starting with # are comments.
	FormatPlain = "plain"
)

// TraceOptions controls how a trace is replayed.
type TraceOptions struct {
	// TimeScale compresses time: 2 replays the trace twice as fast. 0 means 1.
	TimeScale float64
	// PromptTokens and OutputTokens fill rows that lack token counts.
	PromptTokens, OutputTokens int
}

// ReadTrace returns a streaming Source over the trace in r, in the given
// format. Arrivals are seconds from the first row, divided by TimeScale.
// Rows are read as they are needed, so memory does not grow with the trace.
// The first malformed row (a bad number, a missing column, a timestamp that
// goes backwards) ends the replay; Err then returns an apperr Invalid error
// with the row's line and column name. A trace without a single request
// (empty, or a header only) is an error too: "the trace holds no requests".
func ReadTrace(format string, r io.Reader, opt TraceOptions) (ErrSource, error) {
	if opt.TimeScale == 0 {
		opt.TimeScale = 1
	}
	if !(opt.TimeScale > 0) || math.IsInf(opt.TimeScale, 0) {
		return nil, invalidf("time_scale", "must be > 0, got %v", opt.TimeScale)
	}
	// A byte-order mark (spreadsheets write one) is not part of the trace.
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		_, _ = br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true
	t := &traceSource{r: cr, format: format, opt: opt, first: math.NaN()}
	switch format {
	case FormatAzure:
		t.header = []string{"TIMESTAMP", "ContextTokens", "GeneratedTokens"}
	case FormatBurstGPT:
		t.header = []string{"Timestamp", "Model", "Request tokens", "Response tokens", "Total tokens", "Log Type"}
	case FormatPlain:
		cr.Comment = '#'
		t.header = []string{"timestamp_s", "prompt_tokens", "output_tokens"}
	default:
		return nil, invalidf("format", "unknown trace format %q (want azure, burstgpt or plain)", format)
	}
	return t, nil
}

type traceSource struct {
	r      *csv.Reader
	format string
	opt    TraceOptions
	header []string
	col    [3]int // columns of time, prompt and output tokens (-1 = absent)
	ready  bool   // header handled
	first  float64
	last   float64
	rows   int64 // requests returned
	err    error
}

func (t *traceSource) Err() error { return t.err }

func (t *traceSource) fail(line int, field, format string, args ...any) (Request, bool) {
	t.err = &apperr.Error{Code: apperr.Invalid, Line: line, Field: field, Message: msg.New(format, args...)}
	return Request{}, false
}

func (t *traceSource) Next() (Request, bool) {
	for t.err == nil {
		rec, err := t.r.Read()
		if err == io.EOF {
			if t.rows == 0 {
				return t.fail(0, "", "the trace holds no requests")
			}
			return Request{}, false
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return t.fail(pe.Line, "", "%v", pe.Err)
			}
			return t.fail(0, "", "read trace: %v", err)
		}
		line, _ := t.r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if !t.ready {
			t.ready = true
			if t.readHeader(rec, line) {
				continue
			}
			if t.err != nil {
				return Request{}, false
			}
		}
		return t.row(rec, line)
	}
	return Request{}, false
}

// readHeader sets the columns and reports whether rec was a header.
func (t *traceSource) readHeader(rec []string, line int) bool {
	switch t.format {
	case FormatAzure, FormatBurstGPT:
		if !strings.EqualFold(strings.TrimSpace(rec[0]), t.header[0]) {
			t.fail(line, "", "want the header %s", strings.Join(t.header, ","))
			return false
		}
		find := func(name string) int {
			for i, h := range rec {
				if strings.EqualFold(strings.TrimSpace(h), name) {
					return i
				}
			}
			return -1
		}
		if t.format == FormatAzure {
			t.col = [3]int{0, find("ContextTokens"), find("GeneratedTokens")}
		} else {
			t.col = [3]int{0, find("Request tokens"), find("Response tokens")}
		}
		if t.col[1] < 0 || t.col[2] < 0 {
			t.fail(line, "", "want the header %s", strings.Join(t.header, ","))
		}
		return true
	}
	// plain: a header when the first field is not a number.
	t.col = [3]int{0, 1, 2}
	if _, err := strconv.ParseFloat(strings.TrimSpace(rec[0]), 64); err == nil {
		return false
	}
	t.col = [3]int{-1, -1, -1}
	for i, h := range rec {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "timestamp_s", "timestamp", "time", "time_s", "arrival_s", "arrival":
			t.col[0] = i
		case "prompt_tokens", "input_tokens", "context_tokens":
			t.col[1] = i
		case "output_tokens", "generated_tokens", "response_tokens":
			t.col[2] = i
		}
	}
	if t.col[0] < 0 {
		t.fail(line, "", "the header names no timestamp column (timestamp_s, prompt_tokens, output_tokens)")
	}
	return true
}

func (t *traceSource) row(rec []string, line int) (Request, bool) {
	if t.col[0] >= len(rec) {
		return t.fail(line, t.header[0], "missing")
	}
	ts := strings.TrimSpace(rec[t.col[0]])
	var sec float64
	if t.format == FormatAzure {
		tm, err := time.Parse("2006-01-02 15:04:05", ts)
		if err != nil {
			return t.fail(line, t.header[0], "want a time like 2023-11-16 18:15:46.6805900, got %q", ts)
		}
		sec = float64(tm.Unix()) + float64(tm.Nanosecond())/1e9
	} else {
		v, err := strconv.ParseFloat(ts, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return t.fail(line, t.header[0], "want seconds, got %q", ts)
		}
		sec = v
	}
	if math.IsNaN(t.first) {
		t.first, t.last = sec, sec
	}
	if sec < t.last {
		return t.fail(line, t.header[0], "timestamps must not go backwards (%v after %v)", sec, t.last)
	}
	t.last = sec
	t.rows++
	req := Request{ArrivalS: (sec - t.first) / t.opt.TimeScale, PromptTokens: t.opt.PromptTokens, OutputTokens: t.opt.OutputTokens}
	for k, dst := range []*int{&req.PromptTokens, &req.OutputTokens} {
		i := t.col[k+1]
		if i < 0 || (t.format == FormatPlain && i >= len(rec)) {
			continue // optional in a plain trace
		}
		name := t.header[k+1]
		if t.format == FormatBurstGPT {
			name = t.header[k+2]
		}
		if i >= len(rec) {
			return t.fail(line, name, "missing")
		}
		s := strings.TrimSpace(rec[i])
		if s == "" && t.format == FormatPlain {
			continue
		}
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || n < 0 || n > 1e9 || n != math.Trunc(n) {
			return t.fail(line, name, "want a whole number of tokens >= 0, got %q", s)
		}
		*dst = int(n)
	}
	return req, true
}
