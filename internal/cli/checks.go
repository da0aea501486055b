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
// embedded one when that directory has none (test fixtures). It is loaded
// once per run; preloadCompat may have started it already.
func (e *Env) Compat() (*compat.Matrix, error) {
	e.compatOnce.Do(func() { e.matrix, e.compatErr = e.loadCompat() })
	return e.matrix, e.compatErr
}

// catalogAndCompat loads the catalog and the compatibility matrix, the
// two a server (serve, mcp) or a plan's check needs.
func (e *Env) catalogAndCompat() (*catalog.Catalog, *compat.Matrix, error) {
	c, err := e.Catalog()
	if err != nil {
		return nil, nil, err
	}
	m, err := e.Compat()
	return c, m, err
}

// preloadCompat starts loading the matrix in the background, so that a
// command that needs it after the catalog does not wait for it.
func (e *Env) preloadCompat() { go e.Compat() }

func (e *Env) loadCompat() (*compat.Matrix, error) {
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
