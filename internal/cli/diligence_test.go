package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// checkDoc is what these tests read of check -o json.
type checkDoc struct {
	Compliance struct {
		Requirements []struct {
			Name, Verdict, Reason, Source string
		} `json:"requirements"`
	} `json:"compliance"`
	DueDiligence []struct {
		Document, Title, Why, Access, Where string
		Serves                              []string
	} `json:"due_diligence"`
}

func checkJSON(t *testing.T, args ...string) checkDoc {
	t.Helper()
	out, errOut, code := runOnEmbedded(t, append([]string{"check", "-o", "json"}, args...)...)
	if code == 2 {
		t.Fatalf("check %v: exit 2: %s", args, errOut)
	}
	var d checkDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("check %v: %v\n%s", args, err, out)
	}
	return d
}

// TestISO42001InTheEU: a workload that needs ISO/IEC 42001 in the EU is
// judged per offer by the scope each provider's certificate states, with
// its source: Azure's names AI services only (fail), Google's does not say
// whether it covers compute (unknown), Nebius lists none (unknown).
func TestISO42001InTheEU(t *testing.T) {
	for _, tc := range []struct {
		offer, region, verdict, reason string
		sourced                        bool
	}{
		{"azure/Standard_NC24ads_A100_v4", "westeurope", "fail", "does not include its GPU compute", true},
		{"gcp/a2-highgpu-1g", "europe-west4", "unknown", "usually name AI services", true},
		{"nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb", "", "unknown", "does not list ISO42001", false},
	} {
		args := []string{"-f", "../../examples/eu-ai-act-assistant.yaml", "--offer", tc.offer}
		if tc.region != "" {
			args = append(args, "--region", tc.region)
		}
		d := checkJSON(t, args...)
		found := false
		for _, q := range d.Compliance.Requirements {
			if q.Name != "certification:ISO42001" {
				continue
			}
			found = true
			if q.Verdict != tc.verdict || !strings.Contains(q.Reason, tc.reason) || (q.Source != "") != tc.sourced {
				t.Errorf("%s: %s %q (source %q); want %s containing %q", tc.offer, q.Verdict, q.Reason, q.Source, tc.verdict, tc.reason)
			}
		}
		if !found {
			t.Errorf("%s: no ISO42001 verdict", tc.offer)
		}
		// The certificate's scope statement is on the list to read.
		ok := false
		for _, x := range d.DueDiligence {
			ok = ok || x.Document == "certificate:ISO42001"
		}
		if !ok {
			t.Errorf("%s: the due-diligence list lacks the ISO42001 scope statement", tc.offer)
		}
	}
}

// TestCheckDueDiligence: check --offer lists at least five documents, each
// with a reason, what it serves and where to get it; the provider's
// published links are used; text output prints them; --gpu alone, which
// judges no offer, lists none.
func TestCheckDueDiligence(t *testing.T) {
	d := checkJSON(t, "-f", "../../examples/llama3-70b-chat.yaml", "--offer", "nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb")
	if len(d.DueDiligence) < 5 {
		t.Fatalf("%d due-diligence items, want at least 5", len(d.DueDiligence))
	}
	where := map[string]string{}
	for _, x := range d.DueDiligence {
		if x.Why == "" || len(x.Serves) == 0 || (x.Access != "published" && x.Access != "request") {
			t.Errorf("item %+v lacks a reason, what it serves or how to get it", x)
		}
		where[x.Document] = x.Where
	}
	// Nebius publishes its DPA and sub-processor list (providers.yaml).
	for doc, want := range map[string]string{"dpa": "https://docs.nebius.com/legal/dpa", "subprocessors": "https://docs.nebius.com/legal/sub-processors"} {
		if where[doc] != want {
			t.Errorf("%s at %q, want the provider's %q", doc, where[doc], want)
		}
	}
	out, _, _ := runOnEmbedded(t, "check", "-f", "../../examples/llama3-70b-chat.yaml", "--offer", "nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb")
	if !strings.Contains(out, "Before signing, read or request") || !strings.Contains(out, "published: https://docs.nebius.com/legal/dpa") {
		t.Errorf("text output lacks the due-diligence list:\n%s", out)
	}
	zh, _, _ := runOnEmbedded(t, "check", "--lang", "zh", "-f", "../../examples/llama3-70b-chat.yaml", "--offer", "nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb")
	if !strings.Contains(zh, "签约前应阅读或索取的文件") || !strings.Contains(zh, "数据处理协议") {
		t.Errorf("Chinese output lacks the due-diligence list:\n%s", zh)
	}
	if g := checkJSON(t, "-f", "../../examples/llama3-70b-chat.yaml", "--gpu", "h100-sxm"); len(g.DueDiligence) != 0 {
		t.Errorf("--gpu alone judges no offer, yet lists %d documents", len(g.DueDiligence))
	}
}
