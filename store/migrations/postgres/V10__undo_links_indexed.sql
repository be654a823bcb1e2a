-- The undo links looked up by an index when an event is deleted (as sqlite/V10__undo_links_indexed.sql).
CREATE INDEX events_undoes ON events (undoes) WHERE undoes IS NOT NULL;

CREATE INDEX events_undone_by ON events (undone_by) WHERE undone_by IS NOT NULL;
