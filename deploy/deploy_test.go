package deploy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/kubeschema"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/cli"
	"github.com/gpupick/gpupick/internal/export"
)

const manifests = "kubernetes"

// object is one Kubernetes document of a manifest file.
type object struct {
	file string
	doc  map[string]any
}

func (o object) kind() string { return str(o.doc, "kind") }
func (o object) name() string { return str(o.doc, "metadata", "name") }

// load decodes every YAML document of every manifest under kubernetes/
// (kustomization.yaml apart).
func load(t *testing.T) []object {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(manifests, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests under %s: %v", manifests, err)
	}
	var out []object
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, decode(t, filepath.Base(f), b)...)
	}
	return out
}

// decode reads every YAML document of a manifest.
func decode(t *testing.T, file string, b []byte) []object {
	t.Helper()
	var out []object
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if doc != nil {
			out = append(out, object{file, doc})
		}
	}
	return out
}

// str walks maps by keys and returns the string there ("" if none).
func str(v any, keys ...string) string {
	s, _ := at(v, keys...).(string)
	return s
}

func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func list(v any, keys ...string) []any {
	l, _ := at(v, keys...).([]any)
	return l
}

// kubeSchemas loads the schema subset in testdata (kubeschema checks
// every package's manifests against the same file).
func kubeSchemas(t *testing.T) *kubeschema.Validator {
	t.Helper()
	v, err := kubeschema.Load(filepath.Join("testdata", "kubernetes-v1.30-subset.json"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// validate checks objects against the schema subset, a subtest each.
func validate(t *testing.T, objs []object) {
	t.Helper()
	v := kubeSchemas(t)
	for _, o := range objs {
		t.Run(o.file+"/"+o.kind(), func(t *testing.T) {
			if err := v.Validate(o.doc); err != nil {
				t.Errorf("%s %s is not valid:\n%v", o.kind(), o.name(), err)
			}
		})
	}
}

func TestManifestsMatchKubernetesSchemas(t *testing.T) {
	validate(t, load(t))

	// The schemas are strict: a misspelt or misplaced field is refused.
	dep := findKind(t, load(t), "Deployment").doc
	bad := toJSON(t, dep).(map[string]any)
	bad["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["readinesProbe"] = map[string]any{}
	if kubeSchemas(t).Validate(bad) == nil {
		t.Error("a Deployment with a misspelt container field (readinesProbe) passed the schema")
	}
}

func toJSON(t *testing.T, v any) any {
	t.Helper()
	out, err := kubeschema.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func findKind(t *testing.T, objs []object, kind string) object {
	t.Helper()
	var found []object
	for _, o := range objs {
		if o.kind() == kind && o.file != "secret.example.yaml" {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s among the applied manifests, found %d", kind, len(found))
	}
	return found[0]
}

// TestKustomization checks that kustomization.yaml applies every manifest
// except the Secret example, which holds placeholders.
func TestKustomization(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(manifests, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var k struct {
		APIVersion string   `yaml:"apiVersion"`
		Kind       string   `yaml:"kind"`
		Namespace  string   `yaml:"namespace"`
		Labels     []any    `yaml:"labels"`
		Resources  []string `yaml:"resources"`
		Images     []struct {
			Name    string `yaml:"name"`
			NewName string `yaml:"newName"`
			NewTag  string `yaml:"newTag"`
		} `yaml:"images"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&k); err != nil {
		t.Fatalf("kustomization.yaml: %v", err)
	}
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Errorf("kustomization.yaml is %s %s", k.APIVersion, k.Kind)
	}
	files, _ := filepath.Glob(filepath.Join(manifests, "*.yaml"))
	var want []string
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" && b != "secret.example.yaml" {
			want = append(want, b)
		}
	}
	got := slices.Clone(k.Resources)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("kustomization.yaml resources = %v, want every manifest but the Secret example: %v", got, want)
	}
	dep := findKind(t, load(t), "Deployment")
	image := str(list(dep.doc, "spec", "template", "spec", "containers")[0], "image")
	if len(k.Images) != 1 || k.Images[0].Name != image {
		t.Errorf("kustomization.yaml images should set the container image %q: %+v", image, k.Images)
	}
	if len(k.Images) == 1 {
		if got := k.Images[0].NewName + ":" + k.Images[0].NewTag; got != export.DefaultSearchImage {
			t.Errorf("kustomization.yaml sets serve's image to %s, export search-job's default is %s: one name for both (export.DefaultSearchImage)", got, export.DefaultSearchImage)
		}
	}
	if ns := findKind(t, load(t), "Namespace").name(); k.Namespace != ns {
		t.Errorf("kustomization.yaml namespace %q, the Namespace manifest %q", k.Namespace, ns)
	}
}

// dbEnvName reads the environment variable that names the store from the
// CLI's source (const dbEnv in internal/cli), so that a rename there fails
// here rather than in a cluster.
func dbEnvName(t *testing.T) string {
	t.Helper()
	path := filepath.Join("..", "internal", "cli", "catalogstore.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name == "dbEnv" && i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						v, err := strconv.Unquote(lit.Value)
						if err == nil {
							return v
						}
					}
				}
			}
		}
	}
	t.Fatalf("no const dbEnv in %s", path)
	return ""
}

func TestDeploymentHouseRules(t *testing.T) {
	objs := load(t)
	dep := findKind(t, objs, "Deployment")
	pod := at(dep.doc, "spec", "template", "spec")
	containers := list(pod, "containers")
	if len(containers) != 1 {
		t.Fatalf("want one container, got %d", len(containers))
	}
	c := containers[0]

	if r, _ := at(dep.doc, "spec", "replicas").(int); r < 2 {
		t.Errorf("replicas = %v, want 2 or more", at(dep.doc, "spec", "replicas"))
	}

	// Probes: /readyz and /healthz on the port serve listens on.
	args := stringsOf(t, list(c, "args"))
	addr := flagValue(args, "--addr")
	_, port, ok := strings.Cut(addr, ":")
	if !ok || !strings.HasPrefix(addr, "0.0.0.0:") {
		t.Fatalf("serve --addr = %q, want 0.0.0.0:PORT so that probes and the Service reach it", addr)
	}
	var portName string
	for _, p := range list(c, "ports") {
		if n, _ := at(p, "containerPort").(int); strconv.Itoa(n) == port {
			portName = str(p, "name")
		}
	}
	if portName == "" {
		t.Fatalf("no container port %s (serve --addr %s)", port, addr)
	}
	for probe, path := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/healthz", "startupProbe": "/healthz"} {
		get := at(c, probe, "httpGet")
		if get == nil {
			t.Errorf("%s: no httpGet", probe)
			continue
		}
		if got := str(get, "path"); got != path {
			t.Errorf("%s path = %q, want %q", probe, got, path)
		}
		p := at(get, "port")
		if p != portName && (func() bool { n, _ := p.(int); return strconv.Itoa(n) != port })() {
			t.Errorf("%s port = %v, want %s or %q", probe, p, port, portName)
		}
	}

	// Security context: the restricted Pod Security Standard and a
	// read-only root file system.
	sc := at(c, "securityContext")
	for key, want := range map[string]any{"runAsNonRoot": true, "readOnlyRootFilesystem": true, "allowPrivilegeEscalation": false} {
		if got := at(sc, key); got != want {
			t.Errorf("container securityContext.%s = %v, want %v", key, got, want)
		}
	}
	if drop := stringsOf(t, list(sc, "capabilities", "drop")); !slices.Equal(drop, []string{"ALL"}) {
		t.Errorf("capabilities.drop = %v, want [ALL]", drop)
	}
	if len(list(sc, "capabilities", "add")) > 0 {
		t.Error("capabilities.add should be empty")
	}
	for _, where := range []any{sc, at(pod, "securityContext")} {
		if got := str(where, "seccompProfile", "type"); got != "RuntimeDefault" {
			t.Errorf("seccompProfile.type = %q, want RuntimeDefault", got)
		}
	}
	if at(pod, "securityContext", "runAsNonRoot") != true {
		t.Error("pod securityContext.runAsNonRoot should be true")
	}
	if uid, _ := at(pod, "securityContext", "runAsUser").(int); uid == 0 {
		t.Error("pod securityContext.runAsUser should be a non-zero uid (the image's 65532)")
	}
	for _, key := range []string{"hostNetwork", "hostPID", "hostIPC"} {
		if at(pod, key) == true {
			t.Errorf("pod %s should not be set", key)
		}
	}
	if len(list(pod, "topologySpreadConstraints")) == 0 {
		t.Error("no topologySpreadConstraints: replicas may share a node")
	}
	for _, r := range []string{"cpu", "memory"} {
		if at(c, "resources", "requests", r) == nil {
			t.Errorf("no resources.requests.%s", r)
		}
	}
	if at(c, "resources", "limits", "memory") == nil {
		t.Error("no resources.limits.memory")
	}

	// Environment: the store's URL comes from a Secret, under the name
	// serve reads; no secret-looking value is written in the manifest.
	dbEnv := dbEnvName(t)
	known := map[string]bool{dbEnv: true, "GOMEMLIMIT": true, "GOGC": true, "GOMAXPROCS": true}
	var sawDB bool
	for _, e := range list(c, "env") {
		name := str(e, "name")
		if !known[name] {
			t.Errorf("env %s is read by nothing in gpupick (serve reads %s; the Go runtime GOMEMLIMIT, GOGC, GOMAXPROCS)", name, dbEnv)
		}
		if name == dbEnv {
			sawDB = true
			ref := at(e, "valueFrom", "secretKeyRef")
			if ref == nil || str(ref, "name") == "" || str(ref, "key") == "" {
				t.Errorf("env %s should come from a secretKeyRef, got %v", name, e)
			}
			if at(e, "value") != nil {
				t.Errorf("env %s has a literal value in the manifest", name)
			}
			checkSecretExample(t, str(ref, "name"), str(ref, "key"))
			if str(ref, "name") != export.DatabaseSecret || str(ref, "key") != export.DatabaseSecretKey {
				t.Errorf("serve reads the database URL from Secret %s key %s, export search-job from Secret %s key %s: one Secret for both (export.DatabaseSecret, export.DatabaseSecretKey)",
					str(ref, "name"), str(ref, "key"), export.DatabaseSecret, export.DatabaseSecretKey)
			}
		}
	}
	if dbEnv != export.DatabaseEnv {
		t.Errorf("gpupick reads the store from %s, export search-job sets %s", dbEnv, export.DatabaseEnv)
	}
	if !sawDB {
		t.Errorf("env %s is not set: serve would open a SQLite file on a read-only file system", dbEnv)
	}
	if len(list(c, "envFrom")) > 0 {
		t.Error("envFrom would pass every key of a Secret or ConfigMap; name each variable instead")
	}
	if strings.Contains(strings.Join(args, " "), "--db") {
		t.Error("the database URL belongs in the Secret (GPUPICK_DB), not in --db on the command line")
	}

	// Every flag given to serve exists, with a value it accepts.
	checkArgs(t, "serve", args)

	// The Service, the disruption budget and the autoscaler select or
	// target this Deployment.
	labels := at(dep.doc, "spec", "template", "metadata", "labels").(map[string]any)
	matches := func(sel any) bool {
		m, _ := sel.(map[string]any)
		if len(m) == 0 {
			return false
		}
		for k, v := range m {
			if labels[k] != v {
				return false
			}
		}
		return true
	}
	svc := findKind(t, objs, "Service")
	if !matches(at(svc.doc, "spec", "selector")) {
		t.Error("the Service does not select the Deployment's pods")
	}
	for _, p := range list(svc.doc, "spec", "ports") {
		if tp := at(p, "targetPort"); tp != portName && tp != port {
			t.Errorf("Service targetPort %v is not the container port %s (%s)", tp, portName, port)
		}
	}
	pdb := findKind(t, objs, "PodDisruptionBudget")
	if !matches(at(pdb.doc, "spec", "selector", "matchLabels")) {
		t.Error("the PodDisruptionBudget does not select the Deployment's pods")
	}
	if v, _ := at(pdb.doc, "spec", "minAvailable").(int); v < 1 {
		t.Errorf("PodDisruptionBudget minAvailable = %v, want 1 or more", at(pdb.doc, "spec", "minAvailable"))
	}
	hpa := findKind(t, objs, "HorizontalPodAutoscaler")
	if str(hpa.doc, "spec", "scaleTargetRef", "kind") != "Deployment" || str(hpa.doc, "spec", "scaleTargetRef", "name") != dep.name() {
		t.Error("the HorizontalPodAutoscaler does not target the Deployment")
	}
	if minR, _ := at(hpa.doc, "spec", "minReplicas").(int); minR < 2 {
		t.Error("HorizontalPodAutoscaler minReplicas should be 2 or more, as the disruption budget assumes")
	}
	np := findKind(t, objs, "NetworkPolicy")
	if !matches(at(np.doc, "spec", "podSelector", "matchLabels")) {
		t.Error("the NetworkPolicy does not select the Deployment's pods")
	}
}

// checkSecretExample: secret.example.yaml holds the key the Deployment reads,
// with a placeholder value.
func checkSecretExample(t *testing.T, name, key string) {
	t.Helper()
	for _, o := range load(t) {
		if o.file != "secret.example.yaml" {
			continue
		}
		if o.kind() != "Secret" || o.name() != name {
			t.Errorf("secret.example.yaml is %s %s, want Secret %s", o.kind(), o.name(), name)
		}
		v := str(o.doc, "stringData", key)
		if v == "" {
			t.Errorf("secret.example.yaml has no stringData.%s", key)
		}
		if !strings.Contains(v, "CHANGE-ME") {
			t.Errorf("secret.example.yaml's %s should be a placeholder (CHANGE-ME), got %q", key, v)
		}
		return
	}
	t.Error("no secret.example.yaml")
}

func stringsOf(t *testing.T, l []any) []string {
	t.Helper()
	out := make([]string, len(l))
	for i, v := range l {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%v is not a string", v)
		}
		out[i] = s
	}
	return out
}

// flagValue returns the value of --name=V or --name V in args.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// checkArgs parses a container's args ([command, flags...]) with
// gpupick's own command tree: an unknown flag or a value of the wrong type
// fails, and so does a positional argument (serve and simulate take none).
// It returns the parsed command, to read its flags.
func checkArgs(t *testing.T, command string, args []string) *cobra.Command {
	t.Helper()
	if len(args) == 0 || args[0] != command {
		t.Fatalf("args = %v, want %s first (the image's entrypoint is /gpupick)", args, command)
	}
	root := cli.NewRoot(cli.NewEnv(io.Discard, io.Discard))
	cmd, rest, err := root.Find(args)
	if err != nil || cmd.Name() != command {
		t.Fatalf("%v is not the %s command: %v", args, command, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s %v: %v", command, rest, err)
	}
	if n := cmd.Flags().NArg(); n > 0 {
		t.Errorf("%s takes no arguments, got %v", command, cmd.Flags().Args())
	}
	return cmd
}

// The Dockerfile, read as text: the rules an image build would not check.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var stages [][]string // instructions per stage, comments and continuations folded
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(strings.ToUpper(line), "FROM ") {
			stages = append(stages, nil)
		}
		if len(stages) == 0 {
			t.Fatalf("instruction before FROM: %s", line)
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], line)
	}
	if len(stages) != 2 {
		t.Fatalf("want a builder stage and a final stage, got %d stages", len(stages))
	}
	build, final := strings.Join(stages[0], "\n"), stages[1]
	if !regexp.MustCompile(`(?m)^FROM golang:1\.26\S* AS build$`).MatchString(build) {
		t.Error("the builder should be FROM golang:1.26 AS build (the go directive of go.mod)")
	}
	for _, want := range []string{"COPY go.mod go.sum ./", "go mod download", "CGO_ENABLED=0", "-trimpath", `-ldflags "-s -w"`, "./cmd/gpupick"} {
		if !strings.Contains(build, want) {
			t.Errorf("the builder stage lacks %q", want)
		}
	}
	if !strings.HasPrefix(final[0], "FROM gcr.io/distroless/static") && final[0] != "FROM scratch" {
		t.Errorf("final stage %q: want distroless static or scratch (no shell)", final[0])
	}
	var user, entry, cmdLine, expose string
	for _, ins := range final {
		word, rest, _ := strings.Cut(ins, " ")
		switch strings.ToUpper(word) {
		case "RUN":
			t.Errorf("RUN in the final stage (%s): it has no shell", ins)
		case "USER":
			user = rest
		case "ENTRYPOINT":
			entry = rest
		case "CMD":
			cmdLine = rest
		case "EXPOSE":
			expose = rest
		}
	}
	if uid, _, _ := strings.Cut(user, ":"); uid != "65532" {
		t.Errorf("USER %q, want the numeric non-root 65532", user)
	}
	if entry != `["/gpupick"]` {
		t.Errorf("ENTRYPOINT %s, want [\"/gpupick\"]", entry)
	}
	var cmdArgs []string
	if err := json.Unmarshal([]byte(cmdLine), &cmdArgs); err != nil {
		t.Fatalf("CMD %s is not exec form: %v", cmdLine, err)
	}
	checkArgs(t, "serve", cmdArgs)
	if _, port, _ := strings.Cut(flagValue(cmdArgs, "--addr"), ":"); port != expose {
		t.Errorf("EXPOSE %s, but CMD listens on port %q", expose, port)
	}
	dep := findKind(t, load(t), "Deployment")
	c := list(dep.doc, "spec", "template", "spec", "containers")[0]
	if _, port, _ := strings.Cut(flagValue(stringsOf(t, list(c, "args")), "--addr"), ":"); port != expose {
		t.Errorf("the Deployment listens on %s, the image exposes %s", port, expose)
	}

	ignore, err := os.ReadFile(filepath.Join("..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(ignore))
	if !slices.Contains(lines, ".git") {
		t.Error(".dockerignore should leave out .git")
	}
	for _, l := range lines {
		for _, needed := range []string{"go.mod", "go.sum", "data", "internal", "cmd", "examples"} {
			if strings.Trim(l, "/*") == needed {
				t.Errorf(".dockerignore leaves out %s, which the build needs", needed)
			}
		}
	}
}

// TestImageBuilds builds the image where a container builder works here
// (docker with a daemon, podman or buildah); it skips, never fails, where
// there is none or where the builder cannot fetch the base images.
func TestImageBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the image build takes minutes")
	}
	builder, args := containerBuilder()
	if builder == "" {
		t.Skip("no container builder here (docker with a running daemon, podman or buildah): the image build is skipped")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	tag := "gpupick-deploytest:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cmd := exec.CommandContext(ctx, builder, append(args, "-t", tag, "-f", "Dockerfile", ".")...)
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		if unreachable(out) {
			t.Skipf("%s cannot fetch the base images here (no registry access): the image build is skipped\n%s", builder, tail(out))
		}
		t.Fatalf("%s build: %v\n%s", builder, err, tail(out))
	}
	t.Cleanup(func() { exec.Command(builder, "rmi", "-f", tag).Run() })
	if builder == "buildah" {
		return // buildah builds; running needs podman
	}
	// The binary runs as the image's user on a read-only root file system.
	run := exec.CommandContext(ctx, builder, "run", "--rm", "--read-only", "--network=none", tag, "version")
	if out, err := run.CombinedOutput(); err != nil {
		t.Errorf("%s run --read-only %s version: %v\n%s", builder, tag, err, tail(out))
	}
}

func containerBuilder() (string, []string) {
	if p, err := exec.LookPath("docker"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if exec.CommandContext(ctx, p, "info").Run() == nil {
			return "docker", []string{"build"}
		}
	}
	if _, err := exec.LookPath("podman"); err == nil {
		return "podman", []string{"build"}
	}
	if _, err := exec.LookPath("buildah"); err == nil {
		return "buildah", []string{"bud"}
	}
	return "", nil
}

// unreachable tells a build that failed for want of a registry from one
// that failed on the Dockerfile or the code.
func unreachable(out []byte) bool {
	s := strings.ToLower(string(out))
	for _, w := range []string{"failed to resolve source metadata", "pull access denied", "dial tcp", "no such host",
		"i/o timeout", "error pinging docker registry", "failed to do request", "proxy.golang.org", "tls handshake timeout"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func tail(b []byte) string {
	const n = 3000
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
