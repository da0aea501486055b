package advisor

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

// The simulator's model of one replica of a model service: what simulate
// replays and what recommend checks its service plans with.

// Cold-start parts of a GPU replica when the service file does not give
// them: a GPU node takes minutes to come up, and the serving image is large.
const (
	defaultProvisioningS = 240.0
	defaultImagePullS    = 60.0
)

// ServiceModel turns the performance model's serving curve for a workload on
// one instance of an offer into the simulator's per-replica model.
// An image-generation workload is served one image per request
// (imageBatchModel); service.slice puts each replica on a MIG slice.
func ServiceModel(spec *autoscale.Spec, ws *workload.Spec, c *catalog.Catalog, o *catalog.Offer) (*autoscale.BatchModel, error) {
	if ws.Kind == workload.KindImageGeneration {
		return imageBatchModel(spec, ws, c, o)
	}
	if ws.Kind != workload.KindLLMInference {
		return nil, apperr.Invalidf("service.workload", "must be an llm-inference or image-generation workload, got %s", ws.Kind)
	}
	if ws.Parallelism.PrefillGPUs > 0 {
		return nil, apperr.Invalidf("parallelism.prefill_gpus", "the fleet simulator replays replicas that both prefill and decode: leave it out to plan a service, or size the two pools with gpupick predict")
	}
	rc, err := serviceCluster(spec, c, o)
	if err != nil {
		return nil, err
	}
	cl := rc.cl
	// The curve is the replica's capacity: no request rate.
	offline := *ws
	inf := *ws.Inference
	inf.RequestsPerSecond = nil
	offline.Inference = &inf
	curve, p, err := perf.Curve(&offline, cl)
	span := 1
	if err != nil && rc.perInstance == 0 && o.FabricKind != "" {
		// A model larger than one instance: a replica over the fewest
		// instances that hold it, joined by the offer's fabric.
		for k := 2; k <= 8 && err != nil; k *= 2 {
			ck, kerr := perf.NewCluster(cl.GPU, k*o.GPUCount, k, o)
			if kerr != nil {
				break
			}
			if c2, p2, err2 := perf.Curve(&offline, ck); err2 == nil {
				curve, p, err, span = c2, p2, nil, k
			}
		}
	}
	if err != nil {
		return nil, apperr.Emptyf("%s cannot serve %s: %s", o.ID(), ws.Name, p.Reason)
	}
	price, ok := o.YourPrices.Get(catalog.OnDemand)
	if !ok {
		price, ok = o.YourPrices.Get(catalog.Serverless) // a serverless platform: its worker's price
	}
	if !ok {
		price = spec.Pricing.PerHourUSD
	}
	weightsGB := ws.Model.CheckpointBytes(ws.Inference.WeightPrecision) / 1e9
	m := &autoscale.BatchModel{
		MaxBatch: curve.MaxBatch, PrefillSPerToken: curve.PrefillSPerToken, StepBaseS: curve.StepBaseS,
		StepPerSeqS: curve.StepPerSeqS, ColdStartS: coldStart(spec, o, weightsGB), PricePerHourUSD: price / float64(max(1, curve.ReplicasPerNode)),
		GPUs: curve.TensorParallel, ReplicasPerInstance: curve.ReplicasPerNode,
	}
	if span > 1 {
		// Each replica pays for the instances it spans.
		m.ReplicasPerInstance = 1
		m.PricePerHourUSD = price * float64(span) / float64(max(1, curve.ReplicasPerNode))
	}
	if rc.perInstance > 0 {
		m.ReplicasPerInstance, m.GPUs, m.PricePerHourUSD = rc.perInstance, 1, rc.price
		if rc.price == 0 {
			m.PricePerHourUSD = spec.Pricing.PerHourUSD
		}
	}
	return m, nil
}

// A model service of an image-generation workload (service.kind: model
// with an image-generation workload file). A request is one image (or
// clip); a replica is one GPU group of the offer (parallelism.context
// GPUs), or one MIG slice with service.slice, and runs pipeline calls of
// up to image.batch images. The performance model gives the call's time
// at batch 1 and at image.batch; the simulator's batching model is the
// line through them (StepS(n) = base + per-image × n, one step per
// request): n images in flight all progress at 1/StepS(n) calls a second,
// so a replica that forms full batches serves image.batch / latency
// images a second and a lone request takes the batch-1 latency.

// replicaCluster is the cluster one replica of spec's model service runs
// on: the offer's GPUs, or one MIG slice (service.slice) of them, with the
// slice's packing and price per replica.
type replicaCluster struct {
	cl          perf.Cluster
	perInstance int     // replicas one instance holds from slicing (0: whole GPUs)
	price       float64 // per replica, from the slice; 0 = the offer's over its replicas
	note        string  // how the replica was sized, for the price and speed source
}

func serviceCluster(spec *autoscale.Spec, c *catalog.Catalog, o *catalog.Offer) (replicaCluster, error) {
	a, _ := c.OfferAccelerator(o)
	if spec.Service.Slice == "" {
		cl, err := perf.NewCluster(a, o.GPUCount, 1, o)
		return replicaCluster{cl: cl}, err
	}
	r, ok := MIGReplicaOf(c, o, spec.Service.Slice, catalog.OnDemand)
	if !ok {
		var names []string
		for _, p := range c.MIGProfilesOf(o.GPU) {
			names = append(names, p.Profile)
		}
		known := "it has no MIG profiles"
		if len(names) > 0 {
			known = "its profiles: " + strings.Join(names, ", ")
		}
		if o.Sliced() {
			known = "the offer is itself a fraction of a GPU"
		}
		return replicaCluster{}, spec.Errorf("service.slice", "%s's GPU (%s) has no MIG profile %q; %s", o.ID(), o.GPU, spec.Service.Slice, known)
	}
	cl, err := perf.NewCluster(r.GPU, 1, 1, o)
	if err != nil {
		return replicaCluster{}, err
	}
	cl.Lookup = func(id string) *catalog.Accelerator { x, _ := c.Accelerator(id); return x }
	rc := replicaCluster{cl: cl, perInstance: r.PerInstance,
		note: fmt.Sprintf("MIG %s of %s: %d per instance (%d GPUs x %d)", r.Profile.Profile, o.GPU, r.PerInstance, o.GPUCount, r.Profile.MaxInstances)}
	if r.PriceKnown {
		rc.price = r.PerHourUSD
	}
	return rc, nil
}

// imageBatchModel is BatchModel for an image-generation workload.
func imageBatchModel(spec *autoscale.Spec, ws *workload.Spec, c *catalog.Catalog, o *catalog.Offer) (*autoscale.BatchModel, error) {
	rc, err := serviceCluster(spec, c, o)
	if err != nil {
		return nil, err
	}
	call := func(batch int) (*perf.Prediction, error) {
		w := *ws
		im := *ws.Image
		im.Batch, im.RequestsPerSecond, im.Images = batch, nil, 0
		w.Image = &im
		p, err := perf.Predict(&w, rc.cl)
		if err != nil {
			return nil, err
		}
		if !p.Fits || p.LatencyS == nil || !(*p.LatencyS > 0) {
			where := o.ID()
			if spec.Service.Slice != "" {
				where += " (MIG " + spec.Service.Slice + ")"
			}
			return nil, apperr.Emptyf("%s cannot serve %s at batch %d: %s", where, ws.Name, batch, p.Reason)
		}
		return &p, nil
	}
	maxB := max(ws.Image.Batch, 1)
	p1, err := call(1)
	if err != nil {
		return nil, err
	}
	lat1, latB := *p1.LatencyS, *p1.LatencyS
	if maxB > 1 {
		pB, err := call(maxB)
		if err != nil {
			return nil, err
		}
		latB = *pB.LatencyS
	}
	per := 0.0
	if maxB > 1 {
		per = math.Max(0, (latB-lat1)/float64(maxB-1))
	}
	base := math.Max(lat1-per, lat1*1e-3)
	groups := max(p1.Parallelism.Replicas, 1)
	perInstance := groups
	price, ok := o.YourPrices.Get(catalog.OnDemand)
	if !ok {
		price, ok = o.YourPrices.Get(catalog.Serverless) // a serverless platform: its worker's price
	}
	if !ok {
		price = spec.Pricing.PerHourUSD * float64(groups)
	}
	price /= float64(groups)
	gpus := max(p1.Parallelism.Context, 1)
	if rc.perInstance > 0 {
		perInstance, gpus = rc.perInstance, 1
		if rc.price > 0 {
			price = rc.price
		} else {
			price = spec.Pricing.PerHourUSD
		}
	}
	weightsGB := p1.Memory.WeightsGB
	return &autoscale.BatchModel{
		MaxBatch: maxB, StepBaseS: base, StepPerSeqS: per, StepsPerRequest: 1,
		ColdStartS: coldStart(spec, o, weightsGB), PricePerHourUSD: price, GPUs: gpus, ReplicasPerInstance: perInstance,
	}, nil
}

// coldStart is the spec's cold start, or provisioning + image pull +
// weights read from the offer's storage; on a serverless platform, the
// worker start it states (or cost's default) + the weights read.
func coldStart(spec *autoscale.Spec, o *catalog.Offer, weightsGB float64) float64 {
	_, hourly := o.YourPrices.Get(catalog.OnDemand)
	if !hourly && o.YourPrices[catalog.Serverless] > 0 && defaulted(spec, "service.provisioning_s") {
		// A serverless platform's worker starts as the platform says,
		// unless the file says otherwise.
		start := o.ColdStartS
		if start == 0 {
			start = cost.DefaultServerlessColdStartS
		}
		return start + weightsGB/cost.WeightsReadGBps
	}
	if cold := spec.Service.ColdStartS; cold != 0 {
		return cold
	}
	storage := cost.WeightsLoadGBps(o)
	prov, pull := spec.Service.ProvisioningS, spec.Service.ImagePullS
	if prov == 0 {
		prov = defaultProvisioningS
	}
	if pull == 0 {
		pull = defaultImagePullS
	}
	return prov + pull + weightsGB/storage
}

// defaulted reports whether the spec filled field with its default (the
// file did not set it).
func defaulted(spec *autoscale.Spec, field string) bool {
	return slices.ContainsFunc(spec.Defaults, func(d string) bool { return strings.HasPrefix(d, field+" = ") })
}

// ApplyPrices completes the prices of a model service from its offer o
// and batching model m: a serverless policy with pricing.per_hour_usd
// given bills the platform's price per worker (a serverless endpoint is
// not the instance it runs on; m's price becomes it), and a mixed
// policy's spot tier, when the file gives no spot_per_hour_usd, pays the
// offer's spot price per replica (over the replicas one instance holds,
// as the on-demand price). The offer's reserved and committed prices
// become the spec's commitments when the file gives none. Each filled
// value is recorded in spec.Defaults.
func ApplyPrices(spec *autoscale.Spec, o *catalog.Offer, m *autoscale.BatchModel) {
	if spec.Service.Kind != autoscale.ServiceModel || m == nil {
		return
	}
	p := &spec.Policy
	if p.Kind == autoscale.PolicyServerless && spec.Pricing.PerHourUSD > 0 {
		m.PricePerHourUSD, m.ReplicasPerInstance = spec.Pricing.PerHourUSD, 0
		return
	}
	if sv, ok := o.YourPrices.Get(catalog.Serverless); ok && p.Kind == autoscale.PolicyServerless {
		// The offer is a serverless platform: a worker is billed at its
		// price whatever instance it runs on.
		m.PricePerHourUSD, m.ReplicasPerInstance = sv, 0
		spec.Defaults = append(spec.Defaults, fmt.Sprintf("pricing.per_hour_usd = %.4g (the serverless price of %s per worker)", m.PricePerHourUSD, o.ID()))
		return
	}
	if len(spec.Pricing.Commitments) == 0 && p.Kind != autoscale.PolicyServerless {
		// The offer's reserved and committed prices, per replica as the
		// on-demand price, for the on-demand replicas' committed base.
		n := max(m.ReplicasPerInstance, 1)
		for _, mode := range []catalog.Mode{catalog.Monthly, catalog.Reserved1y, catalog.Reserved3y} {
			if price, ok := o.YourPrices.Get(mode); ok {
				per := price / float64(n)
				spec.Pricing.Commitments = append(spec.Pricing.Commitments, autoscale.Commitment{Term: mode.String(), PerHourUSD: per})
				spec.Defaults = append(spec.Defaults, fmt.Sprintf("pricing.commitments: %s %.4g (the %s price of %s in %s over %d replicas an instance)",
					mode, per, mode, o.ID(), o.Region, n))
			}
		}
	}
	if p.Kind == autoscale.PolicyMixed && p.Spot != nil && p.Spot.MaxReplicas > 0 && spec.Pricing.SpotPerHourUSD == 0 {
		if spot, ok := o.YourPrices.Get(catalog.Spot); ok {
			per := spot / float64(max(m.ReplicasPerInstance, 1))
			spec.Pricing.SpotPerHourUSD = per
			spec.Defaults = append(spec.Defaults, fmt.Sprintf("pricing.spot_per_hour_usd = %.4g (the spot price of %s in %s over %d replicas an instance)",
				per, o.ID(), o.Region, max(m.ReplicasPerInstance, 1)))
		}
	}
}
