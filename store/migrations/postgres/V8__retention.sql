-- History kept within a bound, and /undo without reading every later change
-- (as sqlite/V8__retention.sql).

ALTER TABLE channels ADD COLUMN history_keep INTEGER NOT NULL DEFAULT 1000;

ALTER TABLE events ADD COLUMN seq BIGINT;

UPDATE events SET seq = numbered.n
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY id) AS n FROM events)
    AS numbered
WHERE events.id = numbered.id;

CREATE INDEX events_undoable_by_actor ON events (channel_id, actor_id, id)
    WHERE undone_by IS NULL AND undoes IS NULL;

CREATE TABLE event_keys (
    channel_id BIGINT NOT NULL,
    part       TEXT   NOT NULL,  -- 'characters', 'monsters' or 'initiative'
    key        TEXT   NOT NULL,
    event_id   BIGINT NOT NULL,
    PRIMARY KEY (channel_id, part, key, event_id)
);

INSERT INTO event_keys (channel_id, part, key, event_id)
SELECT DISTINCT events.channel_id, parts.part, entry.key, events.id
FROM events
CROSS JOIN (VALUES ('characters'), ('monsters'), ('initiative')) AS parts (part)
CROSS JOIN LATERAL (
    SELECT jsonb_object_keys(side -> parts.part) AS key
    FROM (VALUES (events.before), (events.after)) AS sides (side)
    WHERE jsonb_typeof(side -> parts.part) = 'object'
) AS entry;
