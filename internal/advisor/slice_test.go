package advisor

import (
	"strings"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

// onlyOffers is the embedded catalog with the offers keep accepts.
func onlyOffers(t *testing.T, keep func(o *catalog.Offer) bool) *catalog.Catalog {
	t.Helper()
	cat := *embedded(t)
	cat.Offers = nil
	for _, o := range embedded(t).Offers {
		if keep(o) {
			cat.Offers = append(cat.Offers, o)
		}
	}
	if len(cat.Offers) == 0 {
		t.Fatal("no offers kept")
	}
	return &cat
}

const chat8B = "kind: llm-inference\nmodel: {preset: llama-3-8b}\ninference: {prompt_tokens: 512, output_tokens: 256, requests_per_second: 0.2, weight_precision: int4, slo: {ttft_ms: 3000, tpot_ms: 150}}\n"

// A low-rate 7B chat service comes out cheapest on a slice where a slice
// is the cheapest way to hold it: among Azure's A10 offers, a third of an
// A10 (8 GB) holds Mistral 7B in int4 (4.2 GB with its 16-bit embedding
// and head; Llama 3 8B's 128k vocabulary makes those 2.1 GB, 5.7 GB in
// all, and leaves no room in 8 GB) at a fraction of the whole card's price.
func TestSmallModelCheapestOnSlice(t *testing.T) {
	cat := onlyOffers(t, func(o *catalog.Offer) bool { return o.Provider == "azure" && o.GPU == "a10" })
	res, err := Recommend(Request{Spec: spec(t, strings.Replace(chat8B, "llama-3-8b", "mistral-7b", 1)), Catalog: cat, Now: now})
	if err != nil || len(res.Candidates) == 0 {
		t.Fatalf("no candidates: %v", err)
	}
	top := res.Candidates[0]
	if s := top.Plan.Slice; s == nil || s.Kind != SliceFraction || top.Offer.GPUFraction >= 1 {
		t.Fatalf("#1 = %s with slice %+v, want a fraction of an A10", top.Offer.Key(), top.Plan.Slice)
	}
	var whole *Candidate
	for _, c := range res.Candidates {
		if c.Plan.Slice == nil && whole == nil {
			whole = c
		}
	}
	if whole == nil || !(costOf(top) < costOf(whole)) {
		t.Errorf("the slice %s must cost less than the best whole A10 %v", top.Offer.Key(), whole)
	}
	if got, want := top.Plan.Slice.ReplicaPerHourUSD, top.PerHourUSD/float64(top.Plan.Replicas); got < want*0.99 || got > want*1.01 {
		t.Errorf("price per replica %g, want %g", got, want)
	}
}

// MIG replicas: an 8B model fits a 1g slice of an H100 and serves a low
// load there, priced as whole instances; a 70B model does not fit a 1g
// slice; a tie with whole GPUs keeps whole GPUs.
func TestMIGReplicas(t *testing.T) {
	cat := onlyOffers(t, func(o *catalog.Offer) bool { return o.Key() == "aws/p5.48xlarge@us-east-1" })
	o := cat.Offers[0]
	// Best-effort: one instance holds the fleet, with no spare instance.
	req := Request{Spec: spec(t, chat8B+"service: {availability: best-effort}\n"), Catalog: cat, Now: now}
	cs, xs, ok := EvaluateOfferMIG(req, o, "1g.10gb", []catalog.Mode{catalog.OnDemand})
	if !ok || len(cs) != 1 {
		t.Fatalf("8B on 1g.10gb: %d candidates, excluded %+v, ok %v", len(cs), xs, ok)
	}
	c := cs[0]
	s := c.Plan.Slice
	if s == nil || s.Kind != SliceMIG || s.Profile != "1g.10gb" || s.PerGPU != 7 || c.Instances != 1 || c.Plan.Replicas < 1 {
		t.Fatalf("plan = %+v, slice %+v", c.Plan, s)
	}
	price, _ := o.YourPrices.Get(catalog.OnDemand)
	if want := price / 56; s.ReplicaPerHourUSD < want*0.999 || s.ReplicaPerHourUSD > want*1.001 {
		t.Errorf("price per replica %g, want the instance's %g over 8 GPUs x 7", s.ReplicaPerHourUSD, want)
	}
	if c.PerHourUSD < price*0.999 {
		t.Errorf("fleet %g per hour, want at least the whole instance's %g", c.PerHourUSD, price)
	}
	if !strings.Contains(strings.Join(msg.Strings(c.Pred.Assumptions), "\n"), "MIG 1g.10gb replicas of h100-sxm") {
		t.Errorf("the assumptions do not say why the slice: %q", msg.Strings(c.Pred.Assumptions))
	}
	// A 70B model does not fit in 10 GB.
	big := Request{Spec: spec(t, strings.Replace(chat8B, "llama-3-8b", "llama-3-70b", 1)+"service: {availability: best-effort}\n"), Catalog: cat, Now: now}
	if cs, xs, _ := EvaluateOfferMIG(big, o, "1g.10gb", []catalog.Mode{catalog.OnDemand}); len(cs) != 0 || len(xs) != 1 || xs[0].ReasonCode != ReasonNoFit {
		t.Errorf("70B on 1g.10gb: %d candidates, excluded %+v; want does_not_fit", len(cs), xs)
	}
	res, err := Recommend(big)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		if s := c.Plan.Slice; s != nil && strings.HasPrefix(s.Profile, "1g") {
			t.Errorf("70B on %s %s", c.Offer.Key(), s.Profile)
		}
	}
	// At a low load one instance holds either fleet: the same bill, and
	// whole GPUs answer faster.
	res, err = Recommend(req)
	if err != nil || len(res.Candidates) != 1 || res.Candidates[0].Plan.Slice != nil {
		t.Errorf("8B low load on p5.48xlarge: %d candidates, want the whole-GPU one only (%v)", len(res.Candidates), err)
	}
	if _, _, ok := EvaluateOfferMIG(req, o, "1g.5gb", nil); ok {
		t.Error("h100-sxm has no 1g.5gb")
	}
}

// keepSlices keeps a MIG fleet only when it is cheaper than the offer's
// whole-GPU fleet in the same mode, and the cheapest of an offer's MIG
// fleets.
func TestKeepSlices(t *testing.T) {
	o := &catalog.Offer{Provider: "x", InstanceType: "y"}
	mk := func(total float64, mig string) *Candidate {
		c := &Candidate{Offer: o}
		c.Cost.PriceKnown, c.Cost.Cost.Total = true, total
		if mig != "" {
			c.Plan.Slice = &Slice{Kind: SliceMIG, Profile: mig}
		}
		return c
	}
	whole := mk(100, "")
	for _, tt := range []struct {
		name string
		mig  []*Candidate
		want string
	}{
		{"tie keeps whole", []*Candidate{mk(100, "1g.10gb")}, ""},
		{"dearer dropped", []*Candidate{mk(150, "1g.10gb")}, ""},
		{"cheaper kept, cheapest of them", []*Candidate{mk(80, "2g.20gb"), mk(60, "1g.10gb")}, "1g.10gb"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := keepSlices([]*Candidate{whole}, tt.mig)
			added := ""
			for _, c := range got[1:] {
				added += c.Plan.Slice.Profile
			}
			if added != tt.want {
				t.Errorf("added %q, want %q", added, tt.want)
			}
		})
	}
}
