"""Names of characters and monsters as players type them: one set of rules for both."""

from __future__ import annotations

import unicodedata

from lang import _
from rules.errors import RulesError

NAME_LIMIT = 32  # fits an autocomplete choice and an embed title
# Punctuation a name may use besides letters, digits and spaces: nothing that pings, quotes
# code or formats text in Discord (`@`, backticks, `*`, `_`, `~`, `|`, `<`, `>`, `#`, ...).
NAME_PUNCTUATION = "'-.,!?()&"
# Accents a letter may carry: Vietnamese and Thai stack two, Zalgo text stacks dozens, which
# spill over the lines above and below in every list the name appears in.
MARKS_PER_LETTER = 3


def name_key(name: str) -> str:
    """How names are compared: spaces squeezed, casefolded, so 'Bórin' and ' BÓRIN' are one."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def clean_name(text: str, noun: str) -> str:
    """A name as shown: one line, spaces squeezed, 1–32 characters, nothing Discord formats.
    `noun` ("character", "monster", a marked message) names what is being named in the errors."""
    if len(text.strip().splitlines()) > 1:
        raise RulesError(_("A name must fit on one line"))
    name = " ".join(text.split())
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
    if not _is_word_char(name[0]):
        raise RulesError(_("A name must start with a letter or a number"))
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.category(char).startswith("M") else 0
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
