-- As sqlite/V5__fatigue_time.sql. Every span of game time counts once per character
-- (docs/rules.md#36-every-span-of-game-time-counts-once): `settled` is the game time a character has rested through alone, ahead of the channel
-- clock (0: not ahead). A character stored before this version was settled up to its clock.
ALTER TABLE characters ADD COLUMN settled BIGINT NOT NULL DEFAULT 0 CHECK (settled >= 0);

-- A new round length keeps the round the clock is in: `round_first` rounds had gone by at game
-- time `round_start`, when the length last changed (0 and 0: counted from the clock's start).
ALTER TABLE channels ADD COLUMN round_start BIGINT NOT NULL DEFAULT 0 CHECK (round_start >= 0);

ALTER TABLE channels ADD COLUMN round_first BIGINT NOT NULL DEFAULT 0 CHECK (round_first >= 0);
