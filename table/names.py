"""Names of characters and monsters as players type them: one set of rules for both, so that a
name is what it looks like (written as a keyboard would, nothing invisible in it, no look-alike
of another: `table.lookalikes`)."""

from __future__ import annotations

import difflib
import itertools
import unicodedata
from collections.abc import Sequence
from typing import Protocol, TypeVar

import regex
from lang import _
from rules.errors import RulesError

NAME_MAX = 40  # short enough for an autocomplete choice and a reply line
_LISTED_NAMES = 5  # how many names an unknown-name error suggests
NAME_LIMIT = 32  # fits an autocomplete choice and an embed title
# Punctuation a name may use besides letters, digits and spaces: nothing that pings, quotes
# code or formats text in Discord (`@`, backticks, `*`, `_`, `~`, `|`, `<`, `>`, `#`, ...).
NAME_PUNCTUATION = "'-.,!?()&"
# Accents a letter may carry: Vietnamese and Thai stack two, Zalgo text stacks dozens, which
# spill over the lines above and below in every list the name appears in.
MARKS_PER_LETTER = 3
# Code points a renderer shows as nothing at all (Unicode's Default_Ignorable_Code_Point: the
# joiners, the fillers such as U+3164, variation selectors, U+034F), which the standard
# library's `unicodedata` doesn't list: "Aria" and "Aria" with one of them are two names.
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def name_key(name: str) -> str:
    """How names are compared: spaces squeezed, casefolded, so 'Bórin' and ' BÓRIN' are one."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def clean_name(text: str, noun: str) -> str:
    """A new name as shown: NFKC-normalised (as typed on a keyboard: `Ａｒｉａ` and `𝐀𝐫𝐢𝐚` are
    `Aria`), one line, spaces squeezed, 1–32 characters, nothing Discord formats, nothing
    invisible, every accent on a letter. `noun` ("character", "monster", a marked message)
    names what is being named in the errors. Names stored before these rules stay as they are:
    only a new name (made, renamed, imported) comes here."""
    if not isinstance(text, str):
        raise RulesError(_("A {noun} needs a name", noun=_(noun)))
    if len(text.strip().splitlines()) > 1:
        raise RulesError(_("A name must fit on one line"))
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        raise RulesError(_("A {noun} needs a name", noun=_(noun)))
    if len(name) > NAME_LIMIT:
        raise RulesError(
            _(
                "A {noun}'s name must be {most} characters or fewer",
                noun=_(noun),
                most=NAME_LIMIT,
            )
        )
    invisible = _INVISIBLE.search(name)
    if invisible is not None:
        code = f"U+{ord(invisible[0]):04X}"
        raise RulesError(
            _(
                "A name can't contain invisible characters ({code} here): what it shows must be "
                "all it is",
                code=code,
            )
        )
    for char in name:
        if char != " " and char not in NAME_PUNCTUATION and not _is_word_char(char):
            shown = f"'{char}'" if char.isprintable() else _("that character")
            raise RulesError(
                _(
                    "A name can't contain {shown}: use letters, numbers, spaces and {allowed}",
                    shown=shown,
                    allowed=" ".join(NAME_PUNCTUATION),
                )
            )
    if not _is_word_char(name[0]) or _is_mark(name[0]):
        raise RulesError(_("A name must start with a letter or a number"))
    marks = 0
    for before, char in itertools.pairwise(" " + name):
        if not _is_mark(char):
            marks = 0
            continue
        if marks == 0 and not _is_word_char(before):
            raise RulesError(_("An accent in a name must sit on a letter or a number"))
        marks += 1
        if marks > MARKS_PER_LETTER:
            raise RulesError(
                _(
                    "A name can't stack more than {most} accents on one letter",
                    most=MARKS_PER_LETTER,
                )
            )
    return name


def _is_word_char(char: str) -> bool:
    # letters (L*), marks that accent them (M*) and digits (N*); never controls or invisibles
    return unicodedata.category(char)[0] in "LMN"


def _is_mark(char: str) -> bool:
    return unicodedata.category(char)[0] == "M"


def _unaccented(key: str) -> str:
    """'bórin' → 'borin': how a name is typed on a keyboard without its accents."""
    decomposed = unicodedata.normalize("NFKD", key)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class _HasName(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def key(self) -> str: ...


_Named = TypeVar("_Named", bound=_HasName)


def named(items: Sequence[_Named], name: str, noun: str) -> _Named:
    """The item with this name; else the only one that matches without accents ('borin' finds
    Bórin); else an error that suggests close names (a typo) or lists a few. `noun` is a marked
    message ("character", "monster")."""
    if not isinstance(name, str):
        raise RulesError(_("A {noun}'s name is text", noun=_(noun)))
    key = name_key(name)
    found = next((i for i in items if i.key == key), None)
    if found is not None:
        return found
    plain = [i for i in items if _unaccented(i.key) == _unaccented(key)]
    if len(plain) == 1:
        return plain[0]
    shown = " ".join(name.split())[:NAME_MAX]
    if not items:
        raise RulesError(
            _(
                "No {noun} named '{name}' in this channel (there are none yet)",
                noun=_(noun),
                name=shown,
            )
        )
    by_key = {_unaccented(i.key): i.name for i in items}
    close = difflib.get_close_matches(_unaccented(key), list(by_key), n=3, cutoff=0.6)
    if close:
        guesses = (" " + _("or") + " ").join(by_key[k] for k in close)
        raise RulesError(
            _(
                "No {noun} named '{name}' in this channel: did you mean {guesses}?",
                noun=_(noun),
                name=shown,
                guesses=guesses,
            )
        )
    names = [i.name for i in items[:_LISTED_NAMES]]
    more = ", …" if len(items) > _LISTED_NAMES else ""
    raise RulesError(
        _(
            "No {noun} named '{name}' in this channel; here: {names}{more}",
            noun=_(noun),
            name=shown,
            names=", ".join(names),
            more=more,
        )
    )
