"""What a user may type for a word the bot shows: the word as written (English) and as each
installed language writes it, whatever the typist's own language (a spot is `back` or
`espalda`, west is `W` or `O`)."""

from __future__ import annotations

from lang import installed


def every_spelling(message: str) -> tuple[str, ...]:
    """`message` as written, then its translation in each installed language."""
    return (message, *(catalog.gettext(message) for catalog in installed().values()))
