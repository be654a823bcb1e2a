-- The roll log (/dice report): every /save and /roll made in a server channel, as it was
-- rolled. A roll changes nothing at the table: no event, no undo. Each is kept once, by the
-- interaction that rolled it and its place in it (a party save rolls once per character), so
-- a second delivery adds nothing. Interaction ids are Discord snowflakes, which grow with
-- time: the key orders a channel's rolls oldest first, and the oldest go first past the
-- channel's bound (the ROLL_LOG_KEEP setting). No foreign key: a channel may roll before
-- it has a table.

CREATE TABLE roll_log (
    channel_id     INTEGER NOT NULL,  -- the table's channel (a thread's parent, when it plays there)
    interaction_id INTEGER NOT NULL,
    place          INTEGER NOT NULL,  -- among the interaction's rolls, from 0
    rolled_at      TEXT    NOT NULL,  -- wall time, ISO 8601 UTC
    clock          INTEGER NOT NULL,  -- the channel's game clock then
    actor_id       INTEGER NOT NULL,  -- who rolled
    secret         INTEGER NOT NULL CHECK (secret IN (0, 1)),
    kind           TEXT    NOT NULL CHECK (kind IN ('tsr', 'wsr', 'd100', 'dice')),
    character      TEXT,              -- whose save, by name then; NULL: numbers given, a /roll
    dice           TEXT    NOT NULL,  -- JSON list: the open-ended chain, or a dice roll's faces
    total          INTEGER,           -- NULL: a dice roll too large to keep its numbers
    expression     TEXT,              -- a dice roll's, as typed
    difficulty     INTEGER,           -- a save's
    chance         TEXT,              -- a save's exact chance to succeed: a fraction, "51/100"
    success        INTEGER CHECK (success IN (0, 1)),  -- a save's outcome
    came_with      INTEGER,           -- imported: the channel's event number the import's
                                      -- history starts at (its /undo takes these away)
    PRIMARY KEY (channel_id, interaction_id, place)
);
