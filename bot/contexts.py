"""Where a command may run: one declaration, read both by Discord and by the bot.

Every command keeps state in its channel (a party, a clock, a bestiary, settings) unless it is
declared `@anywhere`: those are installable on a user's account too and run in any server, the
bot's DM and group DMs. The declaration is discord.py's own `allowed_contexts` and
`allowed_installs` (synced as `contexts` and `integration_types`); the tree's defaults say
"a server, installed on the server" for all the rest. Discord applies contexts to top-level
commands only, so a subcommand that needs a server inside a group that runs anywhere (`/save
party`) says so with `@app_commands.guild_only()` for the bot's own check alone.

The bot refuses a command that needs a server when an interaction for it arrives without one,
whatever the client was told at registration (`needs_server`, asked by the tree).
"""

from __future__ import annotations

from typing import Any, TypeVar

from discord import app_commands

from lang import N_, _

IN_A_SERVER = N_(
    "Use this in a server channel: each channel there keeps its own party, clock and bestiary"
)

NOT_INSTALLED = N_(
    "Use this in a server channel where Tablekeeper is installed: this server hasn't added it "
    "(it is only on your account), so it keeps no party, clock or bestiary here"
)

# The tree's defaults: what a command that declares nothing gets (`contexts` [0],
# `integration_types` [0]).
SERVER_ONLY = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
C = TypeVar("C", bound=AnyCommand)


def anywhere(command: C) -> C:
    """Declare a stateless command (or a whole group) usable everywhere: installed on a server
    or on a user's account, in a server, the bot's DM or a group DM. Put it above the
    `@…command(…)` decorator, or wrap a Group."""
    installs = app_commands.allowed_installs(guilds=True, users=True)
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    return contexts(installs(command))


def needs_server(command: AnyCommand) -> bool:
    """True unless the command's declared contexts (its own, else its nearest group's, else the
    tree's default: a server) allow a DM or a group DM."""
    node: AnyCommand | None = command
    while node is not None:
        contexts = node.allowed_contexts
        if contexts is not None and (
            contexts.guild or contexts.dm_channel or contexts.private_channel
        ):  # declared here
            return not (contexts.dm_channel or contexts.private_channel)
        node = node.parent
    return not (SERVER_ONLY.dm_channel or SERVER_ONLY.private_channel)


class NotInServer(app_commands.NoPrivateMessage):
    """A command or button that needs a server, used outside one."""

    def __init__(self) -> None:
        super().__init__(_(IN_A_SERVER))


class NotInstalledHere(app_commands.CheckFailure):
    """A command that needs a server, in a server that didn't install the bot (only the user
    added it to their account): it would keep a table nobody there asked for."""

    def __init__(self) -> None:
        super().__init__(_(NOT_INSTALLED))
