"""What the store raises when it can't be opened or used as asked."""


class StoreError(Exception):
    """The store can't be opened or used as asked (a bad URL, a migration file changed since it
    was applied, a function that moved channels); str(error) is one line telling the operator
    what to do."""


class AlreadyApplied(Exception):
    """This interaction's change is in the store already (Discord delivered it twice): nothing
    was written this time. `action` names the change, `event_id` is its event."""

    def __init__(self, interaction_id: int, event_id: int, action: str) -> None:
        super().__init__(f"interaction {interaction_id} was applied already as event {event_id}")
        self.interaction_id, self.event_id, self.action = interaction_id, event_id, action


class DatabaseOutage(StoreError):
    """The database could not do what was asked, for a reason outside the bot that passes by
    itself or that whoever runs the bot can fix: `reason` names which, for logs and metrics.
    Raised by the backends (`store.faults.watched`) in place of the driver's own error."""

    reason = "outage"
    maybe_saved = False  # a change's outcome is unknown (its COMMIT was sent, no answer came)


class DatabaseUnreachable(DatabaseOutage):
    """The database can't be reached right now (a server down or restarting, a connection
    refused or lost, no connection free in time, a file locked by another process for too
    long): nothing was written; trying again in a moment may work."""

    reason = "unreachable"


class ChangeOutcomeUnknown(DatabaseUnreachable):
    """The connection was lost after a change's COMMIT was sent and before its answer came:
    the change may or may not be saved (its event, with its interaction id, says which)."""

    maybe_saved = True


class DatabaseFull(DatabaseOutage):
    """The disk that holds the database is full: no change is saved until space is freed;
    reads go on working."""

    reason = "disk_full"


class DatabaseReadOnly(DatabaseOutage):
    """The database can't be written (its file became read-only, or the server only reads):
    no change is saved until that is undone; reads go on working."""

    reason = "read_only"
