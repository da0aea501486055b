package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/compat"
	"github.com/gpupick/gpupick/internal/compliance"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

// ValidateRequest is the body of POST /api/v1/validate.
type ValidateRequest struct {
	Workload string `json:"workload"` // YAML or JSON text
}

// ValidateResponse says whether a workload is valid: the defaults filled
// in, or every problem with its field and line.
type ValidateResponse struct {
	OK       bool               `json:"ok"`
	Defaults []workload.Default `json:"defaults,omitempty"`
	Errors   []FieldError       `json:"errors,omitempty"`
}

// PredictRequest is the body of POST /api/v1/predict.
type PredictRequest struct {
	Workload string `json:"workload"`
	GPU      string `json:"gpu,omitempty"`   // accelerator id; or give offer
	GPUs     int    `json:"gpus,omitempty"`  // total accelerators; 0 = one server's worth
	Nodes    int    `json:"nodes,omitempty"` // 0 = as few as the server allows
	Offer    string `json:"offer,omitempty"` // provider/instance
}

// RecommendRequest is the body of POST /api/v1/recommend.
type RecommendRequest struct {
	Workload  string   `json:"workload"`
	Objective string   `json:"objective,omitempty"` // cost, time, tokens-per-dollar or balanced
	Pricing   []string `json:"pricing,omitempty"`   // pricing modes; default: the workload's
	Top       *int     `json:"top,omitempty"`       // candidates shown; default 10, 0 = all
	Lang      string   `json:"lang,omitempty"`      // en or zh (svg and html)
}

// ExplainRequest is the body of POST /api/v1/explain.
type ExplainRequest struct {
	Workload string `json:"workload"`
	Offer    string `json:"offer"` // provider/instance
}

// ExplainResponse is the --explain story of one candidate, as text.
type ExplainResponse struct {
	Text string `json:"text"`
}

// CheckRequest is the body of POST /api/v1/check.
type CheckRequest struct {
	Workload string `json:"workload"`
	GPU      string `json:"gpu,omitempty"`
	Offer    string `json:"offer,omitempty"`
	Region   string `json:"region,omitempty"`
}

// CostRequest is the body of POST /api/v1/cost.
type CostRequest struct {
	Workload string `json:"workload"`
	Offer    string `json:"offer"`
	GPUs     int    `json:"gpus,omitempty"`    // a multiple of the instance's; 0 = one instance
	Pricing  string `json:"pricing,omitempty"` // default on-demand
	Region   string `json:"region,omitempty"`  // default: the cheapest with a price
}

// CostResponse is the `gpupick cost -o json` document.
type CostResponse struct {
	report.CandidateJSON
	Notes []string `json:"cost_notes"`
}

// ExportRequest is the body of POST /api/v1/export/{kind}.
type ExportRequest struct {
	Workload string `json:"workload"`
	Offer    string `json:"offer,omitempty"`  // default: the top recommendation
	Policy   string `json:"policy,omitempty"` // SERVICE.yaml text whose policy to use
	Image    string `json:"image,omitempty"`  // container image
}

// ExportResponse holds the generated files by name.
type ExportResponse struct {
	Files map[string]string `json:"files"`
}

// parseWorkload reads the workload text of a request; its errors carry the
// field and line inside it.
func parseWorkload(text string) (*workload.Spec, error) {
	if strings.TrimSpace(text) == "" {
		return nil, apperr.Invalidf("workload", "a workload (YAML or JSON text) is required")
	}
	return workload.Parse([]byte(text), "workload")
}

func (s *Server) validate(_ http.ResponseWriter, _ *http.Request, in *ValidateRequest) (ValidateResponse, error) {
	spec, err := parseWorkload(in.Workload)
	if err == nil {
		return ValidateResponse{OK: true, Defaults: spec.Defaults}, nil
	}
	b := errorBody(err)
	if b.Code != string(apperr.Invalid) && b.Code != string(apperr.NotFound) {
		return ValidateResponse{}, err
	}
	if len(b.Errors) == 0 {
		b.Errors = []FieldError{{Field: b.Field, Line: b.Line, Message: b.Message}}
	}
	return ValidateResponse{OK: false, Errors: b.Errors}, nil
}

func (s *Server) predict(_ http.ResponseWriter, _ *http.Request, in *PredictRequest) (p perf.Prediction, err error) {
	defer func() { s.metrics.evaluated("predict", err) }()
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return p, err
	}
	cl, err := s.cluster(in.GPU, in.Offer, in.GPUs, in.Nodes)
	if err != nil {
		return p, err
	}
	p, err = perf.Predict(spec, cl)
	if err != nil {
		return p, apperr.Wrap(apperr.Invalid, "predict", err)
	}
	return p, nil
}

// cluster resolves gpu, offer, gpus and nodes to a cluster, as predict's
// flags do.
func (s *Server) cluster(gpu, offer string, gpus, nodes int) (perf.Cluster, error) {
	c := s.cat
	var o *catalog.Offer
	if offer != "" {
		var err error
		if o, err = s.findOffer(offer); err != nil {
			return perf.Cluster{}, err
		}
	}
	var a *catalog.Accelerator
	switch {
	case gpu != "":
		var ok bool
		if a, ok = c.Accelerator(gpu); !ok {
			return perf.Cluster{}, apperr.NotFoundf("gpu", "unknown accelerator %q (known: %s)", gpu, strings.Join(c.AcceleratorNames(), ", "))
		}
		if o != nil && o.GPU != a.ID {
			return perf.Cluster{}, apperr.Invalidf("gpu", "%s has %s, not %s", o.ID(), o.GPU, a.ID)
		}
	case o != nil:
		a, _ = c.Accelerator(o.GPU)
	default:
		return perf.Cluster{}, apperr.Invalidf("gpu", "give gpu or offer")
	}
	if gpus < 0 || nodes < 0 {
		return perf.Cluster{}, apperr.Invalidf("gpus", "must be >= 1")
	}
	if gpus == 0 {
		gpus = a.GPUsPerServer
		if o != nil {
			gpus = o.GPUCount
		}
		if nodes > 0 {
			gpus *= nodes
		}
	}
	cl, err := perf.NewCluster(a, gpus, nodes, o)
	if err != nil {
		return perf.Cluster{}, apperr.Wrap(apperr.Invalid, "gpus", err)
	}
	cl.Lookup = func(id string) *catalog.Accelerator {
		x, _ := c.Accelerator(id)
		return x
	}
	return cl, nil
}

// findOffer resolves provider/instance (any region: the hardware is the same).
func (s *Server) findOffer(id string) (*catalog.Offer, error) {
	for _, o := range s.cat.Offers {
		if strings.EqualFold(o.ID(), id) {
			return o, nil
		}
	}
	return nil, apperr.NotFoundf("offer", "no offer %q in the catalog (see /api/v1/offers)", id)
}

// advise runs recommend for a request.
func (s *Server) advise(in *RecommendRequest, detail bool) (*workload.Spec, *advisor.Result, error) {
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return nil, nil, err
	}
	req := advisor.Request{Spec: spec, Catalog: s.cat, Now: s.now(), Detail: detail, Checks: s.offerChecks()}
	if in.Objective != "" {
		o, err := workload.ParseObjective(in.Objective)
		if err != nil {
			return nil, nil, apperr.Invalidf("objective", "%v", err)
		}
		req.Objective = o
	}
	for _, p := range in.Pricing {
		for _, x := range strings.Split(p, ",") {
			m, ok := catalog.ParseMode(x)
			if !ok {
				return nil, nil, apperr.Invalidf("pricing", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), x)
			}
			req.Modes = append(req.Modes, m)
		}
	}
	res, err := advisor.Recommend(req)
	s.metrics.evaluated("recommend", err)
	return spec, res, err
}

func (s *Server) recommend(w http.ResponseWriter, r *http.Request, in *RecommendRequest) (report.RecommendJSON, error) {
	format := r.URL.Query().Get("format")
	switch format {
	case "", "json", "svg", "html":
	default:
		return report.RecommendJSON{}, apperr.Invalidf("format", "want json, svg or html, got %q", format)
	}
	top := 10
	if in.Top != nil {
		if *in.Top < 0 {
			return report.RecommendJSON{}, apperr.Invalidf("top", "must be >= 0")
		}
		top = *in.Top
	}
	l, err := report.ParseLang(in.Lang, "")
	if err != nil {
		return report.RecommendJSON{}, apperr.Wrap(apperr.Invalid, "lang", err)
	}
	spec, res, err := s.advise(in, false)
	if err != nil {
		return report.RecommendJSON{}, err
	}
	switch format {
	case "svg":
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(report.ParetoSVG(res, l)))
		return report.RecommendJSON{}, errWritten
	case "html":
		var b bytes.Buffer
		if err := report.WriteRecommendHTML(&b, spec.Name, res, top, l); err != nil {
			return report.RecommendJSON{}, err
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(b.Bytes())
		return report.RecommendJSON{}, errWritten
	}
	return report.Recommendation(spec.Name, string(spec.Kind), res, top), nil
}

func (s *Server) explain(_ http.ResponseWriter, _ *http.Request, in *ExplainRequest) (ExplainResponse, error) {
	if in.Offer == "" {
		return ExplainResponse{}, apperr.Invalidf("offer", "required: provider/instance")
	}
	_, res, err := s.advise(&RecommendRequest{Workload: in.Workload}, true)
	if err != nil {
		return ExplainResponse{}, err
	}
	var best *advisor.Candidate
	for _, c := range res.Candidates {
		if strings.EqualFold(c.Offer.ID(), in.Offer) {
			best = c
			break
		}
	}
	var b bytes.Buffer
	if best == nil {
		var why []string
		seen := map[string]bool{}
		for _, x := range res.Excluded {
			line := fmt.Sprintf("  - %s, %d GPUs, %s: %s", x.Region, x.GPUs, orAll(x.Pricing), x.Reason)
			if strings.EqualFold(x.Offer, in.Offer) && !seen[line] {
				seen[line] = true
				why = append(why, line)
			}
		}
		if len(why) == 0 {
			return ExplainResponse{}, apperr.NotFoundf("offer", "%q is neither a candidate nor excluded: is it in the catalog?", in.Offer)
		}
		return ExplainResponse{Text: fmt.Sprintf("%s was excluded:\n%s\n", in.Offer, strings.Join(why, "\n"))}, nil
	}
	if err := report.WriteExplain(&b, best, res.Candidates[0], report.English); err != nil {
		return ExplainResponse{}, err
	}
	return ExplainResponse{Text: b.String()}, nil
}

func orAll(s string) string {
	if s == "" {
		return "all pricing modes"
	}
	return s
}

func (s *Server) check(_ http.ResponseWriter, _ *http.Request, in *CheckRequest) (v report.CheckJSON, err error) {
	defer func() { s.metrics.evaluated("check", err) }()
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return v, err
	}
	c := s.cat
	var a *catalog.Accelerator
	var o *catalog.Offer
	switch {
	case in.Offer != "":
		if o, err = s.findOffer(in.Offer); err != nil {
			return v, err
		}
		if o, err = s.pickRegion(o, in.Region, spec.Compliance); err != nil {
			return v, err
		}
		a, _ = c.Accelerator(o.GPU)
		if in.GPU != "" && !strings.EqualFold(in.GPU, a.ID) {
			if b, ok := c.Accelerator(in.GPU); !ok || b.ID != a.ID {
				return v, apperr.Invalidf("gpu", "%s has %s, not %s", o.ID(), a.ID, in.GPU)
			}
		}
	case in.GPU != "":
		var ok bool
		if a, ok = c.Accelerator(in.GPU); !ok {
			return v, apperr.NotFoundf("gpu", "unknown accelerator %q", in.GPU)
		}
	default:
		return v, apperr.Invalidf("gpu", "give gpu or offer")
	}
	driver := ""
	facts := compliance.Facts{GPU: a, GPUs: a.GPUsPerServer}
	if o != nil {
		driver = o.Driver
		facts = compliance.FactsFor(c, o, 0)
	}
	v = report.CheckJSON{Compat: s.matrix.Check(spec.Stack, a, driver), Compliance: compliance.Check(spec.Compliance, facts)}
	if o != nil {
		v.Offer, v.Region = o.ID(), o.Region
	}
	v.GPU = a.ID
	return v, nil
}

// pickRegion returns the offer row in region, or, without one, the first
// region that passes the compliance block (else the first region).
func (s *Server) pickRegion(o *catalog.Offer, region string, req workload.Compliance) (*catalog.Offer, error) {
	var rows []*catalog.Offer
	for _, x := range s.cat.Offers {
		if x.ID() == o.ID() {
			rows = append(rows, x)
		}
	}
	if region != "" {
		for _, x := range rows {
			if strings.EqualFold(x.Region, region) {
				return x, nil
			}
		}
		return nil, apperr.NotFoundf("region", "%s is not offered in %q in the catalog", o.ID(), region)
	}
	for _, x := range rows {
		if compliance.Check(req, compliance.FactsFor(s.cat, x, 0)).Verdict == compliance.Pass {
			return x, nil
		}
	}
	return rows[0], nil
}

func (s *Server) costOf(_ http.ResponseWriter, _ *http.Request, in *CostRequest) (out CostResponse, err error) {
	defer func() { s.metrics.evaluated("cost", err) }()
	pricing := in.Pricing
	if pricing == "" {
		pricing = "on-demand"
	}
	mode, ok := catalog.ParseMode(pricing)
	if !ok {
		return out, apperr.Invalidf("pricing", "want one of %s, got %q", strings.Join(catalog.ModeNames(), ", "), pricing)
	}
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return out, err
	}
	if in.Offer == "" {
		return out, apperr.Invalidf("offer", "required: provider/instance (see /api/v1/offers)")
	}
	o, err := s.findOffer(in.Offer)
	if err != nil {
		return out, err
	}
	var pick *catalog.Offer
	for _, x := range s.cat.Offers {
		if x.ID() != o.ID() {
			continue
		}
		if in.Region != "" {
			if strings.EqualFold(x.Region, in.Region) {
				pick = x
				break
			}
			continue
		}
		if p, ok := x.YourPrices.Get(mode); ok {
			if pick == nil {
				pick = x
			} else if q, ok := pick.YourPrices.Get(mode); !ok || p < q {
				pick = x
			}
		}
	}
	switch {
	case pick != nil:
		o = pick
	case in.Region != "":
		return out, apperr.NotFoundf("region", "%s is not offered in %q in the catalog", o.ID(), in.Region)
	}
	instances := 1
	if in.GPUs < 0 {
		return out, apperr.Invalidf("gpus", "must be >= 0")
	}
	if in.GPUs > 0 {
		if in.GPUs%o.GPUCount != 0 {
			return out, apperr.Invalidf("gpus", "%s has %d GPUs per instance: gpus must be a multiple of it", o.ID(), o.GPUCount)
		}
		instances = in.GPUs / o.GPUCount
	}
	req := advisor.Request{Spec: spec, Catalog: s.cat, Now: s.now(), Detail: true}
	// The user named this offer: an incompatible or non-compliant one is
	// still priced, with the verdict as a warning.
	for _, chk := range s.offerChecks() {
		req.Checks = append(req.Checks, demote(chk))
	}
	cands, excl := advisor.EvaluateOffer(req, o, instances, []catalog.Mode{mode})
	if len(cands) == 0 {
		reason := "no candidate"
		if len(excl) > 0 {
			reason = excl[0].Reason
		}
		return out, apperr.Emptyf("%s cannot run this workload as asked: %s", o.ID(), reason)
	}
	return CostResponse{report.CandidateView(cands[0]), cands[0].Cost.Notes}, nil
}

func (s *Server) exportFiles(_ http.ResponseWriter, r *http.Request, in *ExportRequest) (out ExportResponse, err error) {
	defer func() { s.metrics.evaluated("export", err) }()
	kind := r.PathValue("kind")
	gen := map[string]func(export.Input) ([]byte, error){
		"k8s": export.Kubernetes, "keda": export.KEDA, "karpenter": export.Karpenter, "skypilot": export.SkyPilot,
	}
	if _, ok := gen[kind]; !ok && kind != "all" {
		return out, apperr.Invalidf("kind", "want k8s, keda, karpenter, skypilot or all, got %q", kind)
	}
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return out, err
	}
	ein, err := s.exportInput(spec, in.Offer)
	if err != nil {
		return out, err
	}
	if in.Policy != "" {
		sv, err := autoscale.ParseSpec([]byte(in.Policy))
		if err != nil {
			return out, apperr.Wrap(apperr.Invalid, "policy", apperr.InFile(err, "policy"))
		}
		ein.Policy = exportPolicy(sv.Policy)
	}
	ein.Image = in.Image
	files := map[string][]byte{}
	if kind == "all" {
		if files, err = export.All(ein); err != nil {
			return out, err
		}
	} else {
		b, err := gen[kind](ein)
		if err != nil {
			return out, err
		}
		name := map[string]string{"k8s": export.FileDeployment, "keda": export.FileScaledObject,
			"karpenter": export.FileNodePool, "skypilot": export.FileSkyPilot}[kind]
		if kind == "k8s" && spec.Kind != workload.KindLLMInference {
			name = export.FileJob
		}
		files[name] = b
	}
	out.Files = make(map[string]string, len(files))
	for k, v := range files {
		out.Files[k] = string(v)
	}
	return out, nil
}

// exportInput ranks the offers for the workload and picks the named offer,
// or the top candidate (as gpupick export does).
func (s *Server) exportInput(spec *workload.Spec, offer string) (export.Input, error) {
	res, err := advisor.Recommend(advisor.Request{Spec: spec, Catalog: s.cat, Now: s.now(), Checks: s.offerChecks()})
	if err != nil {
		return export.Input{}, err
	}
	var chosen *advisor.Candidate
	if offer != "" {
		if _, err := s.findOffer(offer); err != nil {
			return export.Input{}, err
		}
		for _, cand := range res.Candidates {
			if strings.EqualFold(cand.Offer.ID(), offer) {
				chosen = cand
				break
			}
		}
		if chosen == nil {
			return export.Input{}, apperr.Emptyf("%s is not a candidate for this workload (see /api/v1/explain)", offer)
		}
	} else {
		if len(res.Candidates) == 0 {
			return export.Input{}, apperr.Emptyf("nothing qualifies: %s", res.Summary())
		}
		chosen = res.Candidates[0]
	}
	offers := []*catalog.Offer{chosen.Offer}
	seen := map[string]bool{chosen.Offer.Key(): true}
	for _, cand := range res.Candidates {
		if !seen[cand.Offer.Key()] && len(offers) < 8 {
			seen[cand.Offer.Key()] = true
			offers = append(offers, cand.Offer)
		}
	}
	a, _ := s.cat.Accelerator(chosen.Offer.GPU)
	in := export.Input{Spec: spec, Offers: offers, GPU: a, Capacity: []catalog.Mode{catalog.OnDemand}}
	if chosen.Cost.Mode == catalog.Spot {
		in.Capacity = []catalog.Mode{catalog.Spot, catalog.OnDemand}
	}
	p := chosen.Pred
	if spec.Kind == workload.KindLLMInference {
		in.GPUsPerReplica = max(1, p.Parallelism.Tensor)
		need := max(1, chosen.ReplicasNeeded)
		target := 8.0
		if p.Serving != nil && p.Serving.MaxBatchSLO > 0 {
			target = math.Max(1, math.Floor(float64(p.Serving.MaxBatchSLO)*0.8))
		}
		in.Policy = export.Policy{Kind: export.PolicyTarget, MinReplicas: 1, MaxReplicas: int(math.Ceil(float64(need) * 1.5)),
			Metric: export.MetricInFlight, Target: target}
	} else {
		in.GPUsPerReplica = chosen.GPUs
	}
	return in, nil
}

// exportPolicy maps a SERVICE.yaml policy onto what KEDA can carry (as
// gpupick export --policy does).
func exportPolicy(p autoscale.Policy) export.Policy {
	metric := export.MetricInFlight
	if p.Metric == "queue" {
		metric = export.MetricQueueLength
	}
	out := export.Policy{Kind: p.Kind, MinReplicas: p.MinReplicas, MaxReplicas: p.MaxReplicas, Metric: metric, Target: p.Target,
		PollingIntervalS: int(p.PollingIntervalS), CooldownS: int(p.CooldownS),
		StabilizationUpS: int(p.ScaleUpStabilizationS), StabilizationDownS: int(p.ScaleDownStabilizationS)}
	switch p.Kind {
	case autoscale.PolicyFixed:
		out.MinReplicas, out.MaxReplicas = p.Replicas, p.Replicas
	case autoscale.PolicyKnative:
		out.Target = p.TargetConcurrency * p.TargetUtilization
		out.Metric = export.MetricInFlight
	case autoscale.PolicyServerless:
		out.MinReplicas, out.MaxReplicas, out.Target = p.MinWorkers, p.MaxWorkers, float64(max(1, p.RequestsPerWorker))
		out.Metric = export.MetricInFlight
		out.CooldownS = int(p.IdleTimeoutS)
	case autoscale.PolicyMixed:
		if p.OnDemand != nil {
			out.MinReplicas = p.OnDemand.Replicas
			out.MaxReplicas = p.OnDemand.Replicas
		}
		if p.Spot != nil {
			out.MaxReplicas += p.Spot.MaxReplicas
		}
	}
	return out
}

// offerChecks are the stack and compliance judgements recommend applies to
// every offer (the same as the CLI's). Stack verdicts come from the server's
// cache: they depend only on the workload's stack, the accelerator and the
// driver, and judging them is most of the cost of a recommendation.
func (s *Server) offerChecks() []advisor.Check {
	c, m := s.cat, s.matrix
	var once sync.Once
	var stackKey string
	stack := func(spec *workload.Spec, o *catalog.Offer) (string, string, []advisor.CheckWarning) {
		once.Do(func() { stackKey = fingerprint(spec.Stack) }) // one spec per request
		r := s.compat.check(m, c, stackKey, spec, o)
		var warnings []advisor.CheckWarning
		for _, reason := range r.Reasons {
			switch reason.Verdict {
			case compat.Incompatible:
				return advisor.ReasonIncompatible, reason.Text + fixSuffix(reason.Fix), nil
			case compat.NeedsWork:
				warnings = append(warnings, advisor.CheckWarning{Code: advisor.WarnNeedsWork, Text: reason.Text + fixSuffix(reason.Fix)})
			}
		}
		return "", "", warnings
	}
	rules := func(spec *workload.Spec, o *catalog.Offer) (string, string, []advisor.CheckWarning) {
		r := compliance.Check(spec.Compliance, compliance.FactsFor(c, o, 0))
		if r.Verdict != compliance.Pass {
			var why []string
			for _, q := range r.Requirements {
				if q.Required && q.Verdict != compliance.Pass {
					why = append(why, fmt.Sprintf("%s %s: %s", q.Name, q.Verdict, q.Reason))
				}
			}
			return advisor.ReasonNonCompliant, strings.Join(why, " "), nil
		}
		var ws []advisor.CheckWarning
		for _, w := range r.Warnings() {
			ws = append(ws, advisor.CheckWarning{Code: advisor.WarnPreferred, Text: w})
		}
		return "", "", ws
	}
	return []advisor.Check{stack, rules}
}

// maxCompatCache bounds the stack-verdict cache; it is emptied when full.
const maxCompatCache = 20000

// compatCache remembers stack verdicts across requests. The catalog and the
// matrix do not change while the server runs, so a verdict never goes stale.
type compatCache struct {
	mu sync.Mutex
	m  map[compatKey]compat.Result
}

type compatKey struct{ stack, gpu, driver string }

// fingerprint identifies a workload's stack for the cache.
func fingerprint(st workload.Stack) string {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Sprintf("%#v", st)
	}
	return string(b)
}

func (cc *compatCache) check(m *compat.Matrix, c *catalog.Catalog, stack string, spec *workload.Spec, o *catalog.Offer) compat.Result {
	k := compatKey{stack, o.GPU, o.Driver}
	cc.mu.Lock()
	r, ok := cc.m[k]
	cc.mu.Unlock()
	if ok {
		return r
	}
	a, _ := c.Accelerator(o.GPU)
	r = m.Check(spec.Stack, a, o.Driver)
	cc.mu.Lock()
	if cc.m == nil || len(cc.m) >= maxCompatCache {
		cc.m = map[compatKey]compat.Result{}
	}
	cc.m[k] = r
	cc.mu.Unlock()
	return r
}

func fixSuffix(fix string) string {
	if fix == "" {
		return ""
	}
	return ". Fix: " + strings.TrimSuffix(fix, ".") + "."
}

// demote turns a check's exclusion into a warning.
func demote(chk advisor.Check) advisor.Check {
	return func(spec *workload.Spec, o *catalog.Offer) (string, string, []advisor.CheckWarning) {
		code, why, ws := chk(spec, o)
		if code != "" {
			ws = append([]advisor.CheckWarning{{Code: code, Text: advisor.ReasonText(code) + ": " + why}}, ws...)
		}
		return "", "", ws
	}
}
