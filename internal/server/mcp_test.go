package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession connects an in-process client from the SDK to s's MCP server
// for caller c.
func mcpSession(t *testing.T, s *Server, c Caller, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP(c).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

// TestMCPToolsAnswerAsTheAPI calls every reading tool with a valid and an
// invalid input: a valid call's structured result is the API's JSON for
// the same request, with a summary in the language asked; an invalid
// one is a tool error that names the field, never a protocol error.
func TestMCPToolsAnswerAsTheAPI(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	cs := mcpSession(t, s, LocalCaller, nil)
	ctx := context.Background()
	lora := example(t, "llama3-8b-lora.yaml")
	for _, tt := range []struct {
		tool     string
		args     map[string]any
		api      string // METHOD PATH of the same request
		body     any
		wrap     string
		summary  string // in the valid answer's summary
		bad      map[string]any
		badField string
	}{
		{"recommend", map[string]any{"workload": lora, "top": 3, "lang": "zh"}, "POST /api/v1/recommend",
			map[string]any{"workload": lora, "top": 3, "lang": "zh"}, "", "运行", map[string]any{"workload": lora, "objective": "fastest"}, "objective"},
		{"predict", map[string]any{"workload": lora, "gpu": "h100-sxm", "gpus": 8}, "POST /api/v1/predict",
			map[string]any{"workload": lora, "gpu": "h100-sxm", "gpus": 8}, "", "tokens/s", map[string]any{"workload": lora, "gpu": "no-such-gpu"}, "gpu"},
		{"check", map[string]any{"workload": lora, "offer": "aws/p5.48xlarge"}, "POST /api/v1/check",
			map[string]any{"workload": lora, "offer": "aws/p5.48xlarge"}, "", "stack", map[string]any{"workload": lora, "offer": "nope/none"}, "offer"},
		{"cost", map[string]any{"workload": lora, "offer": "aws/p5.48xlarge", "lang": "zh"}, "POST /api/v1/cost",
			map[string]any{"workload": lora, "offer": "aws/p5.48xlarge", "lang": "zh"}, "", "aws/p5.48xlarge", map[string]any{"workload": lora}, "offer"},
		{"explain", map[string]any{"workload": lora, "offer": "aws/p5.48xlarge"}, "POST /api/v1/explain",
			map[string]any{"workload": lora, "offer": "aws/p5.48xlarge"}, "", "aws/p5.48xlarge", map[string]any{"workload": "kind: nope", "offer": "aws/p5.48xlarge"}, "kind"},
		{"offers", map[string]any{"gpu": "h100-sxm", "per_page": 5}, "GET /api/v1/offers?gpu=h100-sxm&per_page=5", nil, "", "offers match",
			map[string]any{"per_page": 9999}, "per_page"},
		{"gpus", map[string]any{"vendor": "amd"}, "GET /api/v1/accelerators?vendor=amd", nil, "accelerators", "accelerators",
			map[string]any{"min_memory_gb": "lots"}, "min_memory_gb"},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("valid call: %s", toolText(res))
			}
			method, path, _ := strings.Cut(tt.api, " ")
			body := ""
			if tt.body != nil {
				body = jsonBody(t, tt.body)
			}
			r := do(t, s.Handler(), method, path, body, "")
			if r.status != 200 {
				t.Fatalf("API: %d %s", r.status, r.body)
			}
			want := r.body
			if tt.wrap != "" {
				want = `{"` + tt.wrap + `":` + r.body + `}`
			}
			got, _ := json.Marshal(res.StructuredContent)
			if !jsonEqual(t, got, []byte(want)) {
				t.Errorf("structured result differs from the API's answer:\n got %.400s\nwant %.400s", got, want)
			}
			if !strings.Contains(toolText(res), tt.summary) {
				t.Errorf("summary does not say %q: %.300s", tt.summary, toolText(res))
			}

			bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.bad})
			if err != nil {
				t.Fatalf("an invalid input failed the call itself: %v", err)
			}
			var e ErrorJSON
			b, _ := json.Marshal(bad.StructuredContent)
			_ = json.Unmarshal(b, &e)
			if !bad.IsError || !strings.Contains(toolText(bad), tt.badField) || e.Error.Code == "" {
				t.Errorf("invalid input: isError %v, error %+v, text %q; want the field %q named", bad.IsError, e.Error, toolText(bad), tt.badField)
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// TestMCPListsToolsAndResources: every tool has an input schema that is
// the API request's (the workload schema whole, not a copy), and the
// examples and schemas are resources an assistant can read.
func TestMCPListsToolsAndResources(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	cs := mcpSession(t, s, LocalCaller, nil)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 8 {
		t.Fatalf("%d tools", len(tools.Tools))
	}
	for _, tl := range tools.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		if strings.Contains(string(b), "#/components/") {
			t.Errorf("%s: a reference outside its schema", tl.Name)
		}
		takesWorkload := tl.Name != "offers" && tl.Name != "gpus"
		if takesWorkload != strings.Contains(string(b), `"Workload":{`) || (takesWorkload && !strings.Contains(string(b), "llm-finetune")) {
			t.Errorf("%s: the workload schema missing or misplaced in %.200s", tl.Name, b)
		}
		if tl.Annotations == nil || tl.Annotations.ReadOnlyHint == (tl.Name == "simulate") {
			t.Errorf("%s: read-only hint %+v", tl.Name, tl.Annotations)
		}
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range res.Resources {
		uris[r.URI] = true
	}
	for _, u := range []string{"gpupick://examples/llama3-8b-lora.yaml", "gpupick://schemas/workload.json", "gpupick://schemas/service.json"} {
		if !uris[u] {
			t.Errorf("no resource %s in %v", u, uris)
		}
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gpupick://schemas/workload.json"})
	if err != nil || len(rr.Contents) != 1 || !json.Valid([]byte(rr.Contents[0].Text)) || !strings.Contains(rr.Contents[0].Text, `"kind"`) {
		t.Errorf("workload schema resource: %v %v", err, rr)
	}
}

// TestMCPSimulateReportsProgress: a simulation tool call follows the job
// to its end, saying its progress, and answers the finished job.
func TestMCPSimulateReportsProgress(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	var mu sync.Mutex
	var progress []float64
	cs := mcpSession(t, s, LocalCaller, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params.Progress)
		mu.Unlock()
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	params := &mcp.CallToolParams{Name: "simulate", Arguments: map[string]any{"service": example(t, "service-target.yaml")}}
	params.SetProgressToken("sim-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("simulate: %s", toolText(res))
	}
	var j JobJSON
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &j); err != nil || j.Status != JobDone || j.Result == nil {
		t.Fatalf("simulate answered %+v (%v)", j, err)
	}
	if !strings.Contains(toolText(res), "SLO met") {
		t.Errorf("summary %q", toolText(res))
	}
	// Notifications are delivered apart from the answer: wait a little.
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no progress notification")
		}
	}

	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "simulate", Arguments: map[string]any{"service": example(t, "service-model.yaml")}})
	if err != nil || !bad.IsError || !strings.Contains(toolText(bad), "workload") {
		t.Errorf("a model service without its workload: %v %q", err, toolText(bad))
	}
}

// TestMCPWritesNeedATokenFromAfar: a tool that starts work on the server
// (simulate) is refused to a caller on another machine without a token,
// and allowed with one; reading tools need none.
func TestMCPWritesNeedATokenFromAfar(t *testing.T) {
	s := testServer(t, nil)
	far := Caller{RemoteAddr: "203.0.113.9"}
	cs := mcpSession(t, s, far, nil)
	ctx := context.Background()
	svc := map[string]any{"service": example(t, "service-target.yaml")}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "simulate", Arguments: svc})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), "token") {
		t.Errorf("simulate from afar without a token: %v %q", err, toolText(res))
	}
	if r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gpus", Arguments: map[string]any{}}); err != nil || r.IsError {
		t.Errorf("a read from afar: %v %q", err, toolText(r))
	}
	token := addToken(t, s)
	withToken := mcpSession(t, s, Caller{RemoteAddr: far.RemoteAddr, Header: http.Header{"Authorization": {"Bearer " + token}}}, nil)
	if r, err := withToken.CallTool(ctx, &mcp.CallToolParams{Name: "simulate", Arguments: svc}); err != nil || r.IsError {
		t.Errorf("simulate from afar with a token: %v %q", err, toolText(r))
	}
}

// TestMCPOverHTTP: serve offers the tools at /mcp over streamable HTTP
// behind the API's guards: the SDK's client lists and calls them from
// this machine, and a request from another site's page is refused.
func TestMCPOverHTTP(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 8 {
		t.Fatalf("tools/list over HTTP: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gpus", Arguments: map[string]any{"vendor": "nvidia"}})
	if err != nil || res.IsError || !strings.Contains(toolText(res), "h100-sxm") {
		t.Errorf("gpus over HTTP: %v %.200q", err, toolText(res))
	}

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Origin got %d, want 403", resp.StatusCode)
	}
}

// TestMCPCancelledSimulateStopsItsJob: a client that gives up on a
// simulate call (a policy search, which runs for seconds) leaves no job
// running on the server.
func TestMCPCancelledSimulateStopsItsJob(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	cs := mcpSession(t, s, LocalCaller, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "simulate",
		Arguments: map[string]any{"service": example(t, "service-model.yaml"), "workload": example(t, "llama3-70b-chat.yaml"), "search": true}})
	if err == nil {
		t.Skip("the search finished within 300 ms: nothing to cancel")
	}
	s.jobs.mu.Lock()
	started := len(s.jobs.byID)
	s.jobs.mu.Unlock()
	if started == 0 {
		t.Fatal("no job was started")
	}
	waitStopped(t, s)
	s.jobs.mu.Lock()
	defer s.jobs.mu.Unlock()
	for id, j := range s.jobs.byID {
		if j.status != JobCancelled {
			t.Errorf("job %s ended %s, want cancelled by the call's end", id, j.status)
		}
	}
}
