"""The channel's bestiary from command options: parse, build, and the changes `/monster` makes.

Pure glue between the `/monster` cog and `table.model`: the numbers all come from
`rules.defense`; the `Table -> (Table, result)` functions here are what the cog hands to
`Store.apply`, so each change is one transaction and one event.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lang import N_, _
from rules.defense import (
    FACINGS,
    MAX_ARMOR_ENCHANTMENTS,
    SPOTS,
    HitResult,
    MonsterBlock,
    UnarmoredSpot,
    build_monster,
    check_spots,
    pick_spots,
    relative_spot,
    spot_key,
    spot_text,
)
from rules.defense import hit as rules_hit
from rules.errors import RulesError

from table.lookalikes import channel_names, check_unlike
from table.model import Forbidden, Monster, Table
from table.names import clean_name, name_key

MONSTERS_MAX = 25  # not a rule: one list embed and one autocomplete page hold them all
# Marked messages in English: shown through `_()` (ENCHANTMENTS_HELP with `most=`).
ENCHANTMENTS_HELP = N_(
    "Enchantments look like `1 2 2`: one Rank per enchantment, each no higher than the "
    "monster's Rank (at most {most} on its armor)"
)
GM_ONLY = N_("Only the GM can change this channel's monsters (Manage Channels, or the GM role)")
_SPOT_SEPARATORS = re.compile(r"[,;/]")
_ENCHANTMENT_SEPARATORS = re.compile(r"[\s,;/]+")
_NONE_WORDS = frozenset({"none", "no", "-"})


@dataclass(frozen=True)
class BuildOptions:
    """The `/monster build` options as given; text options are parsed by `build`."""

    rank: int
    armor: str
    trade: int = 0
    agility: int | None = None
    extra_defense: int = 0
    extra_evasion: int = 0
    spots: str | None = None
    armor_enchantments: str | None = None
    weapon_enchantments: str | None = None
    order: str = "normal"
    easy_spots: str | None = None  # spots that are not Hard to Hit
    revealed_spots: str | None = None  # spots the players already know of


@dataclass(frozen=True)
class MonsterHit:
    """A hit as `/monster hit` reports it: the monster after, its HP before, the rules' result.

    A hit on a monster already defeated (HP 0 or below) changes nothing."""

    monster: Monster
    hp_before: int | None
    result: HitResult
    from_square: str | None
    already_defeated: bool = False
    in_fight: bool = False  # in the turn order: once defeated, its turns are passed over
    looked: str | None = None  # how hurt it looked before the hit (`Monster.wounds`)
    appeared: bool = False  # the GM had kept it hidden: a hit shows it to the players


def _spot_words(piece: str) -> list[str]:
    return piece.lower().replace("_", " ").replace("-", " ").split()


def parse_spots(text: str | None) -> tuple[str, ...]:
    """`back, back-left` → ('back', 'back-left'). Commas separate; without them, two words that
    make a spot go together (`back left front` is back-left and front). The rules check names."""
    if text is None or text.strip().lower() in _NONE_WORDS:
        return ()
    spots: list[str] = []
    for piece in _SPOT_SEPARATORS.split(text):
        words = _spot_words(piece)
        i = 0
        while i < len(words):
            pair = "-".join(words[i : i + 2])
            if i + 1 < len(words) and spot_key(pair) is not None:
                spots.append(pair)
                i += 2
            else:
                spots.append(words[i])
                i += 1
    return tuple(spots)


def parse_enchantments(text: str | None) -> tuple[int, ...]:
    """`1 2 2` (or `1, 2, 2`) → (1, 2, 2); the rules check how many and their Ranks."""
    if text is None or text.strip().lower() in _NONE_WORDS:
        return ()
    ranks: list[int] = []
    for token in _ENCHANTMENT_SEPARATORS.split(text.strip()):
        if not token:  # a stray comma at either end, as `spots:` allows
            continue
        if not re.fullmatch(r"[+-]?\d{1,6}", token):
            raise RulesError(
                _(
                    "'{token}' isn't an enchantment Rank. {help}",
                    token=token[:20],
                    help=_(ENCHANTMENTS_HELP, most=MAX_ARMOR_ENCHANTMENTS),
                )
            )
        ranks.append(int(token))
    return tuple(ranks)


def _spots(options: BuildOptions) -> tuple[UnarmoredSpot, ...]:
    """The spots, each Hard to Hit unless listed in `easy_spots`, hidden unless listed in
    `revealed_spots` (both must name spots from `spots`)."""
    names = parse_spots(options.spots)
    checked = check_spots(names)
    easy = pick_spots(checked, parse_spots(options.easy_spots), N_("not Hard to Hit"))
    revealed = pick_spots(checked, parse_spots(options.revealed_spots), N_("revealed"))
    return tuple(
        UnarmoredSpot(s.name, hard_to_hit=s.name not in easy, revealed=s.name in revealed)
        for s in checked
    )


def build(options: BuildOptions) -> MonsterBlock:
    """The stat block for these options, from the rules."""
    return build_monster(
        options.rank,
        options.armor,
        trade=options.trade,
        agility=options.agility,
        extra_defense=options.extra_defense,
        extra_evasion=options.extra_evasion,
        spots=_spots(options),
        armor_enchantments=parse_enchantments(options.armor_enchantments),
        weapon_enchantments=parse_enchantments(options.weapon_enchantments),
        order=options.order,
    )


def spot_suggestions(typed: str) -> list[str]:
    """Autocomplete for the spots text: what was typed, completed with each spot not yet named.

    `back, fr` → `back, front`, `back, front-right`, `back, front-left`; each in the reader's
    language, found by what was typed in any."""
    head, __, fragment = typed.rpartition(",")
    prefix = f"{head.strip()}, " if head.strip() else ""
    try:
        named = {spot_key(spot) for spot in parse_spots(head)}
    except RulesError:
        named = set()
    wanted = "-".join(_spot_words(fragment))
    found = [
        prefix + spot_text(spot)
        for spot in SPOTS
        if spot not in named and wanted in f"{spot} {'-'.join(_spot_words(spot_text(spot)))}"
    ]
    return [text for text in found if len(text) <= 100]


def spot_squares(block: MonsterBlock, facing: str) -> dict[str, str]:
    """Each unarmored spot's compass square for a monster facing `facing`."""
    squares = {relative_spot(facing, square): square for square in FACINGS}
    return {spot: squares[spot] for spot in block.spot_names}


def _require_gm(is_gm: bool) -> None:
    if not is_gm:
        raise Forbidden(_(GM_ONLY))


# --- the changes: Table -> (Table, result) -----------------------------------------------


def create(
    table: Table,
    *,
    is_gm: bool,
    name: str,
    options: BuildOptions,
    hp_max: int | None = None,
    count: int = 1,
    init_bonus: int = 0,
) -> tuple[Table, tuple[Monster, ...]]:
    """One monster, or with `count` above 1 a group from one stat block: `Goblin 1`, `Goblin 2`…
    (numbered on from any already here), each with its own HP and facing. Each is the GM's
    preparation, hidden from the players until it appears (`appear`)."""
    _require_gm(is_gm)
    name = clean_name(name, N_("monster"))
    if count == 1:
        names = [name]
    else:
        first = 1 + max((n for m in table.monsters if (n := group_number(name, m.name))), default=0)
        names = [clean_name(f"{name} {i}", N_("monster")) for i in range(first, first + count)]
    build_dict = build(options).to_dict()
    made = tuple(
        Monster(each, build_dict, hp_max=hp_max, hidden=True, init_bonus=init_bonus)
        for each in names
    )
    return _kept(table, made), made


def _kept(table: Table, monsters: tuple[Monster, ...]) -> Table:
    """The table with these new monsters in its bestiary: refused when a name is taken or the
    bestiary would hold more than it can, or a name looks like one in the channel (a name
    brought from another channel is checked against this one's)."""
    here = channel_names(table)
    for monster in monsters:
        taken = table.find_monster(monster.name)
        if taken is not None:  # named as it was made, as a taken character name is
            raise RulesError(
                _(
                    "There is already a monster named '{name}' in this channel: pick another "
                    "name, or remove that one with `/monster remove`",
                    name=taken.name,
                )
            )
        check_unlike(monster.name, here)
    if len(table.monsters) + len(monsters) > MONSTERS_MAX:
        raise RulesError(
            _(
                "This channel already has {most} monsters, the most it can keep: remove one first",
                most=MONSTERS_MAX,
            )
            if len(table.monsters) >= MONSTERS_MAX
            else _(
                "This channel keeps at most {most} monsters: there is room for {room} more",
                most=MONSTERS_MAX,
                room=MONSTERS_MAX - len(table.monsters),
            )
        )
    for monster in monsters:
        table = table.with_monster(monster)
    return table


def group_number(group: str, name: str) -> int | None:
    """`Goblin 2` is number 2 of the group `Goblin`; None for any other name."""
    head, __, number = name.rpartition(" ")
    if name_key(head) != name_key(group) or not number.isdecimal():
        return None
    return int(number)


def group_names(monsters: Sequence[Monster]) -> list[str]:
    """The groups these monsters make (`Goblin` for `Goblin 1`, `Goblin 2`…), each once, in
    the order their first member comes: what a GM may name to act on a whole group."""
    heads = ((m.name.rpartition(" ")[0], m.name) for m in monsters)
    return list(dict.fromkeys(head for head, name in heads if group_number(head, name)))


def group(table: Table, name: str) -> tuple[Monster, ...]:
    """The monsters of the group `name` (`Goblin 1`, `Goblin 2`…), by number."""
    members = [(n, m) for m in table.monsters if (n := group_number(name, m.name))]
    return tuple(m for __, m in sorted(members, key=lambda pair: pair[0]))


def members(table: Table, name: str) -> tuple[Monster, ...]:
    """The monster named `name`, or the monsters of the group `name` (`Goblin` for `Goblin 1`,
    `Goblin 2`…); an unknown name is refused as `get_monster` refuses it."""
    found = table.find_monster(name)
    if found is not None:
        return (found,)
    return group(table, name) or (table.get_monster(name),)


def appear(table: Table, *, is_gm: bool, name: str) -> tuple[Table, tuple[Monster, ...]]:
    """The GM shows a monster (or a group) the players have not seen yet: from now on it is
    listed, named and drawn for them as any other."""
    _require_gm(is_gm)
    found = members(table, name)
    hidden = tuple(m for m in found if m.hidden)
    if not hidden:
        raise RulesError(
            _("The players can already see {names}", names=", ".join(m.name for m in found))
        )
    shown = tuple(replace(m, hidden=False) for m in hidden)
    for monster in shown:
        table = table.with_monster(monster)
    return table, shown


def bring(
    table: Table, *, is_gm: bool, monsters: tuple[Monster, ...]
) -> tuple[Table, tuple[Monster, ...]]:
    """Monsters prepared in another channel (`members` of its table), copied into this one's
    bestiary as they are there, and hidden from this channel's players until they appear."""
    _require_gm(is_gm)
    brought = tuple(replace(m, hidden=True) for m in monsters)
    return _kept(table, brought), brought


def remove(table: Table, *, is_gm: bool, name: str) -> tuple[Table, Monster]:
    _require_gm(is_gm)
    gone = table.get_monster(name)
    return table.without_monster(gone.name), gone


def face(table: Table, *, is_gm: bool, name: str, facing: str) -> tuple[Table, Monster]:
    _require_gm(is_gm)
    turned = replace(table.get_monster(name), facing=facing)
    return table.with_monster(turned), turned


def reveal(table: Table, *, is_gm: bool, name: str, spot: str) -> tuple[Table, Monster]:
    """The GM reveals one of a monster's hidden unarmored spots to the players."""
    _require_gm(is_gm)
    monster = table.get_monster(name)
    shown = replace(monster, build=monster.block.revealing(spot, monster.name).to_dict())
    return table.with_monster(shown), shown


def hit(
    table: Table, *, is_gm: bool, name: str, damage: int, from_square: str | None = None
) -> tuple[Table, MonsterHit]:
    """Damage after Defense (half on an unarmored spot, at least 1), taken off tracked HP.

    A hidden spot can be hit all the same (the GM knows where it is). A monster already
    defeated, or whose HP is not tracked, stays as it is: nothing is written or logged, unless
    the GM had kept it hidden (a hit shows it: it appears)."""
    _require_gm(is_gm)
    monster = table.get_monster(name)
    result = rules_hit(monster.block, damage, monster.facing, from_square)
    appeared = monster.hidden  # a hit is seen: whoever was hit is in sight from now on
    seen = replace(monster, hidden=False) if appeared else monster
    if monster.hp is None or monster.down:
        hit = MonsterHit(
            seen,
            monster.hp,
            result,
            from_square,
            monster.down,
            looked=monster.wounds,
            appeared=appeared,
        )
        return (table.with_monster(seen) if appeared else table), hit
    hurt = seen.hurt(result.taken)
    in_fight = table.initiative.find(monster.name) is not None
    return table.with_monster(hurt), MonsterHit(
        hurt,
        monster.hp,
        result,
        from_square,
        in_fight=in_fight,
        looked=monster.wounds,
        appeared=appeared,
    )
