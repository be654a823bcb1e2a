"""The data behind the odds picture (`table.odds_series`) and the monster's (`table.monster_view`):
the curve passes through the very chance a save's reply prints, and the gold squares are the
ones a hit from which meets half Defense."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.defense import FACINGS, SPOTS, hit
from rules.dice import open_ended
from rules.saves import SaveKind, sr_difficulty, success_chance
from table.model import Monster, Table
from table.monster_view import half_defense, monster_view
from table.odds_series import odds_series
from table.savecalc import DifficultyOptions, SaveInputs, SaveOptions, save_inputs


class Die:
    def __init__(self, face: int) -> None:
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return self.face


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(-20, 20),
    st.sampled_from(("vs", "dc", "spell")),
    st.integers(1, 40),
    st.booleans(),
)
def test_the_curve_passes_through_the_replys_chance(
    level: int, stat: int, against: str, value: int, ties: bool
) -> None:
    given_ = {"vs": value, "dc": 40 + value, "spell": 80 + 3 * value}[against]
    options = SaveOptions(DifficultyOptions(**{against: given_}), level=level, stat=stat)
    table = Table(1, 1)
    inputs = save_inputs(SaveKind.WSR, options, table, 1)
    inputs = replace(inputs, ties_succeed=ties)
    series = odds_series([inputs], given_)
    (curve,) = series.curves
    reply = inputs.resolve(open_ended(Die(50)))  # what the reply prints, rolled for real
    assert curve.marked == reply.odds
    assert series.rolled in series.xs
    assert curve.chances[series.xs.index(series.rolled)] == reply.odds
    assert all(a >= b for a, b in zip(curve.chances, curve.chances[1:], strict=False))
    if against == "vs":
        assert series.xs[0] == 1 and series.xs[-1] == max(20, given_)
        assert curve.chances[0] == success_chance(reply.bonus, sr_difficulty(1), ties)


def test_a_party_has_a_curve_each() -> None:
    party = [
        SaveInputs(
            SaveKind.TSR, name, level, 0, 0, 0, DifficultyOptions(vs=7).difficulty(), None, False
        )
        for name, level in (("Aria", 3), ("Bo", 9))
    ]
    series = odds_series(party, 7)
    assert [c.name for c in series.curves] == ["Aria", "Bo"]
    assert series.curves[0].marked < series.curves[1].marked


SPOT_SETS = st.lists(
    st.tuples(st.sampled_from(SPOTS), st.booleans(), st.booleans()), unique_by=lambda s: s[0]
)


@settings(max_examples=80, deadline=None)
@given(SPOT_SETS, st.sampled_from(FACINGS), st.integers(0, 5), st.booleans())
def test_gold_squares_are_where_a_hit_meets_half_defense(
    spots: list[tuple[str, bool, bool]], facing: str, rank: int, gm: bool
) -> None:
    build = {
        "rank": rank,
        "armor": "heavy",
        "spots": [{"spot": s, "hard_to_hit": h, "revealed": r} for s, h, r in spots],
    }
    monster = Monster("Troll", build, facing=facing)
    view = monster_view(monster, show_hidden=gm)
    assert [s.compass for s in view.squares] == list(FACINGS)
    revealed = {s for s, _, r in spots if r}
    for square in view.squares:
        struck = hit(monster.block, 100, facing, square.compass)
        assert struck.spot == square.spot
        assert struck.unarmored_spot == (square.spot in {s for s, _, _ in spots})
        if struck.unarmored_spot:  # the picture's "½ Defense" is what the hit meets
            assert struck.defense_applied == view.half
        shown = struck.unarmored_spot and (gm or square.spot in revealed)
        assert square.unarmored == shown
        assert square.hidden == (shown and square.spot not in revealed)
    assert view.hidden_left_out == (0 if gm else len(spots) - len(revealed))
    assert view.half == half_defense(view.defense) == view.defense // 2
