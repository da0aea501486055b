package strictyaml

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/apperr"
)

type inner struct {
	SeqLen int     `yaml:"seq_len"`
	Rate   float64 `yaml:"rate"`
}

type doc struct {
	Name  string            `yaml:"name"`
	Inner inner             `yaml:"training"`
	List  []inner           `yaml:"list"`
	Tags  map[string]string `yaml:"tags"`
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // substrings of the error; nil = success
	}{
		{"ok", "name: x\ntraining:\n  seq_len: 4\n", nil},
		{"json", `{"name": "x", "training": {"seq_len": 4}}`, nil},
		{"unknown top", "name: x\nnmae: y\n", []string{"line 2: nmae: unknown key"}},
		{"unknown nested with hint", "training:\n  seq_lne: 4\n", []string{"line 2: training.seq_lne: unknown key (did you mean \"seq_len\"?)"}},
		{"unknown in list", "list:\n  - seq_len: 1\n  - foo: 2\n", []string{"line 3: list[1].foo: unknown key"}},
		{"type error", "training:\n  seq_len: abc\n", []string{"line 2: training.seq_len: want a whole number, got \"abc\""}},
		{"syntax", "name: [x\n", []string{"line"}},
		{"empty", "", []string{"empty"}},
		{"fraction into a count", "training:\n  seq_len: 2.5\n", []string{"line 2: training.seq_len: want a whole number, got 2.5"}},
		{"mapping into a value", "name: {a: 1}\n", []string{"line 1: name: want a string, got a mapping (key: value)"}},
		{"list into a struct", "training: [1, 2]\n", []string{"line 1: training: want a mapping (key: value), got a list"}},
		{"map values are free", "tags:\n  anything: x\n", nil},
		{"one document, opened with ---", "---\nname: x\n", nil},
		{"second document", "name: x\n---\nname: y\n", []string{"line 2", "a second YAML document"}},
		{"a list at the top", "- name: x\n", []string{"line 1", "want a mapping of keys at the top of the document, got a list"}},
		{"JSON with a trailing comma", "{\n  \"name\": \"x\",\n  \"training\": {\"seq_len\": 4},\n}\n", []string{"line 4", "JSON syntax error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d doc
			err := Decode([]byte(tt.in), &d)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Decode succeeded, want error containing %q", tt.want)
			}
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("code = %s, want invalid", apperr.CodeOf(err))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"name: x\n", "training:\n  seq_len: 4\n", "list: [{seq_len: 1}]", "{", "&a x: *a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var d doc
		_ = Decode([]byte(s), &d) // must not panic
	})
}

func TestLines(t *testing.T) {
	l := IndexLines([]byte("name: x\ntraining:\n  seq_len: 4\nlist:\n  - a: 1\n  - b: 2\n"))
	for path, want := range map[string]int{"name": 1, "training": 2, "training.seq_len": 3, "list[1]": 6, "list[1].b": 6, "training.tokens": 2, "nope.deep": 0} {
		if got := l.Line(path); got != want {
			t.Errorf("Line(%q) = %d, want %d", path, got, want)
		}
	}
	if !l.Has("training.seq_len") || l.Has("training.tokens") {
		t.Error("Has")
	}
	if len(IndexLines([]byte("{"))) != 0 {
		t.Error("an unparsable document gives no lines")
	}
}

// TestSuggestIsStable: a typo as close to two keys names the same one every
// time (the first in key order), whatever order Go's map gives them in.
func TestSuggestIsStable(t *testing.T) {
	fields := map[string]reflect.Type{"rate_b": nil, "rate_a": nil, "rate_c": nil, "other": nil}
	for range 200 {
		if got := suggest("rate_x", fields); got.String() != `unknown key (did you mean "rate_a"?)` {
			t.Fatalf("suggest = %q", got)
		}
	}
	if got := sortedOrderFree([]string{"b", "c", "a"}); strings.Join(got, ",") != "a,b,c" {
		t.Errorf("sorted = %v", got)
	}
}
