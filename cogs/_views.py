"""The bot's views and forms: discord.py's `ui.View`, `ui.LayoutView` (Components V2) and
`ui.Modal`, taken and answered the way commands are (docs/architecture.md, "Adding a button,
a menu or a form").

Each takes its interaction first thing, in `interaction_check` (`bot.ack.take`): the watchdog
then defers it if its answer is slow, the reply speaks the reader's language, and it is never
also answered as unclaimed. An exception in a check, a callback or `on_submit` is answered by
the one error handler (`on_error`). Their custom_ids start with `tk:` (a view's items as the
view is sent, a form's own), so a click or a submission that reaches a process no longer
holding them (after a restart, or past their timeout) gets a polite answer, not "This
interaction failed". `private` (a class attribute) is the privacy of what they answer; a
form's "thinking…" deferral takes it.
"""

from __future__ import annotations

import os
from typing import Any

import discord
from discord.utils import MISSING

from bot.ack import take
from bot.tree import answer_error
from bot.unclaimed import OURS

AnyView = discord.ui.View | discord.ui.LayoutView  # buttons and menus, or a V2 layout
FORM_SECONDS = 15 * 60.0  # a form is kept this long for its submission


class Taking:
    """`interaction_check` for the bot's views, forms and buttons (`cogs._buttons`): take the
    interaction; a second delivery already answered goes no further."""

    private: bool = False  # a class's declaration; an instance may say otherwise (a picker)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await take(interaction, private=self.private)


def _ours(view: AnyView) -> None:
    """Give each clickable item of `view` a `tk:` custom_id (discord.py makes random ones)."""
    for item in view.walk_children():
        custom_id = getattr(item, "custom_id", None)
        if item.is_dispatchable() and isinstance(custom_id, str) and not custom_id.startswith(OURS):
            item.custom_id = OURS + custom_id[: 100 - len(OURS)]  # type: ignore[attr-defined]


class _Answering(Taking):
    """What the bot's views share: `tk:` custom_ids as they are sent, errors answered."""

    def to_components(self) -> list[dict[str, Any]]:
        _ours(self)  # type: ignore[arg-type]  # a View or a LayoutView, below
        return super().to_components()  # type: ignore[misc]

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await answer_error(interaction, error, f"{type(self).__name__} {type(item).__name__}")


class TableView(_Answering, discord.ui.View):
    """A message's buttons and select menus, answered while this process holds the view."""


class TableLayout(_Answering, discord.ui.LayoutView):
    """A Components V2 message (containers, sections, text, with buttons and select menus)."""


class TableForm(Taking, discord.ui.Modal):
    """A form (`open_form` opens it): its answer is private unless the subclass says
    `private = False`. Kept FORM_SECONDS for its submission."""

    private: bool = True

    def __init__(self, *, title: str = MISSING, timeout: float | None = FORM_SECONDS) -> None:
        super().__init__(
            title=title, timeout=timeout, custom_id=f"{OURS}form:{os.urandom(8).hex()}"
        )

    async def on_error(  # type: ignore[override]  # a form has no item
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await answer_error(interaction, error, f"form {type(self).__name__}")
