// Command gpupick chooses a GPU cloud server for a described job and shows
// why. All the work is in internal/; this file only wires the process.
package main

import (
	"os"

	"github.com/gpupick/gpupick/internal/cli"
)

func main() {
	os.Exit(cli.Execute(cli.NewEnv(os.Stdout, os.Stderr), os.Args[1:]))
}
