"""`/help`: every command and an example, read from the bot's own command tree so it never
drifts from what is registered. Only the examples are written by hand, in `EXAMPLES`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import anywhere, needs_server
from bot.translator import in_language
from cogs._reply import private, reply
from lang import N_, _
from render.common import NEUTRAL
from rules.errors import RulesError

# One example per command, by its full name. A command without one is still listed. Command and
# option names are the same in every language; an example with words of its own (a label, a
# spot, a choice's name, a compass point) is marked, and shown with them translated.
EXAMPLES: dict[str, str] = {
    "save tsr": N_("/save tsr vs:7 label:Poison"),
    "save wsr": "/save wsr level:5 stat:10 dc:80 per:5 secret:True",
    "save party": "/save party kind:wsr spell:123 secret:True",
    "roll": N_("/roll 2d6+3 label:Sneak attack secret:True"),
    "dice report": "/dice report since:all character:Bórin",
    "character create": "/character create name:Bórin level:5 classes:d10/5 constitution:16",
    "character set": "/character set name:Bórin fortitude:10 special_wsr:5 base_hd:4+1",
    "character show": "/character show name:Bórin",
    "character use": "/character use name:Bórin",
    "character list": "/character list",
    "character remove": "/character remove name:Bórin",
    "fatigue spend": "/fatigue spend amount:3",
    "fatigue recover": "/fatigue recover amount:5 character:Bórin",
    "fatigue temp": "/fatigue temp amount:4 minutes:10",
    "fatigue clear_vp": "/fatigue clear_vp character:Bórin",
    "fatigue show": "/fatigue show character:Bórin",
    "party show": "/party show",
    "party chart": "/party chart character:Bórin since:day",
    "party spend": "/party spend amount:2",
    "party reset": "/party reset",
    "rest break": "/rest break",
    "rest short": "/rest short character:Aria, Bórin",
    "rest long": "/rest long",
    "rest minutes": "/rest minutes minutes:20",
    "clock show": "/clock show",
    "clock round": "/clock round count:3",
    "clock pass": "/clock pass minutes:10",
    "clock set": "/clock set day:2 time:18:00",
    "monster-build": N_(
        "/monster-build rank:3 armor:heavy trade:2 spots:back armor_enchantments:1 2"
    ),
    "monster create": "/monster create name:Goblin rank:1 armor:light hp:10 count:3 init_bonus:2",
    "monster appear": "/monster appear name:Goblin",
    "monster bring": "/monster bring from:#prep name:Troll",
    "monster show": "/monster show name:Troll public:True",
    "monster list": "/monster list",
    "monster remove": "/monster remove defeated:True",
    "monster face": "/monster face name:Troll facing:E",
    "monster reveal": N_("/monster reveal name:Troll spot:back"),
    "monster hit": N_("/monster hit name:Troll damage:18 from:W"),
    "init add": "/init add name:Troll score:1d10+3",
    "init remove": "/init remove name:Troll",
    "init start": "/init start",
    "init next": "/init next",
    "init prev": "/init prev",
    "init show": "/init show",
    "init end": "/init end",
    "settings show": "/settings show",
    "settings set": "/settings set ties:succeed init_dice:1d20 monster_stats:shown",
    "settings server": "/settings server rest_rate:2 long_minutes:240",
    "history": "/history",
    "undo": "/undo",
    "redo": "/redo",
    "export": "/export",
    "import": "/import file:tablekeeper-export.json",
    "table link": "/table link",
    "table revoke": "/table revoke",
    "help": "/help command:character create",
    "about": "/about",
}

# Where every rule, table and number is explained (a file in the bot's source).
RULES_REFERENCE = N_("The rules, table by table: docs/rules.md in Tablekeeper's source")
ANYWHERE = N_(
    "Anywhere: a server, a DM with Tablekeeper, or a group DM when you have added Tablekeeper "
    "to your account"
)
IN_SERVER = N_("In a server channel: it uses that channel's table")
SERVER_COMMANDS = N_(
    "Characters, fatigue, rests, the clock, monsters kept in a bestiary, settings, /history and "
    "/undo work in a server channel where Tablekeeper is installed"
)
EMBED_MAX = 6000  # Discord's limit on all the text of one embed
FIELD_MAX = 1024
FIELDS_MAX = 25


@dataclass(frozen=True)
class HelpEntry:
    """One command a user can type: `/character create`."""

    name: str  # full name without the slash: "character create"
    description: str
    options: tuple[tuple[str, str, bool], ...]  # (name, description, required)
    example: str | None
    anywhere: bool = False  # runs in DMs and group DMs too (`bot.contexts.anywhere`)

    @property
    def top(self) -> str:
        return self.name.split()[0]


def entries(tree_commands: Iterable[app_commands.Command | app_commands.Group]) -> list[HelpEntry]:
    """Every command users can run (subcommands rather than their groups), sorted by name,
    described in the current language (the catalogs' Spanish is what `sync` registers)."""
    found: list[HelpEntry] = []
    for command in tree_commands:
        leaves = command.walk_commands() if isinstance(command, app_commands.Group) else [command]
        for leaf in leaves:
            if isinstance(leaf, app_commands.Group):
                continue  # its subcommands are walked too
            options = tuple(
                (p.display_name, in_language(p.locale_description or p.description), p.required)
                for p in leaf.parameters
            )
            name = leaf.qualified_name
            example = EXAMPLES.get(name)
            everywhere = not needs_server(leaf)
            description = in_language(str(leaf.description))
            found.append(HelpEntry(name, description, options, example, everywhere))
    return sorted(found, key=lambda e: e.name)


def _line(entry: HelpEntry, with_example: bool) -> str:
    line = f"`/{entry.name}` — {entry.description}"
    if with_example and entry.example:
        line += "\n  " + _("e.g. `{example}`", example=_(entry.example))
    return line


def _group_lines(entries: Sequence[HelpEntry], shown: set[str]) -> dict[str, list[str]]:
    """Each top-level command's lines, with the examples of the commands in `shown`."""
    groups: dict[str, list[str]] = {}
    for entry in entries:
        groups.setdefault(entry.top, []).append(_line(entry, entry.name in shown))
    return groups


def _fields(lines: Sequence[str]) -> list[str]:
    """The lines in as few field values as hold them, whole lines each (a single line too long
    for a field is clipped)."""
    values: list[str] = []
    for line in lines:
        line = _clip(line, FIELD_MAX)
        if values and len(values[-1]) + 1 + len(line) <= FIELD_MAX:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def overview_embed(all_entries: Sequence[HelpEntry]) -> discord.Embed:
    """All commands grouped by top-level command, with as many examples as fit in one embed:
    when they don't all fit, the largest group gives up its examples first, so a command with
    few siblings keeps its own."""
    shown = {e.name for e in all_entries if e.example}
    while True:
        groups = _group_lines(all_entries, shown)
        embed = discord.Embed(title=_("Tablekeeper commands"), colour=NEUTRAL)
        for index, (top, lines) in enumerate(groups.items()):
            if index == FIELDS_MAX - 1 and len(groups) > FIELDS_MAX:
                rest = ", ".join(f"/{name}" for name in list(groups)[index:])
                embed.add_field(name=_("More"), value=_clip(rest, FIELD_MAX), inline=False)
                break
            embed.add_field(name=f"/{top}", value=_clip("\n".join(lines), FIELD_MAX), inline=False)
        footer = _(
            "Details and an example: /help command:<name> · {reference}",
            reference=_(RULES_REFERENCE),
        )
        embed.set_footer(text=footer)
        if len(embed) <= EMBED_MAX or not shown:
            return embed  # without any example and still too long, fields are clipped
        largest = max(
            (top for top in groups if any(e.top == top and e.name in shown for e in all_entries)),
            key=lambda top: len("\n".join(groups[top])),
        )
        shown -= {e.name for e in all_entries if e.top == largest}


def detail_embed(all_entries: Sequence[HelpEntry], name: str) -> discord.Embed:
    """One command (`character create`) or every subcommand of a group (`character`)."""
    wanted = " ".join(name.lower().lstrip("/").split())
    matching = [e for e in all_entries if e.name == wanted or e.top == wanted]
    if not matching:
        raise RulesError(
            _("There is no command /{name}: see `/help` for the list", name=wanted[:50])
        )
    if len(matching) > 1 or matching[0].name != wanted:
        embed = discord.Embed(title=f"/{wanted}", colour=NEUTRAL)
        embed.description = _clip("\n".join(_line(e, True) for e in matching), 4096)
        embed.set_footer(text=_("Details: /help command:{name}", name=matching[0].name))
        return embed
    entry = matching[0]
    embed = discord.Embed(title=f"/{entry.name}", description=entry.description, colour=NEUTRAL)
    if entry.options:
        lines = [
            _("`{option}` (required) — {text}", option=option, text=text)
            if required
            else f"`{option}` — {text}"
            for option, text, required in entry.options
        ]
        # A command with many options (`/settings set`) fills more than one field.
        for index, value in enumerate(_fields(lines)):
            name = _("Options") if index == 0 else _("More options")
            embed.add_field(name=name, value=value, inline=False)
    if entry.example:
        embed.add_field(name=_("Example"), value=f"`{_(entry.example)}`", inline=False)
    where = ANYWHERE if entry.anywhere else IN_SERVER
    embed.add_field(name=_("Where"), value=_(where), inline=False)
    return embed


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def _entries(self) -> list[HelpEntry]:
        chat = self.bot.tree.get_commands(type=discord.AppCommandType.chat_input)
        return entries(c for c in chat if isinstance(c, app_commands.Command | app_commands.Group))

    @anywhere
    @app_commands.command(name="help", description=N_("What each command does, with an example"))
    @private()
    @app_commands.describe(command=N_("One command for details, e.g. character create"))
    async def help(self, interaction: discord.Interaction, command: str | None = None) -> None:
        found = self._entries()
        if command is not None:
            embed = detail_embed(found, command)
        elif interaction.guild_id is None:  # a DM: what works here, and where the rest does
            embed = overview_embed([e for e in found if e.anywhere])
            embed.title = _("Tablekeeper commands that work here")
            embed.description = _(SERVER_COMMANDS)
        else:
            embed = overview_embed(found)
        await reply(interaction, embed=embed)

    @help.autocomplete("command")
    async def _command_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = " ".join(current.lower().lstrip("/").split())
        found = self._entries()
        names = sorted({e.top for e in found} | {e.name for e in found})
        return [app_commands.Choice(name=f"/{n}", value=n) for n in names if typed in n][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
