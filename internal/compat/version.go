package compat

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a dotted numeric version such as 2.7, 12.8 or 570.124.06.
// Missing trailing parts compare as zero, so 2.7 == 2.7.0.
type Version []int

// ParseVersion reads "2.7", "v2.7.1" or "570.26". Every part must be a
// non-negative decimal number; at most 6 parts.
func ParseVersion(s string) (Version, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if s == "" {
		return nil, fmt.Errorf("empty version")
	}
	parts := strings.Split(s, ".")
	if len(parts) > 6 {
		return nil, fmt.Errorf("version %q has too many parts", s)
	}
	v := make(Version, len(parts))
	for i, p := range parts {
		if p == "" || len(p) > 9 {
			return nil, fmt.Errorf("%q is not a version", s)
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a version", s)
		}
		v[i] = n
	}
	return v, nil
}

// mustVersion parses a version Parse has already checked; a bad one (only
// possible in a Matrix built by hand) reads as empty, which compares as 0.
func mustVersion(s string) Version {
	v, _ := ParseVersion(s)
	return v
}

// Compare returns -1, 0 or +1 as v is lower than, equal to or higher than w.
func (v Version) Compare(w Version) int {
	for i := 0; i < max(len(v), len(w)); i++ {
		a, b := part(v, i), part(w, i)
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return 0
}

func part(v Version, i int) int {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// String writes the version with the parts it was given.
func (v Version) String() string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ".")
}

// next is the first version after the series v stands for: 2.7 -> 2.8,
// 0.4.35 -> 0.4.36. A release "2.7" covers [2.7, 2.8).
func (v Version) next() Version {
	if len(v) == 0 {
		return Version{1}
	}
	n := append(Version(nil), v...)
	n[len(n)-1]++
	return n
}

// Constraint is a parsed framework version constraint such as ">=2.4",
// ">=0.6, <0.8", "2.6", "~=2.4" or "==2.6+cu124". The zero value allows
// every version.
type Constraint struct {
	clauses []clause
	// Local is the local-version label of a pinned build ("cu124",
	// "rocm6.2", "cpu"), lower case; empty when none.
	Local string
	text  string
}

type clause struct {
	op string // >=, >, <=, <, ==, !=
	v  Version
	// wildcard: the clause names a series ("2.6", "2.6.*", "==2.6"), so ==
	// means [v, v.next()) and != excludes the whole series.
	series bool
}

// ParseConstraint reads a comma-separated list of clauses. Operators:
// >=, >, <=, <, ==, =, !=, ~= (compatible release), ^ and ~ (npm style);
// a bare version means its series (2.6 = 2.6.x). A "+label" local version
// (at most one in the whole constraint) pins the build: +cu124, +rocm6.2.
// Empty or "*" allows everything.
func ParseConstraint(s string) (Constraint, error) {
	c := Constraint{text: strings.TrimSpace(s)}
	if c.text == "" || c.text == "*" {
		return c, nil
	}
	for _, raw := range strings.Split(c.text, ",") {
		p := strings.TrimSpace(raw)
		if p == "" {
			return c, fmt.Errorf("empty clause in %q", s)
		}
		op := ""
		for _, o := range []string{">=", "<=", "==", "!=", "~=", ">", "<", "=", "^", "~"} {
			if strings.HasPrefix(p, o) {
				op, p = o, strings.TrimSpace(p[len(o):])
				break
			}
		}
		if i := strings.IndexByte(p, '+'); i >= 0 {
			local := strings.ToLower(p[i+1:])
			if local == "" || c.Local != "" && c.Local != local {
				return c, fmt.Errorf("bad local version in %q", raw)
			}
			for _, r := range local {
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.') {
					return c, fmt.Errorf("bad local version in %q", raw)
				}
			}
			c.Local, p = local, p[:i]
		}
		if i := strings.IndexByte(p, '-'); i >= 0 { // pre-release label: ignored
			p = p[:i]
		}
		wild := false
		for _, suf := range []string{".*", ".x", ".X"} {
			if strings.HasSuffix(p, suf) {
				p, wild = strings.TrimSuffix(p, suf), true
			}
		}
		v, err := ParseVersion(p)
		if err != nil {
			return c, fmt.Errorf("bad clause %q: %v", strings.TrimSpace(raw), err)
		}
		switch op {
		case "", "==", "=":
			c.clauses = append(c.clauses, clause{op: "==", v: v, series: wild || op == "" || len(v) <= 2})
		case "!=":
			c.clauses = append(c.clauses, clause{op: "!=", v: v, series: wild})
		case ">=", ">", "<=", "<":
			if wild {
				return c, fmt.Errorf("wildcard with %s in %q", op, raw)
			}
			c.clauses = append(c.clauses, clause{op: op, v: v})
		case "~=": // ~=2.4 -> >=2.4, <3 ; ~=2.4.1 -> >=2.4.1, <2.5
			if len(v) < 2 {
				return c, fmt.Errorf("~= needs at least two parts in %q", raw)
			}
			c.clauses = append(c.clauses, clause{op: ">=", v: v}, clause{op: "<", v: v[:len(v)-1].next()})
		case "^": // ^2.4 -> >=2.4, <3 ; ^0.6 -> >=0.6, <0.7
			up := Version{v[0] + 1}
			if v[0] == 0 && len(v) > 1 {
				up = Version{0, v[1] + 1}
			}
			c.clauses = append(c.clauses, clause{op: ">=", v: v}, clause{op: "<", v: up})
		case "~": // ~2.4 -> >=2.4, <2.5
			up := v.next()
			if len(v) >= 2 {
				up = v[:2].next()
			}
			c.clauses = append(c.clauses, clause{op: ">=", v: v}, clause{op: "<", v: up})
		}
	}
	return c, nil
}

// String returns the constraint as written.
func (c Constraint) String() string { return c.text }

// Any reports whether c allows every version.
func (c Constraint) Any() bool { return len(c.clauses) == 0 }

// AllowsSeries reports whether some version of the series s (the half-open
// interval [s, s.next())) satisfies every clause.
func (c Constraint) AllowsSeries(s Version) bool {
	lo, hi := s, s.next() // candidate interval [lo, hi)
	loIncl, hiIncl := true, false
	for _, cl := range c.clauses {
		switch cl.op {
		case ">=", ">":
			if cmp := cl.v.Compare(lo); cmp > 0 || cmp == 0 && cl.op == ">" {
				lo, loIncl = cl.v, cl.op == ">="
			}
		case "<=", "<":
			if cmp := cl.v.Compare(hi); cmp < 0 || cmp == 0 && cl.op == "<" && hiIncl {
				hi, hiIncl = cl.v, cl.op == "<="
			}
		case "==":
			top := cl.v
			if cl.series {
				top = cl.v.next()
			}
			if cl.v.Compare(lo) > 0 {
				lo, loIncl = cl.v, true
			}
			if cl.series {
				if top.Compare(hi) < 0 {
					hi, hiIncl = top, false
				}
			} else if top.Compare(hi) < 0 || top.Compare(hi) == 0 {
				hi, hiIncl = top, true
			}
		case "!=":
			// Only a whole-series exclusion can empty a series.
			if cl.series && cl.v.Compare(s) <= 0 && s.Compare(cl.v.next()) < 0 && len(cl.v) <= len(s) {
				return false
			}
		}
	}
	cmp := lo.Compare(hi)
	return cmp < 0 || cmp == 0 && loIncl && hiIncl
}

// pin returns the backend and toolkit version a local label pins:
// cu124 -> ("cuda", "12.4"), cu130 -> ("cuda", "13.0"), cu118 -> ("cuda",
// "11.8"), rocm6.2 -> ("rocm", "6.2"), cpu -> ("cpu", ""). Unknown labels
// return ok false.
func pin(local string) (backend, toolkit string, ok bool) {
	switch {
	case local == "":
		return "", "", false
	case local == "cpu":
		return "cpu", "", true
	case strings.HasPrefix(local, "cu"):
		d := local[2:]
		if len(d) < 3 || len(d) > 4 {
			return "", "", false
		}
		if _, err := strconv.Atoi(d); err != nil {
			return "", "", false
		}
		return "cuda", d[:len(d)-1] + "." + d[len(d)-1:], true
	case strings.HasPrefix(local, "rocm"):
		if _, err := ParseVersion(local[4:]); err != nil {
			return "", "", false
		}
		return "rocm", local[4:], true
	}
	return "", "", false
}
