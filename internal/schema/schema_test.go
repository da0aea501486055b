package schema

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type job struct {
	Name    string            `yaml:"name"`
	Hours   float64           `yaml:"hours,omitempty"`
	Seed    uint64            `yaml:"seed"`
	Tags    []string          `yaml:"tags"`
	Limits  *limits           `yaml:"limits"`
	Labels  map[string]string `yaml:"labels"`
	Derived []string          `yaml:"-"`
	private int
}

type limits struct {
	MaxGPUs int  `yaml:"max_gpus"`
	Strict  bool `yaml:"strict"`
}

func TestBuilder(t *testing.T) {
	var paths []string
	b := &Builder{
		Docs: map[string]string{"job": "A job.", "job.Name": "Name labels the job.", "limits.MaxGPUs": "at most this many"},
		Hint: func(path string, n Node) {
			paths = append(paths, path)
			if path == "tags[]" {
				Enum(n, "a", "b", "a")
			}
			if path == "limits.max_gpus" {
				Range(n, 0, true, 8)
			}
		},
	}
	got := b.Object(reflect.TypeFor[job](), "")
	want := Node{
		"type": "object", "additionalProperties": false, "description": "A job.",
		"properties": Node{
			"name":  Node{"type": "string", "description": "name labels the job."},
			"hours": Node{"type": "number"},
			"seed":  Node{"type": "integer", "minimum": 0},
			"tags":  Node{"type": "array", "items": Node{"type": "string", "enum": []string{"a", "b"}}},
			"limits": Node{"type": []string{"object", "null"}, "additionalProperties": false, "properties": Node{
				"max_gpus": Node{"type": "integer", "description": "at most this many", "exclusiveMinimum": 0.0, "maximum": 8.0},
				"strict":   Node{"type": "boolean"},
			}},
			"labels": Node{"type": "object", "additionalProperties": Node{"type": "string"}},
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Object (-want +got):\n%s", d)
	}
	wantPaths := []string{"name", "hours", "seed", "tags[]", "tags", "limits.max_gpus", "limits.strict", "limits", "labels"}
	if d := cmp.Diff(wantPaths, paths); d != "" {
		t.Errorf("hinted paths (-want +got):\n%s", d)
	}
	doc := Document("https://example.com/job.json", "job", got)
	out, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil || back["$schema"] != Draft || out[len(out)-1] != '\n' {
		t.Errorf("Marshal: %v %s", err, out)
	}
	again, _ := Marshal(doc)
	if string(again) != string(out) {
		t.Error("the same schema marshals to different bytes")
	}
}
