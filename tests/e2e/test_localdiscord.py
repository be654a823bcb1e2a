"""The local Discord itself, driven by a small throwaway discord.py client defined here."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.localdiscord.client import DiscordViolation, LocalDiscord
from tests.localdiscord.commands import CommandLineError, parse_command_line
from tests.localdiscord.fixtures import local_discord, running
from tests.localdiscord.validate import validate_request

__all__ = ["local_discord"]  # the fixture, imported for pytest to find

CALLBACK = "/interactions/1/token/callback"
NAMES = ["Aragorn", "Arwen", "Boromir"]


class SpendView(discord.ui.View):
    def __init__(self, fp: int) -> None:
        super().__init__(timeout=60)
        self.fp = fp

    @discord.ui.button(label="Spend 1 FP", style=discord.ButtonStyle.primary)
    async def spend(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.fp += 1
        await interaction.response.edit_message(content=f"FP {self.fp}", view=self)


class NoteModal(discord.ui.Modal, title="Note"):
    text: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(label="Text", custom_id="text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}")


def make_client(sync_on_start: bool = True) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)
    save = app_commands.Group(name="save", description="Save rolls")

    @save.command(name="wsr", description="Wisdom save")
    async def wsr(
        interaction: discord.Interaction,
        level: app_commands.Range[int, 1, 50],
        vs: int,
        character: str | None = None,
    ) -> None:
        embed = discord.Embed(title=f"WSR for {character or 'nobody'}")
        embed.add_field(name="Level", value=str(level)).add_field(name="vs", value=str(vs))
        await interaction.response.send_message(embed=embed, view=SpendView(0))

    @wsr.autocomplete("character")
    async def names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=n) for n in NAMES if n.startswith(current)]

    @tree.command(description="Think, then answer privately")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")

    @tree.command(description="Who is that, and may they run the table here?")
    async def whois(interaction: discord.Interaction, who: discord.Member) -> None:
        gm = interaction.permissions.manage_channels
        await interaction.response.send_message(f"{who.name}; caller GM here: {gm}", ephemeral=True)

    @tree.command(description="An embed with n fields")
    async def fields(interaction: discord.Interaction, n: int) -> None:
        embed = discord.Embed(title="many")
        for i in range(n):
            embed.add_field(name=str(i), value="x")
        await interaction.response.send_message(embed=embed)

    @tree.command(description="Open a modal")
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @tree.command(description="Answer too late")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.4)
        await interaction.response.send_message("sorry")

    tree.add_command(save)
    client.tree = tree  # type: ignore[attr-defined]  # as commands.Bot has one

    async def sync_tree() -> None:  # a setup_hook returns None; sync returns the commands
        await tree.sync()

    if sync_on_start:
        client.setup_hook = sync_tree  # type: ignore[method-assign]
    return client


async def test_slash_command_with_options_then_button_edits_message(
    local_discord: LocalDiscord,
) -> None:
    d = local_discord
    async with running(make_client(), d):
        reply = await d.slash("save wsr", user=d.player, level=5, vs=7, character="Arwen")
        assert reply.embed["title"] == "WSR for Arwen"
        assert "Level: 5" in reply.text and "vs: 7" in reply.text
        assert not reply.ephemeral and not reply.deferred
        clicked = await d.click(reply, "Spend 1 FP", user=d.player)
        assert clicked.message_id == reply.message_id
        assert clicked.content == "FP 1"
        again = await d.click(clicked, "Spend 1 FP", user=d.gm)
        assert again.content == "FP 2"


async def test_registered_commands_are_stored_with_ids(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(sync_on_start=False), d, sync=True):
        names = {c["name"]: c for c in d.commands()}
        assert {"save", "slow", "whois", "fields", "note", "late"} <= set(names)
        assert names["save"]["options"][0]["name"] == "wsr"
        assert len({c["id"] for c in names.values()}) == len(names)


async def test_defer_then_followup_is_the_final_reply(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        reply = await d.slash("slow", user=d.player)
        assert reply.callback_type == 5 and reply.deferred
        assert reply.content == "done thinking" and reply.ephemeral


async def test_autocomplete_returns_the_bots_choices(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        choices = await d.autocomplete("save wsr", "character", "Ar", user=d.player, level=3)
        assert [c["name"] for c in choices] == ["Aragorn", "Arwen"]


async def test_member_permissions_follow_roles_and_overwrites(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        as_gm = await d.slash("whois", user=d.gm, who=d.player)
        as_named_gm = await d.slash("whois", user=d.named_gm, who=d.player)
        as_player = await d.slash("whois", user=d.player, who=d.gm)
        at_side = await d.slash("whois", user=d.player, who=d.gm, channel=d.side_table)
    assert as_gm.content == "pippa; caller GM here: True"
    assert as_named_gm.content.endswith("False") and as_player.content.endswith("False")
    assert at_side.content == "gandra; caller GM here: True"  # the Players overwrite
    with pytest.raises(CommandLineError, match="cannot see"):
        await d.slash("whois", user=d.player, who=d.gm, channel=d.gm_notes)


async def test_modal_is_shown_and_submitted(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        modal = await d.slash("note", user=d.player)
        assert modal.modal is not None and modal.modal["title"] == "Note"
        reply = await d.submit_modal(modal, {"text": "orcs ahead"}, user=d.player)
        assert reply.content == "noted: orcs ahead"


async def test_resume_after_dropped_socket(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        await d.drop_connection()
        reply = await d.slash("save wsr", user=d.player, level=2, vs=1)
        assert reply.embed["title"] == "WSR for nobody"
    assert d.server.gateway.resumes == 1 and d.server.gateway.connections == 2


async def test_bot_output_discord_would_reject_fails_the_test(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        assert (await d.slash("fields", user=d.player, n=25)).embed["title"] == "many"
        with pytest.raises(DiscordViolation, match="maxItems 25"):
            await d.slash("fields", user=d.player, n=26)
        assert d.take_violations()


async def test_late_answer_is_a_violation(local_discord: LocalDiscord) -> None:
    d = local_discord
    d.server.deadline = 0.2  # Discord's 3 s, shortened to keep the test quick
    async with running(make_client(), d):
        with pytest.raises(DiscordViolation, match="answered after"):
            await d.slash("late", user=d.player)
        assert d.take_violations()


async def test_unknown_route_is_recorded() -> None:
    async with LocalDiscord() as d, running(make_client(), d) as client:
        with pytest.raises(discord.NotFound):
            await client.http.request(discord.http.Route("GET", "/nowhere"))
        assert d.violations == ["unknown route: GET /nowhere"]


async def test_slash_checks_options_like_discords_client(local_discord: LocalDiscord) -> None:
    d = local_discord
    async with running(make_client(), d):
        with pytest.raises(CommandLineError, match="between 1 and 50"):
            await d.slash("save wsr", user=d.player, level=99, vs=1)
        with pytest.raises(CommandLineError, match="missing required option 'vs'"):
            await d.slash("save wsr", user=d.player, level=1)
        reply = await d.type("/save wsr level:4 vs:2 character:Boromir", user=d.player)
        assert reply.embed["title"] == "WSR for Boromir"


COMMANDS: list[dict[str, Any]] = [
    {
        "id": "1",
        "name": "save",
        "description": "Save rolls",
        "options": [
            {
                "type": 1,
                "name": "wsr",
                "description": "Wisdom save",
                "options": [
                    {"type": 4, "name": "level", "description": "Level", "required": True},
                    {"type": 4, "name": "vs", "description": "Attack level", "required": True},
                    {"type": 3, "name": "character", "description": "Who"},
                ],
            }
        ],
    },
    {"id": "2", "name": "fatigue", "description": "Fatigue", "options": []},
]


def test_parse_command_line_types_the_options() -> None:
    path, options = parse_command_line('/save wsr level:5 vs:7 character:"Ar wen"', COMMANDS)
    assert (path, options) == ("save wsr", {"level": 5, "vs": 7, "character": "Ar wen"})


def test_a_value_typed_after_the_command_fills_its_first_option() -> None:
    # As Discord's client does: `/save wsr 5 vs:7` puts 5 in the first option's box.
    assert parse_command_line("/save wsr 5 vs:7", COMMANDS) == ("save wsr", {"level": 5, "vs": 7})
    with_text = parse_command_line('/save wsr 5 vs:7 character:"Ar wen"', COMMANDS)
    assert with_text[1]["character"] == "Ar wen"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/save wsr 5 level:6 vs:7", "Option 'level' given twice"),
        ("/save wsr five vs:7", "Option 'level' needs an integer, not 'five'"),
        ("/fatigue 3", "/fatigue takes no options, not '3'"),
        ("/sav wsr level:5 vs:7", "Unknown command /sav. Did you mean /save?"),
        ("/save wisdom level:5", "has no subcommand 'wisdom'. Subcommands: wsr"),
        ("/save wsr lvl:5 vs:7", "Did you mean 'level'? Options: level (integer, required)"),
        ("/save wsr level:five vs:7", "Option 'level' needs an integer, not 'five'"),
        ("/save wsr level:5", "missing required option 'vs'"),
    ],
)
def test_parse_command_line_explains_typos(line: str, message: str) -> None:
    with pytest.raises(CommandLineError) as caught:
        parse_command_line(line, COMMANDS)
    assert message in str(caught.value)


def _message(**data: object) -> dict[str, object]:
    return {"type": 4, "data": data}


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    [
        (
            "post",
            CALLBACK,
            _message(embeds=[{"fields": [{"name": "a", "value": "v" * 1025}]}]),
            "maxLength 1024",
        ),
        (
            "post",
            CALLBACK,
            _message(embeds=[{"fields": [{"name": "a", "value": "v"}] * 26}]),
            "maxItems 25",
        ),
        (
            "put",
            "/applications/1/commands",
            [{"name": "save", "description": "d" * 101}],
            "is too long",
        ),
        # Limits the spec leaves out (tests/localdiscord/limits.py):
        ("put", "/applications/1/commands", [{"name": "Save", "description": "d"}], "lowercase"),
        (
            "put",
            "/applications/1/commands",
            [{"name": "save", "description": ""}],
            "needs a description",
        ),
        (
            "post",
            CALLBACK,
            _message(embeds=[{"description": "d" * 4096}, {"description": "d" * 2000}]),
            "max 6000",
        ),
        ("post", CALLBACK, _message(), "empty message"),
        (
            "post",
            "/webhooks/1/t",
            {
                "components": [
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "x"}] * 2,
                    }
                ]
            },
            "used twice",
        ),
    ],
)
def test_validator_catches_what_discord_rejects(
    method: str, path: str, body: object, expected: str
) -> None:
    problems = validate_request(method, path, body)
    assert any(expected in p for p in problems), problems


def test_validator_accepts_a_valid_reply() -> None:
    body = _message(content="ok", embeds=[{"title": "t", "fields": [{"name": "a", "value": "b"}]}])
    assert validate_request("post", CALLBACK, body) == []
