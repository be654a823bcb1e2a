"""The guilds, channels, roles, members and users the local Discord serves.

Payload functions return the JSON shapes Discord's gateway and REST API use, so discord.py
parses them exactly as it parses the real thing.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
)
TIMESTAMP = "2026-01-01T12:00:00.000000+00:00"
PUBLIC_THREAD = 11

_ids = itertools.count(1_300_000_000_000_000_000)


def new_id() -> int:
    """A fresh snowflake for the world (users, servers, channels, roles); one counter per
    process keeps ids unique across servers, and the same world has the same ids every run."""
    return next(_ids)


DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01, where Discord's snowflakes count from
_fresh_lock = threading.Lock()
_last_fresh = 0


def fresh_id() -> int:
    """A snowflake of this moment, as Discord gives each new interaction, message and
    attachment: never one an earlier run gave out (`new_id` counts the same way every run), so
    a database kept between runs never mistakes a new interaction for one it has applied.
    Increasing within a run; well above every `new_id`."""
    global _last_fresh
    stamp = (time.time_ns() // 1_000_000 - DISCORD_EPOCH_MS) << 22
    with _fresh_lock:
        _last_fresh = max(stamp, _last_fresh + 1)
        return _last_fresh


@dataclass
class User:
    id: int
    username: str
    bot: bool = False
    locale: str = "en-US"  # the language of their Discord client, sent with each interaction

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass(frozen=True)
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # GUILD_TEXT; 11 a public thread
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    parent_id: int | None = None  # a thread's channel

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    nick: str | None = None


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    threads: list[Channel] = field(default_factory=list)  # not in GUILD_CREATE: never cached
    # The server's language (`guild_locale`): Discord sets it to en-US unless the server is a
    # Community server (`features` has "COMMUNITY"), whose admins choose it.
    locale: str = "en-US"
    features: list[str] = field(default_factory=list)

    def role(self, name: str) -> Role:
        return next(r for r in self.roles if r.name == name)

    def channel(self, name: str) -> Channel:
        return next(c for c in self.channels if c.name == name)

    def add_role(self, name: str, permissions: int) -> Role:
        role = Role(new_id(), name, permissions, position=len(self.roles))
        self.roles.append(role)
        return role

    def add_channel(self, name: str, overwrites: list[Overwrite] | None = None) -> Channel:
        channel = Channel(new_id(), self.id, name, position=len(self.channels))
        channel.overwrites = list(overwrites or [])
        self.channels.append(channel)
        return channel

    def add_thread(self, name: str, parent: Channel) -> Channel:
        """A public thread of `parent`: its permissions are the parent's."""
        thread = Channel(new_id(), self.id, name, type=PUBLIC_THREAD, parent_id=parent.id)
        self.threads.append(thread)
        return thread

    def add_member(self, user: User, *roles: Role) -> Member:
        member = Member(user, [r.id for r in roles])
        self.members[user.id] = member
        return member


def new_guild(name: str, owner: User) -> Guild:
    guild_id = new_id()
    guild = Guild(guild_id, name, owner.id)
    guild.roles.append(Role(guild_id, "@everyone", EVERYONE_DEFAULT))  # @everyone id == guild id
    guild.add_member(owner)
    return guild


def permissions(guild: Guild, member: Member, channel: Channel | None) -> int:
    """Discord's permission algorithm: base role permissions, then channel overwrites."""
    if member.user.id == guild.owner_id:
        return ALL_PERMISSIONS
    roles = {r.id: r for r in guild.roles}
    base = roles[guild.id].permissions
    for role_id in member.roles:
        base |= roles[role_id].permissions
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    if channel is None:
        return base
    if channel.parent_id is not None:  # a thread has its channel's permissions
        channel = next(c for c in guild.channels if c.id == channel.parent_id)
    by_target = {(o.type, o.id): o for o in channel.overwrites}
    if everyone := by_target.get((0, guild.id)):
        base = (base & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member.roles:
        if o := by_target.get((0, role_id)):
            allow, deny = allow | o.allow, deny | o.deny
    base = (base & ~deny) | allow
    if own := by_target.get((1, member.user.id)):
        base = (base & ~own.deny) | own.allow
    return base if base & VIEW_CHANNEL else 0


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.username,
        "global_name": None if user.bot else user.username.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
    }


def member_payload(member: Member, *, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in member.roles],
        "nick": member.nick,
        "avatar": None,
        "joined_at": TIMESTAMP,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(member.user)
    return data


def role_payload(role: Role) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "hoist": False,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def channel_payload(channel: Channel) -> dict[str, Any]:
    return {
        "id": str(channel.id),
        "guild_id": str(channel.guild_id),
        "type": channel.type,
        "name": channel.name,
        "position": channel.position,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "permission_overwrites": [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)}
            for o in channel.overwrites
        ],
    }


def guild_create_payload(guild: Guild) -> dict[str, Any]:
    # member_count == len(members) marks the guild as chunked, so discord.py asks for no chunks.
    return {
        "id": str(guild.id),
        "name": guild.name,
        "owner_id": str(guild.owner_id),
        "icon": None,
        "features": list(guild.features),
        "preferred_locale": guild.locale,
        "unavailable": False,
        "large": False,
        "member_count": len(guild.members),
        "joined_at": TIMESTAMP,
        "roles": [role_payload(r) for r in guild.roles],
        "channels": [channel_payload(c) for c in guild.channels],
        "members": [member_payload(m) for m in guild.members.values()],
        "emojis": [],
        "stickers": [],
        "threads": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "premium_tier": 0,
        "system_channel_flags": 0,
        "verification_level": 0,
        "nsfw_level": 0,
        "mfa_level": 0,
    }


def speaking(user: User, locale: str) -> User:
    """The same member with their Discord client in another language (e.g. "es-ES")."""
    return replace(user, locale=locale)
