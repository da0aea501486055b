package export

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
)

// File names All uses.
const (
	FileDeployment   = "deployment.yaml" // Deployment and Service of a service
	FileJob          = "job.yaml"        // Job of a training or batch run
	FileScaledObject = "scaledobject.yaml"
	FileNodePool     = "nodepool.yaml"
	FileSkyPilot     = "skypilot.yaml"
	FileReadme       = "README.md"
)

// Kinds are the exporters Files runs, by the name the command line and the
// API give them.
var Kinds = []string{"k8s", "keda", "karpenter", "skypilot", "all"}

// Files runs the exporter named kind (one of Kinds) and returns file name →
// content: one file for k8s (KubernetesFile), keda and karpenter; for
// skypilot the chosen family's task (FileSkyPilot) and the task of each
// other family that can have one (SkyPilotFile), which is enough when the
// chosen family itself has none (no offer SkyPilot can launch); for all,
// what All writes. An unknown kind is an apperr.Invalid error on the
// field "kind".
func Files(kind string, in Input) (map[string][]byte, error) {
	switch kind {
	case "all":
		return All(in)
	case "skypilot":
		tasks, err := skyPilotTasks(in)
		if err != nil {
			return nil, err
		}
		files := map[string][]byte{}
		for _, t := range tasks {
			if t.err == nil {
				files[t.file] = t.body
			}
		}
		if len(files) == 0 {
			return nil, tasks[0].err
		}
		return files, nil
	}
	one := map[string]struct {
		file string
		fn   func(Input) ([]byte, error)
	}{
		"k8s": {FileDeployment, Kubernetes}, "keda": {FileScaledObject, KEDA},
		"karpenter": {FileNodePool, Karpenter}, "skypilot": {FileSkyPilot, SkyPilot},
	}
	e, ok := one[kind]
	if !ok {
		return nil, apperr.Invalidf("kind", "want k8s, keda, karpenter, skypilot or all, got %q", kind)
	}
	b, err := e.fn(in)
	if err != nil {
		return nil, err
	}
	if kind == "k8s" {
		e.file = KubernetesFile(in.Spec)
	}
	return map[string][]byte{e.file: b}, nil
}

// PrimaryFile is the file of files (what Files wrote for kind) to print
// when only one can be (a single stream): the chosen offer's, or, for a
// SkyPilot export whose chosen family has no task, the best other
// family's. "" for all.
func PrimaryFile(kind string, in Input, files map[string][]byte) string {
	switch kind {
	case "k8s":
		return KubernetesFile(in.Spec)
	case "keda":
		return FileScaledObject
	case "karpenter":
		return FileNodePool
	case "skypilot":
		if _, ok := files[FileSkyPilot]; ok {
			return FileSkyPilot
		}
		for _, o := range in.Others {
			if f := SkyPilotFile(AcceleratorFamily(o.GPU)); files[f] != nil {
				return f
			}
		}
		return FileSkyPilot
	}
	return ""
}

// Notes are the sentences for people about what the export of kind split
// off or left out: one per other software family (Input.Others), saying
// which file holds its SkyPilot task (skypilot, all) or that these
// manifests leave it out (k8s, karpenter). A ScaledObject carries no
// candidates: keda has none. The documents carry the same sentences.
func Notes(kind string, in Input) []msg.Msg {
	switch kind {
	case "skypilot", "all":
		tasks, err := skyPilotTasks(in)
		if err != nil {
			return nil
		}
		if tasks[0].err != nil && kind == "skypilot" {
			return skyPilotNotes(tasks, -1) // the chosen family's too: it has no task
		}
		return skyPilotNotes(tasks, 0)
	case "k8s", "karpenter":
		return leftOutNotes(in.Others)
	}
	return nil
}

// All runs every exporter and returns file name → content. Documents that do
// not apply to the input (a ScaledObject for a job or a fixed policy, a
// NodePool on a cloud without Karpenter) are left out, and README.md, always
// present, lists the files, the order to apply them and what was left out
// and why. The SkyPilot task of each other software family (Input.Others)
// is a file of its own (SkyPilotFile). An error that is not apperr.Invalid
// from any exporter, or an invalid input, fails the whole export.
func All(in Input) (map[string][]byte, error) {
	r, err := resolve(in)
	if err != nil {
		return nil, err
	}
	k8sFile := KubernetesFile(r.Spec)
	exporters := []struct {
		file string
		what string
		fn   func(Input) ([]byte, error)
	}{
		{FileNodePool, "Karpenter NodePool", Karpenter},
		{k8sFile, "Kubernetes objects", Kubernetes},
		{FileScaledObject, "KEDA ScaledObject", KEDA},
		{FileSkyPilot, "SkyPilot task", SkyPilot},
	}
	if r.timeSliced() {
		exporters = append(exporters, struct {
			file string
			what string
			fn   func(Input) ([]byte, error)
		}{FileTimeSlicing, "NVIDIA device plugin time-slicing ConfigMap", TimeSlicingConfig})
	}
	files := map[string][]byte{}
	var made, skipped []string
	for _, e := range exporters {
		b, err := e.fn(in)
		var ae *apperr.Error
		switch {
		case err == nil:
			files[e.file] = b
			made = append(made, fmt.Sprintf("- `%s`: %s", e.file, e.what))
		case errors.As(err, &ae) && ae.Code == apperr.Invalid:
			skipped = append(skipped, fmt.Sprintf("- %s: %s", e.what, err))
		default:
			return nil, fmt.Errorf("export %s: %w", e.file, err)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: deployment files\n\n", r.Name)
	for _, h := range r.header("These files were") {
		b.WriteString(h + "\n")
	}
	b.WriteString("\n" + r.imageNote() + "\n\n## Files\n\n")
	b.WriteString(strings.Join(made, "\n") + "\n")
	var kube []string
	for _, f := range []string{FileTimeSlicing, FileNodePool, k8sFile, FileScaledObject} {
		if _, ok := files[f]; ok {
			kube = append(kube, f)
		}
	}
	if len(kube) > 0 {
		if _, ok := files[FileNodePool]; ok {
			b.WriteString("\nApply in this order (the NodePool's node class must exist first):\n\n")
		} else {
			b.WriteString("\nApply in this order (on GPU nodes you provide: no NodePool was written, see below):\n\n")
		}
		b.WriteString("```\nkubectl apply -f " + strings.Join(kube, " -f ") + "\n```\n")
	}
	if _, ok := files[FileSkyPilot]; ok {
		b.WriteString("\nOr, without Kubernetes:\n\n```\nsky launch -c " + r.Name + " " + FileSkyPilot + "\n```\n")
	}
	if tasks, err := skyPilotTasks(in); err == nil && len(tasks) > 1 {
		fmt.Fprintf(&b, "\n## Other software families\n\nA failover list holds the candidates of one software family, here %s: an image runs on one.\n", r.family().Label())
		b.WriteString("The ranked candidates of the others have their own SkyPilot task, with their own image and plan:\n\n")
		for _, n := range skyPilotNotes(tasks, 0) {
			b.WriteString("- " + n.String() + "\n")
		}
		for _, t := range tasks[1:] {
			if t.err == nil {
				files[t.file] = t.body
			}
		}
	}
	if len(skipped) > 0 {
		sort.Strings(skipped)
		b.WriteString("\n## Left out\n\n" + strings.Join(skipped, "\n") + "\n")
	}
	files[FileReadme] = []byte(b.String())
	return files, nil
}
