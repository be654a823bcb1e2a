-- At the table, as sqlite/V4__table_play.sql: secret rolls, kept by the channel message that
-- announces them, so the GM's peek and Reveal work after a restart.

CREATE TABLE secret_rolls (
    message_id  BIGINT      PRIMARY KEY,  -- the channel message that says a roll was made
    channel_id  BIGINT      NOT NULL,     -- where that message is (a thread's own id)
    guild_id    BIGINT,
    table_id    BIGINT      NOT NULL,     -- whose table (and GM) it belongs to
    roller_id   BIGINT      NOT NULL,
    roller_name TEXT        NOT NULL,     -- as shown when it was rolled
    label       TEXT,                     -- the roll's label, if any
    what        TEXT        NOT NULL,     -- the kind of roll in words
    result      TEXT        NOT NULL,     -- JSON: the full result's embeds
    revealed_by BIGINT,                   -- the GM who revealed it, once revealed
    created_at  TIMESTAMPTZ NOT NULL
);

-- A channel's turn order (/init), when it has one: JSON of table.combat.Initiative.to_dict(),
-- logged in the events like characters and monsters, so /undo and /history cover it.

CREATE TABLE initiatives (
    channel_id BIGINT  PRIMARY KEY REFERENCES channels (channel_id) ON DELETE CASCADE,
    state      TEXT    NOT NULL
);

-- Whether a channel's threads play at its table (the default) or each keeps its own.

ALTER TABLE channels ADD COLUMN threads TEXT NOT NULL DEFAULT 'shared'
    CHECK (threads IN ('shared', 'own'));
