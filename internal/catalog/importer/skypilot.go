package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"path/filepath"
	"regexp"
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
	// width is the header's; a record with more fields (an unquoted comma
	// in the last cell, as in Azure's "V1,V2") has its extra fields folded
	// back into the last cell.
	width int
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
	t := &csvTable{r: cr, cols: make(map[string]int, len(header)), width: len(header)}
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
	if t.width > 0 && len(rec) > t.width {
		rec = append(rec[:t.width-1:t.width-1], strings.Join(rec[t.width-1:], ","))
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
	if fromDir && providerWord.MatchString(word) {
		// catalogs/v9/<cloud>/vms.csv of a cloud the tables do not name:
		// the directory is the provider's id.
		return word, nil
	}
	return "", apperr.Invalidf("provider", "cannot tell the provider of %q from its name: say which provider it is", name)
}

// skyAccel is an accelerator row of SkyPilot's GCP catalog (no instance
// type: its price is added to a host row's, or to an N1 host's).
type skyAccel struct {
	line         int
	name, count  string
	region, zone string
	price, spot  float64
	used         bool
}

// skyRegionPattern is a marketplace region written "City, CC, continent"
// (Vast): the region is the country code.
var skyRegionPattern = regexp.MustCompile(`^[^,]*,\s*([A-Za-z]{2})\s*,\s*[A-Za-z]+$`)

// skyRegion is the catalog's region id for a SkyPilot Region cell.
func skyRegion(region string) string {
	if m := skyRegionPattern.FindStringSubmatch(region); m != nil {
		return strings.ToUpper(m[1])
	}
	return region
}

// gcpN1 are the GPUs GCP attaches to N1 VMs (no machine type of their
// own), with the accelerator type gcloud names them by.
var gcpN1 = map[string]string{"T4": "nvidia-tesla-t4", "V100": "nvidia-tesla-v100", "P100": "nvidia-tesla-p100", "P4": "nvidia-tesla-p4"}

// N1 host rates, USD per hour in us-central1: Compute Engine's N1
// predefined vCPU and memory prices. The host an attached GPU needs is
// priced from them (n1-standard-8 per GPU: 8 vCPUs, 30 GiB), scaled by the
// region's price ratio of the GPU itself.
const (
	n1VCPUHour   = 0.031611
	n1GiBHour    = 0.004237
	n1VCPUPerGPU = 8
	n1Source     = "N1 host priced at us-central1 list rates 0.031611 USD/vCPU-h and 0.004237 USD/GiB-h (cloud.google.com/compute/vm-instance-pricing, N1 predefined) scaled by the region's GPU price ratio [estimated]"
)

// parseSkyPilot reads a SkyPilot vms.csv. Prices are USD per instance-hour
// (Price on-demand, SpotPrice spot; empty or 0 = not offered); rows per
// zone of one region merge into one offer keeping the lowest price. An
// AcceleratorCount below 1 is a slice of one GPU (AWS g6f, Azure NVads A10
// v5). In the GCP catalog:
//   - host rows (no accelerator) of accelerator-optimised machines are
//     summed with the accelerator row of the same name, count and zone; a
//     host row priced 0 (A4) means the accelerator row carries the price;
//   - TPU slices (tpu-v5p-8) are offers of their own, counted in chips;
//   - GPUs attached to N1 VMs get an N1 host, priced at N1 rates.
//
// FPGA rows are refused as out of scope; CPU-only rows are skipped.
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
	accels := map[string]*skyAccel{}
	var accelRows []*skyAccel
	type hostRow struct {
		line             int
		instance, region string
		zone             string
		vcpus            int
		ram              float64
		price, spot      float64
	}
	var hosts []hostRow
	gpuLines := map[int]bool{}
	for {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		inst, accel := t.str("InstanceType"), t.str("AcceleratorName")
		region := skyRegion(t.str("Region"))
		zone := ""
		if hasZone {
			zone = t.str("AvailabilityZone")
		}
		price, okP := t.num("Price")
		spot, okS := t.num("SpotPrice")
		vcpuF, _ := t.num("vCPUs")
		ram, _ := t.num("MemoryGiB")
		if inst == "" && provider == "gcp" {
			inst = accel // GCP accelerator rows: TPU slices and attachable GPUs
		}
		item := provider + "/" + inst + "@" + region
		if accel == "" {
			if _, ok := gcpMachines[inst]; ok && provider == "gcp" && region != "" && b.wantRegion(region) && okP && okS {
				hosts = append(hosts, hostRow{t.line, inst, region, zone, int(vcpuF), ram, price, spot})
			} else {
				b.res.Skipped++
			}
			continue
		}
		if region != "" && !b.wantRegion(region) {
			continue
		}
		b.res.Rows++
		gpuLines[t.line] = true
		if why, out := nonGPU(accel); out {
			b.res.OutOfScope++
			b.reject(t.line, item, "AcceleratorName", "%s", why)
			continue
		}
		b.considered++
		if region == "" {
			b.lacks(t.line, item, "Region")
			continue
		}
		if !okP || !okS {
			b.reject(t.line, item, "Price", "want numbers, got Price %q SpotPrice %q", t.str("Price"), t.str("SpotPrice"))
			continue
		}
		rawP, rawS := t.str("Price"), t.str("SpotPrice")
		if spot == 0 {
			rawS = "" // a spot price of 0 means none is offered
		}
		if provider == "gcp" && t.str("InstanceType") == "" {
			if id, chips, ok := tpuSlice(accel); ok {
				skyAdd(b, t.line, item, provider, strings.ToLower(accel), region, id, chips, 0, 0, price, spot, rawP, rawS, "")
				continue
			}
			a := &skyAccel{line: t.line, name: accel, count: normCount(t.str("AcceleratorCount")), region: region, zone: zone, price: price, spot: spot}
			accels[a.name+"|"+a.count+"|"+region+"|"+zone] = a
			accelRows = append(accelRows, a)
			continue
		}
		if inst == "" {
			b.lacks(t.line, item, "InstanceType")
			continue
		}
		count, frac, okC := fraction(t.str("AcceleratorCount"))
		if !okC {
			b.reject(t.line, item, "AcceleratorCount", "want a whole number of accelerators >= 1 or a fraction of one, got %q", t.str("AcceleratorCount"))
			continue
		}
		// Memory per GPU tells apart names that cover several parts (A100
		// 40 and 80 GB; a 4060 and a 4060 Ti). Files write GpuInfo three
		// ways (per GPU, the machine's total, or a total that is per GPU),
		// so each reading is tried.
		mems := skyMemories(t.str("GpuInfo"), count)
		id, ok := skyGPU(b.cat, provider, inst, accel, mems)
		if !ok {
			b.unmapped(t.line, item, "AcceleratorName", accel)
			continue
		}
		if provider == "azure" && frac == 0 {
			// A slice the file counts as one GPU: the SKU table knows.
			if _, kind, s := azureGPU(inst); kind == fractionalGPU {
				frac = s.Fraction
			}
		}
		a, _ := b.cat.Accelerator(id)
		want := a.MemGiB
		if frac > 0 {
			want *= frac
		}
		if len(mems) > 0 && !memMatches(mems, want) {
			why := fmt.Sprintf("GpuInfo says %.0f GiB per GPU, but %s has %.3g GiB", mems[0], id, want)
			if provider == "vastai" {
				// A marketplace lists consumer variants under one name.
				b.reject(t.line, item, "GpuInfo", "%s: a variant the catalog does not have (add it to accelerators.csv)", why)
				continue
			}
			b.res.Warnings = append(b.res.Warnings, Reject{Line: t.line, Item: item, Field: "GpuInfo", Reason: why + ": kept as " + id})
		} else if r, ok := skyNames[strings.ToLower(accel)]; ok && r.ByMem != nil && len(mems) > 0 && provider == "vastai" {
			// One marketplace name, two memory sizes: the offer's name says which.
			inst = fmt.Sprintf("%s-%.0fGB", inst, a.MemGiB)
			item = provider + "/" + inst + "@" + region
		}
		skyAddSlice(b, t.line, item, provider, inst, region, id, count, frac, int(vcpuF), ram, price, spot, rawP, rawS, "")
	}
	for _, h := range hosts {
		m := gcpMachines[h.instance]
		item := "gcp/" + h.instance + "@" + h.region
		a, ok := accels[m.Sky+"|"+strconv.Itoa(m.Count)+"|"+h.region+"|"+h.zone]
		if !ok {
			b.res.Skipped++ // a host without its accelerator row in this zone: nothing to price
			continue
		}
		price, spot, note := h.price+a.price, h.spot+a.spot, ""
		if h.price == 0 {
			// A4: the host row is priced 0 and the accelerator row carries
			// the machine's whole price.
			price, spot, note = a.price, a.spot, "host row priced 0 in the source: the accelerator row carries the machine's price"
		}
		p, s := "", ""
		if a.price > 0 {
			p = "set"
		}
		if a.spot > 0 && (h.spot > 0 || h.price == 0) {
			s = "set"
		}
		if skyAdd(b, h.line, item, "gcp", h.instance, h.region, m.GPU, m.Count, h.vcpus, h.ram, price, spot, p, s, note) {
			b.accepted[a.line] = true
		}
		a.used = true
	}
	gcpN1Hosts(b, accelRows)
	for _, a := range accelRows {
		if !a.used {
			b.reject(a.line, "gcp/"+a.name+"x"+a.count+"@"+a.region, "AcceleratorName",
				"no machine type in %s %s carries %s x%s (no host row for it in the file)", a.region, a.zone, a.name, a.count)
		}
	}
	for line := range b.accepted {
		if gpuLines[line] {
			b.res.AcceptedRows++
		}
	}
	return nil
}

// gcpN1Hosts prices the GPUs GCP attaches to N1 VMs: each accelerator row
// becomes the offer n1-standard-<8 per GPU>+<gcloud accelerator type>x<n>,
// the GPU's price plus the host's.
func gcpN1Hosts(b *builder, rows []*skyAccel) {
	base := map[string]float64{} // name -> us-central1 price of one GPU
	for _, a := range rows {
		if a.region == "us-central1" && a.count == "1" && a.price > 0 {
			if p, ok := base[a.name]; !ok || a.price < p {
				base[a.name] = a.price
			}
		}
	}
	for _, a := range rows {
		kind, ok := gcpN1[a.name]
		if !ok || a.used {
			continue
		}
		a.used = true
		item := "gcp/" + a.name + "x" + a.count + "@" + a.region
		n, err := strconv.Atoi(a.count)
		if err != nil || n < 1 {
			b.reject(a.line, item, "AcceleratorCount", "want a whole number of GPUs, got %q", a.count)
			continue
		}
		id, ok := resolveName(b.cat, skyNames, a.name, 0, "")
		if !ok {
			b.unmapped(a.line, item, "AcceleratorName", a.name)
			continue
		}
		scale := 1.0
		if p, ok := base[a.name]; ok && a.price > 0 {
			scale = a.price / float64(n) / p
		}
		vcpus := n1VCPUPerGPU * n
		ram := 3.75 * float64(vcpus)
		host := (float64(vcpus)*n1VCPUHour + ram*n1GiBHour) * scale
		inst := fmt.Sprintf("n1-standard-%d+%sx%d", vcpus, kind, n)
		price, spot, p, s := 0.0, 0.0, "", ""
		if a.price > 0 {
			price, p = a.price+host, "set"
		}
		if a.spot > 0 && a.price > 0 {
			spot, s = a.spot+host*a.spot/a.price, "set"
		}
		skyAdd(b, a.line, "gcp/"+inst+"@"+a.region, "gcp", inst, a.region, id, n, vcpus, ram, price, spot, p, s, n1Source)
	}
}

// normCount writes an accelerator count cell as the host table does: "8"
// for "8.0".
func normCount(s string) string {
	if v, err := strconv.ParseFloat(s, 64); err == nil && v == math.Trunc(v) {
		return strconv.Itoa(int(v))
	}
	return s
}

// skyAdd files the on-demand and spot prices of one row of whole GPUs.
func skyAdd(b *builder, line int, item, provider, inst, region, gpu string, count, vcpus int, ram, price, spot float64, rawPrice, rawSpot, notes string) bool {
	return skyAddSlice(b, line, item, provider, inst, region, gpu, count, 0, vcpus, ram, price, spot, rawPrice, rawSpot, notes)
}

// skyAddSlice files the on-demand and spot prices of one row; rawPrice and
// rawSpot are the cells, empty when the mode is not offered. It reports
// whether a price was accepted.
func skyAddSlice(b *builder, line int, item, provider, inst, region, gpu string, count int, frac float64, vcpus int, ram, price, spot float64, rawPrice, rawSpot, notes string) bool {
	row := priceRow{line: line, item: item, provider: provider, instance: inst, region: region,
		gpu: gpu, count: count, fraction: frac, vcpus: vcpus, ramGiB: ram, currency: "USD", notes: notes}
	if rawPrice == "" && rawSpot == "" {
		b.reject(line, item, "Price", "neither Price nor SpotPrice is set")
		return false
	}
	ok := false
	if rawPrice != "" {
		row.mode, row.price = catalog.OnDemand, price
		ok = b.add(row)
	}
	if rawSpot != "" {
		row.mode, row.price = catalog.Spot, spot
		ok = b.add(row) || ok
	}
	return ok
}

// skyGPU maps a SkyPilot row to our id: the provider's own instance table
// first (it knows SXM from PCIe and 16 from 32 GB), then the name.
func skyGPU(cat *catalog.Catalog, provider, inst, accel string, mems []float64) (string, bool) {
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
	if r, ok := skyNames[strings.ToLower(strings.TrimSpace(accel))]; ok && r.ByMem != nil {
		for _, m := range mems {
			if _, ok := r.ByMem[int(m+0.5)]; ok {
				return resolveName(cat, skyNames, accel, m, inst)
			}
		}
	}
	return resolveName(cat, skyNames, accel, 0, inst)
}

// skyGpuMiB and skyTotalMiB read the memory of a SkyPilot GpuInfo cell.
var skyGpuMiB = regexp.MustCompile(`'SizeInMiB':\s*([0-9.]+)`)

// skyMemories are the plausible readings of a GpuInfo cell's memory per
// GPU in GiB (1 GiB or more): the size as written, the total over the
// count, the size over the count. None when the cell says nothing usable.
func skyMemories(info string, count int) []float64 {
	var out []float64
	add := func(v float64) {
		if v >= 1 {
			out = append(out, v)
		}
	}
	n := float64(max(count, 1))
	size, total := 0.0, 0.0
	if m := skyGpuMiB.FindStringSubmatch(info); m != nil {
		size, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := skyTotalMiB.FindStringSubmatch(info); m != nil {
		total, _ = strconv.ParseFloat(m[1], 64)
	}
	// Most specific first: a total over the count is per GPU whatever the
	// size field meant.
	if n > 1 {
		add(total / 1024 / n)
		add(size / 1024 / n)
	}
	add(size / 1024)
	return out
}

// memMatches reports whether one reading is within 10% of want.
func memMatches(mems []float64, want float64) bool {
	for _, m := range mems {
		if math.Abs(m-want) <= 0.1*want {
			return true
		}
	}
	return false
}

// providerWord is a directory name usable as a provider id.
var providerWord = regexp.MustCompile(`^[a-z][a-z0-9-]{1,30}$`)

// skyTotalMiB reads the GPU memory total of a SkyPilot GpuInfo cell.
var skyTotalMiB = regexp.MustCompile(`'TotalGpuMemoryInMiB':\s*([0-9.]+)`)
