package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPOverStdio runs `gpupick mcp` as a process (the test binary as
// gpupick) and talks to it with the SDK's client over stdin and stdout:
// initialize, tools/list, and a recommend call on the README example
// whose answer is recommend -o json on the same file.
func TestMCPOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gpupick mcp as a process")
	}
	cmd := exec.Command(os.Args[0], "mcp")
	cmd.Env = append(os.Environ(), childEnv+"=1", "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	defer session.Close()
	if got := session.InitializeResult().ServerInfo.Name; got != "gpupick" {
		t.Errorf("server %q, want gpupick", got)
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "check,cost,explain,gpus,offers,predict,recommend,simulate" {
		t.Errorf("tools %v", names)
	}

	const example = "../../examples/llama3-8b-lora.yaml" // the README's
	text, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "recommend",
		Arguments: map[string]any{"workload": string(text), "exclusions": "all", "top": 0}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("recommend: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	// The same process as the server: the embedded catalog, the same day.
	cli := exec.Command(os.Args[0], "recommend", "-f", example, "-o", "json", "--top", "0")
	cli.Env = cmd.Env
	outb, err := cli.Output()
	if err != nil {
		t.Fatalf("recommend -o json: %v", err)
	}
	out := string(outb)
	got, _ := json.Marshal(res.StructuredContent)
	if d := jsonDiff(t, got, []byte(out)); d != "" {
		t.Errorf("the recommend tool's answer differs from recommend -o json: %s", d)
	}
	if s := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(s, "Run it on") || !strings.Contains(s, "$") {
		t.Errorf("summary %q does not say the pick", s)
	}

	// A bad workload is a tool error naming the field, not a protocol error.
	bad, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "recommend",
		Arguments: map[string]any{"workload": "kind: llm-finetune\ntraining: {seq_lenn: 4}\n"}})
	if err != nil {
		t.Fatalf("a bad workload failed the call: %v", err)
	}
	if !bad.IsError || !strings.Contains(bad.Content[0].(*mcp.TextContent).Text, "training.seq_lenn") {
		t.Errorf("bad workload: isError %v, %v", bad.IsError, bad.Content)
	}
}

// jsonDiff says where two JSON documents differ ("" when they are equal
// as values): the first differing key path.
func jsonDiff(t *testing.T, a, b []byte) string {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		return "not JSON: " + err.Error()
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return "not JSON: " + err.Error()
	}
	return diffAt("", x, y)
}

func diffAt(path string, x, y any) string {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok {
			return path + ": object against another type"
		}
		for k := range xv {
			if _, ok := yv[k]; !ok {
				return path + "." + k + ": only in the first"
			}
		}
		for k := range yv {
			if _, ok := xv[k]; !ok {
				return path + "." + k + ": only in the second"
			}
			if d := diffAt(path+"."+k, xv[k], yv[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return path + ": arrays of different lengths"
		}
		for i := range xv {
			if d := diffAt(path+"["+itoa(i)+"]", xv[i], yv[i]); d != "" {
				return d
			}
		}
		return ""
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	if !bytes.Equal(xb, yb) {
		return path + ": " + string(xb) + " against " + string(yb)
	}
	return ""
}
