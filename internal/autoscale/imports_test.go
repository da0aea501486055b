package autoscale

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The simulator is a domain package: no files, network, processes or
// databases (the caller opens the trace and hands over an io.Reader).
func TestNoIOImports(t *testing.T) {
	forbidden := map[string]bool{"os": true, "os/exec": true, "net": true, "net/http": true, "io/ioutil": true, "database/sql": true, "log": true, "time/tzdata": true}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); forbidden[p] || strings.Contains(p, "cobra") {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
