-- The store reads what a change needs inside its own transaction and keeps no answers between
-- requests, so nothing asks the change stamps (V11) any more: their triggers, which wrote a
-- stamp row on every write to a channel's rows, and their tables go. (PostgreSQL's version of
-- this migration drops V12's change guard, which SQLite never had.)

DROP TRIGGER channels_stamp_insert;
DROP TRIGGER channels_stamp_update;
DROP TRIGGER channels_stamp_delete;
DROP TRIGGER characters_stamp_insert;
DROP TRIGGER characters_stamp_update;
DROP TRIGGER characters_stamp_delete;
DROP TRIGGER monsters_stamp_insert;
DROP TRIGGER monsters_stamp_update;
DROP TRIGGER monsters_stamp_delete;
DROP TRIGGER initiatives_stamp_insert;
DROP TRIGGER initiatives_stamp_update;
DROP TRIGGER initiatives_stamp_delete;
DROP TRIGGER events_stamp_insert;
DROP TRIGGER events_stamp_update;
DROP TRIGGER events_stamp_delete;
DROP TRIGGER guild_settings_stamp_insert;
DROP TRIGGER guild_settings_stamp_update;
DROP TRIGGER guild_settings_stamp_delete;

DROP TABLE channel_stamps;
DROP TABLE guild_stamps;
