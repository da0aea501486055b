package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Runner runs a program and returns its standard output. An error means
// the program is missing (errors.Is(err, ErrMissing)), timed out, or exited
// non-zero; the output read so far is returned with it, since tools such as
// nvidia-smi explain their failures on standard output.
type Runner func(ctx context.Context, name string, args ...string) ([]byte, error)

// ErrMissing is returned by a Runner when the program is not on PATH.
var ErrMissing = errors.New("not found on PATH")

// Exec is the Runner of real programs found on PATH. It is bounded by ctx
// (Run gives every call a deadline); a program that outlives it is killed.
func Exec(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, ErrMissing)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second // a child holding the pipes open must not hang the probe
	err = cmd.Run()
	if ctx.Err() != nil {
		return stdout.Bytes(), fmt.Errorf("%s did not finish in time: %w", name, ctx.Err())
	}
	if err != nil {
		msg := firstLine(stderr.String())
		if msg == "" {
			msg = firstLine(stdout.String())
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if msg != "" {
				return stdout.Bytes(), fmt.Errorf("%s exited with status %d: %s", name, ee.ExitCode(), msg)
			}
			return stdout.Bytes(), fmt.Errorf("%s exited with status %d", name, ee.ExitCode())
		}
		return stdout.Bytes(), fmt.Errorf("%s: %w", name, err)
	}
	return stdout.Bytes(), nil
}

// firstLine returns the first non-blank line of s, trimmed and cut to 200
// bytes, for error messages.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 200 {
				l = l[:200] + "..."
			}
			return l
		}
	}
	return ""
}
