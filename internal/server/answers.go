package server

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sync"
)

// answerCache keeps recent recommend answers, encoded, by a digest of
// everything that decides them (the request, the query, the day, the
// negotiated prices); a catalog reload starts an empty one. It is bounded
// by bytes: the oldest answers go first.
type answerCache struct {
	mu       sync.Mutex
	byKey    map[string][]byte
	order    []string // oldest first
	bytes    int64
	maxBytes int64
}

// answerCacheBytes bounds the answers kept: a slim answer is 30-200 KB.
const answerCacheBytes = 32 << 20

func newAnswerCache(maxBytes int64) *answerCache {
	return &answerCache{byKey: map[string][]byte{}, maxBytes: maxBytes}
}

// answerKey digests the parts of a request that decide its answer.
func answerKey(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(p)))) // so that parts cannot run into each other
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *answerCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.byKey[key]
	return b, ok
}

// put keeps b under key; an answer larger than a quarter of the bound is
// not kept.
func (c *answerCache) put(key string, b []byte) {
	if int64(len(b)) > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	for c.bytes+int64(len(b)) > c.maxBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= int64(len(c.byKey[old]))
		delete(c.byKey, old)
	}
	c.byKey[key] = b
	c.order = append(c.order, key)
	c.bytes += int64(len(b))
}

// size is the bytes the cache holds.
func (c *answerCache) size() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
