package server

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/store"
)

const skyHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n"

// TestImportGuards: content that looks cut short is refused with 400 and a
// reason unless allow_shrink; a list without spot prices keeps those in
// force and says so.
func TestImportGuards(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	token := addToken(t, s)
	post := func(in ImportRequest) response {
		t.Helper()
		in.Format, in.Provider, in.AsOf = "skypilot", "aws", "2026-06-03"
		return do(t, h, "POST", "/api/v1/catalog/import", jsonBody(t, in), token)
	}
	full := skyHeader + "p5.48xlarge,H100,8,192,2048,77.77,30.1,us-east-1,us-east-1a\n" +
		"p4d.24xlarge,A100,8,96,1152,32.77,12.5,us-east-1,us-east-1a\n" +
		"g5.xlarge,A10G,1,4,16,1.006,0.4,us-east-1,us-east-1a\n"
	if r := post(ImportRequest{Content: full}); r.status != http.StatusCreated {
		t.Fatalf("first import: %d %s", r.status, r.body)
	}
	tests := []struct {
		name, content, reason string
	}{
		{"no final newline", strings.TrimSuffix(full, "\n"), "the last line has no newline"},
		{"shrunk", skyHeader + "p5.48xlarge,H100,8,192,2048,70,30,us-east-1,us-east-1a\n", "aws: 1 offers, fewer than half the 3 of snapshot #"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(ImportRequest{Content: tt.content})
			var e ErrorJSON
			if err := json.Unmarshal([]byte(r.body), &e); r.status != http.StatusBadRequest || err != nil ||
				!strings.Contains(e.Error.Message, tt.reason) || !strings.Contains(e.Error.Message, `"allow_shrink": true`) {
				t.Fatalf("%d %s; want 400 with %q", r.status, r.body, tt.reason)
			}
			if r := post(ImportRequest{Content: tt.content, AllowShrink: true}); r.status != http.StatusCreated {
				t.Errorf("with allow_shrink: %d %s", r.status, r.body)
			}
		})
	}

	// On-demand only: the spot prices in force are kept, and said.
	if r := post(ImportRequest{Content: full}); r.status != http.StatusCreated {
		t.Fatalf("full again: %d %s", r.status, r.body)
	}
	onDemand := strings.NewReplacer(",30.1,", ",,", ",12.5,", ",,", ",0.4,", ",,").Replace(full)
	r := post(ImportRequest{Content: onDemand})
	if want := `,"carried":[{"provider":"aws","mode":"spot","offers":3,"from_snapshot":4}]}`; r.status != http.StatusCreated || !strings.HasSuffix(strings.TrimSpace(r.body), want) {
		t.Errorf("on-demand import: %d %s; want it to end with %s", r.status, r.body, want)
	}
}

// TestRevokedTokenRefused: a token revoked in the store is refused by the
// server from the next request on.
func TestRevokedTokenRefused(t *testing.T) {
	s := testServer(t, nil)
	h := s.Handler()
	token := addToken(t, s)
	body := jsonBody(t, SaveRequest{Name: "w", Body: example(t, "llama3-8b-lora.yaml")})
	if r := do(t, h, "POST", "/api/v1/workloads", body, token); r.status != http.StatusCreated {
		t.Fatalf("save with the token: %d %s", r.status, r.body)
	}
	if _, err := s.store.(store.Tokens).RevokeToken(context.Background(), "test"); err != nil {
		t.Fatal(err)
	}
	if r := do(t, h, "POST", "/api/v1/workloads", body, token); r.status != http.StatusUnauthorized {
		t.Errorf("save with a revoked token: %d %s", r.status, r.body)
	}
}

// TestPricesShared: negotiated prices set through one replica are in the
// store: another replica on the same database, and one started after, serve
// them once they sync; a clear through one clears them everywhere.
func TestPricesShared(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shared.db")
	a := testServer(t, func(c *Config) { c.DB = db })
	b := testServer(t, func(c *Config) { c.DB = db })
	token := addToken(t, a)
	ctx := context.Background()
	const offers = "/api/v1/offers?gpu=h100-sxm:8&provider=aws&region=us-east-1"
	priced := func(s *Server) bool {
		t.Helper()
		if err := s.syncPrices(ctx); err != nil {
			t.Fatal(err)
		}
		return strings.Contains(do(t, s.Handler(), "GET", offers, "", "").body, `"your_prices_usd_per_hour"`)
	}
	if priced(b) {
		t.Fatal("b serves negotiated prices before any were set")
	}
	overlay := jsonBody(t, PricesRequest{Overlay: "rules:\n  - {provider: aws, instance: \"p5.*\", discount_percent: 50}\n"})
	r := do(t, a.Handler(), "PUT", "/api/v1/prices", overlay, token)
	if r.status != http.StatusOK || !strings.Contains(r.body, `"version":1`) {
		t.Fatalf("set on a: %d %s", r.status, r.body)
	}
	if !priced(a) || !priced(b) {
		t.Error("a replica does not serve the prices set through a")
	}
	c := testServer(t, func(c *Config) { c.DB = db }) // a restart
	if !priced(c) {
		t.Error("a server started after the prices were set does not serve them")
	}
	if r := do(t, b.Handler(), "DELETE", "/api/v1/prices", "", token); r.status != http.StatusOK || !strings.Contains(r.body, `"version":2`) {
		t.Fatalf("clear on b: %d %s", r.status, r.body)
	}
	if priced(a) || priced(c) {
		t.Error("a replica still serves prices cleared through b")
	}
}
