"""The roll log and `/dice report` through the real client and the local Discord: every `/save`
(a party's and "Roll again" included) and `/roll` kept once per interaction, however often
Discord delivers it, across a restart and a move by `/export` and `/import`; the report with
its verdicts, its picture and alt text; secret rolls kept out of the table's report, counted in
the GM's own, refused to a player."""

from __future__ import annotations

import asyncio
import json
import time

from bot.watchdog import WATCHDOG
from table.roll_log import LoggedRoll
from tests.e2e.conftest import Env
from tests.e2e.helpers import Scripted, fields, hero, refused, seed, snapshot
from tests.e2e.test_export_e2e import exported
from tests.e2e.test_pictures_e2e import picture
from tests.e2e.test_redelivery_e2e import asked_for_its_answer
from tests.localdiscord.attachments import Upload
from tests.localdiscord.faults import redeliver
from tests.localdiscord.world import Channel


def dice(env: Env, cog: str, *faces: int) -> None:
    env.bot.get_cog(cog).rng = Scripted(faces)  # type: ignore[union-attr]


async def kept(env: Env, count: int, channel: Channel | None = None) -> list[LoggedRoll]:
    """The channel's kept rolls once there are `count` (each command hands its rolls over
    after its reply; the writer is asked to write at once rather than waited for)."""
    channel = channel or env.discord.table
    deadline = time.monotonic() + env.discord.timeout
    while True:
        await env.bot.roll_log.flush()
        rolls = (await env.store.read_with_history(channel.id)).rolls
        if len(rolls) >= count or time.monotonic() > deadline:
            return rolls
        await asyncio.sleep(0.02)


async def test_every_save_and_roll_is_kept_as_rolled(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bórin", d.player2), clock=600)
    dice(env, "Saves", 97, 99, 12, 40, 20, 70, 3, 50)
    first = await d.slash("save wsr", user=d.player, vs=1)  # 97 → +99 → +12 = 208
    await d.slash("save tsr", user=d.player2, vs=1)  # 40
    await d.click(first, "Roll again", user=d.player)  # 20
    await d.slash("save party", user=d.gm, kind="wsr", vs=1)  # Aria 70, Bórin 3 → −50
    dice(env, "Roll", 55, 3, 4)
    await d.slash("roll", user=d.player, mod=5)
    await d.slash("roll", user=d.player2, dice="2d6")

    rolls = await kept(env, 7)
    shown = [
        (r.actor_id, r.place, r.rolled.kind, r.rolled.character, r.rolled.dice, r.rolled.success)
        for r in rolls
    ]
    assert shown == [
        (d.player.id, 0, "wsr", "Aria", (97, 99, 12), True),
        (d.player2.id, 0, "tsr", "Bórin", (40,), False),
        (d.player.id, 0, "wsr", "Aria", (20,), False),
        (d.gm.id, 0, "wsr", "Aria", (70,), True),
        (d.gm.id, 1, "wsr", "Bórin", (3, 50), False),
        (d.player.id, 0, "d100", None, (55,), None),
        (d.player2.id, 0, "dice", None, (3, 4), None),
    ]
    assert [r.rolled.total for r in rolls[-2:]] == [60, 7]
    assert rolls[0].rolled.difficulty == 55 and str(rolls[0].rolled.chance) == "1/2"
    assert all(r.clock == 600 and not r.secret for r in rolls)
    assert len({r.interaction_id for r in rolls}) == 6  # the party save is one interaction

    report = await d.slash("dice report", user=d.player)
    assert not report.ephemeral and report.embed["title"] == "🎲 The table's dice"
    found = fields(report)
    assert found["🤷 Aria · Too few saves to tell"] == (  # all or none: 1 in 8 each
        "2 of 3 saves succeeded; the odds expected 1.5.\n"
        "Even none or all succeeding would not be unusual."
    )
    assert "🤷 Bórin · Too few saves to tell" in found
    assert "6 first d100s" in found["First d100s"]
    assert "Secret rolls are not counted" in report.text
    _, alt = picture(report, "dice.png")
    assert alt.startswith("The table's dice, this evening. 2 of 5 saves succeeded")
    assert "Aria: Too few saves to tell (2 of 3 saves succeeded" in alt


async def test_a_roll_delivered_again_is_kept_once(env: Env) -> None:
    """A second delivery finds its answer and rolls nothing; and had a second process rolled
    it again, the log would keep the first (`tests/store/test_roll_log_store.py`)."""
    d = env.discord
    await seed(env, hero("Aria", d.player))
    dice(env, "Saves", 40, 90)
    save = await d.slash("save wsr", user=d.player, vs=1)
    assert len(await kept(env, 1)) == 1
    messages = dict(d.server.messages)
    await redeliver(d, d.server.interactions[save.interaction_id])
    await asked_for_its_answer(env, save, 0)
    await asyncio.sleep(WATCHDOG + 0.3)  # whatever it does with it, it has done
    await env.bot.roll_log.flush()
    rolls = (await env.store.read_with_history(d.table.id)).rolls
    assert [(r.interaction_id, r.rolled.dice) for r in rolls] == [(save.interaction_id, (40,))]
    assert d.server.messages.keys() == messages.keys()  # nothing said twice
    d.assert_clean()


async def test_the_log_survives_a_restart(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    dice(env, "Saves", 80)
    await d.slash("save wsr", user=d.player, vs=1)
    await env.restart()  # no flush asked for: the bot writes what is left as it stops
    rolls = (await env.store.read_with_history(d.table.id)).rolls
    assert [r.rolled.dice for r in rolls] == [(80,)]
    report = await d.slash("dice report", user=d.gm, since="all", character="aria")
    assert report.embed["title"] == "🎲 Aria's dice" and "Everything this channel keeps" in (
        report.text
    )
    assert "1 of 1 save succeeded" in report.text


async def test_secret_rolls_stay_out_of_the_tables_report(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    dice(env, "Saves", 90, 10, 11, 12)
    await d.slash("save wsr", user=d.player, vs=1)
    for _ in range(3):  # three failures behind the screen
        await d.slash("save wsr", user=d.player, vs=1, secret=True)
    dice(env, "Roll", 33)
    await d.slash("roll", user=d.player, secret=True)
    rolls = await kept(env, 5)
    assert [r.secret for r in rolls] == [False, True, True, True, True]

    public = await d.slash("dice report", user=d.player)
    assert not public.ephemeral and "1 of 1 save succeeded" in public.text
    assert "1 first d100," in public.text  # the secret d100 isn't either
    _, alt = picture(public, "dice.png")
    assert "1 of 1 save succeeded" in alt

    gm = await d.slash("dice report", user=d.gm, secret=True)
    assert gm.ephemeral and "1 of 4 saves succeeded" in gm.text
    assert "🔒 Secret rolls counted" in gm.text and "5 first d100s" in gm.text

    before = await snapshot(env)
    text = await refused(env, "dice report", d.player, secret=True)
    assert text.startswith("Only the GM sees the report with secret rolls counted")
    assert await snapshot(env) == before


async def test_the_log_moves_with_export_and_import(env: Env) -> None:
    d = env.discord
    # Made by the command (the seed's change is none the bot makes: an import refuses it).
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    dice(env, "Saves", 60, 61, 10)
    for _ in range(2):
        await d.slash("save wsr", user=d.player, vs=1)
    await d.slash("save wsr", user=d.player, vs=1, secret=True)
    rolls = await kept(env, 3)
    export = await d.slash("export", user=d.gm)
    assert "And 3 rolls of its dice." in export.text
    document = exported(export.files)
    assert len(document["rolls"]) == 3 and document["version"] == 3
    upload = Upload("tablekeeper-export.json", json.dumps(document).encode("utf-8"))
    imported = await d.slash("import", user=d.gm, channel=d.side_table, file=upload)
    assert "And 3 rolls of its dice." in imported.text
    assert (await env.store.read_with_history(d.side_table.id)).rolls == rolls
    report = await d.slash("dice report", user=d.player, channel=d.side_table, since="all")
    assert "2 of 2 saves succeeded" in report.text  # the secret one stays secret there too


async def test_a_thread_keeps_its_rolls_at_its_channels_table(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    dice(env, "Saves", 70)
    await d.slash("save wsr", user=d.player, vs=1, channel=d.scene)
    rolls = await kept(env, 1)
    assert [r.rolled.character for r in rolls] == ["Aria"]
    report = await d.slash("dice report", user=d.player, channel=d.scene)
    assert "1 of 1 save succeeded" in report.text


async def test_nothing_to_report_is_said_privately(env: Env) -> None:
    d = env.discord
    text = await refused(env, "dice report", d.player)
    assert text.startswith("No saves or d100 rolls to report here (this evening)")
    await seed(env, hero("Aria", d.player))
    text = await refused(env, "dice report", d.player, character="Cleo")
    assert text.startswith("No saves of Cleo to report here")


async def test_a_roll_in_a_dm_is_not_kept(env: Env) -> None:
    d = env.discord
    dice(env, "Roll", 50, 60)
    in_dm = await d.slash("roll", user=d.player, channel=d.dm(d.player))
    await d.slash("roll", user=d.player)  # then one in #table
    rolls = await kept(env, 1)
    assert [r.rolled.dice for r in rolls] == [(60,)]
    assert (await env.store.read_with_history(d.dm(d.player).id)).rolls == []
    assert in_dm.interaction_id not in {r.interaction_id for r in rolls}


async def test_the_log_and_the_report_on_postgres(pg_env: Env) -> None:
    d = pg_env.discord
    await seed(pg_env, hero("Aria", d.player))
    dice(pg_env, "Saves", 60, 10)
    await d.slash("save wsr", user=d.player, vs=1)
    await d.slash("save wsr", user=d.player, vs=1, secret=True)
    rolls = await kept(pg_env, 2)
    assert [(r.rolled.dice, r.secret) for r in rolls] == [((60,), False), ((10,), True)]
    report = await d.slash("dice report", user=d.player)
    assert "1 of 1 save succeeded" in report.text
    _, alt = picture(report, "dice.png")
    assert "1 of 1 save succeeded" in alt
    await pg_env.restart()
    assert (await pg_env.store.read_with_history(d.table.id)).rolls == rolls
