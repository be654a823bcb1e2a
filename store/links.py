"""A channel's web page link (`/table link`, `/table revoke`, web/): made, found, revoked, undone.

A token is never stored: a link keeps its token's SHA-256 (what a request is looked up by) and a
random nonce, the token being the HMAC of that nonce under a key from the bot's secret, so
`/table link` can show a link again while the database alone gives no page away. Making and
revoking a link are changes like any other, logged with a `web` part naming the link by its ref,
so `/history` shows them and `/undo` and `/redo` take them back."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace
from typing import Any

from lang import _
from rules.errors import RulesError
from store import event_log
from store.backend import Backend, Row, Tx
from store.channel_read import Check, anyone, load_for
from store.channel_write import upsert_channel
from store.event_log import Request
from table.event import Event
from table.model import Table
from table.parts import CHANNEL_ONLY
from table.snapshot import WEB
from table.undo import REDO_ACTION, UNDO_ACTION, Redone, Undone, check_player_may_undo

MAKE, REVOKE = "table link", "table revoke"  # their actions, as logged
Ref = str | None  # a link by its ref; None: no link
_PURPOSE = b"tablekeeper web page links"
_NONE_MATCHES = hashlib.sha256(b"no link").hexdigest()  # compared when nothing was found


def link_key(secret: str) -> bytes:
    """The key tokens are made with, from the bot's secret: the same in every process."""
    return hmac.new(secret.encode(), _PURPOSE, hashlib.sha256).digest()


def token_for(key: bytes, nonce: str) -> str:
    digest = hmac.new(key, nonce.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Link:
    """A live link: the channel whose table its page shows, and the language it was made in."""

    ref: str
    channel_id: int
    guild_id: int | None
    locale: str | None
    token_hash: str


_FIND = (
    "SELECT ref, channel_id, guild_id, locale, token_hash, revoked FROM web_links"
    " WHERE token_hash = ?"
)
_LIVE = "SELECT ref, nonce, token_hash FROM web_links WHERE channel_id = ? AND revoked = 0"


async def find_link(backend: Backend, token: str) -> Link | None:
    """`Store.find_link`: whatever the reason for None (unknown, revoked or not a token at
    all), the same work, the hashes compared in constant time."""
    digest = token_hash(token)
    row = await backend.read(lambda tx: tx.fetchone(_FIND, digest), single=True)
    stored = _NONE_MATCHES if row is None else str(row["token_hash"])
    same = hmac.compare_digest(stored, digest)
    if row is None or not same or row["revoked"]:
        return None
    return Link(row["ref"], row["channel_id"], row["guild_id"], row["locale"], digest)


async def live_hash(backend: Backend, channel_id: int) -> str | None:
    """`Store.live_hash`."""
    row = await backend.read(lambda tx: tx.fetchone(_LIVE, channel_id), single=True)
    return None if row is None else str(row["token_hash"])


def _part(ref: str | None) -> dict[str, Any]:
    """A snapshot with the channel's live link, by ref (None: no link)."""
    return {"characters": {}, WEB: {"link": None if ref is None else {"ref": ref}}}


async def _live(tx: Tx, request: Request, check: Check) -> tuple[Table, bool, Row | None]:
    """The channel as `load_for` reads it, once `check` lets the actor, and its live link."""
    table, stored = await load_for(tx, request, CHANNEL_ONLY)
    check(table)
    return table, stored, await tx.fetchone(_LIVE, request.channel_id)


async def _log(
    tx: Tx, request: Request, table: Table, stored: bool, action: str, was: Ref, now: Ref
) -> Event:
    """The change of link `was` to `now` (refs; None: none) as an event (the channel's row
    first, if it has none yet: events need it)."""
    if not stored:
        await upsert_channel(tx, table)
    return await event_log.log_change(tx, request, table, action, _part(was), _part(now))


async def make_link(
    tx: Tx, request: Request, locale: str | None, key: bytes, check: Check = anyone
) -> tuple[str, bool]:
    """`Store.make_link`'s transaction."""
    table, stored, live = await _live(tx, request, check)
    if live is not None:
        token = token_for(key, live["nonce"])
        if hmac.compare_digest(token_hash(token), live["token_hash"]):
            return token, False
        # Made under another key (the bot's secret changed): it can't be shown again.
        await tx.execute("UPDATE web_links SET revoked = 1 WHERE ref = ?", live["ref"])
    ref, nonce = secrets.token_hex(8), secrets.token_urlsafe(24)
    token = token_for(key, nonce)
    was = None if live is None else live["ref"]
    await _log(tx, request, table, stored, MAKE, was, ref)
    await tx.execute(
        "INSERT INTO web_links (ref, channel_id, guild_id, token_hash, nonce, locale, made_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        ref,
        request.channel_id,
        request.guild_id,
        token_hash(token),
        nonce,
        locale,
        request.now,
    )
    return token, True


async def revoke_link(tx: Tx, request: Request, check: Check = anyone) -> bool:
    """`Store.revoke_link`'s transaction."""
    table, stored, live = await _live(tx, request, check)
    if live is None:
        return False
    await tx.execute("UPDATE web_links SET revoked = 1 WHERE ref = ?", live["ref"])
    await _log(tx, request, table, stored, REVOKE, live["ref"], None)
    return True


def is_link_change(event: Event) -> bool:
    return WEB in event.after


def _logged_ref(snapshot: dict[str, Any]) -> str | None:
    link = (snapshot.get(WEB) or {}).get("link")
    return None if link is None else str(link["ref"])


async def _relink(
    tx: Tx, request: Request, current: Table, was: Ref, now: Ref, action: str
) -> Event:
    """The channel's live link, `was` (by ref; None: none), becomes `now`, logged as `action`;
    refused if it is no longer `was`."""
    live = await tx.fetchone(_LIVE, current.channel_id)
    if (None if live is None else live["ref"]) != was:
        raise RulesError(_("Can't undo that: the web page link changed since"))
    await tx.execute(
        "UPDATE web_links SET revoked = 1 WHERE channel_id = ? AND revoked = 0",
        current.channel_id,
    )
    if now is not None:
        await tx.execute(
            "UPDATE web_links SET revoked = 0 WHERE ref = ? AND channel_id = ?",
            now,
            current.channel_id,
        )
    return await _log(tx, request, current, True, action, was, now)


async def undo_link_change(
    tx: Tx, request: Request, current: Table, target: Event, gm: bool
) -> Undone:
    """`/undo` of a link made or revoked (inside undo's own transaction, `store.undo`): the
    channel's live link becomes the one it had before, logged as an undo of `target`."""
    if not gm:
        check_player_may_undo(target, request.actor_id)  # says why not: it is the GM's change
    was, now = _logged_ref(target.after), _logged_ref(target.before)
    undo = await _relink(tx, request, current, was, now, UNDO_ACTION)
    await event_log.mark_undo(tx, undo.id, target.id)
    return Undone(target, replace(undo, undoes=target.id), current)


async def redo_link_change(
    tx: Tx, request: Request, current: Table, change: Event, undo: Event
) -> Redone:
    """`/redo` of an undone link change (inside redo's own transaction, `store.undo`): the
    channel's live link becomes the one `change` left, logged as a redo taking back `undo`."""
    was, now = _logged_ref(change.before), _logged_ref(change.after)
    redo = await _relink(tx, request, current, was, now, REDO_ACTION)
    await event_log.mark_undone(tx, undo.id, redo.id)
    return Redone(change, undo, redo, current)
