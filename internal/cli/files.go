package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// chartFormatOf checks a --chart file name and returns "svg" or "png" ("" for
// no chart).
func chartFormatOf(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		return "svg", nil
	case ".png":
		return "png", nil
	}
	return "", apperr.Invalidf("--chart", "want a file ending in .svg or .png, got %q", path)
}

// writeFileAtomic writes a file whole or not at all: into a temporary file
// beside it, renamed into place once write succeeded.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".gpupick.*")
	if err != nil {
		return &apperr.Error{Code: apperr.Invalid, Field: "--chart", Msg: "cannot write", Err: err}
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return &apperr.Error{Code: apperr.Invalid, Field: "--chart", Msg: "cannot write", Err: err}
	}
	return nil
}
