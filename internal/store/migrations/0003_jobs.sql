-- Simulation jobs of the HTTP service, so that every replica behind a load
-- balancer can answer for a job another replica runs: its last state as
-- JSON, and whether a client asked (through any replica) to cancel it.
CREATE TABLE jobs (
	id TEXT PRIMARY KEY,
	state {{blob}} NOT NULL,
	cancel_requested INTEGER NOT NULL DEFAULT 0,
	updated_at BIGINT NOT NULL
);
CREATE INDEX jobs_updated ON jobs (updated_at);
