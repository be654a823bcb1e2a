-- A channel's bestiary, as sqlite/V2__monsters.sql: one row per monster, its build inputs as
-- JSON (the rules rebuild the stat block from them), its HP when the GM tracks it, its facing.

CREATE TABLE monsters (
    channel_id BIGINT NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
    key        TEXT   NOT NULL,  -- the casefolded name
    name       TEXT   NOT NULL,
    build      TEXT   NOT NULL,  -- JSON of MonsterBlock.to_dict(), as codec writes it
    hp_max     BIGINT CHECK (hp_max IS NULL OR hp_max >= 1),
    hp         BIGINT,           -- may be 0 or below: the monster is down
    facing     TEXT   NOT NULL DEFAULT 'N'
        CHECK (facing IN ('N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW')),
    CHECK ((hp IS NULL) = (hp_max IS NULL)),
    PRIMARY KEY (channel_id, key)
);
