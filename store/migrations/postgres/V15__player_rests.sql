-- Whether players rest their own characters (allowed, the default) or the GM grants every rest
-- (gm): `/settings set player_rests:`. During a running initiative the GM grants them anyway;
-- the bot checks that, not the database.

ALTER TABLE channels ADD COLUMN player_rests TEXT NOT NULL DEFAULT 'allowed'
    CHECK (player_rests IN ('allowed', 'gm'));

-- A server's value for all its channels (NULL: the server doesn't set it).
ALTER TABLE guild_settings ADD COLUMN player_rests TEXT
    CHECK (player_rests IN ('allowed', 'gm'));
