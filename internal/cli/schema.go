package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/schema"
	"github.com/gpupick/gpupick/internal/workload"
)

// Schemas are the JSON Schemas gpupick schema prints, by file kind.
var Schemas = map[string]func() schema.Node{
	"workload": workload.JSONSchema,
	"service":  autoscale.JSONSchema,
}

func newSchemaCmd(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "schema (workload|service)",
		Short: "Print the JSON Schema of a workload or service file",
		Long: `Print the JSON Schema (draft 2020-12) of a workload file or of a service file
(gpupick simulate): every key with its type, description, allowed values and
range, generated from the parser's own types. Editors use it to complete and
check fields: start a file with
  # yaml-language-server: $schema=PATH/workload.schema.json
The repository keeps copies in schemas/.`,
		Example:   "  gpupick schema workload > workload.schema.json",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"workload", "service"},
		RunE: func(cmd *cobra.Command, args []string) error {
			gen, ok := Schemas[args[0]]
			if !ok {
				return apperr.Invalidf("", "want workload or service, got %q", args[0])
			}
			b, err := schema.Marshal(gen())
			if err != nil {
				return apperr.Wrap(apperr.Internal, "encode the schema", err)
			}
			_, err = e.Stdout.Write(b)
			return err
		},
	}
}
