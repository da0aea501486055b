package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gpupick/gpupick/data"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixedNow is the clock of every golden test, so stale flags do not move.
var fixedNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// run executes gpupick in process on the small fixture catalog, with an
// empty environment.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runEnv(t, nil, args...)
}

func runEnv(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := NewEnv(&out, &errb)
	e.Now = func() time.Time { return fixedNow }
	e.Embedded = os.DirFS("../catalog/testdata/mini")
	e.Getenv = func(k string) string {
		if k == "GPUPICK_DB" && env[k] == "" {
			return filepath.Join(t.TempDir(), "no-store.db") // never the user's own store
		}
		return env[k]
	}
	code = Execute(e, args)
	return out.String(), errb.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update if the change is intended)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"gpus.txt", []string{"gpus"}},
		{"gpus.json", []string{"gpus", "-o", "json"}},
		{"gpus.csv", []string{"gpus", "-o", "csv"}},
		{"offers.txt", []string{"offers"}},
		{"offers.json", []string{"offers", "-o", "json"}},
		{"offers.csv", []string{"offers", "-o", "csv"}},
		{"offers-h100-8-spot.txt", []string{"offers", "--gpu", "H100:8", "--pricing", "spot", "--sort", "price-per-gpu"}},
		{"offers-prices.txt", []string{"offers", "--prices", "testdata/prices.yaml"}},
		{"offers-prices.json", []string{"offers", "--prices", "testdata/prices.yaml", "--provider", "aws", "-o", "json"}},
		{"providers.txt", []string{"providers"}},
		{"providers.json", []string{"providers", "-o", "json"}},
		{"providers.csv", []string{"providers", "-o", "csv"}},
		{"gpus-zh.txt", []string{"gpus", "--lang", "zh"}},
		{"offers-zh.txt", []string{"offers", "--lang", "zh"}},
		{"offers-prices.csv", []string{"offers", "--prices", "testdata/prices.yaml", "-o", "csv"}},
		{"providers-zh.txt", []string{"providers", "--lang", "zh"}},
		{"help.txt", []string{"--help"}},
		{"offers-help.txt", []string{"offers", "--help"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// TestChineseLANG: a Chinese LANG gives Chinese output when --lang is not
// given, and --lang en overrides it, on every command that takes --lang.
func TestChineseLANG(t *testing.T) {
	zh := map[string]string{"LANG": "zh_CN.UTF-8"}
	for _, args := range [][]string{
		{"gpus"}, {"offers"}, {"providers"},
		{"predict", "-f", "testdata/chat-8b.yaml", "--gpu", "h100-sxm"},
		{"check", "-f", "testdata/chat-8b.yaml", "--gpu", "h100-sxm"},
		{"simulate", "-f", "testdata/service-trace.yaml"},
		{"cost", "-f", "testdata/chat-8b.yaml", "--offer", "aws/p5.48xlarge"},
	} {
		out, errOut, _ := runEnv(t, zh, args...)
		if !hasHan(out) {
			t.Errorf("%v with LANG=zh_CN: no Chinese in the output (stderr %q):\n%s", args, errOut, out)
		}
		out, _, _ = runEnv(t, zh, append(args, "--lang", "en")...)
		if hasHan(out) {
			t.Errorf("%v --lang en with LANG=zh_CN: Chinese in the output:\n%s", args, out)
		}
	}
	if _, errOut, code := run(t, "gpus", "--lang", "fr"); code != 2 || !strings.Contains(errOut, "--lang: want en or zh") {
		t.Errorf("--lang fr: exit %d, %q", code, errOut)
	}
	// An error is in the language asked for too, with its exit status.
	_, errOut, code := run(t, "offers", "--gpu", "h100-sxm", "--max-price", "1", "--lang", "zh")
	if code != 1 || !hasHan(errOut) || !strings.HasPrefix(errOut, "gpupick: ") {
		t.Errorf("offers --lang zh with nothing qualifying: exit %d, %q", code, errOut)
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// TestCSVValues: every -o csv listing writes values a spreadsheet can use:
// numbers without units or formatting, true/false flags, empty cells for
// unknown, and a unit in every numeric header.
func TestCSVValues(t *testing.T) {
	for _, args := range [][]string{
		{"gpus", "-o", "csv"}, {"offers", "-o", "csv"}, {"providers", "-o", "csv"},
		{"offers", "--prices", "testdata/prices.yaml", "-o", "csv"},
	} {
		out, errOut, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("%v: %v, %d records", args, err, len(recs))
		}
		header := recs[0]
		for _, r := range recs[1:] {
			for i, cell := range r {
				key := header[i]
				switch {
				case cell == "":
				case cell == "-" || cell == "*" || strings.HasSuffix(cell, "%") || cell == "unknown" || cell == "yes" || cell == "no":
					t.Errorf("%v: %s = %q is a display string", args, key, cell)
				case key == "stale" || key == "cloud_act" || key == "prices_stale" || key == "customer_managed_keys" || key == "confidential_gpu_vms":
					if cell != "true" && cell != "false" {
						t.Errorf("%v: %s = %q, want true or false", args, key, cell)
					}
				case numericKey(key):
					if _, err := strconv.ParseFloat(cell, 64); err != nil {
						t.Errorf("%v: %s = %q is not a number", args, key, cell)
					}
				}
			}
		}
	}
}

// numericKey reports whether a CSV column holds numbers: its name ends in
// its unit, or it is a count.
func numericKey(k string) bool {
	for _, suf := range []string{"_usd", "_gib", "_gb_s", "_gbps", "_tflops", "_w", "_hour", "_h", "_s", "_gb", "_count", "vcpus", "offers", "_first_tier"} {
		if strings.HasSuffix(k, suf) {
			return true
		}
	}
	return false
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"unknown gpu", []string{"offers", "--gpu", "h999"}, 2, `--gpu: unknown accelerator "h999"`},
		{"bad count", []string{"offers", "--gpu", "h100:zero"}, 2, "--gpu: the count after ':'"},
		{"bad format", []string{"gpus", "-o", "yaml"}, 2, `-o: want table, json, csv, got "yaml"`},
		{"bad pricing", []string{"offers", "--pricing", "weekly"}, 2, "--pricing: want one of on-demand"},
		{"bad sort", []string{"offers", "--sort", "speed"}, 2, "--sort: want price"},
		{"unknown flag", []string{"offers", "--gpus", "4"}, 2, "unknown flag: --gpus"},
		{"unknown command", []string{"recomend"}, 2, `unknown command "recomend"`},
		{"unknown provider", []string{"offers", "--provider", "aws,nocloud"}, 2, `--provider: unknown provider "nocloud"`},
		{"nothing qualifies", []string{"offers", "--gpu", "h100-sxm", "--max-price", "1"}, 1,
			"no offer qualifies: of 4 offers, --gpu h100-sxm removed 2, --max-price 1 removed 2"},
		{"missing prices file", []string{"offers", "--prices", "testdata/nope.yaml"}, 2, "--prices: cannot read"},
		{"bad prices file", []string{"offers", "--prices", "testdata/bad-prices.yaml"}, 2, "testdata/bad-prices.yaml:3: rules[0].discount: unknown key"},
		{"bad catalog dir", []string{"offers", "--catalog", "testdata/bad-catalog"}, 2, "testdata/bad-catalog/offers/aws.csv:2: price_on_demand: must be > 0"},
		{"unknown vendor", []string{"gpus", "--vendor", "nvidai"}, 2, `--vendor: unknown vendor "nvidai"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.contains) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.contains)
			}
			if out != "" {
				t.Errorf("stdout must stay empty on error, got %q", out)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Errorf("stack trace reached the user: %s", errOut)
			}
		})
	}
}

func TestCatalogValidate(t *testing.T) {
	out, errOut, code := run(t, "catalog", "validate", "testdata/user-catalog")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "ok (0 accelerators, 0 providers, 0 regions, 1 offers in its files; 5 offers after layering") {
		t.Errorf("unexpected output %q", out)
	}
	_, errOut, code = run(t, "catalog", "validate", "testdata/bad-catalog")
	if code != 2 || !strings.Contains(errOut, "testdata/bad-catalog/offers/aws.csv:2: price_on_demand") {
		t.Errorf("bad catalog: exit %d, stderr %q", code, errOut)
	}
	// A directory that is not there is an error, not an empty catalog.
	for _, args := range [][]string{{"catalog", "validate", "testdata/nope"}, {"--catalog", "testdata/nope", "offers"}} {
		if _, errOut, code := run(t, args...); code != 2 || !strings.Contains(errOut, "testdata/nope: not a readable directory") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	// Every problem of a file together: a syntax error does not hide a
	// row that names an unknown accelerator, which gets its line.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "offers"), 0o755)
	os.WriteFile(filepath.Join(dir, "offers", "aws.csv"), []byte("provider,instance_type,region,gpu,gpu_count,price_on_demand,currency,source,as_of\n"+
		"aws,x1,us-east-1,nosuchgpu,1,2,USD,s,2026-01-01\n\"unterminated\n"), 0o644)
	_, errOut, code = run(t, "catalog", "validate", dir)
	if code != 2 || !strings.Contains(errOut, "offers/aws.csv:3: malformed CSV") || !strings.Contains(errOut, "offers/aws.csv:2: gpu:") {
		t.Errorf("both problems with their lines: exit %d, stderr %q", code, errOut)
	}
	out, _, code = run(t, "--catalog", "testdata/user-catalog", "offers", "--gpu", "a10g")
	if code != 0 || !strings.Contains(out, "aws/g5.2xlarge") {
		t.Errorf("--catalog did not add the user's row: exit %d\n%s", code, out)
	}
}

// TestEmbeddedCatalog runs the real commands on the embedded catalog: it
// must load without a problem and answer the README's first command.
func TestEmbeddedCatalog(t *testing.T) {
	var out, errb bytes.Buffer
	e := NewEnv(&out, &errb)
	e.Embedded = data.FS
	e.Getenv = noStore(t)
	if code := Execute(e, []string{"offers", "--gpu", "h100-sxm:8"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "aws/p5.48xlarge") {
		t.Errorf("the README's command lost aws/p5.48xlarge:\n%s", out.String())
	}
}

// TestExamplesOnEmbeddedCatalog runs recommend and predict for every
// example workload on the real catalog: each must give ranked candidates.
func TestExamplesOnEmbeddedCatalog(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) < 10 {
		t.Fatalf("want at least six examples, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var out, errb bytes.Buffer
			e := NewEnv(&out, &errb)
			e.Now = func() time.Time { return fixedNow }
			e.Getenv = noStore(t)
			if strings.HasPrefix(filepath.Base(f), "service-") {
				// A service file: simulate it on the real catalog.
				if code := Execute(e, []string{"simulate", "-f", f, "-o", "json"}); code != 0 {
					t.Fatalf("simulate exit %d: %s", code, errb.String())
				}
				var r struct {
					Completed int64 `json:"completed"`
				}
				if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Completed == 0 {
					t.Fatalf("simulate: %v, %d completed", err, r.Completed)
				}
				return
			}
			if strings.Contains(f, "disagg") {
				// Prefill and decode pools: on the cluster its comment
				// names, the decode pool is one EP48 group.
				if code := Execute(e, []string{"predict", "-f", f, "--gpu", "gb200", "--gpus", "56", "-o", "json"}); code != 0 {
					t.Fatalf("predict exit %d: %s", code, errb.String())
				}
				var p struct {
					Fits        bool `json:"fits"`
					Parallelism struct {
						PrefillGPUs int `json:"prefill_gpus"`
						Expert      int `json:"expert"`
					} `json:"parallelism"`
				}
				if err := json.Unmarshal(out.Bytes(), &p); err != nil || !p.Fits || p.Parallelism.PrefillGPUs != 8 || p.Parallelism.Expert != 48 {
					t.Fatalf("predict: %v, %+v: want 8 prefill GPUs and an EP48 decode pool", err, p)
				}
				out.Reset()
			}
			code := Execute(e, []string{"recommend", "-f", f, "-o", "json", "--top", "3"})
			var doc struct {
				Candidates []struct {
					Offer string `json:"offer"`
				} `json:"candidates"`
				Excluded []struct {
					ReasonCode string `json:"reason_code"`
				} `json:"excluded"`
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if code == 1 && len(doc.Candidates) == 0 && (strings.Contains(f, "marco") || strings.Contains(f, "eu-ai-act")) {
				// The bank's full compliance block, and ISO/IEC 42001 on
				// GPU compute in the EU: nothing in the catalog qualifies,
				// and every offer says why.
				for _, x := range doc.Excluded {
					if x.ReasonCode == "" {
						t.Error("an exclusion without a reason")
					}
				}
				return
			}
			if code != 0 || len(doc.Candidates) == 0 {
				t.Fatalf("recommend exit %d, %d candidates: %s", code, len(doc.Candidates), errb.String())
			}
			t.Logf("best: %s", doc.Candidates[0].Offer)
		})
	}
}

// noStore is an environment whose catalog store does not exist, so tests
// never read the user's own store.
func noStore(t *testing.T) func(string) string {
	db := filepath.Join(t.TempDir(), "no-store.db")
	return func(k string) string {
		if k == "GPUPICK_DB" {
			return db
		}
		return ""
	}
}

func TestServeTrustedProxyFlag(t *testing.T) {
	got, err := parsePrefixes([]string{"10.0.0.0/8", " 192.0.2.7", "2001:db8::/32", "10.1.2.3/8"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32", "10.0.0.0/8"}
	for i, p := range got {
		if p.String() != want[i] {
			t.Errorf("prefix %d: %s, want %s", i, p, want[i])
		}
	}
	_, errOut, code := run(t, "serve", "--trusted-proxy", "10.0.0.0/8,lb.internal")
	if code != 2 || !strings.Contains(errOut, "--trusted-proxy") || !strings.Contains(errOut, "lb.internal") {
		t.Errorf("a bad --trusted-proxy: exit %d, %s", code, errOut)
	}
}

// TestSamplePriceOverlay: the README's sample overlay parses against the
// embedded catalog and sets the price its first rule names.
func TestSamplePriceOverlay(t *testing.T) {
	var out, errb bytes.Buffer
	e := NewEnv(&out, &errb)
	e.Now = func() time.Time { return fixedNow }
	e.Getenv = noStore(t)
	code := Execute(e, []string{"--prices", "../../examples/prices/my-prices.yaml", "offers", "--provider", "lambda", "--gpu", "h100-sxm", "-o", "json"})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Lambda reserved contract") || !strings.Contains(out.String(), "19.9") {
		t.Errorf("the sample's first rule set no price: %.400s", out.String())
	}
}
