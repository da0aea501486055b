package autoscale

// CommitResult prices a run's on-demand replicas as a commitment would
// bill them: a base of Base units (instances, or replicas when each has
// its own) paid at the committed price for the whole run whether busy or
// not, and on-demand for the units above the base. A commitment is sold
// for a year or more: the run stands for the traffic it repeats over the
// term. Costs are of held time, before rounding to a billing increment.
type CommitResult struct {
	Term string `json:"term"`
	Unit string `json:"unit"` // instance or replica
	// Base is the number of units committed: the most for which each
	// committed unit is held at least BreakEven of the run.
	Base               int     `json:"base"`
	PerHourUSD         float64 `json:"per_hour_usd"`           // committed price of one unit
	OnDemandPerHourUSD float64 `json:"on_demand_per_hour_usd"` // on-demand price of one unit
	// BreakEven is PerHourUSD / OnDemandPerHourUSD: a unit held longer
	// than this share of the run costs less committed.
	BreakEven float64 `json:"break_even"`
	// BaseHeldFraction is the share of the run the base's last unit was
	// held (1 when the base is the floor of the fleet; 0 with no base).
	BaseHeldFraction float64 `json:"base_held_fraction"`
	BaseCostUSD      float64 `json:"base_cost_usd"`      // the committed base over the run
	BurstCostUSD     float64 `json:"burst_cost_usd"`     // units above the base, on demand
	CostUSD          float64 `json:"cost_usd"`           // base + burst
	OnDemandCostUSD  float64 `json:"on_demand_cost_usd"` // the same held time all on demand
	// FleetCostUSD is the run's whole cost (every tier, as billed) with
	// the on-demand replicas paid this way.
	FleetCostUSD float64 `json:"fleet_cost_usd"`
}

// PriceCommitment finds the committed base that costs least for a fleet
// that held u units for unitS[u] seconds, at onDemand and committed USD
// per unit-hour. Adding a unit to the base costs committed × the run's
// length and saves onDemand × the time at least that many units were
// held, so the best base is the largest B held at least committed /
// onDemand of the run (the newsvendor quantile): a commitment pays for
// the units the fleet keeps, not for its peak.
func PriceCommitment(unitS []float64, onDemand, committed float64) CommitResult {
	c := CommitResult{PerHourUSD: committed, OnDemandPerHourUSD: onDemand}
	if onDemand > 0 {
		c.BreakEven = committed / onDemand
	}
	var runS, heldS float64 // heldS: ∫ units dt
	for u, t := range unitS {
		runS += t
		heldS += float64(u) * t
	}
	c.OnDemandCostUSD = heldS / 3600 * onDemand
	c.BurstCostUSD, c.CostUSD = c.OnDemandCostUSD, c.OnDemandCostUSD
	if !(runS > 0) || !(committed > 0) {
		return c
	}
	// atLeast is the time at least b units were held, for b from the top.
	atLeast := make([]float64, len(unitS)+1)
	for b := len(unitS) - 1; b >= 0; b-- {
		atLeast[b] = atLeast[b+1] + unitS[b]
	}
	cost, best := c.OnDemandCostUSD, c.OnDemandCostUSD
	for b := 1; b < len(unitS); b++ {
		cost += (committed*runS - onDemand*atLeast[b]) / 3600
		if cost < best-1e-9 {
			best, c.Base = cost, b
		}
	}
	if c.Base > 0 {
		c.BaseHeldFraction = atLeast[c.Base] / runS
		c.BaseCostUSD = float64(c.Base) * committed * runS / 3600
		c.CostUSD = best
		c.BurstCostUSD = best - c.BaseCostUSD
	}
	return c
}
