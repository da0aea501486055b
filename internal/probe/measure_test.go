package probe

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestMeasureStorage(t *testing.T) {
	dir := t.TempDir()
	s, err := MeasureStorage(context.Background(), StorageOptions{Path: dir, SizeBytes: 8 << 20, RandDuration: 100 * time.Millisecond, Threads: 4, MemoryGiB: 64})
	if err != nil {
		t.Fatal(err)
	}
	if s.SeqReadGBps <= 0 || s.SeqWriteGBps <= 0 || s.RandReadIOPS <= 0 || s.FileBytes != 8<<20 || s.Threads != 4 {
		t.Errorf("storage = %+v", s)
	}
	if !s.Direct && s.Note == "" {
		t.Error("no direct I/O and no note about the page cache")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left %d files behind", len(left))
	}
}

func TestMeasureStorageCancelledRemovesFile(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MeasureStorage(ctx, StorageOptions{Path: dir, SizeBytes: 8 << 20}); err == nil {
		t.Error("cancelled: no error")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left %d files behind", len(left))
	}
}

func TestMeasureStorageErrors(t *testing.T) {
	for name, o := range map[string]StorageOptions{
		"missing dir": {Path: "/nonexistent/gpupick"},
		"tiny size":   {Path: t.TempDir(), SizeBytes: 1000},
	} {
		if _, err := MeasureStorage(context.Background(), o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestNetworkOverLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	addr := make(chan string, 1)
	served := make(chan error, 1)
	var peers []string
	go func() {
		served <- ListenAndServe(ctx, "127.0.0.1:0", 2, func(a string) { addr <- a }, func(p string) { peers = append(peers, p) })
	}()
	a := <-addr
	for range 2 {
		n, err := MeasureNetwork(ctx, a, 200*time.Millisecond, 2)
		if err != nil {
			t.Fatal(err)
		}
		if n.ThroughputGbps <= 0 || n.Pings < 10 || n.RTTP50Ms <= 0 || n.RTTP99Ms < n.RTTP50Ms || n.Streams != 2 {
			t.Errorf("network = %+v", n)
		}
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if len(peers) != 2 {
		t.Errorf("%d sessions reported, want 2", len(peers))
	}
}

func TestNetworkCancelAndRefused(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- ListenAndServe(ctx, "127.0.0.1:0", 0, func(a string) { addr <- a }, nil) }()
	a := <-addr
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not stop on cancel")
	}
	if _, err := MeasureNetwork(context.Background(), a, 100*time.Millisecond, 1); err == nil {
		t.Error("closed server: no error")
	}
}
