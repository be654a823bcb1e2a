"""/roll through the real client and the local Discord."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Scripted, snapshot
from tests.localdiscord.commands import CommandLineError

pytestmark = pytest.mark.asyncio


def script(env: Any, *faces: int) -> Scripted:
    dice = Scripted(faces)
    env.bot.get_cog("Roll").rng = dice
    return dice


async def test_open_ended_roll_with_a_modifier_shows_every_die(env: Any) -> None:
    dice = script(env, 97, 99, 43)
    reply = await env.discord.type("/roll mod:5", user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == "d100 (open-ended high): 244"
    assert reply.embed["description"] == "97 → +99 → +43 = 239\n239 +5 = **244**"
    assert dice.faces == []  # every scripted die was used


async def test_plain_roll(env: Any) -> None:
    script(env, 42)
    reply = await env.discord.slash("roll", user=env.discord.player2)
    assert reply.embed["title"] == "d100: 42"


async def test_dice_expression(env: Any) -> None:
    script(env, 2, 6)
    reply = await env.discord.type("/roll dice:2d6+3", user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == "2d6+3: 11"
    assert reply.embed["description"] == "2d6 (2, **6**) + 3 = `11`"


async def test_dice_typed_right_after_the_command_roll(env: Any) -> None:
    # What a player types after /roll fills the first option, `dice`, as Discord does.
    script(env, 2, 6)
    reply = await env.discord.type("/roll 2d6+3", user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == "2d6+3: 11"


@pytest.mark.parametrize(("typed", "mod"), [("/roll 25", 25), ("/roll -10", -10), ("/roll +7", 7)])
async def test_a_plain_number_typed_right_after_the_command_is_the_d100s_modifier(
    env: Any, typed: str, mod: int
) -> None:
    script(env, 42)
    reply = await env.discord.type(typed, user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == f"d100: {42 + mod}"
    working = reply.embed["description"].replace("\u2212", "-")
    assert working == f"42\n42 {mod:+d} = **{42 + mod}**"


async def test_keep_highest(env: Any) -> None:
    script(env, 4, 1, 5, 3)
    reply = await env.discord.slash("roll", user=env.discord.player, dice="4d6kh3")
    assert reply.embed["title"] == "4d6kh3: 12"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"dice": "2d6+banana"}, "I can't read `2d6+banana` as dice"),
        ({"dice": "1d1e1"}, "too many dice"),
        ({"dice": "5000d6"}, "too many dice"),
        ({"dice": "1d6/0"}, "Cannot divide by zero"),
        ({"dice": "2d6", "mod": 3}, "Put the modifier inside `dice:` (e.g. `2d6+3`)"),
        ({"dice": "25", "mod": 3}, "Give the d100's modifier once: `/roll +28`"),
        ({"dice": "5000"}, "The d100's modifier is between −1000 and +1000"),
    ],
)
async def test_bad_rolls_are_private_errors_and_change_nothing(
    env: Any, options: dict[str, Any], says: str
) -> None:
    before = await snapshot(env)
    reply = await env.discord.slash("roll", user=env.discord.player, **options)
    assert reply.ephemeral
    assert says in reply.content
    assert not reply.embeds
    assert await snapshot(env) == before


async def test_discord_refuses_an_overlong_expression(env: Any) -> None:
    # The option is registered with max_length 100, so Discord never sends this to the bot.
    with pytest.raises(CommandLineError, match="1-100 characters"):
        await env.discord.slash("roll", user=env.discord.player, dice="1+" * 50 + "1")


async def test_a_thousand_dice_show_their_total_not_a_wall_of_numbers(env: Any) -> None:
    script(env, *([6] + [2] * 999))
    reply = await env.discord.slash("roll", user=env.discord.player, dice="1000d6kh1+5")
    assert reply.embed["title"] == "1000d6kh1+5: 11"
    assert reply.embed["description"] == (
        "1000d6kh1 (total 6) + 5 = `11`\n*1000 dice: too many to show each one*"
    )


async def test_an_annotation_is_shown_as_typed_not_as_markdown(env: Any) -> None:
    script(env, 4)
    reply = await env.discord.slash("roll", user=env.discord.player, dice="1d6 [`@everyone *x*]")
    # Escaped: the backtick can't swallow the total, nothing turns bold or into a mention.
    assert reply.embed["description"] == "1d6 (4) [\\`\\@everyone \\*x\\*] = `4`"


async def test_a_phone_capitalised_die_still_rolls(env: Any) -> None:
    script(env, 17)
    reply = await env.discord.type("/roll dice:D20", user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == "D20: 17"
    assert reply.embed["description"] == "1d20 (17) = `17`"


@pytest.mark.parametrize(
    ("typed", "mod"),
    [("/roll d100oe", 0), ("/roll D100oe+25", 25), ("/roll 1d100oe - 10", -10)],
)
async def test_d100oe_is_the_open_ended_d100(env: Any, typed: str, mod: int) -> None:
    dice = script(env, 97, 99, 43)
    reply = await env.discord.type(typed, user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == f"d100 (open-ended high): {239 + mod}"
    assert reply.embed["description"].startswith("97 → +99 → +43 = 239")
    assert "footer" not in reply.embed
    assert dice.faces == []


async def test_d100oe_takes_mod_as_the_open_ended_d100_does(env: Any) -> None:
    script(env, 42)
    reply = await env.discord.slash("roll", user=env.discord.player, dice="d100oe", mod=5)
    assert reply.embed["title"] == "d100: 47"


async def test_d100oe_with_a_modifier_and_mod_too_is_refused(env: Any) -> None:
    reply = await env.discord.slash("roll", user=env.discord.player, dice="d100oe+5", mod=5)
    assert reply.ephemeral and "Give the d100's modifier once: `/roll +10`" in reply.content


@pytest.mark.parametrize("typed", ["/roll d100", "/roll 1d100+5"])
async def test_a_plain_d100_is_rolled_as_typed_with_a_note_on_the_open_ended_roll(
    env: Any, typed: str
) -> None:
    dice = script(env, 98)
    reply = await env.discord.type(typed, user=env.discord.player)
    assert reply.embed["title"].split(":")[0] == typed.removeprefix("/roll ")
    assert "98" in reply.embed["description"]  # no second die after a 98
    assert dice.faces == []
    assert "/roll or d100oe" in reply.embed["footer"]["text"]


async def test_other_dice_carry_no_note(env: Any) -> None:
    script(env, 98, 3)
    reply = await env.discord.type("/roll 2d100", user=env.discord.player)
    assert "footer" not in reply.embed


async def test_help_names_d100oe(env: Any) -> None:
    reply = await env.discord.slash("help", user=env.discord.player, options={"command": "roll"})
    assert "d100oe" in reply.text
