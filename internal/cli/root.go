// Package cli wires gpupick's commands: it parses flags into requests, loads
// files, calls the domain packages and renders their results to the writers
// it is given. One file per command; nothing here computes an answer.
package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/report"
)

// Version is set at build time with -ldflags "-X .../cli.Version=v1.2.3";
// otherwise the module version or "dev".
var Version = ""

// Env is what a command may touch: its output streams, the clock, and the
// file system. Tests give buffers, a fixed clock and fixture directories.
type Env struct {
	Stdout, Stderr io.Writer
	Now            func() time.Time
	// Embedded is the default catalog directory (data.FS in production).
	Embedded fs.FS
	// ReadFile and DirFS reach the user's files.
	ReadFile func(name string) ([]byte, error)
	DirFS    func(dir string) fs.FS
	Getenv   func(key string) string
	// Tune, when set, is called with the name of the command about to run,
	// to tune the process for it (ShortRun, in the gpupick binary).
	Tune func(command string)

	catalogDir string // --catalog
	pricesFile string // --prices
	dbFlag     string // --db
	cat        *catalog.Catalog
	compatOnce sync.Once // loads matrix and compatErr
	matrix     *compat.Matrix
	compatErr  error
	check      *app.Checker
}

// NewEnv returns the production environment.
func NewEnv(stdout, stderr io.Writer) *Env {
	return &Env{
		Stdout: stdout, Stderr: stderr, Now: time.Now, Embedded: data.FS,
		ReadFile: os.ReadFile, DirFS: os.DirFS, Getenv: os.Getenv,
	}
}

// Catalog loads the embedded catalog, layers --catalog DIR over it and
// applies --prices; it is loaded once per run.
func (e *Env) Catalog() (*catalog.Catalog, error) {
	if e.cat != nil {
		return e.cat, nil
	}
	base, err := catalog.Parse(e.Embedded, true)
	if err != nil {
		return nil, apperr.Wrap(apperr.Internal, "embedded catalog", err)
	}
	layers := []*catalog.Files{base}
	// Prices imported into the store (gpupick catalog update/import) replace
	// the embedded ones; the command says which snapshot it used.
	if stored, line, err := e.storeLayer(); err != nil {
		fmt.Fprintf(e.Stderr, "gpupick: warning: %v; using the embedded catalog\n", err)
	} else if stored != nil {
		layers = append(layers, stored)
		fmt.Fprintf(e.Stderr, "gpupick: prices from the %s\n", line)
	}
	var parseErr error
	if e.catalogDir != "" {
		user, err := e.userCatalog("--catalog", e.catalogDir)
		if user == nil {
			return nil, err
		}
		parseErr = err
		layers = append(layers, user)
	}
	c, err := catalog.Build(layers...)
	if err := apperr.Join(parseErr, err); err != nil {
		if e.catalogDir != "" {
			// Every problem of the user's files together: rows that did not
			// parse, and rows that parsed but name what the catalog lacks.
			return nil, inDir(err, e.catalogDir)
		}
		return nil, apperr.Wrap(apperr.Internal, "embedded catalog", err)
	}
	if e.pricesFile != "" {
		b, err := e.ReadFile(e.pricesFile)
		if err != nil {
			return nil, &apperr.Error{Code: apperr.Invalid, Field: "--prices", Msg: "cannot read", Err: err}
		}
		ov, err := catalog.ParseOverlay(b)
		if err != nil {
			return nil, apperr.InFile(err, e.pricesFile)
		}
		if c, err = c.WithPrices(ov); err != nil {
			return nil, apperr.InFile(err, e.pricesFile)
		}
	}
	e.cat = c
	return c, nil
}

// userCatalog parses a catalog directory of the user's: it must exist and
// be a directory (field names the flag or argument). The files parsed are
// returned with their problems, so that rows that did parse are checked
// against the catalog too; nil files when the directory cannot be read.
func (e *Env) userCatalog(field, dir string) (*catalog.Files, error) {
	if _, err := fs.Stat(e.DirFS(dir), "."); err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, Field: field, Msg: dir + ": not a readable directory", Err: err}
	}
	f, err := catalog.Parse(e.DirFS(dir), false)
	return f, err
}

// inDir prefixes the file names of catalog errors with the user's directory.
func inDir(err error, dir string) error {
	prefix := func(e *apperr.Error) {
		if e.File != "" {
			e.File = strings.TrimSuffix(dir, "/") + "/" + e.File
		}
	}
	var l apperr.List
	var one *apperr.Error
	switch {
	case errors.As(err, &l):
		for _, e := range l {
			prefix(e)
		}
	case errors.As(err, &one):
		prefix(one)
	}
	return err
}

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// NewRoot builds the command tree.
func NewRoot(e *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "gpupick",
		Short: "Choose a GPU cloud server for a concrete job, and see why",
		Long: `gpupick answers, for one described workload: which GPU cloud offers can run it,
how fast, at what total cost, what limits it, what may break, and how to scale it.
The catalog of accelerators, providers and offers is embedded; no account or network is needed.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &apperr.Error{Code: apperr.Invalid, Msg: err.Error()}
	})
	root.PersistentFlags().StringVar(&e.catalogDir, "catalog", "", "add or override catalog rows from `DIR` (same layout as data/)")
	root.PersistentFlags().StringVar(&e.pricesFile, "prices", "", "apply your own prices from an overlay `FILE` (see docs/prices.md)")
	root.PersistentFlags().StringVar(&e.dbFlag, "db", "", "catalog store: a SQLite `FILE` or a postgres:// URL (default: $GPUPICK_DB, else gpupick/gpupick.db in your configuration directory); read when it exists")
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newVersionCmd(e), newGPUsCmd(e), newOffersCmd(e), newProvidersCmd(e), newCatalogCmd(e), newPredictCmd(e), newRecommendCmd(e), newCostCmd(e), newCheckCmd(e), newExportCmd(e), newSimulateCmd(e), newProbeCmd(e), newServeCmd(e), newMCPCmd(e), newTokenCmd(e), newSchemaCmd(e))
	root.Example = examples(root)
	return root
}

// Execute runs gpupick with args and returns the exit status. Errors go to
// stderr as one message; a panic becomes an internal error, never a trace.
func Execute(e *Env, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.Stderr, "gpupick: internal error: %v (please report this with the command you ran)\n", r)
			code = 1
		}
	}()
	root := NewRoot(e)
	root.SetArgs(args)
	if e.Tune != nil {
		if cmd, _, err := root.Find(args); err == nil {
			e.Tune(cmd.Name())
		}
	}
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ae *apperr.Error
	var al apperr.List
	if !errors.As(err, &ae) && !errors.As(err, &al) {
		// Only cobra returns plain errors: unknown commands and bad arguments.
		err = &apperr.Error{Code: apperr.Invalid, Msg: err.Error() + " (see gpupick --help)"}
	}
	msg := err.Error()
	if l := errorLang(args, e.getenv("LANG")); l == report.Chinese {
		msg = translateErr(l, err)
	}
	fmt.Fprintf(e.Stderr, "gpupick: %s\n", msg)
	return apperr.ExitCode(err)
}

// translateErr is err's message in l: each problem's own sentence through
// Tr, its file, line and field as they are, and a system error it wraps
// ("open x.yaml: no such file or directory") left whole.
func translateErr(l report.Lang, err error) string {
	var al apperr.List
	var ae *apperr.Error
	switch {
	case errors.As(err, &al) && len(al) > 1:
		parts := make([]string, len(al))
		for i, x := range al {
			parts[i] = translateErr(l, x)
		}
		return fmt.Sprintf("%d 个问题：\n  %s", len(al), strings.Join(parts, "\n  "))
	case errors.As(err, &al) && len(al) == 1:
		return translateErr(l, al[0])
	case errors.As(err, &ae):
		return report.ErrorText(l, ae)
	}
	return report.ErrorText(l, err)
}

// errorLang is the language of an error message: the command's --lang when
// it parses (the command may have failed before reading it), else LANG.
func errorLang(args []string, envLang string) report.Lang {
	flag := ""
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--lang="); ok {
			flag = v
		} else if a == "--lang" && i+1 < len(args) {
			flag = args[i+1]
		}
	}
	l, err := report.ParseLang(flag, envLang)
	if err != nil {
		return report.English
	}
	return l
}

// examples collects the first example of every command, so that
// `gpupick --help` shows one per command.
func examples(root *cobra.Command) string {
	var lines []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c != root && c.Example != "" {
			first, _, _ := strings.Cut(c.Example, "\n")
			lines = append(lines, first)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return strings.Join(lines, "\n")
}

// outputFlag adds -o with the formats a command supports.
func outputFlag(cmd *cobra.Command, p *string, formats string) {
	cmd.Flags().StringVarP(p, "output", "o", "table", "output format: "+formats)
}

// langFlag adds --lang; the command reads it with Env.lang.
func langFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "lang", "", "output language: en or zh (default: zh when LANG starts with zh, else en)")
}

// lang checks --lang, falling back to a Chinese LANG.
func (e *Env) lang(flag string) (report.Lang, error) {
	return report.ParseLang(flag, e.getenv("LANG"))
}
