"""`python -m bot import FILE --channel ID [--guild ID] [--replace]`, run as an admin runs it:
into an empty channel at once; a channel with a table only with --replace (as one change a GM's
/undo takes back); a hostile file refused in one line on stderr, exit 1, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from exports.document import export_bytes
from store import Store
from table.actions import IMPORTED
from tests.e2e.conftest import Env
from tests.e2e.test_import_e2e import _played
from tests.e2e.test_process import process_env, run_tool
from tests.localdiscord.world import speaking
from tests.store.importing import GM, GUILD, PLAYER, TOKEN, exported, play

SOURCE, TARGET = 101, 202


async def test_an_admin_imports_from_a_shell(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    async with Store.open(url) as store:
        await play(store, SOURCE)
        document = await exported(store, SOURCE)
        await play(store, TARGET)  # a channel with a table of its own
    export = tmp_path / "export.json"
    export.write_bytes(export_bytes(document))
    env = process_env(DATABASE_URL=url)
    args = ("import", str(export), "--guild", str(GUILD))

    code, out, err = await run_tool(*args, "--channel", "303", env=env, cwd=tmp_path)
    assert (code, err) == (0, "")
    assert (
        out.strip()
        == f"Channel 303: imported 2 characters, 1 monsters, 6 rolls and 11 changes from {export}"
    )

    code, out, err = await run_tool(*args, "--channel", str(TARGET), env=env, cwd=tmp_path)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "has a table (2 characters, 1 monsters, 11 changes): nothing was imported" in err
    code, out, err = await run_tool(
        *args, "--channel", str(TARGET), "--replace", "--actor", str(GM), env=env, cwd=tmp_path
    )
    assert code == 0 and "replaced its table with" in out
    code, out, err = await run_tool(
        *args, "--channel", "404", env=dict(env, ROLL_LOG_KEEP="5"), cwd=tmp_path
    )
    assert (code, out) == (1, "")
    assert err == "ROLL_LOG_KEEP must be between 100 and 1,000,000 (rolls a channel keeps), not 5\n"
    async with Store.open(url) as store:
        assert (await store.read_with_history(404)).rolls == []
        replaced = (await store.history(TARGET, 1))[0]
        assert (replaced.action, replaced.actor_id) == ("import", GM)  # --actor's
        undone = await store.undo_last(TARGET, GUILD, GM, True)
        assert undone.target.action == "import"
        moved, source = await store.read(303, GUILD), await store.read(SOURCE, GUILD)
        assert moved.characters == source.characters


async def test_a_hostile_file_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    async with Store.open(url) as store:
        await play(store, SOURCE)
        document = await exported(store, SOURCE)
    document["characters"][0]["level"] = 10**30
    export = tmp_path / "export.json"
    export.write_text(json.dumps(document), "utf-8")
    code, out, err = await run_tool(
        "import", str(export), "--channel", "303", env=process_env(DATABASE_URL=url), cwd=tmp_path
    )
    assert code == 1 and out == ""
    assert err == f"{export}: characters[0].level: 10**30 is above 100\n"
    async with Store.open(url) as store:
        table, events, _rolls = await store.read_with_history(303, GUILD)
        assert (table.characters, events) == ((), [])


async def test_history_and_undo_name_the_command_line_in_words(env: Env, tmp_path: Path) -> None:
    """An import an admin makes from a shell without --actor: /history, /undo's question and its
    reply say it came from the command line, in the reader's language; no mention of user 0."""
    d = env.discord
    document = await _played(env)
    await d.slash("character create", user=d.gm, channel=d.side_table, name="Cora", owner=d.player)
    export = tmp_path / "export.json"
    export.write_bytes(export_bytes(document))
    place = ("--channel", str(d.side_table.id), "--guild", str(d.side_table.guild_id))
    code, out, err = await run_tool(
        "import",
        str(export),
        *place,
        "--replace",
        env=process_env(DATABASE_URL=env.database_url),
        cwd=tmp_path,
    )
    assert (code, err) == (0, "") and "replaced its table with" in out

    history = (await d.slash("history", user=d.gm, channel=d.side_table)).text
    assert "· an admin (command line) · import ·" in history and "<@0>" not in history
    spanish = await d.slash("history", user=speaking(d.gm, "es-ES"), channel=d.side_table)
    assert "· un administrador (línea de comandos) · importación ·" in spanish.text
    asked = await d.slash("undo", user=d.gm, channel=d.side_table)  # it takes Aria away
    assert "Undoing import by an admin (command line) at" in asked.text
    undone = await d.click(asked, "Undo", user=d.gm)
    assert "import by an admin (command line) at" in undone.text and "<@0>" not in undone.text
    d.assert_clean()


async def test_the_bots_own_export_keeps_its_players_only_with_the_bots_token(
    tmp_path: Path,
) -> None:
    """The file is signed with a key from the bot's DISCORD_TOKEN: the shell that has it (as
    the bot's .env does) keeps who made each change, into the server it came from; without
    it, no one is vouched for."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    async with Store.open(url) as store:
        await play(store, SOURCE)
        document = await exported(store, SOURCE)  # signed with the key of TOKEN
    export = tmp_path / "export.json"
    export.write_bytes(export_bytes(document))
    args = ("import", str(export), "--guild", str(GUILD), "--channel")
    with_token = process_env(DATABASE_URL=url, DISCORD_TOKEN=TOKEN)
    assert (await run_tool(*args, "303", env=with_token, cwd=tmp_path))[0] == 0
    assert (await run_tool(*args, "304", env=process_env(DATABASE_URL=url), cwd=tmp_path))[0] == 0
    async with Store.open(url) as store:
        kept = {e.actor_id for e in await store.history(303, 20)}
        assert kept == {GM, PLAYER}
        assert {e.actor_id for e in await store.history(304, 20)} == {IMPORTED}
