package export

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// DefaultSearchImage is the gpupick image a search Job runs when no image
// is given: the one the repository's Dockerfile builds, under the name the
// README pushes it to and deploy/kubernetes/kustomization.yaml sets for
// serve (a placeholder for your registry; deploy's tests keep the two the
// same).
const DefaultSearchImage = "registry.example.com/platform/gpupick:latest"

// DatabaseSecret and DatabaseSecretKey name the Secret key that holds the
// database URL, the one gpupick serve's manifests read
// (deploy/kubernetes/deployment.yaml and secret.example.yaml; deploy's tests
// fail if they drift apart); DatabaseEnv is the variable gpupick reads it
// from (as --db).
const (
	DatabaseSecret    = "gpupick-db"
	DatabaseSecretKey = "GPUPICK_DB"
	DatabaseEnv       = "GPUPICK_DB"
)

// SearchNamespace is the namespace of deploy/kubernetes, where the Secret
// is: the search Job must run beside it (kubectl -n gpupick apply -f -).
const SearchNamespace = "gpupick"

// SearchJob is what a sharded policy search needs to run as a Kubernetes
// Indexed Job: one pod per shard, each running gpupick simulate --search
// --shards N with its index from JOB_COMPLETION_INDEX, all writing to the
// database the Secret names.
type SearchJob struct {
	// Name is the service's name; the Job and ConfigMap are named after it.
	Name string
	// Files are the service file and the files it names (workload, trace)
	// by their path relative to the service file's directory; Service is
	// the service file's path among them.
	Files   map[string][]byte
	Service string
	// Shards is the completions; Parallelism the pods run at once (0: all).
	Shards, Parallelism int
	// SearchID is the id the shards store their results under.
	SearchID string
	// Image is the gpupick image ("" is DefaultSearchImage).
	Image string
	// Offers is simulate's --offers (the other offers searched).
	Offers int
}

var configKey = regexp.MustCompile(`[^-._a-zA-Z0-9]`)

// SearchJobManifest writes the ConfigMap holding the service's files and
// the Indexed Job (batch/v1) that runs the search's shards.
func SearchJobManifest(in SearchJob) ([]byte, error) {
	if in.Shards < 1 {
		return nil, apperr.Invalidf("--shards", "want at least 1 shard, got %d", in.Shards)
	}
	par := in.Parallelism
	if par <= 0 || par > in.Shards {
		par = in.Shards
	}
	image := in.Image
	if image == "" {
		image = DefaultSearchImage
	}
	name := dnsName("gpupick-search-" + in.Name)
	names := make([]string, 0, len(in.Files))
	for p := range in.Files {
		if path.IsAbs(p) || strings.HasPrefix(path.Clean(p), "..") {
			return nil, apperr.Invalidf("-f", "%s is outside the service file's directory: a ConfigMap cannot hold it; copy it next to the service file", p)
		}
		names = append(names, p)
	}
	sort.Strings(names)
	data := map[string]string{}
	var items []sjKeyPath
	for _, p := range names {
		k := configKey.ReplaceAllString(path.Clean(p), "_")
		data[k] = string(in.Files[p])
		items = append(items, sjKeyPath{Key: k, Path: path.Clean(p)})
	}
	const dir = "/work"
	args := []string{"simulate", "-f", path.Join(dir, path.Clean(in.Service)), "--search",
		"--shards", strconv.Itoa(in.Shards), "--search-id", in.SearchID}
	if in.Offers != 4 {
		args = append(args, "--offers", strconv.Itoa(in.Offers))
	}
	labels := map[string]string{"app.kubernetes.io/name": "gpupick-search", "app.kubernetes.io/instance": name, "gpupick.dev/search-id": in.SearchID}
	no, yes := false, true
	uid := 65532
	cmDoc := sjConfigMap{APIVersion: "v1", Kind: "ConfigMap", Metadata: objectMeta{Name: name, Labels: labels}, Data: data}
	job := object{APIVersion: "batch/v1", Kind: "Job", Metadata: objectMeta{Name: name, Labels: labels}, Spec: sjJobSpec{
		CompletionMode:       "Indexed",
		Completions:          in.Shards,
		Parallelism:          par,
		BackoffLimitPerIndex: 3,
		MaxFailedIndexes:     in.Shards,
		Template: sjPodTemplate{Metadata: objectMeta{Labels: labels}, Spec: sjPodSpec{
			RestartPolicy:   "Never",
			SecurityContext: sjPodSecurity{RunAsNonRoot: true, RunAsUser: uid, RunAsGroup: uid, SeccompProfile: sjSeccomp{Type: "RuntimeDefault"}},
			Containers: []container{{
				Name: "search", Image: image, Args: args, WorkingDir: dir, // the image's entrypoint, /gpupick, runs the args
				Env:          []envVar{{Name: DatabaseEnv, ValueFrom: &envVarSource{SecretKeyRef: secretKeySelector{Name: DatabaseSecret, Key: DatabaseSecretKey}}}},
				Resources:    resources{Requests: map[string]string{"cpu": "1", "memory": "512Mi"}, Limits: map[string]string{"memory": "2Gi"}},
				VolumeMounts: []volumeMount{{Name: "service", MountPath: dir, ReadOnly: true}},
				SecurityContext: &securityContext{AllowPrivilegeEscalation: &no, ReadOnlyRootFilesystem: &yes,
					Capabilities: capabilities{Drop: []string{"ALL"}}},
			}},
			Volumes: []sjVolume{{Name: "service", ConfigMap: sjConfigMapVolume{Name: name, Items: items}}},
		}},
	}}
	header := []string{
		fmt.Sprintf("gpupick policy search of %s as a Kubernetes Indexed Job: %d shard(s), %d at a time.", in.Name, in.Shards, par),
		fmt.Sprintf("Each pod searches its share of the candidate offers (shard JOB_COMPLETION_INDEX of %d) and stores the", in.Shards),
		fmt.Sprintf("results in the database of Secret %s (key %s) under search id %s.", DatabaseSecret, DatabaseSecretKey, in.SearchID),
		fmt.Sprintf("Apply it in the namespace of that Secret: kubectl -n %s apply -f FILE.", SearchNamespace),
		"A pod run again skips what its shard stored. When the Job is complete, merge with:",
		fmt.Sprintf("  gpupick simulate --search-results %s --db \"$DATABASE_URL\"", in.SearchID),
	}
	return render(doc{header: header, value: cmDoc}, doc{value: job})
}

// dnsName makes s a DNS-1123 label of at most 63 characters.
func dnsName(s string) string {
	s = strings.ToLower(s)
	s = regexp.MustCompile(`[^a-z0-9-]+`).ReplaceAllString(s, "-")
	if len(s) > 63 {
		s = s[:63]
	}
	return strings.Trim(s, "-")
}

type sjConfigMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   objectMeta        `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

type sjJobSpec struct {
	CompletionMode       string        `yaml:"completionMode"`
	Completions          int           `yaml:"completions"`
	Parallelism          int           `yaml:"parallelism"`
	BackoffLimitPerIndex int           `yaml:"backoffLimitPerIndex"`
	MaxFailedIndexes     int           `yaml:"maxFailedIndexes"`
	Template             sjPodTemplate `yaml:"template"`
}

type sjPodTemplate struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     sjPodSpec  `yaml:"spec"`
}

type sjPodSpec struct {
	RestartPolicy   string        `yaml:"restartPolicy"`
	SecurityContext sjPodSecurity `yaml:"securityContext"`
	Containers      []container   `yaml:"containers"`
	Volumes         []sjVolume    `yaml:"volumes"`
}

type sjPodSecurity struct {
	RunAsNonRoot   bool      `yaml:"runAsNonRoot"`
	RunAsUser      int       `yaml:"runAsUser"`
	RunAsGroup     int       `yaml:"runAsGroup"`
	SeccompProfile sjSeccomp `yaml:"seccompProfile"`
}

type sjSeccomp struct {
	Type string `yaml:"type"`
}

type sjVolume struct {
	Name      string            `yaml:"name"`
	ConfigMap sjConfigMapVolume `yaml:"configMap"`
}

type sjConfigMapVolume struct {
	Name  string      `yaml:"name"`
	Items []sjKeyPath `yaml:"items"`
}

type sjKeyPath struct {
	Key  string `yaml:"key"`
	Path string `yaml:"path"`
}
