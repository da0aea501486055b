package compat

import (
	"testing"
)

func TestConstraintAllowsSeries(t *testing.T) {
	tests := []struct {
		c      string
		series string
		want   bool
	}{
		{"", "2.1", true},
		{"*", "0.6", true},
		{">=2.4", "2.3", false},
		{">=2.4", "2.4", true},
		{">=2.4", "2.10", true},
		{"<2.7", "2.6", true},
		{"<2.7", "2.7", false},
		{"<=2.7", "2.7", true},
		{">2.7", "2.7", true}, // 2.7.1 > 2.7
		{">2.7", "2.6", false},
		{"2.6", "2.6", true},
		{"2.6", "2.7", false},
		{"==2.6", "2.6", true},
		{"==2.6+cu124", "2.6", true},
		{"==2.6.1", "2.6", true},
		{"==2.6.1", "2.7", false},
		{">=0.6, <0.8", "0.7", true},
		{">=0.6, <0.8", "0.8", false},
		{">=0.6, <0.8", "0.5", false},
		{"~=2.4", "2.9", true},
		{"~=2.4", "3.0", false},
		{"~=2.4.1", "2.4", true},
		{"~=2.4.1", "2.5", false},
		{"^2.4", "2.12", true},
		{"^0.6", "0.7", false},
		{"~2.4", "2.4", true},
		{"~2.4", "2.5", false},
		{"2.*", "2.9", true},
		{"2.x", "3.0", false},
		{"!=2.5", "2.5", true}, // != 2.5.0 leaves 2.5.1
		{"!=2.5.*", "2.5", false},
		{"!=2.5.*", "2.6", true},
		{"v2.4", "2.4", true},
		{">=2.8, <2.8", "2.8", false},
		{"2.9+cu130", "2.9", true},
	}
	for _, tt := range tests {
		t.Run(tt.c+" on "+tt.series, func(t *testing.T) {
			c, err := ParseConstraint(tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.AllowsSeries(mustVersion(tt.series)); got != tt.want {
				t.Errorf("AllowsSeries = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConstraintErrorsAndLocal(t *testing.T) {
	for _, bad := range []string{">=", "abc", ">=2.4,", ">=2.*", "~=2", "2.6+cu124, <2.7+cu128", "2.6+", "1.2.3.4.5.6.7", "2.6+c@"} {
		if _, err := ParseConstraint(bad); err == nil {
			t.Errorf("ParseConstraint(%q) accepted", bad)
		}
	}
	for in, want := range map[string][3]string{
		"==2.6+cu124": {"cu124", "cuda", "12.4"},
		">=2.9+CU130": {"cu130", "cuda", "13.0"},
		"2.5+rocm6.2": {"rocm6.2", "rocm", "6.2"},
		"2.5+cpu":     {"cpu", "cpu", ""},
		"2.1+cu118":   {"cu118", "cuda", "11.8"},
	} {
		c, err := ParseConstraint(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		b, tk, ok := pin(c.Local)
		if c.Local != want[0] || b != want[1] || tk != want[2] || !ok {
			t.Errorf("%s: local %q pin (%q, %q, %v), want %v", in, c.Local, b, tk, ok, want)
		}
	}
}

func TestVersionCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"2.7", "2.7.0", 0}, {"2.10", "2.9", 1}, {"570.26", "570.124.06", -1}, {"12.8", "13.0", -1}, {"v1.0", "1", 0},
	}
	for _, tt := range tests {
		if got := mustVersion(tt.a).Compare(mustVersion(tt.b)); got != tt.want {
			t.Errorf("%s vs %s = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	for _, bad := range []string{"", "a", "1..2", "-1", "1.-2", "1234567890"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("ParseVersion(%q) accepted", bad)
		}
	}
}
