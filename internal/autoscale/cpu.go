package autoscale

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/msg"
)

// CPUInstance is one x86 CPU instance a fallback tier can run on: its
// on-demand price in USD per hour, with where that price came from.
type CPUInstance struct {
	Provider        string  // lowercase provider id, e.g. aws
	InstanceType    string  // as the provider names it, e.g. c7i.8xlarge
	Region          string  // as the provider names it
	CPU             string  // processor model
	VCPUs           int     // > 0
	RAMGiB          float64 // > 0
	AMX             bool    // Intel AMX (bf16/int8 matrix tiles: the OpenVINO fast path)
	PricePerHourUSD float64 // on-demand, > 0
	Source          string  // URL or document
	AsOf            string  // date of the price, YYYY-MM-DD
}

// ID is provider/instance-type.
func (c CPUInstance) ID() string { return c.Provider + "/" + c.InstanceType }

var cpuColumns = []string{"provider", "instance_type", "region", "cpu", "vcpus", "ram_gib", "amx", "price_on_demand", "currency", "source", "as_of"}

// ParseCPUInstances reads the CPU instance table (data/cpu-instances.csv):
// the header names cpuColumns in order; every row has a positive vCPU count,
// RAM and USD price, a source and a YYYY-MM-DD date. A bad row is an Invalid
// error naming its line and column.
func ParseCPUInstances(data []byte) ([]CPUInstance, error) {
	r := csv.NewReader(bytes.NewReader(data))
	rows, err := r.ReadAll()
	if err != nil {
		return nil, apperr.Wrap(apperr.Invalid, "cpu-instances.csv", err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != strings.Join(cpuColumns, ",") {
		return nil, apperr.Invalidf("cpu-instances.csv", "want the header %s", strings.Join(cpuColumns, ","))
	}
	var out []CPUInstance
	seen := map[string]bool{}
	for i, row := range rows[1:] {
		line := i + 2
		bad := func(col, format string, args ...any) error {
			return &apperr.Error{Code: apperr.Invalid, Line: line, Field: col, Message: msg.New(format, args...)}
		}
		c := CPUInstance{Provider: row[0], InstanceType: row[1], Region: row[2], CPU: row[3], Source: row[9], AsOf: row[10]}
		if c.Provider == "" || c.Provider != strings.ToLower(c.Provider) || c.InstanceType == "" || c.Region == "" {
			return nil, bad("provider", "want a lowercase provider, an instance type and a region")
		}
		if c.VCPUs, err = strconv.Atoi(row[4]); err != nil || c.VCPUs < 1 {
			return nil, bad("vcpus", "want a positive integer, got %q", row[4])
		}
		if c.RAMGiB, err = strconv.ParseFloat(row[5], 64); err != nil || !(c.RAMGiB > 0) {
			return nil, bad("ram_gib", "want a positive number, got %q", row[5])
		}
		if c.AMX, err = strconv.ParseBool(row[6]); err != nil {
			return nil, bad("amx", "want true or false, got %q", row[6])
		}
		if c.PricePerHourUSD, err = strconv.ParseFloat(row[7], 64); err != nil || !(c.PricePerHourUSD > 0 && c.PricePerHourUSD <= MaxPricePerHourUSD) {
			return nil, bad("price_on_demand", "want a positive price, got %q", row[7])
		}
		if row[8] != "USD" {
			return nil, bad("currency", "want USD, got %q", row[8])
		}
		if c.Source == "" {
			return nil, bad("source", "every price needs its source")
		}
		if len(c.AsOf) != 10 || c.AsOf[4] != '-' || c.AsOf[7] != '-' {
			return nil, bad("as_of", "want YYYY-MM-DD, got %q", c.AsOf)
		}
		key := c.ID() + "@" + c.Region
		if seen[key] {
			return nil, bad("instance_type", "%s in %s appears twice", c.ID(), c.Region)
		}
		seen[key] = true
		out = append(out, c)
	}
	return out, nil
}

// ApplyCPUInstances prices a fallback tier that names a CPU instance
// (policy.fallback.instance) from table: pricing.fallback_per_hour_usd
// becomes the instance's on-demand price and the fallback tier's
// PriceSource says where it came from. An unknown instance is an Invalid
// error on that field, listing the known ones. A spec without such a tier
// is left as it is.
func ApplyCPUInstances(spec *Spec, table []CPUInstance) error {
	f := spec.Policy.Fallback
	if f == nil || f.Instance == "" {
		return nil
	}
	var ids []string
	for _, c := range table {
		if strings.EqualFold(c.ID(), f.Instance) {
			f.CPU = c
			spec.Pricing.FallbackPerHourUSD = c.PricePerHourUSD
			f.PriceSource = fmt.Sprintf("%s %s, %s, %d vCPU: %s (%s)", c.ID(), c.Region, c.CPU, c.VCPUs, c.Source, c.AsOf)
			spec.Defaults = append(spec.Defaults, fmt.Sprintf("pricing.fallback_per_hour_usd = %v (the on-demand price of %s in %s)", c.PricePerHourUSD, c.ID(), c.Region))
			return nil
		}
		ids = append(ids, c.ID())
	}
	return spec.Errorf("policy.fallback.instance", "unknown CPU instance %q; known: %s", f.Instance, strings.Join(ids, ", "))
}
