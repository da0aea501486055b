package export

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
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

// All runs every exporter and returns file name → content. Documents that do
// not apply to the input (a ScaledObject for a job or a fixed policy, a
// NodePool on a cloud without Karpenter) are left out, and README.md, always
// present, lists the files, the order to apply them and what was left out
// and why. An error that is not apperr.Invalid from any exporter, or an
// invalid input, fails the whole export.
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
	if len(skipped) > 0 {
		sort.Strings(skipped)
		b.WriteString("\n## Left out\n\n" + strings.Join(skipped, "\n") + "\n")
	}
	files[FileReadme] = []byte(b.String())
	return files, nil
}
