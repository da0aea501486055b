package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
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
// its line.
func parsePO(data []byte) ([]poEntry, error) {
	var out []poEntry
	var cur poEntry
	var field *string // the string the next continuation line extends
	seen := map[string]int{}
	has := map[string]bool{}
	flush := func(line int) error {
		if len(has) == 0 {
			return nil
		}
		switch {
		case !has["msgid"]:
			return fmt.Errorf("line %d: an entry without msgid", line)
		case !has["msgstr"]:
			return fmt.Errorf("line %d: msgid %q has no msgstr", cur.Line, cur.ID)
		}
		if cur.ID != "" {
			k := cur.Ctx + "\x04" + cur.ID
			if first, dup := seen[k]; dup {
				return fmt.Errorf("line %d: msgid %q is already at line %d", cur.Line, cur.ID, first)
			}
			seen[k] = cur.Line
			out = append(out, cur)
		}
		cur, field, has = poEntry{}, nil, map[string]bool{}
		return nil
	}
	lines := bytes.Split(data, []byte("\n"))
	for i, raw := range lines {
		n := i + 1
		l := strings.TrimSpace(string(raw))
		switch {
		case l == "":
			if err := flush(n); err != nil {
				return nil, err
			}
		case strings.HasPrefix(l, "#"):
			field = nil
		case strings.HasPrefix(l, `"`):
			if field == nil {
				return nil, fmt.Errorf("line %d: a string outside msgctxt, msgid or msgstr", n)
			}
			s, err := strconv.Unquote(l)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s is not a quoted string", n, l)
			}
			*field += s
		default:
			kw, rest, _ := strings.Cut(l, " ")
			var f *string
			switch kw {
			case "msgctxt":
				f = &cur.Ctx
			case "msgid":
				f, cur.Line = &cur.ID, n
			case "msgstr":
				f = &cur.Str
			default:
				return nil, fmt.Errorf("line %d: want msgctxt, msgid or msgstr, got %q", n, kw)
			}
			if has[kw] {
				return nil, fmt.Errorf("line %d: a second %s in one entry (entries are separated by a blank line)", n, kw)
			}
			if kw == "msgctxt" && has["msgid"] || kw == "msgid" && has["msgstr"] {
				return nil, fmt.Errorf("line %d: %s must come before msgid and msgstr", n, kw)
			}
			s, err := strconv.Unquote(strings.TrimSpace(rest))
			if err != nil {
				return nil, fmt.Errorf("line %d: %s takes a quoted string, got %s", n, kw, rest)
			}
			*f, field, has[kw] = s, f, true
		}
	}
	if err := flush(len(lines)); err != nil {
		return nil, err
	}
	return out, nil
}
