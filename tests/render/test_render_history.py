"""`/history` lines and the `/undo` reply, from events as the store logs them."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from lang import speaking
from render.changes import change_parts
from render.history import (
    EMPTY,
    LINE_MAX,
    NO_MORE,
    ask_embed,
    event_line,
    history_embed,
    redone_embed,
    undone_embed,
    when,
)
from rules.fatigue import FatigueState
from table.actions import COMMAND_LINE, IMPORT_ACTION
from table.event import Event
from table.model import ChannelSettings, Character, Monster, Table
from table.snapshot import character_to_dict, diff
from table.touched import describe
from table.undo import AskFirst, Redone, Undone

NOW = datetime(2025, 5, 1, 14, 30, tzinfo=UTC)
AT = datetime(2025, 5, 1, 14, 2, tzinfo=UTC)
STAMP = int(AT.timestamp())
ARIA = Character("Aria", 21, fl_override=Fraction(20), fatigue=FatigueState(fp=18))
ORC = Monster("Orc", {"rank": 2, "armor": "heavy"}, hp_max=30)


def event(before: Table, after: Table, **fields: Any) -> Event:
    old, new = diff(before, after)
    base = Event(id=7, actor_id=21, action="fatigue spend", created_at=AT, before=old, after=new)
    return dataclasses.replace(base, **fields)


def table(*characters: Character, **fields: Any) -> Table:
    return dataclasses.replace(Table(1, 5, characters=characters), **fields)


def tired(fp: int, **fatigue: Any) -> Character:
    return dataclasses.replace(ARIA, fatigue=FatigueState(fp=fp, **fatigue))


def test_a_fatigue_spend_reads_as_one_short_line() -> None:
    line = event_line(event(table(ARIA), table(tired(21))), NOW, numbers=True)
    assert line == f"🕒 <t:{STAMP}:t> · <@21> · fatigue spend · Aria FP 18 → 21 (Fatigued)"


def test_undone_changes_are_struck_through_and_undos_marked() -> None:
    spend = event(table(ARIA), table(tired(21)), undone_by=8)
    undo = event(table(tired(21)), table(ARIA), id=8, action="undo", undoes=7)
    assert event_line(spend, NOW, numbers=True).startswith("~~🕒 ")
    assert event_line(spend, NOW, numbers=True).endswith("(Fatigued)~~ (undone)")
    assert event_line(undo, NOW, numbers=True).startswith("↩️ ")
    assert event_line(undo, NOW, numbers=True).endswith("· undo · Aria FP 21 → 18 (Fresh)")


def test_older_changes_show_the_date_too() -> None:
    assert when(AT, NOW) == f"<t:{STAMP}:t>"
    late = NOW + timedelta(days=2)
    assert when(AT, late) == f"<t:{STAMP}:d> <t:{STAMP}:t>"


def test_every_kind_of_change_has_words() -> None:
    base = table(ARIA, clock=600)
    cases = [
        (table(clock=600), base, "Aria created"),
        (base, table(clock=600), "Aria removed"),
        (base, table(ARIA, clock=660), "clock Day 1, 00:10 → Day 1, 00:11"),
        (
            base,
            dataclasses.replace(base, settings=ChannelSettings(ties="succeed", gm_role_id=9)),
            "settings: ties fail → succeed, GM role none → <@&9>",
        ),
        (
            base,
            dataclasses.replace(base, settings=ChannelSettings(round_seconds=6)),
            "settings: round length 60 s → 6 s",  # not to be read as a round number
        ),
        (base, table(dataclasses.replace(ARIA, level=3, owner_id=22), clock=600), "Aria player"),
        (base, table(tired(18, temp=4, temp_expires=1200), clock=600), "Temporary FP 0 → 4"),
        (base, table(tired(18, exhausted_cap=True), clock=600), "Exhausted cap off → on"),
        (
            base,
            table(tired(18, settled=1200), clock=600),
            "rested alone no → until Day 1, 00:20",
        ),
        (
            table(tired(18, settled=1200), clock=600),
            table(tired(18), clock=1200),
            "rested alone until Day 1, 00:20 → no",
        ),
        (base, dataclasses.replace(base, monsters=(ORC,)), "monster Orc created"),
    ]
    for before, after, words in cases:
        assert words in "; ".join(change_parts(*diff(before, after), numbers=True)), words
    levelled = change_parts(
        *diff(base, table(dataclasses.replace(ARIA, level=3), clock=600)), numbers=True
    )
    assert levelled == ["Aria level 1 → 3"]
    hurt = dataclasses.replace(ORC, hp=-2, facing="SW")
    with_orc = dataclasses.replace(base, monsters=(ORC,))
    parts = change_parts(*diff(with_orc, dataclasses.replace(base, monsters=(hurt,))), numbers=True)
    assert parts == ["monster Orc HP 30 → −2, facing N → SW"]


def test_names_cannot_format_the_line() -> None:
    sneaky = Character("**Bold** ~~x~~", 21)
    line = event_line(event(table(), table(sneaky)), NOW, numbers=True)
    assert "\\*\\*Bold\\*\\* \\~\\~x\\~\\~ created" in line


def test_a_page_fits_discord_however_much_changed() -> None:
    crowd = [Character(f"Character number {n:02}", 21, level=n % 90 + 1) for n in range(60)]
    big = event(table(), table(*crowd))
    assert len(event_line(big, NOW, numbers=True)) <= LINE_MAX + len("~~~~ (undone)")
    embed = history_embed(
        [dataclasses.replace(big, id=n, undone_by=1) for n in range(10)], NOW, numbers=True
    )
    assert len(embed.description or "") <= 4096
    assert (embed.description or "").count("\n") == 9  # all ten lines, none dropped
    assert history_embed([], NOW, newest=True, numbers=True).description == EMPTY
    assert history_embed([], NOW, newest=False, numbers=True).description == NO_MORE


def test_the_undo_reply_names_the_change_and_what_came_back() -> None:
    spend = event(table(ARIA), table(tired(21)))
    undo = event(table(tired(21)), table(ARIA), id=8, action="undo", undoes=7, actor_id=11)
    embed = undone_embed(Undone(spend, undo, table(ARIA)), NOW, numbers=True)
    assert embed.title == "↩️ Undone: fatigue spend"
    assert embed.description == (
        f"fatigue spend by <@21> at <t:{STAMP}:t> is undone:\n• Aria FP 21 → 18 (Fresh)"
    )
    assert "/redo puts it back" in (embed.footer.text or "")


def test_a_redo_is_marked_and_the_undo_it_took_back_struck_through_as_redone() -> None:
    create = event(table(), table(ARIA), action="character create", undone_by=8)
    undo = event(table(ARIA), table(), id=8, action="undo", undoes=7, undone_by=9)
    redo = event(table(), table(ARIA), id=9, action="redo")
    assert (
        event_line(redo, NOW, numbers=True) == f"↪️ <t:{STAMP}:t> · <@21> · redo · Aria brought back"
    )
    assert (
        event_line(undo, NOW, numbers=True)
        == f"~~↩️ <t:{STAMP}:t> · <@21> · undo · Aria removed~~ (redone)"
    )
    assert event_line(create, NOW, numbers=True).endswith(
        "· character create · Aria created~~ (undone)"
    )

    embed = redone_embed(Redone(create, undo, redo, table(ARIA)), NOW, numbers=True)
    assert embed.title == "↪️ Redone: character create"
    assert embed.description == (
        f"character create by <@21> at <t:{STAMP}:t> is back:\n• Aria brought back"
    )
    assert "/undo takes it back again" in (embed.footer.text or "")


def test_the_question_before_an_undo_says_what_it_would_take_away_and_who_answers() -> None:
    create = event(table(), table(ARIA), action="character create")
    old, new = diff(table(ARIA), table())
    embed = ask_embed(AskFirst(False, create, 7, ("Aria",), old, new), 11, NOW, numbers=True)
    assert embed.title == "↩️ Undo character create?"
    assert (embed.description or "").splitlines() == [
        f"Undoing character create by <@21> at <t:{STAMP}:t> would:",
        "• Aria removed",
        "Only <@11> can answer, within a minute.",
    ]
    redo = ask_embed(AskFirst(True, create, 8, ("Aria",), old, new), 11, NOW, numbers=True)
    assert redo.title == "↪️ Redo character create?"


def test_a_snapshot_from_an_older_shape_still_renders() -> None:
    old = character_to_dict(ARIA)
    new = character_to_dict(tired(30))
    del new["toughness"]  # a field an older version did not log
    parts = change_parts({"characters": {"aria": old}}, {"characters": {"aria": new}}, numbers=True)
    assert parts[0].startswith("Aria FP 18 → 30")


def test_an_undo_of_a_removal_brings_the_record_back_rather_than_creating_it() -> None:
    removal = event(table(ARIA), table(), action="character remove", undone_by=8)
    undo = event(table(), table(ARIA), id=8, action="undo", undoes=7)
    assert event_line(removal, NOW, numbers=True).endswith(
        "· character remove · Aria removed~~ (undone)"
    )
    assert event_line(undo, NOW, numbers=True).endswith("· undo · Aria brought back")
    monster_undo = event(table(), table(monsters=(ORC,)), id=9, action="undo", undoes=6)
    assert event_line(monster_undo, NOW, numbers=True).endswith("· undo · monster Orc brought back")


@given(
    hp_max=st.integers(1, 10_000),
    was=st.integers(-10_000, 10_000),
    now=st.integers(-10_000, 10_000),
)
def test_a_monsters_numbers_hidden_from_its_readers_show_only_how_hurt_it_looks(
    hp_max: int, was: int, now: int
) -> None:
    """Without its numbers a hit reads as the monster's looks (`Monster.wounds`), never its HP
    or maximum; with them, as HP before → after."""
    before = table(monsters=(dataclasses.replace(ORC, hp_max=hp_max, hp=min(was, hp_max)),))
    after_orc = dataclasses.replace(ORC, hp_max=hp_max, hp=min(now, hp_max), facing="S")
    old, new = diff(before, table(monsters=(after_orc,)))
    seen = "; ".join(change_parts(old, new, numbers=False))
    assert not any(c.isdigit() for c in seen) and "HP" not in seen, seen
    looks = (before.monsters[0].wounds, after_orc.wounds)
    if looks[0] != looks[1]:
        assert f"looks {looks[0]} → {looks[1]}" in seen
    elif before.monsters[0].hp != after_orc.hp:  # a hit the table saw, changing nothing it sees
        assert f"still looks {looks[1]}" in seen and "→" not in seen.replace("N → S", "")
    else:
        assert "looks" not in seen
    assert "facing N → S" in seen
    shown = "; ".join(change_parts(old, new, numbers=True))
    if before.monsters[0].hp != after_orc.hp:
        assert f"HP {before.monsters[0].hp}".replace("-", "−") in shown


def test_a_history_page_hides_the_numbers_from_its_readers_and_keeps_them_apart() -> None:
    hurt = dataclasses.replace(ORC, hp=20)
    hit = event(table(monsters=(ORC,)), table(monsters=(hurt,)), action="monster hit")
    assert event_line(hit, NOW, numbers=False).endswith("· monster Orc looks unhurt → hurt")
    assert event_line(hit, NOW, numbers=True).endswith("· monster Orc HP 30 → 20")
    hidden = history_embed([hit], NOW, numbers=False).description or ""
    assert "HP" not in hidden and "looks unhurt → hurt" in hidden


def test_an_import_that_replaced_a_table_reads_as_one_gone_and_another_come() -> None:
    """Not as a rename, which one character gone and one come reads as in any other change."""
    bo = Character("Bo", 2, fl_override=Fraction(4), fatigue=FatigueState(fp=0))
    imported = event(table(bo), table(ARIA), action=IMPORT_ACTION)
    assert event_line(imported, NOW, numbers=True).endswith("· import · Aria created; Bo removed")
    renamed = dataclasses.replace(imported, action="character set")
    assert "Aria renamed from Bo" in event_line(renamed, NOW, numbers=True)
    undone = undone_embed(
        Undone(
            imported,
            dataclasses.replace(imported, before=imported.after, after=imported.before),
            table(bo),
        ),
        NOW,
        numbers=True,
    )
    assert "renamed" not in (undone.description or "")


def test_the_undo_and_redo_of_an_import_read_as_what_they_put_back(
    shipped_catalogs: None,
) -> None:
    """The undo's line says what it brought back and took away, as the import's own line does,
    not a rename; in Spanish too. An undo of a rename still reads as one."""
    bo = Character("Bo", 2, fl_override=Fraction(4), fatigue=FatigueState(fp=0))
    undo = event(table(ARIA), table(bo), id=8, action="undo", undoes=7, undid=IMPORT_ACTION)
    redo = event(table(bo), table(ARIA), id=9, action="redo", undid=IMPORT_ACTION)
    assert event_line(undo, NOW, numbers=True).endswith("· undo · Aria removed; Bo brought back")
    assert event_line(redo, NOW, numbers=True).endswith("· redo · Aria brought back; Bo removed")
    with speaking("es-ES"):
        spanish = event_line(undo, NOW, numbers=True)
    assert spanish.endswith("· deshacer · Aria quitado; Bo recuperado")
    renamed = dataclasses.replace(undo, undid="character set")
    assert "· undo · Bo renamed from Aria, FP 18 → 0" in event_line(renamed, NOW, numbers=True)


def test_a_change_made_from_the_command_line_names_it_in_words(shipped_catalogs: None) -> None:
    """`python -m bot import` without --actor: no one to mention, so the words say where it
    came from, in the reader's language; a refusal naming the change too."""
    bo = Character("Bo", 2, fl_override=Fraction(4), fatigue=FatigueState(fp=0))
    imported = event(table(bo), table(ARIA), action=IMPORT_ACTION, actor_id=COMMAND_LINE)
    line = event_line(imported, NOW, numbers=True)
    assert f"<t:{STAMP}:t> · an admin (command line) · import ·" in line
    undo = dataclasses.replace(imported, id=8, before=imported.after, after=imported.before)
    head = undone_embed(Undone(imported, undo, table(bo)), NOW, numbers=True).description or ""
    assert head.startswith(f"import by an admin (command line) at <t:{STAMP}:t> is undone:")
    assert describe(imported) == f"import by an admin (command line) at <t:{STAMP}:t>"
    with speaking("es-ES"):
        assert "· un administrador (línea de comandos) · importación ·" in event_line(
            imported, NOW, numbers=True
        )
        assert describe(imported).startswith("importación de un administrador (línea de comandos)")
    assert "<@0>" not in line + head


def test_the_gms_preparation_reads_as_behind_the_screen_to_everyone_else() -> None:
    """A change to monsters still behind the GM's screen names none of them and not even its
    kind to the players; the GM's own look says it whole; a change that also touched what the
    players see says that part; a monster coming into sight is theirs."""
    lurker = dataclasses.replace(ORC, name="Lurker", hidden=True)
    made = event(table(), table(monsters=(lurker,)), action="monster create")
    for numbers in (True, False):
        line = event_line(made, NOW, numbers=numbers)
        assert line == f"🕒 <t:{STAMP}:t> · <@21> · behind the GM's screen"
    mine = event_line(made, NOW, numbers=True, prepared=True)
    assert mine.endswith("· monster create · monster Lurker created")
    both = event(
        table(ARIA, monsters=(lurker,)),
        table(tired(21), monsters=(dataclasses.replace(lurker, facing="E"),)),
    )
    line = event_line(both, NOW, numbers=True)
    assert line.endswith("· fatigue spend · Aria FP 18 → 21 (Fatigued); behind the GM's screen")
    assert "Lurker" not in line
    shown = event(
        table(monsters=(lurker,)),
        table(monsters=(dataclasses.replace(lurker, hidden=False),)),
        action="monster appear",
    )
    assert event_line(shown, NOW, numbers=False).endswith(
        "· monster appear · monster Lurker appears"
    )
    undone = Undone(made, dataclasses.replace(made, id=8, undoes=7), table())
    said = undone_embed(undone, NOW, numbers=True)
    assert "Lurker" not in f"{said.title}{said.description}"
    assert "behind the GM's screen" in f"{said.title}"
    assert "Lurker" in (undone_embed(undone, NOW, numbers=True, prepared=True).description or "")
