package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// userAgent identifies gpupick to the price APIs.
const userAgent = "gpupick-importer/1 (+https://github.com/gpupick/gpupick)"

// maxBackoff caps one wait between retries, Retry-After included.
const maxBackoff = 30 * time.Second

// fetcher makes polite GET requests: a token-bucket rate, a timeout per
// request, and retries with exponential backoff on network errors, 429,
// 5xx and bodies cut short.
type fetcher struct {
	source     string
	client     *http.Client
	timeout    time.Duration
	maxRetries int
	base       time.Duration
	limiter    *tokenBucket
	sleep      func(ctx context.Context, d time.Duration) error
}

func newFetcher(source string, opt *Options) *fetcher {
	f := &fetcher{
		source:     source,
		client:     opt.Client,
		timeout:    opt.Timeout,
		maxRetries: opt.MaxRetries,
		base:       opt.RetryBase,
		sleep:      sleepCtx,
	}
	if f.client == nil {
		f.client = &http.Client{}
	}
	if f.timeout <= 0 {
		f.timeout = 2 * time.Minute
	}
	switch {
	case f.maxRetries == 0:
		f.maxRetries = 4
	case f.maxRetries < 0:
		f.maxRetries = 0
	}
	if f.base <= 0 {
		f.base = time.Second
	}
	rate := opt.RatePerSecond
	if rate <= 0 {
		rate = 4
	}
	f.limiter = newTokenBucket(rate, time.Now, sleepCtx)
	return f
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// readErrReader remembers a read error of the body that is not io.EOF: the
// connection broke or the body was shorter than announced, which is worth
// a retry, unlike a body that arrived whole and does not parse.
type readErrReader struct {
	r   io.Reader
	err error
}

func (r *readErrReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && r.err == nil {
		r.err = err
	}
	return n, err
}

// statusError is an HTTP status the fetcher gave up on.
type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string {
	if e.body == "" {
		return fmt.Sprintf("HTTP %d %s", e.status, http.StatusText(e.status))
	}
	return fmt.Sprintf("HTTP %d %s: %s", e.status, http.StatusText(e.status), e.body)
}

// get fetches rawURL and hands the body to handle. handle must not keep
// results of a failed call: a retry calls it again from the start.
func (f *fetcher) get(ctx context.Context, rawURL string, handle func(io.Reader) error) error {
	var last error
	for attempt := 0; ; attempt++ {
		if err := f.limiter.wait(ctx); err != nil {
			return fmt.Errorf("%s: GET %s: %w", f.source, redact(rawURL), err)
		}
		retryAfter, retry, err := f.once(ctx, rawURL, handle)
		if err == nil {
			return nil
		}
		last = err
		if !retry || ctx.Err() != nil || attempt >= f.maxRetries {
			break
		}
		d := f.base << attempt
		if d > maxBackoff || d <= 0 {
			d = maxBackoff
		}
		d += time.Duration(rand.Int64N(int64(d)/5 + 1)) // jitter, so clients do not retry in step
		if retryAfter > d {
			d = min(retryAfter, maxBackoff)
		}
		if err := f.sleep(ctx, d); err != nil {
			break
		}
	}
	return fmt.Errorf("%s: GET %s: %w", f.source, redact(rawURL), last)
}

// once makes one attempt. It returns the server's Retry-After, whether the
// failure is worth a retry, and the failure.
func (f *fetcher) once(ctx context.Context, rawURL string, handle func(io.Reader) error) (time.Duration, bool, error) {
	actx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, rawURL, nil)
	if err != nil {
		return 0, false, err
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, true, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), true, &statusError{status: resp.StatusCode}
	}
	if resp.StatusCode/100 != 2 {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return 0, false, &statusError{status: resp.StatusCode, body: strings.TrimSpace(string(snippet))}
	}
	body := &readErrReader{r: resp.Body}
	if err := handle(body); err != nil {
		if body.err != nil {
			return 0, true, fmt.Errorf("reading the body (truncated response?): %w", body.err)
		}
		return 0, false, err
	}
	return 0, false, nil
}

// parseRetryAfter reads a Retry-After header: seconds or an HTTP date.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return t.Sub(now)
	}
	return 0
}

// redact hides API keys in a URL shown in an error.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	if q.Has("key") {
		q.Set("key", "REDACTED")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// tokenBucket allows rate requests per second with a burst of one.
type tokenBucket struct {
	mu    sync.Mutex
	rate  float64
	next  time.Time
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
}

func newTokenBucket(rate float64, now func() time.Time, sleep func(context.Context, time.Duration) error) *tokenBucket {
	return &tokenBucket{rate: rate, now: now, sleep: sleep}
}

// wait blocks until the next request may go.
func (t *tokenBucket) wait(ctx context.Context) error {
	t.mu.Lock()
	now := t.now()
	at := t.next
	if at.Before(now) {
		at = now
	}
	t.next = at.Add(time.Duration(float64(time.Second) / t.rate))
	t.mu.Unlock()
	return t.sleep(ctx, at.Sub(now))
}

// sameHost refuses a next-page link that leaves the host the import began
// on: a paging link is followed, not trusted. Ports are not compared (Azure
// writes prices.azure.com:443 in its links).
func sameHost(first, next string) error {
	a, err := url.Parse(first)
	if err != nil {
		return err
	}
	b, err := url.Parse(next)
	if err != nil {
		return fmt.Errorf("next page link %q: %w", next, err)
	}
	if !strings.EqualFold(a.Hostname(), b.Hostname()) || a.Scheme != b.Scheme {
		return fmt.Errorf("next page link %q leaves %s://%s", next, a.Scheme, a.Hostname())
	}
	return nil
}
