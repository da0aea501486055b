-- Sharded policy searches (gpupick simulate --search --shards N): each
-- shard stores the entries of every candidate (unit) it has searched, one
-- row per unit, so that a shard killed half-way and run again skips the
-- units it already stored, and --search-results merges them all. The
-- primary key makes storing a unit twice a no-op.
CREATE TABLE search_results (
	search_id TEXT NOT NULL,
	unit_key TEXT NOT NULL,
	unit INTEGER NOT NULL,
	shard INTEGER NOT NULL,
	result {{blob}} NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (search_id, unit_key)
);
-- One row per shard that has started: its place in the search, the units
-- the whole search has, a fingerprint of its inputs (so that two shards run
-- on different files under one id are refused), and when it finished (NULL
-- while it runs or after it was killed).
CREATE TABLE search_shards (
	search_id TEXT NOT NULL,
	shard INTEGER NOT NULL,
	shards INTEGER NOT NULL,
	units INTEGER NOT NULL,
	fingerprint TEXT NOT NULL,
	started_at BIGINT NOT NULL,
	done_at BIGINT,
	PRIMARY KEY (search_id, shard)
);
