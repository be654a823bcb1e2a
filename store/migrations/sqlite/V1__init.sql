-- Tablekeeper's first schema: one row per channel (its clock and settings), its characters,
-- and an append-only event log with before/after JSON for /history and /undo.

CREATE TABLE channels (
    channel_id    INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    clock         INTEGER NOT NULL DEFAULT 0 CHECK (clock >= 0),
    ties          TEXT    NOT NULL DEFAULT 'fail' CHECK (ties IN ('fail', 'succeed')),
    round_seconds INTEGER NOT NULL DEFAULT 60,
    rest_rate     INTEGER NOT NULL DEFAULT 1,
    break_minutes INTEGER NOT NULL DEFAULT 10,
    short_minutes INTEGER NOT NULL DEFAULT 60,
    long_minutes  INTEGER NOT NULL DEFAULT 480,
    gm_role_id    INTEGER
);

CREATE TABLE characters (
    channel_id    INTEGER NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    key           TEXT    NOT NULL,  -- the casefolded name
    name          TEXT    NOT NULL,
    owner_id      INTEGER NOT NULL,
    level         INTEGER NOT NULL,
    fortitude     INTEGER NOT NULL,
    wisdom        INTEGER NOT NULL,
    kin_tsr       INTEGER NOT NULL,
    kin_wsr       INTEGER NOT NULL,
    classes       TEXT    NOT NULL,  -- JSON [[hd_size, level], ...]
    combine       TEXT    NOT NULL,
    toughness     INTEGER NOT NULL,
    base_hd       TEXT,
    kin_hd_size   INTEGER,
    fl_override   TEXT,              -- an exact fraction, e.g. '41/2'
    fp            INTEGER NOT NULL,
    temp          INTEGER NOT NULL,
    temp_expires  INTEGER,
    exhausted_cap INTEGER NOT NULL CHECK (exhausted_cap IN (0, 1)),
    shattered_cap INTEGER NOT NULL CHECK (shattered_cap IN (0, 1)),
    vp_damage     INTEGER NOT NULL,
    PRIMARY KEY (channel_id, key)
) WITHOUT ROWID;

CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    actor_id   INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,  -- wall time, ISO 8601 UTC
    clock      INTEGER NOT NULL,  -- the channel's game clock after the change
    before     TEXT    NOT NULL,  -- JSON of exactly what changed, as it was
    after      TEXT    NOT NULL   -- ... and as it became
);

CREATE INDEX events_by_channel ON events (channel_id, id);
