package apperr

import (
	"errors"
	"fmt"
	"testing"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{Invalidf("x", "bad"), 2},
		{NotFoundf("--gpu", "unknown"), 2},
		{Emptyf("nothing"), 1},
		{&Error{Code: Unavailable}, 1},
		{errors.New("plain"), 1},
		{fmt.Errorf("wrapped: %w", Invalidf("f", "bad")), 2},
		{List{Invalidf("a", "b")}, 2},
		{Wrap(Internal, "ctx", Invalidf("f", "bad")), 2},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Code: Invalid, File: "w.yaml", Line: 3, Field: "training.seq_len", Msg: "must be > 0"}
	if got, want := e.Error(), "w.yaml:3: training.seq_len: must be > 0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	l := List{e, {Code: Invalid, Line: 4, Msg: "x"}}
	InFile(l, "other.yaml")
	if l[1].File != "other.yaml" || l[0].File != "w.yaml" {
		t.Errorf("InFile set %q and %q", l[0].File, l[1].File)
	}
	if List(nil).Err() != nil {
		t.Error("an empty list is no error")
	}
}

// TestMessageAndExtend: an error made by Newf says its sentence as a
// message, and Extend keeps the message and the English in step.
func TestMessageAndExtend(t *testing.T) {
	e := Invalidf("traffic.duration_s", "the simulation takes %d s", 7200)
	e.Extend("%s; or give --force to run it anyway")
	if got, want := e.Error(), "traffic.duration_s: the simulation takes 7200 s; or give --force to run it anyway"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.Message.String() != e.Msg || e.Message.Format() != "%s; or give --force to run it anyway" {
		t.Errorf("message %q (%q) out of step with %q", e.Message.String(), e.Message.Format(), e.Msg)
	}
	bare := Newf(Invalid, "", "unknown %s %q", "kind", "nope")
	if bare.AsMsg().Format() != "unknown %s %q" {
		t.Errorf("a bare error says its own message, got %q", bare.AsMsg().Format())
	}
	if e.AsMsg().Format() == e.Message.Format() {
		t.Error("an error with a field says its whole text, not its bare message")
	}
	lit := &Error{Code: Invalid, Line: 3}
	lit.Message = Newf(Invalid, "", "want %s", "x").Message
	if lit.Text() != "want x" || lit.Error() != "line 3: want x" {
		t.Errorf("a literal with only a message: Text %q, Error %q", lit.Text(), lit.Error())
	}
}
