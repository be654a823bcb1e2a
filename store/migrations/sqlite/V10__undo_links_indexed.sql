-- An event's undo links are foreign keys to events: deleting an event (retention's pruning, a
-- channel removed) looks for events pointing at it. Without these indexes each look read every
-- event of every channel, so pruning one channel's log grew with all the others' history. Few
-- events are undos or undone: the indexes hold only those.
CREATE INDEX events_undoes ON events (undoes) WHERE undoes IS NOT NULL;

CREATE INDEX events_undone_by ON events (undone_by) WHERE undone_by IS NOT NULL;
