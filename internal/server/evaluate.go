package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/export"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

// ValidateRequest is the body of POST /api/v1/validate.
type ValidateRequest struct {
	// Workload is the workload: a JSON object, or YAML or JSON text.
	Workload Document `json:"workload" schema:"workload"`
	Lang     string   `json:"lang,omitempty"` // en (default) or zh: the problems' messages
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
	Workload Document `json:"workload" schema:"workload"`
	GPU      string   `json:"gpu,omitempty"`   // accelerator id; or give offer
	GPUs     int      `json:"gpus,omitempty"`  // total accelerators; 0 = one server's worth
	Nodes    int      `json:"nodes,omitempty"` // 0 = as few as the server allows
	Offer    string   `json:"offer,omitempty"` // provider/instance
	// Calibrate is a probe report's JSON text (gpupick probe -o json):
	// its measured efficiency, storage and network replace the catalog's.
	Calibrate string `json:"calibrate,omitempty"`
	// Lang is the language of the sentences (verdict, fix, assumptions):
	// en (the default) or zh.
	Lang string `json:"lang,omitempty"`
}

// RecommendRequest is the body of POST /api/v1/recommend.
type RecommendRequest struct {
	Workload  Document `json:"workload" schema:"workload"`
	Objective string   `json:"objective,omitempty"` // cost, time, tokens-per-dollar or balanced
	Pricing   []string `json:"pricing,omitempty"`   // pricing modes; default: the workload's
	Top       *int     `json:"top,omitempty"`       // candidates shown; default 10, 0 = all
	Lang      string   `json:"lang,omitempty"`      // en (default) or zh: the sentences, the chart and the report
	// Calibrate is a probe report's JSON text (gpupick probe -o json),
	// applied to the offers with the hardware it measured.
	Calibrate string `json:"calibrate,omitempty"`
}

// ExplainRequest is the body of POST /api/v1/explain.
type ExplainRequest struct {
	Workload Document `json:"workload" schema:"workload"`
	Offer    string   `json:"offer"`          // provider/instance
	Lang     string   `json:"lang,omitempty"` // en (default) or zh
}

// ExplainResponse is the --explain story of one candidate, as text.
type ExplainResponse struct {
	Text string `json:"text"`
}

// CheckRequest is the body of POST /api/v1/check.
type CheckRequest struct {
	Workload Document `json:"workload" schema:"workload"`
	GPU      string   `json:"gpu,omitempty"`
	Offer    string   `json:"offer,omitempty"`
	Region   string   `json:"region,omitempty"`
	Lang     string   `json:"lang,omitempty"` // en (default) or zh: verdicts, fixes and reasons
}

// CostRequest is the body of POST /api/v1/cost.
type CostRequest struct {
	Workload Document `json:"workload" schema:"workload"`
	Offer    string   `json:"offer"`
	GPUs     int      `json:"gpus,omitempty"`    // a multiple of the instance's; 0 = one instance
	Pricing  string   `json:"pricing,omitempty"` // default on-demand
	Region   string   `json:"region,omitempty"`  // default: the cheapest with a price
	Lang     string   `json:"lang,omitempty"`    // en (default) or zh: warnings and notes
}

// CostResponse is the `gpupick cost -o json` document.
type CostResponse struct {
	report.CandidateJSON
	Notes []string `json:"cost_notes"`
}

// ExportRequest is the body of POST /api/v1/export/{kind}.
type ExportRequest struct {
	Workload Document `json:"workload" schema:"workload"`
	Offer    string   `json:"offer,omitempty"` // default: the top recommendation
	// Policy is a service file (an object, or SERVICE.yaml text) whose
	// policy to use.
	Policy Document `json:"policy,omitzero" schema:"service"`
	Image  string   `json:"image,omitempty"` // container image of the chosen offer's software family
	Lang   string   `json:"lang,omitempty"`  // en (default) or zh: the notes
}

// ExportResponse holds the generated files by name, and one note per other
// software family among the candidates: the file its own SkyPilot task
// went to, or that the manifests leave it out.
type ExportResponse struct {
	Files map[string]string `json:"files"`
	Notes []string          `json:"notes,omitempty"`
}

// parseWorkload reads the workload of a request; its errors carry the
// field and, for text, the line inside it.
func parseWorkload(d Document) (*workload.Spec, error) {
	if strings.TrimSpace(d.text) == "" {
		return nil, apperr.Invalidf("workload", "a workload (a JSON object, or YAML or JSON text) is required")
	}
	spec, err := workload.Parse(d.Bytes(), "workload")
	return spec, d.parsed(err)
}

func (s *Server) validate(_ http.ResponseWriter, _ *http.Request, in *ValidateRequest) (ValidateResponse, error) {
	spec, err := parseWorkload(in.Workload)
	if err == nil {
		return ValidateResponse{OK: true, Defaults: spec.Defaults}, nil
	}
	l := requestLang(in)
	b := errorBodyIn(err, l) // the page's validation as you type, in its language
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
	c := s.st().cat
	cl, err := app.Cluster(c, app.JSON, in.GPU, in.Offer, in.GPUs, in.Nodes)
	if err != nil {
		return p, err
	}
	if in.Calibrate != "" {
		r, err := app.ReadProbeReport([]byte(in.Calibrate), "calibrate")
		if err == nil {
			err = app.CanCalibrate(r, "calibrate")
		}
		if err != nil {
			return p, err
		}
		var o *catalog.Offer
		if in.Offer != "" {
			o, _ = app.FindOffer(c, app.JSON, in.Offer) // found by Cluster above
		}
		app.Calibrate(r, &cl, o)
	}
	p, err = perf.Predict(spec, cl)
	if err != nil {
		return p, apperr.Wrap(apperr.Invalid, "predict", err)
	}
	localizePrediction(&p, requestLang(in))
	return p, nil
}

// advise runs recommend for a request.
func (s *Server) advise(ctx context.Context, in *RecommendRequest, detail bool) (*workload.Spec, *advisor.Result, error) {
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return nil, nil, err
	}
	st := s.st()
	req := advisor.Request{Spec: spec, Catalog: st.cat, Now: s.now(), Detail: detail, Checks: st.checker.Checks(), Predictions: st.predictions,
		Workers: 1} // one core per recommendation: the gate runs them side by side
	if in.Calibrate != "" {
		r, err := app.ReadProbeReport([]byte(in.Calibrate), "calibrate")
		if err == nil {
			err = app.CanCalibrate(r, "calibrate")
		}
		if err != nil {
			return nil, nil, err
		}
		req.Tune, req.TuneNote = app.CalibrateProbed(r, st.cat) // the advisor then bypasses the shared predictions
	}
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
	release, err := s.admit(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	req.CheckPlans, req.Context = true, ctx
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
	exclusions := r.URL.Query().Get("exclusions")
	switch exclusions {
	case "", "examples", "all":
	default:
		return report.RecommendJSON{}, apperr.Invalidf("exclusions", "want examples (the default) or all, got %q", exclusions)
	}
	top := 10
	if in.Top != nil {
		if *in.Top < 0 {
			return report.RecommendJSON{}, apperr.Invalidf("top", "must be >= 0")
		}
		top = *in.Top
	}
	l := requestLang(in)
	// An answer asked before (the same request, the same day, the same
	// negotiated prices, this catalog) is sent again as it was encoded.
	var key string
	st := s.st()
	if format == "" || format == "json" {
		reqJSON, err := json.Marshal(in)
		if err == nil {
			key = answerKey(reqJSON, []byte(exclusions), []byte(fmt.Sprint(top)), []byte(l), []byte(s.now().UTC().Format(time.DateOnly)),
				[]byte(fmt.Sprintf("%p", s.overlay.Load())))
			if b, ok := st.answers.get(key); ok {
				writeEncoded(w, b)
				return report.RecommendJSON{}, errWritten
			}
		}
	}
	spec, res, err := s.advise(r.Context(), in, false)
	if err != nil {
		return report.RecommendJSON{}, err
	}
	switch format {
	case "svg":
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Content-Security-Policy", svgPolicy)
		_, _ = w.Write([]byte(report.ParetoSVG(res, l)))
		return report.RecommendJSON{}, errWritten
	case "html":
		var b bytes.Buffer
		if err := report.WriteRecommendHTML(&b, spec.Name, res, top, l); err != nil {
			return report.RecommendJSON{}, err
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", documentPolicy(b.Bytes()))
		_, _ = w.Write(b.Bytes())
		return report.RecommendJSON{}, errWritten
	}
	d := report.RecommendationIn(spec.Name, string(spec.Kind), res, top, l)
	if d.Answer.Service && len(res.Candidates) > 0 && res.Candidates[0].Plan.Scaling != nil {
		// #1's plan as a service file, for the page's "simulate this plan":
		// the file simulate -f WORKLOAD --save-plan writes.
		if b, err := advisor.PlanFile(advisor.PlanInput{Spec: spec, Catalog: st.cat}, res.Candidates[0], "workload.yaml"); err == nil {
			d.PlanService = string(b)
		}
	}
	localizeRecommendation(&d, res, l)
	d.GroupExclusions() // with the reasons in the reader's language
	if exclusions != "all" {
		d.SlimExclusions()
	}
	if key == "" {
		return d, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return d, nil // the endpoint encodes it, and says why it cannot
	}
	st.answers.put(key, buf.Bytes())
	writeEncoded(w, buf.Bytes())
	return report.RecommendJSON{}, errWritten
}

// writeEncoded writes an encoded JSON answer with status 200.
func writeEncoded(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

func (s *Server) explain(_ http.ResponseWriter, r *http.Request, in *ExplainRequest) (ExplainResponse, error) {
	if in.Offer == "" {
		return ExplainResponse{}, apperr.Invalidf("offer", "required: provider/instance")
	}
	_, res, err := s.advise(r.Context(), &RecommendRequest{Workload: in.Workload}, true)
	if err != nil {
		return ExplainResponse{}, err
	}
	var b bytes.Buffer
	found, err := report.ExplainOffer(&b, res, in.Offer, requestLang(in))
	if err != nil {
		return ExplainResponse{}, err
	}
	if !found {
		return ExplainResponse{}, apperr.NotFoundf("offer", "%q is neither a candidate nor excluded: is it in the catalog?", in.Offer)
	}
	return ExplainResponse{Text: b.String()}, nil
}

func (s *Server) check(_ http.ResponseWriter, _ *http.Request, in *CheckRequest) (v report.CheckJSON, err error) {
	defer func() { s.metrics.evaluated("check", err) }()
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return v, err
	}
	if v, err = app.Check(spec, s.st().cat, s.matrix, app.JSON, in.GPU, in.Offer, in.Region, requestLang(in)); err != nil {
		return v, err
	}
	localizeCheck(&v, requestLang(in))
	return v, nil
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
	cand, err := app.Cost(spec, s.st().cat, s.st().checker, s.now(), app.JSON, in.Offer, in.Region, in.GPUs, mode)
	if err != nil {
		return out, err
	}
	l := requestLang(in)
	out = CostResponse{report.CandidateView(cand), report.RenderAll(l, cand.Cost.Notes)}
	localizeCandidate(&out.CandidateJSON, cand, l)
	return out, nil
}

func (s *Server) exportFiles(_ http.ResponseWriter, r *http.Request, in *ExportRequest) (out ExportResponse, err error) {
	defer func() { s.metrics.evaluated("export", err) }()
	kind := r.PathValue("kind")
	if !slices.Contains(export.Kinds, kind) {
		return out, apperr.Invalidf("kind", "want k8s, keda, karpenter, skypilot or all, got %q", kind)
	}
	spec, err := parseWorkload(in.Workload)
	if err != nil {
		return out, err
	}
	ein, err := app.ExportInput(spec, s.st().cat, s.st().checker, s.now(), app.JSON, in.Offer)
	if err != nil {
		return out, err
	}
	if !in.Policy.IsZero() {
		sv, err := autoscale.ParseSpec(in.Policy.Bytes())
		if err != nil {
			return out, apperr.Wrap(apperr.Invalid, "policy", apperr.InFile(in.Policy.parsed(err), "policy"))
		}
		ein.Policy = app.ExportPolicy(sv.Policy)
	}
	ein.Image = in.Image
	files, err := export.Files(kind, ein)
	if err != nil {
		return out, err
	}
	out.Notes = report.RenderAll(requestLang(in), export.Notes(kind, ein))
	out.Files = make(map[string]string, len(files))
	for k, v := range files {
		out.Files[k] = string(v)
	}
	return out, nil
}
