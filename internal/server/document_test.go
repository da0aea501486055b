package server

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpupick/gpupick/internal/apperr"
)

// asObject is a YAML example as the JSON object a client would send.
func asObject(t *testing.T, text string) json.RawMessage {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(v, "", "\t") // tabs: YAML refuses them as indentation, JSON allows them
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withObject is a request body with field set to a raw JSON value.
func withObject(t *testing.T, req any, field string, raw json.RawMessage) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(jsonBody(t, req)), &m); err != nil {
		t.Fatal(err)
	}
	m[field] = raw
	return jsonBody(t, m)
}

// TestWorkloadAsObject: the workload (and a service) may be a JSON object;
// it answers what its text answers, and its mistakes are named as the
// text's are, by field path, without the lines of a text.
func TestWorkloadAsObject(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	lora := example(t, "llama3-8b-lora.yaml")
	for _, tc := range []struct {
		path string
		req  any
	}{
		{"/api/v1/validate", ValidateRequest{Workload: Text(lora)}},
		{"/api/v1/predict", PredictRequest{Workload: Text(lora), GPU: "h100-sxm", GPUs: 8}},
		{"/api/v1/recommend", RecommendRequest{Workload: Text(lora)}},
		{"/api/v1/cost", CostRequest{Workload: Text(lora), Offer: "aws/p5.48xlarge"}},
		{"/api/v1/check", CheckRequest{Workload: Text(lora), GPU: "mi300x"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			text := do(t, h, "POST", tc.path, jsonBody(t, tc.req), "")
			obj := do(t, h, "POST", tc.path, withObject(t, tc.req, "workload", asObject(t, lora)), "")
			if text.status != 200 || obj.status != 200 {
				t.Fatalf("text %d, object %d: %s", text.status, obj.status, obj.body)
			}
			if text.body != obj.body {
				t.Errorf("the object's answer differs from the text's:\n%s\n%s", obj.body, text.body)
			}
		})
	}

	// The same mistakes, named the same way.
	bad := strings.Replace(lora, "seq_len: 4096", "seq_len: 4096\n  bogus: 1\n  extra: 2", 1)
	textErr := do(t, h, "POST", "/api/v1/predict", jsonBody(t, PredictRequest{Workload: Text(bad), GPU: "h100-sxm"}), "")
	objErr := do(t, h, "POST", "/api/v1/predict", withObject(t, PredictRequest{GPU: "h100-sxm"}, "workload", asObject(t, bad)), "")
	if textErr.status != 400 || objErr.status != 400 {
		t.Fatalf("bad workload: text %d, object %d", textErr.status, objErr.status)
	}
	te, oe := textErr.errorOf(t), objErr.errorOf(t)
	if te.Field != "training.bogus" || oe.Field != te.Field {
		t.Errorf("fields: text %q, object %q; want training.bogus", te.Field, oe.Field)
	}
	if oe.Line != 0 || te.Line == 0 {
		t.Errorf("lines: text %d, object %d; want the text's only", te.Line, oe.Line)
	}
	if len(oe.Errors) != len(te.Errors) || len(te.Errors) != 2 {
		t.Fatalf("problems: text %v, object %v", te.Errors, oe.Errors)
	}
	for i := range te.Errors {
		if te.Errors[i].Field != oe.Errors[i].Field || te.Errors[i].Message != oe.Errors[i].Message {
			t.Errorf("problem %d: text %+v, object %+v", i, te.Errors[i], oe.Errors[i])
		}
	}

	// A wrong type names the field; a type error inside names its path.
	for _, tc := range []struct{ raw, field, msg string }{
		{`42`, "workload", "want a JSON object or a string of YAML or JSON text, got number"},
		{`["kind"]`, "workload", "got array"},
		{`{"kind": "generic", "generic": {"items": "many", "flops_per_item": 1}}`, "generic.items", ""},
		{`{"kind": "generic", "generic": {"items": 1, "flops_per_item": 1}, "constraints": {"pricing": "spot"}}`, "constraints.pricing", "want a list"},
		{`null`, "workload", "is required"},
		{`{}`, "kind", "required"},
	} {
		r := do(t, h, "POST", "/api/v1/predict", withObject(t, PredictRequest{GPU: "h100-sxm"}, "workload", json.RawMessage(tc.raw)), "")
		if r.status != 400 {
			t.Errorf("%s: %d %s", tc.raw, r.status, r.body)
			continue
		}
		if e := r.errorOf(t); e.Field != tc.field || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s: field %q, message %q; want %q, %q", tc.raw, e.Field, e.Message, tc.field, tc.msg)
		}
	}
}

// TestServiceAsObject: a simulation's service and workload, and an
// export's policy, may be objects.
func TestServiceAsObject(t *testing.T) {
	s := testServer(t, func(c *Config) { c.DB = "" })
	h := s.Handler()
	body := withObject(t, SimulationRequest{}, "service", asObject(t, example(t, "service-fixed.yaml")))
	r := do(t, h, "POST", "/api/v1/simulations", body, "")
	if r.status != 202 {
		t.Fatalf("service as object: %d %s", r.status, r.body)
	}
	body = withObject(t, SimulationRequest{}, "service", json.RawMessage(`{"traffic": {"kind": "poisson", "rate_per_s": 1, "tide": 2}}`))
	if r := do(t, h, "POST", "/api/v1/simulations", body, ""); r.status != 400 || r.errorOf(t).Field != "traffic.tide" {
		t.Errorf("unknown service key: %d %s", r.status, r.body)
	}
	chat := example(t, "llama3-70b-chat.yaml")
	req := withObject(t, ExportRequest{Workload: Text(chat)}, "policy", asObject(t, example(t, "service-target.yaml")))
	if r := do(t, h, "POST", "/api/v1/export/keda", req, ""); r.status != 200 || !strings.Contains(r.body, "scaledobject.yaml") {
		t.Errorf("export with a policy object: %d %s", r.status, r.body)
	}
}

// FuzzDocument: whatever a request body holds, reading its workload never
// panics, a failure is an input error, and an object's errors carry no
// line.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{
		`{"workload": {"kind": "generic", "generic": {"items": 1, "flops_per_item": 1}}}`,
		`{"workload": "kind: generic\ngeneric: {items: 1}\n"}`,
		`{"workload": {"kind": "llm-train", "training": {"seq_len": "long", "tokens": -1}, "x": [1, {"y": null}]}}`,
		`{"workload": 3}`, `{"workload": null}`, `{"workload": "\u0000"}`,
		`{"workload": {"kind": "generic", "kind": "llm-train"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req ValidateRequest
		if json.Unmarshal(body, &req) != nil {
			return
		}
		_, err := parseWorkload(req.Workload)
		if err == nil {
			return
		}
		b := errorBody(err)
		if b.Code != string(apperr.Invalid) && b.Code != string(apperr.NotFound) {
			t.Fatalf("code %s: %v", b.Code, err)
		}
		if req.Workload.IsObject() {
			if b.Line != 0 {
				t.Errorf("an object's error has line %d: %v", b.Line, err)
			}
			for _, e := range b.Errors {
				if e.Line != 0 {
					t.Errorf("an object's error has line %d: %v", e.Line, err)
				}
			}
		}
	})
}
