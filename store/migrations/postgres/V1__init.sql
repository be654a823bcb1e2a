-- Tablekeeper's first schema, as sqlite/V1__init.sql: one row per channel (its clock and
-- settings), its characters, and an append-only event log with before/after JSON for /history
-- and /undo. Every Discord id, and every number that may grow past 2^31 (the clock, game-time
-- stamps), is a BIGINT: snowflakes overflow INTEGER.

CREATE TABLE channels (
    channel_id    BIGINT  PRIMARY KEY,
    guild_id      BIGINT,
    clock         BIGINT  NOT NULL DEFAULT 0 CHECK (clock >= 0),
    ties          TEXT    NOT NULL DEFAULT 'fail' CHECK (ties IN ('fail', 'succeed')),
    round_seconds INTEGER NOT NULL DEFAULT 60,
    rest_rate     INTEGER NOT NULL DEFAULT 1,
    break_minutes INTEGER NOT NULL DEFAULT 10,
    short_minutes INTEGER NOT NULL DEFAULT 60,
    long_minutes  INTEGER NOT NULL DEFAULT 480,
    gm_role_id    BIGINT
);

CREATE TABLE characters (
    channel_id    BIGINT   NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    key           TEXT     NOT NULL,  -- the casefolded name
    name          TEXT     NOT NULL,
    owner_id      BIGINT   NOT NULL,
    level         INTEGER  NOT NULL,
    fortitude     INTEGER  NOT NULL,
    wisdom        INTEGER  NOT NULL,
    kin_tsr       INTEGER  NOT NULL,
    kin_wsr       INTEGER  NOT NULL,
    classes       TEXT     NOT NULL,  -- JSON [[hd_size, level], ...], as codec writes it
    combine       TEXT     NOT NULL,
    toughness     INTEGER  NOT NULL,
    base_hd       TEXT,
    kin_hd_size   INTEGER,
    fl_override   TEXT,               -- an exact fraction, e.g. '41/2'
    fp            BIGINT   NOT NULL,
    temp          BIGINT   NOT NULL,
    temp_expires  BIGINT,             -- a game-clock time, as large as the clock
    exhausted_cap SMALLINT NOT NULL CHECK (exhausted_cap IN (0, 1)),
    shattered_cap SMALLINT NOT NULL CHECK (shattered_cap IN (0, 1)),
    vp_damage     BIGINT   NOT NULL,
    PRIMARY KEY (channel_id, key)
);

CREATE TABLE events (
    id         BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id BIGINT      NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    actor_id   BIGINT      NOT NULL,
    action     TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,  -- wall time
    clock      BIGINT      NOT NULL,  -- the channel's game clock after the change
    before     JSONB       NOT NULL,  -- exactly what changed, as it was
    after      JSONB       NOT NULL   -- ... and as it became
);

CREATE INDEX events_by_channel ON events (channel_id, id);
