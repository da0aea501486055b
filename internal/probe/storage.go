package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// StorageOptions say where and how long to measure storage.
type StorageOptions struct {
	// Path is a directory on the file system to measure; default os.TempDir().
	Path string
	// SizeBytes is the test file's size; default DefaultStorageBytes, capped
	// at half the free space, rounded up to a whole MiB.
	SizeBytes int64
	// RandDuration bounds the random-read phase; default 5 s.
	RandDuration time.Duration
	// Threads is the number of parallel random readers; default 16 (a
	// queue depth at which datacenter NVMe shows its rated IOPS only in
	// part: the published figures use 128 and more).
	Threads int
	// MemoryGiB is the host's RAM, used to say whether the page cache could
	// hold the file; 0 = unknown.
	MemoryGiB float64
}

// DefaultStorageBytes is the default size of the storage test file: 2 GiB.
const DefaultStorageBytes = 2 << 30

const (
	seqChunk  = 4 << 20 // bytes per sequential read or write
	randBlock = 4 << 10 // bytes per random read
)

// MeasureStorage writes a file under o.Path, reads it back sequentially
// with 4 MiB reads and randomly with 4 KiB reads, and removes it, also
// when ctx is cancelled or a step fails. Reads bypass the page cache with
// O_DIRECT where the file system allows it (Linux); elsewhere the result
// says the cache may inflate them.
func MeasureStorage(ctx context.Context, o StorageOptions) (*Storage, error) {
	if o.Path == "" {
		o.Path = os.TempDir()
	}
	if o.SizeBytes == 0 {
		o.SizeBytes = DefaultStorageBytes
	}
	if o.SizeBytes < 1<<20 {
		return nil, fmt.Errorf("storage test size %d bytes is below 1 MiB", o.SizeBytes)
	}
	if o.RandDuration <= 0 {
		o.RandDuration = 5 * time.Second
	}
	if o.Threads <= 0 {
		o.Threads = 16
	}
	if fi, err := os.Stat(o.Path); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", o.Path)
	}
	s := &Storage{Path: o.Path, Threads: o.Threads}
	free := freeBytes(o.Path)
	s.FreeGB = float64(free) / 1e9
	size := o.SizeBytes
	if free > 0 && size > free/2 {
		size = free / 2
		s.Note = fmt.Sprintf("test file reduced to %.1f GiB, half the free space; ", float64(size)/(1<<30))
	}
	size = (size + (1<<20 - 1)) &^ (1<<20 - 1)
	if size < 1<<20 {
		return nil, fmt.Errorf("%s has %.1f MB free: too little to measure", o.Path, float64(free)/1e6)
	}
	s.FileBytes = size

	f, err := os.CreateTemp(o.Path, ".gpupick-probe-*")
	if err != nil {
		return nil, err
	}
	name := f.Name()
	defer os.Remove(name)
	if err := writeFile(ctx, f, size, s); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}

	r, direct, err := openForRead(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s.Direct = direct
	if err := seqRead(ctx, r, size, s); err != nil {
		return nil, err
	}
	if err := randRead(ctx, r, size, o.RandDuration, s); err != nil {
		return nil, err
	}
	if !direct {
		s.Note += "O_DIRECT is not available here, so reads may come from the page cache"
		if o.MemoryGiB > 0 && float64(size)/(1<<30) < o.MemoryGiB {
			s.Note += fmt.Sprintf(" (the %.1f GiB file fits in %.0f GiB of RAM: use --size above the RAM for a true figure)", float64(size)/(1<<30), o.MemoryGiB)
		}
	}
	s.Note = strings.TrimSuffix(s.Note, "; ")
	return s, nil
}

// writeFile fills f with size pseudo-random bytes (not zeros, which some
// file systems compress or skip) and syncs it.
func writeFile(ctx context.Context, f *os.File, size int64, s *Storage) error {
	buf := alignedBuffer(seqChunk)
	rng := rand.NewChaCha8([32]byte{'g', 'p', 'u', 'p', 'i', 'c', 'k'})
	rng.Read(buf)
	start := time.Now()
	for off := int64(0); off < size; off += seqChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(int64(seqChunk), size-off)
		buf[0]++ // no two chunks alike, against deduplication
		if _, err := f.Write(buf[:n]); err != nil {
			return fmt.Errorf("write test file: %w", err)
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync test file: %w", err)
	}
	s.SeqWriteGBps = float64(size) / time.Since(start).Seconds() / 1e9
	return nil
}

// seqRead reads the file once with four readers over consecutive quarters
// (one stream rarely saturates a RAID of NVMe drives).
func seqRead(ctx context.Context, r *os.File, size int64, s *Storage) error {
	readers := int64(4)
	if chunks := size / seqChunk; chunks < readers {
		readers = max(1, chunks)
	}
	part := (size / readers) &^ (randBlock - 1)
	var wg sync.WaitGroup
	errs := make([]error, readers)
	start := time.Now()
	for i := range readers {
		from, to := i*part, (i+1)*part
		if i == readers-1 {
			to = size
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := alignedBuffer(seqChunk)
			for off := from; off < to; off += seqChunk {
				if err := ctx.Err(); err != nil {
					errs[i] = err
					return
				}
				n := min(int64(seqChunk), to-off)
				if _, err := r.ReadAt(buf[:n], off); err != nil && !errors.Is(err, io.EOF) {
					errs[i] = fmt.Errorf("read test file: %w", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	s.SeqReadGBps = float64(size) / time.Since(start).Seconds() / 1e9
	return nil
}

// randRead reads 4 KiB blocks at random aligned offsets with s.Threads
// readers until d has passed.
func randRead(ctx context.Context, r *os.File, size int64, d time.Duration, s *Storage) error {
	blocks := uint64(size / randBlock)
	var ops atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, s.Threads)
	start := time.Now()
	deadline := start.Add(d)
	for i := range s.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			buf := alignedBuffer(randBlock)
			for n := 0; ; n++ {
				if n%64 == 0 && (time.Now().After(deadline) || ctx.Err() != nil) {
					errs[i] = ctx.Err()
					return
				}
				off := int64(rng.Uint64N(blocks)) * randBlock
				if _, err := r.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
					errs[i] = fmt.Errorf("random read: %w", err)
					return
				}
				ops.Add(1)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	el := time.Since(start).Seconds()
	s.RandReadIOPS = float64(ops.Load()) / el
	s.RandReadGBps = s.RandReadIOPS * randBlock / 1e9
	return nil
}
