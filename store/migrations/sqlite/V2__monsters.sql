-- A channel's bestiary: one row per monster, its build inputs as JSON (the rules rebuild the
-- stat block from them), its HP when the GM tracks it, and its facing.

CREATE TABLE monsters (
    channel_id INTEGER NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    key        TEXT    NOT NULL,  -- the casefolded name
    name       TEXT    NOT NULL,
    build      TEXT    NOT NULL,  -- JSON of MonsterBlock.to_dict(): rank, armor, trade, ...
    hp_max     INTEGER CHECK (hp_max IS NULL OR hp_max >= 1),
    hp         INTEGER,           -- may be 0 or below: the monster is down
    facing     TEXT    NOT NULL DEFAULT 'N'
        CHECK (facing IN ('N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW')),
    CHECK ((hp IS NULL) = (hp_max IS NULL)),
    PRIMARY KEY (channel_id, key)
) WITHOUT ROWID;
