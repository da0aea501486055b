// Package data embeds gpupick's default catalog: accelerators, providers,
// regions, exchange rates and one offers file per provider. The format is in
// docs/catalog-format.md; every row carries its source and date.
package data

import "embed"

// FS holds the catalog files, laid out as catalog.Parse expects.
//
//go:embed accelerators.csv providers.yaml regions.csv fx.csv compat.yaml offers/*.csv
var FS embed.FS
