package report

// trNotUserFacing lists the domain strings that need no Chinese, each with
// why. Everything else a domain package formats reaches a user and must be
// in the catalog.
var trNotUserFacing = map[string]string{
	// A sharded search's unit key (autoscale/shard.go): stored, never shown.
	"%05d %s": "unit key",
	// Field paths: names from the workload file, the same in every language.
	"stack.needs[%d]":               "field path",
	"constraints.providers[%d]":     "field path",
	"compliance.certifications[%d]": "field path",
	"cuda[%d]":                      "field path in data/compat.yaml",
	"rocm_targets[%d]":              "field path in data/compat.yaml",
	"%s.releases[%d]":               "field path in data/compat.yaml",
	"%s.cuda[%d]":                   "field path in data/compat.yaml",
	"%s.rocm[%d]":                   "field path in data/compat.yaml",
	"%s.rules[%d]":                  "field path in data/compat.yaml",
	// Keys and ids built for code, never shown.
	"%+v|%+v|%+v|%+v": "a cache key",
	"%#v":             "a cache key",
	"%s %d":           "a field name and its value in a parallelism block (data 8, tensor 2)",
	"PCIe Gen%d x16":  "a link's name (PCIe Gen5 x16), the same in every language",
	// Validation of the embedded data/compat.yaml: a failure is a build
	// error for the maintainers (go test fails), never a user's message.
	"every entry needs a source (URL or repo@commit path)": "data/compat.yaml validation",
	"empty kind of work": "data/compat.yaml validation",
	"%q is not a kind id (lowercase, e.g. kernel-swap)": "data/compat.yaml validation",
	"must be > 0, got %g":                               "data/compat.yaml validation",
	"kind %s is missing (the checker assigns it)":       "data/compat.yaml validation",
	"a port or needs-work outcome needs the work it takes (work: {kind: ...}, one of work_kinds)": "data/compat.yaml validation",
	"only a port or a needs-work outcome takes work":                                              "data/compat.yaml validation",
	"%q is not a kind of work_kinds (%s)":                                                         "data/compat.yaml validation",
	"must be >= 0, got %g":                                                                        "data/compat.yaml validation",
	"every entry needs an as_of date (YYYY-MM-DD)":                                                "data/compat.yaml validation",
	"%q is not a date (want YYYY-MM-DD)":                                                          "data/compat.yaml validation",
	"missing version":                                                                             "data/compat.yaml validation",
	"no CUDA toolkits":                                                                            "data/compat.yaml validation",
	"toolkits must be in ascending order (%s after %s)":                                           "data/compat.yaml validation",
	"%q is not an AMD target (gfx...)":                                                            "data/compat.yaml validation",
	"empty vendor":                                                                                "data/compat.yaml validation",
	"%q is not a backend (%s)":                                                                    "data/compat.yaml validation",
	"lock_in, tool_check, device_check and collective_check are required":                         "data/compat.yaml validation",
	"vendor %s is missing":                                                                        "data/compat.yaml validation",
	"framework %s is missing":                                                                     "data/compat.yaml validation",
	"empty framework":                                                                             "data/compat.yaml validation",
	"%q is not a framework id (%v)":                                                               "data/compat.yaml validation",
	"missing name":                                                                                "data/compat.yaml validation",
	"%q must name a framework with releases of its own":                                           "data/compat.yaml validation",
	"a framework that requires another takes its builds from it; list no releases": "data/compat.yaml validation",
	"backend %s is missing (say native, port or none)":                             "data/compat.yaml validation",
	"a port needs via, fix and cost":                                               "data/compat.yaml validation",
	"support none needs text and fix":                                              "data/compat.yaml validation",
	"%q is not native, port or none":                                               "data/compat.yaml validation",
	"empty release":                                                                "data/compat.yaml validation",
	"releases must be in ascending order (%s after %s)":                            "data/compat.yaml validation",
	"CUDA %q is not in the cuda section":                                           "data/compat.yaml validation",
	"empty feature":                                                                "data/compat.yaml validation",
	"%q is not a feature id (lowercase, e.g. flash-attention-3)":                   "data/compat.yaml validation",
	"%q is not a vendor or default":                                                "data/compat.yaml validation",
	"%q is not a vendor":                                                           "data/compat.yaml validation",
	"%q is not a data type":                                                        "data/compat.yaml validation",
	"%q is not compatible, needs-work or incompatible":                             "data/compat.yaml validation",
	"missing text":                                                                 "data/compat.yaml validation",
	"a %s outcome needs a fix a person can act on":                                 "data/compat.yaml validation",
	// Internal invariants: a bug, reported as an internal error.
	"the spec was not completed by ParseSpec":       "internal invariant",
	"a trace is read with ReadTrace, not generated": "internal invariant",
	// A sharded search's stored unit that does not decode (autoscale/entrycodec.go):
	// a damaged store, reported as an internal error naming the unit.
	"stored entries cut short":        "internal invariant",
	"%d byte(s) after the last entry": "internal invariant",

	"%s[%d]": "field path",
	"%v":     "wraps a parse error of data/compat.yaml",
	// Numbers formatted alone; the sentence around them is in the catalog.
	"%.0f": "a number",
	"%.2g": "a number",
	// JSON Schema descriptions come from the Go doc comments, which are
	// English; editors show them as written.
	"%s Used by %s kind %s.": "JSON Schema description",
}
