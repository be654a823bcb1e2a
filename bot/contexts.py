"""Where a command may run: the one declaration of which commands need a server channel.

Every command keeps state in its channel (a party, a clock, a bestiary, settings) unless it is
marked `@stateless`: those work anywhere, a DM included. The tree refuses a stateful command
that arrives without a server, whatever the client was told at registration.
"""

from __future__ import annotations

from typing import Any, TypeVar

from discord import app_commands

STATELESS = "stateless"  # the key in a command's `extras`
IN_A_SERVER = (
    "Use this in a server channel: each channel there keeps its own party, clock and bestiary."
)

C = TypeVar("C", bound="app_commands.Command[Any, ..., Any] | app_commands.Group")


def stateless(command: C) -> C:
    """Mark a command (or a whole group) as needing no channel state: it may run in a DM.
    Put it above the `@…command(…)` decorator."""
    # A copy: commands may share one extras dict (`extras=PRIVATE`); only this one is marked.
    command.extras = {**command.extras, STATELESS: True}
    return command


def is_stateful(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> bool:
    """True unless the command or a group it belongs to is marked `@stateless`."""
    node: app_commands.Command[Any, ..., Any] | app_commands.Group | None = command
    while node is not None:
        if node.extras.get(STATELESS):
            return False
        node = node.parent
    return True


class NotInServer(app_commands.NoPrivateMessage):
    """A stateful command or button outside a server."""

    def __init__(self) -> None:
        super().__init__(IN_A_SERVER)
