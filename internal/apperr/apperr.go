// Package apperr is gpupick's one error type: a code that says what kind of
// failure it is, and the place in the user's input (file, line, field) it
// refers to. The code is mapped to exit codes (and later HTTP statuses) in
// exactly one place, ExitCode.
package apperr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpupick/gpupick/internal/msg"
)

// Code classifies an error for callers that must react to it (exit codes,
// HTTP statuses).
type Code string

// The error codes. Invalid and NotFound are the user's input; Empty means the
// request was understood but nothing qualifies; Unavailable is a missing
// outside resource (network, a tool on PATH); Internal is a bug.
const (
	Invalid     Code = "invalid"
	NotFound    Code = "not_found"
	Empty       Code = "empty"
	Unavailable Code = "unavailable"
	Internal    Code = "internal"
)

// Error is a failure with a code and, for input errors, where it is.
// File, Line and Field are optional; Line is 1-based and 0 when unknown.
type Error struct {
	Code  Code
	File  string
	Line  int
	Field string // dotted path, e.g. "training.seq_len" or a CSV column name
	// Msg is the sentence in English; empty when Message says it (read
	// either with Text).
	Msg string
	// Message is Msg as a message value, for a renderer to say it in the
	// reader's language; zero when Msg is fixed text (the catalog's exact
	// entry translates it then).
	Message msg.Msg
	Err     error // wrapped cause, may be nil
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	text := e.Text()
	b.WriteString(text)
	if e.Err != nil {
		if text != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Text is the error's own sentence in English: Msg, or its message.
func (e *Error) Text() string {
	if e.Msg == "" && !e.Message.IsZero() {
		return e.Message.String()
	}
	return e.Msg
}

// Extend adds to the error's sentence: format's first verb is the
// sentence so far ("%s; or give --force to run it anyway").
func (e *Error) Extend(format string, args ...any) {
	cur := e.Message
	if cur.IsZero() {
		cur = msg.Text(e.Msg)
	}
	e.Message = msg.New(format, append([]any{cur}, args...)...)
	e.Msg = e.Message.String()
}

// AsMsg is the error as a message: its message value when it has one and
// nothing around it (no file, line, field or cause), else its text.
func (e *Error) AsMsg() msg.Msg {
	if !e.Message.IsZero() && e.File == "" && e.Line == 0 && e.Field == "" && e.Err == nil {
		return e.Message
	}
	return msg.Text(e.Error())
}

// Invalidf returns an Invalid error about field (may be empty).
func Invalidf(field, format string, args ...any) *Error {
	return Newf(Invalid, field, format, args...)
}

// NotFoundf returns a NotFound error about field (may be empty).
func NotFoundf(field, format string, args ...any) *Error {
	return Newf(NotFound, field, format, args...)
}

// Emptyf returns an Empty error: nothing qualifies.
func Emptyf(format string, args ...any) *Error {
	return Newf(Empty, "", format, args...)
}

// Newf is an error of code on field (empty for none) whose message is
// format with args: its text in English, and the message for renderers.
func Newf(code Code, field, format string, args ...any) *Error {
	m := msg.New(format, args...)
	return &Error{Code: code, Field: field, Msg: m.String(), Message: m}
}

// Wrap gives err a code unless it already carries one. A nil err stays nil.
func Wrap(code Code, msg string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if msg == "" {
			return err
		}
		return &Error{Code: e.Code, Msg: msg, Err: err}
	}
	return &Error{Code: code, Msg: msg, Err: err}
}

// InFile sets the file of every *Error in err (a single error or a List)
// that has none yet, and returns err.
func InFile(err error, file string) error {
	var l List
	if errors.As(err, &l) {
		for _, e := range l {
			if e.File == "" {
				e.File = file
			}
		}
		return err
	}
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = file
	}
	return err
}

// CodeOf reports the code of err: the first *Error in its chain, Internal when
// there is none. A List has the code of its first element.
func CodeOf(err error) Code {
	var l List
	if errors.As(err, &l) && len(l) > 0 {
		return l[0].Code
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ExitCode maps an error to the process exit status: 0 for nil, 2 for bad
// input, 1 for everything else (nothing qualifies, a failed check, an outside
// failure).
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	switch CodeOf(err) {
	case Invalid, NotFound:
		return 2
	default:
		return 1
	}
}

// List is several problems reported together (a catalog with bad rows).
type List []*Error

func (l List) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	if len(l) > 1 {
		return fmt.Sprintf("%d problems:\n  %s", len(l), strings.Join(parts, "\n  "))
	}
	return strings.Join(parts, "")
}

// Join gathers the problems of several errors into one List, in order:
// a List's problems, an *Error as one, any other error wrapped as Invalid.
// nil errors are skipped; nil when there is none.
func Join(errs ...error) error {
	var l List
	for _, err := range errs {
		if err == nil {
			continue
		}
		var sub List
		var one *Error
		switch {
		case errors.As(err, &sub):
			l = append(l, sub...)
		case errors.As(err, &one):
			l = append(l, one)
		default:
			l = append(l, &Error{Code: Invalid, Err: err})
		}
	}
	return l.Err()
}

// Err returns l as an error, or nil when l is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
