-- Prices a snapshot kept from the provider's snapshot before it, because the
-- import carried no price in their mode (an on-demand price list keeps the
-- spot prices in force). price_history marks them, so that an offer's
-- history shows only prices observed at each date, while the catalog as of a
-- snapshot (Diff) still holds them; snapshots say what was kept, as JSON.
ALTER TABLE price_history ADD COLUMN carried SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN carried TEXT NOT NULL DEFAULT '';
-- The pricing modes a snapshot priced for each of its providers, kept prices
-- included: bit m for catalog.Mode m. An import that lacks modes the
-- snapshot in force has none in either skips reading its offers. NULL for
-- snapshots saved before this column (then the offers are read).
ALTER TABLE snapshot_providers ADD COLUMN modes INTEGER;
