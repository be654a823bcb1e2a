-- Server-wide settings (/settings server): what a server sets for all its channels. NULL: the
-- server doesn't set it (its channels use their own value, else the default). The limits are
-- checked by the bot, the same as a channel's.
CREATE TABLE guild_settings (
    guild_id      INTEGER PRIMARY KEY,
    ties          TEXT CHECK (ties IN ('fail', 'succeed')),
    round_seconds INTEGER,
    rest_rate     INTEGER,
    break_minutes INTEGER,
    short_minutes INTEGER,
    long_minutes  INTEGER,
    gm_role_id    INTEGER,
    threads       TEXT CHECK (threads IN ('shared', 'own')),
    history_keep  INTEGER
);

-- The settings a channel set itself, by name, space-separated; its other settings columns
-- only say how it read them when last written (the server's value, else the default, applies).
ALTER TABLE channels ADD COLUMN own_settings TEXT NOT NULL DEFAULT '';

-- Before this version every channel read only its own row: a value other than the default
-- was set there, a default value may as well come from the server from now on.
UPDATE channels SET own_settings = TRIM(
    CASE WHEN ties <> 'fail' THEN 'ties ' ELSE '' END
    || CASE WHEN round_seconds <> 60 THEN 'round_seconds ' ELSE '' END
    || CASE WHEN rest_rate <> 1 THEN 'rest_rate ' ELSE '' END
    || CASE WHEN break_minutes <> 10 THEN 'break_minutes ' ELSE '' END
    || CASE WHEN short_minutes <> 60 THEN 'short_minutes ' ELSE '' END
    || CASE WHEN long_minutes <> 480 THEN 'long_minutes ' ELSE '' END
    || CASE WHEN gm_role_id IS NOT NULL THEN 'gm_role_id ' ELSE '' END
    || CASE WHEN threads <> 'shared' THEN 'threads ' ELSE '' END
    || CASE WHEN history_keep <> 1000 THEN 'history_keep' ELSE '' END
);
