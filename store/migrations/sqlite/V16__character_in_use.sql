-- The character its player chose with `/character use` (1), which their commands without
-- `character:` use when they play several in the channel; at most one per player and channel,
-- kept so by the bot.

ALTER TABLE characters ADD COLUMN active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1));
