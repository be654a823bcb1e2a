"""What the store raises when it can't be opened or used as asked."""


class StoreError(Exception):
    """The store can't be opened or used as asked (a bad URL, a missing driver, a function that
    moved channels); str(error) is one line telling the operator what to do."""
