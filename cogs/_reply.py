"""How a cog answers: `reply` with a new message, `update` the clicked one, `open_form` with a
form, all through `bot.ack`, which picks the route still open (docs/architecture.md,
"Answering an interaction").

A command's reply is public unless declared `@private()`, or `@private(lambda options: not
options.public)`: the watchdog's "thinking…", sent before the reply exists, takes that
privacy. A button, view or form declares its class's `private`; `reply(…, private=…)` says
otherwise for one message (a secret roll's result, after its public notice).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.ack import ack_of, edit, open_modal, send
from bot.tree import PRIVATE_WHEN
from bot.watchdog import WATCHDOG
from cogs._views import FORM_SECONDS, AnyView, TableView
from lang import N_, _

F = TypeVar("F", bound=Callable[..., Any])
FORM_LATE = N_("Getting your form ready took longer than Discord waits: open it with the button.")
OPEN_FORM = N_("Open the form")


def private(when: bool | Callable[[app_commands.Namespace], bool] = True) -> Callable[[F], F]:
    """Declare a command's reply private: always, or when `when(options)` is true. Put it
    under the `@…command(…)` decorator."""

    def declare(callback: F) -> F:
        setattr(callback, PRIVATE_WHEN, when)
        return callback

    return declare


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    view: AnyView | None = None,
    pinged: discord.abc.Snowflake | None = None,
    private: bool | None = None,
) -> None:
    """A new message: the answer, or (said again) a follow-up. Private as declared, unless
    `private` says otherwise; `pinged` is the one user its content may ping."""
    message: dict[str, Any] = {"content": content, "files": list(files), "view": view}
    message["embeds"] = [embed] if embed is not None else list(embeds)
    if pinged is not None:
        message["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[pinged]
        )
    private = ack_of(interaction).private if private is None else private
    # Only what is given: a new message takes no None (a follow-up's `view=None` fails).
    await send(interaction, private, **{k: v for k, v in message.items() if v not in (None, [])})


async def update(
    interaction: discord.Interaction,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    embeds: Sequence[discord.Embed] = MISSING,
    files: Sequence[discord.File] = MISSING,
    view: AnyView | None = MISSING,
) -> None:
    """Edit the message whose component was clicked: what is given replaces what it showed
    (`files` its attachments, `view=None` takes the buttons away); the rest stays."""
    await edit(interaction, content=content, embed=embed, embeds=embeds, files=files, view=view)


async def open_form(
    interaction: discord.Interaction, form: discord.ui.Modal | Awaitable[discord.ui.Modal]
) -> None:
    """Answer with a form (a `cogs._views.TableForm`), or with the read that makes one, before
    anything else: Discord shows no form after a deferral. A read not done in the watchdog's
    time, or a deferral made already (in a burst), gets a private "Open the form" button."""
    made = form if isinstance(form, discord.ui.Modal) else asyncio.ensure_future(form)
    ack_of(interaction).settle()  # it answers in time itself: a "thinking…" rules a form out
    modal = made
    if isinstance(made, asyncio.Future):
        made.add_done_callback(lambda done: done.cancelled() or done.exception())
        with contextlib.suppress(TimeoutError):
            modal = await asyncio.wait_for(asyncio.shield(made), WATCHDOG)
    if isinstance(modal, discord.ui.Modal) and await open_modal(interaction, modal):
        return
    await reply(interaction, _(FORM_LATE), view=OpenForm(made), private=True)


class OpenForm(TableView):
    """The "Open the form" button: opens the form once its read is done (the click has its
    own 3 seconds)."""

    def __init__(self, form: discord.ui.Modal | asyncio.Future[discord.ui.Modal]) -> None:
        super().__init__(timeout=FORM_SECONDS)
        self.form = form
        self.open.label = _(OPEN_FORM)

    @discord.ui.button(style=discord.ButtonStyle.primary)
    async def open(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await open_form(interaction, self.form)
