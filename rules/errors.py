"""The rules package's own errors. Their text is shown to players as it is."""


class RulesError(ValueError):
    """Input outside the rules; str(error) is a sentence a player can read."""


class NoSaveError(RulesError):
    """The situation produces no Save Roll (e.g. a spell cast for 50 or less)."""
