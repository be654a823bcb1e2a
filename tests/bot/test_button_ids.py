"""Button custom_ids: every value a command accepts fits in Discord's 100 characters and comes
back unchanged when the button is clicked (after a restart, only the custom_id is left)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs._buttons import CUSTOM_ID_MAX, TableButton, id_code, id_from_code
from cogs._cards import InitPage, InitSpend, PartyCardChart, PartyPage, PartySpend
from cogs._created import SheetButton
from cogs._fatigue import CardChart, CharacterSpend, FatigueDetails, SpendOne
from cogs.monsters import HitAgain, MonsterAppear, MonsterPicture
from cogs.party import PAGES_MAX
from cogs.saves import PartySaveAgain, SaveAgain
from rules.defense import FACINGS
from rules.saves import DC_MAX, MODIFIER_LIMIT, SaveKind
from table.model import LEVEL_MAX, NAME_MAX
from table.names import NAME_LIMIT
from table.savecalc import DifficultyOptions, SaveOptions

SNOWFLAKES = st.integers(0, 2**64 - 1)
MODIFIERS = st.integers(-MODIFIER_LIMIT, MODIFIER_LIMIT)
PERS = st.none() | st.integers(1, 1000)
# Names as a Character keeps them: whitespace squeezed, 1..NAME_MAX characters, any others.
NAMES = st.text(min_size=1, max_size=NAME_MAX).map(lambda s: " ".join(s.split())).filter(bool)
AGAINST = st.one_of(
    st.builds(DifficultyOptions, vs=st.integers(1, 1000)),
    st.builds(DifficultyOptions, dc=st.integers(1, DC_MAX)),
    st.builds(DifficultyOptions, spell=st.integers(51, 1000)),  # 50 or less: no save, no button
)


async def clicked(button: TableButton) -> Any:
    """What discord.py rebuilds from the custom_id alone when the button is clicked."""
    match = button.template.fullmatch(button.custom_id)
    assert match is not None, button.custom_id
    assert len(button.custom_id) <= CUSTOM_ID_MAX
    return await type(button).from_custom_id(None, button.item, match)  # type: ignore[arg-type]


@given(SNOWFLAKES)
def test_ids_in_base_36_round_trip_in_13_characters(snowflake: int) -> None:
    code = id_code(snowflake)
    assert len(code) <= 13
    assert id_from_code(code) == snowflake


def test_id_code_examples() -> None:
    assert [id_code(n) for n in (0, 35, 36, 36**2 + 1)] == ["0", "z", "10", "101"]


@pytest.mark.asyncio
@given(
    kind=st.sampled_from(SaveKind),
    against=AGAINST,
    level=st.none() | st.integers(1, LEVEL_MAX),
    stat=st.none() | MODIFIERS,
    kin=st.none() | MODIFIERS,
    mod=MODIFIERS,
    per=PERS,
    name=st.none() | NAMES,
    roller=SNOWFLAKES,
)
async def test_a_save_comes_back_from_its_button(
    kind: SaveKind,
    against: DifficultyOptions,
    level: int | None,
    stat: int | None,
    kin: int | None,
    mod: int,
    per: int | None,
    name: str | None,
    roller: int,
) -> None:
    options = SaveOptions(against, level, stat, kin, mod, per, name)
    back = await clicked(SaveAgain(kind, options, roller))
    assert (back.kind, back.options, back.roller_id) == (kind, options, roller)


@pytest.mark.asyncio
@given(kind=st.sampled_from(SaveKind), against=AGAINST, mod=MODIFIERS, per=PERS)
async def test_a_party_save_comes_back_from_its_button(
    kind: SaveKind, against: DifficultyOptions, mod: int, per: int | None
) -> None:
    back = await clicked(PartySaveAgain(kind, against, mod, per))
    assert (back.kind, back.against, back.mod, back.per) == (kind, against, mod, per)


@pytest.mark.asyncio
@given(
    name=NAMES.filter(lambda n: len(n) <= NAME_LIMIT),
    damage=st.integers(1, 100_000),
    from_square=st.none() | st.sampled_from(FACINGS),
)
async def test_a_hit_comes_back_from_its_button(
    name: str, damage: int, from_square: str | None
) -> None:
    back = await clicked(HitAgain(name, damage, from_square))
    assert (back.name, back.damage, back.from_square) == (name, damage, from_square)


@pytest.mark.asyncio
@given(name=NAMES, label=st.sampled_from(["Spend 1 FP", "Spend 1 more"]))
async def test_a_spend_comes_back_from_its_button(name: str, label: str) -> None:
    back = await clicked(SpendOne(name, label))
    assert (back.name, back.item.label) == (name, label)


@pytest.mark.asyncio
@given(page=st.integers(0, PAGES_MAX + 1), label=st.sampled_from(["Previous", "Next"]))
async def test_a_party_page_comes_back_from_its_button(page: int, label: str) -> None:
    back = await clicked(PartyPage(page, label))
    assert (back.page, back.item.label) == (page, label)


@pytest.mark.asyncio
@given(page=st.integers(0, PAGES_MAX + 1), name=NAMES)
async def test_a_cards_buttons_come_back_from_their_custom_ids(page: int, name: str) -> None:
    """Each button of a card carries its page and its character, whatever the name holds."""
    for button in (PartySpend(page, name), InitSpend(page, name)):
        back = await clicked(button)
        assert (type(back), back.page, back.name) == (type(button), page, name)
    named = (CharacterSpend, CardChart, FatigueDetails, SheetButton, MonsterPicture, MonsterAppear)
    for kind in named:
        assert (await clicked(kind(name))).name == name
    for paged in (PartyPage(page, "Next"), InitPage(page, "Refresh"), PartyCardChart(page)):
        assert (await clicked(paged)).page == page


def test_a_custom_id_too_long_is_refused_when_built() -> None:
    with pytest.raises(ValueError, match="longer than 100"):
        SaveAgain(SaveKind.TSR, SaveOptions(DifficultyOptions(dc=5), character="x" * 80), 1)
