"""How numbers are written in text for players: with a true minus sign (U+2212), as the rules
text writes it, never a hyphen. `render.common` shares these."""

from __future__ import annotations

MINUS = "−"  # U+2212


def plain(number: int) -> str:
    """`5`, `−3`: a sign only when negative."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def signed(number: int) -> str:
    """`+5`, `−3`, `+0`: always a sign."""
    return f"{MINUS}{-number}" if number < 0 else f"+{number}"
