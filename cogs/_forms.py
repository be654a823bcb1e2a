"""Forms that stand for a command's options (`/character create`, `/character set`,
`/monster create` with no options): docs/architecture.md, "Adding a button, a menu or a form".

Each field of a `CommandForm` is one option of its command. Submitted, the fields are read as
those options and checked by the limits the command declares (`bot.options.check_fields`, the
check every typed option meets), then handed to the function the command itself runs with
typed options, whose rules check the rest: one path for both. A value either refuses is
answered privately, nothing made, with an "Open the form" button (`FormAgain`, a `TableButton`)
that opens the form again with what was typed. What was typed is kept in this process's memory
for the reply's 15 minutes (`Drafts`); after a restart, or later, the button opens the form as
it first opened, and the form says why.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self
from weakref import WeakKeyDictionary

import discord

from bot.ack import ack_of
from bot.options import BadOptions, check_fields
from bot.tree import TablekeeperTree
from cogs._buttons import TableButton, buttons_view
from cogs._reply import OPEN_FORM, open_form, reply
from cogs._several import names_text
from cogs._views import FORM_SECONDS, TableForm
from lang import N_, _
from rules.errors import RulesError
from table.model import Forbidden

Raw = dict[str, str | list[str]]  # each field's text, or a menu's picks, by the option it is
DRAFTS_KEPT = 1000  # refused forms' drafts kept at most, the oldest dropped first
DRAFT_CODE = r"(?P<draft>[0-9a-f]{16})"
KEPT = N_("What you typed is kept for 15 minutes: open the form to change it")
LOST = N_("What you typed is gone (the bot restarted, or 15 minutes passed): fill it in again.")
NEEDS = N_("{command} needs {options} too, or no options at all to fill in a form")
TITLE_MAX, LABEL_MAX = 45, 45  # Discord's limits on a form's title and a field's label


def given_options(interaction: discord.Interaction) -> set[str]:
    """The options the command was given (discord.py's namespace holds only those)."""
    return {name for name, _value in interaction.namespace}


def require(command: str, given: Collection[str], needed: Sequence[str]) -> None:
    """Refuse a command given some options but not all it needs (as Discord's client refused
    it while they were required): "`/monster create` needs `rank` and `armor` too"."""
    absent = [name for name in needed if name not in given]
    if absent:
        raise missing(command, absent)


def missing(command: str, names: Sequence[str]) -> RulesError:
    shown, where = names_text([f"`{name}`" for name in names]), f"`/{command}`"
    return RulesError(_(NEEDS, command=where, options=shown))


@dataclass(frozen=True)
class Draft:
    user_id: int  # who typed it: only they reopen it
    raw: Raw
    until: float  # time.monotonic() past which it is gone


class Drafts:
    """What was typed in refused forms, by a random code a `FormAgain` button carries: kept
    FORM_SECONDS, at most DRAFTS_KEPT, in memory only."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Draft] = OrderedDict()

    def keep(self, user_id: int, raw: Raw) -> str:
        now = time.monotonic()
        while self._kept and (
            next(iter(self._kept.values())).until < now or len(self._kept) >= DRAFTS_KEPT
        ):
            self._kept.popitem(last=False)
        code = os.urandom(8).hex()
        self._kept[code] = Draft(user_id, raw, now + FORM_SECONDS)
        return code

    def find(self, code: str, user_id: int) -> Raw | None:
        draft = self._kept.get(code)
        if draft is None or draft.user_id != user_id or draft.until < time.monotonic():
            return None
        return draft.raw


_DRAFTS: WeakKeyDictionary[discord.Client, Drafts] = WeakKeyDictionary()


def drafts_of(client: discord.Client) -> Drafts:
    """The drafts this bot keeps (a restarted bot is a new client, and keeps none)."""
    found = _DRAFTS.get(client)
    if found is None:
        found = _DRAFTS[client] = Drafts()
    return found


def declaration(interaction: discord.Interaction, command: str) -> Mapping[str, Any]:
    """`command`'s declaration to Discord ("character create"), as the tree checks options by."""
    tree = interaction.client.tree  # type: ignore[attr-defined]  # a Bot's
    if not isinstance(tree, TablekeeperTree):
        raise TypeError("forms need the bot's own command tree")
    top, *path = command.split()
    found: Any = tree.get_command(top)
    for name in path:
        found = found.get_command(name)
    return tree.declarations.of(found)


class CommandForm(TableForm):
    """A form whose fields are options of `command`, filled from `raw` (what was typed before,
    or what is stored). Subclasses add the fields (`text`, `choice`) and `submitted`, which runs
    what the command runs, and `again`, the button that opens the form anew."""

    def __init__(self, command: str, title: str, *, lost: bool = False) -> None:
        super().__init__(title=title[:TITLE_MAX])
        self.command = command
        self.lost = lost
        self.fields: dict[str, tuple[str, discord.ui.Item[Any]]] = {}  # option -> label, item

    def text(
        self,
        option: str,
        label: str,
        raw: Raw,
        *,
        max_length: int,
        required: bool = False,
        description: str | None = None,
    ) -> None:
        """A field typed as text: a name, or a number as the option reads it."""
        filled = raw.get(option)
        item: discord.ui.TextInput[Any] = discord.ui.TextInput(
            max_length=max_length,
            required=required,
            default=filled[:max_length] if isinstance(filled, str) and filled else None,
        )
        self._add(option, label, item, description)

    def choice(
        self,
        option: str,
        label: str,
        choices: Sequence[tuple[str, str]],
        raw: Raw,
        *,
        kind: type[discord.ui.Item[Any]] = discord.ui.Select,
        required: bool = False,
        description: str | None = None,
    ) -> None:
        """A field chosen among `choices` (label, value): a menu (`kind` Select), a radio group
        (RadioGroup: one, always shown) or a checkbox group (CheckboxGroup: any number)."""
        filled = raw.get(option) or []
        picked = [filled] if isinstance(filled, str) else filled
        item: discord.ui.Item[Any]
        if kind is discord.ui.RadioGroup:
            item = discord.ui.RadioGroup(
                required=required,
                options=[
                    discord.RadioGroupOption(label=shown, value=value, default=value in picked)
                    for shown, value in choices
                ],
            )
        elif kind is discord.ui.CheckboxGroup:
            item = discord.ui.CheckboxGroup(
                required=required,
                min_values=1 if required else 0,
                max_values=len(choices),
                options=[
                    discord.CheckboxGroupOption(label=shown, value=value, default=value in picked)
                    for shown, value in choices
                ],
            )
        else:
            item = discord.ui.Select(
                required=required,
                min_values=1 if required else 0,
                options=[
                    discord.SelectOption(label=shown, value=value, default=value in picked)
                    for shown, value in choices
                ],
            )
        self._add(option, label, item, description)

    def _add(
        self, option: str, label: str, item: discord.ui.Item[Any], description: str | None
    ) -> None:
        if self.lost and not self.fields:  # said once, under the first field
            description = _(LOST)
        self.fields[option] = (label[:LABEL_MAX], item)
        self.add_item(
            discord.ui.Label(text=label[:LABEL_MAX], component=item, description=description)
        )

    def filled(self) -> Raw:
        """What each field holds now: its text, or what is picked in it."""
        return {option: _filled(item) for option, (_label, item) in self.fields.items()}

    async def on_submit(self, interaction: discord.Interaction) -> None:
        raw = self.filled()
        fields = {option: (self.fields[option][0], _text(value)) for option, value in raw.items()}
        try:
            options = check_fields(declaration(interaction, self.command), fields)
            await self.submitted(interaction, options)
        except (RulesError, BadOptions) as error:
            # Who may do it is no typing error, and a change saved is said as saved: the
            # error handler's. Anything else was refused before a change: say it, offer the form.
            if isinstance(error, Forbidden) or ack_of(interaction).saved is not None:
                raise
            ack_of(interaction).outcome = "refused"
            code = drafts_of(interaction.client).keep(interaction.user.id, raw)
            text = f"{error}\n{_(KEPT)}"
            await reply(interaction, text, view=buttons_view(self.again(code)), private=True)

    async def submitted(self, interaction: discord.Interaction, options: dict[str, Any]) -> None:
        """Do what the command does with these options (checked by its declaration)."""
        raise NotImplementedError

    def again(self, code: str) -> FormAgain:
        """The "Open the form" button for the draft kept as `code`."""
        raise NotImplementedError


def _filled(item: discord.ui.Item[Any]) -> str | list[str]:
    if isinstance(item, discord.ui.TextInput):
        return item.value
    if isinstance(item, discord.ui.RadioGroup):
        return item.value or ""
    if isinstance(item, discord.ui.Select | discord.ui.CheckboxGroup):
        return list(item.values)
    raise TypeError(f"no field of a form: {item!r}")


def _text(value: str | list[str]) -> str:
    """A field's value as the option's text: picks are listed as a typed option lists them."""
    return value if isinstance(value, str) else ", ".join(value)


class FormAgain(TableButton, template=r"(?!)"):
    """ "Open the form" under a refused form: the form again with what was typed, or, when this
    process no longer keeps it, as it first opened, saying so. Subclasses give a `template`
    (`PREFIX:` + DRAFT_CODE, then anything `form` needs), PREFIX and `form`."""

    PREFIX = ""
    private = True

    def __init__(self, code: str, *more: str) -> None:
        self.code, self.more = code, more
        custom_id = ":".join((self.PREFIX, code, *more))
        super().__init__(custom_id, _(OPEN_FORM), style=discord.ButtonStyle.primary)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        groups = match.groupdict()
        return cls(groups.pop("draft"), *groups.values())

    async def clicked(self, interaction: discord.Interaction) -> None:
        raw = drafts_of(interaction.client).find(self.code, interaction.user.id)
        await open_form(interaction, self.form(interaction, raw))

    def form(
        self, interaction: discord.Interaction, raw: Raw | None
    ) -> discord.ui.Modal | Awaitable[discord.ui.Modal]:
        """The form filled with `raw`; None: what was typed is gone."""
        raise NotImplementedError
