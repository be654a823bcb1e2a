"""Every message the code marks (`_`, `n_`, `N_`, found as `pybabel extract` finds them) has a
translation in every shipped language, and each translation keeps the message's placeholders
(a dropped `{bonus}` would show a Spanish save without its number)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from lang.catalogs import LOCALES, ids, placeholders, read, translations

REPO = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}
# Where the README's `pybabel extract` looks: lang/babel.cfg, read by Babel itself.
with (REPO / "lang" / "babel.cfg").open(encoding="utf-8") as _cfg:
    METHOD_MAP, _OPTIONS = parse_mapping_cfg(_cfg)


def marked() -> dict[str, tuple[str, ...]]:
    """Each marked message (the singular for a plural pair) -> its ids, with where it is."""
    found: dict[str, tuple[str, ...]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        REPO, METHOD_MAP, keywords=KEYWORDS
    ):
        message_ids = message if isinstance(message, tuple) else (message,)
        found.setdefault(message_ids[0], (*message_ids, f"{filename}:{lineno}"))
    return found


def shipped() -> dict[str, Catalog]:
    """Each language's .po files merged, under the first file's header: its `Plural-Forms`
    says how many forms a plural message needs (the bot reads them the same way)."""
    languages: dict[str, Catalog] = {}
    for folder in sorted(LOCALES.glob("*/LC_MESSAGES")):
        merged: Catalog | None = None
        for path in sorted(folder.glob("*.po")):
            catalog = read(path)
            if merged is None:
                merged = catalog
                continue
            for message in catalog:
                if message.id:
                    merged[message.id] = message
        if merged is not None:
            languages[folder.parent.name] = merged
    return languages


MARKED = marked()
LANGUAGES = shipped()


def test_the_code_marks_messages() -> None:
    assert len(MARKED) > 0


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_marked_message_is_translated(language: str) -> None:
    catalog = LANGUAGES[language]
    missing = []
    for key, found in MARKED.items():
        message = catalog.get(key)
        texts = [] if message is None or message.fuzzy else translations(message)
        wanted = catalog.num_plurals if len(found) > 2 else 1
        if len(texts) < wanted:
            missing.append(f"{found[-1]}: {key!r}")
    assert not missing, f"{len(missing)} untranslated in {language}:\n" + "\n".join(missing[:40])


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_translation_keeps_its_placeholders(language: str) -> None:
    wrong = []
    for message in LANGUAGES[language]:
        if not message.id or message.fuzzy:
            continue
        wanted = placeholders(ids(message)[-1])
        for text in translations(message):
            kept = placeholders(text) | ({"n"} if len(ids(message)) > 1 else set())
            if not wanted <= kept:
                wrong.append(f"{ids(message)[0]!r} -> {text!r}: lost {wanted - kept}")
    assert not wrong, "\n".join(wrong)
