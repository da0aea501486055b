package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/gpupick/gpupick/internal/compat"
)

// The domain packages whose sentences reach users.
var trDomainPackages = []string{"perf", "advisor", "compat", "compliance", "cost", "workload", "autoscale", "app", "strictyaml"}

// domainString is one user-facing string found in domain source.
type domainString struct {
	text   string
	pos    string // file:line
	format bool   // a printf format: "%%" is a percent sign
	// message: the format of a msg.New, rendered by looking the key up
	// exactly (no matching), so the catalog must hold it as it is.
	message bool
}

// printfLike names the functions whose argument at the index is a format
// string, outside the domain packages' own wrappers (found by signature).
var printfLike = map[string]int{
	"fmt.Sprintf": 0, "fmt.Errorf": 0, "fmt.Fprintf": 1,
	"apperr.Invalidf": 1, "apperr.NotFoundf": 1, "apperr.Emptyf": 0,
	"errors.New": 0, "msg.New": 0,
}

// sentenceFields are struct fields and variables that hold a sentence for a
// user: a literal assigned to one is extracted as well.
var sentenceFields = map[string]bool{
	"Fix": true, "Verdict": true, "Why": true, "Detail": true, "Hint": true,
	"Reason": true, "Note": true, "Cost": true, "Summary": true, "Text": true,
	"HazardSource": true,
}

// sentenceVars are local variables that hold a sentence ("why" of a
// default, "kv" of a note): a literal assigned to one is extracted.
var sentenceVars = map[string]bool{"why": true, "kv": true, "tag": true, "extra": true, "attn": true, "fusion": true}

// sentenceLists are slices of sentences: a literal appended to one is
// extracted.
var sentenceLists = map[string]bool{"Assumptions": true, "Notes": true, "Fixes": true}

// extractDomainStrings lists the user-facing strings of one package: the
// format of every printf-like call (fmt, apperr and the package's own
// wrappers, found as functions with a "format string" parameter followed by
// "...any"), the reason of every default recorded with def, literals set
// on sentence fields, and literals returned by functions named *Text.
func extractDomainStrings(t *testing.T, pkg string) []domainString {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in ../%s: %v", pkg, err)
	}
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
	}
	// The package's own printf wrappers and def-like recorders.
	wrappers := map[string]int{}
	for _, af := range parsed {
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			i := 0
			for _, field := range fd.Type.Params.List {
				for _, name := range field.Names {
					if name.Name == "format" {
						if id, ok := field.Type.(*ast.Ident); ok && id.Name == "string" {
							wrappers[fd.Name.Name] = i
						}
					}
					if name.Name == "why" && fd.Name.Name == "def" {
						wrappers["def"] = i
					}
					i++
				}
			}
		}
	}
	var out []domainString
	posOf := func(e ast.Expr) string {
		p := fset.Position(e.Pos())
		return pkg + "/" + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
	}
	add := func(e ast.Expr, format bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !strings.ContainsFunc(s, unicode.IsLetter) {
			return
		}
		out = append(out, domainString{text: s, format: format, pos: posOf(lit)})
	}
	for _, af := range parsed {
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch f := n.Fun.(type) {
				case *ast.SelectorExpr:
					if x, ok := f.X.(*ast.Ident); ok {
						name = x.Name + "." + f.Sel.Name
					}
					if i, ok := wrappers[f.Sel.Name]; ok && name != "fmt."+f.Sel.Name {
						if i < len(n.Args) {
							add(n.Args[i], f.Sel.Name != "def")
						}
						return true
					}
				case *ast.Ident:
					name = f.Name
					if f.Name == "append" && len(n.Args) > 1 {
						if sel, ok := n.Args[0].(*ast.SelectorExpr); ok && sentenceLists[sel.Sel.Name] {
							for _, a := range n.Args[1:] {
								add(a, false)
							}
						}
					}
					if i, ok := wrappers[f.Name]; ok && i < len(n.Args) {
						add(n.Args[i], f.Name != "def")
						return true
					}
				}
				if i, ok := printfLike[name]; ok && i < len(n.Args) {
					add(n.Args[i], name != "errors.New")
					if name == "msg.New" && len(out) > 0 && out[len(out)-1].pos == posOf(n.Args[i]) {
						out[len(out)-1].message = true
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && sentenceFields[k.Name] {
					add(n.Value, false)
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if sentenceVars[id.Name] && i < len(n.Values) {
						add(n.Values[i], false)
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if i >= len(n.Rhs) {
						break
					}
					if sel, ok := l.(*ast.SelectorExpr); ok && sentenceFields[sel.Sel.Name] {
						add(n.Rhs[i], false)
					}
					if id, ok := l.(*ast.Ident); ok && sentenceVars[id.Name] {
						add(n.Rhs[i], false)
					}
				}
			case *ast.FuncDecl:
				if strings.HasSuffix(n.Name.Name, "Text") && n.Body != nil {
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if r, ok := m.(*ast.ReturnStmt); ok {
							for _, e := range r.Results {
								add(e, false)
							}
						}
						return true
					})
				}
			}
			return true
		})
	}
	return out
}

// TestCatalogCoversDomainStrings fails listing every user-facing string of
// the domain packages that neither the catalog nor the allow-list has.
func TestCatalogCoversDomainStrings(t *testing.T) {
	total, covered, allowed := 0, 0, 0
	var missing []string
	seen := map[string]bool{}
	for _, pkg := range trDomainPackages {
		pkgTotal, pkgCovered := 0, 0
		for _, s := range extractDomainStrings(t, pkg) {
			if seen[s.text] {
				continue
			}
			seen[s.text] = true
			total++
			pkgTotal++
			if _, ok := trNotUserFacing[s.text]; ok {
				allowed++
				continue
			}
			if s.message {
				// A message is looked up by its key, exactly.
				if _, ok := (zhCatalog{}).Lookup(s.text); ok {
					covered++
					pkgCovered++
				} else {
					missing = append(missing, s.pos+"\t"+strconv.Quote(s.text))
				}
				continue
			}
			// A plain literal is a catalog key with its percent signs
			// doubled, as every key is a format.
			key := s.text
			if !s.format {
				key = strings.ReplaceAll(s.text, "%", "%%")
			}
			if _, ok := (zhCatalog{}).Lookup(key); ok {
				covered++
				pkgCovered++
				continue
			}
			missing = append(missing, s.pos+"\t"+strconv.Quote(s.text))
		}
		t.Logf("%-10s %3d strings, %3d in the catalog", pkg, pkgTotal, pkgCovered)
	}
	t.Logf("total: %d user-facing strings, %d in the catalog, %d allowed as not user-facing, %d missing", total, covered, allowed, len(missing))
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("%d domain strings have no Chinese in the catalog (add them to internal/report/locales/zh.po, or to trNotUserFacing with a reason):\n%s",
			len(missing), strings.Join(missing, "\n"))
	}
	// An allow-listed string that is gone from the source is stale.
	for s := range trNotUserFacing {
		if !seen[s] {
			t.Errorf("trNotUserFacing lists %q, which no domain package has any more", s)
		}
	}
}

// productNames are feature names of data/compat.yaml that are names of
// products, the same in Chinese.
var productNames = map[string]bool{
	"FlashAttention 2": true, "FlashAttention 3": true, "FlashAttention 4": true,
	"NVIDIA TransformerEngine": true, "Megatron-Core / NeMo": true, "LLM Foundry": true,
	"Optimum Habana": true, "Text Generation Inference": true,
}

// TestCatalogCoversCompatData fails listing every sentence of
// data/compat.yaml (the software matrix compat reads) that has no Chinese:
// compat passes them on as reasons, fixes, costs and checklist steps.
func TestCatalogCoversCompatData(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "data", "compat.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	mx, err := compat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	add := func(s string) {
		if s != "" {
			texts = append(texts, s)
		}
	}
	for _, v := range mx.Vendors {
		add(v.LockIn)
		add(v.ToolCheck)
		add(v.CollectiveCheck)
	}
	for _, f := range mx.Frameworks {
		for _, p := range f.Platforms {
			add(p.Via)
			add(p.Text)
			add(p.Fix)
			add(p.Cost)
		}
	}
	for _, f := range mx.Features {
		// A feature's name heads its verdict; product names need no
		// Chinese, descriptive ones do.
		if strings.ContainsAny(f.Name, " ") && !productNames[f.Name] {
			add(f.Name)
		}
		for _, r := range f.Rules {
			add(r.Text)
			add(r.Fix)
			add(r.Cost)
		}
		add(f.Otherwise.Text)
		add(f.Otherwise.Fix)
		add(f.Otherwise.Cost)
		for _, c := range f.Check {
			// A command to paste ("python -c ..."), the same in every
			// language; checks with words around the command are kept.
			if !strings.HasPrefix(c, "python ") {
				add(c)
			}
		}
	}
	var missing []string
	seen := map[string]bool{}
	for _, s := range texts {
		if seen[s] {
			continue
		}
		seen[s] = true
		// The key compat's message has (its {gpu} placeholders are verbs).
		key := strings.ReplaceAll(strings.ReplaceAll(s, "%", "%%"), "{gpu}", "%s")
		if _, ok := (zhCatalog{}).Lookup(key); !ok {
			missing = append(missing, strconv.Quote(key))
		}
	}
	t.Logf("data/compat.yaml: %d sentences, %d in the catalog", len(seen), len(seen)-len(missing))
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("%d sentences of data/compat.yaml have no Chinese (add them to internal/report/locales/zh.po, under the data/compat.yaml heading):\n%s", len(missing), strings.Join(missing, "\n"))
	}
}
