"""The test-facing side: start the local Discord, send interactions, read the replies."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.localdiscord.commands import (
    CommandLineError,
    find_command,
    missing_required,
    nest,
    option_def,
    parse_command_line,
    typed_value,
)
from tests.localdiscord.default_world import World, build_world
from tests.localdiscord.payloads import Resolver, interaction_payload
from tests.localdiscord.private import (
    USER_INSTALL,
    PrivateChannel,
    bot_dm,
    group_dm,
    private_payload,
)
from tests.localdiscord.records import EPHEMERAL, LOADING, InteractionRecord, MessageRecord
from tests.localdiscord.reply import Reply, fill_modal, picked, walk
from tests.localdiscord.server import LocalServer
from tests.localdiscord.world import Channel, User

Place = Channel | PrivateChannel  # where an interaction comes from


class DiscordViolation(AssertionError):
    """The bot sent something Discord would reject (or failed to answer in time)."""


class LocalDiscord:
    """`async with LocalDiscord() as discord_:` a Discord on loopback for one test."""

    def __init__(
        self, world: World | None = None, timeout: float = 5.0, shard_count: int = 1
    ) -> None:
        self.world = world or build_world()
        self.server = LocalServer(self.world)
        self.server.gateway.shard_count = shard_count  # what /gateway/bot reports
        self.timeout = timeout
        w = self.world
        self.gm, self.named_gm, self.owner = w.gm, w.named_gm, w.owner
        self.player, self.player2, self.outsider = w.player, w.player2, w.outsider
        self.guild, self.other_guild = w.guild, w.other_guild
        self.table, self.ooc, self.gm_notes = w.table, w.ooc, w.gm_notes
        self.side_table, self.other_table = w.side_table, w.other_table
        self.scene = w.scene  # a thread of #table
        self.private: dict[int, PrivateChannel] = {}  # DMs and group DMs opened so far

    async def __aenter__(self) -> LocalDiscord:
        await self.server.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._note_unanswered()
        await self.server.stop()

    @property
    def api_base(self) -> str:
        return self.server.api_base

    @property
    def token(self) -> str:
        return self.server.token

    @property
    def violations(self) -> list[str]:
        return self.server.violations

    @property
    def requests(self) -> list[str]:
        return self.server.requests

    def commands(self, channel: Place | None = None) -> list[dict[str, Any]]:
        """Registered slash commands visible in a channel: its guild's, then global ones;
        outside a server, the global ones whose `contexts` include that kind of channel (what
        Discord's client offers there)."""
        if isinstance(channel, PrivateChannel):
            found = self.server.commands.get(None, [])
            return [c for c in found if channel.context in (c.get("contexts") or ())]
        guild = self.world.guild_of(channel or self.table)
        return self.server.commands.get(guild.id, []) + self.server.commands.get(None, [])

    def synced(self, name: str) -> dict[str, Any]:
        """A global command as the bot last registered it (`contexts`, `integration_types`…)."""
        return next(c for c in self.server.commands.get(None, []) if c["name"] == name)

    def dm(self, user: User) -> PrivateChannel:
        """The bot's DM with `user` (one per user, as Discord keeps it)."""
        found = next(
            (c for c in self.private.values() if c.type == 1 and c.recipients == (user,)), None
        )
        return found or self._open(bot_dm(user))

    def group_dm(self, *users: User) -> PrivateChannel:
        """A new group DM of `users`, where a user-installed app can run."""
        return self._open(group_dm(*users))

    def _open(self, channel: PrivateChannel) -> PrivateChannel:
        self.private[channel.id] = channel
        return channel

    def take_violations(self) -> list[str]:
        """The violations so far, cleared: for tests that provoke one on purpose."""
        taken = list(self.violations)
        self.violations.clear()
        return taken

    def assert_clean(self) -> None:
        self._note_unanswered()
        if self.violations:
            raise DiscordViolation("Discord would reject:\n" + "\n".join(self.violations))

    async def wait_ready(self, commands: bool = True, timeout: float = 10.0) -> None:
        """Until the bot has identified (and, by default, registered its commands)."""
        await asyncio.wait_for(self.server.gateway.identified.wait(), timeout)
        if commands:
            await asyncio.wait_for(self.server.commands_registered.wait(), timeout)

    async def drop_connection(self, timeout: float = 10.0) -> None:
        """Cut the gateway socket and wait for the bot to RESUME its session."""
        await self.server.gateway.drop()
        await asyncio.wait_for(self.server.gateway.resumed.wait(), timeout)

    async def slash(
        self,
        command: str,
        *,
        user: User,
        channel: Place | None = None,
        options: dict[str, Any] | None = None,
        offered: bool = True,
        user_install: bool = False,
        **kwargs: Any,
    ) -> Reply:
        """Run `/command` with options (keyword names may use _ for -), wait for its answer.
        `offered=False` sends it even where Discord's client would not offer it (a command
        registered for servers only, from a DM): what only a forged or stale client does.
        `user_install=True`: in a server, through the app the user added to their account
        rather than the server's install (Discord then offers only user-installable commands)."""
        channel = channel or self.table
        values = {**(options or {}), **kwargs}
        data = self._command_data(command, channel, values, None, offered, user)
        if user_install and offered:
            top = next(c for c in self.commands(channel) if c["id"] == data["id"])
            if USER_INSTALL not in (top.get("integration_types") or ()):
                raise CommandLineError(f"/{top['name']} is not installable on a user's account")
        rec = await self._send(2, data, user, channel, user_install=user_install)
        return await self._final(rec)

    async def type(self, line: str, *, user: User, channel: Place | None = None) -> Reply:
        """Run a typed command line such as '/save wsr level:5 vs:7'."""
        path, options = parse_command_line(line, self.commands(channel), user.locale)
        return await self.slash(path, user=user, channel=channel, options=options)

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *,
        user: User,
        channel: Place | None = None,
        **others: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while `typed` is in `option`."""
        channel = channel or self.table
        data = self._command_data(command, channel, others, (option, typed), user=user)
        reply = await self._final(await self._send(4, data, user, channel))
        return list(reply.choices)

    async def click(
        self,
        reply: Reply,
        button: str,
        *,
        user: User,
        values: list[Any] | None = None,
        channel: Place | None = None,
    ) -> Reply:
        """Click a button (by label or custom_id) or pick `values` in a select menu (by its
        placeholder or custom_id; users, roles or channels in theirs); `channel` makes the click
        arrive as if from another channel (a forged or stale component)."""
        message = self._message(reply)
        found = [
            c
            for c in walk(message.components)
            if button in (c.get("label"), c.get("custom_id"), c.get("placeholder"))
        ]
        if not found or "custom_id" not in found[0]:
            shown = [  # what can be clicked or picked (a card's text and containers can't)
                c.get("label") or c.get("placeholder") or c["custom_id"]
                for c in walk(message.components)
                if "custom_id" in c
            ]
            raise CommandLineError(f"No clickable {button!r} on that message; it has {shown}")
        if found[0].get("disabled"):
            raise CommandLineError(f"{button!r} is disabled")
        data: dict[str, Any] = {
            "custom_id": found[0]["custom_id"],
            "component_type": found[0]["type"],
        }
        place = channel or self._place(message.channel_id)
        if values is not None:
            resolver = self._resolver(place)
            data["values"] = picked(found[0], values, resolver)
            if resolver.resolved:
                data["resolved"] = resolver.resolved
        rec = await self._send(3, data, user, place, message.payload())
        return await self._final(rec, watch=message)

    async def submit_modal(
        self,
        reply: Reply,
        values: dict[str, Any],
        *,
        user: User,
        channel: Place | None = None,
    ) -> Reply:
        """Fill in the form the bot answered `reply` with and submit it: each field's text, or
        for a select menu a list of what is picked. A form opened by a click carries its
        message, as Discord sends it."""
        if reply.modal is None:
            raise CommandLineError("That reply is not a modal")
        opener = self.server.interactions[reply.interaction_id]
        place = channel or self._place(int(opener.payload["channel_id"]))
        resolver = self._resolver(place)
        components = fill_modal(reply.modal.get("components") or [], values, resolver)
        data: dict[str, Any] = {"custom_id": reply.modal["custom_id"], "components": components}
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        rec = await self._send(5, data, user, place, opener.payload.get("message"))
        return await self._final(rec)

    def _resolver(self, place: Place) -> Resolver:
        channel = self.table if isinstance(place, PrivateChannel) else place
        return Resolver(self.world, channel, self.server.cdn, self.server.cdn_base)

    async def settle(self, reply: Reply, idle: float = 0.05) -> Reply:
        """`latest(reply)` once the bot has sent nothing for `idle` seconds: for answers that
        go on after the interaction is answered (a follow-up after the first reply)."""
        deadline = time.monotonic() + self.timeout
        seen = -1
        while len(self.requests) != seen and time.monotonic() < deadline:
            seen = len(self.requests)
            await asyncio.sleep(idle)
        self.assert_clean()
        return self.latest(reply)

    def latest(self, reply: Reply) -> Reply:
        """The same interaction's answer as it stands now (after later edits or follow-ups)."""
        return self._reply(self.server.interactions[reply.interaction_id])

    # -- internals ---------------------------------------------------------------------

    def _place(self, channel_id: int) -> Place:
        return self.world.find_channel(channel_id) or self.private.get(channel_id) or self.table

    def _command_data(
        self,
        command: str,
        channel: Place,
        values: dict[str, Any],
        focused: tuple[str, str] | None,
        offered: bool = True,
        user: User | None = None,
    ) -> dict[str, Any]:
        if isinstance(channel, PrivateChannel):
            visible = self.commands(channel) if offered else self.server.commands.get(None, [])
            try:
                top, chain, leaf = find_command(visible, command)
            except CommandLineError as error:
                raise CommandLineError(f"{error} (in {channel.where})") from None
            # no members to resolve outside a server
            resolver = Resolver(self.world, self.table, self.server.cdn, self.server.cdn_base)
        else:
            top, chain, leaf = find_command(self.commands(channel), command)
            resolver = Resolver(
                self.world, channel, self.server.cdn, self.server.cdn_base, user=user
            )
        where = "/" + " ".join([top["name"], *(c["name"] for c in chain)])
        opts = []
        for name, value in values.items():
            d = option_def(leaf, name, where)
            opts.append(
                {"name": d["name"], "type": d["type"], "value": typed_value(d, value, resolver)}
            )
        if focused is None:
            missing_required(leaf, [o["name"] for o in opts], where)
        else:
            d = option_def(leaf, focused[0], where)
            if not d.get("autocomplete"):
                raise CommandLineError(f"Option {d['name']!r} of {where} has no autocomplete")
            opts.append(
                {"name": d["name"], "type": d["type"], "value": focused[1], "focused": True}
            )
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        data["options"] = nest(chain, opts)
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        return data

    async def _send(
        self,
        kind: int,
        data: dict[str, Any],
        user: User,
        channel: Place,
        message: dict[str, Any] | None = None,
        *,
        user_install: bool = False,
    ) -> InteractionRecord:
        if isinstance(channel, PrivateChannel):
            app = self.world.application_id
            payload = private_payload(app, kind, user, channel, data, message)
        else:
            payload = interaction_payload(self.world, kind, user, channel, data, message)
            if user_install:  # the user's own install authorizes it, not the server's
                payload["authorizing_integration_owners"] = {str(USER_INSTALL): str(user.id)}
        rec = InteractionRecord(int(payload["id"]), payload["token"], kind, payload)
        self.server.interactions[rec.id] = rec
        await self.server.gateway.dispatch("INTERACTION_CREATE", payload)
        return rec

    async def _final(self, rec: InteractionRecord, watch: MessageRecord | None = None) -> Reply:
        """Wait for the answer; through a deferral to the follow-up or edit that completes it."""
        edits = watch.edits if watch else 0
        deadline = time.monotonic() + self.timeout
        while not self._done(rec, watch, edits):
            if self.violations:
                self.assert_clean()
            left = deadline - time.monotonic()
            if left <= 0:
                self._note_unanswered()
                self.assert_clean()
                raise TimeoutError(f"no final answer to interaction {rec.payload['data']}")
            rec.changed.clear()
            self.server.violation_added.clear()
            waiters = [
                asyncio.ensure_future(e.wait()) for e in (rec.changed, self.server.violation_added)
            ]
            await asyncio.wait(waiters, timeout=min(left, 0.5), return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
        self.assert_clean()
        return self._reply(rec)

    @staticmethod
    def _done(rec: InteractionRecord, watch: MessageRecord | None, edits: int) -> bool:
        if rec.callback_type in (4, 7, 8, 9):
            return True
        if rec.callback_type == 5:  # a deleted "thinking…" message leaves the answer to a follow-up
            return rec.original_filled or (rec.original_deleted and bool(rec.followup_ids))
        if rec.callback_type == 6:
            return bool(rec.followup_ids) or (watch is not None and watch.edits > edits)
        return False

    def _note_unanswered(self) -> None:
        # After every reply, over every interaction kept: the cheap tests first, one clock read.
        now = time.monotonic()
        for rec in self.server.interactions.values():
            if (
                rec.callback_type is None
                and not rec.noted_late
                and now - rec.sent_at > self.server.deadline
            ):
                rec.noted_late = True
                what = rec.payload["data"].get("name") or rec.payload["data"].get("custom_id")
                self.server.record(f"interaction {what!r} left unanswered past the deadline")

    def _message(self, reply: Reply) -> MessageRecord:
        message = self.server.messages.get(reply.message_id or 0)
        if message is None:
            raise CommandLineError("That reply has no message (deleted, or choices/modal)")
        return message

    def _reply(self, rec: InteractionRecord) -> Reply:
        data = rec.callback_data or {}
        base = Reply(
            rec.id,
            rec.callback_type or 0,
            deferred=rec.callback_type in (5, 6),
            choices=tuple(data.get("choices") or ()) if rec.callback_type == 8 else (),
            modal=data if rec.callback_type == 9 else None,
        )
        followups = tuple(self._from_message(base, i) for i in rec.followup_ids)
        if rec.original_id is not None and rec.original_id in self.server.messages:
            return self._from_message(base, rec.original_id, followups)
        if rec.callback_type in (5, 6) and followups:  # a deferral answered by a follow-up
            return followups[0]
        return base

    def _from_message(
        self, base: Reply, message_id: int, followups: tuple[Reply, ...] = ()
    ) -> Reply:
        m = self.server.messages[message_id]
        return Reply(
            base.interaction_id,
            base.callback_type,
            m.id,
            m.channel_id,
            m.content,
            tuple(m.embeds),
            tuple(m.components),
            ephemeral=bool(m.flags & EPHEMERAL),
            deferred=base.deferred or bool(m.flags & LOADING),
            followups=followups,
            choices=base.choices,
            modal=base.modal,
            files=tuple((a["filename"], m.files[a["filename"]]) for a in m.attachments),
            attachments=tuple(m.attachments),
            flags=m.flags,
        )
