package autoscale

import (
	"math"
	"math/rand/v2"
)

// Request is one inference request: when it arrives and how long its prompt
// and answer are. ArrivalS is seconds from the start of the run and never
// decreases from one request to the next; token counts are >= 0.
type Request struct {
	ArrivalS     float64
	PromptTokens int
	OutputTokens int
}

// Source yields requests in order of arrival. Next returns false when there
// are no more. A source that can fail (a trace reader) also has an Err method
// (see ErrSource), which Simulate checks once Next returns false.
type Source interface {
	Next() (Request, bool)
}

// ErrSource is a Source that can fail part-way; Err reports the first
// failure (nil at a clean end). Trace readers implement it.
type ErrSource interface {
	Source
	Err() error
}

// tokenGen draws prompt and output lengths around their means.
type tokenGen struct {
	dist           string // fixed | exponential | lognormal
	prompt, output float64
	sigma          float64 // lognormal shape, from the coefficient of variation
}

func newTokenGen(t *Traffic) tokenGen {
	g := tokenGen{dist: t.TokenDist, prompt: float64(t.PromptTokens), output: float64(t.OutputTokens)}
	if g.dist == "lognormal" {
		g.sigma = math.Sqrt(math.Log(1 + t.TokenCV*t.TokenCV))
	}
	return g
}

func (g *tokenGen) draw(r *rand.Rand) (int, int) {
	switch g.dist {
	case "exponential":
		return int(math.Round(g.prompt * r.ExpFloat64())), int(math.Round(g.output * r.ExpFloat64()))
	case "lognormal":
		mu := -g.sigma * g.sigma / 2 // so that the mean of the factor is 1
		p := g.prompt * math.Exp(mu+g.sigma*r.NormFloat64())
		o := g.output * math.Exp(mu+g.sigma*r.NormFloat64())
		return int(math.Round(p)), int(math.Round(o))
	}
	return int(g.prompt), int(g.output)
}

// generator is the synthetic Source: a (possibly time-varying) Poisson
// process, or a constant-rate one, cut at the traffic's duration.
type generator struct {
	t      Traffic
	rng    *rand.Rand
	tok    tokenGen
	now    float64
	end    float64
	rateFn func(float64) float64 // instantaneous rate per second, for thinning
	maxR   float64               // bound on rateFn, > 0
	// bursty: Markov-modulated Poisson process with two states
	burst    bool
	switchAt float64
}

// NewSource returns the synthetic source that spec's traffic block describes
// (every kind but trace), seeded with seed: the same seed gives the same
// requests. The traffic must have been completed by ParseSpec.
func NewSource(t *Traffic, seed uint64) (Source, error) {
	if t.Kind == TrafficTrace {
		return nil, invalidf("traffic.kind", "a trace is read with ReadTrace, not generated")
	}
	g := &generator{t: *t, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), tok: newTokenGen(t), end: t.DurationS}
	rate := t.RatePerS
	switch t.Kind {
	case TrafficDiurnal:
		amp, peak := t.Amplitude, t.PeakHour
		g.rateFn = func(s float64) float64 {
			h := math.Mod(s/3600+t.StartHour, 24)
			return rate * (1 + amp*math.Cos(2*math.Pi*(h-peak)/24))
		}
		g.maxR = rate * (1 + amp)
		if t.BurstMultiplier > 1 {
			// Bursts modulate the daily curve: a two-state Markov chain
			// (calm, burst) advanced as the thinning's candidates pass.
			day := g.rateFn
			g.switchAt = g.rng.ExpFloat64() * t.CalmMeanS
			g.rateFn = func(s float64) float64 {
				for s >= g.switchAt {
					g.burst = !g.burst
					m := t.CalmMeanS
					if g.burst {
						m = t.BurstMeanS
					}
					g.switchAt += g.rng.ExpFloat64() * m
				}
				if g.burst {
					return day(s) * t.BurstMultiplier
				}
				return day(s)
			}
			g.maxR *= t.BurstMultiplier
		}
	case TrafficSpikes:
		every, dur, spike := t.SpikeEveryS, t.SpikeDurationS, t.SpikeRatePerS
		g.rateFn = func(s float64) float64 {
			if math.Mod(s, every) >= every-dur {
				return spike
			}
			return rate
		}
		g.maxR = math.Max(rate, spike)
	case TrafficBursty:
		g.switchAt = g.rng.ExpFloat64() * t.CalmMeanS
	}
	return g, nil
}

func (g *generator) Next() (Request, bool) {
	t := &g.t
	switch t.Kind {
	case TrafficConstant:
		g.now += 1 / t.RatePerS
	case TrafficPoisson:
		g.now += g.rng.ExpFloat64() / t.RatePerS
	case TrafficBursty:
		for {
			r := t.RatePerS
			if g.burst {
				r *= t.BurstMultiplier
			}
			next := g.now + g.rng.ExpFloat64()/r
			if next < g.switchAt {
				g.now = next
				break
			}
			// Memorylessness lets the process restart at the switch.
			g.now = g.switchAt
			g.burst = !g.burst
			m := t.CalmMeanS
			if g.burst {
				m = t.BurstMeanS
			}
			g.switchAt = g.now + g.rng.ExpFloat64()*m
			if g.now >= g.end {
				return Request{}, false
			}
		}
	default: // thinning of a Poisson process at the peak rate
		if g.maxR <= 0 {
			return Request{}, false
		}
		for {
			g.now += g.rng.ExpFloat64() / g.maxR
			if g.now >= g.end || g.rng.Float64()*g.maxR < g.rateFn(g.now) {
				break
			}
		}
	}
	if g.now >= g.end {
		return Request{}, false
	}
	p, o := g.tok.draw(g.rng)
	return Request{ArrivalS: g.now, PromptTokens: p, OutputTokens: o}, true
}

// SliceSource replays a fixed list of requests; it is for tests and examples.
type SliceSource struct {
	Requests []Request
	i        int
}

// Next returns the next request of the list.
func (s *SliceSource) Next() (Request, bool) {
	if s.i >= len(s.Requests) {
		return Request{}, false
	}
	s.i++
	return s.Requests[s.i-1], true
}
