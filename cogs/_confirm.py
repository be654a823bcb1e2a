"""Confirm prompts (`/character remove`, `/monster remove`, `/party reset`) that survive a
restart and say when they have expired.

The buttons are `TableButton`s: their custom_id holds who asked and when the prompt expires
(wall time, in milliseconds, base 36), so a click is answered whatever happened to the process
in between: after the expiry with "expired, run the command again", before it as asked. While
the process runs, a timer also greys the buttons out at the expiry (best effort: the custom_id,
not the timer, is what decides).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Self, cast

import discord

from cogs._buttons import ID_CODE, TableButton, buttons_view, id_code, id_from_code
from cogs._reply import reply, update
from lang import N_, _
from render.confirm import cancelled_embed

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 60.0  # how long a prompt waits for its answer
UNTIL_CODE = r"[0-9a-z]{1,10}"  # wall time in ms, base 36
ANSWER = rf"(?P<answer>[yn]):(?P<asker>{ID_CODE}):(?P<until>{UNTIL_CODE})"
NAME = r":(?P<name>.*)"  # last: a name may hold any text


def expiry_code(seconds: float, now: float | None = None) -> str:
    """When a prompt made now and waiting `seconds` expires, for its custom_id."""
    return id_code(round(((time.time() if now is None else now) + seconds) * 1000))


def has_expired(code: str, now: float | None = None) -> bool:
    return (time.time() if now is None else now) * 1000 >= id_from_code(code)


class ConfirmButton(TableButton, template=r"(?!)"):
    """Yes or No on a prompt: only its asker may answer, and not after it expired. Subclasses
    give a `template` ending in ANSWER's groups (plus their own), `confirmed`, `cancelled`
    and `expired` (the embed that says so and how to ask again)."""

    ONLY_ASKER = N_("Only <@{asker}> can answer this.")  # translated when said

    def __init__(
        self,
        prefix: str,
        yes: bool,
        asker_id: int,
        until: str,
        yes_label: str,
        *,
        suffix: str = "",
        disabled: bool = False,
    ) -> None:
        """`yes_label` names the Yes button (red: it changes the table); No is a grey Cancel."""
        self.yes, self.asker_id, self.until = yes, asker_id, until
        custom_id = f"{prefix}:{'y' if yes else 'n'}:{id_code(asker_id)}:{until}{suffix}"
        label = yes_label if yes else _("Cancel")
        style = discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary
        super().__init__(custom_id, label, style=style, disabled=disabled)

    @staticmethod
    def parse(match: Any) -> tuple[bool, int, str]:
        return match["answer"] == "y", id_from_code(match["asker"]), match["until"]

    @classmethod
    def make(cls, yes: bool, asker_id: int, until: str, *extra: Any, **kwargs: Any) -> Self:
        """A subclass's button: its own arguments follow `until` (e.g. the name)."""
        made: Self = cast(Any, cls)(yes, asker_id, until, *extra, **kwargs)
        return made

    @classmethod
    def pair(
        cls, asker_id: int, until: str, *extra: Any, disabled: bool = False
    ) -> discord.ui.View:
        """The prompt's two buttons: Yes, then No."""
        return buttons_view(
            *(cls.make(yes, asker_id, until, *extra, disabled=disabled) for yes in (True, False))
        )

    async def clicked(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.asker_id:
            await reply(interaction, _(self.ONLY_ASKER, asker=self.asker_id), private=True)
        elif not self.yes:
            await update(interaction, embed=self.cancelled(), view=None)
        elif has_expired(self.until):
            await update(interaction, embed=self.expired(), view=None)
        else:
            await self.confirmed(interaction)

    async def confirmed(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    def cancelled(self) -> discord.Embed:
        raise NotImplementedError

    def expired(self) -> discord.Embed:
        raise NotImplementedError


class RemovalButton(ConfirmButton, template=r"(?!)"):
    """Remove or Cancel on a prompt to remove something by name (the custom_id's last piece:
    any text). Subclasses give a `template` (`PREFIX:` + ANSWER + NAME), PREFIX, COMMAND and
    `confirmed`."""

    PREFIX = ""
    COMMAND = ""

    def __init__(
        self, yes: bool, asker_id: int, until: str, name: str, *, disabled: bool = False
    ) -> None:
        self.name = name
        super().__init__(
            self.PREFIX, yes, asker_id, until, _("Remove"), suffix=f":{name}", disabled=disabled
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls.make(*cls.parse(match), match["name"])

    def cancelled(self) -> discord.Embed:
        return cancelled_embed(self.name)

    def expired(self) -> discord.Embed:
        return cancelled_embed(self.name, timed_out=True, command=self.COMMAND)


async def ask(
    interaction: discord.Interaction,
    embed: discord.Embed,
    kind: type[ConfirmButton],
    *extra: Any,
    seconds: float,
    timers: PromptTimers,
    private: bool | None = None,
) -> None:
    """Send a prompt with `kind`'s two buttons (`extra`: its own arguments), expiring in
    `seconds`; `timers` greys them out then, if still unanswered. Private as the command
    declares, unless `private` says otherwise."""
    asker, until = interaction.user.id, expiry_code(seconds)
    await reply(interaction, embed=embed, view=kind.pair(asker, until, *extra), private=private)
    expired = kind.make(True, asker, until, *extra).expired()
    timers.start(
        grey_out_when_expired(
            interaction,
            seconds,
            expired,
            lambda: kind.pair(asker, until, *extra, disabled=True),
        )
    )


class PromptTimers:
    """The in-memory timers that grey out prompts at their expiry; a cog cancels them when it
    is unloaded, so none outlives the bot. Each is kept until its prompt expires, no longer:
    at most the prompts of one expiry's span."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel_all(self) -> None:
        for task in self._tasks:
            task.cancel()


async def grey_out_when_expired(
    prompt: discord.Interaction,
    seconds: float,
    embed: discord.Embed,
    disabled: Callable[[], discord.ui.View],
) -> None:
    """At the expiry, if the prompt still offers its buttons, show `embed` and the buttons
    disabled. A prompt answered meanwhile has no buttons left and is left alone."""
    await asyncio.sleep(seconds)
    try:
        message = await prompt.original_response()
        if any(
            not getattr(child, "disabled", True)
            for row in message.components
            for child in getattr(row, "children", ())
        ):
            await prompt.edit_original_response(embed=embed, view=disabled())
    except discord.HTTPException as error:  # dismissed or deleted: nothing left to grey out
        log.info("Could not grey out an expired prompt (%s)", error.status)
