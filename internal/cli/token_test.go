package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/server"
	"github.com/gpupick/gpupick/internal/store"
)

// TestTokenListRevoke creates tokens, lists them (never the token, never
// its hash), and revokes them by name and by id; a revoked token is no
// longer accepted.
func TestTokenListRevoke(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gpupick.db")
	if _, errOut, code := runAt(t, fixedNow, db, "token", "list"); code != 2 || !strings.Contains(errOut, "no database at") {
		t.Errorf("list without a database: exit %d, %s", code, errOut)
	}
	var tokens []string
	for i, name := range []string{"ci", "laptop", "laptop"} {
		out, errOut, code := runAt(t, fixedNow.Add(time.Duration(i)*time.Hour), db, "token", "create", "--name", name)
		if code != 0 {
			t.Fatalf("create %s: exit %d: %s", name, code, errOut)
		}
		tokens = append(tokens, strings.TrimSpace(out))
	}
	// The server accepts ci's token an hour later: its last use is recorded.
	s, err := store.Open(context.Background(), db, store.WithClock(func() time.Time { return fixedNow.Add(3 * time.Hour) }))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.(store.Tokens).CheckToken(context.Background(), server.HashToken(tokens[0])); !ok || err != nil {
		t.Fatalf("check ci: %v %v", ok, err)
	}
	s.Close()

	for _, tt := range []struct{ golden, format string }{{"token-list.txt", "table"}, {"token-list.json", "json"}} {
		out, errOut, code := runAt(t, fixedNow, db, "token", "list", "-o", tt.format)
		if code != 0 {
			t.Fatalf("list: exit %d: %s", code, errOut)
		}
		for _, secret := range append(tokens, "sha256:") {
			if strings.Contains(out, secret) {
				t.Errorf("token list shows %q", secret)
			}
		}
		golden(t, tt.golden, out)
	}

	tests := []struct {
		ref, stdout, stderr string
		code                int
	}{
		{"laptop", "", `2 tokens are named "laptop" (#2, #3): revoke one by its id`, 2},
		{"desk", "", `no token "desk"`, 2},
		{"#2", "token #2 \"laptop\" revoked (created 2026-11-29)\n", "", 0},
		{"laptop", "token #3 \"laptop\" revoked (created 2026-11-29)\n", "", 0},
		{"#2", "", `no token "#2"`, 2},
	}
	for _, tt := range tests {
		out, errOut, code := runAt(t, fixedNow, db, "token", "revoke", tt.ref)
		if code != tt.code || out != tt.stdout || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("revoke %s: exit %d, %q, %q; want exit %d, %q, %q", tt.ref, code, out, errOut, tt.code, tt.stdout, tt.stderr)
		}
	}
	s, err = store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, tok := range tokens {
		ok, err := s.(store.Tokens).CheckToken(context.Background(), server.HashToken(tok))
		if err != nil || ok != (i == 0) {
			t.Errorf("token %d accepted = %v (%v) after revoking the laptops", i, ok, err)
		}
	}
}

// TestTokenNames refuses names that token list could not show faithfully or
// token revoke could not find, naming the flag, with exit code 2.
func TestTokenNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gpupick.db")
	for name, want := range map[string]string{
		"  ":                    "must not be blank",
		"#2":                    "must not start with #",
		"ci\x1b[31mred":         "must be printable",
		strings.Repeat("a", 65): "at most 64 characters",
	} {
		out, errOut, code := runAt(t, fixedNow, db, "token", "create", "--name", name)
		if code != 2 || out != "" || !strings.Contains(errOut, "--name") || !strings.Contains(errOut, want) {
			t.Errorf("create --name %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", name, code, out, errOut, want)
		}
	}
	if _, errOut, code := runAt(t, fixedNow, db, "token", "create", "--name", "ci-2026 (laptop)"); code != 0 {
		t.Errorf("an ordinary name is refused: %s", errOut)
	}
}
