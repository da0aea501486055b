package deploy_test

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/cli"
	"github.com/gpupick/gpupick/internal/export"
)

// TestSearchJob checks what gpupick export search-job writes, run here
// and as internal/cli's golden file holds it: a ConfigMap and an Indexed
// Job valid against the schemas, under the house rules of the Deployment,
// reading the database URL from the serve manifests' Secret.
func TestSearchJob(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"export", "search-job", "-f", filepath.Join("..", "internal", "cli", "testdata", "service-chat-8b.yaml"),
		"--shards", "5", "--parallelism", "2", "--offers", "3"}
	if code := cli.Execute(cli.NewEnv(&out, &errb), args); code != 0 {
		t.Fatalf("gpupick %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	t.Run("export", func(t *testing.T) { checkSearchJob(t, decode(t, "export search-job", out.Bytes()), 5, 2) })

	golden, err := os.ReadFile(filepath.Join("..", "internal", "cli", "testdata", "golden", "export-search-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("golden", func(t *testing.T) { checkSearchJob(t, decode(t, "export-search-job.yaml", golden), 3, 3) })
}

func checkSearchJob(t *testing.T, objs []object, shards, parallelism int) {
	if len(objs) != 2 || objs[0].kind() != "ConfigMap" || objs[1].kind() != "Job" {
		var kinds []string
		for _, o := range objs {
			kinds = append(kinds, o.kind())
		}
		t.Fatalf("want a ConfigMap and a Job, got %v", kinds)
	}
	validate(t, objs)
	cm, job := objs[0], objs[1]
	spec := at(job.doc, "spec")
	if got := str(spec, "completionMode"); got != "Indexed" {
		t.Errorf("completionMode %q, want Indexed (each pod's shard is its JOB_COMPLETION_INDEX)", got)
	}
	if got, _ := at(spec, "completions").(int); got != shards {
		t.Errorf("completions %v, want --shards %d", at(spec, "completions"), shards)
	}
	if got, _ := at(spec, "parallelism").(int); got != parallelism {
		t.Errorf("parallelism %v, want %d", at(spec, "parallelism"), parallelism)
	}
	pod := at(spec, "template", "spec")
	if got := str(pod, "restartPolicy"); got != "Never" && got != "OnFailure" {
		t.Errorf("restartPolicy %q: a Job's pods take Never or OnFailure", got)
	}
	if at(pod, "securityContext", "runAsNonRoot") != true {
		t.Error("pod securityContext.runAsNonRoot should be true")
	}
	if uid, _ := at(pod, "securityContext", "runAsUser").(int); uid == 0 {
		t.Error("pod securityContext.runAsUser should be a non-zero uid (the image's 65532)")
	}
	if got := str(pod, "securityContext", "seccompProfile", "type"); got != "RuntimeDefault" {
		t.Errorf("pod seccompProfile.type = %q, want RuntimeDefault", got)
	}
	containers := list(pod, "containers")
	if len(containers) != 1 {
		t.Fatalf("want one container, got %d", len(containers))
	}
	c := containers[0]
	sc := at(c, "securityContext")
	for key, want := range map[string]any{"readOnlyRootFilesystem": true, "allowPrivilegeEscalation": false} {
		if got := at(sc, key); got != want {
			t.Errorf("container securityContext.%s = %v, want %v", key, got, want)
		}
	}
	if drop := stringsOf(t, list(sc, "capabilities", "drop")); !slices.Equal(drop, []string{"ALL"}) {
		t.Errorf("capabilities.drop = %v, want [ALL]", drop)
	}
	if got := str(c, "image"); got != export.DefaultSearchImage {
		t.Errorf("image %q, want the default %s (the kustomization's)", got, export.DefaultSearchImage)
	}
	if cmd := list(c, "command"); cmd != nil && !slices.Equal(stringsOf(t, cmd), []string{"/gpupick"}) {
		t.Errorf("command %v: the image has no shell and gpupick at /gpupick; leave the entrypoint be", cmd)
	}

	// The database URL: the serve Deployment's Secret and key, into the
	// variable gpupick reads, never on the command line.
	dep := findKind(t, load(t), "Deployment")
	var depRef any
	for _, e := range list(list(dep.doc, "spec", "template", "spec", "containers")[0], "env") {
		if str(e, "name") == dbEnvName(t) {
			depRef = at(e, "valueFrom", "secretKeyRef")
		}
	}
	var sawDB bool
	for _, e := range list(c, "env") {
		if str(e, "name") != dbEnvName(t) {
			t.Errorf("env %s is read by nothing in a search", str(e, "name"))
			continue
		}
		sawDB = true
		ref := at(e, "valueFrom", "secretKeyRef")
		if ref == nil || at(e, "value") != nil {
			t.Errorf("env %s should come from a secretKeyRef only, got %v", dbEnvName(t), e)
			continue
		}
		if str(ref, "name") != str(depRef, "name") || str(ref, "key") != str(depRef, "key") {
			t.Errorf("the search reads Secret %s key %s, serve reads Secret %s key %s: one Secret for both",
				str(ref, "name"), str(ref, "key"), str(depRef, "name"), str(depRef, "key"))
		}
	}
	if !sawDB {
		t.Errorf("env %s is not set: the shards would write a SQLite file each, on a read-only root", dbEnvName(t))
	}

	// The command: simulate --search over --shards N, the shard from
	// JOB_COMPLETION_INDEX, the service file from the ConfigMap's volume.
	args := stringsOf(t, list(c, "args"))
	cmd := checkArgs(t, "simulate", args)
	flags := cmd.Flags()
	if v, _ := flags.GetBool("search"); !v {
		t.Error("simulate without --search")
	}
	if v, _ := flags.GetInt("shards"); v != shards {
		t.Errorf("simulate --shards %d, want %d (the completions)", v, shards)
	}
	for _, name := range []string{"shard", "db"} {
		if flags.Changed(name) {
			t.Errorf("simulate --%s is given: the shard comes from JOB_COMPLETION_INDEX, the database from the Secret", name)
		}
	}
	if flagValue(args, "--search-id") == "" {
		t.Error("no --search-id: every pod must store under the same id")
	}
	file := flagValue(args, "-f")
	var mount string
	for _, m := range list(c, "volumeMounts") {
		if p := str(m, "mountPath"); strings.HasPrefix(file, p+"/") {
			mount = p
			if at(m, "readOnly") != true {
				t.Errorf("volume mount %s should be read-only", p)
			}
		}
	}
	if mount == "" {
		t.Fatalf("-f %s is under no volume mount", file)
	}
	vols := list(pod, "volumes")
	if len(vols) != 1 || str(vols[0], "configMap", "name") != cm.name() {
		t.Fatalf("want one volume, of ConfigMap %s: %v", cm.name(), vols)
	}
	data, _ := at(cm.doc, "data").(map[string]any)
	var paths []string
	for _, it := range list(vols[0], "configMap", "items") {
		if _, ok := data[str(it, "key")]; !ok {
			t.Errorf("volume item %s is not a key of the ConfigMap", str(it, "key"))
		}
		paths = append(paths, str(it, "path"))
	}
	rel := strings.TrimPrefix(file, mount+"/")
	if !slices.Contains(paths, rel) {
		t.Errorf("-f %s: %s is not among the ConfigMap's files %v", file, rel, paths)
	}
	if w := str(c, "workingDir"); w != "" && path.Clean(w) != mount {
		t.Errorf("workingDir %s, the files are under %s", w, mount)
	}
	if got := str(job.doc, "metadata", "labels", "gpupick.dev/search-id"); got != flagValue(args, "--search-id") {
		t.Errorf("label gpupick.dev/search-id %q, --search-id %q", got, flagValue(args, "--search-id"))
	}
}
