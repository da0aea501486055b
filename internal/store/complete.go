package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
)

// ImportFile is one saved price list given to an import: its name (for
// messages) and its bytes.
type ImportFile struct {
	Name    string
	Content []byte
}

// CheckComplete refuses price-list files that look cut short, before they
// replace a snapshot: an Invalid error wrapping ErrTruncated, naming the
// file. It is the file half of the guard whose other half is
// Snapshot.RefuseShrink; both live here, beside the snapshots they keep
// whole. What it can tell, by format:
//   - skypilot, gpuhunt (CSV): the last line has no newline;
//   - azure: the pages of one listing (one Retail Prices API query, told
//     apart by NextPageLink without its $skip) do not end with a page
//     without NextPageLink, or the $skip values of the links leave a gap;
//   - gcp: fewer pages than the distinct nextPageToken values plus one
//     (the last page is missing);
//   - aws: nothing (one document; a cut one does not parse).
//
// The pages of a listing may be spread over several files, in any order:
// pass every file of the import. Content that is not the format's JSON is
// left to the parser to refuse.
func CheckComplete(format string, files []ImportFile) error {
	switch format {
	case "skypilot", "gpuhunt":
		for _, f := range files {
			if len(f.Content) > 0 && f.Content[len(f.Content)-1] != '\n' {
				return &apperr.Error{Code: apperr.Invalid, File: f.Name, Err: ErrTruncated,
					Msg: "the last line has no newline"}
			}
		}
	case "azure":
		return checkAzurePages(files)
	case "gcp":
		return checkGCPPages(files)
	}
	return nil
}

// decodePages decodes every JSON document of every file into a fresh T; a file
// that does not decode is skipped (the parser says why).
func decodePages[T any](files []ImportFile) []T {
	var out []T
	for _, f := range files {
		dec := json.NewDecoder(bytes.NewReader(f.Content))
		var got []T
		for {
			var p T
			err := dec.Decode(&p)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				got = nil
				break
			}
			got = append(got, p)
		}
		out = append(out, got...)
	}
	return out
}

func checkAzurePages(files []ImportFile) error {
	ps := decodePages[struct {
		NextPageLink *string `json:"NextPageLink"`
	}](files)
	if len(ps) == 0 {
		return nil
	}
	skips := map[string][]int{} // per listing, the $skip of each link
	var order []string
	for _, p := range ps {
		if p.NextPageLink == nil || *p.NextPageLink == "" {
			continue
		}
		query, skip := splitSkip(*p.NextPageLink)
		if _, ok := skips[query]; !ok {
			order = append(order, query)
		}
		skips[query] = append(skips[query], skip)
	}
	want := 0 // pages of complete listings: every linked page, and each listing's first
	for _, q := range order {
		s := skips[q]
		slices.Sort(s)
		s = slices.Compact(s)
		want += len(s) + 1
		if s[0] <= 0 {
			continue // no $skip to count with
		}
		for i, v := range s {
			if v != (i+1)*s[0] {
				return truncatedPages(fmt.Sprintf("azure: the page at $skip=%d of %s is missing", (i+1)*s[0], shortQuery(q)))
			}
		}
	}
	if len(ps) < want {
		return truncatedPages(fmt.Sprintf("azure: the NextPageLinks make %d pages, but %s given: the last page (without NextPageLink) is missing",
			want, plural(len(ps), "page")))
	}
	return nil
}

func checkGCPPages(files []ImportFile) error {
	ps := decodePages[struct {
		NextPageToken string `json:"nextPageToken"`
	}](files)
	tokens := map[string]bool{}
	for _, p := range ps {
		if p.NextPageToken != "" {
			tokens[p.NextPageToken] = true
		}
	}
	if len(tokens) > 0 && len(ps) < len(tokens)+1 {
		return truncatedPages(fmt.Sprintf("gcp: the nextPageTokens make %d pages, but %s given: the last page (without nextPageToken) is missing",
			len(tokens)+1, plural(len(ps), "page")))
	}
	return nil
}

func truncatedPages(msg string) error {
	return &apperr.Error{Code: apperr.Invalid, Msg: msg, Err: ErrTruncated}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what + " is"
	}
	return strconv.Itoa(n) + " " + what + "s are"
}

// splitSkip returns an Azure NextPageLink without its $skip parameter (the
// listing it continues) and that parameter (-1 when absent).
func splitSkip(link string) (string, int) {
	base, query, _ := strings.Cut(link, "?")
	skip := -1
	var rest []string
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "$skip" || k == "%24skip" {
			if n, err := strconv.Atoi(v); err == nil {
				skip = n
			}
			continue
		}
		rest = append(rest, kv)
	}
	return base + "?" + strings.Join(rest, "&"), skip
}

func shortQuery(q string) string {
	if len(q) > 80 {
		return q[:77] + "..."
	}
	return q
}
