-- The table's web page, as sqlite/V18__web_links.sql: a channel's link, kept as the SHA-256 of
-- its token and the nonce the bot makes the token from again; revoked rows stay for /undo.

CREATE TABLE web_links (
    ref        TEXT        PRIMARY KEY,
    channel_id BIGINT      NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    guild_id   BIGINT,
    token_hash TEXT        NOT NULL UNIQUE,
    nonce      TEXT        NOT NULL,
    locale     TEXT,
    made_at    TIMESTAMPTZ NOT NULL,
    revoked    SMALLINT    NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
);

CREATE UNIQUE INDEX web_links_live ON web_links (channel_id) WHERE revoked = 0;

-- Every change to a channel logs an event: its commit tells every listening process which
-- channel changed (NOTIFY is delivered on commit, once per channel and transaction), so an
-- open page follows changes made by any bot process on this database.
CREATE FUNCTION tk_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tablekeeper_changes', CAST(NEW.channel_id AS TEXT));
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION tk_notify_change();
