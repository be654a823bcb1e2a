"""`/table link` and `/table revoke` replies, and their changes as `/history` lines."""

from __future__ import annotations

from typing import Any

from lang import N_, _

NOT_SET_UP = N_(
    "The web page isn't set up for this bot: its admin sets PUBLIC_URL (and WEB_PORT) to turn it on"
)


def link_change(old: dict[str, Any] | None, new: dict[str, Any] | None, undo: bool) -> str:
    """`web page link made`, `web page link revoked`; an undo that revives one says so."""
    was, now = (old or {}).get("link"), (new or {}).get("link")
    if was is None and now is not None:
        return _("the web page link works again") if undo else _("web page link made")
    if now is None:
        return _("web page link revoked")
    return _("new web page link (the old one revoked)")


def link_text(url: str, made: bool) -> str:
    """`/table link`'s private answer: the link, and what it is for."""
    first = (
        _("This channel's table, live, on a web page:")
        if made
        else _("This channel's web page (the same link as before):")
    )
    how = _(
        "Anyone with the link can watch the table there (nothing on it can change it), in the"
        " language you use; `?lang=en` or `?lang=es` changes that, and `?overlay=1` suits an OBS"
        " browser source. `/table revoke` kills the link at once."
    )
    return f"{first}\n<{url}>\n{how}"


def revoked_text(revoked: bool) -> str:
    if revoked:
        return _(
            "This channel's web page link is revoked: open pages say so and stop updating."
            " `/table link` makes a new one."
        )
    return _("This channel has no web page link to revoke.")
