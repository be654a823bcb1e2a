"""INTERACTION_CREATE payloads as Discord builds them: member permissions, resolved objects."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from tests.localdiscord.attachments import Upload
from tests.localdiscord.commands import (
    ATTACHMENT,
    CHANNEL,
    MENTIONABLE,
    ROLE,
    USER,
    CommandLineError,
)
from tests.localdiscord.default_world import World
from tests.localdiscord.world import (
    Channel,
    Role,
    User,
    fresh_id,
    member_payload,
    permissions,
    role_payload,
    user_payload,
)


def interaction_payload(
    world: World,
    kind: int,
    user: User,
    channel: Channel,
    data: dict[str, Any],
    message: dict[str, Any] | None = None,
    locale: str | None = None,
) -> dict[str, Any]:
    guild = world.guild_of(channel)
    member = guild.members.get(user.id)
    if member is None:
        raise CommandLineError(f"{user.username} is not a member of {guild.name}")
    bot_member = guild.members[world.bot.id]
    seen = permissions(guild, member, channel)
    if not seen:
        raise CommandLineError(f"{user.username} cannot see #{channel.name}")
    payload: dict[str, Any] = {
        "id": str(fresh_id()),
        "application_id": str(world.application_id),
        "type": kind,
        "data": data,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
        "channel_id": str(channel.id),
        "channel": {
            "id": str(channel.id),
            "type": channel.type,
            "name": channel.name,
            "position": channel.position,  # Discord sends the full channel: a new one works too
            "nsfw": False,
            "guild_id": str(guild.id),
            "permissions": str(seen),
        },
        "member": member_payload(member) | {"permissions": str(seen)},
        "token": secrets.token_urlsafe(48),
        "version": 1,
        "app_permissions": str(permissions(guild, bot_member, channel)),
        "locale": locale or user.locale,
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": 10 * 2**20,
    }
    if channel.parent_id is not None:  # Discord sends a thread's channel and metadata along
        payload["channel"] |= {
            "parent_id": str(channel.parent_id),
            "owner_id": str(guild.owner_id),
            "message_count": 0,
            "member_count": 1,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T12:00:00.000000+00:00",
                "locked": False,
            },
        }
    if message is not None:
        payload["message"] = message
    return payload


def picked(value: Any) -> Upload:
    """A file typed by its path (`file:~/table.json`), as a user picks one to upload."""
    if not isinstance(value, str):
        raise CommandLineError(f"An attachment option takes an Upload or a path, not {value!r}")
    path = Path(value).expanduser()
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CommandLineError(f"Could not read {value}: {error.strerror or error}") from None
    return Upload(path.name, data)


class Resolver:
    """Turns user/channel/role option values into ids and fills the `resolved` map; an
    attachment option's `Upload` is put on the CDN (`cdn`, served at `cdn_base`) as a user's
    client uploads it before sending the command."""

    def __init__(
        self,
        world: World,
        channel: Channel,
        cdn: dict[str, bytes] | None = None,
        cdn_base: str = "",
        user: User | None = None,
    ) -> None:
        self.world = world
        self.cdn = {} if cdn is None else cdn
        self.cdn_base = cdn_base
        self.guild = world.guild_of(channel)
        self.user = user  # who invokes: a channel's `permissions` are theirs there
        self.resolved: dict[str, dict[str, Any]] = {}

    def __call__(self, kind: int, value: Any) -> str:
        if kind == ATTACHMENT:
            return self._attach(value if isinstance(value, Upload) else picked(value))
        if kind in (USER, MENTIONABLE) and (user := self._user(value)) is not None:
            return self._add_user(user)
        if kind in (ROLE, MENTIONABLE) and (role := self._role(value)) is not None:
            self.resolved.setdefault("roles", {})[str(role.id)] = role_payload(role)
            return str(role.id)
        if kind == CHANNEL and (channel := self._channel(value)) is not None:
            member = None if self.user is None else self.guild.members.get(self.user.id)
            perms = 0 if member is None else permissions(self.guild, member, channel)
            self.resolved.setdefault("channels", {})[str(channel.id)] = {
                "id": str(channel.id),
                "name": channel.name,
                "type": channel.type,
                "permissions": str(perms),  # the invoking user's there, as Discord sends them
                "guild_id": str(channel.guild_id),
            }
            return str(channel.id)
        raise CommandLineError(f"No such user, role or channel here: {value!r}")

    def _attach(self, upload: Upload) -> str:
        """The file on the CDN, and its attachment object (its declared `size` may differ from
        what is served: a test's way to claim a size without sending it)."""
        snowflake = str(fresh_id())
        path = f"/attachments/{self.guild.id}/{snowflake}/{upload.filename}"
        self.cdn[path] = upload.data
        self.resolved.setdefault("attachments", {})[snowflake] = {
            "id": snowflake,
            "filename": upload.filename,
            "size": len(upload.data) if upload.size is None else upload.size,
            "url": self.cdn_base + path,
            "proxy_url": self.cdn_base + path,
            "content_type": upload.content_type,
        }
        return snowflake

    def _add_user(self, user: User) -> str:
        self.resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
        member = self.guild.members.get(user.id)
        if member is not None:
            perms = permissions(self.guild, member, None)
            entry = member_payload(member, with_user=False) | {"permissions": str(perms)}
            self.resolved.setdefault("members", {})[str(user.id)] = entry
        return str(user.id)

    def _user(self, value: Any) -> User | None:
        return value if isinstance(value, User) else self.world.find_user(value)

    def _role(self, value: Any) -> Role | None:
        if isinstance(value, Role):
            return value
        text = str(value).strip("<@&>")
        return next((r for r in self.guild.roles if text in (str(r.id), r.name)), None)

    def _channel(self, value: Any) -> Channel | None:
        if isinstance(value, Channel):
            return value
        text = str(value).strip("<#>").lstrip("#")
        return next((c for c in self.guild.channels if text in (str(c.id), c.name)), None)
