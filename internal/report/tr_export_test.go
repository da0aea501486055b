package report_test

import (
	"errors"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/export"
	message "github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/workload"
)

// TestExportSentencesTranslated: the sentences an export writes for
// people outside its documents (one per other software family, on stderr
// and in the API's notes) and its refusals for want of an image are
// Chinese under --lang zh, for every family and every framework the
// exporters know. The export package is not among the domain packages the
// coverage test reads (its documents are English); this test is its
// coverage.
func TestExportSentencesTranslated(t *testing.T) {
	allowed := trAllowedWords(t)
	// Ids the sentences carry as they are: workload frameworks.
	for _, f := range workload.Frameworks() {
		allowed[string(f)] = true
	}
	gpus := map[string]*catalog.Accelerator{
		"nvidia": {ID: "h100-sxm", Vendor: "nvidia"}, "amd": {ID: "mi300x", Vendor: "amd"},
		"google": {ID: "tpu-v6e", Vendor: "google"}, "aws": {ID: "inferentia2", Vendor: "aws"},
		"intel": {ID: "gaudi3", Vendor: "intel"}, "huawei": {ID: "ascend-910b", Vendor: "huawei"},
	}
	offers := map[string]*catalog.Offer{
		"nvidia": {Provider: "coreweave", InstanceType: "gd-8xh100ib-i128", Region: "us-east-04", GPU: "h100-sxm", GPUCount: 8},
		"amd":    {Provider: "crusoe", InstanceType: "mi300x-192gb.8x", Region: "us-east1", GPU: "mi300x", GPUCount: 8},
		"google": {Provider: "gcp", InstanceType: "tpu-v6e-8", Region: "us-east5", GPU: "tpu-v6e", GPUCount: 8},
		"aws":    {Provider: "aws", InstanceType: "inf2.48xlarge", Region: "us-east-1", GPU: "inferentia2", GPUCount: 12},
		"intel":  {Provider: "aws", InstanceType: "dl2q.24xlarge", Region: "us-west-2", GPU: "gaudi3", GPUCount: 8},
		"huawei": {Provider: "huawei", InstanceType: "ai1s.8xlarge", Region: "cn-southwest-2", GPU: "ascend-910b", GPUCount: 8},
	}
	var sentences []message.Msg
	var ae *apperr.Error
	for _, f := range []workload.Framework{workload.FrameworkVLLM, workload.FrameworkPyTorch, workload.FrameworkJAX, workload.FrameworkTGI, workload.FrameworkSGLang} {
		kind := workload.KindLLMInference
		if f == workload.FrameworkPyTorch || f == workload.FrameworkJAX {
			kind = workload.KindLLMTrain
		}
		spec := &workload.Spec{Name: "chat", Kind: kind, Stack: workload.Stack{Framework: f}}
		for _, main := range []string{"nvidia", "google"} {
			in := export.Input{Spec: spec, Offers: []*catalog.Offer{offers[main]}, GPU: gpus[main]}
			for v := range gpus {
				if v != main {
					in.Others = append(in.Others, export.Input{Spec: spec, Offers: []*catalog.Offer{offers[v]}, GPU: gpus[v]})
				}
			}
			for _, kind := range export.Kinds {
				sentences = append(sentences, export.Notes(kind, in)...)
			}
			for _, o := range in.Others {
				// The message, as the command line prints it after the field.
				if _, err := export.SkyPilot(o); errors.As(err, &ae) {
					sentences = append(sentences, ae.Message)
				}
			}
		}
	}
	if len(sentences) < 20 {
		t.Fatalf("only %d sentences: the inputs no longer exercise the families", len(sentences))
	}
	seen := map[string]bool{}
	for _, m := range sentences {
		s := m.String()
		if seen[s] {
			continue
		}
		seen[s] = true
		zh := report.Render(report.Chinese, m)
		if words := englishWords(zh, allowed); len(words) > 0 {
			t.Errorf("%q\nin Chinese %q\nkeeps English: %v", s, zh, words)
		}
	}
}
