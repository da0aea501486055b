package catalog

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/strictyaml"
)

// PriceRule is one line of a user's price overlay: offers it matches, and
// either a price that replaces the list price or a discount on it.
type PriceRule struct {
	Name            string  `yaml:"name" json:"name"`
	Provider        string  `yaml:"provider" json:"provider"`                 // exact id; empty = any
	Instance        string  `yaml:"instance" json:"instance"`                 // glob, e.g. "p5.*"
	Region          string  `yaml:"region" json:"region"`                     // glob
	Mode            string  `yaml:"mode" json:"mode"`                         // pricing mode; empty = every mode
	PricePerHour    float64 `yaml:"price_per_hour" json:"price_per_hour"`     // per instance-hour, in Currency
	Currency        string  `yaml:"currency" json:"currency"`                 // default USD
	DiscountPercent float64 `yaml:"discount_percent" json:"discount_percent"` // off the list price, 0-100
	mode            Mode
	anyMode         bool
}

// Overlay is a user's negotiated prices. The first rule that matches an
// offer and mode decides that price; offers no rule matches keep the list
// price.
type Overlay struct {
	Rules []PriceRule `yaml:"rules"`
	lines strictyaml.Lines
}

// MaxLocalPricePerHour bounds a catalog or imported price per
// instance-hour in its own currency (a million: the largest real prices,
// a TPU pod slice in USD or a GPU cluster in CNY, are well below; beyond it
// is a typo or an attack, and sums of such prices overflow).
const MaxLocalPricePerHour = 1e6

// MaxPricePerHour bounds a price per instance-hour: the largest real
// instances cost a few hundred USD an hour; anything beyond this is a typo.
const MaxPricePerHour = 1e5

// ParseOverlay reads a price overlay file (YAML or JSON):
//
//	rules:
//	  - {name: "EDP 2026", provider: aws, instance: "p5.*", discount_percent: 25}
//	  - {provider: lambda, instance: gpu_8x_h100_sxm5, mode: on-demand, price_per_hour: 19.9}
//
// Errors name the rule, field and line.
func ParseOverlay(data []byte) (*Overlay, error) {
	var ov Overlay
	if err := strictyaml.Decode(data, &ov); err != nil {
		return nil, err
	}
	var errs apperr.List
	lines := strictyaml.IndexLines(data)
	ov.lines = lines
	bad := func(i int, field, format string, args ...any) {
		at := fmt.Sprintf("rules[%d].%s", i, field)
		e := apperr.Invalidf(at, format, args...)
		if e.Line = lines[at]; e.Line == 0 {
			e.Line = lines[fmt.Sprintf("rules[%d]", i)]
		}
		errs = append(errs, e)
	}
	if len(ov.Rules) == 0 {
		errs = append(errs, apperr.Invalidf("rules", "no rules: want a list of rules with provider, instance, region, mode and price_per_hour or discount_percent"))
	}
	for i := range ov.Rules {
		r := &ov.Rules[i]
		r.Provider = strings.ToLower(strings.TrimSpace(r.Provider))
		if r.Name == "" {
			r.Name = fmt.Sprintf("rule %d", i+1)
		}
		if r.Mode == "" {
			r.anyMode = true
		} else if m, ok := ParseMode(r.Mode); ok {
			r.mode = m
		} else {
			bad(i, "mode", "want one of %s, got %q", strings.Join(ModeNames(), ", "), r.Mode)
		}
		for _, g := range []struct{ field, pat string }{{"instance", r.Instance}, {"region", r.Region}} {
			if _, err := path.Match(g.pat, ""); err != nil {
				bad(i, g.field, "bad glob %q: %v", g.pat, err)
			}
		}
		switch {
		case math.IsNaN(r.PricePerHour) || math.IsInf(r.PricePerHour, 0) || r.PricePerHour > MaxPricePerHour:
			bad(i, "price_per_hour", "must be a number from 0 to %g USD (or the currency's) per instance-hour, got %g", MaxPricePerHour, r.PricePerHour)
		case math.IsNaN(r.DiscountPercent) || math.IsInf(r.DiscountPercent, 0):
			bad(i, "discount_percent", "must be a number from 0 to below 100, got %g", r.DiscountPercent)
		case r.PricePerHour < 0:
			bad(i, "price_per_hour", "must be > 0")
		case r.DiscountPercent < 0 || r.DiscountPercent >= 100:
			bad(i, "discount_percent", "must be from 0 to below 100, got %g", r.DiscountPercent)
		case r.PricePerHour > 0 && r.DiscountPercent > 0:
			bad(i, "price_per_hour", "set price_per_hour or discount_percent, not both")
		case r.PricePerHour == 0 && r.DiscountPercent == 0:
			bad(i, "price_per_hour", "set price_per_hour or discount_percent")
		}
		r.Currency = strings.ToUpper(r.Currency)
		if r.Currency == "" {
			r.Currency = "USD"
		}
	}
	return &ov, errs.Err()
}

func (r *PriceRule) matches(o *Offer, m Mode) bool {
	if !r.anyMode && r.mode != m {
		return false
	}
	if r.Provider != "" && r.Provider != o.Provider {
		return false
	}
	if r.Instance != "" {
		if ok, _ := path.Match(r.Instance, o.InstanceType); !ok {
			return false
		}
	}
	if r.Region != "" {
		if ok, _ := path.Match(r.Region, o.Region); !ok {
			return false
		}
	}
	return true
}

// WithPrices returns a catalog whose offers carry the overlay's prices in
// YourPrices (and the rule's name in PriceRules). The receiver is unchanged.
func (c *Catalog) WithPrices(ov *Overlay) (*Catalog, error) {
	if ov == nil {
		return c, nil
	}
	var errs apperr.List
	bad := func(field, format string, args ...any) {
		e := apperr.Invalidf(field, format, args...)
		e.Line = ov.lines[field]
		errs = append(errs, e)
	}
	for i, r := range ov.Rules {
		if _, ok := c.fx[r.Currency]; !ok {
			bad(fmt.Sprintf("rules[%d].currency", i), "no exchange rate for %q", r.Currency)
		}
		if r.Provider != "" {
			if _, ok := c.provider[r.Provider]; !ok {
				bad(fmt.Sprintf("rules[%d].provider", i), "unknown provider %q (see gpupick providers)", r.Provider)
			}
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	cp := *c
	cp.Offers = make([]*Offer, len(c.Offers))
	for i, o := range c.Offers {
		o2 := *o
		for m := Mode(0); m < NumModes; m++ {
			for j := range ov.Rules {
				r := &ov.Rules[j]
				if !r.matches(&o2, m) {
					continue
				}
				if r.PricePerHour > 0 {
					o2.YourPrices[m] = r.PricePerHour * c.fx[r.Currency].USDPerUnit
				} else if list, ok := o2.ListPrices.Get(m); ok {
					o2.YourPrices[m] = list * (1 - r.DiscountPercent/100)
				} else {
					continue // a discount on an unknown price says nothing
				}
				o2.PriceRules[m] = r.Name
				break
			}
		}
		cp.Offers[i] = &o2
	}
	return &cp, nil
}

// HasOwnPrices reports whether any overlay rule changed this offer's price.
func (o *Offer) HasOwnPrices() bool {
	for _, r := range o.PriceRules {
		if r != "" {
			return true
		}
	}
	return false
}
