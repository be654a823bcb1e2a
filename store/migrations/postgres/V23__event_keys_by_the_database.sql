-- A change's keys (event_keys: the characters, monsters and turn order it touched, by which
-- /undo and /redo find later changes to the same things) are written by the database as the
-- change is logged, from the event's own snapshots: no key can be missed or differ from what
-- the event says, and the statement that logs a change is the same on both databases.
CREATE FUNCTION tk_event_keys() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO event_keys (channel_id, part, key, event_id)
    SELECT DISTINCT NEW.channel_id, parts.part, keys.key, NEW.id
    FROM unnest(ARRAY['characters', 'monsters', 'initiative']) AS parts (part),
        unnest(ARRAY[NEW.before, NEW.after]) AS sides (snapshot),
        jsonb_object_keys(CASE WHEN jsonb_typeof(sides.snapshot -> parts.part) = 'object'
            THEN sides.snapshot -> parts.part ELSE '{}' END) AS keys (key);
    RETURN NULL;
END
$$;

CREATE TRIGGER events_keyed AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION tk_event_keys();
