-- The table's web page (web/): a channel's link, /table link. The link's token is never kept:
-- only its SHA-256 (what a request is looked up by) and the random nonce the bot makes the
-- token from again with its own key (store/links.py), so /table link can show the same link
-- twice. A revoked link keeps its row (revoked = 1) so /undo can bring it back; a channel has
-- at most one live link. The log names a link by its opaque ref, never its hash or nonce.

CREATE TABLE web_links (
    ref        TEXT    PRIMARY KEY,  -- random, opaque: how the log names it
    channel_id INTEGER NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    guild_id   INTEGER,
    token_hash TEXT    NOT NULL UNIQUE,
    nonce      TEXT    NOT NULL,
    locale     TEXT,                 -- the GM's Discord locale when it was made: the page's words
    made_at    TEXT    NOT NULL,     -- wall time, ISO 8601 UTC
    revoked    INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
);

CREATE UNIQUE INDEX web_links_live ON web_links (channel_id) WHERE revoked = 0;
