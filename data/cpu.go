package data

import _ "embed"

// CPUInstances is a small hand-kept table of x86 CPU instances (a few AWS,
// GCP and Azure families), each row with its on-demand price, source and
// date: the CPU tier of a service (autoscale.ParseCPUInstances reads it).
// The GPU offers come from sources/ through `gpupick catalog build`; these
// rows are kept by hand because the public catalog snapshots the project
// builds from hold GPU rows only; each is copied from a public
// SkyPilot-format catalog (github.com/anycloud-sh/catalog), named with its
// path and commit in the source column (docs/catalog-format.md).
//
//go:embed cpu-instances.csv
var CPUInstances []byte
