-- The roll log (/dice report), as sqlite/V20__roll_log.sql: every /save and /roll made in a
-- server channel, kept once by its interaction and its place in it; no event, no undo.

CREATE TABLE roll_log (
    channel_id     BIGINT      NOT NULL,
    interaction_id BIGINT      NOT NULL,
    place          INTEGER     NOT NULL,
    rolled_at      TIMESTAMPTZ NOT NULL,
    clock          BIGINT      NOT NULL,
    actor_id       BIGINT      NOT NULL,
    secret         SMALLINT    NOT NULL CHECK (secret IN (0, 1)),
    kind           TEXT        NOT NULL CHECK (kind IN ('tsr', 'wsr', 'd100', 'dice')),
    character      TEXT,
    dice           TEXT        NOT NULL,
    total          BIGINT,
    expression     TEXT,
    difficulty     INTEGER,
    chance         TEXT,
    success        SMALLINT    CHECK (success IN (0, 1)),
    came_with      BIGINT,
    PRIMARY KEY (channel_id, interaction_id, place)
);
