"""Pictures: PNG charts of the table, drawn with matplotlib's object-oriented API (a `Figure` on
the Agg canvas, never pyplot's global state) in the fonts matplotlib bundles, so a picture is the
same on every host. Each takes a series from `table/` (the data, pure and tested on its own) and
returns a `Picture`: PNG bytes and the alt text that says in words what it shows.

No Discord and no database here. matplotlib is imported only when a picture is drawn, so the
bot's start-up doesn't pay for it; `pictures.painter` draws off the event loop. What a picture
says besides its drawing needs no matplotlib, and the web page's chart shares it: its words and
alt text (`words`), the game clock's ticks (`clock`), labels spread apart (`layout`).
"""

from __future__ import annotations

from dataclasses import dataclass

ALT_MAX = 1024  # Discord's limit on an attachment's description


@dataclass(frozen=True)
class Picture:
    filename: str  # what the reply's embed names: attachment://<filename>
    png: bytes
    alt: str  # the attachment's description: read to screen-reader users

    def __post_init__(self) -> None:
        if len(self.alt) > ALT_MAX:
            object.__setattr__(self, "alt", self.alt[: ALT_MAX - 1] + "…")
