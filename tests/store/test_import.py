"""Import through the store: export → import into another channel → export again gives the same
document but for ids and times, on SQLite, on PostgreSQL and from one to the other; /undo goes
on into the imported history; documents written by earlier releases import; a table is replaced
only when asked, as one change that /undo takes back whole."""

from __future__ import annotations

import dataclasses
import json
from itertools import combinations
from pathlib import Path

import pytest

from exports.document import VERSION, export_bytes, signed
from rules.errors import RulesError
from store import Store
from store.import_write import TableThere
from store.links import link_key
from table.actions import IMPORTED
from table.imported import Imported
from table.model import Character
from table.parts import PARTS
from table.undo import REDO_ACTION, UNDO_ACTION
from tests.store.conftest import Database
from tests.store.importing import (
    GM,
    GUILD,
    KEY,
    PLAYER,
    ROLLS,
    adds,
    checked,
    exported,
    play,
    without_ids_and_times,
)
from tests.store.test_server_settings import channel, server

SOURCE, TARGET = 101, 202
EXPORTS = Path(__file__).parent / "exports"


async def test_export_import_export_is_the_same_document(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        document = await exported(store, SOURCE)
        done = await store.import_channel(TARGET, GUILD, GM, checked(document))
        assert (done.changes, done.replaced) == (len(document["history"]), False)
        again = await exported(store, TARGET)
        assert without_ids_and_times(again) == without_ids_and_times(document)
        assert {e["id"] for e in again["history"]}.isdisjoint(e["id"] for e in document["history"])
        source = await store.read(SOURCE, GUILD)
        assert (await store.read(TARGET, GUILD)).characters == source.characters


async def test_undo_and_redo_go_on_into_the_imported_history(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        await store.import_channel(TARGET, GUILD, GM, checked(await exported(store, SOURCE)))
        for channel in (SOURCE, TARGET):  # the same steps back, in both channels
            undone = await store.undo_last(channel, GUILD, GM, True)
            assert undone.target.action == REDO_ACTION
            redone = await store.redo_last(channel, GUILD, GM, True)
            assert redone.change.action == REDO_ACTION
            assert (await store.undo_last(channel, GUILD, GM, True)).target.action == REDO_ACTION
        source, target = await store.read(SOURCE, GUILD), await store.read(TARGET, GUILD)
        assert target.characters == source.characters
        assert target.initiative == source.initiative
        history = [e.action for e in await store.history(TARGET, 20)]
        assert history == [e.action for e in await store.history(SOURCE, 20)]


@pytest.mark.parametrize("direction", ["sqlite to postgres", "postgres to sqlite"])
async def test_a_channel_moves_between_sqlite_and_postgres(
    direction: str, tmp_path: Path, postgres_url: str
) -> None:
    urls = [f"sqlite:///{tmp_path / 'tk.db'}", postgres_url]
    source_url, target_url = urls if direction == "sqlite to postgres" else urls[::-1]
    async with Store.open(source_url) as source:
        await play(source, SOURCE)
        document = await exported(source, SOURCE)
    async with Store.open(target_url) as target:
        await target.import_channel(TARGET, GUILD, GM, checked(document))
        again = await exported(target, TARGET)
        assert without_ids_and_times(again) == without_ids_and_times(document)
        assert (await target.undo_last(TARGET, GUILD, GM, True)).target.action == REDO_ACTION


@pytest.mark.parametrize("name", sorted(p.name for p in EXPORTS.glob("v*-*.json")))
async def test_an_earlier_releases_export_imports(name: str, db: Database) -> None:
    data = (EXPORTS / name).read_bytes()
    written = json.loads(data)
    assert written["version"] < VERSION
    async with Store.open(db.url) as store:
        await store.import_channel(TARGET, GUILD, GM, checked(data))
        assert (
            await store.read_with_history(TARGET)
        ).rolls == []  # no release before kept a roll log
        table = await store.read(TARGET, GUILD)
        assert [c.name for c in table.characters] == ["Aria", "Bórin"]
        assert table.get("Aria").owner_id == PLAYER and table.clock == written["clock"]
        assert table.settings.ties == "succeed" and table.settings.round_seconds == 6
        assert table.own == {"ties", "round_seconds"}
        assert [m.hp for m in table.monsters] == [22]
        history = await store.history(TARGET, 20)
        assert len(history) == len(written["history"])
        assert history[0].action == UNDO_ACTION  # the player's undo of their last spend
        # Unsigned, as every release before signatures wrote it: no one vouches for who made
        # its changes, so they read as imported, and only the GM takes them back.
        assert {e.actor_id for e in history} == {IMPORTED}
        redone = await store.redo_last(TARGET, GUILD, GM, True)
        assert redone.table.get("Aria").fatigue.fp == 5
        again = await exported(store, TARGET)
        assert checked(again).characters == redone.table.characters


async def test_a_table_is_replaced_only_when_asked_and_undo_puts_it_back(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        imported = checked(await exported(store, SOURCE))
        await play(store, TARGET, GUILD)
        await store.undo_last(TARGET, GUILD, GM, True)  # the redo: the channel is its own
        was, was_log, _rolls = await store.read_with_history(TARGET, GUILD)
        rows = await db.dump()

        with pytest.raises(TableThere) as asked:
            await store.import_channel(TARGET, GUILD, GM, imported)
        assert await db.dump() == rows  # nothing written
        assert asked.value.newest == was_log[-1].id and asked.value.changes == len(was_log)
        with pytest.raises(RulesError, match="changed since"):
            await store.import_channel(TARGET, GUILD, GM, imported, replace=(was_log[0].id,))
        assert await db.dump() == rows

        done = await store.import_channel(
            TARGET, GUILD, GM, imported, replace=(asked.value.newest,)
        )
        assert done.replaced
        now = await store.read(TARGET, GUILD)
        assert now.characters == (await store.read(SOURCE, GUILD)).characters
        assert (await store.history(TARGET, 1))[0].action == "import"

        undone = await store.undo_last(TARGET, GUILD, GM, True)
        assert undone.target.action == "import" and undone.table == was
        table, log, _rolls = await store.read_with_history(TARGET, GUILD)
        assert table == was
        assert [(e.id, e.action, e.undone_by, e.undoes) for e in log] == [
            (e.id, e.action, e.undone_by, e.undoes) for e in was_log
        ]


async def test_a_player_can_not_undo_a_replacing_import(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        imported = checked(await exported(store, SOURCE))
        await play(store, TARGET)
        newest = (await store.history(TARGET, 1))[0].id
        await store.import_channel(TARGET, GUILD, GM, imported, replace=(newest,))
        rows = await db.dump()
        with pytest.raises(RulesError):
            await store.undo_last(TARGET, GUILD, GM + 1, False)
        assert await db.dump() == rows


async def test_the_server_settings_stay_the_target_servers(db: Database) -> None:
    async with Store.open(db.url) as store:

        def server_sets(table):  # type: ignore[no-untyped-def]
            return table.relayered(table.own_settings(), (("monster_stats", "shown"),)), None

        def gm_role(table):  # type: ignore[no-untyped-def]
            return table.relayered({**table.own_settings(), "gm_role_id": 77}), None

        await store.apply(TARGET, GUILD + 1, GM, "settings set", server_sets)
        await play(store, SOURCE)
        await store.apply(SOURCE, GUILD, GM, "settings set", gm_role)
        document = await exported(store, SOURCE)
        other = TARGET + 1  # a channel of the other server, empty
        await store.import_channel(other, GUILD + 1, GM, checked(document, GUILD + 1))
        table = await store.read(other, GUILD + 1)
        assert table.settings.monster_stats == "shown"  # its server's, not the export's default
        assert table.settings.ties == "succeed" and table.guild_id == GUILD + 1
        assert dict(table.server) == {"monster_stats": "shown"}
        assert table.settings.gm_role_id is None  # a role of the other server stays behind
        # its own server: it comes
        await store.import_channel(TARGET + 2, GUILD, GM, checked(document))
        assert (await store.read(TARGET + 2, GUILD)).settings.gm_role_id == 77


async def _server_set_at_target(store: Store) -> Imported:
    """SOURCE's export, and the server's round length set from TARGET (as /settings server)."""
    await play(store, SOURCE)
    imported = checked(await exported(store, SOURCE))
    await store.apply(TARGET, GUILD, GM, "settings server", server(round_seconds=6))
    return imported


async def test_a_channel_with_only_its_servers_settings_imports_at_once(db: Database) -> None:
    """Server settings set from the channel (undone and redone too) are the server's: nothing an
    import would replace. It writes at once; the server's settings and that history stay."""
    async with Store.open(db.url) as store:
        imported = await _server_set_at_target(store)
        await store.apply(TARGET, GUILD, GM, "settings server", server(rest_rate=3))
        await store.undo_last(TARGET, GUILD, GM, True, manages_server=True)
        await store.redo_last(TARGET, GUILD, GM, True, manages_server=True)
        was_log = await store.history(TARGET, 10)

        done = await store.import_channel(TARGET, GUILD, GM, imported)
        assert not done.replaced
        table, log, _rolls = await store.read_with_history(TARGET, GUILD)
        assert table.characters == imported.characters
        assert table.settings.round_seconds == 6 and table.settings.rest_rate == 3
        assert table.settings.ties == "succeed"  # the file's own setting
        assert [e.id for e in log[: len(was_log)]] == [e.id for e in reversed(was_log)]
        assert [e.action for e in log[len(was_log) :]] == [e.action for e in imported.history]
        assert "import" not in [e.action for e in log]


async def test_a_channel_with_its_own_setting_besides_its_servers_is_asked(db: Database) -> None:
    async with Store.open(db.url) as store:
        imported = await _server_set_at_target(store)
        await store.apply(TARGET, GUILD, GM, "settings set", channel(rest_rate=3))
        await store.apply(TARGET, GUILD, GM, "settings set", channel(reset="rest_rate"))
        rows = await db.dump()
        with pytest.raises(TableThere) as asked:  # its setting is gone, its history not
            await store.import_channel(TARGET, GUILD, GM, imported)
        assert asked.value.changes == 3 and asked.value.table.characters == ()
        assert await db.dump() == rows


async def test_a_channel_with_only_its_web_link_imports_at_once(db: Database) -> None:
    """A link to the channel's web page made, revoked and made again is nothing an import would
    replace: it writes at once, and the page's live link and that history stay."""
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        imported = checked(await exported(store, SOURCE))
        await store.make_link(TARGET, GUILD, GM, None, link_key("secret"))
        await store.revoke_link(TARGET, GUILD, GM)
        await store.undo_last(TARGET, GUILD, GM, True)  # the link lives again
        live = await store.live_hash(TARGET)
        was_log = await store.history(TARGET, 10)

        done = await store.import_channel(TARGET, GUILD, GM, imported)
        assert not done.replaced
        table, log, _rolls = await store.read_with_history(TARGET, GUILD)
        assert table.characters == imported.characters
        assert live is not None and await store.live_hash(TARGET) == live
        assert [e.id for e in log[: len(was_log)]] == [e.id for e in reversed(was_log)]
        assert "import" not in [e.action for e in log]


async def test_the_roll_log_moves_with_the_channel(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        rolls = (await store.read_with_history(SOURCE)).rolls
        assert len(rolls) == 6 and any(r.secret for r in rolls)  # secret ones too, marked
        data = export_bytes(await exported(store, SOURCE))
        assert data.count(b'\n    {"actor_id": ') == 6  # a line a roll
        await store.import_channel(TARGET, GUILD, GM, checked(data))
        assert (await store.read_with_history(TARGET)).rolls == rolls


async def test_a_replacing_import_brings_its_rolls_and_its_undo_takes_them_away(
    db: Database,
) -> None:
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        data = export_bytes(await exported(store, SOURCE))
        await store.apply(TARGET, GUILD, GM, "character create", adds(Character("Cora", GM)))
        own = [dataclasses.replace(r, interaction_id=r.interaction_id + 1) for r in ROLLS[:2]]
        await store.log_rolls([(TARGET, r) for r in own], keep=1000)
        newest = (await store.history(TARGET, 1))[0].id
        await store.import_channel(TARGET, GUILD, GM, checked(data), replace=(newest,))
        kept = (await store.read_with_history(TARGET)).rolls
        assert len(kept) == len(own) + len(ROLLS)
        assert {r.came_with for r in kept if r not in own} == {2}  # the import's start
        await store.undo_last(TARGET, GUILD, GM, True)
        assert (await store.read_with_history(TARGET)).rolls == own  # the channel's own stay


async def test_a_signed_export_of_the_release_before_is_still_the_bots_own(db: Database) -> None:
    """A version 2 export (no roll log) this bot signed: upgraded on the way in, its signature
    is checked on the file as written, so who made each change stands."""
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        document = await exported(store, SOURCE)
    older = {k: v for k, v in document.items() if k not in ("rolls", "signature")}
    imported = checked(signed(older | {"version": 2}, KEY))
    assert imported.rolls == ()
    assert {e.actor_id for e in imported.history} == {GM, PLAYER}
    later = {"exported_at": "2027-01-01T00:00:00+00:00"}  # a byte changed after it was signed
    imported = checked(signed(older | {"version": 2}, KEY) | later)
    assert {e.actor_id for e in imported.history} == {IMPORTED}


async def test_after_an_import_is_undone_every_read_is_what_a_fresh_store_reads(
    db: Database,
) -> None:
    """The undo of a replacing import logs nothing and takes the import's changes away: the
    channel's newest change is again the one before it, and a Table cached as of that change
    must be what its rows read now, for every set of parts a command reads."""
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        imported = checked(await exported(store, SOURCE))
        await play(store, TARGET, GUILD)
        for parts in EVERY_PARTS:  # each cached as of the channel's newest change
            await store.read(TARGET, GUILD, parts)
        newest = (await store.history(TARGET, 1))[0].id
        await store.import_channel(TARGET, GUILD, GM, imported, replace=(newest,))
        await store.undo_last(TARGET, GUILD, GM, True)
        assert (await store.history(TARGET, 1))[0].id == newest
        async with Store.open(db.url) as fresh:
            for parts in EVERY_PARTS:
                assert await store.read(TARGET, GUILD, parts) == await fresh.read(
                    TARGET, GUILD, parts
                )


EVERY_PARTS = [frozenset(c) for n in range(len(PARTS) + 1) for c in combinations(PARTS, n)]
