"""Interaction callbacks, webhook follow-ups and edits, and plain channel messages."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.localdiscord.attachments import broken_pictures, unknown_attachments
from tests.localdiscord.http_json import BODY, discord_error, json_response
from tests.localdiscord.records import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    InteractionRecord,
    MessageRecord,
)
from tests.localdiscord.world import fresh_id

if TYPE_CHECKING:  # server.py imports this module
    from tests.localdiscord.server import LocalServer

# Callback types Discord accepts for each interaction type.
ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def add_interaction_routes(server: LocalServer, app: web.Application, api: str) -> None:
    hook = api + "/webhooks/{app}/{token}"
    routes = _Routes(server)
    app.router.add_post(api + "/interactions/{id}/{token}/callback", routes.callback)
    app.router.add_post(hook, routes.followup)
    for path in (hook + "/messages/@original", hook + "/messages/{message}"):
        app.router.add_get(path, routes.get_message)
        app.router.add_patch(path, routes.edit_message)
        app.router.add_delete(path, routes.delete_message)
    app.router.add_post(api + "/channels/{channel}/messages", routes.channel_message)
    app.router.add_patch(api + "/channels/{channel}/messages/{message}", routes.edit_in_channel)


class _Routes:
    def __init__(self, server: LocalServer) -> None:
        self.s = server

    def _new_message(
        self, channel_id: int, rec: InteractionRecord | None, flags: int
    ) -> MessageRecord:
        message = MessageRecord(fresh_id(), channel_id, self.s.world.bot, flags=flags)
        message.interaction_id = rec.id if rec else None
        self.s.messages[message.id] = message
        return message

    def _refused(self, body: Any, message: MessageRecord | None) -> web.Response | None:
        """Discord's 400 for `attachments` entries naming nothing it knows, and for content or
        embeds put on a Components V2 message (its flag never comes off)."""
        problems = unknown_attachments(body, message.attachments if message else [])
        said = isinstance(body, dict) and (body.get("content") or body.get("embeds"))
        if message is not None and message.flags & COMPONENTS_V2 and said:
            problems.append(f"message {message.id} is Components V2: no content or embeds")
        for problem in problems:
            self.s.record(problem)
        return discord_error(400, "Invalid Form Body", 50035) if problems else None

    def _apply(self, message: MessageRecord, body: dict[str, Any], created: bool = False) -> None:
        message.created(body) if created else message.apply(body)
        for problem in broken_pictures(message.embeds, message.attachments, message.components):
            self.s.record(f"message {message.id}: {problem}")

    async def callback(self, request: web.Request) -> web.Response:
        rec = self.s.interactions.get(int(request.match_info["id"]))
        if rec is None or rec.token != request.match_info["token"]:
            return discord_error(404, "Unknown interaction", 10062)
        body: dict[str, Any] = request[BODY]
        kind, data = body["type"], body.get("data") or {}
        elapsed = time.monotonic() - rec.sent_at
        if rec.callback_type is not None:
            self.s.record(f"interaction {rec.id} answered twice (40060 already acknowledged)")
            return discord_error(400, "Interaction has already been acknowledged.", 40060)
        if kind not in ALLOWED[rec.type]:
            self.s.record(f"callback type {kind} is not allowed for interaction type {rec.type}")
            return discord_error(400, "Invalid interaction application command", 50035)
        if elapsed > self.s.deadline:
            self.s.record(
                f"interaction {rec.id} answered after {elapsed:.1f} s (limit {self.s.deadline:g} s)"
            )
            return discord_error(404, "Unknown interaction", 10062)
        clicked = self.s.messages.get(int((rec.payload.get("message") or {}).get("id", 0)))
        if (refused := self._refused(data, clicked if kind == 7 else None)) is not None:
            return refused
        rec.callback_type, rec.callback_data, rec.answered_at = kind, data, time.monotonic()
        message = self._respond(rec, kind, data)
        rec.touch()
        answer: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        result: dict[str, Any] = {"interaction": answer}
        if message is not None:
            answer["response_message_id"] = str(message.id)
            answer["response_message_loading"] = bool(message.flags & LOADING)
            answer["response_message_ephemeral"] = bool(message.flags & EPHEMERAL)
            result["resource"] = {"type": kind, "message": message.payload()}
        return json_response(result)

    def _respond(
        self, rec: InteractionRecord, kind: int, data: dict[str, Any]
    ) -> MessageRecord | None:
        channel_id = int(rec.payload["channel_id"])
        if kind in (4, 5):
            flags = (data.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2)
            message = self._new_message(channel_id, rec, flags | (LOADING if kind == 5 else 0))
            self._apply(message, {k: v for k, v in data.items() if k != "flags"}, created=True)
            rec.original_id, rec.original_filled = message.id, kind == 4
            return message
        if kind in (6, 7):  # the message the component sits on
            message = self.s.messages[int(rec.payload["message"]["id"])]
            rec.original_id = message.id
            if kind == 7:
                self._apply(message, data)
                message.edits += 1
                rec.original_filled = True
            return message
        return None  # 8 autocomplete choices, 9 modal: kept in callback_data

    def _interaction(self, request: web.Request) -> InteractionRecord | None:
        if request.match_info["app"] != str(self.s.world.application_id):
            return None
        token = request.match_info["token"]
        return next((r for r in self.s.interactions.values() if r.token == token), None)

    async def followup(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        if rec is None or rec.callback_type is None:
            self.s.record(f"follow-up to an unknown or unanswered interaction: {request.path}")
            return discord_error(404, "Unknown Webhook", 10015)
        body: dict[str, Any] = request[BODY]
        if (refused := self._refused(body, None)) is not None:
            return refused
        original = self.s.messages.get(rec.original_id or 0)
        if rec.callback_type == 5 and original is not None and not rec.original_filled:
            # Discord's rule: the first follow-up after a "thinking" defer replaces it.
            message = original
            message.flags &= ~LOADING
            layout = (body.get("flags") or 0) & COMPONENTS_V2  # the rest was set by the deferral
            self._apply(message, {k: v for k, v in body.items() if k != "flags"})
            message.flags |= layout
            rec.original_filled = True
        else:
            message = self._new_message(int(rec.payload["channel_id"]), rec, 0)
            self._apply(message, body, created=True)
            rec.followup_ids.append(message.id)
        rec.touch()
        if request.query.get("wait") in ("0", "false"):
            return web.Response(status=204)
        return json_response(message.payload())

    def _target(self, request: web.Request) -> tuple[InteractionRecord, MessageRecord] | None:
        rec = self._interaction(request)
        if rec is None:
            return None
        wanted = request.match_info.get("message")
        message_id = rec.original_id if wanted is None else int(wanted)
        if message_id is None or message_id not in (rec.original_id, *rec.followup_ids):
            return None
        message = self.s.messages.get(message_id)
        return (rec, message) if message is not None else None

    async def get_message(self, request: web.Request) -> web.Response:
        found = self._target(request)
        if found is None:
            return discord_error(404, "Unknown Message", 10008)
        return json_response(found[1].payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        found = self._target(request)
        if found is None:
            self.s.record(f"edit of an unknown message: {request.path}")
            return discord_error(404, "Unknown Message", 10008)
        rec, message = found
        if (refused := self._refused(request[BODY], message)) is not None:
            return refused
        self._apply(message, request[BODY] or {})
        message.flags &= ~LOADING
        message.edits += 1
        if message.id == rec.original_id:
            rec.original_filled = True
        rec.touch()
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        found = self._target(request)
        if found is None:
            return discord_error(404, "Unknown Message", 10008)
        rec, message = found
        del self.s.messages[message.id]
        rec.original_deleted = rec.original_deleted or message.id == rec.original_id
        rec.touch()
        return web.Response(status=204)

    async def channel_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if self.s.world.find_channel(channel_id) is None:
            return discord_error(404, "Unknown Channel", 10003)
        if (refused := self._refused(request[BODY], None)) is not None:
            return refused
        message = self._new_message(channel_id, None, 0)
        self._apply(message, request[BODY] or {}, created=True)
        return json_response(message.payload())

    async def edit_in_channel(self, request: web.Request) -> web.Response:
        """The bot edits its own message through the channel (no interaction token): any
        message it authored there, but never an ephemeral one (those live only in a token)."""
        message = self.s.messages.get(int(request.match_info["message"]))
        channel_id = int(request.match_info["channel"])
        if (
            message is None
            or message.channel_id != channel_id
            or message.flags & EPHEMERAL
            or message.author.id != self.s.world.bot.id
        ):
            return discord_error(404, "Unknown Message", 10008)
        if (refused := self._refused(request[BODY], message)) is not None:
            return refused
        self._apply(message, request[BODY] or {})
        message.edits += 1
        return json_response(message.payload())
