package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// csvTable reads a CSV file by header name, as SkyPilot and gpuhunt column
// orders differ between files.
type csvTable struct {
	r    *csv.Reader
	cols map[string]int
	rec  []string
	line int
}

// newCSVTable reads the header and checks the required columns are there.
func newCSVTable(r io.Reader, required ...string) (*csvTable, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty file: want a CSV header")
		}
		return nil, fmt.Errorf("line 1: cannot read the header: %w", err)
	}
	t := &csvTable{r: cr, cols: make(map[string]int, len(header))}
	for i, h := range header {
		t.cols[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	var missing []string
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		e := apperr.Invalidf(missing[0], "required column is missing (missing: %s): has the format changed?", strings.Join(missing, ", "))
		e.Line = 1
		return nil, e
	}
	return t, nil
}

// next reads the next record; false at the end. A malformed record is an
// error naming its line.
func (t *csvTable) next() (bool, error) {
	rec, err := t.r.Read()
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err != nil {
		var pe *csv.ParseError
		line := t.line + 1
		if errors.As(err, &pe) {
			line = pe.StartLine
		}
		e := apperr.Invalidf("", "malformed CSV: %v", err)
		e.Line = line
		return false, e
	}
	t.rec = rec
	t.line, _ = t.r.FieldPos(0)
	return true, nil
}

// str is the trimmed cell of col; "" when the column is absent or the
// record short.
func (t *csvTable) str(col string) string {
	i, ok := t.cols[col]
	if !ok || i >= len(t.rec) {
		return ""
	}
	return strings.TrimSpace(t.rec[i])
}

// num parses a cell: ok is false for a cell that is not a finite number;
// an empty cell is (0, true).
func (t *csvTable) num(col string) (float64, bool) {
	s := t.str(col)
	if s == "" {
		return 0, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// wholeCount reads a GPU count written "8" or "8.0".
func wholeCount(s string) (int, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v != math.Trunc(v) || v < 0 || v > 1e6 {
		return 0, false
	}
	return int(v), true
}

// providerOf names the provider of a file: the options', or the directory
// (SkyPilot: catalogs/v7/<cloud>/vms.csv) or the base name (gpuhunt:
// <provider>.csv).
func providerOf(name, given string, fromDir bool) (string, error) {
	if given != "" {
		return strings.ToLower(given), nil
	}
	n := filepath.ToSlash(name)
	word := strings.TrimSuffix(path.Base(n), path.Ext(n))
	if fromDir {
		word = path.Base(path.Dir(n))
	}
	if p, ok := providerNames[strings.ToLower(word)]; ok {
		return p, nil
	}
	return "", apperr.Invalidf("provider", "cannot tell the provider of %q from its name: say which provider it is", name)
}

// skyAccel is an accelerator row of SkyPilot's GCP catalog (no instance
// type: its price is added to a host row's).
type skyAccel struct {
	price, spot float64
}

// parseSkyPilot reads a SkyPilot vms.csv. Prices are USD per instance-hour
// (Price on-demand, SpotPrice spot; empty = not offered); rows per zone of
// one region merge into one offer keeping the lowest price. In the GCP
// catalog, host rows (no accelerator) of accelerator-optimised machines are
// summed with the accelerator row of the same name, count and zone. CPU-only
// rows, TPU rows and N1 attachable GPUs (no instance type of their own) are
// skipped.
func parseSkyPilot(b *builder, r io.Reader, name, given string) error {
	provider, err := providerOf(name, given, true)
	if err != nil {
		return err
	}
	t, err := newCSVTable(r, "InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region")
	if err != nil {
		return err
	}
	_, hasZone := t.cols["AvailabilityZone"]
	// GCP: accelerator rows by name|count|region|zone, host rows to price
	// once every accelerator row is read.
	accels := map[string]skyAccel{}
	type hostRow struct {
		line             int
		instance, region string
		zone             string
		vcpus            int
		ram              float64
		price, spot      float64
	}
	var hosts []hostRow
	for {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		inst, accel := t.str("InstanceType"), t.str("AcceleratorName")
		region := t.str("Region")
		zone := ""
		if hasZone {
			zone = t.str("AvailabilityZone")
		}
		price, okP := t.num("Price")
		spot, okS := t.num("SpotPrice")
		vcpuF, _ := t.num("vCPUs")
		ram, _ := t.num("MemoryGiB")
		item := provider + "/" + inst + "@" + region
		if inst == "" && accel == "" {
			b.res.Skipped++
			continue
		}
		if region == "" {
			b.considered++
			b.lacks(t.line, item, "Region")
			continue
		}
		if !b.wantRegion(region) {
			continue
		}
		if !okP || !okS {
			b.considered++
			b.reject(t.line, item, "Price", "want numbers, got Price %q SpotPrice %q", t.str("Price"), t.str("SpotPrice"))
			continue
		}
		if provider == "gcp" && inst == "" {
			// an accelerator row: TPUs and N1-attached GPUs have no machine
			// of their own in gcpMachines and are skipped when no host uses them.
			accels[accel+"|"+t.str("AcceleratorCount")+"|"+region+"|"+zone] = skyAccel{price, spot}
			continue
		}
		if accel == "" {
			if _, ok := gcpMachines[inst]; ok && provider == "gcp" {
				hosts = append(hosts, hostRow{t.line, inst, region, zone, int(vcpuF), ram, price, spot})
			} else {
				b.res.Skipped++
			}
			continue
		}
		b.considered++
		count, okC := wholeCount(t.str("AcceleratorCount"))
		if !okC || count == 0 {
			b.reject(t.line, item, "AcceleratorCount", "want a whole number of accelerators >= 1, got %q (a fraction of a GPU?)", t.str("AcceleratorCount"))
			continue
		}
		id, ok := skyGPU(b.cat, provider, inst, accel)
		if !ok {
			b.unmapped(t.line, item, "AcceleratorName", accel)
			continue
		}
		skyAdd(b, t.line, item, provider, inst, region, id, count, int(vcpuF), ram, price, spot, t.str("Price"), t.str("SpotPrice"))
	}
	for _, h := range hosts {
		m := gcpMachines[h.instance]
		item := "gcp/" + h.instance + "@" + h.region
		b.considered++
		a, ok := accels[m.Sky+"|"+strconv.Itoa(m.Count)+"|"+h.region+"|"+h.zone]
		if !ok {
			a, ok = accels[m.Sky+"|"+strconv.Itoa(m.Count)+".0|"+h.region+"|"+h.zone]
		}
		if !ok {
			b.reject(h.line, item, "AcceleratorName", "no %s x%d accelerator row in %s %s to add to the host price", m.Sky, m.Count, h.region, h.zone)
			continue
		}
		p, s := "", ""
		if h.price > 0 && a.price > 0 {
			p = "set"
		}
		if h.spot > 0 && a.spot > 0 {
			s = "set"
		}
		skyAdd(b, h.line, item, "gcp", h.instance, h.region, m.GPU, m.Count, h.vcpus, h.ram, h.price+a.price, h.spot+a.spot, p, s)
	}
	return nil
}

// skyAdd files the on-demand and spot prices of one row; rawPrice and
// rawSpot are the cells, empty when the mode is not offered.
func skyAdd(b *builder, line int, item, provider, inst, region, gpu string, count, vcpus int, ram, price, spot float64, rawPrice, rawSpot string) {
	row := priceRow{line: line, item: item, provider: provider, instance: inst, region: region,
		gpu: gpu, count: count, vcpus: vcpus, ramGiB: ram, currency: "USD"}
	if rawPrice == "" && rawSpot == "" {
		b.reject(line, item, "Price", "neither Price nor SpotPrice is set")
		return
	}
	if rawPrice != "" {
		row.mode, row.price = catalog.OnDemand, price
		b.add(row)
	}
	if rawSpot != "" {
		row.mode, row.price = catalog.Spot, spot
		b.add(row)
	}
}

// skyGPU maps a SkyPilot row to our id: the provider's own instance table
// first (it knows SXM from PCIe and 16 from 32 GB), then the name.
func skyGPU(cat *catalog.Catalog, provider, inst, accel string) (string, bool) {
	switch provider {
	case "aws":
		if s, k := awsGPU(inst, ""); k == mappedGPU {
			return s.GPU, true
		}
	case "azure":
		if s, k, _ := azureGPU(inst); k == mappedGPU {
			return s.GPU, true
		}
	case "gcp":
		if m, ok := gcpMachines[inst]; ok {
			return m.GPU, true
		}
	}
	return resolveName(cat, skyNames, accel, 0, inst)
}
