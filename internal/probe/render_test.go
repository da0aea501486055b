package probe_test

import (
	"bytes"
	"testing"

	"github.com/gpupick/gpupick/internal/probe"
	"github.com/gpupick/gpupick/internal/report"
)

// TestRender pins how report renders a probe report and its findings
// against an offer (the probe package measures; report renders).
func TestRender(t *testing.T) {
	o, a := probe.H100Offer(t)
	var buf bytes.Buffer
	if err := report.WriteProbeFindings(&buf, probe.Compare(probe.H100Report(), o, a, nil, nil)); err != nil {
		t.Fatal(err)
	}
	probe.Golden(t, "compare-h100.txt", buf.String())

	buf.Reset()
	r := probe.H100Report()
	r.GPUs = r.GPUs[:2]
	r.Skipped = []probe.Skip{{Part: "bench", Reason: "torch.cuda.is_available() is False"}}
	if err := report.WriteProbe(&buf, r); err != nil {
		t.Fatal(err)
	}
	probe.Golden(t, "report-h100.txt", buf.String())
}
