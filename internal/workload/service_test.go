package workload

import (
	"math"
	"strings"
	"testing"
)

const chatService = `kind: llm-inference
model: {preset: llama-3-8b}
inference: {prompt_tokens: 500, output_tokens: 200, requests_per_second: 10, slo: {ttft_ms: 500, tpot_ms: 50}}
`

// A service gets a service block with production availability and a
// constant day; a diurnal day is a cosine whose mean, peak and trough are
// what the file says.
func TestServiceDefaultsAndDay(t *testing.T) {
	s, err := Parse([]byte(chatService), "chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Service == nil || s.Service.Availability != AvailabilityProduction || s.Service.Traffic != TrafficConstant || !s.Production() {
		t.Fatalf("service defaults: %+v", s.Service)
	}
	d, ok := DayOf(s)
	if !ok || d.PeakRPS != 10 || d.TroughRPS != 10 || d.Amplitude() != 0 {
		t.Errorf("constant day: %+v", d)
	}

	s, err = Parse([]byte(chatService+"service: {peak_requests_per_second: 16, availability: best-effort}\n"), "chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Service.Traffic != TrafficDiurnal || *s.Service.PeakHour != DefaultPeakHour || s.Production() {
		t.Fatalf("diurnal defaults: %+v", s.Service)
	}
	d, _ = DayOf(s)
	if d.PeakRPS != 16 || math.Abs(d.TroughRPS-4) > 1e-12 {
		t.Errorf("diurnal day: %+v, want peak 16 and trough 4", d)
	}
	var sum, hi, lo float64
	lo = math.Inf(1)
	const n = 24 * 60
	for i := range n {
		r := d.RateAt(24 * float64(i) / n)
		sum += r
		hi, lo = max(hi, r), min(lo, r)
	}
	if math.Abs(sum/n-10) > 1e-9 || math.Abs(hi-16) > 1e-9 || math.Abs(lo-4) > 1e-6 {
		t.Errorf("the day's mean %.4f, peak %.4f, trough %.4f; want 10, 16, 4", sum/n, hi, lo)
	}
	if r := d.RateAt(DefaultPeakHour); math.Abs(r-16) > 1e-9 {
		t.Errorf("rate at the peak hour %.3f, want 16", r)
	}
}

func TestServiceErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, field, want string }{
		{"kind: llm-train\nmodel: {preset: llama-3-8b}\ntraining: {tokens: 1e9}\nservice: {availability: production}\n", "service", "used only by a service"},
		{chatService + "service: {traffic: diurnal}\n", "service.peak_requests_per_second", "required for a diurnal day"},
		{chatService + "service: {peak_requests_per_second: 8}\n", "service.peak_requests_per_second", "at least requests_per_second"},
		{chatService + "service: {peak_requests_per_second: 25}\n", "service.peak_requests_per_second", "at most twice"},
		{chatService + "service: {traffic: constant, peak_requests_per_second: 12}\n", "service.peak_requests_per_second", "constant day"},
		{chatService + "service: {availability: always}\n", "service.availability", "production"},
		{chatService + "service: {peak_requests_per_second: 12, peak_hour: 24}\n", "service.peak_hour", "at most 23"},
	} {
		_, err := Parse([]byte(tc.yaml), "w.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.field+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\nerror %v, want one naming %s with %q", tc.yaml, err, tc.field, tc.want)
		}
	}
}
