package cli

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/report"
)

func newExportCmd(e *Env) *cobra.Command {
	var file, offer, policyFile, dir, image, searchID, lang string
	var shards, parallelism, offers int
	cmd := &cobra.Command{
		Use:   "export (k8s|keda|karpenter|skypilot|all) -f WORKLOAD [--offer PROVIDER/INSTANCE] [--policy SERVICE.yaml] [-o DIR] | export search-job -f SERVICE.yaml --shards N",
		Short: "Write Kubernetes, KEDA, Karpenter and SkyPilot manifests for the recommended (or a chosen) offer",
		Long: `Write Kubernetes, KEDA, Karpenter and SkyPilot manifests for the recommended (or a chosen) offer.

export search-job -f SERVICE.yaml --shards N writes instead a ConfigMap with the service file (and
the workload and trace files it names, which must sit beside it) and a Kubernetes Indexed Job of N
pods, each running one shard of gpupick simulate --search; the database URL comes from the key
` + export.DatabaseSecretKey + ` of Secret ` + export.DatabaseSecret + ` (as for gpupick serve). Merge with gpupick simulate --search-results ID.

A failover list holds the candidates of one software family (CUDA, ROCm, TPU, Neuron, Gaudi,
CANN): an image runs on one. The chosen offer's family fills the documents; each other family among
the ranked candidates gets its own SkyPilot task, skypilot-<family>.yaml, with its own plan and image
(written with -o DIR), and stderr says where each went. --image is the chosen family's image.`,
		Example: `  gpupick export all -f examples/llama3-70b-chat.yaml -o deploy/
  gpupick export skypilot -f examples/llama3-8b-lora.yaml --offer lambda/gpu_8x_h100_sxm5
  gpupick export search-job -f examples/service-model.yaml --shards 8 --image registry.example/gpupick:v1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := args[0]
			if kind == "search-job" {
				return e.exportSearchJob(file, dir, image, searchID, shards, parallelism, offers)
			}
			if !slices.Contains(export.Kinds, kind) {
				return apperr.Invalidf("kind", "want k8s, keda, karpenter, skypilot or all, got %q", kind)
			}
			if kind == "all" && dir == "" {
				return apperr.Invalidf("-o", "export all writes several files: give a directory with -o DIR")
			}
			l, err := e.lang(lang)
			if err != nil {
				return err
			}
			spec, c, err := e.workloadAndCatalog(file)
			if err != nil {
				return err
			}
			m, err := e.Compat()
			if err != nil {
				return err
			}
			in, err := app.ExportInput(spec, c, e.checker(m, c), e.Now(), app.Flags, offer)
			if err != nil {
				return err
			}
			if policyFile != "" {
				if in.Policy, err = e.loadPolicy(policyFile); err != nil {
					return err
				}
			}
			in.Image = image // the chosen offer's family; the others take their own defaults
			files, err := export.Files(kind, in)
			if err != nil {
				return err
			}
			// One sentence per other software family: where its candidates
			// went, or that these manifests leave them out.
			for _, n := range export.Notes(kind, in) {
				fmt.Fprintln(e.Stderr, report.Render(l, n))
			}
			if dir == "" {
				// One stream holds one file: the chosen family's. The other
				// families' tasks are written with -o DIR.
				primary := export.PrimaryFile(kind, in, files)
				if len(files) > 1 {
					var others []string
					for _, name := range slices.Sorted(maps.Keys(files)) {
						if name != primary {
							others = append(others, name)
						}
					}
					fmt.Fprintln(e.Stderr, report.Render(l, msg.New("Printed %s only; -o DIR also writes %s.", primary, strings.Join(others, ", "))))
				}
				_, err := e.Stdout.Write(files[primary])
				return err
			}
			if err := writeFiles(dir, files); err != nil {
				return err
			}
			kept, err := replaceManifest(dir, files)
			if err != nil {
				return err
			}
			for _, k := range kept {
				fmt.Fprintf(e.Stderr, "%s: kept %s of the previous export: it was changed since gpupick wrote it\n", dir, k)
			}
			names := slices.Sorted(maps.Keys(files))
			_, err = fmt.Fprintf(e.Stdout, "wrote %s to %s (chosen offer %s in %s)\n", strings.Join(names, ", "), dir, in.Offers[0].ID(), in.Offers[0].Region)
			return err
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "workload `FILE`")
	cmd.Flags().StringVar(&offer, "offer", "", "export for `PROVIDER/INSTANCE` (default: the top recommendation)")
	cmd.Flags().StringVar(&policyFile, "policy", "", "take the autoscaling policy from a `SERVICE.yaml` (see gpupick simulate)")
	cmd.Flags().StringVar(&image, "image", "", "container `IMAGE` of the chosen offer's software family (default: a stated image per framework and family)")
	cmd.Flags().IntVar(&shards, "shards", 0, "search-job: the `N` shards (pods) of the search")
	cmd.Flags().IntVar(&parallelism, "parallelism", 0, "search-job: run at most `N` shards at once (default: all)")
	cmd.Flags().StringVar(&searchID, "search-id", "", "search-job: store the results under `ID` (default: a digest of the service file and gpupick version)")
	cmd.Flags().IntVar(&offers, "offers", 4, "search-job: simulate's --offers, the `N` best other offers searched")
	cmd.Flags().StringVarP(&dir, "output", "o", "", "write the files into `DIR` (default: print to stdout)")
	langFlag(cmd, &lang)
	return cmd
}

// writeFiles writes every file into dir, or none: each goes to a temporary
// name first and is renamed into place once all are written.
func writeFiles(dir string, files map[string][]byte) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &apperr.Error{Code: apperr.Invalid, Field: "-o", Msg: "cannot create the directory", Err: err}
	}
	type pending struct{ temp, final string }
	var done []pending
	defer func() {
		if err != nil {
			for _, p := range done {
				os.Remove(p.temp)
			}
		}
	}()
	for name, b := range files {
		f, err := os.CreateTemp(dir, "."+name+".*")
		if err != nil {
			return &apperr.Error{Code: apperr.Invalid, Field: "-o", Msg: "cannot write", Err: err}
		}
		done = append(done, pending{f.Name(), filepath.Join(dir, name)})
		_, werr := f.Write(b)
		if werr == nil {
			werr = f.Chmod(0o644)
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return &apperr.Error{Code: apperr.Unavailable, Field: "-o", Msg: "cannot write " + name, Err: werr}
		}
	}
	for _, p := range done {
		if err := os.Rename(p.temp, p.final); err != nil {
			return &apperr.Error{Code: apperr.Unavailable, Field: "-o", Msg: "cannot write " + p.final, Err: err}
		}
	}
	return nil
}

// exportManifest lists, in an output directory, the files the last export
// wrote there with their SHA-256, so that the next one removes those it no
// longer writes: the directory holds one export's files. A file changed
// since gpupick wrote it is the user's: it is kept, and said.
const exportManifest = "gpupick-export.txt"

// replaceManifest removes the files of the previous export that this one
// did not write and that are unchanged, records this one's, and returns
// the names it kept because they were changed.
func replaceManifest(dir string, files map[string][]byte) (kept []string, err error) {
	path := filepath.Join(dir, exportManifest)
	if old, err := os.ReadFile(path); err == nil {
		for _, line := range strings.Split(string(old), "\n") {
			sum, name, ok := strings.Cut(strings.TrimSpace(line), "  ")
			if _, written := files[name]; !ok || written || name == "" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
				continue // only plain names this command wrote
			}
			b, err := os.ReadFile(filepath.Join(dir, name))
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil || fmt.Sprintf("%x", sha256.Sum256(b)) != sum {
				kept = append(kept, name)
				continue
			}
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return kept, &apperr.Error{Code: apperr.Unavailable, Field: "-o", Msg: "cannot remove " + name + " of the previous export", Err: err}
			}
		}
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(files[name]), name)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return kept, &apperr.Error{Code: apperr.Unavailable, Field: "-o", Msg: "cannot write " + path, Err: err}
	}
	return kept, nil
}

// loadPolicy reads the autoscaling policy of a SERVICE.yaml (the file
// gpupick simulate takes) and maps it onto what KEDA can carry.
func (e *Env) loadPolicy(file string) (export.Policy, error) {
	spec, err := e.loadService(file)
	if err != nil {
		return export.Policy{}, err
	}
	return app.ExportPolicy(spec.Policy), nil
}

// exportSearchJob writes the Indexed Job of a sharded policy search to
// stdout.
func (e *Env) exportSearchJob(file, outDir, image, searchID string, shards, parallelism, offers int) error {
	if shards < 1 {
		return apperr.Invalidf("--shards", "export search-job needs --shards N (1 to %d)", autoscale.MaxShards)
	}
	s := autoscale.Shard{Count: shards}
	if err := s.Validate(); err != nil {
		return err
	}
	spec, err := e.loadService(file)
	if err != nil {
		return err
	}
	svc, err := e.ReadFile(file)
	if err != nil {
		return &apperr.Error{Code: apperr.Invalid, Field: "-f", Msg: "cannot read", Err: err}
	}
	base := filepath.Base(file)
	files := map[string][]byte{base: svc}
	dir := filepath.Dir(file)
	for _, ref := range []struct{ field, path string }{{"service.workload", spec.Service.Workload}, {"traffic.file", spec.Traffic.File}} {
		if ref.path == "" {
			continue
		}
		b, err := e.ReadFile(filepath.Join(dir, ref.path))
		if err != nil {
			return apperr.InFile(&apperr.Error{Code: apperr.Invalid, Field: ref.field, Msg: "cannot read " + ref.path, Err: err}, file)
		}
		files[filepath.ToSlash(ref.path)] = b
	}
	if searchID == "" {
		h := sha256.New()
		fmt.Fprintf(h, "gpupick search-job 1\ncode %s\nshards %d\noffers %d\n", codeVersion(), shards, offers)
		for _, k := range slices.Sorted(maps.Keys(files)) {
			fmt.Fprintf(h, "%s %d\n", k, len(files[k]))
			h.Write(files[k])
		}
		searchID = fmt.Sprintf("%x", h.Sum(nil))[:16]
	}
	b, err := export.SearchJobManifest(export.SearchJob{Name: spec.Name, Files: files, Service: base, Shards: shards,
		Parallelism: parallelism, SearchID: searchID, Image: image, Offers: offers})
	if err != nil {
		return apperr.InFile(err, file)
	}
	if outDir != "" {
		// Into the directory, as every export with -o DIR (all or none).
		const name = "search-job.yaml"
		if err := writeFiles(outDir, map[string][]byte{name: b}); err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.Stdout, "wrote %s to %s (search id %s); apply it with kubectl apply -f %s\n", name, outDir, searchID, filepath.Join(outDir, name))
		return err
	}
	_, err = e.Stdout.Write(b)
	return err
}
