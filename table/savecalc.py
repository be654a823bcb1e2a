"""From a table and a `/save` command's options to the inputs of `rules.saves.resolve`.

Pure: no Discord, no dice. A character's stored level, stat and kin bonus fill in what the
options leave out; what the options give always wins. A character's special modifier is always
its own stored one (a plain roll has none).
"""

from __future__ import annotations

from dataclasses import dataclass

from lang import _
from rules import saves
from rules.dice import OpenEndedRoll
from rules.errors import RulesError
from rules.saves import Difficulty, SaveKind, SaveResult

from table.active import active_character, own_characters
from table.model import NO_CHARACTERS, NO_PARTY, Character, Table

_LISTED_NAMES = 5  # names shown when the caller has several characters


@dataclass(frozen=True)
class DifficultyOptions:
    """The difficulty options of a save; exactly one must be given."""

    vs: int | None = None  # Attack Level
    dc: int | None = None  # a number
    spell: int | None = None  # the caster's Spell Casting total

    def difficulty(self) -> Difficulty:
        return _difficulty(self.vs, self.dc, self.spell)


def _difficulty(vs: int | None, dc: int | None, spell: int | None) -> Difficulty:
    """What a save is against, labelled in the reader's language."""
    given = [
        name for name, value in (("vs", vs), ("dc", dc), ("spell", spell)) if value is not None
    ]
    if not given:
        raise RulesError(
            _(
                "Say what the save is against: `vs:` (Attack Level), `dc:` (a Difficulty) "
                "or `spell:` (the caster's casting total)"
            )
        )
    if len(given) > 1:
        shown = (" " + _("and") + " ").join(f"`{name}:`" for name in given)
        raise RulesError(
            _("Give only one of `vs:`, `dc:` or `spell:` (you gave {shown})", shown=shown)
        )
    if vs is not None:
        return Difficulty.attack_level(vs)
    if dc is not None:
        return Difficulty.number(dc)
    assert spell is not None  # the only one left
    return Difficulty.spell(spell)


@dataclass(frozen=True)
class SaveOptions:
    """What `/save tsr` and `/save wsr` were given; None means "not given"."""

    against: DifficultyOptions
    level: int | None = None
    stat: int | None = None
    kin: int | None = None
    mod: int = 0
    per: int | None = None
    character: str | None = None


@dataclass(frozen=True)
class SaveInputs:
    """Everything a Save Roll needs but the dice; `name` is the character's, if any."""

    kind: SaveKind
    name: str | None
    level: int
    stat: int
    kin: int
    mod: int
    difficulty: Difficulty
    per: int | None
    ties_succeed: bool
    special: int = 0  # the character's stored special modifier for this kind of save

    def resolve(self, roll: OpenEndedRoll) -> SaveResult:
        return saves.resolve(
            self.kind,
            level=self.level,
            stat=self.stat,
            kin=self.kin,
            special=self.special,
            mod=self.mod,
            difficulty=self.difficulty,
            roll=roll,
            per=self.per,
            ties_succeed=self.ties_succeed,
        )


def stored_stat(character: Character, kind: SaveKind) -> int:
    """Fortitude for a TSR, Wisdom for a WSR."""
    return character.fortitude if kind is SaveKind.TSR else character.wisdom


def stored_kin(character: Character, kind: SaveKind) -> int:
    return character.kin_tsr if kind is SaveKind.TSR else character.kin_wsr


def stored_special(character: Character, kind: SaveKind) -> int:
    return character.special_tsr if kind is SaveKind.TSR else character.special_wsr


def _character_for(table: Table, options: SaveOptions, user_id: int) -> Character | None:
    """The named character, else the caller's only one here or the one they use (`/character
    use`), else None (a plain roll).

    A caller with several characters must name one, unless they give `level:` themselves:
    then the roll uses only the numbers given (a GM rolling for an unnamed NPC).
    """
    if options.character:
        return table.get(options.character)
    found = active_character(table, user_id)
    if found is not None:
        return found
    own = own_characters(table, user_id)
    if not own:
        if options.level is None and table.characters:  # a GM, usually: none of their own
            raise RulesError(
                _(
                    "Give the defender's `level:` for a plain roll, or say whose save it is with "
                    "`character:`"
                )
            )
        if options.level is None:
            raise RulesError(
                _(
                    "Give the defender's `level:`, or make a character with `/character create` "
                    "so its level and stats fill in"
                )
            )
        return None
    if options.level is None:
        names = ", ".join(c.name for c in own[:_LISTED_NAMES])
        more = ", …" if len(own) > _LISTED_NAMES else ""
        raise RulesError(
            _(
                "You have several characters here ({names}{more}): name one with `character:` "
                "(or choose one with `/character use`), or give `level:` for a plain roll",
                names=names,
                more=more,
            )
        )
    return None


def save_inputs(kind: SaveKind, options: SaveOptions, table: Table, user_id: int) -> SaveInputs:
    """The inputs of one caller's Save Roll: options first, then the character's stored values."""
    difficulty = options.against.difficulty()
    character = _character_for(table, options, user_id)
    if character is None:
        level = options.level
        stat = options.stat if options.stat is not None else 0
        kin = options.kin if options.kin is not None else 0
        special = 0
    else:
        level = options.level if options.level is not None else character.level
        stat = options.stat if options.stat is not None else stored_stat(character, kind)
        kin = options.kin if options.kin is not None else stored_kin(character, kind)
        special = stored_special(character, kind)
    assert level is not None  # _character_for returns None only when level was given
    return SaveInputs(
        kind=kind,
        name=None if character is None else character.name,
        level=level,
        stat=stat,
        kin=kin,
        mod=options.mod,
        difficulty=difficulty,
        per=options.per,
        ties_succeed=table.settings.ties_succeed,
        special=special,
    )


def party_inputs(
    kind: SaveKind, against: DifficultyOptions, table: Table, mod: int = 0, per: int | None = None
) -> tuple[SaveInputs, ...]:
    """One Save Roll per character of the party (not those kept out of it: a familiar, an NPC),
    each with its own stored numbers."""
    difficulty = against.difficulty()
    if not table.characters:
        raise RulesError(_(NO_CHARACTERS))
    if not table.party:
        raise RulesError(_(NO_PARTY))
    return tuple(
        SaveInputs(
            kind=kind,
            name=character.name,
            level=character.level,
            stat=stored_stat(character, kind),
            kin=stored_kin(character, kind),
            mod=mod,
            difficulty=difficulty,
            per=per,
            ties_succeed=table.settings.ties_succeed,
            special=stored_special(character, kind),
        )
        for character in table.party
    )
