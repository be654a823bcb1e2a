"""Reading the translation catalogs (`lang/locales/<language>/LC_MESSAGES/*.po`) with Babel.

A catalog that can't be read, or whose translation names a placeholder its message doesn't
have (it would fail only when that message is shown, mid-session), stops start-up with one
line naming the file. A translation that drops a placeholder is caught by the tests instead:
it reads, just without that value.
"""

from __future__ import annotations

import functools
import io
import string
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import Translations

from lang import CATALOGS as LOCALES


class CatalogError(Exception):
    """A translation file that can't be used; its text is the one line to show."""


def placeholders(text: str) -> set[str]:
    """The names of a message's `{placeholders}`."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def translations(message: Message) -> list[str]:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return [text for text in strings if text]


def ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def read(path: Path) -> Catalog:
    """One .po file, checked; CatalogError (one line, naming the file) if it can't be used."""
    try:
        with path.open("rb") as file:
            catalog = read_po(file, abort_invalid=True)
    except (PoFileError, UnicodeDecodeError, OSError) as error:
        raise CatalogError(f"Translation file {path} can't be read: {error}") from None
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        allowed = set().union(*(placeholders(text) for text in ids(message)))
        if isinstance(message.id, (list, tuple)):
            allowed.add("n")
        for text in translations(message):
            try:
                unknown = placeholders(text) - allowed
            except ValueError as error:  # an unbalanced brace
                unknown = {str(error)}
            if unknown:
                raise CatalogError(
                    f"Translation file {path}, line {message.lineno}: the translation of "
                    f"{ids(message)[0][:50]!r} names {', '.join(sorted(unknown))} that the "
                    "message doesn't have"
                )
    return catalog


def load() -> dict[str, Translations]:
    """Every language under LOCALES, each one catalog merged from its .po files (read once per
    process: every bot built in it speaks the same languages)."""
    return load_from(LOCALES)


@functools.lru_cache(maxsize=4)
def load_from(locales: Path) -> dict[str, Translations]:
    """The catalogs under `locales`, by language: read once for each of the 4 folders read
    last (the bot reads one, LOCALES; a test may read its own)."""
    found: dict[str, Translations] = {}
    for folder in sorted(p for p in locales.glob("*/LC_MESSAGES") if p.is_dir()):
        merged: Translations | None = None
        for path in sorted(folder.glob("*.po")):
            compiled = io.BytesIO()
            write_mo(compiled, read(path))
            compiled.seek(0)
            part = Translations(compiled)
            merged = part if merged is None else merged.merge(part)
        if merged is not None:
            found[folder.parent.name] = merged
    return found
