-- /redo: an undo taken back points at the redo event that did it (`undone_by`, as any undone
-- event does); the redo is an ordinary change. Finding the latest undo not yet redone, anyone's
-- or a player's own, is a lookup however long the log.
CREATE INDEX events_redoable ON events (channel_id, id)
    WHERE undoes IS NOT NULL AND undone_by IS NULL;

CREATE INDEX events_redoable_by_actor ON events (channel_id, actor_id, id)
    WHERE undoes IS NOT NULL AND undone_by IS NULL;
