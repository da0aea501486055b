package autoscale

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

func readAll(t testing.TB, format, data string, opt TraceOptions) ([]Request, error) {
	t.Helper()
	src, err := ReadTrace(format, strings.NewReader(data), opt)
	if err != nil {
		return nil, err
	}
	var out []Request
	for {
		r, ok := src.Next()
		if !ok {
			break
		}
		out = append(out, r)
	}
	return out, src.Err()
}

func TestReadTrace(t *testing.T) {
	opt := TraceOptions{PromptTokens: 7, OutputTokens: 3}
	for _, tc := range []struct {
		file, format string
		opt          TraceOptions
		want         []Request
	}{
		{"azure.csv", FormatAzure, opt, []Request{{0, 374, 44}, {4.314579, 396, 109}, {4.442988, 879, 55}, {6.31941, 91, 16}, {13.81941, 1200, 0}}},
		{"burstgpt.csv", FormatBurstGPT, opt, []Request{{0, 472, 18}, {40, 1087, 0}, {113, 417, 276}, {113, 1360, 192}, {195.5, 88, 12}}},
		{"burstgpt.csv", FormatBurstGPT, TraceOptions{TimeScale: 2}, []Request{{0, 472, 18}, {20, 1087, 0}, {56.5, 417, 276}, {56.5, 1360, 192}, {97.75, 88, 12}}},
		{"plain.csv", FormatPlain, opt, []Request{{0, 100, 20}, {0.5, 200, 3}, {1.25, 7, 3}, {3, 50, 5}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(t, tc.format, string(data), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].ArrivalS = float64(int64(got[i].ArrivalS*1e6+0.5)) / 1e6
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestReadTraceErrors(t *testing.T) {
	for _, tc := range []struct {
		file, format string
		line         int
		field, msg   string
		good         int
	}{
		{"azure-bad.csv", FormatAzure, 4, "TIMESTAMP", "want a time", 2},
		{"azure-bad-tokens.csv", FormatAzure, 3, "ContextTokens", "whole number", 1},
		{"burstgpt-bad.csv", FormatBurstGPT, 3, "Timestamp", "backwards", 1},
		{"plain-bad.csv", FormatPlain, 2, "prompt_tokens", "whole number", 1},
		{"plain.csv", FormatAzure, 1, "", "want the header", 0},
		{"azure.csv", FormatBurstGPT, 1, "", "want the header", 0},
	} {
		t.Run(tc.file+"/"+tc.format, func(t *testing.T) {
			data, _ := os.ReadFile("testdata/" + tc.file)
			got, err := readAll(t, tc.format, string(data), TraceOptions{})
			var e *apperr.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *apperr.Error", err)
			}
			if e.Line != tc.line || e.Field != tc.field || !strings.Contains(e.Text(), tc.msg) || e.Code != apperr.Invalid {
				t.Errorf("err = %q (line %d, field %q), want line %d, field %q, %q", e, e.Line, e.Field, tc.line, tc.field, tc.msg)
			}
			if len(got) != tc.good {
				t.Errorf("%d good rows before the error, want %d", len(got), tc.good)
			}
		})
	}
	if _, err := ReadTrace("parquet", strings.NewReader(""), TraceOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := ReadTrace(FormatPlain, strings.NewReader(""), TraceOptions{TimeScale: -1}); err == nil {
		t.Error("negative time scale accepted")
	}
}

// A trace error surfaces from Simulate with its line.
func TestSimulateTraceError(t *testing.T) {
	spec := mustSpec(t, `{traffic: {kind: trace, format: azure}, service: {kind: distribution, mean_s: 1}, policy: {kind: fixed, replicas: 1}, pricing: {per_hour_usd: 1}}`)
	data, _ := os.ReadFile("testdata/azure-bad.csv")
	src, _ := ReadTrace(FormatAzure, strings.NewReader(string(data)), TraceOptions{})
	_, err := Simulate(spec, src, nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("err = %v, want the bad line", err)
	}
}

// The synthetic sample trace in examples/ replays through a fixed fleet.
func TestExampleTrace(t *testing.T) {
	f, err := os.Open("../../examples/traces/sample-azure-synthetic.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec := mustSpec(t, `{traffic: {kind: trace, format: azure}, service: {kind: distribution, mean_s: 1}, policy: {kind: fixed, replicas: 2}, pricing: {per_hour_usd: 1}}`)
	src, err := ReadTrace(FormatAzure, f, TraceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(spec, src, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests < 200 || res.Completed != res.Requests {
		t.Errorf("requests %d, completed %d", res.Requests, res.Completed)
	}
}

// TestTraceWithByteOrderMark reads traces saved by a spreadsheet, which
// begin with a UTF-8 byte-order mark, exactly like the same files without.
func TestTraceWithByteOrderMark(t *testing.T) {
	for file, format := range map[string]string{"azure.csv": FormatAzure, "burstgpt.csv": FormatBurstGPT, "plain.csv": FormatPlain} {
		data, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readAll(t, format, string(data), TraceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, format, "\ufeff"+string(data), TraceOptions{})
		if err != nil {
			t.Errorf("%s with a byte-order mark: %v", file, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s with a byte-order mark: got %v, want %v", file, got, want)
		}
	}
}
