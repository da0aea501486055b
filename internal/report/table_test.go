package report

import (
	"strings"
	"testing"
)

func TestAlignDecimals(t *testing.T) {
	tb := &Table{Columns: []Column{{"A", "a", true}, {"B", "b", true}}}
	tb.Add("125", "-")
	tb.Add("149.7", "2")
	tb.Add("", "3.14159")
	tb.Add("unknown", "")
	tb.AlignDecimals(0, 1)
	tb.AlignDecimals(1, 2)
	got := [][]string{{"125.0", "-"}, {"149.7", "2.00"}, {"", "3.14"}, {"unknown", ""}}
	for i, r := range tb.Rows {
		if r[0] != got[i][0] || r[1] != got[i][1] {
			t.Errorf("row %d = %v, want %v", i, r, got[i])
		}
	}
}

func TestCSVFormOfATable(t *testing.T) {
	tb := &Table{Columns: []Column{{"GPUS", "gpus", false}}, CSVColumns: []string{"gpu_count", "gpu", "utilization", "pareto"}}
	tb.Add("1 x mi300x")
	tb.AddCSV(csvNum(1, 0, true), "mi300x", csvNum(1.0, 4, true), csvBool(true))
	tb.AddCSV(csvNum(0, 0, false), "h100", csvNum(0.123456, 4, true), csvBool(false))
	var b strings.Builder
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "gpu_count,gpu,utilization,pareto\n1,mi300x,1,true\n,h100,0.1235,false\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestShortTextAndGrouped(t *testing.T) {
	long := strings.Repeat("github.com/skypilot-org/skypilot-catalog; ", 10)
	s := ShortText(long, 50)
	if n := len([]rune(s)); n > 50 || !strings.HasSuffix(s, "…") {
		t.Errorf("ShortText: %q (%d runes)", s, n)
	}
	src := "github.com/skypilot-org/skypilot-catalog@2c3d7ea7d76bf84cf80d382e946c1609571485fd catalogs/v9/aws/vms.csv"
	if got := ShortSource(src, 100); got != "github.com/skypilot-org/skypilot-catalog@2c3d7ea catalogs/v9/aws/vms.csv" {
		t.Errorf("ShortSource: %q", got)
	}
	if ShortText("short", 50) != "short" {
		t.Error("a short text was cut")
	}
	for v, want := range map[float64]string{80408.224: "80,408.22", 0.5: "0.50", 1234567: "1,234,567.00", -1500: "-1,500.00", 999.999: "1,000.00"} {
		if got := cliGrouped(v, 2); got != want {
			t.Errorf("cliGrouped(%v) = %q, want %q", v, got, want)
		}
	}
}
