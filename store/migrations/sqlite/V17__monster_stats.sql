-- Whether the players see monsters' numbers (HP, Defense, Evasion) or only the GM does
-- (/settings set monster_stats:shown). A channel's column says how it read the setting when last
-- written; the server's is NULL where the server doesn't set it. The bot checks the value.
ALTER TABLE channels ADD COLUMN monster_stats TEXT NOT NULL DEFAULT 'hidden';
ALTER TABLE guild_settings ADD COLUMN monster_stats TEXT;
