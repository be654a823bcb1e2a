-- The dice /init add rolls for a stored character or monster given no score (/settings set
-- init_dice:1d20). A channel's column says how it read the setting when last written; the
-- server's is NULL where the server doesn't set it. The bot checks the dice, as for any setting.
ALTER TABLE channels ADD COLUMN init_dice TEXT NOT NULL DEFAULT '1d10';
ALTER TABLE guild_settings ADD COLUMN init_dice TEXT;
