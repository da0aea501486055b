package app

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/cost"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/workload"
)

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
	r, ok := advisor.MIGReplicaOf(c, o, spec.Service.Slice, catalog.OnDemand)
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
	storage := o.NVMeReadGBps
	if storage == 0 {
		storage = o.BlockGBps
	}
	if storage == 0 {
		storage = 1
	}
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

// cpuCore is what the CPU tier's speed needs of a processor: its
// sustained all-core clock under vector load and its source.
type cpuCore struct {
	match    string  // a substring of the cpu column of data/cpu-instances.csv
	clockGHz float64 // all-core turbo
	amxOK    bool    // has AMX (bf16 tiles)
	bf16AVX  bool    // has AVX-512 BF16 (Cooper Lake and later, not Ice Lake)
	source   string
}

// cpuCores are the processors of data/cpu-instances.csv. The "C" parts
// are cloud SKUs that Intel ARK does not list; their providers state the
// all-core turbo clock.
var cpuCores = []cpuCore{
	{"6455B", 3.9, true, true, "aws.amazon.com/ec2/instance-types/r7iz (Xeon Gold 6455B, all-core turbo 3.9 GHz): the anchor's machine"},
	{"8488C", 3.2, true, true, "aws.amazon.com/ec2/instance-types/c7i (Xeon Platinum 8488C, all-core turbo 3.2 GHz)"},
	{"8481C", 3.0, true, true, "cloud.google.com/compute/docs/cpu-platforms (Sapphire Rapids: all-core turbo 3.0 GHz)"},
	{"8370C", 3.5, false, false, "learn.microsoft.com/azure/virtual-machines/dv5-dsv5-series (Xeon Platinum 8370C, all-core turbo 3.5 GHz)"},
	{"8272CL", 3.4, false, false, "learn.microsoft.com/azure/virtual-machines/fsv2-series (Xeon Platinum 8272CL, all-core turbo 3.4 GHz)"},
}

// FLOP per cycle per core of the CPU paths ImageGenCPUSecondsPerImage
// names: AMX bf16 tiles on Sapphire Rapids and later, AVX-512 bf16 dot
// products, AVX-512 fp32 FMAs (two units × 16 lanes × 2).
const (
	amxBF16FLOPPerCycle    = 1024
	avx512BF16FLOPPerCycle = 64
	avx512FP32FLOPPerCycle = 32
)

// amxSustained is the share of the AMX tile peak a diffusion pipeline
// keeps under OpenVINO, on top of perf.CPUImageEfficiency: the tiles idle
// through the group norms, softmax, VAE and layout changes that run on
// AVX-512, and at AMX's lower license clock. One published point sets it
// (a calibration, not a validation): SD 1.5, 512x512, 20 steps with
// guidance, OpenVINO bf16 with static shapes on an r7iz.metal-16xl (64
// vCPUs of a Xeon Gold 6455B) takes 4.7 s an image
// (huggingface.co/blog/stable-diffusion-inference-intel, 2023-03-28); the
// model at the full 1,024 FLOP/cycle gives 0.66 s, so AMX sustains about
// 0.66/4.7 = 0.14 of it. TestCPUTierAnchor keeps the two within 15%.
const amxSustained = 0.14

// CPURate is the clock (GHz) and FLOP per cycle per core of a CPU
// instance's processor on a diffusion pipeline (AMX bf16 where the row
// says amx, else AVX-512), with where the clock comes from; ok is false
// for a processor the table does not know.
func CPURate(cpu autoscale.CPUInstance) (clockGHz, flopsPerCycle float64, source string, ok bool) {
	for _, k := range cpuCores {
		if !strings.Contains(cpu.CPU, k.match) {
			continue
		}
		f, path := float64(avx512FP32FLOPPerCycle), "AVX-512 fp32"
		switch {
		case cpu.AMX && k.amxOK:
			f, path = amxBF16FLOPPerCycle*amxSustained, fmt.Sprintf("AMX bf16 at %.2f of its 1024 FLOP/cycle peak (one published OpenVINO point)", amxSustained)
		case k.bf16AVX:
			f, path = avx512BF16FLOPPerCycle, "AVX-512 bf16"
		}
		return k.clockGHz, f, fmt.Sprintf("%s at %.1f GHz, %s (%.0f FLOP/cycle/core); %s", cpu.CPU, k.clockGHz, path, f, k.source), true
	}
	return 0, 0, "", false
}

// ApplyFallback sets the speed of a model service's fallback tier from the
// performance model: with policy.fallback.mean_s, the main tier's time for
// one request over it; with policy.fallback.instance (a CPU instance) and
// no speed, the main tier's time over the CPU's seconds per image of an
// image-generation workload (perf.ImageGenCPUSecondsPerImage). The main
// tier's time is one request alone on a replica (StepS(1)). A speed over 1
// (a fallback faster than the GPUs) is an Invalid error.
func ApplyFallback(spec *autoscale.Spec, ws *workload.Spec, m *autoscale.BatchModel) error {
	f := spec.Policy.Fallback
	if spec.Service.Kind != autoscale.ServiceModel || f == nil || m == nil || f.Speed > 0 && f.MeanS == 0 {
		return nil
	}
	gpuS := m.StepS(1)
	if m.StepsPerRequest > 0 {
		gpuS *= float64(m.StepsPerRequest)
	}
	field := "policy.fallback.mean_s"
	var tierS float64
	switch {
	case f.MeanS > 0:
		tierS = f.MeanS
		f.SpeedSource = fmt.Sprintf("%.3g s per request on the main tier (performance model) over mean_s %g s", gpuS, f.MeanS)
	case f.Instance != "":
		field = "policy.fallback.instance"
		if ws.Kind != workload.KindImageGeneration {
			return spec.Errorf(field, "the speed of a CPU tier is derived for image-generation workloads only; give policy.fallback.speed or mean_s")
		}
		clock, fpc, src, ok := CPURate(f.CPU)
		if !ok {
			return spec.Errorf(field, "no clock is known for %s (%s); give policy.fallback.speed or mean_s", f.Instance, f.CPU.CPU)
		}
		s, err := perf.ImageGenCPUSecondsPerImage(ws, f.CPU.VCPUs, clock, fpc)
		if err != nil {
			return spec.Errorf(field, "%v", err)
		}
		tierS = s
		f.SpeedSource = fmt.Sprintf("%.3g s per image on %d vCPUs of %s (perf.ImageGenCPUSecondsPerImage, efficiency %.2f) against %.3g s on the main tier",
			s, f.CPU.VCPUs, src, perf.CPUImageEfficiency, gpuS)
	default:
		return nil
	}
	speed := gpuS / tierS
	if speed > 1 {
		return spec.Errorf(field, "the fallback tier would be faster than the main one (%.3g s against %.3g s a request): it is no fallback", tierS, gpuS)
	}
	f.Speed = speed
	spec.Defaults = append(spec.Defaults, fmt.Sprintf("policy.fallback.speed = %.4g (%s)", speed, f.SpeedSource))
	return nil
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
