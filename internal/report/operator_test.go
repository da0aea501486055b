package report

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/workload"
)

// TestOperatorAnswer: the answer names who runs #1's machine, in English
// and Chinese, when the workload has compliance requirements or is a
// production service, and says nothing otherwise.
func TestOperatorAnswer(t *testing.T) {
	parse := func(y string) *workload.Spec {
		s, err := workload.Parse([]byte(y), "w.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	service := parse("kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\n")
	demo := parse("kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {requests_per_second: 2}\nservice: {availability: best-effort}\n")
	job := parse("kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9}\n")
	euJob := parse("kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9}\ncompliance: {countries: [EU]}\n")
	op := func(k catalog.OperatorKind) *catalog.Operator {
		return &catalog.Operator{Kind: k, Provider: "vastai", ProviderName: "Vast.ai", HQCountry: "US", CloudAct: true,
			Fact: catalog.Fact{Source: "https://vast.ai/terms", AsOf: answerNow}}
	}
	for _, tc := range []struct {
		name   string
		spec   *workload.Spec
		kind   catalog.OperatorKind
		en, zh string // "" = no operator in the answer
	}{
		{"production service, marketplace", service, catalog.OperatorMarketplace,
			"Who runs the machine: an independent host on Vast.ai's marketplace, not known to you until you rent it; Vast.ai only brokers the rental and is headquartered in US, under the US CLOUD Act.",
			"谁运营这台机器：Vast.ai 市场上的一个独立主机方，租用之前您无从得知是谁；Vast.ai 只撮合租用，总部位于 US，受美国《云法案》管辖。"},
		{"compliance block, provider", euJob, catalog.OperatorProvider,
			"Who runs the machine: Vast.ai itself, headquartered in US, under the US CLOUD Act.", "谁运营这台机器：Vast.ai 自营，总部位于 US，受美国《云法案》管辖。"},
		{"partner", service, catalog.OperatorPartner,
			"Who runs the machine: a data-centre partner or another cloud that Vast.ai contracts, under Vast.ai's terms; Vast.ai is headquartered in US, under the US CLOUD Act.",
			"谁运营这台机器：Vast.ai 签约的数据中心合作方或其他云，适用 Vast.ai 的条款；Vast.ai 总部位于 US，受美国《云法案》管辖。"},
		{"community", service, catalog.OperatorCommunity, "individual host of Vast.ai's community cloud", "社区云的个人主机方"},
		{"unclassified", service, "", "the catalog does not say whether Vast.ai runs it", "目录没有说明由 Vast.ai 自营"},
		{"best-effort service", demo, catalog.OperatorMarketplace, "", ""},
		{"job without compliance", job, catalog.OperatorMarketplace, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &advisor.Result{Spec: tc.spec, Operator: op(tc.kind)}
			for _, l := range []Lang{English, Chinese} {
				want := tc.en
				if l == Chinese {
					want = tc.zh
				}
				got := operatorAnswer(r, l)
				switch {
				case want == "" && got != nil:
					t.Errorf("%v: operator %+v, want none", l, got)
				case want != "" && (got == nil || !strings.Contains(got.Sentence, want)):
					t.Errorf("%v: operator %+v, want a sentence containing %q", l, got, want)
				case got != nil && (got.Kind != string(tc.kind) || got.Source == "" || got.AsOf == "" || got.HQCountry != "US" || !got.CloudAct):
					t.Errorf("%v: operator %+v lacks its facts", l, got)
				}
			}
		})
	}
	if operatorAnswer(&advisor.Result{Spec: service}, English) != nil {
		t.Error("an operator without a pick")
	}
}
