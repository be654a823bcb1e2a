"""/export: the GM gets the channel's table and whole history as a JSON attachment, privately
even when it is slow (its "thinking…" is private from the start); players are refused; an empty
channel gets a clear message and no file."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from exports.document import VERSION, export_key
from exports.reading import read_export
from store.migrate import load_migrations
from table.snapshot import character_from_dict, monster_from_dict, restore
from tests.e2e.conftest import Env
from tests.e2e.helpers import snapshot
from tests.e2e.test_ack_e2e import store_held
from tests.localdiscord.records import EPHEMERAL
from tests.store.importing import ROLLS


def exported(files: tuple[tuple[str, bytes], ...]) -> dict[str, Any]:
    ((name, data),) = files
    assert name.startswith("tablekeeper-") and name.endswith(".json")
    document = json.loads(data.decode("utf-8"))
    assert isinstance(document, dict)
    return document


async def test_the_gm_exports_table_and_history(env: Env) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", level=3, fatigue_level=20)
    await d.slash("character create", user=d.gm, name="Bórin", fatigue_level=15, owner=d.player2)
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="medium", hp=40)
    await d.slash("monster hit", user=d.gm, name="Troll", damage=18)
    await d.slash("settings set", user=d.gm, ties="succeed")
    await d.slash("clock pass", user=d.gm, minutes=10)
    await d.slash("fatigue spend", user=d.player, character="Aria", amount=3)
    await d.slash("fatigue spend", user=d.player, character="Aria", amount=2)
    await d.slash("undo", user=d.player)

    reply = await d.slash("export", user=d.gm)
    assert reply.ephemeral
    assert "2 characters, 1 monster," in reply.text and "9 changes" in reply.text
    doc = exported(reply.files)

    table, events, _rolls = await env.store.read_with_history(d.table.id, d.guild.id)
    assert (doc["format"], doc["version"]) == ("tablekeeper-export", VERSION)
    assert doc["schema_version"] == load_migrations()[-1].version
    assert (doc["channel_id"], doc["guild_id"]) == (str(d.table.id), str(d.guild.id))
    assert doc["clock"] == table.clock == 600
    assert doc["settings"]["ties"] == "succeed"
    owners = {c["name"]: c["owner_id"] for c in doc["characters"]}
    assert owners == {"Aria": str(d.player.id), "Bórin": str(d.player2.id)}
    for c in doc["characters"]:
        c["owner_id"] = int(c["owner_id"])
    assert tuple(character_from_dict(c) for c in doc["characters"]) == table.characters
    assert tuple(monster_from_dict(m) for m in doc["monsters"]) == table.monsters
    assert [e["id"] for e in doc["history"]] == [str(e.id) for e in events]  # oldest first
    assert [e["action"] for e in doc["history"]][-3:] == ["fatigue spend", "fatigue spend", "undo"]
    assert doc["history"][-2]["undone_by"] == doc["history"][-1]["id"]
    assert doc["history"][-1]["undoes"] == doc["history"][-2]["id"]
    assert doc["history"][0]["actor_id"] == str(d.player.id)

    # The history is complete: replaying its "before" snapshots backwards from the table
    # reaches the empty channel.
    state = table
    for event in reversed(events):
        state = restore(state, event.before)
    assert not state.characters and not state.monsters and state.clock == 0


async def test_players_are_refused_and_get_no_file(env: Env) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    before = await snapshot(env)
    reply = await d.slash("export", user=d.player)
    assert reply.ephemeral and "Only the GM" in reply.text
    assert reply.files == ()
    assert await snapshot(env) == before


async def test_an_empty_channel_says_so(env: Env) -> None:
    d = env.discord
    reply = await d.slash("export", user=d.gm, channel=d.ooc)
    assert reply.ephemeral and reply.files == ()
    assert reply.text == (
        "Nothing to export here yet: this channel has no characters, monsters, changed settings,"
        " history or rolls"
    )


async def test_a_channel_with_only_its_servers_settings_has_nothing_to_export(env: Env) -> None:
    # The server's settings are the server's: the channel only reads them.
    d = env.discord
    await d.slash("settings server", user=d.owner, round_seconds=6)  # from #table
    reply = await d.slash("export", user=d.gm, channel=d.ooc)
    assert reply.ephemeral and reply.files == ()
    assert reply.text.startswith("Nothing to export here yet")


async def test_a_thread_exports_its_channels_table(env: Env) -> None:
    # A scene thread plays at its channel's table, so /export there is that table.
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="medium")
    reply = await d.slash("export", user=d.gm, channel=d.scene)
    assert reply.ephemeral
    assert "1 character, 1 monster, settings, clock and 2 changes" in reply.text
    doc = exported(reply.files)
    assert doc["channel_id"] == str(d.table.id)
    assert [c["name"] for c in doc["characters"]] == ["Aria"]


async def test_the_turn_order_is_part_of_the_export(env: Env) -> None:
    # A fight under way is part of the table the GM takes away (ids as text, as elsewhere).
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    await d.slash("init add", user=d.player, name="Aria", score="15")
    await d.slash("init add", user=d.gm, name="Goblin", score="12", other=True)
    await d.slash("init start", user=d.gm)
    await d.slash("init next", user=d.gm)
    doc = exported((await d.slash("export", user=d.gm)).files)
    order = doc["initiative"]
    assert (order["round"], order["turn"]) == (1, 1)
    assert [(c["name"], c["score"], c["owner_id"]) for c in order["combatants"]] == [
        ("Aria", 15, str(d.player.id)),
        ("Goblin", 12, None),
    ]


async def test_a_slow_export_is_private_from_its_thinking_to_its_file(env: Env) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    async with store_held(env, 1.6):  # the watchdog defers it
        reply = await d.slash("export", user=d.gm)
    rec = d.server.interactions[reply.interaction_id]
    assert rec.callback_type == 5 and rec.callback_data is not None
    assert (rec.callback_data.get("flags") or 0) & EPHEMERAL  # "thinking…" only the GM sees
    # The answer fills that message in: nothing public was shown, then deleted.
    assert reply.ephemeral and reply.message_id == rec.original_id and not rec.original_deleted
    assert not any(r.startswith("DELETE ") and rec.token in r for r in d.requests)
    assert "1 character, 0 monsters" in reply.text
    doc = exported(reply.files)
    assert [c["name"] for c in doc["characters"]] == ["Aria"]
    assert reply.attachments[0]["content_type"] == "application/json"


async def _with_rolls(env: Env) -> Any:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    await env.store.log_rolls([(d.table.id, roll) for roll in ROLLS], keep=1000)
    return d


async def test_an_export_over_the_upload_limit_leaves_out_its_oldest_rolls(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = await _with_rolls(env)
    whole = await d.slash("export", user=d.gm)
    size = len(whole.files[0][1])
    assert f"And {len(ROLLS)} rolls of its dice." in whole.text

    # The cog as the bot loaded it (discord.py loads an extension as a module of its own).
    monkeypatch.setattr(sys.modules["cogs.export"], "BYTES_MAX", size - 1)  # one byte over
    reply = await d.slash("export", user=d.gm)
    ((_name, data),) = reply.files
    assert len(data) < size
    kept = exported(reply.files)["rolls"]
    assert len(kept) == len(ROLLS) - 1  # the oldest, only
    assert [r["interaction_id"] for r in kept] == [str(r.interaction_id) for r in ROLLS[1:]]
    assert f"And {len(ROLLS) - 1} rolls of its dice." in reply.text
    assert "The oldest 1 roll is left out" in reply.text
    # What it sent is still the bot's own export: /import takes it with who rolled what.
    imported = read_export(data, d.guild.id, export_key(env.bot.settings.token))
    assert imported.rolls[0][4] == ROLLS[1].actor_id  # ROLL_COLUMNS: actor_id


async def test_an_export_too_large_even_without_rolls_is_refused_politely(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = await _with_rolls(env)
    monkeypatch.setattr(sys.modules["cogs.export"], "BYTES_MAX", 2000)
    before = await snapshot(env)
    reply = await d.slash("export", user=d.gm)
    assert reply.ephemeral and reply.files == ()
    assert "over the 0 MiB Discord lets a bot upload, even without its rolls" in reply.text
    assert "/settings set history_keep:" in reply.text
    assert await snapshot(env) == before
