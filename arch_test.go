package gpupick_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// domain packages do no I/O beyond the data they are given: no files, no
// network, no processes, no databases, no command line.
var domain = []string{"app", "apperr", "strictyaml", "workload", "catalog", "perf", "perf/fit", "cost", "compat", "compliance", "advisor", "autoscale", "export", "report"}

var forbidden = []string{"os", "os/exec", "net", "net/http", "database/sql", "io/ioutil", "syscall", "github.com/spf13/cobra", "log"}

// packages returns every directory holding non-test Go files.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			pkgs[filepath.Dir(path)] = append(pkgs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func TestDomainPackagesDoNoIO(t *testing.T) {
	pkgs := packages(t)
	for _, name := range domain {
		dir := filepath.Join("internal", name)
		for _, file := range pkgs[dir] {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if path == bad {
						t.Errorf("%s imports %s: domain packages take data, not I/O (move it to cmd/, internal/cli or an adapter)", file, path)
					}
				}
			}
		}
	}
}

func TestEveryPackageHasDoc(t *testing.T) {
	for dir, files := range packages(t) {
		documented := false
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name) || f.Name.Name == "main" && f.Doc != nil {
				documented = true
			}
		}
		if !documented {
			t.Errorf("%s has no package comment (\"// Package name ...\")", dir)
		}
	}
}
