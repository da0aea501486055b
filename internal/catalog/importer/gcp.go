package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// GCPURL lists the SKUs of Compute Engine (service 6F81-5844-456A) in the
// Cloud Billing Catalog API.
const GCPURL = "https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus"

// gcpPage is one response of the skus list. Skus is a pointer so that a
// page without it (a changed format) is told apart from an empty one.
type gcpPage struct {
	Skus          *[]gcpSKU `json:"skus"`
	NextPageToken string    `json:"nextPageToken"`
}

// gcpSKU holds the fields of a SKU the importer reads.
type gcpSKU struct {
	SkuID       string `json:"skuId"`
	Description string `json:"description"`
	Category    struct {
		ResourceFamily string `json:"resourceFamily"`
		ResourceGroup  string `json:"resourceGroup"`
		UsageType      string `json:"usageType"`
	} `json:"category"`
	ServiceRegions []string `json:"serviceRegions"`
	PricingInfo    []struct {
		PricingExpression struct {
			UsageUnit   string `json:"usageUnit"`
			TieredRates []struct {
				StartUsageAmount float64 `json:"startUsageAmount"`
				UnitPrice        struct {
					CurrencyCode string      `json:"currencyCode"`
					Units        json.Number `json:"units"` // int64, a string in JSON
					Nanos        int64       `json:"nanos"`
				} `json:"unitPrice"`
			} `json:"tieredRates"`
		} `json:"pricingExpression"`
	} `json:"pricingInfo"`
}

// gcpRate is a price per unit-hour in a currency.
type gcpRate struct {
	price    float64
	currency string
}

// gcpPrices is mode -> region -> rate.
type gcpPrices map[catalog.Mode]map[string]gcpRate

func (p gcpPrices) set(m catalog.Mode, region string, r gcpRate) {
	if p[m] == nil {
		p[m] = map[string]gcpRate{}
	}
	if old, ok := p[m][region]; !ok || r.price < old.price {
		p[m][region] = r
	}
}

// gcpCollector gathers GPU and host SKU prices over all pages; apply then
// combines them into machine prices. It keeps its own report so that a
// page fetched twice (a retry) is collected once.
type gcpCollector struct {
	gpu        map[string]gcpPrices // GPU model -> prices per GPU-hour
	host       map[string]gcpPrices // "a2/core" (per vCPU-hour), "a2/ram" (per GiB-hour)
	rejects    []Reject
	unmapped   map[string]int
	missing    map[string]int
	considered int
	skipped    int
}

func newGCPCollector() *gcpCollector {
	return &gcpCollector{gpu: map[string]gcpPrices{}, host: map[string]gcpPrices{}, unmapped: map[string]int{}, missing: map[string]int{}}
}

func (g *gcpCollector) reject(item, field, format string, args ...any) {
	g.rejects = append(g.rejects, Reject{Item: item, Field: field, Reason: fmt.Sprintf(format, args...)})
}

func (g *gcpCollector) lacks(item, field string) {
	g.missing[field]++
	g.reject(item, field, "required field is missing or empty")
}

// gcpModes maps category.usageType to a pricing mode.
var gcpModes = map[string]catalog.Mode{
	"OnDemand": catalog.OnDemand, "Preemptible": catalog.Spot, "Commit1Yr": catalog.Reserved1y, "Commit3Yr": catalog.Reserved3y,
}

// add files one SKU: a GPU-hour of a model, or a core-hour or GiB-hour of
// an accelerator-optimised machine family. DWS (calendar and flex-start)
// SKUs are kept out: they are not on-demand prices.
func (g *gcpCollector) add(s *gcpSKU) {
	item := s.SkuID + " " + s.Description
	if s.Category.ResourceFamily != "Compute" || strings.Contains(s.Description, "DWS") {
		g.skipped++
		return
	}
	mode, ok := gcpModes[s.Category.UsageType]
	if !ok {
		g.skipped++
		return
	}
	var (
		target   gcpPrices
		wantUnit string
	)
	if s.Category.ResourceGroup == "GPU" {
		model, ok := gcpGPUModel(s.Description)
		if !ok {
			g.skipped++
			return
		}
		g.considered++
		if _, ok := gcpGPUs[model]; !ok {
			g.unmapped[model]++
			g.reject(item, "description", "unmapped GPU %q: no mapping to a gpupick accelerator id (add it to the importer's table)", model)
			return
		}
		if g.gpu[model] == nil {
			g.gpu[model] = gcpPrices{}
		}
		target, wantUnit = g.gpu[model], "h"
	} else {
		fam, part, ok := gcpHostPart(s.Description)
		if !ok {
			g.skipped++
			return
		}
		g.considered++
		k := fam + "/" + part
		if g.host[k] == nil {
			g.host[k] = gcpPrices{}
		}
		target, wantUnit = g.host[k], "h"
		if part == "ram" {
			wantUnit = "GiBy.h"
		}
	}
	if len(s.ServiceRegions) == 0 {
		g.lacks(item, "serviceRegions")
		return
	}
	if len(s.PricingInfo) == 0 {
		g.lacks(item, "pricingInfo")
		return
	}
	pe := &s.PricingInfo[0].PricingExpression
	if len(pe.TieredRates) == 0 {
		g.lacks(item, "pricingInfo.pricingExpression.tieredRates")
		return
	}
	if pe.UsageUnit != wantUnit {
		g.reject(item, "pricingInfo.pricingExpression.usageUnit", "want %q, got %q", wantUnit, pe.UsageUnit)
		return
	}
	rate := gcpRate{}
	for _, t := range pe.TieredRates {
		units := int64(0)
		if t.UnitPrice.Units != "" {
			v, err := strconv.ParseInt(string(t.UnitPrice.Units), 10, 64)
			if err != nil {
				g.reject(item, "unitPrice.units", "want a whole number, got %q", t.UnitPrice.Units)
				return
			}
			units = v
		}
		rate = gcpRate{price: float64(units) + float64(t.UnitPrice.Nanos)/1e9, currency: t.UnitPrice.CurrencyCode}
		if rate.price > 0 {
			break // the first paid tier: free tiers come first
		}
	}
	if !(rate.price > 0) {
		g.reject(item, "unitPrice", "price must be > 0, got %g", rate.price)
		return
	}
	for _, r := range s.ServiceRegions {
		target.set(mode, r, rate)
	}
}

// apply prices every machine type as GCP bills it: vCPUs x core-hour +
// GiB x RAM-hour + GPUs x GPU-hour, per mode and region, from SKUs of the
// same mode. Bundled local SSD is not added.
func (g *gcpCollector) apply(b *builder) {
	b.res.Rejected = append(b.res.Rejected, g.rejects...)
	for k, v := range g.unmapped {
		b.res.Unmapped[k] += v
	}
	for k, v := range g.missing {
		b.missing[k] += v
	}
	b.considered += g.considered
	b.res.Skipped += g.skipped
	names := make([]string, 0, len(gcpMachines))
	for n := range gcpMachines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		m := gcpMachines[name]
		for mode := catalog.Mode(0); mode < catalog.NumModes; mode++ {
			var gpu map[string]gcpRate
			for _, model := range m.Models {
				if p := g.gpu[model][mode]; len(p) > 0 {
					gpu = p
					break
				}
			}
			core, ram := g.host[m.Host+"/core"][mode], g.host[m.Host+"/ram"][mode]
			regions := make([]string, 0, len(gpu))
			for r := range gpu {
				regions = append(regions, r)
			}
			sort.Strings(regions)
			for _, r := range regions {
				if !b.wantRegion(r) {
					continue
				}
				item := "gcp/" + name + "@" + r + " " + mode.String()
				c, okc := core[r]
				ra, okr := ram[r]
				if !okc || !okr {
					b.reject(0, item, "description", "no %s core or RAM SKU for %s in %s: cannot price the host", strings.ToUpper(m.Host), mode, r)
					continue
				}
				gp := gpu[r]
				if c.currency != gp.currency || ra.currency != gp.currency {
					b.reject(0, item, "unitPrice.currencyCode", "host and GPU SKUs in different currencies")
					continue
				}
				price := float64(m.VCPUs)*c.price + m.RAMGiB*ra.price + float64(m.Count)*gp.price
				b.add(priceRow{
					item: item, provider: "gcp", instance: name, region: r, gpu: m.GPU, count: m.Count,
					vcpus: m.VCPUs, ramGiB: m.RAMGiB, mode: mode, price: price, currency: gp.currency,
				})
			}
		}
	}
}

// decodeGCPPage decodes one page and checks its envelope.
func decodeGCPPage(dec *json.Decoder) (*gcpPage, error) {
	var p gcpPage
	if err := dec.Decode(&p); err != nil {
		return nil, jsonErr(err)
	}
	if p.Skus == nil {
		return nil, apperr.Invalidf("skus", "missing from the response: not a Cloud Billing skus page, or the format changed")
	}
	return &p, nil
}

// decodeGCPStream reads one page or several pages, one after another.
func decodeGCPStream(r io.Reader, g *gcpCollector) error {
	return eachPage(r, decodeGCPPage, "a Cloud Billing skus response", func(p *gcpPage) {
		for i := range *p.Skus {
			g.add(&(*p.Skus)[i])
		}
	})
}

// fetchGCP lists the Compute Engine SKUs page by page (nextPageToken).
func fetchGCP(ctx context.Context, f *fetcher, opt *Options) (*Result, error) {
	base := opt.BaseURL
	if base == "" {
		base = GCPURL
	}
	g := newGCPCollector()
	token := ""
	seen := map[string]bool{}
	for page := 1; ; page++ {
		if page > maxPages {
			return nil, fmt.Errorf("gcp: paging does not end (page %d)", page)
		}
		q := url.Values{"key": {opt.APIKey}, "pageSize": {"5000"}, "currencyCode": {"USD"}}
		if token != "" {
			q.Set("pageToken", token)
		}
		var p *gcpPage
		err := f.get(ctx, base+"?"+q.Encode(), func(r io.Reader) error {
			body, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			p, err = decodeGCPPage(json.NewDecoder(bytes.NewReader(body)))
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", page, err)
		}
		for i := range *p.Skus {
			g.add(&(*p.Skus)[i])
		}
		if p.NextPageToken == "" {
			break
		}
		if seen[p.NextPageToken] {
			return nil, fmt.Errorf("gcp: page %d repeats page token %q", page, p.NextPageToken)
		}
		seen[p.NextPageToken] = true
		token = p.NextPageToken
	}
	b := newBuilder("gcp", "gcp", base, opt)
	g.apply(b)
	if err := b.finish(); err != nil {
		return nil, fmt.Errorf("gcp: %s: %w", base, err)
	}
	return b.res, nil
}
