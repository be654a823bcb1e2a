"""What a real client never sends but the gateway may carry: forged option payloads, clicks on
buttons a message doesn't carry, and interactions from a DM (a thread is in the world itself:
`LocalDiscord.scene`, or `guild.add_thread`).

Plain functions of a running `LocalDiscord`, kept apart from its everyday methods. Nothing here
checks the options against the command's declaration: that is the bot's job.
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.commands import find_command, nest
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import InteractionRecord
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import Channel, User, new_id, user_payload

APPLICATION_COMMAND, COMPONENT = 2, 3
IN_DM: Literal["dm"] = "dm"  # as `channel`: the bot's DM with the user
DM = 1


def command_data(
    discord_: LocalDiscord,
    command: str,
    options: list[dict[str, Any]] | None = None,
    *,
    channel: Channel | None = None,
    resolved: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Interaction data for `/command` (a registered one, found by path, e.g. 'fatigue spend')
    carrying `options` as given: raw option objects, never checked or typed."""
    top, chain, _ = find_command(discord_.commands(channel), command)
    data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
    data["options"] = nest(chain, list(options or []))
    if resolved:
        data["resolved"] = resolved
    return data


def option(name: str, kind: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


async def send(
    discord_: LocalDiscord,
    data: dict[str, Any],
    *,
    user: User,
    channel: Channel | Literal["dm"] | None = None,
    kind: int = APPLICATION_COMMAND,
    message: dict[str, Any] | None = None,
) -> Reply:
    """Send `data` as an interaction from `user` in `channel` (default #table; IN_DM: the
    bot's DM) and wait for its final answer; fails, as every test does, if never answered."""
    if channel == IN_DM:
        payload = dm_payload(discord_, kind, user, data, message)
    else:
        channel = channel or discord_.table
        payload = interaction_payload(discord_.world, kind, user, channel, data, message)
    return await _dispatch(discord_, payload)


async def click_id(
    discord_: LocalDiscord,
    custom_id: str,
    on: Reply,
    *,
    user: User,
    channel: Channel | Literal["dm"] | None = None,
) -> Reply:
    """Click a button with `custom_id` on the message of `on`, whether or not it has one."""
    message = discord_.server.messages[on.message_id or 0]
    data = {"custom_id": custom_id, "component_type": 2}
    target = channel or discord_.world.find_channel(message.channel_id) or IN_DM
    return await send(
        discord_, data, user=user, channel=target, kind=COMPONENT, message=message.payload()
    )


def plant_button(discord_: LocalDiscord, on: Reply, custom_id: str, label: str = "Old") -> None:
    """Give the message of `on` a button with `custom_id`, as if an older version (or a
    forger) had put it there: a click on it then reaches the bot like any other."""
    message = discord_.server.messages[on.message_id or 0]
    button = {"type": 2, "style": 2, "label": label, "custom_id": custom_id}
    message.components = [*message.components, {"type": 1, "components": [button]}]


def dm_payload(
    discord_: LocalDiscord,
    kind: int,
    user: User,
    data: dict[str, Any],
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An interaction from the bot's DM with `user`: no guild, no member, a `user` instead."""
    channel_id = dm_channel_id(user)
    payload: dict[str, Any] = {
        "id": str(new_id()),
        "application_id": str(discord_.world.application_id),
        "type": kind,
        "data": data,
        "channel_id": str(channel_id),
        "channel": {
            "id": str(channel_id),
            "type": DM,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user_payload(user)],
        },
        "user": user_payload(user),
        "token": secrets.token_urlsafe(48),
        "version": 1,
        "app_permissions": str((1 << 51) - 1),
        "locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": "0"},
        "context": 1,  # BOT_DM
        "attachment_size_limit": 10 * 2**20,
    }
    if message is not None:
        payload["message"] = message
    return payload


_DM_CHANNELS: dict[int, int] = {}


def dm_channel_id(user: User) -> int:
    """One DM channel per user, as Discord keeps it."""
    return _DM_CHANNELS.setdefault(user.id, new_id())


async def _dispatch(discord_: LocalDiscord, payload: dict[str, Any]) -> Reply:
    rec = InteractionRecord(int(payload["id"]), payload["token"], payload["type"], payload)
    discord_.server.interactions[rec.id] = rec
    await discord_.server.gateway.dispatch("INTERACTION_CREATE", payload)
    return await discord_._final(rec)
