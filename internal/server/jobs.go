package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/app"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/report"
	"github.com/gpupick/gpupick/internal/store"
)

// SimulationRequest is the body of POST /api/v1/simulations.
type SimulationRequest struct {
	// Service is the service file (traffic, service, policy, slo): a JSON
	// object, or SERVICE.yaml text.
	Service Document `json:"service" schema:"service"`
	// Workload is the workload of a model service (service.kind: model),
	// in place of the file its service.workload names: a JSON object, or
	// YAML or JSON text.
	Workload Document `json:"workload,omitzero" schema:"workload"`
	// Trace is a trace's CSV text to replay, in the format traffic.format
	// names (azure, burstgpt or plain), in place of the file traffic.file
	// names; required when traffic.kind is trace. The 1 MiB body cap
	// bounds it (some 30,000 Azure rows): replay longer traces with
	// gpupick simulate --trace.
	Trace string `json:"trace,omitempty"`
	// Search looks for the cheapest policy (and, for a model service,
	// offer) that meets the SLO, as gpupick simulate --search; the job's
	// search field holds the answer.
	Search bool `json:"search,omitempty"`
	// Offers is, with search on a model service, how many of the best
	// other offers for the workload to try too (default 4, at most 10).
	Offers *int `json:"offers,omitempty"`
	// Lang is the language of the job's sentences (the search's policy
	// summaries, errors): en (the default) or zh.
	Lang string `json:"lang,omitempty"`
}

// Job states.
const (
	JobRunning   = "running"
	JobDone      = "done"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// JobJSON is a simulation job: its state, progress from 0 to 1, and once
// done the result (as `gpupick simulate -o json`) or, for a search, the
// search (as `gpupick simulate --search -o json`).
type JobJSON struct {
	ID       string                  `json:"id"`
	Status   string                  `json:"status"`
	Progress float64                 `json:"progress"`
	Created  time.Time               `json:"created"`
	Result   *autoscale.Result       `json:"result,omitempty"`
	Search   *autoscale.SearchResult `json:"search,omitempty"`
	Error    *ErrorBody              `json:"error,omitempty"`
	// Lang is the language the job was asked in (absent: English); a
	// poll answers in it unless its ?lang says otherwise.
	Lang string `json:"lang,omitempty"`
	// CancelKey is the job's own secret, given once, in the answer that
	// creates it: a DELETE that sends it (X-Cancel-Key) cancels the job
	// without an API token. The server keeps only its hash.
	CancelKey string `json:"cancel_key,omitempty"`
}

// sharedJob is a job's state as replicas share it through the store: what
// a poll shows, and the hash of its cancel key, which no poll shows.
type sharedJob struct {
	JobJSON
	KeyHash string `json:"key_hash,omitempty"`
}

// outcome is what a job's run gives: a simulation or a search.
type outcome struct {
	result *autoscale.Result
	search *autoscale.SearchResult
}

type job struct {
	id       string
	created  time.Time
	client   string // who started it: "token sha256:…" or "address 192.0.2.1"; "" counts against no client
	cancel   context.CancelFunc
	mu       sync.Mutex
	status   string
	progress float64
	outcome
	err     *ErrorBody
	lang    report.Lang // "" or en: English
	keyHash string      // SHA-256 of the cancel key, hex
	key     string      // the cancel key itself, until the answer that creates the job takes it
}

// keyHash is the hex SHA-256 of a job's cancel key.
func keyHash(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

// cancelKeyHeader carries a job's cancel key on a DELETE.
const cancelKeyHeader = "X-Cancel-Key"

// keyMatches reports whether r carries the cancel key whose hash is hash.
func keyMatches(r *http.Request, hash string) bool {
	k := strings.TrimSpace(r.Header.Get(cancelKeyHeader))
	return k != "" && hash != "" && subtle.ConstantTimeCompare([]byte(keyHash(k)), []byte(hash)) == 1
}

func (j *job) view() JobJSON {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := JobJSON{ID: j.id, Status: j.status, Progress: j.progress, Created: j.created, Result: j.result, Search: j.search, Error: j.err}
	if j.lang != report.English {
		v.Lang = string(j.lang)
	}
	return v
}

// jobs keeps simulation jobs in memory: at most maxRunning at once, at
// most maxPerClient of them a client's, and the newest maxKept of them.
// Each runs for at most timeLimit of wall-clock time, and only when its
// estimate is within limits. A job runs in the replica that took it; with a
// store (shared by the replicas behind a load balancer) it also writes its
// state there when it starts, every syncEvery while it runs, when it is
// cancelled and when it ends, so any replica can report it, and it heeds a
// cancel asked through any replica.
type jobs struct {
	mu           sync.Mutex
	byID         map[string]*job
	order        []string // oldest first
	running      int
	maxRunning   int
	perClient    map[string]int // running jobs by client
	maxPerClient int
	timeLimit    time.Duration
	limits       autoscale.Limits
	maxKept      int
	now          func() time.Time
	wg           sync.WaitGroup
	shared       store.Jobs // nil without a store
	log          *slog.Logger
}

// Bounds of the simulation jobs, against one client taking the service:
//
//   - jobsPerClient: a client (its token when the request carries a valid
//     one, else its address) runs at most two jobs at once, so that the
//     MaxJobs slots (4 by default) are never all one client's;
//   - jobTimeLimit: a job stops, failed, after ten minutes of wall-clock
//     time, whatever it was doing;
//   - jobLimits: a job whose estimate passes them is refused with 400
//     before it starts: 3×10^9 events, which the policy search of
//     examples/service-model.yaml (1.3×10^9) fits in, some five minutes
//     of a core, and a year of simulated traffic.
const (
	jobsPerClient = 2
	jobTimeLimit  = 10 * time.Minute
	// jobRetryAfter is the Retry-After of a 429: most jobs end within it.
	jobRetryAfter = 10 * time.Second
)

var jobLimits = autoscale.Limits{MaxCost: 3e9, MaxHorizonS: autoscale.MaxHorizonS}

// syncEvery is how often a running job writes its state to the store, and
// so how stale another replica's answer can be; a running job not written
// for lostAfter has lost its replica (the margin also covers clock skew
// between replicas); jobKeep is how long finished jobs stay in the store.
const (
	syncEvery = time.Second
	lostAfter = 30 * syncEvery
	jobKeep   = 24 * time.Hour
)

func newJobs(maxRunning, maxKept int, now func() time.Time, shared store.Jobs, log *slog.Logger) *jobs {
	return &jobs{byID: map[string]*job{}, maxRunning: maxRunning, perClient: map[string]int{}, maxPerClient: jobsPerClient,
		timeLimit: jobTimeLimit, limits: jobLimits, maxKept: maxKept, now: now, shared: shared, log: log}
}

// sync writes j's state to the store and reports whether a client asked,
// through any replica, to cancel it. Failures are logged: the job goes on,
// and this replica still answers for it.
func (js *jobs) sync(j *job) bool {
	if js.shared == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, err := json.Marshal(sharedJob{JobJSON: j.view(), KeyHash: j.keyHash})
	if err == nil {
		err = js.shared.PutJob(ctx, j.id, b)
	}
	var st store.JobState
	if err == nil {
		st, err = js.shared.GetJob(ctx, j.id)
	}
	if err != nil {
		js.log.Warn("simulation state not shared", "id", j.id, "error", err.Error())
	}
	return st.CancelRequested
}

// stored returns the state of a job another replica runs.
func (js *jobs) stored(id string) (JobJSON, error) {
	v, err := js.storedShared(id)
	return v.JobJSON, err
}

// storedShared is stored with the job's cancel-key hash.
func (js *jobs) storedShared(id string) (sharedJob, error) {
	if js.shared == nil {
		return sharedJob{}, apperr.NotFoundf("id", "no simulation %q (finished ones are kept for a while, then dropped)", id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := js.shared.GetJob(ctx, id)
	if err != nil {
		return sharedJob{}, err
	}
	var v sharedJob
	if err := json.Unmarshal(st.State, &v); err != nil {
		return sharedJob{}, apperr.Wrap(apperr.Internal, "read simulation "+id, err)
	}
	if v.Status == JobRunning && js.now().Sub(st.Updated) > lostAfter {
		// The replica running it stopped writing: it went away.
		v.Status = JobFailed
		v.Error = &ErrorBody{Code: string(apperr.Unavailable), Message: fmt.Sprintf(
			"the replica running this simulation stopped reporting at %s: submit it again", st.Updated.Format(time.RFC3339))}
	}
	return v, nil
}

var errBusy = &httpError{http.StatusTooManyRequests, ErrorBody{Code: codeRateLimited,
	Message: "too many simulations running: wait for one to finish or cancel one"}}

// errClientBusy answers a client that already runs its share of the jobs.
func errClientBusy(n int) error {
	return &httpError{http.StatusTooManyRequests, ErrorBody{Code: codeRateLimited, Message: fmt.Sprintf(
		"you already run %d simulations, the most one client may run at once: wait for one to finish or cancel one (DELETE /api/v1/simulations/{id})", n)}}
}

// errCancelled stops a simulation from inside its progress callback, for a
// run that does not take the job's context.
var errCancelled = errors.New("cancelled")

// admits reports whether client could start a job now (errBusy or
// errClientBusy if not), so that a request over its share is refused
// before the work of preparing it.
func (js *jobs) admits(client string) error {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.full(client)
}

// full is admits with js.mu held.
func (js *jobs) full(client string) error {
	if client != "" && js.perClient[client] >= js.maxPerClient {
		return errClientBusy(js.perClient[client])
	}
	if js.running >= js.maxRunning {
		return errBusy
	}
	// The last free slot goes to a client that runs none: no one client
	// (nor two) can hold every slot.
	if client != "" && js.maxRunning > 1 && js.running == js.maxRunning-1 && js.perClient[client] > 0 {
		return errClientBusy(js.perClient[client])
	}
	return nil
}

// start runs run in a new job that counts against no client and returns it.
func (js *jobs) start(run func(progress func(done, total float64)) (outcome, error)) (*job, error) {
	return js.startFor("", func(_ context.Context, progress func(float64, float64)) (outcome, error) { return run(progress) })
}

// startFor runs run in a new job of client and returns it. run gets the
// job's context, cancelled when a client cancels the job and past the
// job's time limit, and should stop soon after it is done (pass it to
// autoscale.Options.Context); progress also stops it then, by panicking.
func (js *jobs) startFor(client string, run func(ctx context.Context, progress func(done, total float64)) (outcome, error)) (*job, error) {
	js.mu.Lock()
	if err := js.full(client); err != nil {
		js.mu.Unlock()
		return nil, err
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	limit := js.timeLimit
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	began := time.Now() // the wall clock, whatever js.now says
	j := &job{id: hex.EncodeToString(b), created: js.now(), client: client, cancel: cancel, status: JobRunning,
		key: hex.EncodeToString(key)}
	j.keyHash = keyHash(j.key)
	js.byID[j.id] = j
	js.order = append(js.order, j.id)
	js.running++
	if client != "" {
		js.perClient[client]++
	}
	js.evict()
	js.wg.Add(1)
	js.mu.Unlock()
	js.sync(j) // before the answer, so every replica knows the id at once
	go func() {
		defer js.wg.Done()
		stopBeat := js.heartbeat(ctx, j)
		res, err := js.runJob(ctx, j, run)
		stopBeat()
		stopped := ctx.Err() != nil // asked to stop, here or through another replica, or out of time
		timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
		cancel()
		j.mu.Lock()
		switch {
		case j.status == JobCancelled: // cancelled while finishing
		case err != nil && timedOut:
			j.status = JobFailed
			j.err = &ErrorBody{Code: string(apperr.Unavailable), Message: fmt.Sprintf(
				"stopped after %.3g s: the limit is %.3g s of running time for a simulation on this service; shorten traffic.duration_s or the trace, or run it with gpupick simulate",
				time.Since(began).Seconds(), limit.Seconds())}
		case errors.Is(err, errCancelled) || (err != nil && stopped):
			j.status = JobCancelled
		case err != nil:
			j.status = JobFailed
			b := errorBody(err)
			j.err = &b
		default:
			j.status, j.outcome, j.progress = JobDone, res, 1
		}
		j.mu.Unlock()
		js.sync(j)
		if js.shared != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, _ = js.shared.PruneJobs(ctx, js.now().Add(-jobKeep))
			cancel()
		}
		js.mu.Lock()
		js.running--
		if j.client != "" {
			if js.perClient[j.client]--; js.perClient[j.client] <= 0 {
				delete(js.perClient, j.client)
			}
		}
		js.evict()
		js.mu.Unlock()
	}()
	return j, nil
}

// heartbeat writes j's state to the store every syncEvery while it runs,
// whatever the simulator is doing, and cancels it when a client asked to
// through another replica. The returned function stops it.
func (js *jobs) heartbeat(ctx context.Context, j *job) func() {
	if js.shared == nil {
		return func() {}
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(syncEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if js.sync(j) {
					j.cancel()
				}
			}
		}
	}()
	return func() { close(done); <-stopped }
}

func (js *jobs) runJob(ctx context.Context, j *job, run func(context.Context, func(float64, float64)) (outcome, error)) (res outcome, err error) {
	defer func() {
		if v := recover(); v != nil {
			if v == errCancelled { //nolint:errorlint // our own sentinel, panicked as is
				err = errCancelled
				return
			}
			err = apperr.Wrap(apperr.Internal, "simulation", fmt.Errorf("panic: %v", v))
		}
	}()
	return run(ctx, func(done, total float64) {
		if ctx.Err() != nil {
			panic(errCancelled)
		}
		if total > 0 {
			j.mu.Lock()
			j.progress = min(1, done/total)
			j.mu.Unlock()
		}
	})
}

// evict drops the oldest finished jobs beyond maxKept; js.mu is held.
func (js *jobs) evict() {
	for i := 0; len(js.byID) > js.maxKept && i < len(js.order); {
		j := js.byID[js.order[i]]
		j.mu.Lock()
		done := j.status != JobRunning
		j.mu.Unlock()
		if !done {
			i++
			continue
		}
		delete(js.byID, j.id)
		js.order = append(js.order[:i], js.order[i+1:]...)
	}
}

func (js *jobs) get(id string) (*job, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.byID[id]
	if !ok {
		return nil, apperr.NotFoundf("id", "no simulation %q (finished ones are kept for a while, then dropped)", id)
	}
	return j, nil
}

func (js *jobs) cancelAll() {
	js.mu.Lock()
	for _, j := range js.byID {
		j.cancel()
	}
	js.mu.Unlock()
	js.wg.Wait()
}

// jobClient is who a job counts against: the client's network, an IPv4
// address or an IPv6 /64 (one host holds a whole /64, so counting its
// addresses one by one would let it take every slot). A token does not
// make a new client: the same network counts once however it signs.
func (s *Server) jobClient(r *http.Request) string {
	ip := s.clientIP(r)
	if a, err := netip.ParseAddr(ip); err == nil && a.Is6() && !a.Is4In6() {
		if p, err := a.Prefix(64); err == nil {
			return "network " + p.String()
		}
	}
	return "address " + ip
}

func (s *Server) submitSimulation(w http.ResponseWriter, r *http.Request, in *SimulationRequest) (JobJSON, error) {
	client := s.jobClient(r)
	j, err := s.prepareSimulation(r, client, in)
	var he *httpError
	if errors.As(err, &he) && he.status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", fmt.Sprint(int(jobRetryAfter.Seconds())))
	}
	if err != nil {
		return JobJSON{}, err
	}
	l := requestLang(in)
	j.mu.Lock()
	j.lang = l
	key := j.key
	j.key = "" // given once
	j.mu.Unlock()
	v := j.view()
	v.CancelKey = key
	localizeJob(&v, l)
	return v, nil
}

// prepareSimulation checks a simulation request, estimates its work and
// starts its job for client.
func (s *Server) prepareSimulation(r *http.Request, client string, in *SimulationRequest) (*job, error) {
	if err := s.jobs.admits(client); err != nil { // before the work of preparing it
		return nil, err
	}
	if in.Service.IsZero() {
		return nil, apperr.Invalidf("service", "a service (a JSON object, or SERVICE.yaml text) is required")
	}
	spec, err := autoscale.ParseSpec(in.Service.Bytes())
	if err != nil {
		return nil, apperr.InFile(in.Service.parsed(err), "service")
	}
	offers := 4
	if in.Offers != nil {
		if !in.Search {
			return nil, apperr.Invalidf("offers", "only a search (search: true) tries other offers")
		}
		if offers = *in.Offers; offers < 0 || offers > 10 {
			return nil, apperr.Invalidf("offers", "must be 0 to 10, got %d", offers)
		}
	}
	source := func() (autoscale.Source, error) { return nil, nil }
	switch {
	case in.Trace != "":
		source = func() (autoscale.Source, error) { return app.ReadTrace(spec, strings.NewReader(in.Trace), "trace") }
	case spec.Traffic.Kind == autoscale.TrafficTrace:
		return nil, apperr.Invalidf("trace", "traffic.kind is trace: send the trace's CSV text in the request's trace field")
	}
	stats, err := checkTrace(source, spec.Traffic.DurationS) // a bad row fails now, not in the job
	if err != nil {
		return nil, err
	}
	var model *autoscale.BatchModel
	candidates := []autoscale.Candidate{{Name: spec.Name, PricePerHourUSD: spec.Pricing.PerHourUSD}}
	if spec.Service.Kind == autoscale.ServiceModel {
		if in.Workload.IsZero() {
			return nil, apperr.Invalidf("workload", "a model service needs the workload (an object or its text) in the request's workload field")
		}
		ws, err := parseWorkload(in.Workload)
		if err != nil {
			return nil, err
		}
		st := s.st()
		c := st.cat
		o, err := app.FindOffer(c, app.JSON, spec.Service.Offer)
		if err != nil {
			return nil, apperr.Wrap(apperr.Invalid, "service.offer", err)
		}
		var allowed bool
		if o, allowed, err = app.PickRegion(c, app.JSON, o, "", ws.Compliance, catalog.OnDemand); err != nil {
			return nil, apperr.Wrap(apperr.Invalid, "service.offer", err)
		}
		if !allowed {
			return nil, apperr.Invalidf("service.offer", "no region of %s meets the workload's compliance block", o.ID())
		}
		if model, err = advisor.ServiceModel(spec, ws, c, o); err != nil {
			return nil, err
		}
		// One run over the limit is refused before the search's offers
		// are ranked.
		if err := s.jobs.check(autoscale.EstimateRun(spec, stats, model)); err != nil {
			return nil, err
		}
		if in.Search {
			release, err := s.admit(r.Context()) // it runs a recommendation
			if err != nil {
				return nil, err
			}
			candidates = app.SearchCandidates(spec, ws, c, st.checker.Checks(), o, model, offers, s.now())
			release()
		}
	} else if !in.Workload.IsZero() {
		return nil, apperr.Invalidf("workload", "only a model service (service.kind: model) takes a workload")
	}
	est := autoscale.EstimateRun(spec, stats, model)
	if in.Search {
		est = autoscale.EstimateSearch(spec, stats, candidates)
	}
	if err := s.jobs.check(est); err != nil {
		return nil, err
	}
	return s.jobs.startFor(client, func(ctx context.Context, progress func(float64, float64)) (outcome, error) {
		opts := autoscale.Options{Context: ctx, Progress: progress}
		if in.Search {
			res, err := autoscale.Search(spec, candidates, func() autoscale.Source {
				src, _ := source() // read without error above
				return src
			}, opts)
			if !errors.Is(err, context.Canceled) { // a cancel is no failure
				s.metrics.evaluated("simulate_search", err)
			}
			return outcome{search: res}, err
		}
		src, _ := source()
		res, err := autoscale.Simulate(spec, src, model, opts)
		if !errors.Is(err, context.Canceled) {
			s.metrics.evaluated("simulate", err)
		}
		return outcome{result: res}, err
	})
}

// check refuses work whose estimate passes the service's limits: a 400
// that gives the estimate and the limit.
func (js *jobs) check(est autoscale.Estimate) error {
	err := est.Check(js.limits)
	var e *apperr.Error
	if errors.As(err, &e) {
		e.Extend("%s (these are this service's limits: gpupick simulate runs longer work with --force)")
	}
	return err
}

// checkTrace reads the request's trace once, whole (the body cap bounds
// it), so that a malformed row or an empty trace is a 400 naming its line
// rather than a failed job, and returns its length for the estimate (nil
// without a trace). cutS is traffic.duration_s.
func checkTrace(source func() (autoscale.Source, error), cutS float64) (*autoscale.TraceStats, error) {
	src, err := source()
	if err != nil || src == nil {
		return nil, err
	}
	st, err := autoscale.ScanTrace(src, cutS)
	var e *apperr.Error
	if errors.As(err, &e) { // the request's key, then the trace's column
		e.Field = strings.TrimSuffix("trace."+e.Field, ".")
	}
	if err != nil {
		return nil, err
	}
	return &st, nil
}

func (s *Server) getSimulation(_ http.ResponseWriter, r *http.Request, _ *noBody) (JobJSON, error) {
	if _, err := jobLang(r, JobJSON{}); err != nil { // a bad ?lang before anything
		return JobJSON{}, err
	}
	j, err := s.jobs.get(r.PathValue("id"))
	var v JobJSON
	switch {
	case apperr.CodeOf(err) == apperr.NotFound:
		if v, err = s.jobs.stored(r.PathValue("id")); err != nil { // another replica's
			return v, err
		}
	case err != nil:
		return JobJSON{}, err
	default:
		v = j.view()
	}
	l, _ := jobLang(r, v)
	localizeJob(&v, l)
	return v, nil
}

// jobLang is the language of a poll's answer: its ?lang, else the one the
// job was asked in.
func jobLang(r *http.Request, v JobJSON) (report.Lang, error) {
	q := r.URL.Query().Get("lang")
	if q == "" {
		q = v.Lang
	}
	return parseLang(q)
}

func (s *Server) cancelSimulation(_ http.ResponseWriter, r *http.Request, _ *noBody) (JobJSON, error) {
	id := r.PathValue("id")
	// Only the holder of the job's cancel key (given when it was created)
	// or of an API token may stop a job; to anyone else it is not there.
	refused := apperr.NotFoundf("id", "no simulation %q you may cancel: send the cancel_key its creation returned as %s, or an API token", id, cancelKeyHeader)
	j, err := s.jobs.get(id)
	if apperr.CodeOf(err) == apperr.NotFound && s.jobs.shared != nil {
		// Another replica runs it: it stops at its next sync.
		st, err := s.jobs.storedShared(id)
		if err != nil {
			return JobJSON{}, err
		}
		if !keyMatches(r, st.KeyHash) && s.authorize(r) != nil {
			return JobJSON{}, refused
		}
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := s.jobs.shared.RequestCancel(ctx, id); err != nil {
			return JobJSON{}, err
		}
		return s.jobs.stored(id)
	}
	if err != nil {
		return JobJSON{}, err
	}
	if !keyMatches(r, j.keyHash) && s.authorize(r) != nil {
		return JobJSON{}, refused
	}
	j.cancel()
	j.mu.Lock()
	if j.status == JobRunning {
		j.status = JobCancelled // the simulator stops at its next progress call
	}
	j.mu.Unlock()
	s.jobs.sync(j) // the other replicas see it at once
	v := j.view()
	l, _ := jobLang(r, v)
	localizeJob(&v, l)
	return v, nil
}
