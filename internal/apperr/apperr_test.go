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
