-- /undo: an undone event points at the undo event that reverted it, and an undo event points
-- at the event it reverted (an undo is never itself undone, and is never a later change that
-- blocks undoing an earlier one).

ALTER TABLE events ADD COLUMN undone_by INTEGER REFERENCES events (id);

ALTER TABLE events ADD COLUMN undoes INTEGER REFERENCES events (id);

-- Finding the latest change that can still be undone, a player's own or anyone's.
CREATE INDEX events_undoable ON events (channel_id, id) WHERE undone_by IS NULL AND undoes IS NULL;
