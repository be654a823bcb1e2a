"""What the store raises when it can't be opened or used as asked."""


class StoreError(Exception):
    """The store can't be opened or used as asked (a bad URL, a missing driver, a function that
    moved channels); str(error) is one line telling the operator what to do."""


class AlreadyApplied(Exception):
    """This interaction's change is in the store already (Discord delivered it twice): nothing
    was written this time. `action` names the change, `event_id` is its event."""

    def __init__(self, interaction_id: int, event_id: int, action: str) -> None:
        super().__init__(f"interaction {interaction_id} was applied already as event {event_id}")
        self.interaction_id, self.event_id, self.action = interaction_id, event_id, action


class ChangedSinceRead(Exception):
    """A change written in one statement (PostgreSQL) found its channel changed since it was
    read: nothing was written; read it again and retry."""
