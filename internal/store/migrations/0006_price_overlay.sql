-- The team's negotiated prices (a --prices overlay, as text) set through the
-- HTTP service, so that every replica and a restart serve them. One row; its
-- version grows by one on every change, so a replica that sees a version it
-- has not applied reloads the text. An empty overlay means none.
CREATE TABLE price_overlay (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	version BIGINT NOT NULL,
	overlay TEXT NOT NULL,
	updated_at BIGINT NOT NULL
);
