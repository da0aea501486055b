package importer

import (
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
)

// parseGpuhunt reads a gpuhunt catalog CSV (one provider per file, named
// <provider>.csv; v1 and v2/v3 columns). price is USD per instance-hour;
// spot says whether the row is the spot price; gpu_memory (GB per GPU)
// tells apart names gpuhunt does not (A100 40/80 GB, V100 16/32 GB). Rows
// without GPUs are skipped, and so are GCP DWS calendar-mode rows.
func parseGpuhunt(b *builder, r io.Reader, name, given string) error {
	provider, err := providerOf(name, given, false)
	if err != nil {
		return err
	}
	t, err := newCSVTable(r, "instance_name", "location", "price", "gpu_count", "gpu_name", "spot")
	if err != nil {
		return err
	}
	for {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			// Every accepted line is a GPU row: there are no host rows here.
			b.res.Rows, b.res.AcceptedRows = b.considered, len(b.accepted)
			return nil
		}
		inst, region := t.str("instance_name"), t.str("location")
		item := provider + "/" + inst + "@" + region
		gpuName := t.str("gpu_name")
		count, okC := wholeCount(t.str("gpu_count"))
		if (okC && count == 0 && gpuName == "") || strings.Contains(t.str("provider_data"), "is_dws_calendar_mode\": true") {
			b.res.Skipped++
			continue
		}
		b.considered++
		if inst == "" {
			b.lacks(t.line, item, "instance_name")
			continue
		}
		if region == "" {
			b.lacks(t.line, item, "location")
			continue
		}
		if !okC || count == 0 {
			b.reject(t.line, item, "gpu_count", "want a whole number of GPUs >= 1, got %q", t.str("gpu_count"))
			continue
		}
		if gpuName == "" {
			b.lacks(t.line, item, "gpu_name")
			continue
		}
		mem, _ := t.num("gpu_memory")
		id, ok := resolveName(b.cat, gpuhuntNames, gpuName, mem, inst)
		if !ok {
			b.unmapped(t.line, item, "gpu_name", gpuName)
			continue
		}
		price, okP := t.num("price")
		if !okP || t.str("price") == "" {
			b.reject(t.line, item, "price", "want a number, got %q", t.str("price"))
			continue
		}
		mode := catalog.OnDemand
		switch strings.ToLower(t.str("spot")) {
		case "true", "1", "yes":
			mode = catalog.Spot
		case "false", "0", "no", "":
		default:
			b.reject(t.line, item, "spot", "want True or False, got %q", t.str("spot"))
			continue
		}
		cpu, _ := t.num("cpu")
		ramGB, _ := t.num("memory")
		ram := ramGB / 1.073741824 // gpuhunt writes GB
		b.add(priceRow{line: t.line, item: item, provider: provider, instance: inst, region: region,
			gpu: id, count: count, vcpus: int(cpu), ramGiB: ram, mode: mode, price: price, currency: "USD"})
	}
}

// wholeCount reads a GPU count written "8" or "8.0".
func wholeCount(s string) (int, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v != math.Trunc(v) || v < 0 || v > 1e6 {
		return 0, false
	}
	return int(v), true
}
