"""Buttons that keep working after a restart: `DynamicItem`s whose custom_id (`tk:…`) holds
everything a click needs besides the store, taken and answered like commands.

discord.py (2.7) runs a dynamic item's `interaction_check` and `callback` outside the tree's
`on_error` and outside any View's `on_error`: an exception there is only logged, and the click
is left unanswered ("This interaction failed"). So `TableButton.callback` catches everything and
answers through `bot.tree.answer_error`, and who may click is checked inside `clicked`, never in
`interaction_check` (whose exceptions discord.py swallows). `from_custom_id` must neither fail
nor wait (it only reads the custom_id): templates bound every number's digits, the values are
checked when clicked, and the click is taken (`interaction_check`) in the same step as
discord.py's dispatch, before anything could answer it as unclaimed.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.tree import answer_error
from cogs._views import Taking
from lang import _

CUSTOM_ID_MAX = 100  # Discord's limit, in characters
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
ID_CODE = r"[0-9a-z]{1,13}"  # a snowflake (< 2**64) in base 36


def id_code(snowflake: int) -> str:
    """A Discord id in base 36: 13 characters at most instead of 20, room in a custom_id."""
    if snowflake < 0:
        raise ValueError("ids are not negative")
    digits = ""
    while True:
        snowflake, digit = divmod(snowflake, 36)
        digits = _BASE36[digit] + digits
        if not snowflake:
            return digits


def id_from_code(code: str) -> int:
    return int(code, 36)


def optional_int(text: str) -> int | None:
    """An empty custom_id piece means "not given"."""
    return int(text) if text else None


def optional_text(value: int | None) -> str:
    return "" if value is None else str(value)


class TableButton(Taking, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button answered like a command. Subclasses give a `template` (starting `tk:`),
    `from_custom_id` and `clicked`, and `private = True` if its answer is; this base is never
    registered (its template matches nothing)."""

    def __init__(
        self,
        custom_id: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        if len(custom_id) > CUSTOM_ID_MAX:  # a bug: each template keeps its pieces short
            raise ValueError(f"custom_id longer than {CUSTOM_ID_MAX}: {custom_id!r}")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id, disabled=disabled
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.clicked(interaction)
        except Exception as error:
            await answer_error(interaction, error, f"button {self.custom_id!r}")

    async def clicked(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class FixedButton(TableButton, template=r"(?!)"):
    """A button whose custom_id is all it needs: a subclass says
    `class Peek(FixedButton, custom_id="tk:secret:peek")` and gives `text` (its label,
    translated when shown) and `clicked`. This base is never registered."""

    fixed_id: ClassVar[str] = ""
    text: ClassVar[str] = ""

    def __init_subclass__(cls, *, custom_id: str, **kwargs: Any) -> None:
        cls.fixed_id = custom_id
        super().__init_subclass__(template=re.escape(custom_id), **kwargs)

    def __init__(self) -> None:
        super().__init__(self.fixed_id, _(self.text))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls()


class NamedButton(TableButton, template=r"(?!)"):
    """A button about one character or monster: its custom_id is its class's `prefix`, then the
    name (last: a name may hold any text); its label `text`. A subclass says
    `class Sheet(NamedButton, prefix="tk:sheet:")` and gives `text` and `clicked`. This base is
    never registered."""

    prefix: ClassVar[str] = ""
    text: ClassVar[str] = ""  # the label, translated when shown
    colour: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init_subclass__(cls, *, prefix: str, **kwargs: Any) -> None:
        cls.prefix = prefix
        super().__init_subclass__(template=re.escape(prefix) + r"(?P<name>.*)", **kwargs)

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"{self.prefix}{name}", _(self.text), style=self.colour)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"])


def buttons_view(*buttons: TableButton) -> discord.ui.View:
    """A view of dynamic buttons only: nothing of it is kept in memory after it is sent. It is
    stopped before it is sent: its clicks come to the dynamic items registered with the client
    (`add_dynamic_items`), never to the view, so discord.py need not file it after sending."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    view.stop()
    return view
