package cost

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

func offer(od, spot, r1 float64) *catalog.Offer {
	o := &catalog.Offer{Provider: "x", InstanceType: "gpu8", Region: "r1", GPU: "h100-sxm", GPUCount: 8}
	o.ListPrices[catalog.OnDemand], o.ListPrices[catalog.Spot], o.ListPrices[catalog.Reserved1y] = od, spot, r1
	o.YourPrices = o.ListPrices
	return o
}

func provider(granularity time.Duration) *catalog.Provider {
	return &catalog.Provider{ID: "x", BillingGranularity: granularity, BlockUSDPerGBMonth: 0.1,
		EgressTiers: []catalog.EgressTier{{UpToTB: 10, USDPerGB: 0.09}, {UpToTB: 50, USDPerGB: 0.085}, {UpToTB: 150, USDPerGB: 0.07}, {USDPerGB: 0.05}}}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6g, want %.6g", what, got, want)
	}
}

func TestOnDemandByHand(t *testing.T) {
	// 2 instances at $10/h for 100 h, per-second billing, no data.
	e := Price(Job{Offer: offer(10, 0, 0), Provider: provider(time.Second), Instances: 2, Mode: catalog.OnDemand, ProductiveHours: 100})
	near(t, "compute", e.Cost.Compute, 2000, 1e-9)
	near(t, "setup", e.Cost.Setup, (ProvisionHours+ImagePullHours)*20, 1e-6)
	near(t, "total", e.Cost.Total, 2000+(ProvisionHours+ImagePullHours)*20, 1e-6)
	near(t, "wall", e.WallHours, 100+ProvisionHours+ImagePullHours, 1e-9)
}

func TestHourlyBillingRoundsUp(t *testing.T) {
	e := Price(Job{Offer: offer(10, 0, 0), Provider: provider(time.Hour), Instances: 1, Mode: catalog.OnDemand, ProductiveHours: 10})
	// 10 + 0.35 h billed as 11 h: the rounding is charged to setup.
	near(t, "billed hours", e.BilledHours, 11, 1e-9)
	near(t, "setup", e.Cost.Setup, 10, 1e-6)
}

func TestEgressTiersByHand(t *testing.T) {
	// 60 TB: 10 TB at 0.09, 40 TB at 0.085, 10 TB at 0.07.
	usd := EgressUSD(provider(time.Second), 60000)
	near(t, "egress of 60 TB", usd, 10000*0.09+40000*0.085+10000*0.07, 1e-6)
	usd = EgressUSD(provider(time.Second), 200000)
	near(t, "egress of 200 TB", usd, 10000*0.09+40000*0.085+100000*0.07+50000*0.05, 1e-6)
	usd, note := EgressUSD(nil, 100), EgressBasis(nil)
	near(t, "unknown provider", usd, 100*DefaultEgressUSDPerGB, 1e-9)
	if !strings.Contains(note.String(), "assumed") {
		t.Errorf("a default egress price must say it is assumed: %q", note)
	}
}

func TestSpotYoungDalyByHand(t *testing.T) {
	p := provider(time.Second)
	p.SpotInterruptionPerHour = 0.001
	// One instance, a 72 GB checkpoint written at 2 GB/s: C = 36 s = 0.01 h.
	e := Price(Job{Offer: offer(10, 4, 0), Provider: p, Instances: 1, Mode: catalog.Spot, ProductiveHours: 100, CheckpointGB: 72})
	s := e.Spot
	C, M := 0.01, 1000.0
	// The zone's capacity is there 1000 h for every 4.26 h away: a start
	// waits (1 - f) x 4.26 h on average, and a restart also relaunches and
	// reads the checkpoint back.
	f := M / (M + SpotCapacityGapHours)
	W := (1 - f) * SpotCapacityGapHours
	T := math.Sqrt(2*C*M) - C
	R := W + ProvisionHours + ImagePullHours + C
	phi := C/T + (T/2+R-W)/M // billed: the waits are not
	wall := C/T + (T/2+R)/M
	near(t, "availability", s.Availability, f, 1e-12)
	near(t, "wait", s.WaitHours, W, 1e-12)
	near(t, "checkpoint interval", s.CheckpointInterval, T, 1e-9)
	near(t, "overhead fraction", s.OverheadFraction, phi, 1e-9)
	near(t, "spot overhead", e.Cost.SpotOverhead, 100*phi*4, 1e-6)
	near(t, "compute", e.Cost.Compute, 400, 1e-9)
	near(t, "expected interruptions", s.ExpectedInterrupts, 0.001*100*(1+wall), 1e-9)
	near(t, "held throughout", s.HoldProbability, math.Exp(-0.1), 1e-12)
	near(t, "waited", s.WaitedHours, W*(1+100/M), 1e-12)
	near(t, "wall time", e.WallHours, e.SetupHours+100*(1+phi)+W*(1+100/M), 1e-9)
	// Four instances quadruple the job's hazard.
	e4 := Price(Job{Offer: offer(10, 4, 0), Provider: p, Instances: 4, Mode: catalog.Spot, ProductiveHours: 100, CheckpointGB: 72})
	near(t, "MTBF of 4 instances", e4.Spot.MTBFHours, 250, 1e-9)
}

func TestSpotDeadlineRisk(t *testing.T) {
	p := provider(time.Second)
	p.SpotInterruptionPerHour = 0.01
	loose := Price(Job{Offer: offer(10, 4, 0), Provider: p, Instances: 1, Mode: catalog.Spot, ProductiveHours: 100, CheckpointGB: 72, DeadlineHours: 200})
	tight := Price(Job{Offer: offer(10, 4, 0), Provider: p, Instances: 1, Mode: catalog.Spot, ProductiveHours: 100, CheckpointGB: 72, DeadlineHours: 101})
	impossible := Price(Job{Offer: offer(10, 4, 0), Provider: p, Instances: 1, Mode: catalog.Spot, ProductiveHours: 100, CheckpointGB: 72, DeadlineHours: 90})
	if !(loose.Spot.ProbMissingDeadline < 0.01 && tight.Spot.ProbMissingDeadline > 0.5 && impossible.Spot.ProbMissingDeadline == 1) {
		t.Errorf("P(miss): loose %.3f, tight %.3f, impossible %.3f", loose.Spot.ProbMissingDeadline, tight.Spot.ProbMissingDeadline, impossible.Spot.ProbMissingDeadline)
	}
	// By hand for the tight case: slack after base time, each interruption
	// costs T/2 + R; P(miss) = 1 - P(N <= k).
	s := tight.Spot
	base := tight.SetupHours + 100*(1+s.CheckpointHours/s.CheckpointInterval)
	k := math.Floor((101 - base) / (s.CheckpointInterval/2 + s.RestartHours))
	mean := 0.01 * 100 * (1 + s.OverheadFraction)
	cdf := 0.0
	for i := 0.0; i <= k; i++ {
		cdf += math.Exp(-mean) * math.Pow(mean, i) / math.Gamma(i+1)
	}
	near(t, "P(miss)", s.ProbMissingDeadline, 1-cdf, 1e-9)
}

func TestReservedBreakEven(t *testing.T) {
	o := offer(10, 0, 6)
	// A service uses the term fully: $6/h, break-even at 60%.
	svc := Price(Job{Offer: o, Provider: provider(time.Second), Instances: 1, Mode: catalog.Reserved1y, Service: true})
	near(t, "break-even", svc.Reserved.BreakEvenUtilization, 0.6, 1e-9)
	near(t, "monthly compute", svc.Cost.Compute, 6*catalog.HoursPerMonth, 1e-6)
	if !svc.Reserved.CheaperThanOnDemandAt {
		t.Error("a fully used reservation at 60% of on-demand is cheaper")
	}
	// A 100 h one-off job pays for the whole year.
	job := Price(Job{Offer: o, Provider: provider(time.Second), Instances: 1, Mode: catalog.Reserved1y, ProductiveHours: 100})
	near(t, "one-off job on a 1-year term", job.Cost.Compute+job.Cost.Setup, 6*HoursPerYear, 1e-6)
	if job.Reserved.CheaperThanOnDemandAt {
		t.Error("a 100 h job on a 1-year term is not cheaper than on-demand")
	}
	// With the team's expected utilisation of 75%, each used hour costs 6/0.75.
	shared := Price(Job{Offer: o, Provider: provider(time.Second), Instances: 1, Mode: catalog.Reserved1y, ProductiveHours: 100, ReservedUtilization: 0.75})
	near(t, "compute at 75% utilisation", shared.Cost.Compute, 100*6/0.75, 1e-6)
}

func TestUnknownPriceIsNotZero(t *testing.T) {
	e := Price(Job{Offer: offer(10, 0, 0), Provider: provider(time.Second), Instances: 1, Mode: catalog.Spot, ProductiveHours: 10, Detail: true})
	if e.PriceKnown || e.Cost.Total != 0 || len(e.Notes) == 0 {
		t.Errorf("an unpublished spot price must give PriceKnown false with a note, got %+v", e)
	}
}

func TestDataGravity(t *testing.T) {
	src := provider(time.Second)
	src.ID = "gcp"
	e := Price(Job{Offer: offer(10, 0, 0), Provider: provider(time.Second), Instances: 1, Mode: catalog.OnDemand,
		ProductiveHours: 10, DatasetGB: 1000, DataFrom: src})
	near(t, "egress of 1 TB from the source", e.Cost.Egress, 1000*0.09, 1e-9)
	near(t, "transfer delay", e.TransferHours, 1000*8/TransferGbps/3600, 1e-9)
	if e.WallHours <= 10+e.SetupHours {
		t.Error("the transfer must delay the finish")
	}
	same := Price(Job{Offer: offer(10, 0, 0), Provider: provider(time.Second), Instances: 1, Mode: catalog.OnDemand,
		ProductiveHours: 10, DatasetGB: 1000, DataFrom: src, DataFromSame: true})
	near(t, "inter-region copy", same.Cost.Egress, 1000*InterRegionUSDPerGB, 1e-9)
}

// TestNotesAgreeWithTheBreakdown: the sentences say what the numbers say
// (issue 16): a few GB of egress is priced in cents, not "$0" beside a
// charge; a short job's storage is in hours, a long one's in days or
// months, never "0.00 months"; a service stores model weights, not
// checkpoints.
func TestNotesAgreeWithTheBreakdown(t *testing.T) {
	src := provider(time.Second)
	src.ID = "aws"
	job := Job{Offer: offer(10, 0, 0), Provider: provider(time.Second), Instances: 1, Mode: catalog.OnDemand,
		ProductiveHours: 2, DatasetGB: 2, CheckpointGB: 16, DataFrom: src, Detail: true}
	e := Price(job)
	notes := joinNotes(e.Notes)
	for _, want := range []string{
		"moving 2 GB out of aws costs $0.18 in egress",
		"copying 2 GB at 10 Gbit/s delays the start by 2 s",
		"two checkpoints of 16.0 GB) for 2.4 hours at $0.100/GB-month",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	near(t, "egress", e.Cost.Egress, 0.18, 1e-9)
	if strings.Contains(notes, "months") || strings.Contains(notes, "$0 ") {
		t.Errorf("a 2-hour job's notes speak of months or $0:\n%s", notes)
	}

	job.ProductiveHours, job.DatasetGB = 200, 2000
	notes = joinNotes(Price(job).Notes)
	for _, want := range []string{"for 8.4 days at", "delays the start by 27 min"} {
		if !strings.Contains(notes, want) {
			t.Errorf("a 200-hour job: notes lack %q:\n%s", want, notes)
		}
	}
	job.ProductiveHours = 2000
	if notes = joinNotes(Price(job).Notes); !strings.Contains(notes, "for 2.7 months at") {
		t.Errorf("a 2000-hour job: storage not in months:\n%s", notes)
	}

	job.Service, job.ProductiveHours, job.DatasetGB, job.DataFrom, job.CheckpointGB = true, 0, 0, nil, 140
	notes = joinNotes(Price(job).Notes)
	if !strings.Contains(notes, "(two copies of the 140 GB model weights) for one month") || strings.Contains(notes, "checkpoint") {
		t.Errorf("a service's storage must be its model weights for a month:\n%s", notes)
	}
}

// TestSpotHazardFromBuckets: a published frequency becomes a rate per
// instance-hour through the one fitted window, and a provider that
// publishes nothing gets the worst bucket, said so.
func TestSpotHazardFromBuckets(t *testing.T) {
	for b, want := range []float64{0.00219, 0.00675, 0.01156, 0.01664, 0.06001} {
		got, src := SpotHazard(&catalog.SpotRisk{Provider: "aws", Bucket: b})
		near(t, catalog.SpotBuckets[b], got, want, 5e-5)
		if !strings.Contains(src.String(), catalog.SpotBuckets[b]) {
			t.Errorf("bucket %d: source %q does not name it", b, src)
		}
	}
	got, src := SpotHazard(nil)
	near(t, "nothing published", got, 0.06001, 5e-5)
	if !strings.Contains(src.String(), "assumed") {
		t.Errorf("a default rate must say it is assumed: %q", src)
	}
	got, src = SpotHazard(&catalog.SpotRisk{Provider: "gcp", Bucket: -1, PerHour: 0.099})
	if got != 0.099 || !strings.Contains(src.String(), "measured") {
		t.Errorf("a measured rate: %g %q", got, src)
	}
	// Eight instances at once are there less often than one.
	if a1, a8 := SpotAvailability(0.0067, 1), SpotAvailability(0.0067, 8); !(a8 < a1 && a1 < 1) {
		t.Errorf("availability of 1 and 8 instances: %g %g", a1, a8)
	}
}

// TestSpotServiceColdStartByHand: a service on spot keeps no checkpoint; a
// replica lost waits for capacity and reads its weights again.
func TestSpotServiceColdStartByHand(t *testing.T) {
	risk := &catalog.SpotRisk{Provider: "aws", Bucket: 1}
	e := Price(Job{Offer: offer(10, 4, 0), Provider: provider(time.Second), Instances: 3, Mode: catalog.Spot, Service: true, WeightsGB: 140, SpotRisk: risk})
	s := e.Spot
	lambda := bucketHazard(1)
	cold := ProvisionHours + ImagePullHours + 140/WeightsReadGBps/3600
	W := (1 - SpotAvailability(lambda, 1)) * SpotCapacityGapHours
	if s.CheckpointInterval != 0 {
		t.Errorf("a service checkpoints every %g h: it keeps no state", s.CheckpointInterval)
	}
	near(t, "billed overhead", s.OverheadFraction, lambda*cold, 1e-12)
	near(t, "downtime", s.DowntimeFraction, lambda*(W+cold), 1e-12)
	near(t, "interruptions a month", s.ExpectedInterrupts, 3*lambda*catalog.HoursPerMonth, 1e-9)
	near(t, "spot overhead", e.Cost.SpotOverhead, catalog.HoursPerMonth*lambda*cold*3*4, 1e-6)
}

// TestServerlessByHand: a lone serverless worker is up 1 - exp(-rate (S +
// idle)) of the time and the arrivals that find it down pay a cold start;
// a fleet the load keeps busy is always up.
func TestServerlessByHand(t *testing.T) {
	o := offer(0, 0, 0)
	o.LocalPrices[catalog.Serverless], o.ListPrices[catalog.Serverless], o.YourPrices[catalog.Serverless] = 3.6, 3.6, 3.6
	o.ColdStartS, o.IdleTimeoutS = 10, 60
	rate, S := 0.01, 5.0
	e := Price(Job{Offer: o, Provider: provider(time.Second), Instances: 1, Mode: catalog.Serverless, Service: true,
		WeightsGB: 16, RequestsPerSecond: rate, RequestSeconds: S})
	sv := e.Serverless
	cold := math.Exp(-rate * (S + 60))
	near(t, "workers up", sv.BilledWorkers, 1-cold, 1e-12)
	near(t, "cold start", sv.ColdStartS, 10+16/WeightsReadGBps, 1e-12)
	near(t, "cold starts an hour", sv.ColdStartsPerHour, 3600*rate*cold, 1e-9)
	near(t, "compute", e.Cost.Compute, catalog.HoursPerMonth*(1-cold)*3.6, 1e-6)
	near(t, "cold starts billed", e.Cost.Setup, catalog.HoursPerMonth*3600*rate*cold*26/3600*3.6, 0.01) // billed to the second
	// Four workers the load needs: all up, no cold start.
	busy := Price(Job{Offer: o, Provider: provider(time.Second), Instances: 4, Mode: catalog.Serverless, Service: true,
		WeightsGB: 16, RequestsPerSecond: 40, RequestSeconds: S})
	near(t, "busy fleet", busy.Cost.Compute, catalog.HoursPerMonth*4*3.6, 1e-6)
	if busy.Serverless.ColdRequestShare != 0 {
		t.Errorf("a busy fleet's requests find a warm worker, got %g cold", busy.Serverless.ColdRequestShare)
	}
}

// Porting is a line of its own, counted once in the total; a job waits for
// it, a service states it; an unpriced day rate removes the line and keeps
// the delay.
func TestAddPorting(t *testing.T) {
	job := Job{Offer: offer(10, 0, 0), Provider: provider(time.Second), Instances: 1, Mode: catalog.OnDemand, ProductiveHours: 10}
	for _, tt := range []struct {
		name    string
		service bool
		rate    float64
	}{{"job", false, 800}, {"service", true, 800}, {"unpriced job", false, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			j := job
			j.Service = tt.service
			before := Price(j)
			e := before
			p := &Porting{Kinds: []string{"serving-engine"}, EngineerDays: 5, DelayDays: 7, EngineerDayUSD: tt.rate, USD: 5 * tt.rate}
			AddPorting(&e, p, tt.service)
			near(t, "porting line", e.Cost.Porting, 5*tt.rate, 1e-9)
			near(t, "total", e.Cost.Total, before.Cost.Total+5*tt.rate, 1e-9)
			wantWall := before.WallHours + 7*24
			if tt.service {
				wantWall = before.WallHours
			}
			near(t, "wall hours", e.WallHours, wantWall, 1e-9)
			if e.Porting != p {
				t.Error("the estimate does not keep the porting")
			}
			sum := e.Cost.Compute + e.Cost.Storage + e.Cost.Egress + e.Cost.Setup + e.Cost.SpotOverhead + e.Cost.Porting
			near(t, "lines add up to the total", sum, e.Cost.Total, 1e-9)
		})
	}
	e := Price(job)
	was := e
	AddPorting(&e, nil, false)
	if e.Cost != was.Cost || e.WallHours != was.WallHours || e.Porting != nil {
		t.Error("no porting changed the estimate")
	}
}

// joinNotes is the notes in English, a line each.
func joinNotes(ns []msg.Msg) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(n.String() + "\n")
	}
	return b.String()
}
