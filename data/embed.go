// Package data embeds gpupick's default catalog: accelerators, providers,
// regions, exchange rates and one offers file per provider. The format is in
// docs/catalog-format.md; every row carries its source and date. The offers
// files and SOURCES.md are generated from sources/ by `go generate ./data`
// (gpupick catalog build); edit the sources, not the offers.
package data

import "embed"

//go:generate go run ../cmd/gpupick catalog build --data .

// FS holds the catalog files, laid out as catalog.Parse expects.
//
//go:embed accelerators.csv providers.yaml regions.csv fx.csv compat.yaml mig-profiles.csv spot-risk.csv supply-chain.yaml offers/*.csv
var FS embed.FS
