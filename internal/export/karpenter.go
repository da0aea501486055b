package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
)

// NodePool fields, as in Karpenter's karpenter.sh/v1 reference
// (karpenter.sh/docs/concepts/nodepools).

type nodePoolSpec struct {
	Template   nodeClaimTemplate `yaml:"template"`
	Limits     map[string]string `yaml:"limits"`
	Disruption disruption        `yaml:"disruption"`
}

type nodeClaimTemplate struct {
	Spec nodeClaimSpec `yaml:"spec"`
}

type nodeClaimSpec struct {
	NodeClassRef nodeClassRef  `yaml:"nodeClassRef"`
	Requirements []requirement `yaml:"requirements"`
	Taints       []taint       `yaml:"taints"`
	ExpireAfter  string        `yaml:"expireAfter"`
}

type nodeClassRef struct {
	Group string `yaml:"group"`
	Kind  string `yaml:"kind"`
	Name  string `yaml:"name"`
}

type taint struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

type disruption struct {
	ConsolidationPolicy string   `yaml:"consolidationPolicy"`
	ConsolidateAfter    string   `yaml:"consolidateAfter"`
	Budgets             []budget `yaml:"budgets"`
}

type budget struct {
	Nodes   string   `yaml:"nodes"`
	Reasons []string `yaml:"reasons,omitempty"`
}

// karpenterClouds are the providers with a Karpenter provider, and the node
// class each one's NodePools refer to. AWS is Karpenter's first-class
// provider; Azure has the AKS provider (Azure/karpenter-provider-azure).
var karpenterClouds = map[string]nodeClassRef{
	"aws":   {Group: "karpenter.k8s.aws", Kind: "EC2NodeClass"},
	"azure": {Group: "karpenter.azure.com", Kind: "AKSNodeClass"},
}

// Karpenter returns a NodePool (karpenter.sh/v1) for the chosen offer's
// cloud: node.kubernetes.io/instance-type In the ranked instance types of
// that provider, karpenter.sh/capacity-type In the allowed capacity types,
// topology.kubernetes.io/region In the chosen region (a cluster lives in one
// region), a NoSchedule taint on the accelerator resource, a limit on the
// accelerators (the fleet's maximum, rounded up to whole nodes of the
// largest type) and a disruption policy that removes only empty nodes. The
// nodeClassRef names a node class the user creates.
//
// Karpenter does not choose among allowed instance types by our ranking: it
// launches the cheapest that fits. An offer of a provider without a
// Karpenter provider is an apperr.Invalid error.
func Karpenter(in Input) ([]byte, error) {
	r, err := resolve(in)
	if err != nil {
		return nil, err
	}
	ref, ok := karpenterClouds[r.chosen.Provider]
	if !ok {
		return nil, apperr.Invalidf("offer", "Karpenter runs on aws (first-class) and azure (AKS provider), not on %s: use the SkyPilot task or the Kubernetes objects with your own node pool for %s", r.chosen.Provider, r.chosen.ID())
	}
	ref.Name = r.Name
	var types []string
	maxGPUs := 0
	for _, o := range r.Offers {
		if o.Provider != r.chosen.Provider || slices.Contains(types, o.InstanceType) || !isLabelValue(o.InstanceType) {
			continue
		}
		types = append(types, o.InstanceType)
		maxGPUs = max(maxGPUs, o.GPUCount)
	}
	if len(types) == 0 {
		return nil, apperr.Invalidf("offer", "instance type %q is not a valid Kubernetes label value", r.chosen.InstanceType)
	}
	fleet := r.GPUsPerReplica
	if r.service {
		fleet *= r.policy.MaxReplicas
	}
	limit := ceilDiv(fleet, maxGPUs) * maxGPUs

	spec := nodeClaimSpec{
		NodeClassRef: ref,
		Requirements: []requirement{
			{Key: "node.kubernetes.io/instance-type", Operator: "In", Values: types},
			{Key: "karpenter.sh/capacity-type", Operator: "In", Values: r.modes},
			{Key: "topology.kubernetes.io/region", Operator: "In", Values: []string{r.chosen.Region}},
		},
		Taints:      []taint{{Key: r.resource, Value: "true", Effect: "NoSchedule"}},
		ExpireAfter: "720h",
	}
	dis := disruption{ConsolidationPolicy: "WhenEmpty", ConsolidateAfter: fmt.Sprintf("%ds", r.policy.CooldownS),
		Budgets: []budget{{Nodes: "1"}}}
	if !r.service {
		// A training run must not lose a node to expiry or drift mid-run;
		// the node goes once it is empty.
		spec.ExpireAfter = "Never"
		dis.Budgets = []budget{{Nodes: "0", Reasons: []string{"Drifted"}}, {Nodes: "1", Reasons: []string{"Empty"}}}
	}
	np := object{
		APIVersion: "karpenter.sh/v1", Kind: "NodePool",
		Metadata: objectMeta{Name: r.Name, Labels: map[string]string{"app.kubernetes.io/name": r.Name, "app.kubernetes.io/managed-by": "gpupick"}},
		Spec: nodePoolSpec{
			Template:   nodeClaimTemplate{Spec: spec},
			Limits:     map[string]string{r.resource: strconv.Itoa(limit)},
			Disruption: dis,
		},
	}
	var other []string
	for _, o := range r.Offers {
		if o.Provider != r.chosen.Provider && !slices.Contains(other, o.Provider) {
			other = append(other, o.Provider)
		}
	}
	header := r.header("Karpenter NodePool")
	if len(other) > 0 {
		header = append(header, fmt.Sprintf("Ranked offers of other providers (%s) are left out: a NodePool serves one cloud.", strings.Join(other, ", ")))
	}
	header = append(header, msg.Strings(leftOutNotes(r.Others))...)
	comments := map[string]string{
		"spec.template.spec.nodeClassRef": fmt.Sprintf("Create the %s %q yourself (image with %s drivers, subnets, security groups, role);\ngpupick does not write it.", ref.Kind, ref.Name, r.vendor),
		"spec.template.spec.requirements": "Instance types in gpupick's rank order; Karpenter launches the cheapest one that fits.",
		"spec.limits":                     fmt.Sprintf("At most %d accelerators: %d per replica x %d replica(s), rounded up to whole nodes.", limit, r.GPUsPerReplica, fleet/r.GPUsPerReplica),
	}
	return render(doc{header: header, value: np, comments: comments})
}
