package export

import (
	"fmt"
	"strconv"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/workload"
)

// ScaledObject fields, as in KEDA's keda.sh/v1alpha1 reference
// (keda.sh/docs/latest/reference/scaledobject-spec).

type scaledObjectSpec struct {
	ScaleTargetRef  scaleTargetRef `yaml:"scaleTargetRef"`
	PollingInterval int            `yaml:"pollingInterval"`
	CooldownPeriod  int            `yaml:"cooldownPeriod"`
	MinReplicaCount int            `yaml:"minReplicaCount"`
	MaxReplicaCount int            `yaml:"maxReplicaCount"`
	Advanced        kedaAdvanced   `yaml:"advanced"`
	Triggers        []kedaTrigger  `yaml:"triggers"`
}

type scaleTargetRef struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Name       string `yaml:"name"`
}

type kedaAdvanced struct {
	HPAConfig hpaConfig `yaml:"horizontalPodAutoscalerConfig"`
}

type hpaConfig struct {
	Behavior hpaBehavior `yaml:"behavior"`
}

type hpaBehavior struct {
	ScaleUp   hpaRules `yaml:"scaleUp"`
	ScaleDown hpaRules `yaml:"scaleDown"`
}

type hpaRules struct {
	StabilizationWindowSeconds int         `yaml:"stabilizationWindowSeconds"`
	SelectPolicy               string      `yaml:"selectPolicy"`
	Policies                   []hpaPolicy `yaml:"policies"`
}

type hpaPolicy struct {
	Type          string `yaml:"type"`
	Value         int    `yaml:"value"`
	PeriodSeconds int    `yaml:"periodSeconds"`
}

type kedaTrigger struct {
	Type       string            `yaml:"type"`
	Name       string            `yaml:"name"`
	MetricType string            `yaml:"metricType"`
	Metadata   map[string]string `yaml:"metadata"`
}

// hpaPeriodS is the period of the HPA scaling policies written out: the
// controller's defaults use 15 s (reference §1.1, "HPA behavior defaults").
const hpaPeriodS = 15

// metricNames are the Prometheus metrics each server publishes for the
// requests waiting in its queue and the requests it is running.
var metricNames = map[workload.Framework]map[string]string{
	workload.FrameworkVLLM:        {MetricQueueLength: "vllm:num_requests_waiting", MetricInFlight: "vllm:num_requests_running"},
	workload.FrameworkSGLang:      {MetricQueueLength: "sglang:num_queue_reqs", MetricInFlight: "sglang:num_running_reqs"},
	workload.FrameworkTGI:         {MetricQueueLength: "tgi_queue_size", MetricInFlight: "tgi_batch_current_size"},
	workload.FrameworkTensorRTLLM: {MetricQueueLength: "nv_inference_pending_request_count"},
}

// imageMetric is the Prometheus metric of an image-generation service for
// metric: Triton's pending requests for a TensorRT pipeline (Triton has no
// in-flight gauge), else a gauge the user's server must publish (said in
// the ScaledObject); known is false for the latter.
func (r *resolved) imageMetric(metric string) (name string, known, ok bool) {
	if r.triton() {
		return "nv_inference_pending_request_count", true, metric == MetricQueueLength
	}
	if metric == MetricInFlight {
		return imageInFlightMetric, false, true
	}
	return imageQueueMetric, false, true
}

// KEDA returns a ScaledObject (keda.sh/v1alpha1) that scales the service's
// Deployment between the policy's bounds on a Prometheus trigger: the
// policy metric summed over the service's pods, with metricType
// AverageValue, so the HPA aims at Target per replica. pollingInterval,
// cooldownPeriod and the HPA behaviour's stabilisation windows come from the
// policy (KEDA and HPA defaults where it leaves them zero).
//
// It fails (apperr.Invalid) for kinds that are not services, for a fixed
// policy (the Deployment's replica count is the whole policy), and where
// gpupick knows no metric name for the framework and Policy.Query is empty.
func KEDA(in Input) ([]byte, error) {
	r, err := resolve(in)
	if err != nil {
		return nil, err
	}
	if !r.service {
		return nil, apperr.Invalidf("kind", "a ScaledObject scales a service; %s (%s) is a job", r.Spec.Name, r.Spec.Kind)
	}
	p := r.policy
	if p.Kind == PolicyFixed {
		return nil, apperr.Invalidf("policy.kind", "a fixed policy needs no ScaledObject: the Deployment runs %d replicas", p.MinReplicas)
	}
	query := p.Query
	if query == "" {
		name, ok := metricNames[r.Spec.Stack.Framework][p.Metric]
		if r.imageGen() {
			name, _, ok = r.imageMetric(p.Metric)
		}
		if !ok {
			return nil, apperr.Invalidf("policy.query", "no known %s metric for framework %q; give a PromQL query", p.Metric, frameworkOf(r.Spec))
		}
		query = fmt.Sprintf(`sum(%s{pod=~"%s-.*"})`, name, r.Name)
	}
	so := object{
		APIVersion: "keda.sh/v1alpha1", Kind: "ScaledObject",
		Metadata: objectMeta{Name: r.Name, Labels: map[string]string{"app.kubernetes.io/name": r.Name, "app.kubernetes.io/managed-by": "gpupick"}},
		Spec: scaledObjectSpec{
			ScaleTargetRef:  scaleTargetRef{APIVersion: "apps/v1", Kind: "Deployment", Name: r.Name},
			PollingInterval: p.PollingIntervalS,
			CooldownPeriod:  p.CooldownS,
			MinReplicaCount: p.MinReplicas,
			MaxReplicaCount: p.MaxReplicas,
			Advanced: kedaAdvanced{HPAConfig: hpaConfig{Behavior: hpaBehavior{
				// The HPA's default rules (+4 pods or +100%, whichever is more;
				// −100%), with the policy's stabilisation windows.
				ScaleUp: hpaRules{StabilizationWindowSeconds: p.StabilizationUpS, SelectPolicy: "Max", Policies: []hpaPolicy{
					{Type: "Pods", Value: 4, PeriodSeconds: hpaPeriodS}, {Type: "Percent", Value: 100, PeriodSeconds: hpaPeriodS}}},
				ScaleDown: hpaRules{StabilizationWindowSeconds: p.StabilizationDownS, SelectPolicy: "Max", Policies: []hpaPolicy{
					{Type: "Percent", Value: 100, PeriodSeconds: hpaPeriodS}}},
			}}},
			Triggers: []kedaTrigger{{
				Type: "prometheus", Name: p.Metric, MetricType: "AverageValue",
				Metadata: map[string]string{
					"serverAddress":       p.PrometheusAddress,
					"query":               query,
					"threshold":           strconv.FormatFloat(p.Target, 'g', -1, 64),
					"activationThreshold": "0",
				},
			}},
		},
	}
	header := append(r.header("KEDA ScaledObject"),
		fmt.Sprintf("Policy %s: %s per replica %g, %d to %d replicas.", p.Kind, p.Metric, p.Target, p.MinReplicas, p.MaxReplicas))
	switch p.Kind {
	case PolicyKnative, PolicyServerless:
		header = append(header, fmt.Sprintf("KEDA approximates the %s policy: it scales on the metric, not on per-request concurrency.", p.Kind))
	case PolicyMixed:
		header = append(header, "The mixed policy's base replicas are minReplicaCount; the burst above them scales on the metric.")
	}
	comments := map[string]string{
		"spec.cooldownPeriod": "cooldownPeriod governs only the last step, 1 -> 0; N -> 1 follows the HPA scale-down window.",
		"spec.triggers":       "Adjust the query's pod selector to your Prometheus scrape labels.",
	}
	if r.imageGen() && p.Query == "" {
		name, known, _ := r.imageMetric(p.Metric)
		c := fmt.Sprintf("Scales on requests in flight (%s), %g per replica.", name, p.Target)
		if p.Metric == MetricQueueLength {
			c = fmt.Sprintf("Scales on requests waiting for a pipeline call (%s), %g per replica: the plan sized each replica so that a request waits\nfor about the call ahead of it within the latency SLO.", name, p.Target)
		}
		if !known {
			c += fmt.Sprintf("\nREQUIRED: gpupick ships no server for %s; yours must publish the gauge %s (%s), or replace the query.", frameworkOf(r.Spec), name,
				map[string]string{MetricQueueLength: "requests accepted, not yet in a pipeline call", MetricInFlight: "requests accepted and not yet answered"}[p.Metric])
		}
		comments["spec.triggers"] = c + "\n" + comments["spec.triggers"]
	}
	if p.MinReplicas == 0 {
		comments["spec.minReplicaCount"] = "With 0 replicas no pod reports the metric: scaling up from zero needs a metric kept outside the pods\n(a gateway's queue, or the KEDA HTTP add-on, which also holds requests while a replica starts)."
	}
	return render(doc{header: header, value: so, comments: comments})
}
