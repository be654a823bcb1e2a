-- History kept within a bound, and /undo without reading every later change.

-- How many of its latest changes a channel keeps (/settings set history_keep:).
ALTER TABLE channels ADD COLUMN history_keep INTEGER NOT NULL DEFAULT 1000;

-- Each event's number within its channel (1, 2, …): retention compares numbers, never counts.
ALTER TABLE events ADD COLUMN seq INTEGER;

UPDATE events SET seq = numbered.n
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY id) AS n FROM events)
    AS numbered
WHERE events.id = numbered.id;

-- A player's own latest change that can still be undone: a lookup, however busy the channel.
CREATE INDEX events_undoable_by_actor ON events (channel_id, actor_id, id)
    WHERE undone_by IS NULL AND undoes IS NULL;

-- The characters and monsters (by name key) and the turn order each event touched: "a later change to the same
-- one" is a lookup. Rows go with their event when it is pruned.
CREATE TABLE event_keys (
    channel_id INTEGER NOT NULL,
    part       TEXT    NOT NULL,  -- 'characters', 'monsters' or 'initiative'
    key        TEXT    NOT NULL,
    event_id   INTEGER NOT NULL,
    PRIMARY KEY (channel_id, part, key, event_id)
) WITHOUT ROWID;

INSERT OR IGNORE INTO event_keys (channel_id, part, key, event_id)
SELECT events.channel_id, parts.part, entry.key, events.id
FROM events,
    (SELECT 'characters' AS part UNION ALL SELECT 'monsters' UNION ALL SELECT 'initiative')
        AS parts,
    (SELECT 'before' AS side UNION ALL SELECT 'after') AS sides,
    json_each(CASE sides.side WHEN 'before' THEN events.before ELSE events.after END,
              '$.' || parts.part) AS entry;
