package godoc

import (
	"go/format"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRead(t *testing.T) {
	got, err := Read("testdata/types.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Job":        "Job is a thing to run.",
		"Job.Name":   "Name labels the job.",
		"Job.Hours":  "wall-clock hours (timing)", // a heading above, the line comment wins
		"Job.Tags":   "free labels",
		"Job.Limits": "Limits are the bounds. They apply to every run. see Limits", // a sentence above: both
		"Limits":     "Limits bound a job.",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Read (-want +got):\n%s", d)
	}
	if _, err := Read("testdata/missing.go"); err == nil {
		t.Error("a missing file read without error")
	}
}

func TestFile(t *testing.T) {
	b, err := File("types", "docs", map[string]string{"B": `say "hi"`, "A": "first"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := format.Source(b); err != nil {
		t.Fatalf("not Go: %v\n%s", err, b)
	}
	s := string(b)
	if !strings.Contains(s, "DO NOT EDIT") || strings.Index(s, `"A"`) > strings.Index(s, `"B"`) || !strings.Contains(s, `"say \"hi\""`) {
		t.Errorf("generated file:\n%s", s)
	}
}
