package autoscale

import (
	"fmt"
	"math"
	"testing"
)

// erlangCWait is the mean wait in queue of M/M/c with arrival rate lambda
// and service rate mu per server (Erlang C).
func erlangCWait(c int, lambda, mu float64) float64 {
	a := lambda / mu
	rho := a / float64(c)
	// Erlang B by the stable recursion, then C.
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	pc := b / (1 - rho + rho*b)
	return pc / (float64(c)*mu - lambda)
}

// pkWait is the Pollaczek-Khinchine mean wait of M/D/1 with service time d.
func pkWait(lambda, d float64) float64 {
	rho := lambda * d
	return rho * d / (2 * (1 - rho))
}

func queueSpec(t testing.TB, dist string, c int, rate, meanS, durationS float64, seed uint64) *Spec {
	t.Helper()
	y := fmt.Sprintf(`
traffic: {kind: poisson, rate_per_s: %v, duration_s: %v, seed: %d}
service: {kind: distribution, distribution: %s, mean_s: %v, cold_start_s: 0, max_queue: 10000000}
policy: {kind: fixed, replicas: %d}
pricing: {per_hour_usd: 1}
`, rate, durationS, seed, dist, meanS, c)
	s, err := ParseSpec([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestErlangC(t *testing.T) {
	n := 4_000_000.0 // requests per case
	if testing.Short() {
		n = 1_000_000
	}
	for _, tc := range []struct {
		c   int
		rho float64
	}{{1, 0.5}, {4, 0.8}, {8, 0.9}, {2, 0.9}} {
		t.Run(fmt.Sprintf("c=%d/rho=%v", tc.c, tc.rho), func(t *testing.T) {
			t.Parallel()
			mu := 1.0
			lambda := tc.rho * float64(tc.c) * mu
			runs := n
			if tc.rho >= 0.9 {
				runs *= 2 // heavy traffic: the estimate of the mean wait converges slowly
			}
			spec := queueSpec(t, "exponential", tc.c, lambda, 1/mu, runs/lambda, 7)
			res, err := Simulate(spec, nil, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := erlangCWait(tc.c, lambda, mu)
			got := res.Wait.MeanS
			rel := (got - want) / want
			t.Logf("M/M/%d rho=%.2f: wait %.5f s, Erlang C %.5f s, error %+.2f%% (%d requests)", tc.c, tc.rho, got, want, 100*rel, res.Requests)
			if math.Abs(rel) > 0.03 {
				t.Errorf("mean wait %.5f, want %.5f within 3%% (%+.2f%%)", got, want, 100*rel)
			}
			if u := res.Utilization; math.Abs(u-tc.rho) > 0.01 {
				t.Errorf("utilization %.4f, want %.2f", u, tc.rho)
			}
		})
	}
}

func TestPollaczekKhinchine(t *testing.T) {
	n := 4_000_000.0
	if testing.Short() {
		n = 1_000_000
	}
	for _, rho := range []float64{0.5, 0.8, 0.9} {
		t.Run(fmt.Sprintf("rho=%v", rho), func(t *testing.T) {
			t.Parallel()
			d := 0.1
			lambda := rho / d
			runs := n
			if rho >= 0.9 {
				runs *= 2
			}
			spec := queueSpec(t, "deterministic", 1, lambda, d, runs/lambda, 11)
			res, err := Simulate(spec, nil, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := pkWait(lambda, d)
			rel := (res.Wait.MeanS - want) / want
			t.Logf("M/D/1 rho=%.2f: wait %.5f s, P-K %.5f s, error %+.2f%%", rho, res.Wait.MeanS, want, 100*rel)
			if math.Abs(rel) > 0.03 {
				t.Errorf("mean wait %.5f, want %.5f within 3%% (%+.2f%%)", res.Wait.MeanS, want, 100*rel)
			}
		})
	}
}
