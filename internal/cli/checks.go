package cli

import (
	"errors"
	"io/fs"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
)

// compatFile is the software-stack matrix inside a catalog directory.
const compatFile = "compat.yaml"

// Compat loads the compatibility matrix: the catalog directory's, or the
// embedded one when that directory has none (test fixtures).
func (e *Env) Compat() (*compat.Matrix, error) {
	if e.matrix != nil {
		return e.matrix, nil
	}
	b, err := fs.ReadFile(e.Embedded, compatFile)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = fs.ReadFile(data.FS, compatFile)
	}
	if err != nil {
		return nil, apperr.Wrap(apperr.Internal, "compatibility matrix", err)
	}
	m, err := compat.Parse(b)
	if err != nil {
		return nil, apperr.Wrap(apperr.Internal, "compatibility matrix", apperr.InFile(err, compatFile))
	}
	e.matrix = m
	return m, nil
}

// checker returns the run's stack and compliance checker (one per process,
// so stack verdicts are judged once).
func (e *Env) checker(m *compat.Matrix, c *catalog.Catalog) *app.Checker {
	if e.check == nil {
		e.check = app.NewChecker(m, c)
	}
	return e.check
}
