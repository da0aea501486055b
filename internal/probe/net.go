package probe

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"
)

// The wire protocol of `probe net`. Every connection opens with magic and
// a kind byte. A control connection ('C') carries ping-pong messages ('P'
// and 8 bytes, echoed) and ends with 'Q' (echoed): that ends a session. A
// stream connection ('S') carries payload until the client closes its
// write side; the server answers with the byte count it received (8 bytes,
// big-endian).
var magic = []byte("GPUPICK1")

const (
	kindControl = 'C'
	kindStream  = 'S'
	msgPing     = 'P'
	msgQuit     = 'Q'
	streamChunk = 256 << 10
	maxPings    = 1000
)

// Serve answers measurement sessions on ln until sessions have completed
// (0 = no limit) or ctx is cancelled, then closes ln. done, when not nil,
// is called after each session with the client's address.
func Serve(ctx context.Context, ln net.Listener, sessions int, done func(peer net.Addr)) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	finished := make(chan net.Addr)
	var wg sync.WaitGroup
	defer wg.Wait()
	var conns sync.Map
	defer conns.Range(func(k, _ any) bool { k.(net.Conn).Close(); return true })
	quit := make(chan struct{})
	defer close(quit)
	accepted := make(chan net.Conn)
	acceptErr := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			select {
			case accepted <- c:
			case <-quit:
				c.Close()
				return
			}
		}
	}()
	count := 0
	for {
		select {
		case c := <-accepted:
			conns.Store(c, true)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conns.Delete(c)
				defer c.Close()
				if serveConn(c) {
					select {
					case finished <- c.RemoteAddr():
					case <-quit:
					}
				}
			}()
		case peer := <-finished:
			count++
			if done != nil {
				done(peer)
			}
			if sessions > 0 && count >= sessions {
				ln.Close()
				return nil
			}
		case err := <-acceptErr:
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// serveConn handles one connection; it reports whether it completed a
// session (a control connection that ended with 'Q').
func serveConn(c net.Conn) bool {
	hdr := make([]byte, len(magic)+1)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(c, hdr); err != nil || !bytes.Equal(hdr[:len(magic)], magic) {
		return false
	}
	c.SetReadDeadline(time.Time{})
	switch hdr[len(magic)] {
	case kindControl:
		msg := make([]byte, 9)
		for {
			c.SetReadDeadline(time.Now().Add(5 * time.Minute))
			if _, err := io.ReadFull(c, msg[:1]); err != nil {
				return false
			}
			switch msg[0] {
			case msgPing:
				if _, err := io.ReadFull(c, msg[1:]); err != nil {
					return false
				}
				if _, err := c.Write(msg); err != nil {
					return false
				}
			case msgQuit:
				c.Write(msg[:1])
				return true
			default:
				return false
			}
		}
	case kindStream:
		c.SetReadDeadline(time.Now().Add(10 * time.Minute))
		n, err := io.CopyBuffer(io.Discard, c, make([]byte, streamChunk))
		if err != nil {
			return false
		}
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(n))
		c.Write(b[:])
	}
	return false
}

// MeasureNetwork runs one session against a Serve at addr: up to 1000
// ping-pong round trips (at most a second) for latency, then streams
// parallel TCP connections for d for throughput.
func MeasureNetwork(ctx context.Context, addr string, d time.Duration, streams int) (*Network, error) {
	if streams < 1 {
		streams = 1
	}
	if d <= 0 {
		d = 10 * time.Second
	}
	var dialer net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ctl, err := dial(dctx, &dialer, addr, kindControl)
	if err != nil {
		return nil, err
	}
	defer ctl.Close()
	stop := context.AfterFunc(ctx, func() { ctl.Close() })
	defer stop()

	n := &Network{Peer: addr, Streams: streams}
	rtts, err := pings(ctl)
	if err != nil {
		return nil, fmt.Errorf("ping %s: %w", addr, err)
	}
	n.Pings = len(rtts)
	slices.Sort(rtts)
	n.RTTP50Ms = percentile(rtts, 0.50).Seconds() * 1000
	n.RTTP99Ms = percentile(rtts, 0.99).Seconds() * 1000

	conns := make([]net.Conn, streams)
	for i := range conns {
		if conns[i], err = dial(dctx, &dialer, addr, kindStream); err != nil {
			for _, c := range conns[:i] {
				c.Close()
			}
			return nil, err
		}
	}
	var wg sync.WaitGroup
	got := make([]uint64, streams)
	errs := make([]error, streams)
	start := time.Now()
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			got[i], errs[i] = stream(ctx, c, start.Add(d))
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("stream to %s: %w", addr, err)
	}
	var total uint64
	for _, g := range got {
		total += g
	}
	n.Seconds = elapsed.Seconds()
	n.ThroughputGbps = float64(total) * 8 / elapsed.Seconds() / 1e9

	ctl.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := ctl.Write([]byte{msgQuit}); err != nil {
		return nil, fmt.Errorf("end session with %s: %w", addr, err)
	}
	var q [1]byte
	if _, err := io.ReadFull(ctl, q[:]); err != nil {
		return nil, fmt.Errorf("end session with %s: %w", addr, err)
	}
	return n, nil
}

func dial(ctx context.Context, d *net.Dialer, addr string, kind byte) (net.Conn, error) {
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if _, err := c.Write(append(slices.Clone(magic), kind)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func pings(c net.Conn) ([]time.Duration, error) {
	msg := make([]byte, 9)
	back := make([]byte, 9)
	var rtts []time.Duration
	end := time.Now().Add(time.Second)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	defer c.SetDeadline(time.Time{})
	for i := 0; i < maxPings && (i < 10 || time.Now().Before(end)); i++ {
		msg[0] = msgPing
		binary.BigEndian.PutUint64(msg[1:], uint64(i))
		t := time.Now()
		if _, err := c.Write(msg); err != nil {
			return nil, err
		}
		if _, err := io.ReadFull(c, back); err != nil {
			return nil, err
		}
		rtts = append(rtts, time.Since(t))
		if !bytes.Equal(msg, back) {
			return nil, errors.New("the peer echoed a different message: is it gpupick probe net --listen?")
		}
	}
	return rtts, nil
}

// stream writes until deadline, closes its write side and returns the
// byte count the server says it received.
func stream(ctx context.Context, c net.Conn, deadline time.Time) (uint64, error) {
	buf := make([]byte, streamChunk)
	c.SetWriteDeadline(deadline)
	for ctx.Err() == nil {
		if _, err := c.Write(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				break
			}
			return 0, err
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	c.SetDeadline(time.Now().Add(30 * time.Second))
	var b [8]byte
	if _, err := io.ReadFull(c, b[:]); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(b[:]), nil
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}

// ListenAndServe listens on addr (host:port; ":0" picks a free port) and
// serves sessions as Serve does. ready, when not nil, is called with the
// address actually listened on; done after each session with the peer's.
func ListenAndServe(ctx context.Context, addr string, sessions int, ready, done func(addr string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	var cb func(net.Addr)
	if done != nil {
		cb = func(a net.Addr) { done(a.String()) }
	}
	return Serve(ctx, ln, sessions, cb)
}
