// Command gpupick chooses a GPU cloud server for a described job and shows
// why. All the work is in internal/; this file only wires the process.
package main

import (
	"os"

	"github.com/gpupick/gpupick/internal/cli"
)

func main() {
	e := cli.NewEnv(os.Stdout, os.Stderr)
	e.Tune = cli.ShortRun
	os.Exit(cli.Execute(e, os.Args[1:]))
}
