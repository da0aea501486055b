package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// AzureURL is the Azure Retail Prices API (unauthenticated).
const AzureURL = "https://prices.azure.com/api/retail/prices"

// Hours in a reservation term: Azure prices a reservation as one amount for
// the whole term (unitOfMeasure still says "1 Hour"), so the hourly
// equivalent is the price over these hours.
const (
	hours1y = 365 * 24
	hours3y = 3 * 365 * 24
)

// maxPages stops a paging loop that never ends (a server bug).
const maxPages = 10000

// azurePage is one response of the Retail Prices API. Items is a pointer so
// that a page without it (a changed format) is told apart from an empty one.
type azurePage struct {
	BillingCurrency string       `json:"BillingCurrency"`
	Items           *[]azureItem `json:"Items"`
	NextPageLink    *string      `json:"NextPageLink"`
	Count           int          `json:"Count"`
}

// azureItem holds the fields of a price record the importer reads.
type azureItem struct {
	CurrencyCode    string   `json:"currencyCode"`
	RetailPrice     *float64 `json:"retailPrice"`
	ArmRegionName   string   `json:"armRegionName"`
	MeterID         string   `json:"meterId"`
	MeterName       string   `json:"meterName"`
	ProductName     string   `json:"productName"`
	ServiceName     string   `json:"serviceName"`
	UnitOfMeasure   string   `json:"unitOfMeasure"`
	Type            string   `json:"type"`
	ArmSkuName      string   `json:"armSkuName"`
	ReservationTerm string   `json:"reservationTerm"`
	// SavingsPlan holds, on a pay-as-you-go item, the hourly price of the
	// same meter under a 1- or 3-year compute savings plan.
	SavingsPlan []azureSavingsPlan `json:"savingsPlan"`
}

// azureSavingsPlan is one term of a savings plan: an hourly price.
type azureSavingsPlan struct {
	RetailPrice float64 `json:"retailPrice"`
	Term        string  `json:"term"`
}

// decodeAzurePage decodes one page and checks its envelope.
func decodeAzurePage(dec *json.Decoder) (*azurePage, error) {
	var p azurePage
	if err := dec.Decode(&p); err != nil {
		return nil, jsonErr(err)
	}
	if p.Items == nil {
		return nil, apperr.Invalidf("Items", "missing from the response: not a Retail Prices API page, or the format changed")
	}
	return &p, nil
}

// jsonErr says plainly that a document ended early.
func jsonErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("truncated JSON (the document ends early): %w", err)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("malformed JSON at byte %d: %w", se.Offset, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return apperr.Invalidf(te.Field, "want %s, got JSON %s (has the format changed?)", te.Type, te.Value)
	}
	return err
}

// parseAzureStream reads one page or several pages, one after another.
func parseAzureStream(b *builder, r io.Reader) error {
	return eachPage(r, decodeAzurePage, "a Retail Prices API response", func(p *azurePage) { azureItems(b, *p.Items) })
}

// azureItems turns price records into offer prices: on-demand and spot
// rows from Consumption items (spot meters end in "Spot"), 1- and 3-year
// reservations from Reservation items. Windows, Low Priority, DevTest and
// dedicated-host meters are skipped: they are not what the catalog prices.
func azureItems(b *builder, items []azureItem) {
	for i := range items {
		it := &items[i]
		if (it.ServiceName != "" && it.ServiceName != "Virtual Machines") ||
			strings.Contains(it.ProductName, "Windows") || strings.Contains(it.ProductName, "Dedicated") ||
			strings.Contains(it.MeterName, "Low Priority") || it.Type == "DevTestConsumption" {
			b.res.Skipped++
			continue
		}
		item := it.ArmSkuName + "@" + it.ArmRegionName
		if it.MeterName != "" {
			item += " (" + it.MeterName + ")"
		}
		if it.ArmSkuName == "" {
			b.considered++
			b.lacks(0, it.MeterID, "armSkuName")
			continue
		}
		spec, kind, frac := azureGPU(it.ArmSkuName)
		switch kind {
		case notGPU:
			b.res.Skipped++
			continue
		case unmappedGPU:
			b.considered++
			b.unmapped(0, item, "armSkuName", it.ArmSkuName)
			continue
		}
		b.considered++
		if it.RetailPrice == nil {
			b.lacks(0, item, "retailPrice")
			continue
		}
		if it.ArmRegionName == "" {
			b.lacks(0, item, "armRegionName")
			continue
		}
		if it.UnitOfMeasure != "" && it.UnitOfMeasure != "1 Hour" {
			b.reject(0, item, "unitOfMeasure", "want \"1 Hour\", got %q", it.UnitOfMeasure)
			continue
		}
		price := *it.RetailPrice
		var mode catalog.Mode
		switch it.Type {
		case "Consumption", "":
			mode = catalog.OnDemand
			if strings.HasSuffix(strings.TrimSpace(it.MeterName), "Spot") {
				mode = catalog.Spot
			}
		case "Reservation":
			switch it.ReservationTerm {
			case "1 Year":
				mode, price = catalog.Reserved1y, price/hours1y
			case "3 Years":
				mode, price = catalog.Reserved3y, price/hours3y
			case "":
				b.lacks(0, item, "reservationTerm")
				continue
			default:
				b.res.Skipped++ // 5-year terms and the like: no catalog mode
				continue
			}
		default:
			b.res.Skipped++
			continue
		}
		row := priceRow{
			item: item, provider: "azure", instance: azureInstance(it.ArmSkuName), region: it.ArmRegionName,
			gpu: spec.GPU, count: spec.Count, fraction: frac.Fraction, mode: mode, price: price, currency: it.CurrencyCode,
		}
		b.add(row)
		if mode != catalog.OnDemand {
			continue
		}
		// A savings plan commits to a spend for a term, priced per hour
		// of this meter; where a reservation of the same term is also
		// listed, the lower of the two is the term's price.
		for _, sp := range it.SavingsPlan {
			switch sp.Term {
			case "1 Year":
				row.mode = catalog.Reserved1y
			case "3 Years":
				row.mode = catalog.Reserved3y
			default:
				continue
			}
			if sp.RetailPrice > 0 {
				row.price = sp.RetailPrice
				b.add(row)
			}
		}
	}
}

// azureInstance writes the instance type as the catalog does: Standard_ and
// the size in Azure's casing, whatever the source's (sizes are
// case-insensitive to Azure; some extracts lower-case them, and two
// spellings would be two offers).
func azureInstance(arm string) string {
	if strings.HasPrefix(strings.ToLower(arm), "standard_") {
		arm = arm[len("standard_"):]
	}
	return "Standard_" + azureCasing(arm)
}

// azureCasing spells a size name as Azure's naming convention does
// (learn.microsoft.com/azure/virtual-machines/vm-naming-conventions): the
// family in capitals, the vCPU count, the additive features in small
// letters (ND96isr), the accelerator in capitals (A100, MI300X) and the
// version in small letters (v5): ND96isr_MI300X_v5.
func azureCasing(size string) string {
	parts := strings.Split(size, "_")
	for i, p := range parts {
		switch {
		case i == 0:
			j := strings.IndexFunc(p, func(r rune) bool { return r >= '0' && r <= '9' })
			if j < 0 {
				parts[i] = strings.ToUpper(p)
				continue
			}
			k := j + strings.IndexFunc(p[j:], func(r rune) bool { return r < '0' || r > '9' })
			if k < j {
				k = len(p)
			}
			parts[i] = strings.ToUpper(p[:j]) + p[j:k] + strings.ToLower(p[k:])
		case i == len(parts)-1 && len(p) > 1 && (p[0] == 'v' || p[0] == 'V') && strings.Trim(p[1:], "0123456789") == "":
			parts[i] = strings.ToLower(p)
		default:
			parts[i] = strings.ToUpper(p)
		}
	}
	return strings.Join(parts, "_")
}

// azureFilter is the OData filter of one region's query: Linux VM prices,
// pay-as-you-go and reservations. GPU series are picked out afterwards.
func azureFilter(region string) string {
	return "serviceName eq 'Virtual Machines' and armRegionName eq '" + strings.ReplaceAll(region, "'", "''") +
		"' and (priceType eq 'Consumption' or priceType eq 'Reservation')" +
		" and contains(productName, 'Windows') eq false"
}

// fetchAzure queries each region and follows NextPageLink to the end.
func fetchAzure(ctx context.Context, f *fetcher, opt *Options) (*Result, error) {
	base := opt.BaseURL
	if base == "" {
		base = AzureURL
	}
	regions := fetchRegions(opt, "azure")
	b := newBuilder("azure", "azure", base, opt)
	for _, region := range regions {
		first := base + "?" + url.Values{"$filter": {azureFilter(region)}}.Encode()
		next := first
		seen := map[string]bool{}
		for page := 1; next != ""; page++ {
			if page > maxPages || seen[next] {
				return nil, fmt.Errorf("azure: region %s: paging does not end (page %d, link %s)", region, page, next)
			}
			seen[next] = true
			var p *azurePage
			err := f.get(ctx, next, func(r io.Reader) error {
				body, err := io.ReadAll(r)
				if err != nil {
					return err
				}
				p, err = decodeAzurePage(json.NewDecoder(bytes.NewReader(body)))
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("region %s, page %d: %w", region, page, err)
			}
			azureItems(b, *p.Items)
			next = ""
			if p.NextPageLink != nil && *p.NextPageLink != "" {
				next = *p.NextPageLink
				if err := sameHost(first, next); err != nil {
					return nil, fmt.Errorf("azure: region %s, page %d: %w", region, page, err)
				}
			}
		}
	}
	if err := b.finish(); err != nil {
		return nil, fmt.Errorf("azure: %s: %w", base, err)
	}
	return b.res, nil
}

// fetchRegions are the regions to query: the options', or every region the
// catalog knows for the provider.
func fetchRegions(opt *Options, provider string) []string {
	if len(opt.Regions) > 0 {
		return opt.Regions
	}
	var out []string
	for _, r := range opt.Catalog.Regions {
		if r.Provider == provider {
			out = append(out, r.ID)
		}
	}
	sort.Strings(out)
	return out
}
