-- /redo's lookups: the latest undo not yet redone, anyone's or a player's own
-- (as sqlite/V14__redo.sql).
CREATE INDEX events_redoable ON events (channel_id, id)
    WHERE undoes IS NOT NULL AND undone_by IS NULL;

CREATE INDEX events_redoable_by_actor ON events (channel_id, actor_id, id)
    WHERE undoes IS NOT NULL AND undone_by IS NULL;
