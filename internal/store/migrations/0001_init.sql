-- The first schema: catalog snapshots, price history, saved documents.
-- {{autoid}}, {{blob}} and {{without_rowid}} are replaced per dialect.
-- Times are Unix milliseconds (UTC); prices are USD per instance-hour.

CREATE TABLE snapshots (
	id {{autoid}},
	source TEXT NOT NULL,
	providers TEXT NOT NULL, -- comma-separated, sorted
	url TEXT NOT NULL,
	fetched_at BIGINT NOT NULL,
	saved_at BIGINT NOT NULL,
	row_count INTEGER NOT NULL,
	checksum TEXT NOT NULL
);

-- Which providers each snapshot replaced: the catalog as of snapshot S holds,
-- per provider, the offers of its last snapshot with id <= S.
CREATE TABLE snapshot_providers (
	provider TEXT NOT NULL,
	snapshot_id BIGINT NOT NULL REFERENCES snapshots (id),
	PRIMARY KEY (provider, snapshot_id)
);

-- One small integer per offer key keeps price_history compact.
CREATE TABLE offer_keys (
	id {{autoid}},
	offer_key TEXT NOT NULL UNIQUE, -- provider/instance-type@region
	provider TEXT NOT NULL,
	offer TEXT NOT NULL, -- provider/instance-type
	region TEXT NOT NULL
);
CREATE INDEX offer_keys_offer ON offer_keys (offer, region);
CREATE INDEX offer_keys_provider ON offer_keys (provider);

-- The full rows of the last snapshot of each provider, as JSON.
CREATE TABLE current_offers (
	offer_id BIGINT PRIMARY KEY REFERENCES offer_keys (id),
	provider TEXT NOT NULL,
	snapshot_id BIGINT NOT NULL REFERENCES snapshots (id),
	data TEXT NOT NULL
);
CREATE INDEX current_offers_provider ON current_offers (provider);

-- One row per offer, mode and snapshot; mode is catalog.Mode, or -1 for an
-- offer listed without any price. The primary key serves the history query.
CREATE TABLE price_history (
	offer_id BIGINT NOT NULL,
	mode SMALLINT NOT NULL,
	snapshot_id BIGINT NOT NULL,
	usd_per_hour DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (offer_id, mode, snapshot_id)
) {{without_rowid}};
CREATE INDEX price_history_snapshot ON price_history (snapshot_id);

-- Workloads and reports saved by the HTTP service.
CREATE TABLE documents (
	id {{autoid}},
	kind TEXT NOT NULL, -- workload or report
	name TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	body {{blob}} NOT NULL
);
CREATE INDEX documents_kind ON documents (kind, created_at);
