// Command perffit refits the performance model's factors on the published
// measurements in internal/perf/fit/testdata/published.yaml, validates them
// leave-one-source-out, and writes internal/perf/model.json (the fitted
// factors and the prediction intervals) and docs/accuracy.md. Run it from
// the repository root:
//
//	go run ./cmd/perffit          # rewrite both files
//	go run ./cmd/perffit -check   # exit 1 when either file is stale
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/perf/fit"
)

func main() {
	check := flag.Bool("check", false, "do not write: exit 1 when model.json, accuracy.md or evidence.json differs from a fresh fit")
	modelPath := flag.String("model", "internal/perf/model.json", "where to write the fitted model")
	docPath := flag.String("doc", "docs/accuracy.md", "where to write the accuracy report")
	evidencePath := flag.String("evidence", "internal/perf/evidence.json", "where to write the published measurements shown beside predictions")
	flag.Parse()
	if err := run(*check, *modelPath, *docPath, *evidencePath); err != nil {
		fmt.Fprintln(os.Stderr, "perffit:", err)
		os.Exit(1)
	}
}

func run(check bool, modelPath, docPath, evidencePath string) error {
	files, err := catalog.Parse(data.FS, true)
	if err != nil {
		return err
	}
	cat, err := catalog.Build(files)
	if err != nil {
		return err
	}
	cases, err := fit.Published()
	if err != nil {
		return err
	}
	ev, err := fit.NewEvaluator(cat, cases)
	if err != nil {
		return err
	}
	res := fit.Run(ev, cases, fit.DefaultOptions)
	model, err := res.ModelJSON()
	if err != nil {
		return err
	}
	doc := []byte(res.Markdown())
	evidence, err := res.EvidenceJSON(cat)
	if err != nil {
		return err
	}
	stale := false
	for _, f := range []struct {
		path string
		data []byte
	}{{modelPath, model}, {docPath, doc}, {evidencePath, evidence}} {
		old, _ := os.ReadFile(f.path)
		if bytes.Equal(old, f.data) {
			fmt.Printf("%s is current\n", f.path)
			continue
		}
		if check {
			fmt.Printf("%s is stale\n", f.path)
			stale = true
			continue
		}
		if err := writeAtomic(f.path, f.data); err != nil {
			return err
		}
		fmt.Printf("wrote %s\n", f.path)
	}
	in, _ := fit.Summarise(res.Validation.InSample)
	out, _ := fit.Summarise(res.Validation.HeldOut)
	vin, _ := fit.Summarise(fit.ValidationSet(res.Validation.InSample))
	vout, _ := fit.Summarise(fit.ValidationSet(res.Validation.HeldOut))
	fmt.Printf("validation set, %d scored rows: in-sample median %.3f p90 %.3f; leave-one-source-out median %.3f p90 %.3f\n",
		vin.N, vin.Median, vin.P90, vout.Median, vout.P90)
	fmt.Printf("all %d rows from %d sources: in-sample median %.3f p90 %.3f; leave-one-source-out median %.3f p90 %.3f; interval coverage %.0f%%\n",
		in.N, len(res.Validation.Groups), in.Median, in.P90, out.Median, out.P90, 100*res.Coverage)
	if stale {
		return fmt.Errorf("stale files: run %s", fit.Command)
	}
	return nil
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
