-- API tokens of the HTTP service: only the SHA-256 hash of each token is
-- kept, so a stolen database does not yield usable tokens.
CREATE TABLE api_tokens (
	id {{autoid}},
	name TEXT NOT NULL,
	hash TEXT NOT NULL UNIQUE, -- "sha256:" and the hex digest of the token
	created_at BIGINT NOT NULL
);
