package report

import (
	"bytes"
	"fmt"
	"strconv"
)

// poEntry is one message of a gettext PO file: its context (msgctxt, ""
// for a sentence, "term" for a glossary term), its English key (msgid) and
// its translation (msgstr), with the line msgid is on.
type poEntry struct {
	Ctx, ID, Str string
	Line         int
}

// parsePO reads the subset of the PO format the catalogs use: comments
// (#), msgctxt, msgid and msgstr, each a quoted string that may continue
// on the lines after it ("..."), entries separated by blank lines. The
// header (the entry whose msgid is empty) is skipped. Every problem names
// its line. Every command reads the embedded catalog at start, so this
// allocates little: a string is copied once, unquoted only when it has
// escapes.
func parsePO(data []byte) ([]poEntry, error) {
	out := make([]poEntry, 0, bytes.Count(data, []byte("\nmsgid ")))
	var cur poEntry
	var field *string // the string the next continuation line extends
	var hasCtx, hasID, hasStr bool
	type key struct{ ctx, id string }
	seen := make(map[key]int, cap(out))
	flush := func(line int) error {
		if !hasCtx && !hasID && !hasStr {
			return nil
		}
		switch {
		case !hasID:
			return fmt.Errorf("line %d: an entry without msgid", line)
		case !hasStr:
			return fmt.Errorf("line %d: msgid %q has no msgstr", cur.Line, cur.ID)
		}
		if cur.ID != "" {
			k := key{cur.Ctx, cur.ID}
			if first, dup := seen[k]; dup {
				return fmt.Errorf("line %d: msgid %q is already at line %d", cur.Line, cur.ID, first)
			}
			seen[k] = cur.Line
			out = append(out, cur)
		}
		cur, field, hasCtx, hasID, hasStr = poEntry{}, nil, false, false, false
		return nil
	}
	n := 0
	for rest := data; len(rest) > 0 || n == 0; {
		n++
		raw := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			raw, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		l := bytes.TrimSpace(raw)
		switch {
		case len(l) == 0:
			if err := flush(n); err != nil {
				return nil, err
			}
		case l[0] == '#':
			field = nil
		case l[0] == '"':
			if field == nil {
				return nil, fmt.Errorf("line %d: a string outside msgctxt, msgid or msgstr", n)
			}
			s, err := poUnquote(l)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s is not a quoted string", n, l)
			}
			*field += s
		default:
			kw, arg, _ := bytes.Cut(l, []byte(" "))
			var f *string
			var has *bool
			switch string(kw) {
			case "msgctxt":
				f, has = &cur.Ctx, &hasCtx
				if hasID {
					return nil, fmt.Errorf("line %d: msgctxt must come before msgid and msgstr", n)
				}
			case "msgid":
				f, has, cur.Line = &cur.ID, &hasID, n
				if hasStr {
					return nil, fmt.Errorf("line %d: msgid must come before msgstr", n)
				}
			case "msgstr":
				f, has = &cur.Str, &hasStr
			default:
				return nil, fmt.Errorf("line %d: want msgctxt, msgid or msgstr, got %q", n, kw)
			}
			if *has {
				return nil, fmt.Errorf("line %d: a second %s in one entry (entries are separated by a blank line)", n, kw)
			}
			s, err := poUnquote(bytes.TrimSpace(arg))
			if err != nil {
				return nil, fmt.Errorf("line %d: %s takes a quoted string, got %s", n, kw, arg)
			}
			*f, field, *has = s, f, true
		}
	}
	if err := flush(n); err != nil {
		return nil, err
	}
	return out, nil
}

// poUnquote reads a quoted string, copying it once when it has no escape.
func poUnquote(q []byte) (string, error) {
	if len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' && bytes.IndexByte(q, '\\') < 0 && bytes.IndexByte(q[1:len(q)-1], '"') < 0 {
		return string(q[1 : len(q)-1]), nil
	}
	return strconv.Unquote(string(q))
}
