-- The language a table's public replies speak, whoever types (/settings set language:, a
-- Discord locale such as es-ES): NULL where none is set (each reader's own, or a Community
-- server's). A channel's column says how it read the setting when last written; the server's
-- is NULL where the server doesn't set it. The bot checks the value.
ALTER TABLE channels ADD COLUMN language TEXT;
ALTER TABLE guild_settings ADD COLUMN language TEXT;
