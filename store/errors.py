"""What the store raises when it can't be opened or used as asked."""


class StoreError(Exception):
    """The store can't be opened or used as asked; str(error) tells the operator what to do."""


class AlreadyApplied(Exception):
    """This interaction's change is stored already (Discord delivered it twice): nothing was
    written this time. `action` names the change, `event_id` is its event."""

    def __init__(self, interaction_id: int, event_id: int, action: str) -> None:
        super().__init__(f"interaction {interaction_id} was applied already as event {event_id}")
        self.interaction_id, self.event_id, self.action = interaction_id, event_id, action


class DatabaseOutage(StoreError):
    """The database can't do what was asked, for a reason outside the bot (`store.faults`);
    `reason` names which, for logs and metrics."""

    reason = "outage"
    maybe_saved = False  # a change's outcome is unknown (its COMMIT was sent, no answer came)


class DatabaseUnreachable(DatabaseOutage):
    """Down, restarting, refusing or losing connections, all connections busy, or locked by
    another process too long: nothing was written; a moment later may work."""

    reason = "unreachable"


class ChangeOutcomeUnknown(DatabaseUnreachable):
    """The connection was lost between a change's COMMIT and its answer: its event (with its
    interaction id) says whether it was saved."""

    maybe_saved = True


class DatabaseFull(DatabaseOutage):
    """The database's disk is full: no change is saved until space is freed; reads work."""

    reason = "disk_full"


class DatabaseReadOnly(DatabaseOutage):
    """The database can't be written (a read-only file or server): reads work."""

    reason = "read_only"
