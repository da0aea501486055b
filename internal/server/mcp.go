package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gpupick/gpupick/examples"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/schema"
	"github.com/gpupick/gpupick/internal/workload"
)

// gpupick for AI assistants: a Model Context Protocol server whose tools
// are the API's operations. A tool call is an API request made in
// process, to the same handlers with the same validation and limits, so
// a tool's structured result is the JSON the API returns; its text is a
// short summary in the requested language. An API error is a tool error
// (isError) naming the field, never a protocol failure.

// Caller is who calls the MCP tools: a process on this machine (stdio)
// or an HTTP client of /mcp, with its address and headers (its token).
type Caller struct {
	RemoteAddr string
	Header     http.Header
}

// LocalCaller is a process on this machine: gpupick mcp over stdio.
var LocalCaller = Caller{RemoteAddr: "127.0.0.1:0"}

// loopback reports whether the caller is on this machine.
func (c Caller) loopback() bool {
	host, _, err := net.SplitHostPort(c.RemoteAddr)
	if err != nil {
		host = c.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// mcpTool is one tool: the API operation it calls and how it reads its
// arguments.
type mcpTool struct {
	name, title, description string
	route                    string // METHOD PATH of the API operation
	in                       reflect.Type
	params                   []param // a GET's query parameters
	// write marks a tool that starts work on the server (a simulation):
	// callers not on this machine need an API token, as writes do.
	write bool
	// wrap names the object that holds an API answer that is an array
	// (structured results are objects).
	wrap string
	// query moves arguments to the query string (recommend's exclusions).
	query []string
}

// mcpTools are the tools, in the order tools/list gives them.
func mcpTools() []mcpTool {
	type withExclusions struct {
		RecommendRequest
		// Exclusions is examples (the default: three offers per reason,
		// with counts) or all (every excluded offer, as recommend -o json).
		Exclusions string `json:"exclusions,omitempty"`
	}
	return []mcpTool{
		{name: "recommend", title: "Rank GPU offers for a workload",
			description: "Rank every GPU cloud offer that can run the workload by the objective (cost, time, tokens-per-dollar or balanced): predicted speed, total cost with its range, what limits it and what may break, as gpupick recommend -o json. The workload is an object of the workload schema (resource gpupick://schemas/workload.json) or its YAML text; examples are resources gpupick://examples/NAME.yaml.",
			route:       "POST /api/v1/recommend", in: reflect.TypeFor[withExclusions](), query: []string{"exclusions"}},
		{name: "predict", title: "Predict speed, memory and the bottleneck",
			description: "Predict a workload's throughput, step time, memory per GPU and bottleneck on an accelerator (gpu, gpus) or an offer, with the assumptions, an 80% interval and the nearest published measurements, as gpupick predict -o json.",
			route:       "POST /api/v1/predict", in: reflect.TypeFor[PredictRequest]()},
		{name: "check", title: "Check stack compatibility and compliance",
			description: "Judge whether the workload's software stack runs on an accelerator or offer (and what needs porting), and whether an offer in a region meets the workload's compliance requirements, with the due-diligence documents to read before signing, as gpupick check -o json.",
			route:       "POST /api/v1/check", in: reflect.TypeFor[CheckRequest]()},
		{name: "cost", title: "Break down the total cost on one offer",
			description: "Price the workload on one offer and pricing mode: compute, storage, egress, setup and porting, with the range and the warnings, as gpupick cost -o json.",
			route:       "POST /api/v1/cost", in: reflect.TypeFor[CostRequest]()},
		{name: "explain", title: "Tell the full story of one offer",
			description: "Explain one candidate offer for the workload: its plan, verdict, fix, speed, cost, risks and evidence, as gpupick recommend --explain.",
			route:       "POST /api/v1/explain", in: reflect.TypeFor[ExplainRequest]()},
		{name: "offers", title: "List GPU cloud offers",
			description: "List the catalog's offers, filtered (gpu, provider, region, country, pricing, price limits) and paged, as gpupick offers -o json.",
			route:       "GET /api/v1/offers", params: offerParams},
		{name: "gpus", title: "List accelerators",
			description: "List the catalog's accelerators with their memory, compute and bandwidth, as gpupick gpus -o json.",
			route:       "GET /api/v1/accelerators", params: acceleratorParams, wrap: "accelerators"},
		{name: "simulate", title: "Simulate a service's day",
			description: "Simulate a GPU service under its traffic and autoscaling policy (service: the service file; workload: its model), or search for the cheapest policy that meets the SLO (search: true): bounded as the API bounds jobs, with progress notifications, as gpupick simulate -o json.",
			route:       "POST /api/v1/simulations", in: reflect.TypeFor[SimulationRequest](), write: true},
	}
}

// inputSchema is a tool's JSON Schema: its request type's, as the
// OpenAPI document describes it (the workload and service schemas
// whole), made self-contained; or its query parameters.
func (t mcpTool) inputSchema() json.RawMessage {
	var o map[string]any
	if t.in == nil {
		props := map[string]any{}
		for _, p := range t.params {
			props[p.name] = map[string]any{"type": p.typ, "description": p.doc}
		}
		o = map[string]any{"type": "object", "properties": props}
	} else {
		ss := &schemaSet{defs: map[string]any{}}
		o = ss.object(t.in)
		if len(ss.defs) > 0 {
			o["$defs"] = ss.defs
		}
	}
	props, _ := o["properties"].(map[string]any)
	if l, ok := props["lang"].(map[string]any); ok {
		l["enum"] = []string{"en", "zh"}
		l["description"] = "the language of the sentences and of the summary: en (default) or zh"
	}
	b, err := json.Marshal(o)
	if err != nil {
		panic(err) // built from types: caught by the tests
	}
	return json.RawMessage(strings.ReplaceAll(string(b), "#/components/schemas/", "#/$defs/"))
}

// mcpSchemas are the tools' input schemas, built once (the workload's is
// some 48 kB, and over HTTP a server is built for each request).
var mcpSchemas = sync.OnceValue(func() []json.RawMessage {
	var out []json.RawMessage
	for _, t := range mcpTools() {
		out = append(out, t.inputSchema())
	}
	return out
})

// MCP is the MCP server for caller c: the tools, and the example
// workloads and file schemas as resources.
func (s *Server) MCP(c Caller) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "gpupick", Title: "gpupick: choose a GPU cloud server for a job", Version: Version},
		&mcp.ServerOptions{Instructions: mcpInstructions})
	for i, t := range mcpTools() {
		srv.AddTool(&mcp.Tool{Name: t.name, Title: t.title, Description: t.description, InputSchema: mcpSchemas()[i],
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: !t.write, OpenWorldHint: new(false)}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return s.callTool(ctx, c, t, req), nil
			})
	}
	for _, r := range mcpResources() {
		srv.AddResource(&r.Resource, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.URI, MIMEType: r.MIMEType, Text: string(r.text)}}}, nil
		})
	}
	return srv
}

// Version is what gpupick's MCP server says it is.
var Version = "dev"

const mcpInstructions = `gpupick chooses a GPU cloud server for one described workload. Write the workload as an object of the workload schema (resource gpupick://schemas/workload.json; examples at gpupick://examples/NAME.yaml), then call recommend to rank the offers; predict, check, cost and explain look closer at one accelerator or offer; offers and gpus list the catalog; simulate replays a service's day. Errors name the field to fix.`

// mcpResource is a resource with its text.
type mcpResource struct {
	mcp.Resource
	text []byte
}

// mcpResources are the example workloads and service files, and the JSON
// Schemas of the workload and service files.
func mcpResources() []mcpResource {
	var out []mcpResource
	names, _ := fs.Glob(examples.FS, "*.yaml")
	for _, n := range names {
		b, err := fs.ReadFile(examples.FS, n)
		if err != nil {
			continue
		}
		desc := "an example workload"
		if strings.HasPrefix(n, "service-") {
			desc = "an example service file (gpupick simulate)"
		}
		out = append(out, mcpResource{mcp.Resource{URI: "gpupick://examples/" + n, Name: strings.TrimSuffix(n, ".yaml"),
			Description: desc, MIMEType: "application/yaml", Size: int64(len(b))}, b})
	}
	for _, sc := range []struct {
		name, desc string
		gen        func() schema.Node
	}{{"workload", "the JSON Schema of a workload file", workload.JSONSchema}, {"service", "the JSON Schema of a service file (gpupick simulate)", autoscale.JSONSchema}} {
		b, err := json.MarshalIndent(sc.gen(), "", "  ")
		if err != nil {
			continue
		}
		out = append(out, mcpResource{mcp.Resource{URI: "gpupick://schemas/" + sc.name + ".json", Name: sc.name + "-schema",
			Description: sc.desc, MIMEType: "application/schema+json", Size: int64(len(b))}, b})
	}
	return out
}

// callTool runs one tool call as an API request and says the answer.
func (s *Server) callTool(ctx context.Context, c Caller, t mcpTool, req *mcp.CallToolRequest) *mcp.CallToolResult {
	var args map[string]json.RawMessage
	if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return toolError("arguments", "want a JSON object of the tool's input schema", nil)
		}
	}
	var lang string
	if l, ok := args["lang"]; ok {
		_ = json.Unmarshal(l, &lang)
	}
	l, err := parseLang(lang)
	if err != nil {
		return toolError("lang", "want en or zh", nil)
	}
	if req.Extra != nil && req.Extra.Header != nil {
		c.Header = req.Extra.Header
	}
	if t.write && !c.loopback() {
		if err := s.authorize(c.request(ctx, "POST", "/", nil)); err != nil {
			b := errorBodyIn(localized(err, l), l)
			return toolError("", report.Render(l, msg.New("%s: a tool that starts work on the server needs an API token from a caller on another machine (Authorization: Bearer TOKEN)", b.Message)), &b)
		}
	}
	method, p, _ := strings.Cut(t.route, " ")
	q := url.Values{}
	var body []byte
	if method == http.MethodGet {
		for k, v := range args {
			var x any
			if json.Unmarshal(v, &x) == nil {
				q.Set(k, fmt.Sprint(x))
			}
		}
	} else {
		for _, k := range t.query {
			if v, ok := args[k]; ok {
				var x string
				_ = json.Unmarshal(v, &x)
				q.Set(k, x)
				delete(args, k)
			}
		}
		if args == nil {
			args = map[string]json.RawMessage{}
		}
		body, _ = json.Marshal(args)
	}
	status, out := s.serveAPI(ctx, c, method, p, q, body)
	if status >= 300 {
		return apiToolError(out)
	}
	if t.name == "simulate" {
		return s.followJob(ctx, c, l, req, out)
	}
	return toolResult(l, t, out)
}

// request is an API request from c.
func (c Caller) request(ctx context.Context, method, p string, body []byte) *http.Request {
	r, _ := http.NewRequestWithContext(ctx, method, "http://localhost"+p, bytes.NewReader(body))
	r.RemoteAddr = c.RemoteAddr
	r.Host = "localhost"
	for _, h := range []string{"Authorization", cancelKeyHeader} {
		if v := c.Header.Get(h); v != "" {
			r.Header.Set(h, v)
		}
	}
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

// serveAPI runs one API request in process: the route's handler, its
// validation and limits, without the HTTP guards the MCP request itself
// has passed.
func (s *Server) serveAPI(ctx context.Context, c Caller, method, p string, q url.Values, body []byte) (int, []byte) {
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	r := c.request(ctx, method, p, body)
	w := &bufferWriter{header: http.Header{}}
	s.mux.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, w.body.Bytes()
}

// bufferWriter keeps what a handler writes.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *bufferWriter) Header() http.Header { return w.header }
func (w *bufferWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *bufferWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}

// toolResult is an API answer as a tool's result: the JSON as structured
// content (and as text, for clients that read only text), after a short
// summary in l.
func toolResult(l report.Lang, t mcpTool, out []byte) *mcp.CallToolResult {
	structured := json.RawMessage(out)
	if t.wrap != "" {
		structured, _ = json.Marshal(map[string]json.RawMessage{t.wrap: out})
	}
	return &mcp.CallToolResult{StructuredContent: structured,
		Content: []mcp.Content{&mcp.TextContent{Text: summarize(l, t.name, out)}, &mcp.TextContent{Text: string(structured)}}}
}

// apiToolError is an API error body as a tool error.
func apiToolError(out []byte) *mcp.CallToolResult {
	var e ErrorJSON
	if json.Unmarshal(out, &e) != nil || e.Error.Code == "" {
		return toolError("", string(out), nil)
	}
	return toolError(e.Error.Field, e.Error.Message, &e.Error)
}

// toolError is a tool error: a sentence naming the field, and the API's
// error body as structured content.
func toolError(field, text string, b *ErrorBody) *mcp.CallToolResult {
	if b == nil {
		// A bad argument is invalid; anything else is the service's failure.
		b = &ErrorBody{Code: string(apperr.Unavailable), Message: text}
		if field != "" {
			b.Code, b.Field, b.Message = string(apperr.Invalid), field, field+": "+text
		}
	}
	if field != "" && !strings.Contains(text, field) {
		text = field + ": " + text
	}
	return &mcp.CallToolResult{IsError: true, StructuredContent: ErrorJSON{Error: *b},
		Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// summarize says an API answer in a sentence or two, in l.
func summarize(l report.Lang, tool string, out []byte) string {
	switch tool {
	case "recommend":
		var d struct {
			Answer struct {
				Headline string `json:"headline"`
			} `json:"answer"`
			Summary string `json:"summary"`
		}
		if json.Unmarshal(out, &d) == nil {
			return strings.TrimSpace(d.Answer.Headline + "\n" + d.Summary)
		}
	case "predict":
		var p struct {
			Verdict    string `json:"verdict"`
			Throughput struct {
				Value float64 `json:"value"`
				Unit  string  `json:"unit"`
			} `json:"throughput"`
		}
		if json.Unmarshal(out, &p) == nil {
			return report.Render(l, msg.New("%.4g %s. %s", p.Throughput.Value, p.Throughput.Unit, msg.Text(p.Verdict)))
		}
	case "check":
		var v struct {
			Compat struct {
				Verdict string `json:"verdict"`
			} `json:"compat"`
			Compliance struct {
				Verdict string `json:"verdict"`
			} `json:"compliance"`
		}
		if json.Unmarshal(out, &v) == nil {
			return report.Render(l, msg.New("stack %s, compliance %s", v.Compat.Verdict, v.Compliance.Verdict))
		}
	case "explain":
		var e ExplainResponse
		if json.Unmarshal(out, &e) == nil {
			return e.Text
		}
	case "offers":
		var o struct {
			Items       []json.RawMessage
			Total, Page int
		}
		if json.Unmarshal(out, &o) == nil {
			return report.Render(l, msg.New("%d offers match; page %d shows %d.", o.Total, o.Page, len(o.Items)))
		}
	case "gpus":
		var a []json.RawMessage
		if json.Unmarshal(out, &a) == nil {
			return report.Render(l, msg.New("%d accelerators.", len(a)))
		}
	case "cost":
		var c struct {
			Offer string `json:"offer"`
			Cost  struct {
				Total, P10, P90 float64
			} `json:"cost_usd"`
		}
		if json.Unmarshal(out, &c) == nil && c.Offer != "" {
			return report.Render(l, msg.New("%s: $%.2f in all ($%.2f-%.2f with 80%% confidence).", c.Offer, c.Cost.Total, c.Cost.P10, c.Cost.P90))
		}
	case "simulate":
		var j struct {
			Result *struct {
				SLOMet  bool    `json:"slo_met"`
				CostUSD float64 `json:"cost_usd"`
				Advice  *struct {
					Sentence string `json:"sentence"`
				} `json:"advice"`
			} `json:"result"`
		}
		if json.Unmarshal(out, &j) == nil && j.Result != nil {
			m := msg.New("SLO met: %s; cost $%.2f.", map[bool]string{true: "yes", false: "no"}[j.Result.SLOMet], j.Result.CostUSD)
			if a := j.Result.Advice; a != nil && a.Sentence != "" {
				m = m.Then(msg.Text(a.Sentence))
			}
			return report.Render(l, m)
		}
	}
	return ""
}

// followJob waits for a simulation the API started, saying its progress
// (when the client asked for it with a progress token), and answers the
// finished job; a call cancelled by the client cancels the job.
func (s *Server) followJob(ctx context.Context, c Caller, l report.Lang, req *mcp.CallToolRequest, started []byte) *mcp.CallToolResult {
	var j JobJSON
	if err := json.Unmarshal(started, &j); err != nil || j.ID == "" {
		return toolError("", "the simulation did not start", nil)
	}
	jobPath := "/api/v1/simulations/" + url.PathEscape(j.ID)
	q := url.Values{"lang": {string(l)}}
	token := req.Params.GetProgressToken()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	last := -1.0
	for {
		status, out := s.serveAPI(ctx, c, http.MethodGet, jobPath, q, nil)
		if status >= 300 {
			return apiToolError(out)
		}
		var now JobJSON
		if err := json.Unmarshal(out, &now); err != nil {
			return toolError("", "unreadable simulation status", nil)
		}
		if token != nil && now.Progress != last && req.Session != nil {
			last = now.Progress
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: now.Progress, Total: 1,
				Message: report.Render(l, msg.New("simulation %s: %.0f%% done", now.Status, 100*now.Progress))})
		}
		switch now.Status {
		case JobDone:
			return toolResult(l, mcpTool{name: "simulate"}, out)
		case JobFailed, JobCancelled:
			if now.Error != nil {
				return toolError(now.Error.Field, now.Error.Message, now.Error)
			}
			return toolError("", report.Render(l, msg.New("the simulation ended %s", now.Status)), nil)
		}
		select {
		case <-ctx.Done():
			// The key the job's creation returned cancels it.
			cancel := Caller{RemoteAddr: c.RemoteAddr, Header: http.Header{cancelKeyHeader: {j.CancelKey}}}
			s.serveAPI(context.Background(), cancel, http.MethodDelete, jobPath, nil, nil)
			return toolError("", "cancelled", nil)
		case <-tick.C:
		}
	}
}
