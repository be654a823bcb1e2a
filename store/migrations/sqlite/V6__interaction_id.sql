-- Exactly once: each change keeps the id of the Discord interaction that made it, unique, so a
-- second delivery of the same interaction (a gateway RESUME, another process) finds it and
-- writes nothing. Changes made outside Discord (tests, tools) have none.

ALTER TABLE events ADD COLUMN interaction_id INTEGER;

CREATE UNIQUE INDEX events_by_interaction ON events (interaction_id);
