"""/import through the real client: a GM exports #table and imports the file into another
channel, where play, /history and /undo go on; a channel with a table is replaced only after a
confirmation, and /undo puts it back; players, hostile files and a file too big to fetch are
refused privately with nothing written."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.conftest import Env
from tests.e2e.helpers import snapshot
from tests.e2e.test_export_e2e import exported
from tests.localdiscord import forge
from tests.localdiscord.attachments import Upload
from tests.localdiscord.world import speaking


async def _played(env: Env) -> dict[str, Any]:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", level=3, fatigue_level=20)
    await d.slash("character create", user=d.gm, name="Bórin", fatigue_level=15, owner=d.player2)
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="medium", hp=40)
    await d.slash("settings set", user=d.gm, ties="succeed")
    await d.slash("clock pass", user=d.gm, minutes=10)
    await d.slash("fatigue spend", user=d.player, character="Aria", amount=3)
    return exported((await d.slash("export", user=d.gm)).files)


def _upload(document: dict[str, Any]) -> Upload:
    return Upload("tablekeeper-export.json", json.dumps(document).encode("utf-8"))


async def test_a_gm_moves_a_channel_and_play_goes_on(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    reply = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    assert reply.ephemeral
    assert "Imported into this channel: 2 characters, 1 monster" in reply.text
    moved = await env.table(d.side_table)
    assert moved.characters == (await env.table()).characters
    assert moved.get("Aria").owner_id == d.player.id  # ownership kept

    history = await d.slash("history", user=d.gm, channel=d.side_table)
    assert "fatigue spend" in history.text and "character create" in history.text
    # The player undoes their own imported spend, and plays on.
    await d.slash("undo", user=d.player, channel=d.side_table)
    assert (await env.table(d.side_table)).get("Aria").fatigue.fp == 0
    await d.slash("fatigue spend", user=d.player, channel=d.side_table, character="Aria", amount=2)
    assert (await env.table(d.side_table)).get("Aria").fatigue.fp == 2
    assert (await env.table()).get("Aria").fatigue.fp == 3  # the original is untouched
    d.assert_clean()


async def test_replacing_a_table_asks_first_and_undo_puts_it_back(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    await d.slash("character create", user=d.gm, channel=d.side_table, name="Cora", owner=d.player)
    before = await snapshot(env, d.side_table)
    asked = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    assert asked.ephemeral and "Replace this channel's table?" in asked.text
    assert "1 character, 0 monsters, settings, clock and 1 change" in asked.text
    assert await snapshot(env, d.side_table) == before  # nothing written yet

    done = await d.click(asked, "Replace the table", user=d.gm)
    assert "It replaced the table this channel had" in done.text and done.buttons() == []
    assert [c.name for c in (await env.table(d.side_table)).characters] == ["Aria", "Bórin"]

    asked = await d.slash("undo", user=d.gm, channel=d.side_table)  # it takes Aria away
    assert "Undo import?" in asked.text
    undone = await d.click(asked, "Undo", user=d.gm)
    assert "import" in undone.text
    assert await snapshot(env, d.side_table) == before
    history = await d.slash("history", user=d.gm, channel=d.side_table)
    assert "character create" in history.text and "fatigue spend" not in history.text
    d.assert_clean()


async def test_cancel_changes_nothing(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    before = await snapshot(env)
    asked = await d.slash("import", user=d.gm, file=_upload(document))
    cancelled = await d.click(asked, "Cancel", user=d.gm)
    assert "Import cancelled" in cancelled.text
    assert await snapshot(env) == before


async def test_a_player_is_refused_before_the_file_is_fetched(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    before = await snapshot(env, d.ooc)
    refused = await d.slash("import", user=d.player, channel=d.ooc, file=_upload(document))
    assert refused.ephemeral and "Only the GM" in refused.text
    assert await snapshot(env, d.ooc) == before
    assert not any(r.startswith("GET /attachments/") for r in d.requests)


async def test_a_file_declared_at_20_mb_is_refused_unfetched(env: Env) -> None:
    d = env.discord
    big = Upload("big.json", b"{}", size=20 * 2**20)
    refused = await d.slash("import", user=d.gm, channel=d.side_table, file=big)
    assert refused.ephemeral
    assert refused.text.count("\n") == 0 and "20,971,520 bytes" in refused.text
    assert not any(r.startswith("GET /attachments/") for r in d.requests)


async def test_a_hostile_file_is_refused_in_one_private_line(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    document["characters"][0]["name"] = "@everyone"
    before = await snapshot(env, d.side_table)
    refused = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    assert refused.ephemeral
    assert "characters[0].name: A name can't contain '@'" in refused.text
    assert await snapshot(env, d.side_table) == before
    d.assert_clean()


async def test_a_second_click_imports_nothing_more(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    await d.slash("character create", user=d.gm, channel=d.side_table, name="Cora", owner=d.player)
    asked = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    custom_id = asked.buttons()[0]["custom_id"]
    done = await d.click(asked, "Replace the table", user=d.gm)
    assert "It replaced the table" in done.text
    after = await snapshot(env, d.side_table)
    # The same button again (a stale client still showing it): the channel moved on since.
    forge.plant_button(d, asked, custom_id)
    again = await forge.click_id(d, custom_id, asked, user=d.gm)
    assert "Nothing was imported: the channel has changed since you were asked" in again.text
    assert await snapshot(env, d.side_table) == after


async def test_a_prompt_after_a_restart_asks_for_the_command_again(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    before = await snapshot(env)
    asked = await d.slash("import", user=d.gm, file=_upload(document))
    await env.restart()
    late = await d.click(asked, "Replace the table", user=d.gm)
    assert "the file is no longer held" in late.text and late.buttons() == []
    assert await snapshot(env) == before


async def test_an_imported_import_change_undone_and_redone_reads_as_no_rename(env: Env) -> None:
    """An import change a file carries (Aria's table in place of Bo's), undone and redone as
    any change: /history says what each put back and took away, as the import's line does."""
    d = env.discord
    await d.slash("character create", user=d.gm, name="Bo", owner=d.player)
    await d.slash("character set", user=d.gm, name="Bo", new_name="Aria")
    document = exported((await d.slash("export", user=d.gm)).files)
    document["history"][-1]["action"] = "import"
    await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    undone = await d.slash("undo", user=d.gm, channel=d.side_table)
    assert "• Aria removed\n• Bo brought back" in undone.text
    await d.slash("redo", user=d.gm, channel=d.side_table)
    history = (await d.slash("history", user=d.gm, channel=d.side_table)).text
    assert "· redo · Aria brought back; Bo removed" in history
    assert "· undo · Aria removed; Bo brought back~~ (redone)" in history
    assert "renamed" not in history
    again = await d.slash("undo", user=d.gm, channel=d.side_table)  # the redo, taken back
    assert "• Aria removed\n• Bo brought back" in again.text
    redone = await d.slash("redo", user=d.gm, channel=d.side_table)
    assert "• Aria brought back\n• Bo removed" in redone.text
    d.assert_clean()


async def test_a_channel_with_only_its_servers_settings_imports_without_asking(env: Env) -> None:
    """Its server's settings, set from it, are nothing the import replaces: no prompt; the
    server's settings still apply there and /history still shows that change."""
    d = env.discord
    document = await _played(env)
    await d.slash("settings server", user=d.owner, channel=d.ooc, round_seconds=6)
    reply = await d.slash("import", user=d.gm, channel=d.ooc, file=_upload(document))
    assert reply.text.startswith("Imported into this channel: 2 characters, 1 monster")
    assert reply.buttons() == []
    moved = await env.table(d.ooc)
    assert [c.name for c in moved.characters] == ["Aria", "Bórin"]
    assert moved.settings.round_seconds == 6 and moved.settings.ties == "succeed"
    assert (await env.table()).settings.round_seconds == 6  # the server's, everywhere
    history = await d.slash("history", user=d.gm, channel=d.ooc)
    assert "settings server" in history.text and "fatigue spend" in history.text
    d.assert_clean()


def _import_line(history: str) -> str:
    (line,) = [line for line in history.splitlines() if "· import ·" in line]
    return line


async def test_a_channel_replaced_by_an_import_moves_again(env: Env) -> None:
    """#side-table's table is replaced by #table's export; its own export, which carries that
    import change, moves to #ooc (empty: its history a change to its server's settings) and over
    #gm-notes' table. /history reads the import there as it did where it was exported from, and
    /undo in #ooc, which reaches it, takes away the history that came with it and nothing else:
    back to #side-table's table before the import, #ooc's own change kept."""
    d = env.discord
    document = await _played(env)
    await d.slash("character create", user=d.gm, channel=d.side_table, name="Cora", owner=d.player)
    cora = await env.table(d.side_table)
    asked = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    await d.click(asked, "Replace the table", user=d.gm)
    line = _import_line((await d.slash("history", user=d.gm, channel=d.side_table)).text)
    moved = exported((await d.slash("export", user=d.gm, channel=d.side_table)).files)

    await d.slash("settings server", user=d.owner, channel=d.ooc, rest_rate=2)  # #ooc's own
    reply = await d.slash("import", user=d.gm, channel=d.ooc, file=_upload(moved))
    assert reply.text.startswith("Imported into this channel: 2 characters, 1 monster"), reply.text
    assert _import_line((await d.slash("history", user=d.gm, channel=d.ooc)).text) == line

    await d.slash("character create", user=d.gm, channel=d.gm_notes, name="Dara", owner=d.player2)
    asked = await d.slash("import", user=d.gm, channel=d.gm_notes, file=_upload(moved))
    done = await d.click(asked, "Replace the table", user=d.gm)
    assert "It replaced the table this channel had" in done.text
    history = (await d.slash("history", user=d.gm, channel=d.gm_notes)).text
    assert line in history and history.count("· import ·") == 2

    asked = await d.slash("undo", user=d.gm, channel=d.ooc)  # it takes Aria and Bórin away
    assert "Undo import?" in asked.text
    await d.click(asked, "Undo", user=d.gm)
    back = await env.table(d.ooc)
    assert (back.characters, back.monsters, back.clock) == (cora.characters, (), cora.clock)
    history = (await d.slash("history", user=d.gm, channel=d.ooc)).text
    assert "character create" in history and "settings server" in history
    assert "fatigue spend" not in history and "import" not in history
    assert (await env.table(d.gm_notes)).characters == (await env.table(d.side_table)).characters
    d.assert_clean()


async def test_an_everyone_gm_role_is_refused_as_settings_set_refuses_it(env: Env) -> None:
    """@everyone's id is the server's own: a file making it the GM role would make every member
    a GM, which `/settings set gm_role:@everyone` refuses. So does an import, in so many words,
    and one whose history would put it back on /undo."""
    d = env.discord
    document = await _played(env)
    forged = dict(document, own_settings=[*document["own_settings"], "gm_role_id"])
    forged["settings"] = dict(document["settings"], gm_role_id=str(d.guild.id))
    before = await snapshot(env, d.side_table)
    refused = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(forged))
    assert refused.ephemeral
    assert refused.text == (
        "settings.gm_role_id: @everyone can't be the GM role: pick a role only GMs have"
    )
    logged = json.loads(json.dumps(document))
    (change,) = [e for e in logged["history"] if e["action"] == "settings set"]
    change["before"]["channel"]["settings"]["gm_role_id"] = d.guild.id
    refused = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(logged))
    assert "before.channel.settings.gm_role_id: @everyone can't be the GM role" in refused.text
    assert await snapshot(env, d.side_table) == before
    d.assert_clean()


async def test_a_change_the_bot_never_makes_is_refused(env: Env) -> None:
    d = env.discord
    document = await _played(env)
    document["history"][0]["action"] = "admin deleted your character"
    refused = await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    assert refused.text == 'history[0].action: "admin deleted your character" is not allowed here'
    d.assert_clean()


async def test_a_file_the_bot_cant_vouch_for_keeps_no_ones_name(env: Env) -> None:
    """The bot's own export, as it wrote it, keeps who made each change in its own server. A
    file changed after (here: the GM claims the player's spend), or brought from another server,
    reads as made by someone imported, in /history and /undo, in each reader's language; and a
    player can't take back a change that was never shown to be theirs."""
    d = env.discord
    document = await _played(env)
    spend = document["history"][-1]
    assert spend["action"] == "fatigue spend" and spend["actor_id"] == str(d.player.id)
    forged = json.loads(json.dumps(document))
    forged["history"][-1]["actor_id"] = str(d.gm.id)
    await d.slash("import", user=d.gm, channel=d.ooc, file=_upload(forged))
    history = await d.slash("history", user=d.gm, channel=d.ooc)
    assert "· someone (imported) · fatigue spend" in history.text
    assert f"<@{d.gm.id}>" not in history.text and f"<@{d.player.id}>" not in history.text
    spanish = await d.slash("history", user=speaking(d.gm, "es-ES"), channel=d.ooc)
    assert "· alguien (importado) · gastar fatiga" in spanish.text
    refused = await d.slash("undo", user=d.player, channel=d.ooc)
    assert refused.ephemeral and "you have none here left to undo" in refused.text
    assert "the latest is fatigue spend by someone (imported) at" in refused.text
    undone = await d.slash("undo", user=d.gm, channel=d.ooc)
    assert "fatigue spend by someone (imported) at" in undone.text

    # The same file, unchanged, into a channel of this server: its players stand.
    await d.slash("import", user=d.gm, channel=d.side_table, file=_upload(document))
    history = await d.slash("history", user=d.gm, channel=d.side_table)
    assert f"<@{d.player.id}> · fatigue spend" in history.text
    assert "imported" not in history.text
    d.assert_clean()
