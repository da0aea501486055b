package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/msg"
	"github.com/gpupick/gpupick/internal/store"
)

// jobIndexEnv is where a Kubernetes Indexed Job gives each pod its index.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

// stopAfterEnv, in tests only, makes a shard stop with an error after
// storing that many units, as if it were killed there.
const stopAfterEnv = "GPUPICK_TEST_SEARCH_STOP_AFTER"

// shardOf resolves --shards and --shard: the index from JOB_COMPLETION_INDEX
// when --shard is not given.
func (e *Env) shardOf(shards, index int, indexSet bool) (autoscale.Shard, error) {
	if !indexSet {
		v := e.getenv(jobIndexEnv)
		if v == "" {
			return autoscale.Shard{}, apperr.Invalidf("--shard", "give --shard I (0 to %d) or set %s, as a Kubernetes Indexed Job does", shards-1, jobIndexEnv)
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return autoscale.Shard{}, apperr.Invalidf("--shard", "%s=%q is not a whole number", jobIndexEnv, v)
		}
		index = n
	}
	s := autoscale.Shard{Index: index, Count: shards}
	return s, s.Validate()
}

// searchFingerprint is a digest of what a search's result depends on: the
// code, the service file (its seed among it), the trace and the candidates
// with their batching models and prices.
func searchFingerprint(service, trace []byte, candidates []autoscale.Candidate) string {
	h := sha256.New()
	fmt.Fprintf(h, "gpupick search 1\ncode %s\n", codeVersion())
	fmt.Fprintf(h, "service %d\n", len(service))
	h.Write(service)
	fmt.Fprintf(h, "trace %d\n", len(trace))
	h.Write(trace)
	for _, c := range candidates {
		b, _ := json.Marshal(c) // plain numbers and strings
		fmt.Fprintf(h, "candidate %s\n", b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// codeVersion names the build: the release, and the VCS revision when the
// binary was built from a checkout.
func codeVersion() string {
	v := version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				v += " " + s.Key + "=" + s.Value
			}
		}
	}
	return v
}

// searchStore opens the store a sharded search writes to: --db, else
// $GPUPICK_DB, else the default SQLite file, as serve picks it.
func (e *Env) searchStore(ctx context.Context, create bool) (store.Store, store.Searches, error) {
	var s store.Store
	var err error
	if create {
		dsn, derr := e.storeDSN(e.dbFlag)
		if derr != nil {
			return nil, nil, derr
		}
		s, err = store.Open(ctx, dsn, store.WithClock(e.Now))
	} else {
		s, _, err = e.openExistingStore(ctx, e.dbFlag)
	}
	if err != nil {
		return nil, nil, err
	}
	sr, ok := s.(store.Searches)
	if !ok {
		s.Close()
		return nil, nil, apperr.Invalidf("--db", "this store keeps no search results")
	}
	return s, sr, nil
}

// shardRun is one shard of a sharded search.
type shardRun struct {
	Shard       autoscale.Shard
	SearchID    string
	Fingerprint string
	Spec        *autoscale.Spec
	Candidates  []autoscale.Candidate
	Trace       func() autoscale.Source
	Options     autoscale.Options
}

// runShard searches the shard's candidates that the store does not hold
// yet, storing each as soon as it is searched, and marks the shard done. A
// shard already done is not run again.
func (e *Env) runShard(ctx context.Context, r shardRun) error {
	st, sr, err := e.searchStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	sh, err := sr.StartSearchShard(ctx, store.SearchShard{SearchID: r.SearchID, Shard: r.Shard.Index, Shards: r.Shard.Count,
		Units: len(r.Candidates), Fingerprint: r.Fingerprint})
	if err != nil {
		return err
	}
	if !sh.Done.IsZero() {
		_, err := fmt.Fprintf(e.Stdout, "shard %d of %d of search %s was done at %s: nothing to do\n", r.Shard.Index, r.Shard.Count, r.SearchID, sh.Done.Format(time.RFC3339))
		return err
	}
	have, err := sr.SearchUnitKeys(ctx, r.SearchID)
	if err != nil {
		return err
	}
	stopAfter, _ := strconv.Atoi(e.getenv(stopAfterEnv))
	var searched, skipped, runs int
	for i, c := range r.Candidates {
		if !r.Shard.Owns(i) {
			continue
		}
		key := autoscale.UnitKey(i, c)
		if have[key] {
			skipped++
			continue
		}
		if stopAfter > 0 && searched == stopAfter {
			return &apperr.Error{Code: apperr.Internal, Message: msg.New("stopped after %d unit(s) (%s)", searched, stopAfterEnv)}
		}
		entries, err := autoscale.SearchCandidate(r.Spec, c, r.Trace, r.Options)
		if err != nil {
			return err
		}
		b, err := autoscale.EncodeEntries(entries)
		if err != nil {
			return apperr.Wrap(apperr.Internal, "encode the entries of "+key, err)
		}
		if err := sr.PutSearchUnit(ctx, r.SearchID, store.SearchUnit{Key: key, Unit: i, Shard: r.Shard.Index, Result: b}); err != nil {
			return err
		}
		searched++
		runs += len(entries)
	}
	if err := sr.FinishSearchShard(ctx, r.SearchID, r.Shard.Index); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.Stdout, "shard %d of %d of search %s done: %d candidate(s) searched (%d runs), %d already stored\nmerge with: gpupick simulate --search-results %s\n",
		r.Shard.Index, r.Shard.Count, r.SearchID, searched, runs, skipped, r.SearchID)
	return err
}

// mergeSearch reads every unit of a sharded search and ranks them as
// Search does: the units in candidate order, so that the result is the
// single-process one exactly. A search with shards not done is an error
// that names them.
func (e *Env) mergeSearch(ctx context.Context, id string) (*autoscale.SearchResult, error) {
	st, sr, err := e.searchStore(ctx, false)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	shards, err := sr.SearchShards(ctx, id)
	if err != nil {
		return nil, err
	}
	units, err := sr.SearchUnits(ctx, id)
	if err != nil {
		return nil, err
	}
	return mergeUnits(id, shards, units)
}

// mergeUnits is mergeSearch on what the store returned.
func mergeUnits(id string, shards []store.SearchShard, units []store.SearchUnit) (*autoscale.SearchResult, error) {
	n, total := shards[0].Shards, shards[0].Units
	done := map[int]bool{}
	started := map[int]bool{}
	for _, sh := range shards {
		started[sh.Shard] = true
		if !sh.Done.IsZero() {
			done[sh.Shard] = true
		}
	}
	var missing []string
	for i := range n {
		switch {
		case done[i]:
		case started[i]:
			missing = append(missing, fmt.Sprintf("%d (started, not finished)", i))
		default:
			missing = append(missing, fmt.Sprintf("%d (never started)", i))
		}
	}
	if len(missing) > 0 {
		return nil, &apperr.Error{Code: apperr.Unavailable, Field: "--search-results", Message: msg.New(
			"search %s is incomplete: %d of %d shard(s) not done: shard %s; run them (gpupick simulate -f SERVICE.yaml --search --shards %d --shard I --search-id %s) and merge again",
			id, len(missing), n, strings.Join(missing, ", shard "), n, id)}
	}
	if len(units) != total {
		return nil, &apperr.Error{Code: apperr.Internal, Field: "--search-results", Message: msg.New(
			"search %s: every shard is done but the store holds %d of its %d unit(s)", id, len(units), total)}
	}
	for i, u := range units {
		if u.Unit != i {
			return nil, &apperr.Error{Code: apperr.Internal, Field: "--search-results", Message: msg.New("search %s: unit %d is missing", id, i)}
		}
	}
	// Decode every unit into its place in one slice, sized from the counts
	// at the head of each unit, spread over the cores; the order stays the
	// candidates'. A unit stored as JSON (by an earlier version) has no
	// count at its head: then the units are decoded apart and joined.
	starts := make([]int, len(units)+1)
	for i, u := range units {
		n := autoscale.CountEntries(u.Result)
		if n < 0 {
			starts = nil
			break
		}
		starts[i+1] = starts[i] + n
	}
	var all []autoscale.SearchEntry
	errs := make([]error, len(units))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	if starts != nil {
		all = make([]autoscale.SearchEntry, starts[len(units)])
		for w := range workers {
			wg.Go(func() {
				var dec autoscale.EntryDecoder
				for i := w; i < len(units); i += workers {
					got, err := dec.Decode(all[starts[i]:starts[i]:starts[i+1]], units[i].Result)
					if err == nil && len(got) != starts[i+1]-starts[i] {
						err = fmt.Errorf("%d entries, the head says %d", len(got), starts[i+1]-starts[i])
					}
					errs[i] = err
				}
			})
		}
		wg.Wait()
	} else {
		decoded := make([][]autoscale.SearchEntry, len(units))
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(units); i += workers {
					decoded[i], errs[i] = autoscale.DecodeEntries(nil, units[i].Result)
				}
			})
		}
		wg.Wait()
		for _, d := range decoded {
			all = append(all, d...)
		}
	}
	for i, err := range errs {
		if err != nil {
			return nil, apperr.Wrap(apperr.Internal, "decode unit "+units[i].Key+" of search "+id, err)
		}
	}
	return autoscale.RankSearch(all), nil
}

// searchPlan says, before a search starts, how long it should take and how
// many shards would bring it under target.
func searchPlan(est autoscale.Estimate, target time.Duration, shards int) string {
	wall := est.Wall().Round(time.Second)
	s := fmt.Sprintf("search estimate: %s; about %s in one process (at %.2g events/s)", est, wall, autoscale.EventsPerSecond)
	if shards > 1 {
		s += fmt.Sprintf("; about %s a shard with --shards %d", est.ShardWall(shards).Round(time.Second), shards)
	}
	if n, ok := est.ShardsUnder(target); ok {
		if n > 1 {
			s += fmt.Sprintf("; %d shards (--shards %d) would bring it under %s", n, n, target)
		} else {
			s += fmt.Sprintf("; under %s without shards", target)
		}
	} else {
		s += fmt.Sprintf("; even %d shards (one per candidate) would take about %s, over %s: shorten the trace or search fewer offers", n, est.ShardWall(n).Round(time.Second), target)
	}
	return s
}
