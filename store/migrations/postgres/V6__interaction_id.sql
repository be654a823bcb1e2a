-- Exactly once, as sqlite/V4__interaction_id.sql: each change keeps the id of the Discord
-- interaction that made it, unique, so a second delivery of the same interaction writes nothing.
-- NULL (a change made outside Discord) never collides with another NULL.

ALTER TABLE events ADD COLUMN interaction_id BIGINT;

CREATE UNIQUE INDEX events_by_interaction ON events (interaction_id);
