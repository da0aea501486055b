package autoscale

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// A sharded search stores each candidate's entries in the compact binary
// form EncodeEntries writes, because a merge of 10,000 candidates decodes
// some 100,000 entries and JSON decoding was most of its time. The form:
//
//	entriesMagic, then uvarint entry count, then per entry
//	strings (uvarint length, bytes): candidate, region, summary
//	one byte: meets_slo
//	float64 bits (8 bytes little-endian): cost, violation fraction, p95,
//	  replica-hours, utilization
//	the policy: its strings, whole numbers (varint) in the order
//	  policyInts lists, a 16-bit mask of its floats (policyFloats) that
//	  are not +0 and their float64 bits, then one byte: 0 without tiers,
//	  1 followed by a string holding the JSON of its mixed-fleet tiers
//
// Floats keep their bits, so a merged search is the single-process one
// exactly. DecodeEntries also reads the JSON array earlier versions stored.
const entriesMagic = 0xB2 // never the first byte of JSON

// EncodeEntries writes entries in the stored form.
func EncodeEntries(entries []SearchEntry) ([]byte, error) {
	b := make([]byte, 0, 16+len(entries)*240)
	b = append(b, entriesMagic)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for i := range entries {
		e := &entries[i]
		b = appendString(b, e.Candidate)
		b = appendString(b, e.Region)
		b = appendString(b, e.Summary)
		b = appendBool(b, e.MeetsSLO)
		for _, f := range [...]float64{e.CostUSD, e.SLOViolationFraction, e.P95LatencyS, e.ReplicaHours, e.Utilization} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
		p := &e.Policy
		b = appendString(b, p.Kind)
		b = appendString(b, p.Metric)
		for _, n := range policyInts(p) {
			b = binary.AppendVarint(b, int64(*n))
		}
		// Most of a policy's floats are zero: a mask says which follow.
		fs := policyFloats(p)
		var mask uint16
		for k, f := range fs {
			if math.Float64bits(*f) != 0 {
				mask |= 1 << k
			}
		}
		b = binary.LittleEndian.AppendUint16(b, mask)
		for k, f := range fs {
			if mask&(1<<k) != 0 {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*f))
			}
		}
		if p.OnDemand == nil && p.Spot == nil && p.Fallback == nil {
			b = append(b, 0)
			continue
		}
		t, err := json.Marshal(policyTiers{p.OnDemand, p.Spot, p.Fallback})
		if err != nil {
			return nil, err
		}
		b = append(b, 1)
		b = appendString(b, string(t))
	}
	return b, nil
}

// policyTiers carries a mixed fleet's tiers, rare in a search (only the
// service's own policy can have them), as JSON.
type policyTiers struct {
	OnDemand *OnDemandTier `json:"on_demand,omitempty"`
	Spot     *SpotTier     `json:"spot,omitempty"`
	Fallback *FallbackTier `json:"fallback,omitempty"`
}

// policyInts and policyFloats are the policy's whole-number and float
// fields in their stored order (Kind and Metric are its strings, the tiers
// go apart). A field added to Policy must be added here: the codec's test
// fills every field and fails on one that does not come back.
func policyInts(p *Policy) [7]*int {
	return [...]*int{&p.Replicas, &p.MinReplicas, &p.MaxReplicas, &p.InitialReplicas, &p.MinWorkers, &p.MaxWorkers, &p.RequestsPerWorker}
}

func policyFloats(p *Policy) [16]*float64 {
	return [...]*float64{&p.Target, &p.PollingIntervalS, &p.ScaleUpStabilizationS, &p.ScaleDownStabilizationS, &p.CooldownS, &p.Tolerance,
		&p.TargetConcurrency, &p.TargetUtilization, &p.StableWindowS, &p.PanicWindowPct, &p.PanicThresholdPct,
		&p.MaxScaleUpRate, &p.MaxScaleDownRate, &p.ScaleToZeroGraceS, &p.TickS, &p.IdleTimeoutS}
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// CountEntries returns how many entries a stored unit holds without
// decoding them (-1 for the JSON form, whose count is not at its head), so
// that a merge can size one slice for all of them.
func CountEntries(b []byte) int {
	if len(b) == 0 || b[0] != entriesMagic {
		return -1
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n > uint64(len(b)) {
		return -1
	}
	return int(n)
}

// DecodeEntries reads what EncodeEntries wrote (or the JSON array of
// entries earlier versions stored) and appends the entries to dst.
func DecodeEntries(dst []SearchEntry, b []byte) ([]SearchEntry, error) {
	var d EntryDecoder
	return d.Decode(dst, b)
}

// EntryDecoder is DecodeEntries for many units, one goroutine: the strings
// that repeat across them (policy kinds and summaries, regions) are made
// once. The zero value is ready.
type EntryDecoder struct {
	strs map[string]string
}

// Decode is DecodeEntries.
func (x *EntryDecoder) Decode(dst []SearchEntry, b []byte) ([]SearchEntry, error) {
	if len(b) == 0 || b[0] != entriesMagic {
		var entries []SearchEntry
		if err := json.Unmarshal(b, &entries); err != nil {
			return dst, err
		}
		return append(dst, entries...), nil
	}
	if x.strs == nil || len(x.strs) > 1<<16 {
		x.strs = map[string]string{}
	}
	d := entryDecoder{b: b[1:], strs: x.strs}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)) {
		d.fail()
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		var e SearchEntry
		e.Candidate = d.interned()
		e.Region = d.interned()
		e.Summary = d.interned()
		e.MeetsSLO = d.bool()
		for _, f := range [...]*float64{&e.CostUSD, &e.SLOViolationFraction, &e.P95LatencyS, &e.ReplicaHours, &e.Utilization} {
			*f = d.float()
		}
		p := &e.Policy
		p.Kind = d.interned()
		p.Metric = d.interned()
		for _, n := range policyInts(p) {
			*n = int(d.varint())
		}
		mask := d.uint16()
		for k, f := range policyFloats(p) {
			if mask&(1<<k) != 0 {
				*f = d.float()
			}
		}
		if d.bool() {
			var t policyTiers
			if err := json.Unmarshal([]byte(d.string()), &t); err != nil && d.err == nil {
				d.err = err
			}
			p.OnDemand, p.Spot, p.Fallback = t.OnDemand, t.Spot, t.Fallback
		}
		dst = append(dst, e)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d byte(s) after the last entry", len(d.b))
	}
	return dst, d.err
}

type entryDecoder struct {
	b    []byte
	err  error
	strs map[string]string // candidate, region, policy kind and metric repeat within a unit
}

func (d *entryDecoder) fail() {
	if d.err == nil {
		d.err = fmt.Errorf("stored entries cut short")
	}
	d.b = nil
}

func (d *entryDecoder) uvarint() uint64 {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *entryDecoder) varint() int64 {
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *entryDecoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *entryDecoder) string() string { return string(d.bytes()) }

func (d *entryDecoder) interned() string {
	b := d.bytes()
	if s, ok := d.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	d.strs[s] = s
	return s
}

func (d *entryDecoder) bool() bool {
	if len(d.b) < 1 {
		d.fail()
		return false
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v != 0
}

func (d *entryDecoder) uint16() uint16 {
	if len(d.b) < 2 {
		d.fail()
		return 0
	}
	v := binary.LittleEndian.Uint16(d.b)
	d.b = d.b[2:]
	return v
}

func (d *entryDecoder) float() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}
