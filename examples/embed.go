// Package examples holds the example workload, service and trace files of
// the repository, embedded so that the web page (gpupick serve) can offer
// them in its example pickers without reading the files at run time.
package examples

import "embed"

// FS is every example: the workload and service files (*.yaml) at the top
// and the sample traces under traces/.
//
//go:embed *.yaml traces/*.csv
var FS embed.FS
