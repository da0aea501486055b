-- When each API token was last accepted (Unix milliseconds; NULL: never, or
-- before this was tracked). Updated at most once a minute per token.
ALTER TABLE api_tokens ADD COLUMN last_used_at BIGINT;
