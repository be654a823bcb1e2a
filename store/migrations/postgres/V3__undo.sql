-- /undo, as sqlite/V3__undo.sql: an undone event points at the undo event that reverted it, and
-- an undo event points at the event it reverted.

ALTER TABLE events ADD COLUMN undone_by BIGINT REFERENCES events (id);

ALTER TABLE events ADD COLUMN undoes BIGINT REFERENCES events (id);

-- Finding the latest change that can still be undone, a player's own or anyone's.
CREATE INDEX events_undoable ON events (channel_id, id) WHERE undone_by IS NULL AND undoes IS NULL;
