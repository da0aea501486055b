package importer

import (
	"io"
	"regexp"
	"strings"

	"github.com/gpupick/gpupick/internal/catalog"
)

// The formats in this file are public price documents flattened to one CSV
// row per (instance type, region) by a small extract, kept with the source
// it was made from: the document itself is JSON or YAML of several MB, the
// rows are what the catalog needs of it. Each reads its columns by name.

// vantageTerms are the Reserved Instance columns of the vantage extract:
// Standard terms, the no-upfront rate (the catalog's reserved modes) and
// the all-upfront effective rate. Convertible terms, dearer for the same
// instance, are not read.
var vantageTerms = [...]struct {
	mode              catalog.Mode
	noUpfront, allCol string
}{
	{catalog.Reserved1y, "ri_yrTerm1Standard_noUpfront_effective_usd_per_hour", "ri_yrTerm1Standard_allUpfront_effective_usd_per_hour"},
	{catalog.Reserved3y, "ri_yrTerm3Standard_noUpfront_effective_usd_per_hour", "ri_yrTerm3Standard_allUpfront_effective_usd_per_hour"},
}

// parseVantage reads AWS prices from ec2instances.info's instances.json
// (instances.vantage.sh) flattened to one row per (instance type, region):
// Linux shared-tenancy on-demand, the spot average with its minimum and
// maximum, and Reserved Instance terms as effective hourly rates (hourly fee
// + upfront / term hours). The spot average is the source's own (over the
// region's zones), kept as an average with its range.
func parseVantage(b *builder, r io.Reader) error {
	t, err := newCSVTable(r, "instance_type", "region", "linux_ondemand_usd_per_hour", "linux_spot_avg_usd_per_hour")
	if err != nil {
		return err
	}
	b.res.Provider = "aws"
	for {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			b.res.AcceptedRows = len(b.accepted)
			return nil
		}
		inst, region := t.str("instance_type"), t.str("region")
		item := "aws/" + inst + "@" + region
		if why, out := awsRetired[awsFamily(inst)]; out {
			b.res.Rows++
			b.res.OutOfScope++
			b.reject(t.line, item, "instance_type", "%s", why)
			continue
		}
		spec, kind := awsGPU(inst, t.str("accelerator_count"))
		switch kind {
		case notGPU:
			b.res.Skipped++
			continue
		case unmappedGPU:
			b.res.Rows++
			b.considered++
			b.unmapped(t.line, item, "instance_type", inst)
			continue
		}
		b.res.Rows++
		if why, out := awsOutOfScope(region); out {
			b.res.OutOfScope++
			b.reject(t.line, item, "region", "%s", why)
			continue
		}
		b.considered++
		if region == "" {
			b.lacks(t.line, item, "region")
			continue
		}
		vcpus, _ := t.num("vcpu")
		ram, _ := t.num("memory_gib")
		row := priceRow{line: t.line, item: item, provider: "aws", instance: inst, region: region,
			gpu: spec.GPU, count: spec.Count, vcpus: int(vcpus), ramGiB: ram, currency: "USD"}
		if frac, ok := awsFractions[inst]; ok {
			row.fraction = frac // a slice of one L4 (g6f), written 0.125 in the extract
		}
		if row.count == 0 {
			b.lacks(t.line, item, "accelerator_count")
			continue
		}
		priced := false
		num := func(col string) float64 {
			v, ok := t.num(col)
			if !ok {
				b.reject(t.line, item, col, "want a number, got %q", t.str(col))
				return 0
			}
			return v
		}
		if v := num("linux_ondemand_usd_per_hour"); v > 0 {
			row.mode, row.price = catalog.OnDemand, v
			priced = b.add(row) || priced
		}
		if v := num("linux_spot_avg_usd_per_hour"); v > 0 {
			lo, hi := num("linux_spot_min_usd_per_hour"), num("linux_spot_max_usd_per_hour")
			if lo > v || hi < v {
				lo, hi = 0, 0 // a range that does not hold the average says nothing
			}
			row.mode, row.price, row.spotBasis, row.spotMin, row.spotMax = catalog.Spot, v, catalog.SpotAverage, lo, hi
			priced = b.add(row) || priced
			row.spotBasis, row.spotMin, row.spotMax = catalog.SpotBasisUnstated, 0, 0
		}
		for _, term := range vantageTerms {
			if v := num(term.noUpfront); v > 0 {
				row.mode, row.price, row.allUpfront = term.mode, v, num(term.allCol)
				priced = b.add(row) || priced
				row.allUpfront = 0
			}
		}
		if !priced {
			b.res.Skipped++ // listed without any price (p5e, p6e-gb200 in the 2025 file)
		}
	}
}

// awsRetired are AWS accelerator families still priced whose accelerator
// the catalog does not hold, with why.
var awsRetired = map[string]string{
	"g2":   "GRID K520 (2013): a retired GPU generation the catalog does not hold, out of scope",
	"p2":   "Tesla K80 (2016): a retired GPU generation the catalog does not hold, out of scope",
	"dl2q": "Qualcomm Cloud AI 100: an inference card the performance model does not cover, out of scope",
}

// awsRegionID is the form of an AWS region code (us-east-1,
// ap-southeast-5); Local Zones and Wavelength Zones add a location to it
// (us-east-1-bos-1, us-west-2-wl1-den1).
var awsRegionID = regexp.MustCompile(`^[a-z]{2}-[a-z]+-[0-9]$`)

// awsOutOfScope says why a location of the vantage file is not a region a
// buyer can be offered: a Local or Wavelength Zone (an edge site of a
// parent region, sold to accounts that opt in, with few instance types),
// or GovCloud (separate accounts for US government workloads).
func awsOutOfScope(region string) (string, bool) {
	switch {
	case strings.HasPrefix(region, "us-gov-"):
		return "AWS GovCloud: separate accounts for US government workloads, out of scope", true
	case region != "" && !awsRegionID.MatchString(region):
		return "an AWS Local or Wavelength Zone (an edge site of its parent region), out of scope", true
	}
	return "", false
}

// parseGCPMachines reads GCP machine-type prices flattened from the Cloud
// Billing Catalog by a pricing calculator (one row per machine type and
// region): the whole machine (vCPUs, memory, GPUs and the local SSD bundled
// with the type) on demand, on spot, and under 1- and 3-year committed use
// discounts, all per hour. Spot prices are regional list prices.
func parseGCPMachines(b *builder, r io.Reader) error {
	t, err := newCSVTable(r, "machine_type", "region", "on_demand_usd_per_hour")
	if err != nil {
		return err
	}
	b.res.Provider = "gcp"
	b.oneSpot = catalog.SpotRegional
	for {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			b.res.AcceptedRows = len(b.accepted)
			return nil
		}
		inst, region := t.str("machine_type"), t.str("region")
		item := "gcp/" + inst + "@" + region
		b.res.Rows++
		b.considered++
		m, ok := gcpMachines[inst]
		if !ok {
			b.unmapped(t.line, item, "machine_type", inst)
			continue
		}
		if region == "" {
			b.lacks(t.line, item, "region")
			continue
		}
		vcpus, _ := t.num("vcpu")
		ram, _ := t.num("ram_gb")
		row := priceRow{line: t.line, item: item, provider: "gcp", instance: inst, region: region,
			gpu: m.GPU, count: m.Count, fraction: m.Fraction, vcpus: int(vcpus), ramGiB: ram, currency: "USD"}
		if ssd, _ := t.num("local_ssd_gb"); ssd > 0 {
			row.notes = "whole-machine price: vCPUs, memory, GPUs and the " + t.str("local_ssd_gb") + " GB of local SSD the type bundles"
		}
		for _, c := range []struct {
			col  string
			mode catalog.Mode
		}{
			{"on_demand_usd_per_hour", catalog.OnDemand}, {"spot_usd_per_hour", catalog.Spot},
			{"cud_1y_usd_per_hour", catalog.Reserved1y}, {"cud_3y_usd_per_hour", catalog.Reserved3y},
		} {
			v, ok := t.num(c.col)
			if !ok {
				b.reject(t.line, item, c.col, "want a number, got %q", t.str(c.col))
				continue
			}
			if v > 0 {
				row.mode, row.price = c.mode, v
				b.add(row)
			}
		}
	}
}

// parseAzureRetailCSV reads Azure Retail Prices API items flattened to CSV
// (armRegionName, skuName, meterName, productName, type, retailPrice_usd,
// savingsPlan_1y_retailPrice_usd, unitOfMeasure): each row becomes the
// item the API returns and is read as a page of the API is.
func parseAzureRetailCSV(b *builder, r io.Reader) error {
	t, err := newCSVTable(r, "armRegionName", "skuName", "meterName", "productName", "type", "retailPrice_usd")
	if err != nil {
		return err
	}
	b.res.Provider = "azure"
	b.oneSpot = catalog.SpotRegional
	var items []azureItem
	for {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		// skuName is the size followed by the meter's kind: the ARM name
		// ("Standard_ND96amsr_A100_v4 Spot") or a display name
		// ("NC24ads A100 v4 Low Priority"), which azureGPU reads by its
		// letters.
		sku := t.str("skuName")
		arm := strings.TrimSuffix(strings.TrimSuffix(sku, " Spot"), " Low Priority")
		if !strings.HasPrefix(arm, "Standard_") {
			if _, kind, _ := azureGPU(arm); kind == mappedGPU || kind == fractionalGPU {
				k := strings.ToLower(strings.TrimPrefix(arm, "Standard_"))
				arm = azureSquashed[squash(k)]
			}
		}
		it := azureItem{CurrencyCode: "USD", ArmRegionName: t.str("armRegionName"), MeterID: t.str("meterId"),
			MeterName: t.str("meterName"), ProductName: t.str("productName"), ServiceName: "Virtual Machines",
			UnitOfMeasure: t.str("unitOfMeasure"), Type: t.str("type"), ArmSkuName: arm}
		if v, ok := t.num("retailPrice_usd"); ok && t.str("retailPrice_usd") != "" {
			it.RetailPrice = &v
		}
		if v, ok := t.num("savingsPlan_1y_retailPrice_usd"); ok && v > 0 {
			it.SavingsPlan = []azureSavingsPlan{{RetailPrice: v, Term: "1 Year"}}
		}
		if v, ok := t.num("savingsPlan_3y_retailPrice_usd"); ok && v > 0 {
			it.SavingsPlan = append(it.SavingsPlan, azureSavingsPlan{RetailPrice: v, Term: "3 Years"})
		}
		items = append(items, it)
	}
	azureItems(b, items)
	b.res.Rows, b.res.AcceptedRows = b.considered, b.considered-len(b.res.Rejected)-len(b.res.Unmapped)
	return nil
}
