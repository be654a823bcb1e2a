-- A change's keys (event_keys: the characters, monsters and turn order it touched, by which
-- /undo and /redo find later changes to the same things) are written by the database as the
-- change is logged, from the event's own snapshots, as V8 first filled them: one statement a
-- change fewer, and no key can be missed or differ from what the event says.
CREATE TRIGGER events_keyed AFTER INSERT ON events
BEGIN
    INSERT OR IGNORE INTO event_keys (channel_id, part, key, event_id)
    SELECT NEW.channel_id, parts.part, entry.key, NEW.id
    FROM (SELECT 'characters' AS part UNION ALL SELECT 'monsters' UNION ALL SELECT 'initiative')
            AS parts,
        (SELECT NEW.before AS snapshot UNION ALL SELECT NEW.after) AS sides,
        json_each(sides.snapshot, '$.' || parts.part) AS entry;
END;
