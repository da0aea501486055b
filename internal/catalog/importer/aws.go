package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
)

// AWSURL is the prefix of the EC2 offer files; a region's file is
// AWSURL + "/<region>/index.json".
const AWSURL = "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current"

// awsProduct holds the fields of an offer-file product the importer reads.
type awsProduct struct {
	SKU           string `json:"sku"`
	ProductFamily string `json:"productFamily"`
	Attributes    struct {
		InstanceType    string `json:"instanceType"`
		RegionCode      string `json:"regionCode"`
		OperatingSystem string `json:"operatingSystem"`
		Tenancy         string `json:"tenancy"`
		PreInstalledSw  string `json:"preInstalledSw"`
		CapacityStatus  string `json:"capacitystatus"`
		MarketOption    string `json:"marketoption"`
		GPU             string `json:"gpu"`
		VCPU            string `json:"vcpu"`
		Memory          string `json:"memory"`
	} `json:"attributes"`
}

// awsTerm is one offer term of a SKU.
type awsTerm struct {
	TermAttributes struct {
		LeaseContractLength string `json:"LeaseContractLength"`
		PurchaseOption      string `json:"PurchaseOption"`
		OfferingClass       string `json:"OfferingClass"`
	} `json:"termAttributes"`
	PriceDimensions map[string]struct {
		Unit         string            `json:"unit"`
		PricePerUnit map[string]string `json:"pricePerUnit"`
	} `json:"priceDimensions"`
}

// awsPrice is one usable price of a SKU, per instance-hour.
type awsPrice struct {
	mode     catalog.Mode
	rank     int // reservations: lower is preferred (standard, no upfront first)
	price    float64
	currency string
	bad      string // why the term could not be read
}

// awsDoc is what an offer file holds for the importer: the Linux,
// shared-tenancy products of accelerated families and their prices.
type awsDoc struct {
	products    map[string]*awsProduct
	sawProducts bool
	sawTerms    bool
	prices      map[string][]awsPrice
	skipped     int
}

// keepProduct says whether a product is a Linux on-demand-capacity
// instance of an accelerated family (or one with GPUs the table lacks,
// which is reported).
func keepProduct(p *awsProduct) bool {
	a := &p.Attributes
	if !strings.HasPrefix(p.ProductFamily, "Compute Instance") {
		return false
	}
	if a.OperatingSystem != "" && a.OperatingSystem != "Linux" ||
		a.Tenancy != "" && a.Tenancy != "Shared" ||
		a.PreInstalledSw != "" && a.PreInstalledSw != "NA" ||
		a.CapacityStatus != "" && a.CapacityStatus != "Used" ||
		a.MarketOption != "" && a.MarketOption != "OnDemand" {
		return false
	}
	if a.InstanceType == "" {
		return true // reported as a missing field
	}
	_, kind := awsGPU(a.InstanceType, a.GPU)
	return kind != notGPU
}

// decodeAWS streams an offer file: products are decoded one at a time and
// only the accelerated ones kept, so a regional file of hundreds of MB
// needs little memory.
func decodeAWS(r io.Reader) (*awsDoc, error) {
	doc := &awsDoc{products: map[string]*awsProduct{}, prices: map[string][]awsPrice{}}
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return nil, err
		}
		switch key {
		case "products":
			doc.sawProducts = true
			err = eachMember(dec, func(sku string) error {
				var p awsProduct
				if err := dec.Decode(&p); err != nil {
					return jsonErr(eofEarly(err))
				}
				if p.SKU == "" {
					p.SKU = sku
				}
				if keepProduct(&p) {
					doc.products[p.SKU] = &p
				} else {
					doc.skipped++
				}
				return nil
			})
		case "terms":
			doc.sawTerms = true
			err = eachMember(dec, func(termType string) error {
				var mode catalog.Mode
				switch termType {
				case "OnDemand":
					mode = catalog.OnDemand
				case "Reserved":
					mode = catalog.Reserved1y // 1y or 3y, by the term's lease
				default:
					return skipValue(dec)
				}
				return eachMember(dec, func(sku string) error {
					if doc.sawProducts && doc.products[sku] == nil {
						return skipValue(dec)
					}
					var terms map[string]awsTerm
					if err := dec.Decode(&terms); err != nil {
						return jsonErr(eofEarly(err))
					}
					doc.prices[sku] = append(doc.prices[sku], awsTermPrices(mode, terms)...)
					return nil
				})
			})
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if !doc.sawProducts {
		return nil, apperr.Invalidf("products", "missing: not an AWS offer file, or the format changed")
	}
	if !doc.sawTerms {
		return nil, apperr.Invalidf("terms", "missing: not an AWS offer file, or the format changed")
	}
	return doc, nil
}

// awsTermPrices reads the hourly price of each term. A reservation's
// effective hourly price is its hourly fee plus its upfront fee spread over
// the term; standard no-upfront terms are preferred, as the closest to a
// list price.
func awsTermPrices(mode catalog.Mode, terms map[string]awsTerm) []awsPrice {
	var out []awsPrice
	codes := make([]string, 0, len(terms))
	for c := range terms {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		t := terms[c]
		p := awsPrice{mode: mode}
		hours := 0.0
		if mode != catalog.OnDemand {
			ta := t.TermAttributes
			switch ta.LeaseContractLength {
			case "1yr", "1 yr":
				p.mode, hours = catalog.Reserved1y, hours1y
			case "3yr", "3 yr":
				p.mode, hours = catalog.Reserved3y, hours3y
			default:
				p.bad = fmt.Sprintf("termAttributes.LeaseContractLength: unknown lease %q", ta.LeaseContractLength)
				out = append(out, p)
				continue
			}
			if !strings.EqualFold(ta.OfferingClass, "standard") {
				p.rank += 10
			}
			switch ta.PurchaseOption {
			case "No Upfront":
			case "Partial Upfront":
				p.rank++
			default:
				p.rank += 2
			}
		}
		dims := make([]string, 0, len(t.PriceDimensions))
		for d := range t.PriceDimensions {
			dims = append(dims, d)
		}
		sort.Strings(dims)
		seenHourly := false
		for _, d := range dims {
			pd := t.PriceDimensions[d]
			cur, s := "USD", pd.PricePerUnit["USD"]
			if s == "" {
				for k, v := range pd.PricePerUnit {
					cur, s = k, v
					break
				}
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				p.bad = fmt.Sprintf("priceDimensions.pricePerUnit: want a number, got %q", s)
				break
			}
			p.currency = cur
			switch pd.Unit {
			case "Hrs":
				p.price += v
				seenHourly = true
			case "Quantity":
				if hours > 0 {
					p.price += v / hours
				}
			}
		}
		if p.bad == "" && !seenHourly {
			p.bad = "priceDimensions: no hourly (unit Hrs) price"
		}
		out = append(out, p)
	}
	return out
}

// apply turns the kept products and their prices into offer rows.
func (doc *awsDoc) apply(b *builder) {
	b.res.Skipped += doc.skipped
	skus := make([]string, 0, len(doc.products))
	for s := range doc.products {
		skus = append(skus, s)
	}
	sort.Strings(skus)
	for _, sku := range skus {
		p := doc.products[sku]
		a := &p.Attributes
		item := sku
		if a.InstanceType != "" {
			item += " " + a.InstanceType + "@" + a.RegionCode
		}
		b.considered++
		if a.InstanceType == "" {
			b.lacks(0, item, "attributes.instanceType")
			continue
		}
		spec, kind := awsGPU(a.InstanceType, a.GPU)
		if kind == unmappedGPU {
			b.unmapped(0, item, "attributes.instanceType", "family "+awsFamily(a.InstanceType)+" ("+a.GPU+" GPUs)")
			continue
		}
		if a.RegionCode == "" {
			b.lacks(0, item, "attributes.regionCode")
			continue
		}
		prices := doc.prices[sku]
		if len(prices) == 0 {
			b.reject(0, item, "terms", "no OnDemand or Reserved term for this SKU")
			continue
		}
		best := map[catalog.Mode]awsPrice{}
		for _, pr := range prices {
			if pr.bad != "" {
				b.reject(0, item, "terms", "%s", pr.bad)
				continue
			}
			if old, ok := best[pr.mode]; !ok || pr.rank < old.rank || pr.rank == old.rank && pr.price < old.price {
				best[pr.mode] = pr
			}
		}
		vcpus, _ := strconv.Atoi(a.VCPU)
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			pr, ok := best[m]
			if !ok {
				continue
			}
			b.add(priceRow{
				item: item, provider: "aws", instance: a.InstanceType, region: a.RegionCode,
				gpu: spec.GPU, count: spec.Count, fraction: awsFractions[a.InstanceType], vcpus: vcpus, ramGiB: leadingNumber(a.Memory),
				mode: m, price: pr.price, currency: pr.currency,
			})
		}
	}
}

// leadingNumber reads "2048 GiB" as 2048; 0 when there is none.
func leadingNumber(s string) float64 {
	f := strings.Fields(strings.ReplaceAll(s, ",", ""))
	if len(f) == 0 {
		return 0
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// fetchAWS reads each region's offer file.
func fetchAWS(ctx context.Context, f *fetcher, opt *Options) (*Result, error) {
	base := strings.TrimSuffix(opt.BaseURL, "/")
	if base == "" {
		base = AWSURL
	}
	b := newBuilder("aws", "aws", base, opt)
	for _, region := range fetchRegions(opt, "aws") {
		u := base + "/" + region + "/index.json"
		var doc *awsDoc
		err := f.get(ctx, u, func(r io.Reader) error {
			var err error
			doc, err = decodeAWS(r)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("region %s: %w", region, err)
		}
		doc.apply(b)
	}
	if err := b.finish(); err != nil {
		return nil, fmt.Errorf("aws: %s: %w", base, err)
	}
	return b.res, nil
}

// expectDelim reads one JSON delimiter.
func expectDelim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return jsonErr(eofEarly(err))
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", string(want), t)
	}
	return nil
}

// objectKey reads the key of the next member of an object.
func objectKey(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", jsonErr(eofEarly(err))
	}
	k, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("want an object key, got %v", t)
	}
	return k, nil
}

// eachMember walks an object, calling fn with each key; fn must consume
// the value.
func eachMember(dec *json.Decoder, fn func(key string) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		k, err := objectKey(dec)
		if err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
	}
	return expectDelim(dec, '}')
}

// skipValue consumes one JSON value of any kind, token by token, without
// keeping it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return jsonErr(eofEarly(err))
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// eofEarly turns io.EOF inside a document into io.ErrUnexpectedEOF.
func eofEarly(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
