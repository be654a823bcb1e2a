"""Channels outside any server: the bot's DM with a user, and a group DM of friends where a
user-installed app runs. Their interactions carry no guild and no member, a `user` instead,
and the `context` Discord reports (1 BOT_DM, 2 PRIVATE_CHANNEL)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from tests.localdiscord.world import User, fresh_id, new_id, user_payload

DM, GROUP_DM = 1, 3  # channel types
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction context types (a command's `contexts`)
GUILD_INSTALL, USER_INSTALL = 0, 1  # integration types (a command's `integration_types`)
# What a user may do in a DM: Discord reports these as the bot's `app_permissions` there.
DM_APP_PERMISSIONS = (1 << 51) - 1


@dataclass
class PrivateChannel:
    id: int
    type: int  # DM or GROUP_DM
    recipients: tuple[User, ...]

    @property
    def context(self) -> int:
        return BOT_DM if self.type == DM else PRIVATE_CHANNEL

    @property
    def where(self) -> str:
        return "the bot's DM" if self.type == DM else "a group DM"


def bot_dm(user: User) -> PrivateChannel:
    return PrivateChannel(new_id(), DM, (user,))


def group_dm(*users: User) -> PrivateChannel:
    return PrivateChannel(new_id(), GROUP_DM, users)


def private_payload(
    application_id: int,
    kind: int,
    user: User,
    channel: PrivateChannel,
    data: dict[str, Any],
    message: dict[str, Any] | None = None,
    locale: str | None = None,
) -> dict[str, Any]:
    """An interaction from `channel`. In a group DM only a user install can run a command, so
    the user is its authorizing owner; in the bot's DM the server install counts too ("0")."""
    owners = {str(USER_INSTALL): str(user.id)}
    if channel.type == DM:
        owners[str(GUILD_INSTALL)] = "0"
    described: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "last_message_id": None,
        "flags": 0,
        "recipients": [user_payload(u) for u in channel.recipients],
    }
    if channel.type == GROUP_DM:
        described |= {"name": None, "icon": None, "owner_id": str(channel.recipients[0].id)}
    payload: dict[str, Any] = {
        "id": str(fresh_id()),
        "application_id": str(application_id),
        "type": kind,
        "data": data,
        "channel_id": str(channel.id),
        "channel": described,
        "user": user_payload(user),
        "token": secrets.token_urlsafe(48),
        "version": 1,
        "app_permissions": str(DM_APP_PERMISSIONS),
        "locale": locale or user.locale,
        "entitlements": [],
        "authorizing_integration_owners": owners,
        "context": channel.context,
        "attachment_size_limit": 10 * 2**20,
    }
    if message is not None:
        payload["message"] = message
    return payload
